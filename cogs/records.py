"""Scores, statistics, history, replays and the fairness check (``service.records``; words:
``render.text.records``), declared as ``/mj score``, ``/mj leaderboard``, ``/mj history``,
``/mj replay`` and ``/mj verify`` in ``cogs/commands.py``.

* score — cumulative points and statistics in this server;
* leaderboard — all time, this month or this week;
* history — the last hands with result and points, and the last matches with place and total;
* replay — step through a finished hand, every hand face up (⏮ ◀ ▶ ⏭); from one seat's view
  and as an animated GIF: ``cogs/seatview.py``;
* verify — the seed revealed, its SHA-256 (the commitment shown at the deal), the wall
  rebuilt from it and the stored actions replayed to the stored result.
"""

from __future__ import annotations

import discord
from discord import app_commands

from engine.variants import all_variants, find_variant
from render.text import alt, lang_of
from render.text import records as words
from render.text import seatview as seat_words
from render.text import standings as match_words
from render.text.events import log_lines
from service.games import game, games
from service.tables import ServiceError

from . import messages
from .common import edit_clicked, reply, reply_error, user_lang, within
from .components import ReplayButton
from .markup import shown, shown_rows


def check_game(variant: str | None) -> None:
    """``unknown_variant`` unless ``variant`` is ``None`` or a registered game's id."""
    if variant is None:
        return
    try:
        find_variant(variant)
    except KeyError:
        raise ServiceError("unknown_variant", variant=variant,
                           known=", ".join(v.id for v in all_variants())) from None


async def score(bot, interaction: discord.Interaction, player: discord.User | None, variant: str | None) -> None:
    lang = user_lang(interaction)
    who = player or interaction.user
    try:
        check_game(variant)
    except ServiceError as e:
        return await reply_error(interaction, e)
    st = await bot.records.stats(interaction.guild_id, who.id, variant)
    if st.hands == 0:
        return await reply(interaction, words.no_hands(shown(who.display_name), lang))
    await reply(interaction, words.score(st, shown(who.display_name), lang))


async def leaderboard(bot, interaction: discord.Interaction, variant: str | None, period: str) -> None:
    lang = user_lang(interaction)
    try:
        check_game(variant)
    except ServiceError as e:
        return await reply_error(interaction, e)
    lines = await bot.records.leaderboard(interaction.guild_id, variant, period)
    if not lines:
        return await reply(interaction, words.leaderboard_empty(lang), ephemeral=False)
    title, body = words.leaderboard(shown_rows(lines, "name"), game(variant), period, lang)
    await reply(interaction, embed=discord.Embed(title=title, description=body, colour=discord.Colour.gold()),
                ephemeral=False)


async def history(bot, interaction: discord.Interaction, player: discord.User | None, variant: str | None) -> None:
    lang = user_lang(interaction)
    who = player or interaction.user
    try:
        check_game(variant)
    except ServiceError as e:
        return await reply_error(interaction, e)
    lines = await bot.records.history(interaction.guild_id, who.id, variant)
    matches = match_words.history_lines(await bot.matches.player_matches(interaction.guild_id, who.id, variant),
                                        who.id, lang, games())
    if not lines and not matches:
        return await reply(interaction, words.no_hands(shown(who.display_name), lang))
    title, body = words.history(shown_rows(lines, "winner_name"), shown(who.display_name), lang, games())
    embed = discord.Embed(title=title, description=body or None)
    if matches:
        embed.add_field(name=match_words.history_title(lang), value="\n".join(matches)[:1024], inline=False)
    await reply(interaction, embed=embed)


async def hand_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The server's finished hands, newest first, labelled in the user's language."""
    hands = await interaction.client.records.finished_hands(interaction.guild_id)
    lang = user_lang(interaction)
    known = games()
    out = []
    for h in hands:
        label = words.hand_choice(h, lang, known)
        if current in str(h.id) or current.lower() in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=h.id))
    return out[:25]


async def show_replay(bot, interaction: discord.Interaction, hand_id: int, step: int, edit: bool,
                      lang: str | None = None, seat: int | None = None) -> None:
    """Step ``step`` of a finished hand as a table image with the step buttons (a new public
    message in the asking user's language, or the clicked replay message redrawn when
    ``edit``, in ``lang``: the message's own, whoever pressed).  With ``seat`` (0-based): that
    seat's view with its decisions marked, privately, for whoever asks (``cogs/seatview.py``)."""
    lang = lang or user_lang(interaction)
    try:
        work = bot.records.replay(interaction.guild_id, hand_id, step, seat=seat, user_id=interaction.user.id)
        # a public answer is never deferred (a deferral is private); a seat's view and a step may be
        r = await (within(interaction, work, update=edit) if edit or seat is not None else work)
    except ServiceError as e:
        return await reply_error(interaction, e)
    view = dict(r.view, lang=lang_of(lang), log=log_lines(r.events, r.names, lang, r.game))
    file = await messages.image_of(view, r.game, lang,
                                   alt.replay_alt(view, r.game, lang, hand_id, r.step, r.total, r.events))
    buttons = discord.ui.View(timeout=None)
    for pos, target in enumerate((0, r.step - 1, r.step + 1, r.total)):
        buttons.add_item(ReplayButton(hand_id, max(0, min(r.total, target)), pos,
                                      disabled=(target < 0 or target > r.total or target == r.step),
                                      lang=lang_of(lang), seat=seat))
    content = (words.replay_caption(r, lang) if seat is None
               else seat_words.caption(r, shown(r.names[seat]), lang))
    if edit:
        await edit_clicked(interaction, content=content, attachments=[file], view=buttons)
    else:
        await reply(interaction, content, ephemeral=seat is not None, file=file, view=buttons)


async def verify(bot, interaction: discord.Interaction, hand: int) -> None:
    lang = user_lang(interaction)
    try:
        v = await bot.records.verify(interaction.guild_id, hand)
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, words.verification(v, lang), ephemeral=False)
