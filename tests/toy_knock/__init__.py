"""敲牌 (Knock), a game that lives in this folder only: two players draw and discard 1m–9m
(36 tiles) on the shared draw/discard hand; a complete hand wins the stake, and a player
holding enough pairs on their own turn may **knock** (敲): the hand ends at once and they win
the stake.  Its words (``data/toy_knock.<lang>.json``: the knock button and event, the rules
summary, the local table's help) and its presets (``data/presets.json``) are in its own
folder, and its pieces are drawn as paper cards (``tile_style="paper"``); nothing outside this
folder knows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import Event
from engine.mahjong import DISCARD_PHASE, OVER, MahjongHand
from engine.options import TIMEOUT_OPTIONS, Option
from engine.variant import VariantInfo

KNOCK = "knock"


class KnockHand(MahjongHand):
    """A hand of 敲牌: one suit, two seats, any complete hand wins; ``knock`` ends the hand for
    a seat on its turn holding ``knock_pairs`` pairs or more."""

    VARIANT = "toy_knock"
    N_SEATS = 2
    RULES = "toy_knock"

    def __init__(self, options: dict, seed: int, dealer: int, context: dict | None = None):
        self.knocked = False
        super().__init__(options, seed, dealer, context)

    def tile_counts(self) -> dict[int, int]:
        return {k: 4 for k in range(9)}

    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, **flags: Any) -> dict:
        fan = ["敲", "Knock", 1, 1] if self.knocked else ["胡", "Win", 1, 1]
        return {"ok": True, "fan_total": 1, "fans": [fan]}

    def settle(self, winner: int | None, win: dict | None, discarder: int | None) -> list[int]:
        if winner is None:
            return [0] * self.n
        stake = self.options.get("stake", 1)
        points = [-stake] * self.n
        points[winner] = stake * (self.n - 1)
        return points

    def pairs(self, seat: int) -> int:
        """The pairs in ``seat``'s concealed tiles (a four is two)."""
        return sum(c // 2 for c in self.counts(seat))

    def _turn_actions(self, seat: int) -> list[Action]:
        acts = super()._turn_actions(seat)
        if self.pairs(seat) >= self.options.get("knock_pairs", 4) and self.drawn[seat] is not None:
            acts.append(Action(seat, KNOCK))
        return acts

    def _check(self, action: Action) -> None:
        if action.type == KNOCK and self.phase != OVER and action not in self.legal_actions(action.seat):
            raise IllegalAction("knock_not_yet", self.RULES, pairs=self.options.get("knock_pairs", 4))
        super()._check(action)

    def _apply_turn(self, a: Action) -> None:
        if a.type == KNOCK and self.phase == DISCARD_PHASE:
            drawn = self.drawn[a.seat]
            assert drawn is not None  # a knock is offered after a draw
            self.knocked = True
            self.events.append(Event(KNOCK, a.seat))
            self._win(a.seat, drawn, None, self_drawn=True)
            return
        super()._apply_turn(a)


OPTIONS = (
    Option("stake", int, 1, "Points a loser pays", "输家付分", min_value=1, max_value=10, score_only=True),
    Option("knock_pairs", int, 4, "Pairs a player needs to knock", "敲牌所需对子数", min_value=2, max_value=7,
           score_only=False),
) + TIMEOUT_OPTIONS

INFO = VariantInfo(
    "toy_knock", "敲牌", "Knock", 2, 2, OPTIONS,
    lambda options, seed, dealer, n, ctx: KnockHand(options, seed, dealer, ctx),
    data_dir=Path(__file__).resolve().parent / "data",
    tile_style="paper",
    action_labels={KNOCK: "btn.knock"},
    fan_table=(("胡", "Win", 1), ("敲", "Knock", 1)),
)
