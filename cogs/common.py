"""Helpers shared by the cogs: the user's language, private error replies, which table a
command is about."""

from __future__ import annotations

import logging

import discord

from engine.errors import IllegalAction
from service.i18n import error_text, lang_of
from service.tables import ServiceError, Table, TableService

log = logging.getLogger(__name__)


def user_lang(interaction: discord.Interaction) -> str:
    return lang_of(interaction.locale)


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kwargs) -> None:
    """Answer an interaction whether or not it was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(content=content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content=content, ephemeral=ephemeral, **kwargs)


async def answer(awaitable) -> bool:
    """Await an answer to an interaction (a reply, an edit of the clicked message).  When it
    cannot be delivered — the token expired (404 10062 / 401 50027), Discord is failing —
    the request itself is already done and stored, so this only logs; ``False`` then."""
    try:
        await awaitable
        return True
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction: %s", exc)
        return False


async def reply_error(interaction: discord.Interaction, exc: Exception) -> None:
    """A clear, private message for a refused request (the game is unchanged)."""
    lang = user_lang(interaction)
    if isinstance(exc, (ServiceError, IllegalAction)):
        text = error_text(exc.code, lang, exc.params, _variant_here(interaction))
    else:
        log.exception("unexpected error", exc_info=exc)
        text = error_text("internal", lang)
    try:
        await reply(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply")


def _variant_here(interaction: discord.Interaction) -> str | None:
    """The game of the table this interaction is about, if any (for its own messages)."""
    service = getattr(interaction.client, "service", None)
    if service is None:
        return None
    try:
        return table_for(service, interaction).variant.id
    except ServiceError:
        return None


def table_for(service: TableService, interaction: discord.Interaction) -> Table:
    """The table a command is about: the channel's table, or in a DM the user's table."""
    if interaction.guild_id is None:
        tables = service.tables_of_user(interaction.user.id)
        if not tables:
            raise ServiceError("no_table_dm")
        return tables[0]
    return service.table_in(interaction.channel_id)


def is_admin(interaction: discord.Interaction) -> bool:
    """Server admin: Manage Server or Administrator (the member's resolved permissions that
    Discord sends with the interaction)."""
    perms = interaction.permissions
    return bool(perms and (perms.manage_guild or perms.administrator))
