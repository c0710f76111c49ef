"""Playing: ``/discard``, the claims (``/chow /pung /kong /hu /ting /double /pass``),
``/hand``, and the action buttons of a player's hand message."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.errors import IllegalAction
from engine.tiles import TileParseError, kind_name, kind_str, parse_kind
from render.text import lang_of
from service.tables import ServiceError, Table

from . import ui
from .common import answer, answering, edit_clicked, reply, reply_error, table_for, user_lang, within

#: button actions that only redraw the player's message (no move)
LOOK_ONLY = ("prompt", "ting_menu")


def _seat(table: Table, user_id: int) -> int:
    seat = table.seat_of(user_id)
    if seat is None:
        raise ServiceError("not_seated")
    return seat


def _parse_tile(text: str | None) -> int | None:
    """A typed or clicked tile → its kind; ``None`` when blank; ``unknown_tile`` (quoting at
    most a short, sanitized piece of the input) when unreadable."""
    if text is None or text.strip() in ("", "-"):
        return None
    try:
        return parse_kind(text.strip())
    except (TileParseError, ValueError):
        raise ServiceError("unknown_tile", tile=text) from None


class Play(commands.Cog):
    """The commands and buttons of a hand in progress."""

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service

    # ------------------------------------------------------------------ autocomplete
    def _legal(self, interaction: discord.Interaction, types: tuple[str, ...]) -> list[str]:
        try:
            table = table_for(self.service, interaction)
            seat = _seat(table, interaction.user.id)
        except ServiceError:
            return []
        if table.hand is None or table.hand.is_over():
            return []
        out = []
        for a in table.hand.legal_actions(seat):
            if a.type in types and a.kind is not None:
                out.append(kind_str(a.kind))
        return out

    def _choices(self, tiles: list[str], current: str, lang: str) -> list[app_commands.Choice[str]]:
        seen, out = set(), []
        cur = current.strip().lower()
        for tile in tiles:
            if tile in seen:
                continue
            seen.add(tile)
            zh = kind_name(parse_kind(tile), "zh")
            en = kind_name(parse_kind(tile), "en")
            label = f"{zh} {tile}" if lang_of(lang).startswith("zh") else f"{tile} {en} {zh}"
            if not cur or cur in label.lower():
                out.append(app_commands.Choice(name=label, value=tile))
        return out[:25]

    async def _discard_ac(self, interaction: discord.Interaction, current: str):
        return self._choices(self._legal(interaction, ("discard",)), current, user_lang(interaction))

    async def _ting_ac(self, interaction: discord.Interaction, current: str):
        return self._choices(self._legal(interaction, ("ting",)), current, user_lang(interaction))

    async def _chow_ac(self, interaction: discord.Interaction, current: str):
        starts = self._legal(interaction, ("chow",))
        out = []
        for s in starts:
            k = parse_kind(s)
            label = "".join(str((k + i) % 9 + 1) for i in range(3)) + s[-1]
            if not current or current in label:
                out.append(app_commands.Choice(name=label, value=s))
        return out

    async def _kong_ac(self, interaction: discord.Interaction, current: str):
        return self._choices(self._legal(interaction, ("kong",)), current, user_lang(interaction))

    # ------------------------------------------------------------------ commands
    @app_commands.command(name="discard", description="Discard a tile (e.g. 5m, 7z, 五万, 白板)")
    @app_commands.describe(tile="The tile to discard")
    @app_commands.autocomplete(tile=_discard_ac)
    async def discard(self, interaction: discord.Interaction, tile: str) -> None:
        await self._act(interaction, "discard", tile)

    @app_commands.command(name="ting", description="Declare ready (听) with a discard")
    @app_commands.describe(tile="The tile to discard while declaring ready")
    @app_commands.autocomplete(tile=_ting_ac)
    async def ting(self, interaction: discord.Interaction, tile: str | None = None) -> None:
        await self._act(interaction, "ting", tile)

    @app_commands.command(name="chow", description="Claim the discard for a chow (吃)")
    @app_commands.describe(tiles="Which chow, when several are possible")
    @app_commands.autocomplete(tiles=_chow_ac)
    async def chow(self, interaction: discord.Interaction, tiles: str | None = None) -> None:
        if tiles is None:
            options = self._legal(interaction, ("chow",))
            if len(options) > 1:
                return await reply_error(interaction, ServiceError("chow_choice", choices=", ".join(options)))
            tiles = options[0] if options else None
            if tiles is None:
                return await reply_error(interaction, IllegalAction("cannot_claim", claim="chow"))
        await self._act(interaction, "chow", tiles)

    @app_commands.command(name="pung", description="Claim the discard for a pung (碰)")
    async def pung(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "pung", None)

    @app_commands.command(name="kong", description="Kong (杠): claim the discard, or name your own concealed/added kong")
    @app_commands.describe(tile="Your own kong's tile (leave empty to claim the discard)")
    @app_commands.autocomplete(tile=_kong_ac)
    async def kong(self, interaction: discord.Interaction, tile: str | None = None) -> None:
        await self._act(interaction, "kong", tile)

    @app_commands.command(name="hu", description="Declare a win (胡)")
    async def hu(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "hu", None)

    @app_commands.command(name="double", description="Double (加倍) instead of winning now")
    async def double(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "double", None)

    @app_commands.command(name="pass", description="Let the discard go (过)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "pass", None)

    @app_commands.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.send_hand(interaction)

    # ------------------------------------------------------------------ shared
    async def _act(self, interaction: discord.Interaction, act: str, tile: str | None) -> None:
        """A typed action: the cheap checks answer at once; the move is stored, then the
        player gets their hand as it is now (the rest of the table hears it from the
        table's fan-out)."""
        lang = user_lang(interaction)
        self.bot.user_langs[interaction.user.id] = lang
        try:
            table = table_for(self.service, interaction)
            kind = _parse_tile(tile)
            if act == "discard" and kind is None:
                raise ServiceError("tile_missing")
            self.service.may_act(table, interaction.user.id)
        except (ServiceError, IllegalAction) as e:
            return await reply_error(interaction, e)
        async with answering(self.bot, table.channel_id):  # the table hears after this player
            try:
                upd = await within(interaction, self.service.act(table.channel_id, interaction.user.id, act, kind))
            except (ServiceError, IllegalAction) as e:
                return await reply_error(interaction, e)
            seat = table.seat_of(interaction.user.id)
            kwargs = await ui.hand_message(table, seat, lang, notices=upd.notices.get(seat))
            if kwargs.get("view") is None:
                kwargs.pop("view")
            await answer(reply(interaction, ephemeral=True, **kwargs))  # the action is stored already

    async def send_hand(self, interaction: discord.Interaction, channel_id: int | None = None) -> None:
        """Answer privately with the user's hand image and the buttons for their decision."""
        lang = user_lang(interaction)
        self.bot.user_langs[interaction.user.id] = lang
        try:
            table = self.service.table_in(channel_id) if channel_id else table_for(self.service, interaction)
            seat = _seat(table, interaction.user.id)
            if table.hand is None:
                raise ServiceError("no_hand")
        except ServiceError as e:
            return await reply_error(interaction, e)
        kwargs = await ui.hand_message(table, seat, lang)
        if kwargs.get("view") is None:
            kwargs.pop("view")
        await reply(interaction, ephemeral=True, **kwargs)

    async def on_action_button(self, interaction: discord.Interaction, button: ui.ActionButton) -> None:
        """A click on an action button (or a choice in an action menu): checked by the one
        "may act" rule, stored, then the clicked message is redrawn in place."""
        lang = user_lang(interaction)
        self.bot.user_langs[interaction.user.id] = lang
        # --- sharding hook: a DM click for a table another bot process owns goes to that
        # process through the database (bot.forward_click, service/routing.py) ---
        if interaction.guild_id is None and button.ch not in self.service.tables \
                and getattr(self.bot, "router", None) is not None and await self.bot.forward_click(interaction, button):
            return
        # --- end of the sharding hook ---
        try:
            table = self.service.table_in(button.ch)
            seat = self.service.may_act(table, interaction.user.id, hand_id=button.hand, seq=button.seq,
                                        waited=button.act not in LOOK_ONLY)
            if button.act in LOOK_ONLY:
                kwargs = await ui.hand_message(table, seat, lang, ting_menu=button.act == "ting_menu")
                return await answer(edit_clicked(interaction, content=kwargs["content"],
                                                 attachments=[kwargs["file"]], view=kwargs["view"]))
            act = button.act
            view = table.hand.view(seat)
            if act == "discard" and view.get("wild") and ui.is_wild(view, button.tile) \
                    and not getattr(table.hand, "CONFIRMS_WILD_DISCARD", False):
                # discarding a wild tile (财神/百搭) asks first
                kwargs = await ui.hand_message(table, seat, lang, confirm_wild=button.tile)
                return await answer(edit_clicked(interaction, content=kwargs["content"],
                                                 attachments=[kwargs["file"]], view=kwargs["view"]))
            if act == "wdiscard":
                act = "discard"
            kind = _parse_tile(button.tile)
        except (ServiceError, IllegalAction) as e:
            return await reply_error(interaction, e)
        async with answering(self.bot, button.ch):  # the table hears after this player
            try:
                upd = await within(interaction, self.service.act(button.ch, interaction.user.id, act, kind,
                                                                 seq=button.seq, hand_id=button.hand), update=True)
            except (ServiceError, IllegalAction) as e:
                return await reply_error(interaction, e)
            kwargs = await ui.hand_message(table, seat, lang, notices=upd.notices.get(seat))
            await answer(edit_clicked(interaction, content=kwargs["content"], attachments=[kwargs["file"]],
                                      view=kwargs["view"]))  # the action is stored already


async def setup(bot) -> None:
    await bot.add_cog(Play(bot))
