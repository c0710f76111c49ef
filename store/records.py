"""What the store hands out: frozen records, and the errors its calls raise.

Every public method of :class:`store.Store` returns these dataclasses, never ORM objects, so a
caller can keep them across calls and tasks.  ``_table_record`` and its siblings build them
from result rows (of ``select`` on the Core tables of :mod:`store.base`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional, Sequence

__all__ = [
    "TableRecord",
    "SeatRecord",
    "OpenTable",
    "HandRecord",
    "SettlementRecord",
    "ScoreLine",
    "GuildConfig",
    "HistoryLine",
    "PlayerStats",
    "StoreError",
    "NotFound",
    "TableExists",
    "TableClosed",
    "HandInProgress",
    "HandNotPlaying",
    "ActionConflict",
]


# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """Base class of the errors raised by :class:`Store`."""


class NotFound(StoreError, LookupError):
    """No table or hand with the given id."""


class TableExists(StoreError):
    """The channel already has an open (``'lobby'`` or ``'playing'``) table.

    :ivar channel_id: the channel.
    """

    def __init__(self, channel_id: int):
        super().__init__(f"channel {channel_id} already has an open table")
        self.channel_id = channel_id


class TableClosed(StoreError):
    """A hand was started on a table whose status is ``'closed'``."""


class HandInProgress(StoreError):
    """A hand was started on a table that still has a ``'playing'`` hand.

    :ivar table_id: the table; :ivar hand_id: its playing hand.
    """

    def __init__(self, table_id: int, hand_id: Optional[int]):
        super().__init__(f"table {table_id} already has hand {hand_id} in play")
        self.table_id = table_id
        self.hand_id = hand_id


class HandNotPlaying(StoreError):
    """An action, a result or an abort was given for a hand that is no longer ``'playing'``.

    :ivar hand_id: the hand; :ivar status: its status (``'done'`` or ``'aborted'``).
    """

    def __init__(self, hand_id: int, status: str):
        super().__init__(f"hand {hand_id} is {status}, not playing")
        self.hand_id = hand_id
        self.status = status


class ActionConflict(StoreError):
    """``append_action`` was given an index other than the next free one.

    Raised for an index that is already stored (duplicate; also detected by the database's
    primary key ``(hand_id, idx)`` when two writers race) and for a gap (``idx`` larger than
    the next index), which would make the log unreplayable.

    :ivar hand_id: the hand; :ivar idx: the index given; :ivar expected: the next free index
        (``None`` when the conflict was detected by the database constraint).
    """

    def __init__(self, hand_id: int, idx: int, expected: Optional[int]):
        msg = f"hand {hand_id}: action index {idx} conflicts"
        if expected is not None:
            msg += f" (next free index is {expected})"
        super().__init__(msg)
        self.hand_id = hand_id
        self.idx = idx
        self.expected = expected


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a table.

    :ivar seat: seat number (0-based, engine order).
    :ivar user_id: Discord user id, ``None`` for an AI seat.
    :ivar name: display name.
    :ivar is_ai: the seat is played by the bot.
    :ivar dms_open: the bot could DM this user (``False`` after a 50007 Forbidden).
    :ivar auto: the seat is on auto-play (托管).
    :ivar prompted: the last decision the front end prompted this seat for (its own text,
        e.g. ``"<hand id>:<seq>"``; revision ``0007_seat_prompted``), so that a restarted bot
        prompts what the stopped one had not, and nothing twice.
    :ivar left: the player left the running game (``/mj table leave``; revision
        ``0011_seat_left``): the seat is on 托管 and another player may take it between hands.
    :ivar ai_level: the level an AI seat plays at (``"easy"``, ``"normal"``, ``"strong"``:
        ``engine.ai_levels.LEVELS``; revision ``0013_seat_level``); ``None`` for a human seat
        and for an AI seat stored before levels (it plays ``normal``).
    """

    seat: int
    user_id: Optional[int]
    name: str
    is_ai: bool = False
    dms_open: bool = True
    auto: bool = False
    prompted: Optional[str] = None
    left: bool = False
    ai_level: Optional[str] = None


@dataclass(frozen=True)
class TableRecord:
    """A table as stored.

    :ivar status: ``'lobby'``, ``'playing'`` or ``'closed'``.
    :ivar options: variant options (JSON object).
    :ivar message_id: the public table message, ``None`` until posted.
    :ivar seed: table seed (signed 64-bit); hand seeds derive from it.
    :ivar hand_no: number of the current / last hand (0 before the first).
    :ivar state: match-level state kept by the table service (dealer, streaks, timeouts, …);
        in the lobby ``{"lobby": {"since": Unix seconds of its last change, "minutes": …}}``.
    :ivar created_at, updated_at: UTC, timezone-aware.
    """

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    variant: str
    options: dict
    status: str
    message_id: Optional[int]
    seed: int
    hand_no: int
    lang: str
    state: dict
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SettlementRecord:
    """The result of one seat in one finished hand.

    Callers of :meth:`Store.finish_hand` fill ``seat``, ``user_id``, ``name``, ``points`` and the
    flags; the store fills ``hand_id``, ``table_id``, ``guild_id``, ``variant`` and
    ``created_at`` from the hand (values given there are ignored).

    :ivar points: signed points won (+) or paid (−) by the seat in this hand.
    :ivar is_winner: the seat won the hand.
    :ivar self_drawn: the seat won on its own draw (自摸); only meaningful with ``is_winner``.
    :ivar dealt_in: the seat discarded the winning tile (点炮).
    :ivar fan: the winner's fan count, ``None`` where not applicable.
    """

    seat: int
    user_id: Optional[int]
    name: str
    points: int
    is_ai: bool = False
    is_winner: bool = False
    self_drawn: bool = False
    dealt_in: bool = False
    fan: Optional[int] = None
    hand_id: Optional[int] = None
    table_id: Optional[int] = None
    guild_id: Optional[int] = None
    variant: Optional[str] = None
    created_at: Optional[datetime] = None


@dataclass(frozen=True)
class HandRecord:
    """A hand with its action log.

    :ivar status: ``'playing'``, ``'done'`` or ``'aborted'``.
    :ivar seats: seat descriptions as given to :meth:`Store.start_hand` (JSON objects).
    :ivar result: the result given to :meth:`Store.finish_hand`, ``None`` before.
    :ivar actions: action texts in index order (``actions[i]`` is index ``i``).
    :ivar settlements: one per seat once the hand is done, in seat order.
    :ivar context: the match context the hand was dealt with (``{}`` for hands stored before
        migration 0003).
    """

    id: int
    table_id: int
    hand_no: int
    seed: int
    variant: str
    options: dict
    dealer: int
    seats: tuple
    status: str
    result: Optional[dict]
    started_at: datetime
    ended_at: Optional[datetime]
    actions: tuple[str, ...] = ()
    settlements: tuple[SettlementRecord, ...] = ()
    context: dict = field(default_factory=dict)


@dataclass(frozen=True)
class MatchRecord:
    """An ended match of a table (``match`` row, revision ``0009_match``).

    :ivar hands_planned: the table's ``match_hands`` (0: open-ended, ended by ``/mj table end``).
    :ivar hands_played: the hands of the table that were settled.
    :ivar started_at, ended_at: UTC: the first hand's deal, the end of the match.
    :ivar standings: the final standings (``service.matches.standings``), ``None`` until computed.
    :ivar message_id: the channel message showing them, ``None`` until posted.
    """

    id: int
    table_id: int
    guild_id: int
    channel_id: int
    variant: str
    hands_planned: int
    hands_played: int
    started_at: datetime
    ended_at: datetime
    standings: Optional[dict]
    message_id: Optional[int]


def _match_record(r: Any) -> MatchRecord:
    return MatchRecord(id=r.id, table_id=r.table_id, guild_id=r.guild_id, channel_id=r.channel_id,
                       variant=r.variant, hands_planned=r.hands_planned, hands_played=r.hands_played,
                       started_at=r.started_at, ended_at=r.ended_at,
                       standings=None if r.standings is None else dict(r.standings), message_id=r.message_id)


@dataclass(frozen=True)
class OpenTable:
    """An open table as reloaded after a restart.

    :ivar hand: its ``'playing'`` hand with the actions to replay, or ``None``.
    :ivar last_hand: with no playing hand, its latest finished (``'done'``) hand with its
        actions and result (the result screen a restart must show again), or ``None``.
    """

    table: TableRecord
    seats: tuple[SeatRecord, ...]
    hand: Optional[HandRecord]
    last_hand: Optional[HandRecord] = None


@dataclass(frozen=True)
class ScoreLine:
    """Cumulative results of one player (sums over settlements).

    :ivar name: the name used in the player's latest settlement (``None`` if none).
    :ivar points: sum of points; :ivar hands: number of settled hands;
    :ivar wins: hands won; :ivar self_drawn: wins on own draw; :ivar deal_ins: hands in which
        the player discarded the winning tile.
    """

    user_id: int
    name: Optional[str]
    points: int = 0
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0


@dataclass(frozen=True)
class GuildConfig:
    """The settings of one guild (an empty configuration for a guild that never set any).

    :ivar defaults: ``{variant: {option: value}}``, the guild's option defaults per variant.
    :ivar presets: ``{name: {"variant": str, "options": {option: value}}}``.
    :ivar channels: channel ids where tables may be opened, ascending; ``()`` means every
        channel.
    :ivar settings: the server's table settings, ``{name: value}`` (only those set; see
        ``service.guilds.ServerSettings`` for the names, values and defaults).
    :ivar updated_at: UTC time of the last change, ``None`` if nothing was ever stored.
    """

    guild_id: int
    defaults: dict = field(default_factory=dict)
    presets: dict = field(default_factory=dict)
    channels: tuple[int, ...] = ()
    updated_at: Optional[datetime] = None
    settings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class HistoryLine:
    """One finished hand seen from one player (from the player's settlement row).

    :ivar ended_at: UTC time the hand finished.
    :ivar seat: the player's seat; :ivar points: what the player won (+) or paid (−).
    :ivar is_winner, self_drawn, dealt_in: the player's flags in that hand.
    :ivar fan: fan count of the hand's winning hand (the winner's settlement ``fan``; the
        player's own when the player won), ``None`` for a drawn hand or when not recorded.
    :ivar winner_name: the name of the hand's winner (lowest seat if several), ``None`` for a
        drawn hand.
    """

    hand_id: int
    table_id: int
    variant: str
    ended_at: datetime
    seat: int
    points: int
    is_winner: bool
    self_drawn: bool
    dealt_in: bool
    fan: Optional[int]
    winner_name: Optional[str]


@dataclass(frozen=True)
class PlayerStats:
    """Statistics of one player in one guild, computed from settlements.

    :ivar name: the name used in the player's latest counted settlement (``None`` if none).
    :ivar hands, wins, self_drawn, deal_ins, points: as in :class:`ScoreLine`.
    :ivar average_points: ``points / hands`` (``0.0`` with no hands).
    :ivar best_points: the most points won in one hand (``None`` with no hands).
    :ivar best_hand_id: the first hand (oldest) that reached ``best_points``.
    :ivar best_fan: the highest fan count of a hand the player won (``None`` if no win
        recorded a fan).
    """

    user_id: int
    name: Optional[str]
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    points: int = 0
    average_points: float = 0.0
    best_points: Optional[int] = None
    best_hand_id: Optional[int] = None
    best_fan: Optional[int] = None



# --------------------------------------------------------------------------- rows -> records


def _table_record(r: Any) -> TableRecord:
    return TableRecord(
        id=r.id,
        guild_id=r.guild_id,
        channel_id=r.channel_id,
        creator_id=r.creator_id,
        variant=r.variant,
        options=dict(r.options or {}),
        status=r.status,
        message_id=r.message_id,
        seed=r.seed,
        hand_no=r.hand_no,
        lang=r.lang,
        state=dict(r.state or {}),
        created_at=r.created_at,
        updated_at=r.updated_at,
    )


def _seat_record(r: Any) -> SeatRecord:
    return SeatRecord(
        seat=r.seat,
        user_id=r.user_id,
        name=r.name,
        is_ai=r.is_ai,
        dms_open=r.dms_open,
        auto=r.auto,
        prompted=getattr(r, "prompted", None),
        left=bool(getattr(r, "left", False)),
        ai_level=getattr(r, "ai_level", None),
    )


def _settlement_record(r: Any) -> SettlementRecord:
    return SettlementRecord(
        seat=r.seat,
        user_id=r.user_id,
        name=r.name,
        points=r.points,
        is_ai=r.is_ai,
        is_winner=r.is_winner,
        self_drawn=r.self_drawn,
        dealt_in=r.dealt_in,
        fan=r.fan,
        hand_id=r.hand_id,
        table_id=r.table_id,
        guild_id=r.guild_id,
        variant=r.variant,
        created_at=r.created_at,
    )


def _hand_record(
    r: Any, actions: Sequence[str] = (), settlements: Sequence[SettlementRecord] = ()
) -> HandRecord:
    return HandRecord(
        id=r.id,
        table_id=r.table_id,
        hand_no=r.hand_no,
        seed=r.seed,
        variant=r.variant,
        options=dict(r.options or {}),
        dealer=r.dealer,
        seats=tuple(r.seats or ()),
        status=r.status,
        result=None if r.result is None else dict(r.result),
        context=dict(getattr(r, "context", None) or {}),
        started_at=r.started_at,
        ended_at=r.ended_at,
        actions=tuple(actions),
        settlements=tuple(settlements),
    )
