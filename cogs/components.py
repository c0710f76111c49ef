"""Every persistent button and menu of the bot, and the formats of their ids.

Buttons carry everything they need in their ``custom_id`` so they keep working after a
restart (discord.py ``DynamicItem``); every id starts with the bot's prefix ``mj``:

* ``mj:<channel>:<hand>:d<decision>:<action>:<tile or ->[:<copy>]`` — an action button in a
  player's DM or private "my hand" message (``copy``: the second, third … button of the same
  tile in a hand shown tile by tile, each id being unique in a message); ``hand`` is the stored id of the hand (unique) and
  ``decision`` the number of the seat's current decision (``service.table.Decisions``: the
  seat's own decisions counted, marked ``d`` — ids without the mark counted the hand's
  actions and are out of date); a click from another hand or decision is refused
  (``TableService.may_act``);
* ``mjs:<channel>:<hand>:d<decision>[:<page>]`` — an action menu, values ``<action>:<tile or ->``
  (``page``: the second, third … menu of a decision with more than 25 choices in menus);
* ``mjt:<channel>:<op>[:<hand>]`` — a button of the public table message (and the take-over
  button of a DM); **Next hand** carries the finished hand's id;
* ``mjr:<hand>:<step>:<position>[:<language>][:s<seat>]`` — a step button of a replay (⏮ ◀ ▶ ⏭);
  ``seat`` (0-based): a replay from that seat's view;
* ``mjm:<match>:<page>`` — the replay menu of a match's final standings (values: hand ids,
  at most 25 a page);
* ``mjp:<match>:<page>:<position>`` — a page button (◀ ▶) of the standings' replay menu;
* ``mjo:<channel>:<pace|hands|auto>`` — a settings menu of a lobby's table message
  (``cogs/lobby_settings.py``);
* ``mjf:<d|p|c>:<game>:<form>[:<preset>]`` — the button that opens a rules form again (after a
  refused value) or the next one of a game with several, for a server's defaults (``d``), a
  preset (``p``) (``cogs/config.py``) or a table being created (``c``, ``cogs/tables.py``).

Any other id (an older format, with the prefix or without, a tampered one) matches
:class:`Outdated`, which answers privately that the button is out of date.  Each class answers through the one
error path (:class:`cogs.common.Guarded`); ``from_custom_id`` reads only what its template
matched (digits and short words), so it cannot fail.
"""

from __future__ import annotations

import re

import discord

from service.tables import ServiceError

from .common import Guarded, reply_error

ACTION_ID = r"mj:(?P<ch>\d+):(?P<hand>\d+):d(?P<seq>\d+):(?P<act>[a-z_]+):(?P<tile>[0-9A-Za-z]+|-)(?::(?P<copy>\d{1,2}))?"
SELECT_ID = r"mjs:(?P<ch>\d+):(?P<hand>\d+):d(?P<seq>\d+)(?::(?P<page>\d))?"
TABLE_ID = r"mjt:(?P<ch>\d+):(?P<op>[a-z_]+)(?::(?P<arg>\d+))?"
REPLAY_ID = r"mjr:(?P<hand>\d+):(?P<step>\d+):(?P<pos>\d)(?::(?P<lang>zh-CN|zh-TW|zh|en))?(?::s(?P<seat>\d))?"
MATCH_ID = r"mjm:(?P<match>\d+):(?P<page>\d+)"
PAGE_ID = r"mjp:(?P<match>\d+):(?P<page>\d+):(?P<pos>\d)"
MENU_ID = r"mjo:(?P<ch>\d+):(?P<key>pace|hands|auto)"
FORM_ID = r"mjf:(?P<kind>[dpc]):(?P<game>[a-z0-9_]{1,40}):(?P<part>\d)(?::(?P<name>[^\n]{1,40}))?"
#: every other id: an older format (with the bot's prefix or from before it had one) or a
#: tampered id.  Every component the bot sends is one of the dynamic items below, so no other
#: handler answers such an id.
OUTDATED_ID = r"(?s)(?!(?:" + re.sub(r"\(\?P<\w+>", "(?:", "|".join((ACTION_ID, SELECT_ID, TABLE_ID, REPLAY_ID, MATCH_ID, PAGE_ID, MENU_ID, FORM_ID))) + r")\Z).+"
REPLAY_LABELS = ("⏮", "◀", "▶", "⏭")


def action_id(ch: int, hand: int, decision: int, act: str, tile: str = "-", copy: int = 0) -> str:
    """The id of an action button (``ACTION_ID``; ``copy``: which button of the same tile)."""
    return (f"mj:{ch}:{hand}:d{decision}:{act}:{tile}" + (f":{copy}" if copy else ""))[:100]


def select_id(ch: int, hand: int, decision: int, page: int = 0) -> str:
    """The id of an action menu (``SELECT_ID``; ``page``: which menu of the decision)."""
    return f"mjs:{ch}:{hand}:d{decision}" + (f":{page}" if page else "")
PAGE_LABELS = ("◀", "▶")


class ActionButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=ACTION_ID):
    """A player's action button; survives restarts (the custom_id says it all)."""

    def __init__(self, ch: int, hand: int, seq: int, act: str, tile: str = "-", label: str | None = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None, *,
                 emoji: discord.PartialEmoji | None = None, disabled: bool = False, copy: int = 0):
        super().__init__(discord.ui.Button(label=label[:80] if label else None, style=style, row=row, emoji=emoji,
                                           disabled=disabled, custom_id=action_id(ch, hand, seq, act, tile, copy)))
        self.ch, self.hand, self.seq, self.act, self.tile = ch, hand, seq, act, tile

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        # the template only lets digits and short words through: nothing here can raise
        return cls(int(match["ch"]), int(match["hand"]), int(match["seq"]), match["act"], match["tile"],
                   label=getattr(item, "label", None) or "?", copy=int(match["copy"] or 0))

    async def run(self, interaction: discord.Interaction) -> None:
        await interaction.client.get_cog("Play").on_action_button(interaction, self)


class ActionSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select], template=SELECT_ID):
    """A select menu of a player's actions when they are too many for buttons (values
    ``"<type>:<tile or ->"``)."""

    def __init__(self, ch: int, hand: int, seq: int, options: list | None = None, placeholder: str = "…",
                 row: int | None = None, page: int = 0):
        super().__init__(discord.ui.Select(custom_id=select_id(ch, hand, seq, page), options=options or [
            discord.SelectOption(label="-", value="pass:-")], placeholder=placeholder, row=row))
        self.ch, self.hand, self.seq = ch, hand, seq

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        options = list(getattr(item, "options", None) or []) or None
        return cls(int(match["ch"]), int(match["hand"]), int(match["seq"]), options,
                   getattr(item, "placeholder", None) or "…", page=int(match["page"] or 0))

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
        await interaction.client.get_cog("Mj").on_table_button(interaction, self)


class ReplayButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=REPLAY_ID):
    """A step button of a replay: ``mjr:<hand id>:<step>:<position 0-3>[:<language>]`` (⏮ ◀ ▶
    ⏭); the language is the replay message's, so a step pressed by anyone keeps it (a button
    without one, from an older message, draws in the presser's)."""

    def __init__(self, hand_id: int, step: int, pos: int, disabled: bool = False, lang: str | None = None,
                 seat: int | None = None):
        cid = (f"mjr:{hand_id}:{step}:{pos}" + (f":{lang}" if lang else "")
               + (f":s{seat}" if seat is not None else ""))
        super().__init__(discord.ui.Button(label=REPLAY_LABELS[pos], style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=cid))
        self.hand_id, self.step, self.lang, self.seat = hand_id, step, lang, seat

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        seat = int(match["seat"]) if match["seat"] else None
        return cls(int(match["hand"]), int(match["step"]), int(match["pos"]), lang=match["lang"], seat=seat)

    async def run(self, interaction: discord.Interaction) -> None:
        await interaction.client.get_cog("Mj").show_replay(interaction, self.hand_id, self.step, edit=True,
                                                           lang=self.lang, seat=self.seat)


class MatchSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select], template=MATCH_ID):
    """The replay menu of a match's standings, page ``page`` (values: the hands' stored ids):
    a pick posts that hand's replay."""

    def __init__(self, match_id: int, page: int, options: list | None = None, placeholder: str = "…"):
        super().__init__(discord.ui.Select(custom_id=f"mjm:{match_id}:{page}", placeholder=placeholder[:150],
                                           options=options or [discord.SelectOption(label="-", value="0")]))
        self.match_id, self.page = match_id, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        options = list(getattr(item, "options", None) or []) or None
        return cls(int(match["match"]), int(match["page"]), options, getattr(item, "placeholder", None) or "…")

    async def run(self, interaction: discord.Interaction) -> None:
        values = [v for v in (self.item.values or []) if v.isdigit()]
        hand_id = int(values[0]) if values else 0
        await interaction.client.get_cog("Mj").show_replay(interaction, hand_id, 0, edit=False)


class PageButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=PAGE_ID):
    """◀ / ▶ of a standings message whose match has more hands than one menu holds: redraws the
    message with the menu of page ``page``."""

    def __init__(self, match_id: int, page: int, pos: int, disabled: bool = False):
        super().__init__(discord.ui.Button(label=PAGE_LABELS[pos % 2], style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"mjp:{match_id}:{page}:{pos % 2}"))
        self.match_id, self.page = match_id, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["match"]), int(match["page"]), int(match["pos"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await interaction.client.get_cog("Mj").show_standings_page(interaction, self.match_id, self.page)


class LobbySelect(Guarded, discord.ui.DynamicItem[discord.ui.Select], template=MENU_ID):
    """A settings menu of a lobby's table message (``key``: ``pace``, ``hands``, ``auto``;
    ``cogs/lobby_settings.py``)."""

    def __init__(self, ch: int, key: str, options: list | None = None, placeholder: str = "…",
                 row: int | None = None):
        super().__init__(discord.ui.Select(custom_id=f"mjo:{ch}:{key}", placeholder=placeholder[:150], row=row,
                                           options=options or [discord.SelectOption(label="-", value="-")]))
        self.ch, self.key = ch, key

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        options = list(getattr(item, "options", None) or []) or None
        return cls(int(match["ch"]), match["key"], options, getattr(item, "placeholder", None) or "…")

    async def run(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values or [])
        await interaction.client.get_cog("Mj").on_lobby_menu(interaction, self.ch, self.key,
                                                             values[0] if values else "")


class FormButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=FORM_ID):
    """Opens form ``part`` of a game's rules for the server's defaults (``kind`` ``d``),
    preset ``name`` (``p``) or a table being created (``c``): the next form of a game with
    several, or a refused one again (``cogs/config.py``, ``cogs/tables.py``)."""

    def __init__(self, kind: str, game: str, part: int, name: str | None = None, label: str = "?"):
        cid = f"mjf:{kind}:{game}:{part}" + (f":{name}" if name else "")
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary, custom_id=cid[:100]))
        self.kind, self.game, self.part, self.name = kind, game, part, name

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["kind"], match["game"], int(match["part"]), match["name"],
                   label=getattr(item, "label", None) or "?")

    async def run(self, interaction: discord.Interaction) -> None:
        await interaction.client.get_cog("Mj").on_form_button(interaction, self)


class Outdated(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=OUTDATED_ID):
    """Any component whose id has no current format: a message drawn by an older version of
    the bot (with the prefix or without), or a tampered id.  Answers privately that it is out of
    date (instead of Discord's "This interaction failed")."""

    def __init__(self, custom_id: str = "mj:-"):
        super().__init__(discord.ui.Button(label="?", custom_id=custom_id[:100]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match.string)

    async def run(self, interaction: discord.Interaction) -> None:
        await reply_error(interaction, ServiceError("outdated"))


#: the bot's persistent components, registered at start-up (``Client.add_dynamic_items``)
ITEMS = (ActionButton, ActionSelect, TableButton, ReplayButton, MatchSelect, PageButton, LobbySelect, FormButton,
         Outdated)
