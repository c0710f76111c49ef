"""The table log: one line per public event of a hand."""

from __future__ import annotations

from typing import Callable, Optional

from engine.facts import GameFacts

from .catalogue import tile_label, tv

#: events with no line of their own (the image shows them)
SILENT = ("draw", "dice", "deal")


def describe_event(ev: dict, names: list[str], lang: str, game: Optional[GameFacts] = None,
                   shown: Callable[[str], str] = str) -> Optional[str]:
    """One line of the table log for an engine or table event (``{"type", "seat"?, "tile"?,
    …}``, tiles in notation), in ``lang``, with the players' ``names`` by seat; ``None`` for a
    silent event or one that has no words (the game's own catalogue first, then the shared
    one).  Every name (by seat, or the event's ``player``) goes through ``shown``: Discord's
    escaping for message text (``cogs/markup.py``), as it is for images and the terminal."""
    typ = ev.get("type")
    if typ in SILENT:
        return None
    name = shown(names[ev["seat"]]) if "seat" in ev and ev["seat"] < len(names) else ""
    params = {"name": name, "tile": tile_label(ev["tile"], lang) if "tile" in ev else "",
              "multiplier": ev.get("multiplier", ""), "player": shown(ev["player"]) if ev.get("player") else "",
              "no": ev["seat"] + 1 if "seat" in ev else "", "votes": ev.get("votes", ""),
              "needed": ev.get("needed", "")}
    if typ == "hu" and "tile" not in ev:
        typ = "hu_notile"  # 字牌 偎胡/提胡: a win with no card of its own
    text = tv(game, f"ev.{typ}", lang, **params)
    return None if text.startswith("messages.") else text


def log_lines(events: list[dict], names: list[str], lang: str, game: Optional[GameFacts] = None,
              keep: int = 6, shown: Callable[[str], str] = str) -> list[str]:
    """The last ``keep`` lines of the table log for ``events`` (``shown``: see
    :func:`describe_event`)."""
    return [x for x in (describe_event(e, names, lang, game, shown) for e in events) if x][-keep:]


def with_log(view, names, lang: str, game, shown: Callable[[str], str] = str) -> dict:
    """A view of a table snapshot as the images draw it: a plain copy of ``view`` with the log
    lines of its ``recent`` events in ``lang`` (``view["log"]``; ``game``: the game's facts;
    ``shown``: see :func:`describe_event`)."""
    out = dict(view)
    out["log"] = log_lines(list(view.get("recent") or ()), list(names), lang, game, shown=shown)
    return out
