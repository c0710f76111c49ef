"""The AI levels of 二人麻将: ``normal`` is :func:`engine.ai.choose_action`; ``easy`` is
:func:`engine.easy_ai.easy_action` with the shanten that counts seven pairs (no 加倍, no fan
sought: it wins only when a win reaches the minimum by itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import hand_shapes
from ...actions import Action
from ...ai import choose_action
from ...easy_ai import easy_action as easy_mahjong

if TYPE_CHECKING:
    from .hand import TwoPlayerHand


def easy_action(hand: TwoPlayerHand, seat: int) -> Action:
    """The ``easy`` move of a pending ``seat``; ``ValueError`` if it has nothing to do."""
    return easy_mahjong(hand, seat, hand_shapes.shanten)


__all__ = ["choose_action", "easy_action"]
