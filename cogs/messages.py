"""The Discord payloads of a table, as functions of its snapshot (``service/snapshot.py``): the
public table message (embed, image and buttons, from the public part only) and a player's
panel (text, image and action buttons, from their seat's part).  Words come from
``render.text``, images from ``render``; the components and their id formats are in
``cogs/components.py``."""

from __future__ import annotations

import asyncio
import hashlib
import io
from dataclasses import dataclass
from typing import Optional

import discord

from render.table import render_table
from render.text import alt, panel, prompts, table_message
from render.text.events import with_log

from .components import ActionButton, ActionSelect, TableButton
from .markup import shown, shown_names, shown_result, shown_view

HANDLED = set(prompts.SHARED_ACTIONS)


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
    """The buttons of the public table message (none once the table closed)."""
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


# ------------------------------------------------------------------ a player's buttons
class ActionButtons(discord.ui.View):
    """A player's buttons for their decision (``part.moves``): a row of discards (drawn tile
    last) and the claims/declarations the rules offer now (chow, pung, kong, win, ready,
    double, pass) and the game's own actions; labels from ``render.text.prompts.button``.
    Each carries its move's key (``cogs/components.py``)."""

    def __init__(self, snap, part, lang: str, ting_menu: bool = False, confirm_wild: str | None = None):
        super().__init__(timeout=None)
        self.count = 0
        if part is None or part.decision is None:
            return
        ch, (hid, seq) = snap.channel_id, part.decision
        me = part.me
        by_type: dict[str, list[str]] = {}
        for m in part.moves:
            by_type.setdefault(m.type, []).append(m.tile or "-")

        def add(act: str, tile: str, style: discord.ButtonStyle, row: int, mark: str = "") -> None:
            text = prompts.button(act, lang, snap.game, None if tile in (None, "-") else tile) + mark
            if sum(1 for c in self.children if getattr(c, "row", None) == row) >= 5:
                row = min(4, row + 1)
            self.add_item(ActionButton(ch, hid, seq, act, tile or "-", text, style, row))
            self.count += 1

        if confirm_wild is not None:
            add("wdiscard", confirm_wild, discord.ButtonStyle.danger, 0)
            self.add_item(ActionButton(ch, hid, seq, "prompt", "-", prompts.button("keep_wild", lang, snap.game),
                                       discord.ButtonStyle.secondary, 0))
            self.count += 1
            return
        if ting_menu:
            # a declaration none of whose waits can win (below the minimum, forbidden, none
            # left) is offered all the same, marked ✗: the menu's text says why
            hopeless = {h["discard"] for h in me.get("hint") or () if not any(prompts.can_win(w) for w in h["waits"])}
            for i, tile in enumerate(by_type.get("ting", [])):
                if tile != "-":
                    add("ting", tile, discord.ButtonStyle.secondary if tile in hopeless else discord.ButtonStyle.primary,
                        i // 5, " ✗" if tile in hopeless else "")
            self.add_item(ActionButton(ch, hid, seq, "prompt", "-", prompts.button("cancel", lang, snap.game),
                                       discord.ButtonStyle.secondary, 4))
            self.count += 1
            return
        discards = by_type.get("discard", [])
        drawn = me.get("drawn")
        ordered = [x for x in discards if x != drawn] + ([drawn] if drawn in discards else [])
        for i, tile in enumerate(ordered[:15]):
            add("discard", tile, discord.ButtonStyle.primary if tile == drawn else discord.ButtonStyle.secondary, i // 5)
        row = 3
        if "hu" in by_type or me.get("win_offered"):
            add("hu", "-", discord.ButtonStyle.success, row)
        if "double" in by_type:
            add("double", "-", discord.ButtonStyle.success, row)
        if "ting" in by_type:
            add("ting" if by_type["ting"] == ["-"] else "ting_menu", "-", discord.ButtonStyle.primary, row)
        for tile in by_type.get("kong", []):
            add("kong", tile, discord.ButtonStyle.primary, row)
        row = 4
        if "pung" in by_type:
            add("pung", "-", discord.ButtonStyle.primary, row)
        for start in by_type.get("chow", []):
            add("chow", start, discord.ButtonStyle.primary, row)
        # a game's own actions (堆, 留, 买庄 …): one button each, labelled from its catalogue; when
        # they do not fit in the free places, one select menu holds them all
        extra = [(prompts.button(typ, lang, snap.game, None if tile == "-" else tile), typ, tile)
                 for typ, tiles in by_type.items() if typ not in HANDLED for tile in tiles]
        n_pass = 1 if "pass" in by_type else 0
        free = 25 - self.count - n_pass
        used_rows = {c.row for c in self.children if getattr(c, "row", None) is not None}
        room = sum(5 - sum(1 for c in self.children if getattr(c, "row", None) == r) for r in (3, 4)) - n_pass
        # several ways to take one card (字牌 吃 with 比牌) are a choice: a select menu
        several_chi = sum(1 for _, typ, _ in extra if typ.startswith("chi_")) >= 2
        if extra and (several_chi or len(extra) > min(free, room)):
            options = [discord.SelectOption(label=text[:100], value=f"{typ}:{tile}") for text, typ, tile in extra[:25]]
            select_row = next((r for r in (3, 4) if r not in used_rows), 4)
            self.add_item(ActionSelect(ch, hid, seq, options, prompts.choose(lang), select_row))
            self.count += 1
        else:
            for _, typ, tile in extra:
                add(typ, tile, discord.ButtonStyle.primary, 3)
        if "pass" in by_type:
            add("pass", "-", discord.ButtonStyle.secondary, row)


def is_wild(view, tile: str) -> bool:
    """Is ``tile`` one of the view's wild kinds (财神, 百搭)?"""
    return tile in ((view.get("wild") or {}).get("kinds") or ())


# ------------------------------------------------------------------ a player's panel
@dataclass
class Panel:
    """A player's panel as drawn from their seat's part: its text, the view its image is drawn
    from, its buttons, the decision it shows (``None`` when the player has none), the part's
    ``version`` and ``picture`` version it shows; ``menu``: a look-only screen (the 听 menu, a
    wild tile's confirmation)."""

    content: str
    image_view: dict
    buttons: ActionButtons
    decision: Optional[tuple]
    version: int
    picture: int
    game: object
    lang: str
    menu: bool = False


def panel_of(snap, seat: int, *, ting_menu: bool = False, confirm_wild: str | None = None,
             notices: tuple = (), head: str | None = None, lang: str | None = None) -> Panel:
    """The panel of ``seat`` from ``snap`` (its part; ``lang``: the language to write it in,
    the part's by default).

    :param notices: catalogue keys of what the player must be told first (e.g.
        ``notice.ting_ignored`` after their move).
    :param head: a line to put first (e.g. "you play your seat again")."""
    part = snap.parts[seat]
    lang = lang or part.lang
    view = drawable(part.view, snap.public.names, lang, snap.game)
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
    buttons = ActionButtons(snap, part, lang, ting_menu=ting_menu, confirm_wild=confirm_wild)
    return Panel(content, view, buttons, part.decision, part.version, part.picture, snap.game, lang,
                 menu=ting_menu or confirm_wild is not None)


async def panel_image(p: Panel) -> discord.File:
    """The panel's image: the table drawn from the viewer's seat, their hand face up; described
    in the viewer's language (``render.text.alt.panel_alt``)."""
    data = await asyncio.to_thread(render_table, p.image_view)
    return _png(data, "panel.png", alt.panel_alt(p.image_view, p.game, p.lang))


async def panel_payload(p: Panel, image: bool = True) -> dict:
    """Keyword arguments for send/edit: content, the buttons (``None`` without any) and, with
    ``image``, the panel image as ``file``."""
    out = {"content": p.content, "view": p.buttons if p.buttons.count else None}
    if image:
        out["file"] = await panel_image(p)
    return out


def png_digest(file: discord.File) -> str:
    """SHA-1 of an image file's bytes (whether a message already shows that very image)."""
    return hashlib.sha1(file.fp.getvalue()).hexdigest()


def notice_text(snap, seat: int, link: str) -> str:
    """The short DM that pings a player who must decide (``link``: their panel's URL)."""
    part = snap.parts[seat]
    view = text_view(part.view, snap.public.names, part.lang, snap.game)
    return panel.notice_text(view, shown_names(snap.public.names), part.lang, snap.game, f"<#{snap.channel_id}>", link,
                             part.deadline)


__all__ = ["ActionButtons", "Panel", "drawable", "image_of", "is_wild", "notice_text", "panel_image", "panel_of",
           "panel_payload", "png_digest", "table_buttons", "table_embed", "table_image", "table_payload", "takeover_view",
           "text_view"]
