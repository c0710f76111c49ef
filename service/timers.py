"""Turn and result timers: the timer part of the table service (an injectable clock)"""

from __future__ import annotations

import logging
from typing import Optional


from .clock import Clock
from .hands import Hands
from .lobby import Lobby
from .open_tables import OpenTables
from .publisher import Publisher
from .table import AUTO_AFTER_TIMEOUTS, LOBBY, PLAYING, ServiceError, Table, Update

log = logging.getLogger("service.tables")


class Timers:
    """The timers of the open tables: decisions' deadlines, the result screen's, idle lobbies.

    :param clock: ``now() -> float`` seconds.
    :param tables: the open tables.
    :param publisher: publishes the snapshot after each timeout.
    :param hands: plays the timeout moves, deals the next hand, settles again a hand the store
        refused.
    :param lobby: closes an idle lobby.
    """

    def __init__(self, clock: Clock, tables: OpenTables, publisher: Publisher, hands: Hands, lobby: Lobby):
        self.clock = clock
        self.tables = tables
        self.publisher = publisher
        self.hands = hands
        self.lobby = lobby

    async def tick(self) -> int:
        """Apply every overdue timeout; returns how many actions it took.

        Discard/claim timeouts play :meth:`MahjongHand.timeout_action`; the third in a row
        puts the seat in 托管.  After a hand, the next one is dealt when the result timeout
        runs out.  A lobby nobody changed or started for its ``lobby_minutes`` is closed
        (``Update("closed")`` with a ``lobby_expired`` event); that counts as one action.
        """
        now = self.clock.now()
        done = 0
        for t in self.tables.all():
            if t.status == LOBBY and t.lobby_idle(now):
                try:
                    done += await self.lobby.expire_lobby(t)
                except Exception:
                    log.exception("table %s: the idle lobby could not be closed now; will retry", t.id)
                continue
            if t.status != PLAYING:
                continue
            if t.hand is not None and t.hand.is_over() and t.settled_hand_id != t.hand_id and t.hand_id is not None:
                # a settlement the store refused (it was failing): try again
                try:
                    async with t.lock:
                        upd = await self.hands.guarded(t, self.hands.settle_only(t))
                        change = self.publisher.publish(t, upd)
                except Exception:
                    log.exception("table %s: hand %s is still not settled", t.id, t.hand_id)
                    continue
                await self.publisher.notify(change)
                continue
            if t.next_hand_at is not None and now >= t.next_hand_at and (t.hand is None or t.hand.is_over()):
                try:
                    await self.hands.next_hand(t.channel_id)
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
                    for s in list(t.current_hand.pending_seats()):
                        if t.current_hand.is_over() or s not in t.current_hand.pending_seats():
                            continue
                        seat = t.seats[s]
                        seat.timeouts += 1
                        await self.hands.apply(t, t.current_hand.timeout_action(s), upd)
                        upd.events.append({"type": "timeout", "seat": s})
                        done += 1
                        if seat.timeouts >= AUTO_AFTER_TIMEOUTS and not seat.auto:
                            seat.auto = True
                            gone_auto.append(s)
                            await self.tables.save_seats(t)
                    await self.hands.run_automatic(t, upd)
                    for s in gone_auto:
                        announce_auto(t, upd, s, start)
                    return upd

                upd = await self.hands.guarded(t, run())
                change = self.publisher.publish(t, upd)
            await self.publisher.notify(change)
        return done

    def next_deadline(self) -> Optional[float]:
        """The earliest timer among all tables (for a scheduler that sleeps until then)."""
        tables = self.tables.all()
        times = [x for t in tables for x in (t.deadline, t.next_hand_at) if x is not None]
        times += [t.idle_since + t.lobby_minutes * 60 for t in tables
                  if t.status == LOBBY and t.idle_since is not None]
        return min(times) if times else None


def announce_auto(t: Table, upd: Update, seat: int, start: int) -> None:
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
