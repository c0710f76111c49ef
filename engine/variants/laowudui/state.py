"""What the parts of a 老五对 hand share: the state
:class:`~engine.variants.laowudui.hand.LaoWuDuiHand` sets up and the methods one part calls on
another (the claims, the scoring, the views, the public frames), declared once so that each
part says what it relies on and the type checker holds every part to it.  Nothing here exists
at run time but the names (and :class:`_Win`, a win being settled)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ...actions import Action
from ...hand_state import HandState
from ...melds import Meld


@dataclass
class _Win:
    """One win being settled: the winner, the winning tile, self-drawn or from ``discarder``."""

    seat: int
    tile: int
    self_drawn: bool
    discarder: int | None


class LaoWuDuiState(HandState):
    """The state of a 老五对 hand (set by ``LaoWuDuiHand.__init__``, its wall and its deal)."""

    VARIANT: ClassVar[str]

    rng: random.Random
    dealt: list[int | None]  #: the tile each seat was dealt this turn (passed on, or kept)
    melds: list[list[Meld]]
    claimed_discards: set[int]
    discards_made: list[int]
    set_aside: list[int]
    confirming: int | None  #: a wild tile whose discard awaits 打 / 留
    last_discard: tuple[int, int] | None
    last_unchanged: bool  #: the last discard was its discarder's dealt tile
    bought: list[bool | None]
    zhe_eligible: list[bool]
    zhe_decided: list[bool]
    zhezhuang: list[bool]
    wall: list[int]
    front: int
    back: int
    indicator: int  #: the turned tile
    wild: frozenset[int]  #: the wild kinds (百搭)

    if TYPE_CHECKING:
        def waits(self, seat: int) -> list[int]: ...

        def unseen(self, viewer: int, kind: int) -> int: ...

        def holding(self, seat: int) -> int: ...

        def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, on_discarded_wild: bool = False,
                         hand: list[int] | None = None) -> dict: ...

        def win_kind_allowed(self, seat: int, kind: int, self_drawn: bool, hand: list[int] | None = None,
                             melds: list[Meld] | None = None) -> bool: ...

        def _add_meld(self, seat: int, meld: Meld) -> None: ...

        def _count_kind(self, tiles: list[int], kind: int) -> int: ...

        def _draw_game(self) -> None: ...

        def _finish(self, wins: list[_Win]) -> None: ...

        def _meld_of(self, seat: int, kind: int, mtype: str) -> int | None: ...

        def _meld_spec(self, melds: list[Meld]) -> list[tuple[str, tuple[int, ...]]]: ...

        def _take_from_hand(self, seat: int, kind: int, n: int = 1) -> list[int]: ...

        def _take_xi_from_hand(self, seat: int) -> int: ...

        def _wins(self, seat: int, hand: list[int], melds: list[Meld], kind: int) -> bool: ...

        def _winning_kinds(self, seat: int, hand: list[int], melds: list[Meld], self_drawn: bool) -> list[int]: ...

        def legal_actions(self, seat: int) -> list[Action]: ...


__all__ = ["LaoWuDuiState"]
