"""Player actions and their text form (the action log).

An action is what a seat decided; draws, flower replacements and other chance
events are not actions (they follow from the seed).  The log of a hand is the
list of ``str(action)`` lines, e.g.::

    0 discard 5m        seat 0 discards a 5m
    0 ting 9m           seat 0 declares 听 (ready) discarding 9m
    1 ting              seat 1 declares 听 without a discard (天听 after the deal)
    1 chow 3m           seat 1 claims a chow starting at 3m (3m4m5m)
    1 pung              seat 1 claims a pung of the last discard
    1 kong              seat 1 claims an exposed kong of the last discard
    0 kong 7z           seat 0 makes a concealed kong (暗杠) or an added kong (加杠) of 7z
    0 hu                seat 0 wins (self-drawn, or on the discard / robbed kong)
    0 double            seat 0 declares 加倍 instead of winning
    1 pass              seat 1 lets the discard go
"""

from __future__ import annotations


import re
from dataclasses import dataclass

from .tiles import kind_str, parse_kind


DISCARD, TING, CHOW, PUNG, KONG, HU, DOUBLE, PASS = (
    "discard", "ting", "chow", "pung", "kong", "hu", "double", "pass",
)
ACTION_TYPES = (DISCARD, TING, CHOW, PUNG, KONG, HU, DOUBLE, PASS)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat.

    :ivar seat: 0..n-1.
    :ivar type: one of :data:`ACTION_TYPES`, or a variant's own (lower-case word, e.g.
        ``"buy"`` for 买庄); the variant's ``legal_actions`` says which exist.
    :ivar kind: the tile kind concerned (discard, 听 discard, chow start, own kong), else ``None``.
    """

    seat: int
    type: str
    kind: int | None = None

    def __str__(self) -> str:
        return f"{self.seat} {self.type}" + (f" {kind_str(self.kind)}" if self.kind is not None else "")

    @property
    def tile_kind(self) -> int:
        """:attr:`kind`, of an action that names one (a discard, a 听 discard, a chow's start,
        an own kong …).  :raises ValueError: the action names no tile kind."""
        if self.kind is None:
            raise ValueError(f"{self.type} of seat {self.seat} names no tile kind")
        return self.kind

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read the text form back; raises ``ValueError`` on a malformed line."""
        parts = text.split()
        if len(parts) not in (2, 3) or not parts[0].isdigit() or not re.fullmatch(r"[a-z_]+", parts[1]):
            raise ValueError(f"malformed action: {text!r}")
        kind = parse_kind(parts[2]) if len(parts) == 3 else None
        return cls(int(parts[0]), parts[1], kind)

