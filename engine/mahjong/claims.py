"""The claim window of the draw/discard hand: who may take a discard (胡 / 杠 / 碰 / 吃,
plus 加倍 and 过), how the answers resolve by priority and turn distance, melds from claims,
own kongs and the window in which an added kong may be robbed (抢杠胡).

Mixed into :class:`engine.mahjong.hand.MahjongHand` (whose state it reads and writes).
"""

from __future__ import annotations

from ..actions import CHOW, DOUBLE, HU, KONG, PASS, PUNG, Action
from ..events import Event
from ..melds import Meld, chow_bases
from ..tiles import kind_of, kind_str
from .phases import CLAIM_PHASE, DISCARD_PHASE, ROB_PHASE
from .state import MahjongState


class ClaimWindow(MahjongState):
    """Claims, kongs and the rob window of :class:`~engine.mahjong.hand.MahjongHand`."""

    def _open_claims(self, discarder: int, tile: int) -> None:
        kind = kind_of(tile)
        self.claim_options = {}
        self.responses = {}
        for s in range(self.n):
            if s == discarder:
                continue
            opts = self.claim_actions(s, discarder, kind)
            if opts:
                self.claim_options[s] = opts + [Action(s, PASS)]
        self._mark_frame((discarder + 1) % self.n)  # engine/frames.py: window or not, the public sees this
        if self.claim_options:
            self.phase = CLAIM_PHASE
        else:
            self._next_draw(discarder)

    def claim_actions(self, seat: int, discarder: int, kind: int) -> list[Action]:
        """*hook-able*: what ``seat`` may do with ``discarder``'s discard of ``kind``."""
        acts: list[Action] = []
        counts = self.counts(seat)
        if self.win_shape(seat, kind):
            acts.append(Action(seat, HU))
            if self.double_allowed():
                acts.append(Action(seat, DOUBLE))
        if self.ting[seat] or not self.claims_allowed():
            return acts
        if counts[kind] >= 3 and self.wall_remaining > self.draw_reserve():
            acts.append(Action(seat, KONG))
        if counts[kind] >= 2:
            acts.append(Action(seat, PUNG))
        if kind < 27 and self.can_chow(seat, discarder):
            acts += [Action(seat, CHOW, base) for base in chow_bases(counts, kind)]
        return acts

    def _try_resolve(self) -> None:
        """Resolve the claim/rob window once the outcome is settled."""
        best = None
        for s, a in self.responses.items():
            p = self.PRIORITY.get(a.type, 0)
            if best is None or p > best[0] or (p == best[0] and self._turn_distance(s) < self._turn_distance(best[1])):
                best = (p, s, a)
        pending = [s for s in self.claim_options if s not in self.responses]
        for s in pending:
            top = max(self.PRIORITY.get(a.type, 0) for a in self.claim_options[s])
            if best is None or top > best[0] or (top == best[0] and top > 0 and
                                                 self._turn_distance(s) < self._turn_distance(best[1])):
                return  # s could still outrank the best answer
        # doubles and passes are recorded for every seat that answered so
        for s, a in sorted(self.responses.items()):
            if a.type == DOUBLE:
                self.doubles[s] *= 2
                self.events.append(Event("double", s, data={"multiplier": self.doubles[s]}))
            elif a.type == PASS:
                self.events.append(Event("pass", s))
        self.on_window_closed(self.responses)
        options, self.claim_options, responses, self.responses = self.claim_options, {}, self.responses, {}
        if self.phase == ROB_PHASE:
            assert self.rob is not None  # the rob window is open on the added tile
            adder, tile = self.rob
            self.rob = None
            if best is not None and best[2].type == HU:
                self._win(best[1], tile, adder, self_drawn=False, robbing=True)
            else:
                self.phase = DISCARD_PHASE
                self._complete_added_kong(adder, tile)
            return
        assert self.last_discard is not None  # the claim window is open on the discard
        discarder, tile = self.last_discard
        if best is None or best[2].type not in (HU, KONG, PUNG, CHOW):
            # pass, 加倍, or a variant's non-claim answer (two_player: 听 without a discard)
            self._next_draw(discarder)
            return
        _, seat, a = best
        if a.type == HU:
            self._win(seat, tile, discarder, self_drawn=False)
        elif a.type == KONG:
            self._claim_meld(seat, discarder, tile, KONG, [kind_of(tile)] * 3)
            self._draw(seat, from_back=True, after_kong=True)
        elif a.type == PUNG:
            self._claim_meld(seat, discarder, tile, PUNG, [kind_of(tile)] * 2)
        elif a.type == CHOW:
            need = [a.tile_kind + i for i in range(3) if a.tile_kind + i != kind_of(tile)]
            self._claim_meld(seat, discarder, tile, CHOW, need)
        del options, responses

    def on_window_closed(self, responses: dict[int, Action]) -> None:
        """*hook*: after a claim window, before its outcome is applied."""

    def _turn_distance(self, seat: int) -> int:
        ref = self.rob[0] if self.phase == ROB_PHASE and self.rob else (
            self.last_discard[0] if self.last_discard else self.turn)
        return (seat - ref) % self.n

    def _claim_meld(self, seat: int, discarder: int, tile: int, mtype: str, kinds: list[int]) -> None:
        used = []
        for k in kinds:
            t = max(x for x in self.hands[seat] if kind_of(x) == k and x not in used)
            used.append(t)
        self._lay_claimed_meld(seat, discarder, tile, mtype, used, tuple(sorted(used + [tile])))

    def _lay_claimed_meld(self, seat: int, discarder: int, tile: int, mtype: str, used: list[int],
                          tiles: tuple[int, ...]) -> None:
        """Show ``seat``'s claimed meld ``tiles`` (``used`` from its hand, and ``discarder``'s
        ``tile``); the claimer discards next."""
        for t in used:
            self.hands[seat].remove(t)
        self.claimed_discards.add(tile)
        meld = Meld(mtype, tiles, False, tile, discarder)
        self.melds[seat].append(meld)
        self.claims_made += 1
        self.events.append(Event(mtype, seat, kind_of(tile), {"from": discarder,
                                                                "tiles": [kind_str(kind_of(t)) for t in meld.tiles]}))
        self.turn = seat
        self.phase = DISCARD_PHASE
        self.drawn = [None] * self.n
        self.after_kong = False

    def _own_kong(self, seat: int, kind: int) -> None:
        tiles = [t for t in self.hands[seat] if kind_of(t) == kind]
        if len(tiles) == 4:
            for t in tiles:
                self.hands[seat].remove(t)
            self.melds[seat].append(Meld(KONG, tuple(sorted(tiles)), True))
            self.claims_made += 1
            self.on_concealed_kong(seat)
            self.events.append(Event("concealed_kong", seat, None))
            self._draw(seat, from_back=True, after_kong=True)
            return
        tile = tiles[0]
        self.hands[seat].remove(tile)
        self.drawn[seat] = None
        self.rob = (seat, tile)
        self.events.append(Event("added_kong", seat, kind))
        self.claim_options = {}
        self.responses = {}
        for s in range(self.n):
            if s != seat and self.win_shape(s, kind):
                self.claim_options[s] = [Action(s, HU)] + (
                    [Action(s, DOUBLE)] if self.double_allowed() else []) + [Action(s, PASS)]
        self._mark_frame(seat)
        if self.claim_options:
            self.phase = ROB_PHASE
        else:
            self.rob = None
            self._complete_added_kong(seat, tile)

    def on_concealed_kong(self, seat: int) -> None:
        """*hook*: bookkeeping after a concealed kong (天胡/人胡 conditions)."""

    def _complete_added_kong(self, seat: int, tile: int) -> None:
        kind = kind_of(tile)
        for i, m in enumerate(self.melds[seat]):
            if m.type == PUNG and m.kind == kind:
                self.melds[seat][i] = Meld(KONG, tuple(sorted(m.tiles + (tile,))), False, m.claimed,
                                           m.from_seat, added=True)
                break
        self.claims_made += 1
        self.events.append(Event("kong", seat, kind, {"added": True}))
        self._draw(seat, from_back=True, after_kong=True)
