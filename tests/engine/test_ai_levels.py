"""AI levels (engine/ai_levels.py): every game declares easy, normal and strong; every level
always plays legally and deterministically over seeded play-outs, at every seat."""

from __future__ import annotations

import pytest

from engine.actions import DISCARD, TING, Action
from engine.ai_levels import (DEFAULT_LEVEL, LEVELS, ai_levels, check_level, move, new_seat_level, offered_levels,
                              stored_level)
from engine.match import Match
from engine.tiles import parse_kind
from engine.variant import VariantInfo
from engine.variants import all_variants, find_variant

GAMES = [info.id for info in all_variants()]


def _play(info: VariantInfo, seed: int, levels: list[str]) -> tuple[int, dict]:
    """One seeded hand with seat ``s`` played at ``levels[s]``; every move is checked legal and
    asked twice (the same state gives the same move).  Returns (moves, result)."""
    n = len(levels)
    match = Match(info, info.resolve_options({}), table_seed=seed, n_seats=n)
    for _ in range(seed % n):  # later hands: other dealers
        match.finish({"winner": None, "points": [0] * n})
    hand = match.new_hand()
    moves = 0
    while not hand.is_over():
        seat = hand.pending_seats()[0]
        action = info.ai_move(hand, seat, levels[seat])
        assert action in hand.legal_actions(seat), (info.id, levels[seat], action)
        assert info.ai_move(hand, seat, levels[seat]) == action
        hand.apply(action)
        moves += 1
        assert moves < 3000
    return moves, hand.result


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legally_at_every_seat(game, level):
    info = find_variant(game)
    finished = 0
    for seed in range(6):
        n = info.max_players if seed % 2 == 0 else info.min_players
        moves, result = _play(info, 1000 + seed, [level] * n)
        assert moves > 0 and len(result["points"]) == n
        assert sum(result["points"]) == 0  # zero-sum settlement
        finished += 1
    assert finished == 6


@pytest.mark.parametrize("game", GAMES)
def test_mixed_levels_rotate_through_the_seats(game):
    info = find_variant(game)
    n = info.max_players
    for shift in range(n):
        levels = [LEVELS[(s + shift) % len(LEVELS)] for s in range(n)]
        _play(info, 2000 + shift, levels)


def test_every_game_declares_every_level_and_normal_is_the_plain_ai():
    for info in all_variants():
        assert set(info.ai_levels) == set(LEVELS)
        assert info.ai_levels["normal"] is info.ai
        # strong is the normal AI until the game declares its own; easy is the game's own
        assert info.ai_levels["easy"] is not info.ai
        assert info.ai_levels["easy"].__name__ == "easy_action"


def test_normal_moves_are_the_hands_own_ai_moves():
    for info in all_variants():
        hand = Match(info, info.resolve_options({}), table_seed=7, n_seats=info.max_players).new_hand()
        seat = hand.pending_seats()[0]
        assert move(info, hand, seat, "normal") == hand.ai_action(seat)
        assert move(info, hand, seat) == hand.ai_action(seat)  # no level: normal


def test_levels_are_checked_and_missing_ones_play_normal():
    assert DEFAULT_LEVEL == "normal"
    assert LEVELS == ("easy", "normal", "strong")
    assert stored_level(None) == "normal" and stored_level("easy") == "easy"
    with pytest.raises(ValueError):
        check_level("hard")
    with pytest.raises(ValueError):
        stored_level("")
    info = find_variant("laosanfan")
    hand = Match(info, info.resolve_options({}), table_seed=1, n_seats=4).new_hand()
    with pytest.raises(ValueError):
        info.ai_move(hand, hand.pending_seats()[0], "hard")

    def plain(hand, seat):
        return "plain"

    def sharp(hand, seat):
        return "sharp"

    table = ai_levels(plain, strong=sharp)
    assert dict(table) == {"easy": plain, "normal": plain, "strong": sharp}
    with pytest.raises(TypeError):
        table["easy"] = sharp  # read-only
    toy = VariantInfo("toy_levels", "玩具", "Toy", 2, 2, (), lambda *a: None, ai=plain,
                      ai_levels={"strong": sharp})
    assert toy.ai_move(None, 0, "easy") == "plain" and toy.ai_move(None, 0, "strong") == "sharp"
    with pytest.raises(ValueError):
        VariantInfo("toy_levels", "玩具", "Toy", 2, 2, (), lambda *a: None, ai_levels={"hard": sharp})


# ---------------------------------------------------------------- the easy level by hand
def test_easy_mahjong_discards_for_the_lowest_shanten_lowest_kind_on_a_tie():
    """123m 456m 789m 11z + 3z 5z 7z: any of the three lone honours leaves 1-shanten (three sets,
    a pair, two singles: 8 − 2·3 − 0 − 1 = 1) and a set tile leaves more; the tie goes to the
    lowest kind, 3z; no 听 (not ready after it)."""
    from conftest import stacked_hand

    hand = stacked_hand(["123456789m113z5z7z", "1112223334446m"])
    easy = find_variant("two_player").ai_levels["easy"]
    assert easy(hand, 0) == Action(0, DISCARD, parse_kind("3z"))


def test_easy_mahjong_declares_ting_with_a_discard_that_leaves_a_ready_hand():
    """123m 456m 789m 11z 22z + 3z: the lone 3z goes and leaves a ready hand (11z/22z), so the
    discard is the 听 with 3z."""
    from conftest import stacked_hand

    hand = stacked_hand(["123456789m11z22z3z", "1112223334446m"])
    legal = hand.legal_actions(0)
    assert Action(0, TING, parse_kind("3z")) in legal
    assert find_variant("two_player").ai_levels["easy"](hand, 0) == Action(0, TING, parse_kind("3z"))


def test_zipai_easy_reads_groups_then_partials_then_huxi():
    """一二三 (a 3-胡息 run of small cards, zipai.md §胡息) and 壹壹: one group and a partial (the
    pair), 3 胡息 — better than the 绞牌 一壹壹 with 二三 (one group, one partial, 0 胡息).  With
    四 as well, two groups win over 胡息: 一壹壹 + 二三四."""
    from engine.variants.zipai.ai import formed

    c = [0] * 20
    c[0] = c[1] = c[2] = 1   # 一 二 三
    assert formed(tuple(c)) == (1, 0, 3)
    c[10] = 2                # 壹 壹
    assert formed(tuple(c)) == (1, 1, 3)
    c[3] = 1                 # 四
    assert formed(tuple(c)) == (2, 0, 0)


def test_tables_offer_only_the_levels_some_game_plays_differently():
    """A level that is ``normal``'s move in every game is not offered (it would play the same
    under another name); the strongest offered level is a new AI seat's."""
    from types import SimpleNamespace as NS

    def plain(hand, seat):
        raise AssertionError("not played")

    def other(hand, seat):
        raise AssertionError("not played")

    games = list(all_variants())
    own = {i.id for i in games if i.ai_levels["strong"] is not i.ai_levels["normal"]}
    # the games with their own strong AI
    assert own == {i.id for i in games}
    assert offered_levels(games) == ("easy", "normal", "strong") and new_seat_level(games) == "strong"
    assert new_seat_level([find_variant("laosanfan")]) == "strong"
    assert new_seat_level([find_variant("two_player")]) == "strong"
    assert new_seat_level([find_variant("caishen")]) == "strong"
    only_normal = NS(ai_levels=ai_levels(plain))
    assert offered_levels([only_normal]) == ("normal",) and new_seat_level([only_normal]) == "normal"
    with_strong = NS(ai_levels=ai_levels(plain, easy=other, strong=other))
    assert offered_levels([only_normal, with_strong]) == ("easy", "normal", "strong")
    assert new_seat_level([with_strong]) == "strong"
