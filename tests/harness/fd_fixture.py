"""``fd_bot``: a bot on a fresh SQLite file with a manual clock, connected to the fake Discord
(``tests/harness/fakediscord``) — the fixture the Discord tests share; a test module imports it
(``from fd_fixture import fd_bot``) or defines its own."""

from __future__ import annotations

import pytest_asyncio

from discord_play import new_bot
from fakediscord import FakeDiscord
from service.clock import ManualClock


@pytest_asyncio.fixture
async def fd_bot(tmp_path):
    """``(fake Discord, bot)`` on ``tmp_path/bot.db``, closed at the end."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    yield fd, bot
    await fd.close()
