"""A simple AI seat for the draw/discard mahjong variants.

It plays legal, sensible moves: wins whenever it may, declares 加倍 when a win
is refused for lack of fan (the only way up to the minimum in ``two_player``),
declares 听 when a discard leaves a ready hand, claims only when the claim
brings the hand closer to ready (lower shanten), and otherwise discards the tile
whose removal leaves the lowest shanten, breaking ties by keeping the tiles with
the most unseen useful copies.  Deterministic: same state, same move.
"""

from __future__ import annotations

from . import hand_shapes
from .actions import CHOW, DISCARD, DOUBLE, HU, KONG, PASS, PUNG, TING, Action
from .tiles import kind_of


def _shanten_after(counts: list[int], n_melds: int) -> int:
    return hand_shapes.shanten(counts, n_melds)


def _useful(hand, seat: int, counts: list[int], n_melds: int, base: int) -> int:
    """Unseen copies of the kinds that lower the shanten of a 13-tile-form hand."""
    total = 0
    for k in hand.allowed_kinds():
        if counts[k] >= 4:
            continue
        counts[k] += 1
        if hand_shapes.shanten(counts, n_melds) < base:
            total += hand.unseen(seat, k)
        counts[k] -= 1
    return total


def choose_action(hand, seat: int) -> Action:
    """The AI's choice for ``seat`` (which must be pending); raises ``ValueError`` if it has
    no legal action."""
    legal = hand.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    types = {a.type for a in legal}
    if HU in types:
        return Action(seat, HU)
    if hand.win_offered(seat) and DOUBLE in types:
        return Action(seat, DOUBLE)  # a win below the fan minimum: double it up
    n_melds = len(hand.melds[seat])
    counts = hand.counts(seat)
    if DISCARD in types:
        kongs = [a for a in legal if a.type == KONG]
        if kongs and not hand.ting[seat]:
            # a concealed/added kong that keeps the shanten is free fan and a fresh tile
            for a in kongs:
                c = list(counts)
                c[a.kind] -= 4 if c[a.kind] == 4 else 1
                if _shanten_after(c, n_melds + (1 if counts[a.kind] == 4 else 0)) <= _best_discard_shanten(counts, n_melds):
                    return a
        return _choose_discard(hand, seat, legal, counts, n_melds)
    # claim window
    if TING in types:
        return Action(seat, TING)
    if hand.ting[seat]:
        return Action(seat, PASS)
    base = hand_shapes.shanten(counts, n_melds)
    best, best_sh = Action(seat, PASS), base
    tile = hand.last_discard[1] if hand.last_discard else None
    if tile is None:
        return best
    k = kind_of(tile)
    for a in legal:
        if a.type not in (PUNG, CHOW, KONG):
            continue
        c = counts_after_claim(counts, a, k)
        # after a pung/chow the hand must still discard: best shanten after that discard
        sh = _best_discard_shanten(c, n_melds + 1) if a.type != KONG else hand_shapes.shanten(c, n_melds + 1)
        if sh < best_sh:
            best, best_sh = a, sh
    return best


def counts_after_claim(counts: list[int], action: Action, kind: int) -> list[int]:
    """A copy of ``counts`` without the hand tiles that a pung, exposed kong or chow (starting
    at ``action.kind``) of the discarded ``kind`` would lay down."""
    c = list(counts)
    if action.type == PUNG:
        c[kind] -= 2
    elif action.type == KONG:
        c[kind] -= 3
    else:
        for i in range(3):
            if action.kind + i != kind:
                c[action.kind + i] -= 1
    return c


def _best_discard_shanten(counts: list[int], n_melds: int) -> int:
    best = 99
    for k in range(34):
        if counts[k]:
            counts[k] -= 1
            best = min(best, hand_shapes.shanten(counts, n_melds))
            counts[k] += 1
    return best


def _choose_discard(hand, seat: int, legal: list[Action], counts: list[int], n_melds: int) -> Action:
    discards = [a for a in legal if a.type == DISCARD]
    tings = {a.kind for a in legal if a.type == TING}
    if len(discards) == 1:
        a = discards[0]
        return Action(seat, TING, a.kind) if a.kind in tings else a
    scored = []
    for a in discards:
        counts[a.kind] -= 1
        sh = hand_shapes.shanten(counts, n_melds)
        scored.append((sh, a))
        counts[a.kind] += 1
    best_sh = min(s for s, _ in scored)
    candidates = [a for s, a in scored if s == best_sh]
    if len(candidates) > 1:
        ranked = []
        for a in candidates:
            counts[a.kind] -= 1
            ranked.append((-_useful(hand, seat, counts, n_melds, best_sh), _isolation(a.kind), a.kind, a))
            counts[a.kind] += 1
        ranked.sort(key=lambda r: r[:3])
        choice = ranked[0][3]
    else:
        choice = candidates[0]
    if choice.kind in tings:
        return Action(seat, TING, choice.kind)
    return choice


def _isolation(kind: int) -> int:
    """Lower = discard first: honours, then terminals, then the middle."""
    if kind >= 27:
        return 0
    n = kind % 9
    return 1 if n in (0, 8) else 2
