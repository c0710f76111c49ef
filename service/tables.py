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
  redraw the table and the hands.

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
from engine.variants import VariantInfo, find_variant

from . import streaks
from .clock import SystemClock
from .store import SeatRecord, SettlementRecord, Store, TableExists

log = logging.getLogger(__name__)

LOBBY, PLAYING, CLOSED = "lobby", "playing", "closed"
AUTO_AFTER_TIMEOUTS = 3  #: two_player.md §Timeouts: the third timeout puts the seat in 托管


class ServiceError(Exception):
    """A request the table service refuses; ``code`` is a message-catalogue key."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code + (f" {params}" if params else ""))
        self.code = code
        self.params = params


@dataclass
class Seat:
    """A seat at a table: a human (``user_id``) or an AI seat (``user_id is None``)."""

    user_id: Optional[int]
    name: str
    is_ai: bool = False
    auto: bool = False  #: 托管: played by the AI until the player acts again
    dms_open: bool = True
    timeouts: int = 0

    def record(self, seat: int) -> SeatRecord:
        return SeatRecord(seat=seat, user_id=self.user_id, name=self.name, is_ai=self.is_ai,
                          dms_open=self.dms_open, auto=self.auto)


@dataclass
class Update:
    """What changed, for the front ends.

    :ivar kind: ``"lobby"``, ``"start"``, ``"action"``, ``"hand_over"``, ``"closed"``.
    :ivar events: engine events (JSON dicts) since the last update, in order.
    :ivar seats_to_notify: seats whose private hand changed or who must act now.
    """

    kind: str
    events: list[dict] = field(default_factory=list)
    seats_to_notify: set[int] = field(default_factory=set)
    actor: Optional[int] = None


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
    recent: list[dict] = field(default_factory=list)  # recent events for the table log
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

        ``lang`` (``"zh"``, ``"zh-TW"`` or ``"en"``) picks the labels of the images and the fan
        names of the result:
        ``result["fans"]`` becomes ``[[name, fan × count], …]``."""
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
        if v.get("result") and v["result"].get("winner") is not None:
            i = 1 if v["lang"] == "en" else 0
            res = v["result"]
            v["result"] = dict(res, fans=[[f[i], f[2] * f[3]] for f in res.get("fans") or []],
                               multipliers={row[i]: row[2] for row in res.get("multiplier_rows", []) if row[2] != 1},
                               summary=[[row[i], row[2]] for row in res.get("summary_rows", [])])
        return v


Listener = Callable[[Table, Update], Awaitable[None]]


class TableService:
    """All open tables of this process.

    :param store: the persistence (``service.store.Store``), already initialised.
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

    # ------------------------------------------------------------------ lookup
    def table_in(self, channel_id: int) -> Table:
        """The open table of a channel; :class:`ServiceError` ``no_table`` if none."""
        t = self.tables.get(channel_id)
        if t is None or t.status == CLOSED:
            raise ServiceError("no_table")
        return t

    def tables_of_user(self, user_id: int) -> list[Table]:
        return [t for t in self.tables.values() if t.status != CLOSED and t.seat_of(user_id) is not None]

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
            raise ServiceError("unknown_variant", variant=variant) from None
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
        """Seat a player (``already_seated``, ``table_full``, ``game_running`` refused)."""
        t = self.table_in(channel_id)
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
        left); during a hand the player's seat goes to 托管 (auto-play) and stays theirs."""
        t = self.table_in(channel_id)
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
                    closed = False
            else:
                t.seats[seat].auto = True
                await self._save_seats(t)
                closed = False
                upd = await self._run_automatic(t, Update("action"))
        if closed:
            await self._notify(t, Update("closed"))
        elif t.status == LOBBY:
            await self._notify(t, Update("lobby"))
        else:
            await self._notify(t, upd)
        return t

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
            upd = await self._start_hand(t)
        await self._notify(t, upd)
        return t

    # ------------------------------------------------------------------ hands
    async def _start_hand(self, t: Table) -> Update:
        t.hand = t.match.new_hand(await streaks.deal_context(self.store, t))
        t.actions = []
        t.unsaved = []
        t.last_result = None
        t.next_hand_at = None
        t.recent = [e.to_json() for e in t.hand.events]
        t.hand_id = await self.store.start_hand(
            table_id=t.id, hand_no=t.match.hand_no, seed=t.hand.seed, variant=t.variant.id,
            options=t.options, dealer=t.hand.dealer,
            seats=[{"user_id": s.user_id, "name": s.name, "is_ai": s.is_ai} for s in t.seats],
            context=dict(t.hand.context))
        await self.store.update_table(t.id, hand_no=t.match.hand_no, state=t.match.state)
        upd = Update("start", events=list(t.recent), seats_to_notify=set(range(len(t.seats))))
        return await self._run_automatic(t, upd)

    def _arm_timer(self, t: Table) -> None:
        hand = t.hand
        if hand is None or hand.is_over():
            t.deadline = None
            return
        key = f"{hand.timer_kind()}_timeout"
        t.deadline = self.clock.now() + t.options.get(key, 15)

    async def act(self, channel_id: int, user_id: int, action_type: str, kind: Optional[int] = None,
                  seq: Optional[int] = None) -> Update:
        """Apply a player's action (``discard``, ``ting``, ``chow`` …, see ``engine.actions``).

        :param seq: the hand's ``seq`` the player saw (buttons carry it); a different value is a
            stale click: ``ServiceError("stale")``.
        :returns: the update that was also sent to the listeners.
        :raises ServiceError: ``no_table``, ``not_seated``, ``no_hand``, ``stale``.
        :raises IllegalAction: the engine's refusal (state unchanged).
        """
        t = self.table_in(channel_id)
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_seated")
            if t.hand is None or t.hand.is_over():
                raise ServiceError("no_hand")
            if seq is not None and seq != t.hand.seq:
                raise ServiceError("stale")
            action = Action(seat, action_type, kind)
            upd = Update("action", actor=seat)
            await self._apply(t, action, upd)
            try:
                s = t.seats[seat]
                s.timeouts = 0
                if s.auto and not s.is_ai:
                    s.auto = False  # acting again ends 托管
                    await self._save_seats(t)
                upd = await self._run_automatic(t, upd)
            except BaseException:
                self._rollback(t)
                raise
        await self._notify(t, upd)
        return upd

    async def set_auto(self, channel_id: int, user_id: int, auto: bool) -> None:
        """Turn 托管 (auto-play) on or off for a player's seat."""
        t = self.table_in(channel_id)
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_seated")
            t.seats[seat].auto = auto
            t.seats[seat].timeouts = 0
            await self._save_seats(t)
            upd = await self._run_automatic(t, Update("action"))
        await self._notify(t, upd)

    async def _apply(self, t: Table, action: Action, upd: Update) -> None:
        """Validate on the hand and queue it for :meth:`_flush` (the lock is held); every
        caller flushes (through :meth:`_run_automatic`) before it returns or notifies."""
        events = t.hand.apply(action)  # raises IllegalAction with the state unchanged
        t.unsaved.append(str(action))
        evs = [e.to_json() for e in events]
        t.recent.extend(evs)
        del t.recent[:-30]
        upd.events.extend(evs)
        upd.seats_to_notify.add(action.seat)
        for e in evs:
            if "seat" in e:
                upd.seats_to_notify.add(e["seat"])
        upd.seats_to_notify.update(t.hand.pending_seats())

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
            t.hand = t.match.replay(t.actions, context=t.hand.context)

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
            await self._settle(t, upd)
        else:
            self._arm_timer(t)
        return upd

    async def _settle(self, t: Table, upd: Update) -> None:
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
        t.match.finish(result)
        result["seed"] = t.hand.seed
        await self.store.finish_hand(t.hand_id, result=result, settlements=settlements,
                                     table_updates={"state": t.match.state, "hand_no": t.match.hand_no},
                                     streaks=streaks.settled_counts(t, result))
        t.last_result = result
        t.deadline = None
        t.next_hand_at = self.clock.now() + t.options.get("result_timeout", 30)
        upd.kind = "hand_over"
        upd.seats_to_notify.update(range(len(t.seats)))

    async def next_hand(self, channel_id: int, user_id: int | None = None) -> Update:
        """Deal the next hand now (a seated player, or the result timer)."""
        t = self.table_in(channel_id)
        async with t.lock:
            if user_id is not None and t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if t.status != PLAYING or (t.hand is not None and not t.hand.is_over()):
                raise ServiceError("hand_running")
            if not any(not s.is_ai and not s.auto for s in t.seats) and user_id is None:
                # everybody left: the table closes instead of playing AI against AI
                await self._close(t)
                upd = Update("closed")
            else:
                upd = await self._start_hand(t)
        await self._notify(t, upd)
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
            if t.next_hand_at is not None and now >= t.next_hand_at and (t.hand is None or t.hand.is_over()):
                try:
                    await self.next_hand(t.channel_id)
                except ServiceError:
                    pass
                continue
            if t.deadline is None or now < t.deadline:
                continue
            async with t.lock:
                if t.deadline is None or self.clock.now() < t.deadline or t.hand is None or t.hand.is_over():
                    continue
                upd = Update("action")
                try:
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
                            upd.events.append({"type": "auto", "seat": s})
                            await self._save_seats(t)
                    upd = await self._run_automatic(t, upd)
                except BaseException:
                    self._rollback(t)
                    raise
            await self._notify(t, upd)
        return done

    def next_deadline(self) -> Optional[float]:
        """The earliest timer among all tables (for a scheduler that sleeps until then)."""
        times = [x for t in self.tables.values() for x in (t.deadline, t.next_hand_at) if x is not None]
        return min(times) if times else None

    # ------------------------------------------------------------------ restart
    async def load(self) -> list[Table]:
        """Resume every open table from the database (after a restart): seats, match state, and
        the unfinished hand rebuilt by replaying its stored actions; timers restart in full.
        With ``owns`` set, only the tables of this process's guilds (shards)."""
        loaded = []
        for ot in await self.store.load_open_tables():
            rec = ot.table
            if self.owns is not None and not self.owns(rec.guild_id):
                continue  # another process (shard) runs this table
            try:
                info = find_variant(rec.variant)
            except KeyError:
                log.error("table %s has unknown variant %s", rec.id, rec.variant)
                continue
            t = Table(rec.id, rec.guild_id, rec.channel_id, rec.creator_id, info, dict(rec.options), rec.seed,
                      lang=rec.lang, status=rec.status, message_id=rec.message_id)
            t.seats = [Seat(s.user_id, s.name, is_ai=s.is_ai, auto=s.auto, dms_open=s.dms_open) for s in ot.seats]
            if rec.status == PLAYING:
                t.match = Match(info, t.options, t.seed, len(t.seats), state=dict(rec.state))
                if ot.hand is not None:
                    t.hand_id = ot.hand.id
                    # dealt again exactly as stored (its 连庄 count, its dealer), not from today's state
                    t.hand = t.match.replay(list(ot.hand.actions), context=ot.hand.context or None)
                    t.actions = list(ot.hand.actions)
                    t.recent = []
                    if t.hand.is_over():
                        # stopped after the hand's last action was stored, before its settlement
                        await self._settle(t, Update("hand_over"))
                    else:
                        self._arm_timer(t)
                else:
                    t.next_hand_at = self.clock.now()
            self.tables[t.channel_id] = t
            loaded.append(t)
        return loaded

    async def set_dms_open(self, t: Table, seat: int, dms_open: bool) -> None:
        """Remember (and persist) whether the bot can DM a seat's player (a 50007 closes it)."""
        if t.seats[seat].dms_open != dms_open:
            t.seats[seat].dms_open = dms_open
            await self._save_seats(t)

    async def set_message(self, t: Table, message_id: int) -> None:
        """Remember (and persist) the public table message that a front end edits in place."""
        t.message_id = message_id
        await self.store.update_table(t.id, message_id=message_id)


def tile_names(kinds) -> list[str]:
    return [kind_str(k) for k in kinds]


__all__ = ["TableService", "Table", "Seat", "Update", "ServiceError", "IllegalAction"]
