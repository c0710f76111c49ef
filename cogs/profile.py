"""``/mj profile`` (a player's card: rating, 段位, rates, last places, best hands — an image and
its text), ``/mj profile-hide`` and the leaderboard by rating or 段位 (``/mj leaderboard by:``).

A profile is the asker's by default; another player's is shown unless they hide it.  The card
is drawn in a worker thread and answered privately, the text beside it for screen readers.
"""

from __future__ import annotations

import asyncio
import io

import discord

from engine.variants import find_variant
from render.profile import profile_image
from render.text.profile import profile_text
from render.text import t
from render.text.catalogue import game_name
from render.text.dan import rank_name
from service import dan
from service.tables import ServiceError

from .common import reply, reply_error, user_lang, within
from .markup import shown
from .records import check_game
from .tables import DEFAULT_GAME  # the game a profile shows when none is chosen

async def profile(bot, interaction: discord.Interaction, player: discord.User | None, variant: str | None,
                  period: str = "all") -> None:
    lang = user_lang(interaction)
    who = player or interaction.user
    try:
        check_game(variant)
        info = find_variant(variant or DEFAULT_GAME)
        if who.id != interaction.user.id and await bot.profiles.hidden(interaction.guild_id, who.id):
            raise ServiceError("profile_hidden", name=who.display_name)
    except ServiceError as e:
        return await reply_error(interaction, e)
    async def drawn() -> tuple:
        card = await bot.profiles.profile(interaction.guild_id, who.id, who.display_name, info.facts, period)
        return card, await asyncio.to_thread(profile_image, card, lang)

    card, png = await within(interaction, drawn())  # a long history is answered after "thinking…"
    await reply(interaction, profile_text(card, lang, shown),
                file=discord.File(io.BytesIO(png), filename="profile.png"))


async def hide(bot, interaction: discord.Interaction, hidden: bool) -> None:
    """``/mj profile-hide``: the asker's profile hidden from others on this server (or shown)."""
    lang = user_lang(interaction)
    await bot.profiles.set_hidden(interaction.guild_id, interaction.user.id, hidden)
    await reply(interaction, t("board.hidden" if hidden else "board.shown", lang))


async def rated_board(bot, interaction: discord.Interaction, variant: str | None, by: str) -> None:
    """The leaderboard ``by`` ``rating`` or ``dan`` of one game (ratings are per game)."""
    lang = user_lang(interaction)
    try:
        if variant is None:
            raise ServiceError("board_needs_game")
        check_game(variant)
        info = find_variant(variant)
    except ServiceError as e:
        return await reply_error(interaction, e)
    lines = await bot.profiles.board(interaction.guild_id, info.id, by)
    if not lines:
        return await reply(interaction, t("board.empty", lang), ephemeral=False)
    ladder = dan.load()
    rows = [t("board.line", lang, n=i + 1, name=shown(x.name), rating=x.rating,
              dan=rank_name(ladder, x.dan.rank, lang), points=x.dan.points, units=x.units)
            for i, x in enumerate(lines)]
    title = t("board.title_" + by, lang, game=game_name(info.facts, lang))
    await reply(interaction, embed=discord.Embed(title=title, description="\n".join(rows),
                                                 colour=discord.Colour.gold()), ephemeral=False)


__all__ = ["hide", "profile", "rated_board"]
