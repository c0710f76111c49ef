"""What the parts of a draw/discard hand share: the state :class:`~engine.mahjong.hand.MahjongHand`
sets up and the methods one part calls on another (the wall and the deal, the claim window,
the views, the public frames), declared once so that each part says what it relies on and the
type checker holds every part to it.  Nothing here exists at run time but the names."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ..hand_state import HandState
from ..melds import Meld


class MahjongState(HandState):
    """The state of a mahjong hand (set by ``MahjongHand.__init__`` and the wall)."""

    N_SEATS: ClassVar[int]
    PRIORITY: ClassVar[dict[str, int]]
    DEAL_DEALER: ClassVar[int]
    DEAL_OTHER: ClassVar[int]

    rng: random.Random
    drawn: list[int | None]
    melds: list[list[Meld]]
    flowers: list[list[int]]
    claimed_discards: set[int]  #: tiles taken from a pond by a claim
    ting: list[bool]
    doubles: list[int]
    draws_made: list[int]
    discards_made: list[int]
    claims_made: int
    last_discard: tuple[int, int] | None  #: (seat, tile)
    rob: tuple[int, int] | None  #: (seat adding, tile) during the rob window
    after_kong: bool
    win_declined: list[bool]
    # the wall (``engine/mahjong/wall.py``)
    wall: list[int]
    front: int
    back: int
    total_tiles: int
    dice: tuple[int, int]
    _kind_counts: dict[int, int]
    _allowed_set: frozenset[int]

    if TYPE_CHECKING:
        def tile_counts(self) -> dict[int, int]: ...

        def is_bonus(self, kind: int) -> bool: ...

        def allowed_kinds(self) -> tuple[int, ...]: ...

        def can_chow(self, claimer: int, discarder: int) -> bool: ...

        def claims_allowed(self) -> bool: ...

        def double_allowed(self) -> bool: ...

        def draw_reserve(self) -> int: ...

        def win_shape(self, seat: int, win_kind: int | None) -> bool: ...

        def counts(self, seat: int) -> list[int]: ...

        def unseen(self, viewer: int, kind: int) -> int: ...

        def waits(self, seat: int) -> list[int]: ...

        def win_offered(self, seat: int) -> bool: ...

        def _draw(self, seat: int, from_back: bool = False, after_kong: bool = False) -> None: ...

        def _next_draw(self, discarder: int) -> None: ...

        def _win(self, seat: int, tile: int, discarder: int | None, self_drawn: bool,
                 robbing: bool = False) -> None: ...


__all__ = ["MahjongState"]
