"""The draw/discard hand shared by the mahjong variants.

One :class:`MahjongHand` is one deal (一局): built from ``(options, seed,
dealer)``, advanced only by :meth:`MahjongHand.apply` with :class:`Action`
objects.  Chance (shuffle, dice, draws, flower replacement) comes from the seeded
RNG, so replaying the action log rebuilds the state exactly.

Flow (``docs/rules/README.md`` vocabulary; claim rules per variant file):

* ``phase == "discard"``: seat ``turn`` holds a drawn tile (or just claimed) and
  may discard, declare 听 with a discard, make a concealed/added kong, win
  (自摸) or declare 加倍.
* ``phase == "claim"``: after a discard, every other seat that can claim it
  (胡 / 杠 / 碰 / 吃, plus 加倍 and 过) answers; the window resolves by the
  variant's :attr:`MahjongHand.PRIORITY` table as soon as no pending seat can
  outrank the best answer.
* ``phase == "rob"``: after an added kong (加杠), seats that can win on that tile
  may rob it (抢杠胡).
* ``phase == "over"``: :attr:`MahjongHand.result` holds the settlement.

Variants subclass and override the hooks marked *hook*.
"""

from __future__ import annotations

from typing import Any

from collections import Counter

from .. import hand_shapes
from ..actions import CHOW, DISCARD, DOUBLE, HU, KONG, PASS, PUNG, TING, Action
from ..errors import IllegalAction
from ..events import Event
from ..frames import PublicFrames
from ..hand_state import AiSeat
from ..melds import Meld
from ..rng import make_rng
from ..tiles import kind_of, kind_str
from .claims import ClaimWindow
from .hint import DiscardHint
from .phases import CLAIM_PHASE, DISCARD_PHASE, OVER, ROB_PHASE
from .view import HandViews
from .wall import Wall


class MahjongHand(AiSeat, PublicFrames, Wall, ClaimWindow, DiscardHint, HandViews):
    """A draw/discard mahjong hand for ``n_seats`` seats.

    :param options: resolved table options of the variant (see ``engine.options``).
    :param seed: 64-bit seed of this hand (``engine.rng.hand_seed``).
    :param dealer: seat of the dealer (庄家), 0..n-1.
    :param context: match-level facts the settlement needs (variant-specific, e.g.
        ``{"dealer_streak": 2}``).
    """

    N_SEATS = 4
    #: claim priority: a higher number wins the claim window (胡 > 杠/碰 > 吃)
    PRIORITY = {HU: 3, KONG: 2, PUNG: 2, CHOW: 1}
    RULES = "rules"  #: rule file of the variant, for error messages
    #: 听 declared with a discard that leaves no ready hand counts as a plain discard
    TING_IGNORED_IF_NOT_READY = True
    DEAL_DEALER, DEAL_OTHER = 14, 13
    #: ``_live_waits`` only narrows the shape waits of the concealed tiles, so a seat whose
    #: 14 tiles are more than one step from ready (shanten > 0) has no discard that leaves
    #: the hand ready.  A subclass that overrides ``_live_waits`` without setting this
    #: itself (waits from wilds, from melds) is taken not to.
    WAITS_WITHIN_SHAPE = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_live_waits" in cls.__dict__ and "WAITS_WITHIN_SHAPE" not in cls.__dict__:
            cls.WAITS_WITHIN_SHAPE = False

    def __init__(self, options: dict, seed: int, dealer: int, context: dict | None = None):
        self.options = dict(options)
        self.seed = seed
        self.dealer = dealer
        self.context = dict(context or {})
        self.n = self.N_SEATS
        self.rng = make_rng(seed)
        self.seq = 0  #: number of actions applied (stale-button check)
        self.events: list[Event] = []
        self.hands: list[list[int]] = [[] for _ in range(self.n)]  # concealed tiles incl. drawn
        self.drawn: list[int | None] = [None] * self.n
        self.melds: list[list[Meld]] = [[] for _ in range(self.n)]
        self.flowers: list[list[int]] = [[] for _ in range(self.n)]
        self.discards: list[list[int]] = [[] for _ in range(self.n)]
        self.claimed_discards: set[int] = set()  # tiles taken from a river by a claim
        self.ting = [False] * self.n
        self.doubles = [1] * self.n
        self.draws_made = [0] * self.n  # ordinary and replacement draws after the deal
        self.discards_made = [0] * self.n
        self.claims_made = 0  # chow/pung/kong (concealed kong included) by anyone
        self.turn = dealer
        self.phase = DISCARD_PHASE
        self.last_discard: tuple[int, int] | None = None  # (seat, tile)
        self.claim_options: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.rob: tuple[int, int] | None = None  # (seat adding, tile) during the rob window
        self.after_kong = False  # the current drawn tile is a kong replacement
        self.win_declined = [False] * self.n  # 加倍/过 gave up the current self-drawn chance
        self.result: dict | None = None
        self._build_wall()
        self._deal()

    # ----------------------------------------------------------------- hooks
    def tile_counts(self) -> dict[int, int]:
        """*hook*: ``{kind: copies}`` of the variant's set."""
        raise NotImplementedError

    def is_bonus(self, kind: int) -> bool:
        """*hook*: True for tiles set aside and replaced (flowers)."""
        return False

    def can_chow(self, claimer: int, discarder: int) -> bool:
        """*hook*: chow allowed from this discarder (default: 上家 only)."""
        return claimer == (discarder + 1) % self.n

    def claims_allowed(self) -> bool:
        """*hook*: False while claims are forbidden (e.g. an opening restriction)."""
        return True

    def allowed_kinds(self) -> tuple[int, ...]:
        """Kinds that exist in this variant's set (a wait on any other kind is impossible)."""
        return tuple(sorted(k for k in self._kind_counts if not self.is_bonus(k)))

    def win_shape(self, seat: int, win_kind: int | None) -> bool:
        """*hook*: does the concealed hand (plus ``win_kind`` when given) form a winning hand?"""
        counts = self.counts(seat)
        if win_kind is not None:
            counts[win_kind] += 1
        return hand_shapes.is_win(counts, len(self.melds[seat]))

    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, **flags: Any) -> dict:
        """*hook*: score a win; returns at least ``{"ok": bool, "fan_total": int}`` and,
        when refused, ``{"ok": False, "code": ..., "rule": ...}``."""
        raise NotImplementedError

    def settle(self, winner: int | None, win: dict | None, discarder: int | None) -> list[int]:
        """*hook*: points per seat (signed, summing to 0)."""
        raise NotImplementedError

    # ----------------------------------------------------------------- set-up
    # ----------------------------------------------------------------- queries
    def counts(self, seat: int) -> list[int]:
        """34-long count array of ``seat``'s concealed tiles."""
        c = [0] * 34
        for t in self.hands[seat]:
            k = t >> 2
            if k < 34:
                c[k] += 1
        return c

    def concealed_kinds(self, seat: int) -> list[int]:
        return sorted(kind_of(t) for t in self.hands[seat])

    def pending_seats(self) -> list[int]:
        """Seats whose decision the hand is waiting for (empty when over)."""
        if self.phase == DISCARD_PHASE:
            return [self.turn]
        if self.phase in (CLAIM_PHASE, ROB_PHASE):
            return [s for s in sorted(self.claim_options) if s not in self.responses]
        return []

    def is_over(self) -> bool:
        return self.phase == OVER

    def visible_counts(self, viewer: int | None = None) -> Counter:
        """Kinds visible to ``viewer``: all rivers, exposed melds, and the concealed tiles
        and concealed kongs of every seat whose hand ``viewer`` may see (its own; in
        ``two_player`` also the opponent's once ``viewer`` is ready, §Play 听)."""
        c: Counter = Counter()
        for s in range(self.n):
            sees = viewer is not None and (s == viewer or self.can_see_hand(viewer, s))
            for t in self.discards[s]:
                if t not in self.claimed_discards:
                    c[t >> 2] += 1
            for m in self.melds[s]:
                if m.concealed and not sees:
                    continue
                for t in m.tiles:
                    c[t >> 2] += 1
            if sees:
                for t in self.hands[s]:
                    c[t >> 2] += 1
        return c

    def unseen(self, viewer: int, kind: int) -> int:
        """Copies of ``kind`` that ``viewer`` cannot see (so may still come)."""
        return max(0, self._kind_counts.get(kind, 0) - self.visible_counts(viewer)[kind])

    def waits(self, seat: int) -> list[int]:
        """Kinds that would complete ``seat``'s concealed hand (13-tile form), ignoring fan;
        seven pairs included when the seat has no melds.  A kind whose every copy the seat
        already holds (concealed and melded) is not a wait."""
        return self._live_waits(seat, self.counts(seat), len(self.melds[seat]))

    def _live_waits(self, seat: int, counts: list[int], n_melds: int, kong_kind: int | None = None) -> list[int]:
        """``hand_shapes.winning_kinds`` of ``counts`` minus the kinds of which ``seat`` holds
        every copy, counting its melds (and a kong of ``kong_kind`` about to be made)."""
        waits = hand_shapes.winning_kinds(counts, n_melds, self._allowed_set)
        if not waits or (not self.melds[seat] and kong_kind is None):
            return waits
        held = Counter(kind_of(t) for m in self.melds[seat] for t in m.tiles)
        if kong_kind is not None:
            held[kong_kind] += 4
        return [k for k in waits if counts[k] + held[k] < self._kind_counts.get(k, 4)]

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (a 胡 below the minimum is not listed)."""
        if self.phase == DISCARD_PHASE and seat == self.turn:
            return self._turn_actions(seat)
        if self.phase in (CLAIM_PHASE, ROB_PHASE) and seat in self.claim_options and seat not in self.responses:
            return [a for a in self.claim_options[seat] if a.type != HU or self._win_ok(seat, a)]
        return []

    def win_offered(self, seat: int) -> bool:
        """True when ``seat`` holds a winning shape now (the 胡 / 加倍 / 过 prompt), even below
        the fan minimum."""
        if self.phase == DISCARD_PHASE and seat == self.turn:
            return (self.drawn[seat] is not None and not self.win_declined[seat]
                    and self.win_shape(seat, None))
        return any(a.type == HU for a in self.claim_options.get(seat, ()) if seat not in self.responses)

    def _turn_actions(self, seat: int) -> list[Action]:
        acts: list[Action] = []
        hand_kinds = sorted({kind_of(t) for t in self.hands[seat]})
        drawn = self.drawn[seat]
        if self.ting[seat] and drawn is not None:
            acts.append(Action(seat, DISCARD, kind_of(drawn)))
        else:
            for k in hand_kinds:
                if self.may_discard(seat, k):
                    acts.append(Action(seat, DISCARD, k))
            if not self.ting[seat] and self.ting_allowed():
                for k in hand_kinds:
                    if self.may_discard(seat, k) and self._ready_after_discard(seat, k):
                        acts.append(Action(seat, TING, k))
        if self.wall_remaining > self.draw_reserve():
            for k in self._own_kong_kinds(seat):
                acts.append(Action(seat, KONG, k))
        if self.win_offered(seat):
            win = Action(seat, HU)
            if self._win_ok(seat, win):
                acts.append(win)
            if self.double_allowed():
                acts.append(Action(seat, DOUBLE))
        return acts

    def may_discard(self, seat: int, kind: int) -> bool:
        """*hook*: restrictions on what may be discarded (default: anything in hand)."""
        return True

    def ting_allowed(self) -> bool:
        """*hook*: does the variant have 听 declarations?"""
        return False

    def double_allowed(self) -> bool:
        """*hook*: does the variant have 加倍?"""
        return False

    def _ready_after_discard(self, seat: int, kind: int) -> bool:
        # memoised for the current state of the seat (the same question comes back from the
        # legal-action list, the check in ``apply`` and the hints)
        key = (self.seq, seat, tuple(self.hands[seat]), tuple(m.tiles for m in self.melds[seat]))
        cache = self.__dict__.get("_ready_cache")
        if cache is None or cache[0] != key:
            answers: dict[int, bool] = {}
            if self.WAITS_WITHIN_SHAPE and hand_shapes.shanten(self.counts(seat), len(self.melds[seat])) > 0:
                # a discard cannot lower the shanten: no discard leaves the hand ready
                answers = dict.fromkeys(range(34), False)
            cache = self._ready_cache = (key, answers)
        r = cache[1].get(kind)
        if r is None:
            counts = self.counts(seat)
            counts[kind] -= 1
            r = cache[1][kind] = bool(self._live_waits(seat, counts, len(self.melds[seat])))
        return r

    def _own_kong_kinds(self, seat: int) -> list[int]:
        counts = self.counts(seat)
        out = []
        drawn = self.drawn[seat]
        for k in range(34):
            if counts[k] == 4:
                if self.ting[seat]:
                    if drawn is None or kind_of(drawn) != k or not self._kong_keeps_waits(seat, k):
                        continue
                out.append(k)
        for m in self.melds[seat]:
            if m.type == PUNG and counts[m.kind] >= 1:
                if self.ting[seat] and (drawn is None or kind_of(drawn) != m.kind):
                    continue
                out.append(m.kind)
        return sorted(set(out))

    def _kong_keeps_waits(self, seat: int, kind: int) -> bool:
        drawn = self.drawn[seat]
        assert drawn is not None  # a kong of one's own turn: the drawn tile is held
        before = self._waits_without(seat, kind_of(drawn))
        counts = self.counts(seat)
        counts[kind] -= 4
        after = self._live_waits(seat, counts, len(self.melds[seat]) + 1, kong_kind=kind)
        return before == after and bool(after)

    def _waits_without(self, seat: int, kind: int) -> list[int]:
        counts = self.counts(seat)
        counts[kind] -= 1
        return self._live_waits(seat, counts, len(self.melds[seat]))

    def _win_ok(self, seat: int, action: Action) -> bool:
        return bool(self._evaluate_pending_win(seat).get("ok"))

    def _evaluate_pending_win(self, seat: int) -> dict:
        if self.phase == DISCARD_PHASE:
            drawn = self.drawn[seat]
            win_kind = kind_of(drawn) if drawn is not None else kind_of(self.hands[seat][-1])
            return self._evaluate_cached(seat, win_kind, True, False)
        robbing = self.phase == ROB_PHASE
        window = self.rob if robbing else self.last_discard
        assert window is not None  # a claim or rob window is open on its tile
        tile = window[1]
        return self._evaluate_cached(seat, kind_of(tile), False, robbing)

    def _evaluate_cached(self, seat: int, win_kind: int, self_drawn: bool, robbing: bool) -> dict:
        key = (self.seq, seat, win_kind, self_drawn, robbing, self.doubles[seat])
        cache = getattr(self, "_win_cache", None)
        if cache is None or cache[0] != key:
            self._win_cache = (key, self.evaluate_win(seat, win_kind, self_drawn, robbing_kong=robbing))
        return self._win_cache[1]

    # ----------------------------------------------------------------- apply
    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns the events it caused.

        Raises :class:`IllegalAction` (state unchanged) when the action is not allowed
        now, with a code naming the reason (``not_your_turn``, ``tile_not_in_hand``,
        ``hand_locked_after_ting``, ``cannot_claim``, ``fan_below_minimum``, …).
        """
        if action.type == TING and self.TING_IGNORED_IF_NOT_READY and action not in self.legal_actions(action.seat):
            plain = Action(action.seat, DISCARD, action.kind)
            if action.kind is not None and plain in self.legal_actions(action.seat):
                action = plain  # 听 with a discard that leaves no ready hand is ignored
        self._check(action)
        self._frame_action(action)
        start = len(self.events)
        self.seq += 1
        if self.phase == DISCARD_PHASE:
            self._apply_turn(action)
        else:
            self.responses[action.seat] = action
            self._try_resolve()
        self._frame_applied(start)
        return self.events[start:]

    def _check(self, action: Action) -> None:
        seat = action.seat
        if self.phase == OVER:
            raise IllegalAction("hand_over", self.RULES)
        if not 0 <= seat < self.n:
            raise IllegalAction("no_such_seat", self.RULES, seat=seat)
        legal = self.legal_actions(seat)
        if action in legal:
            return
        # explain the refusal
        if self.phase == DISCARD_PHASE and seat != self.turn:
            raise IllegalAction("not_your_turn", self.RULES)
        if self.phase != DISCARD_PHASE and (seat not in self.claim_options or seat in self.responses):
            raise IllegalAction("not_your_turn", self.RULES)
        if action.type == HU:
            if self.win_offered(seat) or (self.phase != DISCARD_PHASE and any(
                    a.type == HU for a in self.claim_options.get(seat, ()))):
                ev = self._evaluate_pending_win(seat)
                raise IllegalAction(ev.get("code", "fan_below_minimum"), ev.get("rule", self.RULES),
                                    **ev.get("params", {}))
            raise IllegalAction("not_a_winning_hand", self.RULES)
        if action.type in (DISCARD, TING):
            if action.kind is None or not any(kind_of(t) == action.kind for t in self.hands[seat]):
                raise IllegalAction("tile_not_in_hand", self.RULES,
                                    tile=kind_str(action.kind) if action.kind is not None else "?")
            if self.ting[seat]:
                drawn = self.drawn[seat]
                raise IllegalAction("hand_locked_after_ting", self.RULES,
                                    tile=kind_str(kind_of(drawn)) if drawn is not None else "?")
            if action.type == TING:
                raise IllegalAction("ting_not_ready", self.RULES, tile=kind_str(action.kind))
            raise IllegalAction("discard_not_allowed", self.RULES, tile=kind_str(action.kind))
        if action.type == DOUBLE and self.double_allowed():
            raise IllegalAction("double_not_available", self.RULES)
        if action.type in (CHOW, PUNG, KONG):
            raise IllegalAction("cannot_claim", self.RULES, claim=action.type)
        raise IllegalAction("action_not_available", self.RULES, action=action.type)

    def _apply_turn(self, a: Action) -> None:
        seat = a.seat
        if a.type in (DISCARD, TING):
            self._discard(seat, a.tile_kind, declare=a.type == TING)
        elif a.type == KONG:
            self._own_kong(seat, a.tile_kind)
        elif a.type == HU:
            drawn = self.drawn[seat]
            tile = drawn if drawn is not None else self.hands[seat][-1]
            self._win(seat, tile, None, self_drawn=True)
        elif a.type == DOUBLE:
            self.doubles[seat] *= 2
            self.win_declined[seat] = True
            self.events.append(Event("double", seat, data={"multiplier": self.doubles[seat]}))

    def _pick_tile(self, seat: int, kind: int) -> int:
        drawn = self.drawn[seat]
        if drawn is not None and kind_of(drawn) == kind:
            return drawn
        return max(t for t in self.hands[seat] if kind_of(t) == kind)

    def _discard(self, seat: int, kind: int, declare: bool = False) -> None:
        tile = self._pick_tile(seat, kind)
        self.hands[seat].remove(tile)
        self.drawn[seat] = None
        self.after_kong = False
        self.win_declined[seat] = False
        self.discards[seat].append(tile)
        self.discards_made[seat] += 1
        self.last_discard = (seat, tile)
        if declare:
            self.ting[seat] = True
            self.on_ting(seat, with_discard=True)
            self.events.append(Event("ting", seat, kind))
        self.events.append(Event("discard", seat, kind))
        self._open_claims(seat, tile)

    def on_ting(self, seat: int, with_discard: bool) -> None:
        """*hook*: bookkeeping when ``seat`` declares 听 (e.g. 天听)."""

    def draw_reserve(self) -> int:
        """*hook*: tiles left in the wall when the hand ends as an exhaustive draw (0: play
        the wall out; 老三番 keeps 18 plus 2 per kong)."""
        return 0

    def _next_draw(self, discarder: int) -> None:
        if self.wall_remaining <= self.draw_reserve():
            self._draw_game()
            return
        self._draw((discarder + 1) % self.n)

    def _draw(self, seat: int, from_back: bool = False, after_kong: bool = False) -> None:
        while True:
            if self.wall_remaining == 0 or (not from_back and self.wall_remaining <= self.draw_reserve()):
                self._draw_game()
                return
            tile = self._take(from_back)
            if self.is_bonus(kind_of(tile)):
                self.flowers[seat].append(tile)
                self.events.append(Event("flower", seat, kind_of(tile)))
                from_back = True
                continue
            break
        self.hands[seat].append(tile)
        self.drawn = [None] * self.n
        self.drawn[seat] = tile
        self.draws_made[seat] += 1
        self.after_kong = after_kong
        self.win_declined[seat] = False
        self.turn = seat
        self.phase = DISCARD_PHASE
        self.events.append(Event("draw", seat, None, {"replacement": after_kong}))

    def _draw_game(self) -> None:
        self.phase = OVER
        self.claim_options, self.responses = {}, {}
        points = self.settle(None, None, None)
        self.result = {"winner": None, "winners": [], "draw": True, "self_drawn": False, "discarder": None,
                       "points": points, "dealer": self.dealer, "hands": self._all_hands()}
        self.events.append(Event("draw_game"))

    def _all_hands(self) -> list[list[str]]:
        return [[kind_str(k) for k in self.concealed_kinds(s)] for s in range(self.n)]

    def _win(self, seat: int, tile: int, discarder: int | None, self_drawn: bool, robbing: bool = False) -> None:
        kind = kind_of(tile)
        win = self.evaluate_win(seat, kind, self_drawn, robbing_kong=robbing)
        if not self_drawn:
            self.hands[seat].append(tile)
            if not robbing:
                self.claimed_discards.add(tile)
        self.phase = OVER
        points = self.settle(seat, win, discarder)
        self.result = {
            "winner": seat, "winners": [seat], "draw": False, "self_drawn": self_drawn, "discarder": discarder,
            "win_tile": kind_str(kind), "robbing_kong": robbing, "points": points,
            "dealer": self.dealer, "hands": self._all_hands(), **{k: v for k, v in win.items() if k != "ok"},
        }
        self.events.append(Event("hu", seat, kind, {"self_drawn": self_drawn, "from": discarder}))

    # ----------------------------------------------------------------- automatic play
    def timer_kind(self) -> str:
        """Which table timeout applies now: ``"discard"`` on one's own turn, else ``"claim"``."""
        return "discard" if self.phase == DISCARD_PHASE else "claim"

    def timeout_action(self, seat: int) -> Action:
        """The action taken for ``seat`` when its timer runs out (two_player.md §Timeouts):
        win if possible, else pass; on one's own turn discard the drawn tile (rightmost),
        or after a claim the rightmost tile of the sorted hand."""
        legal = self.legal_actions(seat)
        for a in legal:
            if a.type == HU:
                return a
        if self.phase != DISCARD_PHASE:
            return Action(seat, PASS)
        drawn = self.drawn[seat]
        discards = [a for a in legal if a.type == DISCARD]
        if drawn is not None and Action(seat, DISCARD, kind_of(drawn)) in discards:
            return Action(seat, DISCARD, kind_of(drawn))
        return discards[-1]

    # ----------------------------------------------------------------- views
