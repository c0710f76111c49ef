"""What a seat (or the public) sees of a 老五对 hand: :meth:`HandViews.view` and ``me``.

:class:`HandViews` is mixed into :class:`engine.variants.laowudui.hand.LaoWuDuiHand`.
"""

from __future__ import annotations

from typing import Iterable, Any

from ...actions import DISCARD, HU
from ...melds import Meld
from ...tiles import WINDS, kind_of, kind_str
from .actions import CLAIM_PHASE, DISCARD_PHASE, OPENING, OVER
from .state import LaoWuDuiState

_NAME = [kind_str(k) for k in range(70)]  #: notation of each kind, looked up in views


class HandViews(LaoWuDuiState):
    """Views of :class:`~engine.variants.laowudui.hand.LaoWuDuiHand`."""

    def can_see_hand(self, viewer: int | None, seat: int) -> bool:
        return self.phase == OVER or viewer == seat

    def _meld_view(self, m: Meld) -> dict:
        tiles = [_NAME[t >> 2] for t in m.tiles]
        ci = list(m.tiles).index(m.claimed) if m.claimed is not None and m.claimed in m.tiles else None
        return {"type": m.type, "tiles": tiles, "concealed": False, "added": m.added, "claimed_index": ci,
                "from_seat": m.from_seat}

    def view(self, viewer: int | None = None, reveal: bool = False) -> dict:
        """What ``viewer`` (``None``: the public) may see, JSON-ready.  Nobody but its owner
        sees a dealt tile (``has_drawn`` tells that a seat holds one).  Extra keys:
        ``wild {indicator, kinds}``, ``set_aside``, ``bought``, ``zhezhuang``; in ``me``:
        ``confirming`` (a 百搭 awaiting 打 / 留)."""
        seats = []
        for s in range(self.n):
            visible = reveal or self.can_see_hand(viewer, s)
            dealt = self.dealt[s]
            seats.append({
                "seat": s, "wind": WINDS[(s - self.dealer) % self.n], "is_dealer": s == self.dealer,
                "hand_count": len(self.hands[s]), "has_drawn": dealt is not None,
                "discards": [_NAME[t >> 2] for t in self.discards[s]],
                "claimed_discards": [i for i, t in enumerate(self.discards[s]) if t in self.claimed_discards],
                "melds": [self._meld_view(m) for m in self.melds[s]],
                "flowers": [], "ting": False, "doubles": 1,
                # during the opening only a 买庄 is announced (its event); who declined, or has
                # not decided yet, is nobody else's business
                "bought": (self.bought[s] if self.phase != OPENING or viewer == s or reveal
                           else (True if self.bought[s] else None)),
                "zhezhuang": self.zhezhuang[s],
                "concealed": sorted_kinds(self.hands[s]) if visible else None,
                "drawn": kind_str(kind_of(dealt)) if visible and dealt is not None else None,
            })
        v: dict[str, Any] = {
            "variant": self.VARIANT, "seq": self.seq, "dealer": self.dealer,
            "turn": self.turn if self.phase in (DISCARD_PHASE, CLAIM_PHASE) else None,
            "phase": self.phase, "pending": self.pending_seats(), "wall_remaining": self.wall_remaining,
            "dice": [], "rob": None,
            "last_discard": ({"seat": self.last_discard[0], "tile": kind_str(kind_of(self.last_discard[1])),
                              "unchanged": self.last_unchanged}
                             if self.last_discard and self.phase == CLAIM_PHASE else None),
            "wild": {"indicator": kind_str(kind_of(self.indicator)),
                     "kinds": [kind_str(k) for k in sorted(self.wild)]},
            "set_aside": [kind_str(kind_of(t)) for t in self.set_aside],
            "options": {"wilds": self.options["wilds"], "wild_discard": self.options["wild_discard"]},
            "seats": seats, "viewer": viewer, "result": self.result, "me": None,
        }
        if viewer is not None:
            v["me"] = self.private_view(viewer)
        return v

    def private_view(self, seat: int) -> dict:
        """``me``: hand, the dealt tile, legal actions, waits (``tile, left, fan``)."""
        dealt = self.dealt[seat]
        legal = self.legal_actions(seat)
        me: dict[str, Any] = {
            "seat": seat, "hand": sorted_kinds(self.hands[seat]),
            "drawn": kind_str(kind_of(dealt)) if dealt is not None else None,
            "legal": [str(a) for a in legal], "win_offered": any(a.type == HU for a in legal),
            "confirming": kind_str(kind_of(self.confirming)) if self.confirming is not None and seat == self.turn
            else None,
            "waits": [], "hint": [],
        }
        if self.phase != OVER and self.holding(seat) == 11:
            me["waits"] = [self._wait(seat, k, self.hands[seat]) for k in self.waits(seat)]
        if self.phase == DISCARD_PHASE and seat == self.turn and self.holding(seat) == 12:
            me["hint"] = self.ting_hint(seat, legal)
        return me

    def _wait(self, seat: int, kind: int, hand: list[int]) -> dict:
        """A wait of ``seat`` holding ``hand`` (eleven tiles with its melds): copies it cannot
        see, the fan of a win on a discard where the rules allow one (``fan``) and of a
        self-drawn win where it differs (``fan_self``; ``self_drawn_only`` for a 百搭)."""
        own = self.evaluate_win(seat, kind, True, hand=hand).get("fan_total", 0)
        w: dict[str, Any] = {"tile": kind_str(kind), "left": self.unseen(seat, kind)}
        if self.win_kind_allowed(seat, kind, False, hand):
            w["fan"] = self.evaluate_win(seat, kind, False, hand=hand).get("fan_total", 0)
            if own != w["fan"]:
                w["fan_self"] = own
        else:
            w.update(fan_self=own, self_drawn_only=True)
        return w

    def ting_hint(self, seat: int, legal: list | None = None) -> list[dict]:
        """At ``seat``'s discard (twelve tiles held): for every discard it may make that
        leaves eleven tiles one tile from a win, the waits (self-drawn wins; values as
        :meth:`_wait`).  Shape: ``[{"discard": "5m", "waits": [{"tile", "left", "fan", …}]}]``."""
        legal = self.legal_actions(seat) if legal is None else legal
        dealt = self.dealt[seat]
        held: list[int] = list(self.hands[seat]) + ([dealt] if dealt is not None else [])
        out = []
        for k in sorted({a.kind for a in legal if a.type == DISCARD and a.kind is not None}):
            tile = dealt if dealt is not None and kind_of(dealt) == k else next(t for t in held if kind_of(t) == k)
            hand = [t for t in held if t != tile]
            waits = self._winning_kinds(seat, hand, self.melds[seat], self_drawn=True)
            if waits:
                out.append({"discard": kind_str(k), "waits": [self._wait(seat, w, hand) for w in waits]})
        return out


def sorted_kinds(tiles: Iterable[int]) -> list[str]:
    return [_NAME[k] for k in sorted(t >> 2 for t in tiles)]
