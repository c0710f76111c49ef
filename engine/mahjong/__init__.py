"""The draw/discard hand shared by the mahjong games (二人麻将, 老三番, 金湖, 财神麻将).

:class:`MahjongHand` (``hand.py``) is one deal, driven by ``apply``; its wall and deal
(``wall.py``), claim window (``claims.py``) and views (``view.py``) live beside it.  A game
subclasses it and overrides the hooks marked *hook*.
"""

from ..ai import choose_action
from ..events import Event
from .hand import MahjongHand
from .phases import CLAIM_PHASE, DISCARD_PHASE, OVER, ROB_PHASE

#: the draw/discard hand's own AI (``engine.ai``); a game gives its hand its own
MahjongHand.ai_policy = choose_action

__all__ = ["MahjongHand", "Event", "DISCARD_PHASE", "CLAIM_PHASE", "ROB_PHASE", "OVER"]
