"""``two_player`` — 二人麻将: 72 tiles, Chinese Official fans, 15-fan minimum,
宝牌, 听 and 加倍.

Source: ``docs/rules/two_player.md`` (sections named in each docstring).

Decisions taken here where the rule file leaves the mechanics open:

* 天听 for the non-dealer ("declares 听 right after the deal") is offered as a
  听 button without a discard in the claim window of the dealer's first discard
  (the first moment the non-dealer can act), if their 13 dealt tiles are ready.
* The 连庄 multiplier (count of hands the dealer kept + 1) applies to the
  settlement of every win of the hand, whoever wins (the seed's 输赢得分 formula
  has no winner condition).
* The per-discard 听 hint shows, for every wait, the fan of a win on a discard
  (flowers included) and whether, with the 宝牌 and 加倍 multipliers, it reaches
  the minimum.
"""

from __future__ import annotations

from typing import Any

from ...actions import DOUBLE, HU, PASS, TING, Action
from ...mahjong import CLAIM_PHASE, OVER, Event, MahjongHand
from ...options import TIMEOUT_OPTIONS, Option
from ...tiles import FLOWER, HONOR, kind_of, kind_str
from .fans import NotAWin, WinContext, calculate_fans

RULES = "two_player.md"

#: ``base_points`` is score-only: it multiplies the settlement (``settle``) and nothing else
#: reads it, the AI included; ``min_fan`` decides whether a win is legal.
OPTIONS = (
    Option("base_points", int, 1, "Base points (底分) per fan", "底分", min_value=1, max_value=1000,
           score_only=True),
    Option("min_fan", int, 15, "Minimum fan to win (after 加倍 and 宝牌)", "起胡番数（含加倍、宝牌）",
           min_value=1, max_value=88, score_only=False),
) + TIMEOUT_OPTIONS


def treasure_multiplier(copies: int) -> int:
    """宝牌 multiplier for ``copies`` copies in the winning hand: 0→1, 1→2, 2→4, 3→8, 4→16
    (two_player.md §Set-up, 宝牌)."""
    if not 0 <= copies <= 4:
        raise ValueError(f"a kind has 0..4 copies, not {copies}")
    return 2 ** copies


def streak_multiplier(kept: int) -> int:
    """连庄倍数 = 1 + hands the dealer kept in a row (two_player.md §Settlement)."""
    return 1 + kept


def settlement_points(fan_total: int, doubles: int, treasure_copies: int, dealer_kept: int,
                      base: int = 1) -> int:
    """输赢得分 = 胡牌番数 × 加倍倍数 × 宝牌倍数 × 连庄倍数 × 底分 (two_player.md §Settlement).

    >>> settlement_points(16, 2, 1, 2)   # the rule file's worked example
    192
    """
    return fan_total * doubles * treasure_multiplier(treasure_copies) * streak_multiplier(dealer_kept) * base


class TwoPlayerHand(MahjongHand):
    """One hand of 二人麻将 for seats 0 and 1 (``context["dealer_streak"]``: hands the
    dealer kept in a row before this one)."""

    VARIANT = "two_player"
    N_SEATS = 2
    RULES = RULES

    # --- tiles (two_player.md §Tiles): 万 1–9 ×4, winds ×4, dragons ×4, 8 flowers ×1
    def tile_counts(self) -> dict[int, int]:
        counts = {k: 4 for k in range(9)}
        counts.update({k: 4 for k in range(HONOR, HONOR + 7)})
        counts.update({k: 1 for k in range(FLOWER, FLOWER + 8)})
        return counts

    def is_bonus(self, kind: int) -> bool:
        return FLOWER <= kind < FLOWER + 8

    def ting_allowed(self) -> bool:
        return True

    def double_allowed(self) -> bool:
        return True

    def seat_winds(self) -> list[str]:
        """The dealer sits East (东), the other player West (西), facing each other."""
        return ["东" if s == self.dealer else "西" for s in range(self.n)]

    # --- 宝牌 (§Set-up): one kind drawn from the 64 non-flower tiles, after the deal
    def after_deal(self) -> None:
        self.heavenly_ready = [False] * self.n
        non_flower = [t for t in sorted(self.wall) if not self.is_bonus(kind_of(t))]
        self.treasure = kind_of(self.rng.choice(non_flower))
        if "treasure" in self.context:  # fixed by a stacked test wall
            self.treasure = self.context["treasure"]
        self.events.append(self._event("treasure", self.treasure))

    @staticmethod
    def _event(type_: str, tile: int | None = None, seat: int | None = None) -> Event:
        return Event(type_, seat, tile)

    # --- 听 and 天听 (§Play, fan table)
    def on_ting(self, seat: int, with_discard: bool) -> None:
        if with_discard and seat == self.dealer and self.discards_made[seat] == 1 and self.claims_made == 0 \
                and self.draws_made[seat] == 0:
            self.heavenly_ready[seat] = True
        if not with_discard and seat != self.dealer and self.draws_made[seat] == 0 and self.claims_made == 0:
            self.heavenly_ready[seat] = True

    def claim_actions(self, seat: int, discarder: int, kind: int) -> list[Action]:
        acts = super().claim_actions(seat, discarder, kind)
        if (seat != self.dealer and not self.ting[seat] and self.draws_made[seat] == 0
                and self.discards_made[self.dealer] == 1 and self.claims_made == 0
                and len(self.hands[seat]) == 13 and self.waits(seat)):
            acts.append(Action(seat, TING))
        return acts

    PRIORITY = {HU: 3, "kong": 2, "pung": 2, "chow": 1, TING: 0, DOUBLE: 0, PASS: 0}

    def on_window_closed(self, responses: dict[int, Action]) -> None:
        for s, a in sorted(responses.items()):
            if a.type == TING:
                self.ting[s] = True
                self.on_ting(s, with_discard=False)
                self.events.append(self._event("ting", None, s))

    # --- visibility: a ready player sees the opponent's hand and draws (§Play, 听)
    def can_see_hand(self, viewer: int | None, seat: int) -> bool:
        if super().can_see_hand(viewer, seat):
            return True
        return viewer is not None and self.ting[viewer]

    # --- winning and fan (§Fan table, §Minimum to win)
    def win_flags(self, seat: int, win_kind: int, self_drawn: bool, robbing: bool) -> dict:
        """天胡/地胡/人胡/天听, 和绝张, 海底, 杠上开花 flags for a win now (§Fan table)."""
        d = self.dealer
        heavenly = (self_drawn and seat == d and self.draws_made[d] == 0 and self.discards_made[d] == 0)
        earthly = (self_drawn and seat != d and self.draws_made[seat] == 1 and self.discards_made[seat] == 0
                   and self.claims_made == 0)
        human = (not self_drawn and not robbing and seat != d and self.last_discard is not None
                 and self.last_discard[0] == d and kind_of(self.last_discard[1]) == win_kind
                 and self.discards_made[d] == 1 and self.draws_made[seat] == 0 and self.claims_made == 0)
        public = self.visible_counts(None)[win_kind]
        if not self_drawn and not robbing:
            public -= 1  # the winning discard itself lies in the river
        if robbing:
            public = 0  # 抢杠胡 excludes 和绝张
        return {
            "heavenly": heavenly, "earthly": earthly, "human": human,
            "heavenly_ready": self.heavenly_ready[seat],
            "wall_last": self.wall_remaining == 0,
            "kong_replacement": self_drawn and self.after_kong,
            "robbing_kong": robbing,
            "last_copy": public >= 3,
        }

    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, robbing_kong: bool = False, **_: Any) -> dict:
        """Score a win of ``seat`` on ``win_kind``.

        Returns ``{"ok", "fans": [[zh, en, value, count]…], "fan_total", "doubles",
        "treasure_copies", "treasure_multiplier", "total_fan"}`` where ``total_fan`` =
        fan × 加倍 × 宝牌 and ``ok`` is ``total_fan >= min_fan``; when refused also
        ``code="fan_below_minimum"`` (§Minimum to win).
        """
        concealed = sorted(kind_of(t) for t in self.hands[seat])
        if self_drawn:
            concealed.remove(win_kind)
        flags = self.win_flags(seat, win_kind, self_drawn, robbing_kong)
        ctx = WinContext(concealed=tuple(concealed), melds=tuple(self.melds[seat]), win_tile=win_kind,
                         self_drawn=self_drawn, flowers=len(self.flowers[seat]), **flags)
        try:
            fr = calculate_fans(ctx)
        except NotAWin:
            return {"ok": False, "code": "not_a_winning_hand", "rule": RULES, "fan_total": 0}
        copies = concealed.count(self.treasure) + (win_kind == self.treasure) + sum(
            kind_of(t) == self.treasure for m in self.melds[seat] for t in m.tiles)
        mult = treasure_multiplier(copies)
        total = fr.total * self.doubles[seat] * mult
        need = self.options.get("min_fan", 15)
        out = {
            "ok": total >= need,
            "fans": [[f.name, f.en, f.value, f.count] for f in fr.fans],
            "fan_total": fr.total, "doubles": self.doubles[seat],
            "treasure": kind_str(self.treasure), "treasure_copies": copies,
            "treasure_multiplier": mult, "total_fan": total, "min_fan": need,
        }
        if not out["ok"]:
            out.update(code="fan_below_minimum", rule=f"{RULES} §Minimum to win",
                       params={"fan": total, "need": need})
        return out

    def settle(self, winner: int | None, win: dict | None, discarder: int | None) -> list[int]:
        """The loser pays the winner; an exhaustive draw pays nothing (§Settlement)."""
        if winner is None:
            return [0] * self.n
        assert win is not None  # a winner's win
        kept = self.context.get("dealer_streak", 0)
        pts = settlement_points(win["fan_total"], win["doubles"], win["treasure_copies"], kept,
                                self.options.get("base_points", 1))
        win["streak_multiplier"] = streak_multiplier(kept)
        win["base_points"] = self.options.get("base_points", 1)
        win["multiplier_rows"] = [["加倍", "Double", win["doubles"]], ["宝牌", "Treasure", win["treasure_multiplier"]],
                                  ["连庄", "Dealer streak", win["streak_multiplier"]],
                                  ["底分", "Base", win["base_points"]]]
        win["calc"] = {"key": "product", "fan": win["fan_total"], "total": pts}
        win["payments"] = [{"from": s, "to": winner, "points": pts} for s in range(self.n) if s != winner]
        out = [-pts] * self.n
        out[winner] = pts * (self.n - 1)
        return out

    # --- views
    def extra_view(self, viewer: int | None) -> dict:
        return {"treasure": kind_str(self.treasure), "heavenly_ready": list(self.heavenly_ready)}

    def wait_value(self, seat: int, kind: int) -> dict:
        """Fan of a win on a discard of ``kind`` with the current hand (13-tile form), the
        total with 加倍 and 宝牌, and whether it reaches the table's minimum (``why``,
        ``need`` when not); a self-drawn win's fan where it differs (``fan_self``) and
        ``ok_self`` when only a self-drawn win reaches the minimum."""
        saved = self.hands[seat]
        try:
            ev = self.evaluate_win(seat, kind, False)
        finally:
            self.hands[seat] = saved
        out = {"fan": ev.get("fan_total", 0), "total": ev.get("total_fan", 0), "ok": bool(ev.get("ok"))}
        if not out["ok"]:
            out.update(why=ev.get("code", "not_a_winning_hand"), need=self.options.get("min_fan", 15))
        own = self.drawn_win(seat, kind)  # self-drawn: 自摸 and its kin count too
        if own.get("fan_total", 0) != out["fan"]:
            out["fan_self"] = own.get("fan_total", 0)
        if own.get("ok") and not out["ok"]:
            out["ok_self"] = True  # below the minimum on a discard, enough self-drawn
        return out

    def ting_hint(self, seat: int) -> list[dict]:
        """The discard hint (``DiscardHint.ting_hint``), a 听 with the dealer's first discard
        counted as 天听 (16 fan).

        Shape: ``[{"discard": "9m", "waits": [{"tile", "fan", "total", "ok", "left"}]}]``.
        """
        saved_ready = self.heavenly_ready[seat]
        if seat == self.dealer and self.discards_made[seat] == 0 and self.draws_made[seat] == 0 \
                and self.claims_made == 0:
            self.heavenly_ready[seat] = True
        try:
            return super().ting_hint(seat)
        finally:
            self.heavenly_ready[seat] = saved_ready


__all__ = ["TwoPlayerHand", "OPTIONS", "treasure_multiplier", "streak_multiplier", "settlement_points",
           "CLAIM_PHASE", "OVER"]
