"""Server settings (``/mj config …``, declared in ``cogs/commands.py``; Manage Server
permission): a game's default options, named presets, the channels that may host tables, and
the server settings (the public table's language, the lobby's minutes, reposting the table)."""

from __future__ import annotations

import discord

from render.text import records as words
from service.tables import ServiceError

from .common import is_admin, reply, reply_error, user_lang
from .tables import parse_options


async def _saved(interaction: discord.Interaction, work) -> None:
    """Run a settings change for an admin, then answer "saved" (or the error), privately."""
    if not is_admin(interaction):
        return await reply_error(interaction, ServiceError("admin_only"))
    try:
        await work()
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, words.saved(user_lang(interaction)))


async def default(bot, interaction: discord.Interaction, variant: str, options: str | None) -> None:
    await _saved(interaction, lambda: bot.settings.set_default(interaction.guild_id, variant, parse_options(options)))


async def preset(bot, interaction: discord.Interaction, name: str, variant: str, options: str | None) -> None:
    await _saved(interaction, lambda: bot.settings.set_preset(interaction.guild_id, name, variant,
                                                              parse_options(options)))


async def preset_delete(bot, interaction: discord.Interaction, name: str) -> None:
    await _saved(interaction, lambda: bot.settings.delete_preset(interaction.guild_id, name))


async def channel(bot, interaction: discord.Interaction, target: discord.abc.GuildChannel, allow: bool) -> None:
    await _saved(interaction, lambda: bot.settings.allow_channel(interaction.guild_id, target.id, allow))


async def server(bot, interaction: discord.Interaction, language: str | None, lobby_minutes: int | None,
                 repost_after: int | None) -> None:
    """``/mj config server``: the settings given change, the others stay (``setting_bad_value``
    for a value out of bounds)."""
    await _saved(interaction, lambda: bot.settings.set_server(interaction.guild_id, language=language,
                                                              lobby_minutes=lobby_minutes,
                                                              repost_after=repost_after))


async def show(bot, interaction: discord.Interaction) -> None:
    lang = user_lang(interaction)
    title, body = words.settings(await bot.settings.config(interaction.guild_id), lang,
                                 await bot.settings.server(interaction.guild_id))
    await reply(interaction, embed=discord.Embed(title=title, description=body))
