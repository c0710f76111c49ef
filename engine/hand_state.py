"""What every game's hand holds and offers its parts, whatever the game: declared once for the
state declarations of each hand family (``engine/mahjong/state.py``,
``engine/variants/zipai/state.py``, ``engine/variants/laowudui/state.py``), and the AI seat
every hand plays with (:class:`AiSeat`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

from .actions import Action
from .events import Event


class HandState:
    """The state every hand sets up (its ``__init__``)."""

    options: dict[str, Any]
    seed: int
    dealer: int
    n: int  #: seats
    context: dict[str, Any]
    seq: int  #: actions applied
    events: list[Event]
    result: dict | None
    hands: list[list[int]]  #: concealed tiles (or cards) per seat
    discards: list[list[int]]
    turn: int
    phase: str
    claim_options: dict[int, list[Action]]
    responses: dict[int, Action]

    if TYPE_CHECKING:
        @property
        def wall_remaining(self) -> int: ...

        def legal_actions(self, seat: int) -> list[Action]: ...

        def pending_seats(self) -> list[int]: ...

        def _mark_frame(self, next_seat: int) -> None: ...


class AiSeat:
    """A hand's AI seat: :meth:`ai_action` plays the game's AI, which the game's package gives
    its hand class (``ai_policy``: ``choose_action(hand, seat) -> Action``), so that a hand's
    module never imports the AI that reads it."""

    ai_policy: ClassVar[Callable[[Any, int], Action]]

    def ai_action(self, seat: int) -> Action:
        """The AI seat's choice for ``seat`` (the game's ``ai_policy``)."""
        return type(self).ai_policy(self, seat)


__all__ = ["AiSeat", "HandState"]
