"""A submitted rules form (``cogs/rules_form.py``), read from its id alone: the form is not kept
in memory while it is open, so a form filled in across a restart of the bot still counts.

Form ids, ``mjform:<kind>:<part>:<rest>`` (``part``: which form of a game with several):

* ``t`` — a lobby's rules, ``rest`` ``<channel>:<table>`` (the table's stored id: a form of a
  table that ended does not touch the next one; ``cogs/lobby_settings.py``);
* ``d`` / ``p`` — a server's defaults of game ``rest``, or its preset ``<game>:<name>``
  (``cogs/config.py``);
* ``c`` — the rules of a table ``/mj table create rules:True`` opens, ``rest`` ``<game>:<token>``
  (the command's interaction); what the command said besides waits in the store under the token
  until the form is sent, and a newer command's form replaces it (``cogs/tables.py``).

Every submission is checked whole (``rules_form.take``): a refused value refuses the form, the answer
names what is allowed, nothing is applied, and what the player typed is kept for the form
opened again by the answer's button.  An id of no current format is answered "out of date".
"""

from __future__ import annotations

import re
from typing import Any

import discord

from engine.variants import find_variant
from service.tables import ServiceError

from . import config, lobby_settings, tables
from .common import admit, handle_error, reply_error
from .rules_form import read_submission

FORM_ID = re.compile(r"mjform:(?P<kind>[tdpc]):(?P<part>[0-9]):(?P<rest>[^\n]{1,90})")
LOBBY_REST = re.compile(r"(?P<ch>[0-9]{1,20}):(?P<table>[0-9]{1,20})")


async def on_form_submit(bot: Any, interaction: discord.Interaction) -> None:
    """Answer a modal submission whose id starts ``mjform:`` (the one error path for faults);
    while the bot stops, "restarting" (``cogs/shutdown.py``)."""
    if not await admit(interaction):
        return
    try:
        await _dispatch(bot, interaction)
    except Exception as exc:
        await handle_error(interaction, exc, where=f"form {(interaction.data or {}).get('custom_id')!r}")


async def _dispatch(bot: Any, interaction: discord.Interaction) -> None:
    data: dict = dict(interaction.data or {})  # type: ignore[arg-type]
    m = FORM_ID.fullmatch(str(data.get("custom_id") or ""))
    if m is None:
        return await reply_error(interaction, ServiceError("form_outdated"))
    kind, part, rest = m["kind"], int(m["part"]), m["rest"]
    raw = read_submission(data.get("components") or [])
    if kind == "t":
        lobby = LOBBY_REST.fullmatch(rest)
        if lobby is None:
            return await reply_error(interaction, ServiceError("form_outdated"))
        return await lobby_settings.rules_submitted(bot, interaction, int(lobby["ch"]), int(lobby["table"]), part, raw)
    game, _, name = rest.partition(":")
    try:
        info = find_variant(game)
    except KeyError:
        return await reply_error(interaction, ServiceError("form_outdated"))
    if kind == "c":
        return await tables.rules_submitted(bot, interaction, info, name, part, raw)
    await config.rules_submitted(bot, interaction, kind, info, name or None, part, raw)


__all__ = ["FORM_ID", "on_form_submit"]
