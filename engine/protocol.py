"""What every variant's hand offers the table service and the front ends.

The draw/discard mahjong variants get all of it from :class:`engine.mahjong.MahjongHand`
by overriding hooks; a game with another turn structure (老五对's dealt tile that must
be passed on, 字牌's shown cards and forced moves) implements the same protocol in its
own class.  Nothing outside ``engine/`` looks at anything else of a hand.
"""

from __future__ import annotations

from typing import Any, Protocol

from .actions import Action


class Hand(Protocol):
    """One deal of one variant, driven only by :meth:`apply`.

    Seats are 0..n-1 in turn order.  ``seq`` counts the actions applied (buttons carry
    it, so a click from an earlier turn is recognised as stale).
    """

    n: int  #: number of seats
    seed: int  #: the seed the hand was dealt from
    dealer: int  #: seat of the dealer
    seq: int  #: actions applied so far
    context: dict  #: the match context it was dealt with (stored with the hand for replays)
    result: dict | None  #: the settlement once over (see below)
    events: list  #: every ``Event`` so far (``.to_json()`` gives public dicts)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now; ``str(action)`` is ``"<seat> <type> [<tile>]"``."""

    def apply(self, action: Action) -> list:
        """Apply one action and return the events it caused; raises ``IllegalAction`` with a
        message-catalogue ``code`` (state unchanged) when the rules refuse it."""

    def pending_seats(self) -> list[int]:
        """Seats whose decision the hand waits for (each has legal actions)."""

    def is_over(self) -> bool:
        ...

    def view(self, viewer: int | None = None, reveal: bool = False) -> dict:
        """What ``viewer`` (``None``: the public) may see, JSON-ready; the renderer's only
        input.  ``reveal=True`` (replays of finished hands) shows every hand face up.  Keys used by the front ends: ``variant, seq, dealer, turn, phase,
        wall_remaining, seats[...], result, me`` (``me``: ``hand, drawn, legal, waits``)."""

    def timeout_action(self, seat: int) -> Action:
        """What happens for ``seat`` when its timer runs out (and under 托管)."""

    def timer_kind(self) -> str:
        """``"discard"`` or ``"claim"``: which table timeout applies now."""

    def ai_action(self, seat: int) -> Action:
        """The AI seat's choice."""


#: keys of ``Hand.result`` read outside the engine
RESULT_KEYS: dict[str, Any] = {
    "points": "list[int], signed points per seat, summing to 0",
    "winner": "int | None: the (first) winner; None on an exhaustive draw",
    "winners": "list[int], optional: several winners (一炮多响)",
    "discarder": "int | None: the seat that dealt in",
    "self_drawn": "bool",
    "win_tile": "str, notation",
    "fans": "list of [zh name, en name, value, count]",
    "fan_total": "int, the winner's fan (or 胡息/对 as the variant counts)",
    "fan_by_seat": "dict seat -> fan, optional, with several winners",
    "multiplier_rows": "list of [zh name, en name, factor], optional: shown beside the fans",
    "summary_rows": "list of [zh name, en name, value], optional: the result's summary line "
                    "(e.g. 胡 26 · 番 1 · 120) instead of the fan total",
    "next_dealer": "int, optional: who deals next when the variant's rule is not 'winner deals'",
    "match_updates": "dict, optional: match-level facts carried to the next hand's context",
}
