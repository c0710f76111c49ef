"""财神麻将 (``caishen``): four players, 136 tiles, a turned tile makes its kind wild (财神).

``hand.py`` holds the hand (:class:`CaishenHand`) and the settlement, ``ai.py`` the AI seat.
Rules: ``docs/rules/caishen.md``.
"""

from pathlib import Path

from ...ai_levels import ai_levels
from ...variant import VariantInfo
from . import ai, strong
from .hand import (
    CAISHEN_HUI, OPTIONS, SPECIALS, is_knitted, is_seven_honours_knitted, settlement, win_multiplier,
    CaishenHand,
)


def _factory(options: dict, seed: int, dealer: int, n: int, ctx: dict) -> CaishenHand:
    return CaishenHand(options, seed, dealer, ctx)


#: the hand plays its AI seats with the game's AI (``ai.py``)
CaishenHand.ai_policy = ai.choose_action

INFO = VariantInfo(
    "caishen", "财神麻将", "Caishen mahjong (wild tiles)", 4, 4, OPTIONS, _factory,
    data_dir=Path(__file__).resolve().parent / "data",
    listing=40,
    aliases=("财神", "caishen_mahjong", "wild"),
    wild_name="wild_caishen",  # 财神
    front_end_confirms_wild_discard=True,  # a discarded 财神 is gone at once: ask first
    ai=ai.choose_action,
    ai_levels=ai_levels(easy=ai.easy_action, normal=ai.choose_action, strong=strong.choose_action),
    action_labels={CAISHEN_HUI: "btn.caishen_hui"},
)

__all__ = ["INFO", "CaishenHand", "OPTIONS", "SPECIALS", "CAISHEN_HUI", "win_multiplier", "settlement",
           "is_knitted", "is_seven_honours_knitted"]
