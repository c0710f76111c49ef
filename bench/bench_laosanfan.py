"""Speed of 老三番 and 金湖老三番: full AI hands per second, AI time per move, and the
ready detection (waits) of a 13-tile hand, cold and warm.

Run: ``/work/venv/bin/python bench/bench_laosanfan.py [hands]`` (default 40 per variant).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.match import Match  # noqa: E402
from engine.tiles import parse_kinds  # noqa: E402
from engine.variants import find_variant  # noqa: E402

#: 13-tile hands for the ready detection (waits with the wait rule shapes of both variants)
READY_HANDS = ["1112345678999m", "23456789m456s99p", "5678m123p456s789s", "34456m123p789s11s",
               "1122335566779p", "1345m246p88s3579s"]


def bench_hands(variant: str, n: int) -> None:
    opts = find_variant(variant).resolve_options({})
    moves = 0
    ai_time = 0.0
    t0 = time.perf_counter()
    wins = 0
    for seed in range(n):
        hand = Match(variant, opts, 10_000 + seed, 4).new_hand()
        while not hand.is_over():
            s = hand.pending_seats()[0]
            t = time.perf_counter()
            a = hand.ai_action(s)
            ai_time += time.perf_counter() - t
            hand.apply(a)
            moves += 1
        wins += hand.result["winner"] is not None
    dt = time.perf_counter() - t0
    print(f"{variant:10s} {n} full AI hands in {dt:.2f} s = {n / dt:.1f} hands/s; {moves} moves, "
          f"AI {1000 * ai_time / moves:.2f} ms/move, whole step {1000 * dt / moves:.2f} ms/move; "
          f"{wins} wins / {n - wins} draws")


def bench_ready(variant: str) -> None:
    info = find_variant(variant)
    hand = Match(variant, info.resolve_options({}), 1, 4).new_hand()
    seat = (hand.dealer + 1) % 4
    tiles = []
    for spec in READY_HANDS:
        kinds = parse_kinds(spec)[:13]
        tiles.append([k * 4 for k in kinds])
    cold = []
    for ts in tiles:  # first call of each shape (caches partly warm from dealing)
        hand.hands[seat] = list(ts)
        t = time.perf_counter()
        hand.waits(seat)
        cold.append(time.perf_counter() - t)
    reps = 2000
    t = time.perf_counter()
    for i in range(reps):
        hand.hands[seat] = tiles[i % len(tiles)]
        hand.waits(seat)
    warm = (time.perf_counter() - t) / reps
    t = time.perf_counter()
    for _ in range(200):
        hand.ready_map()
    all4 = (time.perf_counter() - t) / 200
    print(f"{variant:10s} ready detection of a 13-tile hand: cold max {1000 * max(cold):.3f} ms, "
          f"warm {1e6 * warm:.1f} µs (target ≤ 2 ms); all four seats {1e6 * all4:.1f} µs")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    for v in ("laosanfan", "jinhu"):
        bench_ready(v)
        bench_hands(v, n)


if __name__ == "__main__":
    main()
