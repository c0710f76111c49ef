"""Turn and result timers: the timer part of the table service (an injectable clock)"""

from __future__ import annotations

import logging
from typing import Optional


from .table import (AUTO_AFTER_TIMEOUTS, LOBBY, PLAYING, ServiceError, Update)

log = logging.getLogger("service.tables")


class Timers:
    """Part of :class:`service.tables.TableService` (turn and result timers)."""

    # ------------------------------------------------------------------ timers
    async def tick(self) -> int:
        """Apply every overdue timeout; returns how many actions it took.

        Discard/claim timeouts play :meth:`MahjongHand.timeout_action`; the third in a row
        puts the seat in 托管.  After a hand, the next one is dealt when the result timeout
        runs out.  A lobby nobody changed or started for its ``lobby_minutes`` is closed
        (``Update("closed")`` with a ``lobby_expired`` event); that counts as one action.
        """
        now = self.clock.now()
        done = 0
        for t in list(self.tables.values()):
            if t.status == LOBBY and t.lobby_idle(now):
                try:
                    done += await self._expire_lobby(t)
                except Exception:
                    log.exception("table %s: the idle lobby could not be closed now; will retry", t.id)
                continue
            if t.status != PLAYING:
                continue
            if t.hand is not None and t.hand.is_over() and t.settled_hand_id != t.hand_id and t.hand_id is not None:
                # a settlement the store refused (it was failing): try again
                try:
                    async with t.lock:
                        upd = await self._guarded(t, self._settle_only(t))
                        change = self._publish(t, upd)
                except Exception:
                    log.exception("table %s: hand %s is still not settled", t.id, t.hand_id)
                    continue
                await self._notify(change)
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
                change = self._publish(t, upd)
            await self._notify(change)
        return done

    def next_deadline(self) -> Optional[float]:
        """The earliest timer among all tables (for a scheduler that sleeps until then)."""
        times = [x for t in self.tables.values() for x in (t.deadline, t.next_hand_at) if x is not None]
        times += [t.idle_since + t.lobby_minutes * 60 for t in self.tables.values()
                  if t.status == LOBBY and t.idle_since is not None]
        return min(times) if times else None
