"""金湖老三番 (``jinhu``): 老三番 with 中发白 as flowers, pung only, 听 and 假听, 贼 tiles and 包五家.

``hand.py`` holds the hand (:class:`JinhuHand`, built on 老三番's), ``fans.py`` the fan count.
Rules: ``docs/rules/laosanfan.md`` Part 2.
"""

from pathlib import Path

from ...ai_levels import ai_levels
from ...variant import VariantInfo
from . import ai, strong
from .hand import FAKE_TING, OPTIONS, THIEVES, JinhuHand

#: the hand plays its AI seats with the game's AI (``ai.py``)
JinhuHand.ai_policy = ai.choose_action

INFO = VariantInfo(
    "jinhu", "金湖老三番", "Jinhu Lao San Fan", 4, 4, OPTIONS,
    lambda options, seed, dealer, n, ctx: JinhuHand(options, seed, dealer, ctx),
    data_dir=Path(__file__).resolve().parent / "data",
    listing=30,
    aliases=("金湖", "jinhu_laosanfan"),
    ai=ai.choose_action,
    ai_levels=ai_levels(easy=ai.easy_action, normal=ai.choose_action, strong=strong.choose_action),
    action_labels={FAKE_TING: "btn.fake_ting"},
)

__all__ = ["INFO", "OPTIONS", "JinhuHand", "FAKE_TING", "THIEVES"]
