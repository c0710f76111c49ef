"""The claim window of 老五对 (``docs/rules/laowudui.md`` §Claims): 胡 (several winners on one
discard), 杠 and 吃 of a discard, their priority, and the tile dealt to the next seat when
nobody takes it.

:class:`ClaimWindow` is mixed into :class:`engine.variants.laowudui.hand.LaoWuDuiHand`.
"""

from __future__ import annotations

from ...actions import HU, KONG, PASS, Action
from ...events import Event
from ...melds import Meld
from ...tiles import kind_of
from .actions import CHI, CLAIM_PHASE, DISCARD_PHASE, DUI
from .shapes import is_xi
from .state import LaoWuDuiState, _Win


class ClaimWindow(LaoWuDuiState):
    """Claims of :class:`~engine.variants.laowudui.hand.LaoWuDuiHand`."""

    def is_opposite(self, seat: int, discarder: int) -> bool:
        """对家 (laowudui.md §Claims): the seat opposite at four, the other player at two,
        either other player at three (Decision)."""
        if seat == discarder:
            return False
        if self.n == 4:
            return (discarder + 2) % 4 == seat
        return True

    def claim_actions(self, seat: int, discarder: int, tile: int, unchanged: bool) -> list[Action]:
        """What ``seat`` may do with ``discarder``'s discard of ``tile`` (laowudui.md §Claims)."""
        k = kind_of(tile)
        acts: list[Action] = []
        if self.options["discard_win"] and self.win_kind_allowed(seat, k, False) and \
                self._wins(seat, self.hands[seat], self.melds[seat], k):
            acts.append(Action(seat, HU))
        if self.zhezhuang[seat] or k in self.wild:
            return acts
        shang = (seat - 1) % self.n == discarder
        held = self._count_kind(self.hands[seat], k) if not is_xi(k) else sum(is_xi(kind_of(t)) for t in self.hands[seat])
        chi_i = self._meld_of(seat, k, CHI)
        size = len(self.hands[seat])  # a claim is followed by a discard from the hand
        if not is_xi(k):
            if held == 3 and self.is_opposite(seat, discarder) and size >= 4:
                acts.append(Action(seat, KONG))
            elif chi_i is not None and held >= 1 and shang and unchanged and size >= 2:
                acts.append(Action(seat, KONG))
        if shang and unchanged and held >= 1 and chi_i is None and self._meld_of(seat, k, DUI) is None \
                and self._meld_of(seat, k, KONG) is None and size >= 2:
            acts.append(Action(seat, CHI))
        return acts

    PRIORITY = {HU: 3, KONG: 2, CHI: 1, PASS: 0}

    def _open_claims(self, discarder: int, tile: int) -> None:
        self.claim_options, self.responses = {}, {}
        for s in range(self.n):
            if s != discarder:
                opts = self.claim_actions(s, discarder, tile, self.last_unchanged)
                if opts:
                    self.claim_options[s] = opts + [Action(s, PASS)]
        self._mark_frame((discarder + 1) % self.n)  # engine/frames.py
        if self.claim_options:
            self.phase = CLAIM_PHASE
        else:
            self._deal_next(discarder)

    def _try_resolve(self) -> None:
        best = max((self.PRIORITY[a.type] for a in self.responses.values()), default=0)
        for s in self.claim_options:
            if s in self.responses:
                continue
            top = max(self.PRIORITY[a.type] for a in self.claim_options[s])
            if top > best or (top == best == self.PRIORITY[HU]):
                return  # s could still outrank (or join, 一炮多响) the best answer
        responses, self.claim_options, self.responses = self.responses, {}, {}
        for s, a in sorted(responses.items()):
            if a.type == PASS:
                self.events.append(Event("pass", s))
        assert self.last_discard is not None  # the window is open on the discard
        discarder, tile = self.last_discard
        order = sorted(responses, key=lambda s: (s - discarder) % self.n)
        winners = [s for s in order if responses[s].type == HU]
        if winners:
            self.claimed_discards.add(tile)  # taken: shown as claimed, though it stays in the river
            self._finish([_Win(s, tile, False, discarder) for s in winners])
            return
        kongs = [s for s in order if responses[s].type == KONG]
        if kongs:
            s = kongs[0]
            k = kind_of(tile)
            i = self._meld_of(s, k, CHI)
            if i is not None:
                m = self.melds[s][i]
                self.melds[s][i] = Meld(KONG, tuple(sorted(m.tiles + (self._take_from_hand(s, k)[0], tile))), False,
                                        tile, discarder, added=True)
            else:
                mine = self._take_from_hand(s, k, 3)
                self._add_meld(s, Meld(KONG, tuple(sorted(mine + [tile])), False, tile, discarder))
            self.claimed_discards.add(tile)
            self.events.append(Event(KONG, s, k, {"from": discarder}))
            self._claimed_turn(s)
            return
        chis = [s for s in order if responses[s].type == CHI]
        if chis:
            s = chis[0]
            k = kind_of(tile)
            own = self._take_xi_from_hand(s) if is_xi(k) else self._take_from_hand(s, k)[0]
            self._add_meld(s, Meld(CHI, tuple(sorted((own, tile))), False, tile, discarder))
            self.claimed_discards.add(tile)
            self.events.append(Event(CHI, s, k, {"from": discarder}))
            self._claimed_turn(s)
            return
        self._deal_next(discarder)

    def _claimed_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = DISCARD_PHASE
        self.confirming = None

    def _deal_next(self, discarder: int) -> None:
        seat = (discarder + 1) % self.n
        if self.wall_remaining == 0:
            self._draw_game()
            return
        tile = self.wall[self.front]
        self.front += 1
        self.dealt[seat] = tile
        self.turn = seat
        self.phase = DISCARD_PHASE
        self.confirming = None
        self.events.append(Event("draw", seat))
