"""What the 二人麻将 rule tests share (``tests/games/two_player/``): fan lists by name, a
refused action that leaves the hand unchanged, and the deals several tests start from."""

from __future__ import annotations

import pytest
from conftest import act, snapshot, stacked_hand

from engine.errors import IllegalAction
from engine.variants.two_player import TwoPlayerHand


def fan_names(result: dict) -> dict[str, int]:
    """``{zh name: value * count}`` of a result's fans."""
    return {name: value * count for name, _en, value, count in result["fans"]}


def refused(hand, line: str, code: str) -> IllegalAction:
    """Apply ``line``, expect ``IllegalAction(code)`` and an unchanged state."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as exc:
        act(hand, line)
    assert exc.value.code == code, (line, exc.value)
    assert snapshot(hand) == before
    return exc.value


# Dealer hand worth 12 fan when it draws 8m: 123m 567m 678m 99m 555z, self-drawn, concealed:
# 混一色 6 (万 + honours) + 不求人 4 (no claimed set, self-drawn; excl. 自摸) + 箭刻 2 (555z)
# = 12.  No 幺九刻 for a dragon pung (箭刻 counts it), 8m/5m is a two-sided wait (no 边张/
# 坎张/单钓将), no 连六 (123/567/678 hold no 6 consecutive pair of chows).
DEALER_12 = "1235676799m555z1z"
# Non-dealer hand that is not ready and cannot claim anything the dealer discards here.
IDLE = "2224m2233466z77z"


def twelve_fan_hand(**kw) -> TwoPlayerHand:
    """Seat 0 discards 1z, seat 1 discards its drawn 1z; seat 0 then holds the drawn 8m."""
    h = stacked_hand([DEALER_12, IDLE], draws="1z8m1z8m1z8m", treasure=kw.pop("treasure", "4m"), **kw)
    act(h, "0 discard 1z", "1 discard 1z")
    return h


# seat 1 holds 3m 4m 555m 6m 7m: on the dealer's 5m it may chow 345/456/567, pung or kong
CLAIMER = "3455567m123467z"
DISCARDS_5M = "5m8m9m11z22z33z44z66z7z"

# seat 1 pungs the dealer's 5m, discards 5z, and draws the fourth 5m after the dealer's 8m
ADDED_KONG_DEALER_READY = "46m111m222m999m33m5m"  # after discarding 5m: waits on 5m (坎张)
ADDED_KONG_DEALER_IDLE = "5m1234z1234z3456z7z"
ADDED_KONG_SEAT1 = "55m78m1234566z77z"
