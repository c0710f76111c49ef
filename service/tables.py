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
* listeners — after every change, ``await listener(change)`` lets a front end
  redraw the table and the hands.  A listener must return quickly (the Discord front end
  only queues the update for its per-table fan-out task): the caller of an action gets its
  answer only after the listeners returned.

One hand is settled exactly once: the new match state (scores, dealer, 连庄) is written with
the settlement in one transaction and adopted in memory only after the store accepted it;
``Table.settled_hand_id`` says which hand that was.

Who may act is decided in one place, ``OpenTables.may_act`` (seated, this table, this hand,
this turn, a seat the hand waits for), used by every front end for commands, buttons, menus
and clicks routed from another process.

What the front ends may show is the snapshot the service publishes after every change
(``service/snapshot.py``, built by ``service/publish.py``): its public part tells no hidden
decision (who the hand waits for during a claim window, passes and claim timeouts), and the
decision numbers a seat's buttons carry count that seat's own decisions only
(:class:`service.table.Decisions`), so a claim window another seat passed in shows nowhere.

Errors for users are :class:`ServiceError` (and the engine's ``IllegalAction``),
each with a ``code`` that is a key of the message catalogues.

The service is made of parts, each an object given in its constructor the parts it uses (and
none given the service): the open tables (``service/open_tables.py``), the publisher of
snapshots (``service/publisher.py``), the players' languages (``service/langs.py``), seat
changes (``service/seats.py``), the hands (``service/hands.py``), the lobby
(``service/lobby.py``), the timers (``service/timers.py``), the restart
(``service/restore.py``) and what the front ends read and keep (``service/frontends.py``).
:class:`TableService` makes them and hands each request to the part that answers it.
"""

from __future__ import annotations

import secrets
from typing import Callable, Optional

from engine.errors import IllegalAction
from store import Store

from .clock import Clock, SystemClock
from .frontends import FrontEnds
from .hands import Hands
from .health import StoreHealth
from .interpret import Vocabulary
from .langs import Langs
from .lobby import Lobby
from .open_tables import OpenTables
from .publisher import Publisher
from .restore import Restore
from .seats import Seats
from .table import (AUTO_AFTER_TIMEOUTS, CLOSED, HIDDEN_EVENTS, LOBBY, OPENING_PHASES, PLAYING, WINDOW_PHASES,
                    Listener, Seat, ServiceError, Table, TableFault, Update, public_log, replay)
from .timers import Timers


class TableService:
    """All open tables of this process: its parts, and the requests of the front ends.

    :param store: the persistence (``store.Store``), already initialised.
    :param clock: ``now() -> float`` seconds; :class:`service.clock.SystemClock` by default.
    :param seed_source: ``() -> int`` for new table seeds (63-bit); ``secrets`` by default.
    :param owns: ``owns(guild_id)``: the guilds whose tables this process runs (sharding).
    :param vocabulary: the words of typed moves (``service.interpret.Vocabulary``), for
        :meth:`interpret`; a front end's (``render.text.typed``).
    """

    def __init__(self, store: Store, clock: Optional[Clock] = None,
                 seed_source: Optional[Callable[[], int]] = None,
                 owns: Optional[Callable[[int], bool]] = None, vocabulary: Optional[Vocabulary] = None):
        self.store = store
        self.clock: Clock = clock or SystemClock()
        # the parts, each given what it uses
        self.langs = Langs(store)
        self.open_tables = OpenTables(store)
        self.publisher = Publisher(self.langs)
        self.seats = Seats(store, self.open_tables)
        self.hands = Hands(store, self.clock, self.open_tables, self.publisher, self.seats, vocabulary)
        self.lobby = Lobby(store, self.clock, self.open_tables, self.publisher, self.hands, self.seats,
                           seed_source or (lambda: secrets.randbits(63)))
        self.timers = Timers(self.clock, self.open_tables, self.publisher, self.hands, self.lobby)
        self.restore = Restore(store, self.clock, self.open_tables, self.publisher, self.hands, self.langs, owns)
        self.front = FrontEnds(store, self.open_tables, self.publisher)
        self.store_health = StoreHealth(store)

        # the requests, each answered by its part
        #: the open tables by channel id, and the one check of who may act
        self.tables = self.open_tables.tables
        self.table_in = self.open_tables.table_in
        self.table_for_user = self.open_tables.table_for_user
        self.stored_guild_of = self.open_tables.stored_guild_of
        self.may_act = self.open_tables.may_act
        #: ``await listener(change)`` after every change
        self.listeners = self.publisher.listeners
        self.user_lang, self.remember_lang = self.langs.user_lang, self.langs.remember_lang
        lobby = self.lobby
        self.create_table, self.join, self.add_ai, self.start = lobby.create_table, lobby.join, lobby.add_ai, lobby.start
        self.leave, self.take_over, self.set_auto = lobby.leave, lobby.take_over, lobby.set_auto
        self.let_ai_play, self.hand_to_ai, self.end = lobby.let_ai_play, lobby.hand_to_ai, lobby.end
        self.set_options, self.check_may_change_options = lobby.set_options, lobby.check_may_change_options
        hands = self.hands
        self.act, self.press, self.next_hand = hands.act, hands.press, hands.next_hand
        self.interpret, self.act_typed = hands.interpret, hands.act_typed
        self.tick, self.next_deadline = self.timers.tick, self.timers.next_deadline
        self.load, self.reload = self.restore.load, self.restore.reload
        front = self.front
        self.snapshot, self.find_snapshot, self.snapshots = front.snapshot, front.find_snapshot, front.snapshots
        self.snapshot_for_user, self.check = front.snapshot_for_user, front.check
        self.is_open, self.is_seated = front.is_open, front.is_seated
        self.set_dms_open, self.set_message = front.set_dms_open, front.set_message
        self.note_channel_name, self.announce = front.note_channel_name, front.announce
        self.front_memory, self.set_front_memory = front.front_memory, front.set_front_memory
        #: ``await check_store(timeout)``: whether the store answers (``service/health.py``)
        self.check_store = self.store_health.check


__all__ = ["TableService", "Table", "Seat", "Update", "ServiceError", "TableFault", "IllegalAction", "Listener",
           "LOBBY", "PLAYING", "CLOSED", "AUTO_AFTER_TIMEOUTS", "HIDDEN_EVENTS", "WINDOW_PHASES", "OPENING_PHASES",
           "public_log", "replay"]
