"""Scores, statistics, history, replays and the fairness check of a server — the use cases
behind the records commands, read from the stored settlements and action logs (the front ends
never query the store themselves).

Errors for users are :class:`service.tables.ServiceError` with a catalogue code
(``unknown_hand``, ``hand_not_finished``, ``unknown_match``; a re-score's ``rescore.…``,
:mod:`service.rescore`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Optional

from engine.rng import seed_commitment
from engine.variants import find_variant
from store import IMPORTED, HandRecord, HistoryLine, PlayerStats, ScoreLine, Store, TableRecord

from .rescore import Rescore, rescore_record, resolve_preset
from .replays import Decision, Frame, check_seat, decision_at, decisions, frames, seat_names, steps
from .stored_hand import rebuild, wall_digest
from .table import HIDDEN_EVENTS, ServiceError

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
    #: the seat whose view this is (0-based; ``None``: every hand face up)
    seat: Optional[int] = None
    #: the seat's decision the hand waits for at this step (``service.replays.Decision``)
    decision: Optional[Decision] = None
    #: the hand waited for the seat here, but went on before it decided
    went_on: bool = False
    imported: bool = False  #: the hand came from a record file (``/mj record import``)


@dataclass(frozen=True)
class Animation:
    """The frames of an animated hand (``service.replays.Frame``): the public table as the
    channel saw it, or one seat's view; the deal, one frame per move, the result."""

    hand_id: int
    variant: str
    game: Any
    names: list[str]
    frames: list[Frame]
    seat: Optional[int] = None
    imported: bool = False  #: the hand came from a record file (``/mj record import``)

    @property
    def moves(self) -> int:
        """The moves shown: every frame but the deal's."""
        return len(self.frames) - 1


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
    imported: bool = False  #: the hand came from a record file (``/mj record import``)


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

    async def replay(self, guild_id: int, hand_id: int, step: int, seat: Optional[int] = None,
                     user_id: Optional[int] = None) -> Replay:
        """Step ``step`` (clamped to 0..number of actions) of a finished hand; with ``seat``
        (0-based), from that seat's view — anyone's: the hand is over and ``/mj replay`` shows
        it face up, as 天凤 lets anyone watch a 牌谱 from any seat; ``user_id`` is not checked
        (``seatview.no_seat``: :func:`service.replays.check_seat`)."""
        record, table = await finished_hand_at(self.store, guild_id, hand_id)
        imported = IMPORTED in table.state
        total = len(record.actions)
        step = max(0, min(step, total))
        if seat is not None:
            check_seat(record, seat, user_id, own=False)
            return await asyncio.to_thread(self._seat_step, record, step, seat, imported)
        hand = rebuild(record, step)
        # the replay's view: the hand's, every hand face up, with the game and the seats' names
        view: dict[str, Any] = dict(hand.view(None, reveal=True))
        info = find_variant(record.variant)
        view["game"] = info.facts
        names = [s.get("name", "?") for s in record.seats]
        view["seats"] = [dict(sv, name=names[sv["seat"]]) for sv in view["seats"]]
        events = [e.to_json() for e in hand.events if e.type not in HIDDEN_EVENTS]
        return Replay(hand_id, record.variant, step, total, view, names, events[-6:] if step else events, info.facts,
                      imported=imported)

    async def hand_variant(self, guild_id: int, hand_id: int) -> Optional[str]:
        """The game of a finished hand of this server (for suggestions), ``None`` when there is
        no such hand here."""
        try:
            return (await self.finished(guild_id, hand_id)).variant
        except ServiceError:
            return None

    async def rescore(self, guild_id: int, hand_id: int, options: dict | None = None,
                      preset: Optional[str] = None, server_presets: dict | None = None) -> Rescore:
        """A finished hand of this server as played and under other values of its game's
        score-only options: ``preset`` (the server's ``server_presets``, else a shipped one)
        laid over the hand's options, then ``options`` (``{name: value or text}``).  Errors:
        ``unknown_hand``, ``hand_not_finished``, ``unknown_preset``, ``preset_other_variant``,
        ``option_unknown``, ``option_bad_value`` and :mod:`service.rescore`'s."""
        record, table = await finished_hand_at(self.store, guild_id, hand_id)
        chosen = resolve_preset(record.variant, preset, server_presets or {})
        done = rescore_record(record, dict(options or {}), chosen, preset)
        return replace(done, imported=IMPORTED in table.state)

    @staticmethod
    def _seat_step(record: HandRecord, step: int, seat: int, imported: bool) -> Replay:
        last = None
        for last in steps(record, seat, upto=step):
            pass
        assert last is not None and last.seat is not None
        info = find_variant(record.variant)
        view = dict(last.seat, game=info.facts)
        decision = decision_at(decisions(record, seat), step, last.waiting)
        events = list(view.get("recent") or ())[-6:]
        return Replay(record.id, record.variant, step, len(record.actions), view, seat_names(record), events,
                      info.facts, seat=seat, decision=decision, went_on=last.waiting and decision is None,
                      imported=imported)

    async def may_view(self, guild_id: int, hand_id: int, seat: Optional[int], user_id: Optional[int]) -> None:
        """Refuse what :meth:`animation` would refuse (an unknown or unfinished hand, a seat's
        view for another than its player), without building anything (before the answer is
        deferred)."""
        record = await self.finished(guild_id, hand_id)
        if seat is not None:
            check_seat(record, seat, user_id)

    async def animation(self, guild_id: int, hand_id: int, seat: Optional[int] = None,
                        user_id: Optional[int] = None) -> Animation:
        """The frames of a finished hand's animation (:class:`Animation`; built in a worker
        thread): the public table, or with ``seat`` that seat's view, for its player
        ``user_id`` only (errors as :meth:`replay`'s)."""
        record, table = await finished_hand_at(self.store, guild_id, hand_id)
        if seat is not None:
            check_seat(record, seat, user_id)
        found = await asyncio.to_thread(frames, record, seat)
        info = find_variant(record.variant)
        return Animation(record.id, record.variant, info.facts, seat_names(record), found, seat,
                         imported=IMPORTED in table.state)

    async def verify(self, guild_id: int, hand_id: int) -> Verification:
        """Rebuild a finished hand's wall from its revealed seed and replay its actions."""
        record, table = await finished_hand_at(self.store, guild_id, hand_id)
        n, digest = wall_digest(rebuild(record, 0))
        final = rebuild(record)
        same = final.result is not None and list(final.result["points"]) == list((record.result or {}).get("points", []))
        return Verification(hand_id, record.seed, seed_commitment(record.seed), n, digest, len(record.actions), same,
                            imported=IMPORTED in table.state)


__all__ = ["Animation", "Records", "Replay", "Verification", "Rescore", "PERIODS", "finished_hand", "finished_hand_at",
           "period_start", "rebuild", "wall_digest"]
