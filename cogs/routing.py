"""Clicks routed between the processes of a sharded bot (``service/routing.py`` says why).

A DM click arrives at the process of shard 0; when another process owns the table,
:func:`forward_click` acknowledges it and stores it for that process; the owner applies it
with :func:`apply_routed` — the same checks and moves as a click it received itself
(``cogs.press``) — and answers through the
interaction's token with discord.py's public ``Webhook.partial``: the clicked message is
redrawn, or a refusal is sent as a follow-up in the DM (a webhook made this way cannot send
ephemeral messages; a DM is private anyway).
"""

from __future__ import annotations

import discord

from engine.errors import IllegalAction
from render.text import lang_of
from service.tables import ServiceError

from . import messages
from .emojis import sending_panel
from .common import refusal_text
from .press import check_press, press_key, redraw_only


async def forward_click(bot, interaction: discord.Interaction, button) -> bool:
    """A DM click on an action button of a table this process does not run: if another
    process owns it, acknowledge the click (deferred update) and store it for that process;
    returns ``True`` when forwarded, ``False`` when the click is this process's to answer."""
    router = getattr(bot, "router", None)
    if router is None:
        return False
    guild_id = await bot.service.stored_guild_of(button.ch)
    if guild_id is None or bot.sharding.owns(guild_id):
        return False
    await interaction.response.defer()
    await router.submit(
        guild_id=guild_id, token=interaction.token, application_id=interaction.application_id,
        user_id=interaction.user.id, channel_id=button.ch,
        message_id=interaction.message.id if interaction.message is not None else None,
        action=button.act, tile=button.tile, seq=button.seq, locale=str(interaction.locale),
        hand_id=button.hand)
    return True


async def apply_routed(bot, row) -> None:
    """Apply one routed click (a ``store.routed.RoutedAction`` row) as a click received here
    would be, and answer through the interaction's token."""
    lang = lang_of(row.locale)
    await bot.service.remember_lang(row.user_id, lang)
    hook = discord.Webhook.partial(row.application_id, row.token, client=bot)
    game = None
    try:
        snap, seat = check_press(bot.service, row.channel_id, row.user_id, row.action, row.hand_id, row.seq)
        game = snap.game
        panel = redraw_only(snap, seat, row.action, row.tile, lang, bot.tile_emojis)
        if panel is None:
            change = await bot.service.press(row.channel_id, row.user_id, press_key(row.action, row.tile),
                                             hand_id=row.hand_id, seq=row.seq)
            snap = change.snapshot
            panel = messages.panel_of(snap, seat, notices=change.notices.get(seat, ()), lang=lang,
                                      emojis=bot.tile_emojis)
    except (ServiceError, IllegalAction) as e:
        await hook.send(refusal_text(e, lang, game, None))
        return
    if row.message_id is None:
        return
    async def send(again: bool) -> None:  # drawn anew if Discord refuses one of its emojis
        drawn = messages.panel_of(snap, seat, emojis=bot.tile_emojis, **panel.how) if again else panel
        await hook.edit_message(row.message_id, **messages.panel_payload(drawn))

    try:
        await sending_panel(bot, send)
    except discord.HTTPException:  # e.g. a panel of an older format: the fan-out draws a new one
        bot.fanout.panel_lost(snap.channel_id, seat)
        return
    bot.fanout.panel_answered(snap.channel_id, seat, row.message_id, panel)
