"""Scores, statistics, history, replays and the fairness check of a server — the use cases
behind the records commands, read from the stored settlements and action logs (the front ends
never query the store themselves).

Errors for users are :class:`service.tables.ServiceError` with a catalogue code
(``unknown_hand``, ``hand_not_finished``, ``unknown_match``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Optional

from engine.actions import Action
from engine.rng import seed_commitment
from engine.tiles import kind_of, kinds_str
from engine.protocol import Hand
from engine.variants import find_variant
from store import IMPORTED, HandRecord, HistoryLine, PlayerStats, ScoreLine, Store, TableRecord

from .tables import HIDDEN_EVENTS, ServiceError

PERIODS = ("all", "month", "week")


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """Start of ``"month"`` / ``"week"`` (Monday) in UTC, ``None`` for all time."""
    now = now or datetime.now(timezone.utc)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "month":
        return day.replace(day=1)
    if period == "week":
        return day - timedelta(days=day.weekday())
    return None


def rebuild(record: HandRecord, upto: int | None = None) -> Hand:
    """The hand of a stored record (``HandRecord``) after its first ``upto`` actions (all when
    ``None``), dealt from its own seed, dealer and context."""
    info = find_variant(record.variant)
    context = dict(getattr(record, "context", None) or {})
    hand = info.new_hand(record.options, record.seed, record.dealer, len(record.seats), context)
    for line in record.actions[:upto]:
        hand.apply(Action.parse(line))
    return hand


def wall_digest(hand: Hand) -> tuple[int, str]:
    """Number of tiles and SHA-256 of the wall order a hand was dealt from."""
    wall = getattr(hand, "wall", None) or getattr(hand, "stock", None) or []
    text = kinds_str(kind_of(x) for x in wall)
    return len(wall), hashlib.sha256(text.encode()).hexdigest()


async def finished_hand(store: Store, guild_id: int, hand_id: int) -> HandRecord:
    """A finished hand of this server with its actions (``HandRecord``).

    :raises ServiceError: ``unknown_hand`` (another server's, or none), ``hand_not_finished``."""
    return (await finished_hand_at(store, guild_id, hand_id))[0]


async def finished_hand_at(store: Store, guild_id: int, hand_id: int) -> tuple[HandRecord, TableRecord]:
    """:func:`finished_hand` and its table (``TableRecord``: an imported hand's table says so
    in its state, ``store.IMPORTED``)."""
    try:
        record = await store.get_hand(hand_id)
    except LookupError:
        raise ServiceError("unknown_hand", hand=hand_id) from None
    table = await store.get_table(record.table_id)
    if table.guild_id != guild_id:
        raise ServiceError("unknown_hand", hand=hand_id)
    if record.status != "done":
        raise ServiceError("hand_not_finished", hand=hand_id)
    return record, table


@dataclass(frozen=True)
class Replay:
    """One step of a replay: the hand's view with every hand face up (``reveal=True``) and the
    seats' names merged in, the recent public events, and where the step is."""

    hand_id: int
    variant: str
    step: int
    total: int
    view: dict
    names: list[str]
    events: list[dict]
    game: Any = None  #: the game's facts (``engine.facts.GameFacts``), also ``view["game"]``
    imported: bool = False  #: the hand came from a record file (``/mj record import``)


@dataclass(frozen=True)
class Verification:
    """``/verify``: the revealed seed, its commitment, the wall rebuilt from it and whether
    replaying the stored actions gives the stored result."""

    hand_id: int
    seed: int
    commitment: str
    tiles: int
    wall_sha256: str
    actions: int
    same_result: bool


class Records:
    """The records of every server, read through the store; the ended matches and their
    standings are :class:`service.matches.MatchRecords`'s."""

    def __init__(self, store: Store):
        self.store = store

    async def stats(self, guild_id: int, user_id: int, variant: Optional[str] = None) -> PlayerStats:
        """A player's totals and statistics in a server (``PlayerStats``)."""
        return await self.store.stats(guild_id, user_id, variant)

    async def leaderboard(self, guild_id: int, variant: Optional[str] = None, period: str = "all",
                          limit: int = 10) -> list[ScoreLine]:
        """The best players of a server (``ScoreLine``s), for all time, this month or week."""
        return await self.store.leaderboard(guild_id, variant, limit=limit, since=period_start(period))

    async def history(self, guild_id: int, user_id: int, variant: Optional[str] = None,
                      limit: int = 10) -> list[HistoryLine]:
        """A player's last hands (``HistoryLine``s), newest first."""
        return await self.store.history(guild_id, user_id, limit=limit, variant=variant)

    async def finished_hands(self, guild_id: int, limit: int = 25) -> list[HandRecord]:
        """The server's latest finished hands (``HandRecord``s, no actions)."""
        return await self.store.finished_hands(guild_id, limit=limit)

    async def finished(self, guild_id: int, hand_id: int) -> HandRecord:
        """A finished hand of this server with its actions; ``unknown_hand`` (another server's
        or none) or ``hand_not_finished``."""
        return await finished_hand(self.store, guild_id, hand_id)

    async def replay(self, guild_id: int, hand_id: int, step: int) -> Replay:
        """Step ``step`` (clamped to 0..number of actions) of a finished hand."""
        record, table = await finished_hand_at(self.store, guild_id, hand_id)
        total = len(record.actions)
        step = max(0, min(step, total))
        hand = rebuild(record, step)
        # the replay's view: the hand's, every hand face up, with the game and the seats' names
        view: dict[str, Any] = dict(hand.view(None, reveal=True))
        info = find_variant(record.variant)
        view["game"] = info.facts
        names = [s.get("name", "?") for s in record.seats]
        view["seats"] = [dict(sv, name=names[sv["seat"]]) for sv in view["seats"]]
        events = [e.to_json() for e in hand.events if e.type not in HIDDEN_EVENTS]
        return Replay(hand_id, record.variant, step, total, view, names, events[-6:] if step else events, info.facts,
                      IMPORTED in table.state)

    async def verify(self, guild_id: int, hand_id: int) -> Verification:
        """Rebuild a finished hand's wall from its revealed seed and replay its actions."""
        record = await self.finished(guild_id, hand_id)
        n, digest = wall_digest(rebuild(record, 0))
        final = rebuild(record)
        same = final.result is not None and list(final.result["points"]) == list((record.result or {}).get("points", []))
        return Verification(hand_id, record.seed, seed_commitment(record.seed), n, digest, len(record.actions), same)


__all__ = ["Records", "Replay", "Verification", "PERIODS", "finished_hand", "finished_hand_at", "period_start", "rebuild", "wall_digest"]
