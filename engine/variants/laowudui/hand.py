"""``laowudui`` — 老五对: the pairs game with 百搭 wilds and the dealt tile that is passed on.

Source: ``docs/rules/laowudui.md`` (sections named in each docstring).  The turn structure is
not draw/discard mahjong, so :class:`LaoWuDuiHand` implements ``engine.protocol.Hand``
itself.

Phases (``hand.phase``):

* ``"opening"`` — 买庄 (``buy`` / ``no_buy``, every seat, when the table allows it) and
  折庄 (``zhezhuang`` / ``no_zhezhuang``, a non-dealer whose eleven dealt tiles are one
  tile from a win); the seats answer in any order.
* ``"discard"`` — seat ``turn`` holds its eleven tiles plus either the tile it was dealt
  (``dealt[turn]``, seen by nobody else) or, after a claim (and the dealer's first turn),
  a twelfth tile in hand.  A dealt tile must be discarded (``discard <it>``) unless it is
  claimed (``chi`` / ``dui`` / ``kong``), won on (``hu``) or, being a 百搭, kept (``keep``,
  or simply discarding another tile).  Tiles from the hand: ``dui <k>`` (堆 from the hand)
  and ``kong <k>`` (four in hand) any time on one's turn, without a replacement draw.
  Discarding a 百搭 asks for confirmation: ``confirm`` (打) or ``keep`` (留).
* ``"claim"`` — after a discard: 胡 (any seat, 一炮多响), 杠 (the 对家 holding three, or
  the 下家 with a 吃 pair and one in hand on an unchanged dealt tile), 吃 (the 下家 holding
  the same tile, on an unchanged dealt tile), 过.  Priority 胡 > 杠 > 吃.
* ``"over"`` — ``result`` holds the settlement.

Decisions taken where the rule file is silent (listed in the project's docs):

* the first hand's dealer is seat 0 (the table's creator) — the hand factory sets it when
  ``context["hand_no"] == 0``; the deal then passes to the next seat every hand;
* 买庄 is chosen in the opening phase, after the deal (the players see their tiles);
* the turned tile is taken from the back of the wall after the deal;
* 吃 of a 喜牌 pairs it with any 喜牌 in hand, and holding any 喜牌 lets every 喜牌 win
  (they pair with each other); a kind already melded as a 吃 pair is not 吃'd again;
* a melded 吃 pair may be completed to a four by two more tiles of its kind (real or 百搭)
  at the win — the rule file's example (winning on 5m/6m/8m with those pairs melded) needs
  it — and such a meld then scores as a four (10 / 20 对), like 堆 + 百搭;
* a wild tile read as itself is not a 百搭 "used" (no four needed) but a hand holding any
  wild tile is not 老胡;
* 折庄 locks the hand: no claims and no kept wilds; a dealt wild is then passed on even
  when ``wild_discard`` is off;
* only the dealer's first turn may win without a dealt or discarded tile (the twelve dealt
  tiles, scored as self-drawn, the winning tile being the last tile dealt);
* wild kinds are never claimed (吃 / 堆 / 杠), even as themselves.
"""

from __future__ import annotations

from collections import Counter

from ...actions import DISCARD, HU, KONG, PASS, Action
from ...errors import IllegalAction
from ...events import Event
from ...frames import PublicFrames
from ...hand_state import AiSeat
from ...mahjong.wall import StackedWall
from ...melds import Meld
from ...rng import make_rng
from ...tiles import kind_of, kind_str, make_tiles
from .actions import (
    BUY, CHI, CLAIM_PHASE, CONFIRM, DISCARD_PHASE, DUI, KEEP, NO_BUY, NO_ZHE, OPENING, OVER, RULES, ZHE,
)
from .claims import ClaimWindow
from .options import OPTIONS
from .scoring import Scoring
from .state import _Win
from .shapes import TILE_COUNTS, XI_KINDS, is_win, is_xi, wild_kinds
from .view import HandViews

class LaoWuDuiHand(AiSeat, PublicFrames, ClaimWindow, Scoring, HandViews):
    """One hand of 老五对 for ``n_seats`` (2–4) seats.

    :param options: resolved options (:data:`OPTIONS`).
    :param seed: the hand's seed (``engine.rng``); the shuffle comes from it only.
    :param dealer: the dealer's seat.
    :param context: match facts; ``{"stacked": {"hands": [kinds per seat, the dealer's 12],
        "draws": [kinds dealt in order], "indicator": kind}}`` lays the wall out for tests
        (``"turned": [kinds]`` instead of ``"indicator"``: the tiles turned in order, e.g. a
        喜牌 set aside and then the indicator).
    """

    VARIANT = "laowudui"
    RULES = RULES
    DEAL_DEALER, DEAL_OTHER = 12, 11

    def __init__(self, options: dict, seed: int, dealer: int, n_seats: int = 4, context: dict | None = None):
        if not 2 <= n_seats <= 4:
            raise ValueError("老五对 is played by 2, 3 or 4 players")
        self.options = {o.name: o.default for o in OPTIONS} | dict(options)
        self.seed = seed
        self.dealer = dealer
        self.n = n_seats
        self.context = dict(context or {})
        self.rng = make_rng(seed)
        self.seq = 0
        self.events: list[Event] = []
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.dealt: list[int | None] = [None] * self.n
        self.melds: list[list[Meld]] = [[] for _ in range(self.n)]
        self.discards: list[list[int]] = [[] for _ in range(self.n)]
        self.claimed_discards: set[int] = set()
        self.discards_made = [0] * self.n
        self.set_aside: list[int] = []
        self.turn = dealer
        self.phase = OPENING
        self.confirming: int | None = None  # a wild tile whose discard awaits 打 / 留
        self.last_discard: tuple[int, int] | None = None
        self.last_unchanged = False  # the last discard was its discarder's dealt tile
        self.claim_options: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.bought: list[bool | None] = [None] * self.n
        self.zhe_eligible = [False] * self.n
        self.zhe_decided = [True] * self.n
        self.zhezhuang = [False] * self.n
        self.result: dict | None = None
        self._wins_cache: dict = {}
        self._build_wall()
        self._deal()

    # ------------------------------------------------------------------ set-up
    def tile_counts(self) -> dict[int, int]:
        """``{kind: copies}`` of the 125-tile set (laowudui.md §Tiles)."""
        return dict(TILE_COUNTS)

    def _build_wall(self) -> None:
        wall = make_tiles(TILE_COUNTS)
        self.rng.shuffle(wall)
        if "stacked" in self.context:
            wall = self._stack(wall, self.context["stacked"])
        self.wall = wall
        self.front, self.back = 0, len(wall)

    def _stack(self, shuffled: list[int], spec: dict) -> list[int]:
        """Wall for a fixed deal: hands (seat order from the dealer; the dealer's 12 tiles),
        dealt tiles, and the turned tile at the back.  ``ValueError`` on impossible specs."""
        stack = StackedWall(shuffled)
        take = stack.take
        front: list[int] = []
        for i in range(self.n):
            s = (self.dealer + i) % self.n
            hand = list(spec["hands"][s])
            if len(hand) != (self.DEAL_DEALER if s == self.dealer else self.DEAL_OTHER):
                raise ValueError("stacked wall: wrong hand size")
            front += [take(k) for k in hand[:self.DEAL_OTHER]]
        front += [take(k) for k in spec["hands"][self.dealer][self.DEAL_OTHER:]]  # the dealer's twelfth
        front += [take(k) for k in spec.get("draws", [])]
        turned = spec.get("turned") or ([spec["indicator"]] if "indicator" in spec else [])
        back = [take(k) for k in turned]  # turned from the back, first first
        return stack.laid_out(front, back)

    @property
    def wall_remaining(self) -> int:
        return self.back - self.front

    def _deal(self) -> None:
        for i in range(self.n):
            s = (self.dealer + i) % self.n
            for _ in range(self.DEAL_OTHER):
                self.hands[s].append(self.wall[self.front])
                self.front += 1
        self.hands[self.dealer].append(self.wall[self.front])
        self.front += 1
        self.last_dealt_to_dealer = self.hands[self.dealer][-1]
        # 翻牌 (laowudui.md §百搭): from the back; a 喜牌 is set aside and the next turned
        while True:
            self.back -= 1
            t = self.wall[self.back]
            if is_xi(kind_of(t)):
                self.set_aside.append(t)
                self.events.append(Event("set_aside", None, kind_of(t)))
                continue
            self.indicator = t
            break
        self.wild = frozenset(wild_kinds(kind_of(self.indicator), self.options["wilds"]))
        self.events.append(Event("indicator", None, kind_of(self.indicator),
                                 {"wild": [kind_str(k) for k in sorted(self.wild)]}))
        if self.options.get("buy_dealer", True):
            self.bought = [None] * self.n
        else:
            self.bought = [False] * self.n
        for s in range(self.n):
            if s != self.dealer and self._winning_kinds(s, self.hands[s], self.melds[s], self_drawn=True):
                self.zhe_eligible[s] = True
                self.zhe_decided[s] = False
        if not self.pending_seats():
            self.phase = DISCARD_PHASE

    # ------------------------------------------------------------------ queries
    def is_wild(self, tile_or_kind: int, *, kind: bool = False) -> bool:
        return (tile_or_kind if kind else kind_of(tile_or_kind)) in self.wild

    def holding(self, seat: int) -> int:
        """Tiles a seat holds: concealed + melded + its dealt tile (11 between turns, 12 on
        its turn)."""
        return len(self.hands[seat]) + sum(len(m.tiles) for m in self.melds[seat]) + (self.dealt[seat] is not None)

    def is_over(self) -> bool:
        return self.phase == OVER

    def pending_seats(self) -> list[int]:
        """Seats whose decision the hand waits for."""
        if self.phase == OPENING:
            return [s for s in range(self.n) if self.bought[s] is None or not self.zhe_decided[s]]
        if self.phase == DISCARD_PHASE:
            return [self.turn]
        if self.phase == CLAIM_PHASE:
            return [s for s in sorted(self.claim_options) if s not in self.responses]
        return []

    def timer_kind(self) -> str:
        """``"discard"`` while a seat decides about its dealt tile or discards, else ``"claim"``."""
        return "discard" if self.phase == DISCARD_PHASE else "claim"

    def _meld_spec(self, melds: list[Meld]) -> list[tuple[str, tuple[int, ...]]]:
        return [(m.type, m.kinds) for m in melds]

    def _count_kind(self, tiles: list[int], kind: int) -> int:
        return sum(1 for t in tiles if kind_of(t) == kind)

    def _meld_of(self, seat: int, kind: int, mtype: str) -> int | None:
        for i, m in enumerate(self.melds[seat]):
            if m.type == mtype and m.kind == kind and not is_xi(kind):
                return i
        return None

    def win_kind_allowed(self, seat: int, kind: int, self_drawn: bool, hand: list[int] | None = None,
                         melds: list[Meld] | None = None) -> bool:
        """The "which tiles can win" rule (laowudui.md §Winning): the kind is among my real
        tiles in hand or in my 吃/堆 melds (a 喜牌 if I hold any 喜牌 there); a 百搭 only
        self-drawn, or discarded by another player when ``wild_discard`` is on."""
        hand = self.hands[seat] if hand is None else hand
        melds = self.melds[seat] if melds is None else melds
        if kind in self.wild:
            return self_drawn or bool(self.options["wild_discard"])
        kinds = {kind_of(t) for t in hand if kind_of(t) not in self.wild}
        for m in melds:
            if m.type in (CHI, DUI):
                kinds.update(m.kinds)
        if is_xi(kind):
            return any(is_xi(k) for k in kinds)
        return kind in kinds

    def _wins(self, seat: int, hand: list[int], melds: list[Meld], kind: int) -> bool:
        return is_win([t >> 2 for t in hand] + [kind], self._meld_spec(melds), self.wild)

    def _winning_kinds(self, seat: int, hand: list[int], melds: list[Meld], self_drawn: bool) -> list[int]:
        """Kinds that complete ``hand`` + ``melds`` (eleven tiles) under the rules, for a
        win by self-draw (``self_drawn``) or on a discard."""
        key = (tuple(sorted(kind_of(t) for t in hand)), tuple((m.type, m.kinds) for m in melds), self_drawn, seat)
        hit = self._wins_cache.get(key)
        if hit is not None:
            return hit
        cands = {kind_of(t) for t in hand if kind_of(t) not in self.wild}
        for m in melds:
            if m.type in (CHI, DUI):
                cands.update(m.kinds)
        if any(is_xi(k) for k in cands):
            cands.update(XI_KINDS)
        if self_drawn or self.options["wild_discard"]:
            cands.update(self.wild)
        out = []
        xi_win = None  # every 喜牌 reads alike: one check for all (a held one cannot come again)
        held = {t >> 2 for t in hand} | {t >> 2 for m in melds for t in m.tiles}
        for k in sorted(cands):
            if is_xi(k):
                if k in held:
                    continue
                if xi_win is None:
                    xi_win = self.win_kind_allowed(seat, k, self_drawn, hand, melds) and self._wins(seat, hand, melds, k)
                if xi_win:
                    out.append(k)
            elif self.win_kind_allowed(seat, k, self_drawn, hand, melds) and self._wins(seat, hand, melds, k):
                out.append(k)
        if len(self._wins_cache) > 4096:
            self._wins_cache.clear()
        self._wins_cache[key] = out
        return out

    def waits(self, seat: int) -> list[int]:
        """Kinds ``seat`` would win on by self-draw with its eleven tiles (empty while it
        holds a twelfth)."""
        if self.holding(seat) != 11:
            return []
        return self._winning_kinds(seat, self.hands[seat], self.melds[seat], self_drawn=True)

    def visible_kinds(self, viewer: int | None) -> Counter:
        """Kinds ``viewer`` can see: unclaimed discards, melds, the turned and set-aside tiles,
        its own concealed and dealt tiles."""
        c: Counter = Counter()
        for s in range(self.n):
            c.update(kind_of(t) for t in self.discards[s] if t not in self.claimed_discards)
            c.update(kind_of(t) for m in self.melds[s] for t in m.tiles)
        c[kind_of(self.indicator)] += 1
        c.update(kind_of(t) for t in self.set_aside)
        if viewer is not None:
            c.update(kind_of(t) for t in self.hands[viewer])
            dealt = self.dealt[viewer]
            if dealt is not None:
                c[kind_of(dealt)] += 1
        return c

    def unseen(self, viewer: int, kind: int) -> int:
        return max(0, TILE_COUNTS.get(kind, 0) - self.visible_kinds(viewer)[kind])

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        if self.phase == OPENING:
            if self.bought[seat] is None:
                return [Action(seat, BUY), Action(seat, NO_BUY)]
            if not self.zhe_decided[seat]:
                return [Action(seat, ZHE), Action(seat, NO_ZHE)]
            return []
        if self.phase == DISCARD_PHASE and seat == self.turn:
            return self._turn_actions(seat)
        if self.phase == CLAIM_PHASE and seat in self.claim_options and seat not in self.responses:
            return list(self.claim_options[seat])
        return []

    def _may_discard_wild(self, seat: int) -> bool:
        if self.options["wild_discard"]:
            return True
        # nothing else to discard: the rule cannot hold
        return all(kind_of(t) in self.wild for t in self.hands[seat])

    def _turn_actions(self, seat: int) -> list[Action]:
        if self.confirming is not None:
            confirm = [Action(seat, CONFIRM)]
            if not self.zhezhuang[seat]:
                confirm.append(Action(seat, KEEP))
            return confirm
        acts: list[Action] = []
        locked = self.zhezhuang[seat]
        dealt = self.dealt[seat]
        hand = self.hands[seat]
        if dealt is not None:
            dk = kind_of(dealt)
            if dk in self.wild:
                if locked:
                    acts.append(Action(seat, DISCARD, dk))
                else:
                    if self.options["wild_discard"]:
                        acts.append(Action(seat, DISCARD, dk))
                    acts.append(Action(seat, KEEP))
                    for k in sorted({kind_of(t) for t in hand}):
                        if k not in self.wild or self.options["wild_discard"]:
                            acts.append(Action(seat, DISCARD, k))
            else:
                acts.append(Action(seat, DISCARD, dk))
                if not locked:
                    in_hand = self._count_kind(hand, dk) if not is_xi(dk) else sum(is_xi(kind_of(t)) for t in hand)
                    chi_i = self._meld_of(seat, dk, CHI)
                    dui_i = self._meld_of(seat, dk, DUI)
                    # a claim is followed by a discard from the hand: a tile must remain
                    size = len(hand)
                    if in_hand >= 1 and chi_i is None and dui_i is None and self._meld_of(seat, dk, KONG) is None \
                            and size >= 2:
                        acts.append(Action(seat, CHI))
                    if chi_i is not None and size >= 1:
                        acts.append(Action(seat, DUI))
                        if in_hand >= 1 and size >= 2:
                            acts.append(Action(seat, KONG))
                    if dui_i is not None and size >= 1:
                        acts.append(Action(seat, KONG))
        else:
            kinds = sorted({kind_of(t) for t in hand})
            for k in kinds:
                if k not in self.wild or self._may_discard_wild(seat):
                    acts.append(Action(seat, DISCARD, k))
        if not locked:
            counts = Counter(kind_of(t) for t in hand)
            for k in sorted(counts):
                if k in self.wild or is_xi(k):
                    continue
                spare = len(hand) - (1 if dealt is None else 0)  # something must remain to discard
                if counts[k] >= 1 and self._meld_of(seat, k, CHI) is not None and spare >= 1:
                    acts.append(Action(seat, DUI, k))
                if counts[k] == 4 and spare >= 4:
                    acts.append(Action(seat, KONG, k))
        if self._self_win_kind(seat) is not None:
            acts.append(Action(seat, HU))
        return list(dict.fromkeys(acts))

    def _self_win_kind(self, seat: int) -> int | None:
        """The winning tile's kind if ``seat`` may win now on its own turn, else ``None``."""
        if self.confirming is not None:
            return None
        dealt = self.dealt[seat]
        if dealt is not None:
            k = kind_of(dealt)
            if self.win_kind_allowed(seat, k, True) and self._wins(seat, self.hands[seat], self.melds[seat], k):
                return k
            return None
        if seat == self.dealer and self.discards_made[seat] == 0 and not self.melds[seat]:
            # the dealer's twelve dealt tiles (Decision: scored as self-drawn)
            tile = self.last_dealt_to_dealer
            if tile in self.hands[seat]:
                rest = [t for t in self.hands[seat] if t != tile]
                if self._wins(seat, rest, [], kind_of(tile)):
                    return kind_of(tile)
        return None

    def win_offered(self, seat: int) -> bool:
        return any(a.type == HU for a in self.legal_actions(seat))

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns the events it caused.  Raises :class:`IllegalAction`
        (state unchanged): ``hand_over``, ``no_such_seat``, ``not_your_turn``,
        ``must_discard_dealt`` (a dealt tile that is not a 百搭), ``wild_discard_off``,
        ``cannot_claim``, ``not_a_winning_hand``, ``hand_locked_zhezhuang``,
        ``tile_not_in_hand``, ``action_not_available``."""
        self._check(action)
        self._frame_action(action)
        start = len(self.events)
        self.seq += 1
        if self.phase == OPENING:
            self._apply_opening(action)
        elif self.phase == DISCARD_PHASE:
            self._apply_turn(action)
        else:
            self.responses[action.seat] = action
            self._try_resolve()
        self._frame_applied(start)
        return self.events[start:]

    def _check(self, action: Action) -> None:
        seat = action.seat
        if self.phase == OVER:
            raise IllegalAction("hand_over", RULES)
        if not 0 <= seat < self.n:
            raise IllegalAction("no_such_seat", RULES, seat=seat)
        legal = self.legal_actions(seat)
        if action in legal:
            return
        if not legal:
            raise IllegalAction("not_your_turn", RULES)
        if action.type == HU:
            raise IllegalAction("not_a_winning_hand", f"{RULES} §Winning")
        if self.phase == DISCARD_PHASE and self.zhezhuang[seat] and action.type in (CHI, DUI, KONG, KEEP):
            raise IllegalAction("hand_locked_zhezhuang", f"{RULES} §Scoring (折庄)")
        if action.type == DISCARD:
            dealt = self.dealt[seat]
            tiles = self.hands[seat] + ([dealt] if dealt is not None else [])
            tile = kind_str(action.kind) if action.kind is not None else "?"
            if action.kind is None or not any(kind_of(t) == action.kind for t in tiles):
                raise IllegalAction("tile_not_in_hand", RULES, tile=tile)
            if action.kind in self.wild and not self.options["wild_discard"]:
                raise IllegalAction("wild_discard_off", f"{RULES} §Deal and turn", tile=tile)
            if dealt is not None:
                raise IllegalAction("must_discard_dealt", f"{RULES} §Deal and turn", tile=kind_str(kind_of(dealt)))
            raise IllegalAction("discard_not_allowed", RULES, tile=tile)
        if action.type in (CHI, DUI, KONG):
            raise IllegalAction("cannot_claim", f"{RULES} §Claims", claim=action.type)
        raise IllegalAction("action_not_available", RULES, action=action.type)

    def _apply_opening(self, a: Action) -> None:
        s = a.seat
        if a.type in (BUY, NO_BUY):
            self.bought[s] = a.type == BUY
            if a.type == BUY:
                self.events.append(Event("buy", s))
        else:
            self.zhe_decided[s] = True
            if a.type == ZHE:
                self.zhezhuang[s] = True
                self.events.append(Event("zhezhuang", s))
        if not self.pending_seats():
            self.phase = DISCARD_PHASE
            self.turn = self.dealer
            # everybody decided: the table sees the opening end and the dealer's turn begin
            self.events.append(Event("opening_over", self.dealer))

    def _take_from_hand(self, seat: int, kind: int, n: int = 1) -> list[int]:
        tiles = sorted((t for t in self.hands[seat] if kind_of(t) == kind), reverse=True)[:n]
        if len(tiles) < n:
            raise AssertionError("tile not in hand")
        for t in tiles:
            self.hands[seat].remove(t)
        return tiles

    def _take_xi_from_hand(self, seat: int) -> int:
        t = max(t for t in self.hands[seat] if is_xi(kind_of(t)))
        self.hands[seat].remove(t)
        return t

    def _apply_turn(self, a: Action) -> None:
        s = a.seat
        dealt = self.dealt[s]
        if self.confirming is not None:
            tile, self.confirming = self.confirming, None
            if a.type == CONFIRM:
                if dealt is not None and tile != dealt:  # a wild from the hand: the dealt wild is kept
                    self.hands[s].append(dealt)
                    self.dealt[s] = None
                    self.events.append(Event("keep", s))
                self._discard(s, tile)
            else:  # 留: a dealt wild joins the hand
                if tile == dealt:
                    self.dealt[s] = None
                    self.hands[s].append(tile)
                self.events.append(Event("keep", s))
            return
        if a.type == DISCARD:
            if dealt is not None and kind_of(dealt) == a.kind:
                tile = dealt
            else:
                tile = max(t for t in self.hands[s] if kind_of(t) == a.kind)
            if a.kind in self.wild and not self.zhezhuang[s]:
                self.confirming = tile
                return
            if dealt is not None and tile != dealt:  # a hand tile: the dealt wild is kept
                self.hands[s].append(dealt)
                self.dealt[s] = None
                self.events.append(Event("keep", s))
            self._discard(s, tile)
        elif a.type == KEEP:
            assert dealt is not None  # offered only while the dealt tile is held
            self.hands[s].append(dealt)
            self.dealt[s] = None
            self.events.append(Event("keep", s))
        elif a.type == CHI:
            assert dealt is not None  # a 吃 of one's own turn takes the dealt tile
            k = kind_of(dealt)
            mine = self._take_xi_from_hand(s) if is_xi(k) else self._take_from_hand(s, k)[0]
            self._add_meld(s, Meld(CHI, tuple(sorted((mine, dealt))), False, dealt, s))
            self.dealt[s] = None
            self.events.append(Event(CHI, s, k, {"from": s}))
        elif a.type == DUI:
            if a.kind is None:  # with the dealt tile
                assert dealt is not None
                k, extra = kind_of(dealt), dealt
                self.dealt[s] = None
            else:
                k, extra = a.kind, self._take_from_hand(s, a.kind)[0]
            i = self._meld_of(s, k, CHI)
            assert i is not None  # a 对 is offered on a 吃 of that kind
            m = self.melds[s][i]
            self.melds[s][i] = Meld(DUI, tuple(sorted(m.tiles + (extra,))), False, m.claimed, m.from_seat)
            self.events.append(Event(DUI, s, k, {"from_hand": a.kind is not None}))
        elif a.type == KONG:
            if a.kind is not None:  # four in hand
                tiles = self._take_from_hand(s, a.kind, 4)
                self._add_meld(s, Meld(KONG, tuple(sorted(tiles)), False))
                self.events.append(Event(KONG, s, a.kind, {"from_hand": True}))
            else:
                assert dealt is not None  # an added kong takes the dealt tile
                k = kind_of(dealt)
                i = self._meld_of(s, k, DUI)
                add: tuple[int, ...]
                if i is None:
                    i = self._meld_of(s, k, CHI)
                    add = (self._take_from_hand(s, k)[0], dealt)
                else:
                    add = (dealt,)
                assert i is not None  # offered on a 对 or a 吃 of that kind
                m = self.melds[s][i]
                self.melds[s][i] = Meld(KONG, tuple(sorted(m.tiles + add)), False, m.claimed, m.from_seat, added=True)
                self.dealt[s] = None
                self.events.append(Event(KONG, s, k, {"added": True}))
        elif a.type == HU:
            if dealt is not None:
                tile = dealt
                self.dealt[s] = None
            else:
                tile = self.last_dealt_to_dealer
                self.hands[s].remove(tile)
            self._finish([_Win(s, tile, True, None)])

    def _add_meld(self, seat: int, meld: Meld) -> None:
        self.melds[seat].append(meld)

    def _discard(self, seat: int, tile: int) -> None:
        unchanged = self.dealt[seat] == tile
        if unchanged:
            self.dealt[seat] = None
        else:
            self.hands[seat].remove(tile)
        self.discards[seat].append(tile)
        self.discards_made[seat] += 1
        self.last_discard = (seat, tile)
        self.last_unchanged = unchanged
        self.events.append(Event("discard", seat, kind_of(tile), {"unchanged": unchanged}))
        self._open_claims(seat, tile)

    # ------------------------------------------------------------------ automatic play
    def timeout_action(self, seat: int) -> Action:
        """On a timeout (and under 托管): no 买庄 / no 折庄; win when possible; pass a claim;
        pass the dealt tile on (a dealt 百搭 is kept, discarding the last non-wild tile of
        the sorted hand); after a claim discard the last non-wild tile; 留 a 百搭 under
        confirmation when another tile can go, else 打."""
        legal = self.legal_actions(seat)
        types = {a.type for a in legal}
        if self.phase == OPENING:
            return Action(seat, NO_BUY if NO_BUY in types else NO_ZHE)
        if HU in types:
            return Action(seat, HU)
        if self.phase == CLAIM_PHASE:
            return Action(seat, PASS)
        if self.confirming is not None:
            if KEEP in types and any(kind_of(t) not in self.wild for t in self.hands[seat]):
                return Action(seat, KEEP)
            return Action(seat, CONFIRM)
        discards = [a for a in legal if a.type == DISCARD]
        dealt = self.dealt[seat]
        if dealt is not None and kind_of(dealt) not in self.wild:
            return Action(seat, DISCARD, kind_of(dealt))
        plain = [a for a in discards if a.kind not in self.wild]
        if plain or discards:
            return (plain or discards)[-1]
        return Action(seat, KEEP) if KEEP in types else legal[0]


__all__ = ["LaoWuDuiHand"]
