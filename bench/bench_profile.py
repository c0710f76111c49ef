"""``/mj profile`` and the rating leaderboard on a stored history: p50/p99 of the answer's work
(the profile gathered from the store, the card drawn and encoded; the board read) at a number
of stored hands.

    python bench/bench_profile.py [--hands 1000 10000] [--game laosanfan] [--runs 20]

The history is one player with three others (one an AI seat) at open-ended tables, hands dealt
from seeds and played by the game's AI, stored and settled as the table service settles them
(rated live), on a fresh SQLite file per size (the hands are played once and reused: a hand is
stored again under a new table id for every repetition).  Discord's answer must come within
3 s without deferring; the goal is p99 ≤ 1.5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "harness"))

from rated_history import new_rated_table, played_hand  # noqa: E402

from engine.variants import find_variant  # noqa: E402
from render.profile import profile_image  # noqa: E402
from service.profile import Profiles  # noqa: E402
from service.rates import RateBook  # noqa: E402
from store import Store  # noqa: E402

GUILD, ME = 1, 101


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


async def one_size(n: int, game: str, runs: int) -> tuple[list[float], list[float], float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{tmp}/bench.db", sqlite_synchronous="NORMAL")
        await store.init()
        t0 = time.perf_counter()
        table = await new_rated_table(store, GUILD, 1, game)
        for i in range(n):
            await played_hand(store, table, i + 1, [ME, 102, None, 103], game, seed=i)
        built = time.perf_counter() - t0
        profiles = Profiles(store, RateBook(store))
        facts = find_variant(game).facts
        card, board = [], []
        for _ in range(runs):
            profiles.book = RateBook(store)  # a cold cache each time: the first look after a start
            t = time.perf_counter()
            p = await profiles.profile(GUILD, ME, "me", facts)
            await asyncio.to_thread(profile_image, p, "zh-CN")
            card.append(time.perf_counter() - t)
            t = time.perf_counter()
            await profiles.board(GUILD, game, "rating")
            board.append(time.perf_counter() - t)
        await store.close()
        return card, board, built


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--game", default="laosanfan")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    print(f"{'hands':>7s}  {'profile+card p50':>16s} {'p99':>7s}  {'board p50':>9s} {'p99':>7s}  (s; history built in)")
    for n in args.hands:
        card, board, built = asyncio.run(one_size(n, args.game, args.runs))
        print(f"{n:7d}  {pct(card, 50):16.3f} {pct(card, 99):7.3f}  {pct(board, 50):9.3f} {pct(board, 99):7.3f}"
              f"  ({built:.0f} s)")


if __name__ == "__main__":
    main()
