"""``/score`` and ``/leaderboard``: cumulative points in this server, summed from the
stored settlements of every finished hand."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.variants import all_variants
from service.i18n import t

from . import ui
from .common import reply, user_lang

VARIANT_CHOICES = [app_commands.Choice(name=f"{v.name_zh} {v.name_en}", value=v.id) for v in all_variants()]


class Scores(commands.Cog):
    """Score look-ups."""

    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="score", description="Cumulative score in this server")
    @app_commands.describe(player="Whose score (default: yours)", variant="Only this game")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def score(self, interaction: discord.Interaction, player: discord.User | None = None,
                    variant: str | None = None) -> None:
        lang = user_lang(interaction)
        who = player or interaction.user
        line = await self.bot.store.score(interaction.guild_id, who.id, variant)
        if line.hands == 0:
            return await reply(interaction, t("ui.score_none", lang, name=who.display_name))
        await reply(interaction, t("ui.score_line", lang, name=who.display_name, points=f"{line.points:+d}",
                                   hands=line.hands, wins=line.wins, self_drawn=line.self_drawn,
                                   deal_ins=line.deal_ins))

    @app_commands.command(name="leaderboard", description="Top players of this server")
    @app_commands.describe(variant="Only this game")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        lang = user_lang(interaction)
        lines = await self.bot.store.leaderboard(interaction.guild_id, variant, limit=10)
        if not lines:
            return await reply(interaction, t("ui.leaderboard_empty", lang), ephemeral=False)
        scope = ui.game_name(variant, lang) if variant else t("ui.all_games", lang)
        body = "\n".join(f"{i + 1}. **{ln.name}** {ln.points:+d} ({ln.wins}/{ln.hands})" for i, ln in enumerate(lines))
        embed = discord.Embed(title=t("ui.leaderboard_title", lang, scope=scope), description=body,
                              colour=discord.Colour.gold())
        await reply(interaction, embed=embed, ephemeral=False)


async def setup(bot) -> None:
    await bot.add_cog(Scores(bot))
