"""Registry of the variants: ``find_variant("two_player")`` → :class:`VariantInfo`.

Each variant declares its id, names, seat counts, table options and the class of
one hand.  A front end needs nothing else to offer a variant.
"""

from __future__ import annotations

from ..variant import VariantInfo

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

__all__ = ["VariantInfo", "VARIANT_MODULES", "register", "find_variant", "all_variants"]
