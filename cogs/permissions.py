"""The Discord permissions the bot needs in a channel where a table is played, its invite URL, and
the check made before a table opens (so a table never opens where nothing of it could be shown).

One list, in the order the README gives it:

* **View Channel** — see the channel the table is in;
* **Send Messages** — the table message, the lobby, the results;
* **Send Messages in Threads** — the same when the table is in a thread;
* **Embed Links** — the table message's text is an embed (without it Discord drops it);
* **Attach Files** — the table image, the result and the standings images.

No privileged intent is needed (``discord.Intents.default()``); the scopes are ``bot`` and
``applications.commands``.
"""

from __future__ import annotations

import discord

#: (permission flag, its name as Discord's settings show it), in the README's order
NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("send_messages_in_threads", "Send Messages in Threads"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
)
SCOPES = ("bot", "applications.commands")


def needed() -> discord.Permissions:
    """Every permission in :data:`NEEDED`, as one ``discord.Permissions`` (its ``value`` is the
    invite URL's ``permissions`` integer)."""
    return discord.Permissions(**{flag: True for flag, _ in NEEDED})


def invite_url(application_id: int) -> str:
    """The URL that adds the bot to a server with :func:`needed` and :data:`SCOPES`."""
    return discord.utils.oauth_url(application_id, permissions=needed(), scopes=SCOPES)


def missing(perms: discord.Permissions, in_thread: bool = False) -> list[str]:
    """The flags (as in :data:`NEEDED`: ``"embed_links"`` …) of the permissions ``perms``
    lacks for a table in a channel (``in_thread``: a thread, where *Send Messages in Threads*
    replaces *Send Messages*); ``[]`` when nothing is missing."""
    out = []
    for flag, _ in NEEDED:
        if flag == ("send_messages" if in_thread else "send_messages_in_threads"):
            continue
        if not getattr(perms, flag):
            out.append(flag)
    return out


__all__ = ["NEEDED", "SCOPES", "needed", "invite_url", "missing"]
