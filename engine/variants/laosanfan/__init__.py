"""老三番 (``laosanfan``): four players, 144 tiles, 胡 points × 2^fan with a 3-fan cap.

``hand.py`` holds the hand (:class:`LaoSanFanHand`), ``scoring.py`` the 胡 and fan count and
``ai.py`` the AI seat.  Rules: ``docs/rules/laosanfan.md`` Part 1.
"""

from pathlib import Path

from ...ai_levels import ai_levels
from ...variant import VariantInfo
from . import ai, strong
from .hand import CHOW, KONG, OPTIONS, PUNG, is_dangerous, three_exposure_danger, LaoSanFanHand

#: the hand plays its AI seats with the game's AI (``ai.py``)
LaoSanFanHand.ai_policy = ai.choose_action

INFO = VariantInfo(
    "laosanfan", "老三番", "Lao San Fan", 4, 4, OPTIONS,
    lambda options, seed, dealer, n, ctx: LaoSanFanHand(options, seed, dealer, ctx),
    data_dir=Path(__file__).resolve().parent / "data",
    listing=20,
    aliases=("lsf", "老三番麻将"),
    ai=ai.choose_action,
    ai_levels=ai_levels(easy=ai.easy_action, normal=ai.choose_action, strong=strong.choose_action),
)

__all__ = ["INFO", "OPTIONS", "LaoSanFanHand", "three_exposure_danger", "is_dangerous", "CHOW", "PUNG",
           "KONG"]
