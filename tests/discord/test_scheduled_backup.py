"""The bot started with ``BACKUP_*`` settings copies its database in a background task of its
event loop (the copy in a worker thread), and cancels the task when it stops; without them
there is no task."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone

import pytest

from discord_play import new_bot
from fakediscord import FakeDiscord
from service.clock import ManualClock
from store.backup_schedule import BackupSettings


@pytest.mark.asyncio
async def test_the_bot_takes_its_first_copy_at_start_and_waits_for_the_next_hour(tmp_path):
    folder = tmp_path / "backups"
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock(), backups=BackupSettings(folder, 7, 4, 3))
    assert bot.store.migrations.backup_dir == folder  # the copy before a migration goes there too
    now = datetime(2026, 1, 10, 20, 15, tzinfo=timezone.utc)
    bot.backups.clock = lambda: now
    waited: list[float] = []
    asleep = asyncio.Event()

    async def sleep(seconds: float) -> None:  # the task's wait, held until the bot stops
        waited.append(seconds)
        asleep.set()
        await asyncio.Event().wait()

    bot.backups.sleep = sleep
    fd = FakeDiscord(bot)
    await fd.start()
    await asyncio.wait_for(asleep.wait(), 60)  # (a bound on a hang, not a measured time)
    # started at 20:15 with no copy: one now, the next at 03:00 tomorrow, 6 h 45 min later
    assert [p.name for p in folder.iterdir()] == ["mahjong-2026-01-10T201500Z.db"]
    assert waited == [6 * 3600 + 45 * 60]
    con = sqlite3.connect(folder / "mahjong-2026-01-10T201500Z.db")
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    task = bot._backup_task
    await fd.close()
    assert task.cancelled() or task.done()


@pytest.mark.asyncio
async def test_without_backup_settings_there_is_no_task(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    assert bot.backups is None and bot._backup_task is None
    await fd.close()
