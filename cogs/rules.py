"""``/mj rules``: a game's summary, its table options and its fan/score table (the game's
declared ``fan_table``), in the user's language, one embed per page (words:
``render.text.records.rules``)."""

from __future__ import annotations

import discord

from engine.variants import all_variants, find_variant
from render.text import records as words
from service.tables import ServiceError

from .common import reply, reply_error, user_lang


def rules_pages(variant: str, lang: str) -> list[discord.Embed]:
    """The embeds of ``/mj rules``: summary and options first, then the fan table; raises
    ``KeyError`` for an unknown game."""
    pages = []
    for i, (title, text, field) in enumerate(words.rules(find_variant(variant), lang)):
        embed = discord.Embed(title=title, description=text, colour=discord.Colour.dark_green() if i == 0 else None)
        if field is not None:
            embed.add_field(name=field[0], value=field[1], inline=False)
        pages.append(embed)
    return pages


async def rules(bot, interaction: discord.Interaction, variant: str) -> None:
    try:
        pages = rules_pages(variant, user_lang(interaction))
    except KeyError:
        return await reply_error(interaction, ServiceError(
            "unknown_variant", variant=variant, known=", ".join(v.id for v in all_variants())))
    await reply(interaction, embeds=pages)
