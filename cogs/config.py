"""``/config …``: server defaults, named presets and the channels that may host tables
(Manage Server permission)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.variants import all_variants
from render.text import records as words
from service.tables import ServiceError

from .common import is_admin, reply, reply_error, user_lang
from .tables import options_autocomplete, parse_options

VARIANT_CHOICES = [app_commands.Choice(name=f"{v.name_zh} {v.name_en}", value=v.id) for v in all_variants()]


class Config(commands.Cog):
    """Server configuration for admins."""

    config = app_commands.Group(name="config", description="Server settings for mahjong tables (admins)",
                                guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot):
        self.bot = bot

    async def _admin(self, interaction: discord.Interaction) -> bool:
        if not is_admin(interaction):
            await reply_error(interaction, ServiceError("admin_only"))
            return False
        return True

    @config.command(name="default", description="Set this server's default options of a game")
    @app_commands.describe(variant="The game", options="key=value … (empty: back to the rule file's defaults)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.autocomplete(options=options_autocomplete)
    async def default(self, interaction: discord.Interaction, variant: str, options: str | None = None) -> None:
        if not await self._admin(interaction):
            return
        try:
            await self.bot.settings.set_default(interaction.guild_id, variant, parse_options(options))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, words.saved(user_lang(interaction)))

    @config.command(name="preset", description="Save a named preset of options")
    @app_commands.describe(name="Preset name", variant="The game", options="key=value …")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.autocomplete(options=options_autocomplete)
    async def preset(self, interaction: discord.Interaction, name: str, variant: str,
                     options: str | None = None) -> None:
        if not await self._admin(interaction):
            return
        try:
            await self.bot.settings.set_preset(interaction.guild_id, name, variant, parse_options(options))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, words.saved(user_lang(interaction)))

    @config.command(name="preset-delete", description="Delete a saved preset")
    @app_commands.describe(name="Preset name")
    async def preset_delete(self, interaction: discord.Interaction, name: str) -> None:
        if not await self._admin(interaction):
            return
        try:
            await self.bot.settings.delete_preset(interaction.guild_id, name)
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, words.saved(user_lang(interaction)))

    @config.command(name="channel", description="Allow or forbid tables in a channel")
    @app_commands.describe(channel="The channel", allow="Allow tables there (the first allowed channel "
                                                         "restricts tables to the allowed ones)")
    async def channel(self, interaction: discord.Interaction, channel: discord.TextChannel, allow: bool) -> None:
        if not await self._admin(interaction):
            return
        await self.bot.settings.allow_channel(interaction.guild_id, channel.id, allow)
        await reply(interaction, words.saved(user_lang(interaction)))

    @config.command(name="show", description="Show this server's mahjong settings")
    async def show(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        title, body = words.settings(await self.bot.settings.config(interaction.guild_id), lang)
        await reply(interaction, embed=discord.Embed(title=title, description=body))


async def setup(bot) -> None:
    await bot.add_cog(Config(bot))
