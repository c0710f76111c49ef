"""What a seat (or the public) sees of a 字牌 hand: :meth:`HandViews.view` and ``me``.

:class:`HandViews` is mixed into :class:`engine.variants.zipai.hand.ZipaiHand`.
"""

from __future__ import annotations

from typing import Any

from ...melds import Meld
from ...actions import DISCARD
from ...tiles import kind_of, kind_str, parse_kind
from .actions import CLAIM_PHASE, DISCARD_PHASE, HU, OVER, PIAO_PHASE
from .huxi import group_huxi, idx_of, kind_of_idx
from .state import ZipaiState


class HandViews(ZipaiState):
    """Views of :class:`~engine.variants.zipai.hand.ZipaiHand`."""

    def _group_view(self, g: Meld, face_up: bool) -> dict:
        tiles: list[str | None] = [kind_str(kind_of(t)) for t in g.tiles]
        claimed_index = list(g.tiles).index(g.claimed) if g.claimed is not None else None
        if g.type in ("wei", "chouwei", "ti"):
            # the shown card last, the face-down ones first (两暗一明 / 三暗一明)
            assert g.claimed is not None  # the card shown of a 偎 or 提
            up = kind_str(kind_of(g.claimed))
            tiles = [up if face_up else None] * (len(tiles) - 1) + [up]
            claimed_index = len(tiles) - 1
        idxs = [idx_of(kind_of(t)) for t in g.tiles]
        return {"type": g.type, "tiles": tiles, "concealed": g.type in ("wei", "chouwei", "ti"),
                "added": False, "claimed_index": claimed_index if g.type not in ("bi",) else None,
                "from_seat": g.from_seat,
                "huxi": group_huxi(g.type, idxs) if face_up or g.type not in ("wei", "chouwei", "ti") else None}

    def view(self, viewer: int | None = None, reveal: bool = False) -> dict:
        """What ``viewer`` (``None``: the public) may see; ``reveal=True`` (replays of
        finished hands) shows every hand and face-down card face up.  Besides the protocol keys:
        ``shown`` (``{"seat", "card", "from": "deal"|"stock"|"discard"}``), per seat ``piao``,
        ``dead`` and ``groups`` (= ``melds``, face-down cards of 偎/提 as ``None`` for others),
        and in ``me``: ``passed`` (过张 kinds), ``waits`` with 胡息, ``chi_options``."""
        over = self.phase == OVER
        seats = []
        for s in range(self.n):
            visible = reveal or over or (viewer == s and self.phase != PIAO_PHASE)
            melds = [self._group_view(g, reveal or over or viewer == s) for g in self.groups[s]]
            seats.append({
                "seat": s, "wind": "", "is_dealer": s == self.dealer, "hand_count": len(self.hands[s]),
                "has_drawn": False, "discards": [kind_str(kind_of(t)) for t in self.discards[s]],
                "claimed_discards": [], "melds": melds, "flowers": [], "ting": False, "doubles": 1,
                "concealed": [kind_str(k) for k in sorted(kind_of(t) for t in self.hands[s])] if visible else None,
                "drawn": None, "piao": self.piao[s] if self.phase != PIAO_PHASE or viewer == s else None,
                # who has declared 飘 already shows only once everybody has (the 飘 phase ends)
                "piao_chosen": (self.piao[s] is not None) if self.phase != PIAO_PHASE or viewer == s or reveal
                else None, "dead": self.dead[s],
                "huxi_shown": sum(m["huxi"] or 0 for m in melds),
            })
        shown = None
        if self.shown is not None and self.phase != PIAO_PHASE:
            shown = {"seat": self.shown["seat"], "tile": kind_str(kind_of(self.shown["card"])),
                     "card": kind_str(kind_of(self.shown["card"])), "from": self.shown["from"],
                     "waiting": self.phase == CLAIM_PHASE}
        v: dict[str, Any] = {
            "variant": self.VARIANT, "seq": self.seq, "dealer": self.dealer,
            "turn": None if over else self.turn, "phase": self.phase, "pending": self.pending_seats(),
            "wall_remaining": self.wall_remaining, "dice": [],
            "last_discard": ({"seat": self.pending[0], "tile": kind_str(kind_of(self.pending[1]))}
                             if self.phase == CLAIM_PHASE and self.pending else None),
            "rob": None, "seats": seats, "viewer": viewer, "result": self.result, "me": None,
            "shown": shown, "options": {k: self.options[k] for k in ("min_huxi", "tun_per", "maohu", "piao_max")},
        }
        if viewer is not None:
            v["me"] = self.private_view(viewer)
        return v

    def unseen(self, viewer: int, kind: int) -> int:
        """Cards of ``kind`` that ``viewer`` cannot see (of the four): not in its hand, in
        nobody's groups (a 偎's or 提's face-down cards are of its face-up card's kind), in no
        pond, and not the card shown now."""
        placed = {t for t in self.hands[viewer]}
        for s in range(self.n):
            placed.update(self.discards[s])
            placed.update(t for g in self.groups[s] for t in g.tiles)
        if self.shown is not None and self.phase != PIAO_PHASE:
            placed.add(self.shown["card"])
        return max(0, 4 - sum(1 for t in placed if kind_of(t) == kind))

    def ting_hint(self, seat: int, legal: list | None = None) -> list[dict]:
        """At ``seat``'s discard: for every card it may play that leaves a hand one card from
        a win, the waits with their 胡息 and the cards left.  Shape: ``[{"discard": "5x",
        "waits": [{"tile", "huxi", "left"}]}]``.  The hand is restored as it was."""
        legal = self.legal_actions(seat) if legal is None else legal
        hand = self.hands[seat]
        out = []
        for k in sorted({a.kind for a in legal if a.type == DISCARD and a.kind is not None}):
            card = next(t for t in hand if kind_of(t) == k)
            self.hands[seat] = [t for t in hand if t != card]
            try:
                waits = [dict(w, left=self.unseen(seat, parse_kind(w["tile"])) - (parse_kind(w["tile"]) == k))
                         for w in self.waits(seat)]
            finally:
                self.hands[seat] = hand
            if waits:
                out.append({"discard": kind_str(k), "waits": waits})
        return out

    def private_view(self, seat: int) -> dict:
        """The ``me`` part: hand, legal actions, 过张, waits (with 胡息) and the 吃 choices."""
        legal = self.legal_actions(seat)
        hidden = self.phase == PIAO_PHASE
        me: dict[str, Any] = {
            "seat": seat, "hand": [] if hidden else [kind_str(k) for k in sorted(kind_of(t) for t in self.hands[seat])],
            "drawn": None, "legal": [str(a) for a in legal], "win_offered": any(a.type == HU for a in legal),
            "waits": [], "hint": [], "passed": sorted(kind_str(k) for k in self.passed[seat]),
            "chi_options": [],
            # 比牌 kept the seat from a 吃 of the card the window is open on
            "bi_withheld": self.phase == CLAIM_PHASE and seat in self.bi_fail,
        }
        if not hidden and self.phase != OVER and not self.holding[seat] and not self.dead[seat]:
            me["waits"] = [dict(w, left=self.unseen(seat, parse_kind(w["tile"]))) for w in self.waits(seat)]
        if self.phase == DISCARD_PHASE and seat == self.turn and self.holding[seat] and not self.dead[seat]:
            me["hint"] = self.ting_hint(seat, legal)
        if self.phase == CLAIM_PHASE and self.pending and seat in self.claim_options:
            card = self.pending[1]
            opts = dict(self.chi_options(seat, card))
            for a in legal:
                if a.type.startswith("chi_"):
                    me["chi_options"].append({"action": str(a), "groups": [
                        [kind_str(kind_of_idx(x)) for x in g] for g in opts[a.type[4:]]]})
        return me
