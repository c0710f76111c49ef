"""The bot's version and licence: ``pyproject.toml`` is their one source.

In a checkout or the Docker image (which copies ``pyproject.toml`` beside ``bot.py``) the file is
read, so an editable install whose metadata is older than the checkout still says the version
it runs; an installed wheel (no ``pyproject.toml`` beside the packages) reads its metadata
(``importlib.metadata``).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import metadata
from pathlib import Path

__all__ = ["DISTRIBUTION", "version", "licence"]

#: the project's name in ``pyproject.toml`` and as an installed distribution
DISTRIBUTION = "mahjong-table-bot"
_PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


@lru_cache(maxsize=None)
def _project() -> dict:
    try:
        data = tomllib.loads(_PYPROJECT.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    project = data.get("project", {})
    return project if project.get("name") == DISTRIBUTION else {}


@lru_cache(maxsize=None)
def version() -> str:
    """The bot's version, e.g. ``'1.1.0'`` (``'unknown'`` when neither source is there)."""
    found = _project().get("version")
    if found:
        return str(found)
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


@lru_cache(maxsize=None)
def licence() -> str:
    """The SPDX name of the code's licence, e.g. ``'MIT'`` (``'unknown'`` without a source)."""
    found = _project().get("license")
    if isinstance(found, str):
        return found
    try:
        meta = metadata.metadata(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
    for field in ("License-Expression", "License"):
        try:
            value = meta[field]
        except KeyError:  # (newer Pythons raise for a missing field; 3.11 gives None)
            value = None
        if value:
            return str(value)
    return "unknown"
