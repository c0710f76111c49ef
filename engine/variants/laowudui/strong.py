"""The ``strong`` AI of 老五对: the normal pair collector, going for what the win pays.

Rules: ``docs/rules/laowudui.md``.  The 对 of a win count the meld area only (§Scoring: a melded
pair 1 or 2, a four 10 or 20) and each fan doubles the payment, so on top of the normal AI
(:mod:`engine.variants.laowudui.ai`) this level

* claims (吃) a tile it already holds a *pair* of, too, not only a single: the pair goes face
  up and scores, and the pair kept in the hand is the way to a melded four (杠, or 堆 + 百搭);
* discards, among the singles, first the one that brings the hand nearest a fan it can still
  make (清一色, 全小, 全大 — :func:`fan_distance`, counted up to 3), then the one with the
  fewest copies still unseen (as normal).

Everything else plays as normal: wins when it may, declares 折庄, never buys 庄, keeps a dealt
百搭.  There is nothing to defend: every loser pays the winner (§Scoring, 一家点炮三家都输).
Pure and deterministic; returns one of ``hand.legal_actions(seat)``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Callable

from ...actions import Action
from ...tiles import kind_of
from .ai import choose_action as normal_action
from .shapes import SUIT_OF, is_big, is_xi

if TYPE_CHECKING:
    from .hand import LaoWuDuiHand

FAN_CAP = 3  #: fan distances past this count alike (a far fan is no reason to keep a tile)


def _small(k: int) -> bool:
    return is_xi(k) or not is_big(k)


def _big(k: int) -> bool:
    return is_big(k)



def _in_suit(suit: int) -> Callable[[int], bool]:
    """A test of kinds: is it of ``suit`` (``SUIT_OF``)?"""
    return lambda k: k in SUIT_OF and SUIT_OF[k] == suit


def fan_distance(hand: LaoWuDuiHand, seat: int, counts: Counter) -> int:
    """The fewest singles of the concealed ``counts`` (``{kind: n}``) that keep the nearest of
    清一色 / 全小 / 全大 from the hand; a fan counts only while every melded tile and every
    concealed pair fits it (laowudui.md §Scoring; 百搭 fit every fan).  9 when none is alive."""
    fixed = [kind_of(t) for m in hand.melds[seat] for t in m.tiles]
    fixed += [k for k, n in counts.items() if n >= 2]
    fixed = [k for k in fixed if k not in hand.wild]
    singles = [k for k, n in counts.items() if n % 2 == 1 and k not in hand.wild]
    tests: list[Callable[[int], bool]] = [_small, _big]
    suits = {SUIT_OF[k] for k in fixed if k in SUIT_OF} or {SUIT_OF[k] for k in singles if k in SUIT_OF}
    for s in sorted(suits):
        tests.append(_in_suit(s))
    best = 9
    for fits in tests:
        if all(fits(k) for k in fixed):
            best = min(best, sum(1 for k in singles if not fits(k)))
    return best


def _discard(hand: LaoWuDuiHand, seat: int, kinds: list[int]) -> int:
    """The kind to discard among ``kinds``: a non-wild single (then a pair's tile) that leaves
    the nearest fan (capped at :data:`FAN_CAP`), then the fewest unseen copies; a wild only
    when nothing else is offered."""
    counts = Counter(kind_of(t) for t in hand.hands[seat])
    plain = [k for k in kinds if k not in hand.wild]
    if not plain:
        return kinds[-1]
    visible = hand.visible_kinds(seat)

    def key(k: int) -> tuple[int, int, int, int]:
        left = max(0, (1 if is_xi(k) else 4) - visible[k])
        single = counts[k] % 2 == 1
        counts[k] -= 1
        fd = fan_distance(hand, seat, counts)
        counts[k] += 1
        return (0 if single else 1, min(fd, FAN_CAP), left, -k)

    return min(plain, key=key)


def _claims(n: int) -> bool:
    return n in (1, 2, 3)  # a single, and a pair too: the melded pair scores


def choose_action(hand: LaoWuDuiHand, seat: int) -> Action:
    """The strong AI's move for ``seat`` (which must be pending): an :class:`Action` among
    ``hand.legal_actions(seat)``; ``ValueError`` if the seat has nothing to do.  The normal
    AI's play with this level's claims and discards."""
    return normal_action(hand, seat, claims=_claims, discard=_discard)
