"""The discard hint (听牌提示) of every registered game, against brute force: at each of a
seat's own discards in seeded AI play, the discards the hint lists are exactly those after
which some tile completes the hand — tried tile by tile through the game's own win check,
not through the waits it computes — each with exactly those waits, their copies left (the
seat's unseen count, less the tile it lets go) and their value as the game's scoring gives it.

Families: the draw/discard hand (``MahjongHand``: a win shape of the 13 tiles and the tile,
less the kinds the seat holds every copy of), 老五对 (its pair-shape win check and which tiles
may win), 字牌 (a win evaluation of the card).  A hand of another family fails loudly.
"""

from __future__ import annotations

import pytest

from games import game_ids

from engine.mahjong import MahjongHand
from engine.tiles import kind_of, kind_str, parse_kind, parse_kinds
from engine.variants import find_variant
from engine.variants.laowudui.hand import LaoWuDuiHand
from engine.variants.laowudui.shapes import TILE_COUNTS, is_xi
from engine.variants.zipai.hand import ZipaiHand, card_kinds


def _kinds(hand) -> list[int]:
    if isinstance(hand, MahjongHand):
        return sorted(hand.allowed_kinds())
    if isinstance(hand, LaoWuDuiHand):
        return sorted(TILE_COUNTS)
    if isinstance(hand, ZipaiHand):
        return list(card_kinds())
    raise AssertionError(f"no brute force for the hand family of {type(hand).__name__}: add one")


def _brute_waits(hand, seat: int, tiles: list[int]) -> list[int]:
    """The kinds that complete ``seat``'s hand of ``tiles`` (one tile short), one by one."""
    melded = [t for m in getattr(hand, "melds", hand.groups if isinstance(hand, ZipaiHand) else [])[seat] for t in m.tiles]
    held = [kind_of(t) for t in tiles + melded]
    out = []
    for k in _kinds(hand):
        if isinstance(hand, MahjongHand):
            ok = held.count(k) < hand.tile_counts().get(k, 4) and hand.win_shape(seat, k)
        elif isinstance(hand, LaoWuDuiHand):
            ok = (hand.win_kind_allowed(seat, k, True, tiles) and not (is_xi(k) and k in held)
                  and hand._wins(seat, tiles, hand.melds[seat], k))
        else:
            ok = hand.win_eval(seat, k * 4, True) is not None
        if ok:
            out.append(k)
    return out


def _value(hand, seat: int, kind: int, tiles: list[int]) -> dict:
    """The value of a win on ``kind`` as the hint must give it, from the game's scoring."""
    if isinstance(hand, MahjongHand):
        return hand.wait_value(seat, kind)
    if isinstance(hand, LaoWuDuiHand):
        own = hand.evaluate_win(seat, kind, True, hand=tiles)["fan_total"]
        if not hand.win_kind_allowed(seat, kind, False, tiles):
            return {"fan_self": own, "self_drawn_only": True}
        fan = hand.evaluate_win(seat, kind, False, hand=tiles)["fan_total"]
        return {"fan": fan, **({"fan_self": own} if own != fan else {})}
    return {"huxi": hand.win_eval(seat, kind * 4, True)["huxi"]}


def check_hint(hand, seat: int) -> int:
    """Compare ``seat``'s hint now with brute force; returns how many discards leave it ready."""
    hint = hand.view(seat)["me"]["hint"]
    want = {}
    for k in sorted({a.kind for a in hand.legal_actions(seat) if a.type == "discard" and a.kind is not None}):
        saved = hand.hands[seat]
        dealt = getattr(hand, "dealt", None)
        if isinstance(hand, LaoWuDuiHand):  # the dealt tile is held apart: it joins the hand
            held = list(saved) + ([dealt[seat]] if dealt[seat] is not None else [])
            tile = dealt[seat] if dealt[seat] is not None and kind_of(dealt[seat]) == k else \
                next(t for t in held if kind_of(t) == k)
            saved_dealt, dealt[seat] = dealt[seat], None
        else:
            held = list(saved)
            tile = hand._pick_tile(seat, k) if isinstance(hand, MahjongHand) else next(t for t in held if kind_of(t) == k)
        tiles = [t for t in held if t != tile]
        hand.hands[seat] = tiles
        try:
            waits = _brute_waits(hand, seat, tiles)
            # the tile let go lies in the pond: one copy fewer to come
            want[kind_str(k)] = [{"tile": kind_str(w), "left": hand.unseen(seat, w) - (w == k),
                                  **_value(hand, seat, w, tiles)} for w in waits]
        finally:
            hand.hands[seat] = saved
            if isinstance(hand, LaoWuDuiHand):
                dealt[seat] = saved_dealt
    want = {d: ws for d, ws in want.items() if ws}
    got = {h["discard"]: sorted(h["waits"], key=lambda w: parse_kind(w["tile"])) for h in hint}
    assert got == want, (type(hand).__name__, seat)
    return len(want)


def _own_discard(hand, seat: int) -> bool:
    view = hand.view(seat)["me"]
    return any(a.type == "discard" for a in hand.legal_actions(seat)) and not (
        isinstance(hand, MahjongHand) and hand.ting[seat]) and not view.get("confirming")


@pytest.mark.parametrize("game", game_ids())
def test_the_hint_lists_every_ready_discard_with_its_waits_as_brute_force_finds_them(game):
    info = find_variant(game)
    checked = ready = 0
    for seed in range(1, 11):
        n = info.max_players if seed % 2 else info.min_players
        hand = info.new_hand(info.resolve_options({}), seed, 0, n)
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            if _own_discard(hand, seat):
                ready += bool(check_hint(hand, seat))
                checked += 1
            hand.apply(hand.ai_action(seat))
    # every own discard of ten hands checked, many of them with a discard that leaves it ready
    assert checked > 80 and ready > 10, (checked, ready)


def test_a_wait_after_a_concealed_kong():
    """老三番, the dealer dealt 1z×4, 123m 456m 5s6s 9p9p: after the concealed kong of 1z and
    its replacement tile (2z, from the back of the wall), discarding 2z leaves 123m 456m 5s6s 9p9p waiting on 4s/7s — the
    kong counts as one of the four sets."""
    info = find_variant("laosanfan")
    stacked = {"hands": [parse_kinds("1z1z1z1z123m456m5s6s9p9p"), parse_kinds("2z2z2z3z3z3z4z4z4z7z7z7z8m"),
                         parse_kinds("1m1m1m2m2m2m3m3m3m4m4m4m5m"), parse_kinds("1p1p1p2p2p2p3p3p3p4p4p4p5p")],
               "back": parse_kinds("2z")}
    hand = info.new_hand(info.resolve_options({"opening_restriction": False}), 1, 0, 4, {"stacked": stacked})
    assert hand.dealer == 0
    kong = next(a for a in hand.legal_actions(0) if a.type == "kong")
    hand.apply(kong)
    assert hand.melds[0][0].concealed and len(hand.melds[0][0].tiles) == 4 and len(hand.hands[0]) == 11
    assert check_hint(hand, 0) >= 1
    hint = {h["discard"]: [w["tile"] for w in h["waits"]] for h in hand.view(0)["me"]["hint"]}
    assert hint["2z"] == ["4s", "7s"], hint
