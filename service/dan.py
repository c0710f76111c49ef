"""The 段位 (rank) ladder: a player's rank in one game on one server, moved by the places they
take in rated units, in the manner of 天凤 (Tenhou) and 雀魂 (Mahjong Soul).

Pure: no Discord, no database, no clock.  The ladder is the table in ``data/ranks/dan.json``
(its README gives the ranks, the points and why); :func:`load` reads it, :func:`initial` and
:func:`after` walk a player along it.  The words (rank names, progress) are
``render.text.dan``'s.

A player's :class:`State` is ``(rank, points)``: the index of their rank in the table (0 =
新人) and their 昇段 points on it.  One rated unit (a finished match, or a block of hands at
an open-ended table) with ``players`` rated players (2, 3 or 4) moves it by the points of the
place taken (:func:`place_points`), then:

* **promotion**: points reaching the rank's ``promote`` threshold → the next rank, with that
  rank's ``start`` points (what is over the threshold is not carried, as on 天凤);
* **demotion**: points below 0 on an unprotected rank → the rank below, with its ``start``
  points; on a protected rank (the 级 and 初段: 天凤 never demotes below 初段) the points stop
  at 0 instead;
* the top rank has no threshold: its points keep growing.

**Ties**: players sharing a place share the points of the places they cover, each getting
their mean rounded to a whole point (a half toward zero): two tied for 1st of four at 初段 get
(40 + 10) / 2 = 25 each.

A state is a pure function of the units' places in order, so a store may keep it or rebuild it
from the units (for instance when the table's ``version`` changes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Optional

#: the shipped ladder table
LADDER_FILE = Path(__file__).resolve().parents[1] / "data" / "ranks" / "dan.json"


@dataclass(frozen=True)
class Rank:
    """One rung: ``id`` (its catalogue key, ``dan.rank.<id>``), ``promote`` (the points that
    promote, ``None`` on the top rank), ``start`` (the points on reaching it, up or down),
    ``protected`` (never demoted from) and ``places`` (seat count → the points of each place,
    1st first)."""

    id: str
    promote: Optional[int]
    start: int
    protected: bool
    places: dict[int, tuple[int, ...]]


@dataclass(frozen=True)
class Ladder:
    """The ranks in order, lowest first; ``seats``: the unit sizes (rated players) it rates;
    ``version``: the table's version."""

    version: int
    seats: tuple[int, ...]
    ranks: tuple[Rank, ...]

    @property
    def top(self) -> int:
        """The index of the highest rank."""
        return len(self.ranks) - 1


@dataclass(frozen=True)
class State:
    """A player's standing: ``rank`` (index into :attr:`Ladder.ranks`, 0 = the lowest) and
    ``points`` (昇段 pt on it, ≥ 0 once settled)."""

    rank: int = 0
    points: int = 0


def parse(doc: dict) -> Ladder:
    """The :class:`Ladder` of a table document (``dan.json``'s shape); raises ``ValueError``
    when it is not a ladder: no ranks, a rank's places missing a seat count or of the wrong
    length, a non-positive threshold, a start outside ``0 .. threshold``, a top rank with a
    threshold or a lower rank without one."""
    seats = tuple(int(s) for s in doc["seats"])
    ranks = tuple(Rank(str(r["id"]), r["promote"], int(r["start"]), bool(r["protected"]),
                       {int(n): tuple(int(p) for p in pts) for n, pts in r["places"].items()})
                  for r in doc["ranks"])
    if not ranks or not seats:
        raise ValueError("a ladder needs ranks and seat counts")
    for i, r in enumerate(ranks):
        if sorted(r.places) != sorted(seats) or any(len(r.places[n]) != n for n in seats):
            raise ValueError(f"rank {r.id}: places for {sorted(seats)} players, one value per place")
        if (r.promote is None) != (i == len(ranks) - 1):
            raise ValueError(f"rank {r.id}: every rank but the top one has a threshold")
        if r.promote is not None and (r.promote <= 0 or not 0 <= r.start < r.promote):
            raise ValueError(f"rank {r.id}: threshold > start >= 0")
    if len({r.id for r in ranks}) != len(ranks):
        raise ValueError("rank ids repeat")
    return Ladder(int(doc["version"]), seats, ranks)


@lru_cache(maxsize=None)
def load(path: Path = LADDER_FILE) -> Ladder:
    """The ladder in ``path`` (default: the shipped ``data/ranks/dan.json``), read once."""
    return parse(json.loads(Path(path).read_text(encoding="utf-8")))


def initial() -> State:
    """A player who has played no rated unit: the lowest rank (新人), 0 points."""
    return State(0, 0)


def _check(ladder: Ladder, rank: int, place: int, players: int, tied: int) -> None:
    if not 0 <= rank < len(ladder.ranks):
        raise ValueError(f"no rank {rank}: 0 .. {ladder.top}")
    if players not in ladder.seats:
        raise ValueError(f"{players} players: the ladder rates {', '.join(map(str, ladder.seats))}")
    if tied < 1 or not 1 <= place <= players - tied + 1:
        raise ValueError(f"place {place} shared by {tied} of {players} players")


def place_points(rank: int, place: int, players: int, *, tied: int = 1, ladder: Optional[Ladder] = None) -> int:
    """The points a player of rank index ``rank`` gets for ``place`` (1 = first) among
    ``players`` rated players, sharing it with ``tied - 1`` others (``tied`` players hold places
    ``place .. place + tied - 1``: each gets their mean, a half rounded toward zero).  Raises
    ``ValueError`` for a rank, seat count or place the ladder does not have."""
    ladder = ladder or load()
    _check(ladder, rank, place, players, tied)
    row = ladder.ranks[rank].places[players]
    mean = Fraction(sum(row[place - 1:place - 1 + tied]), tied)
    whole = int(mean)  # toward zero
    if abs(mean - whole) > Fraction(1, 2):
        whole += 1 if mean > 0 else -1
    return whole


def after(state: State, place: int, players: int, *, tied: int = 1, ladder: Optional[Ladder] = None) -> State:
    """The state after one rated unit: ``state`` moved by :func:`place_points`, then promoted
    (points ≥ the threshold → the next rank at its start points), demoted (points < 0 on an
    unprotected rank → the rank below at its start points) or held at 0 (a protected rank).
    Raises ``ValueError`` as :func:`place_points` does."""
    ladder = ladder or load()
    points = state.points + place_points(state.rank, place, players, tied=tied, ladder=ladder)
    rank = ladder.ranks[state.rank]
    if rank.promote is not None and points >= rank.promote:
        return State(state.rank + 1, ladder.ranks[state.rank + 1].start)
    if points < 0:
        if rank.protected or state.rank == 0:
            return State(state.rank, 0)
        return State(state.rank - 1, ladder.ranks[state.rank - 1].start)
    return State(state.rank, points)


def walk(places: list[tuple[int, int]], state: Optional[State] = None, *, ladder: Optional[Ladder] = None) -> State:
    """The state after the units ``[(place, players)]`` in order, from ``state`` (default:
    :func:`initial`); no ties (use :func:`after` for those)."""
    state = state or initial()
    for place, players in places:
        state = after(state, place, players, ladder=ladder)
    return state
