"""What each seat's panel is drawn from — its part of the snapshot — in every registered game,
at the service's seam (no Discord, no images): every seat a human, moves chosen at random
among the legal ones, after each move:

* the public part shows nobody's concealed tiles while the hand is played;
* a seat's part shows its own concealed tiles as the engine shows them to it (字牌 hides them
  while 飘 is chosen), and another seat's only where the engine lets that seat see them
  (二人麻将's ready player sees the other hand);
* a seat's part shows every other seat's discards and melds that the table shows, in the same
  order and places (it may be ahead of the table: the seat the hand waits for sees what went on
  by itself since the last public decision — a card shown, a 跑 — and its own claim);
* a seat offered moves is the seat the hand waits for, and its moves are its legal actions.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from games import game_ids

from engine.variants import find_variant

try:
    from service_tables import CHANNEL as CH, human_table, new_service
except ImportError:  # pragma: no cover
    from tests.harness.service_tables import CHANNEL as CH, human_table, new_service


def _prefix(short, long) -> bool:
    return tuple(long[:len(short)]) == tuple(short)


def _grown(table, seen) -> bool:
    """Every meld the table shows is, at its place, in what the seat sees, whole or grown (a
    碰 become a kong or a 跑 in the window the seat decides in); the seat may see more."""
    return len(seen) >= len(table) and all(not (Counter(t) - Counter(s)) for t, s in zip(table, seen))


async def _play(game: str, seed: int) -> int:
    info = find_variant(game)
    svc = await new_service(seed=seed)
    users = await human_table(svc, game, info.max_players)
    t = svc.table_in(CH)
    rng = random.Random(seed)
    checked = 0
    try:
        while not t.hand.is_over():
            seat = rng.choice(t.hand.pending_seats())
            a = rng.choice(t.hand.legal_actions(seat))
            await svc.act(CH, users[seat], a.type, a.kind)
            if t.hand.is_over():
                break
            snap = svc.snapshot(CH)
            public = snap.public.view["seats"]
            assert all(sv.get("concealed") is None for sv in public), (game, seed, t.actions[-2:])
            for viewer, part in enumerate(snap.parts):
                assert part is not None and part.user_id == users[viewer]
                engine_view = t.hand.view(viewer)["seats"]
                for s, (mine, pub) in enumerate(zip(part.view["seats"], public)):
                    if s == viewer:
                        own = engine_view[s]["concealed"]
                        assert mine["concealed"] == (None if own is None else tuple(own)), (game, seed, viewer)
                        continue
                    if engine_view[s].get("concealed") is None:
                        assert mine.get("concealed") is None, (game, seed, viewer, s)
                    assert _prefix(pub["discards"], mine["discards"]), (game, seed, viewer, s)
                    assert _grown([m["tiles"] for m in pub["melds"]], [m["tiles"] for m in mine["melds"]]), \
                        (game, seed, viewer, s)
                pending = t.hand.pending_seats()
                if part.moves:
                    assert viewer in pending
                    assert [m.action(viewer) for m in part.moves] == t.hand.legal_actions(viewer)
                checked += 1
    finally:
        await svc.store.close()
    return checked


@pytest.mark.parametrize("game", game_ids())
def test_each_seat_sees_its_own_tiles_the_tables_ponds_and_melds_and_nobody_elses_tiles(game):
    checked = sum(asyncio.run(_play(game, seed)) for seed in (1, 2))
    # every seat, after every move of two hands: far more than one hand's worth of steps
    assert checked >= 2 * 20
