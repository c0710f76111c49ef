"""A stored hand played again: the hand of a stored record after some of its actions
(:func:`rebuild`), and the digest of the wall it was dealt from (:func:`wall_digest`) — what
replays, the fairness check, re-scoring and the rates' claims of older hands read.
"""

from __future__ import annotations

import hashlib

from engine.actions import Action
from engine.protocol import Hand
from engine.tiles import kind_of, kinds_str
from engine.variants import find_variant
from store import HandRecord


def rebuild(record: HandRecord, upto: int | None = None, options: dict | None = None) -> Hand:
    """The hand of a stored record (``HandRecord``) after its first ``upto`` actions (all when
    ``None``), dealt from its own seed, dealer and context, under its own options (or
    ``options``: :mod:`service.rescore`'s other rules).  ``IllegalAction`` when a stored
    action is refused."""
    info = find_variant(record.variant)
    context = dict(getattr(record, "context", None) or {})
    hand = info.new_hand(record.options if options is None else options, record.seed, record.dealer,
                         len(record.seats), context)
    for line in record.actions[:upto]:
        hand.apply(Action.parse(line))
    return hand


def wall_digest(hand: Hand) -> tuple[int, str]:
    """Number of tiles and SHA-256 of the wall order a hand was dealt from."""
    wall = getattr(hand, "wall", None) or getattr(hand, "stock", None) or []
    text = kinds_str(kind_of(x) for x in wall)
    return len(wall), hashlib.sha256(text.encode()).hexdigest()


__all__ = ["rebuild", "wall_digest"]
