"""Text that users typed, shown in Discord exactly as typed: never as markdown, never as a
mention.  Every name and option value the bot echoes into a message's text (content, embed
title and description, Components V2 text) goes through :func:`shown`; button and menu labels
are plain text in Discord and take the name as it is.

The client also sends ``allowed_mentions`` that ping nobody (``bot.py``); a message that means
to ping a player names them in its own ``allowed_mentions``.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterable, Mapping, TypeVar

import discord

T = TypeVar("T")

#: ``@everyone`` and ``@here``: a zero-width space after the ``@`` keeps the word and the ping away
_EVERYONE = re.compile(r"@(everyone|here)")


def shown(text: str) -> str:
    """``text`` escaped so that Discord shows it as typed: markdown (``**``, ``||``, ``` ` ```,
    ``# `` …) and the ``<`` of a mention, channel, emoji or timestamp escaped with a backslash,
    ``@everyone``/``@here`` broken by a zero-width space.

    >>> shown("||Bob|| **x**`y <@&1> @everyone")
    '\\\\|\\\\|Bob\\\\|\\\\| \\\\*\\\\*x\\\\*\\\\*\\\\`y \\\\<@&1> @\\u200beveryone'
    """
    out = discord.utils.escape_markdown(str(text))
    out = out.replace("<", "\\<")
    return _EVERYONE.sub("@\u200b\\1", out)


def shown_names(names: Iterable[str]) -> list[str]:
    """Each of ``names`` through :func:`shown`."""
    return [shown(n) for n in names]


def shown_view(view: Mapping[str, Any]) -> dict:
    """A table view (public or a seat's) whose names are :func:`shown`: the seats' ``name`` and
    the result's ``names``; everything else as it is (a shallow copy; images draw the view
    itself, with the names as typed)."""
    out = dict(view)
    if out.get("seats") is not None:
        out["seats"] = [dict(sv, name=shown(sv["name"])) if sv.get("name") is not None else sv
                        for sv in out["seats"]]
    if out.get("result") is not None:
        out["result"] = shown_result(out["result"])
    return out


def shown_result(result: Any) -> Any:
    """A hand's result (``None`` stays ``None``) whose ``names`` are :func:`shown`."""
    if isinstance(result, Mapping) and result.get("names") is not None:
        return dict(result, names=shown_names(result["names"]))
    return result


def shown_rows(rows: Iterable[T], *fields: str) -> list[T]:
    """Records (frozen dataclasses: leaderboard and history lines) with the text ``fields``
    that hold names :func:`shown` (``None`` stays ``None``)."""
    return [dataclasses.replace(r, **{f: shown(getattr(r, f)) for f in fields  # type: ignore[type-var]
                                      if getattr(r, f) is not None}) for r in rows]


def shown_standings(data: Mapping[str, Any]) -> dict:
    """A match's standings (``service/matches.py``) with the players' names and each hand's
    winners :func:`shown`, for the words (the image draws the names as typed)."""
    out = dict(data)
    out["players"] = [dict(p, name=shown(p["name"])) for p in data.get("players") or ()]
    out["hands"] = [dict(h, winners=shown_names(h["winners"])) if h.get("winners") else h
                    for h in data.get("hands") or ()]
    return out
