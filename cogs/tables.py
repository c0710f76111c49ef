"""``/table …`` commands, the public table message, and the hands sent to players.

The public message (one per table) is edited in place after every change; each
player who must act gets their hand image with buttons by DM — or, when their DMs
are closed, a short mention in the channel pointing at the **My hand** button.
"""

from __future__ import annotations

import logging
import shlex

import discord
from discord import app_commands
from discord.ext import commands

from engine.variants import all_variants
from service.i18n import t
from service.tables import ServiceError, Table, Update

from . import ui
from .common import is_admin, reply, reply_error, table_for, user_lang

log = logging.getLogger(__name__)


def parse_options(text: str | None) -> dict:
    """``"base_points=2 min_fan=10"`` → ``{"base_points": "2", "min_fan": "10"}``
    (values are checked by the variant's option declarations)."""
    out = {}
    if not text:
        return out
    for word in shlex.split(text):
        if "=" not in word:
            raise ServiceError("option_syntax")
        k, v = word.split("=", 1)
        out[k.strip()] = v.strip()
    return out


class Tables(commands.Cog):
    """Creating, joining and running tables; the public table message."""

    table = app_commands.Group(name="table", description="Mahjong table: create, join, start, end",
                               guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service
        self.service.listeners.append(self.on_update)
        self.dm_channels: dict[int, int] = {}

    async def cog_unload(self) -> None:
        if self.on_update in self.service.listeners:
            self.service.listeners.remove(self.on_update)

    # ------------------------------------------------------------------ commands
    @table.command(name="create", description="Open a table in this channel")
    @app_commands.describe(variant="The game", options="House options, e.g. base_points=2 min_fan=10")
    @app_commands.choices(variant=[app_commands.Choice(name=f"{v.name_zh} {v.name_en}", value=v.id)
                                   for v in all_variants()])
    async def create(self, interaction: discord.Interaction, variant: str = "two_player",
                     options: str | None = None) -> None:
        self.bot.user_langs[interaction.user.id] = user_lang(interaction)
        try:
            await self.service.create_table(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                            user_id=interaction.user.id, name=interaction.user.display_name,
                                            variant=variant, options=parse_options(options),
                                            lang=user_lang(interaction))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, t("ui.created", user_lang(interaction), game=ui.game_name(variant, user_lang(interaction))))

    @table.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "join")

    @table.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "leave")

    @table.command(name="add-ai", description="Fill an empty seat with an AI player")
    async def add_ai(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "addai")

    @table.command(name="start", description="Start the game")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "start")

    @table.command(name="end", description="End this channel's table (creator or server admin)")
    async def end(self, interaction: discord.Interaction) -> None:
        try:
            await self.service.end(interaction.channel_id, interaction.user.id, is_admin(interaction))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, t("ui.closed", user_lang(interaction)))

    async def _lobby_op(self, interaction: discord.Interaction, op: str, channel_id: int | None = None) -> None:
        self.bot.user_langs[interaction.user.id] = user_lang(interaction)
        ch = channel_id or interaction.channel_id
        uid, name = interaction.user.id, interaction.user.display_name
        try:
            if op == "join":
                await self.service.join(ch, uid, name)
            elif op == "leave":
                await self.service.leave(ch, uid)
            elif op == "addai":
                await self.service.add_ai(ch, uid)
            elif op == "start":
                await self.service.start(ch, uid)
            elif op == "next":
                await self.service.next_hand(ch, uid)
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, t("ui.done", user_lang(interaction)))

    async def on_table_button(self, interaction: discord.Interaction, button: ui.TableButton) -> None:
        if button.op == "hand":
            return await self.bot.get_cog("Play").send_hand(interaction, channel_id=button.ch)
        await self._lobby_op(interaction, button.op, channel_id=button.ch)

    # ------------------------------------------------------------------ updates
    async def on_update(self, table: Table, update: Update) -> None:
        """Redraw the public message; prompt every human who must act now."""
        await self.refresh_public(table)
        if update.kind in ("lobby", "closed") or table.hand is None:
            return
        pending = set(table.hand.pending_seats()) if not table.hand.is_over() else set()
        prompted = table.extra.setdefault("prompted", {})
        for seat in sorted(update.seats_to_notify | pending):
            s = table.seats[seat]
            if s.is_ai or s.user_id is None or s.auto or seat == update.actor:
                continue
            if update.kind == "start" or seat in pending:
                if seat in pending and prompted.get(seat) == table.hand.seq:
                    continue
                if update.kind != "start" and seat not in pending:
                    continue
                prompted[seat] = table.hand.seq
                await self.send_prompt(table, seat)

    async def refresh_public(self, table: Table) -> None:
        view = ui.public_view(table)
        channel = self.bot.get_partial_messageable(table.channel_id)
        kwargs = {"embed": ui.table_embed(table, view)}
        if table.status == "closed":
            kwargs["embed"] = discord.Embed(description=t("ui.closed", table.lang))
            kwargs["view"] = None
        else:
            kwargs["view"] = ui.TableButtons(table)
        files = [await ui.table_image(view)] if table.status != "closed" and table.hand is not None else []
        try:
            if table.message_id:
                await channel.get_partial_message(table.message_id).edit(attachments=files, **kwargs)
                return
        except discord.NotFound:
            table.message_id = None
        except discord.HTTPException:
            log.warning("could not edit the table message of %s", table.channel_id)
            return
        if table.status == "closed":
            return
        try:
            msg = await channel.send(files=files, **kwargs)
        except discord.HTTPException:
            log.warning("could not post the table message in %s", table.channel_id)
            return
        await self.service.set_message(table, msg.id)

    async def send_prompt(self, table: Table, seat: int) -> None:
        """DM a player their hand (and buttons when they must act); fall back to a mention in
        the channel when their DMs are closed."""
        s = table.seats[seat]
        lang = self.bot.user_langs.get(s.user_id, table.lang)
        if s.dms_open:
            try:
                kwargs = await ui.hand_message(table, seat, lang)
                if kwargs.get("view") is None:
                    kwargs.pop("view")
                dm_id = self.dm_channels.get(s.user_id)
                if dm_id is None:
                    dm = await self.bot.create_dm(discord.Object(s.user_id))
                    dm_id = self.dm_channels[s.user_id] = dm.id
                await self.bot.get_partial_messageable(dm_id, type=discord.ChannelType.private).send(**kwargs)
                return
            except discord.Forbidden:
                s.dms_open = False
            except discord.HTTPException:
                log.warning("DM to %s failed", s.user_id)
                return
        if seat in (table.hand.pending_seats() if table.hand else []):
            channel = self.bot.get_partial_messageable(table.channel_id)
            try:
                await channel.send(t("ui.dm_fallback", lang, mention=f"<@{s.user_id}>"),
                                   allowed_mentions=discord.AllowedMentions(users=True))
            except discord.HTTPException:
                log.warning("could not post the DM fallback in %s", table.channel_id)


async def setup(bot) -> None:
    await bot.add_cog(Tables(bot))
