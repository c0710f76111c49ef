"""A simple AI seat for the draw/discard mahjong variants.

It plays legal, sensible moves: wins whenever it may, declares 加倍 when a win
is refused for lack of fan (the only way up to the minimum in ``two_player``),
declares 听 when a discard leaves a ready hand, claims only when the claim
brings the hand closer to ready (lower shanten), and otherwise discards the tile
whose removal leaves the lowest shanten, breaking ties by keeping the tiles with
the most unseen useful copies.  Deterministic: same state, same move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from . import hand_shapes
from .hand_shapes import ShantenFn
from .actions import CHOW, DISCARD, DOUBLE, HU, KONG, PASS, PUNG, TING, Action
from .protocol import pending_moves
from .tiles import kind_of

if TYPE_CHECKING:
    from .mahjong.hand import MahjongHand


class _Shanten:
    """``hand_shapes.shanten`` memoised on the counts for the length of one decision
    (the same hands come back when discards, kongs and claims are compared)."""

    __slots__ = ("memo",)

    def __init__(self) -> None:
        self.memo: dict[tuple, int] = {}

    def __call__(self, counts: list[int], n_melds: int) -> int:
        key = (n_melds, *counts)
        r = self.memo.get(key)
        if r is None:
            r = self.memo[key] = hand_shapes.shanten(counts, n_melds)
        return r


def _useful(hand: MahjongHand, counts: list[int], n_melds: int, base: int, sh: ShantenFn | None,
            unseen: dict[int, int]) -> int:
    """Unseen copies of the kinds that lower the shanten of a 13-tile-form hand.

    Only a kind within two ranks of a held suited tile, or a held honour, can lower it
    (any other tile would lie alone in every split, and the seven-pairs count needs a
    copy already held), so the others are not tried.  ``unseen`` maps kind -> copies
    the seat cannot see."""
    kinds = []
    for k in hand.allowed_kinds():
        if counts[k] >= 4:
            continue
        if k < 27:
            r = k % 9
            lo = k - 2 if r >= 2 else k - r
            hi = k + 2 if r <= 6 else k + 8 - r
            for j in range(lo, hi + 1):
                if counts[j]:
                    break
            else:
                continue
        elif not counts[k]:
            continue
        kinds.append(k)
    if not kinds:
        return 0
    return sum(unseen[k] for k, v in _shanten_plus_one(counts, n_melds, kinds).items() if v < base)


def _shanten_plus_one(counts: list[int], n_melds: int, kinds: list[int]) -> dict[int, int]:
    """``{k: hand_shapes.shanten(counts with one more k)}`` for each ``k`` of ``kinds`` (each
    in a group, 万 筒 条 or one honour, that holds a tile).  Same arithmetic as
    ``hand_shapes.standard_shanten``, but the (sets, partials, pair) sums of the groups
    that ``k`` leaves unchanged are combined once, and the best shanten over them of each
    reading of ``k``'s group is worked out once (the readings of one group with one more
    tile of different ranks are mostly the same triples)."""
    groups = []
    for base, n, ch in hand_shapes._GROUPS:
        group = tuple(counts[base:base + n])
        if any(group):
            groups.append((base, n, ch, hand_shapes._group_mtp(ch, group)))
    g = len(groups)
    prefix = [{(0, 0, 0)}]
    for i in range(g - 1):
        prefix.append(hand_shapes.combine_mtp(prefix[-1], groups[i][3]))
    suffix = [{(0, 0, 0)}] * g
    for i in range(g - 2, -1, -1):
        suffix[i] = hand_shapes.combine_mtp(suffix[i + 1], groups[i + 1][3])
    rest: dict[int, tuple] = {}
    #: (group, reading of the group) -> the best shanten over the other groups' readings
    best_with: dict[tuple, int] = {}
    pairs = sum(c >> 1 for c in counts)
    out = {}
    for k in kinds:
        for i, (base, n, ch, _) in enumerate(groups):
            if base <= k < base + n:
                break
        r = rest.get(i)
        if r is None:
            r = rest[i] = tuple(hand_shapes.combine_mtp(prefix[i], suffix[i]))
        key = list(counts[base:base + n])
        key[k - base] += 1
        best = 8
        for reading in hand_shapes._group_mtp(ch, tuple(key)):
            v = best_with.get((i, reading))
            if v is None:
                dm, dt, dp = reading
                v = 8
                for m, t, p in r:
                    if p + dp > 1:
                        continue
                    m += n_melds + dm
                    if m > 4:
                        m = 4
                    cap = 4 - m
                    t += dt
                    s = 8 - 2 * m - (t if t < cap else cap) - p - dp
                    if s < v:
                        v = s
                best_with[(i, reading)] = v
            if v < best:
                best = v
        if n_melds == 0:
            v = 6 - min(pairs + (counts[k] & 1), 7)
            if v < best:
                best = v
        out[k] = best
    return out


def _unseen_counts(hand: MahjongHand, seat: int) -> dict[int, int]:
    """``{kind: hand.unseen(seat, kind)}`` for every kind of the set, from one scan of the
    visible tiles."""
    vis = hand.visible_counts(seat)
    return {k: max(0, n - vis[k]) for k, n in hand._kind_counts.items()}


def choose_action(hand: MahjongHand, seat: int) -> Action:
    """The AI's choice for ``seat`` (which must be pending); raises ``ValueError`` if it has
    no legal action."""
    legal, types = pending_moves(hand, seat)
    if HU in types:
        return Action(seat, HU)
    if hand.win_offered(seat) and DOUBLE in types:
        return Action(seat, DOUBLE)  # a win below the fan minimum: double it up
    n_melds = len(hand.melds[seat])
    counts = hand.counts(seat)
    sh = _Shanten()
    if DISCARD in types:
        kongs = [a for a in legal if a.type == KONG]
        if kongs and not hand.ting[seat]:
            # a concealed/added kong that keeps the shanten is free fan and a fresh tile
            best_discard = best_after_discard(counts, n_melds, sh)
            for a in kongs:
                c = list(counts)
                c[a.tile_kind] -= 4 if c[a.tile_kind] == 4 else 1
                if sh(c, n_melds + (1 if counts[a.tile_kind] == 4 else 0)) <= best_discard:
                    return a
        return _choose_discard(hand, seat, legal, counts, n_melds, sh)
    # claim window
    if TING in types:
        return Action(seat, TING)
    if hand.ting[seat]:
        return Action(seat, PASS)
    base = sh(counts, n_melds)
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
        v = best_after_discard(c, n_melds + 1, sh) if a.type != KONG else sh(c, n_melds + 1)
        if v < best_sh:
            best, best_sh = a, v
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
            if action.tile_kind + i != kind:
                c[action.tile_kind + i] -= 1
    return c


def best_after_discard(counts: list[int], n_melds: int, sh: ShantenFn = hand_shapes.shanten,
                       wild: Callable[[int], bool] | None = None) -> int:
    """The lowest ``sh(counts, n_melds)`` after discarding one tile of ``counts`` (kinds for
    which ``wild`` holds are kept while another tile remains; 99 for no tile).  ``counts`` is
    restored before returning."""
    kinds = [k for k in range(len(counts)) if counts[k] and not (wild and wild(k))] or \
        [k for k in range(len(counts)) if counts[k]]
    best = 99
    for k in kinds:
        counts[k] -= 1
        best = min(best, sh(counts, n_melds))
        counts[k] += 1
    return best


def lowest_shanten_discards(discards: list[Action], counts: list[int], n_melds: int,
                            sh: ShantenFn) -> tuple[int, list[Action]]:
    """The lowest shanten a discard leaves (``sh(counts, n_melds)`` after it) and the discards
    that leave it, in the given order.  ``counts`` is restored before returning."""
    scored = []
    for a in discards:
        counts[a.tile_kind] -= 1
        scored.append((sh(counts, n_melds), a))
        counts[a.tile_kind] += 1
    best = min(s for s, _ in scored)
    return best, [a for s, a in scored if s == best]


def _choose_discard(hand: MahjongHand, seat: int, legal: list[Action], counts: list[int], n_melds: int,
                    sh: ShantenFn) -> Action:
    discards = [a for a in legal if a.type == DISCARD]
    tings = {a.kind for a in legal if a.type == TING}
    if len(discards) == 1:
        a = discards[0]
        return Action(seat, TING, a.kind) if a.kind in tings else a
    best_sh, candidates = lowest_shanten_discards(discards, counts, n_melds, sh)
    if len(candidates) > 1:
        unseen = _unseen_counts(hand, seat)
        ranked = []
        for a in candidates:
            counts[a.tile_kind] -= 1
            ranked.append((-_useful(hand, counts, n_melds, best_sh, sh, unseen), _isolation(a.tile_kind), a.tile_kind, a))
            counts[a.tile_kind] += 1
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
