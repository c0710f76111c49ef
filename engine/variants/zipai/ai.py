"""The AI seat of 字牌: wins when it may, no 飘, always 碰, 吃 when it brings 胡息 or leaves a
large hand, and discards the card with the fewest partners.

:func:`choose_action` is the game's AI entry point (``ZipaiHand.ai_action`` calls it).
"""

from __future__ import annotations

from ...actions import Action
from .actions import DISCARD, DISCARD_PHASE, HU, PASS, PENG, PIAO_PHASE
from .huxi import chi_shapes, group_huxi, idx_of, num, other_case


def keep_value(hand, seat: int, k: int) -> int:
    """How much a card of kind ``k`` is worth keeping (AI): partners in the hand."""
    c = hand.counts(seat)
    i = idx_of(k)
    v = 4 * (c[i] - 1)
    v += 2 * c[other_case(i)]
    for code, (a, b) in chi_shapes(i):
        if code in "lmhe":
            v += (c[a] > 0) + (c[b] > 0) + 2 * (c[a] > 0 and c[b] > 0)
    if num(i) in (1, 2, 3, 7, 10):
        v += 1
    return v


def choose_action(hand, seat: int) -> Action:
    """The AI's choice: win when it may; no 飘; 碰 always; 吃 when the groups bring 胡息 or
    the hand stays large; discard the card with the fewest partners."""
    legal = hand.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    for a in legal:
        if a.type == HU:
            return a
    if hand.phase == PIAO_PHASE:
        return legal[0]
    if hand.phase == DISCARD_PHASE:
        discards = [a for a in legal if a.type == DISCARD]
        return min(discards, key=lambda a: (keep_value(hand, seat, a.kind), -a.kind))
    for a in legal:
        if a.type == PENG:
            return a
    chis = [a for a in legal if a.type.startswith("chi_")]
    if chis:
        card = hand.pending[1]
        opts = dict(hand.chi_options(seat, card))
        scored = []
        for a in chis:
            groups = opts[a.type[4:]]
            hx = sum(group_huxi("sentence", g) for g in groups)
            left = len(hand.hands[seat]) - (sum(len(g) for g in groups) - 1)
            scored.append((hx, left, a.type, a))
        hx, left, _, a = max(scored)
        if hx > 0 or left >= 5:
            return a
    return Action(seat, PASS)
