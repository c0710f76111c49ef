"""Which seats of a hand claimed another seat's tile (副露): counted from the hand's events,
stored with each settlement (``result["claimed_by"]``) and, for hands settled before that, by
replaying their logs (``service.rates``)."""

from __future__ import annotations

from engine.protocol import Hand

#: the event of a win (not a claim, though it names the seat it won from)
WIN_EVENT = "hu"


def claiming_seats(hand: Hand) -> frozenset[int]:
    """The seats of a (replayed) hand that took a tile another seat discarded or showed: a
    吃/碰/明杠 (老五对's 吃 of a pair, 字牌's 吃/碰/跑) — every event naming a ``from`` seat other
    than its own, but a win.  A concealed or added kong, 老五对's 吃 of its own dealt tile and
    字牌's 吃/跑 of its own card name no other seat."""
    seats = set()
    for e in hand.events:
        src = e.data.get("from")
        if e.type != WIN_EVENT and e.seat is not None and isinstance(src, int) and not isinstance(src, bool) \
                and src != e.seat:
            seats.add(e.seat)
    return frozenset(seats)


__all__ = ["WIN_EVENT", "claiming_seats"]
