"""Random play-outs of seeded four-seat hands (老三番 and 金湖老三番, through
:func:`run_playouts`) with invariant checks after every action.

Decisions come from the variant's AI, the timeout rule, or a seeded ``random.Random``
choosing among the legal actions.  After every action:

* every physical tile of the set is accounted for exactly once (concealed hands, rivers
  minus claimed discards, melds, flowers, the live wall, a tile being robbed);
* concealed + 3 per meld is 14 for the seat to discard (or the winner), else 13;
* no flower (or, in 金湖, 中发白) is ever in a concealed hand;
* the public view shows no concealed tile while the hand runs, a seat sees no other
  seat's concealed tiles, and a seat's ``me`` matches its own seat entry;
* a twin hand fed the action log line by line has the same views and events, and
  ``Match.replay`` of the log rebuilds the same state (at one random point and at the end).

Once in a while an action that is not legal is tried: it must raise ``IllegalAction`` and
leave the state unchanged.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from engine.actions import DISCARD, HU, Action
from engine.errors import IllegalAction
from engine.match import Match
from engine.tiles import make_tiles
from engine.variants import find_variant

TYPES = ("discard", "ting", "chow", "pung", "kong", "hu", "pass", "fake_ting")


def _state(hand) -> str:
    return json.dumps([hand.view(None)] + [hand.view(s) for s in range(hand.n)] +
                      [[e.to_json() for e in hand.events]], sort_keys=True, ensure_ascii=False)


def _check(hand, n_tiles: int) -> None:
    tiles: list[int] = []
    for s in range(hand.n):
        tiles += hand.hands[s]
        tiles += [t for m in hand.melds[s] for t in m.tiles]
        tiles += hand.flowers[s]
        tiles += [t for t in hand.discards[s] if t not in hand.claimed_discards]
    tiles += hand.wall[hand.front:hand.back]
    if hand.rob is not None:
        tiles.append(hand.rob[1])
    assert len(tiles) == n_tiles and len(set(tiles)) == n_tiles
    assert sorted(tiles) == make_tiles(hand.tile_counts())
    assert not any(hand.is_bonus(t >> 2) for s in range(hand.n) for t in hand.hands[s])
    winner = hand.result.get("winner") if hand.result else None
    for s in range(hand.n):
        size = len(hand.hands[s]) + 3 * len(hand.melds[s])
        holding = (hand.phase == "discard" and s == hand.turn) or (hand.is_over() and s == winner)
        assert size == (14 if holding else 13), (s, size, hand.phase)
    if hand.is_over():
        return
    pub = hand.view(None)
    assert pub["me"] is None and pub["result"] is None
    for seat in pub["seats"]:
        assert seat["concealed"] is None and seat["drawn"] is None
    for viewer in range(hand.n):
        v = hand.view(viewer)
        for sv in v["seats"]:
            if sv["seat"] != viewer:
                assert sv["concealed"] is None and sv["drawn"] is None
        assert v["me"]["hand"] == v["seats"][viewer]["concealed"]
    assert all(hand.legal_actions(s) for s in hand.pending_seats())


def _choose(hand, seat: int, rnd: random.Random, ai_share: float) -> Action:
    legal = hand.legal_actions(seat)
    roll = rnd.random()
    if roll < ai_share:
        return hand.ai_action(seat)
    if roll < ai_share + 0.1:
        a = hand.timeout_action(seat)
        assert a in legal
        return a
    wins = [a for a in legal if a.type == HU]
    if wins and rnd.random() < 0.8:
        return wins[0]
    discards = [a for a in legal if a.type == DISCARD]
    if discards and rnd.random() < 0.7:
        return rnd.choice(discards)
    return rnd.choice(legal)


def run_playouts(variant: str, n_hands: int, n_tiles: int, ai_share: float = 0.3) -> Counter:
    """Play ``n_hands`` seeded hands of ``variant`` with checks; returns counters."""
    opts = find_variant(variant).resolve_options({})
    counts: Counter = Counter()
    for i in range(n_hands):
        rnd = random.Random(700 + i)
        match = Match(variant, opts, table_seed=9000 + i // 3, n_seats=4)
        for _ in range(i % 3):  # later hands of a table: other dealers, no opening restriction
            match.finish({"winner": None, "points": [0, 0, 0, 0]})
        hand = match.new_hand()
        twin = match.replay([])
        share = 1.0 if i % 8 == 0 else ai_share
        log: list[str] = []
        probe = rnd.randrange(1, 60)
        _check(hand, n_tiles)
        while not hand.is_over():
            if rnd.random() < 0.03:
                bad = Action(rnd.randrange(4), rnd.choice(TYPES), rnd.choice([None] + list(range(34))))
                if bad not in hand.legal_actions(bad.seat) and bad.type != "ting":
                    before = _state(hand), hand.seq
                    try:
                        hand.apply(bad)
                    except IllegalAction:
                        counts["refused"] += 1
                    else:
                        raise AssertionError(f"illegal action accepted: {bad}")
                    assert (_state(hand), hand.seq) == before
            seat = hand.pending_seats()[0]
            action = _choose(hand, seat, rnd, share)
            hand.apply(action)
            log.append(str(action))
            twin.apply(Action.parse(log[-1]))
            counts["actions"] += 1
            counts[action.type] += 1
            _check(hand, n_tiles)
            if len(log) == probe or hand.is_over():
                assert _state(twin) == _state(hand)
                assert _state(match.replay(log)) == _state(hand)
        r = hand.result
        assert sum(r["points"]) == 0
        if r["winner"] is None:
            counts["draws"] += 1
            assert r["points"] == [0, 0, 0, 0] and hand.wall_remaining // 2 <= 9 + hand.kongs_made()
        else:
            counts["wins"] += 1
            assert r["points"][r["winner"]] > 0
        counts["hands"] += 1
    print(f"\n{variant} play-outs: {counts['hands']} hands, {counts['actions']} actions checked "
          f"({counts['wins']} wins, {counts['draws']} draws, {counts['refused']} refusals); "
          f"types: {dict((t, counts[t]) for t in TYPES)}")
    return counts
