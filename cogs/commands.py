"""Every command of the bot but the play verbs, under one group, ``/mj``:

* ``/mj table create|join|leave|add-ai|start|takeover|replace|end|show`` — a channel's table
  (``cogs/tables.py``); the channel's other messages are counted to post the table message
  again after the server's number of them (``on_message``);
* ``/mj hand`` — your hand, privately (``cogs/play.py``);
* ``/mj score|leaderboard|history|replay|verify`` — records (``cogs/records.py``; a replay from
  one seat's view and an animated hand: ``cogs/seatview.py``);
* ``/mj rescore`` — a finished hand under other scoring options (``cogs/rescore.py``);
* ``/mj score|leaderboard|history|replay|verify`` — records (``cogs/records.py``);
* ``/mj record export|import`` — game records as files to share (``cogs/record_files.py``);
* ``/mj rules`` — a game's rules, options and fan table (``cogs/rules.py``);
* ``/mj help`` — what the bot does, a table in three steps, every command; the welcome when
  the bot joins a server (``cogs/help.py``);
* ``/mj config default|preset|preset-delete|channel|server|show`` — server settings, for admins
  (``cogs/config.py``).

The play verbs (``/discard``, ``/pung``, ``/pass`` …) stay one short top-level word each
(``cogs/play.py``); nothing else takes a top-level name.  Command and option names are the
same in every language; their descriptions are translated (``cogs/translator.py``).  Each
command only parses and hands over to the module that answers it; games are offered by
autocomplete over the registered games, so a game registered later is offered too.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.ai_levels import offered_levels
from engine.variants import all_variants, find_variant
from service.tables import ServiceError
from service.guilds import LOBBY_MINUTES_RANGE, REPOST_AFTER_RANGE, TABLE_LANGUAGES
from service.presets import PACES
from service.records import PERIODS

#: the English names of the leaderboard's orders (translated as ``cmd.choice__<order>``)
BOARD_NAMES = {"points": "Points", "rating": "Rating", "dan": "段位 (rank)"}
#: the English names of the leaderboard's periods (translated as ``cmd.choice__<period>``)
PERIOD_NAMES = {"all": "All time", "month": "This month", "week": "This week"}
#: the English names of the paces (translated as ``cmd.choice__<pace>``)
PACE_NAMES = {"normal": "Normal — 15 s a move", "relaxed": "Relaxed — 60 s a move"}
#: the names of the table languages (translated as ``cmd.choice__<language>``)
LANGUAGE_NAMES = {"auto": "Automatic (server or creator)", "zh-CN": "简体中文", "zh-TW": "繁體中文", "en": "English"}
#: the English names of the AI levels (translated as ``cmd.choice__ai_<level>``: the pace
#: ``normal`` has the key ``cmd.choice__normal``)
#: the AI levels ``/mj table add-ai`` offers (the strongest is the default)
AI_LEVELS = offered_levels(all_variants())
LEVEL_NAMES = {"easy": "Easy — the nearest win", "normal": "Normal — the plain game",
               "strong": "Strong — goes for what the game pays"}

from . import config as settings
from . import help as guide
from . import form_submits, lobby_settings, record_files, records, rescore, rules, seatview, standings, tables
from . import profile as profiles
from .common import reply_error
from .play import send_hand
from .tables import DEFAULT_GAME, game_autocomplete, options_autocomplete, preset_autocomplete


class Mj(commands.GroupCog, group_name="mj", group_description="Chinese mahjong and paper-card tables"):
    """The ``/mj`` group; its handlers live in the modules named above."""

    table = app_commands.Group(name="table", description="This channel's table: create, join, start, end",
                               guild_only=True)
    record = app_commands.Group(name="record", description="Game records as files: export a hand or match, import one",
                                guild_only=True)
    config = app_commands.Group(name="config", description="Server settings for tables (admins)",
                                guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot):
        self.bot = bot
        super().__init__()

    # ------------------------------------------------------------------ the table
    @table.command(name="create", description="Open a table in this channel")
    @app_commands.describe(variant="The game", pace="Time to think: normal (15 s a move) or relaxed (60 s)",
                           preset="A saved or shipped preset of options",
                           options="House options, e.g. base_points=2 min_fan=10",
                           hands="Hands in the match (1–100; the table closes with the final standings). "
                                 "Default: until /mj table end",
                           rules="Set the game's rules in a form before the table opens")
    @app_commands.choices(pace=[app_commands.Choice(name=PACE_NAMES[p], value=p) for p in PACES])
    @app_commands.autocomplete(variant=game_autocomplete, preset=preset_autocomplete, options=options_autocomplete)
    async def table_create(self, interaction: discord.Interaction, variant: str = DEFAULT_GAME,
                           pace: str = "normal", preset: str | None = None, options: str | None = None,
                           hands: app_commands.Range[int, 1, 100] | None = None, rules: bool = False) -> None:
        await tables.create(self.bot, interaction, variant, preset, options, pace, hands, rules)

    @table.command(name="join", description="Sit down at this channel's table")
    @app_commands.describe(seat="Once the game runs: the seat to take (default: a free one)")
    async def table_join(self, interaction: discord.Interaction,
                         seat: app_commands.Range[int, 1, 8] | None = None) -> None:
        await tables.lobby_op(self.bot, interaction, "join", arg=None if seat is None else seat - 1)

    @table.command(name="leave", description="Leave this channel's table")
    async def table_leave(self, interaction: discord.Interaction) -> None:
        await tables.lobby_op(self.bot, interaction, "leave")

    @table.command(name="add-ai", description="Add an AI player")
    @app_commands.describe(level="How well the AI plays (default: the game's strongest)")
    @app_commands.choices(level=[app_commands.Choice(name=app_commands.locale_str(LEVEL_NAMES[v], key=f"cmd.choice__ai_{v}"),
                                                     value=v) for v in AI_LEVELS])
    async def table_add_ai(self, interaction: discord.Interaction, level: str | None = None) -> None:
        await tables.lobby_op(self.bot, interaction, "addai", level=level)

    @table.command(name="start", description="Start the game")
    async def table_start(self, interaction: discord.Interaction) -> None:
        await tables.lobby_op(self.bot, interaction, "start")

    @table.command(name="takeover", description="Take back your seat from auto-play")
    async def table_takeover(self, interaction: discord.Interaction) -> None:
        await tables.lobby_op(self.bot, interaction, "takeover")

    @table.command(name="replace", description="Hand an absent player's seat to the AI (creator or admin; others vote)")
    @app_commands.describe(player="The absent player")
    async def table_replace(self, interaction: discord.Interaction, player: discord.User) -> None:
        await tables.replace(self.bot, interaction, player)

    @table.command(name="end", description="Close this channel's table (its creator or an admin)")
    async def table_end(self, interaction: discord.Interaction) -> None:
        await tables.end(self.bot, interaction)

    @table.command(name="show", description="Post the table message again at the bottom of the channel")
    async def table_show(self, interaction: discord.Interaction) -> None:
        await tables.show(self.bot, interaction)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await tables.on_channel_message(self.bot, message)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A rules form sent (``cogs/form_submits.py``: forms are read by their id, not kept)."""
        if interaction.type is discord.InteractionType.modal_submit \
                and str((interaction.data or {}).get("custom_id") or "").startswith("mjform:"):
            await form_submits.on_form_submit(self.bot, interaction)

    async def on_table_button(self, interaction: discord.Interaction, button) -> None:
        """A button of the public table message (``cogs.components.TableButton``)."""
        await tables.on_table_button(self.bot, interaction, button)

    async def on_lobby_menu(self, interaction: discord.Interaction, channel_id: int, key: str, value: str) -> None:
        """A choice in a lobby's settings menu (``cogs.components.LobbySelect``)."""
        await lobby_settings.on_menu(self.bot, interaction, channel_id, key, value)

    async def on_form_button(self, interaction: discord.Interaction, button) -> None:
        """A button opening a rules form (``cogs.components.FormButton``): a new table's
        (``kind`` ``c``), else a server's defaults or preset."""
        if button.kind == "c":
            try:
                info = find_variant(button.game)
            except KeyError:
                return await reply_error(interaction, ServiceError("form_outdated"))
            return await tables.open_new_rules(self.bot, interaction, info, button.part, button.name or "")
        await settings.open_form(self.bot, interaction, button.kind, button.game, button.name, button.part)

    # ------------------------------------------------------------------ your hand
    @app_commands.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await send_hand(self.bot, interaction)

    # ------------------------------------------------------------------ records
    @app_commands.command(name="score", description="Cumulative score and statistics in this server")
    @app_commands.describe(player="Whose score (default: yours)", variant="Only this game")
    @app_commands.autocomplete(variant=game_autocomplete)
    @app_commands.guild_only()
    async def score(self, interaction: discord.Interaction, player: discord.User | None = None,
                    variant: str | None = None) -> None:
        await records.score(self.bot, interaction, player, variant)

    @app_commands.command(name="leaderboard", description="Top players of this server")
    @app_commands.describe(variant="Only this game", period="All time, this month or this week",
                           by="Points (default), rating or 段位 (rating and 段位: of one game)")
    @app_commands.autocomplete(variant=game_autocomplete)
    @app_commands.choices(period=[app_commands.Choice(name=PERIOD_NAMES.get(p, p), value=p) for p in PERIODS],
                          by=[app_commands.Choice(name=BOARD_NAMES[b], value=b) for b in BOARD_NAMES])
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, variant: str | None = None,
                          period: str = "all", by: str = "points") -> None:
        if by in ("rating", "dan"):
            return await profiles.rated_board(self.bot, interaction, variant, by)
        await records.leaderboard(self.bot, interaction, variant, period)

    @app_commands.command(name="profile", description="A player's card: rating, 段位, rates, last places, best hands")
    @app_commands.describe(player="Whose profile (default: yours)", variant="The game",
                           period="Rates over all time, this month or this week")
    @app_commands.autocomplete(variant=game_autocomplete)
    @app_commands.choices(period=[app_commands.Choice(name=PERIOD_NAMES.get(p, p), value=p) for p in PERIODS])
    @app_commands.guild_only()
    async def profile(self, interaction: discord.Interaction, player: discord.User | None = None,
                      variant: str | None = None, period: str = "all") -> None:
        await profiles.profile(self.bot, interaction, player, variant, period)

    @app_commands.command(name="profile-hide", description="Hide your profile from other players (or show it again)")
    @app_commands.describe(hidden="True: only you see your profile")
    @app_commands.guild_only()
    async def profile_hide(self, interaction: discord.Interaction, hidden: bool) -> None:
        await profiles.hide(self.bot, interaction, hidden)

    @app_commands.command(name="history", description="Your last hands (or a player's)")
    @app_commands.describe(player="Whose hands (default: yours)", variant="Only this game")
    @app_commands.autocomplete(variant=game_autocomplete)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None,
                      variant: str | None = None) -> None:
        await records.history(self.bot, interaction, player, variant)

    @app_commands.command(name="standings", description="A match's final standings and its hands to replay (see /mj history)")
    @app_commands.describe(match="The match (M# in /mj history)")
    @app_commands.autocomplete(match=standings.match_autocomplete)
    @app_commands.guild_only()
    async def standings_command(self, interaction: discord.Interaction, match: int) -> None:
        await standings.show(self.bot, interaction, match)

    @app_commands.command(name="replay", description="Step through a finished hand (every hand face up, or your seat's view), or animate it")
    @app_commands.describe(hand="The hand number (see /mj history)",
                           seat="Your seat in that hand: its view, your decisions marked (steps: only you see them)",
                           animate="True: post the hand move by move as an animated GIF")
    @app_commands.autocomplete(hand=records.hand_autocomplete, seat=seatview.seat_autocomplete)
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, hand: int,
                     seat: app_commands.Range[int, 1, 8] | None = None, animate: bool = False) -> None:
        at = None if seat is None else seat - 1
        if animate:
            await seatview.animate(self.bot, interaction, hand, at)
        else:
            await records.show_replay(self.bot, interaction, hand, 0, edit=False, seat=at)

    async def show_replay(self, interaction: discord.Interaction, hand_id: int, step: int, edit: bool,
                          lang: str | None = None, seat: int | None = None) -> None:
        """A step button of a replay (``cogs.components.ReplayButton``; ``lang``: the message's;
        ``seat``: a seat's view, 0-based)."""
        await records.show_replay(self.bot, interaction, hand_id, step, edit, lang, seat=seat)

    async def show_standings_page(self, interaction: discord.Interaction, match_id: int, page: int) -> None:
        """A page button of a match's final standings (``cogs.components.PageButton``)."""
        await standings.show_page(self.bot, interaction, match_id, page)

    @app_commands.command(name="verify", description="Reveal a finished hand's seed and rebuild its wall")
    @app_commands.describe(hand="The hand number (see /mj history)")
    @app_commands.autocomplete(hand=records.hand_autocomplete)
    @app_commands.guild_only()
    async def verify(self, interaction: discord.Interaction, hand: int) -> None:
        await records.verify(self.bot, interaction, hand)

    @app_commands.command(name="rescore", description="What a finished hand would have paid under other scoring rules")
    @app_commands.describe(hand="The hand number (see /mj history)",
                           options="Scoring options to change, e.g. style=tuidaoba (only those that change the score alone)",
                           preset="A saved or shipped preset of the hand's game")
    @app_commands.autocomplete(hand=records.hand_autocomplete, options=rescore.options_autocomplete,
                               preset=rescore.preset_autocomplete)
    @app_commands.guild_only()
    async def rescore_command(self, interaction: discord.Interaction, hand: int, options: str | None = None,
                              preset: str | None = None) -> None:
        await rescore.rescore(self.bot, interaction, hand, options, preset)

    # ------------------------------------------------------------------ record files
    @record.command(name="export", description="A finished hand or match as a record file (.json) and as text (.txt)")
    @app_commands.describe(hand="The hand number (see /mj history)", match="Or a match (M# in /mj history): all its hands")
    @app_commands.autocomplete(hand=records.hand_autocomplete, match=standings.match_autocomplete)
    async def record_export(self, interaction: discord.Interaction, hand: int | None = None,
                            match: int | None = None) -> None:
        await record_files.export(self.bot, interaction, hand, match)

    @record.command(name="import", description="Check a record file by replaying it, and keep it to replay here")
    @app_commands.describe(file="A record file (.json) exported by /mj record export")
    async def record_import(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        await record_files.import_(self.bot, interaction, file)

    # ------------------------------------------------------------------ rules
    @app_commands.command(name="rules", description="A game's rules summary, options and fan table")
    @app_commands.describe(variant="The game")
    @app_commands.autocomplete(variant=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, variant: str = DEFAULT_GAME) -> None:
        await rules.rules(self.bot, interaction, variant)

    # ------------------------------------------------------------------ help
    @app_commands.command(name="help", description="What the bot does, a table in three steps, the games and every command")
    async def help_command(self, interaction: discord.Interaction) -> None:
        await guide.show_help(self.bot, interaction)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await guide.welcome(guild)

    # ------------------------------------------------------------------ server settings
    @config.command(name="default", description="Set this server's default options of a game")
    @app_commands.describe(variant="The game",
                           options="key=value … (empty: a form of the game's rules, filled with the current defaults)")
    @app_commands.autocomplete(variant=game_autocomplete, options=options_autocomplete)
    async def config_default(self, interaction: discord.Interaction, variant: str, options: str | None = None) -> None:
        await settings.default(self.bot, interaction, variant, options)

    @config.command(name="preset", description="Save a named preset of options")
    @app_commands.describe(name="Preset name", variant="The game", options="key=value … (empty: a form of the game's rules)")
    @app_commands.autocomplete(variant=game_autocomplete, options=options_autocomplete)
    async def config_preset(self, interaction: discord.Interaction, name: str, variant: str,
                            options: str | None = None) -> None:
        await settings.preset(self.bot, interaction, name, variant, options)

    @config.command(name="preset-delete", description="Delete a saved preset")
    @app_commands.describe(name="Preset name")
    async def config_preset_delete(self, interaction: discord.Interaction, name: str) -> None:
        await settings.preset_delete(self.bot, interaction, name)

    @config.command(name="channel", description="Allow or forbid tables in a channel")
    @app_commands.describe(channel="The channel", allow="Allow tables there (the first allowed channel "
                                                         "restricts tables to the allowed ones)")
    async def config_channel(self, interaction: discord.Interaction, channel: discord.TextChannel,
                             allow: bool) -> None:
        await settings.channel(self.bot, interaction, channel, allow)

    @config.command(name="server", description="Server settings: table language, lobby time, reposting the table")
    @app_commands.describe(language="Language of the public table messages",
                           lobby_minutes="Minutes a lobby may wait unchanged before it closes (default 15)",
                           repost_after="Post the table message again after this many other messages (0: never)")
    @app_commands.choices(language=[app_commands.Choice(name=LANGUAGE_NAMES[x], value=x) for x in TABLE_LANGUAGES])
    async def config_server(self, interaction: discord.Interaction, language: str | None = None,
                            lobby_minutes: app_commands.Range[int, LOBBY_MINUTES_RANGE[0], LOBBY_MINUTES_RANGE[1]]
                            | None = None,
                            repost_after: app_commands.Range[int, REPOST_AFTER_RANGE[0], REPOST_AFTER_RANGE[1]]
                            | None = None) -> None:
        await settings.server(self.bot, interaction, language, lobby_minutes, repost_after)

    @config.command(name="show", description="Show this server's table settings")
    async def config_show(self, interaction: discord.Interaction) -> None:
        await settings.show(self.bot, interaction)


async def setup(bot) -> None:
    await bot.add_cog(Mj(bot))
