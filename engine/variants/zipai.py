"""``zipai`` — 字牌, the 80-card game of the 跑胡子 family, for 2–4 players.

Source: ``rules/zipai.md`` (sections named in each docstring).  Not a draw/discard mahjong:
a drawn card is shown (示众) and only enters play when someone uses it, and the 偎/提/跑
moves are forced — the hand applies them itself as events; nobody is asked.

Phases (``view["phase"]``):

* ``"piao"`` — before the hand, every seat declares its 飘 (actions ``piao_none``,
  ``piao_one``, ``piao_two``, ``piao_three`` up to the table's ``piao_max``);
* ``"discard"`` — seat ``turn`` owes a discard (``discard <card>``), or may win (``hu``) after
  the deal (dealer) or after its own forced 偎/提;
* ``"claim"`` — a discarded or shown stock card waits: the seats that may 胡, 碰 or 吃 it
  answer (``hu``, ``peng``, ``chi_<code> <card>``, ``pass``); the best answer by priority
  (胡 > 碰 > 吃) and seat order wins;
* ``"over"`` — :attr:`ZipaiHand.result` holds the settlement.

吃 choices are separate actions: ``chi_<main>[_<bi>] <card>`` where the codes say how the
taken card fits (see :func:`engine.variants.zipai_huxi.chi_shapes`): ``l``/``m``/``h`` a run with
the card lowest/middle/highest, ``e`` 二七十, ``d`` 绞 with one more copy (五五伍), ``j`` 绞
with two of the other case (五伍伍); after ``_`` come the 比牌 groups for each further copy
in hand, e.g. ``chi_l_m 5x`` = 五六七, and the other 五 laid down as 四五六.

Decisions where the rule file is silent (listed in the project README):

* drawing the fourth card of one's own 偎 is a 提 (forced, as for a 坎);
* a discarded card never makes a 跑 with a 碰 (the rule lists only stock draws for 碰 → 跑);
* cards of a 坎 are not discarded while the hand holds any other card;
* 碰 and 吃 are offered only if a card is left to discard; a player who must discard with an
  empty hand after a forced move (and cannot win) is "dead" (相公): no discards, no win;
* 过张 kind 2 ("could not 吃 at that moment"): a card offered to a seat in 吃 position that
  would make a sentence/jiao with its hand but fails 比牌;
* a 胡 declined is not a 过张; passed cards are per kind and last the hand;
* 飘 is declared before the cards are looked at: hands are hidden during the 飘 phase;
* with 出牌明龙 the non-dealers' starting 提 are laid when the dealer discards first (or, if the
  dealer does not discard, when the first card is drawn).
"""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..errors import IllegalAction
from ..events import Event
from ..melds import Meld
from ..options import TIMEOUT_OPTIONS, Option
from ..rng import make_rng
from ..tiles import ZI_SMALL, kind_of, kind_str
from . import VariantInfo
from .zipai_huxi import (
    N_IDX,
    best_win,
    chi_choices,
    chi_shapes,
    group_huxi,
    idx_of,
    kind_of_idx,
    num,
    other_case,
    tun_of,
)

RULES = "zipai.md"
HU, PASS, DISCARD, PENG = "hu", "pass", "discard", "peng"
PIAO_TYPES = ("piao_none", "piao_one", "piao_two", "piao_three")
PIAO_PHASE, DISCARD_PHASE, CLAIM_PHASE, OVER = "piao", "discard", "claim", "over"
PRIORITY = {HU: 3, PENG: 2, "chi": 1, PASS: 0}
FOUR_TYPES = ("pao", "ti")

OPTIONS = (
    Option("min_huxi", int, 9, "Minimum 胡息 to win", "起胡胡息", choices=(9, 6, 3)),
    Option("tun_per", int, 3, "胡息 per 囤: 3 (三息一囤) or 1 (一息一囤)", "几息一囤（3 或 1）", choices=(3, 1)),
    Option("maohu", int, 0, "毛胡: a five-group hand with 0 胡息 wins as 10 or 15 胡息 (0 = off)",
           "毛胡：0 胡息的五方门子按 10 或 15 胡息计（0 为不可）", choices=(0, 10, 15)),
    Option("piao_max", int, 3, "Largest 飘 a player may declare before each hand (0 = no 飘)",
           "每局开始可选的最大飘分（0 为不飘）", min_value=0, max_value=3),
    Option("ming_long", bool, False, "出牌明龙: non-dealers lay their starting 提 after the dealer's first discard",
           "出牌明龙：闲家在庄家出第一张牌后再提", ),
) + TIMEOUT_OPTIONS


def card_kinds() -> list[int]:
    """The 20 kinds of the set: small 一..十 (50..59) and big 壹..拾 (60..69) (zipai.md §Cards)."""
    return list(range(ZI_SMALL, ZI_SMALL + 20))


def starting_replacements(n_ti: int, is_dealer: bool) -> int:
    """Replacement cards after ``n_ti`` starting 提 (zipai.md §Actions, starting 提): a dealer
    with N ≥ 2 takes N − 2 (and skips the first discard), a non-dealer N − 1; N ≤ 1 takes none.

    >>> starting_replacements(3, True), starting_replacements(3, False), starting_replacements(1, False)
    (1, 2, 0)
    """
    if n_ti < 2:
        return 0
    return n_ti - 2 if is_dealer else n_ti - 1


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


class ZipaiHand:
    """One hand of 字牌 for ``n`` seats (2–4), driven by :meth:`apply` (see the module doc).

    :param options: resolved table options (:data:`OPTIONS`).
    :param seed: the hand's seed (the shuffle).
    :param dealer: the dealer's seat.
    :param n: number of seats.
    :param context: match state; ``context["stacked"] = {"hands": [kinds per seat (dealer 15,
        others 14)], "stock": [kinds drawn first, in order]}`` fixes the deal for tests (the
        rest follows in the seeded order).  Raises ``ValueError`` for an impossible stack.
    """

    VARIANT = "zipai"
    RULES = RULES

    def __init__(self, options: dict, seed: int, dealer: int, n: int, context: dict | None = None):
        if not 2 <= n <= 4:
            raise ValueError("字牌 is played by 2 to 4 players")
        self.options = {o.name: o.default for o in OPTIONS}
        self.options.update(options or {})
        self.n, self.seed, self.dealer = n, seed, dealer
        self.context = dict(context or {})
        self.seq = 0
        self.events: list[Event] = []
        self.result: dict | None = None
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.groups: list[list[Meld]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.passed: list[set[int]] = [set() for _ in range(n)]  # kinds (过张)
        self.declined_peng: list[set[int]] = [set() for _ in range(n)]
        self.holding = [False] * n  # took a card and owes a discard
        self.dead = [False] * n
        self.may_win_now = [False] * n  # a win with the cards as they are (dealt 15, 偎胡, 提胡)
        self.piao: list[int | None] = [None] * n
        self.start_ti = [0] * n
        self.turn = dealer
        self.phase = PIAO_PHASE
        self.pending: tuple[int, int, str] | None = None  # (owner, card, "stock"|"discard")
        self.pao_seat: int | None = None
        self.bi_fail: set[int] = set()
        self.claim_options: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.shown: dict | None = None
        self.deferred_ti: list[int] = []
        self.dealer_acted = False
        self._deal()
        if self.options["piao_max"] <= 0:
            self.piao = [0] * n
            self._begin()

    # ------------------------------------------------------------------ set-up
    def _deal(self) -> None:
        cards = [k * 4 + c for k in card_kinds() for c in range(4)]
        rng = make_rng(self.seed)
        rng.shuffle(cards)
        order = [(self.dealer + i) % self.n for i in range(self.n)]
        spec = self.context.get("stacked")
        if spec:
            pool: dict[int, list[int]] = {}
            for t in cards:
                pool.setdefault(t >> 2, []).append(t)

            def take(k: int) -> int:
                if not pool.get(k):
                    raise ValueError(f"stacked deal: no copy of {kind_str(k)} left")
                return pool[k].pop()
            hands = spec["hands"]
            for s in range(self.n):
                want = 15 if s == self.dealer else 14
                if len(hands[s]) != want:
                    raise ValueError("stacked deal: the dealer gets 15 cards, the others 14")
                self.hands[s] = [take(k) for k in hands[s]]
            front = [take(k) for k in spec.get("stock", [])]
            used = set(front) | {t for h in self.hands for t in h}
            self.stock = front + [t for t in cards if t not in used]
        else:
            pos = 0
            for s in order:
                size = 15 if s == self.dealer else 14
                self.hands[s] = cards[pos:pos + size]
                pos += size
            self.stock = cards[pos:]
        self.front = 0
        self.dealt_shown = self.hands[self.dealer][-1]  # the dealer's 15th card (砌牌示众)

    @property
    def wall_remaining(self) -> int:
        """Cards left in the stock (底牌)."""
        return len(self.stock) - self.front

    @property
    def last_discard(self) -> tuple[int, int] | None:
        """``(seat, card)`` of the card waiting in a claim window (discarded or shown)."""
        if self.phase == CLAIM_PHASE and self.pending:
            return self.pending[0], self.pending[1]
        return None

    def _ev(self, typ: str, seat: int | None = None, kind: int | None = None, **data) -> Event:
        e = Event(typ, seat, kind, data)
        self.events.append(e)
        return e

    def _begin(self) -> None:
        """After 飘: show the dealer's 15th card, lay starting 提, give the dealer the turn."""
        self.shown = {"seat": self.dealer, "card": self.dealt_shown, "from": "deal"}
        self._ev("shown", self.dealer, kind_of(self.dealt_shown), source="deal")
        self._starting_ti(self.dealer)
        for i in range(1, self.n):
            s = (self.dealer + i) % self.n
            if self.options["ming_long"]:
                self.deferred_ti.append(s)
            else:
                self._starting_ti(s)
        if self.start_ti[self.dealer] >= 2:
            self.dealer_acted = True
            self._lay_deferred()
            self._draw((self.dealer + 1) % self.n)
        else:
            self.holding[self.dealer] = True
            self.may_win_now[self.dealer] = True
            self._enter_discard(self.dealer)

    def _lay_deferred(self) -> None:
        for s in self.deferred_ti:
            self._starting_ti(s)
        self.deferred_ti = []

    def _starting_ti(self, s: int) -> None:
        """Lay every four-of-a-kind of the dealt hand as 提 and take the replacements
        (zipai.md §Actions, starting 提); a replacement that makes another four repeats it."""
        is_dealer = s == self.dealer
        while True:
            quads = [k for k in sorted(set(kind_of(t) for t in self.hands[s]))
                     if sum(1 for t in self.hands[s] if kind_of(t) == k) == 4]
            if not quads:
                break
            for k in quads:
                cards = sorted(t for t in self.hands[s] if kind_of(t) == k)
                for t in cards:
                    self.hands[s].remove(t)
                self.groups[s].append(Meld("ti", tuple(cards), True, cards[-1], None))
                self.start_ti[s] += 1
                self._ev("ti", s, k, start=True)
            n_ti = self.start_ti[s]
            have = len(self.hands[s]) + sum(len(g.tiles) for g in self.groups[s])
            if n_ti >= 2:
                target = 13 + self._fours(s)
            else:
                target = 15 if is_dealer else 14
            need = target - have
            if need <= 0:
                break
            got = 0
            for _ in range(need):
                if self.wall_remaining == 0:
                    break
                self.hands[s].append(self.stock[self.front])
                self.front += 1
                got += 1
            self._ev("replace", s, None, count=got)

    # ------------------------------------------------------------------ queries
    def counts(self, seat: int) -> list[int]:
        """20 counts of ``seat``'s concealed cards (index = kind − 50)."""
        c = [0] * N_IDX
        for t in self.hands[seat]:
            c[(t >> 2) - ZI_SMALL] += 1
        return c

    def _fours(self, seat: int) -> int:
        return sum(1 for g in self.groups[seat] if g.type in FOUR_TYPES)

    def _group_of(self, seat: int, types: tuple[str, ...], kind: int) -> int | None:
        for i, g in enumerate(self.groups[seat]):
            if g.type in types and kind_of(g.tiles[0]) == kind:
                return i
        return None

    def _table(self, seat: int) -> list[tuple[str, int, int, int]]:
        out = []
        for g in self.groups[seat]:
            idxs = [idx_of(kind_of(t)) for t in g.tiles]
            out.append((g.type, group_huxi(g.type, idxs), len(idxs), min(idxs)))
        return out

    def win_eval(self, seat: int, card: int | None, outside: bool = True) -> dict | None:
        """The best win of ``seat`` with ``card`` (a physical card, or ``None``: the cards as
        they are), or ``None`` if it does not win or is below the minimum (zipai.md §Winning).

        Returns ``{"huxi": counted 胡息, "raw_huxi", "maohu": bool, "groups": [...]}``.
        """
        if self.dead[seat]:
            return None
        extra = None if card is None else idx_of(kind_of(card))
        r = best_win(self.counts(seat), self._table(seat), extra, outside)
        if r is None:
            return None
        raw, groups = r
        hx, mao = raw, False
        if raw == 0 and self.options["maohu"]:
            hx, mao = self.options["maohu"], True
        if hx < self.options["min_huxi"]:
            return None
        return {"huxi": hx, "raw_huxi": raw, "maohu": mao, "groups": groups}

    def waits(self, seat: int) -> list[dict]:
        """Cards that would complete ``seat``'s hand now, each with its 胡息:
        ``[{"tile": "5x", "huxi": 12}]`` (the winning-card computation)."""
        out = []
        c = self.counts(seat)
        on_table = {kind_of(g.tiles[0]) for g in self.groups[seat] if g.type in ("peng", "wei", "chouwei")}
        for k in card_kinds():
            i = idx_of(k)
            if not (c[i] or k in on_table or any(c[a] and c[b] for _, (a, b) in chi_shapes(i) if a != i)):
                continue  # the card makes no group with these cards: it cannot complete them
            ev = self.win_eval(seat, k * 4, True)
            if ev is not None:
                out.append({"tile": kind_str(k), "huxi": ev["huxi"]})
        return out

    def pending_seats(self) -> list[int]:
        if self.phase == PIAO_PHASE:
            return [s for s in range(self.n) if self.piao[s] is None]
        if self.phase == DISCARD_PHASE:
            return [self.turn]
        if self.phase == CLAIM_PHASE:
            return [s for s in sorted(self.claim_options) if s not in self.responses]
        return []

    def is_over(self) -> bool:
        return self.phase == OVER

    def _discardable(self, seat: int) -> list[int]:
        c = self.counts(seat)
        kinds = sorted({kind_of(t) for t in self.hands[seat]})
        free = [k for k in kinds if c[idx_of(k)] < 3]
        return free or kinds

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (module doc for the types)."""
        if self.phase == PIAO_PHASE:
            if self.piao[seat] is not None:
                return []
            return [Action(seat, PIAO_TYPES[v]) for v in range(self.options["piao_max"] + 1)]
        if self.phase == DISCARD_PHASE and seat == self.turn:
            acts = []
            if self.may_win_now[seat] and self.win_eval(seat, None) is not None:
                acts.append(Action(seat, HU))
            acts += [Action(seat, DISCARD, k) for k in self._discardable(seat)]
            return acts
        if self.phase == CLAIM_PHASE and seat in self.claim_options and seat not in self.responses:
            return list(self.claim_options[seat])
        return []

    def win_offered(self, seat: int) -> bool:
        return any(a.type == HU for a in self.legal_actions(seat))

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns the events it caused.  Raises ``IllegalAction``
        (``not_your_turn``, ``action_not_available``) with the state unchanged."""
        if self.phase == OVER:
            raise IllegalAction("hand_over", RULES)
        legal = self.legal_actions(action.seat)
        if not legal:
            raise IllegalAction("not_your_turn", RULES)
        if action not in legal:
            if action.type == DISCARD:
                raise IllegalAction("discard_not_allowed", f"{RULES} §Dealing, turn, showing",
                                    tile=kind_str(action.kind) if action.kind is not None else "?")
            raise IllegalAction("action_not_available", RULES)
        start = len(self.events)
        self.seq += 1
        s = action.seat
        if self.phase == PIAO_PHASE:
            self.piao[s] = PIAO_TYPES.index(action.type)
            if all(p is not None for p in self.piao):
                for p in range(self.n):
                    self._ev("piao", p, None, multiplier=self.piao[p])
                self._begin()
        elif self.phase == DISCARD_PHASE:
            if action.type == HU:
                self._win(s, None, "self")
            else:
                self._discard(s, action.kind)
        else:
            self.responses[s] = action
            self._try_resolve()
        return self.events[start:]

    def _enter_discard(self, s: int) -> None:
        """``s`` owes a discard; with an empty hand it wins if it can, else it is dead."""
        self.turn = s
        if not self.hands[s]:
            if self.may_win_now[s] and self.win_eval(s, None) is not None:
                self.phase = DISCARD_PHASE  # only 胡 is legal
                return
            self.dead[s] = True
            self.holding[s] = False
            self.may_win_now[s] = False
            self._ev("dead", s)
            self._draw((s + 1) % self.n)
            return
        self.phase = DISCARD_PHASE

    def _discard(self, s: int, kind: int) -> None:
        card = max(t for t in self.hands[s] if kind_of(t) == kind)
        self.hands[s].remove(card)
        self.holding[s] = False
        self.may_win_now[s] = False
        self.passed[s].add(kind)
        self._ev("discard", s, kind)
        self.shown = {"seat": s, "card": card, "from": "discard"}
        if s == self.dealer and not self.dealer_acted:
            self.dealer_acted = True
            self._lay_deferred()
        self._offer(s, card, "discard")

    def _draw(self, s: int) -> None:
        """``s`` draws the top stock card and shows it; forced 提/偎 apply at once
        (zipai.md §Dealing, turn, showing; §Actions 偎, 臭偎, 提)."""
        if not self.dealer_acted:
            self.dealer_acted = True
            self._lay_deferred()
        if self.wall_remaining == 0:
            self._draw_game()
            return
        card = self.stock[self.front]
        self.front += 1
        k = kind_of(card)
        self.turn = s
        self.shown = {"seat": s, "card": card, "from": "stock"}
        self._ev("show", s, k)
        c = self.counts(s)[idx_of(k)]
        wei = self._group_of(s, ("wei", "chouwei"), k)
        if c == 3 or wei is not None:
            if wei is not None:
                tiles = tuple(sorted(self.groups[s][wei].tiles + (card,)))
                del self.groups[s][wei]
            else:
                tiles = tuple(sorted([t for t in self.hands[s] if kind_of(t) == k] + [card]))
                for t in tiles:
                    if t != card:
                        self.hands[s].remove(t)
            self.groups[s].append(Meld("ti", tiles, True, card, None))
            fours = self._fours(s)
            self._ev("ti", s, k, chong=fours >= 2)
            if fours >= 2:
                self._draw((s + 1) % self.n)  # 重跑: no discard
            else:
                self.holding[s] = True
                self.may_win_now[s] = True
                self._enter_discard(s)
            return
        if c == 2:
            typ = "chouwei" if k in self.declined_peng[s] else "wei"
            tiles = [t for t in self.hands[s] if kind_of(t) == k]
            for t in tiles:
                self.hands[s].remove(t)
            self.groups[s].append(Meld(typ, tuple(sorted(tiles)) + (card,), True, card, None))
            self._ev(typ, s, k)
            self.holding[s] = True
            self.may_win_now[s] = True
            self._enter_discard(s)
            return
        self._offer(s, card, "stock")

    def _chi_seats(self, owner: int, source: str) -> list[int]:
        nxt = (owner + 1) % self.n
        return [owner, nxt] if source == "stock" else [nxt]

    def chi_options(self, seat: int, card: int) -> list[tuple[str, list[tuple[int, ...]]]]:
        """The 吃 choices of ``seat`` for ``card`` (with 比牌), each leaving a card to discard."""
        c = self.counts(seat)
        avail = [0 if x == 3 else x for x in c]
        i = idx_of(kind_of(card))
        out = []
        for code, groups in chi_choices(avail, i):
            used = sum(len(g) for g in groups) - 1
            if len(self.hands[seat]) - used >= 1:
                out.append((code, groups))
        return out

    def _offer(self, owner: int, card: int, source: str) -> None:
        """Open the window on a discarded or shown card (zipai.md §Actions priority:
        偎/提 > 胡 > 跑/碰 > 吃; §Winning for who may win on it)."""
        k = kind_of(card)
        i = idx_of(k)
        self.pending = (owner, card, source)
        self.pao_seat = None
        self.bi_fail = set()
        order = [(owner + d) % self.n for d in range(self.n)]
        for p in order:
            if p != owner and (self.counts(p)[i] == 3 or self._group_of(p, ("wei", "chouwei"), k) is not None):
                self.pao_seat = p
            elif source == "stock" and self._group_of(p, ("peng",), k) is not None:
                self.pao_seat = p
        opts: dict[int, list[Action]] = {}
        for p in order:
            if source == "discard" and p == owner:
                continue
            if self.win_eval(p, card, True) is not None:
                opts.setdefault(p, []).append(Action(p, HU))
        if self.pao_seat is None:
            for p in order:
                if p == owner or self.dead[p] or k in self.passed[p]:
                    continue
                if self.counts(p)[i] == 2 and len(self.hands[p]) >= 3:
                    opts.setdefault(p, []).append(Action(p, PENG))
            for p in self._chi_seats(owner, source):
                if self.dead[p] or k in self.passed[p]:
                    continue
                choices = self.chi_options(p, card)
                for code, _ in choices:
                    opts.setdefault(p, []).append(Action(p, "chi_" + code, k))
                if not choices and self._chi_without_bi(p, card):
                    self.bi_fail.add(p)
        for p in opts:
            opts[p].append(Action(p, PASS))
        self.claim_options = opts
        self.responses = {}
        self.turn = owner
        if not opts:
            self._close_window(None)
        else:
            self.phase = CLAIM_PHASE

    def _chi_without_bi(self, seat: int, card: int) -> bool:
        c = self.counts(seat)
        avail = [0 if x == 3 else x for x in c]
        i = idx_of(kind_of(card))
        if avail[i] == 0:
            return False
        for _, (a, b) in chi_shapes(i):
            avail[a] -= 1
            avail[b] -= 1
            ok = avail[a] >= 0 and avail[b] >= 0
            avail[a] += 1
            avail[b] += 1
            if ok:
                return True
        return False

    def _dist(self, p: int) -> int:
        return (p - self.pending[0]) % self.n

    @staticmethod
    def _prio(a: Action) -> int:
        return PRIORITY["chi"] if a.type.startswith("chi_") else PRIORITY.get(a.type, 0)

    def _try_resolve(self) -> None:
        best = None
        for s, a in self.responses.items():
            p = self._prio(a)
            if best is None or p > best[0] or (p == best[0] and self._dist(s) < self._dist(best[1])):
                best = (p, s, a)
        for s in self.claim_options:
            if s in self.responses:
                continue
            top = max(self._prio(a) for a in self.claim_options[s])
            if top > best[0] or (top == best[0] and top > 0 and self._dist(s) < self._dist(best[1])):
                return
        self._close_window(best[2] if best and best[2].type != PASS else None)

    def _close_window(self, taken: Action | None) -> None:
        owner, card, source = self.pending
        k = kind_of(card)
        options, responses = self.claim_options, self.responses
        self.claim_options, self.responses = {}, {}
        for s, a in sorted(responses.items()):
            if a.type == PASS:
                self._ev("pass", s)
                kinds = {x.type for x in options[s]}
                if PENG in kinds or any(t.startswith("chi_") for t in kinds):
                    self.passed[s].add(k)  # 过张 (1): could 吃/碰 and did not
                if PENG in kinds:
                    self.declined_peng[s].add(k)
        if taken is not None and taken.type == HU:
            self._win(taken.seat, card, source)
            return
        self.pending = None
        if self.pao_seat is not None:
            self._pao(self.pao_seat, owner, card)
            return
        if taken is None or taken.type.startswith("chi_"):
            for s in self.bi_fail:
                self.passed[s].add(k)  # 过张 (2): could not 吃 it because of 比牌
        if taken is None:
            self.discards[owner].append(card)
            if source == "stock":
                self.passed[owner].add(k)
            self._draw((owner + 1) % self.n)
            return
        p = taken.seat
        if taken.type == PENG:
            tiles = [t for t in self.hands[p] if kind_of(t) == k]
            for t in tiles:
                self.hands[p].remove(t)
            self.groups[p].append(Meld("peng", tuple(sorted(tiles + [card])), False, card, owner))
            self._ev("peng", p, k, **{"from": owner})
        else:
            code = taken.type[4:]
            groups = dict(self.chi_options(p, card))[code]
            for gi, g in enumerate(groups):
                tiles = []
                need = list(g)
                if gi == 0:
                    need.remove(idx_of(k))
                for x in need:
                    t = max(t for t in self.hands[p] if kind_of(t) == kind_of_idx(x) and t not in tiles)
                    tiles.append(t)
                for t in tiles:
                    self.hands[p].remove(t)
                if gi == 0:
                    tiles.append(card)
                self.groups[p].append(Meld("chi" if gi == 0 else "bi", tuple(sorted(tiles)), False,
                                           card if gi == 0 else None, owner if gi == 0 else None))
            self._ev("chi", p, k, code=code, groups=[[kind_str(kind_of_idx(x)) for x in g] for g in groups],
                     **{"from": owner})
        self.holding[p] = True
        self._enter_discard(p)

    def _pao(self, p: int, owner: int, card: int) -> None:
        """The forced 跑 (zipai.md §Actions 跑): a 坎 in hand, a 偎 or (on a stock card) a 碰."""
        k = kind_of(card)
        gi = self._group_of(p, ("wei", "chouwei", "peng"), k)
        if gi is not None:
            old = self.groups[p][gi]
            del self.groups[p][gi]
            tiles = tuple(sorted(old.tiles + (card,)))
        else:
            tiles = tuple(sorted([t for t in self.hands[p] if kind_of(t) == k] + [card]))
            for t in tiles:
                if t != card:
                    self.hands[p].remove(t)
        self.groups[p].append(Meld("pao", tiles, False, card, owner if owner != p else None))
        fours = self._fours(p)
        self._ev("pao", p, k, chong=fours >= 2, **{"from": owner})
        if fours >= 2 or self.dead[p]:
            self._draw((p + 1) % self.n)  # 重跑: no discard
        else:
            self.holding[p] = True
            self._enter_discard(p)

    # ------------------------------------------------------------------ ending
    def _draw_game(self) -> None:
        self.phase = OVER
        self.pending = None
        self.result = {"winner": None, "winners": [], "draw": True, "points": [0] * self.n,
                       "dealer": self.dealer, "next_dealer": (self.dealer + 1) % self.n,
                       "hands": self._all_hands(), "piao": [p or 0 for p in self.piao]}
        self._ev("draw_game")

    def _all_hands(self) -> list[list[str]]:
        return [[kind_str(k) for k in sorted(kind_of(t) for t in h)] for h in self.hands]

    def _win(self, p: int, card: int | None, source: str) -> None:
        """Settle a win (zipai.md §Scoring): 自摸 2 番 (own draw, 偎胡/提胡, the dealt 15),
        放炮 n 番 paid by the discarder alone, a card shown by another's draw 1 番 paid by all."""
        owner = self.pending[0] if self.pending else p
        ev = self.win_eval(p, card, True)
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
        fans = [["胡息", "Hu xi", ev["huxi"], 1], ["囤", "Tun", tun, 1], [names[0], names[1], fan, 1]]
        if ev["maohu"]:
            fans.insert(0, ["毛胡", "Mao hu", ev["huxi"], 1])
        if piao[p] or any(piao[s] for s in payers):
            fans.append(["飘", "Piao", piao[p], 1])
        self.result = {
            "winner": p, "winners": [p], "draw": False, "self_drawn": self_drawn, "discarder": discarder,
            "win_tile": kind_str(win_kind) if win_kind is not None else (
                kind_str(kind_of(self.shown["card"])) if self.shown else None),
            "points": points, "huxi": ev["huxi"], "raw_huxi": ev["raw_huxi"], "tun": tun, "fan": fan,
            "total_tun": total, "fan_total": ev["huxi"], "total_fan": total, "fans": fans,
            "summary_rows": [["胡息", "hu xi", ev["huxi"]], ["囤", "tun", tun], ["番", "fan", fan],
                             ["总囤", "total tun", total]],
            "piao": piao, "payers": payers, "dealer": self.dealer, "next_dealer": p,
            # a card turned up by another seat's draw (示众牌): that seat, who dealt nothing in
            "shown_by": owner if source not in ("self", "discard") and owner != p else None,
            "groups": [[g[0]] + [kind_str(kind_of_idx(x)) for x in g[1:] if isinstance(x, int)]
                       for g in ev["groups"]],
            "hands": self._all_hands(),
        }
        self._ev("hu", p, win_kind, self_drawn=self_drawn, **{"from": discarder})

    # ------------------------------------------------------------------ automatic play
    def _keep_value(self, seat: int, k: int) -> int:
        """How much a card of kind ``k`` is worth keeping (AI): partners in the hand."""
        c = self.counts(seat)
        i = idx_of(k)
        v = 4 * (c[i] - 1)
        v += 2 * c[other_case(i)]
        for code, (a, b) in chi_shapes(i):
            if code in "lmhe":
                v += (c[a] > 0) + (c[b] > 0) + 2 * (c[a] > 0 and c[b] > 0)
        if num(i) in (1, 2, 3, 7, 10):
            v += 1
        return v

    def ai_action(self, seat: int) -> Action:
        """The AI's choice: win when it may; no 飘; 碰 always; 吃 when the groups bring 胡息 or
        the hand stays large; discard the card with the fewest partners."""
        legal = self.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do")
        for a in legal:
            if a.type == HU:
                return a
        if self.phase == PIAO_PHASE:
            return legal[0]
        if self.phase == DISCARD_PHASE:
            discards = [a for a in legal if a.type == DISCARD]
            return min(discards, key=lambda a: (self._keep_value(seat, a.kind), -a.kind))
        for a in legal:
            if a.type == PENG:
                return a
        chis = [a for a in legal if a.type.startswith("chi_")]
        if chis:
            card = self.pending[1]
            opts = dict(self.chi_options(seat, card))
            scored = []
            for a in chis:
                groups = opts[a.type[4:]]
                hx = sum(group_huxi("sentence", g) for g in groups)
                left = len(self.hands[seat]) - (sum(len(g) for g in groups) - 1)
                scored.append((hx, left, a.type, a))
            hx, left, _, a = max(scored)
            if hx > 0 or left >= 5:
                return a
        return Action(seat, PASS)

    def timer_kind(self) -> str:
        """``"discard"`` when a seat owes a discard, else ``"claim"`` (飘 and claim windows)."""
        return "discard" if self.phase == DISCARD_PHASE else "claim"

    def timeout_action(self, seat: int) -> Action:
        """On a timeout: win if possible; 飘 0; pass a claim; discard the AI's choice."""
        legal = self.legal_actions(seat)
        for a in legal:
            if a.type == HU:
                return a
        if self.phase == PIAO_PHASE:
            return Action(seat, PIAO_TYPES[0])
        if self.phase == CLAIM_PHASE:
            return Action(seat, PASS)
        return self.ai_action(seat)

    # ------------------------------------------------------------------ views
    def _group_view(self, g: Meld, face_up: bool) -> dict:
        tiles = [kind_str(kind_of(t)) for t in g.tiles]
        claimed_index = list(g.tiles).index(g.claimed) if g.claimed is not None else None
        if g.type in ("wei", "chouwei", "ti"):
            # the shown card last, the face-down ones first (两暗一明 / 三暗一明)
            up = kind_str(kind_of(g.claimed))
            tiles = ([up] * (len(tiles) - 1) if face_up else [None] * (len(tiles) - 1)) + [up]
            claimed_index = len(tiles) - 1
        idxs = [idx_of(kind_of(t)) for t in g.tiles]
        return {"type": g.type, "tiles": tiles, "concealed": g.type in ("wei", "chouwei", "ti"),
                "added": False, "claimed_index": claimed_index if g.type not in ("bi",) else None,
                "from_seat": g.from_seat,
                "huxi": group_huxi(g.type, idxs) if face_up or g.type not in ("wei", "chouwei", "ti") else None}

    def view(self, viewer: int | None = None, reveal: bool = False) -> dict:
        """What ``viewer`` (``None``: the public) may see; ``reveal=True`` (replays of
        finished hands) shows every hand and face-down card face up.  Besides the protocol keys:
        ``shown`` (``{"seat", "card", "from": "deal"|"stock"|"discard"}``), per seat ``piao``,
        ``dead`` and ``groups`` (= ``melds``, face-down cards of 偎/提 as ``None`` for others),
        and in ``me``: ``passed`` (过张 kinds), ``waits`` with 胡息, ``chi_options``."""
        over = self.phase == OVER
        seats = []
        for s in range(self.n):
            visible = reveal or over or (viewer == s and self.phase != PIAO_PHASE)
            melds = [self._group_view(g, reveal or over or viewer == s) for g in self.groups[s]]
            seats.append({
                "seat": s, "wind": "", "is_dealer": s == self.dealer, "hand_count": len(self.hands[s]),
                "has_drawn": False, "discards": [kind_str(kind_of(t)) for t in self.discards[s]],
                "claimed_discards": [], "melds": melds, "flowers": [], "ting": False, "doubles": 1,
                "concealed": [kind_str(k) for k in sorted(kind_of(t) for t in self.hands[s])] if visible else None,
                "drawn": None, "piao": self.piao[s] if self.phase != PIAO_PHASE or viewer == s else None,
                # who has declared 飘 already shows only once everybody has (the 飘 phase ends)
                "piao_chosen": (self.piao[s] is not None) if self.phase != PIAO_PHASE or viewer == s or reveal
                else None, "dead": self.dead[s],
                "huxi_shown": sum(m["huxi"] or 0 for m in melds),
            })
        shown = None
        if self.shown is not None and self.phase != PIAO_PHASE:
            shown = {"seat": self.shown["seat"], "tile": kind_str(kind_of(self.shown["card"])),
                     "card": kind_str(kind_of(self.shown["card"])), "from": self.shown["from"],
                     "waiting": self.phase == CLAIM_PHASE}
        v: dict[str, Any] = {
            "variant": self.VARIANT, "seq": self.seq, "dealer": self.dealer,
            "turn": None if over else self.turn, "phase": self.phase, "pending": self.pending_seats(),
            "wall_remaining": self.wall_remaining, "dice": [],
            "last_discard": ({"seat": self.pending[0], "tile": kind_str(kind_of(self.pending[1]))}
                             if self.phase == CLAIM_PHASE and self.pending else None),
            "rob": None, "seats": seats, "viewer": viewer, "result": self.result, "me": None,
            "shown": shown, "options": {k: self.options[k] for k in ("min_huxi", "tun_per", "maohu", "piao_max")},
        }
        if viewer is not None:
            v["me"] = self.private_view(viewer)
        return v

    def private_view(self, seat: int) -> dict:
        """The ``me`` part: hand, legal actions, 过张, waits (with 胡息) and the 吃 choices."""
        legal = self.legal_actions(seat)
        hidden = self.phase == PIAO_PHASE
        me: dict[str, Any] = {
            "seat": seat, "hand": [] if hidden else [kind_str(k) for k in sorted(kind_of(t) for t in self.hands[seat])],
            "drawn": None, "legal": [str(a) for a in legal], "win_offered": any(a.type == HU for a in legal),
            "waits": [], "hint": [], "passed": sorted(kind_str(k) for k in self.passed[seat]),
            "chi_options": [],
        }
        if not hidden and self.phase != OVER and not self.holding[seat] and not self.dead[seat]:
            me["waits"] = self.waits(seat)
        if self.phase == CLAIM_PHASE and self.pending and seat in self.claim_options:
            card = self.pending[1]
            opts = dict(self.chi_options(seat, card))
            for a in legal:
                if a.type.startswith("chi_"):
                    me["chi_options"].append({"action": str(a), "groups": [
                        [kind_str(kind_of_idx(x)) for x in g] for g in opts[a.type[4:]]]})
        return me


INFO = VariantInfo(
    "zipai", "字牌", "Zi Pai (paper cards)", 2, 4, OPTIONS,
    lambda options, seed, dealer, n, ctx: ZipaiHand(options, seed, dealer, n, ctx),
    aliases=("paohuzi", "跑胡子", "zi_pai"),
)

__all__ = ["INFO", "OPTIONS", "ZipaiHand", "card_kinds", "starting_replacements", "settlement", "PIAO_TYPES"]
