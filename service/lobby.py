"""Opening, joining and leaving tables, auto-play (托管) on and off, ending a table: the lobby part of the table service"""

from __future__ import annotations

import logging

from engine.ai_levels import LEVELS, NEW_SEAT_LEVEL
from engine.errors import OptionError
from engine.match import Match
from engine.variants import all_variants, find_variant
from store import TableExists

from .table import (CLOSED, LOBBY, PLAYING, Seat, ServiceError, Table,
                    Update)

log = logging.getLogger("service.tables")


class Lobby:
    """Part of :class:`service.tables.TableService` (opening, joining and leaving tables, auto-play (托管) on and off, ending a table)."""

    # ------------------------------------------------------------------ lobby
    async def create_table(self, *, guild_id: int, channel_id: int, user_id: int, name: str,
                           variant: str, options: dict | None = None, lang: str = "zh",
                           channel_name: str | None = None) -> Table:
        """Open a table in a channel with its creator seated (``channel_name``: the channel's
        name, which names the table).

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
        t = Table(table_id, guild_id, channel_id, user_id, info, resolved, seed, lang=lang, channel_name=channel_name)
        t.wall = getattr(self.clock, "wall", None)
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

    async def add_ai(self, channel_id: int, user_id: int, level: str = NEW_SEAT_LEVEL) -> Table:
        """Fill an empty seat with an AI player playing at ``level`` (``easy``, ``normal`` or
        ``strong``: ``engine.ai_levels.LEVELS``; stored with the seat).  Only seated players
        may do it.

        :raises ServiceError: ``ai_level_unknown`` (another level), ``not_seated``,
            ``game_running``, ``table_full``."""
        if level not in LEVELS:
            raise ServiceError("ai_level_unknown", value=str(level)[:20], known=", ".join(LEVELS))
        t = self.table_in(channel_id)
        async with t.lock:
            if t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if t.status != LOBBY:
                raise ServiceError("game_running")
            if len(t.seats) >= t.variant.max_players:
                raise ServiceError("table_full", max=t.variant.max_players)
            n_ai = sum(s.is_ai for s in t.seats)
            t.seats.append(Seat(None, f"AI {n_ai + 1}", is_ai=True, ai_level=level))
            await self._save_seats(t)
        await self._notify(t, Update("lobby"))
        return t

    async def leave(self, channel_id: int, user_id: int) -> Table:
        """Leave a table.  In the lobby the seat is freed (the table closes when no human is
        left); once the game runs the player's seat goes to 托管 (auto-play) and stays theirs
        (``/mj table join`` or :meth:`take_over` gives it back).  A finished hand is left alone:
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
