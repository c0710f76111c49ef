"""``caishen`` — 财神麻将: four players, 136 tiles, a turned tile makes its kind wild (财神),
白板 plays as that kind, special hands multiply.

Source: ``docs/rules/caishen.md`` (sections named in each docstring).

Model of the wild and its stand-in.  Tiles keep their printed kind everywhere (actions,
rivers, melds): a 白板 is ``5z`` in ``"0 discard 5z"``.  When the hand is read, the
counts are *effective*: every 白板 counts as the 财神's kind (``stands_for``), and every
tile of the 财神 kind is taken out as a wild (:meth:`CaishenHand.split_counts`).  When
the turned tile is itself 白板, 白板 is wild and nothing stands in.

Decisions taken here where the rule file leaves the mechanics open (they go in the
project's docs):

* The 财神 is chosen by the dice rolled after the deal (the hand's ``dice``, logged as the
  ``dice`` event): the tile that many places from the end of the wall is turned face up
  (``caishen`` event).  It stays in the wall and is drawn in its turn.
* 财神会 is the action ``caishen_hui``: offered on one's own turn after a draw (the
  dealer's dealt 14 included) while holding three or more 财神.  It is a self-drawn win.
  A self-drawn win by a player holding three 财神 also counts 财神会, whether declared
  with ``hu`` or ``caishen_hui`` (this gives the rule file's 财神会 + 七对子 example).
* Hand-shape specials (清一色, 七对子, 独吊, 大碰胡, 十三幺, 七字十三幺) count only when
  the hand has that shape; situational ones (天胡, 地胡, 杠头开花, 抢杠胡, 财神会) count on
  any win, a 财神会 without a winning shape included.  A hand is read the way that pays
  most: as a standard hand (with 大碰胡 if it splits into pungs), as 七对子 or as 十三幺.
* 七字十三幺 replaces 十三幺 (its value 4 is not multiplied by 十三幺's 2).
* Four identical tiles count as two pairs in 七对子 (as in :mod:`engine.hand_shapes`).
* 清一色: every tile other than 财神 is of one suit (a 白板 counts as the kind it plays).
  独吊: four melds, none a concealed kong.  地胡: a non-dealer's win on a discard before
  their first draw and without melds.
* 字清: every tile (melds included) is an honour by its effective kind; 财神 of a suited
  kind and a 白板 standing for a suited kind are not honours.  Any such hand wins, shape or
  not, for exactly 40.
* 财神 tiles never make a kong (a concealed kong of four 财神 is not offered).
* A discarded 财神 opens no claim window at all (no chow/pung/kong and no 胡 on it).
* 抢杠胡 is paid like a discard: by the player who added the tile, or by all three under
  ``discard_pays=all``.
* An exhaustive draw pays nothing; the dealer keeps the deal (the match default).
"""

from __future__ import annotations

from typing import Any

from ... import wilds as W
from ...actions import CHOW, DISCARD, HU, KONG, PASS, PUNG, Action
from ...mahjong import DISCARD_PHASE, OVER, Event, MahjongHand
from ...melds import Meld, chow_bases
from ...options import TIMEOUT_OPTIONS, Option
from ...tiles import HONOR, WHITE, kind_of, kind_str

RULES = "caishen.md"
CAISHEN_HUI = "caishen_hui"
CAP = 40  #: the multiplier cap (字清 is worth exactly this)

#: ``base_stake`` and ``discard_pays`` are score-only: only ``settle`` reads them for the
#: result.  The strong AI weighs a discard win against waiting for a self-drawn one by what
#: each pays: every term scales with ``base_stake`` (so its choices never change with it),
#: while ``discard_pays`` may tip one — the moves are kept as played when a hand is
#: re-scored.  ``wild_discard`` decides whether a 财神 may be discarded.
OPTIONS = (
    Option("base_stake", int, 1, "Base stake (底注) per multiplier point", "底注",
           min_value=1, max_value=1000, score_only=True),
    Option("wild_discard", bool, True, "A 财神 may be discarded (nobody can claim it)",
           "财神可以打出（打出的财神不能被吃碰杠胡）", score_only=False),
    Option("discard_pays", str, "discarder", "Who pays a win on a discard: the discarder alone, or all three",
           "点炮谁付：点炮者一家付，或三家都付", choices=("discarder", "all"), score_only=True),
) + TIMEOUT_OPTIONS

#: special hands: id -> (zh name, en name, base value); 字清 is the cap itself
SPECIALS = {
    "qingyise": ("清一色", "Full flush", 4),
    "qiduizi": ("七对子", "Seven pairs", 4),
    "dudiao": ("独吊", "Single wait with four melds", 2),
    "dapenghu": ("大碰胡", "All pungs", 4),
    "tianhu": ("天胡", "Heavenly hand", 4),
    "dihu": ("地胡", "Earthly hand", 8),
    "gangkai": ("杠头开花", "Win on a kong replacement", 2),
    "caishenhui": ("财神会", "Three 财神", 2),
    "shisanyao": ("十三幺", "Thirteen unrelated", 2),
    "qizi_shisanyao": ("七字十三幺", "Thirteen unrelated with all seven honours", 4),
    "qianggang": ("抢杠胡", "Robbing a kong", 4),
    "ziqing": ("字清", "All honours", CAP),
}


def win_multiplier(specials: list[str], self_drawn: bool) -> int:
    """Multiplier of a win (caishen.md §Winning hands and multipliers): the product of the
    base values of ``specials`` (ids of :data:`SPECIALS`; 1 if none) times 2 if
    self-drawn, capped at 40; 字清 (``"ziqing"``) is worth exactly 40.

    >>> win_multiplier(["caishenhui", "qiduizi"], True)   # the seed's own example
    16
    """
    if "ziqing" in specials:
        return CAP
    m = 1
    for s in specials:
        m *= SPECIALS[s][2]
    if self_drawn:
        m *= 2
    return min(m, CAP)


def multiplier_calc(specials: list[str], self_drawn: bool, wilds: int) -> dict:
    """How :func:`win_multiplier` reaches its value, as numbers for the result's words:
    ``{"calc": {"key", "product" (of the special hands' values), "self_drawn" (2 or 1),
    "raw", "multiplier", "wilds" (财神 held), "total"}, "caps": [...]}``; ``key`` is ``ziqing``,
    else ``specials_`` / ``plain_`` + ``self`` / ``discard``; the cap of 40, when it bit, in
    ``caps`` (``{"item": "multiplier", "uncapped", "value"}``).

    >>> multiplier_calc(["qingyise", "dapenghu", "gangkai"], True, 0)["caps"]
    [{'item': 'multiplier', 'uncapped': 64, 'value': 40}]
    """
    mult = win_multiplier(specials, self_drawn)
    product = 1
    for s in specials:
        product *= SPECIALS[s][2]
    raw = product * (2 if self_drawn else 1)
    if "ziqing" in specials:
        key, raw = "ziqing", CAP
    else:
        key = ("specials_" if specials else "plain_") + ("self" if self_drawn else "discard")
    calc = {"key": key, "product": product, "self_drawn": 2 if self_drawn else 1, "raw": raw,
            "multiplier": mult, "wilds": wilds, "total": mult}
    caps = [{"item": "multiplier", "uncapped": raw, "value": mult}] if raw != mult else []
    return {"calc": calc, "caps": caps}


def settlement(multiplier: int, winner: int, dealer: int, n: int, self_drawn: bool,
               discarder: int | None, stake: int = 1, discard_pays: str = "discarder") -> list[int]:
    """Points per seat (caishen.md §Scoring): each payer pays ``stake × multiplier``, twice
    that when the winner or that payer is the dealer.  Self-drawn: the other three pay; on
    a discard the discarder alone pays (``discard_pays="all"``: the other three).

    Raises ``ValueError`` for a discard win without a discarder.
    """
    out = [0] * n
    for pay in settlement_payments(multiplier, winner, dealer, n, self_drawn, discarder, stake, discard_pays):
        out[pay["from"]] -= pay["points"]
        out[winner] += pay["points"]
    return out


def settlement_payments(multiplier: int, winner: int, dealer: int, n: int, self_drawn: bool,
                        discarder: int | None, stake: int = 1, discard_pays: str = "discarder") -> list[dict]:
    """The payments of :func:`settlement`: ``[{"from", "to", "points"[, "notes": [["dealer", 2]]]}]``."""
    if self_drawn or discard_pays == "all":
        payers = [s for s in range(n) if s != winner]
    else:
        if discarder is None:
            raise ValueError("a win on a discard needs the discarder")
        payers = [discarder]
    out = []
    for p in payers:
        double = dealer in (winner, p)
        out.append({"from": p, "to": winner, "points": stake * multiplier * (2 if double else 1)}
                   | ({"notes": [["dealer", 2]]} if double else {}))
    return out


def is_knitted(counts: list[int], wilds: int) -> bool:
    """十三幺 in the 十三不靠 reading (caishen.md, Decision): 14 tiles, no pair, within each
    suit any two tiles differ by at least 3, honours all different; wilds fill any
    place left.  ``counts``: non-wild counts (no melds)."""
    if sum(counts) + wilds != 14:
        return False
    cap = 0
    for base in (0, 9, 18):
        ranks = [r for r in range(9) for _ in range(counts[base + r])]
        c = W.knitted_capacity(ranks)
        if c < 0:
            return False
        cap += c
    if any(c > 1 for c in counts[HONOR:HONOR + 7]):
        return False
    cap += 7
    return sum(counts) + wilds <= cap


def is_seven_honours_knitted(counts: list[int], wilds: int) -> bool:
    """七字十三幺: :func:`is_knitted` with all seven honours (wilds may stand for the
    missing ones)."""
    if not is_knitted(counts, wilds):
        return False
    missing = sum(1 for k in range(HONOR, HONOR + 7) if counts[k] == 0)
    if missing > wilds:
        return False
    # the wilds left after the honours must still fit in the suits
    cap = 0
    for base in (0, 9, 18):
        cap += W.knitted_capacity([r for r in range(9) for _ in range(counts[base + r])])
    suited = sum(counts[:27])
    return suited + (wilds - missing) <= cap


class CaishenHand(MahjongHand):
    """One hand of 财神麻将 for four seats.

    ``context`` may fix the 财神 for tests: ``{"indicator": kind}`` (the turned kind).
    """

    VARIANT = "caishen"
    N_SEATS = 4
    RULES = RULES
    PRIORITY = {HU: 3, KONG: 2, PUNG: 2, CHOW: 1, PASS: 0}

    # --- tiles (§Four players, 136 tiles)
    def tile_counts(self) -> dict[int, int]:
        return {k: 4 for k in range(34)}

    # --- the 财神 (§财神)
    def after_deal(self) -> None:
        n = sum(self.dice)
        pos = self.back - n
        self.indicator_pos = pos
        self.indicator = kind_of(self.wall[pos])
        if "indicator" in self.context:
            self.indicator = int(self.context["indicator"])
        self.wild = self.indicator
        self.stand_in = WHITE if self.wild != WHITE else None
        self.events.append(Event("caishen", None, self.wild, {"dice": list(self.dice), "count": n,
                                                               "stand_in": kind_str(WHITE) if self.stand_in else None}))

    def eff(self, kind: int) -> int:
        """The kind a tile plays as: a 白板 stand-in plays as the 财神's kind."""
        return self.wild if (self.stand_in is not None and kind == self.stand_in) else kind

    def phys(self, kind: int) -> int:
        """The printed kind of a non-wild tile that plays as ``kind`` (inverse of :meth:`eff`)."""
        return self.stand_in if (self.stand_in is not None and kind == self.wild) else kind

    def is_wild(self, kind: int) -> bool:
        return kind == self.wild

    def split_counts(self, phys_counts: list[int]) -> tuple[list[int], int]:
        """Printed counts -> (effective non-wild counts, number of 财神)."""
        c = list(phys_counts)
        w = c[self.wild]
        c[self.wild] = 0
        if self.stand_in is not None:
            c[self.wild] = c[self.stand_in]
            c[self.stand_in] = 0
        return c, w

    def eff_counts(self, seat: int) -> tuple[list[int], int]:
        return self.split_counts(self.counts(seat))

    def meld_eff_kinds(self, m: Meld) -> list[int]:
        return [self.eff(kind_of(t)) for t in m.tiles]

    # --- shapes (§Winning hands)
    def _all_honours(self, seat: int, phys_counts: list[int]) -> bool:
        kinds = [k for k in range(34) for _ in range(phys_counts[k])]
        kinds += [kind_of(t) for m in self.melds[seat] for t in m.tiles]
        return bool(kinds) and all(self.eff(k) >= HONOR for k in kinds)

    def _phys_counts(self, seat: int, win_kind: int | None) -> list[int]:
        c = self.counts(seat)
        if win_kind is not None:
            c[win_kind] += 1
        return c

    def win_shape(self, seat: int, win_kind: int | None) -> bool:
        """Standard hand, 七对子 or 十三幺 with the 财神 wild, or 字清 (no shape needed)."""
        pc = self._phys_counts(seat, win_kind)
        if self._all_honours(seat, pc):
            return True
        c, w = self.split_counts(pc)
        nm = len(self.melds[seat])
        if W.is_win(c, w, nm):
            return True
        return nm == 0 and is_knitted(c, w)

    def waits(self, seat: int) -> list[int]:
        """Printed kinds that complete the 13-tile-form hand (a 财神 when any does)."""
        if len(self.hands[seat]) % 3 != 1:
            return []
        out = [k for k in range(34) if not self.is_wild(k) and self.win_shape(seat, k)]
        if out:
            out.append(self.wild)
        return sorted(out)

    def _live_waits(self, seat: int, counts: list[int], n_melds: int, kong_kind: int | None = None) -> list[int]:
        # the base class uses this for 听 and kong checks; this variant has no 听
        c, w = self.split_counts(counts)
        return W.winning_kinds(c, w, n_melds)

    # --- play (§Play)
    def may_discard(self, seat: int, kind: int) -> bool:
        return self.options.get("wild_discard", True) or not self.is_wild(kind)

    def _turn_actions(self, seat: int) -> list[Action]:
        acts = super()._turn_actions(seat)
        if self.hui_available(seat):
            acts.append(Action(seat, CAISHEN_HUI))
        return acts

    def hui_available(self, seat: int) -> bool:
        """财神会: on one's own turn after a draw, holding three or more 财神."""
        return (self.phase == DISCARD_PHASE and seat == self.turn and self.drawn[seat] is not None
                and sum(1 for t in self.hands[seat] if kind_of(t) == self.wild) >= 3)

    def _apply_turn(self, a: Action) -> None:
        if a.type == CAISHEN_HUI:
            self.events.append(Event(CAISHEN_HUI, a.seat, self.wild))
            drawn = self.drawn[a.seat]
            assert drawn is not None  # 财神会 is offered after a draw
            self._win(a.seat, drawn, None, self_drawn=True)
            return
        super()._apply_turn(a)

    def _check(self, action: Action) -> None:
        if action.type == CAISHEN_HUI and self.phase != OVER and action not in self.legal_actions(action.seat):
            from ...errors import IllegalAction
            raise IllegalAction("caishen_hui_not_available", self.RULES)
        super()._check(action)

    def _own_kong_kinds(self, seat: int) -> list[int]:
        counts = self.counts(seat)
        out = [k for k in range(34) if counts[k] == 4 and not self.is_wild(k)]
        for m in self.melds[seat]:
            if m.type == PUNG and counts[m.kind] >= 1:
                out.append(m.kind)
        return sorted(set(out))

    def claim_actions(self, seat: int, discarder: int, kind: int) -> list[Action]:
        """What ``seat`` may do with a discard (§财神: a 财神 is never claimed and never
        takes part in a claim; a 白板 is claimed as the kind it plays)."""
        if self.is_wild(kind):
            return []
        acts: list[Action] = []
        if self.win_shape(seat, kind):
            acts.append(Action(seat, HU))
        c, _w = self.eff_counts(seat)
        ek = self.eff(kind)
        if c[ek] >= 3 and self.wall_remaining > 0:
            acts.append(Action(seat, KONG))
        if c[ek] >= 2:
            acts.append(Action(seat, PUNG))
        if ek < HONOR and self.can_chow(seat, discarder):
            acts += [Action(seat, CHOW, base) for base in chow_bases(c, ek)]
        return acts

    def _claim_meld(self, seat: int, discarder: int, tile: int, mtype: str, kinds: list[int]) -> None:
        ek = self.eff(kind_of(tile))
        if mtype == CHOW:
            base = min(list(kinds) + [ek])
            need = [base + i for i in range(3) if base + i != ek]
        else:
            need = [ek] * len(kinds)
        used: list[int] = []
        for k in need:
            pk = self.phys(k)
            t = max(x for x in self.hands[seat] if kind_of(x) == pk and x not in used)
            used.append(t)
        ordered = tuple(sorted(used + [tile], key=lambda t: (self.eff(kind_of(t)), t)))
        self._lay_claimed_meld(seat, discarder, tile, mtype, used, ordered)

    # --- winning and multipliers (§Winning hands and multipliers)
    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, robbing_kong: bool = False, **_: Any) -> dict:
        """Score a win of ``seat`` on ``win_kind`` (printed kind).

        Returns ``{"ok", "specials": [ids], "fans": [[zh, en, value, 1]…], "multiplier",
        "fan_total"}``; ``ok`` is False (``code="not_a_winning_hand"``) when the hand
        neither has a winning shape nor is a 财神会.
        """
        pc = self._phys_counts(seat, None if self_drawn else win_kind)
        d = self.dealer
        situational = []
        if self_drawn and seat == d and self.draws_made[d] == 0 and self.discards_made[d] == 0:
            situational.append("tianhu")
        if (not self_drawn and not robbing_kong and seat != d and self.draws_made[seat] == 0
                and not self.melds[seat]):
            situational.append("dihu")
        if self_drawn and self.after_kong:
            situational.append("gangkai")
        if robbing_kong:
            situational.append("qianggang")
        return self._evaluate(seat, pc, self_drawn, situational)

    def wait_value(self, seat: int, kind: int) -> dict:
        """A win on ``kind`` (13-tile form): its multiplier on a discard (``mult``) and a
        self-drawn win's (``mult_self``) where it differs (自摸, 财神会)."""
        ev = self.evaluate_win(seat, kind, False)
        own = self.evaluate_drawn_win(seat, kind)
        out: dict = {}
        if ev.get("ok"):
            out["mult"] = ev["multiplier"]
        if own.get("ok") and own["multiplier"] != out.get("mult"):
            out["mult_self"] = own["multiplier"]
        if not out:
            out.update(ok=False, why=ev.get("code", "not_a_winning_hand"))
        return out

    def evaluate_drawn_win(self, seat: int, kind: int) -> dict:
        """:meth:`evaluate_win` of the self-drawn win ``seat`` would have if its next ordinary
        draw were a tile of ``kind`` (printed kind; a 财神 included): its hand as it stands (the
        13-tile form) plus that tile.  No 天胡, 地胡, 杠头开花 or 抢杠胡 (a later plain draw);
        财神会 when the 财神 held, that tile included, are three or more.  The hand is only
        read (an AI weighing what waiting for its draw brings)."""
        return self._evaluate(seat, self._phys_counts(seat, kind), True, [])

    def _evaluate(self, seat: int, pc: list[int], self_drawn: bool, situational: list[str]) -> dict:
        c, w = self.split_counts(pc)
        melds = self.melds[seat]
        nm = len(melds)
        situational = list(situational)
        hui = self_drawn and w >= 3
        if hui:
            situational.append("caishenhui")
        if self._all_honours(seat, pc):
            specials = ["ziqing"]
        else:
            readings: list[list[str]] = []
            real_kinds = [k for k in range(34) if c[k]] + [k for m in melds for k in self.meld_eff_kinds(m)]
            flush = bool(real_kinds) and all(k < HONOR for k in real_kinds) and len({k // 9 for k in real_kinds}) == 1
            if W.is_standard_win(c, w, nm):
                r = []
                if flush:
                    r.append("qingyise")
                if all(m.type != CHOW for m in melds) and W.is_all_pungs(c, w, nm):
                    r.append("dapenghu")
                if nm == 4 and not any(m.concealed for m in melds):
                    r.append("dudiao")
                readings.append(r)
            if nm == 0 and W.is_seven_pairs(c, w):
                readings.append(["qingyise", "qiduizi"] if flush else ["qiduizi"])
            if nm == 0 and is_knitted(c, w):
                readings.append(["qizi_shisanyao"] if is_seven_honours_knitted(c, w) else ["shisanyao"])
            if not readings and not hui:
                return {"ok": False, "code": "not_a_winning_hand", "rule": RULES, "fan_total": 0}
            if not readings:
                readings = [[]]
            specials = max((r + situational for r in readings),
                           key=lambda r: win_multiplier(r, self_drawn))
        mult = win_multiplier(specials, self_drawn)
        return {
            "ok": True, "specials": specials,
            "fans": [[SPECIALS[s][0], SPECIALS[s][1], SPECIALS[s][2], 1] for s in specials],
            "multiplier": mult, "fan_total": mult, "wild": kind_str(self.wild), "wilds_held": w,
            **multiplier_calc(specials, self_drawn, w),
        }

    def settle(self, winner: int | None, win: dict | None, discarder: int | None) -> list[int]:
        """Points (§Scoring); an exhaustive draw pays nothing."""
        if winner is None:
            return [0] * self.n
        assert win is not None  # a winner's win
        self_drawn = discarder is None
        stake = self.options.get("base_stake", 1)
        win["base_stake"] = stake
        win["calc"] = dict(win["calc"], stake=stake, total=stake * win["multiplier"])
        win["payments"] = settlement_payments(win["multiplier"], winner, self.dealer, self.n, self_drawn, discarder,
                                              stake, self.options.get("discard_pays", "discarder"))
        return settlement(win["multiplier"], winner, self.dealer, self.n, self_drawn, discarder, stake,
                          self.options.get("discard_pays", "discarder"))

    # --- automatic play
    def timeout_action(self, seat: int) -> Action:
        """Win (or 财神会) if possible, else pass; on one's own turn discard the drawn tile
        unless it is a 财神, else the rightmost tile that is not a 财神."""
        legal = self.legal_actions(seat)
        for a in legal:
            if a.type in (HU, CAISHEN_HUI):
                return a
        if self.phase != DISCARD_PHASE:
            return Action(seat, PASS)
        discards = [a for a in legal if a.type == DISCARD]
        drawn = self.drawn[seat]
        if drawn is not None and not self.is_wild(kind_of(drawn)) and Action(seat, DISCARD, kind_of(drawn)) in discards:
            return Action(seat, DISCARD, kind_of(drawn))
        plain = [a for a in discards if not self.is_wild(a.tile_kind)]
        return (plain or discards)[-1]

    # --- views (§财神: shown at the left end of the hand)
    def _sorted_without_drawn(self, seat: int) -> list[int]:
        tiles = list(self.hands[seat])
        drawn = self.drawn[seat]
        if drawn is not None:
            tiles.remove(drawn)
        return sorted((kind_of(t) for t in tiles), key=lambda k: (not self.is_wild(k), self.eff(k), k))

    def concealed_kinds(self, seat: int) -> list[int]:
        return sorted((kind_of(t) for t in self.hands[seat]), key=lambda k: (not self.is_wild(k), self.eff(k), k))

    def extra_view(self, viewer: int | None) -> dict:
        return {"wild": {"indicator": kind_str(self.indicator), "kinds": [kind_str(self.wild)],
                         "stand_in": kind_str(self.stand_in) if self.stand_in is not None else None,
                         "stands_for": kind_str(self.wild),
                         "indicator_in_wall": self.front <= self.indicator_pos < self.back},
                "treasure": None}


__all__ = ["CaishenHand", "OPTIONS", "SPECIALS", "CAISHEN_HUI", "win_multiplier", "multiplier_calc", "settlement",
           "settlement_payments", "is_knitted",
           "is_seven_honours_knitted"]
