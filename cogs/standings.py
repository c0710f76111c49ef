"""The final standings message of a match (大结算): posted in the table's channel when the
match ends (its last hand settled, or ``/mj table end``), and after a restart for every ended
match not shown yet; its replay menu (``cogs.components.MatchSelect``, 25 hands a page) and
page buttons (``PageButton``).  Words: ``render.text.standings``; image:
``render.standings``; the standings come from the service (``service.matches``)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any, Optional

import discord

from render.standings import render_standings
from render.text import lang_of
from render.text import standings as words
from service.games import game, games
from service.tables import ServiceError

from .common import edit_clicked, reply, reply_error, user_lang
from .components import MatchSelect, PageButton
from .markup import shown_standings

log = logging.getLogger(__name__)


def menu(match: Any, data: dict, lang: str, page: int) -> discord.ui.View:
    """The replay menu of page ``page`` (≤ 25 hands) and, for a longer match, ◀ ▶."""
    view = discord.ui.View(timeout=None)
    hands = data.get("hands", [])
    if not hands:
        return view
    n = words.pages(data)
    page = max(0, min(page, n - 1))
    options = []
    for h in hands[page * words.PAGE:(page + 1) * words.PAGE]:
        label, desc = words.hand_option(h, lang)
        options.append(discord.SelectOption(label=label, value=str(h["hand_id"]), description=desc))
    view.add_item(MatchSelect(match.id, page, options, words.placeholder(lang)))
    if n > 1:
        view.add_item(PageButton(match.id, max(0, page - 1), 0, disabled=page == 0))
        view.add_item(PageButton(match.id, min(n - 1, page + 1), 1, disabled=page >= n - 1))
    return view


async def payload(match: Any, data: dict, lang: str, page: int = 0) -> dict:
    """``{"embed", "file", "view"}`` of a standings message (the image with its text
    alternative)."""
    facts = game(match.variant)
    view = {"lang": lang_of(lang), "variant": match.variant, "game": facts, "standings": data,
            "subtitle": words.subtitle(match, data, lang)}
    png = await asyncio.to_thread(render_standings, view)
    file = discord.File(io.BytesIO(png), filename="standings.png",
                        description=words.alt_text(match, data, lang, facts))
    embed = discord.Embed(title=words.title(match, lang, facts), description=words.description(match, shown_standings(data), lang, facts, page),
                          colour=discord.Colour.gold())
    embed.set_image(url="attachment://standings.png")
    return {"embed": embed, "file": file, "view": menu(match, data, lang, page)}


async def post(bot, match_id: int) -> Optional[int]:
    """Post a match's standings in its channel once (an ended match whose message is known is
    left alone); returns the message id, ``None`` when Discord refused (tried again at the
    next start)."""
    match, data = await bot.matches.match(None, match_id)
    if match.message_id is not None:
        return match.message_id
    lang = await bot.matches.match_lang(match)
    kwargs = await payload(match, data, lang)
    try:
        msg = await bot.get_partial_messageable(match.channel_id).send(**kwargs)
    except discord.HTTPException:
        log.warning("could not post the standings of match %s in %s", match.id, match.channel_id)
        return None
    await bot.matches.posted(match.id, msg.id)
    return msg.id


async def post_unposted(bot) -> None:
    """After a start: post the standings of every ended match of this process's servers that
    were not shown (the bot stopped between a match's end and its message)."""
    owns = bot.sharding.owns if getattr(bot, "sharding", None) else None
    for m in await bot.matches.unposted(owns):
        try:
            await bot.fanout.post_standings(m.id)
        except Exception:
            log.exception("could not post the standings of match %s", m.id)


async def match_autocomplete(interaction: discord.Interaction, current: str) -> list:
    """The server's latest ended matches, newest first, labelled in the user's language."""
    lang = user_lang(interaction)
    out = []
    known = games()
    for m, data in await interaction.client.matches.server_matches(interaction.guild_id):
        label = words.match_choice(m, data, lang, known.get(m.variant))
        if current.strip().lstrip("Mm#") in str(m.id) or current.lower() in label.lower():
            out.append(discord.app_commands.Choice(name=label, value=m.id))
    return out[:25]


async def show(bot, interaction: discord.Interaction, match_id: int) -> None:
    """``/mj standings``: a match's standings message again, privately, in the user's language
    (its replay menu and pages work as on the posted one)."""
    try:
        match, data = await bot.matches.match(interaction.guild_id, match_id)
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, ephemeral=True, **await payload(match, data, user_lang(interaction)))


async def show_page(bot, interaction: discord.Interaction, match_id: int, page: int) -> None:
    """◀ ▶ of a standings message: the same message with the menu of page ``page``."""
    try:
        match, data = await bot.matches.match(interaction.guild_id, match_id)
    except ServiceError as e:
        return await reply_error(interaction, e)
    private = interaction.message is not None and interaction.message.flags.ephemeral
    # the posted message stays in the table's language; one shown by /mj standings in the user's
    lang = user_lang(interaction) if private else await bot.matches.match_lang(match)
    page = max(0, min(page, words.pages(data) - 1))
    kwargs = await payload(match, data, lang, page)
    await edit_clicked(interaction, embed=kwargs["embed"], attachments=[kwargs["file"]], view=kwargs["view"])
