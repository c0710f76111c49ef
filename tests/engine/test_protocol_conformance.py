"""Every game keeps the ``engine.protocol`` contract: over seeded play-outs (AI and timeout
moves, the most and the fewest seats), every protocol method is called with the protocol's
arguments at every step, the methods have the protocol's signatures, and every view, event and
result has the typed shape (``engine.protocol.View``, ``Result`` …) — checked with
``engine.shape_check``.  The declared facts of each game (``VariantInfo``) are checked against
what its hands do (``protocol_checks.py``).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.protocol import FanItem, MeldView, Result, View, WinFacts
from engine.shape_check import check
from engine.variants import built_in, find_variant
from protocol_checks import check_facts, play_and_check, signature_problems

#: the built-in games, from their packages
GAMES = [v.id for v in built_in()]

#: quick lane: two seeds per game (the most seats, then the fewest); more in the slow lane
SEEDS = (1, 2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_play_out_keeps_the_protocol(game, seed):
    info = find_variant(game)
    n = info.max_players if seed % 2 else info.min_players
    results = play_and_check(info, seed, n)
    assert len(results) == 2


@pytest.mark.parametrize("game", GAMES)
def test_declared_facts(game):
    info = find_variant(game)
    check_facts(info)
    hand = info.new_hand(info.resolve_options({}), 5, 0, info.max_players)
    assert signature_problems(type(hand)) == []


def test_facts_of_each_game():
    facts = {g: (i.tile_style, i.claimed_discards, i.wild_name, i.front_end_confirms_wild_discard, i.first_dealer)
             for g in GAMES for i in [find_variant(g)]}
    assert facts == {
        "two_player": ("mahjong", "dimmed", None, False, "random"),
        "laosanfan": ("mahjong", "dimmed", None, False, "random"),
        "jinhu": ("mahjong", "dimmed", None, False, "random"),
        "caishen": ("mahjong", "dimmed", "wild_caishen", True, "random"),
        "laowudui": ("mahjong", "dimmed", "wild", False, "creator"),
        "zipai": ("paper", "moved", None, False, "random"),
    }
    assert all(find_variant(g).facts.claimed_discards == facts[g][1] for g in GAMES)  # what the images read
    with pytest.raises(ValueError, match="claimed_discards"):
        dataclasses.replace(find_variant("zipai"), claimed_discards="hidden")
    assert len(find_variant("two_player").fan_table) == 59
    assert dict(find_variant("caishen").action_labels) == {"caishen_hui": "btn.caishen_hui"}
    assert "chi_l_hm" in find_variant("zipai").action_labels


def test_a_wild_discard_the_front_end_confirms_is_taken_at_once():
    """财神麻将 declares that the front end confirms a wild discard: its hand takes the discard
    at once (no ``confirming`` step); 老五对's hand asks itself (``confirm`` / ``keep``)."""
    for game, confirms_itself in (("caishen", False), ("laowudui", True)):
        info = find_variant(game)
        assert info.front_end_confirms_wild_discard is not confirms_itself
        for seed in range(40):
            hand = info.new_hand(info.resolve_options({}), seed, 0, 4)
            while not hand.is_over() and hand.phase != "discard":
                s = hand.pending_seats()[0]
                hand.apply(hand.timeout_action(s))
            wild = set(hand.view(hand.turn)["wild"]["kinds"])
            discard = next((a for a in hand.legal_actions(hand.turn) if a.type == "discard"
                            and str(a).split()[-1] in wild), None)
            if discard is None:
                continue
            hand.apply(discard)
            me = hand.view(discard.seat)["me"]
            if confirms_itself:
                assert me["confirming"] == str(discard).split()[-1]
                assert {a.type for a in hand.legal_actions(discard.seat)} <= {"confirm", "keep"}
            else:
                assert not me.get("confirming") and hand.view(None)["seats"][discard.seat]["discards"]
            break
        else:
            pytest.fail(f"{game}: no wild to discard in 40 deals")


# ------------------------------------------------------------------ the checker itself
def test_shape_check_finds_what_is_wrong():
    meld = {"type": "pung", "tiles": ["1m", "1m", None], "concealed": False, "added": False,
            "claimed_index": 2, "from_seat": 1}
    assert check(meld, MeldView) == []
    assert check({**meld, "huxi": 3, "mine": "any"}, MeldView) == []  # open: extra keys pass
    assert check(dict(meld, added=1), MeldView) == ["$.added: expected bool, got int 1"]
    assert check(dict(meld, from_seat=True), MeldView)  # a bool is no seat number
    missing = dict(meld)
    del missing["tiles"]
    assert check(missing, MeldView) == ["$: MeldView key 'tiles' missing"]
    assert check(dict(meld, tiles=["1m", 5]), MeldView) == ["$.tiles[1]: expected str | None, got int 5"]
    assert check(["自摸", "Self-drawn", 1, 1], FanItem) == []
    assert check(("自摸", "Self-drawn", 1, 1), FanItem)  # a tuple is not JSON
    assert check(["自摸", "Self-drawn", 1], FanItem) == ["$: expected 4 items, got 3"]
    draw = {"winner": None, "winners": [], "draw": True, "points": [0, 0], "dealer": 0, "hands": [[], []],
            "self_drawn": False, "discarder": None}
    assert check(draw, Result) == []
    assert check(dict(draw, fan_by_seat={"0": "x"}), Result) == ["$.fan_by_seat['0']: expected int, got str 'x'"]
    assert check(draw, WinFacts) and check({"seats": []}, View)
