"""Random play-outs of seeded 财神麻将 hands (``docs/rules/caishen.md``) with invariants after
every action.

Decisions come from the AI (``CaishenHand.ai_action``), from the timeout rule, or from
a seeded ``random.Random`` among the legal actions (claims, kongs, 财神会, discarding a
财神).  After every action:

* the 136 tiles are accounted for exactly once (hands, rivers minus claimed tiles, melds,
  the live wall, a tile being robbed);
* concealed + 3 per meld is 14 for the seat to discard (or the winner), else 13;
* no meld holds a 财神, and no claim ever took a discarded 财神;
* the public view shows no concealed tile while the hand runs and each seat sees only its
  own; the view carries the wild information;
* a twin hand fed the action log (text form) has the same views and events, and
  ``Match.replay`` rebuilds the same state at a random point and at the end;
* the AI never discards a 财神 while it may discard another tile.
"""

from __future__ import annotations

import pytest

import json
import random
from collections import Counter

from engine.actions import DISCARD, HU, Action
from engine.match import Match
from engine.tiles import make_tiles
from engine.variants import find_variant

N_HANDS = 50
INFO = find_variant("caishen")


def _state(hand) -> str:
    return json.dumps([hand.view(None)] + [hand.view(s) for s in range(4)] + [[e.to_json() for e in hand.events]],
                      sort_keys=True, ensure_ascii=False)


def _check(hand) -> None:
    tiles: list[int] = []
    for s in range(4):
        tiles += hand.hands[s]
        tiles += [t for m in hand.melds[s] for t in m.tiles]
        tiles += [t for t in hand.discards[s] if t not in hand.claimed_discards]
    tiles += hand.wall[hand.front:hand.back]
    if hand.rob is not None:
        tiles.append(hand.rob[1])
    assert sorted(tiles) == make_tiles(hand.tile_counts()) and len(set(tiles)) == 136
    winner = hand.result.get("winner") if hand.result else None
    for s in range(4):
        size = len(hand.hands[s]) + 3 * len(hand.melds[s])
        holding = (hand.phase == "discard" and s == hand.turn) or (hand.is_over() and s == winner)
        assert size == (14 if holding else 13)
        for m in hand.melds[s]:
            assert not any(hand.is_wild(t >> 2) for t in m.tiles)
    for t in hand.claimed_discards:
        assert not hand.is_wild(t >> 2)
    pub = hand.view(None)
    assert pub["wild"]["kinds"] == [pub["wild"]["stands_for"]]
    if not hand.is_over():
        assert all(seat["concealed"] is None for seat in pub["seats"])
        for viewer in range(4):
            v = hand.view(viewer)
            for seat in v["seats"]:
                assert (seat["concealed"] is not None) == (seat["seat"] == viewer)
            assert v["me"]["hand"] == v["seats"][viewer]["concealed"]
        assert all(hand.legal_actions(s) for s in hand.pending_seats())


def _choose(hand, seat: int, rnd: random.Random, ai_share: float, counts: Counter) -> Action:
    legal = hand.legal_actions(seat)
    roll = rnd.random()
    if roll < ai_share:
        a = hand.ai_action(seat)
        if a.type == DISCARD and hand.is_wild(a.kind):
            assert all(hand.is_wild(b.kind) for b in legal if b.type == DISCARD)
        counts["ai"] += 1
        return a
    if roll < ai_share + 0.1:
        a = hand.timeout_action(seat)
        assert a in legal
        return a
    wins = [a for a in legal if a.type in (HU, "caishen_hui")]
    if wins and rnd.random() < 0.7:
        return wins[0]
    discards = [a for a in legal if a.type == DISCARD]
    if discards and rnd.random() < 0.7:
        return rnd.choice(discards)
    return rnd.choice(legal)


@pytest.mark.lengthy
@pytest.mark.slow
def test_random_playouts():
    counts: Counter = Counter()
    for i in range(N_HANDS):
        rnd = random.Random(300 + i)
        options = INFO.resolve_options({"wild_discard": i % 4 != 3, "discard_pays": "all" if i % 5 == 0 else "discarder"})
        match = Match("caishen", options, table_seed=9000 + i, n_seats=4)
        hand = match.new_hand()
        twin = match.replay([])
        ai_share = 1.0 if i % 3 == 0 else 0.3
        log: list[str] = []
        probe = rnd.randrange(1, 60)
        _check(hand)
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            action = _choose(hand, seat, rnd, ai_share, counts)
            if action.type == DISCARD and hand.is_wild(action.kind):
                counts["wild_discards"] += 1
                assert options["wild_discard"]
            hand.apply(action)
            log.append(str(action))
            twin.apply(Action.parse(log[-1]))
            counts["actions"] += 1
            counts[action.type] += 1
            _check(hand)
            assert _state(twin) == _state(hand)
            if len(log) == probe:
                assert _state(match.replay(log)) == _state(hand)
        assert _state(match.replay(log)) == _state(hand)
        r = hand.result
        assert sum(r["points"]) == 0
        if r["draw"]:
            counts["draws"] += 1
            assert r["points"] == [0, 0, 0, 0]
        else:
            counts["wins"] += 1
            assert 1 <= r["multiplier"] <= 40 and r["points"][r["winner"]] > 0
            for s in r["specials"]:
                counts["special:" + s] += 1
        counts["hands"] += 1
    print(f"\ncaishen play-outs: {counts['hands']} hands, {counts['actions']} actions checked "
          f"({counts['wins']} wins, {counts['draws']} draws, {counts['ai']} AI moves, "
          f"{counts['wild_discards']} 财神 discarded); "
          f"{ {k: v for k, v in sorted(counts.items()) if k not in ('hands', 'actions', 'wins', 'draws', 'ai')} }")
    assert counts["hands"] == N_HANDS and counts["wins"] > 0 and counts["draws"] > 0
    for typ in ("discard", "chow", "pung", "kong", "hu", "pass"):
        assert counts[typ] > 0, typ
