"""Ratings per player, game and guild: what a rated unit is, who is rated, and how ratings move.

**A rated unit** is a run of settled hands of one table with the same players in the same
seats:

* at a table playing a match (``match_hands`` 1–100): the whole match, rated when its last
  hand is settled — provided no seat changed player during it (a match whose players changed
  is not rated: its totals are not one contest);
* at an open-ended table (``match_hands`` 0, the default): every :data:`BLOCK_HANDS` hands
  with the same players, rated when the last of them is settled.  Four hands is a round of
  dealers at four seats (two at two), the shortest stretch in which luck of the deal evens out
  somewhat; a block starts again whenever a seat changes player, and hands that never make a
  block (a table ended early) are not rated.

**Who is rated**: the human players of the unit (AI seats never are, a player on 托管 is),
placed among themselves by the unit's points summed (equal points share a place); a unit
with fewer than two human players is not rated.  So an AI seat's points count only through
the humans' order, a table with fewer seats than the game's usual is rated like any other,
and a practice table against AI alone is not rated.

**段位** move with the same places, by the ladder of ``data/ranks/dan.json`` for the number
of rated players (``service/dan.py``).

**How ratings move**: Weng–Lin's Bayesian rating with the Plackett–Luce model (the
``openskill`` library, pinned in ``requirements.txt``), every player a team of one, its
defaults (a new player 25 ± 25/3, β 25/6, τ 25/300).  Ratings are written in the transaction
that settles the unit's last hand (``Store.finish_hand`` ``rate=``); :func:`rebuild` rates
the stored history in the same order when the ratings are empty (a database from before
ratings), equal to rating it live.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional, Sequence

from openskill.models import PlackettLuce

from store import Rated, Rating, SettledHand, Unit

from . import dan

log = logging.getLogger(__name__)

#: hands of an open-ended table rated together
BLOCK_HANDS = 4
MODEL = PlackettLuce()
#: a new player's rating: ``(mu, sigma)``
START = (MODEL.mu, MODEL.sigma)


def _players(hand: SettledHand) -> tuple:
    """Who sat where: the seats' players (``None`` for an AI seat or a seat without one)."""
    return tuple(None if is_ai else user for _, user, is_ai, _ in hand.seats)


def places(hands: Sequence[SettledHand]) -> tuple[tuple[int, int, int], ...]:
    """``((user_id, place, points), …)`` of the human players of ``hands`` (the same players
    in each), by the points summed: place 1 the most, equal points the same place."""
    totals: dict[int, int] = {}
    for hand in hands:
        for _, user, is_ai, points in hand.seats:
            if user is not None and not is_ai:
                totals[user] = totals.get(user, 0) + points
    return tuple((u, 1 + sum(1 for p in totals.values() if p > pts), pts) for u, pts in sorted(totals.items()))


def decider(match_hands: int) -> Callable[[Sequence[SettledHand], bool], Optional[Unit]]:
    """The unit rule of a table playing ``match_hands`` hands (0: open-ended), as
    ``decide(hands since the last unit, match_end) -> Unit | None`` (see the module
    docstring)."""

    def decide(hands: Sequence[SettledHand], match_end: bool) -> Optional[Unit]:
        if not hands:
            return None
        seated = _players(hands[-1])
        if match_hands:
            if not match_end or any(_players(h) != seated for h in hands):
                return None
            run, kind = list(hands), "match"
        else:
            run = []
            for h in hands:  # the trailing run with today's players; a change starts it again
                run = run + [h] if _players(h) == seated else []
            if len(run) < BLOCK_HANDS:
                return None
            run, kind = run[-BLOCK_HANDS:], "block"
        ranked = places(run)
        if len(ranked) < 2:
            return None
        return Unit(kind, run[0].hand_id, run[-1].hand_id, len(run), ranked)

    return decide


def rate(current: dict, ranked: Sequence[tuple[int, int, int]]) -> dict[int, Rated]:
    """The players' ratings and 段位 after a unit: ``current`` ``{user_id: Rating or None}``
    (``None``: a new player), ``ranked`` ``((user_id, place, points), …)``; returns
    ``{user_id: Rated}`` (the 段位 moved by ``service.dan.after``, players sharing a place
    sharing its points)."""
    users = [u for u, _, _ in ranked]
    before = {u: ((current[u].mu, current[u].sigma) if current.get(u) else START) for u in users}
    teams = [[MODEL.rating(mu=before[u][0], sigma=before[u][1])] for u in users]
    after = MODEL.rate(teams, ranks=[place for _, place, _ in ranked])
    n = len(ranked)
    out = {}
    for (u, place, _), team in zip(ranked, after, strict=True):
        r = current.get(u)
        tied = sum(1 for _, p, _ in ranked if p == place)
        rank = dan.after(dan.State(r.dan_rank, r.dan_points) if r else dan.initial(), place, n, tied=tied)
        out[u] = Rated(before[u][0], before[u][1], team[0].mu, team[0].sigma, rank.rank, rank.points)
    return out


def for_table(match_hands: int) -> tuple[Callable[[Sequence[SettledHand], bool], Optional[Unit]],
                                         Callable[[dict, Sequence[tuple[int, int, int]]], dict]]:
    """``(decide, rate)`` for ``Store.finish_hand(rate=…)`` at a table playing
    ``match_hands`` hands."""
    return decider(match_hands), rate


def replay(source: Sequence[tuple[int, int, str, int, list[SettledHand]]]
           ) -> list[tuple[int, int, str, Unit, dict, dict]]:
    """The units of a stored history and their ratings, rated in the order their last hands
    ended (then by hand id), as live rating would have rated them.  ``source``:
    ``Store.rebuild_source()``'s tables.  Returns what ``Store.replace_all_ratings`` takes."""
    found = []
    for table_id, guild_id, variant, match_hands, hands in source:
        decide = decider(match_hands)
        since = 0
        for i, hand in enumerate(hands):
            unit = decide(hands[since:i + 1], bool(match_hands) and i + 1 == match_hands)
            if unit is not None:
                found.append((hand.ended_at, hand.hand_id, table_id, guild_id, variant, unit))
                since = i + 1
    found.sort(key=lambda f: (f[0], f[1]))
    ratings: dict[tuple[int, str, int], Rating] = {}
    out = []
    for _, _, table_id, guild_id, variant, unit in found:
        users = [u for u, _, _ in unit.places]
        stored = {u: ratings[(guild_id, variant, u)] for u in users if (guild_id, variant, u) in ratings}
        new = rate(stored, unit.places)
        out.append((table_id, guild_id, variant, unit, stored, new))
        for u in users:
            old, r = stored.get(u), new[u]
            ratings[(guild_id, variant, u)] = Rating(u, r.mu, r.sigma, (old.units if old else 0) + 1,
                                                     r.dan_rank, r.dan_points)
    return out


async def rebuild(store: Any, force: bool = False) -> int:
    """Rate the stored history when no rating is stored yet (``force``: again, from scratch):
    the units in the order their last hands ended, written in one transaction.  Returns the
    number of units rated (0 when there were ratings already)."""
    if not force and await store.count_ratings():
        return 0
    units = replay(await store.rebuild_source())
    if units:
        await store.replace_all_ratings(units)
        log.info("ratings rebuilt from the stored hands: %d rated units", len(units))
    return len(units)


__all__ = ["BLOCK_HANDS", "MODEL", "START", "decider", "for_table", "places", "rate", "rebuild", "replay"]
