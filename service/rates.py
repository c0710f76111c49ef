"""The rates players compare (和了率, 放铳率, 自摸率, 副露率, 流局率, the average win and
deal-in values, a game's own count per win and special hands, and the placement rates), per
player, game and server over a period — as ``docs/rates.md`` defines them.

:func:`player_rates` and :func:`placement_rates` are pure: they count what they are given (the
player's stored hands, the seats that made a claim in each, the placements of the player's
rated units).  :func:`claiming_seats` finds the claims of a hand rebuilt from its action log.
:class:`RateBook` reads the store and puts them together, with the claims of each hand kept
once worked out (a finished hand never changes).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Iterable, Mapping, Optional

from store import HandRecord, Store

from .claims import WIN_EVENT, claiming_seats
from .records import period_start, rebuild

#: the event type of a win: a win on another seat's tile names that seat too, but is no claim


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
    places: list[int] = []
    most = 0
    for place, players in units:
        if not 1 <= place <= players:
            raise ValueError(f"place {place} of {players} players")
        places.append(place)
        most = max(most, players)
    n = len(places)
    return Placements(units=n, average=Mean(sum(places), n), first=Rate(places.count(1), n),
                      distribution=tuple(Rate(places.count(p), n) for p in range(1, most + 1)))


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


def player_rates(hands: Iterable[HandRecord], user_id: int, *, claims: Optional[Mapping[int, frozenset[int]]],
                 placements: Iterable[tuple[int, int]] = (), variant: Optional[str] = None,
                 since: Optional[datetime] = None) -> PlayerRates:
    """A player's rates from the hands the player played.

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
    n = wins = deal_ins = selfs = calls = draws = win_pts = lost = counted = count_sum = 0
    count_name: Optional[str] = None
    specials: dict[str, int] = {}
    for hand in hands:
        result = hand.result or {}
        for s in hand.settlements:
            if s.user_id != user_id or s.is_ai:
                continue
            n += 1
            draws += bool(result.get("draw"))
            if claims is not None and s.seat in claims[hand.id]:
                calls += 1
            if s.dealt_in:
                deal_ins += 1
                lost -= s.points
            if not s.is_winner:
                continue
            wins += 1
            selfs += bool(s.self_drawn)
            win_pts += s.points
            count = _win_count(result, s.seat)
            if count is not None:
                counted += 1
                count_sum += int(count["value"])
                count_name = count_name or count.get("name")
            if result.get("winner") == s.seat:
                for kind in result.get("specials") or ():
                    specials[kind] = specials.get(kind, 0) + 1
    return PlayerRates(
        user_id=user_id, variant=variant, since=since, hands=n, wins=Rate(wins, n), deal_ins=Rate(deal_ins, n),
        self_drawn=Rate(selfs, wins), calls=None if claims is None else Rate(calls, n), draws=Rate(draws, n),
        win_value=Mean(win_pts, wins), deal_in_value=Mean(lost, deal_ins), count_name=count_name,
        count_per_win=Mean(count_sum, counted), specials=tuple(sorted(specials.items())),
        placements=placement_rates(placements))


class RateBook:
    """A player's rates read from the store (:meth:`player_rates`); the claims of each hand are
    kept once worked out (at most ``keep`` hands, the least recently used forgotten first)."""

    def __init__(self, store: Store, keep: int = 100_000):
        self.store = store
        self.keep = keep
        self._claims: OrderedDict[int, frozenset[int]] = OrderedDict()

    async def claims(self, hands: list[HandRecord]) -> dict[int, frozenset[int]]:
        """``{hand id: seats that made a claim}`` of stored hands: the result's ``claimed_by``
        (stored with the settlement), else — a hand settled before it was — rebuilt from the
        hand's action log (one read for all of them) and kept."""
        for h in hands:  # settled since the claims are stored with the result: read, not replayed
            stored = (h.result or {}).get("claimed_by")
            if h.id not in self._claims and isinstance(stored, list):
                self._claims[h.id] = frozenset(int(x) for x in stored)
        missing = [h for h in hands if h.id not in self._claims]
        if missing:
            logs = await self.store.hand_actions(h.id for h in missing)
            for h in missing:
                self._claims[h.id] = claims_of(replace(h, actions=logs[h.id]))
        out = {}
        for h in hands:
            self._claims.move_to_end(h.id)
            out[h.id] = self._claims[h.id]
        while len(self._claims) > self.keep:
            self._claims.popitem(last=False)
        return out

    async def player_rates(self, guild_id: int, user_id: int, variant: str, period: str = "all",
                           placements: Iterable[tuple[int, int]] = (), *, has_claims: bool = True,
                           now: Optional[datetime] = None) -> PlayerRates:
        """A player's rates in one game of a server, for ``period`` (``service.records.PERIODS``:
        all time, this month, this week; ``now`` for the period's start, default the time now).

        :param placements: ``(place, players)`` of the player's rated units in that game and
            period (the placement rates are counted from them).
        :param has_claims: the game lets a seat take another's tile (``False``: ``calls`` is
            ``None``; every game the bot has now has claims).
        """
        since = period_start(period, now)
        hands = await self.store.rate_hands(guild_id, user_id, variant, since)
        claims = await self.claims(hands) if has_claims else None
        return player_rates(hands, user_id, claims=claims, placements=placements, variant=variant, since=since)


__all__ = ["Rate", "Mean", "Placements", "PlayerRates", "RateBook", "WIN_EVENT", "claiming_seats", "claims_of",
           "placement_rates", "player_rates"]
