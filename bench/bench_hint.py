"""Speed of the discard hint (听牌提示) at every own discard, in every game, on its largest
hands: 4 seats where the game has them, 老五对 with 11 百搭, 字牌 with 4 players.

For each game: how many decisions were timed, the hint's p50 / p99 / max in ms (goal: p99
≤ 20 ms), and side by side in the same run the seat's whole view with the hint and without it
(the hint answered empty), p50 each and their ratio — what the hint adds to a panel.  Each
timing runs on a fresh copy of the hand, so no answer cached by another timing helps it.

Run: ``python bench/bench_hint.py [hands]`` (default 30 seeded AI hands a game).
"""

from __future__ import annotations

import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.variants import all_variants  # noqa: E402

#: the options of each game's largest hands
LARGEST = {"laowudui": {"wilds": 11}}


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000


def bench(info, hands: int) -> None:
    opts = info.resolve_options(LARGEST.get(info.id, {}))
    hint_t: list[float] = []
    with_t: list[float] = []
    without_t: list[float] = []
    cls = None
    for seed in range(1, hands + 1):
        hand = info.new_hand(opts, 50_000 + seed, 0, info.max_players)
        cls = type(hand)
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            if any(a.type == "discard" for a in hand.legal_actions(seat)) and hand.view(seat)["me"].get("hint") is not None:
                fresh = copy.deepcopy(hand)  # the same decision with no answer kept from before
                t = time.perf_counter()
                fresh.ting_hint(seat)
                hint_t.append(time.perf_counter() - t)
                fresh = copy.deepcopy(hand)
                t = time.perf_counter()
                fresh.view(seat)
                with_t.append(time.perf_counter() - t)
                original = cls.ting_hint
                cls.ting_hint = lambda self, seat, *a: []  # type: ignore[method-assign]
                try:
                    fresh = copy.deepcopy(hand)
                    t = time.perf_counter()
                    fresh.view(seat)
                    without_t.append(time.perf_counter() - t)
                finally:
                    cls.ting_hint = original  # type: ignore[method-assign]
            hand.apply(hand.ai_action(seat))
    w, wo = statistics.median(with_t) * 1000, statistics.median(without_t) * 1000
    print(f"{info.id:11s} {len(hint_t):6d}  hint p50 {_pct(hint_t, .5):6.2f}  p99 {_pct(hint_t, .99):6.2f}  "
          f"max {max(hint_t) * 1000:6.2f} ms   view p50 with {w:6.2f} / without {wo:6.2f} ms  ({w / wo:4.2f}×)")


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    print(f"discard hint, {hands} seeded AI hands a game, every own discard (goal p99 ≤ 20 ms)")
    for info in all_variants():
        bench(info, hands)


if __name__ == "__main__":
    main()
