"""The rule file, the moves and the phases of a 老五对 hand (``Action.type`` and ``hand.phase``),
named once for the hand, its claim window, its scoring and the AI seat."""

from __future__ import annotations

RULES = "laowudui.md"
CHI, DUI, KEEP, CONFIRM = "chi", "dui", "keep", "confirm"
BUY, NO_BUY, ZHE, NO_ZHE = "buy", "no_buy", "zhezhuang", "no_zhezhuang"
OPENING, DISCARD_PHASE, CLAIM_PHASE, OVER = "opening", "discard", "claim", "over"

#: the game's own moves → catalogue keys of their buttons (its own words: ``data/laowudui.*.json`` in this package)
ACTION_LABELS = {a: f"btn.{a}" for a in (CHI, DUI, KEEP, CONFIRM, BUY, NO_BUY, ZHE, NO_ZHE)}
