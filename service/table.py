"""What a table is, inside the table service: seats, the table (mutable, the service's alone:
front ends get its snapshots, ``service/snapshot.py``), what a change was (:class:`Update`),
the errors of requests (:class:`ServiceError`, :class:`TableFault`), and the hand-log helpers
shared by the service's parts.  See ``service/tables.py`` for the service itself."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, ItemsView, Optional

from engine.actions import Action
from engine.ai_levels import DEFAULT_LEVEL, LEVELS, new_seat_level
from engine.match import Match
from engine.protocol import Hand
from engine.rng import seed_commitment
from engine.variants import VariantInfo
from store import SeatRecord

LOBBY, PLAYING, CLOSED = "lobby", "playing", "closed"
AUTO_AFTER_TIMEOUTS = 3  #: two_player.md §Timeouts: the third timeout puts the seat in 托管
#: minutes a lobby may stay unchanged before it closes, unless its server set another number
LOBBY_MINUTES = 15
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
    #: the player left the running game (``/mj table leave``): on 托管, and free for another
    #: player between hands (a seat on 托管 after three timeouts is not)
    left: bool = False
    #: the level an AI seat plays at (``engine.ai_levels.LEVELS``); ``None``: a human seat, or
    #: an AI seat stored before levels (it plays :data:`engine.ai_levels.DEFAULT_LEVEL`)
    ai_level: Optional[str] = None

    @property
    def level(self) -> str:
        """The level the AI plays this seat at: its own, else ``normal``."""
        return self.ai_level if self.ai_level in LEVELS else DEFAULT_LEVEL

    def record(self, seat: int) -> SeatRecord:
        return SeatRecord(seat=seat, user_id=self.user_id, name=self.name, is_ai=self.is_ai,
                          dms_open=self.dms_open, auto=self.auto, prompted=self.prompted, left=self.left,
                          ai_level=self.ai_level)


@dataclass
class Update:
    """What changed, for the front ends.

    :ivar kind: ``"lobby"``, ``"start"``, ``"action"``, ``"hand_over"``, ``"match_over"``,
        ``"closed"``.
    :ivar events: engine events (JSON dicts) since the last update, in order.
    :ivar seats_to_notify: seats whose private hand changed or who must act now.
    :ivar actor: the seat whose request caused the update (it gets its answer directly).
    :ivar notices: per seat, message-catalogue keys (``notice.…``) to tell that seat only,
        e.g. ``notice.ting_ignored`` when a 听 the rules ignore was played as a discard.
    :ivar hand_id: the stored id of the hand the update is about.
    :ivar match_id: with ``"match_over"`` (the last hand of a match was settled: the table is
        closed) and ``"closed"``: the stored id of the match that ended, whose final standings
        a front end shows (``None``: no hand was settled, no standings).
    :ivar action_types: the type of each action applied in the update (``discard``, ``pass``
        …), in order: what a front end counts.
    """

    kind: str
    events: list[dict] = field(default_factory=list)
    seats_to_notify: set[int] = field(default_factory=set)
    actor: Optional[int] = None
    notices: dict[int, list[str]] = field(default_factory=dict)
    hand_id: Optional[int] = None
    match_id: Optional[int] = None
    action_types: list[str] = field(default_factory=list)


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
    hand: Optional[Hand] = None
    hand_id: Optional[int] = None
    actions: list[str] = field(default_factory=list)  #: the stored action log of the hand
    unsaved: list[str] = field(default_factory=list, repr=False)  #: applied, not yet stored (lock held)
    deadline: Optional[float] = None
    next_hand_at: Optional[float] = None
    #: what the deadline was set for: ``(timer kind, {seat: decision})`` (see :meth:`arm_timer`)
    armed: Optional[tuple] = field(default=None, repr=False, compare=False)
    #: the service clock's time → Unix seconds (``SystemClock.unix_time``), for deadlines shown to players
    unix_time: Optional[Callable[[float], float]] = field(default=None, repr=False, compare=False)
    last_result: Optional[dict] = None
    settled_hand_id: Optional[int] = None  #: the hand whose settlement the store accepted last
    #: the stored id of the table's ended match (set when the table closed with settled hands)
    match_id: Optional[int] = None
    #: per seat the hand waits for, the number of its current decision (:class:`Decisions`);
    #: buttons carry it, so another seat's pass in the same claim window does not make them
    #: stale, while a click from an earlier decision is
    decisions: "Decisions" = field(default_factory=lambda: Decisions())
    recent: list[dict] = field(default_factory=list)  #: recent public events (the table log)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    extra: dict = field(default_factory=dict)  # front-end bookkeeping kept in memory only
    #: the channel's name as the front end knows it (memory only; ``None`` until known)
    channel_name: Optional[str] = None
    #: in the lobby: the clock time of its last change (opened, a seat taken, left or given
    #: to the AI); kept in the stored ``state`` as Unix seconds, so it survives a restart
    idle_since: Optional[float] = None
    #: minutes the lobby may stay unchanged before it closes (the server's ``lobby_minutes``
    #: when it was opened)
    lobby_minutes: int = LOBBY_MINUTES

    def lobby_idle(self, now: float) -> bool:
        """A lobby unchanged for :attr:`lobby_minutes` (or longer) at clock time ``now``."""
        return self.status == LOBBY and self.idle_since is not None and now >= self.idle_since + self.lobby_minutes * 60
    #: players waiting for a seat while a hand runs, in order: ``{"user_id", "name", "seat"}``
    #: (they sit down at the next deal; stored, see ``service/seats.py``)
    queue: list[dict] = field(default_factory=list)
    #: the user in each seat (``None``: AI) when the current hand was dealt: a player who sat
    #: down since has no panel of it (their seat's panel comes with the next deal)
    dealt_users: list = field(default_factory=list)
    #: votes to hand an absent player's seat to the AI: absent user id → the voters' user ids
    votes: dict[int, list[int]] = field(default_factory=dict)
    #: the last snapshot published (``service/snapshot.py``); the front ends read only that
    snapshot: Any = field(default=None, repr=False, compare=False)
    #: the engine views of the current hand at its action counter (``service/publish.py``)
    view_cache: Any = field(default=None, repr=False, compare=False)
    #: changes since the snapshot was built, when nobody listened (it is built when read)
    snapshot_due: bool = field(default=False, repr=False, compare=False)
    #: the seats those changes concerned (``service/publish.py``)
    touched: set = field(default_factory=set, repr=False, compare=False)

    def arm_timer(self, now: float) -> None:
        """Set the deadline of the decisions the hand waits for at clock time ``now``.  Seats
        still deciding what they were deciding when it was set keep that deadline: another
        claimer's pass in the same claim window grants nobody time (and so shows nobody that
        someone passed)."""
        hand = self.hand
        if hand is None or hand.is_over():
            self.deadline = None
            self.armed = None
            return
        key = f"{hand.timer_kind()}_timeout"
        waiting = {p: self.decisions.get(p) for p in hand.pending_seats()}
        if self.deadline is not None and self.armed is not None and waiting:
            kind, before = self.armed
            if kind == key and all(p in before and before[p] == d for p, d in waiting.items()):
                return  # the same decisions, fewer seats: the same deadline
        self.deadline = now + self.options.get(key, 15)
        self.armed = (key, waiting)

    def public_event(self, upd: "Update", event: dict) -> None:
        """A table event of the service itself (托管 on and off, seat changes), shown to
        everybody: added to ``upd`` and to the table log."""
        upd.events.append(event)
        self.recent.append(event)
        del self.recent[:-30]

    def seat_records(self) -> list[SeatRecord]:
        """The seats as the store keeps them (``Store.set_seats``)."""
        return [s.record(i) for i, s in enumerate(self.seats)]

    @property
    def current_match(self) -> Match:
        """The match of a started game (the service asks only once the game started)."""
        if self.match is None:
            raise RuntimeError(f"table {self.id} has not started its game")
        return self.match

    @property
    def current_hand(self) -> Hand:
        """The hand dealt last (the service asks only once a hand was dealt)."""
        if self.hand is None:
            raise RuntimeError(f"table {self.id} has dealt no hand")
        return self.hand

    @property
    def current_hand_id(self) -> int:
        """The stored id of the hand dealt last (the service asks only once a hand was dealt)."""
        if self.hand_id is None:
            raise RuntimeError(f"table {self.id} has dealt no hand")
        return self.hand_id

    def check_open(self) -> None:
        """Refuse (``no_table``) a request that waited for the table's lock while it closed
        (ended, its lobby expired, its match's last hand settled)."""
        if self.status == CLOSED:
            raise ServiceError("no_table", channel=self.channel_id)

    def player_seat(self, user_id: int) -> int:
        """The seat of ``user_id``; :class:`ServiceError` ``not_seated`` when they sit nowhere
        at this table."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_seated")
        return seat

    def seat_of(self, user_id: int) -> Optional[int]:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    @property
    def n_players(self) -> int:
        return len(self.seats)

    @property
    def hand_over(self) -> bool:
        """No hand is being played: none dealt yet, or the current one is over."""
        return self.hand is None or self.hand.is_over()

    def pending(self) -> list[int]:
        """The seats the current hand waits for (empty between hands)."""
        return [] if self.hand is None or self.hand.is_over() else list(self.hand.pending_seats())

    @property
    def seq(self) -> int:
        """The current hand's action counter (0 when no hand was dealt)."""
        return self.hand.seq if self.hand is not None else 0

    def decision(self, seat: int) -> Optional[int]:
        """The number of ``seat``'s current decision (:class:`Decisions`), ``None`` when the
        hand does not wait for it: what its buttons carry (``TableService.may_act`` refuses a
        click of another decision)."""
        return self.decisions.get(seat)

    @property
    def match_hands(self) -> int:
        """The hands of the table's match (option ``match_hands``; 0: open-ended)."""
        return int(self.options.get("match_hands", 0) or 0)

    def dealt_to(self, seat: int) -> bool:
        """Was the current hand dealt to the player who sits in ``seat`` now?"""
        return not self.dealt_users or (seat < len(self.dealt_users)
                                        and self.dealt_users[seat] == self.seats[seat].user_id)

    def electorate(self, seat: int) -> list[int]:
        """The user ids who vote on handing ``seat`` to the AI: the seated humans who have not
        left, the seat's own player not counted."""
        return [s.user_id for i, s in enumerate(self.seats) if i != seat and s.user_id is not None and not s.left]

    def open_votes(self) -> list[dict]:
        """The votes under way to hand a seat to the AI: ``{"seat", "votes", "needed"}`` each
        (votes counted among :meth:`electorate`; ``needed``: a majority of it)."""
        out = []
        for user_id, voters in sorted(self.votes.items()):
            seat = self.seat_of(user_id)
            if seat is None:
                continue
            elect = self.electorate(seat)
            out.append({"seat": seat, "votes": len([v for v in voters if v in elect]), "needed": len(elect) // 2 + 1})
        return out

    def auto_play_level(self) -> Optional[str]:
        """The level the AI plays a seat on 托管 at when the table option ``auto_play_ai`` is
        on: the strongest level among the table's AI seats (without one, the strongest the
        game offers: ``engine.ai_levels.new_seat_level``);
        ``None`` when the option is off (托管 plays the hand's timeout move)."""
        if not self.options.get("auto_play_ai"):
            return None
        levels = [s.level for s in self.seats if s.is_ai]
        return max(levels, key=LEVELS.index) if levels else new_seat_level([self.variant])

    def automatic_move(self, seat: int) -> Action:
        """The move the table plays for ``seat`` (an AI seat or a seat on 托管; pending): an AI
        seat's at its level; a seat on 托管 the AI's at :meth:`auto_play_level` when the
        option is on, else ``hand.timeout_action`` (discard what was drawn, win when
        possible).  Pure: the hand is only read."""
        s = self.seats[seat]
        if s.is_ai:
            return self.variant.ai_move(self.current_hand, seat, s.level)
        level = self.auto_play_level()
        if level is not None:
            return self.variant.ai_move(self.current_hand, seat, level)
        return self.current_hand.timeout_action(seat)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def hand_names(self) -> list[str]:
        """The names of who played the current hand, by seat: once it is over and settled, as
        its result recorded them (``result["names"]``: another player may have sat down or
        left since); otherwise the seats' names (:meth:`names`)."""
        names = (self.last_result or {}).get("names") if self.hand is not None and self.hand.is_over() else None
        if names and len(names) == len(self.seats):
            return [str(n) for n in names]
        return self.names()

    def scores(self) -> list[int]:
        if self.match is None:
            return [0] * len(self.seats)
        return list(self.match.state["scores"])

    def seed_hash(self) -> Optional[str]:
        """SHA-256 commitment to the current hand's seed (shown before the hand)."""
        return seed_commitment(self.hand.seed) if self.hand is not None else None

    def deadline_unix(self) -> Optional[int]:
        """The current decision's deadline as Unix seconds (``None`` without one)."""
        if self.deadline is None or self.unix_time is None:
            return None
        return int(round(self.unix_time(self.deadline)))


Listener = Callable[[Any], Awaitable[None]]


def lobby_state(since: float, minutes: int, unix_time: Optional[Callable[[float], float]]) -> dict:
    """The stored ``state`` of a lobby: ``{"lobby": {"since": Unix seconds of its last change
    (clock time ``since``; the clock's own time when it has no Unix time), "minutes":
    lobby_minutes}}``."""
    return {"lobby": {"since": unix_time(since) if unix_time else since, "minutes": minutes}}


def restore_lobby(t: Table, kept: Optional[dict], now: float) -> None:
    """A lobby's last change and minutes from its stored ``state`` (:func:`lobby_state`): the
    Unix time brought back to the clock's time ``now``.  A lobby stored without them (before
    lobbies expired) is idle from now."""
    kept = kept if isinstance(kept, dict) else {}
    since, minutes = kept.get("since"), kept.get("minutes")
    if isinstance(minutes, int) and minutes > 0:
        t.lobby_minutes = minutes
    if not isinstance(since, (int, float)):
        t.idle_since = now
    else:
        t.idle_since = now - (t.unix_time(now) - since) if t.unix_time else float(since)


def public_log(hand: Hand, keep: int = 30) -> list[dict]:
    """The last ``keep`` public events of a hand (no passes), as the table log shows them; each
    carries its index among the hand's events as ``_n`` (a snapshot shows those of the public
    frame only, ``service/publish.py``)."""
    return [dict(e, _n=i) for i, e in ((i, x.to_json()) for i, x in enumerate(hand.events))
            if e.get("type") not in HIDDEN_EVENTS][-keep:]


class Decisions:
    """The decisions of a hand's seats: per seat the hand waits for, the number of its current
    decision — how many decisions that seat has had in the hand so far, this one included (1
    for its first).

    A decision begins when the hand starts waiting for a seat, or waits for it again after it
    acted itself (a kong, then its discard); another seat's action leaves it as it was (a pass
    in the same claim window).  Only the seat's own decisions are counted, so the number its
    buttons carry tells its player nothing of what other seats were asked: a claim window
    another seat passed in leaves it the same as a discard nobody could claim.  The numbers
    follow from the action log alone (:func:`replay` rebuilds them), so buttons drawn before a
    restart keep theirs.
    """

    __slots__ = ("current", "count")

    def __init__(self) -> None:
        self.current: dict[int, int] = {}  #: seat → number of its current decision (pending seats)
        self.count: dict[int, int] = {}  #: seat → decisions it had in this hand

    def get(self, seat: int, default: Optional[int] = None) -> Optional[int]:
        """The number of ``seat``'s current decision, ``default`` when the hand does not wait for it."""
        return self.current.get(seat, default)

    def __getitem__(self, seat: int) -> int:
        return self.current[seat]

    def __contains__(self, seat: object) -> bool:
        return seat in self.current

    def items(self) -> ItemsView[int, int]:
        return self.current.items()

    def __repr__(self) -> str:
        return f"Decisions({self.current})"

    def note(self, hand: Hand, actor: Optional[int]) -> None:
        """Keep the numbers after an action of ``actor`` (``None``: the deal): a seat the hand
        waits for keeps its number, unless it is new or it acted itself (a new decision, the
        next number); seats no longer waited for are dropped."""
        pending = [] if hand.is_over() else hand.pending_seats()
        kept = {}
        for p in pending:
            if p == actor or p not in self.current:
                self.count[p] = self.count.get(p, 0) + 1
                kept[p] = self.count[p]
            else:
                kept[p] = self.current[p]
        self.current = kept


def replay(match: Match, actions: list[str], context: Optional[dict],
           seed: Optional[int] = None) -> tuple[Hand, Decisions]:
    """The hand rebuilt from its stored log (dealt with ``context``, and ``seed`` for a hand
    of an earlier number than the match's), and its decisions."""
    hand = match.new_hand(context=context, seed=seed)
    decisions = Decisions()
    decisions.note(hand, None)
    for line in actions:
        a = Action.parse(line)
        hand.apply(a)
        decisions.note(hand, a.seat)
    return hand, decisions


__all__ = ["LOBBY", "PLAYING", "CLOSED", "AUTO_AFTER_TIMEOUTS", "LOBBY_MINUTES", "HIDDEN_EVENTS", "WINDOW_PHASES",
           "OPENING_PHASES",
           "ServiceError", "TableFault", "Seat", "Update", "Table", "Listener", "public_log", "Decisions",
           "replay", "lobby_state", "restore_lobby"]
