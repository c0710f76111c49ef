"""``/mj rules``: a game's summary, its table options and its fan/score table (the game's
declared ``fan_table``), then the 段位 ladder for the unit sizes the game plays
(``service.dan``), in the user's language, one embed per page (words:
``render.text.records.rules``, ``render.text.dan.ladder_page``)."""

from __future__ import annotations

import discord

from engine.variants import all_variants, find_variant
from render.text import dan as dan_words
from render.text import records as words
from service import dan
from service.tables import ServiceError

from .common import reply, reply_error, user_lang


def rules_pages(variant: str, lang: str) -> list[discord.Embed]:
    """The embeds of ``/mj rules`` (at most Discord's 10): summary and options first, then the
    fan table, then the 段位 ladder for the seat counts the game plays
    (``min_players .. max_players`` that the ladder rates); raises ``KeyError`` for an unknown
    game."""
    info = find_variant(variant)
    pages = []
    for i, (title, text, field) in enumerate(words.rules(info, lang)[:9]):
        embed = discord.Embed(title=title, description=text, colour=discord.Colour.dark_green() if i == 0 else None)
        if field is not None:
            embed.add_field(name=field[0], value=field[1], inline=False)
        pages.append(embed)
    ladder = dan.load()
    seats = [n for n in ladder.seats if info.min_players <= n <= info.max_players]
    title, text, fields = dan_words.ladder_page(ladder, seats, lang)
    embed = discord.Embed(title=title, description=text)
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=True)
    return pages + [embed]


async def rules(bot, interaction: discord.Interaction, variant: str) -> None:
    try:
        pages = rules_pages(variant, user_lang(interaction))
    except KeyError:
        return await reply_error(interaction, ServiceError(
            "unknown_variant", variant=variant, known=", ".join(v.id for v in all_variants())))
    await reply(interaction, embeds=pages)
