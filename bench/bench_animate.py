"""Frames, bytes and drawing time of the animated hand (``/mj replay hand: animate: True``) for
the longest seeded hands of every game.

    python bench/bench_animate.py [--hands N] [--seat S]

Every game (from the registry) at its most seats plays ``N`` hands (default 20; seeds 1…N) by
its own AI; the longest (most actions in its log) is animated as the bot animates it
(``service.replays.frames`` → ``render.animate.animate``): the public table, or with
``--seat`` that seat's view (0-based).  Printed per game: the seed, the actions in the log,
the GIF's frames, its bytes (against the 10 MiB limit of a server without boosts) and the
seconds to build the frames and to draw and encode them (one core).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def seeded_hand(game: str, seed: int, n: int, hand_id: int = 1):
    """A stored hand (``store.HandRecord``, done) of ``game`` at ``n`` seats dealt from
    ``seed`` (dealer 0) and played to its end by the game's AI for every seat; seat ``i`` is
    user ``1001 + i``, named ``P<i+1>``."""
    from engine.variants import find_variant
    from store import HandRecord

    info = find_variant(game)
    options = info.resolve_options({})
    hand = info.new_hand(options, seed, 0, n)
    lines = []
    while not hand.is_over():
        action = hand.ai_action(hand.pending_seats()[0])
        hand.apply(action)
        lines.append(str(action))
    seats = tuple({"seat": i, "user_id": 1001 + i, "name": f"P{i + 1}"} for i in range(n))
    now = datetime.now(timezone.utc)
    return HandRecord(id=hand_id, table_id=1, hand_no=1, seed=seed, variant=game, options=options, dealer=0,
                      seats=seats, status="done", result=dict(hand.result or {}), started_at=now, ended_at=now,
                      actions=tuple(lines))


def longest(game: str, hands: int, n: int | None = None):
    """The longest of ``hands`` seeded hands (seeds 1…hands) of ``game`` at ``n`` seats
    (default its most): the one with the most actions, the lowest seed among equals."""
    from engine.variants import find_variant

    n = n or find_variant(game).max_players
    return max((seeded_hand(game, seed, n) for seed in range(1, hands + 1)), key=lambda r: len(r.actions))


def measure(record, seat: int | None = None, lang: str = "en") -> dict:
    """``{"frames", "bytes", "build_s", "draw_s", "gif"}`` of a stored hand's animation."""
    from render.animate import animate
    from service.replays import frames

    t0 = time.perf_counter()
    found = frames(record, seat)
    t1 = time.perf_counter()
    data = animate([dict(f.view, lang=lang) for f in found], [f.kind for f in found])
    t2 = time.perf_counter()
    return {"frames": len(found), "bytes": len(data), "build_s": t1 - t0, "draw_s": t2 - t1, "gif": data}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20, help="seeded hands per game (seeds 1…N)")
    ap.add_argument("--seat", type=int, default=None, help="a seat's view (0-based) instead of the public one")
    args = ap.parse_args()
    from engine.variants import all_variants
    from render.animate import LIMIT

    print(f"longest of {args.hands} seeded AI hands per game, {'seat %d' % args.seat if args.seat is not None else 'public'} view")
    print(f"{'game':<12}{'seed':>5}{'actions':>8}{'frames':>7}{'bytes':>10}{'of limit':>9}{'build s':>8}{'draw s':>8}")
    for info in all_variants():
        record = longest(info.id, args.hands)
        m = measure(record, args.seat)
        print(f"{info.id:<12}{record.seed:>5}{len(record.actions):>8}{m['frames']:>7}{m['bytes']:>10}"
              f"{m['bytes'] / LIMIT:>8.1%}{m['build_s']:>8.2f}{m['draw_s']:>8.2f}")


if __name__ == "__main__":
    main()
