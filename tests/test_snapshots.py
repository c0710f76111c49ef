"""The table service's snapshots (``service/snapshot.py``), at the service's seam: a version that
grows across restarts, parts for the human seats only, typed moves with stable keys, the
game's facts resolved once, the seat's own part — and one reading of typed moves
(``service/interpret.py``) for every front end."""

from __future__ import annotations

import asyncio

import pytest

from engine.errors import IllegalAction
from engine.tiles import kind_str
from engine.variants import find_variant
from render.text import typed
from service.clock import ManualClock
from service.snapshot import Move
from service.tables import ServiceError, TableService
from store import Store

CH, A, B = 5, 10, 11


async def _service(url: str, seed: int = 3) -> TableService:
    store = Store(url)
    await store.init()
    return TableService(store, ManualClock(), seed_source=lambda: seed, vocabulary=typed)


async def _two_player(svc: TableService, ai: bool = False) -> None:
    await svc.create_table(guild_id=1, channel_id=CH, user_id=A, name="a", variant="two_player")
    if ai:
        await svc.add_ai(CH, A, "normal")
    else:
        await svc.join(CH, B, "b")
    await svc.start(CH, A)


def test_versions_grow_across_restarts(tmp_path):
    url = f"sqlite:///{tmp_path}/s.db"

    async def run() -> list[int]:
        versions = []
        svc = await _service(url)
        await svc.load()
        await _two_player(svc)
        versions.append(svc.snapshot(CH).version)
        t = svc.table_in(CH)
        seat = t.hand.pending_seats()[0]
        a = t.hand.timeout_action(seat)
        await svc.act(CH, t.seats[seat].user_id, a.type, a.kind)
        versions.append(svc.snapshot(CH).version)
        await svc.store.close()
        for _ in range(2):  # two restarts, nothing played in between
            svc = await _service(url)
            await svc.load()
            versions.append(svc.snapshot(CH).version)
            await svc.store.close()
        return versions

    v = asyncio.run(run())
    assert v == sorted(v) and len(set(v)) == len(v), v  # strictly growing, restarts included
    assert v[2] >> 32 == (v[1] >> 32) + 1 and v[3] >> 32 == (v[2] >> 32) + 1  # one start each


def test_a_snapshot_has_a_part_per_human_seat_with_typed_moves():
    async def run():
        svc = await _service("sqlite:///:memory:")
        await _two_player(svc, ai=True)
        snap = svc.snapshot(CH)
        t = svc.table_in(CH)
        await svc.store.close()
        return snap, t

    snap, t = asyncio.run(run())
    info = find_variant("two_player")
    assert snap.game is info.facts and snap.public.view["game"] is info.facts
    human, ai = snap.seat_of(A), 1 - snap.seat_of(A)
    assert snap.parts[ai] is None and snap.seats[ai].is_ai
    part = snap.parts[human]
    assert part.user_id == A and part.dealt and part.view["viewer"] == human
    # the seat's own tiles are in its part, never in the public one
    assert part.view["seats"][human]["concealed"] is not None
    assert all(sv.get("concealed") is None for sv in snap.public.view["seats"])
    if t.hand.pending_seats() == [human]:
        legal = t.hand.legal_actions(human)
        assert [m.action(human) for m in part.moves] == legal
        assert part.decision == (snap.hand_id, t.decisions[human])
        for m in part.moves:
            assert part.move(m.key) is m and Move.from_key(m.key) == m
    else:
        assert part.moves == () and part.decision is None


def test_one_reading_of_typed_moves():
    """The same text reads as the same move for /act, a play verb and the local table: a
    button's words, a tile, a shared verb the engine refuses with a reason, a word written like
    a tile, a word that is neither."""

    async def run():
        svc = await _service("sqlite:///:memory:")
        await _two_player(svc)
        t = svc.table_in(CH)
        seat = t.hand.pending_seats()[0]
        user = t.seats[seat].user_id
        other = t.seats[1 - seat].user_id
        tile = kind_str(t.hand.timeout_action(seat).kind)
        out = {}
        out["tile"] = svc.interpret(CH, user, tile)[2]
        out["verb"] = svc.interpret(CH, user, tile, verb="discard")[2]
        out["zh"] = svc.interpret(CH, user, f"打 {tile}")[2]
        out["pung"] = svc.interpret(CH, user, "碰")[2]  # not legal now: the engine will say why
        for key, text in (("9z", "9z"), ("banana", "banana")):
            try:
                svc.interpret(CH, user, text)
            except ServiceError as e:
                out[key] = e.code
        try:
            svc.interpret(CH, other, tile)
        except ServiceError as e:
            out["other"] = e.code
        try:
            await svc.act_typed(CH, user, "碰")
        except IllegalAction as e:
            out["pung_refused"] = e.code
        await svc.store.close()
        return out, tile

    out, tile = asyncio.run(run())
    assert out["tile"] == out["verb"] == out["zh"] == Move("discard", tile)
    assert out["pung"] == Move("pung")
    assert out["9z"] == "unknown_tile" and out["banana"] == "unknown_action"
    assert out["other"] == "not_your_turn"
    assert out["pung_refused"] in ("cannot_claim", "action_not_available", "not_your_turn")


def test_a_move_key_with_a_tampered_tile_is_refused():
    with pytest.raises(ValueError):
        Move.from_key("discard:banana")
    assert Move.from_key("pass:-") == Move("pass") and Move("discard", "5m").key == "discard:5m"


class _Hand:
    """A hand that waits for the seats it is told to (``Decisions`` reads no more)."""

    def __init__(self):
        self.waiting: list[int] = []
        self.over = False

    def pending_seats(self) -> list[int]:
        return list(self.waiting)

    def is_over(self) -> bool:
        return self.over


def test_decision_numbers_count_each_seats_own_decisions():
    """A seat's decision number counts the decisions that seat had in the hand, so another
    seat's pass (or a window it never saw) leaves it as it was."""
    from service.table import Decisions

    hand, d = _Hand(), Decisions()
    hand.waiting = [0]
    d.note(hand, None)  # the deal: seat 0 discards first
    assert dict(d.items()) == {0: 1}
    hand.waiting = [1, 2]
    d.note(hand, 0)  # seat 0's discard opens a window for seats 1 and 2
    assert dict(d.items()) == {1: 1, 2: 1}
    hand.waiting = [2]
    d.note(hand, 1)  # seat 1 passes: seat 2 decides what it was deciding
    assert dict(d.items()) == {2: 1} and d.get(1) is None
    hand.waiting = [2]
    d.note(hand, 2)  # seat 2 pungs and must discard: its second decision
    assert d[2] == 2
    hand.waiting = [3]
    d.note(hand, 2)  # seat 2 discards, nobody may claim: seat 3 draws
    assert dict(d.items()) == {3: 1}
    hand.waiting = [0]
    d.note(hand, 3)  # seat 3 discards: seat 0's second decision (its first was the opening discard)
    assert dict(d.items()) == {0: 2}
    hand.over = True
    d.note(hand, 0)
    assert dict(d.items()) == {}


def test_a_seat_the_hand_does_not_wait_for_sees_the_frame_with_its_own_tiles():
    """``engine.frames.seen_by``: what the frame hides comes from the viewer's own view, what it
    shows stays as the frame has it (the pond of a discarder whose window is still open)."""
    from engine.frames import seen_by

    frame = {"seat": 0, "discards": [], "concealed": None, "drawn": None, "hand_count": 13,
             "melds": [{"type": "kong", "tiles": [None, None, None, None], "concealed": True}]}
    own = {"seat": 0, "discards": ["9p"], "concealed": ["1m", "2m"], "drawn": None, "hand_count": 13,
           "melds": [{"type": "kong", "tiles": ["5z"] * 4, "concealed": True}]}
    assert seen_by(frame, own) == {"seat": 0, "discards": [], "concealed": ["1m", "2m"], "drawn": None,
                                   "hand_count": 13, "melds": own["melds"]}
    # the service hands it frozen views (FrozenDict, tuples): the same entry
    from service.snapshot import freeze
    assert freeze(seen_by(freeze(frame), freeze(own))) == freeze(seen_by(frame, own))
    # a meld the viewer's own view already has otherwise (a 偎 become a 提) stays as the frame shows it
    wei = {"type": "wei", "tiles": [None, None, "6x"], "huxi": None}
    ti = {"type": "ti", "tiles": ["6x"] * 4, "huxi": 9}
    assert seen_by({"melds": [wei]}, {"melds": [ti]}) == {"melds": [wei]}
    assert seen_by({"melds": [wei]}, {"melds": [dict(wei, tiles=["6x"] * 3, huxi=3)]}) == \
        {"melds": [{"type": "wei", "tiles": ["6x"] * 3, "huxi": 3}]}
    # another seat the rules do not let the viewer see: the frame as it is
    other = {"seat": 1, "discards": ["3s"], "concealed": None, "drawn": None}
    assert seen_by(other, dict(other, discards=["3s", "4s"])) == other


def test_refreeze_shares_what_did_not_change():
    """``refreeze`` gives what ``freeze`` gives, sharing the frozen parts that did not change."""
    from service.snapshot import freeze, refreeze

    before = {"seats": [{"discards": ["1m"], "melds": []}, {"discards": [], "melds": []}], "wall": 40}
    frozen = freeze(before)
    after = {"seats": [{"discards": ["1m", "9p"], "melds": []}, {"discards": [], "melds": []}], "wall": 39}
    got = refreeze(after, before, frozen)
    assert got == freeze(after)
    assert got["seats"][1] is frozen["seats"][1]  # the seat that did not move: the same object
    assert got["seats"][0] is not frozen["seats"][0] and got["seats"][0]["melds"] is frozen["seats"][0]["melds"]
    assert refreeze(after, after, got) is got
    # a key that is new, a list that grew, and nothing frozen before: frozen anew
    grown = {"seats": [{"discards": ["1m", "9p"], "melds": [], "flowers": ["1f"]}], "wall": 39}
    assert refreeze(grown, after, got) == freeze(grown)
    assert refreeze(after, None, None) == freeze(after)


def test_a_frozen_mapping_refuses_every_change_and_reads_as_a_dict():
    import copy
    import json
    import pickle

    from service.snapshot import FrozenDict, freeze

    d = freeze({"seats": [{"discards": ["1m"]}], "turn": 0})
    assert isinstance(d, FrozenDict) and isinstance(d["seats"], tuple)
    for change in (lambda: d.__setitem__("turn", 1), lambda: d.__delitem__("turn"), lambda: d.update(turn=1),
                   lambda: d.setdefault("x", 1), lambda: d.pop("turn"), d.popitem, d.clear):
        with pytest.raises(TypeError):
            change()
    with pytest.raises(TypeError):
        d |= {"turn": 1}
    assert d == {"seats": ({"discards": ("1m",)},), "turn": 0}
    assert json.loads(json.dumps(d)) == {"seats": [{"discards": ["1m"]}], "turn": 0}
    assert hash(d) == hash(freeze({"turn": 0, "seats": [{"discards": ["1m"]}]}))
    assert pickle.loads(pickle.dumps(d)) == d and type(copy.deepcopy(d)) is FrozenDict
