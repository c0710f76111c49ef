"""``/config …``: server defaults, named presets and the channels that may host tables
(Manage Server permission)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.variants import all_variants, find_variant
from render.text import t
from service.presets import check_options
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
            opts = check_options(find_variant(variant), parse_options(options))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await self.bot.store.set_guild_default(interaction.guild_id, variant, opts)
        await reply(interaction, t("ui.config_saved", user_lang(interaction)))

    @config.command(name="preset", description="Save a named preset of options")
    @app_commands.describe(name="Preset name", variant="The game", options="key=value …")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.autocomplete(options=options_autocomplete)
    async def preset(self, interaction: discord.Interaction, name: str, variant: str,
                     options: str | None = None) -> None:
        if not await self._admin(interaction):
            return
        try:
            opts = check_options(find_variant(variant), parse_options(options))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await self.bot.store.set_preset(interaction.guild_id, name.strip()[:40], variant, opts)
        await reply(interaction, t("ui.config_saved", user_lang(interaction)))

    @config.command(name="preset-delete", description="Delete a saved preset")
    @app_commands.describe(name="Preset name")
    async def preset_delete(self, interaction: discord.Interaction, name: str) -> None:
        if not await self._admin(interaction):
            return
        if not await self.bot.store.delete_preset(interaction.guild_id, name):
            return await reply_error(interaction, ServiceError("unknown_preset", preset=name))
        await reply(interaction, t("ui.config_saved", user_lang(interaction)))

    @config.command(name="channel", description="Allow or forbid tables in a channel")
    @app_commands.describe(channel="The channel", allow="Allow tables there (the first allowed channel "
                                                         "restricts tables to the allowed ones)")
    async def channel(self, interaction: discord.Interaction, channel: discord.TextChannel, allow: bool) -> None:
        if not await self._admin(interaction):
            return
        cfg = await self.bot.store.get_guild_config(interaction.guild_id)
        channels = [c for c in cfg.channels if c != channel.id] + ([channel.id] if allow else [])
        await self.bot.store.set_channels(interaction.guild_id, channels)
        await reply(interaction, t("ui.config_saved", user_lang(interaction)))

    @config.command(name="show", description="Show this server's mahjong settings")
    async def show(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        cfg = await self.bot.store.get_guild_config(interaction.guild_id)
        lines = []
        for variant, opts in sorted(cfg.defaults.items()):
            if opts:
                lines.append(t("ui.config_default", lang, variant=variant, options=_fmt(opts)))
        for name, p in sorted(cfg.presets.items()):
            lines.append(t("ui.config_preset", lang, name=name, variant=p["variant"], options=_fmt(p["options"])))
        chans = ", ".join(f"<#{c}>" for c in cfg.channels) or t("ui.config_all_channels", lang)
        lines.append(t("ui.config_channels", lang, channels=chans))
        await reply(interaction, embed=discord.Embed(title=t("ui.config_title", lang), description="\n".join(lines)))


def _fmt(opts: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(opts.items())) or "—"


async def setup(bot) -> None:
    await bot.add_cog(Config(bot))
