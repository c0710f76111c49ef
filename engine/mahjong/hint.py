"""The discard hint of the draw/discard hand (听牌提示): at a seat's own discard, every discard
that leaves a ready hand, with its waits, their value and the copies the seat cannot see.

Mixed into :class:`engine.mahjong.hand.MahjongHand`.  A game says what a win on a wait is
worth in its own unit with :meth:`DiscardHint.wait_value` (二人麻将 and 金湖 番 with the table's
minimum or wait rule, 老三番 胡 and 番, 财神麻将 its multiplier).  A value is that of a win on a
discard — a self-drawn win's where the game tells it apart — and counts nothing situational:
no 杠上开花, 海底, 抢杠 or flowers still to come.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..tiles import kind_of, kind_str
from .phases import DISCARD_PHASE
from .state import MahjongState


class DiscardHint(MahjongState):
    """:meth:`ting_hint` and its hook :meth:`wait_value`."""

    if TYPE_CHECKING:  # what the hand provides
        def may_discard(self, seat: int, kind: int) -> bool: ...

        def _ready_after_discard(self, seat: int, kind: int) -> bool: ...

        def _pick_tile(self, seat: int, kind: int) -> int: ...

        def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, **flags: Any) -> dict: ...

    def hint_due(self, seat: int) -> bool:
        """Whether ``seat`` chooses a discard now, free to pick it (its own turn, 14-tile form,
        not locked by a declared 听)."""
        return (self.phase == DISCARD_PHASE and seat == self.turn and not self.ting[seat]
                and len(self.hands[seat]) % 3 == 2)

    def ting_hint(self, seat: int) -> list[dict]:
        """For every discard ``seat`` may make that leaves a ready hand: its waits, each with
        :meth:`wait_value` and ``left`` (copies the seat cannot see once the tile is gone).

        Shape: ``[{"discard": "9m", "waits": [{"tile": "3m", "left": 2, "fan": 8, …}]}]``,
        discards in kind order, waits in kind order; ``[]`` when no discard leaves the hand
        ready.  The hand is restored as it was."""
        out: list[dict] = []
        hand = self.hands[seat]
        for k in sorted({kind_of(t) for t in hand}):
            if not self.may_discard(seat, k) or not self._ready_after_discard(seat, k):
                continue
            tile = self._pick_tile(seat, k)
            self.hands[seat] = [t for t in hand if t != tile]
            try:
                ws = [{"tile": kind_str(w), "left": self.unseen(seat, w) - (w == k), **self.wait_value(seat, w)}
                      for w in sorted(set(self.waits(seat)))]
            finally:
                self.hands[seat] = hand
            out.append({"discard": kind_str(k), "waits": ws})
        return out

    def wait_value(self, seat: int, kind: int) -> dict:
        """*hook*: what a win on ``kind`` is worth, ``seat``'s hand in its 13-tile form: by
        default the fan of a win on a discard (``fan``), and when the rules refuse it
        ``ok: False`` with the refusal's code (``why``)."""
        ev = self.evaluate_win(seat, kind, False)
        out: dict = {"fan": ev.get("fan_total", 0)}
        if not ev.get("ok"):
            out.update(ok=False, why=ev.get("code", "not_a_winning_hand"))
        return out

    def drawn_win(self, seat: int, kind: int) -> dict:
        """:meth:`evaluate_win` of a self-drawn win on ``kind`` at ``seat``'s next ordinary
        draw, its hand in its 13-tile form (a copy of ``kind`` the seat does not hold joins it
        for the reckoning; the seat's discard and draw counted, so no 天胡 or 地胡; nothing
        situational: the hand's after-kong state is set aside)."""
        hand = self.hands[seat]
        phantom = next(kind * 4 + i for i in range(4) if kind * 4 + i not in hand)
        saved = self.after_kong
        self.hands[seat] = hand + [phantom]
        self.after_kong = False
        self.draws_made[seat] += 1
        self.discards_made[seat] += 1
        try:
            return self.evaluate_win(seat, kind, True)
        finally:
            self.hands[seat] = hand
            self.after_kong = saved
            self.draws_made[seat] -= 1
            self.discards_made[seat] -= 1


__all__ = ["DiscardHint"]
