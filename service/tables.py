"""The table service: one object per table, transport-agnostic.

The Discord cogs and the terminal table are two thin front ends over
:class:`TableService`.  It owns the open tables of a process and, for each:

* an ``asyncio.Lock`` — every change of a table runs under it, so simultaneous
  clicks are applied one after the other, never interleaved;
* persistence — an accepted action is validated on the in-memory hand, then
  written to the database (``Store.append_actions``) **before** the call returns;
  the AI and 托管 moves it triggers (played in the same lock) are written in the
  same transaction, and the store commits the writes of concurrent tables together
  (group commit); if the write fails the hand is rebuilt from the stored log and
  the error is raised, so nothing acknowledged is ever lost and nothing
  unacknowledged kept;
* timers — deadlines from an injectable clock (``two_player.md`` §Timeouts):
  :meth:`TableService.tick` applies the timeout action of every overdue seat;
  the third timeout of a seat puts it in 托管 (auto-play) until it acts again;
* AI and 托管 seats — played inside the same lock right after each change;
* each player's language (``service.langs``) — remembered from their interactions, kept in
  the store, read by the front ends for what they send that player alone;
* listeners — after every change, ``await listener(table, update)`` lets a front end
  redraw the table and the hands.  A listener must return quickly (the Discord front end
  only queues the update for its per-table fan-out task): the caller of an action gets its
  answer only after the listeners returned.

One hand is settled exactly once: the new match state (scores, dealer, 连庄) is written with
the settlement in one transaction and adopted in memory only after the store accepted it;
``Table.settled_hand_id`` says which hand that was.

Who may act is decided in one place, :meth:`TableService.may_act` (seated, this table, this
hand, this turn, a seat the hand waits for), used by every front end for commands, buttons,
menus and clicks routed from another process.

What the front ends may show is the snapshot the service publishes after every change
(``service/snapshot.py``, built by ``service/publish.py``): its public part tells no hidden
decision (who the hand waits for during a claim window, passes and claim timeouts), and the
decision numbers a seat's buttons carry count that seat's own decisions only
(:class:`service.table.Decisions`), so a claim window another seat passed in shows nowhere.

Errors for users are :class:`ServiceError` (and the engine's ``IllegalAction``),
each with a ``code`` that is a key of the message catalogues.
"""

from __future__ import annotations

import logging
import secrets
from typing import Callable, Optional

from engine.errors import IllegalAction
from store import Store

from .clock import SystemClock
from .frontends import FrontEnds
from .hands import Hands
from .langs import Langs
from .lobby import Lobby
from .restore import Restore
from . import publish
from .seats import Seats
from .snapshot import Change, TableSnapshot, freeze
from .table import (AUTO_AFTER_TIMEOUTS, CLOSED, HIDDEN_EVENTS, LOBBY, OPENING_PHASES, PLAYING, WINDOW_PHASES,
                    Listener, Seat, ServiceError, Table, TableFault, Update, public_log, replay)
from .timers import Timers

log = logging.getLogger(__name__)


class TableService(Lobby, Hands, Timers, Restore, Langs, Seats, FrontEnds):
    """All open tables of this process.

    :param store: the persistence (``store.Store``), already initialised.
    :param clock: ``now() -> float`` seconds; :class:`service.clock.SystemClock` by default.
    :param seed_source: ``() -> int`` for new table seeds (63-bit); ``secrets`` by default.
    :param owns: ``owns(guild_id)``: the guilds whose tables this process runs (sharding).
    :param vocabulary: the words of typed moves (``service.interpret.Vocabulary``), for
        :meth:`interpret`; a front end's (``render.text.typed``).
    """

    def __init__(self, store: Store, clock=None, seed_source: Callable[[], int] | None = None,
                 owns: Callable[[int], bool] | None = None, vocabulary=None):
        self.store = store
        #: the words of typed moves (``service.interpret.Vocabulary``; the front end's)
        self.vocabulary = vocabulary
        #: ``owns(guild_id)``: does this process own that guild's tables (its shard, see
        #: ``service.routing``)?  ``None``: every table (one process).
        self.owns = owns
        self.clock = clock or SystemClock()
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.tables: dict[int, Table] = {}  # by channel id
        self.listeners: list[Listener] = []
        #: ``deal_context(table) -> dict``: context added to each hand at the deal (tests
        #: stack walls through it); stored with the hand, so replays and restarts agree
        self.deal_context: Callable[[Table], dict] | None = None
        #: user id -> language (``None``: looked up, none stored); see :mod:`service.langs`
        self._langs: dict[int, Optional[str]] = {}
        #: this process's start number (``Store.next_start``, read by :meth:`load`) and the
        #: snapshots published since: a snapshot's version
        self._generation = 0
        self._published = 0
        #: 连庄 counts this process read or stored (``service.streaks``)
        self._streaks: dict = {}

    # ------------------------------------------------------------------ lookup
    def table_in(self, channel_id: int) -> Table:
        """The open table of a channel; :class:`ServiceError` ``no_table`` if none."""
        t = self.tables.get(channel_id)
        if t is None or t.status == CLOSED:
            raise ServiceError("no_table")
        return t

    async def stored_guild_of(self, channel_id: int) -> Optional[int]:
        """The server of the open table of a channel as the store knows it (a table another
        process runs, sharded), or ``None``."""
        rec = await self.store.get_open_table(channel_id)
        return None if rec is None else rec.guild_id

    def tables_of_user(self, user_id: int) -> list[Table]:
        return [t for t in self.tables.values() if t.status != CLOSED and t.seat_of(user_id) is not None]

    def table_for_user(self, user_id: int) -> Table:
        """The table a player means when they act outside a table's channel (a command typed
        in a DM): their only table, else the one table where they may act now.

        :raises ServiceError: ``no_table_dm`` (seated nowhere); ``which_table`` with
            ``channels`` (mentions of the candidate channels) when several tables fit."""
        tables = self.tables_of_user(user_id)
        if not tables:
            raise ServiceError("no_table_dm")
        if len(tables) == 1:
            return tables[0]
        acting = [t for t in tables if t.hand is not None and not t.hand.is_over()
                  and t.seat_of(user_id) in t.hand.pending_seats()]
        if len(acting) == 1:
            return acting[0]
        raise ServiceError("which_table", channels=", ".join(f"<#{t.channel_id}>" for t in (acting or tables)))

    def may_act(self, table: Table, user_id: int, *, hand_id: Optional[int] = None, seq: Optional[int] = None,
                waited: bool = True) -> int:
        """The one check of "may this user act now" (every command, button, menu and routed
        click goes through it); returns the user's seat.

        :param hand_id: the stored id of the hand the request was drawn for (buttons carry
            it); another hand's: ``stale``.
        :param seq: the decision the request was drawn for (``Table.decisions``: the number
            of the seat's current decision); another, or a seat the hand no longer waits for:
            ``stale``.
        :param waited: the seat must be one the hand waits for (``not_your_turn`` otherwise);
            ``False`` for requests that only look (the hand, the 听 menu).
        :raises ServiceError: ``not_seated``, ``no_hand``, ``stale``, ``not_your_turn``,
            ``on_auto`` (the seat is on 托管: take it over first).
        """
        table.check_open()
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_seated")
        hand = table.hand
        if hand_id is not None and hand_id != table.hand_id:
            raise ServiceError("stale")
        if hand is None or hand.is_over():
            raise ServiceError("no_hand")
        if seq is not None and (seat not in hand.pending_seats() or seq != table.decisions.get(seat)):
            raise ServiceError("stale")
        if waited and seat not in hand.pending_seats():
            if table.seats[seat].auto:
                raise ServiceError("on_auto")
            raise ServiceError("not_your_turn")
        return seat

    # ------------------------------------------------------------------ publishing
    def _version(self) -> int:
        """The next snapshot version: monotonic within this process, and across restarts (the
        start number :meth:`load` took from the store is in the high bits)."""
        self._published += 1
        return (self._generation << 32) | self._published

    def _publish(self, t: Table, upd: Update) -> Change:
        """The snapshot of ``t`` after ``upd`` and the change the front ends receive (the lock is
        held, or the table is not yet shared): ``service/publish.py``.  A service nobody listens
        to (a benchmark, a test of the rules) builds no snapshot nobody reads and keeps no engine
        views for it: the change's ``snapshot`` is ``None`` and :meth:`snapshot` builds one when
        it is asked."""
        snap = None
        if self.listeners:
            # who acted, and whom a public event names (a pass is recorded when its window
            # closes: the seat that passed took part in an earlier change)
            involved = {upd.actor} | {e.get("seat") for e in upd.events if e.get("type") not in HIDDEN_EVENTS}
            t.touched |= {s for s in involved if isinstance(s, int)}
            snap = self._build(t)
        else:
            # nobody listens: built when first read (:meth:`snapshot`); the engine views kept for
            # the next one would only be memory and work for the collector (the last snapshot
            # stays: its parts keep their versions while they do not change)
            t.snapshot_due = True
            t.view_cache = None
            t.touched = set()
        notices = freeze({s: list(keys) for s, keys in upd.notices.items()})
        return Change(kind=upd.kind, snapshot=snap, events=publish.public_events(upd.events), actor=upd.actor,
                      notices=notices, prompt=frozenset(upd.seats_to_notify), hand_id=upd.hand_id,
                      match_id=upd.match_id)

    def _build(self, t: Table) -> TableSnapshot:
        """Build and keep the snapshot of ``t`` now (``service/publish.py``)."""
        snap = publish.build(t, self._version(), self.user_lang, t.touched)
        t.snapshot, t.snapshot_due, t.touched = snap, False, set()
        return snap

    async def _notify(self, change: Change) -> None:
        for listener in list(self.listeners):
            try:
                await listener(change)
            except Exception:  # a front end failing must not undo the game
                log.exception("table listener failed")


__all__ = ["TableService", "Table", "Seat", "Update", "ServiceError", "TableFault", "IllegalAction", "Listener",
           "LOBBY", "PLAYING", "CLOSED", "AUTO_AFTER_TIMEOUTS", "HIDDEN_EVENTS", "WINDOW_PHASES", "OPENING_PHASES",
           "public_log", "replay"]
