"""Which discards leave a hand ready (``MahjongHand._ready_after_discard``, behind 听 and the
hints) is answered without looking at each discard when the seat's 14 tiles are more than one
step from ready: checked against the direct answer (the seat's waits after each discard) at
every decision of seeded play-outs, in every game whose hands are draw/discard mahjong hands."""

from __future__ import annotations

import pytest

from engine.mahjong.hand import MahjongHand
from engine.match import Match
from engine.tiles import kind_of
from games import game_ids
from engine.variants import find_variant

#: the games whose hands are ``MahjongHand``s (the others have no 听 or wait rule of this form)
MAHJONG_GAMES = [g for g in game_ids()
                 if isinstance(find_variant(g).new_hand(find_variant(g).resolve_options({}), 1, 0,
                                                        find_variant(g).max_players), MahjongHand)]


def _direct(hand: MahjongHand, seat: int, kind: int) -> bool:
    counts = hand.counts(seat)
    counts[kind] -= 1
    return bool(hand._live_waits(seat, counts, len(hand.melds[seat])))


@pytest.mark.some_games("the draw/discard mahjong games; 老五对 and 字牌 hands have no _ready_after_discard")
@pytest.mark.parametrize("game", MAHJONG_GAMES)
def test_ready_after_discard_matches_the_waits_after_each_discard(game):
    info = find_variant(game)
    asked = ready = 0
    for table_seed in range(6):
        match = Match(info, info.resolve_options({}), table_seed, info.max_players)
        for _ in range(2):
            hand = match.new_hand()
            while not hand.is_over():
                seat = hand.pending_seats()[0]
                if len(hand.hands[seat]) + 3 * len(hand.melds[seat]) == 14:
                    for k in sorted({kind_of(t) for t in hand.hands[seat]}):
                        expected = _direct(hand, seat, k)
                        assert hand._ready_after_discard(seat, k) == expected, (game, table_seed, k)
                        asked += 1
                        ready += expected
                hand.apply(hand.ai_action(seat))
            match.finish(hand.result)
    # both answers are met: the AI seats reach ready hands in these hands
    assert asked > 300 and ready > 10, (asked, ready)


def test_a_game_with_waits_of_its_own_is_not_filtered():
    # 财神's wilds and 金湖's waits through its melds are not shape waits of the concealed
    # tiles; 老三番 only narrows them and says so
    kinds = {g: type(find_variant(g).new_hand(find_variant(g).resolve_options({}), 1, 0,
                                               find_variant(g).max_players)) for g in MAHJONG_GAMES}
    within = {g: k.WAITS_WITHIN_SHAPE for g, k in kinds.items()}
    assert within == {"two_player": True, "laosanfan": True, "jinhu": False, "caishen": False}

    class OwnWaits(MahjongHand):
        def _live_waits(self, seat, counts, n_melds, kong_kind=None):
            return [0]

    assert OwnWaits.WAITS_WITHIN_SHAPE is False
