"""Ratings (``rating``, ``rated_unit``, ``unit_place``; revision ``0014_ratings``).

A unit is rated in the transaction that settles its last hand (:func:`rate_in`, called by
``Hands.finish_hand``): what the unit is and how ratings move are the caller's (the service's
``service.ratings``), handed in as two functions, so the store imports no rating library.
:meth:`Ratings.rebuild_source` reads what a rebuild needs; :meth:`Ratings.replace_all` writes
a rebuilt set in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Optional, Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _H, _P, _T
from .database import Database
from .models import RatedUnitRow, RatingRow, UnitPlaceRow

_R = RatingRow.__table__  # type: ignore[attr-defined]
_U = RatedUnitRow.__table__  # type: ignore[attr-defined]
_Q = UnitPlaceRow.__table__  # type: ignore[attr-defined]
_RATING = (_R.c.user_id, _R.c.mu, _R.c.sigma, _R.c.units, _R.c.dan_rank, _R.c.dan_points)


@dataclass(frozen=True)
class SettledHand:
    """One settled hand of a table, as the unit rules read it: ``seats`` is
    ``((seat, user_id or None, is_ai, points), …)`` in seat order."""

    hand_id: int
    seats: tuple[tuple[int, Optional[int], bool, int], ...]
    ended_at: Optional[datetime] = None


@dataclass(frozen=True)
class Unit:
    """A rated unit: ``kind`` ``"match"`` or ``"block"``, its hands ``first_hand_id`` ..
    ``last_hand_id`` (``hands`` of them), and each rated player's ``(user_id, place, points)``."""

    kind: str
    first_hand_id: int
    last_hand_id: int
    hands: int
    places: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Rating:
    """A stored rating: ``mu`` ± ``sigma`` after ``units`` rated units, and the 段位 reached
    (``dan_rank``, ``dan_points``)."""

    user_id: int
    mu: float
    sigma: float
    units: int
    dan_rank: int = 0
    dan_points: int = 0


@dataclass(frozen=True)
class Rated:
    """A player's rating before a unit and after it, and the 段位 after it."""

    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    dan_rank: int
    dan_points: int


#: ``decide(hands since the table's last unit, match_end) -> Unit | None``
Decide = Callable[[Sequence[SettledHand], bool], Optional[Unit]]
#: ``rate({user_id: Rating or None}, places) -> {user_id: Rated}``
Rate = Callable[[dict, Sequence[tuple[int, int, int]]], dict]


async def settled_since(conn: AsyncConnection, table_id: int, after_hand_id: int) -> list[SettledHand]:
    """The table's settled hands after hand ``after_hand_id``, oldest first."""
    rows = await conn.execute(
        select(_P.c.hand_id, _P.c.seat, _P.c.user_id, _P.c.is_ai, _P.c.points, _H.c.ended_at)
        .join(_H, _H.c.id == _P.c.hand_id)
        .where(_P.c.table_id == table_id, _P.c.hand_id > after_hand_id, _H.c.status == "done")
        .order_by(_P.c.hand_id, _P.c.seat)
    )
    by_hand: dict[int, list] = {}
    ended: dict[int, Any] = {}
    for hand_id, seat, user_id, is_ai, points, ended_at in rows:
        by_hand.setdefault(hand_id, []).append((seat, user_id, bool(is_ai), int(points)))
        ended[hand_id] = ended_at
    return [SettledHand(h, tuple(s), ended[h]) for h, s in by_hand.items()]


async def rate_in(conn: AsyncConnection, table_id: int, guild_id: int, variant: str, match_end: bool,
                  decide: Decide, rate: Rate, now: datetime) -> Optional[int]:
    """In the settling transaction: when the table's hands since its last rated unit make a
    unit (``decide``), rate its players (``rate``) and store the unit, the places and the new
    ratings.  Returns the new unit's id, ``None`` when no unit ended."""
    last = await conn.scalar(select(func.coalesce(func.max(_U.c.last_hand_id), 0)).where(_U.c.table_id == table_id))
    unit = decide(await settled_since(conn, table_id, int(last or 0)), match_end)
    if unit is None:
        return None
    users = [u for u, _, _ in unit.places]
    rows = await conn.execute(select(*_RATING).where(
        _R.c.guild_id == guild_id, _R.c.variant == variant, _R.c.user_id.in_(users)))
    current = {r.user_id: Rating(*r) for r in rows}
    new = rate({u: current.get(u) for u in users}, unit.places)
    return await write_unit(conn, table_id, guild_id, variant, unit, current, new, now)


async def write_unit(conn: AsyncConnection, table_id: int, guild_id: int, variant: str, unit: Unit,
                     current: dict[int, Rating], new: dict[int, Rated], now: datetime) -> int:
    """Store ``unit``, its places with each player's rating before and after and 段位 after
    (``new``), and the new ratings (``current``: the stored ones); returns the unit's id."""
    unit_id = (await conn.execute(insert(_U).values(
        table_id=table_id, guild_id=guild_id, variant=variant, kind=unit.kind, first_hand_id=unit.first_hand_id,
        last_hand_id=unit.last_hand_id, hands=unit.hands, created_at=now).returning(_U.c.id))).scalar_one()
    places = []
    for user_id, place, points in unit.places:
        r = new[user_id]
        places.append({"unit_id": unit_id, "guild_id": guild_id, "variant": variant, "user_id": user_id,
                       "place": place, "players": len(unit.places), "points": points, "mu_before": r.mu_before,
                       "sigma_before": r.sigma_before, "mu_after": r.mu, "sigma_after": r.sigma,
                       "dan_rank": r.dan_rank, "dan_points": r.dan_points, "created_at": now})
        values = dict(mu=r.mu, sigma=r.sigma, dan_rank=r.dan_rank, dan_points=r.dan_points, updated_at=now)
        before = current.get(user_id)
        if before is None:
            await conn.execute(insert(_R).values(guild_id=guild_id, variant=variant, user_id=user_id, units=1,
                                                 **values))
        else:
            await conn.execute(update(_R).where(_R.c.guild_id == guild_id, _R.c.variant == variant,
                                                _R.c.user_id == user_id).values(units=before.units + 1, **values))
    await conn.execute(insert(_Q), places)
    return int(unit_id)


class Ratings:
    """Reading ratings and rebuilding them (the store's part for ``rating`` and its units)."""

    def __init__(self, db: Database):
        self.db = db

    async def rating(self, guild_id: int, variant: str, user_id: int) -> Optional[Rating]:
        """A player's rating in a game on a guild, ``None`` before their first rated unit."""
        async with self.db.read() as conn:
            r = (await conn.execute(select(*_RATING).where(
                _R.c.guild_id == guild_id, _R.c.variant == variant, _R.c.user_id == user_id))).first()
        return Rating(*r) if r is not None else None

    async def ratings(self, guild_id: int, variant: str) -> list[Rating]:
        """Every rated player of a game on a guild, by user id."""
        async with self.db.read() as conn:
            rows = await conn.execute(select(*_RATING).where(
                _R.c.guild_id == guild_id, _R.c.variant == variant).order_by(_R.c.user_id))
            return [Rating(*r) for r in rows]

    async def unit_places(self, guild_id: int, variant: str, user_id: int,
                          since: Optional[datetime] = None) -> list[tuple[int, int, int]]:
        """A player's rated units in a game on a guild (rated at or after ``since``), oldest
        first: ``(unit_id, place, players)``."""
        q = select(_Q.c.unit_id, _Q.c.place, _Q.c.players).where(
            _Q.c.guild_id == guild_id, _Q.c.variant == variant, _Q.c.user_id == user_id)
        if since is not None:
            q = q.where(_Q.c.created_at >= since)
        async with self.db.read() as conn:
            rows = await conn.execute(q.order_by(_Q.c.unit_id))
            return [(r.unit_id, r.place, r.players) for r in rows]

    async def best_hands(self, guild_id: int, user_id: int, variant: str, n: int) -> list[tuple[int, int, Optional[int]]]:
        """A player's ``n`` best hands in a game on a guild by points won, best (then latest)
        first: ``(hand_id, points, fan)``."""
        async with self.db.read() as conn:
            rows = await conn.execute(select(_P.c.hand_id, _P.c.points, _P.c.fan).where(
                _P.c.guild_id == guild_id, _P.c.variant == variant, _P.c.user_id == user_id,
                _P.c.is_ai.is_(False), _P.c.points > 0).order_by(_P.c.points.desc(), _P.c.hand_id.desc()).limit(n))
            return [(r.hand_id, r.points, r.fan) for r in rows]

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each player last sat under on a guild (from their latest settlement)."""
        if not user_ids:
            return {}
        latest = select(func.max(_P.c.id)).where(
            _P.c.guild_id == guild_id, _P.c.user_id.in_(list(user_ids))).group_by(_P.c.user_id)
        async with self.db.read() as conn:
            rows = await conn.execute(select(_P.c.user_id, _P.c.name).where(_P.c.id.in_(latest)))
            return {r.user_id: r.name for r in rows}

    async def count_ratings(self) -> int:
        """How many ratings are stored (0: none yet, a rebuild may fill them)."""
        async with self.db.read() as conn:
            return int(await conn.scalar(select(func.count()).select_from(_R)) or 0)

    async def rebuild_source(self) -> list[tuple[int, int, str, int, list[SettledHand]]]:
        """Every table with settled hands: ``(table_id, guild_id, variant, match_hands,
        settled hands oldest first)`` (``match_hands``: the table's option, 0 open-ended)."""
        async with self.db.read() as conn:
            tables = (await conn.execute(select(_T.c.id, _T.c.guild_id, _T.c.variant, _T.c.options)
                                         .order_by(_T.c.id))).all()
            out = []
            for t in tables:
                hands = await settled_since(conn, t.id, 0)
                if hands:
                    planned = int((t.options or {}).get("match_hands") or 0)
                    out.append((t.id, t.guild_id, t.variant, planned, hands))
            return out

    async def replace_all(self, units: Sequence[tuple[int, int, str, Unit, dict, dict]]) -> None:
        """Replace every rating and unit, in one transaction, by ``units`` in order: each
        ``(table_id, guild_id, variant, unit, stored ratings {user: Rating} before it, new
        {user: Rated})`` as :func:`write_unit` takes them."""
        now = self.db.now()

        async def _job(conn: AsyncConnection) -> None:
            await conn.execute(delete(_Q))
            await conn.execute(delete(_U))
            await conn.execute(delete(_R))
            for table_id, guild_id, variant, unit, current, new in units:
                await write_unit(conn, table_id, guild_id, variant, unit, current, new, now)

        await self.db.submit(_job)


__all__ = ["Decide", "Rate", "Rated", "Rating", "Ratings", "SettledHand", "Unit", "rate_in", "settled_since", "write_unit"]
