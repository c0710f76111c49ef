"""AI levels: one registry of each game's AI moves by level.

Levels (:data:`LEVELS`):

* ``easy`` — the baseline: the lowest distance to a win, with no value and no defence (the
  mahjong games: shanten only; 老五对: the pairs and fours still missing; 字牌: the groups
  missing, then the 胡息 still needed).  Wins when it may.
* ``normal`` — the game's plain AI (``VariantInfo.ai``, ``hand.ai_action``).
* ``strong`` — the game's strongest AI, going for what the game pays; a game that declares
  none plays ``normal`` at this level, and tables offer it only where some game plays it
  differently (:func:`offered_levels`).

Each game's package declares its moves in ``VariantInfo.ai_levels`` (built with
:func:`ai_levels`)::

    INFO = VariantInfo(..., ai=ai.choose_action,
                       ai_levels=ai_levels(easy=ai.easy_action, normal=ai.choose_action,
                                           strong=strong.choose_action))

A level a game leaves out plays as ``normal``.  Every front end, the table service and
``bench/bench_ai_strength.py`` ask :func:`move` (or ``VariantInfo.ai_move``) and nothing else,
so a new strong AI is one line in its game's ``__init__``.  A move function is
``(hand, seat) -> Action``: pure and deterministic (same state, same move), it must return
one of ``hand.legal_actions(seat)`` and raise ``ValueError`` when the seat has nothing to do.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional

if TYPE_CHECKING:
    from .protocol import Hand
    from .actions import Action

#: the levels, weakest first
LEVELS = ("easy", "normal", "strong")
#: the level of an AI seat stored before levels existed (no level stored)
DEFAULT_LEVEL = "normal"

MoveFn = Callable[[Any, int], "Action"]


def check_level(level: str) -> str:
    """``level`` if it is one of :data:`LEVELS`; ``ValueError`` otherwise."""
    if level not in LEVELS:
        raise ValueError(f"AI level {level!r} is not one of {LEVELS}")
    return level


def stored_level(level: Optional[str]) -> str:
    """The level of a stored seat: ``None`` (a seat stored before levels) is
    :data:`DEFAULT_LEVEL`; an unknown name is refused (``ValueError``)."""
    return DEFAULT_LEVEL if level is None else check_level(level)


def ai_levels(normal: MoveFn, easy: Optional[MoveFn] = None, strong: Optional[MoveFn] = None
              ) -> Mapping[str, MoveFn]:
    """The read-only ``{level: move function}`` of a game, every level present: a level left
    out plays as ``normal``."""
    return MappingProxyType({"easy": easy or normal, "normal": normal, "strong": strong or normal})


def complete(levels: Mapping[str, MoveFn], normal: MoveFn) -> Mapping[str, MoveFn]:
    """``levels`` with every level of :data:`LEVELS` (the missing ones play ``levels["normal"]``,
    or ``normal`` when that is missing too); ``ValueError`` for a name not in :data:`LEVELS`."""
    for name in levels:
        check_level(name)
    base = levels.get("normal", normal)
    return ai_levels(base, levels.get("easy"), levels.get("strong"))


def offered_levels(infos: Iterable[Any]) -> tuple[str, ...]:
    """The levels a table offers for the games ``infos`` (:class:`engine.variant.VariantInfo`),
    weakest first: ``normal``, and each other level that some game plays with another move
    function than its ``normal`` (a level that is ``normal``'s move everywhere would only repeat
    it under another name)."""
    infos = list(infos)
    return tuple(lv for lv in LEVELS if lv == DEFAULT_LEVEL
                 or any(i.ai_levels[lv] is not i.ai_levels[DEFAULT_LEVEL] for i in infos))


def new_seat_level(infos: Iterable[Any]) -> str:
    """The level of a new AI seat when none is chosen: the strongest of
    :func:`offered_levels`."""
    return offered_levels(infos)[-1]


def move(info: Any, hand: Hand, seat: int, level: str = DEFAULT_LEVEL) -> "Action":
    """The move of an AI playing ``seat`` of ``hand`` (a hand of the game ``info``, an
    :class:`engine.variant.VariantInfo`) at
    ``level``: one of ``hand.legal_actions(seat)``.  ``ValueError`` for an unknown level or a
    seat with nothing to do."""
    return info.ai_levels[check_level(level)](hand, seat)


__all__ = ["LEVELS", "DEFAULT_LEVEL", "MoveFn", "check_level", "stored_level", "ai_levels", "complete",
           "offered_levels", "new_seat_level", "move"]
