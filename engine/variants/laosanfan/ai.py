"""The AI seat of 老三番 and 金湖老三番.

Like ``engine.ai`` (lowest shanten, ties broken by unseen useful tiles, then isolated
honours/terminals first), with the variants' own needs: the shanten counts only the
shapes the variant lets win (老三番 has no seven pairs), a discard that would make the
seat liable (三摊 包牌, or a 贼 in 金湖 while not ready) is avoided when an equally good
one exists, and 听 is declared when a discard leaves a ready hand.  Deterministic.
"""

from __future__ import annotations

from typing import Mapping, TYPE_CHECKING, Callable

from ... import hand_shapes
from ...ai import best_after_discard, counts_after_claim, lowest_shanten_discards
from ...easy_ai import easy_action as easy_mahjong
from ...hand_shapes import ShantenFn
from ...actions import CHOW, DISCARD, HU, KONG, PASS, PUNG, TING, Action
from ...mahjong.phases import DISCARD_PHASE
from ...tiles import kind_of, kind_str
from ...protocol import pending_moves

if TYPE_CHECKING:
    from ...mahjong.hand import MahjongHand
    from .hand import LaoSanFanHand



def _useful(hand: MahjongHand, seat: int, counts: list[int], n_melds: int, base: int, sh: ShantenFn,
            vis: Mapping[int, int]) -> int:
    """Unseen copies of the kinds that lower the shanten (only kinds next to a held tile can)."""
    total = 0
    full = hand._kind_counts
    for k in hand.allowed_kinds():
        if counts[k] >= 4:
            continue
        if k < 27:
            lo, hi = k - k % 9, k - k % 9 + 8
            if not any(counts[j] for j in range(max(lo, k - 2), min(hi, k + 2) + 1)):
                continue
        elif not counts[k]:
            continue
        counts[k] += 1
        if sh(counts, n_melds) < base:
            total += max(0, full.get(k, 0) - vis[k])
        counts[k] -= 1
    return total


def _isolation(kind: int) -> int:
    if kind >= 27:
        return 0
    return 1 if kind % 9 in (0, 8) else 2


def choose(hand: MahjongHand, seat: int, sh: ShantenFn, risky: Callable[[int], bool] = lambda k: False) -> Action:
    """The AI's action for a pending ``seat``.

    :param sh: shanten function ``(counts34, n_melds) -> int`` of the variant.
    :param risky: ``kind -> bool``: discards to avoid when another is as good.
    Raises ``ValueError`` when the seat has nothing to do.
    """
    legal, types = pending_moves(hand, seat)
    if HU in types:
        return Action(seat, HU)
    counts = hand.counts(seat)
    n_melds = len(hand.melds[seat])
    if DISCARD in types:
        discards = [a for a in legal if a.type == DISCARD]
        tings = {a.kind for a in legal if a.type == TING}
        kong = free_kong(hand, seat, legal, sh)
        if kong is not None:
            return kong
        if len(discards) == 1:
            a = discards[0]
            return Action(seat, TING, a.kind) if a.kind in tings else a
        best_sh, cands = lowest_shanten_discards(discards, counts, n_melds, sh)
        safe = [a for a in cands if not risky(a.tile_kind)]
        cands = safe or cands
        if len(cands) > 1:
            # the most isolated few are compared by useful tiles kept (keeps a move fast)
            cands = sorted(cands, key=lambda a: (_isolation(a.tile_kind), a.tile_kind))[:2]
            vis = hand.visible_counts(seat)
            ranked = []
            for a in cands:
                counts[a.tile_kind] -= 1
                ranked.append((-_useful(hand, seat, counts, n_melds, best_sh, sh, vis), _isolation(a.tile_kind), a.tile_kind, a))
                counts[a.tile_kind] += 1
            ranked.sort(key=lambda r: r[:3])
            choice = ranked[0][3]
        else:
            choice = cands[0]
        return Action(seat, TING, choice.kind) if choice.kind in tings else choice
    # claim window
    if hand.ting[seat] or hand.last_discard is None:
        return Action(seat, PASS)
    k = kind_of(hand.last_discard[1])
    base = sh(counts, n_melds)
    best, best_sh = Action(seat, PASS), base
    for a in legal:
        if a.type not in (PUNG, CHOW, KONG):
            continue
        c = counts_after_claim(counts, a, k)
        v = sh(c, n_melds + 1) if a.type == KONG else best_after_discard(c, n_melds + 1, sh)
        if v < best_sh:
            best, best_sh = a, v
    return best


def standard_shanten(counts: list[int], n_melds: int) -> int:
    """Shanten toward 4 sets + a pair only (老三番 has no seven pairs)."""
    return hand_shapes.standard_shanten(counts, n_melds)


def free_kong(hand: MahjongHand, seat: int, legal: list[Action], sh: Callable) -> Action | None:
    """The first concealed or added kong among ``legal`` that leaves the shanten (``sh``) no
    worse than the best discard would, unless ``seat`` has declared 听; else ``None``."""
    kongs = [a for a in legal if a.type == KONG]
    if not kongs or hand.ting[seat]:
        return None
    counts = hand.counts(seat)
    n_melds = len(hand.melds[seat])
    best = best_after_discard(counts, n_melds, sh)
    for a in kongs:
        c = list(counts)
        own = c[a.tile_kind] == 4
        c[a.tile_kind] -= 4 if own else 1
        if sh(c, n_melds + (1 if own else 0)) <= best:
            return a
    return None


def choose_action(hand: LaoSanFanHand, seat: int) -> Action:
    """The AI seat of 老三番: :func:`choose` with the standard-shape shanten, avoiding the
    discards that would make the seat liable (三摊)."""
    risky: set[str] = set()
    if hand.phase == DISCARD_PHASE and seat == hand.turn:
        risky = {w["tile"] for w in hand.warnings(seat)}
    return choose(hand, seat, standard_shanten, lambda k: kind_str(k) in risky)


def easy_action(hand: LaoSanFanHand, seat: int) -> Action:
    """The ``easy`` level of 老三番 (:func:`engine.easy_ai.easy_action` with the standard-shape
    shanten): no value, no care for 三摊."""
    return easy_mahjong(hand, seat, standard_shanten)
