"""Persistence of tables, hands, action logs and scores (async, SQLite or PostgreSQL).

The game engine is deterministic: a hand is ``(variant, options, seed, action log)``, so the
store keeps the log one row per action and a restarted bot rebuilds every open table by
replaying it (:meth:`Store.load_open_tables`).  Scores are ``SUM`` queries over one settlement
row per seat per finished hand (:meth:`Store.score`, :meth:`Store.leaderboard`,
:meth:`Store.history`, :meth:`Store.stats`).  Guild settings (variant defaults, presets,
allowed channels) are one ``guild_config`` row per guild (:meth:`Store.get_guild_config`).  A
player's 连庄 count, for the games where it belongs to the player, is one ``player_streak`` row
per guild, user and game (:meth:`Store.get_streak`, written by :meth:`Store.finish_hand`).

Every public method is one database transaction that is committed when the awaited call
returns; the methods return frozen dataclasses (:class:`TableRecord`, :class:`SeatRecord`,
:class:`OpenTable`, :class:`HandRecord`, :class:`SettlementRecord`, :class:`ScoreLine`,
:class:`GuildConfig`, :class:`HistoryLine`, :class:`PlayerStats`), never ORM objects, so a caller
can keep them across calls and tasks.

Schema migrations
-----------------
The schema is versioned with Alembic; the environment and the revisions are in
``store/migrations`` (``0001_initial``: ``game_table``, ``seat``, ``hand``, ``hand_action``,
``settlement``; ``0002_guild_config``; ``0003_hand_context``; ``0004_routed_action``;
``0005_player_streak``).  :meth:`Store.init` upgrades the database to the head
revision in one transaction.  Two bots starting together migrate one after the other: a
PostgreSQL advisory lock, and on SQLite a ``BEGIN IMMEDIATE`` transaction (which also keeps
the DDL inside the transaction, so a failed upgrade leaves no half-created table).  A database
created before the bot had migrations (the five tables, no ``alembic_version``) is stamped
``0001_initial`` first and then upgraded, keeping its rows.  With ``schema=`` on PostgreSQL
the version table lives in that schema next to the tables.  From the command line:
``DATABASE_URL=… alembic -c store/migrations/alembic.ini upgrade head``.

Durability on SQLite
--------------------
The file runs in WAL mode with ``synchronous=FULL`` (default, see :class:`Store`):

* every commit has been written to the WAL file by SQLite before ``commit`` returns, so an
  acknowledged action survives a kill of the bot process in any mode other than ``OFF``
  (``tests/test_store.py`` kills a writing process with SIGKILL and checks every acknowledged
  action);
* ``FULL`` also syncs the WAL to disk (fsync) on every commit, so the action survives an
  operating-system crash or power loss too.  ``NORMAL`` syncs only at checkpoints and may lose
  the last commits on power loss (the file stays consistent).  The cost measured by
  ``bench/bench_store.py`` is under a millisecond per append at the median (p50 about 2.6 ms
  with ``FULL`` against 1.7–2.5 ms with ``NORMAL`` on an ext4 disk), far below a Discord round
  trip, so the stronger setting is the default.

``foreign_keys=ON`` is set on every connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable, Mapping, Optional, Sequence

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Connection,
    Integer,
    String,
    and_,
    case,
    delete,
    event,
    func,
    insert,
    inspect,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.util import await_

from .models import (
    OPEN_TABLE_STATUSES,
    TABLE_STATUSES,
    ActionRow,
    GuildConfigRow,
    HandRow,
    PlayerStreakRow,
    SeatRow,
    SettlementRow,
    TableRow,
    UTCDateTime,
)

__all__ = [
    "Store",
    "normalize_url",
    "TableRecord",
    "SeatRecord",
    "OpenTable",
    "HandRecord",
    "SettlementRecord",
    "ScoreLine",
    "GuildConfig",
    "HistoryLine",
    "PlayerStats",
    "MIGRATIONS_DIR",
    "INITIAL_REVISION",
    "alembic_config",
    "head_revision",
    "StoreError",
    "NotFound",
    "TableExists",
    "TableClosed",
    "HandInProgress",
    "HandNotPlaying",
    "ActionConflict",
]

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1

# Core Table objects (the SQLModel classes' __table__).
_T = TableRow.__table__  # type: ignore[attr-defined]
_S = SeatRow.__table__  # type: ignore[attr-defined]
_H = HandRow.__table__  # type: ignore[attr-defined]
_A = ActionRow.__table__  # type: ignore[attr-defined]
_P = SettlementRow.__table__  # type: ignore[attr-defined]
_G = GuildConfigRow.__table__  # type: ignore[attr-defined]
_K = PlayerStreakRow.__table__  # type: ignore[attr-defined]

#: The Alembic environment (``env.py``, ``versions/``) of the bot's database.
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The revision of the schema the bot had before migrations (the first five tables).
INITIAL_REVISION = "0001_initial"
_INITIAL_TABLES = frozenset({"game_table", "seat", "hand", "hand_action", "settlement"})
_VERSION_TABLE = "alembic_version"
#: most write jobs committed in one group-commit transaction (see ``Store._submit``)
_MAX_BATCH = 500


# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """Base class of the errors raised by :class:`Store`."""


class NotFound(StoreError, LookupError):
    """No table or hand with the given id."""


class TableExists(StoreError):
    """The channel already has an open (``'lobby'`` or ``'playing'``) table.

    :ivar channel_id: the channel.
    """

    def __init__(self, channel_id: int):
        super().__init__(f"channel {channel_id} already has an open table")
        self.channel_id = channel_id


class TableClosed(StoreError):
    """A hand was started on a table whose status is ``'closed'``."""


class HandInProgress(StoreError):
    """A hand was started on a table that still has a ``'playing'`` hand.

    :ivar table_id: the table; :ivar hand_id: its playing hand.
    """

    def __init__(self, table_id: int, hand_id: Optional[int]):
        super().__init__(f"table {table_id} already has hand {hand_id} in play")
        self.table_id = table_id
        self.hand_id = hand_id


class HandNotPlaying(StoreError):
    """An action, a result or an abort was given for a hand that is no longer ``'playing'``.

    :ivar hand_id: the hand; :ivar status: its status (``'done'`` or ``'aborted'``).
    """

    def __init__(self, hand_id: int, status: str):
        super().__init__(f"hand {hand_id} is {status}, not playing")
        self.hand_id = hand_id
        self.status = status


class ActionConflict(StoreError):
    """``append_action`` was given an index other than the next free one.

    Raised for an index that is already stored (duplicate; also detected by the database's
    primary key ``(hand_id, idx)`` when two writers race) and for a gap (``idx`` larger than
    the next index), which would make the log unreplayable.

    :ivar hand_id: the hand; :ivar idx: the index given; :ivar expected: the next free index
        (``None`` when the conflict was detected by the database constraint).
    """

    def __init__(self, hand_id: int, idx: int, expected: Optional[int]):
        msg = f"hand {hand_id}: action index {idx} conflicts"
        if expected is not None:
            msg += f" (next free index is {expected})"
        super().__init__(msg)
        self.hand_id = hand_id
        self.idx = idx
        self.expected = expected


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a table.

    :ivar seat: seat number (0-based, engine order).
    :ivar user_id: Discord user id, ``None`` for an AI seat.
    :ivar name: display name.
    :ivar is_ai: the seat is played by the bot.
    :ivar dms_open: the bot could DM this user (``False`` after a 50007 Forbidden).
    :ivar auto: the seat is on auto-play (托管).
    :ivar prompted: the last decision the front end prompted this seat for (its own text,
        e.g. ``"<hand id>:<seq>"``; revision ``0007_seat_prompted``), so that a restarted bot
        prompts what the stopped one had not, and nothing twice.
    """

    seat: int
    user_id: Optional[int]
    name: str
    is_ai: bool = False
    dms_open: bool = True
    auto: bool = False
    prompted: Optional[str] = None


@dataclass(frozen=True)
class TableRecord:
    """A table as stored.

    :ivar status: ``'lobby'``, ``'playing'`` or ``'closed'``.
    :ivar options: variant options (JSON object).
    :ivar message_id: the public table message, ``None`` until posted.
    :ivar seed: table seed (signed 64-bit); hand seeds derive from it.
    :ivar hand_no: number of the current / last hand (0 before the first).
    :ivar state: match-level state kept by the table service (dealer, streaks, timeouts, …).
    :ivar created_at, updated_at: UTC, timezone-aware.
    """

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    variant: str
    options: dict
    status: str
    message_id: Optional[int]
    seed: int
    hand_no: int
    lang: str
    state: dict
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SettlementRecord:
    """The result of one seat in one finished hand.

    Callers of :meth:`Store.finish_hand` fill ``seat``, ``user_id``, ``name``, ``points`` and the
    flags; the store fills ``hand_id``, ``table_id``, ``guild_id``, ``variant`` and
    ``created_at`` from the hand (values given there are ignored).

    :ivar points: signed points won (+) or paid (−) by the seat in this hand.
    :ivar is_winner: the seat won the hand.
    :ivar self_drawn: the seat won on its own draw (自摸); only meaningful with ``is_winner``.
    :ivar dealt_in: the seat discarded the winning tile (点炮).
    :ivar fan: the winner's fan count, ``None`` where not applicable.
    """

    seat: int
    user_id: Optional[int]
    name: str
    points: int
    is_ai: bool = False
    is_winner: bool = False
    self_drawn: bool = False
    dealt_in: bool = False
    fan: Optional[int] = None
    hand_id: Optional[int] = None
    table_id: Optional[int] = None
    guild_id: Optional[int] = None
    variant: Optional[str] = None
    created_at: Optional[datetime] = None


@dataclass(frozen=True)
class HandRecord:
    """A hand with its action log.

    :ivar status: ``'playing'``, ``'done'`` or ``'aborted'``.
    :ivar seats: seat descriptions as given to :meth:`Store.start_hand` (JSON objects).
    :ivar result: the result given to :meth:`Store.finish_hand`, ``None`` before.
    :ivar actions: action texts in index order (``actions[i]`` is index ``i``).
    :ivar settlements: one per seat once the hand is done, in seat order.
    :ivar context: the match context the hand was dealt with (``{}`` for hands stored before
        migration 0003).
    """

    id: int
    table_id: int
    hand_no: int
    seed: int
    variant: str
    options: dict
    dealer: int
    seats: tuple
    status: str
    result: Optional[dict]
    started_at: datetime
    ended_at: Optional[datetime]
    actions: tuple[str, ...] = ()
    settlements: tuple[SettlementRecord, ...] = ()
    context: dict = field(default_factory=dict)


@dataclass(frozen=True)
class OpenTable:
    """An open table as reloaded after a restart.

    :ivar hand: its ``'playing'`` hand with the actions to replay, or ``None``.
    :ivar last_hand: with no playing hand, its latest finished (``'done'``) hand with its
        actions and result (the result screen a restart must show again), or ``None``.
    """

    table: TableRecord
    seats: tuple[SeatRecord, ...]
    hand: Optional[HandRecord]
    last_hand: Optional[HandRecord] = None


@dataclass(frozen=True)
class ScoreLine:
    """Cumulative results of one player (sums over settlements).

    :ivar name: the name used in the player's latest settlement (``None`` if none).
    :ivar points: sum of points; :ivar hands: number of settled hands;
    :ivar wins: hands won; :ivar self_drawn: wins on own draw; :ivar deal_ins: hands in which
        the player discarded the winning tile.
    """

    user_id: int
    name: Optional[str]
    points: int = 0
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0


@dataclass(frozen=True)
class GuildConfig:
    """The settings of one guild (an empty configuration for a guild that never set any).

    :ivar defaults: ``{variant: {option: value}}``, the guild's option defaults per variant.
    :ivar presets: ``{name: {"variant": str, "options": {option: value}}}``.
    :ivar channels: channel ids where tables may be opened, ascending; ``()`` means every
        channel.
    :ivar updated_at: UTC time of the last change, ``None`` if nothing was ever stored.
    """

    guild_id: int
    defaults: dict = field(default_factory=dict)
    presets: dict = field(default_factory=dict)
    channels: tuple[int, ...] = ()
    updated_at: Optional[datetime] = None


@dataclass(frozen=True)
class HistoryLine:
    """One finished hand seen from one player (from the player's settlement row).

    :ivar ended_at: UTC time the hand finished.
    :ivar seat: the player's seat; :ivar points: what the player won (+) or paid (−).
    :ivar is_winner, self_drawn, dealt_in: the player's flags in that hand.
    :ivar fan: fan count of the hand's winning hand (the winner's settlement ``fan``; the
        player's own when the player won), ``None`` for a drawn hand or when not recorded.
    :ivar winner_name: the name of the hand's winner (lowest seat if several), ``None`` for a
        drawn hand.
    """

    hand_id: int
    table_id: int
    variant: str
    ended_at: datetime
    seat: int
    points: int
    is_winner: bool
    self_drawn: bool
    dealt_in: bool
    fan: Optional[int]
    winner_name: Optional[str]


@dataclass(frozen=True)
class PlayerStats:
    """Statistics of one player in one guild, computed from settlements.

    :ivar name: the name used in the player's latest counted settlement (``None`` if none).
    :ivar hands, wins, self_drawn, deal_ins, points: as in :class:`ScoreLine`.
    :ivar average_points: ``points / hands`` (``0.0`` with no hands).
    :ivar best_points: the most points won in one hand (``None`` with no hands).
    :ivar best_hand_id: the first hand (oldest) that reached ``best_points``.
    :ivar best_fan: the highest fan count of a hand the player won (``None`` if no win
        recorded a fan).
    """

    user_id: int
    name: Optional[str]
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    points: int = 0
    average_points: float = 0.0
    best_points: Optional[int] = None
    best_hand_id: Optional[int] = None
    best_fan: Optional[int] = None


# --------------------------------------------------------------------------- migrations


def alembic_config(connection: Optional[Connection] = None, schema: Optional[str] = None) -> Config:
    """Return an Alembic :class:`~alembic.config.Config` for the bot's migrations.

    :param connection: a synchronous SQLAlchemy connection (inside ``AsyncConnection.run_sync``)
        the migrations run on, in its current transaction; ``None`` for commands that only
        read the scripts (``heads``, ``history``).
    :param schema: PostgreSQL schema of the tables and of ``alembic_version``.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    cfg.attributes["connection"] = connection
    cfg.attributes["schema"] = schema
    return cfg


def head_revision() -> str:
    """The head revision of the migrations (e.g. ``'0002_guild_config'``)."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


# --------------------------------------------------------------------------- helpers


def normalize_url(url: str | URL) -> str:
    """Return ``url`` rewritten to an async driver.

    ``postgres://`` and ``postgresql://`` (or ``postgresql+psycopg2://``) become
    ``postgresql+asyncpg://``, and a libpq ``sslmode=`` query parameter becomes asyncpg's
    ``ssl=``; ``sqlite://`` becomes ``sqlite+aiosqlite://``.  Other URLs are returned unchanged.

    >>> normalize_url("postgres://u:p@h:5432/db")
    'postgresql+asyncpg://u:p@h:5432/db'
    >>> normalize_url("sqlite:///data/bot.db")
    'sqlite+aiosqlite:///data/bot.db'

    :raises sqlalchemy.exc.ArgumentError: not a database URL.
    """
    raw = str(url) if isinstance(url, URL) else url
    if raw.startswith("postgres://"):
        raw = "postgresql://" + raw[len("postgres://"):]
    u = make_url(raw)
    backend, _, driver = u.drivername.partition("+")
    if backend == "postgresql" and driver in ("", "psycopg2", "psycopg"):
        u = u.set(drivername="postgresql+asyncpg")
        if "sslmode" in u.query:
            query = dict(u.query)
            query["ssl"] = query.pop("sslmode")
            u = u.set(query=query)
    elif backend == "sqlite" and driver in ("", "pysqlite"):
        u = u.set(drivername="sqlite+aiosqlite")
    return u.render_as_string(hide_password=False)


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _int64(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name}={value} does not fit a signed 64-bit column")
    return value


def _set_wal(cursor: Any) -> None:
    """``PRAGMA journal_mode=WAL`` on a new SQLite connection, retried while the file is locked.

    Switching a new file to WAL needs a moment of exclusive access; SQLite answers "database
    is locked" at once (without its busy timeout) when another connection opening the same
    file at that moment holds a lock, e.g. several bots or stores starting together.  The
    retry yields to the event loop (the connection is opened inside the async engine), so the
    lock holder can finish; about 10 s in all before giving up.
    """
    for attempt in range(200):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as exc:  # the driver's OperationalError
            if "locked" not in str(exc) or attempt == 199:
                raise
            await_(asyncio.sleep(0.05))


def _table_record(r: Any) -> TableRecord:
    return TableRecord(
        id=r.id,
        guild_id=r.guild_id,
        channel_id=r.channel_id,
        creator_id=r.creator_id,
        variant=r.variant,
        options=dict(r.options or {}),
        status=r.status,
        message_id=r.message_id,
        seed=r.seed,
        hand_no=r.hand_no,
        lang=r.lang,
        state=dict(r.state or {}),
        created_at=r.created_at,
        updated_at=r.updated_at,
    )


def _seat_record(r: Any) -> SeatRecord:
    return SeatRecord(
        seat=r.seat,
        user_id=r.user_id,
        name=r.name,
        is_ai=r.is_ai,
        dms_open=r.dms_open,
        auto=r.auto,
        prompted=getattr(r, "prompted", None),
    )


def _settlement_record(r: Any) -> SettlementRecord:
    return SettlementRecord(
        seat=r.seat,
        user_id=r.user_id,
        name=r.name,
        points=r.points,
        is_ai=r.is_ai,
        is_winner=r.is_winner,
        self_drawn=r.self_drawn,
        dealt_in=r.dealt_in,
        fan=r.fan,
        hand_id=r.hand_id,
        table_id=r.table_id,
        guild_id=r.guild_id,
        variant=r.variant,
        created_at=r.created_at,
    )


def _hand_record(
    r: Any, actions: Sequence[str] = (), settlements: Sequence[SettlementRecord] = ()
) -> HandRecord:
    return HandRecord(
        id=r.id,
        table_id=r.table_id,
        hand_no=r.hand_no,
        seed=r.seed,
        variant=r.variant,
        options=dict(r.options or {}),
        dealer=r.dealer,
        seats=tuple(r.seats or ()),
        status=r.status,
        result=None if r.result is None else dict(r.result),
        context=dict(getattr(r, "context", None) or {}),
        started_at=r.started_at,
        ended_at=r.ended_at,
        actions=tuple(actions),
        settlements=tuple(settlements),
    )


_TABLE_FIELDS = {
    "status",
    "message_id",
    "hand_no",
    "state",
    "options",
    "seed",
    "variant",
    "lang",
    "creator_id",
}
_INT64_FIELDS = {"message_id", "seed", "creator_id"}


def _check_table_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - _TABLE_FIELDS
    if unknown:
        raise TypeError(f"unknown table field(s): {', '.join(sorted(unknown))}")
    values = dict(fields)
    if "status" in values and values["status"] not in TABLE_STATUSES:
        raise ValueError(f"table status must be one of {TABLE_STATUSES}, got {values['status']!r}")
    for name in _INT64_FIELDS & set(values):
        if not (name == "message_id" and values[name] is None):
            _int64(name, values[name])
    for name in ("state", "options"):
        if name in values and not isinstance(values[name], dict):
            raise TypeError(f"{name} must be a dict")
    return values


# --------------------------------------------------------------------------- the store


class Store:
    """Async persistence of the bot (SQLAlchemy async engine over SQLModel tables).

    :param url: database URL, normalized by :func:`normalize_url`; e.g.
        ``sqlite:///data/bot.db`` or ``postgresql://postgres@127.0.0.1:5432/test``.
    :param echo: log every SQL statement.
    :param clock: returns the current time (UTC-aware ``datetime``); every stored timestamp
        comes from it.  Defaults to ``datetime.now(timezone.utc)``.
    :param schema: PostgreSQL only: the schema to keep the tables in (created by :meth:`init`
        and put first on the connection's ``search_path``); lets several bots or test runs share
        one database.
    :param sqlite_synchronous: SQLite ``PRAGMA synchronous`` value, ``"FULL"`` (default,
        durable against power loss) or ``"NORMAL"`` (durable against process kills only); see
        the module documentation.

    Use ``await store.init()`` before anything else and ``await store.close()`` at the end, or
    ``async with Store(url) as store:``.
    """

    def __init__(
        self,
        url: str,
        *,
        echo: bool = False,
        clock: Optional[Callable[[], datetime]] = None,
        schema: Optional[str] = None,
        sqlite_synchronous: str = "FULL",
    ):
        self.url = normalize_url(url)
        self._url = make_url(self.url)
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        self._is_sqlite = self._url.get_backend_name() == "sqlite"
        if schema is not None and self._url.get_backend_name() != "postgresql":
            raise ValueError("schema= is only supported on PostgreSQL")
        if sqlite_synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("sqlite_synchronous must be FULL, NORMAL or EXTRA")
        self._schema = schema
        self._write_lock = asyncio.Lock()
        self._write_queue: list[tuple[Any, Any, asyncio.Future]] = []
        self._writer: Optional[asyncio.Task] = None
        kwargs: dict[str, Any] = {"echo": echo}
        if self._is_sqlite:
            # 30 s busy timeout: concurrent writers from other connections wait, not fail.
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
            if schema is not None:
                kwargs["connect_args"] = {"server_settings": {"search_path": f'"{schema}"'}}
        self._engine: AsyncEngine = create_async_engine(self._url, **kwargs)
        if self._is_sqlite:
            sync = sqlite_synchronous.upper()
            memory = self._url.database in (None, "", ":memory:")

            @event.listens_for(self._engine.sync_engine, "connect")
            def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                if not memory:
                    _set_wal(cur)
                cur.execute(f"PRAGMA synchronous={sync}")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

    # ------------------------------------------------------------------ lifecycle

    @contextlib.asynccontextmanager
    async def _write(self) -> Any:
        """A write transaction.  On SQLite the writers of this process take turns on an
        ``asyncio.Lock`` (SQLite has one writer at a time; waiting here costs nothing, while
        waiting in SQLite's busy handler polls and sleeps); other processes still wait on
        the busy timeout."""
        if self._is_sqlite:
            async with self._write_lock:
                async with self._engine.begin() as conn:
                    # take the write lock now: a transaction that reads before it writes could
                    # otherwise fail to upgrade when another process wrote in between
                    await conn.exec_driver_sql("BEGIN IMMEDIATE")
                    yield conn
        else:
            async with self._engine.begin() as conn:
                yield conn


    @property
    def engine(self) -> AsyncEngine:
        """The underlying SQLAlchemy async engine (for migrations and admin queries)."""
        return self._engine

    async def init(self) -> None:
        """Create the PostgreSQL schema (``schema=``) if missing and upgrade to the head revision.

        For a SQLite file the parent directory is created too.  A database made before
        migrations existed (the five first tables, no ``alembic_version``) is stamped
        ``0001_initial`` and upgraded; its rows are kept.  Idempotent; one transaction.

        :raises StoreError: some but not all of the five first tables exist without a version
            table (not a database of the bot).
        """
        await self.upgrade("head")

    async def upgrade(self, revision: str = "head") -> None:
        """Run the migrations up to ``revision`` (``'head'``, ``'0001'``, …) in one transaction.

        A revision may be given by a unique prefix (``'0001'`` for ``'0001_initial'``).  An
        unversioned database holding the five first tables is stamped ``0001_initial`` first.

        :raises StoreError: unrecognised unversioned database (see :meth:`init`).
        :raises alembic.util.CommandError: unknown revision.
        """
        await self._migrate(lambda cfg: command.upgrade(cfg, revision))

    async def downgrade(self, revision: str) -> None:
        """Run the migrations down to ``revision`` (``'0001'``; ``'base'`` drops every table).

        :raises alembic.util.CommandError: unknown revision.
        """
        await self._migrate(lambda cfg: command.downgrade(cfg, revision))

    async def current_revision(self) -> Optional[str]:
        """The revision stored in ``alembic_version`` (``None`` for an unversioned database)."""
        async with self._engine.connect() as conn:
            return await conn.run_sync(
                lambda c: MigrationContext.configure(
                    c, opts={"version_table_schema": self._schema}
                ).get_current_revision()
            )

    async def _migrate(self, run: Callable[[Config], None]) -> None:
        if self._is_sqlite and self._url.database not in (None, "", ":memory:"):
            Path(self._url.database).parent.mkdir(parents=True, exist_ok=True)
        async with self._engine.begin() as conn:
            if self._is_sqlite:
                # Take the write lock first (waiting up to the busy timeout): the DDL then runs
                # in this one transaction (the driver would otherwise autocommit each CREATE)
                # and two bots starting together migrate one after the other.
                await conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                # Serialise concurrent migrations of the same schema (released at commit).
                key = f"mahjong-bot migrations {self._schema or ''}"
                await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})
            if self._schema is not None:
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self._schema}"'))
            await conn.run_sync(self._migrate_sync, run)

    def _migrate_sync(self, conn: Connection, run: Callable[[Config], None]) -> None:
        cfg = alembic_config(conn, self._schema)
        names = set(inspect(conn).get_table_names(schema=self._schema))
        if _VERSION_TABLE not in names:
            present = _INITIAL_TABLES & names
            if present == _INITIAL_TABLES:
                command.stamp(cfg, INITIAL_REVISION)
            elif present:
                raise StoreError(
                    "unversioned database with only some of the bot's tables "
                    f"({', '.join(sorted(present))}); refusing to migrate it"
                )
        run(cfg)

    async def close(self) -> None:
        """Close every pooled connection.  The store cannot be used afterwards."""
        if self._writer is not None and not self._writer.done():
            await asyncio.wait([self._writer])
        await self._engine.dispose()

    async def __aenter__(self) -> "Store":
        await self.init()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def _now(self) -> datetime:
        return _utc(self._clock())

    # ------------------------------------------------------------------ tables & seats

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        variant: str,
        options: dict,
        seed: int,
        lang: str = "zh",
    ) -> int:
        """Open a table in ``'lobby'`` status and return its id.

        :param options: variant options (JSON-serializable dict).
        :param seed: table seed, must fit a signed 64-bit integer (e.g. ``getrandbits(63)``).
        :raises TableExists: the channel already has a ``'lobby'``/``'playing'`` table (checked
            in the transaction; a concurrent creator is stopped by the partial unique index).
        :raises ValueError/TypeError: an id or the seed is not a 64-bit int.
        """
        for name, value in (
            ("guild_id", guild_id),
            ("channel_id", channel_id),
            ("creator_id", creator_id),
            ("seed", seed),
        ):
            _int64(name, value)
        now = self._now()
        try:
            async def _job(conn: AsyncConnection) -> Any:
                existing = await conn.scalar(
                    select(_T.c.id).where(
                        _T.c.channel_id == channel_id, _T.c.status.in_(OPEN_TABLE_STATUSES)
                    )
                )
                if existing is not None:
                    raise TableExists(channel_id)
                table_id = await conn.scalar(
                    insert(_T)
                    .values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        creator_id=creator_id,
                        variant=variant,
                        options=dict(options),
                        status="lobby",
                        message_id=None,
                        seed=seed,
                        hand_no=0,
                        lang=lang,
                        state={},
                        created_at=now,
                        updated_at=now,
                    )
                    .returning(_T.c.id)
                )
                return table_id

            table_id = await self._submit(_job)
        except IntegrityError as exc:
            raise TableExists(channel_id) from exc
        return int(table_id)

    async def get_table(self, table_id: int) -> TableRecord:
        """Return table ``table_id`` whatever its status.

        :raises NotFound: no such table.
        """
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(_T).where(_T.c.id == table_id))).first()
        if row is None:
            raise NotFound(f"table {table_id}")
        return _table_record(row)

    async def get_open_table(self, channel_id: int) -> Optional[TableRecord]:
        """Return the ``'lobby'``/``'playing'`` table of a channel, or ``None``."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(_T).where(
                        _T.c.channel_id == channel_id, _T.c.status.in_(OPEN_TABLE_STATUSES)
                    )
                )
            ).first()
        return None if row is None else _table_record(row)

    async def update_table(self, table_id: int, **fields: Any) -> TableRecord:
        """Set table fields and return the updated table; ``updated_at`` is set to now.

        Allowed fields: ``status``, ``message_id``, ``hand_no``, ``state``, ``options``,
        ``seed``, ``variant``, ``lang``, ``creator_id``.  Closing a table (``status='closed'``)
        also aborts its ``'playing'`` hand, if any, so no hand is left in play on a closed table.

        :raises TypeError: unknown field, or ``state``/``options`` not a dict.
        :raises ValueError: bad status or out-of-range id.
        :raises NotFound: no such table.
        :raises TableExists: re-opening a closed table in a channel that has another open one.
        """
        values = _check_table_fields(fields)
        try:
            async def _job(conn: AsyncConnection) -> Any:
                return await self._update_table(conn, table_id, values)

            return await self._submit(_job)
        except IntegrityError as exc:
            raise TableExists(await self._channel_of(table_id)) from exc

    async def _channel_of(self, table_id: int) -> int:
        return (await self.get_table(table_id)).channel_id

    async def _update_table(
        self, conn: AsyncConnection, table_id: int, values: dict[str, Any]
    ) -> TableRecord:
        now = self._now()
        row = (
            await conn.execute(
                update(_T)
                .where(_T.c.id == table_id)
                .values(**values, updated_at=now)
                .returning(*_T.c)
            )
        ).first()
        if row is None:
            raise NotFound(f"table {table_id}")
        if values.get("status") == "closed":
            await conn.execute(
                update(_H)
                .where(_H.c.table_id == table_id, _H.c.status == "playing")
                .values(status="aborted", ended_at=now)
            )
        return _table_record(row)

    async def set_seats(self, table_id: int, seats: Iterable[SeatRecord]) -> None:
        """Replace the seat list of a table (and set its ``updated_at``).

        :raises NotFound: no such table.
        :raises ValueError: two seats with the same number.
        """
        seats = list(seats)
        numbers = [s.seat for s in seats]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"duplicate seat numbers in {numbers}")
        for s in seats:
            if s.user_id is not None:
                _int64("user_id", s.user_id)
        async def _job(conn: AsyncConnection) -> Any:
            found = await conn.scalar(
                update(_T)
                .where(_T.c.id == table_id)
                .values(updated_at=self._now())
                .returning(_T.c.id)
            )
            if found is None:
                raise NotFound(f"table {table_id}")
            await conn.execute(delete(_S).where(_S.c.table_id == table_id))
            if seats:
                await conn.execute(
                    insert(_S),
                    [
                        {
                            "table_id": table_id,
                            "seat": s.seat,
                            "user_id": s.user_id,
                            "name": s.name,
                            "is_ai": s.is_ai,
                            "dms_open": s.dms_open,
                            "auto": s.auto,
                            "prompted": s.prompted,
                        }
                        for s in seats
                    ],
                )

        await self._submit(_job)

    async def set_seat_prompted(self, table_id: int, seat: int, prompted: Optional[str]) -> None:
        """Record the last decision a seat was prompted for (``SeatRecord.prompted``); one
        UPDATE, committed when the call returns (no error when the seat is gone)."""
        async def _job(conn: AsyncConnection) -> Any:
            await conn.execute(update(_S).where(_S.c.table_id == table_id, _S.c.seat == seat)
                               .values(prompted=None if prompted is None else str(prompted)[:64]))

        await self._submit(_job)

    async def get_seats(self, table_id: int) -> tuple[SeatRecord, ...]:
        """Return the seats of a table in seat order (empty if none or no such table)."""
        async with self._engine.connect() as conn:
            rows = (
                await conn.execute(select(_S).where(_S.c.table_id == table_id).order_by(_S.c.seat))
            ).all()
        return tuple(_seat_record(r) for r in rows)

    async def load_open_tables(self, table_id: Optional[int] = None) -> list[OpenTable]:
        """Return every ``'lobby'``/``'playing'`` table for a restart, ordered by table id
        (with ``table_id``: only that table, if it is open — to rebuild one table).

        Each comes with its seats (seat order) and its ``'playing'`` hand, if any, whose
        ``actions`` hold the whole log in index order, ready to replay.  Four queries in total,
        whatever the number of tables.
        """
        where = [_T.c.status.in_(OPEN_TABLE_STATUSES)]
        if table_id is not None:
            where.append(_T.c.id == table_id)
        async with self._engine.connect() as conn:
            tables = (
                await conn.execute(
                    select(_T).where(*where).order_by(_T.c.id)
                )
            ).all()
            if not tables:
                return []
            ids = [t.id for t in tables]
            seat_rows = (
                await conn.execute(
                    select(_S).where(_S.c.table_id.in_(ids)).order_by(_S.c.table_id, _S.c.seat)
                )
            ).all()
            hand_rows = (
                await conn.execute(
                    select(_H)
                    .where(_H.c.table_id.in_(ids), _H.c.status == "playing")
                    .order_by(_H.c.id)
                )
            ).all()
            playing_tables = {h.table_id for h in hand_rows}
            between = [i for i in ids if i not in playing_tables]
            last_rows = []
            if between:
                latest = (
                    select(func.max(_H.c.id))
                    .where(_H.c.table_id.in_(between), _H.c.status == "done")
                    .group_by(_H.c.table_id)
                )
                last_rows = (await conn.execute(select(_H).where(_H.c.id.in_(latest)))).all()
            hand_ids = [h.id for h in hand_rows] + [h.id for h in last_rows]
            action_rows = (
                (
                    await conn.execute(
                        select(_A.c.hand_id, _A.c.text)
                        .where(_A.c.hand_id.in_(hand_ids))
                        .order_by(_A.c.hand_id, _A.c.idx)
                    )
                ).all()
                if hand_ids
                else []
            )
        seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
        for r in seat_rows:
            seats[r.table_id].append(_seat_record(r))
        actions: dict[int, list[str]] = {i: [] for i in hand_ids}
        for r in action_rows:
            actions[r.hand_id].append(r.text)
        hands: dict[int, HandRecord] = {}
        for h in hand_rows:  # ordered by id: the latest playing hand wins
            hands[h.table_id] = _hand_record(h, actions[h.id])
        last = {h.table_id: _hand_record(h, actions[h.id]) for h in last_rows}
        return [
            OpenTable(table=_table_record(t), seats=tuple(seats[t.id]), hand=hands.get(t.id),
                      last_hand=last.get(t.id))
            for t in tables
        ]

    # ------------------------------------------------------------------ hands

    async def start_hand(
        self,
        *,
        table_id: int,
        hand_no: int,
        seed: int,
        variant: str,
        options: dict,
        dealer: int,
        seats: list[dict],
        context: dict | None = None,
    ) -> int:
        """Record a new ``'playing'`` hand and return its id.

        :param seed: the hand's seed (signed 64-bit).
        :param context: the match context the hand was dealt with (dealer streak, hand number,
            a variant's carried facts), so replays rebuild exactly this hand.
        :param seats: JSON-serializable descriptions of the seats (e.g. user ids and names by
            seat), stored as given.
        :raises NotFound: no such table.
        :raises TableClosed: the table is closed.
        :raises HandInProgress: the table has a ``'playing'`` hand (finish or abort it first).
        """
        _int64("seed", seed)
        now = self._now()
        try:
            async def _job(conn: AsyncConnection) -> Any:
                status = await conn.scalar(select(_T.c.status).where(_T.c.id == table_id))
                if status is None:
                    raise NotFound(f"table {table_id}")
                if status == "closed":
                    raise TableClosed(f"table {table_id} is closed")
                playing = await conn.scalar(
                    select(_H.c.id).where(_H.c.table_id == table_id, _H.c.status == "playing")
                )
                if playing is not None:
                    raise HandInProgress(table_id, playing)
                hand_id = await conn.scalar(
                    insert(_H)
                    .values(
                        table_id=table_id,
                        hand_no=hand_no,
                        seed=seed,
                        variant=variant,
                        options=dict(options),
                        dealer=dealer,
                        seats=list(seats),
                        context=dict(context or {}),
                        status="playing",
                        result=None,
                        started_at=now,
                        ended_at=None,
                    )
                    .returning(_H.c.id)
                )
                return hand_id

            hand_id = await self._submit(_job)
        except IntegrityError as exc:
            raise HandInProgress(table_id, None) from exc
        return int(hand_id)

    async def append_action(self, hand_id: int, idx: int, text: str) -> None:
        """Append action ``idx`` of a hand; committed when the call returns.

        ``idx`` must be the next index (0 for the first action, then 1, 2, …).  Same as
        ``append_actions(hand_id, idx, [text])``.

        :param text: the action's text form (as the engine prints and parses it).
        :raises ActionConflict: ``idx`` is already stored (also when two writers race, via the
            ``(hand_id, idx)`` primary key) or leaves a gap.
        :raises HandNotPlaying: the hand is done or aborted.
        :raises NotFound: no such hand.
        """
        await self.append_actions(hand_id, idx, [text])

    async def append_actions(self, hand_id: int, idx: int, texts: Sequence[str]) -> None:
        """Append actions ``idx, idx+1, …`` of a hand, all or none; committed when the call
        returns.

        Group commit: appends that arrive while another batch is being written (other tables'
        actions) wait and go together into the next transaction, one commit (one fsync on
        SQLite) for all of them.  Each request is checked on its own (the hand is playing,
        ``idx`` is the next index) and fails on its own; a request is acknowledged (the call
        returns) only after the transaction holding it has committed.

        :param texts: the actions' text forms, in order (an empty list does nothing).
        :raises ActionConflict, HandNotPlaying, NotFound: as :meth:`append_action`, for the
            first action of ``texts``.
        """
        texts = [str(t) for t in texts]
        if not texts:
            return

        try:
            refused = await self._submit(None, (hand_id, idx, texts))
        except IntegrityError as exc:
            raise ActionConflict(hand_id, idx, None) from exc
        if refused is not None:
            raise refused

    async def _submit(
        self,
        job: Optional[Callable[[AsyncConnection], Awaitable[Any]]],
        append: Optional[tuple[int, int, list[str]]] = None,
    ) -> Any:
        """Run ``job(conn)`` in a write transaction and return its result once committed (or,
        with ``job=None``, the action append ``(hand_id, idx, texts)``: its refusal or ``None``).

        Group commit: writes submitted while a transaction is being written wait, then go
        together into the next transaction (at most ``_MAX_BATCH``), with one commit for all:
        first every queued action append (two statements for all of them, see
        :meth:`_append_batch`), then the other jobs one after the other.  A job that raises
        rolls back its batch; the writes of that batch are then run again each in its own
        transaction, so each caller gets its own result or error and a failed write never
        takes another's with it.  Jobs only touch the database (they may run twice).
        """
        loop = asyncio.get_running_loop()
        fut: asyncio.Future = loop.create_future()
        self._write_queue.append((job, append, fut))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_batches())
        return await fut

    async def _run_batch(self, batch: list) -> list[tuple[bool, Any]]:
        """One transaction for ``batch``; outcomes in batch order (raises if it rolled back)."""
        out: list[tuple[bool, Any]] = [(True, None)] * len(batch)
        async with self._write() as conn:
            appends = [i for i, (job, _, _) in enumerate(batch) if job is None]
            if appends:
                refusals = await self._append_batch(conn, [batch[i][1] for i in appends])
                for i, refused in zip(appends, refusals):
                    out[i] = (True, refused)
            for i, (job, _, _) in enumerate(batch):
                if job is not None:
                    out[i] = (True, await job(conn))
        return out

    async def _write_batches(self) -> None:
        """The writer task: write the queued writes, batch after batch, until none is left."""
        while self._write_queue:
            batch = self._write_queue[:_MAX_BATCH]
            del self._write_queue[: len(batch)]
            try:
                try:
                    outcomes = await self._run_batch(batch)
                except Exception as exc:
                    if len(batch) == 1:
                        outcomes = [(False, exc)]
                    else:  # rolled back: each write alone
                        outcomes = []
                        for item in batch:
                            try:
                                outcomes.extend(await self._run_batch([item]))
                            except Exception as one:
                                outcomes.append((False, one))
            except BaseException:  # cancelled (shutdown): nothing of the batch is acknowledged
                for *_, fut in batch:
                    if not fut.done():
                        fut.cancel()
                raise
            for (*_, fut), (ok, value) in zip(batch, outcomes):
                if fut.done():
                    continue
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)

    async def _append_batch(
        self, conn: AsyncConnection, requests: list[tuple[int, int, list[str]]]
    ) -> list[Optional[StoreError]]:
        """Check and insert action appends in the batch's transaction: one query reads the
        status and next index of every hand concerned, one multi-row INSERT stores the accepted
        ones.  Returns each request's refusal (not raised, so the other requests stay in the
        transaction) or ``None``.  A writer of another process racing for the same index is
        stopped by the ``(hand_id, idx)`` primary key (the batch rolls back and is retried)."""
        hand_ids = sorted({h for h, _, _ in requests})
        state: dict[int, list] = {}
        for k in range(0, len(hand_ids), 500):
            chunk = hand_ids[k : k + 500]
            next_idx = (
                select(func.coalesce(func.max(_A.c.idx) + 1, 0))
                .where(_A.c.hand_id == _H.c.id)
                .scalar_subquery()
            )
            rows = await conn.execute(
                select(_H.c.id, _H.c.status, next_idx).where(_H.c.id.in_(chunk))
            )
            for hid, status, nxt in rows:
                state[hid] = [status, int(nxt)]
        now = self._now()
        rows_out: list[dict[str, Any]] = []
        refusals: list[Optional[StoreError]] = []
        for hand_id, idx, texts in requests:
            st = state.get(hand_id)
            if st is None:
                refusals.append(NotFound(f"hand {hand_id}"))
            elif st[0] != "playing":
                refusals.append(HandNotPlaying(hand_id, st[0]))
            elif st[1] != idx:
                refusals.append(ActionConflict(hand_id, idx, st[1]))
            else:
                rows_out.extend(
                    {"hand_id": hand_id, "idx": idx + k, "text": t, "created_at": now}
                    for k, t in enumerate(texts)
                )
                st[1] = idx + len(texts)
                refusals.append(None)
        if rows_out:
            await conn.execute(insert(_A), rows_out)
        return refusals

    async def finish_hand(
        self,
        hand_id: int,
        *,
        result: dict,
        settlements: Sequence[SettlementRecord],
        table_updates: Optional[dict] = None,
        streaks: Optional[Mapping[int, int]] = None,
    ) -> None:
        """Close a hand as ``'done'``, in one transaction with its settlements, table fields
        and players' 连庄 counts.

        :param result: the hand's result (JSON-serializable), stored on the hand.
        :param settlements: one per seat; ``hand_id``, ``table_id``, ``guild_id``, ``variant``
            and ``created_at`` are taken from the hand, its table and the clock.
        :param table_updates: fields for :meth:`update_table` on the hand's table (e.g.
            ``{"state": …, "hand_no": …}``), applied in the same transaction.
        :param streaks: ``{user_id: count}``: 连庄 counts to store for the hand's guild and game
            (see :meth:`set_streak`), in the same transaction, so a settled hand never goes
            without the count it leaves (nor the reverse).
        :raises HandNotPlaying: the hand is already done or aborted (nothing is written, so a
            retried call cannot settle a hand twice).
        :raises NotFound: no such hand.
        :raises ValueError: two settlements for the same seat.
        """
        values = _check_table_fields(table_updates or {})
        counts = _streaks(streaks)
        seats = [s.seat for s in settlements]
        if len(set(seats)) != len(seats):
            raise ValueError(f"duplicate settlement seats {seats}")
        now = self._now()
        async def _job(conn: AsyncConnection) -> Any:
            hand = (
                await conn.execute(
                    select(_H.c.status, _H.c.table_id, _H.c.variant, _T.c.guild_id)
                    .join(_T, _T.c.id == _H.c.table_id)
                    .where(_H.c.id == hand_id)
                )
            ).first()
            if hand is None:
                raise NotFound(f"hand {hand_id}")
            # Conditional update: only one finisher can move the hand out of 'playing'.
            done = await conn.execute(
                update(_H)
                .where(_H.c.id == hand_id, _H.c.status == "playing")
                .values(status="done", result=dict(result), ended_at=now)
            )
            if done.rowcount != 1:
                raise HandNotPlaying(hand_id, hand.status)
            if settlements:
                await conn.execute(
                    insert(_P),
                    [
                        {
                            "hand_id": hand_id,
                            "table_id": hand.table_id,
                            "guild_id": hand.guild_id,
                            "user_id": s.user_id,
                            "name": s.name,
                            "is_ai": s.is_ai,
                            "variant": hand.variant,
                            "seat": s.seat,
                            "points": s.points,
                            "is_winner": s.is_winner,
                            "self_drawn": s.self_drawn,
                            "dealt_in": s.dealt_in,
                            "fan": s.fan,
                            "created_at": now,
                        }
                        for s in settlements
                    ],
                )
            if values:
                await self._update_table(conn, hand.table_id, values)
            for user_id, kept in counts.items():
                await self._put_streak(conn, hand.guild_id, hand.variant, user_id, kept, now)

        await self._submit(_job)

    async def abort_hand(self, hand_id: int) -> None:
        """Mark a ``'playing'`` hand ``'aborted'`` (no settlements).  No-op if already aborted.

        :raises HandNotPlaying: the hand is done.
        :raises NotFound: no such hand.
        """
        async def _job(conn: AsyncConnection) -> Any:
            status = await conn.scalar(select(_H.c.status).where(_H.c.id == hand_id))
            if status is None:
                raise NotFound(f"hand {hand_id}")
            if status == "aborted":
                return
            if status != "playing":
                raise HandNotPlaying(hand_id, status)
            await conn.execute(
                update(_H)
                .where(_H.c.id == hand_id, _H.c.status == "playing")
                .values(status="aborted", ended_at=self._now())
            )

        await self._submit(_job)

    async def get_hand(self, hand_id: int) -> HandRecord:
        """Return a hand with its actions (index order) and settlements (seat order).

        :raises NotFound: no such hand.
        """
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(_H).where(_H.c.id == hand_id))).first()
            if row is None:
                raise NotFound(f"hand {hand_id}")
            acts = (
                await conn.scalars(
                    select(_A.c.text).where(_A.c.hand_id == hand_id).order_by(_A.c.idx)
                )
            ).all()
            sets = (
                await conn.execute(
                    select(_P).where(_P.c.hand_id == hand_id).order_by(_P.c.seat)
                )
            ).all()
        return _hand_record(row, acts, [_settlement_record(s) for s in sets])

    # ------------------------------------------------------------------ scores

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
            where.append(_P.c.created_at >= _utc(since))
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
        async with self._engine.connect() as conn:
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
        async with self._engine.connect() as conn:
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
        async with self._engine.connect() as conn:
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
        async with self._engine.connect() as conn:
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
        async with self._engine.connect() as conn:
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

    # ------------------------------------------------------------------ 连庄 counts

    async def get_streak(self, guild_id: int, variant: str, user_id: int) -> int:
        """The hands ``user_id`` kept in a row as dealer (连庄) in a guild's games of
        ``variant``; 0 when none is stored."""
        _int64("guild_id", guild_id)
        _int64("user_id", user_id)
        async with self._engine.connect() as conn:
            kept = await conn.scalar(
                select(_K.c.kept).where(
                    _K.c.guild_id == guild_id, _K.c.user_id == user_id, _K.c.variant == variant
                )
            )
        return int(kept or 0)

    async def set_streak(self, guild_id: int, variant: str, user_id: int, kept: int) -> None:
        """Store a player's 连庄 count (a plain overwrite: the last write wins).  The table
        service writes it with the settlement (:meth:`finish_hand`); this is for corrections.

        :raises ValueError: a negative count.
        """
        _int64("guild_id", guild_id)
        counts = _streaks({user_id: kept})
        now = self._now()

        async def _job(conn: AsyncConnection) -> Any:
            for user, count in counts.items():
                await self._put_streak(conn, guild_id, variant, user, count, now)

        await self._submit(_job)

    async def _put_streak(
        self, conn: AsyncConnection, guild_id: int, variant: str, user_id: int, kept: int,
        now: datetime,
    ) -> None:
        ins = (sqlite_insert if self._is_sqlite else pg_insert)(_K).values(
            guild_id=guild_id, user_id=user_id, variant=variant, kept=kept, updated_at=now
        )
        await conn.execute(
            ins.on_conflict_do_update(
                index_elements=[_K.c.guild_id, _K.c.user_id, _K.c.variant],
                set_={"kept": ins.excluded.kept, "updated_at": ins.excluded.updated_at},
            )
        )

    # ------------------------------------------------------------------ guild configuration

    async def get_guild_config(self, guild_id: int) -> GuildConfig:
        """Return the settings of a guild; an empty :class:`GuildConfig` if none are stored."""
        _int64("guild_id", guild_id)
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(_G).where(_G.c.guild_id == guild_id))).first()
        return _guild_config(guild_id, row)

    async def set_guild_default(self, guild_id: int, variant: str, options: dict) -> GuildConfig:
        """Replace the guild's option defaults of one variant (``{}`` clears them).

        Values are stored as given; checking them against the variant's option declarations
        is the caller's job.

        :raises TypeError: ``variant`` not a non-empty str, ``options`` not a dict with str keys.
        :returns: the updated configuration.
        """
        variant = _name("variant", variant)
        options = _options(options)

        def edit(cfg: dict[str, Any]) -> None:
            if options:
                cfg["defaults"][variant] = options
            else:
                cfg["defaults"].pop(variant, None)

        return (await self._edit_guild(guild_id, edit, create=True))[0]

    async def set_preset(
        self, guild_id: int, name: str, variant: str, options: dict
    ) -> GuildConfig:
        """Create or replace the guild's preset ``name`` (a variant with option values).

        :raises TypeError: ``name``/``variant`` not non-empty str, ``options`` not a dict with
            str keys.
        :returns: the updated configuration.
        """
        name = _name("name", name)
        preset = {"variant": _name("variant", variant), "options": _options(options)}

        def edit(cfg: dict[str, Any]) -> None:
            cfg["presets"][name] = preset

        return (await self._edit_guild(guild_id, edit, create=True))[0]

    async def delete_preset(self, guild_id: int, name: str) -> bool:
        """Delete the guild's preset ``name``; ``False`` if there was none by that name."""

        def edit(cfg: dict[str, Any]) -> bool:
            return cfg["presets"].pop(name, None) is not None

        return bool((await self._edit_guild(guild_id, edit, create=False))[1])

    async def set_channels(self, guild_id: int, channels: Iterable[int]) -> GuildConfig:
        """Set the channels where tables may be opened (``[]``: every channel).

        Stored without duplicates, in ascending order.

        :raises TypeError/ValueError: a channel id is not a 64-bit int.
        :returns: the updated configuration.
        """
        ids = sorted({_int64("channel_id", c) for c in channels})

        def edit(cfg: dict[str, Any]) -> None:
            cfg["channels"] = ids

        return (await self._edit_guild(guild_id, edit, create=True))[0]

    async def _edit_guild(
        self, guild_id: int, edit: Callable[[dict[str, Any]], Any], *, create: bool
    ) -> tuple[GuildConfig, Any]:
        """Read-modify-write of a guild's row in one transaction, serialised per guild.

        The first statement takes the write lock (SQLite) or the row lock (PostgreSQL) before
        the row is read, so concurrent edits of one guild never lose each other's changes.
        With ``create=False`` a guild without a row is left without one.
        """
        _int64("guild_id", guild_id)
        now = self._now()
        async def _job(conn: AsyncConnection) -> Any:
            if create:
                ins = (sqlite_insert if self._is_sqlite else pg_insert)(_G)
                await conn.execute(
                    ins.values(
                        guild_id=guild_id, defaults={}, presets={}, channels=[], updated_at=now
                    ).on_conflict_do_nothing(index_elements=[_G.c.guild_id])
                )
            else:
                locked = await conn.execute(
                    update(_G).where(_G.c.guild_id == guild_id).values(guild_id=_G.c.guild_id)
                )
                if locked.rowcount == 0:
                    return GuildConfig(guild_id), edit(_empty_config())
            row = (
                await conn.execute(
                    select(_G).where(_G.c.guild_id == guild_id).with_for_update()
                )
            ).one()
            cfg = {
                "defaults": dict(row.defaults or {}),
                "presets": dict(row.presets or {}),
                "channels": list(row.channels or []),
            }
            before = {k: (dict(v) if isinstance(v, dict) else list(v)) for k, v in cfg.items()}
            result = edit(cfg)
            if create or cfg != before:
                row = (
                    await conn.execute(
                        update(_G)
                        .where(_G.c.guild_id == guild_id)
                        .values(**cfg, updated_at=now)
                        .returning(*_G.c)
                    )
                ).one()
            return _guild_config(guild_id, row), result

        return await self._submit(_job)


def _streaks(counts: Optional[Mapping[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for user_id, kept in (counts or {}).items():
        _int64("user_id", user_id)
        if isinstance(kept, bool) or not isinstance(kept, int) or kept < 0:
            raise ValueError(f"a 连庄 count is an int >= 0, not {kept!r}")
        out[user_id] = kept
    return out


def _empty_config() -> dict[str, Any]:
    return {"defaults": {}, "presets": {}, "channels": []}


def _guild_config(guild_id: int, row: Any) -> GuildConfig:
    if row is None:
        return GuildConfig(guild_id)
    return GuildConfig(
        guild_id=guild_id,
        defaults={k: dict(v) for k, v in (row.defaults or {}).items()},
        presets={k: dict(v) for k, v in (row.presets or {}).items()},
        channels=tuple(int(c) for c in (row.channels or ())),
        updated_at=row.updated_at,
    )


def _name(what: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"{what} must be a non-empty str, got {value!r}")
    return value


def _options(options: Any) -> dict:
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise TypeError(f"options must be a dict with str keys, got {options!r}")
    return dict(options)
