"""The AI seat of 财神麻将: :mod:`engine.ai`'s approach with the 财神 counted as wild.

* It wins whenever it may (胡, else 财神会).
* It never discards a 财神 while it holds another tile it may discard: a wild fills any
  missing tile, so keeping it never raises the shanten of :func:`engine.wilds.shanten`.
* Otherwise it discards the tile whose removal leaves the lowest shanten with wilds,
  ties broken by the unseen copies of the kinds that would then lower it, then by
  isolation (honours and terminals first).
* It makes a concealed/added kong when the shanten does not get worse, and claims
  (chow, pung, kong) only when the claim lowers the shanten after its best discard.

Deterministic: same state, same move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from ... import wilds as W
from ...ai import counts_after_claim
from ...easy_ai import easy_action as easy_mahjong
from ...actions import CHOW, DISCARD, HU, KONG, PASS, PUNG, Action
from ...tiles import kind_of
from ...protocol import pending_moves

if TYPE_CHECKING:
    from .hand import CaishenHand

CAISHEN_HUI = "caishen_hui"


def _shanten(hand: CaishenHand, phys_counts: list[int], n_melds: int) -> int:
    c, w = hand.split_counts(phys_counts)
    return W.shanten(c, w, n_melds)


def _best_discard_shanten(hand: CaishenHand, phys_counts: list[int], n_melds: int) -> int:
    best = 99
    for k in range(34):
        if phys_counts[k] and not hand.is_wild(k):
            phys_counts[k] -= 1
            s = _shanten(hand, phys_counts, n_melds)
            phys_counts[k] += 1
            if s < best:
                best = s
    if best == 99:  # nothing but 财神
        return _shanten(hand, phys_counts, n_melds)
    return best


def _useful(hand: CaishenHand, phys_counts: list[int], n_melds: int, below: int, unseen: list[int]) -> int:
    """Unseen copies (``unseen`` by printed kind) of the non-wild kinds whose draw brings the
    shanten with wilds of the 13-tile-form ``phys_counts`` below ``below``."""
    kinds = [k for k in range(34) if not hand.is_wild(k) and phys_counts[k] < 4]
    c, w = hand.split_counts(phys_counts)
    after = W.shanten_plus_one(c, w, n_melds, {hand.eff(k) for k in kinds})
    return sum(unseen[k] for k in kinds if after[hand.eff(k)] < below)


def _isolation(kind: int) -> int:
    if kind >= 27:
        return 0
    return 1 if kind % 9 in (0, 8) else 2


def choose_action(hand: CaishenHand, seat: int, danger: Optional[Callable[[int], int]] = None) -> Action:
    """The AI's choice for ``seat`` of a :class:`~engine.variants.caishen.CaishenHand`
    (which must be pending); raises ``ValueError`` if it has no legal action.  ``danger``
    (``kind -> int``, lower is safer), when given, ranks the discards that leave the lowest
    shanten before the unseen useful tiles do (the strong level's defence)."""
    legal, types = pending_moves(hand, seat)
    if HU in types:
        return Action(seat, HU)
    if CAISHEN_HUI in types:
        return Action(seat, CAISHEN_HUI)
    n_melds = len(hand.melds[seat])
    counts = hand.counts(seat)
    if DISCARD in types:
        base = _best_discard_shanten(hand, counts, n_melds)
        for a in legal:
            if a.type != KONG:
                continue
            c = list(counts)
            concealed = c[a.tile_kind] == 4
            c[a.tile_kind] -= 4 if concealed else 1
            if _shanten(hand, c, n_melds + (1 if concealed else 0)) <= base:
                return a
        return _choose_discard(hand, seat, legal, counts, n_melds, danger)
    return choose_claim(hand, seat, legal)


def choose_claim(hand: CaishenHand, seat: int, legal: list[Action]) -> Action:
    """A claim window's choice: the claim (chow, pung, kong) that lowers the shanten with wilds
    the most after its best discard (a kong: at once; the first on a tie), else 过."""
    if hand.last_discard is None:
        return Action(seat, PASS)
    n_melds = len(hand.melds[seat])
    k = hand.eff(kind_of(hand.last_discard[1]))
    c0, w = hand.split_counts(hand.counts(seat))
    best, best_sh = Action(seat, PASS), W.shanten(c0, w, n_melds)
    for a in legal:
        if a.type not in (PUNG, CHOW, KONG):
            continue
        c = counts_after_claim(c0, a, k)
        if a.type == KONG:
            sh = W.shanten(c, w, n_melds + 1)
        else:
            sh = 99
            for j in range(34):
                if c[j]:
                    c[j] -= 1
                    sh = min(sh, W.shanten(c, w, n_melds + 1))
                    c[j] += 1
        if sh < best_sh:
            best, best_sh = a, sh
    return best


def easy_action(hand: CaishenHand, seat: int) -> Action:
    """The ``easy`` level (:mod:`engine.easy_ai`): shanten with wilds only — wins when it
    may (胡, else 财神会), discards the tile leaving the lowest shanten (a 财神 kept on a tie),
    claims only when the claim lowers the shanten (:func:`choose_claim`)."""
    legal = hand.legal_actions(seat)
    types = {a.type for a in legal}
    if legal and not types & {DISCARD, HU, CAISHEN_HUI}:
        return choose_claim(hand, seat, legal)
    return easy_mahjong(hand, seat, lambda c, m: _shanten(hand, c, m), wins=(HU, CAISHEN_HUI), wild=hand.is_wild)


def _choose_discard(hand: CaishenHand, seat: int, legal: list[Action], counts: list[int], n_melds: int,
                    danger: Optional[Callable[[int], int]] = None) -> Action:
    discards = [a for a in legal if a.type == DISCARD]
    plain = [a for a in discards if not hand.is_wild(a.tile_kind)]
    if plain:
        discards = plain  # a 财神 always helps: keep it
    if len(discards) == 1:
        return discards[0]
    scored = []
    for a in discards:
        counts[a.tile_kind] -= 1
        scored.append((_shanten(hand, counts, n_melds), a))
        counts[a.tile_kind] += 1
    best_sh = min(s for s, _ in scored)
    candidates = [a for s, a in scored if s == best_sh]
    if len(candidates) == 1:
        return candidates[0]
    ranked = []
    visible = hand.visible_counts(seat)
    unseen = [max(0, 4 - visible[k]) for k in range(34)]
    for a in candidates:
        counts[a.tile_kind] -= 1
        useful = _useful(hand, counts, n_melds, best_sh, unseen)
        counts[a.tile_kind] += 1
        ranked.append((danger(a.tile_kind) if danger else 0, -useful, _isolation(hand.eff(a.tile_kind)), a.tile_kind, a))
    ranked.sort(key=lambda r: r[:4])
    return ranked[0][4]
