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
from service.snapshot import Move
from service.tables import ServiceError, TableService

CH, A, B = 5, 10, 11


try:
    from service_tables import human_table, new_service as _service
except ImportError:  # pragma: no cover
    from tests.harness.service_tables import human_table, new_service as _service


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
        for key, text in (("9z", "9z"), ("banana", "banana"), ("ting", "ting"), ("听", "听")):
            try:
                svc.interpret(CH, user, text)
            except ServiceError as e:
                out[key] = (e.code, e.params) if key in ("ting", "听") else e.code
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
    # 听 typed without the tile it goes with: asked which, with a tile of the hand as example
    for verb in ("ting", "听"):
        code, params = out[verb]
        assert code == "tile_missing_for" and params["verb"] == verb and len(params["example"]) == 2
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


def _fresh_parts(svc: TableService, t) -> list:
    """The table's seat parts built from nothing (no views kept, no earlier snapshot), without
    their versions: what the snapshot kept step by step must equal."""
    import dataclasses

    from service import publish

    saved = (t.view_cache, t.snapshot, t.touched)
    t.view_cache, t.snapshot, t.touched = None, None, set()
    try:
        snap = publish.build(t, 0, svc.user_lang)
    finally:
        t.view_cache, t.snapshot, t.touched = saved
    return [None if p is None else {k: v for k, v in dataclasses.asdict(p).items() if k not in ("version", "picture")}
            for p in snap.parts]


@pytest.mark.parametrize("game", [v.id for v in __import__("engine.variants", fromlist=["x"]).all_variants()])
def test_the_kept_views_never_lag_a_fresh_build(game):
    """Every seat a human, moves chosen at random among the legal ones (passes, claims, the
    game's own actions), a listener reading every change: after each move each part of the
    snapshot equals the part built from nothing.  (The views a snapshot keeps between changes
    once missed a 字牌 seat's passed cards and a ready 二人麻将 player's waits when a window
    closed behind the public frame.)"""
    import dataclasses
    import random

    info = find_variant(game)

    async def run() -> int:
        checked = 0
        for seed in (1, 2, 3):
            svc = await _service("sqlite:///:memory:", seed=seed)

            async def listen(change):
                pass

            svc.listeners.append(listen)
            users = await human_table(svc, game, info.max_players, CH)
            t = svc.table_in(CH)
            rng = random.Random(seed)
            while not t.hand.is_over():
                seat = rng.choice(t.hand.pending_seats())
                a = rng.choice(t.hand.legal_actions(seat))
                await svc.act(CH, users[seat], a.type, a.kind)
                kept = [None if p is None else {k: v for k, v in dataclasses.asdict(p).items()
                                                if k not in ("version", "picture")}
                        for p in svc.snapshot(CH).parts]
                assert kept == _fresh_parts(svc, t), (game, seed, t.actions[-3:])
                checked += 1
            await svc.store.close()
        return checked

    assert asyncio.run(run()) >= 30


async def _stacked(game: str, n: int, stacked: dict, actions: list[str], listen: bool = True):
    """Snapshots after each of ``actions`` at a table of ``n`` humans dealt ``stacked``."""
    from engine.actions import Action

    svc = await _service("sqlite:///:memory:", seed=1)
    svc.hands.deal_context = lambda t: {"stacked": stacked}
    if listen:
        async def listener(change):
            pass
        svc.listeners.append(listener)
    users = await human_table(svc, game, n, CH)
    t = svc.table_in(CH)
    out = []
    for line in actions:
        a = Action.parse(line)
        await svc.act(CH, users[a.seat], a.type, a.kind)
        out.append((svc.snapshot(CH), t.hand.view(a.seat)))
    await svc.store.close()
    return out


def test_a_seat_not_waited_for_sees_its_own_groups_and_cards_as_they_are():
    """字牌, three seats: seat 1 holds 10X×4 (a 提 at the deal) and 8X×3.  The dealer discards
    9x (nobody may take it) and seat 1 shows 8X from the stock: a forced 提 (its second four).
    Seat 2 must now decide; seat 1's panel shows both its 提 face up and its 7 cards left —
    its own seat as it is, whatever the public frame still shows of it."""
    from engine.tiles import parse_kinds

    stacked = {"hands": [parse_kinds("9x1X1X5x5x9X2X6x6x8x7X3X4X6X7X"),
                         parse_kinds("10X10X10X10X8X8X8X1x1x3x3x6x6x2X"),
                         parse_kinds("3x4x9X9X8x8x7x10x1x2X4X5X7x10x")], "stock": parse_kinds("8X2x")}
    for listen in (True, False):
        snap, _ = asyncio.run(_stacked("zipai", 3, stacked, ["0 piao_none", "1 piao_none", "2 piao_none",
                                                              "0 discard 9x"], listen))[-1]
        part = snap.parts[1]
        assert part.decision is None  # seat 1 does not decide now
        own = part.view["seats"][1]
        assert [(m["type"], tuple(m["tiles"])) for m in own["melds"]] == [("ti", ("10X",) * 4), ("ti", ("8X",) * 4)]
        assert own["hand_count"] == len(own["concealed"]) == 7


def test_a_ready_player_sees_the_other_hand_but_no_draw_before_the_table_does():
    """二人麻将: a player who declared 听 sees the other hand (the rules), but not a tile drawn
    behind the public frame: seat 1 (ready) discards 7z, nobody may claim it, seat 0 draws at
    once — the table still shows the discard with seat 0 on turn and no tile drawn, and so
    does seat 1's panel (seat 0's hand, no drawn tile)."""
    from engine.tiles import parse_kinds

    stacked = {"hands": [parse_kinds("4z4z4z1z2z3z2m2m5m5m8m8m3m7m"), parse_kinds("123456789m5z5z6z6z")],
               "draws": parse_kinds("7z6m4z9m")}
    for listen in (True, False):
        snap, _ = asyncio.run(_stacked("two_player", 2, stacked, ["0 discard 1z", "1 ting", "1 discard 7z"],
                                       listen))[-1]
        other = snap.parts[1].view["seats"][0]
        assert other["concealed"] is not None and len(other["concealed"]) == 13
        assert other["drawn"] is None and other["has_drawn"] is False
