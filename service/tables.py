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

What the public may see is :meth:`Table.public_view`: the engine's public view without what
tells a hidden decision (who the hand waits for during a claim window, the action counter,
passes and claim timeouts), so every public message is a function of the public events.

Errors for users are :class:`ServiceError` (and the engine's ``IllegalAction``),
each with a ``code`` that is a key of the message catalogues.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Optional

from engine.actions import Action
from engine.errors import IllegalAction, OptionError
from engine.match import Match
from engine.rng import seed_commitment
from engine.tiles import kind_str
from engine.variants import VariantInfo, all_variants, find_variant
from store import HandNotPlaying, SeatRecord, SettlementRecord, Store, TableExists

from . import streaks
from .clock import SystemClock

log = logging.getLogger(__name__)

LOBBY, PLAYING, CLOSED = "lobby", "playing", "closed"
AUTO_AFTER_TIMEOUTS = 3  #: two_player.md §Timeouts: the third timeout puts the seat in 托管
#: events that tell the public a seat had a choice: never shown publicly
HIDDEN_EVENTS = frozenset({"pass", "timeout"})
#: engine phases in which the hand waits on claims nobody else may know of
WINDOW_PHASES = frozenset({"claim", "rob"})
#: engine phases in which every seat decides at once (老五对 买庄/折庄, 字牌 飘)
OPENING_PHASES = frozenset({"opening", "piao"})


class ServiceError(Exception):
    """A request the table service refuses; ``code`` is a message-catalogue key."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code + (f" {params}" if params else ""))
        self.code = code
        self.params = params


class TableFault(RuntimeError):
    """An unexpected error while changing a table (a bug, a failing database): the table was
    rebuilt from the store before this was raised, so nothing stored is lost and nothing
    unstored kept.  ``table_id``/``hand_id`` say where it happened."""

    def __init__(self, table: "Table", cause: BaseException):
        super().__init__(f"table {table.id} hand {table.hand_id}: {type(cause).__name__}: {cause}")
        self.table_id = table.id
        self.hand_id = table.hand_id
        self.cause = cause


@dataclass
class Seat:
    """A seat at a table: a human (``user_id``) or an AI seat (``user_id is None``)."""

    user_id: Optional[int]
    name: str
    is_ai: bool = False
    auto: bool = False  #: 托管: played by the AI until the player acts again
    dms_open: bool = True
    timeouts: int = 0
    prompted: Optional[str] = None  #: the last decision a front end prompted this seat for

    def record(self, seat: int) -> SeatRecord:
        return SeatRecord(seat=seat, user_id=self.user_id, name=self.name, is_ai=self.is_ai,
                          dms_open=self.dms_open, auto=self.auto, prompted=self.prompted)


@dataclass
class Update:
    """What changed, for the front ends.

    :ivar kind: ``"lobby"``, ``"start"``, ``"action"``, ``"hand_over"``, ``"closed"``.
    :ivar events: engine events (JSON dicts) since the last update, in order.
    :ivar seats_to_notify: seats whose private hand changed or who must act now.
    :ivar actor: the seat whose request caused the update (it gets its answer directly).
    :ivar notices: per seat, message-catalogue keys (``notice.…``) to tell that seat only,
        e.g. ``notice.ting_ignored`` when a 听 the rules ignore was played as a discard.
    :ivar hand_id: the stored id of the hand the update is about.
    """

    kind: str
    events: list[dict] = field(default_factory=list)
    seats_to_notify: set[int] = field(default_factory=set)
    actor: Optional[int] = None
    notices: dict[int, list[str]] = field(default_factory=dict)
    hand_id: Optional[int] = None


@dataclass
class Table:
    """One table in one channel."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    variant: VariantInfo
    options: dict
    seed: int
    lang: str = "zh"
    status: str = LOBBY
    seats: list[Seat] = field(default_factory=list)
    message_id: Optional[int] = None
    match: Optional[Match] = None
    hand: Any = None
    hand_id: Optional[int] = None
    actions: list[str] = field(default_factory=list)  #: the stored action log of the hand
    unsaved: list[str] = field(default_factory=list, repr=False)  #: applied, not yet stored (lock held)
    deadline: Optional[float] = None
    next_hand_at: Optional[float] = None
    last_result: Optional[dict] = None
    settled_hand_id: Optional[int] = None  #: the hand whose settlement the store accepted last
    #: per seat the hand waits for: the action counter when its current decision began (it
    #: became pending, or acted itself); buttons carry it, so another seat's pass in the same
    #: claim window does not make them stale, while a click from an earlier decision is
    decisions: dict[int, int] = field(default_factory=dict)
    recent: list[dict] = field(default_factory=list)  #: recent public events (the table log)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    extra: dict = field(default_factory=dict)  # front-end bookkeeping kept in memory only

    def seat_of(self, user_id: int) -> Optional[int]:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    @property
    def n_players(self) -> int:
        return len(self.seats)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def scores(self) -> list[int]:
        if self.match is None:
            return [0] * len(self.seats)
        return list(self.match.state["scores"])

    def seed_hash(self) -> Optional[str]:
        """SHA-256 commitment to the current hand's seed (shown before the hand)."""
        return seed_commitment(self.hand.seed) if self.hand is not None else None

    def view(self, viewer: Optional[int] = None, lang: str = "zh") -> dict:
        """The engine view of the current hand (public if ``viewer`` is ``None``), with the
        table's names, scores and 托管 flags merged in; a lobby view when no hand runs.

        ``lang`` (``"zh"``, ``"zh-TW"`` or ``"en"``) is the language the images are drawn in
        (``view["lang"]``); ``result`` is the engine's, as it is."""
        if self.hand is None:
            v = {"variant": self.variant.id, "phase": "lobby" if self.status == LOBBY else "between",
                 "seats": [], "viewer": viewer, "me": None, "result": self.last_result}
            for i, s in enumerate(self.seats):
                v["seats"].append({"seat": i, "name": s.name, "is_ai": s.is_ai})
        else:
            v = self.hand.view(viewer)
        scores = self.scores()
        for sv in v["seats"]:
            s = self.seats[sv["seat"]]
            sv.update(name=s.name, is_ai=s.is_ai, auto=s.auto,
                      score=scores[sv["seat"]] if sv["seat"] < len(scores) else 0)
        v["table_id"] = self.id
        # 1-based: the hand being played, or the last one dealt once it is over
        v["hand_no"] = (self.match.hand_no + (0 if self.hand is None or self.hand.is_over() else 1)
                        if self.match else 0)
        v["min_players"], v["max_players"] = self.variant.min_players, self.variant.max_players
        v["status"] = self.status
        v["recent"] = list(self.recent[-8:])
        v["seed_hash"] = self.seed_hash()
        v["lang"] = "en" if lang.startswith("en") else ("zh-TW" if lang in ("zh-TW", "zh-HK") else "zh")
        return v


    def public_view(self, lang: str = "zh") -> dict:
        """What everybody at the table may see, as :meth:`view` for the public, without what
        would tell a hidden decision: ``pending`` and the action counter ``seq`` are dropped,
        during a claim window (``phase`` ``claim``/``rob``) nobody is named as on turn, and a
        shown card's ``waiting`` flag goes.  Adds ``to_act``: the seats the table publicly
        waits for (the seat on turn, or every seat during an opening decision), and ``log``:
        the recent public events (no passes, no claim timeouts)."""
        v = self.view(None, lang)
        v.pop("pending", None)
        v.pop("seq", None)
        phase = v.get("phase")
        if phase in WINDOW_PHASES:
            v["turn"] = None
        if isinstance(v.get("shown"), dict):
            v["shown"] = {k: x for k, x in v["shown"].items() if k != "waiting"}
        if self.hand is None or self.hand.is_over():
            v["to_act"] = []
        elif phase in OPENING_PHASES:
            v["to_act"] = list(range(len(self.seats)))
        elif phase not in WINDOW_PHASES and v.get("turn") is not None:
            v["to_act"] = [v["turn"]]
        else:
            v["to_act"] = []
        return v


Listener = Callable[[Table, Update], Awaitable[None]]


class TableService:
    """All open tables of this process.

    :param store: the persistence (``store.Store``), already initialised.
    :param clock: ``now() -> float`` seconds; :class:`service.clock.SystemClock` by default.
    :param seed_source: ``() -> int`` for new table seeds (63-bit); ``secrets`` by default.
    """

    def __init__(self, store: Store, clock=None, seed_source: Callable[[], int] | None = None,
                 owns: Callable[[int], bool] | None = None):
        self.store = store
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
        :param seq: the decision the request was drawn for (``Table.decisions``: the action
            counter when the seat's current decision began); another, or a seat the hand no
            longer waits for: ``stale``.
        :param waited: the seat must be one the hand waits for (``not_your_turn`` otherwise);
            ``False`` for requests that only look (the hand, the 听 menu).
        :raises ServiceError: ``not_seated``, ``no_hand``, ``stale``, ``not_your_turn``,
            ``on_auto`` (the seat is on 托管: take it over first).
        """
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

    async def _notify(self, table: Table, update: Update) -> None:
        for listener in list(self.listeners):
            try:
                await listener(table, update)
            except Exception:  # a front end failing must not undo the game
                log.exception("table listener failed")

    # ------------------------------------------------------------------ lobby
    async def create_table(self, *, guild_id: int, channel_id: int, user_id: int, name: str,
                           variant: str, options: dict | None = None, lang: str = "zh") -> Table:
        """Open a table in a channel with its creator seated.

        Raises ``ServiceError("table_exists")``, ``ServiceError("unknown_variant")`` or
        ``ServiceError("option_…")`` for a bad option.
        """
        existing = self.tables.get(channel_id)
        if existing is not None and existing.status != CLOSED:
            raise ServiceError("table_exists")
        try:
            info = find_variant(variant)
        except KeyError:
            raise ServiceError("unknown_variant", variant=variant,
                               known=", ".join(v.id for v in all_variants())) from None
        try:
            resolved = info.resolve_options(options)
        except OptionError as e:
            raise ServiceError(e.code, **e.params) from None
        seed = self.seed_source()
        try:
            table_id = await self.store.create_table(guild_id=guild_id, channel_id=channel_id, creator_id=user_id,
                                                     variant=info.id, options=resolved, seed=seed, lang=lang)
        except TableExists:
            raise ServiceError("table_exists") from None
        t = Table(table_id, guild_id, channel_id, user_id, info, resolved, seed, lang=lang)
        t.seats.append(Seat(user_id, name))
        await self.store.set_seats(table_id, [s.record(i) for i, s in enumerate(t.seats)])
        self.tables[channel_id] = t
        await self._notify(t, Update("lobby"))
        return t

    async def join(self, channel_id: int, user_id: int, name: str) -> Table:
        """Seat a player (``already_seated``, ``table_full``, ``game_running`` refused).  A
        player whose seat is on 托管 (they left, or timed out) takes it back
        (:meth:`take_over`)."""
        t = self.table_in(channel_id)
        seat = t.seat_of(user_id)
        if seat is not None and t.status == PLAYING and t.seats[seat].auto:
            await self.take_over(channel_id, user_id)
            return t
        async with t.lock:
            if t.seat_of(user_id) is not None:
                raise ServiceError("already_seated")
            if t.status != LOBBY:
                raise ServiceError("game_running")
            if len(t.seats) >= t.variant.max_players:
                raise ServiceError("table_full", max=t.variant.max_players)
            t.seats.append(Seat(user_id, name))
            await self._save_seats(t)
        await self._notify(t, Update("lobby"))
        return t

    async def add_ai(self, channel_id: int, user_id: int) -> Table:
        """Fill an empty seat with an AI player (only seated players may do it)."""
        t = self.table_in(channel_id)
        async with t.lock:
            if t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if t.status != LOBBY:
                raise ServiceError("game_running")
            if len(t.seats) >= t.variant.max_players:
                raise ServiceError("table_full", max=t.variant.max_players)
            n_ai = sum(s.is_ai for s in t.seats)
            t.seats.append(Seat(None, f"AI {n_ai + 1}", is_ai=True))
            await self._save_seats(t)
        await self._notify(t, Update("lobby"))
        return t

    async def leave(self, channel_id: int, user_id: int) -> Table:
        """Leave a table.  In the lobby the seat is freed (the table closes when no human is
        left); once the game runs the player's seat goes to 托管 (auto-play) and stays theirs
        (``/table join`` or :meth:`take_over` gives it back).  A finished hand is left alone:
        only a running hand is played on for the seat."""
        t = self.table_in(channel_id)
        closed = False
        upd = Update("lobby")
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_seated")
            if t.status == LOBBY:
                del t.seats[seat]
                if not any(not s.is_ai for s in t.seats):
                    await self._close(t)
                    closed = True
                else:
                    await self._save_seats(t)
            else:
                upd = Update("action", hand_id=t.hand_id)
                if not t.seats[seat].auto:
                    t.seats[seat].auto = True
                    t.seats[seat].timeouts = 0
                    await self._save_seats(t)
                    self._public_event(t, upd, {"type": "auto", "seat": seat, "left": True})
                if t.hand is not None and not t.hand.is_over():
                    upd = await self._guarded(t, self._run_automatic(t, upd))
        await self._notify(t, Update("closed") if closed else upd)
        return t

    async def take_over(self, channel_id: int, user_id: int) -> Table:
        """A player on 托管 (auto-play) plays their seat again: their next decision is theirs.

        :raises ServiceError: ``not_seated``; ``not_on_auto`` when the seat is not on 托管."""
        t = self.table_in(channel_id)
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_seated")
            s = t.seats[seat]
            if not s.auto or s.is_ai:
                raise ServiceError("not_on_auto")
            s.auto = False
            s.timeouts = 0
            await self._save_seats(t)
            upd = Update("action", seats_to_notify={seat}, hand_id=t.hand_id)
            self._public_event(t, upd, {"type": "back", "seat": seat})
        await self._notify(t, upd)
        return t

    def _announce_auto(self, t: Table, upd: Update, seat: int, start: int) -> None:
        """The public "on auto-play" event of a seat that timed out for the third time, placed
        right after that seat's own next discard (or last): a timeout in a claim window is
        hidden, so going on auto-play there must read exactly as on one's own turn."""
        event = {"type": "auto", "seat": seat}
        after = next((e for e in upd.events[start:] if e.get("type") == "discard" and e.get("seat") == seat), None)
        at = next((i for i, e in enumerate(upd.events) if e is after), None) if after is not None else None
        upd.events.insert(len(upd.events) if at is None else at + 1, event)
        at = next((i for i, e in enumerate(t.recent) if e is after), None) if after is not None else None
        t.recent.insert(len(t.recent) if at is None else at + 1, event)
        del t.recent[:-30]

    def _public_event(self, t: Table, upd: Update, event: dict) -> None:
        """A table event of the service itself (托管 on and off), shown to everybody."""
        upd.events.append(event)
        t.recent.append(event)
        del t.recent[:-30]

    async def end(self, channel_id: int, user_id: int, is_admin: bool = False) -> Table:
        """Close the table (creator or server admin only; ``not_creator`` otherwise).  An
        unfinished hand is aborted: it pays nobody."""
        t = self.table_in(channel_id)
        if user_id != t.creator_id and not is_admin:
            raise ServiceError("not_creator")
        async with t.lock:
            if t.hand_id is not None and t.hand is not None and not t.hand.is_over():
                await self.store.abort_hand(t.hand_id)
            await self._close(t)
        await self._notify(t, Update("closed"))
        return t

    async def _close(self, t: Table) -> None:
        t.status = CLOSED
        t.deadline = t.next_hand_at = None
        await self.store.update_table(t.id, status=CLOSED)
        self.tables.pop(t.channel_id, None)

    async def _save_seats(self, t: Table) -> None:
        await self.store.set_seats(t.id, [s.record(i) for i, s in enumerate(t.seats)])

    async def start(self, channel_id: int, user_id: int) -> Table:
        """Start the game (a seated player; ``too_few_players`` below the variant's minimum)."""
        t = self.table_in(channel_id)
        async with t.lock:
            if t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if t.status != LOBBY:
                raise ServiceError("game_running")
            if len(t.seats) < t.variant.min_players:
                raise ServiceError("too_few_players", min=t.variant.min_players)
            t.match = Match(t.variant, t.options, t.seed, len(t.seats))
            t.status = PLAYING
            await self.store.update_table(t.id, status=PLAYING, state=t.match.state)
            upd = await self._guarded(t, self._start_hand(t))
        await self._notify(t, upd)
        return t

    # ------------------------------------------------------------------ hands
    def _deal_extra(self, t: Table) -> dict:
        """Context added to the next hand at the deal (see :attr:`deal_context`)."""
        return dict(self.deal_context(t) or {}) if self.deal_context is not None else {}

    async def _start_hand(self, t: Table) -> Update:
        """Deal the next hand (the lock is held): nothing of it is in memory before the store
        accepted it, so a failed write leaves the table as it was (the timer deals again)."""
        saved_state = dict(t.match.state)
        try:
            extra = await streaks.deal_context(self.store, t)  # may draw the dealer again
            extra.update(self._deal_extra(t))
            hand = t.match.new_hand(extra)
            hand_id = await self.store.start_hand(
                table_id=t.id, hand_no=t.match.hand_no, seed=hand.seed, variant=t.variant.id,
                options=t.options, dealer=hand.dealer,
                seats=[{"user_id": s.user_id, "name": s.name, "is_ai": s.is_ai} for s in t.seats],
                context=dict(hand.context))
        except BaseException:
            t.match.state = saved_state
            raise
        t.hand, t.hand_id = hand, hand_id
        t.decisions = {}
        note_decisions(t.decisions, t.hand, None)
        t.actions = []
        t.unsaved = []
        t.last_result = None
        t.next_hand_at = None
        t.recent = public_log(t.hand)
        reopened = [s for s in t.seats if not s.is_ai and not s.dms_open]
        for s in reopened:  # a new hand: try their DMs again (a closed DM answers 50007 at once)
            s.dms_open = True
        upd = Update("start", events=list(t.recent), seats_to_notify=set(range(len(t.seats))), hand_id=t.hand_id)

        async def rest() -> Update:
            await self.store.update_table(t.id, hand_no=t.match.hand_no, state=t.match.state)
            if reopened:
                await self._save_seats(t)
            return await self._run_automatic(t, upd)

        return await self._guarded(t, rest())

    def _arm_timer(self, t: Table) -> None:
        hand = t.hand
        if hand is None or hand.is_over():
            t.deadline = None
            return
        key = f"{hand.timer_kind()}_timeout"
        t.deadline = self.clock.now() + t.options.get(key, 15)

    async def act(self, channel_id: int, user_id: int, action_type: str, kind: Optional[int] = None,
                  seq: Optional[int] = None, hand_id: Optional[int] = None) -> Update:
        """Apply a player's action (``discard``, ``ting``, ``chow`` …, see ``engine.actions``).

        :param seq: the hand's ``seq`` the player saw (buttons carry it); a different value is a
            stale click: ``ServiceError("stale")``.
        :param hand_id: the stored id of the hand the player saw (buttons carry it); another
            hand's: ``ServiceError("stale")``.
        :returns: the update that was also sent to the listeners; ``notices[seat]`` holds what
            the player must be told beside the new state (``notice.ting_ignored``).
        :raises ServiceError: as :meth:`may_act`, and ``tile_missing`` for a discard or 听
            without a tile.
        :raises IllegalAction: the engine's refusal (state unchanged).
        """
        t = self.table_in(channel_id)
        async with t.lock:
            seat = self.may_act(t, user_id, hand_id=hand_id, seq=seq)
            if action_type in ("discard",) and kind is None:
                raise ServiceError("tile_missing")
            action = Action(seat, action_type, kind)
            upd = Update("action", actor=seat, hand_id=t.hand_id)

            async def run() -> Update:
                await self._apply(t, action, upd)
                s = t.seats[seat]
                s.timeouts = 0
                return await self._run_automatic(t, upd)

            upd = await self._guarded(t, run())
        await self._notify(t, upd)
        return upd

    async def set_auto(self, channel_id: int, user_id: int, auto: bool) -> None:
        """Turn 托管 (auto-play) on or off for a player's seat."""
        if not auto:
            t = self.table_in(channel_id)
            seat = t.seat_of(user_id)
            if seat is not None and not t.seats[seat].auto:
                return
            await self.take_over(channel_id, user_id)
            return
        t = self.table_in(channel_id)
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_seated")
            upd = Update("action", hand_id=t.hand_id)
            if not t.seats[seat].auto:
                t.seats[seat].auto = True
                t.seats[seat].timeouts = 0
                await self._save_seats(t)
                self._public_event(t, upd, {"type": "auto", "seat": seat})
            if t.hand is not None and not t.hand.is_over():
                upd = await self._guarded(t, self._run_automatic(t, upd))
        await self._notify(t, upd)

    async def _apply(self, t: Table, action: Action, upd: Update) -> None:
        """Validate on the hand and queue it for :meth:`_flush` (the lock is held); every
        caller flushes (through :meth:`_run_automatic`) before it returns or notifies."""
        events = t.hand.apply(action)  # raises IllegalAction with the state unchanged
        note_decisions(t.decisions, t.hand, action.seat)
        t.unsaved.append(str(action))
        evs = [e.to_json() for e in events]
        t.recent.extend(e for e in evs if e.get("type") not in HIDDEN_EVENTS)
        del t.recent[:-30]
        upd.events.extend(evs)
        upd.seats_to_notify.add(action.seat)
        for e in evs:
            if "seat" in e:
                upd.seats_to_notify.add(e["seat"])
        upd.seats_to_notify.update(t.hand.pending_seats())
        if action.type == "ting" and not any(e.get("type") == "ting" and e.get("seat") == action.seat for e in evs):
            # two_player.md §Play: 听 with a discard that leaves no ready hand is ignored
            upd.notices.setdefault(action.seat, []).append("notice.ting_ignored")

    async def _flush(self, t: Table) -> None:
        """Store the actions applied since the last flush, in one transaction; on failure the
        hand is rebuilt from the stored log and the error raised (nothing unstored is kept)."""
        if not t.unsaved:
            return
        lines = list(t.unsaved)
        try:
            await self.store.append_actions(t.hand_id, len(t.actions), lines)
        except BaseException:
            self._rollback(t)
            raise
        t.actions.extend(lines)
        t.unsaved.clear()

    def _rollback(self, t: Table) -> None:
        """Forget the applied but unstored actions: rebuild the hand from the stored log."""
        if t.unsaved:
            t.unsaved.clear()
            t.hand, t.decisions = replay(t.match, t.actions, t.hand.context if t.hand is not None else None)
            t.recent = public_log(t.hand)

    async def _guarded(self, t: Table, work: Awaitable[Update]) -> Update:
        """Run a change of ``t`` (the lock is held): a refusal (``IllegalAction``,
        ``ServiceError``) keeps the state as stored; anything else is a fault — the table is
        rebuilt from the store before the error goes on (:class:`TableFault`)."""
        try:
            return await work
        except (IllegalAction, ServiceError):
            self._rollback(t)
            raise
        except asyncio.CancelledError:
            self._rollback(t)
            raise
        except Exception as exc:
            try:
                await self._reload(t)
            except Exception:  # the store is failing too: keep what memory has
                log.exception("could not rebuild table %s from the store", t.id)
                self._rollback(t)
            await self._notify(t, Update("action", hand_id=t.hand_id))  # front ends redraw what is stored
            raise TableFault(t, exc) from exc

    async def _reload(self, t: Table) -> None:
        """Rebuild ``t`` in place from the store: seats, match state, the running hand
        replayed from its stored log (after an unexpected error left memory in doubt)."""
        found = await self.store.load_open_tables(t.id)
        if not found:
            return
        fresh = await self._table_from_store(found[0], settle=False)
        if fresh is None:
            return
        # the same hand at the same point: its timers run on (a reload must not grant time)
        same = fresh.hand_id == t.hand_id and fresh.actions == t.actions
        for name in ("seats", "match", "hand", "hand_id", "actions", "status", "last_result",
                     "settled_hand_id", "decisions", "recent"):
            setattr(t, name, getattr(fresh, name))
        t.unsaved = []
        if not same:
            t.deadline, t.next_hand_at = fresh.deadline, fresh.next_hand_at

    async def _run_automatic(self, t: Table, upd: Update) -> Update:
        """Play AI and 托管 seats while one is pending, store every action applied so far (one
        transaction), then arm the timer or settle."""
        guard = 0
        try:
            while t.hand is not None and not t.hand.is_over():
                pending = t.hand.pending_seats()
                auto = [s for s in pending if t.seats[s].is_ai or t.seats[s].auto]
                if not auto:
                    break
                s = auto[0]
                if t.seats[s].is_ai:
                    action = t.hand.ai_action(s)
                else:
                    action = t.hand.timeout_action(s)  # 托管: discard the drawn tile, win when possible
                await self._apply(t, action, upd)
                guard += 1
                if guard > 1000:  # a hand never needs this many automatic moves
                    raise RuntimeError("automatic play did not converge")
        except BaseException:
            self._rollback(t)
            raise
        await self._flush(t)
        if t.hand is not None and t.hand.is_over():
            if t.settled_hand_id != t.hand_id:
                try:
                    await self._settle(t, upd)
                except Exception:
                    # the moves are stored: they stand; the settlement is tried again by the
                    # timer (``tick``) and at the next hand, and a restart settles it too
                    log.exception("table %s: hand %s could not be settled now; will retry", t.id, t.hand_id)
                    t.deadline = t.next_hand_at = None
        else:
            self._arm_timer(t)
        return upd

    async def _settle(self, t: Table, upd: Update) -> None:
        """Settle the finished hand once: the settlement and the next match state are stored
        in one transaction, and only then adopted in memory."""
        if t.settled_hand_id == t.hand_id:
            return
        result = dict(t.hand.result)
        points = result["points"]
        winners = result.get("winners")
        if winners is None:
            winners = [] if result.get("winner") is None else [result["winner"]]
        discarder = result.get("discarder")
        fans = result.get("fan_by_seat") or {}
        settlements = [
            SettlementRecord(seat=i, user_id=s.user_id, name=s.name, points=points[i], is_ai=s.is_ai,
                             is_winner=i in winners, self_drawn=bool(i in winners and result.get("self_drawn")),
                             dealt_in=discarder == i and bool(winners),
                             fan=(fans.get(str(i), fans.get(i)) if fans else result.get("fan_total"))
                             if i in winners else None)
            for i, s in enumerate(t.seats)
        ]
        state = t.match.finished_state(result)
        result["seed"] = t.hand.seed
        try:
            await self.store.finish_hand(t.hand_id, result=result, settlements=settlements,
                                         table_updates={"state": state, "hand_no": state["hand_no"]},
                                         streaks=streaks.settled_counts(t, result))
        except HandNotPlaying:
            # settled already (by an earlier run of the bot): the store is right, memory behind
            log.warning("hand %s of table %s was settled already; reloading the table", t.hand_id, t.id)
            await self._reload(t)
            t.settled_hand_id = t.hand_id
            return
        t.match.state = state
        t.settled_hand_id = t.hand_id
        t.last_result = result
        t.deadline = None
        t.next_hand_at = self.clock.now() + t.options.get("result_timeout", 30)
        upd.kind = "hand_over"
        upd.seats_to_notify.update(range(len(t.seats)))

    async def next_hand(self, channel_id: int, user_id: int | None = None, after_hand: int | None = None) -> Update:
        """Deal the next hand now (a seated player, or the result timer).

        :param after_hand: the stored id of the finished hand the request was made after (the
            **Next hand** button carries it): when another hand was dealt since,
            ``ServiceError("next_already_dealt")``.
        :raises ServiceError: ``not_seated``, ``hand_running``, ``next_already_dealt``."""
        t = self.table_in(channel_id)
        async with t.lock:
            if user_id is not None and t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if after_hand is not None and t.hand_id is not None and after_hand != t.hand_id:
                raise ServiceError("next_already_dealt")
            if t.status != PLAYING or (t.hand is not None and not t.hand.is_over()):
                raise ServiceError("next_already_dealt" if after_hand is not None else "hand_running")
            if t.hand is not None and t.settled_hand_id != t.hand_id:
                await self._guarded(t, self._settle_only(t))  # a settlement the store refused before
            if not any(not s.is_ai and not s.auto for s in t.seats) and user_id is None:
                # everybody left: the table closes instead of playing AI against AI
                await self._close(t)
                upd = Update("closed")
            else:
                upd = await self._guarded(t, self._start_hand(t))
        await self._notify(t, upd)
        return upd

    async def _settle_only(self, t: Table) -> Update:
        upd = Update("hand_over", hand_id=t.hand_id)
        await self._settle(t, upd)
        return upd

    # ------------------------------------------------------------------ timers
    async def tick(self) -> int:
        """Apply every overdue timeout; returns how many actions it took.

        Discard/claim timeouts play :meth:`MahjongHand.timeout_action`; the third in a row
        puts the seat in 托管.  After a hand, the next one is dealt when the result timeout
        runs out.
        """
        now = self.clock.now()
        done = 0
        for t in list(self.tables.values()):
            if t.status != PLAYING:
                continue
            if t.hand is not None and t.hand.is_over() and t.settled_hand_id != t.hand_id and t.hand_id is not None:
                # a settlement the store refused (it was failing): try again
                try:
                    async with t.lock:
                        upd = await self._guarded(t, self._settle_only(t))
                except Exception:
                    log.exception("table %s: hand %s is still not settled", t.id, t.hand_id)
                    continue
                await self._notify(t, upd)
                continue
            if t.next_hand_at is not None and now >= t.next_hand_at and (t.hand is None or t.hand.is_over()):
                try:
                    await self.next_hand(t.channel_id)
                except ServiceError:
                    pass
                except Exception:  # the store failing: the table was rebuilt; deal again later
                    log.exception("table %s: the next hand could not be dealt now; will retry", t.id)
                    if t.next_hand_at is not None and t.next_hand_at <= now:
                        t.next_hand_at = now + 5
                continue
            if t.deadline is None or now < t.deadline:
                continue
            async with t.lock:
                if t.deadline is None or self.clock.now() < t.deadline or t.hand is None or t.hand.is_over():
                    continue
                upd = Update("action", hand_id=t.hand_id)

                async def run() -> Update:
                    nonlocal done
                    start = len(upd.events)
                    gone_auto = []
                    for s in list(t.hand.pending_seats()):
                        if t.hand.is_over() or s not in t.hand.pending_seats():
                            continue
                        seat = t.seats[s]
                        seat.timeouts += 1
                        await self._apply(t, t.hand.timeout_action(s), upd)
                        upd.events.append({"type": "timeout", "seat": s})
                        done += 1
                        if seat.timeouts >= AUTO_AFTER_TIMEOUTS and not seat.auto:
                            seat.auto = True
                            gone_auto.append(s)
                            await self._save_seats(t)
                    await self._run_automatic(t, upd)
                    for s in gone_auto:
                        self._announce_auto(t, upd, s, start)
                    return upd

                upd = await self._guarded(t, run())
            await self._notify(t, upd)
        return done

    def next_deadline(self) -> Optional[float]:
        """The earliest timer among all tables (for a scheduler that sleeps until then)."""
        times = [x for t in self.tables.values() for x in (t.deadline, t.next_hand_at) if x is not None]
        return min(times) if times else None

    # ------------------------------------------------------------------ restart
    async def _table_from_store(self, ot, settle: bool = True) -> Optional[Table]:
        """A :class:`Table` rebuilt from a stored open table (``Store.load_open_tables``):
        seats, match state, and the unfinished hand replayed from its stored log with the
        context it was dealt with.  ``None`` for an unknown variant."""
        rec = ot.table
        try:
            info = find_variant(rec.variant)
        except KeyError:
            log.error("table %s has unknown variant %s", rec.id, rec.variant)
            return None
        t = Table(rec.id, rec.guild_id, rec.channel_id, rec.creator_id, info, dict(rec.options), rec.seed,
                  lang=rec.lang, status=rec.status, message_id=rec.message_id)
        t.seats = [Seat(s.user_id, s.name, is_ai=s.is_ai, auto=s.auto, dms_open=s.dms_open, prompted=s.prompted)
                   for s in ot.seats]
        if rec.status == PLAYING:
            t.match = Match(info, t.options, t.seed, len(t.seats), state=dict(rec.state))
            if ot.hand is not None:
                t.hand_id = ot.hand.id
                context = dict(ot.hand.context) if ot.hand.context else None
                t.hand, t.decisions = replay(t.match, list(ot.hand.actions), context)
                t.actions = list(ot.hand.actions)
                t.recent = public_log(t.hand)
                if t.hand.is_over():
                    if settle:
                        # stopped after the hand's last action was stored, before its settlement
                        await self._settle(t, Update("hand_over"))
                else:
                    self._arm_timer(t)
            elif ot.last_hand is not None and ot.last_hand.result is not None:
                # between hands: the result screen of the last hand, its timeout in full
                last = ot.last_hand
                t.hand, t.decisions = replay(t.match, list(last.actions), dict(last.context) or None, last.seed)
                t.hand_id, t.actions = last.id, list(last.actions)
                t.recent = public_log(t.hand)
                t.last_result = dict(last.result)
                t.settled_hand_id = last.id
                t.next_hand_at = self.clock.now() + t.options.get("result_timeout", 30)
            else:
                t.next_hand_at = self.clock.now()
        return t

    async def load(self) -> list[Table]:
        """Resume every open table from the database (after a restart): seats, match state, and
        the unfinished hand rebuilt by replaying its stored actions; timers restart in full.
        With ``owns`` set, only the tables of this process's guilds (shards)."""
        loaded = []
        for ot in await self.store.load_open_tables():
            if self.owns is not None and not self.owns(ot.table.guild_id):
                continue  # another process (shard) runs this table
            t = await self._table_from_store(ot)
            if t is None:
                continue
            self.tables[t.channel_id] = t
            loaded.append(t)
        return loaded

    async def reload(self, channel_id: int) -> None:
        """Rebuild a channel's table from the store (after an unexpected error)."""
        t = self.tables.get(channel_id)
        if t is None:
            return
        async with t.lock:
            await self._reload(t)

    async def set_dms_open(self, t: Table, seat: int, dms_open: bool) -> None:
        """Remember (and persist) whether the bot can DM a seat's player (a 50007 closes it)."""
        async with t.lock:
            if seat < len(t.seats) and t.seats[seat].dms_open != dms_open:
                t.seats[seat].dms_open = dms_open
                await self._save_seats(t)

    async def set_prompted(self, t: Table, seat: int, prompted: str) -> None:
        """Remember (and persist) the decision a front end just prompted a seat for, so that a
        restarted bot prompts only what was not (``Seat.prompted``)."""
        if seat < len(t.seats) and t.seats[seat].prompted != prompted:
            t.seats[seat].prompted = prompted
            await self.store.set_seat_prompted(t.id, seat, prompted)

    async def announce(self, t: Table) -> None:
        """Tell the front ends about a table as it is now (after a restart): they redraw it
        and send what the stopped process had not (``Update("resume")``)."""
        await self._notify(t, Update("resume", seats_to_notify=set(range(len(t.seats))), hand_id=t.hand_id))

    async def set_message(self, t: Table, message_id: int) -> None:
        """Remember (and persist) the public table message that a front end edits in place."""
        t.message_id = message_id
        await self.store.update_table(t.id, message_id=message_id)


def public_log(hand: Any, keep: int = 30) -> list[dict]:
    """The last ``keep`` public events of a hand (no passes), as the table log shows them."""
    return [e for e in (x.to_json() for x in hand.events) if e.get("type") not in HIDDEN_EVENTS][-keep:]


def note_decisions(decisions: dict[int, int], hand: Any, actor: Optional[int]) -> None:
    """Keep ``decisions`` (see ``Table.decisions``) after an action of ``actor`` (``None``:
    the deal): a seat the hand waits for keeps the counter its decision began at, unless it is
    new or it acted itself; seats no longer waited for are dropped."""
    pending = [] if hand.is_over() else hand.pending_seats()
    kept = {p: (hand.seq if p == actor or p not in decisions else decisions[p]) for p in pending}
    decisions.clear()
    decisions.update(kept)


def replay(match: Match, actions: list[str], context: Optional[dict],
           seed: Optional[int] = None) -> tuple[Any, dict[int, int]]:
    """The hand rebuilt from its stored log (dealt with ``context``, and ``seed`` for a hand
    of an earlier number than the match's), and its decisions."""
    hand = match.new_hand(context=context, seed=seed)
    decisions: dict[int, int] = {}
    note_decisions(decisions, hand, None)
    for line in actions:
        a = Action.parse(line)
        hand.apply(a)
        note_decisions(decisions, hand, a.seat)
    return hand, decisions


def tile_names(kinds) -> list[str]:
    return [kind_str(k) for k in kinds]


__all__ = ["TableService", "Table", "Seat", "Update", "ServiceError", "TableFault", "IllegalAction"]
