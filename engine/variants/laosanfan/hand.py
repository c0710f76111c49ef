"""``laosanfan`` — 老三番: four players, 144 tiles, 胡 points × 2^fan with a 3-fan cap.

Source: ``docs/rules/laosanfan.md`` Part 1 (sections named in each docstring).

Decisions taken here where the rule file leaves the mechanics open:

* Opening restriction: "the first go-around" is the first discard of each of the four
  seats (claims are forbidden then, so turns go strictly round); no claim may be made on
  those four discards and no concealed kong declared before them; the first hand of a
  table is ``context["hand_no"] == 0``.
* Exhaustive draw: the hand ends when ``wall_remaining // 2 <= 9 + kongs`` (19 tiles left
  is 9 stacks and an odd tile, so it ends there); a kong's replacement draw is still made.
* Only the standard shape (4 sets + a pair) wins: the seed lists no seven pairs.
* 夹中胡 scores when some reading of the hand puts the winning tile in the middle of a
  chow; the hand is read the way that scores most 胡.
* 三摊: only exposed sets count (a concealed kong is not an exposure); "ready" means the
  hand left after the discard is ready (any wait); the liable discarder pays three times
  the total (what the three losers pay on a self-drawn win), whatever ``discard_pays``.
* 胡头 (option): a non-winner's 胡 is its melds' 胡, 8 or 4 per concealed triplet (honour
  or terminal / simple) and 4 per flower; settled pairwise among the three non-winners.
"""

from __future__ import annotations

from typing import Any, Sequence

from ... import hand_shapes
from ...actions import CHOW, KONG, PUNG
from ...mahjong import DISCARD_PHASE, OVER, MahjongHand
from ...melds import Meld
from ...options import TIMEOUT_OPTIONS, Option
from ...tiles import FLOWER, HONOR, is_flower, is_terminal_or_honor, kind_of, kind_str
from .scoring import (FAN_CAP, STYLES, capped, dragon_fan, hu_detail, meld_hu, money_rounding, pattern_fan,
                      pung_hu, seat_flower_fan, style_calc)

RULES = "laosanfan.md"

#: score-only (``Option.score_only``): ``style`` sets the total of a win from its 胡 and fan,
#: ``discard_pays`` who pays a discard win, ``hutou`` the non-winners' 胡头 payments and
#: ``money_rounding`` a shown rounding — :meth:`LaoSanFanHand.settle` alone reads them, never
#: the deal, what is legal or when the hand ends (the 三摊 liability is the discarder's
#: whatever ``discard_pays``).  The strong AI weighs its routes by the ``style``'s payout,
#: so its seats might have played otherwise under another style; a re-score keeps the moves
#: as played.  ``opening_restriction`` limits the first go-around's discards and claims.
OPTIONS = (
    Option("style", str, "yaobansan",
           "Scoring style: yaobansan 么半三 (30 base, cap 300), yaobanliu 么半六 (60, cap 500), "
           "tuidaoba 推倒八 (100/200/400/800), yaoerliu 么二六 (100 base)",
           "计分类别：yaobansan 么半三（30底，顶300）、yaobanliu 么半六（60底，顶500）、"
           "tuidaoba 推倒八（100/200/400/800）、yaoerliu 么二六（100底）",
           choices=tuple(STYLES), score_only=True),
    Option("discard_pays", str, "all", "Win on a discard: all three losers pay (all) or only the discarder",
           "点炮胡：三家都付（all）或只由点炮者付（discarder）", choices=("all", "discarder"),
           score_only=True),
    Option("opening_restriction", bool, True,
           "First go-around of the first hand: discard only 筒/万, no chow/pung/kong",
           "首局第一圈只能打筒、万，不能吃碰杠", score_only=False),
    Option("hutou", bool, False, "胡头: the three non-winners settle their 胡 among themselves",
           "胡头：未胡的三家之间按胡数结算", score_only=True),
    Option("money_rounding", bool, False, "么半六: also show the money rounding (120 → 100, 170 → 200)",
           "么半六：显示银子取整（120→100，170→200）", score_only=True),
) + TIMEOUT_OPTIONS


def three_exposure_danger(melds: Sequence[Meld], suit_rule: bool = True) -> dict:
    """The 三摊 danger of a seat's melds (laosanfan.md §三摊).

    :param melds: the seat's melds; only exposed ones (not concealed kongs) count.
    :returns: ``{"suits": [0..2 …], "terminals": bool}``: suits (0 万, 1 筒, 2 条) whose
        tiles make a non-ready discarder liable, and whether terminals/honours do.
    """
    exposed = [m for m in melds if not m.concealed]
    honour_pungs = sum(1 for m in exposed if m.is_pung_like and m.kind >= HONOR)
    per_suit = [0, 0, 0]
    for m in exposed:
        if m.kind < HONOR:
            per_suit[m.kind // 9] += 1
    suits = [s for s in range(3) if suit_rule and per_suit[s] >= 1 and per_suit[s] + honour_pungs >= 3]
    pungs = sum(1 for m in exposed if m.is_pung_like)
    return {"suits": suits, "terminals": pungs >= 3}


def is_dangerous(kind: int, danger: dict) -> bool:
    """True if discarding ``kind`` against ``danger`` (see :func:`three_exposure_danger`)
    risks 包牌."""
    if kind < HONOR and kind // 9 in danger["suits"]:
        return True
    return danger["terminals"] and is_terminal_or_honor(kind)


class LaoSanFanHand(MahjongHand):
    """One hand of 老三番 for four seats.  ``context``: ``hand_no`` (0 = the table's first
    hand, for the opening restriction), ``dealer_streak``; a ``stacked`` wall for tests."""

    VARIANT = "laosanfan"
    N_SEATS = 4
    RULES = RULES

    def __init__(self, options: dict, seed: int, dealer: int, context: dict | None = None):
        self.liability: dict | None = None  # the last discard's 三摊 liability
        super().__init__(options, seed, dealer, context)

    # --- tiles (§Tiles): 万筒条 ×4, winds ×4, dragons ×4, 8 flowers ×1
    def tile_counts(self) -> dict[int, int]:
        counts = {k: 4 for k in range(34)}
        counts.update({k: 1 for k in range(FLOWER, FLOWER + 8)})
        return counts

    def is_bonus(self, kind: int) -> bool:
        return is_flower(kind)

    # --- opening restriction (§Set-up and play)
    def opening_active(self) -> bool:
        """True during the first go-around of the table's first hand when the option is on."""
        return (bool(self.options.get("opening_restriction", False)) and self.context.get("hand_no", 0) == 0
                and sum(self.discards_made) < self.n)

    def may_discard(self, seat: int, kind: int) -> bool:
        """First go-around: only 万/筒 (kinds 0..17), unless the seat holds none."""
        if not self.opening_active() or kind < 18:
            return True
        return not any(kind_of(t) < 18 for t in self.hands[seat])

    def claims_allowed(self) -> bool:
        """No chow/pung/kong on the four discards of the first go-around."""
        return not (bool(self.options.get("opening_restriction", False)) and self.context.get("hand_no", 0) == 0
                    and sum(self.discards_made) <= self.n)

    def _own_kong_kinds(self, seat: int) -> list[int]:
        if self.opening_active():
            return []
        return super()._own_kong_kinds(seat)

    # --- exhaustive draw (§Set-up and play)
    def kongs_made(self) -> int:
        return sum(1 for s in range(self.n) for m in self.melds[s] if m.is_kong)

    def draw_reserve(self) -> int:
        """Tiles left at which the hand is drawn: 9 stacks + 1 per kong, an odd tile not
        counted (so ``19 + 2 × kongs``: at that count ``remaining // 2`` is 9 + kongs)."""
        return 19 + 2 * self.kongs_made()

    # --- shapes: standard hands only
    def win_shape(self, seat: int, win_kind: int | None) -> bool:
        counts = self.counts(seat)
        if win_kind is not None:
            counts[win_kind] += 1
        return hand_shapes.is_standard_win(counts, len(self.melds[seat]))

    WAITS_WITHIN_SHAPE = True  # the base class's waits, narrowed

    def _live_waits(self, seat: int, counts: list[int], n_melds: int, kong_kind: int | None = None) -> list[int]:
        waits = super()._live_waits(seat, counts, n_melds, kong_kind)
        if n_melds == 0 and waits:
            out = []
            for k in waits:
                counts[k] += 1
                if hand_shapes.is_standard_win(counts, 0):
                    out.append(k)
                counts[k] -= 1
            return out
        return waits

    def ready_map(self) -> dict[int, list[int]]:
        """Ready detection for every seat holding 13 tiles (concealed + 3 per meld):
        ``{seat: [wait kinds]}`` (an empty list: not ready).  A seat about to discard is
        left out."""
        out = {}
        for s in range(self.n):
            if len(self.hands[s]) + 3 * len(self.melds[s]) == 13:
                out[s] = self.waits(s)
        return out

    # --- 三摊 liability (§三摊)
    def danger_of(self, seat: int) -> dict:
        return three_exposure_danger(self.melds[seat])

    def liable_targets(self, seat: int, kind: int) -> list[int]:
        """Seats to whom ``seat`` would become liable by discarding ``kind`` now: those with a
        三摊 danger covering ``kind``, when the hand left after the discard is not ready."""
        targets = [o for o in range(self.n) if o != seat and is_dangerous(kind, self.danger_of(o))]
        if not targets or self._ready_after_discard(seat, kind):
            return []
        return targets

    def _discard(self, seat: int, kind: int, declare: bool = False) -> None:
        targets = self.liable_targets(seat, kind)
        self.liability = {"seat": seat, "kind": kind, "to": targets} if targets else None
        super()._discard(seat, kind, declare)

    def warnings(self, seat: int) -> list[dict]:
        """The private 三摊 warnings of a seat about to discard: ``[{"tile", "liable_to",
        "reason": "三摊"}]``, one per legal discard kind and liable-to seat."""
        if self.phase != DISCARD_PHASE or seat != self.turn or len(self.hands[seat]) % 3 != 2:
            return []
        dangers = {o: self.danger_of(o) for o in range(self.n) if o != seat}
        if not any(d["suits"] or d["terminals"] for d in dangers.values()):
            return []
        out = []
        for k in sorted({kind_of(t) for t in self.hands[seat]}):
            drawn = self.drawn[seat]
            if not self.may_discard(seat, k) or (self.ting[seat] and (drawn is None or kind_of(drawn) != k)):
                continue
            for o in self.liable_targets(seat, k):
                out.append({"tile": kind_str(k), "liable_to": o, "reason": "三摊"})
        return out

    # --- winning and scoring (§Fan, §胡, §Scoring styles)
    def wind_index(self, seat: int) -> int:
        return (seat - self.dealer) % self.n

    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, robbing_kong: bool = False, **_: Any) -> dict:
        """Score a win of ``seat`` on ``win_kind``: ``{"ok", "fans", "fan_total" (capped),
        "hu", "hu_items", "style", "total", "count" (胡 item by item), "calc", "caps"}``;
        ``total`` is what one loser pays."""
        c13 = self.counts(seat)
        if self_drawn:
            c13[win_kind] -= 1
        full = list(c13)
        full[win_kind] += 1
        melds = self.melds[seat]
        if not hand_shapes.is_standard_win(full, len(melds)):
            return {"ok": False, "code": "not_a_winning_hand", "rule": RULES, "fan_total": 0}
        hu, detail = hu_detail(c13, melds, win_kind, self_drawn, sorted(kind_of(t) for t in self.flowers[seat]))
        items = [[f"{i['item']}:{''.join(i['tiles'][:1])}", i["value"]] for i in detail if i["value"]]
        all_kinds = [k for k in range(34) for _ in range(full[k])] + [k for m in melds for k in m.kinds]
        all_pungs = all(m.is_pung_like for m in melds) and any(
            all(c >= hand_shapes.PUNG_CODE for c in codes) for codes, _ in hand_shapes.decompose_codes(full))
        fans = pattern_fan(all_kinds, all_pungs)
        fans += seat_flower_fan([kind_of(t) for t in self.flowers[seat]], self.wind_index(seat))
        fans += dragon_fan(full, melds)
        fan = capped(fans)
        style = self.options.get("style", "yaobansan")
        calc, caps = style_calc(style, hu, fan)
        raw_fan = sum(f[2] * f[3] for f in fans)
        if raw_fan > FAN_CAP:  # 三番为顶
            caps.insert(0, {"item": "fan", "uncapped": raw_fan, "value": FAN_CAP})
        total = calc["total"]
        return {"ok": True, "fans": fans, "fan_total": fan, "hu": hu, "hu_items": items,
                "style": style, "style_name": STYLES[style][0], "total": total,
                "count": {"name": "hu", "value": hu, "items": detail}, "calc": calc, "caps": caps,
                "summary_rows": [["胡", "hu", hu], ["番", "fan", fan], [STYLES[style][0], style, total]]}

    def settle(self, winner: int | None, win: dict | None, discarder: int | None) -> list[int]:
        """Self-drawn: each loser pays the total; on a discard ``discard_pays`` decides (all
        three, or the discarder alone); a 三摊-liable discarder pays for all three.  胡头 is
        added when the option is on.  An exhaustive draw pays nothing."""
        pts = [0] * self.n
        if winner is None:
            return pts
        assert win is not None  # a winner's win
        total = win["total"]
        liable = None
        if discarder is not None and self.liability and self.liability["seat"] == discarder \
                and winner in self.liability["to"]:
            liable = discarder
        if discarder is None:
            payers = {s: total for s in range(self.n) if s != winner}
        elif liable is not None:
            payers = {liable: total * (self.n - 1)}
        elif self.options.get("discard_pays", "all") == "discarder":
            payers = {discarder: total}
        else:
            payers = {s: total for s in range(self.n) if s != winner}
        payments = []
        for s, v in payers.items():
            pts[s] -= v
            pts[winner] += v
            payments.append({"from": s, "to": winner, "points": v}
                            | ({"notes": [["santan", self.n - 1]]} if s == liable else {}))
        win["liable"] = liable
        if liable is not None:
            assert self.liability is not None  # liable by the last discard's 三摊
            win["liability"] = {"seat": liable, "reason": "santan", "to": winner,
                                "tile": kind_str(self.liability["kind"])}
        if self.options.get("hutou"):
            ht, pairs = self.hutou_payments(winner)
            win["hutou"] = ht
            pts = [a + b for a, b in zip(pts, ht)]
            payments += [{"from": lo, "to": hi, "points": pay, "notes": [["hutou", diff]]}
                         for lo, hi, pay, diff in pairs]
        win["payments"] = payments
        if self.options.get("money_rounding") and win["style"] == "yaobanliu":
            win["money"] = [money_rounding(p) for p in pts]
        return pts

    def loser_hu(self, seat: int) -> int:
        """胡 of a non-winner for 胡头: melds, concealed triplets and flowers."""
        c = self.counts(seat)
        v = sum(meld_hu(m) for m in self.melds[seat]) + 4 * len(self.flowers[seat])
        v += sum(pung_hu(k, True, False) for k in range(34) if c[k] >= 3)
        return v

    def hutou(self, winner: int) -> list[int]:
        """胡头 settlement among the three non-winners (laosanfan.md §Scoring styles): per full
        10 胡 of difference the higher collects 5 from a 边家 and 10 from the 头家 (dealer); in
        推倒八 a 边家 pays 50 when 50 胡 behind, the 头家 50 when 30 behind."""
        return self.hutou_payments(winner)[0]

    def hutou_payments(self, winner: int) -> tuple[list[int], list[tuple[int, int, int, int]]]:
        """:meth:`hutou` per seat, and its payments ``(payer, payee, points, 胡 difference)``."""
        others = [s for s in range(self.n) if s != winner]
        hu = {s: self.loser_hu(s) for s in others}
        out = [0] * self.n
        pairs = []
        tuidao = self.options.get("style") == "tuidaoba"
        for i, a in enumerate(others):
            for b in others[i + 1:]:
                hi, lo = (a, b) if hu[a] >= hu[b] else (b, a)
                diff = hu[hi] - hu[lo]
                dealer = lo == self.dealer
                if tuidao:
                    pay = 50 if diff >= (30 if dealer else 50) else 0
                else:
                    pay = (diff // 10) * (10 if dealer else 5)
                out[hi] += pay
                out[lo] -= pay
                if pay:
                    pairs.append((lo, hi, pay, diff))
        return out, pairs

    # --- AI and views
    def extra_view(self, viewer: int | None) -> dict:
        d: dict[str, Any] = {
            "style": self.options.get("style", "yaobansan"),
            "opening_restriction": self.opening_active(),
            "draw_at": self.draw_reserve(),
            "santan": {str(s): dz for s in range(self.n)
                       if (dz := self.danger_of(s))["suits"] or dz["terminals"]},
        }
        return d

    def wait_value(self, seat: int, kind: int) -> dict:
        """A win on ``kind`` (13-tile form) in the game's units: its 胡 and 番 on a discard and
        what one loser pays (``score``; the style's calculation), and a self-drawn win's
        ``score_self`` where it differs (自摸 adds 2 胡)."""
        ev = self.evaluate_win(seat, kind, False)
        if not ev.get("ok"):
            return {"ok": False, "why": ev.get("code", "not_a_winning_hand")}
        out = {"hu": ev["hu"], "fan": ev["fan_total"], "score": ev["total"]}
        own = self.drawn_win(seat, kind)
        if own.get("ok") and own["total"] != ev["total"]:
            out["score_self"] = own["total"]
        return out

    def private_view(self, seat: int) -> dict:
        """Adds ``warnings``: the discards that would make the seat liable (三摊)."""
        me = super().private_view(seat)
        me["warnings"] = self.warnings(seat) if self.phase != OVER else []
        return me


__all__ = ["OPTIONS", "LaoSanFanHand", "three_exposure_danger", "is_dangerous", "CHOW", "PUNG", "KONG"]
