"""字牌 timings (docs/rules/zipai.md §Winning, §胡息): the best-胡息 split of a 15-card hand (target
≤ 1 ms) and the winning-card computation of a 14-card hand (target ≤ 5 ms), over random hands
dealt from the 80 cards; cold (memo cleared before each hand) and warm figures.

    python bench/bench_zipai.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.variants import find_variant  # noqa: E402
from engine.variants.zipai import ZipaiHand  # noqa: E402
from engine.variants.zipai.huxi import _split, best_win  # noqa: E402


def random_counts(rng: random.Random, size: int) -> list[int]:
    cards = [i for i in range(20) for _ in range(4)]
    rng.shuffle(cards)
    c = [0] * 20
    for i in cards[:size]:
        c[i] += 1
    return c


def timed(fn, reps: int) -> list[float]:
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    rng = random.Random(1)
    hands15 = [random_counts(rng, 15) for _ in range(2000)]
    # winning 15-card hands make the split search do all its work
    wins = [h for h in hands15 if best_win(h, [], None) is not None]
    while len(wins) < 500:  # add winning hands built from five random groups
        c = [0] * 20
        for _ in range(5):
            i = rng.randrange(20)
            shape = rng.choice(("run", "jiao", "kan", "e"))
            if shape == "run" and i % 10 <= 7:
                g = (i, i + 1, i + 2)
            elif shape == "e":
                g = (i - i % 10 + 1, i - i % 10 + 6, i - i % 10 + 9)
            elif shape == "kan":
                g = (i, i, i)
            else:
                g = (i, i, (i + 10) % 20)
            for x in g:
                c[x] += 1
        if max(c) <= 3 and best_win(c, [], None) is not None:
            wins.append(c)
    hands15 = hands15[:1500] + wins
    cold = []
    for h in hands15:
        _split.cache_clear()
        cold += timed(lambda: best_win(h, [], None), 1)
    warm = [x for h in hands15 for x in timed(lambda: best_win(h, [], None), 1)]
    print(f"best-胡息 split, 15-card hand ({len(hands15)} random, {len(wins)} winning): "
          f"cold mean {statistics.mean(cold):.3f} ms, p99 {sorted(cold)[int(len(cold) * .99)]:.3f} ms; "
          f"warm mean {statistics.mean(warm):.4f} ms  (target <= 1 ms)")

    info = find_variant("zipai")
    options = info.resolve_options({"piao_max": 0})
    cold, warm = [], []
    for seed in range(300):
        hand = ZipaiHand(options, seed, 0, 3, {})
        seat = 1  # a non-dealer: 14 cards (starting 提 laid down)
        _split.cache_clear()
        cold += timed(lambda: hand.waits(seat), 1)
        warm += timed(lambda: hand.waits(seat), 1)
    print(f"winning cards of a 14-card hand (20 candidate cards, {len(cold)} deals): "
          f"cold mean {statistics.mean(cold):.3f} ms, p99 {sorted(cold)[int(len(cold) * .99)]:.3f} ms; "
          f"warm mean {statistics.mean(warm):.3f} ms  (target <= 5 ms)")


if __name__ == "__main__":
    main()
