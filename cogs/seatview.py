"""``/mj replay hand: seat:`` and ``/mj replay hand: animate: True`` — a finished hand from one
seat's view, and the hand move by move as an animated GIF (``service.replays``; images
``render.animate``; words ``render.text.seatview``).

* ``seat:`` (1-based, as ``/mj table join``): the steps from that seat's view — the other
  seats' concealed tiles hidden until the end, the seat's decisions marked — answered
  privately to whoever asks (the hand is over: a 牌谱 is watched from any seat, imported ones
  too); the step buttons are ``cogs.components.ReplayButton``'s, carrying the seat.
* ``animate: True``: the GIF posted in the channel; the public table as the channel saw it
  live, or with ``seat:`` that seat's view, for the player who sat there only.  The checks
  are answered at once (privately when refused), then the answer is deferred publicly while
  the frames are drawn in a worker thread; a GIF over the 10 MiB a server without boosts
  takes is drawn again smaller, and refused (publicly: the deferral is public) if still over.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands

from render import animate as gif
from render.text import lang_of
from render.text import seatview as words
from service.tables import ServiceError

from .common import reply, reply_error, user_lang
from .markup import shown

log = logging.getLogger(__name__)
#: the smaller scale a GIF over the limit is drawn again at
SMALLER = 0.5


async def seat_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The seats of the hand chosen in the ``hand`` option, ``1 · name`` (none until it is a
    finished hand of this server)."""
    hand = getattr(interaction.namespace, "hand", None)
    if not isinstance(hand, int):
        return []
    try:
        record = await interaction.client.records.finished(interaction.guild_id, hand)
    except ServiceError:
        return []
    out = []
    for i, s in enumerate(record.seats):
        label = f"{i + 1} · {s.get('name', '?')}"
        if current in str(i + 1) or current.lower() in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=i + 1))
    return out[:25]


def draw(a, lang: str) -> bytes | None:
    """The GIF of an animation (``service.records.Animation``) in ``lang``, drawn again at
    :data:`SMALLER` scale when over :data:`render.animate.LIMIT`; ``None`` when still over."""
    views = [dict(f.view, lang=lang_of(lang)) for f in a.frames]
    kinds = [f.kind for f in a.frames]
    for scale in (gif.SCALE, SMALLER):
        data = gif.animate(views, kinds, scale)
        if len(data) <= gif.LIMIT:
            return data
        log.warning("hand %s: a GIF of %d bytes at scale %s", a.hand_id, len(data), scale)
    return None


async def animate(bot, interaction: discord.Interaction, hand_id: int, seat: int | None) -> None:
    """Post hand ``hand_id`` as an animated GIF in the channel (``seat``: that seat's view,
    0-based, asked by its player)."""
    lang = user_lang(interaction)
    try:
        await bot.records.may_view(interaction.guild_id, hand_id, seat, interaction.user.id)
    except ServiceError as e:
        return await reply_error(interaction, e)
    await interaction.response.defer(thinking=True)  # public: drawing takes seconds
    a = await bot.records.animation(interaction.guild_id, hand_id, seat, interaction.user.id)
    data = await asyncio.to_thread(draw, a, lang)
    if data is None:
        return await reply(interaction, words.too_long(hand_id, lang), ephemeral=False)
    name = shown(a.names[seat]) if seat is not None else None
    file = discord.File(io.BytesIO(data), filename=f"hand-{hand_id}.gif", description=words.gif_alt(a, lang))
    await reply(interaction, words.gif_caption(a, name, lang), ephemeral=False, file=file)


__all__ = ["seat_autocomplete", "animate", "draw"]
