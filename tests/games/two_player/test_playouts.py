"""Random play-outs of seeded ``two_player`` hands with invariant checks after every action.

Each hand is a ``Match`` hand (``docs/rules/two_player.md``: 72 tiles, dealer 14 / other 13,
flowers replaced from the back).  Decisions come from ``engine.ai.choose_action``, from
the timeout rule, or from a seeded ``random.Random`` choosing among the legal actions,
so claims, kongs, 听, 加倍 and refusals all occur.  After every action:

* the 72 physical tiles are accounted for exactly once: concealed hands, rivers (minus
  claimed discards), melds, flowers, the live wall ``wall[front:back]`` and a tile being
  robbed;
* concealed + 3 per meld is 14 for the seat to discard (or the winner) and 13 otherwise;
* the public view never shows a concealed tile while the hand runs, and a seat sees the
  other's concealed tiles only once it is ready (听);
* a twin hand fed the action log line by line (``Action.parse(str(action))``) has the same
  views and events, and ``Match.replay`` of the whole log rebuilds the same state at the
  end of the hand and at one random point of it.

Every so often an action that is not legal is tried: it must raise ``IllegalAction``
and leave the state unchanged.
"""

from __future__ import annotations

import pytest

import json
import random
from collections import Counter

from conftest import default_options

from engine.actions import ACTION_TYPES, DISCARD, HU, Action
from engine.ai import choose_action
from engine.errors import IllegalAction
from engine.match import Match
from engine.tiles import make_tiles

N_HANDS = 300
AI_SHARE = 0.25  # share of decisions taken by the AI (it is the slow part)


def _state(hand) -> str:
    return json.dumps([hand.view(None), hand.view(0), hand.view(1), [e.to_json() for e in hand.events]],
                      sort_keys=True, ensure_ascii=False)


def _check_tiles(hand) -> None:
    tiles: list[int] = []
    for s in range(hand.n):
        tiles += hand.hands[s]
        tiles += [t for m in hand.melds[s] for t in m.tiles]
        tiles += hand.flowers[s]
        tiles += [t for t in hand.discards[s] if t not in hand.claimed_discards]
    tiles += hand.wall[hand.front:hand.back]
    if hand.rob is not None:
        tiles.append(hand.rob[1])
    assert len(tiles) == 72 and len(set(tiles)) == 72
    assert sorted(tiles) == make_tiles(hand.tile_counts())
    # every claimed discard sits in exactly one meld or is a winning tile
    in_melds = {t for s in range(hand.n) for m in hand.melds[s] for t in m.tiles}
    winner = hand.result.get("winner") if hand.result else None
    for t in hand.claimed_discards:
        assert t in in_melds or (winner is not None and t in hand.hands[winner])
    assert not any(hand.is_bonus(t >> 2) for s in range(hand.n) for t in hand.hands[s])


def _check_sizes(hand) -> None:
    winner = hand.result.get("winner") if hand.result else None
    for s in range(hand.n):
        size = len(hand.hands[s]) + 3 * len(hand.melds[s])
        holding = (hand.phase == "discard" and s == hand.turn) or (hand.is_over() and s == winner)
        assert size == (14 if holding else 13), (s, size, hand.phase)
        if hand.drawn[s] is not None:
            assert hand.drawn[s] in hand.hands[s] and holding


def _check_views(hand) -> None:
    if hand.is_over():
        return
    pub = hand.view(None)
    assert pub["me"] is None and pub["result"] is None
    for seat in pub["seats"]:
        assert seat["concealed"] is None and seat["drawn"] is None
        for m in seat["melds"]:
            if m["concealed"]:
                assert m["tiles"] == [None] * 4
    for viewer in range(hand.n):
        v = hand.view(viewer)
        other = v["seats"][1 - viewer]
        if hand.ting[viewer]:
            assert other["concealed"] is not None
        else:
            assert other["concealed"] is None and other["drawn"] is None
        assert v["me"]["hand"] == v["seats"][viewer]["concealed"]
    pending = hand.pending_seats()
    assert pending and all(hand.legal_actions(s) for s in pending)


def _random_illegal(hand, rnd: random.Random) -> Action:
    while True:
        seat = rnd.randrange(3) if rnd.random() < 0.1 else rnd.randrange(2)
        typ = rnd.choice(ACTION_TYPES)
        kind = rnd.choice([None] + list(range(9)) + list(range(27, 34)))
        a = Action(seat, typ, kind)
        if a not in hand.legal_actions(seat) and a.type != "ting":
            return a


def _choose(hand, seat: int, rnd: random.Random, ai_share: float) -> Action:
    legal = hand.legal_actions(seat)
    roll = rnd.random()
    if roll < ai_share:
        return choose_action(hand, seat)
    if roll < ai_share + 0.1:
        a = hand.timeout_action(seat)
        assert a in legal
        return a
    wins = [a for a in legal if a.type == HU]
    if wins and rnd.random() < 0.8:
        return wins[0]
    # mostly discards, sometimes anything legal (claims, kongs, 听, 加倍, pass)
    discards = [a for a in legal if a.type == DISCARD]
    if discards and rnd.random() < 0.7:
        return rnd.choice(discards)
    return rnd.choice(legal)


@pytest.mark.lengthy
@pytest.mark.slow
def test_random_playouts():
    opts = default_options()
    counts = Counter()
    for i in range(N_HANDS):
        rnd = random.Random(1000 + i)
        match = Match("two_player", opts, table_seed=5000 + i // 3, n_seats=2)
        for _ in range(i % 3):  # also play later hands of a table (other dealers, 连庄 counts)
            match.finish({"winner": None, "points": [0, 0]})
        hand = match.new_hand()
        twin = match.replay([])
        ai_share = 1.0 if i % 10 == 0 else AI_SHARE  # every tenth hand: AI against AI
        log: list[str] = []
        probe = rnd.randrange(1, 40)
        _check_tiles(hand)
        _check_sizes(hand)
        _check_views(hand)
        while not hand.is_over():
            if rnd.random() < 0.05:
                bad = _random_illegal(hand, rnd)
                before = _state(hand), hand.seq
                try:
                    hand.apply(bad)
                except IllegalAction:
                    counts["refused"] += 1
                else:
                    raise AssertionError(f"illegal action accepted: {bad}")
                assert (_state(hand), hand.seq) == before
            seat = hand.pending_seats()[0]
            action = _choose(hand, seat, rnd, ai_share)
            hand.apply(action)
            log.append(str(action))
            twin.apply(Action.parse(log[-1]))
            counts["actions"] += 1
            counts[action.type] += 1
            _check_tiles(hand)
            _check_sizes(hand)
            _check_views(hand)
            assert _state(twin) == _state(hand)
            if len(log) == probe:
                assert _state(match.replay(log)) == _state(hand)
        assert _state(match.replay(log)) == _state(hand)
        r = hand.result
        assert sum(r["points"]) == 0
        if r["draw"]:
            counts["draws"] += 1
            assert r["points"] == [0, 0] and hand.wall_remaining == 0
        else:
            counts["wins"] += 1
            assert r["total_fan"] >= opts["min_fan"] and r["points"][r["winner"]] > 0
            counts["robbing"] += r["robbing_kong"]
        counts["hands"] += 1
    print(f"\nplay-outs: {counts['hands']} hands, {counts['actions']} actions checked "
          f"({counts['wins']} wins, {counts['draws']} exhaustive draws, {counts['refused']} refusals); "
          f"action types: { {k: counts[k] for k in ACTION_TYPES} }, robbed kongs {counts['robbing']}")
    assert counts["hands"] == N_HANDS
    assert counts["wins"] > 0 and counts["draws"] > 0
    for typ in ACTION_TYPES:  # every kind of decision was exercised
        assert counts[typ] > 0, typ
