"""The settlement of 字牌 (``docs/rules/zipai.md`` §Scoring): 囤 and 番, who pays, and the result
of a finished hand (a win or an exhaustive draw).

:class:`Scoring` is mixed into :class:`engine.variants.zipai.hand.ZipaiHand`.
"""

from __future__ import annotations

from ...tiles import kind_of, kind_str
from .actions import OVER
from .huxi import classify_three, group_huxi, idx_of, kind_of_idx, tun_of
from .state import ZipaiState


def group_item(gtype: str, idxs: list[int]) -> dict:
    """A group of a win as a 胡息 item (zipai.md §胡息): ``{"item", "value", "tiles"}``; a 吃/比
    group is named by what its cards make (``sentence`` or ``jiao``)."""
    if gtype in ("chi", "bi"):
        gtype = classify_three(idxs) or "sentence"
    return {"item": gtype, "value": group_huxi(gtype, idxs), "tiles": [kind_str(kind_of_idx(i)) for i in idxs]}


def huxi_items(table: list[tuple[str, list[int]]], groups: list[tuple], counted: int, raw: int) -> list[dict]:
    """Every group of a winning hand with its 胡息: ``table`` the groups laid down (type, card
    indices), ``groups`` the hand's split (``best_win``: ``("table_pao", idx)`` when the card
    won on made a table 碰/偎 a 跑); a 毛胡 (``counted`` > ``raw`` 0) adds a ``maohu`` item
    worth the difference, so the items sum to the 胡息 counted."""
    table_pao = {g[1] for g in groups if g[0] == "table_pao"}
    items = []
    for gtype, idxs in table:
        if gtype in ("peng", "wei", "chouwei") and idxs[0] in table_pao:
            table_pao.discard(idxs[0])
            gtype, idxs = "pao", [idxs[0]] * 4
        items.append(group_item(gtype, idxs))
    items += [group_item(g[0], list(g[1:])) for g in groups if g[0] != "table_pao"]
    if counted != raw:
        items.append({"item": "maohu", "value": counted - raw, "tiles": []})
    return items


def settlement(n: int, winner: int, huxi: int, fan: int, tun_per: int, piao: list[int],
               payers: list[int]) -> tuple[int, int, list[int]]:
    """``(囤, 总囤, points)`` of a win (zipai.md §Scoring): 总囤 = 囤 × 番; each payer pays
    总囤 + its own 飘 + the winner's 飘; the winner receives the sum.

    >>> settlement(3, 0, 16, 2, 3, [0, 0, 0], [1, 2])[:2]   # the rule file's example
    (5, 10)
    """
    tun = tun_of(huxi, tun_per)
    total = tun * fan
    points = [0] * n
    for p in payers:
        pay = total + piao[p] + piao[winner]
        points[p] -= pay
        points[winner] += pay
    return tun, total, points


class Scoring(ZipaiState):
    """Wins and draws of :class:`~engine.variants.zipai.hand.ZipaiHand`."""

    def _draw_game(self) -> None:
        self.phase = OVER
        self.pending = None
        self.result = {"winner": None, "winners": [], "draw": True, "self_drawn": False, "discarder": None,
                       "points": [0] * self.n, "dealer": self.dealer, "next_dealer": (self.dealer + 1) % self.n,
                       "hands": self._all_hands(), "piao": [p or 0 for p in self.piao]}
        self._ev("draw_game")

    def _all_hands(self) -> list[list[str]]:
        return [[kind_str(k) for k in sorted(kind_of(t) for t in h)] for h in self.hands]

    def _win(self, p: int, card: int | None, source: str) -> None:
        """Settle a win (zipai.md §Scoring): 自摸 2 番 (own draw, 偎胡/提胡, the dealt 15),
        放炮 n 番 paid by the discarder alone, a card shown by another's draw 1 番 paid by all."""
        owner = self.pending[0] if self.pending else p
        ev = self.win_eval(p, card, True)
        assert ev is not None  # a win is settled only when the cards win
        if source == "self" or (source == "stock" and owner == p):
            fan, names, payers, discarder, self_drawn = 2, ("自摸", "Self-drawn"), None, None, True
        elif source == "discard":
            fan, names, payers, discarder, self_drawn = self.n, ("放炮", "Dealt in"), [owner], owner, False
        else:
            fan, names, payers, discarder, self_drawn = 1, ("示众牌", "Shown card"), None, None, False
        if payers is None:
            payers = [s for s in range(self.n) if s != p]
        piao = [x or 0 for x in self.piao]
        tun, total, points = settlement(self.n, p, ev["huxi"], fan, self.options["tun_per"], piao, payers)
        win_kind = kind_of(card) if card is not None else None
        if card is not None:
            self.hands[p].append(card)
        self.pending = None
        self.phase = OVER
        fans = [[names[0], names[1], fan, 1]]  # the 名堂; 胡息 and 囤 are in count and calc
        table = [(g.type, [idx_of(kind_of(t)) for t in g.tiles]) for g in self.groups[p]]
        count = {"name": "huxi", "value": ev["huxi"],
                 "items": huxi_items(table, ev["groups"], ev["huxi"], ev["raw_huxi"])}
        payments = [{"from": s, "to": p, "points": total + piao[s] + piao[p]}
                    | ({"notes": [["piao", piao[s] + piao[p]]]} if piao[s] + piao[p] else {}) for s in payers]
        self.result = {
            "winner": p, "winners": [p], "draw": False, "self_drawn": self_drawn, "discarder": discarder,
            "win_tile": kind_str(win_kind) if win_kind is not None else (
                kind_str(kind_of(self.shown["card"])) if self.shown else None),
            "points": points, "huxi": ev["huxi"], "raw_huxi": ev["raw_huxi"], "tun": tun, "fan": fan,
            "total_tun": total, "fan_total": ev["huxi"], "total_fan": total, "fans": fans,
            "summary_rows": [["胡息", "hu xi", ev["huxi"]], ["囤", "tun", tun], ["番", "fan", fan],
                             ["总囤", "total tun", total]],
            "count": count, "payments": payments,
            "calc": {"key": f"tun_{self.options['tun_per']}", "huxi": ev["huxi"], "tun": tun, "fan": fan,
                     "total": total},
            "piao": piao, "payers": payers, "dealer": self.dealer, "next_dealer": p,
            # a card turned up by another seat's draw (示众牌): that seat, who dealt nothing in
            "shown_by": owner if source not in ("self", "discard") and owner != p else None,
            "groups": [[g[0]] + [kind_str(kind_of_idx(x)) for x in g[1:] if isinstance(x, int)]
                       for g in ev["groups"]],
            "hands": self._all_hands(),
        }
        self._ev("hu", p, win_kind, self_drawn=self_drawn, **{"from": discarder})
