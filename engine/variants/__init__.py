"""Registry of the games: ``find_variant("two_player")`` → :class:`VariantInfo`.

Each game is a package ``engine/variants/<game>/`` whose ``INFO`` (a :class:`VariantInfo`)
declares its id, names, seat counts, table options, how to deal a hand and the facts a front
end needs (tile style, wild tiles, first dealer, AI, fan table, action labels).  A front end
needs nothing else to offer a game.

The built-in games are the packages of this folder that define ``INFO``, found (and
loaded) on first use: a new game is a new package here and nothing else.  Another game — a
plug-in, or a small game defined inside a test — is added with :func:`register` and removed
with :func:`unregister`, or for the duration of a ``with`` block::

    with registered(TOY_INFO):
        service.open_table(..., variant="toy")   # find_variant("toy") finds it
    # here nothing knows "toy" any more
"""

from __future__ import annotations

import importlib
import pkgutil
from contextlib import contextmanager
from typing import Iterator

from ..variant import VariantInfo

_REGISTRY: dict[str, VariantInfo] = {}
_BUILT_IN: set[str] = set()


def built_in() -> list[VariantInfo]:
    """The games of this folder's packages (each defines ``INFO``), in their listing order
    (:attr:`VariantInfo.listing`, then id)."""
    found = []
    for mod in pkgutil.iter_modules(__path__):
        if mod.ispkg:
            info = getattr(importlib.import_module(f"{__name__}.{mod.name}"), "INFO", None)
            if isinstance(info, VariantInfo):
                found.append(info)
    return sorted(found, key=lambda i: (i.listing, i.id))


def _load() -> None:
    """Register the built-in games (once)."""
    if _BUILT_IN:
        return
    for info in built_in():
        _REGISTRY.setdefault(info.id, info)
        _BUILT_IN.add(info.id)


def _names(info: VariantInfo) -> set[str]:
    return {info.id, info.name_zh, *info.aliases}


def register(info: VariantInfo) -> VariantInfo:
    """Add a game to the registry until :func:`unregister` removes it; returns ``info``.

    Its id, Chinese name and aliases must be new: ``ValueError`` if another registered game
    already answers to one of them (registering the very same ``info`` twice is harmless)."""
    _load()
    if _REGISTRY.get(info.id) is info:
        return info
    taken = {n: other.id for other in _REGISTRY.values() for n in _names(other)}
    clash = sorted(n for n in _names(info) if n in taken)
    if clash:
        raise ValueError(f"game {info.id!r}: {', '.join(clash)} already taken")
    _REGISTRY[info.id] = info
    return info


def unregister(variant_id: str) -> VariantInfo:
    """Remove a game added by :func:`register` and return it; ``KeyError`` if no such game is
    registered, ``ValueError`` for a built-in game (those stay)."""
    _load()
    if variant_id in _BUILT_IN:
        raise ValueError(f"{variant_id!r} is a built-in game")
    return _REGISTRY.pop(variant_id)


@contextmanager
def registered(info: VariantInfo) -> Iterator[VariantInfo]:
    """``with registered(info):`` — the game is registered inside the block and unregistered
    when it ends (also on an exception), so nothing outside the block sees it."""
    register(info)
    try:
        yield info
    finally:
        if _REGISTRY.get(info.id) is info:
            unregister(info.id)


def find_variant(name: str) -> VariantInfo:
    """The game with this id, alias or Chinese name (case-insensitive); ``KeyError`` if
    unknown."""
    _load()
    key = name.strip().lower()
    for info in _REGISTRY.values():
        if key == info.id or key in info.aliases or name.strip() == info.name_zh:
            return info
    raise KeyError(name)


def all_variants() -> list[VariantInfo]:
    """Every registered game: the built-in ones in their listing order, then the others in
    the order they were registered."""
    _load()
    return list(_REGISTRY.values())


__all__ = ["VariantInfo", "built_in", "register", "unregister", "registered", "find_variant",
           "all_variants"]
