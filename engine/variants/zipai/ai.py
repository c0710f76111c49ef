"""The AI seat of 字牌: wins when it may, no 飘, always 碰, 吃 when it brings 胡息 or leaves a
large hand, and discards the card with the fewest partners.

:func:`choose_action` is the game's AI entry point (``ZipaiHand.ai_action`` calls it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from functools import lru_cache

from ...actions import Action
from .actions import DISCARD, DISCARD_PHASE, HU, PASS, PENG, PIAO_PHASE
from .huxi import N_IDX, chi_shapes, group_huxi, idx_of, num, other_case
from ...protocol import pending_moves

if TYPE_CHECKING:
    from .hand import ZipaiHand


def keep_value(hand: ZipaiHand, seat: int, k: int) -> int:
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


def choose_action(hand: ZipaiHand, seat: int) -> Action:
    """The AI's choice: win when it may; no 飘; 碰 always; 吃 when the groups bring 胡息 or
    the hand stays large; discard the card with the fewest partners."""
    legal, _ = pending_moves(hand, seat)
    for a in legal:
        if a.type == HU:
            return a
    if hand.phase == PIAO_PHASE:
        return legal[0]
    if hand.phase == DISCARD_PHASE:
        discards = [a for a in legal if a.type == DISCARD]
        return min(discards, key=lambda a: (keep_value(hand, seat, a.tile_kind), -a.tile_kind))
    for a in legal:
        if a.type == PENG:
            return a
    chis = [a for a in legal if a.type.startswith("chi_")]
    if chis:
        assert hand.pending is not None  # a 吃 is offered on the pending card
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


@lru_cache(maxsize=100_000)
def formed(counts: tuple[int, ...]) -> tuple[int, int, int]:
    """The best reading of 20 card counts into groups (zipai.md §Groups: runs, 二七十, 绞牌,
    three of a kind) and partial groups (two cards of a group): ``(groups, partials, 胡息 of the
    groups)``, compared in that order; a card may be left alone."""
    i = next((j for j in range(N_IDX) if counts[j]), -1)
    if i < 0:
        return (0, 0, 0)
    c = list(counts)
    c[i] -= 1
    best = formed(tuple(c))  # card i alone
    c[i] += 1
    n, o = num(i), other_case(i)
    shapes: list[tuple[int, ...]] = [(i, i, i), (i, i, o), (i, o, o)]
    if n <= 8:
        shapes.append((i, i + 1, i + 2))
    if n == 2:
        shapes.append((i, i + 5, i + 8))
    parts: list[tuple[int, ...]] = [(i, i), (i, o)]
    if n <= 9:
        parts.append((i, i + 1))
    if n <= 8:
        parts.append((i, i + 2))
    if n == 2:
        parts += [(i, i + 5), (i, i + 8)]
    for group in shapes + parts:
        for u in group:
            c[u] -= 1
        if min(c) >= 0:
            g, p, hx = formed(tuple(c))
            if len(group) == 3:
                kind = "peng" if group[0] == group[1] == group[2] else "sentence"
                r = (g + 1, p, hx + group_huxi(kind, group))
            else:
                r = (g, p + 1, hx)
            best = max(best, r)
        for u in group:
            c[u] += 1
    return best


def easy_action(hand: ZipaiHand, seat: int) -> Action:
    """The ``easy`` level: the fewest groups missing, then the least 胡息 still needed, no value
    beyond that.  Wins when it may; no 飘; in a claim window 碰 or 吃 when the claim leaves more
    groups (laid down and in the hand, :func:`formed`) than passing, else 过; on its turn it
    discards the card whose removal leaves the best reading (ties: the lowest card).
    ``ValueError`` when the seat has nothing to do."""
    legal, _ = pending_moves(hand, seat)
    for a in legal:
        if a.type == HU:
            return a
    if hand.phase == PIAO_PHASE:
        return legal[0]
    counts = hand.counts(seat)
    if hand.phase == DISCARD_PHASE:
        scored = []
        for a in legal:
            if a.type != DISCARD:
                continue
            i = idx_of(a.tile_kind)
            counts[i] -= 1
            g, p, hx = formed(tuple(counts))
            counts[i] += 1
            scored.append(((-g, -p, -hx, a.kind), a))
        if scored:
            return min(scored, key=lambda r: r[0])[1]
        return legal[0]
    passing = next((a for a in legal if a.type == PASS), legal[0])
    if hand.pending is None:
        return passing
    i = idx_of(hand.pending[1] >> 2)
    base = formed(tuple(counts))
    best, best_r = passing, base[:1]
    opts = dict(hand.chi_options(seat, hand.pending[1]))
    for a in legal:
        if a.type == PENG:
            used = [i, i]
            made = 1
        elif a.type.startswith("chi_") and a.type[4:] in opts:
            groups = opts[a.type[4:]]
            used = [u for g in groups for u in g]
            used.remove(i)
            made = len(groups)
        else:
            continue
        c = list(counts)
        for u in used:
            c[u] -= 1
        if min(c) < 0:
            continue
        r = (formed(tuple(c))[0] + made,)
        if r > best_r:
            best, best_r = a, r
    return best
