"""Registry of the variants: ``find_variant("two_player")`` → :class:`VariantInfo`.

Each variant declares its id, names, seat counts, table options and the class of
one hand.  A front end needs nothing else to offer a variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..options import Option, resolve_options


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


_REGISTRY: dict[str, VariantInfo] = {}

#: modules of ``engine.variants`` that hold a variant; each defines ``INFO`` (a VariantInfo)
VARIANT_MODULES = ("two_player", "laosanfan", "jinhu", "caishen", "laowudui", "zipai")


def register(info: VariantInfo) -> VariantInfo:
    _REGISTRY[info.id] = info
    return info


def _load() -> None:
    import importlib
    import importlib.util

    for name in VARIANT_MODULES:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:
            continue  # not written yet
        module = importlib.import_module(f"{__name__}.{name}")
        register(module.INFO)


def find_variant(name: str) -> VariantInfo:
    """The variant with this id or alias (case-insensitive); ``KeyError`` if unknown."""
    if not _REGISTRY:
        _load()
    key = name.strip().lower()
    for info in _REGISTRY.values():
        if key == info.id or key in info.aliases or name.strip() == info.name_zh:
            return info
    raise KeyError(name)


def all_variants() -> list[VariantInfo]:
    """Every variant, in the order of :data:`VARIANT_MODULES`."""
    if not _REGISTRY:
        _load()
    return list(_REGISTRY.values())
