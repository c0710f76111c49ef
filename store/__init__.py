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

Modules
-------
:class:`Store` makes its parts and hands each call to the part that answers it: each part is an
object of a module of its own, given only the database they share
(:class:`store.database.Database`: the engine, the clock, the short reads and the group-commit
writer).  Where one part's write belongs in another's transaction (a settlement writes its
table's fields, the players' 连庄 counts and the match's end), the module offers it as a
function of the transaction's connection (``update_table_row``, ``put_streak``,
``end_match_in``), never a part calling another.

* :mod:`store.connect` — URLs rewritten to the async drivers, the engine, the SQLite pragmas;
* :mod:`store.database` — the database the parts share: reads, write transactions and group
  commit;
* :mod:`store.records` — the frozen records and the errors;
* :mod:`store.tables` — tables, seats, seat prompts, open tables for a restart;
* :mod:`store.hands` — hands, the action log, settlements;
* :mod:`store.imports` — hands imported from a game record file (counted nowhere: no settlement rows);
* :mod:`store.scores` — score, leaderboard, history, statistics, finished hands;
* :mod:`store.rates` — what a player's rates are counted from (``docs/rates.md``);
* :mod:`store.guilds` — guild defaults, presets, channels;
* :mod:`store.matches` — ended matches, their standings and the message that showed them;
* :mod:`store.streaks` — the players' 连庄 counts;
* :mod:`store.routed` — clicks routed between the processes of a sharded bot;
* :mod:`store.state` — named values kept between starts (the synced commands' hash, the start number);
* :mod:`store.langs` — each player's language;
* :mod:`store.migrate` — Alembic upgrade, downgrade and stamp;
* :mod:`store.models` — the SQLModel tables; ``store/migrations/`` — the Alembic revisions;
* :mod:`store.copies` — a consistent copy, a folder of dated copies, the restore; :mod:`store.backup`
  — the command that makes and restores them;
  :mod:`store.retention` — which copies to keep (pure); :mod:`store.backup_schedule` — the
  bot's daily copy task.

Nothing here imports the service, the Discord front end or the renderer.

Schema migrations
-----------------
The schema is versioned with Alembic; the environment and the revisions are in
``store/migrations`` (``0001_initial``: ``game_table``, ``seat``, ``hand``, ``hand_action``,
``settlement``; ``0002_guild_config``; ``0003_hand_context``; ``0004_routed_action``;
``0005_player_streak``; ``0006_routed_hand``; ``0007_seat_prompted``; ``0008_bot_state``; ``0009_match``; ``0010_player_lang``; ``0011_seat_left``;
``0012_guild_settings``; ``0013_seat_level``; ``0014_ratings``; ``0015_player_tally``).  :meth:`Store.init`
upgrades the database to the head revision in one transaction.  Two bots starting together migrate one after the other: a
PostgreSQL advisory lock, and on SQLite a ``BEGIN IMMEDIATE`` transaction (which also keeps
the DDL inside the transaction, so a failed upgrade leaves no half-created table).  A database
created before the bot had migrations (the five tables, no ``alembic_version``) is stamped
``0001_initial`` first and then upgraded, keeping its rows.  With ``schema=`` on PostgreSQL
the version table lives in that schema next to the tables.  A SQLite file behind the head
revision is copied first (``Store(backup_dir=)``, else beside it), named with its revision.
From the command line:
``DATABASE_URL=… alembic -c store/migrations/alembic.ini upgrade head``.

Durability on SQLite
--------------------
The file runs in WAL mode with ``synchronous=FULL`` (default, see :class:`Store`):

* every commit has been written to the WAL file by SQLite before ``commit`` returns, so an
  acknowledged action survives a kill of the bot process in any mode other than ``OFF``
  (``tests/store/test_store.py`` kills a writing process with SIGKILL and checks every acknowledged
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

from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional

from .connect import normalize_url
from .database import Database
from .guilds import Guilds
from .hands import Hands, append_batch
from .imports import IMPORTED, Imports
from .langs import Langs
from .ratings import Rated, Rating, Ratings, SettledHand, Unit
from .tallies import PlayerTally, Tallies
from .matches import Matches
from .migrate import INITIAL_REVISION, MIGRATIONS_DIR, Migrations, alembic_config, head_revision
from .records import (
    ActionConflict,
    GuildConfig,
    HandInProgress,
    HandNotPlaying,
    HandRecord,
    HistoryLine,
    MatchRecord,
    NotFound,
    OpenTable,
    PlayerStats,
    ScoreLine,
    SeatRecord,
    SettlementRecord,
    StoreError,
    TableClosed,
    TableExists,
    TableRecord,
)
from .routed import RoutedAction, RoutedActions
from .rates import Rates
from .scores import Scores
from .state import NamedValues
from .streaks import Streaks
from .tables import Tables

__all__ = [
    "PlayerTally",
    "IMPORTED",
    "Rated",
    "Rating",
    "SettledHand",
    "Unit",
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
    "MatchRecord",
    "PlayerStats",
    "RoutedAction",
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
    :param backup_dir: where :meth:`init` copies a SQLite file before upgrading its schema
        (default: beside the database; ``store.migrate.Migrations.backup_before_upgrade``).

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
        backup_dir: Optional[Path] = None,
    ):
        self.db = Database(url, append_batch, echo=echo, clock=clock, schema=schema,
                           sqlite_synchronous=sqlite_synchronous)
        #: the database URL, normalized
        self.url = self.db.url
        #: the underlying SQLAlchemy async engine (for migrations and admin queries)
        self.engine = self.db.engine
        #: ``await ping()``: one trivial query, returns once the database answered (a health check)
        self.ping = self.db.ping
        # the parts, each given the database alone
        self.migrations = Migrations(self.db, backup_dir)
        self.tables = Tables(self.db)
        self.hands = Hands(self.db)
        self.imports = Imports(self.db)
        self.matches = Matches(self.db)
        self.streaks = Streaks(self.db)
        self.scores = Scores(self.db)
        self.hand_rates = Rates(self.db)
        self.guilds = Guilds(self.db)
        self.routed = RoutedActions(self.db)
        self.named = NamedValues(self.db)
        self.langs = Langs(self.db)
        self.rated = Ratings(self.db)
        self.tallied = Tallies(self.db)

        # the calls, each answered by its part
        m = self.migrations
        self.init, self.upgrade, self.downgrade = m.init, m.upgrade, m.downgrade
        self.current_revision = m.current_revision
        t = self.tables
        self.create_table, self.get_table, self.get_open_table = t.create_table, t.get_table, t.get_open_table
        self.update_table, self.set_seats, self.get_seats = t.update_table, t.set_seats, t.get_seats
        self.set_seat_prompted, self.load_open_tables = t.set_seat_prompted, t.load_open_tables
        h = self.hands
        self.start_hand, self.append_action, self.append_actions = h.start_hand, h.append_action, h.append_actions
        self.finish_hand, self.abort_hand, self.get_hand = h.finish_hand, h.abort_hand, h.get_hand
        self.import_hands = self.imports.import_hands
        mt = self.matches
        self.end_match, self.get_match, self.match_hands = mt.end_match, mt.get_match, mt.match_hands
        self.set_match_standings, self.set_match_message = mt.set_match_standings, mt.set_match_message
        self.unposted_matches, self.player_matches = mt.unposted_matches, mt.player_matches
        self.guild_matches, self.match_of_table = mt.guild_matches, mt.match_of_table
        self.get_streak, self.set_streak = self.streaks.get_streak, self.streaks.set_streak
        sc = self.scores
        self.score, self.leaderboard, self.history, self.stats = sc.score, sc.leaderboard, sc.history, sc.stats
        self.finished_hands = sc.finished_hands
        self.rate_hands, self.hand_actions = self.hand_rates.rate_hands, self.hand_rates.hand_actions
        self.human_hands = self.hand_rates.human_hands
        g = self.guilds
        self.get_guild_config, self.set_guild_default, self.set_guild_settings = (
            g.get_guild_config, g.set_guild_default, g.set_guild_settings)
        self.set_preset, self.delete_preset, self.set_channels = g.set_preset, g.delete_preset, g.set_channels
        r = self.routed
        self.add_routed_action, self.claim_routed_actions = r.add_routed_action, r.claim_routed_actions
        self.count_routed_actions = r.count_routed_actions
        self.get_state, self.set_state, self.next_start = self.named.get_state, self.named.set_state, self.named.next_start
        self.states = self.named.states
        self.get_langs, self.set_lang = self.langs.get_langs, self.langs.set_lang
        rt = self.rated
        self.rating, self.ratings, self.unit_places, self.best_hands = rt.rating, rt.ratings, rt.unit_places, rt.best_hands
        self.count_ratings, self.rebuild_source, self.replace_all_ratings = (
            rt.count_ratings, rt.rebuild_source, rt.replace_all)
        self.player_names = rt.player_names
        ty = self.tallied
        self.tally, self.count_tallies, self.replace_all_tallies = ty.tally, ty.count_tallies, ty.replace_all
        self.has_human_settlements = ty.has_human_settlements
        self.placement_counts, self.recent_places = ty.placement_counts, ty.recent_places

    async def close(self) -> None:
        """Write what is queued and close every pooled connection.  The store cannot be used
        afterwards."""
        await self.db.close()

    async def __aenter__(self) -> "Store":
        await self.init()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
