"""Speed of win and ready detection with wild tiles (``engine.wilds``), next to the
``mahjong`` package's ``Agari.is_agari`` on the same wild-free hands, and of the 财神麻将 AI.

Run from the repository root::

    /work/venv/bin/python bench/bench_caishen.py [n_hands]

Prints win checks per second of ``wilds.is_win`` on random 14-tile hands with 0, 2 and 4
wild tiles (half of them built as winning hands), of ``Agari().is_agari`` on the
0-wild hands in the same run, the ratio, the time of ready detection
(``wilds.winning_kinds``) on 13-tile hands with 3 wilds, and the AI's time per move in
AI-only 财神麻将 hands.  Timings are taken after a warm-up on other hands (the per-suit
tables are memoised; a cold first call costs more).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mahjong.agari import Agari  # noqa: E402

from engine import wilds  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.variants import find_variant  # noqa: E402


def winning_hand(rnd: random.Random) -> list[int]:
    """Four random sets and a pair (<= 4 copies a kind)."""
    while True:
        c = [0] * 34
        for _ in range(4):
            if rnd.random() < 0.6:
                s = rnd.randrange(3) * 9 + rnd.randrange(7)
                for k in (s, s + 1, s + 2):
                    c[k] += 1
            else:
                c[rnd.randrange(34)] += 3
        c[rnd.randrange(34)] += 2
        if max(c) <= 4:
            return c


def random_hand(rnd: random.Random, n: int) -> list[int]:
    c = [0] * 34
    while sum(c) < n:
        k = rnd.randrange(34)
        if c[k] < 4:
            c[k] += 1
    return c


def remove_random(rnd: random.Random, c: list[int], n: int) -> list[int]:
    c = list(c)
    for _ in range(n):
        k = rnd.choice([i for i in range(34) if c[i]])
        c[k] -= 1
    return c


def hands(rnd: random.Random, n: int, w: int) -> list[list[int]]:
    out = []
    for i in range(n):
        base = winning_hand(rnd) if i % 2 == 0 else random_hand(rnd, 14)
        out.append(remove_random(rnd, base, w))
    return out


def rate(fn, items) -> float:
    t = time.perf_counter()
    for it in items:
        fn(it)
    return len(items) / (time.perf_counter() - t)


def main(n: int = 20000) -> None:
    rnd = random.Random(1)
    agari = Agari()
    cold = hands(random.Random(99), n, 0)
    rc = rate(lambda c: wilds.is_win(c, 0), cold)
    for w in (0, 2, 4):  # warm-up on other hands
        for c in hands(rnd, 3 * n, w):
            wilds.is_win(c, w)
    print(f"win checks per second, {n} random 14-tile hands each (half built to win):")
    print(f"  wilds.is_win, 0 wilds, first calls of the process (tables filling): {rc:,.0f}/s")
    zero = hands(rnd, n, 0)
    r0 = rate(lambda c: wilds.is_win(c, 0), zero)
    ra = rate(agari.is_agari, zero)
    agree = sum(wilds.is_win(c, 0) == agari.is_agari(c) for c in zero)
    print(f"  wilds.is_win, 0 wilds : {r0:12,.0f}/s")
    print(f"  Agari.is_agari        : {ra:12,.0f}/s   (same hands; wilds/agari = {r0 / ra:.2f}x; "
          f"agree on {agree}/{n})")
    for w in (2, 4):
        hs = hands(rnd, n, w)
        r = rate(lambda c, w=w: wilds.is_win(c, w), hs)
        wins = sum(wilds.is_win(c, w) for c in hs)
        print(f"  wilds.is_win, {w} wilds : {r:12,.0f}/s   ({wins} of {n} win)")
    # ready detection: 13-tile hands with 3 wilds
    ready_hands = [remove_random(rnd, winning_hand(rnd), 4) if i % 2 == 0 else random_hand(rnd, 10)
                   for i in range(2000)]
    t = time.perf_counter()
    n_ready = 0
    for c in ready_hands:
        n_ready += bool(wilds.winning_kinds(c, 3))
    dt = (time.perf_counter() - t) / len(ready_hands)
    worst = 0.0
    for c in ready_hands[:300]:
        t0 = time.perf_counter()
        wilds.winning_kinds(c, 3)
        worst = max(worst, time.perf_counter() - t0)
    print(f"ready detection (winning_kinds), 13 tiles with 3 wilds: {dt * 1e3:.3f} ms mean, "
          f"{worst * 1e3:.3f} ms worst of 300 ({n_ready} of {len(ready_hands)} ready)")
    # cold: a fresh process would pay the per-suit tables once
    print(f"memoised table sizes: need {len(wilds._NEED_CACHE)}, groups {len(wilds._GROUP_CACHE)}")
    # AI
    info = find_variant("caishen")
    opts = info.resolve_options({})
    moves = 0
    t = time.perf_counter()
    ai_time = 0.0
    for seed in range(20):
        hand = Match("caishen", opts, seed, 4).new_hand()
        while not hand.is_over():
            s = hand.pending_seats()[0]
            t0 = time.perf_counter()
            a = hand.ai_action(s)
            ai_time += time.perf_counter() - t0
            hand.apply(a)
            moves += 1
    total = time.perf_counter() - t
    print(f"AI: {moves} moves in 20 hands, {ai_time / moves * 1e3:.2f} ms per AI move, "
          f"{total / moves * 1e3:.2f} ms per action including apply")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
