"""A player's panel as a Components V2 message: one container holding what the seat needs to
decide — the panel's words, the table as tiles, the hand as tile buttons, the decision's
buttons.

* **The hand**: one button per tile in hand order, the drawn tile last and blue; each shows
  the tile's emoji (``cogs/emojis.py``; its text label when the tile has none) and discards it
  when pressed; tiles that may not be discarded now are shown disabled; a wild tile is marked
  ★, the 宝牌 ◆, 金湖's 贼 tiles with their word (:func:`tile_marks`).  In the 听 menu the
  same buttons declare ready with that discard (a declaration none of whose waits can win is
  grey and marked ✗).
* **The decision**: claims, 听, wins and each game's own actions as labelled buttons; when
  they do not fit in what is left of Discord's 40 components (or a card may be taken several
  ways, 字牌's 吃 with 比牌), the game's own actions go into one select menu.

Every button is an :class:`cogs.components.ActionButton` (its id says its hand, decision,
action and tile), so a panel keeps working after a restart.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

import discord

from render.text import prompts

from .components import ActionButton, ActionSelect
from .emojis import TileEmojis

#: Discord's most components in one message (nested ones counted)
MAX_COMPONENTS = 40
#: buttons in one action row
ROW = 5
#: options in one select menu
MENU = 25
HANDLED = set(prompts.SHARED_ACTIONS)

Item = discord.ui.Item


def _chunks(items: list, n: int = ROW) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)]


def _cost(rows: list[list]) -> int:
    return len(rows) + sum(len(r) for r in rows)


#: the marks of the tiles a game singles out, on their buttons: a wild tile (财神, 百搭), the
#: 宝牌; 金湖's 贼 tiles carry the game's own word for them (the view's ``marked.label``)
WILD_MARK, TREASURE_MARK = "★", "◆"


def tile_marks(view: dict) -> dict[str, str]:
    """Tile (notation) → the mark its button carries, from a seat part's view (``wild.kinds``,
    ``treasure``, ``marked``)."""
    marks: dict[str, str] = {}
    marked = view.get("marked") or {}
    for tile in marked.get("kinds") or ():
        marks[tile] = str(marked.get("label") or TREASURE_MARK)
    if view.get("treasure"):
        marks[view["treasure"]] = TREASURE_MARK
    for tile in (view.get("wild") or {}).get("kinds") or ():
        marks[tile] = WILD_MARK
    return marks


def panel_rows(snap, part, lang: str, emojis: TileEmojis, *, used: int, ting_menu: bool = False,
               confirm_wild: Optional[str] = None) -> list[list[Item]]:
    """The panel's rows of components for ``part`` (a seat's part of ``snap``): the hand's
    rows, then the decision's; ``used``: the components the message holds besides them (the
    container and its texts).  At most :data:`MAX_COMPONENTS` in all."""
    if part is None or part.view.get("me") is None:
        return []
    me = part.view["me"]
    ch, hid = snap.channel_id, snap.hand_id or 0
    seq = part.decision[1] if part.decision is not None else 0
    if part.decision is not None:
        hid = part.decision[0]
    by_type: dict[str, list[str]] = {}
    for m in part.moves:
        by_type.setdefault(m.type, []).append(m.tile or "-")

    def button(act: str, tile: str, label: Optional[str], style: discord.ButtonStyle, *, emoji=None,
               disabled: bool = False, copy: int = 0) -> ActionButton:
        return ActionButton(ch, hid, seq, act, tile or "-", label, style, emoji=emoji, disabled=disabled, copy=copy)

    # ---------------------------------------------------------------- the hand
    if confirm_wild is not None:
        act, playable = "discard", set()
    elif ting_menu:
        act, playable = "ting", {x for x in by_type.get("ting", []) if x != "-"}
    else:
        act, playable = "discard", set(by_type.get("discard", []))
    hopeless = {h["discard"] for h in me.get("hint") or () if not any(prompts.can_win(w) for w in h["waits"])} \
        if ting_menu else set()
    drawn = me.get("drawn")
    drawn_at = len(me.get("hand") or []) if drawn else -1
    tiles = list(me.get("hand") or []) + ([drawn] if drawn else [])
    tiles += sorted(playable - set(tiles))  # a playable tile the hand does not list (never, but shown)
    marks = tile_marks(part.view)
    copies: Counter = Counter()
    hand: list[Item] = []
    for i, tile in enumerate(tiles):
        copy = copies[tile]
        copies[tile] += 1
        emoji = emojis.of(tile)
        label = None if emoji is not None else prompts.button("discard", lang, snap.game, tile)
        if tile in marks:
            label = (label + " " if label else "") + marks[tile]
        style = discord.ButtonStyle.primary if i == drawn_at else discord.ButtonStyle.secondary
        if ting_menu and tile in playable:
            style = discord.ButtonStyle.secondary if tile in hopeless else discord.ButtonStyle.success
            if tile in hopeless:
                label = (label + " " if label else "") + "✗"
        hand.append(button(act, tile, label, style, emoji=emoji, disabled=part.decision is None or tile not in playable,
                           copy=copy))
    rows = _chunks(hand)
    room = MAX_COMPONENTS - used - _cost(rows)

    # ---------------------------------------------------------------- the decision
    if part.decision is None:
        return rows
    if confirm_wild is not None:
        return rows + [[button("wdiscard", confirm_wild, prompts.button("wdiscard", lang, snap.game, confirm_wild),
                               discord.ButtonStyle.danger, emoji=emojis.of(confirm_wild)),
                        button("prompt", "-", prompts.button("keep_wild", lang, snap.game),
                               discord.ButtonStyle.secondary)]]
    if ting_menu:
        return rows + [[button("prompt", "-", prompts.button("cancel", lang, snap.game), discord.ButtonStyle.secondary)]]
    # (label, action, tile, style, emoji) of each choice, the shared ones first, 过 last
    shared: list[tuple] = []

    def add(kind: str, tile: str, style: discord.ButtonStyle) -> None:
        shown = None if tile in (None, "-") else tile
        shared.append((prompts.button(kind, lang, snap.game, shown), kind, tile, style,
                       emojis.of(tile) if kind == "kong" and shown else None))

    if "hu" in by_type or me.get("win_offered"):
        add("hu", "-", discord.ButtonStyle.success)
    if "double" in by_type:
        add("double", "-", discord.ButtonStyle.success)
    if "ting" in by_type:
        add("ting" if by_type["ting"] == ["-"] else "ting_menu", "-", discord.ButtonStyle.primary)
    for tile in by_type.get("kong", []):
        add("kong", tile, discord.ButtonStyle.primary)
    if "pung" in by_type:
        add("pung", "-", discord.ButtonStyle.primary)
    for start in by_type.get("chow", []):
        add("chow", start, discord.ButtonStyle.primary)
    # a game's own actions (堆, 留, 买庄 …), labelled from its catalogue
    extra = [(prompts.button(typ, lang, snap.game, None if tile == "-" else tile), typ, tile,
              discord.ButtonStyle.primary, emojis.of(tile) if tile != "-" else None)
             for typ, tiles_ in by_type.items() if typ not in HANDLED for tile in tiles_]
    passing = [(prompts.button("pass", lang, snap.game), "pass", "-", discord.ButtonStyle.secondary, None)] \
        if "pass" in by_type else []

    def as_button(choice: tuple) -> ActionButton:
        label, kind, tile, style, emoji = choice
        return button(kind, tile, label, style, emoji=emoji)

    # several ways to take one card (字牌's 吃 with 比牌) are one choice: a menu
    several_chi = sum(1 for c in extra if c[1].startswith("chi_")) >= 2
    buttons, menu = (shared + passing, extra) if several_chi else (shared + extra + passing, [])
    if not menu and _cost(_chunks(buttons)) <= room:
        return rows + _chunks([as_button(c) for c in buttons])
    # more than fit in what is left of the 40 components: as many buttons as fit beside the
    # menus (each its row and itself, 25 choices a menu), the game's own actions and the rest
    # in the menus
    fixed = [c for c in buttons if c not in extra]
    pages = -(-(len(menu) + len(buttons) - len(fixed)) // MENU)
    while fixed and _cost(_chunks(fixed)) > room - 2 * pages:
        fixed.pop(-2 if len(fixed) > 1 and fixed[-1][1] == "pass" else -1)
        pages = -(-len([c for c in shared + extra + passing if c not in fixed]) // MENU)
    menu = [c for c in shared + extra + passing if c not in fixed]
    menus = []
    for page in range(0, len(menu), MENU):
        options = [discord.SelectOption(label=label[:100], value=f"{kind}:{tile}", emoji=emoji)
                   for label, kind, tile, _, emoji in menu[page:page + MENU]]
        menus.append([ActionSelect(ch, hid, seq, options, prompts.choose(lang), page=page // MENU)])
    return rows + _chunks([as_button(c) for c in fixed]) + menus


class PanelLayout(discord.ui.LayoutView):
    """The panel message: one container with ``texts`` (each a text display) and ``rows`` (each
    an action row); ``accent``: the container's colour."""

    def __init__(self, texts: list[str], rows: list[list[Item]], accent: Optional[discord.Colour] = None):
        super().__init__(timeout=None)
        box = discord.ui.Container(accent_colour=accent)
        for text in texts:
            if text:
                box.add_item(discord.ui.TextDisplay(text))
        for row in rows:
            box.add_item(discord.ui.ActionRow(*row))
        self.add_item(box)
        self.rows = rows

    @property
    def actions(self) -> int:
        """How many of its buttons and menus may be used now."""
        return sum(1 for row in self.rows for item in row if not getattr(item.item, "disabled", False))


__all__ = ["MAX_COMPONENTS", "PanelLayout", "panel_rows"]
