"""``/healthz``'s store check (``service.health.StoreHealth``) must fail when the bot's SQLite
file is gone or damaged: every command then fails, so a health check that still says 200 keeps
a broken bot running unnoticed (Docker's and compose's health checks read it)."""

from __future__ import annotations

import pytest

from service.health import StoreHealth
from store import Store


async def _store(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/bot.db")
    await store.init()
    assert (await StoreHealth(store).check()).ok
    return store


def _remove_all(tmp_path) -> None:
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"bot.db{suffix}").unlink(missing_ok=True)


@pytest.mark.asyncio
async def test_the_store_check_fails_when_the_database_file_was_removed(tmp_path):
    store = await _store(tmp_path)
    try:
        _remove_all(tmp_path)  # a volume not mounted any more, a file deleted by mistake
        with pytest.raises(Exception):
            await store.finished_hands(1, limit=1)  # what every command now meets: no such table
        assert not (await StoreHealth(store).check()).ok
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_the_store_check_fails_when_the_database_file_is_damaged(tmp_path):
    store = await _store(tmp_path)
    try:
        _remove_all(tmp_path)
        (tmp_path / "bot.db").write_bytes(b"not a database " * 500)
        with pytest.raises(Exception):
            await store.finished_hands(1, limit=1)  # file is not a database
        check = await StoreHealth(store).check()
        assert not check.ok and "error" in check.detail
    finally:
        await store.close()
