"""Opening, joining and leaving tables, auto-play (托管) on and off, handing an absent player's
seat to the AI, ending a table: the lobby part of the table service"""

from __future__ import annotations

import logging
from typing import Callable, Optional

from engine.ai_levels import LEVELS, new_seat_level, offered_levels
from engine.errors import OptionError
from engine.match import Match
from engine.variants import all_variants, find_variant
from store import Store, TableExists

from .clock import Clock
from .hands import Hands
from .open_tables import OpenTables
from .publisher import Publisher
from .seats import Seats, ai_name, electorate, player_totals, votes_needed
from .snapshot import TableSnapshot
from .table import CLOSED, LOBBY, LOBBY_MINUTES, PLAYING, Seat, ServiceError, Table, Update, lobby_state

log = logging.getLogger("service.tables")


class Lobby:
    """Opening, joining and leaving tables, auto-play (托管) on and off, handing an absent
    player's seat to the AI, ending a table.

    Each request returns the table's snapshot after it (``None`` when nobody listens:
    ``Publisher.snapshot_of`` builds one when asked).

    :param store: where a new table, its seats and its lobby state are written.
    :param clock: ``now() -> float`` seconds: a lobby's idle time.
    :param tables: the open tables.
    :param publisher: publishes the snapshot after each change.
    :param hands: deals the first hand, plays the seats that went to the AI, settles a hand
        the store refused before a table ends.
    :param seats: seat changes during a match (a late player, the queue, the votes).
    :param seed_source: ``() -> int``: a new table's seed.
    """

    def __init__(self, store: Store, clock: Clock, tables: OpenTables, publisher: Publisher, hands: Hands,
                 seats: Seats, seed_source: Callable[[], int]):
        self.store = store
        self.clock = clock
        self.tables = tables
        self.publisher = publisher
        self.hands = hands
        self.seats = seats
        self.seed_source = seed_source

    # ------------------------------------------------------------------ lobby
    async def create_table(self, *, guild_id: int, channel_id: int, user_id: int, name: str,
                           variant: str, options: dict | None = None, lang: str = "zh",
                           channel_name: str | None = None, lobby_minutes: int = LOBBY_MINUTES) -> Optional[TableSnapshot]:
        """Open a table in a channel with its creator seated (``channel_name``: the channel's
        name, which names the table; ``lang``: the language of its public messages;
        ``lobby_minutes``: the lobby closes when nobody changed or started it for that long,
        see :meth:`Timers.tick`).

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
        now = self.clock.now()
        try:
            table_id = await self.store.create_table(guild_id=guild_id, channel_id=channel_id, creator_id=user_id,
                                                     variant=info.id, options=resolved, seed=seed, lang=lang,
                                                     state=lobby_state(now, lobby_minutes, self.clock.unix_time))
        except TableExists:
            raise ServiceError("table_exists") from None
        t = Table(table_id, guild_id, channel_id, user_id, info, resolved, seed, lang=lang, channel_name=channel_name,
                  idle_since=now, lobby_minutes=lobby_minutes)
        t.unix_time = self.clock.unix_time
        t.seats.append(Seat(user_id, name))
        await self.store.set_seats(table_id, [s.record(i) for i, s in enumerate(t.seats)])
        self.tables.add(t)
        async with t.lock:
            change = self.publisher.publish(t, Update("lobby"))
        await self.publisher.notify(change)
        return self.publisher.after(t)

    async def join(self, channel_id: int, user_id: int, name: str, seat: int | None = None) -> Optional[TableSnapshot]:
        """Seat a player (``already_seated``, ``table_full`` refused).  A player whose seat is
        on 托管 (they left, or timed out) takes it back (:meth:`take_over`).  Once the game
        runs, a player who is not seated takes a free seat (``service/seats.py``:
        :meth:`~service.seats.Seats.sit_down`, ``seat`` 0-based or ``None``): at once between
        hands, else at the next deal (``Table.queue``)."""
        t = self.tables.table_in(channel_id)
        seat_now = t.seat_of(user_id)
        if seat_now is not None and t.status == PLAYING and t.seats[seat_now].auto:
            await self.take_over(channel_id, user_id)
            return self.publisher.after(t)
        upd = Update("lobby")
        async with t.lock:
            t.check_open()
            if t.seat_of(user_id) is not None:
                raise ServiceError("already_seated")
            if t.status == PLAYING:
                _, _, upd = await self.seats.sit_down(t, user_id, name, seat)
            elif t.status != LOBBY:
                raise ServiceError("game_running")
            else:
                if len(t.seats) >= t.variant.max_players:
                    raise ServiceError("table_full", max=t.variant.max_players)
                t.seats.append(Seat(user_id, name))
                await self.tables.save_seats(t)
                await self._touch_lobby(t)
            change = self.publisher.publish(t, upd)
        await self.publisher.notify(change)
        return self.publisher.after(t)

    def check_may_change_options(self, channel_id: int, user_id: int) -> None:
        """Refuse a change of a table's options by anyone but its host — its creator while
        seated, else the first human seated — or once the game started (the one check, made
        before a form opens and again when it is stored).

        :raises ServiceError: ``no_table``, ``options_creator_only``, ``options_started``."""
        t = self.tables.table_in(channel_id)
        t.check_open()
        humans = [s.user_id for s in t.seats if not s.is_ai and s.user_id is not None]
        host = t.creator_id if t.creator_id in humans else (humans[0] if humans else None)
        if user_id != host:
            raise ServiceError("options_creator_only")
        if t.status != LOBBY:
            raise ServiceError("options_started")

    async def set_options(self, channel_id: int, user_id: int, changes: dict) -> Optional[TableSnapshot]:
        """Change a lobby's options (``changes``: ``{name: value}``, typed or as text), all or
        none: every value is checked against the game's declarations before anything is stored;
        stored before this returns; the table's idle time starts again.

        :raises ServiceError: as :meth:`check_may_change_options`; ``option_unknown``,
            ``option_bad_value`` (with ``allowed``) for a value the game does not take."""
        t = self.tables.table_in(channel_id)
        async with t.lock:
            self.check_may_change_options(channel_id, user_id)
            try:
                resolved = t.variant.resolve_options({**t.options, **changes})
            except OptionError as e:
                raise ServiceError(e.code, **e.params) from None
            await self.store.update_table(t.id, options=resolved)
            t.options = resolved
            await self._touch_lobby(t)
            change = self.publisher.publish(t, Update("lobby"))
        await self.publisher.notify(change)
        return self.publisher.after(t)

    async def add_ai(self, channel_id: int, user_id: int, level: str | None = None) -> Optional[TableSnapshot]:
        """Fill an empty seat with an AI player playing at ``level`` (``easy``, ``normal`` or
        ``strong``: ``engine.ai_levels.LEVELS``; ``None``: the strongest level the game offers,
        ``engine.ai_levels.new_seat_level``; stored with the seat).  Only seated players may
        do it.

        :raises ServiceError: ``ai_level_unknown`` (not a level), ``ai_level_not_here`` (a
            level the game does not play differently: ``engine.ai_levels.offered_levels``),
            ``not_seated``, ``game_running``, ``table_full``."""
        t = self.tables.table_in(channel_id)
        level = new_seat_level([t.variant]) if level is None else level
        if level not in LEVELS:
            raise ServiceError("ai_level_unknown", value=str(level)[:20], known=", ".join(LEVELS))
        here = offered_levels([t.variant])
        if level not in here:
            raise ServiceError("ai_level_not_here", level=level, known=", ".join(here))
        async with t.lock:
            t.check_open()
            if t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if t.status != LOBBY:
                raise ServiceError("game_running")
            if len(t.seats) >= t.variant.max_players:
                raise ServiceError("table_full", max=t.variant.max_players)
            n_ai = sum(s.is_ai for s in t.seats)
            t.seats.append(Seat(None, f"AI {n_ai + 1}", is_ai=True, ai_level=level))
            await self.tables.save_seats(t)
            await self._touch_lobby(t)
            change = self.publisher.publish(t, Update("lobby"))
        await self.publisher.notify(change)
        return self.publisher.after(t)

    async def leave(self, channel_id: int, user_id: int) -> Optional[TableSnapshot]:
        """Leave a table.  In the lobby the seat is freed (the table closes when no human is
        left); once the game runs the player's seat goes to 托管 (auto-play) and is marked
        ``left``: it stays theirs (``/mj table join`` or :meth:`take_over` gives it back) until
        another player takes it between hands or it is handed to the AI (``service/seats.py``).
        A finished hand is left alone: only a running hand is played on for the seat.  A player
        waiting for a seat (``Table.queue``) no longer waits."""
        t = self.tables.table_in(channel_id)
        closed = False
        upd = Update("lobby")
        async with t.lock:
            t.check_open()
            seat = t.seat_of(user_id)
            if seat is None and await self.seats.leave_queue(t, user_id):
                pass  # a player waiting for a seat: no longer waits
            elif seat is None:
                raise ServiceError("not_seated")
            elif t.status == LOBBY:
                del t.seats[seat]
                if not any(not s.is_ai for s in t.seats):
                    await self.tables.close(t)
                    closed = True
                else:
                    await self.tables.save_seats(t)
                    await self._touch_lobby(t)
            else:
                upd = Update("action", hand_id=t.hand_id)
                if not t.seats[seat].auto or not t.seats[seat].left:
                    t.seats[seat].auto = t.seats[seat].left = True
                    t.seats[seat].timeouts = 0
                    await self.tables.save_seats(t)
                    t.public_event(upd, {"type": "auto", "seat": seat, "left": True})
                if t.hand is not None and not t.hand.is_over():
                    upd = await self.hands.guarded(t, self.hands.run_automatic(t, upd))
            change = self.publisher.publish(t, Update("closed") if closed else upd)
        await self.publisher.notify(change)
        return self.publisher.after(t)

    async def let_ai_play(self, channel_id: int, user_id: int, level: str) -> Optional[TableSnapshot]:
        """The AI plays ``user_id``'s seat at ``level`` for the whole game (the local table's
        ``--auto``: every seat plays itself); only in the lobby.

        :raises ServiceError: ``not_seated``, ``game_running``, ``ai_level_unknown``."""
        t = self.tables.table_in(channel_id)
        if level not in LEVELS:
            raise ServiceError("ai_level_unknown", value=str(level)[:20], known=", ".join(LEVELS))
        async with t.lock:
            t.check_open()
            seat = t.player_seat(user_id)
            if t.status != LOBBY:
                raise ServiceError("game_running")
            t.seats[seat].is_ai, t.seats[seat].ai_level = True, level
            await self.tables.save_seats(t)
            change = self.publisher.publish(t, Update("lobby"))
        await self.publisher.notify(change)
        return self.publisher.after(t)

    async def take_over(self, channel_id: int, user_id: int) -> Optional[TableSnapshot]:
        """A player on 托管 (auto-play) plays their seat again: their next decision is theirs.

        :raises ServiceError: ``not_seated``; ``not_on_auto`` when the seat is not on 托管."""
        t = self.tables.table_in(channel_id)
        async with t.lock:
            t.check_open()
            seat = t.player_seat(user_id)
            s = t.seats[seat]
            if not s.auto or s.is_ai:
                raise ServiceError("not_on_auto")
            s.auto = s.left = False
            s.timeouts = 0
            await self.tables.save_seats(t)
            await self.seats.forget_votes_against(t, user_id)
            upd = Update("action", seats_to_notify={seat}, hand_id=t.hand_id)
            t.public_event(upd, {"type": "back", "seat": seat})
            change = self.publisher.publish(t, upd)
        await self.publisher.notify(change)
        return self.publisher.after(t)

    async def set_auto(self, channel_id: int, user_id: int, auto: bool) -> None:
        """Turn 托管 (auto-play) on or off for a player's seat."""
        if not auto:
            t = self.tables.table_in(channel_id)
            seat = t.seat_of(user_id)
            if seat is not None and not t.seats[seat].auto:
                return
            await self.take_over(channel_id, user_id)
            return
        t = self.tables.table_in(channel_id)
        async with t.lock:
            t.check_open()
            seat = t.player_seat(user_id)
            upd = Update("action", hand_id=t.hand_id)
            if not t.seats[seat].auto:
                t.seats[seat].auto = True
                t.seats[seat].timeouts = 0
                await self.tables.save_seats(t)
                t.public_event(upd, {"type": "auto", "seat": seat})
            if t.hand is not None and not t.hand.is_over():
                upd = await self.hands.guarded(t, self.hands.run_automatic(t, upd))
            change = self.publisher.publish(t, upd)
        await self.publisher.notify(change)

    async def hand_to_ai(self, channel_id: int, user_id: int, target_id: int,
                         is_admin: bool = False) -> tuple[str, dict]:
        """Hand an absent player's seat (on 托管) to the AI for the rest of the match.

        The table's creator or a server admin does it at once; another seated human casts a
        vote, and the seat is handed over when a majority of :func:`electorate` voted.  A hand
        that waits on the seat is played on by the AI at once.

        :returns: ``("done", {"seat", "name"})`` or ``("vote", {"seat", "name", "votes",
            "needed"})`` (``seat`` 1-based, ``name`` the absent player's).
        :raises ServiceError: ``game_not_running``; ``not_seated`` (the caller, neither creator
            nor admin, is not a seated human); ``vote_left`` (the caller left the game);
            ``replace_self``; ``replace_not_seated`` (the target is not seated);
            ``replace_already_ai`` (their seat was handed over already); ``replace_present``
            (the target is not on 托管); ``already_voted``.
        """
        t = self.tables.table_in(channel_id)
        async with t.lock:
            if t.status != PLAYING:
                raise ServiceError("game_not_running")
            boss = user_id == t.creator_id or is_admin
            mine = t.seat_of(user_id)
            if not boss and mine is None:
                raise ServiceError("not_seated")
            if target_id == user_id:
                raise ServiceError("replace_self")
            seat = t.seat_of(target_id)
            if seat is None:
                if f"u{target_id}" in player_totals(t):
                    raise ServiceError("replace_already_ai")
                raise ServiceError("replace_not_seated")
            s = t.seats[seat]
            if not s.auto:
                raise ServiceError("replace_present", name=s.name)
            if not boss and mine is not None and t.seats[mine].left:
                raise ServiceError("vote_left")
            upd = Update("action", hand_id=t.hand_id)
            need = votes_needed(t, seat)
            voters = electorate(t, seat)
            outcome: tuple[str, dict] = ("done", {"seat": seat + 1, "name": s.name})
            if not boss:
                votes = t.votes.setdefault(target_id, [])
                if user_id in votes:
                    raise ServiceError("already_voted", votes=len([v for v in votes if v in voters]), needed=need)
                votes.append(user_id)
                counted = len([v for v in votes if v in voters])
                if counted < need:
                    outcome = ("vote", {"seat": seat + 1, "name": s.name, "votes": counted, "needed": need})
            if outcome[0] == "vote":
                await self.seats.save_votes(t)
                t.public_event(upd, {"type": "vote", "seat": seat, "player": s.name,
                                            "votes": outcome[1]["votes"], "needed": need})
            else:
                await self.seats.change_seat(t, seat, Seat(None, ai_name(t), is_ai=True), upd)
                if t.hand is not None and not t.hand.is_over():
                    upd = await self.hands.guarded(t, self.hands.run_automatic(t, upd))
            change = self.publisher.publish(t, upd)
        await self.publisher.notify(change)
        return outcome

    async def end(self, channel_id: int, user_id: int, is_admin: bool = False) -> Optional[TableSnapshot]:
        """Close the table: its creator or a server admin; anyone when it is a lobby nobody
        changed for its ``lobby_minutes`` (:meth:`Table.lobby_idle`); ``not_creator`` (with
        ``minutes``) otherwise.  An unfinished hand is aborted: it pays nobody; a finished one
        whose settlement the store refused before is settled first.  With settled hands the
        match ends: the update (``"closed"``) carries its ``match_id`` for the final
        standings."""
        t = self.tables.table_in(channel_id)
        if user_id != t.creator_id and not is_admin and not t.lobby_idle(self.clock.now()):
            raise ServiceError("not_creator", minutes=t.lobby_minutes)
        async with t.lock:
            t.check_open()
            if t.hand is not None and t.hand.is_over() and t.settled_hand_id != t.hand_id:
                # a finished hand the store refused to settle: settled first, so it counts
                await self.hands.guarded(t, self.hands.settle_only(t))
            if t.hand_id is not None and t.hand is not None and not t.hand.is_over():
                await self.store.abort_hand(t.hand_id)
            if t.status != CLOSED:  # (that settlement may have been the match's last)
                await self.tables.close(t)
            change = self.publisher.publish(t, Update("closed", match_id=t.match_id))
        await self.publisher.notify(change)
        return self.publisher.after(t)

    async def _touch_lobby(self, t: Table) -> None:
        """A lobby changed: its idle time starts again (stored)."""
        t.idle_since = self.clock.now()
        await self.store.update_table(t.id, state=lobby_state(t.idle_since, t.lobby_minutes, self.clock.unix_time))

    async def expire_lobby(self, t: Table) -> bool:
        """Close a lobby idle for its ``lobby_minutes`` (under its lock, checked again); the
        front ends hear ``Update("closed")`` with a ``lobby_expired`` event (``minutes``)."""
        async with t.lock:
            if t.status != LOBBY or not t.lobby_idle(self.clock.now()):
                return False
            await self.tables.close(t)
            change = self.publisher.publish(t, Update("closed", events=[{"type": "lobby_expired", "minutes": t.lobby_minutes}]))
        await self.publisher.notify(change)
        return True

    async def start(self, channel_id: int, user_id: int) -> Optional[TableSnapshot]:
        """Start the game (a seated player; ``too_few_players`` below the variant's minimum)."""
        t = self.tables.table_in(channel_id)
        async with t.lock:
            t.check_open()
            if t.seat_of(user_id) is None:
                raise ServiceError("not_seated")
            if t.status != LOBBY:
                raise ServiceError("game_running")
            if len(t.seats) < t.variant.min_players:
                raise ServiceError("too_few_players", min=t.variant.min_players)
            t.match = Match(t.variant, t.options, t.seed, len(t.seats))
            t.status = PLAYING
            try:  # the playing status is stored with the first hand, in its transaction
                upd = await self.hands.guarded(t, self.hands.start_hand(t, first=True))
            except BaseException:
                if t.hand is None:  # nothing was dealt: the table is still a lobby
                    t.status, t.match = LOBBY, None
                raise
            change = self.publisher.publish(t, upd)
        await self.publisher.notify(change)
        return self.publisher.after(t)
