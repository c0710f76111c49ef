"""The bot's own daily backup: a background task of its event loop, the copy in a worker thread.

Settings (environment or ``.env``; :meth:`BackupSettings.from_env`):

* ``BACKUP_DIR`` — the folder of the copies (unset or empty: no scheduled backup);
* ``BACKUP_KEEP_DAILY`` (default 7), ``BACKUP_KEEP_WEEKLY`` (default 4) — the retention of
  :func:`store.retention.to_keep`;
* ``BACKUP_AT`` — the hour (UTC, 0–23, default 3) of the daily copy.

At start, and then each day at ``BACKUP_AT``, the task takes a copy when the folder has none
since the last ``BACKUP_AT`` (so a bot restarted after its hour does not skip a day, and a
restart does not copy twice); the copy is :func:`store.copies.backup_into`'s (SQLite's online
backup API, or ``pg_dump -Fc``), checked before it is kept, then the older copies are pruned.
A failed copy is logged and tried again an hour later.  PostgreSQL without ``pg_dump``: one
log line says why nothing is copied.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Awaitable, Callable, Mapping, Optional

from .copies import BackupError, backup_into, is_postgres, pg_dump_available
from .retention import backup_time

__all__ = ["BackupSettings", "BackupSchedule"]

log = logging.getLogger("store.backup")


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class BackupSettings:
    """Where and how often the bot copies its database (see the module)."""

    folder: Path
    keep_daily: int = 7
    keep_weekly: int = 4
    at_hour: int = 3

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Optional["BackupSettings"]:
        """The settings of ``env`` (``None``: ``BACKUP_DIR`` unset or empty, no schedule).

        :raises ValueError: a malformed ``BACKUP_KEEP_DAILY`` (a whole number ≥ 1),
            ``BACKUP_KEEP_WEEKLY`` (≥ 0) or ``BACKUP_AT`` (an hour 0–23), naming it.
        """
        folder = (env.get("BACKUP_DIR") or "").strip()
        if not folder:
            return None

        def number(name: str, value: Optional[str], default: int, low: int, high: int) -> int:
            text = (value or "").strip()
            if not text:
                return default
            if not text.isdigit() or not low <= int(text) <= high:
                raise ValueError(f"{name} must be a whole number from {low} to {high}, not {text!r}")
            return int(text)

        return cls(Path(folder), number("BACKUP_KEEP_DAILY", env.get("BACKUP_KEEP_DAILY"), 7, 1, 3660),
                   number("BACKUP_KEEP_WEEKLY", env.get("BACKUP_KEEP_WEEKLY"), 4, 0, 520),
                   number("BACKUP_AT", env.get("BACKUP_AT"), 3, 0, 23))


class BackupSchedule:
    """The daily copy of the database ``url`` into ``settings.folder``.

    :param clock: the time now, aware UTC (tests pass a manual one).
    :param sleep: waits a number of seconds (``asyncio.sleep``; tests advance their clock).
    :param schema: PostgreSQL: the bot's schema (``Store(schema=)``), dumped alone.
    """

    #: seconds before a failed copy is tried again
    RETRY = 3600.0

    def __init__(self, url: str, settings: BackupSettings, clock: Callable[[], datetime] = _utcnow,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, schema: Optional[str] = None):
        self.url = url
        self.schema = schema
        self.settings = settings
        self.clock = clock
        self.sleep = sleep
        #: the copies this schedule took, newest last (for the log and tests)
        self.taken: list[Path] = []

    def last_slot(self, now: datetime) -> datetime:
        """The latest ``BACKUP_AT`` o'clock (UTC) at or before ``now``."""
        slot = now.astimezone(timezone.utc).replace(hour=self.settings.at_hour, minute=0, second=0, microsecond=0)
        return slot if slot <= now else slot - timedelta(days=1)

    def newest_copy(self, now: Optional[datetime] = None) -> Optional[datetime]:
        """The moment of the newest scheduled copy in the folder (``None``: none, or no folder),
        not after ``now`` when given (a copy dated ahead, taken while the clock was wrong, is
        not today's)."""
        folder = self.settings.folder
        if not folder.is_dir():
            return None
        times = [t for t in (backup_time(p.name) for p in folder.iterdir())
                 if t is not None and (now is None or t <= now)]
        return max(times, default=None)

    def seconds_until_due(self, now: datetime) -> float:
        """``0`` when a copy is due (none since the last slot), else the seconds to the next slot."""
        slot = self.last_slot(now)
        newest = self.newest_copy(now)
        if newest is None or newest < slot:
            return 0.0
        return (slot + timedelta(days=1) - now).total_seconds()

    async def run_once(self) -> Optional[Path]:
        """Take a copy now and prune (in a worker thread); returns it, or ``None`` when it
        failed (logged)."""
        s = self.settings
        try:
            dest, removed = await asyncio.to_thread(backup_into, self.url, s.folder, self.clock(), s.keep_daily,
                                                    s.keep_weekly, self.schema)
        except (BackupError, OSError) as exc:
            log.error("scheduled backup failed: %s (tried again in %d minutes)", exc, self.RETRY // 60)
            return None
        self.taken.append(dest)
        log.info("backup %s written (integrity ok); %d older copies removed", dest, len(removed))
        return dest

    async def run(self) -> None:
        """Take the copies until cancelled (the bot's background task)."""
        if is_postgres(self.url) and (why := pg_dump_available()):
            log.warning("scheduled backups are off for PostgreSQL: %s", why)
            return
        log.info("scheduled backups into %s daily at %02d:00 UTC (keeping %d daily, %d weekly)",
                 self.settings.folder, self.settings.at_hour, self.settings.keep_daily, self.settings.keep_weekly)
        while True:
            wait = self.seconds_until_due(self.clock())
            if wait > 0:
                await self.sleep(wait)
                continue
            if await self.run_once() is None:
                await self.sleep(self.RETRY)
