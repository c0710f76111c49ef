"""What the settlements add up to: a player's score, the leaderboard, a player's history and
statistics, and the finished hands of a guild.  Read-only: ``SUM`` and ``MAX`` queries over
the settlement rows, never stored counters.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from sqlalchemy import and_, case, func, select

from .base import _H, _P, _T
from .database import Database, utc
from .models import UTCDateTime
from .records import (
    HandRecord,
    HistoryLine,
    PlayerStats,
    ScoreLine,
    SettlementRecord,
    _hand_record,
    _settlement_record,
)


class Scores:
    """Scores, leaderboard, history and statistics of a store."""

    def __init__(self, db: Database):
        self.db = db

    @staticmethod
    def _score_columns() -> list[Any]:
        def count_if(cond: Any) -> Any:
            return func.coalesce(func.sum(case((cond, 1), else_=0)), 0)

        return [
            func.coalesce(func.sum(_P.c.points), 0).label("points"),
            func.count(_P.c.id).label("hands"),
            count_if(_P.c.is_winner).label("wins"),
            count_if(and_(_P.c.is_winner, _P.c.self_drawn)).label("self_drawn"),
            count_if(_P.c.dealt_in).label("deal_ins"),
        ]

    @staticmethod
    def _filters(guild_id: int, variant: Optional[str], since: Optional[datetime]) -> list[Any]:
        where = [_P.c.guild_id == guild_id]
        if variant is not None:
            where.append(_P.c.variant == variant)
        if since is not None:
            where.append(_P.c.created_at >= utc(since))
        return where

    async def score(
        self,
        guild_id: int,
        user_id: int,
        variant: Optional[str] = None,
        since: Optional[datetime] = None,
    ) -> ScoreLine:
        """Return the cumulative results of a user in a guild.

        :param variant: only hands of this variant (``None``: all).
        :param since: only hands finished at or after this time (UTC if naive).
        :returns: a :class:`ScoreLine`; all zeros and ``name=None`` for a user with no hands.
        """
        where = self._filters(guild_id, variant, since) + [_P.c.user_id == user_id]
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(*self._score_columns()).where(*where))).one()
            name = await conn.scalar(
                select(_P.c.name).where(*where).order_by(_P.c.id.desc()).limit(1)
            )
        return ScoreLine(
            user_id=user_id,
            name=name,
            points=int(row.points),
            hands=int(row.hands),
            wins=int(row.wins),
            self_drawn=int(row.self_drawn),
            deal_ins=int(row.deal_ins),
        )

    async def leaderboard(
        self,
        guild_id: int,
        variant: Optional[str] = None,
        limit: int = 10,
        since: Optional[datetime] = None,
    ) -> list[ScoreLine]:
        """Return the best human players of a guild (AI seats excluded).

        Ordered by points (descending), then wins (descending), then user id.

        :param variant: only hands of this variant (``None``: all).
        :param limit: at most this many lines.
        :param since: only hands finished at or after this time (UTC if naive).
        """
        where = self._filters(guild_id, variant, since) + [
            _P.c.user_id.is_not(None),
            _P.c.is_ai.is_(False),
        ]
        cols = self._score_columns()
        points, wins = cols[0], cols[2]
        query = (
            select(_P.c.user_id, *cols)
            .where(*where)
            .group_by(_P.c.user_id)
            .order_by(points.desc(), wins.desc(), _P.c.user_id)
            .limit(limit)
        )
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            if not rows:
                return []
            users = [r.user_id for r in rows]
            latest = (
                select(func.max(_P.c.id))
                .where(*where, _P.c.user_id.in_(users))
                .group_by(_P.c.user_id)
            )
            names = {
                r.user_id: r.name
                for r in await conn.execute(
                    select(_P.c.user_id, _P.c.name).where(_P.c.id.in_(latest))
                )
            }
        return [
            ScoreLine(
                user_id=r.user_id,
                name=names.get(r.user_id),
                points=int(r.points),
                hands=int(r.hands),
                wins=int(r.wins),
                self_drawn=int(r.self_drawn),
                deal_ins=int(r.deal_ins),
            )
            for r in rows
        ]

    # ------------------------------------------------------------------ history & statistics

    async def history(
        self,
        guild_id: int,
        user_id: int,
        limit: int = 10,
        variant: Optional[str] = None,
    ) -> list[HistoryLine]:
        """Return the player's latest finished hands in a guild, newest first.

        One line per settlement row of the player (a hand the player sat in and that was
        settled), ordered by the hand's end time, then hand id, both descending.

        :param limit: at most this many lines.
        :param variant: only hands of this variant (``None``: all).
        """
        w = _P.alias("w")

        def winner(col: Any) -> Any:
            return (
                select(col)
                .where(w.c.hand_id == _P.c.hand_id, w.c.is_winner.is_(True))
                .order_by(w.c.seat)
                .limit(1)
                .scalar_subquery()
            )

        ended = func.coalesce(_H.c.ended_at, _P.c.created_at, type_=UTCDateTime()).label("ended_at")
        where = self._filters(guild_id, variant, None) + [_P.c.user_id == user_id]
        query = (
            select(
                _P.c.hand_id,
                _P.c.table_id,
                _P.c.variant,
                ended,
                _P.c.seat,
                _P.c.points,
                _P.c.is_winner,
                _P.c.self_drawn,
                _P.c.dealt_in,
                winner(w.c.fan).label("fan"),
                winner(w.c.name).label("winner_name"),
            )
            .join(_H, _H.c.id == _P.c.hand_id)
            .where(*where)
            .order_by(ended.desc(), _P.c.hand_id.desc(), _P.c.seat)
            .limit(limit)
        )
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            HistoryLine(
                hand_id=r.hand_id,
                table_id=r.table_id,
                variant=r.variant,
                ended_at=r.ended_at,
                seat=r.seat,
                points=r.points,
                is_winner=bool(r.is_winner),
                self_drawn=bool(r.self_drawn),
                dealt_in=bool(r.dealt_in),
                fan=r.fan,
                winner_name=r.winner_name,
            )
            for r in rows
        ]

    async def stats(
        self,
        guild_id: int,
        user_id: int,
        variant: Optional[str] = None,
        since: Optional[datetime] = None,
    ) -> PlayerStats:
        """Return a player's statistics in a guild (sums and maxima over settlements).

        :param variant: only hands of this variant (``None``: all).
        :param since: only hands finished at or after this time (UTC if naive).
        :returns: a :class:`PlayerStats`; zeros, ``average_points=0.0`` and ``None`` bests for
            a player with no hands.
        """
        where = self._filters(guild_id, variant, since) + [_P.c.user_id == user_id]
        best_fan = func.max(case((_P.c.is_winner.is_(True), _P.c.fan), else_=None))
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(
                        *self._score_columns(),
                        func.max(_P.c.points).label("best_points"),
                        best_fan.label("best_fan"),
                    ).where(*where)
                )
            ).one()
            hands = int(row.hands)
            if hands == 0:
                return PlayerStats(user_id=user_id, name=None)
            best_hand = await conn.scalar(
                select(_P.c.hand_id)
                .where(*where, _P.c.points == row.best_points)
                .order_by(_P.c.created_at, _P.c.id)
                .limit(1)
            )
            name = await conn.scalar(
                select(_P.c.name).where(*where).order_by(_P.c.id.desc()).limit(1)
            )
        points = int(row.points)
        return PlayerStats(
            user_id=user_id,
            name=name,
            hands=hands,
            wins=int(row.wins),
            self_drawn=int(row.self_drawn),
            deal_ins=int(row.deal_ins),
            points=points,
            average_points=points / hands,
            best_points=int(row.best_points),
            best_hand_id=best_hand,
            best_fan=None if row.best_fan is None else int(row.best_fan),
        )

    async def finished_hands(
        self,
        guild_id: int,
        limit: int = 20,
        *,
        user_id: Optional[int] = None,
        variant: Optional[str] = None,
    ) -> list[HandRecord]:
        """Return the latest ``'done'`` hands of a guild, newest first (e.g. to pick a replay).

        The records carry their settlements (seat order) but no actions; read the log with
        :meth:`get_hand`.  Two queries.

        :param limit: at most this many hands.
        :param user_id: only hands with a settlement of this user.
        :param variant: only hands of this variant.
        """
        where = [_T.c.guild_id == guild_id, _H.c.status == "done"]
        if variant is not None:
            where.append(_H.c.variant == variant)
        if user_id is not None:
            where.append(
                select(_P.c.id)
                .where(_P.c.hand_id == _H.c.id, _P.c.user_id == user_id)
                .exists()
            )
        query = (
            select(_H)
            .join(_T, _T.c.id == _H.c.table_id)
            .where(*where)
            .order_by(_H.c.ended_at.desc(), _H.c.id.desc())
            .limit(limit)
        )
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            ids = [r.id for r in rows]
            sets = (
                (
                    await conn.execute(
                        select(_P).where(_P.c.hand_id.in_(ids)).order_by(_P.c.hand_id, _P.c.seat)
                    )
                ).all()
                if ids
                else []
            )
        by_hand: dict[int, list[SettlementRecord]] = {i: [] for i in ids}
        for p in sets:
            by_hand[p.hand_id].append(_settlement_record(p))
        return [_hand_record(r, (), by_hand[r.id]) for r in rows]
