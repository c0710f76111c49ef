"""``zipai`` — 字牌, the 80-card game of the 跑胡子 family, for 2–4 players.

Source: ``docs/rules/zipai.md`` (sections named in each docstring).  Not a draw/discard mahjong:
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
taken card fits (see :func:`engine.variants.zipai.huxi.chi_shapes`): ``l``/``m``/``h`` a run with
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

from ...actions import Action
from ...errors import IllegalAction
from ...events import Event
from ...frames import PublicFrames
from ...hand_state import AiSeat
from ...melds import Meld
from ...rng import make_rng
from ...tiles import ZI_SMALL, kind_of, kind_str
from .actions import (
    CLAIM_PHASE, DISCARD, DISCARD_PHASE, FOUR_TYPES, HU, OVER, PASS, PIAO_PHASE, PIAO_TYPES, RULES,
)
from .claims import ClaimWindow
from .huxi import N_IDX, best_win, chi_shapes, group_huxi, idx_of
from .options import OPTIONS
from .scoring import Scoring
from .view import HandViews

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


class ZipaiHand(AiSeat, PublicFrames, ClaimWindow, Scoring, HandViews):
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

    def _ev(self, typ: str, seat: int | None = None, kind: int | None = None, **data: Any) -> Event:
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
        self._frame_action(action)
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
                self._discard(s, action.tile_kind)
        else:
            self.responses[s] = action
            if action.type == PASS:
                self._note_passed(s)
            self._try_resolve()
        self._frame_applied(start)
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
            if wei is not None:  # the 偎 grows where it lies
                tiles = tuple(sorted(self.groups[s][wei].tiles + (card,)))
                self.groups[s][wei] = Meld("ti", tiles, True, card, None)
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
            pair = [t for t in self.hands[s] if kind_of(t) == k]
            for t in pair:
                self.hands[s].remove(t)
            self.groups[s].append(Meld(typ, tuple(sorted(pair)) + (card,), True, card, None))
            self._ev(typ, s, k)
            self.holding[s] = True
            self.may_win_now[s] = True
            self._enter_discard(s)
            return
        self._offer(s, card, "stock")

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


__all__ = ["ZipaiHand", "card_kinds", "starting_replacements"]
