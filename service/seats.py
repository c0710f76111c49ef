"""Seat changes during a match: a late player sits down in a free seat, an absent player's
seat is handed to the AI, and every player keeps their own total: the seat-change part of the
table service.

* **Free seats** (:func:`free_seats`): once the game runs, a seat is free for another player
  when it is an AI seat or its player *left* (``/mj table leave``: ``Seat.left``).  A seat on
  托管 after three timeouts is not free: its player did not leave.
* **Sitting down late** (:meth:`Seats.sit_down`, through ``/mj table join``): between hands
  (the result screen) the player takes the seat at once; while a hand runs they wait in
  ``Table.queue`` (stored) and sit down when the next hand is dealt (:meth:`Seats.seat_queue`).
* **Handing a seat to the AI** (``Lobby.hand_to_ai``, ``/mj table replace``): an absent
  player's seat (on 托管) becomes an AI seat for the rest of the match — at once when the
  table's creator or a server admin asks, else when a majority of the seated humans who have
  not left (the absent one not counted) voted for it (``Table.votes``, stored).
* **Totals per player** (:data:`PLAYER_TOTALS`): the match state keeps each player's total at
  this table, keyed by :func:`player_key`; the score a seat shows (``state["scores"]``) is its
  occupant's total, so the one who left keeps theirs and a newcomer starts from their own
  (0, or what they had when they sat here before).  A hand is settled to the players seated
  when it ends, as the stored settlements say.
* **Dealer**: nothing here moves it; in a game whose 连庄 count is the player's (二人麻将,
  two_player.md §Set-up) the next deal draws the dealer again because the seated players
  changed (``service/streaks.py``); in the other games the dealer stays on the seat.

The queue and the votes are stored as named values (``Store.set_state``), the seats with
``Store.set_seats`` and the totals with the match state, each before the request is answered.
"""

from __future__ import annotations

import json
import logging
from typing import Optional

from store import Store

from .open_tables import OpenTables
from .table import Seat, ServiceError, Table, Update

log = logging.getLogger("service.tables")

#: match-state key: each player's total at this table, by :func:`player_key`
PLAYER_TOTALS = "player_totals"
#: the stored keys (``Store.set_state``) of a table's queue and votes
QUEUE_KEY, VOTES_KEY = "seat-queue:{table}", "seat-votes:{table}"


def player_key(seat: Seat) -> str:
    """``"u<user id>"`` for a human, ``"ai:<name>"`` for an AI seat."""
    return f"ai:{seat.name}" if seat.user_id is None else f"u{seat.user_id}"


def player_totals(t: Table) -> dict[str, int]:
    """A copy of the match's per-player totals (points), made from the seats' scores for a
    match that kept none yet."""
    st = t.current_match.state
    totals = dict(st.get(PLAYER_TOTALS) or {})
    for i, s in enumerate(t.seats):
        totals.setdefault(player_key(s), st["scores"][i])
    return totals


def settled_totals(t: Table, points: list[int]) -> dict[str, int]:
    """The per-player totals after a hand whose seats won or paid ``points`` (by seat): each
    seat's points go to its occupant now."""
    totals = player_totals(t)
    for i, s in enumerate(t.seats):
        totals[player_key(s)] += points[i]
    return totals


def free_seats(t: Table, reserved: frozenset = frozenset()) -> list[int]:
    """Seats another player may take (0-based): those whose player left first, then AI
    seats, each in seat order; ``reserved`` seats are left out."""
    left = [i for i, s in enumerate(t.seats) if s.left and not s.is_ai and i not in reserved]
    ai = [i for i, s in enumerate(t.seats) if s.is_ai and i not in reserved]
    return left + ai


def between_hands(t: Table) -> bool:
    """No hand is being played and the last one is settled (the result screen)."""
    return t.hand is None or (t.hand.is_over() and t.settled_hand_id == t.hand_id)


def electorate(t: Table, seat: int) -> list[int]:
    """The user ids who vote on handing ``seat`` to the AI (``Table.electorate``)."""
    return t.electorate(seat)


def votes_needed(t: Table, seat: int) -> int:
    """A majority of :func:`electorate` (at least one vote)."""
    return len(electorate(t, seat)) // 2 + 1


class Seats:
    """Seat changes during a match (the table's lock is held for each).

    :param store: where the queue, the votes and the match state are kept.
    :param tables: the open tables (their seats are stored through it)."""

    def __init__(self, store: Store, tables: OpenTables):
        self.store = store
        self.tables = tables

    async def sit_down(self, t: Table, user_id: int, name: str, seat: Optional[int]) -> tuple[str, int, Update]:
        """Seat a player who is not seated at a running game (the lock is held).

        :param seat: the seat asked for (0-based), or ``None``: the first of
            :func:`free_seats` not promised to a waiting player.
        :returns: ``("now", seat, update)`` between hands, ``("queued", seat, update)`` while a
            hand runs (they sit down at the next deal).
        :raises ServiceError: ``already_queued`` (with ``seat``, 1-based), ``no_such_seat``,
            ``seat_not_free`` (``seat``), ``no_free_seat``.
        """
        queued = next((q for q in t.queue if q["user_id"] == user_id), None)
        if queued is not None:
            raise ServiceError("already_queued", seat=queued["seat"] + 1)
        free = free_seats(t, frozenset(q["seat"] for q in t.queue))
        if seat is not None:
            if not 0 <= seat < len(t.seats):
                raise ServiceError("no_such_seat")
            if seat not in free:
                raise ServiceError("seat_not_free", seat=seat + 1)
        elif not free:
            raise ServiceError("no_free_seat")
        else:
            seat = free[0]
        upd = Update("action", hand_id=t.hand_id)
        if between_hands(t):
            await self.change_seat(t, seat, Seat(user_id, name), upd)
            return "now", seat, upd
        t.queue.append({"user_id": user_id, "name": name, "seat": seat})
        await self._save_queue(t)
        t.public_event(upd, {"type": "queued", "seat": seat, "player": name})
        return "queued", seat, upd

    async def leave_queue(self, t: Table, user_id: int) -> bool:
        """Take a waiting player out of the queue (the lock is held); ``False`` if not in it."""
        kept = [q for q in t.queue if q["user_id"] != user_id]
        if len(kept) == len(t.queue):
            return False
        t.queue = kept
        await self._save_queue(t)
        return True

    async def change_seat(self, t: Table, seat: int, new: Seat, upd: Update) -> None:
        """Put ``new`` in ``seat`` (the lock is held; the match runs): the seats and the match
        state (the seat shows its new occupant's total) are stored, votes against the one who
        goes are dropped, and the public sees ``seated`` or ``to_ai``."""
        old = t.seats[seat]
        totals = player_totals(t)
        state = dict(t.current_match.state)
        totals.setdefault(player_key(new), 0)
        scores = list(state["scores"])
        scores[seat] = totals[player_key(new)]
        state["scores"], state[PLAYER_TOTALS] = scores, totals
        t.seats[seat] = new
        await self.tables.save_seats(t)
        await self.store.update_table(t.id, state=state)
        t.current_match.state = state
        if old.user_id is not None and t.votes.pop(old.user_id, None) is not None:
            await self.save_votes(t)
        event = ({"type": "to_ai", "seat": seat, "player": old.name} if new.is_ai
                 else {"type": "seated", "seat": seat, "player": new.name})
        t.public_event(upd, event)

    async def seat_queue(self, t: Table) -> list[dict]:
        """At a deal (the lock is held): seat the waiting players, each in the seat they were
        promised or, when its player came back meanwhile, the first other free one (none: they
        keep waiting).  Returns the public events."""
        if not t.queue:
            return []
        upd = Update("action")
        for q in list(t.queue):
            others = frozenset(x["seat"] for x in t.queue if x is not q)
            free = free_seats(t, others)
            seat = q["seat"] if q["seat"] in free else (free[0] if free else None)
            if seat is None:
                continue
            await self.change_seat(t, seat, Seat(q["user_id"], q["name"]), upd)
            t.queue.remove(q)
            await self._save_queue(t)
        return upd.events

    async def forget_votes_against(self, t: Table, user_id: int) -> None:
        """The player came back: the votes to hand their seat over are void."""
        if t.votes.pop(user_id, None) is not None:
            await self.save_votes(t)

    async def _save_queue(self, t: Table) -> None:
        await self.store.set_state(QUEUE_KEY.format(table=t.id), json.dumps(t.queue, sort_keys=True))

    async def save_votes(self, t: Table) -> None:
        """Store ``t``'s votes to hand a seat to the AI as they are now."""
        votes = {str(k): v for k, v in t.votes.items()}
        await self.store.set_state(VOTES_KEY.format(table=t.id), json.dumps(votes, sort_keys=True))


async def load_seat_changes(store: Store, t: Table) -> None:
    """The stored queue and votes of a table being rebuilt (after a restart)."""
    try:
        t.queue = json.loads(await store.get_state(QUEUE_KEY.format(table=t.id)) or "[]")
        t.votes = {int(k): list(v) for k, v in
                   json.loads(await store.get_state(VOTES_KEY.format(table=t.id)) or "{}").items()}
    except ValueError:
        log.warning("table %s: unreadable queue or votes; forgotten", t.id)
        t.queue, t.votes = [], {}


def ai_name(t: Table) -> str:
    """A new AI seat's name, ``AI <n>``, that no seat and no total of this match has had."""
    used = {s.name for s in t.seats} | {k[3:] for k in player_totals(t) if k.startswith("ai:")}
    n = 1
    while f"AI {n}" in used:
        n += 1
    return f"AI {n}"


__all__ = ["PLAYER_TOTALS", "QUEUE_KEY", "VOTES_KEY", "Seats", "load_seat_changes", "player_key", "player_totals", "settled_totals", "free_seats",
           "between_hands", "electorate", "votes_needed", "ai_name"]
