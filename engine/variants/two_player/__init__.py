"""二人麻将 (``two_player``): 72 tiles, Chinese Official fans, 15-fan minimum, 宝牌, 听 and 加倍.

``hand.py`` holds the hand (:class:`TwoPlayerHand`) and the settlement; the fan count is
``fans.py`` (the calculator) with ``fan_table.py`` (the table as data), ``fan_sets.py`` (what
sets score) and ``fan_splits.py`` (splits and waits).  Rules: ``docs/rules/two_player.md``.
"""

from pathlib import Path

from ...ai_levels import ai_levels
from ...variant import VariantInfo
from . import ai, strong
from .fan_table import FAN_ROWS, fan_table
from .fans import NotAWin, WinContext, calculate_fans
from .hand import (CLAIM_PHASE, OPTIONS, OVER, TwoPlayerHand, settlement_points, streak_multiplier,
                   treasure_multiplier)

INFO = VariantInfo(
    "two_player", "二人麻将", "Two-player mahjong", 2, 2, OPTIONS,
    lambda options, seed, dealer, n, ctx: TwoPlayerHand(options, seed, dealer, ctx),
    data_dir=Path(__file__).resolve().parent / "data",
    listing=10,
    aliases=("2p", "erren", "二人"),
    streak_per_player=True,
    ai=ai.choose_action,
    ai_levels=ai_levels(easy=ai.easy_action, normal=ai.choose_action, strong=strong.choose_action),
    fan_table=tuple(fan_table()),
)

__all__ = ["INFO", "TwoPlayerHand", "OPTIONS", "treasure_multiplier", "streak_multiplier", "settlement_points",
           "CLAIM_PHASE", "OVER", "FAN_ROWS", "fan_table", "NotAWin", "WinContext", "calculate_fans"]
