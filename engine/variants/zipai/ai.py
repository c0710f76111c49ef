"""The AI seat of 字牌: wins when it may, no 飘, always 碰, 吃 when it brings 胡息 or leaves a
large hand, and discards the card with the fewest partners.

:class:`AiSeat` is mixed into :class:`engine.variants.zipai.hand.ZipaiHand`.
"""

from __future__ import annotations

from ...actions import Action
from .actions import DISCARD, DISCARD_PHASE, HU, PASS, PENG, PIAO_PHASE
from .huxi import chi_shapes, group_huxi, idx_of, num, other_case


class AiSeat:
    """The AI of :class:`~engine.variants.zipai.hand.ZipaiHand`."""

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
