"""What happened in a hand, as the public sees it: :class:`Event`, shared by every game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .tiles import kind_str


@dataclass
class Event:
    """Something that happened, as the public sees it (draws carry no tile).

    ``type`` is one of deal, draw, flower, discard, ting, chow, pung, kong,
    added_kong, concealed_kong, double, pass, hu, draw_game, treasure, dice.
    """

    type: str
    seat: int | None = None
    tile: int | None = None  # kind
    data: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.tile is not None:
            d["tile"] = kind_str(self.tile)
        d.update(self.data)
        return d
