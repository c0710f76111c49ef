"""What the parts of a 字牌 hand share: the state :class:`~engine.variants.zipai.hand.ZipaiHand`
sets up and the methods one part calls on another (the claims, the scoring, the views, the
public frames), declared once so that each part says what it relies on and the type checker
holds every part to it.  Nothing here exists at run time but the names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...events import Event
from ...hand_state import HandState
from ...melds import Meld


class ZipaiState(HandState):
    """The state of a 字牌 hand (set by ``ZipaiHand.__init__`` and its deal)."""

    VARIANT: ClassVar[str]

    groups: list[list[Meld]]  #: face-up and face-down groups per seat
    passed: list[set[int]]  #: kinds each seat may no longer take (过张)
    declined_peng: list[set[int]]
    holding: list[bool]  #: took a card and owes a discard
    dead: list[bool]  #: 相公
    may_win_now: list[bool]
    piao: list[int | None]
    start_ti: list[int]
    pending: tuple[int, int, str] | None  #: (owner, card, "stock" | "discard")
    pao_seat: int | None
    bi_fail: set[int]
    shown: dict | None
    deferred_ti: list[int]
    dealer_acted: bool
    stock: list[int]
    front: int
    dealt_shown: int

    if TYPE_CHECKING:
        def counts(self, seat: int) -> list[int]: ...

        def waits(self, seat: int) -> list[dict]: ...

        def win_eval(self, seat: int, card: int | None, outside: bool = True) -> dict | None: ...

        def chi_options(self, seat: int, card: int) -> list[tuple[str, list[tuple[int, ...]]]]: ...

        def _ev(self, typ: str, seat: int | None = None, kind: int | None = None, **data: Any) -> Event: ...

        def _draw(self, s: int) -> None: ...

        def _enter_discard(self, s: int) -> None: ...

        def _fours(self, seat: int) -> int: ...

        def _group_of(self, seat: int, types: tuple[str, ...], kind: int) -> int | None: ...

        def _win(self, p: int, card: int | None, source: str) -> None: ...


__all__ = ["ZipaiState"]
