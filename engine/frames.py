"""The public frame of a hand: what the channel may see, the same whether or not a seat may
claim (:meth:`PublicFrames.public_frame`).

After a seat's public decision (a discard, an added kong, a card shown from the stock) the
hand either opens a window for the seats that may take that tile, or — when nobody may — goes
on by itself at once (the next seat draws, the kong takes its replacement, the card goes to
the pond).  Whether a window opened depends on the other seats' concealed tiles, so the
public must not see the difference: not a missing turn, not the wall one tile shorter, not a
flower drawn a moment earlier.

So each game marks its *frame* at the point of decision, before it branches into "window" or
"go on": the public view of the hand as it stands right after the decision, with ``turn`` the
seat that plays next when nobody takes the tile, and the number of events so far.  Until the
next public action (anything but a ``pass``) the frame is what the public sees: the window,
its passes and whatever followed by itself show with the next seat's decision.  A claim
(碰, 杠, 吃, 胡) is a public action: the real state shows again.  Without a frame (before the
first decision, after a claim, a concealed kong, an opening choice) and once the hand is over,
the public sees the real public view.

Twin hands that differ only in whether some seat may claim give equal frames at the
decision: the frame is taken at the same point of the same public state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, cast

from .actions import PASS, Action
from .events import Event

if TYPE_CHECKING:
    from .protocol import Hand
    from .protocol import View

#: keys of a view that tell who the hand waits for (never in a frame)
PRIVATE_TIMING = ("pending", "seq")
#: keys of a view naming the tile a claim window is open on (``None`` in a frame)
WINDOW_KEYS = ("last_discard", "rob")


class PublicFrames:
    """Mixin of the games' hands: :meth:`public_frame`, kept by :meth:`_mark_frame` (called by
    the game at a decision) and :meth:`_frame_action` (called by ``apply`` for every action)."""

    _frame: Optional[tuple[int, dict]] = None
    _frame_saved: Optional[tuple[int, dict]] = None
    #: the hand's events (set by the game)
    events: list[Event]

    if TYPE_CHECKING:  # what the game's hand provides
        def view(self, viewer: int | None = None, reveal: bool = False) -> Any: ...

        def is_over(self) -> bool: ...

    def _frame_action(self, action: Action) -> None:
        """``apply`` calls this for each accepted action, before applying it: a public action
        ends the frame (a ``pass`` does not: it is nobody's business)."""
        self._frame_saved = self._frame
        if action.type != PASS:
            self._frame = None

    def _frame_applied(self, start: int) -> None:
        """``apply`` calls this after applying the action whose events begin at ``start``: an
        action that showed nothing (a 假听 before its discard, a wild tile waiting for its
        confirmation) leaves the frame as it was."""
        if self._frame is None and not any(e.type != PASS for e in self.events[start:]):
            self._frame = self._frame_saved
        self._frame_saved = None

    def _mark_frame(self, next_seat: int) -> None:
        """At a seat's public decision, before the hand opens a window or goes on by itself:
        keep the public view of now, ``turn`` = ``next_seat`` (who plays next when nobody takes
        the tile), unless a frame is kept already (what goes on by itself marks nothing new)."""
        if self._frame is not None:
            return
        view = {k: v for k, v in self.view(None).items() if k not in PRIVATE_TIMING}
        view["turn"] = next_seat
        for key in WINDOW_KEYS:  # the tile a window would be open on: no window in a frame
            if key in view:
                view[key] = None
        self._frame = (len(self.events), view)

    def public_frame(self) -> tuple[View, int]:
        """``(view, events)``: the public view the channel may see now (no ``pending``, no
        ``seq``) and how many of :attr:`events` it includes (the public log shows those
        only).  See the module docstring."""
        if self._frame is None or self.is_over():
            view = {k: v for k, v in self.view(None).items() if k not in PRIVATE_TIMING}
            return cast("View", view), len(self.events)
        n, frame = self._frame
        return cast("View", frame), n


def frame_view(hand: Hand) -> View:
    """The public frame's view of ``hand`` (:meth:`PublicFrames.public_frame`)."""
    return hand.public_frame()[0]


__all__ = ["PublicFrames", "PRIVATE_TIMING", "WINDOW_KEYS", "frame_view"]
