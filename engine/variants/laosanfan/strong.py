"""The ``strong`` AI of 老三番 (and the planner 金湖老三番's strong AI builds on).

The normal AI (``ai.py``) only shortens the way to any win.  This one weighs what a win would
be worth.  A hand is read along *routes* — the plain hand, each suit's 混一色 / 清一色, 对对胡,
and their mixes (金湖: 七对, 清一色, 对对胡) — each with a shanten (``route_shanten``: the
tiles off the route must be replaced, so the route's shanten is at least their number) and the
points a win on it pays (the game's ``Values``).  A 13-tile hand is worth

    E = max over the routes still open of (value + deny) × speed ** shanten

(``deny``: what the seat no longer pays when it wins first; ``speed``: the chance kept per
missing tile; a route that needs more tiles than the seat still draws is nearly worthless).
A discard is chosen for the best ``E`` after it; discards within ``TIE`` of the best are
told apart by the unseen tiles that advance their best route, then by the routes kept.
Claims are taken when the hand after the claim (and its best discard) is worth more than
passing.  Discards that make the seat liable (老三番 三摊, docs/rules/laosanfan.md Part 1 §三摊)
are refused unless every safe discard keeps less than ``Values.risk_keep`` of the best ``E``.

Pure and deterministic: same state, same move; no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Generic, Iterable, Optional, Sequence, TypeVar

from ... import hand_shapes
from ...actions import CHOW, DISCARD, HU, KONG, PASS, PUNG, TING, Action
from ...ai import counts_after_claim
from ...mahjong.phases import DISCARD_PHASE
from ...tiles import HONOR, kind_of, kind_str
from .ai import _isolation, _useful, free_kong, standard_shanten
from .scoring import DRAGONS, FAN_CAP, seat_flower_fan, style_total
from ...protocol import pending_moves

if TYPE_CHECKING:
    from ...mahjong.hand import MahjongHand
    from .hand import LaoSanFanHand

#: the hand a game's :class:`Values` and :class:`Planner` read
H = TypeVar("H", bound="MahjongHand")

#: share of the best hand value within which discards count as equally good
TIE = 0.04
#: a claim must add this share to the hand's value to be taken
CLAIM_MARGIN = 0.02
#: a flush route is read only while the hand holds at most this many tiles off it
MAX_OFF = 9
#: kinds compared by useful tiles when several discards tie (keeps a move fast)
TIE_CANDIDATES = 3


@dataclass(frozen=True)
class Route:
    """One way to finish the hand.

    :ivar name: a label (``plain``, ``hun0``, ``qing2+pungs``, ``seven`` …).
    :ivar keep: 34 booleans: the kinds the route uses (``None``: every kind).
    :ivar pungs: sets must be pungs (对对胡).
    :ivar seven: seven pairs (no melds).
    :ivar fan: the fan (or points) the route's shape pays.
    """

    name: str
    keep: Optional[tuple] = None
    pungs: bool = False
    seven: bool = False
    fan: int = 0

    def allows(self, melds: Sequence[tuple[int, bool]]) -> bool:
        """Whether melds ``[(kind, is_chow)]`` fit the route."""
        if self.seven and melds:
            return False
        for k, chow in melds:
            if chow and self.pungs:
                return False
            if self.keep is not None and not self.keep[k]:
                return False
        return True


def suit_keep(suit: int, honours: bool) -> tuple:
    """The ``keep`` of a flush in ``suit`` (0 万, 1 筒, 2 条), with the honours or without."""
    return tuple((k // 9 == suit) if k < HONOR else honours for k in range(34))


def pungs_shanten(counts: Sequence[int], n_melds: int) -> int:
    """Shanten toward four pungs and a pair (对对胡) with ``n_melds`` pung melds:
    ``8 - 2·sets - partials - pair``, a triplet being a set and a pair a partial (one pair is
    the head)."""
    need = 4 - n_melds
    trip = sum(1 for c in counts if c >= 3)
    pairs = sum(1 for c in counts if c == 2)
    m = min(trip, need)
    pairs += trip - m
    p = 1 if pairs else 0
    t = min(pairs - p, need - m)
    return 8 - 2 * (n_melds + m) - t - p


def route_shanten(route: Route, counts: Sequence[int], n_melds: int) -> int:
    """The shanten of ``counts`` (34 counts, a 13- or 14-tile form) along ``route``: the shape's
    shanten of the tiles the route keeps, and at least the number of tiles it does not keep
    (each must be replaced)."""
    if route.keep is not None:
        keep = route.keep
        masked = [c if keep[k] else 0 for k, c in enumerate(counts)]
        off = sum(counts) - sum(masked)
    else:
        masked, off = list(counts), 0
    if route.seven:
        s = hand_shapes.seven_pairs_shanten(masked)
    elif route.pungs:
        s = pungs_shanten(masked, n_melds)
    else:
        s = hand_shapes.standard_shanten(masked, n_melds)
    return s if s >= off else off


class Values(Generic[H]):
    """What a game's routes pay, and how the planner weighs them (tuned with
    ``bench/bench_ai_strength.py``).  Subclassed per game."""

    speed = 0.45   #: value kept per missing tile
    risk_keep = 0.5  #: a liable discard only when the safe ones keep less than this share

    def routes(self, hand: H, seat: int) -> list[tuple[Route, float]]:
        """``[(route, value of a win on it)]`` for ``seat``; the first is the plain hand."""
        raise NotImplementedError

    def deny(self, hand: H, seat: int) -> float:
        """What winning first saves the seat (others' wins it no longer pays)."""
        return 0.0

    def risky(self, hand: H, seat: int) -> set[int]:
        """Discard kinds that would make the seat liable."""
        return set()

    def keep_share(self, hand: H, seat: int) -> float:
        """A liable discard is made only when the safe ones keep less than this share of the
        best ``E``."""
        return self.risk_keep

    def ready_value(self, p: "Planner[H]", kind: int) -> Optional[float]:
        """The exact ``E`` of discarding ``kind`` when that leaves a ready hand (``None``: use the
        routes); ``p.scratch`` may keep what the decision's other calls reuse."""
        return None

    def declare(self, p: "Planner[H]", kind: int) -> bool:
        """Declare 听 with the discard ``kind`` (offered as a 听 action)."""
        return True


class Planner(Generic[H]):
    """The routes and their values for one decision of ``seat`` (memoised shanten)."""

    def __init__(self, hand: H, seat: int, values: Values[H]):
        self.hand, self.seat, self.values = hand, seat, values
        counts = hand.counts(seat)
        self.routes = [(r, v) for i, (r, v) in enumerate(values.routes(hand, seat))
                       if i == 0 or r.keep is None or sum(c for k, c in enumerate(counts) if not r.keep[k]) <= MAX_OFF]
        self.deny = values.deny(hand, seat)
        left = max(0, hand.wall_remaining - hand.draw_reserve())
        self.draws = left // hand.n + 1
        self.memo: dict = {}
        self.scratch: dict = {}

    def melds(self, extra: Optional[tuple[int, bool]] = None) -> list[tuple[int, bool]]:
        out = [(m.kind, m.type == CHOW) for m in self.hand.melds[self.seat]]
        return out + [extra] if extra else out

    def open_routes(self, melds: Sequence[tuple[int, bool]]) -> list[int]:
        return [i for i, (r, _) in enumerate(self.routes) if r.allows(melds)]

    def sh(self, i: int, counts: Sequence[int], n_melds: int) -> int:
        key = (i, n_melds, *counts)
        v = self.memo.get(key)
        if v is None:
            v = self.memo[key] = route_shanten(self.routes[i][0], counts, n_melds)
        return v

    def speed(self, s: int) -> float:
        q = self.values.speed ** max(0, s)
        if s > self.draws:
            q *= 0.1 ** (s - self.draws)
        return q

    def worth(self, counts: Sequence[int], n_melds: int, open_: list[int]) -> tuple[float, int, float]:
        """``(E, best route index, sum of the routes' E)`` of a 13-tile form."""
        best, bi, total = -1.0, open_[0] if open_ else 0, 0.0
        for i in open_:
            e = (self.routes[i][1] + self.deny) * self.speed(self.sh(i, counts, n_melds))
            total += e
            if e > best:
                best, bi = e, i
        return best, bi, total

    def after_discards(self, counts: list[int], n_melds: int, open_: list[int], kinds: Iterable[int]) -> dict:
        """``{kind: (E, route, potential)}`` after discarding each of ``kinds``."""
        out = {}
        for k in kinds:
            counts[k] -= 1
            out[k] = self.worth(counts, n_melds, open_)
            counts[k] += 1
        return out

    def useful(self, counts: list[int], n_melds: int, i: int) -> int:
        """Unseen tiles that lower route ``i``'s shanten of the 13-tile form ``counts``."""
        base = self.sh(i, counts, n_melds)
        vis = self.hand.visible_counts(self.seat)
        return _useful(self.hand, self.seat, counts, n_melds, base,
                          lambda c, m: self.sh(i, c, m), vis)


def choose_discard(p: Planner, legal: list[Action]) -> Action:
    """The discard (or 听 with it) of the seat from ``legal``."""
    hand, seat, values = p.hand, p.seat, p.values
    discards = sorted({a.tile_kind for a in legal if a.type == DISCARD})
    tings = {a.tile_kind for a in legal if a.type == TING}
    if len(discards) == 1:
        k = discards[0]
        return Action(seat, TING, k) if k in tings and values.declare(p, k) else Action(seat, DISCARD, k)
    counts = hand.counts(seat)
    n_melds = len(hand.melds[seat])
    open_ = p.open_routes(p.melds())
    scored = p.after_discards(counts, n_melds, open_, discards)
    for k in sorted(tings.intersection(discards)):
        exact = values.ready_value(p, k)
        if exact is None:
            continue
        counts[k] -= 1  # the routes not yet ready keep their own worth
        alt = max(((p.routes[i][1] + p.deny) * p.speed(s) for i in open_
                   if (s := p.sh(i, counts, n_melds)) > 0), default=0.0)
        counts[k] += 1
        scored[k] = (max(exact, alt), scored[k][1], scored[k][2])
    risky = values.risky(hand, seat)
    best = max(scored[k][0] for k in discards)
    safe = [k for k in discards if k not in risky]
    if safe and len(safe) < len(discards) and max(scored[k][0] for k in safe) >= values.keep_share(hand, seat) * best:
        discards = safe
        best = max(scored[k][0] for k in discards)
    cands = [k for k in discards if scored[k][0] >= best * (1 - TIE)]
    if len(cands) > 1:
        top = max(cands, key=lambda k: scored[k][0])
        route = scored[top][1]
        cands = sorted(cands, key=lambda k: (-scored[k][2], _isolation(k), k))[:TIE_CANDIDATES]
        ranked = []
        for k in cands:
            counts[k] -= 1
            ranked.append((-p.useful(counts, n_melds, route), -scored[k][0], -scored[k][2], _isolation(k), k))
            counts[k] += 1
        choice = min(ranked)[-1]
    else:
        choice = cands[0]
    if choice in tings and values.declare(p, choice):
        return Action(seat, TING, choice)
    return Action(seat, DISCARD, choice)


def choose_claim(p: Planner, legal: list[Action]) -> Action:
    """Pung, chow or kong when the hand after it is worth more than passing; else pass."""
    hand, seat = p.hand, p.seat
    pass_ = Action(seat, PASS)
    if hand.ting[seat] or hand.last_discard is None:
        return pass_
    k = kind_of(hand.last_discard[1])
    counts = hand.counts(seat)
    n_melds = len(hand.melds[seat])
    e_pass = p.worth(counts, n_melds, p.open_routes(p.melds()))[0]
    best, best_e = pass_, e_pass * (1 + CLAIM_MARGIN)
    for a in legal:
        if a.type not in (PUNG, CHOW, KONG):
            continue
        c = counts_after_claim(counts, a, k)
        meld = (a.tile_kind if a.type == CHOW else k, a.type == CHOW)
        open_ = p.open_routes(p.melds(meld))
        if not open_:
            continue
        if a.type == KONG:
            e = p.worth(c, n_melds + 1, open_)[0]
        else:
            held = [j for j in range(34) if c[j]]
            e = max(v[0] for v in p.after_discards(c, n_melds + 1, open_, held).values())
        if e > best_e:
            best, best_e = a, e
    return best


def choose_with(hand: H, seat: int, values: Values[H], sh: Callable = standard_shanten) -> Action:
    """The strong move of ``seat`` with the game's ``values``; ``sh`` is the game's plain
    shanten, used for the normal AI's kong rule.  ``ValueError`` when the seat has nothing to
    do."""
    legal, types = pending_moves(hand, seat)
    if HU in types:
        return Action(seat, HU)
    p = Planner(hand, seat, values)
    if DISCARD in types:
        kong = free_kong(hand, seat, legal, sh)
        if kong is not None:
            return kong
        return choose_discard(p, legal)
    return choose_claim(p, legal)


class LaoSanFanValues(Values["LaoSanFanHand"]):
    """老三番's routes (docs/rules/laosanfan.md Part 1 §Fan): plain, 混一色 (2) and 清一色 (3) per
    suit, 对对胡 (1; 3 with 混一色); the seat flowers and dragon pungs held add their fan, the
    total capped at 3, and a win pays ``style_total`` of the table's style with ``HU_GUESS`` 胡."""

    HU_GUESS = 12
    speed = 0.3
    deny_share = 1.5
    risk_keep = 0.45

    def routes(self, hand: LaoSanFanHand, seat: int) -> list[tuple[Route, float]]:
        style = hand.options.get("style", "yaobansan")
        flowers = [kind_of(t) for t in hand.flowers[seat]]
        extra = sum(f[2] * f[3] for f in seat_flower_fan(flowers, hand.wind_index(seat)))
        counts = hand.counts(seat)
        dragons = sum(1 for k in DRAGONS if counts[k] >= 3)
        dragons += sum(1 for m in hand.melds[seat] if m.kind in DRAGONS and m.type != CHOW)

        def pay(fan: int) -> float:
            return float(style_total(style, self.HU_GUESS, min(FAN_CAP, fan)))

        out = [(Route("plain"), pay(extra + dragons)), (Route("pungs", pungs=True, fan=1), pay(extra + dragons + 1))]
        for s in range(3):
            hun, qing = suit_keep(s, True), suit_keep(s, False)
            out.append((Route(f"hun{s}", hun, fan=2), pay(extra + dragons + 2)))
            out.append((Route(f"qing{s}", qing, fan=3), pay(3)))
            out.append((Route(f"hun{s}+pungs", hun, pungs=True, fan=3), pay(3)))
        return out

    def deny(self, hand: LaoSanFanHand, seat: int) -> float:
        style = hand.options.get("style", "yaobansan")
        return self.deny_share * style_total(style, self.HU_GUESS, 0)

    def risky(self, hand: LaoSanFanHand, seat: int) -> set[int]:
        if hand.phase != DISCARD_PHASE or seat != hand.turn:
            return set()
        names = {w["tile"] for w in hand.warnings(seat)}
        return {k for k in range(34) if kind_str(k) in names}


LAOSANFAN = LaoSanFanValues()


def choose_action(hand: LaoSanFanHand, seat: int) -> Action:
    """The ``strong`` move of 老三番 for a pending ``seat``: one of
    ``hand.legal_actions(seat)``; ``ValueError`` when the seat has nothing to do."""
    return choose_with(hand, seat, LAOSANFAN)


__all__ = ["Route", "Values", "Planner", "route_shanten", "pungs_shanten", "suit_keep", "choose_with",
           "choose_discard", "choose_claim", "LaoSanFanValues", "choose_action"]
