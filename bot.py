"""Run the mahjong bot, or — without a Discord token — a local table in the terminal.

    python bot.py                      # DISCORD_TOKEN set (environment or .env): the Discord bot
    python bot.py                      # no token: play in the terminal against AI seats
    python bot.py --auto               # AI against AI, a whole game, prints the settlement
    python bot.py --variant two_player --seed 7 --hands 4 --out table_images

Configuration comes from the environment (or a ``.env`` file): ``DISCORD_TOKEN``,
``DATABASE_URL`` (default: the SQLite file ``mahjong.db``), ``DISCORD_GUILD_ID`` (sync the
slash commands to one server at start-up, which is instant; otherwise they are synced
globally), and for a sharded bot ``SHARD_COUNT`` with ``SHARD_IDS`` (``"0,1"``: the shards of
this process; unset: all): the process runs an ``AutoShardedBot`` and owns only the tables of
its shards' guilds; DM clicks for other processes' tables go through the database
(``service/routing.py``).  Every process of a sharded bot shares one ``DATABASE_URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

DEFAULT_DB = "sqlite:///mahjong.db"
COGS = ("cogs.tables", "cogs.play", "cogs.records", "cogs.config", "cogs.rules")

log = logging.getLogger("bot")


def make_bot(store_url: str | None = None, *, clock=None, sync: bool = False, guild_id: int | None = None,
             timer_interval: float = 1.0, shard_count: int | None = None, shard_ids: list[int] | None = None,
             route_interval: float = 0.2, schema: str | None = None):
    """Build the Discord bot (not started).

    :param store_url: database URL (``DATABASE_URL`` or the default SQLite file when ``None``).
    :param clock: the table timers' clock (``service.clock.SystemClock`` by default).
    :param sync: sync the slash commands at start-up (to ``guild_id`` if given, else globally).
    :param timer_interval: seconds between timer checks; ``0`` disables the timer task (tests
        call ``bot.service.tick()`` themselves).
    :param shard_count: run sharded (an ``AutoShardedBot``) with this many shards in all;
        ``shard_ids`` the shards of this process (default: all).  The process then loads and
        times only its shards' tables and applies the DM clicks routed to it.
    :param route_interval: seconds between polls for routed clicks (sharded only); ``0``
        disables the task (tests call ``bot.poll_routed()``).
    :param schema: PostgreSQL schema of the tables (``Store(schema=)``).
    """
    import discord
    from discord.ext import commands

    from cogs.records import ReplayButton
    from cogs.ui import ActionButton, ActionSelect, TableButton
    from service.routing import Router, Sharding
    from service.guilds import GuildSettings
    from service.records import Records
    from store import Store
    from service.tables import TableService

    sharding = Sharding(shard_count, tuple(shard_ids) if shard_ids is not None else None) if shard_count else None
    base = commands.AutoShardedBot if sharding else commands.Bot

    class MahjongBot(base):
        def __init__(self):
            extra = {}
            if sharding:
                extra = {"shard_count": sharding.shard_count, "shard_ids": list(sharding.mine)}
            super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                             help_command=None, **extra)
            self.store = Store(store_url or os.environ.get("DATABASE_URL") or DEFAULT_DB, schema=schema)
            self.sharding = sharding
            self.service = TableService(self.store, clock, owns=sharding.owns if sharding else None)
            self.records = Records(self.store)
            self.settings = GuildSettings(self.store)
            self.router = Router(self.store, sharding) if sharding else None
            self.user_langs: dict[int, str] = {}
            #: seconds between two edits of a table message (Discord's pace: about one a second)
            self.public_edit_interval = 1.0
            self._timer_task: asyncio.Task | None = None

        async def setup_hook(self) -> None:
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
            self.add_dynamic_items(ActionButton, ActionSelect, TableButton, ReplayButton)
            for table in getattr(self, "_resumed", []):
                # redraw each resumed table and send what the stopped process had not sent
                await self.service.announce(table)
            if sync:
                guild = discord.Object(guild_id) if guild_id else None
                if guild:
                    self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            if timer_interval:
                self._timer_task = asyncio.create_task(self._timers())
            if self.router is not None and route_interval:
                self.router.start(self.apply_routed, route_interval)

        # ------------------------------------------------------------ routed clicks (sharding)
        async def forward_click(self, interaction: discord.Interaction, button) -> bool:
            """A DM click on an action button of a table this process does not run: if another
            process owns it, acknowledge the click (deferred update) and store it for that
            process (``service.routing``); returns ``True`` when forwarded."""
            if self.router is None:
                return False
            guild_id = await self.service.stored_guild_of(button.ch)
            if guild_id is None or self.sharding.owns(guild_id):
                return False
            await interaction.response.defer()
            await self.router.submit(
                guild_id=guild_id, token=interaction.token, application_id=interaction.application_id,
                user_id=interaction.user.id, channel_id=button.ch,
                message_id=interaction.message.id if interaction.message is not None else None,
                action=button.act, tile=button.tile, seq=button.seq, locale=str(interaction.locale),
                hand_id=button.hand)
            return True

        async def poll_routed(self) -> int:
            """Apply the clicks routed to this process's shards now; returns how many."""
            return await self.router.poll_once(self.apply_routed) if self.router is not None else 0

        async def apply_routed(self, row) -> None:
            """Apply one routed click as ``Play.on_action_button`` would, and answer through
            the interaction's token: the clicked message redrawn, or a private error."""
            from cogs import ui
            from engine.errors import IllegalAction
            from engine.tiles import TileParseError, parse_kind
            from render.text import error_text, lang_of
            from service.tables import ServiceError

            lang = lang_of(row.locale)
            # the interaction's webhook, as ``Interaction.followup`` builds it (type 3: application)
            hook = discord.Webhook.from_state(
                data={"id": row.application_id, "type": 3, "token": row.token}, state=self._connection)
            variant = None
            try:
                table = self.service.table_in(row.channel_id)
                variant = table.variant.id
                act = row.action
                seat = self.service.may_act(table, row.user_id, hand_id=row.hand_id, seq=row.seq,
                                            waited=act not in ("prompt", "ting_menu"))
                upd = None
                if act in ("prompt", "ting_menu"):
                    kwargs = await ui.hand_message(table, seat, lang, ting_menu=act == "ting_menu")
                elif act == "discard" and table.hand.view(seat).get("wild") \
                        and ui.is_wild(table.hand.view(seat), row.tile) \
                        and not getattr(table.hand, "CONFIRMS_WILD_DISCARD", False):
                    kwargs = await ui.hand_message(table, seat, lang, confirm_wild=row.tile)
                else:
                    try:
                        kind = None if row.tile in ("", "-") else parse_kind(row.tile)
                    except TileParseError:
                        raise ServiceError("unknown_tile", tile=row.tile) from None
                    upd = await self.service.act(row.channel_id, row.user_id, "discard" if act == "wdiscard" else act,
                                                 kind, seq=row.seq, hand_id=row.hand_id)
                    kwargs = await ui.hand_message(table, seat, lang, notices=upd.notices.get(seat))
            except (ServiceError, IllegalAction) as e:
                await hook.send(error_text(e.code, lang, e.params, variant), ephemeral=True)
                return
            if row.message_id is None:
                return
            await hook.edit_message(row.message_id, content=kwargs["content"], attachments=[kwargs["file"]],
                                    view=kwargs["view"])

        async def on_interaction(self, interaction: discord.Interaction) -> None:
            """A click on a component that no button class or view of this bot handles (a
            message drawn by an older version of the bot, or a tampered id) gets a private
            "that button is out of date" instead of Discord's "This interaction failed"."""
            if interaction.type is not discord.InteractionType.component:
                return
            data = interaction.data or {}
            cid, ctype = str(data.get("custom_id", "")), data.get("component_type")
            views = self._connection._view_store
            if any(pattern.fullmatch(cid) for pattern in views._dynamic_items):
                return
            mid = interaction.message.id if interaction.message is not None else None
            if views._views.get(mid, {}).get((ctype, cid)) or views._views.get(None, {}).get((ctype, cid)):
                return
            from cogs.common import reply_error
            from service.tables import ServiceError

            await reply_error(interaction, ServiceError("outdated"))

        async def _timers(self) -> None:
            while True:
                try:
                    await self.service.tick()
                except Exception:
                    log.exception("timer tick failed")
                await asyncio.sleep(timer_interval)

        async def close(self) -> None:
            if self._timer_task:
                self._timer_task.cancel()
            if self.router is not None:
                self.router.stop()
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Mahjong bot for Discord, or a local table without a token.")
    parser.add_argument("--variant", default="two_player", help="game id (default: two_player)")
    parser.add_argument("--seed", type=int, default=None, help="table seed, for a reproducible game")
    parser.add_argument("--auto", action="store_true", help="AI plays every seat; print the settlement")
    parser.add_argument("--hands", type=positive_int, default=4, help="hands in a local game (default: 4)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats at the local table (default: the game's maximum)")
    parser.add_argument("--out", default="table_images", help="folder for the local table images")
    parser.add_argument("--db", default=None, help="database URL for the local table (default: a temporary file)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=table_option,
                        help="table option, e.g. --option base_points=2 (repeatable)")
    parser.add_argument("--lang", default="zh", choices=["zh", "zh-TW", "en"],
                        help="language of the local table: zh (Simplified), zh-TW (Traditional) or en")
    args = parser.parse_args(argv)
    try:
        from dotenv import load_dotenv
        load_dotenv()
    except ImportError:
        pass
    token = os.environ.get("DISCORD_TOKEN")
    logging.basicConfig(level=logging.INFO if token else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if token:
        from service.routing import Sharding

        guild = os.environ.get("DISCORD_GUILD_ID")
        sharding = Sharding.from_env(os.environ.get("SHARD_COUNT"), os.environ.get("SHARD_IDS"))
        from render.common import warm_up

        warm_up()  # the palette and the tile images, before the first click needs them
        bot = make_bot(sync=True, guild_id=int(guild) if guild else None,
                       shard_count=sharding.shard_count if sharding else None,
                       shard_ids=list(sharding.mine) if sharding else None)
        bot.run(token, log_handler=None)
        return 0
    from local import play
    return play(args)


if __name__ == "__main__":
    sys.exit(main())
