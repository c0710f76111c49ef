"""Which scheduled backups to keep: a pure rule over the copies' names and the time now.

A scheduled copy is named ``mahjong-YYYY-MM-DDTHHMMSSZ.db`` (``.dump`` for PostgreSQL), its UTC
moment in its name (:func:`backup_name`).  :func:`to_keep` keeps, like ``restic forget
--keep-daily --keep-weekly``:

* the newest copy of each of the ``keep_daily`` most recent UTC days that have a copy;
* the newest copy of each of the ``keep_weekly`` most recent ISO weeks (Monday to Sunday, UTC)
  that have a copy;

counted over the days that *have* copies, so a bot stopped for a fortnight does not lose its
older copies when it starts again.  A name that is not a scheduled copy's (a copy taken by
hand, one taken before a migration) is never pruned, nor a copy dated after ``now`` (a clock
set back).  No clock, no files: the caller gives the names and the time.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Iterable, Optional

__all__ = ["PREFIX", "backup_name", "backup_time", "to_keep", "to_prune"]

#: the start of every scheduled copy's name
PREFIX = "mahjong-"
_NAME = re.compile(r"^mahjong-(\d{4})-(\d{2})-(\d{2})T(\d{2})(\d{2})(\d{2})Z\.(db|dump)$")


def backup_name(when: datetime, suffix: str = ".db") -> str:
    """``mahjong-2026-01-31T030000Z.db`` for ``when`` (aware, any zone; naive is taken as UTC).
    ``suffix``: ``.db`` (SQLite) or ``.dump`` (``pg_dump -Fc``)."""
    when = when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when.astimezone(timezone.utc)
    return f"{PREFIX}{when:%Y-%m-%dT%H%M%S}Z{suffix}"


def backup_time(name: str) -> Optional[datetime]:
    """The UTC moment in a scheduled copy's file name, ``None`` for any other name."""
    m = _NAME.match(name)
    if m is None:
        return None
    y, mo, d, h, mi, s = (int(x) for x in m.groups()[:6])
    try:
        return datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc)
    except ValueError:
        return None


def to_keep(names: Iterable[str], now: datetime, keep_daily: int = 7, keep_weekly: int = 4) -> set[str]:
    """The names among ``names`` to keep at ``now`` (aware): the newest copy of each of the
    ``keep_daily`` most recent days with a copy, of each of the ``keep_weekly`` most recent
    ISO weeks with a copy, every name that is not a scheduled copy's, and every copy dated
    after ``now``.

    :raises ValueError: a negative count.
    """
    if keep_daily < 0 or keep_weekly < 0:
        raise ValueError("keep_daily and keep_weekly must be 0 or more")
    keep: set[str] = set()
    dated: list[tuple[datetime, str]] = []
    for name in set(names):
        when = backup_time(name)
        if when is None or when > now:
            keep.add(name)
        else:
            dated.append((when, name))
    dated.sort(reverse=True)  # newest first: the first seen of a day or week is its newest
    for count, bucket in ((keep_daily, lambda w: w.date()), (keep_weekly, lambda w: w.isocalendar()[:2])):
        seen: set = set()
        for when, name in dated:
            b = bucket(when)
            if b in seen:
                continue
            if len(seen) == count:
                break
            seen.add(b)
            keep.add(name)
    return keep


def to_prune(names: Iterable[str], now: datetime, keep_daily: int = 7, keep_weekly: int = 4) -> list[str]:
    """The scheduled copies among ``names`` that :func:`to_keep` does not keep, oldest first."""
    names = set(names)
    kept = to_keep(names, now, keep_daily, keep_weekly)
    return sorted(names - kept)
