"""Strength of the AI levels (``engine/ai_levels.py``), per game, over seeded walls.

For every wall (a seeded first hand of a table of the game's largest seat count) and every
tested level, one seat plays the tested level and the others play ``normal`` — the field is
the plain AI, so a level is measured against what the tables play today, and ``normal``
against itself scores exactly 0.  The tested seat is rotated through every seat on the same
wall (the same deal, the same dealer), and the n seatings averaged are one sample: the tested
seat's points per hand.  The paired difference of two levels is taken wall by wall (the same
walls), so the luck of the deal cancels out.

At least ``--walls`` walls are played per game (1,000 by default), and more, in steps, up to
``--max-walls`` (5,000) while the 95% interval of a paired difference (strong − normal,
easy − normal) still includes zero.  A level whose move function is the ``normal`` one (a game
without its own strong AI yet) plays exactly as normal: it is not played again, and its row
says ``= normal``.

Printed per game and level: points per hand with its 95% interval, the paired difference to
normal with its interval, win rate, deal-in rate (others win on the tested seat's discard, or
rob its kong), deal-ins into a declared 听 (games with 听), the times the tested seat was made
liable (老三番 三摊, 金湖 包五家), the decision time of the tested seat (mean, p99, ms, by
``time.perf_counter`` around each decision), and how often each scoring item (fan, special,
style) was in the tested seat's wins (老三番's and 金湖's fan hands and 财神麻将's specials
always, 0 included: :data:`TRACKED`).  Then the wall count and the run time.

Run from the repository root (the full run takes about an hour; ``--quick`` a few minutes)::

    python bench/bench_ai_strength.py --quick
    python bench/bench_ai_strength.py --games laosanfan,caishen --walls 2000 --jobs 2

Hands are played with the engine only (``Match`` / ``VariantInfo.new_hand``): no service, no
database.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.ai_levels import LEVELS  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.variants import all_variants, find_variant  # noqa: E402

from engine.variants.caishen import SPECIALS  # noqa: E402

FIELD = "normal"  #: the level of the other seats
#: scoring items always printed, 0 included, before the others a level's wins had: the fan
#: hands of 老三番 / 金湖 and every special hand of 财神麻将
TRACKED = {"laosanfan": ("清一色", "混一色", "对对胡"), "jinhu": ("清一色", "对对胡", "七对"),
           "caishen": tuple(zh for zh, _en, _v in SPECIALS.values())}
STEP = 250  #: walls added at a time past the minimum


def _winners(result: dict) -> list[int]:
    return list(result.get("winners") or ([] if result.get("winner") is None else [result["winner"]]))


def _items(result: dict, seat: int) -> list[str]:
    """The scoring items of ``seat``'s win: its fans (zh names), 财神麻将's specials among
    them, 老三番's style."""
    by_seat = result.get("fans_by_seat") or {}
    fans = by_seat.get(str(seat), by_seat.get(seat)) if by_seat else None
    out = [f[0] for f in (fans or result.get("fans") or [])]
    if result.get("style_name"):
        out.append(result["style_name"])
    return out


def play_hand(game: str, seed: int, levels: list[str], tested: int | None) -> tuple[dict, object, list[float]]:
    """One hand of ``game`` on the wall of ``seed`` with seat ``s`` at ``levels[s]``: the
    result, the finished hand and the decision times (s) of seat ``tested``."""
    info = find_variant(game)
    hand = Match(info, info.resolve_options({}), table_seed=seed, n_seats=len(levels)).new_hand()
    times: list[float] = []
    moves = 0
    while not hand.is_over():
        seat = hand.pending_seats()[0]
        t0 = time.perf_counter()
        action = info.ai_move(hand, seat, levels[seat])
        dt = time.perf_counter() - t0
        if seat == tested:
            times.append(dt)
        hand.apply(action)
        moves += 1
        if moves > 5000:
            raise RuntimeError(f"{game} wall {seed}: the hand does not end")
    return hand.result, hand, times


def _tally(out: dict, result: dict, hand, seat: int) -> None:
    winners = _winners(result)
    out["points"].append(result["points"][seat])
    if seat in winners:
        out["wins"] += 1
        out["items"].update(_items(result, seat))
    elif winners and result.get("discarder") == seat:
        out["dealins"] += 1
        ting = getattr(hand, "ting", None)
        if ting is not None and any(ting[w] for w in winners):
            out["ting_dealins"] += 1
    out["liability"] = out["liability"] or "liable" in result or "baowu" in result
    if result.get("liable", result.get("baowu")) == seat:
        out["liable"] += 1


def play_wall(args: tuple[str, int, tuple[str, ...]]) -> dict[str, dict]:
    """All seatings of one wall for each level: ``{level: {"sample", "seatings", "wins",
    "dealins", "ting_dealins", "liable", "times", "items"}}`` (``sample``: the tested seat's
    points per hand averaged over the seatings)."""
    game, seed, levels = args
    info = find_variant(game)
    n = info.max_players
    out: dict[str, dict] = {}
    for level in levels:
        rec = {"points": [], "wins": 0, "dealins": 0, "ting_dealins": 0, "liable": 0, "times": [],
               "items": Counter(), "liability": False}
        if level == FIELD:  # every seating is the same hand: play it once, read every seat
            result, hand, times = play_hand(game, seed, [FIELD] * n, 0)  # times: seat 0's
            for seat in range(n):
                _tally(rec, result, hand, seat)
            rec["times"] = times
        else:
            for seat in range(n):
                seating = [FIELD] * n
                seating[seat] = level
                result, hand, times = play_hand(game, seed, seating, seat)
                _tally(rec, result, hand, seat)
                rec["times"] += times
        rec["sample"] = sum(rec["points"]) / n
        rec["seatings"] = n
        del rec["points"]
        out[level] = rec
    return out


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def _settled(diffs: dict[str, list[float]]) -> bool:
    """Every paired difference's 95% interval excludes zero."""
    for xs in diffs.values():
        m, h = interval(xs)
        if m - h <= 0 <= m + h:
            return False
    return True


def bench_game(game: str, levels: tuple[str, ...], walls: int, max_walls: int, seed: int, jobs: int,
               pool) -> dict:
    info = find_variant(game)
    same = {lv for lv in levels if lv != FIELD and info.ai_levels[lv] is info.ai_levels[FIELD]}
    played = tuple(lv for lv in dict.fromkeys((FIELD,) + levels) if lv not in same)
    totals = {lv: {"samples": [], "seatings": 0, "wins": 0, "dealins": 0, "ting_dealins": 0, "liable": 0,
                   "times": [], "items": Counter(), "liability": False} for lv in played}
    t0 = time.perf_counter()
    done = 0
    target = walls
    while True:
        tasks = [(game, seed + w, played) for w in range(done, target)]
        rows = pool.imap(play_wall, tasks, chunksize=8) if pool else map(play_wall, tasks)
        for row in rows:
            for lv, rec in row.items():
                tot = totals[lv]
                tot["samples"].append(rec["sample"])
                for key in ("seatings", "wins", "dealins", "ting_dealins", "liable"):
                    tot[key] += rec[key]
                tot["times"] += rec["times"]
                tot["items"].update(rec["items"])
                tot["liability"] = tot["liability"] or rec["liability"]
        done = target
        diffs = {lv: [a - b for a, b in zip(totals[lv]["samples"], totals[FIELD]["samples"])]
                 for lv in played if lv != FIELD}
        if done >= max_walls or not diffs or _settled(diffs):
            break
        target = min(max_walls, done + STEP)
    probe = info.new_hand(info.resolve_options({}), seed, 0, info.max_players)
    return {"game": game, "info": info, "levels": levels, "same": same, "totals": totals, "walls": done,
            "seconds": time.perf_counter() - t0,
            "has_ting": callable(getattr(probe, "ting_allowed", None)) and probe.ting_allowed(),
            "has_liability": totals[FIELD]["liability"]}


def _fmt_ms(ts: list[float]) -> str:
    if not ts:
        return "     -      -"
    ms = sorted(t * 1000 for t in ts)
    p99 = ms[min(len(ms) - 1, int(math.ceil(0.99 * len(ms))) - 1)]
    return f"{statistics.fmean(ms):6.2f} {p99:6.2f}"


def item_counts(game: str, items: Counter, others: int = 8) -> list[tuple[str, int]]:
    """The scoring items to print for a level of ``game``: the game's :data:`TRACKED` items
    (0 included), then up to ``others`` more, the most frequent first."""
    tracked = TRACKED.get(game, ())
    rest = [(k, v) for k, v in items.most_common() if k not in tracked][:others]
    return [(k, items.get(k, 0)) for k in tracked] + rest


def report(r: dict) -> str:
    info, totals = r["info"], r["totals"]
    lines = [f"== {info.name_zh} ({r['game']}, {info.max_players} seats): {r['walls']} walls, "
             f"{r['seconds']:.1f} s; field: {FIELD}",
             f"{'level':13} {'pts/hand':>9} {'±95%':>7} {'vs normal':>10} {'±95%':>7} {'win%':>6} {'dealin%':>8}"
             f"{' 听%':>6}{' liable%':>9} {'ms mean':>7} {'p99':>6}  items won with"]
    for lv in r["levels"]:
        src = FIELD if lv in r["same"] else lv
        tot = totals[src]
        m, h = interval(tot["samples"])
        if lv == FIELD or lv in r["same"]:
            dm, dh = 0.0, 0.0
        else:
            dm, dh = interval([a - b for a, b in zip(tot["samples"], totals[FIELD]["samples"])])
        n = tot["seatings"] or 1
        ting = f"{100 * tot['ting_dealins'] / n:6.1f}" if r["has_ting"] else f"{'-':>6}"
        liable = f"{100 * tot['liable'] / n:9.2f}" if r["has_liability"] else f"{'-':>9}"
        items = ", ".join(f"{k} {v}" for k, v in item_counts(r["game"], tot["items"]))
        name = lv + ("=normal" if lv in r["same"] else "")
        lines.append(f"{name:13} {m:9.2f} {h:7.2f} {dm:10.2f} {dh:7.2f} {100 * tot['wins'] / n:6.1f} "
                     f"{100 * tot['dealins'] / n:8.1f}{ting}{liable} {_fmt_ms(tot['times'])}  {items}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(i.id for i in all_variants()),
                    help="comma-separated game ids (default: every game)")
    ap.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels to test")
    ap.add_argument("--walls", type=int, default=1000, help="walls per game at least (default 1000)")
    ap.add_argument("--max-walls", type=int, default=5000, help="walls per game at most (default 5000)")
    ap.add_argument("--quick", action="store_true", help="100 walls per game (a few minutes in all)")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing walls (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="the first wall's table seed (default 1)")
    a = ap.parse_args(argv)
    levels = tuple(x.strip() for x in a.levels.split(",") if x.strip())
    bad = [x for x in levels if x not in LEVELS]
    if bad:
        ap.error(f"unknown levels {bad}; choose from {LEVELS}")
    walls, max_walls = (100, 100) if a.quick else (a.walls, max(a.walls, a.max_walls))
    games = [find_variant(g.strip()).id for g in a.games.split(",") if g.strip()]
    start = time.perf_counter()
    pool = Pool(a.jobs) if a.jobs > 1 else None
    try:
        total_walls = 0
        for game in games:
            r = bench_game(game, levels, walls, max_walls, a.seed, a.jobs, pool)
            total_walls += r["walls"]
            print(report(r), flush=True)
            print(flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    print(f"{total_walls} walls in {time.perf_counter() - start:.1f} s ({a.jobs} job{'s' if a.jobs > 1 else ''})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
