"""What a seat (or the public) sees of the draw/discard hand: :meth:`HandViews.view` and
the ``me`` part of a seat's view.

Mixed into :class:`engine.mahjong.hand.MahjongHand` (whose state it reads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..melds import Meld
from ..tiles import WINDS, kind_of, kind_str
from .phases import CLAIM_PHASE, DISCARD_PHASE, OVER
from .state import MahjongState


class HandViews(MahjongState):
    """Views of :class:`~engine.mahjong.hand.MahjongHand`."""

    if TYPE_CHECKING:  # what the hand provides
        def wait_value(self, seat: int, kind: int) -> dict: ...

        def hint_due(self, seat: int) -> bool: ...

        def ting_hint(self, seat: int) -> list[dict]: ...

        def _evaluate_pending_win(self, seat: int) -> dict: ...

        def legal_actions(self, seat: int) -> list: ...

        def win_offered(self, seat: int) -> bool: ...

    def can_see_hand(self, viewer: int | None, seat: int) -> bool:
        """*hook*: may ``viewer`` (``None`` = the public) see ``seat``'s concealed tiles?"""
        return self.phase == OVER or viewer == seat

    def seat_winds(self) -> list[str]:
        """Seat wind (门风) of each seat as a character, the dealer East: ``东 南 西 北``."""
        return [WINDS[(s - self.dealer) % 4] for s in range(self.n)]

    def view(self, viewer: int | None = None, reveal: bool = False) -> dict:
        """What ``viewer`` may see (``None``: the public), as a JSON-ready dict.

        ``reveal=True`` shows every hand face up (replays of finished hands only).

        Shape (tiles as notation strings): ``variant, seq, dealer, turn, phase,
        wall_remaining, dice, last_discard, seats[...]`` and, for a seat, ``me``
        with its hand, drawn tile, legal actions and waits.  Nothing hidden from
        ``viewer`` is included, so a renderer cannot leak it.
        """
        winds = self.seat_winds()
        seats = []
        for s in range(self.n):
            visible = reveal or self.can_see_hand(viewer, s)
            drawn = self.drawn[s]
            seats.append({
                "seat": s, "wind": winds[s], "is_dealer": s == self.dealer,
                "hand_count": len(self.hands[s]), "has_drawn": drawn is not None,
                "discards": [kind_str(kind_of(t)) for t in self.discards[s]],
                "claimed_discards": [i for i, t in enumerate(self.discards[s]) if t in self.claimed_discards],
                "melds": [self._meld_view(m, visible or not m.concealed) for m in self.melds[s]],
                "flowers": [kind_str(kind_of(t)) for t in self.flowers[s]],
                "ting": self.ting[s], "doubles": self.doubles[s],
                "concealed": ([kind_str(k) for k in self._sorted_without_drawn(s)] if visible else None),
                "drawn": kind_str(kind_of(drawn)) if visible and drawn is not None else None,
            })
        v: dict[str, Any] = {
            "variant": self.VARIANT, "seq": self.seq, "dealer": self.dealer,
            "turn": self.turn if self.phase != OVER else None, "phase": self.phase,
            "pending": self.pending_seats(),
            "wall_remaining": self.wall_remaining, "dice": list(self.dice),
            "last_discard": ({"seat": self.last_discard[0], "tile": kind_str(kind_of(self.last_discard[1]))}
                             if self.last_discard and self.phase == CLAIM_PHASE else None),
            "rob": ({"seat": self.rob[0], "tile": kind_str(kind_of(self.rob[1]))} if self.rob else None),
            "seats": seats, "viewer": viewer, "result": self.result, "me": None,
        }
        v.update(self.extra_view(viewer))
        if viewer is not None:
            v["me"] = self.private_view(viewer)
        return v

    VARIANT = "mahjong"

    def extra_view(self, viewer: int | None) -> dict:
        """*hook*: variant fields of the view (e.g. the 宝牌)."""
        return {}

    def _meld_view(self, m: Meld, face_up: bool) -> dict:
        tiles = [kind_str(kind_of(t)) for t in m.tiles]
        claimed_index = None
        if m.claimed is not None:
            claimed_index = list(m.tiles).index(m.claimed)
        return {"type": m.type, "tiles": tiles if face_up else [None] * len(tiles),
                "concealed": m.concealed, "added": m.added, "claimed_index": claimed_index,
                "from_seat": m.from_seat}

    def _sorted_without_drawn(self, seat: int) -> list[int]:
        tiles = list(self.hands[seat])
        drawn = self.drawn[seat]
        if drawn is not None:
            tiles.remove(drawn)
        return sorted(kind_of(t) for t in tiles)

    def private_view(self, seat: int) -> dict:
        """The ``me`` part of a seat's view: hand, drawn tile, legal actions, waits with their
        value (``DiscardHint.wait_value``) and, at its own discard, the hint (``ting_hint``)."""
        drawn = self.drawn[seat]
        legal = self.legal_actions(seat)
        me: dict[str, Any] = {
            "seat": seat,
            "hand": [kind_str(k) for k in self._sorted_without_drawn(seat)],
            "drawn": kind_str(kind_of(drawn)) if drawn is not None else None,
            "legal": [str(a) for a in legal],
            "win_offered": self.win_offered(seat),
            "waits": [], "hint": [],
        }
        if self.phase != OVER and (drawn is None or self.phase != DISCARD_PHASE or seat != self.turn):
            if len(self.hands[seat]) % 3 == 1:
                me["waits"] = [{"tile": kind_str(k), "left": self.unseen(seat, k), **self.wait_value(seat, k)}
                               for k in sorted(set(self.waits(seat)))]
        if self.phase != OVER and self.hint_due(seat):
            me["hint"] = self.ting_hint(seat)
        if me["win_offered"] and not any(a.type == "hu" for a in legal):
            # the tile completes the hand's shape, but the rules refuse the win: say which rule
            ev = self._evaluate_pending_win(seat)
            window = self.last_discard if self.phase == CLAIM_PHASE else None
            tile = drawn if drawn is not None and self.phase == DISCARD_PHASE else (window[1] if window else None)
            me["win_refused"] = {"why": ev.get("code", "not_a_winning_hand"),
                                 "tile": kind_str(kind_of(tile)) if tile is not None else None,
                                 **({"need": ev["min_fan"]} if "min_fan" in ev else {})}
        return me
