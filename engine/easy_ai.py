"""The ``easy`` AI level of the draw/discard mahjong games (:mod:`engine.ai_levels`): the
baseline that only lowers the distance to a win (the shanten), with no value and no defence.

* It wins whenever it may (the game's win types: 胡, 财神会 …).
* On its turn it discards the tile whose removal leaves the lowest shanten; ties go to the
  tile that is not wild, then the lowest kind index (1m first).  It declares 听 with that
  discard when the hand offers a 听 with it (the discard leaves a ready hand); it never
  makes a kong on its turn, never 加倍, never 假听.
* In a claim window it claims (chow, pung, exposed kong) only when the claim lowers the
  shanten (after its best discard; a kong: at once), the first such claim in the hand's
  order of legal actions; otherwise it passes.

Deterministic: same state, same move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from .actions import CHOW, DISCARD, HU, KONG, PASS, PUNG, TING, Action
from .ai import best_after_discard, counts_after_claim
from .hand_shapes import ShantenFn
from .tiles import kind_of
from .protocol import pending_moves

if TYPE_CHECKING:
    from .mahjong.hand import MahjongHand



def easy_action(hand: MahjongHand, seat: int, sh: ShantenFn, *, wins: Iterable[str] = (HU,),
                wild: Callable[[int], bool] = lambda k: False) -> Action:
    """The easy move of a pending ``seat`` of a draw/discard mahjong ``hand``.

    :param sh: the game's shanten ``(counts34, n_melds) -> int`` on the hand's own counts.
    :param wins: the action types that win, in the order they are preferred.
    :param wild: ``kind -> bool``: kinds kept on a tie (wild tiles).
    :raises ValueError: the seat has nothing to do."""
    legal, _ = pending_moves(hand, seat)
    for w in wins:
        for a in legal:
            if a.type == w:
                return a
    counts = hand.counts(seat)
    n_melds = len(hand.melds[seat])
    discards = [a for a in legal if a.type == DISCARD]
    if discards:
        tings = {a.kind for a in legal if a.type == TING}
        scored = []
        for a in discards:
            counts[a.tile_kind] -= 1
            scored.append((sh(counts, n_melds), wild(a.tile_kind), a.tile_kind, a))
            counts[a.tile_kind] += 1
        choice = min(scored, key=lambda r: r[:3])[3]
        return Action(seat, TING, choice.kind) if choice.kind in tings else choice
    last = hand.last_discard
    passing = next((a for a in legal if a.type == PASS), legal[0])
    if last is None:
        return passing
    k = kind_of(last[1])
    base = sh(counts, n_melds)
    for a in legal:
        if a.type not in (PUNG, CHOW, KONG):
            continue
        c = counts_after_claim(counts, a, k)
        if min(c) < 0:
            continue
        v = sh(c, n_melds + 1) if a.type == KONG else best_after_discard(c, n_melds + 1, sh, wild)
        if v < base:
            return a
    return passing


__all__ = ["easy_action", "best_after_discard", "ShantenFn"]
