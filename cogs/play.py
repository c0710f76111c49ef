"""Playing a hand: the play verbs (``/discard``, ``/ting``, ``/chow``, ``/pung``, ``/kong``,
``/hu``, ``/double``, ``/pass`` — one short word each, the only top-level commands of the
bot), ``/mj hand``, and the action buttons and menus of a player's hand message.

Every path asks the one "may this user act now" check (``TableService.may_act``) before it
stores anything; the player is answered as soon as the move is stored and the table hears of
it afterwards, from the table's fan-out (``cogs/fanout.py``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.errors import IllegalAction
from engine.tiles import TileParseError, kind_name, parse_kind
from render.text import lang_of
from render.text.typed import TypedActionError, parse as parse_typed, shared_verb, suggest, verb_means
from service.tables import ServiceError, Table

from . import messages
from .common import (answer, answering, edit_clicked, remember_lang, reply, reply_error, table_for, user_lang,
                     within)
from .press import check_press, parse_tile, press_move, redraw_only
from .routing import forward_click

def _clicked_id(interaction: discord.Interaction) -> int | None:
    """The id of the message whose component was used (``None`` when unknown)."""
    return getattr(interaction.message, "id", None)


def panel_edit(bot, table: Table, seat: int, interaction: discord.Interaction, parts, kwargs: dict) -> dict:
    """The edit of a clicked message that shows ``parts``: its text and buttons, and its image
    unless the clicked message is the player's panel and already shows that image."""
    out = {"content": kwargs["content"], "view": kwargs["view"]}
    if bot.fanout.panel_image_of(table, seat, _clicked_id(interaction)) != messages.png_digest(kwargs["file"]):
        out["attachments"] = [kwargs["file"]]
    return out


def _legal_acts(table: Table, user_id: int) -> set[str]:
    """The kinds of action (``discard``, ``pung``, ``chi_d`` …) the user's seat may make now;
    empty when they are not seated or no hand is played."""
    seat = table.seat_of(user_id)
    if seat is None or table.hand is None:
        return set()
    legal = (messages.seat_view(table, seat, "en").get("me") or {}).get("legal") or []
    return {line.split()[1] for line in legal if len(line.split()) > 1}


def _seat(table: Table, user_id: int) -> int:
    seat = table.seat_of(user_id)
    if seat is None:
        raise ServiceError("not_seated")
    return seat


async def send_hand(bot, interaction: discord.Interaction, channel_id: int | None = None) -> None:
    """Answer privately with the user's hand image and the buttons for their decision
    (``/mj hand`` and the table message's **My hand** button)."""
    lang = await remember_lang(interaction)
    try:
        table = bot.service.table_in(channel_id) if channel_id else table_for(bot.service, interaction)
        seat = _seat(table, interaction.user.id)
        if table.hand is None:
            raise ServiceError("no_hand")
        if not table.dealt_to(seat):  # sat down since the deal: the hand was another player's
            raise ServiceError("hand_at_next_deal", seat=seat + 1)
    except ServiceError as e:
        return await reply_error(interaction, e)
    kwargs = await messages.hand_message(table, seat, lang)
    if kwargs.get("view") is None:
        kwargs.pop("view")
    await reply(interaction, ephemeral=True, **kwargs)


async def on_action_button(bot, interaction: discord.Interaction, button) -> None:
    """A click on an action button (or a choice in an action menu,
    ``cogs.components.ActionButton``): checked, stored, then the clicked message is redrawn
    in place."""
    lang = await remember_lang(interaction)
    service = bot.service
    if interaction.guild_id is None and button.ch not in service.tables:
        # a DM click for a table another bot process owns goes there through the database
        if await forward_click(bot, interaction, button):
            return
    try:
        table, seat = check_press(service, button.ch, interaction.user.id, button.act, button.hand, button.seq)
        redrawn = await redraw_only(table, seat, button.act, button.tile, lang)
        if redrawn is not None:
            parts, kwargs = redrawn
            if await answer(edit_clicked(interaction, **panel_edit(bot, table, seat, interaction, parts, kwargs))):
                bot.fanout.panel_answered(table, seat, _clicked_id(interaction), parts,
                                          messages.png_digest(kwargs["file"]))
            return
        act, kind = press_move(button.act, button.tile)
    except (ServiceError, IllegalAction) as e:
        return await reply_error(interaction, e)
    async with answering(bot, button.ch):  # the table hears after this player
        try:
            upd = await within(interaction, service.act(button.ch, interaction.user.id, act, kind,
                                                        seq=button.seq, hand_id=button.hand), update=True)
        except (ServiceError, IllegalAction) as e:
            return await reply_error(interaction, e)
        parts, kwargs = await messages.hand_panel(table, seat, lang, notices=upd.notices.get(seat))
        # the action is stored already
        if await answer(edit_clicked(interaction, **panel_edit(bot, table, seat, interaction, parts, kwargs))):
            bot.fanout.panel_answered(table, seat, _clicked_id(interaction), parts, messages.png_digest(kwargs["file"]))
        else:  # the clicked panel was not redrawn: the fan-out draws it
            bot.fanout.panel_lost(table, seat)


# ------------------------------------------------------------------ the play verbs
class Play(commands.Cog):
    """The typed moves of a hand in progress."""

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service

    async def on_action_button(self, interaction: discord.Interaction, button) -> None:
        """An action button or menu (``cogs.components``) — see :func:`on_action_button`."""
        await on_action_button(self.bot, interaction, button)

    def _legal(self, interaction: discord.Interaction, types: tuple[str, ...]) -> list[str]:
        try:
            table = table_for(self.service, interaction)
            seat = _seat(table, interaction.user.id)
        except ServiceError:
            return []
        me = (messages.seat_view(table, seat, user_lang(interaction)).get("me") or {}) if table.hand else {}
        out = []
        for line in me.get("legal", []):
            words = line.split()[1:]
            if words and words[0] in types and len(words) > 1:
                out.append(words[1])
        return out

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
        if tiles is None:
            options = self._legal(interaction, ("chow",))
            if len(options) > 1:
                return await reply_error(interaction, ServiceError("chow_choice", choices=", ".join(options)))
            tiles = options[0] if options else None
            if tiles is None and not self._owns_chow(interaction):
                return await reply_error(interaction, IllegalAction("cannot_claim", claim="chow"))
        await self._act(interaction, "chow", tiles)  # a game's own 吃 (字牌, 老五对): read as typed

    def _owns_chow(self, interaction: discord.Interaction) -> bool:
        """Whether the user may now make a game's own 吃 (``chi``, ``chi_…``)."""
        try:
            table = table_for(self.service, interaction)
        except ServiceError:
            return False
        return any(verb_means("chow", a) and a != "chow" for a in _legal_acts(table, interaction.user.id))

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
        try:
            table = table_for(self.service, interaction)
            seat = _seat(table, interaction.user.id)
        except ServiceError:
            return []
        if table.hand is None:
            return []
        lang = user_lang(interaction)
        view = messages.seat_view(table, seat, lang)
        return [app_commands.Choice(name=c.label[:100], value=c.value[:100])
                for c in suggest(current, view, table.variant.id, lang)]

    @app_commands.command(name="act", description="Any action of your game, typed as you read it (碰, 吃 肆伍陆, 买庄 …)")
    @app_commands.describe(action="The action: its button's words, the game's term, or a tile to discard")
    @app_commands.autocomplete(action=_act_ac)
    async def act(self, interaction: discord.Interaction, action: str) -> None:
        await self._act(interaction, None, action)

    def _typed(self, table: Table, user_id: int, texts: list[str], lang: str,
               verb: str | None = None) -> tuple[str, int | None]:
        """The move the first of ``texts`` that names one among the seat's legal actions
        names (``render.text.typed``) — with ``verb``, only an action that verb may mean;
        the first text's refusal otherwise."""
        seat = _seat(table, user_id)
        view = messages.seat_view(table, seat, lang)
        first = None
        for text in texts:
            try:
                choice = parse_typed(text, view, table.variant.id, lang)
                if verb is not None and not verb_means(verb, choice.act):
                    raise TypedActionError("unknown_action", value=text, choices="")
                return choice.act, parse_tile(choice.tile)
            except TypedActionError as e:
                first = first or e
        raise ServiceError(first.code, **first.params)

    def _verb_is_the_games(self, table: Table, user_id: int, act: str) -> bool:
        """Whether the seat's legal actions use the verb as it is (``pung`` in the mahjong
        games) — else a verb reads as the game's own word for it (``/pung`` is 字牌's 碰)."""
        acts = _legal_acts(table, user_id)
        return not acts or act in acts

    async def _act(self, interaction: discord.Interaction, act: str | None, tile: str | None) -> None:
        """A typed move — a play verb (``act``, with its tile) or the typed action command
        (``act=None``, ``tile`` = the typed text): the cheap checks answer at once; the move
        is stored, then the player gets their hand as it is now (the rest of the table hears
        it from the table's fan-out)."""
        lang = await remember_lang(interaction)
        try:
            table = table_for(self.service, interaction)
            move = None
            if act is None:
                self.service.may_act(table, interaction.user.id)
                try:
                    move = self._typed(table, interaction.user.id, [tile or ""], lang)
                except ServiceError as e:
                    # a shared verb that names no legal action now (胡 below the minimum): the
                    # engine's refusal says why, as the verb's own command would
                    verb = shared_verb(tile or "")
                    if e.code != "unknown_action" or verb is None:
                        raise
                    act, tile = verb
            elif not self._verb_is_the_games(table, interaction.user.id, act):
                # the verb as the game's own word (/pung is 字牌's 碰); its argument may be a
                # typed action itself (the game's own 吃 offered by /chow's autocomplete)
                self.service.may_act(table, interaction.user.id)
                try:
                    move = self._typed(table, interaction.user.id, [f"{act} {tile or ''}"] + ([tile] if tile else []),
                                       lang, verb=act)
                except ServiceError as e:
                    if e.code != "unknown_action":
                        raise
            if move is None and act is not None and tile and self._verb_is_the_games(table, interaction.user.id, act):
                # a tile as its button names it (字牌's small 三) is read among the legal actions
                try:
                    self.service.may_act(table, interaction.user.id)
                    move = self._typed(table, interaction.user.id, [f"{act} {tile}"], lang, verb=act)
                except ServiceError as e:
                    if e.code != "unknown_action":
                        raise
            if move is None:  # the verb as it is: the engine's refusal says why it cannot be done
                kind = parse_tile(tile)
                if act == "discard" and kind is None:
                    raise ServiceError("tile_missing")
                self.service.may_act(table, interaction.user.id)
            else:
                act, kind = move
        except (ServiceError, IllegalAction) as e:
            return await reply_error(interaction, e)
        async with answering(self.bot, table.channel_id):  # the table hears after this player
            try:
                upd = await within(interaction, self.service.act(table.channel_id, interaction.user.id, act, kind))
            except (ServiceError, IllegalAction) as e:
                return await reply_error(interaction, e)
            seat = table.seat_of(interaction.user.id)
            kwargs = await messages.hand_message(table, seat, lang, notices=upd.notices.get(seat))
            if kwargs.get("view") is None:
                kwargs.pop("view")
            await answer(reply(interaction, ephemeral=True, **kwargs))  # the action is stored already


async def setup(bot) -> None:
    await bot.add_cog(Play(bot))
