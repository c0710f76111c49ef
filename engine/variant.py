"""What a front end needs to know of a game: :class:`VariantInfo`, declared by each game's
package (``engine/variants/<game>/``) and found through the registry in ``engine.variants``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .options import Option, resolve_options


@dataclass(frozen=True)
class VariantInfo:
    """What a front end needs to know of a variant.

    :ivar id: stable id (``"two_player"``).
    :ivar name_zh / name_en: display names.
    :ivar min_players / max_players: seats at a table.
    :ivar options: declared table options.
    :ivar hand_factory: ``(options, seed, dealer, n_seats, context) -> hand``.
    :ivar aliases: other names accepted by :func:`find_variant`.
    :ivar streak_per_player: the dealer's 连庄 count belongs to the player, not the table
        (two_player.md §Settlement): the table service keeps it per player and server, puts
        the dealer's count in each hand's ``context["dealer_streak"]`` when dealing, and
        draws the dealer again when the seated players change between hands.  Otherwise the
        count is the match's (``Match.state["dealer_streak"]``).
    """

    id: str
    name_zh: str
    name_en: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    hand_factory: Callable = field(repr=False)
    aliases: tuple[str, ...] = ()
    streak_per_player: bool = False

    def resolve_options(self, given: dict | None) -> dict:
        """Defaults + ``given``, validated (raises ``OptionError``)."""
        return resolve_options(self.options, given)

    def new_hand(self, options: dict, seed: int, dealer: int, n_seats: int, context: dict | None = None):
        return self.hand_factory(options, seed, dealer, n_seats, context or {})
