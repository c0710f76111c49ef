"""老五对 figures (``docs/rules/laowudui.md``).

    python bench/bench_laowudui.py

Prints the time to compute the winning-tile set of an eleven-tile hand holding three 百搭
(cold: the reading cache emptied before every computation; target ≤ 1 ms), the time per
AI decision, and full AI hands per second for 2, 3 and 4 players with each 百搭 option.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.melds import Meld  # noqa: E402
from engine.tiles import kind_str, parse_kinds  # noqa: E402
from engine.variants import find_variant  # noqa: E402
from engine.variants.laowudui.shapes import _is_win_cached, _readings_cached  # noqa: E402

INFO = find_variant("laowudui")


def _tiles(text: str) -> list[int]:
    used: dict[int, int] = {}
    out = []
    for k in parse_kinds(text):
        out.append(k * 4 + used.get(k, 0))
        used[k] = used.get(k, 0) + 1
    return out


def bench_waits() -> None:
    opts = INFO.resolve_options({"wilds": 4})
    hand = INFO.new_hand(opts, 1, 0, 2, {"stacked": {"hands": [parse_kinds("1m2m3m4m5m6m7m8m9m1p2p3p"),
                                                               parse_kinds("1s2s3s4s5s7s8s9s4p5p6p")],
                                                     "indicator": parse_kinds("7s")[0]}})
    cases = {
        "concealed 1m1m2m2m3m3m4m5p + 3 wild": ("1m1m2m2m3m3m4m5p6s6s6s", []),
        "example: pairs 5m 6m 8m melded, 3s 4s + 3 wild": ("6s6s6s3s4s", ["5m5m", "6m6m", "8m8m"]),
        "concealed 1h 2h Tm Tm 9p 9p 5s 1m + 3 wild": ("1h2hTmTm9p9p5s1m6s6s6s", []),
    }
    for name, (concealed, melds) in cases.items():
        hand.hands[1] = _tiles(concealed)
        hand.melds[1] = [Meld("chi", tuple(_tiles(m))) for m in melds]
        n = 300
        t0 = time.perf_counter()
        for _ in range(n):
            _readings_cached.cache_clear()
            _is_win_cached.cache_clear()
            hand._wins_cache.clear()
            waits = hand.waits(1)
        cold = (time.perf_counter() - t0) / n * 1e3
        t0 = time.perf_counter()
        for _ in range(n):
            hand._wins_cache.clear()
            hand.waits(1)
        warm = (time.perf_counter() - t0) / n * 1e3
        print(f"winning tiles of {name}: {' '.join(kind_str(k) for k in waits)}  "
              f"cold {cold:.3f} ms, reading cache warm {warm:.3f} ms (target <= 1 ms)")


def bench_hands() -> None:
    for n in (2, 3, 4):
        for wilds in (4, 7, 11):
            opts = INFO.resolve_options({"wilds": wilds})
            hands = actions = 0
            t0 = time.perf_counter()
            worst = 0.0
            for seed in range(60):
                h = INFO.new_hand(opts, seed, seed % n, n, {})
                while not h.is_over():
                    s = h.pending_seats()[0]
                    a0 = time.perf_counter()
                    a = h.ai_action(s)
                    worst = max(worst, time.perf_counter() - a0)
                    h.apply(a)
                    actions += 1
                hands += 1
            dt = time.perf_counter() - t0
            print(f"{n} players, {wilds:2d} wilds: {hands / dt:6.1f} AI hands/s, {actions / hands:5.1f} actions/hand, "
                  f"{dt / actions * 1e3:.3f} ms per action (AI choice + apply), worst AI choice {worst * 1e3:.2f} ms")


if __name__ == "__main__":
    bench_waits()
    bench_hands()
