"""The Discord payloads of a table, as functions of its snapshot (``service/snapshot.py``): the
public table message (embed, image and buttons, from the public part only) and a player's
panel (a Components V2 container: words, the table as tiles, the hand as tile buttons and the
decision's buttons, from their seat's part; ``cogs/panel_layout.py``).

The table message stays an embed: it is mostly its image, which an embed shows as wide as a
media gallery would, with five buttons at most; the tables open when this version starts keep
their message (a message keeps its format for life) and nothing is gained by reposting them.  Words come from
``render.text``, images from ``render``; the components and their id formats are in
``cogs/components.py``."""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Optional

import discord

from render.emoji import BACK, CARD_BACK
from render.table import render_table
from render.text import alt, panel, prompts, table_message
from render.text.events import with_log

from .components import LobbySelect, TableButton
from .lobby_settings import paces_of, settings_items
from .emojis import FACE_DOWN, TileEmojis
from .markup import shown, shown_names, shown_result, shown_view
from .panel_layout import PanelLayout, panel_rows


# ------------------------------------------------------------------ views for the images
drawable = with_log  #: a snapshot part's view as the images draw it (``render.text.events``)


def text_view(view, names, lang: str, game) -> dict:
    """A snapshot part's view as the message text reads it: :data:`drawable` with every name
    shown as typed (``cogs/markup.py``)."""
    return shown_view(drawable(view, names, lang, game, shown=shown))


def _png(data: bytes, name: str, description: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=description)


async def table_image(snap) -> discord.File:
    """The table image of a snapshot's public part, described by its public sentence
    (``render.text.alt.table_alt``); drawn off the event loop."""
    view = drawable(snap.public.view, snap.public.names, snap.lang, snap.game)
    data = await asyncio.to_thread(render_table, view)
    return _png(data, "table.png", alt.table_alt(view, snap.game, snap.lang))


async def image_of(view: dict, game, lang: str, description: Optional[str] = None) -> discord.File:
    """A table image drawn from ``view`` (a replay step's), described by ``description`` or
    the view's public sentence."""
    data = await asyncio.to_thread(render_table, view)
    return _png(data, "table.png", description or alt.table_alt(view, game, lang))


# ------------------------------------------------------------------ the public message
def table_embed(snap) -> discord.Embed:
    """The embed of the public table message, from the snapshot's public part only (words:
    ``render.text.table_message``)."""
    pub, lang = snap.public, snap.lang
    view = text_view(pub.view, pub.names, lang, snap.game)
    lobby = snap.status == "lobby"
    e = discord.Embed(title=table_message.title(view, snap.game, lang),
                      description=table_message.body(view, snap.game, lang, max_players=snap.game.max_players,
                                                     result=shown_result(pub.result), hand_id=snap.hand_id,
                                                     result_timeout=snap.options.get("result_timeout", 30),
                                                     options=snap.options,
                                                     match_over=snap.closed and snap.match_id is not None),
                      colour=discord.Colour.blurple() if lobby else discord.Colour.dark_green())
    if not lobby:
        e.set_image(url="attachment://table.png")
    return e


def table_buttons(snap) -> Optional[discord.ui.View]:
    """The buttons of the public table message (none once the table closed); a lobby's also
    has its settings: the Rules button and three menus (``cogs/lobby_settings.py``)."""
    if snap.closed:
        return None
    view = discord.ui.View(timeout=None)
    lang, ch = snap.lang, snap.channel_id

    def add(op: str, style: discord.ButtonStyle, arg: int | None = None) -> None:
        view.add_item(TableButton(ch, op, table_message.button(op, lang), style, arg))

    if snap.status == "lobby":
        add("join", discord.ButtonStyle.success)
        add("addai", discord.ButtonStyle.secondary)
        add("start", discord.ButtonStyle.primary)
        add("leave", discord.ButtonStyle.danger)
        # the creator's settings until Start: Rules (row 1) and the shared options' menus
        for item in settings_items(snap, paces_of(snap.game.id), LobbySelect, TableButton):
            view.add_item(item)
        return view
    add("hand", discord.ButtonStyle.primary)
    if snap.public.joinable:  # a late player may sit down
        add("join", discord.ButtonStyle.success)
    if snap.public.takeover:
        add("takeover", discord.ButtonStyle.secondary)
    if snap.public.next_hand:
        add("next", discord.ButtonStyle.success, snap.hand_id)
    return view


def table_payload(snap) -> dict:
    """``{"embed", "view"}`` of the public message (the image is drawn apart)."""
    if snap.closed and not snap.final:
        return {"embed": discord.Embed(description=table_message.closed(snap.lang)), "view": None}
    return {"embed": table_embed(snap), "view": table_buttons(snap)}


def takeover_view(channel_id: int, lang: str) -> discord.ui.View:
    """The take-over button for a player on 托管 (sent with the auto-play notice)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(channel_id, "takeover", table_message.button("takeover", lang),
                              discord.ButtonStyle.primary))
    return view


def is_wild(view, tile: str) -> bool:
    """Is ``tile`` one of the view's wild kinds (财神, 百搭)?"""
    return tile in ((view.get("wild") or {}).get("kinds") or ())


# ------------------------------------------------------------------ a player's panel
@dataclass
class Panel:
    """A player's panel as drawn from their seat's part: its words (``content``), the table as
    tiles (``tiles``), its rows of buttons (``cogs/panel_layout.py``), the decision it shows
    (``None`` when the player has none), the part's ``version`` it shows; ``menu``: a look-only
    screen (the 听 menu, a wild tile's confirmation).  The panel carries no picture: its hand
    is its buttons, the table its tiles' emojis (the channel's table message has the image)."""

    content: str
    tiles: str
    rows: list
    decision: Optional[tuple]
    version: int
    game: object
    lang: str
    menu: bool = False
    hand_text: str = ""  #: the hand as tiles, for a panel without buttons
    #: how it was drawn (``panel_of``'s keywords but ``emojis``), to draw it again
    how: dict = field(default_factory=dict)

    @property
    def actions(self) -> int:
        """How many of its buttons and menus may be used now."""
        return sum(1 for row in self.rows for item in row if not getattr(item.item, "disabled", False))


#: Discord's most characters of text in a Components V2 message, and the most the panel's table
#: of tiles takes of them
TEXT_MOST, TILES_MOST = 4000, 3000
#: the colour of a panel's container: the player must decide (green) or waits (grey)
DECIDE, WAIT = discord.Colour.green(), discord.Colour.dark_grey()


def panel_of(snap, seat: int, *, ting_menu: bool = False, confirm_wild: str | None = None,
             notices: tuple = (), head: str | None = None, lang: str | None = None,
             emojis: TileEmojis | None = None) -> Panel:
    """The panel of ``seat`` from ``snap`` (its part; ``lang``: the language to write it in,
    the part's by default; ``emojis``: the tiles' emojis to show, text labels without).

    :param notices: catalogue keys of what the player must be told first (e.g.
        ``notice.ting_ignored`` after their move).
    :param head: a line to put first (e.g. "you play your seat again")."""
    part = snap.parts[seat]
    lang = lang or part.lang
    emojis = emojis if emojis is not None else TileEmojis()
    words = text_view(part.view, snap.public.names, lang, snap.game)
    decision = None
    if confirm_wild is not None:
        decision = prompts.confirm_wild_discard(confirm_wild, lang)
    elif ting_menu:
        decision = prompts.ting_hint(words, lang, snap.game)
    told = prompts.notices(list(notices or ()), words, seat, lang)
    if head:
        told.insert(0, head)
    content = panel.panel_text(words, shown_names(snap.public.names), lang, snap.game, f"<#{snap.channel_id}>",
                               deadline=part.deadline, head=told, decision=decision)
    names = shown_names(snap.public.names)

    back = emojis.named(CARD_BACK if getattr(snap.game, "paper", False) else BACK)

    def tile_text(tile: str | None) -> str:  # its emoji, else its short name in the player's language
        emoji = emojis.of(tile) if tile else back  # face down: the back
        if emoji is not None:
            return str(emoji)
        return prompts.short_tile(tile, lang) if tile else FACE_DOWN

    hand_text = panel.table_tiles({"me": part.view.get("me")}, names, lang, tile_text, hand=True)
    # the words, the table of tiles and (without buttons) the hand share Discord's 4,000 characters
    tiles = panel.table_tiles(part.view, names, lang, tile_text,
                              budget=min(TILES_MOST, TEXT_MOST - len(content) - len(hand_text) - 8))
    used = 1 + (1 if content else 0) + (1 if tiles else 0)
    rows = panel_rows(snap, part, lang, emojis, used=used, ting_menu=ting_menu, confirm_wild=confirm_wild)
    how = {"ting_menu": ting_menu, "confirm_wild": confirm_wild, "notices": notices, "head": head, "lang": lang}
    return Panel(content, tiles, rows, part.decision, part.version, snap.game, lang,
                 menu=ting_menu or confirm_wild is not None, hand_text=hand_text, how=how)


def panel_layout(p: Panel, buttons: bool = True) -> PanelLayout:
    """The panel's message (Components V2): one container with its words, its table of tiles
    and its rows; without ``buttons`` (a closed table) the hand is written as tiles instead."""
    if not buttons:
        return PanelLayout([p.content, p.tiles, p.hand_text.split("\n", 1)[-1]], [], WAIT)
    return PanelLayout([p.content, p.tiles], p.rows, DECIDE if p.decision is not None and not p.menu else WAIT)


def panel_payload(p: Panel, buttons: bool = True) -> dict:
    """Keyword arguments for send/edit: the panel's layout as ``view`` (no content, no file)."""
    return {"view": panel_layout(p, buttons)}


def notice_text(snap, seat: int, link: str) -> str:
    """The short DM that pings a player who must decide (``link``: their panel's URL)."""
    part = snap.parts[seat]
    view = text_view(part.view, snap.public.names, part.lang, snap.game)
    return panel.notice_text(view, shown_names(snap.public.names), part.lang, snap.game, f"<#{snap.channel_id}>", link,
                             part.deadline)


__all__ = ["Panel", "drawable", "image_of", "is_wild", "notice_text", "panel_layout", "panel_of",
           "panel_payload", "table_buttons", "table_embed", "table_image", "table_payload", "takeover_view",
           "text_view"]
