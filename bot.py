"""Run the mahjong bot, or — without a Discord token — a local table in the terminal.

    python bot.py                      # DISCORD_TOKEN set (environment or .env): the Discord bot
    python bot.py                      # no token: play in the terminal against AI seats
    python bot.py --auto               # AI against AI, a whole game, prints the settlement
    python bot.py --variant two_player --seed 7 --hands 4 --out table_images

Configuration comes from the environment (or a ``.env`` file): ``DISCORD_TOKEN``,
``DATABASE_URL`` (default: the SQLite file ``mahjong.db``), ``DISCORD_GUILD_ID`` (sync the
slash commands to one server at start-up, which is instant; otherwise they are synced
globally).
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
             timer_interval: float = 1.0):
    """Build the Discord bot (not started).

    :param store_url: database URL (``DATABASE_URL`` or the default SQLite file when ``None``).
    :param clock: the table timers' clock (``service.clock.SystemClock`` by default).
    :param sync: sync the slash commands at start-up (to ``guild_id`` if given, else globally).
    :param timer_interval: seconds between timer checks; ``0`` disables the timer task (tests
        call ``bot.service.tick()`` themselves).
    """
    import discord
    from discord.ext import commands

    from cogs.records import ReplayButton
    from cogs.ui import ActionButton, ActionSelect, TableButton
    from service.store import Store
    from service.tables import TableService

    class MahjongBot(commands.Bot):
        def __init__(self):
            super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                             help_command=None)
            self.store = Store(store_url or os.environ.get("DATABASE_URL") or DEFAULT_DB)
            self.service = TableService(self.store, clock)
            self.user_langs: dict[int, str] = {}
            self._timer_task: asyncio.Task | None = None

        async def setup_hook(self) -> None:
            await self.store.init()
            tables = await self.service.load()
            log.info("resumed %d open tables", len(tables))
            from cogs.translator import CatalogueTranslator

            await self.tree.set_translator(CatalogueTranslator())
            for name in COGS:
                await self.load_extension(name)
            self.add_dynamic_items(ActionButton, ActionSelect, TableButton, ReplayButton)
            if sync:
                guild = discord.Object(guild_id) if guild_id else None
                if guild:
                    self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            if timer_interval:
                self._timer_task = asyncio.create_task(self._timers())

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
            await super().close()
            await self.store.close()

    return MahjongBot()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Mahjong bot for Discord, or a local table without a token.")
    parser.add_argument("--variant", default="two_player", help="game id (default: two_player)")
    parser.add_argument("--seed", type=int, default=None, help="table seed, for a reproducible game")
    parser.add_argument("--auto", action="store_true", help="AI plays every seat; print the settlement")
    parser.add_argument("--hands", type=int, default=4, help="hands in a local game (default: 4)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats at the local table (default: the game's maximum)")
    parser.add_argument("--out", default="table_images", help="folder for the local table images")
    parser.add_argument("--db", default=None, help="database URL for the local table (default: a temporary file)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="table option, e.g. --option base_points=2 (repeatable)")
    parser.add_argument("--lang", default="zh", choices=["zh", "en"], help="language of the local table")
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
        guild = os.environ.get("DISCORD_GUILD_ID")
        bot = make_bot(sync=True, guild_id=int(guild) if guild else None)
        bot.run(token, log_handler=None)
        return 0
    from terminal import run_local
    return asyncio.run(run_local(args))


if __name__ == "__main__":
    sys.exit(main())
