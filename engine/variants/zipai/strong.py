"""The ``strong`` AI of 字牌: the normal AI, keeping the cards whose groups pay more 胡息.

Rules: ``docs/rules/zipai.md``.  The win pays 囤 from its 胡息 (§胡息, §Scoring), and a big card's
group is worth twice a small one's (碰 3 vs 1, 坎/偎 6 vs 3, 跑 9 vs 6, 提 12 vs 9, 壹贰叁 and
贰柒拾 6 vs 3).  So when it discards, this level values a card as normal does (its partners:
copies, the other case's copies, sentence neighbours, 一二三 / 二七十 cards — see
:func:`engine.variants.zipai.ai.keep_value`) plus 1 for a big card and 2 more for a big card it
holds two or more of (a big 碰 / 坎 / 偎 / 跑 / 提 in the making), and discards the lowest.
Claims (碰 always, 吃 when it brings 胡息 or leaves a large hand) and wins play as normal;
no 飘 (a 飘 only scales the payments both ways).  Pure and deterministic; returns one of
``hand.legal_actions(seat)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import Action
from .ai import choose_action as normal_action, keep_value as normal_keep_value
from .actions import DISCARD, DISCARD_PHASE, HU
from .huxi import idx_of
from ...protocol import pending_moves

if TYPE_CHECKING:
    from .hand import ZipaiHand

BIG_FIRST = 10  #: the first big card's index in :meth:`ZipaiHand.counts` (壹 … 拾 are 10 … 19)


def keep_value(hand: ZipaiHand, seat: int, k: int) -> int:
    """How much a card of kind ``k`` is worth keeping for ``seat``: the normal AI's partner
    count, +1 for a big card, +2 more when ``seat`` holds two or more of it (zipai.md §胡息)."""
    v = normal_keep_value(hand, seat, k)
    i = idx_of(k)
    if i >= BIG_FIRST:
        v += 1
        if hand.counts(seat)[i] >= 2:
            v += 2
    return v


def choose_action(hand: ZipaiHand, seat: int) -> Action:
    """The strong AI's move for ``seat`` (which must be pending): an :class:`Action` among
    ``hand.legal_actions(seat)``; ``ValueError`` if the seat has nothing to do."""
    legal, _ = pending_moves(hand, seat)
    if hand.phase == DISCARD_PHASE and not any(a.type == HU for a in legal):
        discards = [a for a in legal if a.type == DISCARD]
        if discards:
            return min(discards, key=lambda a: (keep_value(hand, seat, a.tile_kind), -a.tile_kind))
    return normal_action(hand, seat)
