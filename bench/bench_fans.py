"""Speed of the two_player fan calculator next to pymahjonggb, and of the 听 hint.

Run from the repository root::

    /work/venv/bin/python bench/bench_fans.py [n_hands]

Prints calls/second of ``calculate_fans`` and of ``MahjongGB.MahjongFanCalculator``
on the same random winning hands (万 and honours, melds, concealed kongs, seven
pairs; every timed hand distinct and scored once), their ratio, and the time of a
"ting hint" on 14-tile hands: for every possible discard, the winning tiles of the
remaining 13 and the fans of each win (``docs/rules/two_player.md``, "Play": the hint
shown before declaring 听).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import MahjongGB  # noqa: E402

from engine import hand_shapes  # noqa: E402
from engine.melds import CHOW, KONG, PUNG, Meld  # noqa: E402
from engine.variants.two_player import fans as fans_mod  # noqa: E402
from engine.variants.two_player.fans import WinContext, calculate_fans  # noqa: E402

ALLOWED = tuple(range(9)) + tuple(range(27, 34))


def oracle_tile(kind: int) -> str:
    if kind < 9:
        return f"W{kind + 1}"
    if kind <= 30:
        return f"F{kind - 26}"
    return {31: "J3", 32: "J2", 33: "J1"}[kind]


def random_hand(rng: random.Random):
    """(WinContext, oracle args) of one random winning hand of 万 and honours."""
    while True:
        counts = [0] * 34
        sets = []
        ok = True
        if rng.random() < 0.12:  # seven pairs
            kinds = rng.sample(ALLOWED, 7)
            tiles = [k for k in kinds for _ in range(2)]
            win = rng.choice(tiles)
            tiles.remove(win)
            melds, packs = (), ()
        else:
            for _ in range(4):
                for _try in range(10):
                    r = rng.random()
                    if r < 0.6:
                        k = rng.randrange(7)
                        if all(counts[k + j] < 4 for j in range(3)):
                            for j in range(3):
                                counts[k + j] += 1
                            sets.append((CHOW, k))
                            break
                    else:
                        typ = PUNG if r < 0.93 else KONG
                        k = rng.choice(ALLOWED)
                        need = 3 if typ == PUNG else 4
                        if counts[k] + need <= 4:
                            counts[k] += need
                            sets.append((typ, k))
                            break
                else:
                    ok = False
            pairs = [k for k in ALLOWED if counts[k] <= 2]
            if not ok or not pairs:
                continue
            pair = rng.choice(pairs)
            tiles = [pair, pair]
            melds_l, packs_l = [], []
            meld_p = rng.choice((0.0, 0.0, 0.3, 0.6))
            for typ, k in sets:
                if typ == KONG:
                    conc = rng.random() < 0.5
                    melds_l.append(Meld(KONG, tuple(k * 4 + i for i in range(4)), concealed=conc))
                    packs_l.append(("GANG", oracle_tile(k), 0 if conc else 1))
                elif rng.random() < meld_p:
                    if typ == CHOW:
                        melds_l.append(Meld(CHOW, (k * 4, k * 4 + 4, k * 4 + 8)))
                        packs_l.append(("CHI", oracle_tile(k + 1), 1))
                    else:
                        melds_l.append(Meld(PUNG, (k * 4, k * 4 + 1, k * 4 + 2)))
                        packs_l.append(("PENG", oracle_tile(k), 1))
                else:
                    tiles += [k, k + 1, k + 2] if typ == CHOW else [k, k, k]
            win = rng.choice(tiles)
            tiles.remove(win)
            melds, packs = tuple(melds_l), tuple(packs_l)
        self_drawn = rng.random() < 0.5
        ctx = WinContext(tuple(sorted(tiles)), melds, win, self_drawn)
        total = [0] * 34
        for k in tiles + [win]:
            total[k] += 1
        for m in melds:
            for k in m.kinds:
                total[k] += 1
        wind = next((w for w in range(4) if total[27 + w] < 3), 0)
        args = (packs, tuple(oracle_tile(k) for k in sorted(tiles)), oracle_tile(win), 0, self_drawn,
                False, False, False, wind, wind)
        return ctx, args


def _hand_key(ctx: WinContext) -> tuple:
    return (ctx.concealed, tuple((m.type, m.kind, m.concealed) for m in ctx.melds), ctx.win_tile, ctx.self_drawn)


def distinct_hands(rng: random.Random, n: int, seen: set) -> list:
    """``n`` random winning hands, none equal to another or to one in ``seen``."""
    out = []
    while len(out) < n:
        ctx, args = random_hand(rng)
        key = _hand_key(ctx)
        if key not in seen:
            seen.add(key)
            out.append((ctx, args))
    return out


def _clear_caches() -> None:
    """Empty every memo of hand_shapes and of the fan calculator (per-group splits and
    waits, set-combination tables, melds, ...)."""
    for cache in (hand_shapes._DECOMP_CACHE, hand_shapes._MASK_CACHE, hand_shapes._WAIT_CACHE,
                  hand_shapes._SPLIT_CACHE, hand_shapes._BLOCK_CACHE,
                  fans_mod._CHOW_TABLE, fans_mod._PUNG_TABLE, fans_mod._GROUPS, fans_mod._OTHER_WAIT,
                  fans_mod._TO_SETS, fans_mod._REL_SPLITS, fans_mod._MELD_CACHE, fans_mod._BASE_TABLE,
                  fans_mod._TILE_FAN_TABLE, fans_mod._FAN_CACHE):
        cache.clear()


def bench_calls(n: int, rounds: int = 3, seed: int = 1) -> None:
    """Calls/second of ours and of pymahjonggb on the same hands.

    Every timed hand is scored once: the memo tables are first warmed on ``n`` other
    hands (as in a running bot), then each of ``rounds`` rounds scores ``n`` hands
    never seen before (distinct from each other, the warm-up and earlier rounds),
    with both calculators; the best round of each is reported.  Nothing caches a
    whole result, so a repeated hand would cost the same; the hands are still kept
    distinct so that no figure can come from repeats.
    """
    rng = random.Random(seed)
    seen: set = set()
    calc = MahjongGB.MahjongFanCalculator
    for ctx, _args in distinct_hands(rng, n, seen):  # warm-up on other hands
        calculate_fans(ctx)
    ours = theirs = 0.0
    for _ in range(rounds):
        hands = distinct_hands(rng, n, seen)
        ctxs = [h[0] for h in hands]
        oracle_args = [h[1] for h in hands]
        t0 = time.perf_counter()
        for c in ctxs:
            calculate_fans(c)
        ours = max(ours, n / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for a in oracle_args:
            try:
                calc(*a)
            except TypeError:
                pass
        theirs = max(theirs, n / (time.perf_counter() - t0))
    # cold: every memo emptied (first sight of every suit pattern and set combination)
    hands = distinct_hands(rng, n, seen)
    _clear_caches()
    t0 = time.perf_counter()
    for ctx, _args in hands:
        calculate_fans(ctx)
    cold = n / (time.perf_counter() - t0)
    print(f"hands: {rounds} rounds of {n} distinct random winning hands (万 + honours), each scored once")
    print(f"calculate_fans (warm tables): {ours:10.0f} calls/s  ({1e6 / ours:6.1f} us/call)")
    print(f"calculate_fans (cold tables): {cold:10.0f} calls/s  ({1e6 / cold:6.1f} us/call)")
    print(f"pymahjonggb MahjongFanCalculator: {theirs:10.0f} calls/s  ({1e6 / theirs:6.1f} us/call)")
    print(f"ratio pymahjonggb / ours (warm): {theirs / ours:.1f}x slower (target <= 5x)")


def ting_hint(hand14: list[int], n_melds: int = 0, melds: tuple = ()) -> dict:
    """{discard kind: [(winning kind, total fan), ...]} for a 14-tile concealed part."""
    counts = [0] * 34
    for k in hand14:
        counts[k] += 1
    out = {}
    for d in sorted(set(hand14)):
        counts[d] -= 1
        wins = hand_shapes.winning_kinds(counts, n_melds, ALLOWED)
        if wins:
            rest = list(hand14)
            rest.remove(d)
            conc = tuple(sorted(rest))
            row = []
            for w in wins:
                # a win on a discard (the hint shows the fan of a discard win)
                r = calculate_fans(WinContext(conc, melds, w, False))
                row.append((w, r.total))
            out[d] = row
        counts[d] += 1
    return out


def bench_ting(seed: int = 2) -> None:
    from engine.tiles import kinds_str, parse_kinds

    samples = [
        "11123456789999m",  # nine gates shape: many discards, many waits
        "11223344556677m",  # seven pairs / chows
        "1112223334445m5z",
        "12345678m111222z",
        "2223334445556m7z",
    ]
    rng = random.Random(seed)
    for _ in range(20):  # random ready 14-tile hands: a winning hand with one tile swapped
        ctx, _args = random_hand(rng)
        if ctx.melds:
            continue
        tiles = list(ctx.concealed) + [ctx.win_tile]
        tiles[rng.randrange(14)] = rng.choice(ALLOWED)
        counts = [0] * 34
        for k in tiles:
            counts[k] += 1
        if max(counts) <= 4:
            samples.append(kinds_str(sorted(tiles)))
    times = []
    worst = (0.0, "")
    for s in samples:
        hand = parse_kinds(s)
        hand_shapes._DECOMP_CACHE.clear()
        t0 = time.perf_counter()
        ting_hint(hand)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(5):
            ting_hint(hand)
        warm = (time.perf_counter() - t0) / 5
        times.append(warm)
        if cold > worst[0]:
            worst = (cold, s)
        if s in samples[:5]:
            print(f"ting hint {s:>16}: {warm * 1e3:6.2f} ms (cold {cold * 1e3:6.2f} ms)")
    times.sort()
    print(f"ting hint over {len(samples)} hands: median {times[len(times) // 2] * 1e3:.2f} ms, "
          f"max {times[-1] * 1e3:.2f} ms (target <= 20 ms); worst cold {worst[0] * 1e3:.2f} ms ({worst[1]})")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    bench_calls(n)
    bench_ting()
