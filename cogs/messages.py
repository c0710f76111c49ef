"""The Discord payloads the bot builds from table views: the public table message (its embed,
image and buttons, from ``Table.public_view`` only) and a player's private hand message (its
text, hand image and action buttons).  Words come from ``render.text``, images from
``render``; the components and their id formats are in ``cogs/components.py``."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import discord

from render.table import render_table
from render.text import alt, lang_of, panel, prompts, table_message
from render.text.events import log_lines
from service.seats import free_seats
from service.tables import Table

from .components import ActionButton, ActionSelect, TableButton


HANDLED = set(prompts.SHARED_ACTIONS)


# ------------------------------------------------------------------ images
def _png(data: bytes, name: str, description: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=description)


async def table_image(view: dict, description: str | None = None) -> discord.File:
    """The table image drawn from a public ``view`` (:func:`public_view`), described by
    ``description`` or else by the view's public sentence (``render.text.alt.table_alt``:
    turn, last discard, scores, or the result)."""
    data = await asyncio.to_thread(render_table, view)
    if description is None:
        description = alt.table_alt(view, view.get("variant", ""), view.get("lang", "zh"))
    return _png(data, "table.png", description)


def public_view(table: Table) -> dict:
    """The public view of a table (``Table.public_view``) with its log lines and name (the
    channel's, ``#general``; ``None`` while the channel's name is unknown, and the image names
    the game): the only input of the public message and the table image."""
    v = table.public_view(lang_of(table.lang))
    v["log"] = log_lines(v.get("recent", []), table.hand_names(), table.lang, table.variant.id)
    v["table_name"] = f"#{table.channel_name}" if table.channel_name else None
    return v


def note_channel(table: Table, channel) -> None:
    """Remember the name of the table's channel (``interaction.channel``) when it is known."""
    name = getattr(channel, "name", None)
    if name and getattr(channel, "id", table.channel_id) == table.channel_id:
        table.channel_name = str(name)


def seat_view(table: Table, seat: int, lang: str) -> dict:
    v = table.view(seat, lang_of(lang))
    v["log"] = log_lines(v.get("recent", []), table.hand_names(), lang, table.variant.id)
    return v


# ------------------------------------------------------------------ public message
def table_embed(table: Table, view: dict) -> discord.Embed:
    """The embed of the public table message, from the public view only (words:
    ``render.text.table_message``)."""
    lang, variant = table.lang, table.variant.id
    lobby = view.get("status") == "lobby"
    e = discord.Embed(title=table_message.title(view, variant, lang),
                      description=table_message.body(view, variant, lang, max_players=table.variant.max_players,
                                                     result=table.last_result, hand_id=table.hand_id,
                                                     result_timeout=table.options.get("result_timeout", 30),
                                                     options=table.options,
                                                     match_over=table.status == "closed" and table.match_id is not None),
                      colour=discord.Colour.blurple() if lobby else discord.Colour.dark_green())
    if not lobby:
        e.set_image(url="attachment://table.png")
    return e


def takeover_view(table: Table, lang: str) -> discord.ui.View:
    """The take-over button for a player on 托管 (sent with the auto-play notice)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(table.channel_id, "takeover", table_message.button("takeover", lang),
                              discord.ButtonStyle.primary))
    return view


class TableButtons(discord.ui.View):
    """Buttons of the public table message."""

    def __init__(self, table: Table):
        super().__init__(timeout=None)
        lang, ch = table.lang, table.channel_id
        if table.status == "lobby":
            self._add(lang, ch, "join", discord.ButtonStyle.success)
            self._add(lang, ch, "addai", discord.ButtonStyle.secondary)
            self._add(lang, ch, "start", discord.ButtonStyle.primary)
            self._add(lang, ch, "leave", discord.ButtonStyle.danger)
        else:
            self._add(lang, ch, "hand", discord.ButtonStyle.primary)
            if free_seats(table, frozenset(q["seat"] for q in table.queue)):  # a late player may sit down
                self._add(lang, ch, "join", discord.ButtonStyle.success)
            if any(s.auto and not s.is_ai for s in table.seats):
                self._add(lang, ch, "takeover", discord.ButtonStyle.secondary)
            if table.hand is not None and table.hand_over:
                self._add(lang, ch, "next", discord.ButtonStyle.success, table.hand_id)

    def _add(self, lang: str, ch: int, op: str, style: discord.ButtonStyle, arg: int | None = None) -> None:
        self.add_item(TableButton(ch, op, table_message.button(op, lang), style, arg))


# ------------------------------------------------------------------ a player's buttons
class ActionButtons(discord.ui.View):
    """A player's buttons for the current decision: a row of discards (drawn tile last) and
    the claims/declarations the rules offer now (chow, pung, kong, win, ready, double, pass)
    and the game's own actions; labels from ``render.text.prompts.button``."""

    def __init__(self, table: Table, seat: int, view: dict, lang: str, ting_menu: bool = False,
                 confirm_wild: str | None = None):
        super().__init__(timeout=None)
        self.count = 0
        if seat not in table.pending():
            return
        ch, hid, seq = table.channel_id, table.hand_id or 0, table.decision(seat)
        me = view.get("me") or {}
        legal = me.get("legal", [])
        acts = [line.split()[1:] for line in legal]
        by_type: dict[str, list[str]] = {}
        for a in acts:
            by_type.setdefault(a[0], []).append(a[1] if len(a) > 1 else "-")

        def cid(act: str, tile: str = "-") -> str:
            return f"mj:{ch}:{hid}:{seq}:{act}:{tile}"

        def label(act: str, tile: str | None = None) -> str:
            return prompts.button(act, lang, table.variant.id, None if tile in (None, "-") else tile)

        if confirm_wild is not None:
            self._add(label("wdiscard", confirm_wild), cid("wdiscard", confirm_wild), discord.ButtonStyle.danger, 0)
            self._add(label("keep_wild"), cid("prompt"), discord.ButtonStyle.secondary, 0)
            return
        if ting_menu:
            for i, tile in enumerate(by_type.get("ting", [])):
                if tile != "-":
                    self._add(label("ting", tile), cid("ting", tile), discord.ButtonStyle.primary, i // 5)
            self._add(label("cancel"), cid("prompt"), discord.ButtonStyle.secondary, 4)
            return
        discards = by_type.get("discard", [])
        drawn = me.get("drawn")
        ordered = [x for x in discards if x != drawn] + ([drawn] if drawn in discards else [])
        for i, tile in enumerate(ordered[:15]):
            style = discord.ButtonStyle.primary if tile == drawn else discord.ButtonStyle.secondary
            self._add(label("discard", tile), cid("discard", tile), style, i // 5)
        row = 3
        if "hu" in by_type or me.get("win_offered"):
            self._add(label("hu"), cid("hu"), discord.ButtonStyle.success, row)
        if "double" in by_type:
            self._add(label("double"), cid("double"), discord.ButtonStyle.success, row)
        if "ting" in by_type:
            if by_type["ting"] == ["-"]:
                self._add(label("ting"), cid("ting"), discord.ButtonStyle.primary, row)
            else:
                self._add(label("ting_menu"), cid("ting_menu"), discord.ButtonStyle.primary, row)
        for tile in by_type.get("kong", []):
            self._add(label("kong", tile), cid("kong", tile), discord.ButtonStyle.primary, row)
        row = 4
        if "pung" in by_type:
            self._add(label("pung"), cid("pung"), discord.ButtonStyle.primary, row)
        for start in by_type.get("chow", []):
            self._add(label("chow", start), cid("chow", start), discord.ButtonStyle.primary, row)
        # a variant's own actions (e.g. 堆, 留, 买庄): one button each, labelled from the catalogue;
        # when they do not fit in the free places, one select menu holds them all
        extra = []
        for typ, tiles in by_type.items():
            if typ in HANDLED:
                continue
            for tile in tiles:
                extra.append((label(typ, tile), typ, tile))
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
            for text, typ, tile in extra:
                self._add(text, cid(typ, tile), discord.ButtonStyle.primary, 3)
        if "pass" in by_type:
            self._add(label("pass"), cid("pass"), discord.ButtonStyle.secondary, row)

    def _add(self, label: str, custom_id: str, style: discord.ButtonStyle, row: int) -> None:
        if sum(1 for c in self.children if getattr(c, "row", None) == row) >= 5:
            row = min(4, row + 1)
        _, ch, hid, seq, act, tile = custom_id.split(":")
        self.add_item(ActionButton(int(ch), int(hid), int(seq), act, tile, label, style, row))
        self.count += 1


def is_wild(view: dict, tile: str) -> bool:
    """Is ``tile`` one of the view's wild kinds (财神, 百搭)?"""
    return tile in ((view.get("wild") or {}).get("kinds") or ())


def panel_view(table: Table, seat: int, lang: str) -> dict:
    """What a player's panel shows: the public view of the table (``Table.public_view``, as
    the table message) plus the viewer's own part — their seat at the bottom (``viewer``),
    their hand and decision (``me``) and whether the hand waits for them (``pending``) —
    nothing more.  Read under the table's lock."""
    v = table.public_view(lang_of(lang))
    v["log"] = log_lines(v.get("recent", []), table.hand_names(), lang, table.variant.id)
    v["table_name"] = f"#{table.channel_name}" if table.channel_name else None
    v["viewer"] = seat
    v["me"] = None
    if table.hand is not None:
        own = table.view(seat, lang_of(lang))
        v["me"] = own.get("me")
        seats = v.get("seats") or []
        for i, (pub, mine) in enumerate(zip(seats, own.get("seats") or [])):
            if mine.get("seat") == seat:
                # the viewer's own seat as they see it: their tiles, their face-down groups
                # (偎/提, 暗杠) and their own opening choice (飘) — with the table's names,
                # scores and marks
                seats[i] = {**pub, **mine}
            elif mine.get("concealed") is not None and pub.get("concealed") is None:
                pub["concealed"] = mine["concealed"]  # what the rules show this viewer (二人麻将 §听)
    v["pending"] = [seat] if seat in table.pending() else []
    return v


@dataclass
class Panel:
    """A player's panel as drawn now: its text, the view its image is drawn from, its
    buttons, and the decision it shows (``(hand id, decision)``, ``None`` when the player has
    none); ``menu``: a look-only screen (the 听 menu, a wild tile's confirmation)."""

    content: str
    image_view: dict
    buttons: "ActionButtons"
    decision: Optional[tuple]
    menu: bool = False

    @cached_property
    def image_digest(self) -> str:
        return hashlib.sha1(json.dumps(self.image_view, sort_keys=True, default=str,
                                       ensure_ascii=False).encode()).hexdigest()

    @cached_property
    def digest(self) -> str:
        ids = [getattr(c, "custom_id", None) for c in self.buttons.children]
        return hashlib.sha1(json.dumps([self.content, self.image_digest, ids], default=str,
                                       ensure_ascii=False).encode()).hexdigest()


def hand_parts(table: Table, seat: int, lang: str, ting_menu: bool = False, confirm_wild: str | None = None,
               notices: list[str] | None = None, head: str | None = None) -> Panel:
    """A player's panel read from the table now (:class:`Panel`).  Call it holding the
    table's lock (see :func:`hand_message`), so it never reads a move the store has not
    accepted yet."""
    view = panel_view(table, seat, lang)
    decision = None
    if confirm_wild is not None:
        decision = prompts.confirm_wild_discard(confirm_wild, lang)
    elif ting_menu:
        decision = prompts.ting_hint(view, lang)
    told = prompts.notices(notices or [], view, seat, lang)
    if head:
        told.insert(0, head)
    content = panel.panel_text(view, table.hand_names(), lang, table.variant.id, f"<#{table.channel_id}>",
                               deadline=table.deadline_unix(), head=told, decision=decision)
    buttons = ActionButtons(table, seat, view, lang, ting_menu=ting_menu, confirm_wild=confirm_wild)
    pending = table.hand is not None and seat in table.pending()
    return Panel(content, view, buttons, (table.hand_id, table.decision(seat)) if pending else None,
                 menu=ting_menu or confirm_wild is not None)


async def panel_image(view: dict) -> discord.File:
    """The panel's image: the table drawn from the viewer's seat, their hand face up;
    described in the viewer's language by the public sentence and how much they hold
    (``render.text.alt.panel_alt``)."""
    data = await asyncio.to_thread(render_table, view)
    return _png(data, "panel.png", alt.panel_alt(view, view.get("variant", ""), view.get("lang", "zh")))


def png_digest(file: discord.File) -> str:
    """The digest of an image file's bytes (to tell whether a message already shows it)."""
    return hashlib.sha1(file.fp.getvalue()).hexdigest()


async def render_parts(parts: Panel, image: bool = True) -> dict:
    """Keyword arguments for send/edit from :func:`hand_parts`: content, the panel image
    (drawn off the event loop; left out with ``image=False`` — the message keeps the one it
    has) and the buttons (``None`` when there are none)."""
    out = {"content": parts.content, "view": parts.buttons if parts.buttons.count else None}
    if image:
        out["file"] = await panel_image(parts.image_view)
    return out


async def hand_panel(table: Table, seat: int, lang: str, ting_menu: bool = False,
                     confirm_wild: str | None = None, notices: list[str] | None = None,
                     head: str | None = None) -> tuple[Panel, dict]:
    """The player's panel (:class:`Panel`) and the keyword arguments for send/edit: content,
    the panel image and the action buttons (the 听 menu, or the confirmation before
    discarding a wild tile, when asked).  The table is read under its lock (only stored moves
    show); the image is drawn after.

    :param notices: catalogue keys of what the player must be told first (e.g.
        ``notice.ting_ignored`` after their action).
    :param head: a line to put first (e.g. "you play your seat again")."""
    async with table.lock:
        parts = hand_parts(table, seat, lang, ting_menu, confirm_wild, notices, head)
    return parts, await render_parts(parts)


async def hand_message(table: Table, seat: int, lang: str, ting_menu: bool = False,
                       confirm_wild: str | None = None, notices: list[str] | None = None,
                       head: str | None = None) -> dict:
    """The keyword arguments of :func:`hand_panel` alone."""
    return (await hand_panel(table, seat, lang, ting_menu, confirm_wild, notices, head))[1]
