"""``/table …`` commands and the buttons of the public table message.

What the bot shows after a change (the public message, the players' DMs) is sent by the
table's fan-out task (``cogs/fanout.py``), which this cog registers as the service's
listener; the commands here answer as soon as the service stored the change.
"""

from __future__ import annotations

import logging
import shlex

import discord
from discord import app_commands
from discord.ext import commands

from engine.variants import all_variants, find_variant
from render.text import prompts, table_message
from service.tables import ServiceError

from . import ui
from .common import answer, is_admin, reply, reply_error, user_lang, within
from .fanout import Fanout

log = logging.getLogger(__name__)


def parse_options(text: str | None) -> dict:
    """``"base_points=2 min_fan=10"`` → ``{"base_points": "2", "min_fan": "10"}``
    (values are checked by the variant's option declarations)."""
    out = {}
    if not text:
        return out
    try:
        words = shlex.split(text)
    except ValueError:  # an unclosed quotation mark
        raise ServiceError("option_syntax") from None
    for word in words:
        if "=" not in word:
            raise ServiceError("option_syntax")
        k, v = word.split("=", 1)
        out[k.strip()] = v.strip()
    return out


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Suggest the next ``key=value`` of the chosen game's options: unknown keys first, then
    the allowed values of the key being typed."""
    variant = getattr(interaction.namespace, "variant", None) or "two_player"
    try:
        info = find_variant(variant)
    except KeyError:
        return []
    lang = user_lang(interaction)
    words = current.split(" ")
    done, last = words[:-1], words[-1]
    prefix = " ".join(done) + (" " if done else "")
    used = {w.split("=", 1)[0] for w in done if "=" in w}
    out: list[app_commands.Choice[str]] = []
    if "=" in last:
        key, typed = last.split("=", 1)
        opt = next((o for o in info.options if o.name == key), None)
        if opt is not None:
            if opt.choices is not None:
                values = list(opt.choices)
            elif opt.type is bool:
                values = [True, False]
            else:
                lo, hi = opt.min_value or 0, opt.max_value or opt.default * 4
                values = sorted({opt.default, lo, hi, *(v for v in (1, 2, 3, 5, 8, 10, 15, 20, 30, 60) if lo <= v <= hi)})
            for v in values:
                text = str(v).lower() if isinstance(v, bool) else str(v)
                if text.startswith(typed):
                    out.append(app_commands.Choice(name=(prefix + f"{key}={text}")[:100], value=(prefix + f"{key}={text}")[:100]))
        return out[:25]
    for opt in info.options:
        if opt.name in used or not opt.name.startswith(last):
            continue
        desc = opt.zh if lang.startswith("zh") else opt.en
        value = prefix + f"{opt.name}={opt.default if opt.type is not bool else str(opt.default).lower()}"
        out.append(app_commands.Choice(name=f"{value} — {desc}"[:100], value=value[:100]))
    return out[:25]


async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Presets of the chosen game: the server's, then the shipped ones."""
    variant = getattr(interaction.namespace, "variant", None) or "two_player"
    names = await interaction.client.settings.preset_names(interaction.guild_id, variant)
    return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]


class Tables(commands.Cog):
    """Creating, joining and running tables; the public table message."""

    table = app_commands.Group(name="table", description="Mahjong table: create, join, start, end",
                               guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service
        self.fanout = Fanout(bot)
        self.service.listeners.append(self.fanout.on_update)

    async def cog_unload(self) -> None:
        if self.fanout.on_update in self.service.listeners:
            self.service.listeners.remove(self.fanout.on_update)
        self.fanout.stop()

    # ------------------------------------------------------------------ commands
    @table.command(name="create", description="Open a table in this channel")
    @app_commands.describe(variant="The game", preset="A saved or shipped preset of options",
                           options="House options, e.g. base_points=2 min_fan=10")
    @app_commands.choices(variant=[app_commands.Choice(name=f"{v.name_zh} {v.name_en}", value=v.id)
                                   for v in all_variants()])
    @app_commands.autocomplete(preset=preset_autocomplete, options=options_autocomplete)
    async def create(self, interaction: discord.Interaction, variant: str = "two_player",
                     preset: str | None = None, options: str | None = None) -> None:
        self.bot.user_langs[interaction.user.id] = user_lang(interaction)
        try:
            opts = await self.bot.settings.new_table_options(interaction.guild_id, interaction.channel_id, variant,
                                                           preset, parse_options(options))
            await within(interaction, self.service.create_table(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id,
                name=interaction.user.display_name, variant=variant, options=opts, lang=user_lang(interaction)))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, table_message.created(variant, user_lang(interaction)))

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

    @table.command(name="takeover", description="Play your seat again after auto-play (托管)")
    async def takeover(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "takeover")

    @table.command(name="end", description="End this channel's table (creator or server admin)")
    async def end(self, interaction: discord.Interaction) -> None:
        try:
            await self.service.end(interaction.channel_id, interaction.user.id, is_admin(interaction))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, table_message.closed(user_lang(interaction)))

    async def _lobby_op(self, interaction: discord.Interaction, op: str, channel_id: int | None = None,
                        arg: int | None = None) -> None:
        lang = user_lang(interaction)
        self.bot.user_langs[interaction.user.id] = lang
        ch = channel_id or interaction.channel_id
        uid, name = interaction.user.id, interaction.user.display_name
        ops = {
            "join": lambda: self.service.join(ch, uid, name),
            "leave": lambda: self.service.leave(ch, uid),
            "addai": lambda: self.service.add_ai(ch, uid),
            "start": lambda: self.service.start(ch, uid),
            "next": lambda: self.service.next_hand(ch, uid, after_hand=arg),
            "takeover": lambda: self.service.take_over(ch, uid),
        }
        if op not in ops:
            return await reply_error(interaction, ServiceError("unknown_button"))
        table = self.service.tables.get(ch)
        seat = table.seat_of(uid) if table is not None else None
        was_auto = op == "join" and seat is not None and table.seats[seat].auto
        async with self.fanout.answering(ch):  # the table hears after this player
            try:
                await within(interaction, ops[op]())
            except ServiceError as e:
                return await reply_error(interaction, e)
            if op == "takeover" or was_auto:
                return await self._taken_over(interaction, ch, lang)
            await answer(reply(interaction, table_message.done(lang)))

    async def _taken_over(self, interaction: discord.Interaction, channel_id: int, lang: str) -> None:
        """Answer a take-over: the player's hand, and the buttons when they decide now."""
        table = self.service.tables.get(channel_id)
        seat = table.seat_of(interaction.user.id) if table is not None else None
        if table is None or seat is None or table.hand is None:
            return await answer(reply(interaction, prompts.taken_over(lang)))
        kwargs = await ui.hand_message(table, seat, lang, head=prompts.taken_over(lang))
        if kwargs.get("view") is None:
            kwargs.pop("view")
        await answer(reply(interaction, ephemeral=True, **kwargs))

    async def on_table_button(self, interaction: discord.Interaction, button: ui.TableButton) -> None:
        if button.op == "hand":
            return await self.bot.get_cog("Play").send_hand(interaction, channel_id=button.ch)
        await self._lobby_op(interaction, button.op, channel_id=button.ch, arg=button.arg)


async def setup(bot) -> None:
    await bot.add_cog(Tables(bot))
