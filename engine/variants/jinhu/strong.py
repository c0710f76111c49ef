"""The ``strong`` AI of 金湖老三番: 老三番's route planner (``laosanfan/strong.py``) with
金湖's values (docs/rules/laosanfan.md Part 2 §Fan (番) = points, §Waits, §贼 and 包五家).

* Routes: the plain hand, 七对 (10 fan), 对对胡 (5), 清一色 per suit (10), and 清一色 with
  对对胡 (15) or 七对 (20); every route adds the flowers held (1 each, 中发白 included) or
  无花果's 10 when the seat holds no real flower.  A share is the winner's fan and every other
  seat pays one, so the value of a route is its fan.
* A discard that leaves a ready hand is valued exactly: the waits the wait rule lets win
  (``JinhuHand.ting_hint``), each by its fan, times the share of the tiles still unseen
  (``READY_TILES`` of them count as a sure win).  A ready hand whose waits cannot win is worth
  what one more tile would give, and is not declared: 听 is declared only with a wait that
  can win (never 假听).
* 包五家: while not declared, a 贼 or a tile of another seat's exposed pung (the seat's
  ``warnings``) is discarded only when every safe discard keeps less than ``keep`` of the
  best value — ``keep_declared`` once another seat has declared 听.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ...actions import Action
from ...mahjong.phases import DISCARD_PHASE
from ...tiles import FLOWER, kind_of, parse_kind
from ..laosanfan.strong import Planner, Route, Values, choose_with, suit_keep
from ..laosanfan.ai import standard_shanten

if TYPE_CHECKING:
    from .hand import JinhuHand

#: unseen winning tiles that count as a sure win
READY_TILES = 8


class JinhuValues(Values["JinhuHand"]):
    """金湖's routes, ready-hand values and 包五家 caution (module docstring)."""

    speed = 0.2
    deny_fan = 12.0
    keep = 0.6
    keep_declared = 0.25

    def flowers(self, hand: JinhuHand, seat: int) -> float:
        kinds = [kind_of(t) for t in hand.flowers[seat]]
        real = sum(1 for k in kinds if FLOWER <= k < FLOWER + 8)
        return len(kinds) + (10 if not real else 0)

    def routes(self, hand: JinhuHand, seat: int) -> list[tuple[Route, float]]:
        f = self.flowers(hand, seat)
        out = [(Route("plain"), f + 1.0), (Route("pungs", pungs=True, fan=5), f + 5.0),
               (Route("seven", seven=True, fan=10), f + 10.0)]
        for s in range(3):
            keep = suit_keep(s, False)
            out += [(Route(f"qing{s}", keep, fan=10), f + 10.0),
                    (Route(f"qing{s}+pungs", keep, pungs=True, fan=15), f + 15.0),
                    (Route(f"qing{s}+seven", keep, seven=True, fan=20), f + 20.0)]
        return out

    def deny(self, hand: JinhuHand, seat: int) -> float:
        return self.deny_fan

    @staticmethod
    def _hint(p: Planner[JinhuHand]) -> dict:
        """``{discard kind: its waits}`` of the ready discards (one ``ting_hint`` a decision)."""
        if "hint" not in p.scratch:
            p.scratch["hint"] = {parse_kind(h["discard"]): h["waits"] for h in p.hand.ting_hint(p.seat)}
        return p.scratch["hint"]

    def ready_value(self, p: Planner[JinhuHand], kind: int) -> Optional[float]:
        waits = [w for w in self._hint(p).get(kind, []) if w["ok"] and w["left"] > 0]
        left = sum(w["left"] for w in waits)
        if not left:
            return 0.0
        fan = sum(w["fan"] * w["left"] for w in waits) / left
        return (fan + self.deny_fan) * min(1.0, left / READY_TILES)

    def declare(self, p: Planner[JinhuHand], kind: int) -> bool:
        return any(w["ok"] and w["left"] > 0 for w in self._hint(p).get(kind, []))

    def risky(self, hand: JinhuHand, seat: int) -> set[int]:
        if hand.phase != DISCARD_PHASE or seat != hand.turn:
            return set()
        return {parse_kind(w["tile"]) for w in hand.warnings(seat)}

    def keep_share(self, hand: JinhuHand, seat: int) -> float:
        declared = any(hand.ting[o] for o in range(hand.n) if o != seat)
        return self.keep_declared if declared else self.keep


JINHU = JinhuValues()


def choose_action(hand: JinhuHand, seat: int) -> Action:
    """The ``strong`` move of 金湖老三番 for a pending ``seat``: one of
    ``hand.legal_actions(seat)`` (never 假听); ``ValueError`` when the seat has nothing to do."""
    return choose_with(hand, seat, JINHU, standard_shanten)


__all__ = ["JinhuValues", "JINHU", "choose_action", "READY_TILES"]
