"""Playing a hand: the play verbs (``/discard``, ``/ting``, ``/chow``, ``/pung``, ``/kong``,
``/hu``, ``/double``, ``/pass`` — one short word each, the only top-level commands of the
bot), ``/act``, ``/mj hand``, and the action buttons and menus of a player's panel.

Every path asks the table service, which checks who may act (``TableService.may_act``) and
reads a typed move (``service/interpret.py``) before it stores anything; the player is
answered from the snapshot after the move, and the table hears of it from the table's
fan-out (``cogs/fanout.py``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.errors import IllegalAction
from engine.tiles import TileParseError, kind_name, parse_kind
from render.text import lang_of, t
from render.text.typed import suggest
from service.tables import ServiceError

from . import messages
from .emojis import sending_panel
from .common import (answer, answering, edit_clicked, remember_lang, reply, reply_error, snapshot_for, user_lang,
                     within)
from .press import check_press, press_key, redraw_only
from .routing import forward_click


def _clicked_id(interaction: discord.Interaction) -> int | None:
    """The id of the message whose component was used (``None`` when unknown)."""
    return getattr(interaction.message, "id", None)


def _is_layout(message) -> bool:
    """Is ``message`` a Components V2 message (a panel of the current format)?"""
    flags = getattr(message, "flags", None)
    return bool(getattr(flags, "components_v2", False))


async def answer_panel(bot, interaction: discord.Interaction, snap, seat: int, panel: "messages.Panel") -> bool:
    """Answer a click by redrawing the clicked message with ``panel``; the fan-out learns what
    the panel shows (or that it must draw it, when the answer failed).  A clicked message of an
    older format (text, image and buttons) cannot become a container: it says it was replaced
    and the fan-out sends a new panel.  When Discord refuses one of its emojis, the panel is drawn
    again as it was (``Panel.how``) with the emojis left."""
    clicked = _clicked_id(interaction)
    if interaction.message is not None and not _is_layout(interaction.message):
        replaced = t("panel.replaced" if interaction.guild_id is None else "panel.replaced_here", panel.lang)
        await answer(edit_clicked(interaction, content=replaced, embeds=[], attachments=[], view=None))
        bot.fanout.panel_lost(snap.channel_id, seat)
        return False
    async def send(again: bool) -> None:  # drawn anew if Discord refuses one of its emojis
        drawn = messages.panel_of(snap, seat, emojis=bot.tile_emojis, **panel.how) if again else panel
        await edit_clicked(interaction, **messages.panel_payload(drawn))

    if await answer(sending_panel(bot, send)):
        bot.fanout.panel_answered(snap.channel_id, seat, clicked, panel)
        return True
    bot.fanout.panel_lost(snap.channel_id, seat)
    return False


async def send_hand(bot, interaction: discord.Interaction, channel_id: int | None = None) -> None:
    """Answer privately with the user's panel — their hand, the table, the buttons for their
    decision — from the latest snapshot (``/mj hand`` and the table message's **My hand**)."""
    lang = await remember_lang(interaction)
    try:
        snap = bot.service.snapshot(channel_id) if channel_id else snapshot_for(bot.service, interaction)
        seat = snap.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_seated")
        if snap.hand_id is None:
            raise ServiceError("no_hand")
        if not snap.parts[seat].dealt:  # sat down since the deal: the hand was another player's
            raise ServiceError("hand_at_next_deal", seat=seat + 1)
    except ServiceError as e:
        return await reply_error(interaction, e)
    async def send(again: bool) -> None:  # drawn anew each time: Discord may refuse one of its emojis
        payload = messages.panel_payload(messages.panel_of(snap, seat, lang=lang, emojis=bot.tile_emojis))
        await reply(interaction, ephemeral=True, **payload)

    await sending_panel(bot, send)


async def on_action_button(bot, interaction: discord.Interaction, button) -> None:
    """A click on an action button (or a choice in an action menu,
    ``cogs.components.ActionButton``): checked, stored, then the clicked message is redrawn
    in place."""
    lang = await remember_lang(interaction)
    service = bot.service
    if interaction.guild_id is None and not service.is_open(button.ch):
        # a DM click for a table another bot process owns goes there through the database
        if await forward_click(bot, interaction, button):
            return
    try:
        snap, seat = check_press(service, button.ch, interaction.user.id, button.act, button.hand, button.seq)
        panel = redraw_only(snap, seat, button.act, button.tile, lang, bot.tile_emojis)
        if panel is not None:
            await answer_panel(bot, interaction, snap, seat, panel)
            return
        key = press_key(button.act, button.tile)
    except (ServiceError, IllegalAction) as e:
        return await reply_error(interaction, e)
    async with answering(bot, button.ch):  # the table hears after this player
        try:
            change = await within(interaction, service.press(button.ch, interaction.user.id, key, hand_id=button.hand,
                                                             seq=button.seq), update=True)
        except (ServiceError, IllegalAction) as e:
            return await reply_error(interaction, e)
        # the move is stored already: the answer shows the snapshot after it
        notices = change.notices.get(seat, ())
        panel = messages.panel_of(change.snapshot, seat, notices=notices, lang=lang, emojis=bot.tile_emojis)
        await answer_panel(bot, interaction, change.snapshot, seat, panel)


# ------------------------------------------------------------------ the play verbs
class Play(commands.Cog):
    """The typed moves of a hand in progress."""

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service

    async def on_action_button(self, interaction: discord.Interaction, button) -> None:
        """An action button or menu (``cogs.components``) — see :func:`on_action_button`."""
        await on_action_button(self.bot, interaction, button)

    def _part(self, interaction: discord.Interaction):
        """``(snapshot, the user's seat part)`` of the table the interaction is about, or
        ``(None, None)``."""
        try:
            snap = snapshot_for(self.service, interaction)
        except ServiceError:
            return None, None
        part = snap.part_of(interaction.user.id)
        return (snap, part) if part is not None and part.dealt else (snap, None)

    def _legal(self, interaction: discord.Interaction, types: tuple[str, ...]) -> list[str]:
        _, part = self._part(interaction)
        return [m.tile for m in (part.moves if part else ()) if m.type in types and m.tile]

    def _choices(self, tiles: list[str], current: str, lang: str) -> list[app_commands.Choice[str]]:
        seen, out = set(), []
        cur = current.strip().lower()
        for tile in tiles:
            if tile in seen:
                continue
            seen.add(tile)
            try:
                zh, en = kind_name(parse_kind(tile), "zh"), kind_name(parse_kind(tile), "en")
            except (TileParseError, ValueError):
                zh = en = ""
            label = f"{zh} {tile}" if lang_of(lang).startswith("zh") else f"{tile} {en} {zh}"
            if not cur or cur in label.lower():
                out.append(app_commands.Choice(name=label.strip()[:100], value=tile))
        return out[:25]

    async def _discard_ac(self, interaction: discord.Interaction, current: str):
        return self._choices(self._legal(interaction, ("discard",)), current, user_lang(interaction))

    async def _ting_ac(self, interaction: discord.Interaction, current: str):
        return self._choices(self._legal(interaction, ("ting",)), current, user_lang(interaction))

    async def _chow_ac(self, interaction: discord.Interaction, current: str):
        if not self._legal(interaction, ("chow",)):  # the game's own 吃 (字牌, 老五对)
            return [c for c in await self._act_ac(interaction, current)
                    if c.value.split()[0] == "chi" or c.value.startswith("chi_")]
        out = []
        for s in self._legal(interaction, ("chow",)):
            try:
                k = parse_kind(s)
            except (TileParseError, ValueError):
                continue
            label = "".join(str((k + i) % 9 + 1) for i in range(3)) + s[-1]
            if not current or current in label:
                out.append(app_commands.Choice(name=label, value=s))
        return out[:25]

    async def _kong_ac(self, interaction: discord.Interaction, current: str):
        return self._choices(self._legal(interaction, ("kong",)), current, user_lang(interaction))

    @app_commands.command(name="discard", description="Discard a tile (e.g. 5m, 7z)")
    @app_commands.describe(tile="The tile to discard")
    @app_commands.autocomplete(tile=_discard_ac)
    async def discard(self, interaction: discord.Interaction, tile: str) -> None:
        await self._act(interaction, "discard", tile)

    @app_commands.command(name="ting", description="Declare ready with a discard")
    @app_commands.describe(tile="The tile to discard while declaring ready")
    @app_commands.autocomplete(tile=_ting_ac)
    async def ting(self, interaction: discord.Interaction, tile: str | None = None) -> None:
        await self._act(interaction, "ting", tile)

    @app_commands.command(name="chow", description="Claim the discard for a chow")
    @app_commands.describe(tiles="Which chow, when several are possible")
    @app_commands.autocomplete(tiles=_chow_ac)
    async def chow(self, interaction: discord.Interaction, tiles: str | None = None) -> None:
        await self._act(interaction, "chow", tiles)

    @app_commands.command(name="pung", description="Claim the discard for a pung")
    async def pung(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "pung", None)

    @app_commands.command(name="kong", description="Kong: claim the discard, or name your own concealed/added kong")
    @app_commands.describe(tile="Your own kong's tile (leave empty to claim the discard)")
    @app_commands.autocomplete(tile=_kong_ac)
    async def kong(self, interaction: discord.Interaction, tile: str | None = None) -> None:
        await self._act(interaction, "kong", tile)

    @app_commands.command(name="hu", description="Declare a win")
    async def hu(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "hu", None)

    @app_commands.command(name="double", description="Double instead of winning now")
    async def double(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "double", None)

    @app_commands.command(name="pass", description="Let the discard go")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "pass", None)

    async def _act_ac(self, interaction: discord.Interaction, current: str):
        snap, part = self._part(interaction)
        if part is None:
            return []
        lang = user_lang(interaction)
        view = dict(part.view, lang=lang)
        return [app_commands.Choice(name=c.label[:100], value=c.value[:100])
                for c in suggest(current, view, snap.game, lang)]

    @app_commands.command(name="act", description="Any action of your game, typed as you read it (碰, 吃 肆伍陆, 买庄 …)")
    @app_commands.describe(action="The action: its button's words, the game's term, or a tile to discard")
    @app_commands.autocomplete(action=_act_ac)
    async def act(self, interaction: discord.Interaction, action: str) -> None:
        await self._act(interaction, None, action)

    async def _act(self, interaction: discord.Interaction, verb: str | None, text: str | None) -> None:
        """A typed move — a play verb (``verb``, with its tile) or the typed action command
        (``verb=None``, ``text`` = the typed text), read by the service: a refusal is answered
        at once; the move is stored, then the player gets their panel as it is now (the rest of
        the table hears it from the table's fan-out)."""
        lang = await remember_lang(interaction)
        uid = interaction.user.id
        channel = None if interaction.guild_id is None else interaction.channel_id
        try:
            snap, seat, move = self.service.interpret(channel, uid, text, verb=verb)
        except (ServiceError, IllegalAction) as e:
            return await reply_error(interaction, e)
        part = snap.parts[seat]
        async with answering(self.bot, snap.channel_id):  # the table hears after this player
            try:
                change = await within(interaction, self.service.act(
                    snap.channel_id, uid, move.type, move.kind, hand_id=snap.hand_id,
                    seq=part.decision[1] if part.decision else None))
            except (ServiceError, IllegalAction) as e:
                return await reply_error(interaction, e)
            async def send(again: bool) -> None:  # drawn anew each time: Discord may refuse one of its emojis
                payload = messages.panel_payload(messages.panel_of(
                    change.snapshot, seat, notices=change.notices.get(seat, ()), lang=lang,
                    emojis=self.bot.tile_emojis))
                await reply(interaction, ephemeral=True, **payload)

            await answer(sending_panel(self.bot, send))  # the move is stored already


async def setup(bot) -> None:
    await bot.add_cog(Play(bot))
