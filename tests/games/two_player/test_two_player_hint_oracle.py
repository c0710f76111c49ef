"""The fan the 二人麻将 hint gives each wait, against ``pymahjonggb``: at every own discard of
seeded AI hands, every wait of every ready discard is scored by ``MahjongGB`` (the hand of 13
tiles after that discard, its melds and flowers, a win on a discard of the wait) and must have
the hint's fan whenever every fan the oracle reports is one of our table's.

As in ``test_two_player_oracle.py``, seat and prevalent wind are a wind the hand has no pung of
(门风刻/圈风刻 are not in our table); a hint given at the dealer's first discard (天听, not in the
oracle) is left out."""

from __future__ import annotations

from collections import Counter

import MahjongGB

from engine.melds import CHOW, KONG, PUNG
from engine.tiles import kind_of, parse_kind
from engine.variants import find_variant

from test_two_player_oracle import _OUR_NAMES, _ORACLE_NAME, oracle_tile


def _packs(melds) -> tuple:
    out = []
    for m in melds:
        k = min(kind_of(t) for t in m.tiles)
        if m.type == CHOW:
            out.append(("CHI", oracle_tile(k + 1), 1))
        elif m.type == PUNG:
            out.append(("PENG", oracle_tile(k), 1))
        elif m.type == KONG:
            out.append(("GANG", oracle_tile(k), 0 if m.concealed else 1))
    return tuple(out)


def test_every_hinted_waits_fan_is_the_oracles():
    info = find_variant("two_player")
    compared = left_out = 0
    for seed in range(1, 61):
        hand = info.new_hand(info.resolve_options({}), seed, 0, 2)
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            first = seat == hand.dealer and hand.discards_made[seat] == 0 and hand.draws_made[seat] == 0
            hints = hand.view(seat)["me"].get("hint") or []
            for h in [] if first else hints:
                kinds = sorted(kind_of(t) for t in hand.hands[seat])
                kinds.remove(parse_kind(h["discard"]))
                melded = [kind_of(t) for m in hand.melds[seat] for t in m.tiles]
                for w in h["waits"]:
                    win = parse_kind(w["tile"])
                    total = Counter(kinds + melded + [win])
                    wind = next((x for x in range(4) if total[27 + x] < 3), 0)
                    # 和绝张 as our hint counts it: three copies already in sight of the public
                    public = hand.visible_counts(None)[win]
                    res = MahjongGB.MahjongFanCalculator(
                        pack=_packs(hand.melds[seat]), hand=tuple(oracle_tile(k) for k in kinds),
                        winTile=oracle_tile(win), flowerCount=len(hand.flowers[seat]), isSelfDrawn=False,
                        is4thTile=public >= 3, isAboutKong=False, isWallLast=False, seatWind=wind,
                        prevalentWind=wind, verbose=True)
                    if any(_ORACLE_NAME.get(name, name) not in _OUR_NAMES for _v, _c, name, _en in res):
                        left_out += 1
                        continue
                    assert sum(v * c for v, c, _n, _e in res) == w["fan"], (seed, h["discard"], w, res)
                    compared += 1
            hand.apply(hand.ai_action(seat))
    print(f"hint oracle: {compared} waits compared, {left_out} left out (a fan not in our table)")
    assert compared > 100, (compared, left_out)
