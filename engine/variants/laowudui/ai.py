"""The AI seat of 老五对: a greedy pair collector.

The hand is judged by the number of unpaired real tiles (singles) minus the 百搭 held;
the AI wins whenever it may, declares 折庄 when offered, never buys 庄, claims (吃 / 堆 /
杠) whenever the claim pairs up a single or completes a four, keeps every dealt 百搭 and
discards the single with the fewest unseen copies.  Deterministic: same state, same move.
Source: ``docs/rules/laowudui.md`` (legal moves come from the hand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from collections import Counter

from ...actions import DISCARD, HU, KONG, PASS, Action
from ...tiles import kind_of
from .actions import BUY, CHI, CONFIRM, DUI, KEEP, NO_BUY, NO_ZHE, ZHE
from ...protocol import pending_moves

if TYPE_CHECKING:
    from .hand import LaoWuDuiHand


def _best_discard(hand: LaoWuDuiHand, seat: int, kinds: list[int]) -> int:
    """The kind to discard among ``kinds``: a non-wild single with the fewest unseen copies,
    else a non-wild tile of the most common kind, else a wild."""
    counts = Counter(kind_of(t) for t in hand.hands[seat])
    plain = [k for k in kinds if k not in hand.wild]
    if not plain:
        return kinds[-1]
    visible = hand.visible_kinds(seat)

    def key(k: int) -> tuple[int, int, int]:
        single = counts[k] % 2 == 1
        left = max(0, (1 if k >= 45 else 4) - visible[k])
        return (0 if single else 1, left, -k)

    return min(plain, key=key)


def _odd(n: int) -> bool:
    return n % 2 == 1


def choose_action(hand: LaoWuDuiHand, seat: int, claims: Callable[[int], bool] = _odd,
                  discard: Optional[Callable[[LaoWuDuiHand, int, list[int]], int]] = None) -> Action:
    """The AI's move for ``seat`` (which must be pending); ``ValueError`` if it has none.

    ``claims(n)``: whether to claim (吃) a tile of which the hand holds ``n`` (default: an odd
    number, a single to pair); ``discard(hand, seat, kinds) -> kind``: the discard among
    ``kinds`` (default :func:`_best_discard`).  The strong level passes its own."""
    discard = discard or _best_discard
    legal, types = pending_moves(hand, seat)
    if NO_BUY in types or BUY in types:
        return Action(seat, NO_BUY)
    if ZHE in types or NO_ZHE in types:
        return Action(seat, ZHE)
    if HU in types:
        return Action(seat, HU)
    counts = Counter(kind_of(t) for t in hand.hands[seat])
    if hand.phase == "claim":
        assert hand.last_discard is not None  # the window is open on the discard
        if KONG in types:
            return Action(seat, KONG)
        if CHI in types and claims(counts[kind_of(hand.last_discard[1])]):
            return Action(seat, CHI)
        return Action(seat, PASS)
    if CONFIRM in types:
        if KEEP in types and any(kind_of(t) not in hand.wild for t in hand.hands[seat]):
            return Action(seat, KEEP)
        return Action(seat, CONFIRM)
    for a in legal:
        if a.type == KONG:
            return a
    dealt = hand.dealt[seat]
    for a in legal:
        if a.type == DUI and (a.kind is None or counts[a.kind] % 2 == 1):
            return a
    if CHI in types and dealt is not None and claims(counts[kind_of(dealt)]):
        return Action(seat, CHI)
    discards = [a.tile_kind for a in legal if a.type == DISCARD]
    if dealt is not None and kind_of(dealt) not in hand.wild:
        return Action(seat, DISCARD, kind_of(dealt))
    if dealt is not None:  # a dealt wild: keep it, discard from the hand
        hand_kinds = sorted({kind_of(t) for t in hand.hands[seat]} & set(discards))
        if any(k not in hand.wild for k in hand_kinds):
            return Action(seat, DISCARD, discard(hand, seat, hand_kinds))
        if KEEP in types and not hand.hands[seat]:
            return Action(seat, KEEP)
        return Action(seat, DISCARD, discards[-1])
    return Action(seat, DISCARD, discard(hand, seat, sorted(set(discards))))


def easy_action(hand: LaoWuDuiHand, seat: int) -> Action:
    """The ``easy`` level: the fewest pairs and fours still missing (unpaired real tiles), no
    value.  Wins when it may; never buys 庄 and never declares 折庄; claims (吃 / 堆 / 杠) when
    the claim pairs a single or completes a four; keeps a dealt 百搭 (discarding from the hand
    the unpaired real tile of the lowest kind); otherwise passes the dealt tile on.
    ``ValueError`` when the seat has nothing to do."""
    legal, types = pending_moves(hand, seat)
    for no in (NO_BUY, NO_ZHE):
        if no in types:
            return Action(seat, no)
    if HU in types:
        return Action(seat, HU)
    counts = Counter(kind_of(t) for t in hand.hands[seat])
    if hand.phase == "claim":
        assert hand.last_discard is not None  # the window is open on the discard
        if KONG in types:
            return Action(seat, KONG)
        if CHI in types and counts[kind_of(hand.last_discard[1])] % 2 == 1:
            return Action(seat, CHI)
        return Action(seat, PASS) if PASS in types else legal[0]
    if CONFIRM in types:
        real = any(kind_of(t) not in hand.wild for t in hand.hands[seat])
        return Action(seat, KEEP) if KEEP in types and real else Action(seat, CONFIRM)
    for a in legal:
        if a.type == KONG or (a.type == DUI and (a.kind is None or counts[a.kind] % 2 == 1)):
            return a
    dealt = hand.dealt[seat]
    if CHI in types and dealt is not None and counts[kind_of(dealt)] % 2 == 1:
        return Action(seat, CHI)
    discards = [a for a in legal if a.type == DISCARD]
    if dealt is not None and kind_of(dealt) not in hand.wild:
        return Action(seat, DISCARD, kind_of(dealt))
    plain = [a for a in discards if a.tile_kind not in hand.wild and (dealt is None or counts[a.tile_kind])]
    if plain:
        return min(plain, key=lambda a: (counts[a.tile_kind] % 2 == 0, a.tile_kind))
    if KEEP in types and not hand.hands[seat]:
        return Action(seat, KEEP)
    return discards[-1] if discards else legal[0]
