"""``jinhu`` — 金湖老三番: four players, 128 tiles (中发白 are flowers), pung only, 听 and
假听, 贼 tiles and 包五家; fan are points.

Source: ``docs/rules/laosanfan.md`` Part 2 (sections named in each docstring).

Decisions taken here where the rule file leaves the mechanics open:

* 听 is declared with a discard that leaves a ready hand (any wait by shape); 假听 is the
  action ``fake_ting`` (no tile), after which the seat's next action is its discard: the
  table then sees an ordinary 听 (the same public ``ting`` event), the hand is locked to
  the drawn tile, and the seat can never win this hand (no 胡 is offered to it).
* A reading of the hand that is a pair wait may win when the ready hand has a 调贼 pair
  wait (5678m waiting on 5m makes the 8m pair wait legal too: the seed's 5m/8m example).
* For ``min_fan_for_open_wait`` the fan counted is the fan without flowers, 无花果 and
  同花; 四同 and 胡贼 count there only when the wait is a 甩大 or 姊妹 shape.
* 海底捞月 is a self-drawn win on the last tile before the exhaustive-draw point.
* A 包五家 discard: the discarder had declared neither 听 nor 假听 and the tile is a 贼 or
  the fourth copy of the winner's exposed pung.  A first-in-turn-order winner is the claim
  window's rule (胡 outranks 碰; between two 胡 the nearer seat after the discarder wins).
* The ×2 streak is kept in the match state as ``jinhu_doubled`` (the seat, or ``None``).
* A seat's private ``warnings`` list the discards that would pay 包五家 (a 贼 while not
  ready-declared, or another seat's exposed-pung tile).
"""

from __future__ import annotations

from typing import Any

from ... import hand_shapes
from ...actions import DISCARD, HU, PASS, PUNG, Action
from ...errors import IllegalAction
from ...mahjong import DISCARD_PHASE, OVER, Event, MahjongHand
from ...options import TIMEOUT_OPTIONS, Option
from ...tiles import FLOWER, GREEN, RED, WHITE, kind_of, kind_str
from ..laosanfan.hand import LaoSanFanHand
from .fans import THIEVES, JinhuWin, NotAllowed, jinhu_fans

RULES = "laosanfan.md (jinhu)"
FAKE_TING = "fake_ting"

#: neither option is score-only: ``min_fan_for_open_wait`` decides whether a win on an open
#: wait is legal, ``opening_restriction`` the first go-around's discards and pungs.
OPTIONS = (
    Option("min_fan_for_open_wait", int, 2,
           "Fan (without flowers) that lets a hand win on a wait that is neither closed nor edge",
           "非夹张/边张的叫牌胡牌所需番数（不含花）", min_value=0, max_value=100,
           score_only=False),
    Option("opening_restriction", bool, False,
           "First go-around of the first hand: discard only 筒/万, no pung",
           "首局第一圈只能打筒、万，不能碰", score_only=False),
) + TIMEOUT_OPTIONS


class JinhuHand(LaoSanFanHand):
    """One hand of 金湖老三番.  ``context``: ``hand_no``, ``dealer_streak`` and
    ``jinhu_doubled`` (the seat whose win fan is doubled after a 包五家, or ``None``)."""

    VARIANT = "jinhu"
    RULES = RULES
    PRIORITY = {HU: 3, PUNG: 2, FAKE_TING: 0, PASS: 0}

    def __init__(self, options: dict, seed: int, dealer: int, context: dict | None = None):
        self.fake = [False] * 4
        self.fake_pending = [False] * 4
        self.win_kind: int | None = None
        super().__init__(options, seed, dealer, context)

    # --- tiles (Part 2 §Tiles): suits ×4, 中发白 ×4 (flowers here), 8 flowers ×1
    def tile_counts(self) -> dict[int, int]:
        counts = {k: 4 for k in range(27)}
        counts.update({k: 4 for k in (WHITE, GREEN, RED)})
        counts.update({k: 1 for k in range(FLOWER, FLOWER + 8)})
        return counts

    def is_bonus(self, kind: int) -> bool:
        return FLOWER <= kind < FLOWER + 8 or kind in (WHITE, GREEN, RED)

    def ting_allowed(self) -> bool:
        return True

    # --- claims: pung only, no kong (Part 2 §Play)
    def _own_kong_kinds(self, seat: int) -> list[int]:
        return []

    def claim_actions(self, seat: int, discarder: int, kind: int) -> list[Action]:
        acts: list[Action] = []
        if not self.fake[seat] and self.win_shape(seat, kind):
            acts.append(Action(seat, HU))
        if self.ting[seat] or not self.claims_allowed():
            return acts
        if self.counts(seat)[kind] >= 2:
            acts.append(Action(seat, PUNG))
        return acts

    def danger_of(self, seat: int) -> dict:
        return {"suits": [], "terminals": False}  # 三摊 is a 老三番 rule

    # --- shapes: standard, or seven pairs with exposed pungs counted (Part 2 fan table, 七对)
    def _combined(self, seat: int, counts: list[int]) -> list[int]:
        comb = list(counts)
        for m in self.melds[seat]:
            comb[m.kind] += 3
        return comb

    def win_shape(self, seat: int, win_kind: int | None) -> bool:
        counts = self.counts(seat)
        if win_kind is not None:
            counts[win_kind] += 1
        if hand_shapes.is_standard_win(counts, len(self.melds[seat])):
            return True
        comb = self._combined(seat, counts)
        return sum(comb) == 14 and all(c % 2 == 0 for c in comb)

    def _live_waits(self, seat: int, counts: list[int], n_melds: int, kong_kind: int | None = None) -> list[int]:
        waits = set(MahjongHand._live_waits(self, seat, counts, n_melds, kong_kind))
        if self.melds[seat]:
            comb = self._combined(seat, counts)
            if sum(comb) == 13:
                pairs = sum(c >> 1 for c in comb)
                odd = [k for k in range(34) if comb[k] & 1]
                if pairs == 6 and len(odd) == 1 and comb[odd[0]] < 4:
                    waits.add(odd[0])
        return sorted(waits)

    # --- 听 and 假听 (Part 2 §Play)
    def win_offered(self, seat: int) -> bool:
        return not self.fake[seat] and super().win_offered(seat)

    def _turn_actions(self, seat: int) -> list[Action]:
        if self.fake_pending[seat]:
            return [Action(seat, DISCARD, k) for k in sorted({kind_of(t) for t in self.hands[seat]})
                    if self.may_discard(seat, k)]
        acts = super()._turn_actions(seat)
        if not self.ting[seat]:
            acts.append(Action(seat, FAKE_TING))
        return acts

    def _check(self, action: Action) -> None:
        """A 假听 seat holding a winning hand on its turn is told that the 假听 forbids the
        win (``fake_ting_cannot_win``), not that the hand does not win."""
        seat = action.seat
        if (action.type == HU and self.phase == DISCARD_PHASE and seat == self.turn and self.fake[seat]
                and self.drawn[seat] is not None and self.win_shape(seat, None)):
            raise IllegalAction("fake_ting_cannot_win", RULES)
        super()._check(action)

    def _apply_turn(self, a: Action) -> None:
        if a.type == FAKE_TING:
            self.fake_pending[a.seat] = True
            return
        super()._apply_turn(a)

    def _discard(self, seat: int, kind: int, declare: bool = False) -> None:
        if self.fake_pending[seat]:
            self.fake_pending[seat] = False
            self.fake[seat] = True
            self.ting[seat] = True
            self.events.append(Event("ting", seat, kind))
        super()._discard(seat, kind, declare)

    # --- winning (Part 2 fan table, waits)
    def doubled_seat(self) -> int | None:
        return self.context.get("jinhu_doubled")

    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, robbing_kong: bool = False, **_: Any) -> dict:
        """``{"ok", "fans", "fan_total" (after the 包五家 ×2), "wait", "streak_multiplier"}``;
        refused with ``code`` ``fake_ting_cannot_win``, ``wait_not_allowed`` or
        ``not_a_winning_hand``."""
        if self.fake[seat]:
            return {"ok": False, "code": "fake_ting_cannot_win", "rule": RULES, "fan_total": 0}
        c13 = self.counts(seat)
        if self_drawn:
            c13[win_kind] -= 1
        w = JinhuWin(tuple(c13), tuple(m.kind for m in self.melds[seat]), win_kind,
                     tuple(kind_of(t) for t in self.flowers[seat]), self_drawn,
                     self_drawn and self.wall_remaining <= self.draw_reserve(),
                     self.options.get("min_fan_for_open_wait", 2))
        try:
            r = jinhu_fans(w)
        except NotAllowed as e:
            return {"ok": False, "code": e.code, "rule": f"{RULES} §Waits", "fan_total": 0}
        mult = 2 if self.doubled_seat() == seat else 1
        return {"ok": True, "fans": r["fans"], "fan_total": r["fan_total"] * mult, "wait": r["wait"],
                "streak_multiplier": mult, "multiplier_rows": [["包五家连庄", "Dealer after 包五家", mult]],
                "calc": {"key": "product", "fan": r["fan_total"], "total": r["fan_total"] * mult}}

    def settle(self, winner: int | None, win: dict | None, discarder: int | None) -> list[int]:
        """A share is the winner's fan.  Self-drawn or a ready discarder: every other seat pays
        one share.  A discarder with no 听/假听 whose tile is a 贼 or the winner's 明大绝 tile
        pays 包五家: five shares, three to the winner and one to each other seat; the
        discarder deals next and their win fan doubles while they keep the deal."""
        pts = [0] * self.n
        if winner is None:
            return pts
        assert win is not None  # a winner's win
        share = win["fan_total"]
        win["next_dealer"] = winner
        tile = self.win_kind
        assert tile is not None  # the hand was won on it
        baowu = (discarder is not None and not self.ting[discarder] and
                 (tile in THIEVES or tile in {m.kind for m in self.melds[winner]}))
        payments = []
        if baowu:
            assert discarder is not None
            pts[discarder] -= 5 * share
            pts[winner] += 3 * share
            payments.append({"from": discarder, "to": winner, "points": 3 * share, "notes": [["shares", 3]]})
            for s in range(self.n):
                if s not in (winner, discarder):
                    pts[s] += share
                    payments.append({"from": discarder, "to": s, "points": share, "notes": [["shares", 1]]})
            win["next_dealer"] = discarder
            win["match_updates"] = {"jinhu_doubled": discarder}
            win["liability"] = {"seat": discarder, "to": winner, "tile": kind_str(tile),
                                "reason": "baowu_thief" if tile in THIEVES else "baowu_mingdajue"}
        else:
            for s in range(self.n):
                if s != winner:
                    pts[s] -= share
                    pts[winner] += share
                    payments.append({"from": s, "to": winner, "points": share})
            if self.doubled_seat() is not None and self.doubled_seat() != winner:
                win["match_updates"] = {"jinhu_doubled": None}
        win["payments"] = payments
        win["baowu"] = discarder if baowu else None
        return pts

    def _win(self, seat: int, tile: int, discarder: int | None, self_drawn: bool, robbing: bool = False) -> None:
        self.win_kind = kind_of(tile)
        super()._win(seat, tile, discarder, self_drawn, robbing)

    # --- warnings, AI, views
    def warnings(self, seat: int) -> list[dict]:
        """Discards that would pay 包五家 if someone wins on them: a 贼, or a tile of another
        seat's exposed pung, while the seat has declared no 听 (nor is declaring a 假听)."""
        if (self.phase != DISCARD_PHASE or seat != self.turn or self.ting[seat] or self.fake_pending[seat]
                or len(self.hands[seat]) % 3 != 2):
            return []  # a 假听 being declared is a declaration: its discard pays no 包五家
        out: list[dict] = []
        for k in sorted({kind_of(t) for t in self.hands[seat]}):
            if not self.may_discard(seat, k):
                continue
            if k in THIEVES:
                out.append({"tile": kind_str(k), "liable_to": None, "reason": "包五家"})
            for o in range(self.n):
                if o != seat and any(m.kind == k for m in self.melds[o]):
                    out.append({"tile": kind_str(k), "liable_to": o, "reason": "包五家"})
        return out

    def extra_view(self, viewer: int | None) -> dict:
        d: dict[str, Any] = {
            "opening_restriction": self.opening_active(),
            "draw_at": self.draw_reserve(),
            "marked": {"kinds": [kind_str(k) for k in (22, 4, 6, 13)], "label": "贼"},
            "doubled": self.doubled_seat(),
        }
        return d

    def private_view(self, seat: int) -> dict:
        """Adds ``fake_ting`` (own seat only), ``warnings`` (包五家 risks), the fan and
        whether the wait rule lets each wait win, and the 听 menu hints."""
        me = MahjongHand.private_view(self, seat)
        me["fake_ting"] = self.fake[seat]
        me["fake_ting_pending"] = self.fake_pending[seat]  # 假听 pressed: its discard declares it
        me["warnings"] = self.warnings(seat) if self.phase != OVER else []
        if self.phase == OVER:
            return me
        return me

    def wait_value(self, seat: int, kind: int) -> dict:
        """Fan of a win on a discard of ``kind`` (13-tile form), and whether the wait rule
        lets it win (``why`` when not)."""
        ev = self.evaluate_win(seat, kind, False)
        out = {"fan": ev.get("fan_total", 0), "ok": bool(ev.get("ok"))}
        if not out["ok"]:
            out["why"] = ev.get("code", "not_a_winning_hand")
        return out


__all__ = ["OPTIONS", "JinhuHand", "FAKE_TING", "THIEVES"]
