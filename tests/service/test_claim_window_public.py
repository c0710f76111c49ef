"""A claim window tells the channel nothing: twin hands that differ only in whether a seat may
claim a discard (``tests/harness/privacy_twins.py``) give byte-identical public parts of the
table service's snapshot at that discard, and at every step after it (the hidden pass left
out) — the same names, scores, ponds, melds, wall, turn and log.  What the public part shows
then is the hand's public frame (``engine/frames.py``): the discard, and the next seat on
turn, as after any discard nobody may claim.  Nor does it tell the other players anything:
their parts (panels, moves, the decision numbers their buttons carry) are the same in both."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest

from engine.actions import Action
from service.clock import ManualClock
from service.tables import TableService
from store import Store

try:
    from privacy_twins import TWINS, first_hand_context
except ImportError:  # pragma: no cover
    from tests.harness.privacy_twins import TWINS, first_hand_context

CLAIM_TWINS = sorted(k for k in TWINS if TWINS[k].kind == "claim_pass")
#: with and without a front end listening (the views a snapshot keeps between changes, or none)
LISTEN = [pytest.param(True, id="listened"), pytest.param(False, id="unlistened")]


def public_bytes(part, version: bool = True) -> bytes:
    """The public part as bytes (every field, the game's facts by their repr; without its
    version, a count of the table's changes, when ``version`` is false)."""
    data = dataclasses.asdict(part)
    if not version:
        data.pop("version")
    return json.dumps(data, sort_keys=True, default=repr, ensure_ascii=False).encode()


def others_bytes(snap, hidden: int) -> bytes:
    """Every seat's part but the hidden seat's, as bytes: its view, moves, decision number,
    deadline and language (all a player's panel and buttons are drawn from), without the
    versions (counts of the table's changes, never shown)."""
    parts = []
    for p in snap.parts:
        if p is None or p.seat == hidden:
            continue
        data = dataclasses.asdict(p)
        data.pop("version")
        data.pop("picture")
        parts.append(data)
    return json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=False).encode()


async def _steps(twin, run, read, listen: bool = False) -> list:
    """``read(snapshot)`` after each action of ``run``, played through the table service with
    every seat a human (nothing plays by itself); ``listen``: a front end listens."""
    store = Store("sqlite:///:memory:")
    await store.init()
    service = TableService(store, ManualClock(), seed_source=lambda: twin.table_seed)
    service.hands.deal_context = first_hand_context(run)
    if listen:
        async def listener(change):
            pass
        service.listeners.append(listener)
    users = [900 + i for i in range(twin.n_seats)]
    await service.create_table(guild_id=1, channel_id=5, user_id=users[0], name="p0", variant=twin.game,
                               options=dict(twin.options))
    for i, u in enumerate(users[1:], 1):
        await service.join(5, u, f"p{i}")
    await service.start(5, users[0])
    table = service.table_in(5)
    out = []
    for line in run.actions:
        a = Action.parse(line)
        await service.act(5, table.seats[a.seat].user_id, a.type, a.kind)
        out.append(read(service.snapshot(5)))
    await store.close()
    return out


def _publics(twin, run, listen: bool) -> list[tuple[bytes, bytes]]:
    """The public part after each action of ``run``, with and without its version."""
    return asyncio.run(_steps(twin, run, lambda snap: (public_bytes(snap.public),
                                                      public_bytes(snap.public, version=False)), listen))


@pytest.mark.parametrize("listen", LISTEN)
@pytest.mark.parametrize("key", CLAIM_TWINS, ids=lambda k: "-".join(k))
def test_twins_give_byte_identical_public_parts_at_the_discard_and_after(key, listen):
    twin = TWINS[key]
    a = _publics(twin, twin.a, listen)
    b = _publics(twin, twin.b, listen)
    # at the discard: run A's hidden seat may claim it (a window is open), run B's may not —
    # byte for byte, the version (the count of changes so far) included
    assert a[twin.moment_a][0] == b[twin.moment_b][0], key
    # the hidden seat's pass changes nothing public either (not even the version it shows)
    assert a[twin.moment_a + 1][0] == a[twin.moment_a][0], key
    # and every step after matches, the pass left out (run A has counted one change more)
    after_a = [x for _, x in a[:twin.moment_a + 1] + a[twin.moment_a + 2:]]
    assert after_a == [x for _, x in b], key


@pytest.mark.parametrize("listen", LISTEN)
@pytest.mark.parametrize("key", CLAIM_TWINS, ids=lambda k: "-".join(k))
def test_twins_give_every_other_seat_the_same_part(key, listen):
    """The other players learn nothing more than the pause: each of their parts — panel view,
    moves and the decision number their buttons carry — is the same in both runs before the
    discard and at every step once the window closed (in run A at the hidden seat's pass).
    While it is open the next seat waits for its turn, which it would also see as the time
    the window takes; nothing it is shown afterwards says more.  (A decision number counting
    the hand's actions would be one higher in run A after the pass, and a player reading their
    buttons' ids would learn that a seat had a claim to pass on.)"""
    twin = TWINS[key]
    a = asyncio.run(_steps(twin, twin.a, lambda snap: others_bytes(snap, twin.hidden_seat), listen))
    b = asyncio.run(_steps(twin, twin.b, lambda snap: others_bytes(snap, twin.hidden_seat), listen))
    assert a[:twin.moment_a] == b[:twin.moment_b], key
    assert len(a) - (twin.moment_a + 1) == len(b) - twin.moment_b > 1, key
    assert a[twin.moment_a + 1:] == b[twin.moment_b:], key
