"""Table options from presets and server defaults.

The options of a new table are, in order of precedence: what the player types at
``/mj table create``, then the timers of the chosen pace (normal or relaxed), then the chosen preset (one the server's admins saved, or one
the game ships in its package, ``presets.json`` in ``VariantInfo.data_dir``), then the server's defaults for the
variant, then the variant's own defaults.  Every value is checked against the
variant's declarations (``engine.options``), so a preset can never carry a value the
rules do not allow.
"""

from __future__ import annotations

import json

from engine.errors import OptionError
from engine.variants import VariantInfo, find_variant

from .table import ServiceError

#: the file of a game's presets in its own folder (``VariantInfo.data_dir``)
PRESET_FILE = "presets.json"


def shipped_presets(variant: str) -> dict[str, dict]:
    """``{name: {"en", "zh", "options"}}`` the game ``variant`` ships (empty if none, or for
    an unknown game)."""
    try:
        folder = find_variant(variant).data_dir
    except KeyError:
        return {}
    path = folder / PRESET_FILE if folder is not None else None
    if path is None or not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("variant") != variant:
        raise ValueError(f"{path}: variant {data.get('variant')!r} != {variant!r}")
    return data["presets"]


def check_options(info: VariantInfo, options: dict) -> dict:
    """Validated copy of ``options`` (only the given keys); raises ``ServiceError`` with the
    option error's code."""
    try:
        resolved = info.resolve_options(options)
    except OptionError as e:
        raise ServiceError(e.code, **e.params) from None
    return {k: resolved[k] for k in options}


#: the paces offered when a table is created (``/mj table create pace``)
PACES = ("normal", "relaxed")
#: the timers of the relaxed pace for a game that ships no ``relaxed`` preset (seconds)
RELAXED_TIMERS = {"claim_timeout": 60, "discard_timeout": 60, "result_timeout": 60}


def pace_options(variant: str, pace: str | None) -> dict:
    """The timer options (seconds, ``…_timeout``) a pace sets: none for ``normal`` (the rule
    file's, or the server's, timers); for ``relaxed`` the timers of the game's shipped
    ``relaxed`` preset (:data:`RELAXED_TIMERS` when it ships none).  ``ServiceError
    ("unknown_pace")`` for another pace."""
    if pace in (None, "", "normal"):
        return {}
    if pace != "relaxed":
        raise ServiceError("unknown_pace", value=pace, known=", ".join(PACES))
    shipped = shipped_presets(variant).get("relaxed", {}).get("options", {})
    timers = {k: v for k, v in shipped.items() if k.endswith("_timeout")}
    return timers or dict(RELAXED_TIMERS)


def table_options(info: VariantInfo, *, server_defaults: dict | None = None, preset: dict | None = None,
                  pace: dict | None = None, given: dict | None = None) -> dict:
    """The options of a new table (see the module docstring for the precedence; a pace's
    timers, :func:`pace_options`, come between the preset and the typed options)."""
    merged: dict = {}
    for layer in (server_defaults or {}, (preset or {}).get("options", {}), pace or {}, given or {}):
        merged.update(layer)
    return check_options(info, merged)


def find_preset(variant: str, name: str, server_presets: dict) -> dict:
    """A server preset (``{"variant", "options"}``) or a shipped one of that variant;
    ``ServiceError("unknown_preset")`` otherwise, ``preset_other_variant`` if it belongs to
    another game."""
    p = server_presets.get(name)
    if p is not None:
        if p.get("variant") != variant:
            raise ServiceError("preset_other_variant", preset=name, variant=p.get("variant"))
        return p
    shipped = shipped_presets(variant)
    if name in shipped:
        return shipped[name]
    raise ServiceError("unknown_preset", preset=name)
