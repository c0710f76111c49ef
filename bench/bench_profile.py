"""``/mj profile`` and the leaderboards on a big stored history: p50/p99 of each answer's work at
1,000, 10,000 and 100,000 stored hands on SQLite.

    python bench/bench_profile.py [--hands 1000 10000 100000] [--game laosanfan] [--runs 20]
                                  [--against REV]

The history: one player (``me``) with two others and an AI seat at an open-ended table of the
game, 40 hands a day (100,000 hands span seven years: a tally row a day per player).  Distinct
hands are dealt from seeds and played by the game's AI once, then stored and settled again and
again as the table service settles them (rated and tallied live, in the settling transaction).

Timed, each on a cold start (nothing kept between two runs):

* ``profile``: the player's profile gathered from the store (all time) and its card drawn and
  encoded as PNG — the whole work of the answer;
* ``profile month``: the same with the rates of this month;
* ``rating board`` / ``dan board``: ``/mj leaderboard by:rating|dan``;
* ``points board``: ``/mj leaderboard`` (points, all time).

Discord's answer must come within 3 s without deferring; the goal is p99 ≤ 1.5 s.
``--against REV`` runs the same sizes up to 10,000 hands with REV's own copy of this script (its
``profile`` and ``rating board`` columns; checked out in a git worktree under
``~/.cache/bench_discord/``) and prints the ratio now / before side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "harness"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HARNESS))

from rated_history import new_rated_table, play_by_ai, store_played  # noqa: E402
from revisions import worktree  # noqa: E402

from engine.variants import find_variant  # noqa: E402
from render.profile import profile_image  # noqa: E402
from service.profile import Profiles  # noqa: E402
from service.rates import RateBook  # noqa: E402
from service.records import Records  # noqa: E402
from store import Store  # noqa: E402

GUILD, ME = 1, 101
SEATS = [ME, 102, None, 103]
PER_DAY = 40
DISTINCT = 200
START = datetime(2020, 1, 1, 9, 0, tzinfo=timezone.utc)
COLUMNS = ("profile", "profile month", "rating board", "dan board", "points board")

def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


async def one_size(n: int, game: str, runs: int, played: list) -> tuple[dict[str, list[float]], float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        store = Store(f"sqlite:///{tmp}/bench.db", clock=clock, sqlite_synchronous="NORMAL")
        await store.init()
        t0 = time.perf_counter()
        table = await new_rated_table(store, GUILD, 1, game)
        for i in range(n):
            clock.now = START + timedelta(days=i // PER_DAY, minutes=10 * (i % PER_DAY))
            await store_played(store, table, i + 1, SEATS, played[i % len(played)])
        built = time.perf_counter() - t0
        clock.now += timedelta(minutes=10)
        size = os.path.getsize(f"{tmp}/bench.db")
        facts = find_variant(game).facts
        times: dict[str, list[float]] = {c: [] for c in COLUMNS}
        for _ in range(runs):
            profiles = Profiles(store, RateBook(store))  # a cold start each time
            for column, period in (("profile", "all"), ("profile month", "month")):
                t = time.perf_counter()
                p = await profiles.profile(GUILD, ME, "me", facts, period)
                await asyncio.to_thread(profile_image, p, "zh-CN")
                times[column].append(time.perf_counter() - t)
            for column, by in (("rating board", "rating"), ("dan board", "dan")):
                t = time.perf_counter()
                await profiles.board(GUILD, game, by)
                times[column].append(time.perf_counter() - t)
            t = time.perf_counter()
            await Records(store).leaderboard(GUILD, game, "all")
            times["points board"].append(time.perf_counter() - t)
        await store.close()
        return times, built, size



def before(rev: str, sizes: list[int], game: str, runs: int) -> dict[int, tuple[float, float]]:
    """REV's ``profile+card`` and ``board`` p99 per size (its own script's printed lines)."""
    tree = worktree(rev)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree), str(tree / "tests" / "harness")]))
    out = subprocess.run([sys.executable, "bench/bench_profile.py", "--hands", *map(str, sizes), "--game", game,
                          "--runs", str(runs)], cwd=str(tree), env=env, capture_output=True, text=True,
                         check=True).stdout
    got = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0].isdigit():
            got[int(parts[0])] = (float(parts[2]), float(parts[4]))
    return got


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--game", default="laosanfan")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--against", help="a revision to compare with (sizes up to 10,000)")
    args = ap.parse_args()
    played = [play_by_ai(args.game, len(SEATS), seed) for seed in range(DISTINCT)]
    old = before(args.against, [n for n in args.hands if n <= 10_000], args.game, max(3, args.runs // 4)) \
        if args.against else {}
    print(f"{args.game}, {args.runs} runs per size; seconds p50 / p99 (goal: p99 ≤ 1.5)")
    print(f"{'hands':>7s}  " + "  ".join(f"{c:>17s}" for c in COLUMNS) + "   built     db")
    for n in args.hands:
        times, built, size = asyncio.run(one_size(n, args.game, args.runs, played))
        cells = "  ".join(f"{pct(times[c], 50):8.3f} /{pct(times[c], 99):7.3f}" for c in COLUMNS)
        print(f"{n:7d}  {cells}  {built:5.0f} s {size / 2**20:5.0f} MiB")
        if n in old:
            card, board = old[n]
            print(f"{'':7s}  {args.against} p99: profile {card:.3f} ({pct(times['profile'], 99) / card:.2f}×),"
                  f" rating board {board:.3f} ({pct(times['rating board'], 99) / board:.2f}×)")


if __name__ == "__main__":
    main()
