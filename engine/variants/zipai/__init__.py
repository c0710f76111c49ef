"""字牌 (``zipai``): the 80-card game of the 跑胡子 family for 2–4 players, on paper cards.

``hand.py`` holds the hand (:class:`ZipaiHand`: deal, turns, forced moves), with its claim
window (``claims.py``), scoring (``scoring.py``), AI seat (``ai.py``) and views (``view.py``);
``huxi.py`` counts 胡息 and finds wins.  Rules: ``docs/rules/zipai.md``.
"""

from pathlib import Path

from ...ai_levels import ai_levels
from ...variant import VariantInfo
from . import ai, strong
from .actions import ACTION_LABELS, PIAO_TYPES
from .hand import ZipaiHand, card_kinds, starting_replacements
from .options import OPTIONS
from .scoring import settlement

#: the hand plays its AI seats with the game's AI (``ai.py``)
ZipaiHand.ai_policy = ai.choose_action

INFO = VariantInfo(
    "zipai", "字牌", "Zi Pai (paper cards)", 2, 4, OPTIONS,
    lambda options, seed, dealer, n, ctx: ZipaiHand(options, seed, dealer, n, ctx),
    data_dir=Path(__file__).resolve().parent / "data",
    listing=60,
    aliases=("paohuzi", "跑胡子", "zi_pai"),
    tile_style="paper",
    # 跑胡子: a card another seat takes goes into its group; only cards nobody took are laid out
    claimed_discards="moved",
    ai=ai.choose_action,
    ai_levels=ai_levels(easy=ai.easy_action, normal=ai.choose_action, strong=strong.choose_action),
    action_labels=ACTION_LABELS,
)

__all__ = ["INFO", "OPTIONS", "ZipaiHand", "card_kinds", "starting_replacements", "settlement", "PIAO_TYPES"]
