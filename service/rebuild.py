"""A table rebuilt from the store — after a restart, or after a fault left memory in doubt:
its seats, the match state, the queue and votes, and the unfinished hand replayed from its
stored log with the context it was dealt with."""

from __future__ import annotations

import logging
from typing import Optional

from engine.match import Match
from engine.variants import find_variant
from store import OpenTable, Store

from .clock import Clock
from .seats import load_seat_changes
from .table import LOBBY, PLAYING, Seat, Table, public_log, replay, restore_lobby

log = logging.getLogger("service.tables")


async def table_from_store(store: Store, clock: Clock, ot: OpenTable) -> Optional[Table]:
    """The :class:`Table` of a stored open table (``Store.load_open_tables``), its timers
    armed in full; ``None`` for an unknown game.  A hand whose last action was stored but not
    its settlement (:func:`needs_settling`) is left for the caller to settle."""
    rec = ot.table
    try:
        info = find_variant(rec.variant)
    except KeyError:
        log.error("table %s has unknown variant %s", rec.id, rec.variant)
        return None
    t = Table(rec.id, rec.guild_id, rec.channel_id, rec.creator_id, info, dict(rec.options), rec.seed,
              lang=rec.lang, status=rec.status, message_id=rec.message_id)
    t.unix_time = clock.unix_time
    t.seats = [Seat(s.user_id, s.name, is_ai=s.is_ai, auto=s.auto, dms_open=s.dms_open, prompted=s.prompted,
                    left=s.left, ai_level=s.ai_level) for s in ot.seats]
    if rec.status == LOBBY:
        restore_lobby(t, (rec.state or {}).get("lobby"), clock.now())
    if rec.status != PLAYING:
        return t
    await load_seat_changes(store, t)
    t.match = Match(info, t.options, t.seed, len(t.seats), state=dict(rec.state))
    if ot.hand is not None:
        t.hand_id = ot.hand.id
        t.dealt_users = [s.get("user_id") for s in ot.hand.seats]
        context = dict(ot.hand.context) if ot.hand.context else None
        t.hand, t.decisions = replay(t.match, list(ot.hand.actions), context)
        t.actions = list(ot.hand.actions)
        t.recent = public_log(t.hand)
        if not t.hand.is_over():
            t.arm_timer(clock.now())
    elif ot.last_hand is not None and ot.last_hand.result is not None:
        # between hands: the result screen of the last hand, its timeout in full
        last = ot.last_hand
        t.hand, t.decisions = replay(t.match, list(last.actions), dict(last.context) or None, last.seed)
        t.hand_id, t.actions = last.id, list(last.actions)
        t.dealt_users = [s.get("user_id") for s in last.seats]
        t.recent = public_log(t.hand)
        t.last_result = dict(ot.last_hand.result)
        t.settled_hand_id = last.id
        t.next_hand_at = clock.now() + t.options.get("result_timeout", 30)
    else:
        t.next_hand_at = clock.now()
    return t


def needs_settling(t: Table) -> bool:
    """The hand is over and its settlement was not stored (the bot stopped in between, or
    the store refused it)."""
    return t.hand is not None and t.hand.is_over() and t.settled_hand_id != t.hand_id


__all__ = ["table_from_store", "needs_settling"]
