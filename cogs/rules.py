"""``/rules <variant>``: the game's summary, its table options and its fan/score table, in
the user's language, as one or more embeds (one page each)."""

from __future__ import annotations

import importlib

import discord
from discord import app_commands
from discord.ext import commands

from engine.variants import all_variants, find_variant
from render.text import game_name, t, tv

from . import ui
from .common import reply, user_lang

VARIANT_CHOICES = [app_commands.Choice(name=f"{v.name_zh} {v.name_en}", value=v.id) for v in all_variants()]
PAGE = 3800  # characters per embed page (Discord allows 4096)


def score_table(variant: str) -> list[tuple[str, str, object]]:
    """The variant's fan/score table ``[(zh, en, value)]`` if its module publishes ``fan_table()``."""
    module = importlib.import_module(f"engine.variants.{variant}")
    fn = getattr(module, "fan_table", None)
    return list(fn()) if fn else []


def rules_pages(variant: str, lang: str) -> list[discord.Embed]:
    """The embeds of ``/rules``: summary and options first, then the fan table."""
    info = find_variant(variant)
    zh = lang.startswith("zh")
    title = game_name(variant, lang)
    summary = tv(variant, f"rules.{variant}", lang)
    if summary.startswith("messages."):
        summary = ""
    opts = "\n".join(f"`{o.name}` = {str(o.default).lower() if o.type is bool else o.default} — {o.zh if zh else o.en}"
                     for o in info.options)
    first = discord.Embed(title=title, description=summary[:PAGE], colour=discord.Colour.dark_green())
    first.add_field(name=t("ui.rules_options", lang), value=opts[:1024] or "—", inline=False)
    pages = [first]
    rows = score_table(variant)
    if rows:
        lines = [f"{value:>3} · {zh_name if zh else f'{en} {zh_name}'}" for zh_name, en, value in rows]
        chunk: list[str] = []
        for line in lines:
            if sum(len(x) + 1 for x in chunk) + len(line) > PAGE:
                pages.append(discord.Embed(title=t("ui.rules_fans", lang), description="\n".join(chunk)))
                chunk = []
            chunk.append(line)
        if chunk:
            pages.append(discord.Embed(title=t("ui.rules_fans", lang), description="\n".join(chunk)))
    return pages[:10]


class Rules(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="rules", description="A game's rules summary, options and fan table")
    @app_commands.describe(variant="The game")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str = "two_player") -> None:
        await reply(interaction, embeds=rules_pages(variant, user_lang(interaction)))


async def setup(bot) -> None:
    await bot.add_cog(Rules(bot))
