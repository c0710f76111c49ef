"""What a finished hand would have paid under other rules: the hand rebuilt from its seed,
dealer, context and action log (:func:`service.stored_hand.rebuild`) under its own options with
other values of its game's score-only options (``Option.score_only``,
``VariantInfo.score_only_options``), and its result taken.

Only score-only options may change: under any of their values the stored moves stay legal
and end the hand the same way, so the comparison is the same hand, the same moves, scored
otherwise.  An option that could change what was dealt, what was legal or how the hand was
played (``min_fan``, ``opening_restriction``, the wild tiles, the timeouts) is refused by name.

A preset (a server's, else one the game ships: ``service.presets``) is its options laid over
the hand's own, as a preset is laid over a server's defaults when a table opens; typed options
are laid over that.  The options it differs in from the hand must all be score-only.

Errors are :class:`service.tables.ServiceError` with a catalogue key of the ``rescore``
section: ``rescore.refused`` / ``rescore.refused_preset`` / ``rescore.refused_none``
(``options``: the refused names, ``allowed``: the game's score-only options, ``preset``),
``rescore.same`` (nothing differs from the hand as played), ``rescore.no_change_given``
(neither options nor a preset; ``allowed``), ``rescore.none_allowed`` (the same, in a game
with no score-only option), ``rescore.not_replayed`` (the stored log no longer replays to
the stored result); and the option and preset errors of ``service.presets``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from engine.errors import IllegalAction
from engine.facts import GameFacts
from engine.variants import VariantInfo, find_variant
from store import HandRecord

from .presets import check_options, find_preset
from .stored_hand import rebuild
from .table import ServiceError


@dataclass(frozen=True)
class Change:
    """One option re-scored under another value: its name, the value the hand was played
    with and the value it is re-scored under."""

    option: str
    played: Any
    rescored: Any


@dataclass(frozen=True)
class Rescore:
    """A finished hand as played and under other rules.

    :ivar hand_id: the stored hand.
    :ivar game: the game's facts.
    :ivar names: the seats' names, in seat order.
    :ivar ai_seats: some seat was played by the AI (whose moves may weigh the score).
    :ivar changes: the options that differ, in the game's declaration order.
    :ivar preset: the preset asked for, or ``None``.
    :ivar played: each seat's points as stored (the settlement), in seat order.
    :ivar rescored: each seat's points under the other rules, in seat order.
    :ivar played_result / rescored_result: the two results (``Hand.result``), for their
        explanation (formula, payments).
    :ivar imported: the hand came from a record file (``/mj record import``).
    """

    hand_id: int
    game: GameFacts
    names: list[str]
    ai_seats: bool
    changes: list[Change]
    preset: Optional[str]
    played: list[int]
    rescored: list[int]
    played_result: dict
    rescored_result: dict
    imported: bool = False


def played_options(info: VariantInfo, stored: dict) -> dict:
    """The options a hand was played with: the game's defaults overlaid with what was stored
    (a stored option the game no longer declares is left out)."""
    declared = {o.name: o.default for o in info.options}
    return {**declared, **{k: v for k, v in (stored or {}).items() if k in declared}}


def wanted_options(info: VariantInfo, played: dict, given: dict, preset: Optional[dict]) -> dict:
    """``played`` with the preset's options (``{"options": …}``) and then ``given`` laid over
    it, every given value checked (``option_unknown``, ``option_bad_value``)."""
    layers: dict = {}
    for layer in ((preset or {}).get("options", {}), given or {}):
        layers.update(layer)
    return {**played, **check_options(info, layers)}


def changes_between(info: VariantInfo, played: dict, wanted: dict) -> list[Change]:
    """The options whose value differs between ``played`` and ``wanted``, score-only or not,
    in declaration order."""
    return [Change(o.name, played.get(o.name), wanted.get(o.name)) for o in info.options
            if wanted.get(o.name) != played.get(o.name)]


def check_changes(info: VariantInfo, changes: list[Change], preset: Optional[str] = None) -> None:
    """Refuse what a re-score cannot do: every changed option that is not score-only is named
    (``rescore.refused``, ``rescore.refused_preset`` when a preset brought one,
    ``rescore.refused_none`` when the game has no score-only option at all); ``rescore.same``
    when nothing differs."""
    allowed = [o.name for o in info.options if o.score_only]
    refused = [c.option for c in changes if c.option not in info.score_only_options]
    if refused:
        code = "rescore.refused_none" if not allowed else "rescore.refused_preset" if preset else "rescore.refused"
        raise ServiceError(code, options=", ".join(refused), allowed=", ".join(allowed), preset=preset or "")
    if not changes:
        raise ServiceError("rescore.same")


def replayed(record: HandRecord, options: dict) -> dict:
    """The result of the stored hand replayed under ``options``: ``rescore.not_replayed`` when
    an action is refused or the log ends before the hand does."""
    try:
        hand = rebuild(record, options=options)
    except IllegalAction:
        raise ServiceError("rescore.not_replayed", hand=record.id) from None
    if not hand.is_over() or hand.result is None:
        raise ServiceError("rescore.not_replayed", hand=record.id)
    return dict(hand.result)


def rescore_record(record: HandRecord, given: dict, preset: Optional[dict] = None,
                   preset_name: Optional[str] = None) -> Rescore:
    """A finished hand (``record``, with its actions) as played and under its options with the
    preset's and then ``given``'s values (raw text or typed values; see the module docstring
    for the errors).  The hand is replayed under its own options first: a log that no longer
    gives the stored points is refused (``rescore.not_replayed``) rather than compared."""
    info = find_variant(record.variant)
    if not given and preset is None:
        allowed = [o.name for o in info.options if o.score_only]
        raise ServiceError("rescore.no_change_given", allowed=", ".join(allowed)) if allowed \
            else ServiceError("rescore.none_allowed")
    played = played_options(info, record.options)
    wanted = wanted_options(info, played, given, preset)
    changes = changes_between(info, played, wanted)
    check_changes(info, changes, preset_name)
    stored = dict(record.result or {})
    as_played = replayed(record, dict(record.options))
    if list(as_played.get("points", [])) != list(stored.get("points", [])):
        raise ServiceError("rescore.not_replayed", hand=record.id)
    other = replayed(record, {**dict(record.options), **{c.option: c.rescored for c in changes}})
    return Rescore(record.id, info.facts, [s.get("name", "?") for s in record.seats],
                   any(s.get("is_ai") or s.get("user_id") is None for s in record.seats), changes, preset_name,
                   list(stored["points"]), list(other["points"]), stored, other)


def resolve_preset(variant: str, name: Optional[str], server_presets: dict) -> Optional[dict]:
    """The preset ``name`` of the game (a server's, else a shipped one; ``unknown_preset``,
    ``preset_other_variant``), or ``None`` without a name."""
    return find_preset(variant, name, server_presets) if name else None


__all__ = ["Change", "Rescore", "played_options", "wanted_options", "changes_between", "check_changes",
           "replayed", "rescore_record", "resolve_preset"]
