"""Run the mahjong bot, or — without a Discord token — a local table in the terminal.

    python bot.py                      # DISCORD_TOKEN set (environment or .env): the Discord bot
    python bot.py                      # no token: play in the terminal against AI seats
    python bot.py --auto               # AI against AI, a whole game, prints the settlement
    python bot.py --ai-level easy      # the AI seats play at a level: easy, normal, strong (default: the game's strongest)
    python bot.py --variant two_player --seed 7 --hands 4 --out table_images

Configuration comes from the environment (or a ``.env`` file): ``DISCORD_TOKEN``,
``DATABASE_URL`` (default: the SQLite file ``mahjong.db`` in the user's data directory,
``store/location.py``), ``LOG_LEVEL`` (default ``INFO``), ``WEB_PORT`` / ``WEB_HOST`` /
``HEALTH_STALL_SECONDS`` (``/healthz`` and ``/metrics``, off by default: ``cogs/web.py``),
``DISCORD_GUILD_ID`` (sync the
slash commands to one server at start-up, which is instant; otherwise they are synced
globally), and for a sharded bot ``SHARD_COUNT`` with ``SHARD_IDS`` (``"0,1"``: the shards of
this process; unset: all): the process runs an ``AutoShardedBot`` and owns only the tables of
its shards' guilds; DM clicks for other processes' tables go through the database
(``service/routing.py``).  Every process of a sharded bot shares one ``DATABASE_URL``.
``STOP_TIMEOUT``: seconds a clean stop on SIGTERM or Ctrl-C may take (default 8,
``cogs/shutdown.py``).  Exit status: 0 stopped when asked, 1 Discord unreachable, 2 a
configuration mistake.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys


COGS = ("cogs.commands", "cogs.play")
#: what ``python bot.py`` says when it has neither a token nor a person at the terminal
NO_TOKEN = ("bot.py: DISCORD_TOKEN is not set (in the environment or a .env file) and standard input "
            "is not a terminal, so neither the Discord bot nor the local table can run.\n"
            "Set DISCORD_TOKEN to run the bot; use --local to play the local table from a pipe, "
            "or --auto to let the AI play every seat.")

log = logging.getLogger("bot")
#: seconds a decision stays open before its player gets a notice DM (``TableFeed._notice_due``)
NOTICE_DELAY = 5.0


def make_bot(store_url: str | None = None, *, clock=None, sync: bool = False, guild_id: int | None = None,
             timer_interval: float = 1.0, shard_count: int | None = None, shard_ids: list[int] | None = None,
             route_interval: float = 0.2, schema: str | None = None, tile_emojis: bool = True,
             backups=None, web=None):
    """Build the Discord bot (not started).

    :param store_url: database URL (``DATABASE_URL`` or the default SQLite file in the data
        directory when ``None``: ``store.location.database_url``).
    :param clock: the table timers' clock (``service.clock.SystemClock`` by default).
    :param sync: sync the slash commands at start-up (to ``guild_id`` if given, else globally)
        when their definitions changed since the last sync (``cogs/sync.py``); in a sharded
        bot only the process running shard 0 syncs.
    :param timer_interval: seconds between timer checks; ``0`` disables the timer task (tests
        call ``bot.service.tick()`` themselves).
    :param shard_count: run sharded (an ``AutoShardedBot``) with this many shards in all;
        ``shard_ids`` the shards of this process (default: all).  The process then loads and
        times only its shards' tables and applies the DM clicks routed to it.
    :param route_interval: seconds between polls for routed clicks (sharded only); ``0``
        disables the task (tests call ``bot.poll_routed()``).
    :param schema: PostgreSQL schema of the tables (``Store(schema=)``).
    :param tile_emojis: make the application's emojis show the tiles at start-up (uploading
        only what is missing or changed, ``cogs/emojis.py``); without them every tile button
        is labelled with text.
    :param backups: ``store.backup_schedule.BackupSettings``: copy the database daily into its
        folder (a background task), and copy it there before a migration; ``None``: no
        scheduled copy (the copy before a migration goes beside a SQLite database).
    :param web: a ``cogs.web.WebSettings``: serve ``/healthz`` and ``/metrics`` there (started
        at the end of the set-up, stopped first at close) and keep the metrics
        (``cogs/metrics.py``); ``None`` (the default): no web server, no metrics.
    """
    import discord
    from discord.ext import commands

    # the bot has no voice: no warnings at every start that voice's libraries are missing
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False

    from cogs import components
    from cogs.common import DEFER_AFTER
    from cogs.emojis import TileEmojis
    from cogs.fanout import Fanout
    from cogs.shutdown import GatedTree, Shutdown
    from service.routing import Router, Sharding
    from service.guilds import GuildSettings
    from service.matches import MatchRecords
    from service.records import Records
    from service.record_exchange import RecordExchange
    from service.profile import Profiles
    from service.rates import RateBook
    from store import Store
    from store.backup_schedule import BackupSchedule
    from store.location import database_url
    from service.tables import TableService

    sharding = Sharding(shard_count, tuple(shard_ids) if shard_ids is not None else None) if shard_count else None
    base = commands.AutoShardedBot if sharding else commands.Bot

    class MahjongBot(base):
        def __init__(self):
            extra = {}
            if sharding:
                extra = {"shard_count": sharding.shard_count, "shard_ids": list(sharding.mine)}
            #: ``hook(event, args)`` for every event, as discord.py dispatches it (before any
            #: handler runs): the gateway's state and the interactions' arrival
            self.event_hooks: list = []
            self.metrics = None
            self.web = None
            if web is not None:
                from cogs.metrics import Metrics

                self.metrics = Metrics(sharding.shard_count if sharding else 1, sharding.mine if sharding else (0,))
                extra["http_trace"] = self.metrics.http_trace
            # nothing the bot writes pings anyone unless its message names them
            super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                             help_command=None, allowed_mentions=discord.AllowedMentions.none(),
                             tree_cls=GatedTree, **extra)
            self.store = Store(store_url or database_url(os.environ), schema=schema,
                               backup_dir=backups.folder if backups else None)
            self.sharding = sharding
            from render.text import typed

            self.service = TableService(self.store, clock, owns=sharding.owns if sharding else None,
                                        vocabulary=typed)
            self.records = Records(self.store)
            self.profiles = Profiles(self.store, RateBook(self.store))
            self.matches = MatchRecords(self.store)
            self.record_exchange = RecordExchange(self.store)
            self.settings = GuildSettings(self.store)
            self.router = Router(self.store, sharding) if sharding else None
            #: seconds between two edits of a table message (Discord's pace: about one a second)
            self.public_edit_interval = 1.0
            #: seconds of work after which an interaction is acknowledged before its answer
            #: (``None``: never), and what waits for them (``cogs/common.py`` ``within``)
            self.defer_after: float | None = DEFER_AFTER
            self.defer_timer = asyncio.sleep
            #: seconds a decision stays open before its player is pinged by a notice DM (a
            #: player watching the panel answers first), and what waits for them
            self.notice_delay: float = NOTICE_DELAY
            self.notice_timer = asyncio.sleep
            self._timer_task: asyncio.Task | None = None
            #: the daily database copy (``store/backup_schedule.py``), when ``backups`` is given
            self.backups = BackupSchedule(self.store.url, backups, schema=schema) if backups else None
            self._backup_task: asyncio.Task | None = None
            #: held while the timers tick: a clean stop waits for the tick in progress
            self.ticking = asyncio.Lock()
            #: the clean stop: refuses interactions once stopping, drains what is in flight
            self.shutdown = Shutdown(self)
            #: the tiles' application emojis this process shows (``cogs/emojis.py``)
            self.tile_emojis = TileEmojis()
            #: the start-up's emoji upload (or, in a process that does not upload, its reading)
            self.emoji_task: asyncio.Task | None = None
            #: what each table shows (public message, DMs), in the table's own task
            self.fanout = Fanout(self)
            self.service.listeners.append(self.fanout.on_change)
            if web is not None:
                from cogs.web import WebApp

                self.web = WebApp(self, web)

        def dispatch(self, event_name: str, /, *args, **kwargs) -> None:
            for hook in self.event_hooks:
                try:
                    hook(event_name, args)
                except Exception:
                    log.exception("event hook failed on %s", event_name)
            super().dispatch(event_name, *args, **kwargs)

        async def setup_hook(self) -> None:
            from service.version import licence, version

            log.info("mahjong-bot %s (%s licence) starting", version(), licence())
            if self.application_id:
                from cogs.permissions import invite_url

                log.info("invite the bot with %s", invite_url(self.application_id))
            await self.store.init()
            tables = await self.service.load()
            log.info("resumed %d open tables", len(tables))
            self._resumed = tables
            from cogs.translator import CatalogueTranslator

            await self.tree.set_translator(CatalogueTranslator())
            from cogs.common import handle_error

            @self.tree.error
            async def on_app_command_error(interaction: discord.Interaction, error) -> None:
                await handle_error(interaction, error)

            for name in COGS:
                await self.load_extension(name)
            self.add_dynamic_items(*components.ITEMS)
            if tile_emojis and self.application_id:
                self.emoji_task = asyncio.create_task(self._tile_emojis(), name="tile-emojis")
            for snap in getattr(self, "_resumed", []):
                # redraw each resumed table and send what the stopped process had not sent
                await self.service.announce(snap.channel_id)
            from cogs.standings import post_unposted

            # the final standings of matches that ended while (or just before) the bot stopped
            self._standings_task = asyncio.create_task(post_unposted(self))
            if sync and (sharding is None or 0 in sharding.mine):
                # one process syncs (shard 0's), and only when the commands changed
                from cogs.sync import sync_if_changed

                guild = discord.Object(guild_id) if guild_id else None
                if guild:
                    self.tree.copy_global_to(guild=guild)
                if await sync_if_changed(self.tree, guild, self.store.get_state, self.store.set_state):
                    log.info("slash commands synced")
            if timer_interval:
                self._timer_task = asyncio.create_task(self._timers())
            if self.backups is not None and (sharding is None or 0 in sharding.mine):
                # one process copies the shared database (shard 0's)
                self._backup_task = asyncio.create_task(self.backups.run(), name="backups")
            if self.router is not None and route_interval:
                self.router.start(self.apply_routed, route_interval)
            if self.web is not None:
                await self.web.start()
            self.shutdown.serving = True

        # ------------------------------------------------------------ routed clicks (sharding)
        async def poll_routed(self) -> int:
            """Apply the clicks routed to this process's shards now; returns how many."""
            return await self.router.poll_once(self.apply_routed) if self.router is not None else 0

        async def apply_routed(self, row) -> None:
            """Apply one click routed here by another process (``cogs.routing``)."""
            from cogs.routing import apply_routed

            await apply_routed(self, row)

        async def _timers(self) -> None:
            while True:
                try:
                    async with self.ticking:
                        await self.service.tick()
                except Exception:
                    log.exception("timer tick failed")
                await asyncio.sleep(timer_interval)

        async def _tile_emojis(self) -> None:
            """Upload the tiles' emojis missing or changed (the process running shard 0), or
            read what that process uploaded (the others)."""
            from cogs.emojis import follow_uploads, sync_emojis
            from render.emoji import emoji_pictures

            pictures = await asyncio.to_thread(emoji_pictures)
            try:
                if sharding is None or 0 in sharding.mine:
                    report = await sync_emojis(self, self.tile_emojis, pictures, self.store.get_state,
                                               self.store.set_state)
                    log.info("tile emojis: %d uploaded, %d replaced, %d kept", len(report.created),
                             len(report.deleted), len(report.kept))
                else:
                    await follow_uploads(self, self.tile_emojis, pictures, self.store.get_state)
            except Exception:
                log.exception("tile emojis failed; tiles are shown as text")

        async def emoji_refused(self) -> None:
            """Discord refused a message for one of the tiles' emojis (deleted on Discord, or
            replaced by another process): the bank keeps what Discord has, and the uploading
            process uploads what is missing again, in the background."""
            await self.tile_emojis.verify(self)
            if tile_emojis and (sharding is None or 0 in sharding.mine) and \
                    (self.emoji_task is None or self.emoji_task.done()):
                self.emoji_task = asyncio.create_task(self._tile_emojis(), name="tile-emojis")

        async def close(self) -> None:
            if self.web is not None:
                await self.web.stop()
            if self.emoji_task is not None:
                self.emoji_task.cancel()
            if self._timer_task:
                self._timer_task.cancel()
            if self._backup_task:
                self._backup_task.cancel()
            if self.router is not None:
                self.router.stop()
            self.fanout.stop()
            await super().close()
            await self.store.close()

    return MahjongBot()


def table_option(text: str) -> tuple[str, str]:
    """``--option key=value`` → ``(key, value)``; anything else is a usage error (argparse
    prints it and exits with code 2).  Whether the key and value suit the game is checked
    when the table is created."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value (e.g. --option base_points=2)")
    return key.strip(), value.strip()


def positive_int(text: str) -> int:
    """A whole number of at least 1 (``--hands``); anything else is a usage error."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is not at least 1")
    return n


#: the values of ``LOG_LEVEL``
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def log_level(text: str | None, default: int) -> int:
    """``LOG_LEVEL`` (a name of :data:`LOG_LEVELS`, any case) → a ``logging`` level; unset or
    empty: ``default``.  :raises ValueError: any other value, with the values allowed."""
    name = (text or "").strip().upper()
    if not name:
        return default
    if name not in LOG_LEVELS:
        raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {text!r}")
    return getattr(logging, name)


def config_error(message: str) -> int:
    """A configuration mistake: said on stderr, exit status 2 (a service manager does not
    restart the bot for it: ``deploy/mahjong-bot.service``'s ``RestartPreventExitStatus=2``)."""
    print(f"bot.py: {message}", file=sys.stderr)
    return 2


def unreachable(exc: BaseException) -> int:
    """Discord could not be reached (no network, DNS, Discord down): said on one line of
    stderr, exit status 1 — a failure a service manager retries (``Restart=on-failure``,
    compose's ``on-failure``), as the network may come back."""
    said = " ".join(str(exc).split()) or type(exc).__name__
    print(f"bot.py: cannot reach Discord ({said}); check the network — exit status 1", file=sys.stderr)
    return 1


def run_discord(token: str) -> int:
    """Run the Discord bot with ``token`` and the environment's settings until it stops.

    SIGTERM or SIGINT (Ctrl-C) stops it cleanly within ``STOP_TIMEOUT`` seconds
    (``cogs/shutdown.py``).

    :returns: 0 when it stopped (asked to, by a signal); 1 when Discord could not be reached
        (:func:`unreachable`); 2 for a configuration mistake — ``DISCORD_GUILD_ID``,
        ``SHARD_COUNT``, ``SHARD_IDS``, ``STOP_TIMEOUT`` or the ``BACKUP_*`` settings not numbers,
        ``WEB_PORT`` not a port or ``HEALTH_STALL_SECONDS`` not a positive number
        (``cogs/web.py``), a database URL that is not one, or a token Discord refuses — said on
        stderr (restarting would not help)."""
    import aiohttp
    import discord
    from sqlalchemy.exc import ArgumentError

    from cogs.shutdown import serve, stop_timeout
    from service.routing import Sharding

    guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        return config_error(f"DISCORD_GUILD_ID must be a server id (digits), not {guild!r}")
    try:
        sharding = Sharding.from_env(os.environ.get("SHARD_COUNT"), os.environ.get("SHARD_IDS"))
    except ValueError as exc:
        return config_error(f"SHARD_COUNT / SHARD_IDS: {exc} (e.g. SHARD_COUNT=2 SHARD_IDS=0,1)")
    from store.backup_schedule import BackupSettings

    try:
        backups = BackupSettings.from_env(os.environ)
    except ValueError as exc:
        return config_error(f"{exc} (the scheduled backups: BACKUP_DIR, BACKUP_KEEP_DAILY, BACKUP_KEEP_WEEKLY, "
                            "BACKUP_AT)")

    from cogs.web import WebSettings

    try:
        web = WebSettings.from_env(os.environ)
        timeout = stop_timeout(os.environ.get("STOP_TIMEOUT"))
    except ValueError as exc:
        return config_error(str(exc))
    from render.table import warm_up

    warm_up()  # the palette and the tile images, before the first click needs them
    try:
        bot = make_bot(sync=True, guild_id=int(guild) if guild else None,
                       shard_count=sharding.shard_count if sharding else None,
                       shard_ids=list(sharding.mine) if sharding else None, backups=backups, web=web)
    except ArgumentError as exc:
        return config_error(f"DATABASE_URL is not a database URL: {exc}")
    try:
        asyncio.run(serve(bot, lambda: bot.start(token), timeout=timeout))
    except KeyboardInterrupt:  # Ctrl-C (or SIGTERM) before the bot's own handlers were set
        print("bot.py: stopped during start-up", file=sys.stderr)
        return 0
    except (aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError) as exc:
        return unreachable(exc)
    except discord.LoginFailure:
        return config_error("Discord refused DISCORD_TOKEN (a wrong or reset token): copy the bot's token "
                            "again from the Developer Portal (Bot → Reset Token)")
    except discord.PrivilegedIntentsRequired:
        return config_error("Discord asks for a privileged intent; the bot needs none — check the code's intents")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Mahjong bot for Discord, or a local table without a token.")
    parser.add_argument("--variant", default="two_player", help="game id (default: two_player)")
    parser.add_argument("--seed", type=int, default=None, help="table seed, for a reproducible game")
    parser.add_argument("--auto", action="store_true", help="AI plays every seat; print the settlement")
    parser.add_argument("--local", action="store_true",
                        help="open the local table even when standard input is not a terminal (tests, scripts)")
    from engine.ai_levels import offered_levels
    from engine.variants import all_variants

    levels = offered_levels(all_variants())
    parser.add_argument("--ai-level", default=None, choices=list(levels),
                        help=f"how well the AI seats play: {', '.join(levels)} (default: the game's strongest)")
    parser.add_argument("--hands", type=positive_int, default=4, help="hands in a local game (default: 4)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats at the local table (default: the game's maximum)")
    parser.add_argument("--out", default="table_images", help="folder for the local table images")
    parser.add_argument("--db", default=None, help="database URL for the local table (default: a temporary file)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=table_option,
                        help="table option, e.g. --option base_points=2 (repeatable)")
    parser.add_argument("--name", default=None,
                        help="your name at the local table (default: your login name at a terminal)")
    parser.add_argument("--lang", default="zh", choices=["zh", "zh-TW", "en"],
                        help="language of the local table: zh (Simplified, the default), zh-TW (Traditional) or en")
    args = parser.parse_args(argv)
    from store.location import load_env_files

    load_env_files()  # the working directory's .env, then the one beside bot.py
    token = os.environ.get("DISCORD_TOKEN")
    try:  # the bot logs from INFO on, the local table only warnings, unless LOG_LEVEL says
        level = log_level(os.environ.get("LOG_LEVEL"), logging.INFO if token else logging.WARNING)
    except ValueError as exc:
        return config_error(str(exc))
    logging.basicConfig(level=level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if token:
        return run_discord(token.strip())
    if not (args.auto or args.local or sys.stdin.isatty()):
        # a service manager or a pipe without a token: no silent local game that "succeeds"
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from local import play
    return play(args)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    import signal

    # until the bot sets its own handlers (cogs/shutdown.py), SIGTERM stops it as Ctrl-C does
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("bot.py: stopped", file=sys.stderr)
        sys.exit(0)
