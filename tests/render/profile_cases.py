"""Profiles built by hand for the profile card's tests and screens: a new player (no hand, no
rating), a seasoned one (rates, a 段位 mid-ladder, 20 rated units of 2, 3 and 4 players, best
hands) and one on the top rank."""

from __future__ import annotations


from engine.variant import facts_of
from engine.variants import all_variants
from service import dan
from service.rates import Mean, PlayerRates, Rate, placement_rates

from service.profile import BestHand, Profile

#: each game's own count of a winning hand (``PlayerRates.count_name``), where it keeps one
COUNT_NAMES = {"laosanfan": "hu", "jinhu": "hu", "laowudui": "dui", "zipai": "huxi"}
#: 20 rated units, oldest first: (place, players) of 2-, 3- and 4-player units
RECENT = ((1, 4), (3, 4), (2, 3), (4, 4), (1, 2), (2, 2), (2, 4), (1, 3), (3, 3), (1, 4),
          (2, 4), (4, 4), (1, 2), (3, 4), (2, 3), (1, 4), (2, 4), (3, 3), (1, 4), (2, 4))


def games() -> list:
    """The facts (``engine.facts.GameFacts``) of every registered game."""
    return [facts_of(v) for v in all_variants()]


def game(game_id: str):
    return next(g for g in games() if g.id == game_id)


def no_rates(user_id: int = 1) -> PlayerRates:
    """A player who has played no hand."""
    return PlayerRates(user_id=user_id, variant=None, since=None, hands=0, wins=Rate(0, 0), deal_ins=Rate(0, 0),
                       self_drawn=Rate(0, 0), calls=Rate(0, 0), draws=Rate(0, 0), win_value=Mean(0, 0),
                       deal_in_value=Mean(0, 0), count_name=None, count_per_win=Mean(0, 0), specials=(),
                       placements=placement_rates(()))


def some_rates(game_id: str, recent=RECENT, calls: bool = True, specials=()) -> PlayerRates:
    """52 hands: 12 wins (23.1%), 7 deal-ins (13.5%), 5 of the wins self-drawn (41.7%), 20
    hands with a call (38.5%), 4 draws (7.7%); 540 points won (45.0 a win), 203 lost in
    deal-ins (29.0 each); the game's count 198 over the 12 wins (16.5)."""
    name = COUNT_NAMES.get(game_id)
    return PlayerRates(user_id=1, variant=game_id, since=None, hands=52, wins=Rate(12, 52), deal_ins=Rate(7, 52),
                       self_drawn=Rate(5, 12), calls=Rate(20, 52) if calls else None, draws=Rate(4, 52),
                       win_value=Mean(540, 12), deal_in_value=Mean(203, 7), count_name=name,
                       count_per_win=Mean(198, 12) if name else Mean(0, 0), specials=tuple(specials),
                       placements=placement_rates(recent))


def newcomer(game_facts, name: str = "Newcomer") -> Profile:
    """No hand, no rated unit: unrated, 新人 0 pt."""
    return Profile(name=name, game=game_facts, rating=None, mu=None, sigma=None, units=0, dan=dan.initial(),
                   ladder=dan.load(), rates=no_rates(), period="all", recent=(), best=())


def seasoned(game_facts, name: str = "Alice", *, state: dan.State = dan.State(7, 640), recent=RECENT,
             period: str = "all", specials=()) -> Profile:
    """Rated 1623 (μ 27.10 ± σ 1.30) over 42 units, 二段 640/800 pt by default, the rates of
    :func:`some_rates`, three best hands."""
    return Profile(name=name, game=game_facts, rating=1623, mu=27.1, sigma=1.3, units=42, dan=state,
                   ladder=dan.load(), rates=some_rates(game_facts.id, recent, specials=specials), period=period,
                   recent=tuple(recent), best=(BestHand(1234, 120, 8), BestHand(987, 96, None), BestHand(55, 64, 3)))


def top_rank(game_facts, name: str = "师傅") -> Profile:
    """十段 (the top rank, no threshold) with 2350 pt."""
    return seasoned(game_facts, name, state=dan.State(dan.load().top, 2350))
