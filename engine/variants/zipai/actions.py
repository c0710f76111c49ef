"""The rule file, the moves, the phases and the claim priorities of a 字牌 hand (``Action.type``
and ``hand.phase``; the 吃 moves are ``chi_<code>``, see ``hand.py``)."""

from __future__ import annotations

RULES = "zipai.md"
HU, PASS, DISCARD, PENG = "hu", "pass", "discard", "peng"
PIAO_TYPES = ("piao_none", "piao_one", "piao_two", "piao_three")
PIAO_PHASE, DISCARD_PHASE, CLAIM_PHASE, OVER = "piao", "discard", "claim", "over"
PRIORITY = {HU: 3, PENG: 2, "chi": 1, PASS: 0}
FOUR_TYPES = ("pao", "ti")
