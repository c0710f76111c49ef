"""Dealing, acting, storing and settling hands: the play part of the table service (one hand settled once, nothing unstored kept)"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, Optional

from engine.actions import Action
from engine.errors import IllegalAction
from store import HandNotPlaying, SettlementRecord, Store

from . import rates, ratings, streaks
from .claims import claiming_seats
from .clock import Clock
from .interpret import Vocabulary, interpret
from .open_tables import OpenTables
from .publisher import Publisher
from .rebuild import table_from_store
from .seats import PLAYER_TOTALS, Seats, settled_totals
from .snapshot import Change, Move, TableSnapshot
from .table import (CLOSED, HIDDEN_EVENTS, PLAYING, ServiceError, Table,
                    TableFault, Update, Decisions, public_log, replay)

log = logging.getLogger("service.tables")



def settlement_records(result: dict, seats: list[tuple[Optional[int], str, bool]]) -> list[SettlementRecord]:
    """One ``SettlementRecord`` per seat of a finished hand's ``result``: ``seats`` ``(user_id,
    name, is_ai)`` in seat order; winners, self-draw, the discarder dealt in, the winners' fan."""
    points = result["points"]
    winners = result.get("winners")
    if winners is None:
        winners = [] if result.get("winner") is None else [result["winner"]]
    discarder = result.get("discarder")
    fans = result.get("fan_by_seat") or {}
    return [SettlementRecord(seat=i, user_id=user, name=name, points=points[i], is_ai=is_ai,
                             is_winner=i in winners, self_drawn=bool(i in winners and result.get("self_drawn")),
                             dealt_in=discarder == i and bool(winners),
                             fan=(fans.get(str(i), fans.get(i)) if fans else result.get("fan_total"))
                             if i in winners else None)
            for i, (user, name, is_ai) in enumerate(seats)]

class Hands:
    """Dealing, acting, storing and settling the hands of the open tables.

    :param store: where every applied action is stored before it is acknowledged, and every
        hand dealt and settled.
    :param clock: ``now() -> float`` seconds: the decisions' deadlines, the result timeout.
    :param tables: the open tables.
    :param publisher: publishes the snapshot after each change.
    :param seats: seats the waiting players at each deal.
    :param vocabulary: the words of typed moves (``service.interpret.Vocabulary``), for
        :meth:`interpret`; ``None``: typed moves are refused.
    """

    #: an automatic move is worked out off the event loop when the seat's game declares a
    #: level other than ``normal``'s move (a per-game strong AI may think for some ms)
    OFF_LOOP_MOVES = True

    def __init__(self, store: Store, clock: Clock, tables: OpenTables, publisher: Publisher, seats: Seats,
                 vocabulary: Optional[Vocabulary] = None):
        self.store = store
        self.clock = clock
        self.tables = tables
        self.publisher = publisher
        self.seats = seats
        self.vocabulary = vocabulary
        #: ``deal_context(table) -> dict``: context added to each hand at the deal (tests
        #: stack walls through it); stored with the hand, so replays and restarts agree
        self.deal_context: Optional[Callable[[Table], Optional[dict]]] = None
        #: 连庄 counts this process read or stored (``service.streaks``)
        self._streaks: streaks.Counts = {}

    # ------------------------------------------------------------------ hands
    def _deal_extra(self, t: Table) -> dict:
        """Context added to the next hand at the deal (see :attr:`deal_context`)."""
        return dict(self.deal_context(t) or {}) if self.deal_context is not None else {}

    async def start_hand(self, t: Table, first: bool = False) -> Update:
        """Deal the next hand (the lock is held): nothing of it is in memory before the store
        accepted it, so a failed write leaves the table as it was (the timer deals again).
        The hand, the match state it leaves (and at the ``first`` deal the table's playing
        status) are one transaction.  Players waiting for a seat sit down first
        (``service/seats.py``; stored at once)."""
        seated = await self.seats.seat_queue(t)
        saved_state = dict(t.current_match.state)
        try:
            extra = await streaks.deal_context(self.store, t, self._streaks)  # may draw the dealer again
            extra.update(self._deal_extra(t))
            hand = t.current_match.new_hand(extra)
            table_updates = {"hand_no": t.current_match.hand_no, "state": t.current_match.state}
            if first:
                table_updates["status"] = PLAYING
            hand_id = await self.store.start_hand(
                table_id=t.id, hand_no=t.current_match.hand_no, seed=hand.seed, variant=t.variant.id,
                options=t.options, dealer=hand.dealer,
                seats=[{"user_id": s.user_id, "name": s.name, "is_ai": s.is_ai} for s in t.seats],
                context=dict(hand.context), table_updates=table_updates)
        except BaseException:
            t.current_match.state = saved_state
            raise
        t.hand, t.hand_id = hand, hand_id
        t.dealt_users = [s.user_id for s in t.seats]
        t.decisions = Decisions()
        t.decisions.note(t.hand, None)
        t.actions = []
        t.unsaved = []
        t.last_result = None
        t.next_hand_at = None
        t.recent = seated + public_log(t.hand)
        reopened = [s for s in t.seats if not s.is_ai and not s.dms_open]
        for s in reopened:  # a new hand: try their DMs again (a closed DM answers 50007 at once)
            s.dms_open = True
        upd = Update("start", events=list(t.recent), seats_to_notify=set(range(len(t.seats))), hand_id=t.hand_id)

        async def rest() -> Update:
            if reopened:
                await self.tables.save_seats(t)
            return await self.run_automatic(t, upd)

        return await self.guarded(t, rest())

    async def act(self, channel_id: int, user_id: int, action_type: str, kind: Optional[int] = None,
                  seq: Optional[int] = None, hand_id: Optional[int] = None) -> Change:
        """Apply a player's action (``discard``, ``ting``, ``chow`` …, see ``engine.actions``).

        :param seq: the decision the player saw (buttons carry it, ``Table.decisions``); another
            is a stale click: ``ServiceError("stale")``.
        :param hand_id: the stored id of the hand the player saw (buttons carry it); another
            hand's: ``ServiceError("stale")``.
        :returns: the change that was also sent to the listeners, with the snapshot after it;
            ``notices[seat]`` holds what the player must be told beside the new state
            (``notice.ting_ignored``).
        :raises ServiceError: as :meth:`may_act`, and ``tile_missing`` for a discard without a
            tile.
        :raises IllegalAction: the engine's refusal (state unchanged).
        """
        t = self.tables.table_in(channel_id)
        async with t.lock:
            seat = self.tables.may_act(t, user_id, hand_id=hand_id, seq=seq)
            if action_type == "discard" and kind is None:
                raise ServiceError("tile_missing")
            change = await self._act_locked(t, seat, Action(seat, action_type, kind))
        await self.publisher.notify(change)
        return change

    async def press(self, channel_id: int, user_id: int, key: str, *, hand_id: Optional[int] = None,
                    seq: Optional[int] = None) -> Change:
        """Apply the move a button or menu names (``key`` of a :class:`~service.snapshot.Move`,
        ``"discard:5m"``), drawn for hand ``hand_id`` and decision ``seq``.

        :raises ServiceError: as :meth:`may_act`; ``unknown_tile`` for a key whose tile is none.
        :raises IllegalAction: the engine's refusal (state unchanged)."""
        t = self.tables.table_in(channel_id)
        async with t.lock:
            seat = self.tables.may_act(t, user_id, hand_id=hand_id, seq=seq)
            try:
                move = Move.from_key(key)
            except ValueError:
                raise ServiceError("unknown_tile", tile=key.partition(":")[2]) from None
            change = await self._act_locked(t, seat, move.action(seat))
        await self.publisher.notify(change)
        return change

    def interpret(self, channel_id: Optional[int], user_id: int, text: Optional[str], *,
                  verb: Optional[str] = None) -> tuple[TableSnapshot, int, Move]:
        """``(snapshot, seat, move)``: the move a player typed at a channel's table (or, with
        ``channel_id`` ``None``, at their table of ``OpenTables.table_for_user``), read by
        :func:`service.interpret.interpret` against their part of the latest snapshot, after
        ``OpenTables.may_act`` let them act.

        :raises ServiceError: as ``may_act`` and :func:`service.interpret.interpret`."""
        t = self.tables.table_for_user(user_id) if channel_id is None else self.tables.table_in(channel_id)
        seat = self.tables.may_act(t, user_id)
        snap = self.publisher.snapshot_of(t)
        if self.vocabulary is None:
            raise ServiceError("unknown_action", value=text or "", choices="")
        part = snap.parts[seat]
        assert part is not None  # a seat that may act is a player's
        return snap, seat, interpret(part, snap.game, text, self.vocabulary, verb=verb)

    async def act_typed(self, channel_id: Optional[int], user_id: int, text: Optional[str], *,
                        verb: Optional[str] = None) -> Change:
        """Apply the move a player typed (:meth:`interpret`), for the decision they read it
        against (a move typed while the table moved on is ``stale``)."""
        snap, seat, move = self.interpret(channel_id, user_id, text, verb=verb)
        part = snap.parts[seat]
        decision = part.decision if part is not None else None
        return await self.act(snap.channel_id, user_id, move.type, move.kind, hand_id=snap.hand_id,
                              seq=decision[1] if decision else None)

    async def _act_locked(self, t: Table, seat: int, action: Action) -> Change:
        """Apply ``action`` of the player in ``seat`` and what the AI seats play after it, store
        them, publish the snapshot (the lock is held)."""
        upd = Update("action", actor=seat, hand_id=t.hand_id)

        async def run() -> Update:
            await self.apply(t, action, upd)
            t.seats[seat].timeouts = 0
            return await self.run_automatic(t, upd)

        upd = await self.guarded(t, run())
        return self.publisher.publish(t, upd)

    async def apply(self, t: Table, action: Action, upd: Update) -> None:
        """Validate on the hand and queue it for :meth:`flush` (the lock is held); every
        caller flushes (through :meth:`run_automatic`) before it returns or notifies."""
        hand = t.current_hand
        first = len(hand.events)
        events = hand.apply(action)  # raises IllegalAction with the state unchanged
        t.decisions.note(hand, action.seat)
        t.unsaved.append(str(action))
        evs = [dict(e.to_json(), _n=first + i) for i, e in enumerate(events)]
        t.recent.extend(e for e in evs if e.get("type") not in HIDDEN_EVENTS)
        del t.recent[:-30]
        upd.events.extend(evs)
        upd.action_types.append(action.type)
        upd.seats_to_notify.add(action.seat)
        for e in evs:
            if "seat" in e:
                upd.seats_to_notify.add(e["seat"])
        upd.seats_to_notify.update(t.current_hand.pending_seats())
        if action.type == "ting" and not any(e.get("type") == "ting" and e.get("seat") == action.seat for e in evs):
            # two_player.md §Play: 听 with a discard that leaves no ready hand is ignored
            upd.notices.setdefault(action.seat, []).append("notice.ting_ignored")

    async def flush(self, t: Table) -> None:
        """Store the actions applied since the last flush, in one transaction; on failure the
        hand is rebuilt from the stored log and the error raised (nothing unstored is kept)."""
        if not t.unsaved:
            return
        lines = list(t.unsaved)
        try:
            await self.store.append_actions(t.current_hand_id, len(t.actions), lines)
        except BaseException:
            self.rollback(t)
            raise
        t.actions.extend(lines)
        t.unsaved.clear()

    def rollback(self, t: Table) -> None:
        """Forget the applied but unstored actions: rebuild the hand from the stored log."""
        if t.unsaved:
            t.unsaved.clear()
            t.hand, t.decisions = replay(t.current_match, t.actions, t.hand.context if t.hand is not None else None)
            t.recent = public_log(t.hand)

    async def guarded(self, t: Table, work: Awaitable[Update]) -> Update:
        """Run a change of ``t`` (the lock is held): a refusal (``IllegalAction``,
        ``ServiceError``) keeps the state as stored; anything else is a fault — the table is
        rebuilt from the store before the error goes on (:class:`TableFault`)."""
        try:
            return await work
        except (IllegalAction, ServiceError):
            self.rollback(t)
            raise
        except asyncio.CancelledError:
            self.rollback(t)
            raise
        except Exception as exc:
            try:
                await self.reload(t)
            except Exception:  # the store is failing too: keep what memory has
                log.exception("could not rebuild table %s from the store", t.id)
                self.rollback(t)
            await self.publisher.notify(self.publisher.publish(t, Update("action", hand_id=t.hand_id)))  # what is stored shows
            raise TableFault(t, exc) from exc

    async def reload(self, t: Table) -> None:
        """Rebuild ``t`` in place from the store: seats, match state, the running hand
        replayed from its stored log (after an unexpected error left memory in doubt)."""
        found = await self.store.load_open_tables(t.id)
        if not found:
            return
        fresh = await table_from_store(self.store, self.clock, found[0])
        if fresh is None:
            return
        # the same hand at the same point: its timers run on (a reload must not grant time)
        same = fresh.hand_id == t.hand_id and fresh.actions == t.actions
        for name in ("seats", "match", "hand", "hand_id", "actions", "status", "last_result",
                     "settled_hand_id", "decisions", "recent", "queue", "votes", "dealt_users"):
            setattr(t, name, getattr(fresh, name))
        t.unsaved = []
        if not same:
            t.deadline, t.next_hand_at = fresh.deadline, fresh.next_hand_at

    async def run_automatic(self, t: Table, upd: Update) -> Update:
        """Play AI and 托管 seats while one is pending, store every action applied so far (one
        transaction), then arm the timer or settle."""
        guard = 0
        try:
            while t.hand is not None and not t.hand.is_over():
                pending = t.hand.pending_seats()
                auto = [s for s in pending if t.seats[s].is_ai or t.seats[s].auto]
                if not auto:
                    break
                action = await self._automatic_move(t, auto[0])
                await self.apply(t, action, upd)
                guard += 1
                if guard > 1000:  # a hand never needs this many automatic moves
                    raise RuntimeError("automatic play did not converge")
        except BaseException:
            self.rollback(t)
            raise
        if t.hand is not None and t.hand.is_over() and t.settled_hand_id != t.hand_id:
            if t.unsaved:
                # the hand's last moves go with its settlement, in one transaction: a refused
                # settlement stores none of them (the hand is rebuilt as stored; the error goes on)
                try:
                    await self.settle(t, upd)
                except BaseException:
                    self.rollback(t)
                    raise
                return upd
            try:
                await self.settle(t, upd)
            except Exception:
                # a hand stored finished (before this version) is settled by the timer
                # (``tick``), at the next hand or at a restart
                log.exception("table %s: hand %s could not be settled now; will retry", t.id, t.hand_id)
                t.deadline = t.next_hand_at = None
            return upd
        await self.flush(t)
        if t.hand is None or not t.hand.is_over():
            t.arm_timer(self.clock.now())
        return upd

    async def _automatic_move(self, t: Table, seat: int) -> Action:
        """The move of an AI or 托管 seat (:meth:`Table.automatic_move`; the lock is held, so
        nothing else touches the hand meanwhile).  A move of the plain AI or the timeout rule
        is worked out at once; another level's (a game's own strong AI) in a worker thread
        (``asyncio.to_thread``), so that the event loop goes on serving other tables."""
        s = t.seats[seat]
        level = s.level if s.is_ai else t.auto_play_level()
        info = t.variant
        if level is None or not self.OFF_LOOP_MOVES or info.ai_levels[level] is info.ai_levels["normal"]:
            return t.automatic_move(seat)
        return await asyncio.to_thread(t.automatic_move, seat)

    async def settle(self, t: Table, upd: Update) -> None:
        """Settle the finished hand once: its last moves not yet stored (``t.unsaved``), the
        settlement and the next match state are stored in one transaction, and only then
        adopted in memory.  The last hand of a match (option ``match_hands``) closes the table
        and records the match in that same transaction (``upd.kind`` ``"match_over"``)."""
        if t.settled_hand_id == t.hand_id:
            return
        finished = t.current_hand.result
        assert finished is not None  # the hand is over
        result = dict(finished)
        points = result["points"]
        settlements = settlement_records(result, [(s.user_id, s.name, s.is_ai) for s in t.seats])
        state = t.current_match.finished_state(result)
        state[PLAYER_TOTALS] = settled_totals(t, points)
        result["seed"] = t.current_hand.seed
        claimed = frozenset(claiming_seats(t.current_hand))
        result["claimed_by"] = sorted(claimed)  # the 副露率 of the rates
        planned = t.match_hands
        last = bool(planned) and state["hand_no"] >= planned  # the match's last hand
        result["names"] = t.names()  # who played it (another player may sit down before the next deal)
        counts = streaks.settled_counts(t, result)
        lines = list(t.unsaved)
        try:
            match_id = await self.store.finish_hand(t.current_hand_id, result=result, settlements=settlements,
                                                    table_updates={"state": state, "hand_no": state["hand_no"]},
                                                    streaks=counts, end_match=planned if last else None,
                                                    actions=(len(t.actions), lines) if lines else None,
                                                    rate=ratings.for_table(planned),
                                                    tallies=rates.hand_tallies(result, settlements, claimed))
        except HandNotPlaying:
            # settled already (by an earlier run of the bot): the store is right, memory behind
            log.warning("hand %s of table %s was settled already; reloading the table", t.hand_id, t.id)
            await self.reload(t)
            t.settled_hand_id = t.hand_id
            return
        t.actions.extend(lines)
        t.unsaved.clear()
        streaks.remember(self._streaks, t, counts)
        t.current_match.state = state
        t.settled_hand_id = t.hand_id
        t.last_result = result
        t.deadline = None
        upd.seats_to_notify.update(range(len(t.seats)))
        if last:
            # the match is over: the table was closed with the settlement (no next hand)
            t.status = CLOSED
            t.match_id = match_id
            t.next_hand_at = None
            self.tables.drop(t)
            upd.kind, upd.match_id = "match_over", match_id
            return
        t.next_hand_at = self.clock.now() + t.options.get("result_timeout", 30)
        upd.kind = "hand_over"

    async def next_hand(self, channel_id: int, user_id: int | None = None, after_hand: int | None = None) -> Change:
        """Deal the next hand now (a seated player, or the result timer).

        :param after_hand: the stored id of the finished hand the request was made after (the
            **Next hand** button carries it): when another hand was dealt since,
            ``ServiceError("next_already_dealt")``.
        :raises ServiceError: ``not_seated``, ``hand_running``, ``next_already_dealt``."""
        t = self.tables.table_in(channel_id)
        async with t.lock:
            if user_id is not None and t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if after_hand is not None and t.hand_id is not None and after_hand != t.hand_id:
                raise ServiceError("next_already_dealt")
            if t.status != PLAYING or (t.hand is not None and not t.hand.is_over()):
                raise ServiceError("next_already_dealt" if after_hand is not None else "hand_running")
            settled = None
            if t.hand is not None and t.settled_hand_id != t.hand_id:
                settled = await self.guarded(t, self.settle_only(t))  # a settlement the store refused before
            if settled is not None and settled.kind == "match_over":
                upd = settled  # it was the match's last hand: the match ends, nothing is dealt
            elif not any(not s.is_ai and not s.auto for s in t.seats) and not t.queue and user_id is None:
                # everybody left: the table closes instead of playing AI against AI
                await self.tables.close(t)
                upd = Update("closed", match_id=t.match_id)
            else:
                upd = await self.guarded(t, self.start_hand(t))
            change = self.publisher.publish(t, upd)
        await self.publisher.notify(change)
        return change

    async def settle_only(self, t: Table) -> Update:
        upd = Update("hand_over", hand_id=t.hand_id)
        await self.settle(t, upd)
        return upd
