"""老五对 (``laowudui``): the pairs game for 2–4 players with 百搭 wilds and the dealt tile that is
passed on.

``hand.py`` holds the hand (:class:`LaoWuDuiHand`: deal, turns), with its claim window
(``claims.py``), scoring (``scoring.py``) and views (``view.py``); ``shapes.py`` reads a hand
into pairs and fours with the wilds, ``ai.py`` is the AI seat.  Rules: ``docs/rules/laowudui.md``.
"""

from __future__ import annotations

from pathlib import Path

from ...ai_levels import ai_levels
from ...variant import VariantInfo
from . import ai, strong
from .actions import ACTION_LABELS, BUY, CHI, CONFIRM, DUI, KEEP, NO_BUY, NO_ZHE, ZHE
from .hand import LaoWuDuiHand
from .options import OPTIONS
from .scoring import FANS, buy_factor, payment


def _factory(options: dict, seed: int, dealer: int, n: int, ctx: dict) -> LaoWuDuiHand:
    if ctx.get("hand_no") == 0:
        dealer = 0  # the creator deals the first hand
    return LaoWuDuiHand(options, seed, dealer, n, ctx)


#: the hand plays its AI seats with the game's AI (``ai.py``)
LaoWuDuiHand.ai_policy = ai.choose_action

INFO = VariantInfo(
    "laowudui", "老五对", "Lao Wu Dui", 2, 4, OPTIONS, _factory,
    data_dir=Path(__file__).resolve().parent / "data",
    listing=50,
    aliases=("lwd", "wudui", "五对"),
    wild_name="wild",  # 百搭
    first_dealer="creator",  # laowudui.md §Players, dealer: the table's creator deals first
    ai=ai.choose_action,
    ai_levels=ai_levels(easy=ai.easy_action, normal=ai.choose_action, strong=strong.choose_action),
    action_labels=ACTION_LABELS,
)

__all__ = ["INFO", "LaoWuDuiHand", "OPTIONS", "payment", "buy_factor", "FANS", "CHI", "DUI", "KEEP", "CONFIRM",
           "BUY", "NO_BUY", "ZHE", "NO_ZHE"]
