"""The window on a discarded or shown card in 字牌 (``docs/rules/zipai.md`` §Actions): who may 胡,
碰 or 吃 it (with 比牌), how the answers resolve, 过张, and the forced 跑.

:class:`ClaimWindow` is mixed into :class:`engine.variants.zipai.hand.ZipaiHand`.
"""

from __future__ import annotations

from ...actions import Action
from ...melds import Meld
from ...tiles import kind_of, kind_str
from .actions import CLAIM_PHASE, HU, PASS, PENG, PRIORITY
from .huxi import chi_choices, chi_shapes, idx_of, kind_of_idx
from .state import ZipaiState


class ClaimWindow(ZipaiState):
    """Claims of :class:`~engine.variants.zipai.hand.ZipaiHand`."""

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
        self._mark_frame((owner + 1) % self.n)  # engine/frames.py
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
        assert self.pending is not None  # a window is open on the pending card
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
            if best is None or top > best[0] or (top == best[0] and top > 0 and self._dist(s) < self._dist(best[1])):
                return
        self._close_window(best[2] if best and best[2].type != PASS else None)

    def _note_passed(self, s: int) -> None:
        """``s`` passes on the card of the open window: 过张 (1) when it could 吃 or 碰 it, kept
        at once (whether the window closes now or another seat still decides: the seat's own
        view must not tell which)."""
        kinds = {x.type for x in self.claim_options[s]}
        if PENG in kinds or any(t.startswith("chi_") for t in kinds):
            assert self.pending is not None
            self.passed[s].add(kind_of(self.pending[1]))  # 过张 (1): could 吃/碰 and did not

    def _close_window(self, taken: Action | None) -> None:
        assert self.pending is not None  # the window is open on the pending card
        owner, card, source = self.pending
        k = kind_of(card)
        options, responses = self.claim_options, self.responses
        self.claim_options, self.responses = {}, {}
        for s, a in sorted(responses.items()):
            if a.type == PASS:
                self._ev("pass", s)
                if PENG in {x.type for x in options[s]}:
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
        if gi is not None:  # the group grows where it lies
            tiles = tuple(sorted(self.groups[p][gi].tiles + (card,)))
            self.groups[p][gi] = Meld("pao", tiles, False, card, owner if owner != p else None)
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
