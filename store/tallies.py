"""Per-player tallies of the rates (``player_tally``; revision ``0015_player_tally``).

A settled hand adds each human player's counts to the row of its guild, game and UTC day
(:func:`add_in`, called by ``Hands.finish_hand`` in the settling transaction); what is counted
is the caller's (``service.rates.hand_tallies``, ``docs/rates.md``).  A player's rates over all
time or since a day are then a sum over their rows — one per day played — however many hands
are stored.  :meth:`Tallies.replace_all` writes a rebuilt set in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date, datetime, time
from typing import Any, Mapping, Optional, Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _P, _int64
from .database import Database, utc
from .models import PlayerTallyRow, UnitPlaceRow

_Y = PlayerTallyRow.__table__  # type: ignore[attr-defined]
_Q = UnitPlaceRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class PlayerTally:
    """A player's counts over some hands (``docs/rates.md``): ``hands`` played as a human seat,
    ``wins``, ``deal_ins``, ``self_drawn`` wins, hands with a ``calls`` (a claim), exhaustive
    ``draws``; the signed ``points`` of all those hands, the points gained in the hands won
    (``win_points``) and lost in the hands dealt in (``deal_in_points``, positive); the wins
    whose hand had a count (``counted``) and that count summed (``count_sum``, named
    ``count_name``); ``specials`` ``((special hand id, times), …)`` by id.  ``+`` sums two."""

    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    self_drawn: int = 0
    calls: int = 0
    draws: int = 0
    points: int = 0
    win_points: int = 0
    deal_in_points: int = 0
    counted: int = 0
    count_sum: int = 0
    count_name: Optional[str] = None
    specials: tuple[tuple[str, int], ...] = ()

    def __add__(self, other: "PlayerTally") -> "PlayerTally":
        sums = {f: getattr(self, f) + getattr(other, f) for f in COUNTS}
        specials = dict(self.specials)
        for kind, n in other.specials:
            specials[kind] = specials.get(kind, 0) + n
        return PlayerTally(**sums, count_name=self.count_name or other.count_name,
                           specials=tuple(sorted(specials.items())))


#: the summed integer fields of :class:`PlayerTally` (its columns of the same names)
COUNTS = tuple(f.name for f in fields(PlayerTally) if f.name not in ("count_name", "specials"))


def _tally(row: Any) -> PlayerTally:
    return PlayerTally(**{f: int(getattr(row, f)) for f in COUNTS}, count_name=row.count_name,
                       specials=tuple(sorted((str(k), int(v)) for k, v in (row.specials or {}).items())))


def _values(t: PlayerTally) -> dict[str, Any]:
    return {**{f: getattr(t, f) for f in COUNTS}, "count_name": t.count_name, "specials": dict(t.specials)}


def day_of(when: Optional[datetime]) -> Optional[date]:
    """The UTC day a period starting at ``when`` starts on (``None``: all time).

    :raises ValueError: ``when`` is not a UTC midnight (tallies are kept per day).
    """
    if when is None:
        return None
    when = utc(when)
    if when.time() != time(0):
        raise ValueError(f"a tally period starts at a UTC midnight, not {when.isoformat()}")
    return when.date()


async def add_in(conn: AsyncConnection, guild_id: int, variant: str, day: date,
                 tallies: Mapping[int, PlayerTally]) -> None:
    """Add each ``{user_id: tally}`` to the player's row of ``day`` (created when missing), in
    the caller's transaction (the settling one: one writer at a time)."""
    for user_id, t in sorted(tallies.items()):
        key = (_Y.c.guild_id == guild_id, _Y.c.user_id == _int64("user_id", user_id), _Y.c.variant == variant,
               _Y.c.day == day)
        row = (await conn.execute(select(_Y).where(*key))).first()
        if row is None:
            await conn.execute(insert(_Y).values(guild_id=guild_id, user_id=user_id, variant=variant, day=day,
                                                 **_values(t)))
        else:
            await conn.execute(update(_Y).where(_Y.c.id == row.id).values(**_values(_tally(row) + t)))


class Tallies:
    """The reads of the tallies and their rebuild's write, and the per-player reads of
    ``unit_place`` a profile needs (grouped, so as fast at 100,000 hands as at 100)."""

    def __init__(self, db: Database):
        self.db = db

    async def tally(self, guild_id: int, user_id: int, variant: str, since: Optional[datetime] = None) -> PlayerTally:
        """A player's :class:`PlayerTally` in a game on a guild, over all time or from the UTC
        midnight ``since`` on.

        :raises ValueError: ``since`` is not a UTC midnight.
        """
        q = select(_Y).where(_Y.c.guild_id == guild_id, _Y.c.user_id == _int64("user_id", user_id),
                             _Y.c.variant == variant)
        first = day_of(since)
        if first is not None:
            q = q.where(_Y.c.day >= first)
        total = PlayerTally()
        async with self.db.read() as conn:
            for row in await conn.execute(q.order_by(_Y.c.day)):
                total = total + _tally(row)
        return total

    async def count_tallies(self) -> int:
        """How many tally rows are stored (0 with human hands stored: a rebuild fills them)."""
        async with self.db.read() as conn:
            return int(await conn.scalar(select(func.count()).select_from(_Y)) or 0)

    async def has_human_settlements(self) -> bool:
        """Whether any hand was settled with a human seat."""
        async with self.db.read() as conn:
            return (await conn.scalar(select(_P.c.id).where(_P.c.is_ai.is_(False), _P.c.user_id.is_not(None))
                                      .limit(1))) is not None

    async def replace_all(self, rows: Sequence[tuple[int, int, str, date, PlayerTally]]) -> None:
        """Replace every tally, in one transaction, by ``(guild_id, user_id, variant, day,
        tally)`` rows."""
        async def _job(conn: AsyncConnection) -> None:
            await conn.execute(delete(_Y))
            if rows:
                await conn.execute(insert(_Y), [dict(guild_id=g, user_id=u, variant=v, day=d, **_values(t))
                                                for g, u, v, d, t in rows])

        await self.db.submit(_job)

    async def placement_counts(self, guild_id: int, variant: str, user_id: int,
                               since: Optional[datetime] = None) -> list[tuple[int, int, int]]:
        """How often the player took each place in their rated units of a game on a guild (rated
        at or after ``since``): ``(place, players, units)`` by place, then players."""
        q = select(_Q.c.place, _Q.c.players, func.count()).where(
            _Q.c.guild_id == guild_id, _Q.c.variant == variant, _Q.c.user_id == _int64("user_id", user_id))
        if since is not None:
            q = q.where(_Q.c.created_at >= utc(since))
        async with self.db.read() as conn:
            rows = await conn.execute(q.group_by(_Q.c.place, _Q.c.players).order_by(_Q.c.place, _Q.c.players))
            return [(int(p), int(n), int(c)) for p, n, c in rows]

    async def recent_places(self, guild_id: int, variant: str, user_id: int, n: int) -> list[tuple[int, int]]:
        """The player's ``(place, players)`` in their last ``n`` rated units of a game on a
        guild, oldest first."""
        q = select(_Q.c.place, _Q.c.players).where(
            _Q.c.guild_id == guild_id, _Q.c.variant == variant, _Q.c.user_id == _int64("user_id", user_id)
        ).order_by(_Q.c.unit_id.desc()).limit(n)
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
        return [(int(p), int(k)) for p, k in reversed(rows)]


__all__ = ["COUNTS", "PlayerTally", "Tallies", "add_in", "day_of"]
