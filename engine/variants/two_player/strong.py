"""The ``strong`` AI of 二人麻将: 老三番's route planner (``laosanfan/strong.py``) with the
Chinese Official fans this game pays, its 15-fan minimum and its 宝牌
(docs/rules/two_player.md §Fan table, §Minimum to win, §Set-up 宝牌).

* Routes and the fan a win on each is reckoned at (万 and honours only, so a hand with an
  honour is 混一色, 6): the plain hand 8, 碰碰和 14 (with 混一色 and a 幺九刻), 七对 30 (with
  混一色), 清一色 万 27, 清一色 with 碰碰和 32 or 七对 48, 字一色 64; each flower adds 1.
* The value of a win is that fan × the seat's 加倍 multiplier × the 宝牌 multiplier of the
  copies held after the discard (1 → ×2 … 4 → ×16): the 宝牌 are kept.  A win that would
  stay below the minimum must be doubled first (a lost turn): it is valued at the doubled
  total times ``DOUBLE_DELAY``, again while still below.
* A 13-tile form is worth ``E = max over the open routes of (value + DENY) × SPEED **
  shanten`` (``laosanfan.strong.Planner``); the discard, the claims and the kongs follow that
  planner.  A win is always taken; a win refused for the minimum is doubled (加倍); 听 is
  declared whenever a discard leaves a ready hand (as the normal AI does).
* Defence: once the opponent has declared 听, a discard other than a kind the opponent threw
  after declaring (or one with every copy in sight) is made only when every such safe
  discard keeps less than ``SAFE_KEEP`` of the best ``E``.

Pure and deterministic: same state, same move.
"""

from __future__ import annotations

from typing import Sequence, TYPE_CHECKING

from ... import hand_shapes
from ...actions import DISCARD, DOUBLE, HU, KONG, PASS, TING, Action
from ...ai import _unseen_counts, _useful
from ...tiles import HONOR, kind_of
from ...ai import best_after_discard
from ..laosanfan.strong import Planner, Route, Values, choose_claim, choose_discard, route_shanten, suit_keep
from .hand import treasure_multiplier
from ...protocol import pending_moves

if TYPE_CHECKING:
    from .hand import TwoPlayerHand

SPEED = 0.3
DENY = 20.0
DOUBLE_DELAY = 0.55
SAFE_KEEP = 0.4
#: a one-kind route (清一色, 字一色) is read only with at most this many tiles off it
MAX_OFF = 4
#: the routes: (route, fan of a win on it)
ROUTES = (
    (Route("plain"), 8.0),
    (Route("pungs", pungs=True, fan=14), 14.0),
    (Route("seven", seven=True, fan=30), 30.0),
    (Route("qing", suit_keep(0, False), fan=27), 27.0),
    (Route("qing+pungs", suit_keep(0, False), pungs=True, fan=32), 32.0),
    (Route("qing+seven", suit_keep(0, False), seven=True, fan=48), 48.0),
    (Route("honours", tuple(k >= HONOR for k in range(34)), fan=64), 64.0),
)


class TwoPlayerValues(Values["TwoPlayerHand"]):
    """二人麻将's routes (module docstring); the 宝牌 and the minimum are applied by
    :class:`TwoPlayerPlanner`."""

    speed = SPEED
    risk_keep = SAFE_KEEP

    def routes(self, hand: TwoPlayerHand, seat: int) -> list[tuple[Route, float]]:
        f = float(len(hand.flowers[seat]))
        return [(r, v + f) for r, v in ROUTES]

    def risky(self, hand: TwoPlayerHand, seat: int) -> set[int]:
        other = 1 - seat
        if not hand.ting[other]:
            return set()
        vis = hand.visible_counts(seat)
        safe = {kind_of(t) for t in hand.discards[other][-8:]}
        return {k for k in range(34) if k not in safe and vis[k] < 4}


TWO_PLAYER = TwoPlayerValues()


class TwoPlayerPlanner(Planner["TwoPlayerHand"]):
    """:class:`Planner` whose route values are the fan × 加倍 × 宝牌 of the held copies, a win
    below the minimum being doubled first."""

    def __init__(self, hand: TwoPlayerHand, seat: int):
        super().__init__(hand, seat, TWO_PLAYER)
        t = hand.treasure
        self.treasure = t
        self.melded_t = sum(1 for m in hand.melds[seat] for x in m.tiles if kind_of(x) == t)
        self.doubles = hand.doubles[seat]
        self.need = hand.options.get("min_fan", 15)
        self.unseen: dict[int, int] | None = None
        self.routes = [rv for rv in self.routes if self._promising(rv[0], hand.counts(seat))]

    def _promising(self, r: Route, counts: Sequence[int]) -> bool:
        """A route is read only when the hand already leans to it: 3 pairs for 七对 and 碰碰和
        (pungs count), at most ``MAX_OFF`` tiles off a one-kind route (the plain hand always)."""
        if r.name == "plain":
            return True
        pairs = sum(1 for c in counts if c >= 2)
        if (r.seven or r.pungs) and pairs < 3:
            return False
        if r.keep is not None and sum(c for k, c in enumerate(counts) if not r.keep[k]) > MAX_OFF:
            return False
        return True

    def sh(self, i: int, counts: Sequence[int], n_melds: int) -> int:
        """Route ``i``'s shanten (``route_shanten``), memoised on the tiles the route keeps:
        the discards off a one-kind route share one shape reading."""
        r = self.routes[i][0]
        if r.keep is None:
            return super().sh(i, counts, n_melds)
        keep = r.keep
        masked = tuple(c if keep[k] else 0 for k, c in enumerate(counts))
        off = sum(counts) - sum(masked)
        key = (i, n_melds, masked)
        v = self.memo.get(key)
        if v is None:
            v = self.memo[key] = route_shanten(r, masked, n_melds)
        return v if v >= off else off

    def useful(self, counts: list[int], n_melds: int, i: int) -> int:
        """Unseen tiles that advance route ``i``; the plain hand's in one pass
        (``engine.ai._useful``, which also counts a tile that advances seven pairs)."""
        r = self.routes[i][0]
        if r.keep is not None or r.seven or r.pungs:
            return super().useful(counts, n_melds, i)
        if self.unseen is None:
            self.unseen = _unseen_counts(self.hand, self.seat)
        unseen = self.unseen
        base = self.sh(i, counts, n_melds)
        return _useful(self.hand, counts, n_melds, base, None, unseen)

    def value(self, fan: float, copies: int) -> float:
        total = fan * self.doubles * treasure_multiplier(min(4, copies))
        q = 1.0
        while total < self.need:
            total *= 2
            q *= DOUBLE_DELAY
        return total * q

    def worth(self, counts: Sequence[int], n_melds: int, open_: list[int]) -> tuple[float, int, float]:
        copies = counts[self.treasure] + self.melded_t
        best, bi, total = -1.0, open_[0] if open_ else 0, 0.0
        for i in open_:
            r, fan = self.routes[i]
            if r.keep is not None and not r.keep[self.treasure]:
                v = self.value(fan, self.melded_t)
            else:
                v = self.value(fan, copies)
            e = (v + self.deny) * self.speed(self.sh(i, counts, n_melds))
            total += e
            if e > best:
                best, bi = e, i
        return best, bi, total


def choose_action(hand: TwoPlayerHand, seat: int) -> Action:
    """The ``strong`` move of 二人麻将 for a pending ``seat`` of a
    :class:`~engine.variants.two_player.TwoPlayerHand`: one of ``hand.legal_actions(seat)``;
    ``ValueError`` when the seat has nothing to do."""
    legal, types = pending_moves(hand, seat)
    if HU in types:
        return Action(seat, HU)
    if DOUBLE in types and hand.win_offered(seat):
        return Action(seat, DOUBLE)  # a win below the fan minimum: double it up
    p = TwoPlayerPlanner(hand, seat)
    p.deny = DENY
    if DISCARD in types:
        kongs = [a for a in legal if a.type == KONG]
        if kongs and not hand.ting[seat]:
            counts = hand.counts(seat)
            n_melds = len(hand.melds[seat])
            best = best_after_discard(counts, n_melds, hand_shapes.shanten)
            for a in kongs:
                c = list(counts)
                own = c[a.tile_kind] == 4
                c[a.tile_kind] -= 4 if own else 1
                if hand_shapes.shanten(c, n_melds + (1 if own else 0)) <= best:
                    return a
        return choose_discard(p, legal)
    if TING in types:
        return Action(seat, TING)
    if hand.ting[seat]:
        return Action(seat, PASS)
    return choose_claim(p, legal)


__all__ = ["TwoPlayerValues", "TwoPlayerPlanner", "TWO_PLAYER", "choose_action"]
