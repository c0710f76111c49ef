"""Random play-outs of seeded 老五对 hands (2, 3 and 4 players, each 百搭 option, with and
without ``wild_discard``) with invariant checks after every action (``docs/rules/laowudui.md``).

Decisions come from the AI, the timeout rule or a seeded ``random.Random`` choice among
the legal actions.  After every action:

* the 125 physical tiles are accounted for exactly once: concealed hands, dealt tiles,
  melds, rivers (minus claimed discards), the live wall, the turned tile and set-aside 喜牌;
* every seat holds 11 tiles (concealed + melded + dealt) between turns, and the seat on
  turn 12 (the dealer 12 in the opening phase);
* no view shows a dealt or concealed tile to anyone but its owner while the hand runs;
* an action that is not legal raises ``IllegalAction`` and leaves the state unchanged;
* at the end, ``Match.replay`` of the action log rebuilds the same state.
"""

from __future__ import annotations

import pytest

import json
import random

from engine.actions import Action
from engine.errors import IllegalAction
from engine.match import Match
from engine.tiles import make_tiles
from engine.variants import find_variant
from engine.variants.laowudui.shapes import TILE_COUNTS

INFO = find_variant("laowudui")
ALL_TILES = make_tiles(TILE_COUNTS)
HANDS_PER_CONFIG = 8


def _state(hand) -> str:
    return json.dumps([hand.view(None)] + [hand.view(s) for s in range(hand.n)] + [[e.to_json() for e in hand.events]],
                      sort_keys=True, ensure_ascii=False)


def _check_tiles(hand) -> None:
    tiles = [hand.indicator] + list(hand.set_aside) + hand.wall[hand.front:hand.back]
    # a discard claimed into a meld is counted in the meld; one won on stays in its river
    # (taken, so marked claimed, but in no hand: several may win on it)
    in_melds = {t for s in range(hand.n) for m in hand.melds[s] for t in m.tiles}
    for s in range(hand.n):
        tiles += hand.hands[s]
        tiles += [t for m in hand.melds[s] for t in m.tiles]
        tiles += [t for t in hand.discards[s] if t not in in_melds]
        if hand.dealt[s] is not None:
            tiles.append(hand.dealt[s])
    assert sorted(tiles) == ALL_TILES


def _check_sizes(hand) -> None:
    if hand.is_over():
        return
    for s in range(hand.n):
        on_turn = (hand.phase == "discard" and s == hand.turn) or (hand.phase == "opening" and s == hand.dealer)
        assert hand.holding(s) == (12 if on_turn else 11), (s, hand.phase, hand.holding(s))
        if hand.dealt[s] is not None:
            assert hand.phase == "discard" and s == hand.turn


def _check_views(hand) -> None:
    if hand.is_over():
        return
    for viewer in [None] + list(range(hand.n)):
        v = hand.view(viewer)
        for sv in v["seats"]:
            if sv["seat"] != viewer:
                assert sv["concealed"] is None and sv["drawn"] is None
        if viewer is None:
            assert v["me"] is None
    pub = json.dumps(hand.view(None))
    assert '"drawn": null' in pub and '"confirming"' not in pub


def _play(n: int, wilds: int, wild_discard: bool, seed: int, rng: random.Random) -> tuple[int, int]:
    options = INFO.resolve_options({"wilds": wilds, "wild_discard": wild_discard})
    m = Match("laowudui", options, seed, n)
    m.state["hand_no"] = seed % 3  # hand 0 has the creator deal; others the stored dealer
    m.state["dealer"] = seed % n
    hand = m.new_hand()
    log: list[str] = []
    illegal = 0
    _check_tiles(hand)
    _check_sizes(hand)
    while not hand.is_over():
        seat = hand.pending_seats()[0]
        legal = hand.legal_actions(seat)
        assert legal
        if rng.random() < 0.1:
            bogus = Action((seat + 1) % n, "discard", rng.randrange(27))
            if bogus not in hand.legal_actions(bogus.seat):
                before = _state(hand)
                try:
                    hand.apply(bogus)
                except IllegalAction:
                    illegal += 1
                assert _state(hand) == before
        r = rng.random()
        if r < 0.5:
            action = hand.ai_action(seat)
        elif r < 0.6:
            action = hand.timeout_action(seat)
        else:
            action = rng.choice(legal)
        assert action in legal
        hand.apply(action)
        log.append(str(action))
        _check_tiles(hand)
        _check_sizes(hand)
        _check_views(hand)
    res = hand.result
    assert sum(res["points"]) == 0 and res["next_dealer"] == (hand.dealer + 1) % n
    if res["winner"] is not None:
        assert res["points"][res["winner"]] > 0
    again = m.replay(log)
    assert _state(again) == _state(hand)
    return len(log), illegal


@pytest.mark.slow
def test_random_playouts_keep_every_invariant():
    rng = random.Random(2024)
    hands = actions = illegal = 0
    for n in (2, 3, 4):
        for wilds in (4, 7, 11):
            for wild_discard in (True, False):
                for i in range(HANDS_PER_CONFIG):
                    a, b = _play(n, wilds, wild_discard, 1000 * n + 10 * wilds + i, rng)
                    hands += 1
                    actions += a
                    illegal += b
    assert hands == 3 * 3 * 2 * HANDS_PER_CONFIG
    print(f"laowudui play-outs: {hands} hands, {actions} actions checked, {illegal} illegal actions refused")


def test_ai_only_hands_end_and_settle():
    wins = draws = multi = 0
    for n in (2, 3, 4):
        for wilds in (4, 7, 11):
            options = INFO.resolve_options({"wilds": wilds})
            for seed in range(20):
                hand = INFO.new_hand(options, seed, seed % n, n, {})
                while not hand.is_over():
                    hand.apply(hand.ai_action(hand.pending_seats()[0]))
                res = hand.result
                assert sum(res["points"]) == 0
                if res["winner"] is None:
                    draws += 1
                else:
                    wins += 1
                    multi += len(res["winners"]) > 1
    assert wins > 0
    print(f"AI hands: {wins} won, {draws} drawn, {multi} with several winners")
