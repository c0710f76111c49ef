"""What the bot shows in Discord: embeds, images and buttons built from table views.

Buttons carry everything they need in their ``custom_id`` so they keep working
after a restart (discord.py ``DynamicItem``):

* action buttons (in a player's DM or ephemeral "my hand" message):
  ``mj:<channel>:<hand>:<seq>:<action>:<tile or ->`` — ``hand`` is the stored id of the hand
  (unique) and ``seq`` its action counter when the button was drawn; a click from another
  hand or an older turn is a stale button (``TableService.may_act``);
* action menus: ``mjs:<channel>:<hand>:<seq>`` with values ``<action>:<tile or ->``;
* table buttons (on the public message, and the take-over button of a DM):
  ``mjt:<channel>:<op>[:<hand>]`` — **Next hand** carries the finished hand's id.

Ids of an older format (``mj:<channel>:<seq>:…``) match no template: they get the "out of
date" answer.  The public message is built from ``Table.public_view`` only.
"""

from __future__ import annotations

import asyncio
import io
from typing import Optional

import discord

from engine.tiles import kind_name, parse_kind
from engine.variants import find_variant
from render.hand import render_hand
from render.table import render_table
from render.text import lang_of, t, tile_label, tv
from render.text import result_lines as _result_lines
from service.tables import Table

from .common import Guarded

ACTION_ID = r"mj:(?P<ch>\d+):(?P<hand>\d+):(?P<seq>\d+):(?P<act>[a-z_]+):(?P<tile>[0-9A-Za-z]+|-)"
SELECT_ID = r"mjs:(?P<ch>\d+):(?P<hand>\d+):(?P<seq>\d+)"
TABLE_ID = r"mjt:(?P<ch>\d+):(?P<op>[a-z_]+)(?::(?P<arg>\d+))?"

HANDLED = {"discard", "hu", "double", "ting", "kong", "pung", "chow", "pass"}


def game_name(variant: str, lang: str) -> str:
    """The variant's display name in ``lang``."""
    try:
        info = find_variant(variant)
    except KeyError:
        return variant
    return info.name_zh if lang_of(lang).startswith("zh") else f"{info.name_en} ({info.name_zh})"


def short_tile(tile: str, lang: str) -> str:
    """A button label for a tile: ``五万`` in Chinese, ``5m`` in English."""
    return kind_name(parse_kind(tile), "zh") if lang_of(lang).startswith("zh") else tile


# ------------------------------------------------------------------ events → text
def describe_event(ev: dict, names: list[str], lang: str, variant: str | None = None) -> Optional[str]:
    """One line of the table log for an engine event, or ``None`` for silent events."""
    typ = ev.get("type")
    if typ in ("draw", "dice", "deal"):
        return None
    name = names[ev["seat"]] if "seat" in ev and ev["seat"] < len(names) else ""
    params = {"name": name, "tile": tile_label(ev["tile"], lang) if "tile" in ev else "",
              "multiplier": ev.get("multiplier", "")}
    if typ == "hu" and "tile" not in ev:
        typ = "hu_notile"  # 字牌 偎胡/提胡: a win with no card of its own
    text = tv(variant, f"ev.{typ}", lang, **params)
    return None if text.startswith("messages.") else text


# ------------------------------------------------------------------ images
def _png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def table_image(view: dict) -> discord.File:
    data = await asyncio.to_thread(render_table, view)
    return _png(data, "table.png")


async def hand_image(view: dict) -> discord.File:
    data = await asyncio.to_thread(render_hand, view)
    return _png(data, "hand.png")


def public_view(table: Table) -> dict:
    """The public view of a table (``Table.public_view``) with its log lines and name: the
    only input of the public message and the table image."""
    v = table.public_view(lang_of(table.lang))
    names = table.names()
    v["log"] = [x for x in (describe_event(e, names, table.lang, table.variant.id) for e in v.get("recent", []))
                if x][-6:]
    v["table_name"] = f"#{table.channel_id}"
    return v


def seat_view(table: Table, seat: int, lang: str) -> dict:
    v = table.view(seat, lang_of(lang))
    names = table.names()
    v["log"] = [x for x in (describe_event(e, names, lang, table.variant.id) for e in v.get("recent", [])) if x][-6:]
    return v


# ------------------------------------------------------------------ public message
def table_embed(table: Table, view: dict) -> discord.Embed:
    """The embed of the public table message, from the public view only."""
    lang = table.lang
    seats = view.get("seats") or []
    names = [str(s.get("name", "?")) for s in seats]
    game = game_name(table.variant.id, lang)
    if view.get("status") == "lobby":
        players = ", ".join(names) or "—"
        return discord.Embed(title=t("ui.lobby_title", lang, game=game),
                             description=t("ui.lobby_desc", lang, n=len(names), max=table.variant.max_players,
                                           players=players),
                             colour=discord.Colour.blurple())
    e = discord.Embed(title=t("ui.hand_title", lang, game=game, no=max(view.get("hand_no") or 1, 1)),
                      colour=discord.Colour.dark_green())
    lines = []
    running = view.get("phase") not in (None, "lobby", "between", "over")
    if running:
        if view.get("turn") is not None and view["turn"] < len(names):
            lines.append(t("ui.turn", lang, name=names[view["turn"]]))
        lines.append(t("ui.wall", lang, n=view.get("wall_remaining", 0)))
        if view.get("treasure"):
            lines.append(t("ui.treasure", lang, tile=tile_label(view["treasure"], lang)))
        if view.get("seed_hash"):
            lines.append(t("ui.seed_hash", lang, hash=view["seed_hash"][:16]))
    elif table.last_result is not None:
        lines.extend(result_lines(table, table.last_result, lang))
        if table.hand_id is not None and "seed" in table.last_result:
            lines.append(t("ui.seed_reveal", lang, seed=table.last_result["seed"], id=table.hand_id))
        lines.append(t("ui.next_hand_in", lang, s=table.options.get("result_timeout", 30)))
    auto = [names[s["seat"]] for s in seats if s.get("auto") and not s.get("is_ai") and s["seat"] < len(names)]
    if auto:
        lines.append(t("ui.auto_seats", lang, names=", ".join(auto)))
    lines.extend(view.get("log", [])[-4:])
    e.description = "\n".join(lines)[:4000]
    e.set_image(url="attachment://table.png")
    return e


def result_lines(table: Table, result: dict, lang: str) -> list[str]:
    """The settlement in words (``render.text.result_lines``) with the table's names."""
    return _result_lines(result, table.names(), lang, table.variant.id)


class ActionButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=ACTION_ID):
    """A player's action button; survives restarts (the custom_id says it all)."""

    def __init__(self, ch: int, hand: int, seq: int, act: str, tile: str = "-", label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None):
        super().__init__(discord.ui.Button(label=label[:80], style=style, row=row,
                                           custom_id=f"mj:{ch}:{hand}:{seq}:{act}:{tile}"[:100]))
        self.ch, self.hand, self.seq, self.act, self.tile = ch, hand, seq, act, tile

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        # the template only lets digits and short words through: nothing here can raise
        return cls(int(match["ch"]), int(match["hand"]), int(match["seq"]), match["act"], match["tile"],
                   label=getattr(item, "label", None) or "?")

    async def run(self, interaction: discord.Interaction) -> None:
        await interaction.client.get_cog("Play").on_action_button(interaction, self)


class ActionSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select], template=SELECT_ID):
    """A select menu of a player's actions when they are too many for buttons (values
    ``"<type>:<tile or ->"``)."""

    def __init__(self, ch: int, hand: int, seq: int, options: list | None = None, placeholder: str = "…",
                 row: int | None = None):
        super().__init__(discord.ui.Select(custom_id=f"mjs:{ch}:{hand}:{seq}", options=options or [
            discord.SelectOption(label="-", value="pass:-")], placeholder=placeholder, row=row))
        self.ch, self.hand, self.seq = ch, hand, seq

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        options = list(getattr(item, "options", None) or []) or None
        return cls(int(match["ch"]), int(match["hand"]), int(match["seq"]), options,
                   getattr(item, "placeholder", None) or "…")

    async def run(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values or [])
        act, _, tile = (values[0] if values else "").partition(":")
        button = ActionButton(self.ch, self.hand, self.seq, act or "?", tile or "-")
        await interaction.client.get_cog("Play").on_action_button(interaction, button)


class TableButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=TABLE_ID):
    """A button of the public table message (join, add AI, start, leave, my hand, next hand,
    take over); **Next hand** carries the id of the hand it follows."""

    def __init__(self, ch: int, op: str, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 arg: int | None = None):
        cid = f"mjt:{ch}:{op}" + (f":{arg}" if arg is not None else "")
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=cid))
        self.ch, self.op, self.arg = ch, op, arg

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        arg = int(match["arg"]) if match["arg"] else None
        return cls(int(match["ch"]), match["op"], label=getattr(item, "label", None) or "?", arg=arg)

    async def run(self, interaction: discord.Interaction) -> None:
        await interaction.client.get_cog("Tables").on_table_button(interaction, self)


def takeover_view(table: Table, lang: str) -> discord.ui.View:
    """The take-over button for a player on 托管 (sent with the auto-play notice)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(table.channel_id, "takeover", t("btn.take_over", lang), discord.ButtonStyle.primary))
    return view


class TableButtons(discord.ui.View):
    """Buttons of the public table message."""

    def __init__(self, table: Table):
        super().__init__(timeout=None)
        lang, ch = table.lang, table.channel_id
        if table.status == "lobby":
            self._add(t("btn.join", lang), ch, "join", discord.ButtonStyle.success)
            self._add(t("btn.add_ai", lang), ch, "addai", discord.ButtonStyle.secondary)
            self._add(t("btn.start", lang), ch, "start", discord.ButtonStyle.primary)
            self._add(t("btn.leave", lang), ch, "leave", discord.ButtonStyle.danger)
        else:
            self._add(t("btn.my_hand", lang), ch, "hand", discord.ButtonStyle.primary)
            if any(s.auto and not s.is_ai for s in table.seats):
                self._add(t("btn.take_over", lang), ch, "takeover", discord.ButtonStyle.secondary)
            if table.hand is not None and table.hand.is_over():
                self._add(t("btn.next_hand", lang), ch, "next", discord.ButtonStyle.success, table.hand_id)

    def _add(self, label: str, ch: int, op: str, style: discord.ButtonStyle, arg: int | None = None) -> None:
        self.add_item(TableButton(ch, op, label, style, arg))


# ------------------------------------------------------------------ a player's prompt
def prompt_text(table: Table, seat: int, view: dict, lang: str) -> str:
    """The text above a player's hand: what to do now, and the waits when ready."""
    hand = table.hand
    names = table.names()
    lines = []
    me = view.get("me") or {}
    if hand is not None and not hand.is_over() and seat in hand.pending_seats():
        if hand.phase == "discard":
            lines.append(t("ui.your_turn", lang, channel=f"<#{table.channel_id}>"))
            if me.get("win_offered") and me.get("drawn"):
                lines.append(t("ui.your_win", lang, tile=tile_label(me["drawn"], lang)))
        elif hand.phase == "rob" and view.get("rob"):
            lines.append(t("ui.your_rob", lang, name=names[view["rob"]["seat"]],
                           tile=tile_label(view["rob"]["tile"], lang)))
        elif hand.last_discard is not None:
            ds, tile = hand.last_discard
            from engine.tiles import kind_str
            lines.append(t("ui.your_claim", lang, name=names[ds], tile=tile_label(kind_str(tile >> 2), lang)))
        variant = table.variant.id
        if me.get("confirming"):
            lines.append(tv(variant, "ui.confirm_wild", lang, tile=tile_label(me["confirming"], lang)))
        elif me.get("dealt"):
            lines.append(tv(variant, "ui.dealt", lang, tile=tile_label(me["dealt"], lang)))
        for w in me.get("warnings") or []:
            key = "warn.santan" if w.get("reason") == "三摊" else "warn.baowu"
            who = names[w["liable_to"]] if w.get("liable_to") is not None else ""
            lines.append("⚠ " + tv(variant, key, lang, tile=tile_label(w["tile"], lang), name=who))
    waits = me.get("waits") or []
    if waits:
        lines.append(t("ui.waits", lang, waits=", ".join(_wait_item(w, lang) for w in waits)))
    return "\n".join(lines) or t("ui.hand_caption", lang)


def _wait_item(w: dict, lang: str) -> str:
    return t("ui.wait_item", lang, tile=short_tile(w["tile"], lang), fan=w.get("fan", "?"), left=w.get("left", "?"))


def ting_text(view: dict, lang: str) -> str:
    lines = [t("ui.ting_pick", lang)]
    for h in (view.get("me") or {}).get("hint", []):
        lines.append(t("ui.ting_hint_line", lang, tile=short_tile(h["discard"], lang),
                       waits=", ".join(_wait_item(w, lang) for w in h["waits"])))
    return "\n".join(lines)


class ActionButtons(discord.ui.View):
    """A player's buttons for the current decision: a row of discards (drawn tile last) and
    the claims/declarations the rules offer now (吃 碰 杠 胡 听 加倍 过)."""

    def __init__(self, table: Table, seat: int, view: dict, lang: str, ting_menu: bool = False,
                 confirm_wild: str | None = None):
        super().__init__(timeout=None)
        hand = table.hand
        self.count = 0
        if hand is None or hand.is_over() or seat not in hand.pending_seats():
            return
        ch, hid, seq = table.channel_id, table.hand_id or 0, table.decisions.get(seat, hand.seq)
        me = view.get("me") or {}
        legal = me.get("legal", [])
        acts = [line.split()[1:] for line in legal]
        by_type: dict[str, list[str]] = {}
        for a in acts:
            by_type.setdefault(a[0], []).append(a[1] if len(a) > 1 else "-")

        def cid(act: str, tile: str = "-") -> str:
            return f"mj:{ch}:{hid}:{seq}:{act}:{tile}"

        if confirm_wild is not None:
            self._add(t("btn.discard_wild", lang, tile=short_tile(confirm_wild, lang)), cid("wdiscard", confirm_wild),
                      discord.ButtonStyle.danger, 0)
            self._add(t("btn.keep_wild", lang), cid("prompt"), discord.ButtonStyle.secondary, 0)
            return
        if ting_menu:
            for i, tile in enumerate(by_type.get("ting", [])):
                if tile != "-":
                    self._add(short_tile(tile, lang), cid("ting", tile), discord.ButtonStyle.primary, i // 5)
            self._add(t("btn.cancel", lang), cid("prompt"), discord.ButtonStyle.secondary, 4)
            return
        discards = by_type.get("discard", [])
        drawn = me.get("drawn")
        ordered = [x for x in discards if x != drawn] + ([drawn] if drawn in discards else [])
        for i, tile in enumerate(ordered[:15]):
            style = discord.ButtonStyle.primary if tile == drawn else discord.ButtonStyle.secondary
            self._add(short_tile(tile, lang), cid("discard", tile), style, i // 5)
        row = 3
        if "hu" in by_type or me.get("win_offered"):
            self._add(t("btn.hu", lang), cid("hu"), discord.ButtonStyle.success, row)
        if "double" in by_type:
            self._add(t("btn.double", lang), cid("double"), discord.ButtonStyle.success, row)
        if "ting" in by_type:
            if by_type["ting"] == ["-"]:
                self._add(t("btn.ting", lang).rstrip("…."), cid("ting"), discord.ButtonStyle.primary, row)
            else:
                self._add(t("btn.ting", lang), cid("ting_menu"), discord.ButtonStyle.primary, row)
        for tile in by_type.get("kong", []):
            if tile == "-":
                self._add(t("btn.kong", lang), cid("kong"), discord.ButtonStyle.primary, row)
            else:
                self._add(t("btn.kong_own", lang, tile=short_tile(tile, lang)), cid("kong", tile),
                          discord.ButtonStyle.primary, row)
        row = 4
        if "pung" in by_type:
            self._add(t("btn.pung", lang), cid("pung"), discord.ButtonStyle.primary, row)
        for start in by_type.get("chow", []):
            k = parse_kind(start)
            tiles = "".join(str((k + i) % 9 + 1) for i in range(3))
            self._add(t("btn.chow", lang, tiles=tiles), cid("chow", start), discord.ButtonStyle.primary, row)
        # a variant's own actions (e.g. 堆, 留, 买庄): one button each, labelled from the catalogue;
        # when they do not fit in the free places, one select menu holds them all
        extra = []
        for typ, tiles in by_type.items():
            if typ in HANDLED:
                continue
            for tile in tiles:
                label = tv(table.variant.id, f"btn.{typ}", lang, tile="", tiles="").strip()
                if label.startswith("messages."):
                    label = typ
                if tile != "-":
                    label = f"{label} {short_tile(tile, lang)}"
                extra.append((label, typ, tile))
        n_pass = 1 if "pass" in by_type else 0
        free = 25 - self.count - n_pass
        used_rows = {c.row for c in self.children if getattr(c, "row", None) is not None}
        room = sum(5 - sum(1 for c in self.children if getattr(c, "row", None) == r) for r in (3, 4)) - n_pass
        # several ways to take one card (字牌 吃 with 比牌) are a choice: a select menu
        several_chi = sum(1 for _, typ, _ in extra if typ.startswith("chi_")) >= 2
        if extra and (several_chi or len(extra) > min(free, room)):
            options = [discord.SelectOption(label=label[:100], value=f"{typ}:{tile}") for label, typ, tile in extra[:25]]
            select_row = next((r for r in (3, 4) if r not in used_rows), 4)
            self.add_item(ActionSelect(ch, hid, seq, options, t("ui.choose", lang), select_row))
            self.count += 1
        else:
            for label, typ, tile in extra:
                self._add(label, cid(typ, tile), discord.ButtonStyle.primary, 3)
        if "pass" in by_type:
            self._add(t("btn.pass", lang), cid("pass"), discord.ButtonStyle.secondary, row)

    def _add(self, label: str, custom_id: str, style: discord.ButtonStyle, row: int) -> None:
        if sum(1 for c in self.children if getattr(c, "row", None) == row) >= 5:
            row = min(4, row + 1)
        _, ch, hid, seq, act, tile = custom_id.split(":")
        self.add_item(ActionButton(int(ch), int(hid), int(seq), act, tile, label, style, row))
        self.count += 1


def _last_discard_label(view: dict, seat: int, lang: str) -> str:
    """The seat's last discard, named (for notices about it)."""
    for sv in view.get("seats") or []:
        if sv.get("seat") == seat and sv.get("discards"):
            return tile_label(sv["discards"][-1], lang)
    return "?"


def is_wild(view: dict, tile: str) -> bool:
    """Is ``tile`` one of the view's wild kinds (财神, 百搭)?"""
    return tile in ((view.get("wild") or {}).get("kinds") or ())


def hand_parts(table: Table, seat: int, lang: str, ting_menu: bool = False, confirm_wild: str | None = None,
               notices: list[str] | None = None, head: str | None = None) -> tuple[str, dict, "ActionButtons"]:
    """What a player's hand message says and shows, read from the table now: ``(content, the
    hand image's view, the buttons)``.  Call it holding the table's lock (see
    :func:`hand_message`), so it never reads a move the store has not accepted yet."""
    view = seat_view(table, seat, lang)
    if confirm_wild is not None:
        content = t("ui.confirm_discard_wild", lang, tile=tile_label(confirm_wild, lang))
    else:
        content = ting_text(view, lang) if ting_menu else prompt_text(table, seat, view, lang)
    told = [t(key, lang, tile=_last_discard_label(view, seat, lang)) for key in notices or []]
    if head:
        told.insert(0, head)
    if told:
        content = "\n".join(told + [content])
    buttons = ActionButtons(table, seat, view, lang, ting_menu=ting_menu, confirm_wild=confirm_wild)
    return content[:2000], view, buttons


async def render_parts(parts: tuple[str, dict, "ActionButtons"]) -> dict:
    """Keyword arguments for send/edit from :func:`hand_parts`: content, the hand image (drawn
    off the event loop) and the buttons (``None`` when there are none)."""
    content, view, buttons = parts
    return {"content": content, "file": await hand_image(view), "view": buttons if buttons.count else None}


async def hand_message(table: Table, seat: int, lang: str, ting_menu: bool = False,
                       confirm_wild: str | None = None, notices: list[str] | None = None,
                       head: str | None = None) -> dict:
    """Keyword arguments for send/edit: content, the hand image and the action buttons
    (the 听 menu, or the confirmation before discarding a wild tile, when asked).  The table
    is read under its lock (only stored moves show); the image is drawn after.

    :param notices: catalogue keys of what the player must be told first (e.g.
        ``notice.ting_ignored`` after their action).
    :param head: a line to put first (e.g. "you play your seat again")."""
    async with table.lock:
        parts = hand_parts(table, seat, lang, ting_menu, confirm_wild, notices, head)
    return await render_parts(parts)
