"""The ``strong`` AI of 老三番, 金湖老三番 and 二人麻将 (engine/variants/*/strong.py):
legal and deterministic over seeded play-outs at every seat, the route shanten worked by hand,
and positions where it plays for value or refuses a discard that would pay for others
(docs/rules/laosanfan.md Part 1 §Fan, Part 2 §Waits, §包五家; docs/rules/two_player.md)."""

from __future__ import annotations

import pytest

from games import game_ids

from conftest import kinds
from engine.actions import DISCARD, TING, Action
from engine.match import Match
from engine.tiles import parse_kind
from engine.variants import find_variant
from engine.variants.jinhu import JinhuHand
from engine.variants.laosanfan import LaoSanFanHand
from engine.variants.two_player import TwoPlayerHand
from engine.variants.laosanfan.strong import Route, pungs_shanten, route_shanten, suit_keep

GAMES = game_ids()


def _stacked(cls, game: str, hands: list[str]):
    info = find_variant(game)
    ctx = {"stacked": {"hands": [kinds(h) for h in hands], "draws": [], "back": []}, "hand_no": 1}
    return info, cls(info.resolve_options({}), 7, 0, ctx)


@pytest.mark.parametrize("game", GAMES)
def test_strong_plays_legally_and_deterministically_at_every_seat(game):
    info = find_variant(game)
    assert info.ai_levels["strong"] is not info.ai_levels["normal"]
    n = info.max_players
    for seed in range(4):
        levels = ["normal"] * n
        levels[seed % n] = "strong"
        hand = Match(info, info.resolve_options({}), table_seed=300 + seed, n_seats=n).new_hand()
        moves = 0
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            a = info.ai_move(hand, seat, levels[seat])
            assert a in hand.legal_actions(seat)
            assert info.ai_move(hand, seat, levels[seat]) == a  # same state, same move
            assert a.type != "fake_ting"  # never 假听
            hand.apply(a)
            moves += 1
        assert moves > 10 and sum(hand.result["points"]) == 0


def test_route_shanten_by_hand():
    c = [0] * 34
    for k in kinds("123456789m11m5p9s"):  # 13 tiles
        c[k] += 1
    # plain: three sets, the 11m pair, two singles: 8 − 2·3 − 0 − 1 = 1
    assert route_shanten(Route("plain"), c, 0) == 1
    # 清一色 万: 5p and 9s must be replaced, so at least 2 (its 万 alone are 1 away)
    assert route_shanten(Route("qing0", suit_keep(0, False)), c, 0) == 2
    # 对对胡: one triplet (111m), no pair: 8 − 2 − 0 − 0 = 6
    assert pungs_shanten(c, 0) == 6
    c2 = [0] * 34
    for k in kinds("111m999m55p77s3z"):
        c2[k] += 1
    # two triplets, two pairs (one the head, one a partial), a single: 8 − 4 − 1 − 1 = 2
    assert pungs_shanten(c2, 0) == 2
    # with one pung melded (three fewer tiles held): 8 − 2·(1 + 1) − 1 − 1 = 2
    c2[0] = 0
    assert pungs_shanten(c2, 1) == 2


def test_laosanfan_strong_keeps_the_flush_the_normal_ai_gives_up():
    """Seat 0 (dealer, 14 tiles): 66m 8p 1s 22s 444s 5s 66s 88s — ten 条.  The normal AI reads
    the plain hand only: 1s is its most isolated tile (a terminal) and goes, keeping the lone 8p.
    The strong AI sees the 条 flush: after 8p only 66m is off it, so 混一色/清一色 条 (2/3 fan,
    么半三 170/300 a loser against about 50 for a plain win) stays two tiles away; the plain
    hand's shanten is the same either way (444s, 456s/66s, 22s, 88s and a spare), so it throws 8p."""
    info, hand = _stacked(LaoSanFanHand, "laosanfan",
                          ["66m8p12244456688s", "1112223334445m", "1112223337778p", "9999m99p3456789p"])
    assert info.ai_move(hand, 0, "normal") == Action(0, DISCARD, parse_kind("1s"))
    assert info.ai_move(hand, 0, "strong") == Action(0, DISCARD, parse_kind("8p"))


def test_jinhu_strong_refuses_the_thief_into_a_declared_ting():
    """Seat 0 (dealer): 123m 456p 789p 23s 99s 5m.  Throwing the 贼 5m leaves a ready hand on
    1s/4s — an open wait, which the wait rule (Part 2 §Waits, min_fan_for_open_wait 2) does not
    let a plain hand win.  The normal AI declares 听 with 5m anyway (a dead hand).  The strong AI
    will not declare a 听 that cannot win, so 5m would go undeclared: a 贼 into seat 1's declared
    听 pays 包五家 (five shares).  It keeps 5m and breaks 123m at its terminal, 1m (23m + 5m
    still make a closed 4m wait possible), staying one tile from a ready hand that can win."""
    info, hand = _stacked(JinhuHand, "jinhu",
                          ["123m456789p23s99s5m", "111222333678m6p", "6778899m1112p34p", "5556667778889s"])
    hand.ting[1] = True  # seat 1 has declared 听
    assert info.ai_move(hand, 0, "normal") == Action(0, TING, parse_kind("5m"))
    strong = info.ai_move(hand, 0, "strong")
    assert strong == Action(0, DISCARD, parse_kind("1m"))
    assert parse_kind("5m") in {parse_kind(w["tile"]) for w in hand.warnings(0)}  # 5m was the liable one


def _two_player(hands: list[str], treasure: str):
    info = find_variant("two_player")
    ctx = {"stacked": {"hands": [kinds(h) for h in hands], "draws": [], "back": []}, "hand_no": 1,
           "treasure": parse_kind(treasure)}
    return info, TwoPlayerHand(info.resolve_options({}), 7, 0, ctx)


def test_two_player_strong_keeps_the_treasure_tile():
    """Seat 0 (dealer, 14 tiles): 123456789m 11m 1z 5z 7z, the 宝牌 is 1z (docs/rules/two_player.md
    §Set-up).  Throwing any honour leaves 123 456 789 11m and two honours: three sets and a pair,
    one tile from ready; the normal AI finds the three honours equally useful and equally
    isolated and throws the lowest kind, 1z — the 宝牌.  Held, that 1z doubles any win (one
    copy ×2: the plain hand's 混一色 reckoned at 8 fan becomes 16, over the 15-fan minimum with
    no 加倍), so the strong AI keeps it and throws 5z (before 7z: the lower kind on a tie)."""
    info, hand = _two_player(["12345678911m157z", "2223334445556m"], "1z")
    assert info.ai_move(hand, 0, "normal") == Action(0, DISCARD, parse_kind("1z"))
    assert info.ai_move(hand, 0, "strong") == Action(0, DISCARD, parse_kind("5z"))


def test_two_player_strong_throws_a_safe_tile_into_a_declared_ting():
    """Seat 0 (dealer): 111m 23456789m 6m 1z 5z; seat 1 has declared 听 and has thrown a 6m since.
    Throwing 1z, 5z or 6m all leave the hand one tile from ready (1z: 111 234 567 89m 6m 5z —
    three sets, a partial; 6m: 123 456 789 11m — three sets and a pair; each 8 − 6 − 1 = 1).
    The normal AI throws the lowest most isolated kind, 1z, which seat 1 may be waiting on.
    The strong AI throws 6m, the one tile seat 1 showed it does not want, at no cost to its
    own hand (the same shanten)."""
    info, hand = _two_player(["12345678916m15z1m", "2223334446667z"], "9m")
    assert info.ai_move(hand, 0, "normal") == Action(0, DISCARD, parse_kind("1z"))
    assert info.ai_move(hand, 0, "strong") == Action(0, DISCARD, parse_kind("1z"))  # nobody ready yet
    hand.ting[1] = True
    held = {t for s in range(2) for t in hand.hands[s]}
    six = parse_kind("6m")
    hand.discards[1].append(next(t for t in range(4 * six, 4 * six + 4) if t not in held))
    assert info.ai_move(hand, 0, "normal") == Action(0, DISCARD, parse_kind("1z"))
    assert info.ai_move(hand, 0, "strong") == Action(0, DISCARD, six)
