"""The ``strong`` AI of 老五对 and 字牌 (engine/variants/laowudui/strong.py,
engine/variants/zipai/strong.py): positions where it plays for value and the normal AI does
not (docs/rules/laowudui.md §Claims, §Scoring; docs/rules/zipai.md §胡息).  Legality and determinism over
seeded play-outs are in tests/engine/test_strong_ai.py."""

from __future__ import annotations

from collections import Counter

from engine.actions import DISCARD, Action
from engine.match import Match
from engine.tiles import parse_kind
from engine.variants import find_variant
from engine.variants.laowudui.actions import CHI
from engine.variants.laowudui.strong import fan_distance
from engine.variants.zipai.actions import DISCARD_PHASE


def _laowudui(hand_kinds: list[str], dealt: str):
    """A 老五对 hand at seat 1's turn: ``hand_kinds`` concealed, ``dealt`` just dealt, wilds 6p 7p."""
    info = find_variant("laowudui")
    h = Match(info, info.resolve_options({}), table_seed=1, n_seats=4).new_hand()
    h.wild = frozenset({parse_kind("6p"), parse_kind("7p")})
    h.phase, h.turn, h.confirming = "discard", 1, None
    copies: Counter = Counter()

    def tile(name: str) -> int:
        k = parse_kind(name)
        copies[k] += 1
        return k * 4 + copies[k] - 1

    h.hands[1] = [tile(n) for n in hand_kinds]
    h.melds[1] = []
    h.dealt = [None, tile(dealt), None, None]
    h.zhezhuang[1] = False
    return info, h


def test_laowudui_strong_claims_onto_a_pair_the_normal_ai_passes_on():
    # Seat 1 holds 2m 2m and is dealt the third 2m.  Normal claims only to pair a single, so it
    # passes the 2m on (it must discard an unused dealt tile).  Strong claims it (吃): the pair
    # goes face up (1 对 in the meld area, §Scoring) and the 2m kept in hand is the way to a
    # melded four (the fourth 2m → 杠, 10 对).
    info, h = _laowudui(["2m", "2m", "3m", "3m", "4p", "4p", "6s", "6s", "7s", "5m", "8m"], "2m")
    assert info.ai_move(h, 1, "normal") == Action(1, DISCARD, parse_kind("2m"))
    assert info.ai_move(h, 1, "strong") == Action(1, CHI)


def test_laowudui_strong_discards_toward_quanxiao():
    # Seat 1: pairs 2m 3m 4m 7s, singles 9m 5s 6m; dealt the second 6m.  Both levels claim it
    # (it pairs a single).  Then one single goes: 9m or 5s, each with 4 copies unseen but its own.
    # Normal breaks the tie on the higher kind (5s); strong keeps 全小 (only 2–8) alive: without
    # 9m every pair, the melded 6m and the last single 5s are small — fan distance 0 — while
    # without 5s the 9m single still breaks 全小 (distance 1), and no 清一色 or 全大 is alive
    # (7s 7s and 2m 2m are pairs).  So strong discards 9m.
    info, h = _laowudui(["2m", "2m", "3m", "3m", "4m", "4m", "7s", "7s", "9m", "5s", "6m"], "6m")
    assert info.ai_move(h, 1, "normal") == info.ai_move(h, 1, "strong") == Action(1, CHI)
    h.apply(Action(1, CHI))
    counts = Counter(t // 4 for t in h.hands[1])
    counts[parse_kind("9m")] -= 1
    assert fan_distance(h, 1, counts) == 0
    counts[parse_kind("9m")] += 1
    counts[parse_kind("5s")] -= 1
    assert fan_distance(h, 1, counts) == 1
    assert info.ai_move(h, 1, "normal") == Action(1, DISCARD, parse_kind("5s"))
    assert info.ai_move(h, 1, "strong") == Action(1, DISCARD, parse_kind("9m"))


def test_zipai_strong_keeps_the_big_pair():
    # Seat 0 holds 四 四 陆 陆 (small 4s, big 6s) and must discard.  The normal keep value of
    # each is 4 (one more copy, ×4; no other-case copy, no sentence partner, neither is 1/2/3/7/10),
    # a tie it breaks by discarding the higher kind: 陆.  A big pair becomes a 碰/坎/偎 worth
    # twice the small one's 胡息 (3 vs 1, 6 vs 3, zipai.md §胡息): strong values 陆 at 4 + 1 + 2
    # and discards 四.
    info = find_variant("zipai")
    h = Match(info, info.resolve_options({}), table_seed=1, n_seats=4).new_hand()
    si, lu = 53, 65  # 四, 陆 (kinds: small 一 = 50 … 十 = 59, big 壹 = 60 … 拾 = 69)
    h.hands[0] = [si * 4, si * 4 + 1, lu * 4, lu * 4 + 1]
    h.phase, h.turn = DISCARD_PHASE, 0
    h.may_win_now[0] = False
    assert info.ai_move(h, 0, "normal") == Action(0, DISCARD, lu)
    assert info.ai_move(h, 0, "strong") == Action(0, DISCARD, si)
