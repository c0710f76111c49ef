"""What ``/mj profile`` shows of a player in one game of a server (:class:`Profile`): the rating,
the 段位 and its progress, the rates players compare, the places of the last rated units and
the best hands — gathered from the store by :func:`profile_of`; drawn by ``render/profile.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Optional

from . import dan
from .dan import Ladder, State
from .rates import PlayerRates, RateBook, counted_placements
from .records import period_start

#: how many of the last rated units the card charts
RECENT_UNITS = 20
#: how many of the best hands it lists
BEST_HANDS = 3


def display_rating(mu: float, sigma: float) -> int:
    """The number players compare: ``1500 + 60 × (μ − 3σ)``, the conservative estimate
    (openskill's ordinal) on a familiar scale — a new player (25 ± 25/3) is 1500, and it rises
    as the rating both improves and becomes surer."""
    return 1500 + round(60 * (mu - 3 * sigma))


@dataclass(frozen=True)
class BestHand:
    """One of the player's best hands: ``points`` won, its ``fan`` (``None`` where the game
    counts none), the stored ``hand_id`` (for ``/mj replay``)."""

    hand_id: int
    points: int
    fan: Optional[int]


@dataclass(frozen=True)
class Profile:
    """A player's profile in one game of one server.

    :ivar name: the player's name as last seated.
    :ivar game: the game's facts (``engine.facts.GameFacts``).
    :ivar rating: :func:`display_rating`, ``None`` before the first rated unit; ``mu``,
        ``sigma`` the rating itself, ``units`` the rated units.
    :ivar dan: the 段位 reached (``service.dan.State``) and ``ladder`` (``service.dan.Ladder``).
    :ivar rates: the rates (``service.rates.PlayerRates``) over ``period``.
    :ivar recent: the last :data:`RECENT_UNITS` rated units' ``(place, players)``, oldest first.
    :ivar best: the best hands by points won, best first.
    """

    name: str
    game: Any
    rating: Optional[int]
    mu: Optional[float]
    sigma: Optional[float]
    units: int
    dan: State
    ladder: Ladder
    rates: PlayerRates
    period: str
    recent: tuple[tuple[int, int], ...]
    best: tuple[BestHand, ...]


async def profile_of(store: Any, book: RateBook, guild_id: int, user_id: int, name: str, game: Any,
                     period: str = "all") -> Profile:
    """The :class:`Profile` of ``user_id`` in ``game`` on ``guild_id`` (rates over ``period``,
    ``service.records.PERIODS``)."""
    rating = await store.rating(guild_id, game.id, user_id)
    recent = await store.recent_places(guild_id, game.id, user_id, RECENT_UNITS)
    now = datetime.now(timezone.utc)  # one moment for the placements and the rates of the period
    placed = await store.placement_counts(guild_id, game.id, user_id, period_start(period, now))
    rates = await book.player_rates(guild_id, user_id, game.id, period, counted_placements(placed), now=now)
    best = await store.best_hands(guild_id, user_id, game.id, BEST_HANDS)
    state = dan.State(rating.dan_rank, rating.dan_points) if rating else dan.initial()
    return Profile(name=name, game=game, rating=display_rating(rating.mu, rating.sigma) if rating else None,
                   mu=rating.mu if rating else None, sigma=rating.sigma if rating else None,
                   units=rating.units if rating else 0, dan=state, ladder=dan.load(), rates=rates, period=period,
                   recent=tuple(recent),
                   best=tuple(BestHand(h, p, f) for h, p, f in best))


@dataclass(frozen=True)
class RatedLine:
    """A line of the rating leaderboard: the player, their :func:`display_rating` and 段位."""

    user_id: int
    name: str
    rating: int
    units: int
    dan: State


def _hidden_key(guild_id: int, user_id: int | str) -> str:
    """The ``bot_state`` key of a player hiding their profile (``user_id`` ``""``: the prefix of
    a server's keys)."""
    return f"profile:hidden:{guild_id}:{user_id}"


class Profiles:
    """Players' profiles, the rating and 段位 leaderboards, and who hides their profile (a
    player may hide it from others: ``bot_state`` key ``profile:hidden:<guild>:<user>``)."""

    def __init__(self, store: Any, book: RateBook):
        self.store = store
        self.book = book

    async def profile(self, guild_id: int, user_id: int, name: str, game: Any, period: str = "all") -> Profile:
        """:func:`profile_of` through this server's rate cache."""
        return await profile_of(self.store, self.book, guild_id, user_id, name, game, period)

    async def hidden(self, guild_id: int, user_id: int) -> bool:
        """Whether the player hides their profile from others on this server."""
        return (await self.store.get_state(_hidden_key(guild_id, user_id))) == "1"

    async def set_hidden(self, guild_id: int, user_id: int, hidden: bool) -> None:
        """Hide (or show again) the player's profile from others on this server."""
        await self.store.set_state(_hidden_key(guild_id, user_id), "1" if hidden else "")

    async def board(self, guild_id: int, variant: str, by: str = "rating", limit: int = 10) -> list[RatedLine]:
        """The best rated players of a game on a server, ``by`` ``"rating"``
        (:func:`display_rating`) or ``"dan"`` (rank, then its points, then the rating); players
        hiding their profile are left out."""
        hidden = {k for k, v in (await self.store.states(_hidden_key(guild_id, ""))).items() if v == "1"}
        rows = [r for r in await self.store.ratings(guild_id, variant) if _hidden_key(guild_id, r.user_id) not in hidden]
        names = await self.store.player_names(guild_id, [r.user_id for r in rows])
        lines = [RatedLine(r.user_id, names.get(r.user_id, "?"), display_rating(r.mu, r.sigma), r.units,
                           dan.State(r.dan_rank, r.dan_points)) for r in rows]
        key = (lambda x: (-x.rating, x.user_id)) if by == "rating" else \
            (lambda x: (-x.dan.rank, -x.dan.points, -x.rating, x.user_id))
        return sorted(lines, key=key)[:limit]


__all__ = ["BEST_HANDS", "BestHand", "Profile", "Profiles", "RECENT_UNITS", "RatedLine", "display_rating",
           "profile_of"]
