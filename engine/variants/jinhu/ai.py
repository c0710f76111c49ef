"""The AI seat of 金湖老三番: the shanten AI of 老三番 with seven pairs counted; it keeps the 贼
and the tiles of others' pungs while not ready, declares 听 when ready and never 假听."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import hand_shapes
from ...actions import Action
from ...easy_ai import easy_action as easy_mahjong
from ...mahjong.phases import DISCARD_PHASE
from ...tiles import parse_kind
from ..laosanfan.ai import choose

if TYPE_CHECKING:
    from .hand import JinhuHand


def choose_action(hand: JinhuHand, seat: int) -> Action:
    """The AI's move for ``seat`` (which must be pending)."""
    risky = set()
    if hand.phase == DISCARD_PHASE and seat == hand.turn:
        risky = {parse_kind(w["tile"]) for w in hand.warnings(seat)}
    return choose(hand, seat, hand_shapes.shanten, lambda k: k in risky)


def easy_action(hand: JinhuHand, seat: int) -> Action:
    """The ``easy`` level of 金湖老三番 (:func:`engine.easy_ai.easy_action` with the shanten
    that counts seven pairs): no value, no care for 贼 tiles, never 假听."""
    return easy_mahjong(hand, seat, hand_shapes.shanten)
