"""The games' facts for the front ends (``engine.facts.GameFacts``), from the registry: the one
place a front end turns a stored game id (of a hand, a match, a history line) into what it may
show of that game."""

from __future__ import annotations

from typing import Optional

from engine.facts import GameFacts
from engine.variants import all_variants, find_variant


def games() -> dict[str, GameFacts]:
    """Every registered game's facts, by id."""
    return {v.id: v.facts for v in all_variants()}


def game(variant: Optional[str]) -> Optional[GameFacts]:
    """The facts of the game ``variant`` names (an id, alias or Chinese name); ``None`` when no
    game does."""
    if not variant:
        return None
    try:
        return find_variant(variant).facts
    except KeyError:
        return None


__all__ = ["games", "game"]
