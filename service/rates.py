"""The rates players compare (和了率, 放铳率, 自摸率, 副露率, 流局率, the average win and
deal-in values, a game's own count per win and special hands, and the placement rates), per
player, game and server over a period — as ``docs/rates.md`` defines them.

:func:`hand_tallies` counts one finished hand for each of its human players (the store adds
that ``PlayerTally`` to the player's tally of the day as the hand is settled);
:func:`rates_of` turns a player's summed tally and placements into the rates.
:func:`player_rates` (the same counted over a list of stored hands) and
:func:`placement_rates` are pure.  :class:`RateBook` reads a player's tally from the store;
:func:`rebuild_tallies` fills the tallies from the stored hands once (a history settled before
they were kept), a hand's claims read from its result or, for an older hand, from replaying
its action log (:func:`claims_of`).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone
from typing import Any, Iterable, Mapping, Optional, Sequence

from store import HandRecord, PlayerTally, SettlementRecord, Store

from .claims import claiming_seats
from .records import period_start
from .stored_hand import rebuild

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rate:
    """``count / of`` (``value``: ``None`` when ``of`` is 0)."""

    count: int
    of: int
    value: Optional[float] = field(init=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", self.count / self.of if self.of else None)


@dataclass(frozen=True)
class Mean:
    """``total / of``: a sum over ``of`` cases and its mean (``value``: ``None`` when ``of``
    is 0)."""

    total: int
    of: int
    value: Optional[float] = field(init=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", self.total / self.of if self.of else None)


@dataclass(frozen=True)
class Placements:
    """The placement rates over a player's rated units (a match or a block of hands).

    :ivar units: the units counted.
    :ivar average: 平均顺位: the sum of the player's places over ``units`` (1 = first).
    :ivar first: 一位率: units the player finished first in, over ``units``.
    :ivar distribution: the share of each place: ``distribution[i]`` counts place ``i + 1``
        over ``units`` (as many places as the largest unit had players; ``()`` with no unit).
    """

    units: int = 0
    average: Mean = Mean(0, 0)
    first: Rate = Rate(0, 0)
    distribution: tuple[Rate, ...] = ()


@dataclass(frozen=True)
class PlayerRates:
    """A player's rates in one game and server over a period (``docs/rates.md``).

    Counts are of hands the player played as a human seat (settlement rows with the player's
    user id and ``is_ai`` false); points are the game's own unit.

    :ivar hands: hands played.
    :ivar wins: 和了率: hands won / hands.
    :ivar deal_ins: 放铳率: hands dealt in (the player's discard, or robbed kong, won on) / hands.
    :ivar self_drawn: 自摸率: self-drawn wins / wins.
    :ivar calls: 副露率: hands with at least one claim of another seat's tile / hands;
        ``None`` for a game without claims.
    :ivar draws: 流局率: hands ended in an exhaustive draw / hands.
    :ivar win_value: points gained in the hands won (sum) / wins.
    :ivar deal_in_value: points lost in the hands dealt in (sum, as a positive number) / deal-ins.
    :ivar count_name: the name of the game's count of a winning hand (its result's ``count``:
        ``huxi`` 胡息, ``dui`` 对, ``hu`` 胡), ``None`` when no counted win had one.
    :ivar count_per_win: that count summed over the wins that had one / those wins.
    :ivar specials: ``((special hand id, times), …)`` over the player's wins, by id (the
        results' ``specials``; 财神麻将's special hands), ``()`` in a game without them.
    :ivar placements: the placement rates of the units given (:func:`placement_rates`).
    """

    user_id: int
    variant: Optional[str]
    since: Optional[datetime]
    hands: int
    wins: Rate
    deal_ins: Rate
    self_drawn: Rate
    calls: Optional[Rate]
    draws: Rate
    win_value: Mean
    deal_in_value: Mean
    count_name: Optional[str]
    count_per_win: Mean
    specials: tuple[tuple[str, int], ...]
    placements: Placements


def placement_rates(units: Iterable[tuple[int, int]]) -> Placements:
    """The placement rates of a player's rated units.

    :param units: ``(place, players)`` per unit: the player's place (1 = first) among
        ``players``.
    :raises ValueError: a place outside ``1..players``.
    """
    return counted_placements((place, players, n) for (place, players), n in Counter(units).items())


def counted_placements(counts: Iterable[tuple[int, int, int]]) -> Placements:
    """:func:`placement_rates` of units given counted: ``(place, players, units)`` (as
    ``Store.placement_counts`` gives them).

    :raises ValueError: a place outside ``1..players``.
    """
    by_place: Counter[int] = Counter()
    most = 0
    for place, players, k in counts:
        if not 1 <= place <= players:
            raise ValueError(f"place {place} of {players} players")
        by_place[place] += k
        most = max(most, players)
    n = sum(by_place.values())
    return Placements(units=n, average=Mean(sum(p * k for p, k in by_place.items()), n), first=Rate(by_place[1], n),
                      distribution=tuple(Rate(by_place[p], n) for p in range(1, most + 1)))


def claims_of(record: HandRecord) -> frozenset[int]:
    """:func:`claiming_seats` of a stored hand, rebuilt from its action log (``record.actions``)."""
    return claiming_seats(rebuild(record))


def _win_count(result: Mapping[str, Any], seat: int) -> Optional[Mapping[str, Any]]:
    """The seat's count of its winning hand: its ``count_by_seat`` entry, else the result's
    ``count`` when the seat is the (first) winner."""
    own = (result.get("count_by_seat") or {}).get(str(seat))
    if own is None and result.get("winner") == seat:
        own = result.get("count")
    return own


def hand_tallies(result: Mapping[str, Any], settlements: Sequence[SettlementRecord],
                 claimed: Optional[frozenset[int]]) -> dict[int, PlayerTally]:
    """Each human player's counts in one finished hand (``docs/rates.md``).

    :param result: the hand's result (``draw``, ``winner``, ``count``, ``count_by_seat``,
        ``specials`` are read).
    :param settlements: the hand's settlement rows; those of AI seats (``is_ai``) or without a
        user count for nobody.
    :param claimed: the seats that made a claim in the hand (:func:`claiming_seats`); ``None``
        for a game without claims.
    :returns: ``{user_id: PlayerTally}`` (a player holding two seats: their sum).
    """
    out: dict[int, PlayerTally] = {}
    draw = int(bool(result.get("draw")))
    for s in settlements:
        if s.user_id is None or s.is_ai:
            continue
        won = bool(s.is_winner)
        count = _win_count(result, s.seat) if won else None
        specials: tuple[tuple[str, int], ...] = ()
        if won and result.get("winner") == s.seat:
            specials = tuple(sorted(Counter(result.get("specials") or ()).items()))
        t = PlayerTally(hands=1, wins=int(won), deal_ins=int(bool(s.dealt_in)), self_drawn=int(won and bool(s.self_drawn)),
                        calls=int(claimed is not None and s.seat in claimed), draws=draw, points=s.points,
                        win_points=s.points if won else 0, deal_in_points=-s.points if s.dealt_in else 0,
                        counted=int(count is not None), count_sum=int(count["value"]) if count is not None else 0,
                        count_name=count.get("name") if count is not None else None, specials=specials)
        out[s.user_id] = out[s.user_id] + t if s.user_id in out else t
    return out


def rates_of(tally: PlayerTally, user_id: int, *, has_claims: bool = True, placements: Placements = Placements(),
             variant: Optional[str] = None, since: Optional[datetime] = None) -> PlayerRates:
    """A player's rates from their summed :class:`PlayerTally` and :class:`Placements`
    (``has_claims`` false: ``calls`` is ``None``)."""
    t = tally
    return PlayerRates(
        user_id=user_id, variant=variant, since=since, hands=t.hands, wins=Rate(t.wins, t.hands),
        deal_ins=Rate(t.deal_ins, t.hands), self_drawn=Rate(t.self_drawn, t.wins),
        calls=Rate(t.calls, t.hands) if has_claims else None, draws=Rate(t.draws, t.hands),
        win_value=Mean(t.win_points, t.wins), deal_in_value=Mean(t.deal_in_points, t.deal_ins),
        count_name=t.count_name, count_per_win=Mean(t.count_sum, t.counted), specials=t.specials,
        placements=placements)


def player_rates(hands: Iterable[HandRecord], user_id: int, *, claims: Optional[Mapping[int, frozenset[int]]],
                 placements: Iterable[tuple[int, int]] = (), variant: Optional[str] = None,
                 since: Optional[datetime] = None) -> PlayerRates:
    """A player's rates counted from the hands the player played (:func:`hand_tallies` summed).

    :param hands: finished hands (``HandRecord``, as ``Store.rate_hands`` gives them: the
        result, and the player's settlements); each of the player's human settlements counts one
        hand played.
    :param user_id: the player.
    :param claims: ``{hand id: seats that made a claim}`` (:func:`claims_of`) for every hand;
        ``None`` for a game without claims (``calls`` is then ``None``).
    :param placements: ``(place, players)`` per rated unit (:func:`placement_rates`).
    :param variant, since: what was counted, carried into the result.
    :raises KeyError: a hand missing from ``claims``.
    """
    total = PlayerTally()
    for hand in hands:
        claimed = None if claims is None else claims[hand.id]
        own = hand_tallies(hand.result or {}, hand.settlements, claimed).get(user_id)
        total = total + own if own is not None else total
    return rates_of(total, user_id, has_claims=claims is not None, placements=placement_rates(placements),
                    variant=variant, since=since)


async def claims_for(store: Store, hands: Sequence[HandRecord]) -> dict[int, frozenset[int]]:
    """``{hand id: seats that made a claim}`` of stored hands: the result's ``claimed_by``
    (stored with the settlement), else — a hand settled before it was — rebuilt from the hand's
    action log (one read for all of them; a log that does not replay counts no claim, and is
    logged)."""
    out: dict[int, frozenset[int]] = {}
    for h in hands:
        stored = (h.result or {}).get("claimed_by")
        if isinstance(stored, list):
            out[h.id] = frozenset(int(x) for x in stored)
    missing = [h for h in hands if h.id not in out]
    if missing:
        logs = await store.hand_actions(h.id for h in missing)
        for h in missing:
            try:
                out[h.id] = claims_of(replace(h, actions=logs[h.id]))
            except Exception:  # a log the rules refuse (kept as it was played) must not stop a start
                log.warning("hand %s: its action log does not replay; counted without claims", h.id, exc_info=True)
                out[h.id] = frozenset()
    return out


async def rebuild_tallies(store: Store, page: int = 2000) -> int:
    """Fill the tallies from every stored hand when there are none but human hands are stored
    (a history settled before the tallies were kept, or the first start after migration
    ``0015_player_tally``), in one transaction; the same sums the settlements would have
    added.  Returns the tally rows written (0: nothing to do)."""
    if await store.count_tallies() or not await store.has_human_settlements():
        return 0
    sums: dict[tuple[int, int, str, date], PlayerTally] = {}
    after = 0
    while hands := await store.human_hands(after, page):
        claims = await claims_for(store, hands)
        for h in hands:
            first = h.settlements[0]
            assert first.guild_id is not None and first.created_at is not None
            day = first.created_at.astimezone(timezone.utc).date()
            for user, t in hand_tallies(h.result or {}, h.settlements, claims[h.id]).items():
                key = (first.guild_id, user, h.variant, day)
                sums[key] = sums[key] + t if key in sums else t
        after = hands[-1].id
    await store.replace_all_tallies([(*k, t) for k, t in sorted(sums.items(), key=lambda kv: kv[0])])
    return len(sums)


class RateBook:
    """A player's rates read from the store: their tally (summed per day as hands are
    settled) and the placements given."""

    def __init__(self, store: Store):
        self.store = store

    async def player_rates(self, guild_id: int, user_id: int, variant: str, period: str = "all",
                           placements: Placements = Placements(), *, has_claims: bool = True,
                           now: Optional[datetime] = None) -> PlayerRates:
        """A player's rates in one game of a server, for ``period`` (``service.records.PERIODS``:
        all time, this month, this week; ``now`` for the period's start, default the time now).

        :param placements: the player's rated units in that game and period
            (:func:`counted_placements`).
        :param has_claims: the game lets a seat take another's tile (``False``: ``calls`` is
            ``None``; every game the bot has now has claims).
        """
        since = period_start(period, now)
        tally = await self.store.tally(guild_id, user_id, variant, since)
        return rates_of(tally, user_id, has_claims=has_claims, placements=placements, variant=variant, since=since)


__all__ = ["Rate", "Mean", "Placements", "PlayerRates", "RateBook", "claiming_seats", "claims_for",
           "claims_of", "counted_placements", "hand_tallies", "placement_rates", "player_rates", "rates_of",
           "rebuild_tallies"]
