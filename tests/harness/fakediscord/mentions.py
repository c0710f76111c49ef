"""What a message would ping, and whether the names in it show as typed, as the fake Discord
checks on every message the bot sends or edits.

Discord parses mentions in a message's ``content`` and its Components V2 text displays (never
in embeds): ``@everyone``/``@here``, ``<@id>``/``<@!id>`` and ``<@&id>``, unless escaped with a
backslash.  ``allowed_mentions`` decides which of them ping: without it, all of them
(``parse`` = everyone, users, roles); with it, the ``parse`` kinds and the ``users``/``roles``
it names.  The fake's rule: **a message pings nobody it does not name** — no ``@everyone``,
no role, and a user only when ``allowed_mentions.users`` names them.

Markdown renders in ``content``, embed titles, descriptions and fields, and V2 text
displays: a user's name (every fake user's name carries :data:`MARKUP_NAME`) must not appear
there raw, or Discord would show it as markup.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, List

#: what the fake appends to every user's name unless told not to: a spoiler, bold, an inline
#: code mark, an ``@everyone`` and a role mention (with a two-letter name: 32 characters, the
#: longest display name Discord allows)
MARKUP_NAME = "||x|| **y**`z @everyone <@&1>"

_EVERYONE = re.compile(r"(?<!\\)@(everyone|here)\b")
_USER = re.compile(r"(?<!\\)<@!?(\d+)>")
_ROLE = re.compile(r"(?<!\\)<@&(\d+)>")


def _v2_texts(components: Iterable[Dict[str, Any]]) -> List[str]:
    out: List[str] = []
    for c in components or ():
        if c.get("type") == 10:
            out.append(c.get("content") or "")
        out.extend(_v2_texts(c.get("components") or ()))
        if isinstance(c.get("accessory"), dict):
            out.extend(_v2_texts([c["accessory"]]))
    return out


def mention_texts(payload: Dict[str, Any]) -> List[str]:
    """The texts of ``payload`` in which Discord parses mentions."""
    return [payload.get("content") or "", *_v2_texts(payload.get("components") or ())]


def markdown_texts(payload: Dict[str, Any]) -> List[str]:
    """The texts of ``payload`` in which Discord renders markdown."""
    out = mention_texts(payload)
    for e in payload.get("embeds") or ():
        out += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or ():
            out += [f.get("name") or "", f.get("value") or ""]
    return out


def ping_problems(payload: Dict[str, Any]) -> List[str]:
    """What ``payload`` would ping that it does not name (empty: nothing)."""
    am = payload.get("allowed_mentions")
    parse = {"everyone", "users", "roles"} if am is None else set(am.get("parse") or ())
    named = {str(u) for u in (am or {}).get("users") or ()}
    roles = {str(r) for r in (am or {}).get("roles") or ()}
    out: List[str] = []
    for text in mention_texts(payload):
        if "everyone" in parse and _EVERYONE.search(text):
            out.append(f"pings @everyone/@here: {text[:120]!r}")
        for uid in _USER.findall(text):
            if "users" in parse and uid not in named:
                out.append(f"pings user {uid} without naming them in allowed_mentions: {text[:120]!r}")
        for rid in _ROLE.findall(text):
            if "roles" in parse or rid in roles:
                out.append(f"pings role {rid}: {text[:120]!r}")
    return out


def raw_name_problems(payload: Dict[str, Any], names: Iterable[str]) -> List[str]:
    """The users' names (those with markup) that ``payload`` shows raw where markdown renders."""
    texts = markdown_texts(payload)
    return [f"shows the name {n!r} as markup: …{t[max(0, t.index(n) - 80):t.index(n) + len(n) + 20]!r}…"
            for n in names if MARKUP_NAME in n for t in texts if n in t]


def as_shown(text: str) -> str:
    """``text`` as a Discord client shows it, as far as escaping goes: a backslash before a
    punctuation character shows that character, a zero-width space after ``@`` shows nothing
    (the bot's own markup, e.g. ``**bold**``, is left as it is)."""
    return re.sub(r"\\([^A-Za-z0-9\s])", r"\1", text).replace("@\u200b", "@")


__all__ = ["MARKUP_NAME", "as_shown", "markdown_texts", "mention_texts", "ping_problems", "raw_name_problems"]
