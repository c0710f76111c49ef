"""The settlement of 老五对 (``docs/rules/laowudui.md`` §Scoring): the fans, the payment between
the winner and each loser with the 买庄 factor, the best reading of the wilds for a win, and the
result of a finished hand (one or several winners, or an exhaustive draw).

:class:`Scoring` is mixed into :class:`engine.variants.laowudui.hand.LaoWuDuiHand`.
"""

from __future__ import annotations

from typing import AbstractSet, Optional, Sequence


from ...events import Event
from ...melds import Meld
from ...tiles import kind_of, kind_str
from .actions import OVER, RULES
from .shapes import is_big, is_xi, readings
from .state import LaoWuDuiState, _Win

#: fans: key -> (zh, en)   (laowudui.md §Scoring)
FANS = {
    "base": ("底番", "Base fan"),
    "menqing": ("门清", "Concealed hand"),
    "zhezhuang": ("折庄", "Zhe zhuang"),
    "laohu": ("老胡", "No wild"),
    "qingyise": ("清一色", "One suit"),
    "sanbaozha": ("三爆炸", "Three fours"),
    "shuangtuoshou": ("双脱手", "All melded"),
    "quanxiao": ("全小", "All small"),
    "quanda": ("全大", "All big"),
    "hubaida": ("胡百搭", "Win on a discarded wild"),
    "zimo": ("自摸", "Self-drawn without wild"),
}


def payment(dui: int, fans: int, factor: int = 1) -> int:
    """One payment between the winner and one loser (laowudui.md §Scoring):
    ``(对 + 1) × 2^(fans + 1) × factor``, ``fans`` not counting the 底番.

    >>> payment(23, 1)   # the rule file's example: 对 23 with 老胡
    96
    """
    return (dui + 1) * 2 ** (fans + 1) * factor


def buy_factor(winner: int, loser: int, dealer: int, bought: list[bool]) -> int:
    """买庄 factor of the payment between ``winner`` and ``loser``: 1 between two
    non-dealers; between the dealer and a non-dealer ×2 if the dealer bought and ×2
    more if that non-dealer bought (laowudui.md §Scoring, Decision)."""
    if dealer not in (winner, loser):
        return 1
    other = loser if winner == dealer else winner
    return (2 if bought[dealer] else 1) * (2 if bought[other] else 1)


def meld_items(melds: Sequence[Meld], fours: Optional[AbstractSet[int]]) -> list[dict]:
    """The 对 of the meld area item by item (laowudui.md §Scoring): ``{"item": "pair" | "four",
    "value", "tiles"}`` per meld; a 吃 pair or 堆 whose kind is in ``fours`` was completed to a
    four (by 百搭 or the real tiles) in the reading scored."""
    out = []
    for m in melds:
        k = m.kinds[0]
        four = m.type == "kong" or (not is_xi(k) and k in (fours or ()))
        tiles = list(m.kinds) if four is False or len(m.kinds) == 4 else [k] * 4
        value = (10 if four else 1) * (2 if is_big(k) else 1)
        out.append({"item": "four" if four else "pair", "value": value, "tiles": [kind_str(x) for x in tiles]})
    return out


class Scoring(LaoWuDuiState):
    """Wins and draws of :class:`~engine.variants.laowudui.hand.LaoWuDuiHand`."""

    def _draw_game(self) -> None:
        self.phase = OVER
        self.claim_options, self.responses = {}, {}
        self.result = {"winner": None, "winners": [], "draw": True, "points": [0] * self.n, "dealer": self.dealer,
                       "discarder": None, "self_drawn": False, "next_dealer": (self.dealer + 1) % self.n,
                       "hands": self._all_hands(), "bought": [bool(b) for b in self.bought]}
        self.events.append(Event("draw_game"))

    def _all_hands(self) -> list[list[str]]:
        return [[kind_str(k) for k in sorted(kind_of(t) for t in self.hands[s])] for s in range(self.n)]

    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, on_discarded_wild: bool = False,
                     hand: list[int] | None = None) -> dict:
        """Score ``seat``'s win on ``win_kind`` (laowudui.md §Scoring): the reading of the
        wilds with the best payment.

        Returns ``{"ok", "dui", "fans": [[zh, en, 1, 1], …] (底番 first), "fan_total"
        (fans incl. the 底番), "unit" ((对+1) × 2^fan_total)}``; ``ok`` False with
        ``code="not_a_winning_hand"`` when the tiles do not win.
        """
        hand = self.hands[seat] if hand is None else hand
        melds = self.melds[seat]
        concealed = [kind_of(t) for t in hand] + [win_kind]
        rs = readings(concealed, self._meld_spec(melds), self.wild)
        if not rs:
            return {"ok": False, "code": "not_a_winning_hand", "rule": f"{RULES} §Winning", "fan_total": 0}
        n_wild_tiles = sum(1 for k in concealed if k in self.wild)
        static = []
        if not melds:
            static.append("menqing")
        if self.zhezhuang[seat]:
            static.append("zhezhuang")
        if n_wild_tiles == 0:
            static.append("laohu")
            if self_drawn:
                static.append("zimo")
        if len(hand) == 1 and melds:
            static.append("shuangtuoshou")
        if on_discarded_wild:
            static.append("hubaida")
        best = None
        for r in rs:
            for dui, bomb in ((r.dui, False), (r.dui_all_fours, True)):
                if dui is None:
                    continue
                fans = list(static)
                if bomb:
                    fans.append("sanbaozha")
                real = [k for k in r.kinds]
                if real and not any(is_xi(k) for k in real) and len({_suit(k) for k in real}) == 1:
                    fans.append("qingyise")
                if all(is_xi(k) or not is_big(k) for k in real):
                    fans.append("quanxiao")
                if all(is_big(k) for k in real):
                    fans.append("quanda")
                unit = payment(dui, len(fans))
                if best is None or unit > best[0]:
                    best = (unit, dui, fans, r.meld_fours_all if bomb else r.meld_fours)
        assert best is not None  # a winning hand has a reading
        unit, dui, fans, fours = best
        order = list(FANS)
        fans.sort(key=order.index)
        return {"ok": True, "dui": dui, "fan_total": len(fans) + 1, "unit": unit,
                "fan_keys": ["base"] + fans,
                "fans": [[FANS[f][0], FANS[f][1], 1, 1] for f in ["base"] + fans],
                "count": {"name": "dui", "value": dui, "items": meld_items(melds, fours)},
                "calc": {"key": "payment", "dui": dui, "fan": len(fans) + 1, "total": unit}}

    def _finish(self, wins: list[_Win]) -> None:
        self.phase = OVER
        self.claim_options, self.responses = {}, {}
        points = [0] * self.n
        evals: dict[str, dict] = {}
        payments = []
        for w in wins:
            k = kind_of(w.tile)
            ev = self.evaluate_win(w.seat, k, w.self_drawn,
                                   on_discarded_wild=(not w.self_drawn and k in self.wild))
            evals[str(w.seat)] = ev
            if len(wins) > 1:  # several winners: each on the one discard
                assert w.discarder is not None
                payers = [w.discarder]
            else:
                payers = [s for s in range(self.n) if s != w.seat]
            for p in payers:
                factor = buy_factor(w.seat, p, self.dealer, [bool(b) for b in self.bought])
                amount = ev["unit"] * factor
                points[w.seat] += amount
                points[p] -= amount
                payments.append({"from": p, "to": w.seat, "points": amount}
                                | ({"notes": [["buy", factor]]} if factor > 1 else {}))
        for w in wins:
            if w.self_drawn:  # a discard won on stays in the discarder's river
                self.hands[w.seat].append(w.tile)
            self.events.append(Event("hu", w.seat, kind_of(w.tile), {"self_drawn": w.self_drawn, "from": w.discarder}))
        first = wins[0]
        ev = evals[str(first.seat)]
        self.result = {
            "winner": first.seat, "winners": [w.seat for w in wins], "draw": False,
            "self_drawn": first.self_drawn, "discarder": first.discarder, "win_tile": kind_str(kind_of(first.tile)),
            "points": points, "dealer": self.dealer, "next_dealer": (self.dealer + 1) % self.n,
            "fans": ev["fans"], "fan_total": ev["fan_total"], "dui": ev["dui"], "unit": ev["unit"],
            "fan_by_seat": {s: e["fan_total"] for s, e in evals.items()},
            "dui_by_seat": {s: e["dui"] for s, e in evals.items()},
            "fans_by_seat": {s: e["fans"] for s, e in evals.items()},
            "count": ev["count"], "count_by_seat": {s: e["count"] for s, e in evals.items()},
            "calc": ev["calc"], "calc_by_seat": {s: e["calc"] for s, e in evals.items()},
            "payments": payments, "bought": [bool(b) for b in self.bought],
            "hands": self._all_hands(),
        }


def _suit(kind: int) -> int:
    from .shapes import SUIT_OF

    return SUIT_OF[kind]
