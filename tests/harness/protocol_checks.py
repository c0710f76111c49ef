"""Checks that a game's hand keeps the ``engine.protocol`` contract, step by step over a
play-out, and that its declared facts (``VariantInfo``) match what its hands do.  Used by
``test_protocol_conformance.py`` for every built-in game and by ``test_toy_game.py`` for a game
defined inside the tests.
"""

from __future__ import annotations

import inspect
import json

from engine.actions import ACTION_TYPES, Action
from engine.events import Event
from engine.match import Match
from engine.protocol import EventView, Hand, Result, View, WinFacts
from engine.shape_check import check
from engine.tiles import ZI_SMALL, parse_kind
from engine.variant import VariantInfo

#: the methods of the protocol, called with the protocol's arguments
METHODS = ("legal_actions", "apply", "pending_seats", "is_over", "view", "timeout_action", "timer_kind",
           "ai_action")


def _params(fn) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


def signature_problems(hand_class: type) -> list[str]:
    """Methods of ``hand_class`` whose parameters (names, kinds, defaults) differ from the
    protocol's."""
    out = []
    for name in METHODS:
        want, got = _params(getattr(Hand, name)), _params(getattr(hand_class, name))
        if want != got:
            out.append(f"{hand_class.__name__}.{name}{[p[0] for p in got]} != Hand.{name}{[p[0] for p in want]}")
    return out


def _json_ready(value) -> bool:
    return json.loads(json.dumps(value)) == value


def check_view(info: VariantInfo, hand, viewer: int | None, reveal: bool = False) -> dict:
    """One view of ``hand``, checked against :class:`View` and the game's facts; returns it."""
    v = hand.view(viewer, reveal=reveal) if reveal else hand.view(viewer)
    where = f"{info.id} seq {hand.seq} viewer {viewer}{' reveal' if reveal else ''}"
    assert check(v, View) == [], (where, check(v, View)[:5])
    assert _json_ready(v), where
    assert v["variant"] == info.id and v["seq"] == hand.seq and v["viewer"] == viewer, where
    assert v["dealer"] == hand.dealer and len(v["seats"]) == hand.n, where
    assert [s["seat"] for s in v["seats"]] == list(range(hand.n)), where
    assert v["pending"] == hand.pending_seats() and v["phase"] == hand.phase, where
    assert ("wild" in v) == (info.wild_name is not None), where
    if viewer is None:
        assert v["me"] is None, where
    else:
        me = v["me"]
        legal = hand.legal_actions(viewer)
        assert me["seat"] == viewer and me["legal"] == [str(a) for a in legal], where
        assert [Action.parse(x) for x in me["legal"]] == legal, where
        if info.wild_name is not None and not info.front_end_confirms_wild_discard:
            assert "confirming" in me, (where, "the hand asks before a wild discard: me['confirming']")
        for t in me["hand"]:  # 字牌 cards have no tile face: only a game of paper cards plays them
            assert parse_kind(t) < ZI_SMALL or info.tile_style == "paper", (where, t, info.tile_style)
    if hand.is_over():
        assert v["result"] == hand.result and v["turn"] is None, where
    return v


def check_result(info: VariantInfo, hand) -> None:
    """The result of a finished hand against :class:`Result` (and :class:`WinFacts` for a win)."""
    r = hand.result
    assert check(r, Result) == [], (info.id, check(r, Result))
    assert _json_ready(r), info.id
    assert len(r["points"]) == hand.n and sum(r["points"]) == 0, (info.id, r["points"])
    assert r["draw"] == (r["winner"] is None) == (r["winners"] == []), info.id
    if r["winner"] is not None:
        assert check(r, WinFacts) == [], (info.id, check(r, WinFacts))
        assert r["winners"][0] == r["winner"] and len(set(r["winners"])) == len(r["winners"]), info.id
    else:
        assert r["self_drawn"] is False and r["discarder"] is None, info.id


def check_step(info: VariantInfo, hand) -> None:
    """Everything the protocol offers, at one moment of a running hand."""
    assert isinstance(hand, Hand), info.id
    pending = hand.pending_seats()
    assert pending and not hand.is_over() and hand.result is None, info.id
    assert hand.timer_kind() in ("discard", "claim"), info.id
    for s in range(hand.n):
        legal = hand.legal_actions(s)
        assert bool(legal) == (s in pending), (info.id, s, pending, legal)
        for a in legal:
            assert a.seat == s and (a.type in ACTION_TYPES or a.type in info.action_labels), (info.id, str(a))
    for s in pending:
        legal = hand.legal_actions(s)
        assert hand.timeout_action(s) in legal, (info.id, s)
        assert hand.ai_action(s) in legal and info.ai(hand, s) == hand.ai_action(s), (info.id, s)
    for viewer in [None, *range(hand.n)]:
        check_view(info, hand, viewer)


def check_apply(info: VariantInfo, hand, action: Action) -> None:
    """Apply ``action`` and check what ``apply`` returns."""
    seq, before = hand.seq, len(hand.events)
    events = hand.apply(action)
    assert hand.seq == seq + 1, info.id
    assert isinstance(events, list) and all(isinstance(e, Event) for e in events), info.id
    assert hand.events[before:] == events, info.id
    for e in events:
        d = e.to_json()
        assert check(d, EventView) == [] and _json_ready(d), (info.id, d)


def check_finished(info: VariantInfo, hand) -> None:
    """A finished hand: nothing pending, its result, every view and the replay view."""
    assert hand.is_over() and hand.pending_seats() == [], info.id
    assert all(hand.legal_actions(s) == [] for s in range(hand.n)), info.id
    check_result(info, hand)
    for viewer in [None, *range(hand.n)]:
        check_view(info, hand, viewer)
    shown = check_view(info, hand, None, reveal=True)
    assert all(s["concealed"] is not None for s in shown["seats"]), info.id


def play_and_check(info: VariantInfo, table_seed: int, n_seats: int, hands: int = 2,
                   max_steps: int = 2000) -> list[dict]:
    """Play ``hands`` hands of a match with AI and timeout moves (taken in turns), checking the
    protocol at every step; returns the results."""
    assert signature_problems(type(info.new_hand(info.resolve_options({}), 1, 0, n_seats))) == []
    match = Match(info, info.resolve_options({}), table_seed, n_seats)
    if info.first_dealer == "creator":
        assert match.state["dealer"] == 0, info.id
    results = []
    for _ in range(hands):
        hand = match.new_hand()
        steps = 0
        while not hand.is_over():
            assert steps < max_steps, f"{info.id}: no end after {max_steps} moves"
            check_step(info, hand)
            pending = hand.pending_seats()
            seat = pending[steps % len(pending)]
            action = hand.ai_action(seat) if (table_seed + steps) % 3 else hand.timeout_action(seat)
            check_apply(info, hand, action)
            steps += 1
        check_finished(info, hand)
        results.append(hand.result)
        match.finish(hand.result)
    return results


def check_facts(info: VariantInfo) -> None:
    """The declared facts are well-formed."""
    assert info.tile_style in ("mahjong", "paper") and info.first_dealer in ("random", "creator"), info.id
    assert all(isinstance(r, tuple) and len(r) == 3 and isinstance(r[0], str) and isinstance(r[1], str)
               and isinstance(r[2], int) for r in info.fan_table), info.id
    assert all(k not in ACTION_TYPES and v.startswith("btn.") for k, v in info.action_labels.items()), info.id
    assert callable(info.ai), info.id
    if info.first_dealer == "random" and info.max_players > 1:
        firsts = {Match(info, info.resolve_options({}), seed, info.max_players).state["dealer"] for seed in range(12)}
        assert len(firsts) > 1, info.id
