"""What every game's hand offers the table service and the front ends: the :class:`Hand`
protocol, and the typed shapes of what it returns — its views (:class:`View` with
:class:`SeatView`, :class:`MeView` …) and its result (:class:`Result`).

The draw/discard mahjong games get all of it from :class:`engine.mahjong.MahjongHand` by
overriding hooks; a game with another turn structure (老五对's dealt tile that must be
passed on, 字牌's shown cards and forced moves) implements the same protocol in its own class.
Nothing outside ``engine/`` looks at anything else of a hand.

The shapes are ``TypedDict``\\ s of JSON-ready values (lists, never tuples; tiles as notation
strings like ``"5m"``).  They are *open*: a game may add keys of its own (老三番's ``santan``,
字牌's ``options`` …), but a front end reads only the keys declared here, and every key
declared here has the declared type in every game — ``tests/engine/test_protocol_conformance.py``
checks it over play-outs of every game with :func:`engine.shape_check.check`.
"""

from typing import Any, NotRequired, Protocol, TypedDict, runtime_checkable

from .actions import Action
from .events import Event

#: one fan of a result: ``[zh name, en name, value, count]`` (a list in JSON)
FanItem = tuple[str, str, int, int]
#: one row of a result's multipliers or summary: ``[zh name, en name, value]``
Row = tuple[str, str, int]


# ---------------------------------------------------------------------------- views
class DiscardRef(TypedDict):
    """A tile some seat put out: the discard a claim window is open on (``last_discard``), or
    the tile added to a pung that may be robbed (``rob``)."""

    seat: int
    tile: str
    unchanged: NotRequired[bool]  #: 老五对: the discarder passed on the very tile it was dealt


class MeldView(TypedDict):
    """A meld (or 字牌 group) as a seat's view shows it; ``tiles`` hidden from the viewer are
    ``None``."""

    type: str  #: chow, pung, kong, or the game's own (老五对 chi/dui; 字牌 peng, wei, ti, pao, chi, bi …)
    tiles: list[str | None]
    concealed: bool
    added: bool  #: a kong made by adding to a pung (or 老五对's pair)
    claimed_index: int | None  #: which of ``tiles`` was taken from another seat
    from_seat: int | None
    huxi: NotRequired[int | None]  #: 字牌: the group's 胡息 (``None`` while face down)


class SeatView(TypedDict):
    """One seat at the table as ``viewer`` may see it (``View["seats"][i]``)."""

    seat: int
    wind: str  #: seat wind 东/南/西/北, or ``""`` where the game has none
    is_dealer: bool
    hand_count: int  #: concealed tiles, not counting a drawn one
    has_drawn: bool  #: holds a drawn (or dealt) tile apart from the hand
    discards: list[str]
    claimed_discards: list[int]  #: indexes into ``discards`` of tiles another seat took
    melds: list[MeldView]
    flowers: list[str]
    ting: bool  #: declared ready (听)
    doubles: int  #: 加倍 multiplier (1, 2, 4 …)
    concealed: list[str] | None  #: the hand, when ``viewer`` may see it, else ``None``
    drawn: str | None  #: the drawn tile, when ``viewer`` may see it
    bought: NotRequired[bool | None]  #: 老五对 买庄 (``None``: not told yet)
    zhezhuang: NotRequired[bool]  #: 老五对 折庄
    piao: NotRequired[int | None]  #: 字牌 飘 (``None``: not told yet)
    piao_chosen: NotRequired[bool | None]  #: 字牌: has declared its 飘
    dead: NotRequired[bool]  #: 字牌 相公: may no longer discard or win
    huxi_shown: NotRequired[int]  #: 字牌: 胡息 of its face-up groups


class WaitView(TypedDict):
    """A tile that would complete a hand (``me["waits"]``, ``hint[i]["waits"]``)."""

    tile: str
    left: NotRequired[int]  #: copies the seat cannot see
    fan: NotRequired[int]  #: fan of a win on it
    total: NotRequired[int]  #: 二人麻将: fan × 加倍 × 宝牌
    ok: NotRequired[bool]  #: a win on it is allowed (the table's minimum, the game's wait rule)
    why: NotRequired[str]  #: when not ``ok``: the refusal's code (``fan_below_minimum`` …)
    need: NotRequired[int]  #: 二人麻将: the table's minimum (``min_fan``), with ``fan_below_minimum``
    fan_self: NotRequired[int]  #: fan of a self-drawn win where it differs from ``fan`` (on a discard)
    ok_self: NotRequired[bool]  #: 二人麻将: below the minimum on a discard, enough self-drawn
    self_drawn_only: NotRequired[bool]  #: only a self-drawn win may take it (老五对's 百搭); ``fan_self``
    huxi: NotRequired[int]  #: 字牌: 胡息 of the win


class HintView(TypedDict):
    """One discard that leaves a ready hand, with its waits (the 听 menu)."""

    discard: str
    waits: list[WaitView]


class WarningView(TypedDict):
    """A discard that would make the seat liable (老三番 三摊, 金湖 包五家)."""

    tile: str
    reason: str  #: ``"三摊"`` or ``"包五家"``
    liable_to: int | None  #: the seat it would pay for


class ChiOptionView(TypedDict):
    """字牌: one way to 吃 the waiting card (the action, and the groups it lays down)."""

    action: str
    groups: list[list[str]]


class MeView(TypedDict):
    """The viewer's own part of its view (``View["me"]``)."""

    seat: int
    hand: list[str]  #: concealed tiles, sorted, without the drawn one
    drawn: str | None  #: the drawn (or dealt) tile held apart
    legal: list[str]  #: ``str(action)`` of every legal action (``Action.parse`` reads them back)
    win_offered: bool  #: holds a winning shape now (the 胡 prompt), even below the minimum
    waits: list[WaitView]  #: when one tile from a win (else empty)
    hint: list[HintView]  #: the 听 menu (二人麻将, 金湖), else empty
    confirming: NotRequired[str | None]  #: 老五对: the 百搭 whose discard awaits 打 / 留
    warnings: NotRequired[list[WarningView]]  #: 老三番 / 金湖 liability warnings
    fake_ting: NotRequired[bool]  #: 金湖: has declared 假听
    fake_ting_pending: NotRequired[bool]  #: 金湖: pressed 假听; its discard declares it
    bi_withheld: NotRequired[bool]  #: 字牌: 比牌 keeps the seat from a 吃 of the card now
    win_refused: NotRequired[dict]  #: the tile completes the hand but the rules refuse the win: ``why``, ``tile``, ``need``
    passed: NotRequired[list[str]]  #: 字牌 过张: kinds the seat may no longer take
    chi_options: NotRequired[list[ChiOptionView]]  #: 字牌: the 吃 choices now


class WildView(TypedDict):
    """The wild tiles of the hand (财神麻将 财神, 老五对 百搭)."""

    indicator: str  #: the turned tile that made them wild
    kinds: list[str]  #: the wild kinds
    stand_in: NotRequired[str | None]  #: 财神麻将: 白板, which plays as the 财神's kind
    stands_for: NotRequired[str]  #: 财神麻将: the kind 白板 plays as
    indicator_in_wall: NotRequired[bool]  #: 财神麻将: the turned tile is still in the wall


#: 字牌: the card shown in the middle of the table (``"from"``: ``"deal"``, ``"stock"`` or
#: ``"discard"``; ``waiting``: a claim window is open on it)
ShownView = TypedDict("ShownView", {"seat": int, "tile": str, "card": str, "from": str, "waiting": bool})


class MarkedView(TypedDict):
    """Kinds the game marks on every tile image (金湖's 贼 tiles)."""

    kinds: list[str]
    label: str


# ---------------------------------------------------------------------------- results (a view holds one)
class CountItem(TypedDict):
    """One item of a winner's point count (:class:`Count`): a set, group or pair of the hand,
    the wait, the flowers, a self-draw … and the points it is worth."""

    item: str  #: what it is: a key of the game's catalogue section ``result.item`` (pung, chow, kan …)
    value: int
    tiles: list[str]  #: the tiles (cards) it is made of; empty for a self-draw


class Count(TypedDict):
    """A winner's point count item by item (老三番 胡, 字牌 胡息, 老五对 对)."""

    name: str  #: which count: a key of the game's catalogue section ``result.count``
    value: int  #: the count (the items' sum, unless the game counts otherwise: 字牌 毛胡)
    items: list[CountItem]


class Calc(TypedDict):
    """How a win's total was reached, as numbers for the game's own words: ``key`` names the
    formula (a key of the game's catalogue section ``result.calc``, else of the shared one);
    every other key is an int, a placeholder of those words (``hu``, ``fan``, ``total`` …).
    ``total`` is what one payment is made of before per-payment factors."""

    key: str
    total: int


class Cap(TypedDict):
    """A cap that was applied: ``item`` (a key of the game's catalogue section ``result.cap``:
    ``fan``, ``total``, ``multiplier``) would have been ``uncapped`` and counts ``value``."""

    item: str
    uncapped: int
    value: int


class Liability(TypedDict):
    """Why a seat pays for others (老三番 三摊, 金湖 包五家)."""

    seat: int  #: the liable seat
    reason: str  #: a key of the game's catalogue section ``result.liability``
    to: int  #: the winner it pays
    tile: str | None  #: the tile that made it liable


#: one payment of a settlement: ``from`` pays ``to`` ``points``; ``notes`` say why it differs
#: from the plain amount, each ``[key, n]`` with ``key`` in the game's catalogue section
#: ``result.note`` (庄家 ×2, 买庄 ×4, 飘 +2, 包五家 shares, 胡头 …)
Payment = TypedDict("Payment", {"from": int, "to": int, "points": int,
                                "notes": NotRequired[list[tuple[str, int]]]})


class Result(TypedDict):
    """``Hand.result`` once the hand is over: who won, how, and the points.  A result with a
    winner also has the keys of :class:`WinFacts`.  Front ends read it through
    ``outcome()`` of the table service."""

    winner: int | None  #: the (first) winner; ``None`` on an exhaustive draw
    winners: list[int]  #: every winner (several on one discard: 老五对 一炮多响); empty on a draw
    draw: bool  #: an exhaustive draw
    points: list[int]  #: signed points per seat, summing to 0
    dealer: int
    hands: list[list[str]]  #: every seat's concealed tiles at the end
    self_drawn: bool  #: 自摸 (False on a draw)
    discarder: int | None  #: the seat that dealt in (点炮), or whose added kong was robbed
    robbing_kong: NotRequired[bool]  #: won by robbing a kong (抢杠胡)
    shown_by: NotRequired[int | None]  #: 字牌: won on a card turned up by this seat's draw
    liable: NotRequired[int | None]  #: 老三番 三摊: the seat that pays for all
    baowu: NotRequired[int | None]  #: 金湖 包五家: the seat that pays five shares
    total_fan: NotRequired[int]  #: the count the payment is made of, where it differs from ``fan_total``
    fan_by_seat: NotRequired[dict[str, int]]  #: several winners: each one's fan (keys: seat as text)
    fans_by_seat: NotRequired[dict[str, list[FanItem]]]  #: several winners: each one's fans
    multiplier_rows: NotRequired[list[Row]]  #: factors shown beside the fans (加倍, 宝牌, 连庄 …)
    summary_rows: NotRequired[list[Row]]  #: the result's summary line (胡 26 · 番 1 · 120; 胡息 · 囤 …)
    payments: NotRequired[list[Payment]]  #: who paid whom (every payment of ``points``)
    count: NotRequired[Count]  #: the winner's point count item by item (老三番 胡, 字牌 胡息, 老五对 对)
    count_by_seat: NotRequired[dict[str, Count]]  #: several winners: each one's count
    calc: NotRequired[Calc]  #: how the winner's total was reached
    calc_by_seat: NotRequired[dict[str, Calc]]  #: several winners: each one's calc
    caps: NotRequired[list[Cap]]  #: the caps applied (三番为顶, 财神麻将's 40 …)
    liability: NotRequired[Liability]  #: why the liable seat pays for others
    money: NotRequired[list[int]]  #: 么半六 money rounding of ``points`` (a display option)
    next_dealer: NotRequired[int]  #: who deals next, where the game's rule is not "winner deals"
    match_updates: NotRequired[dict[str, Any]]  #: match-level facts carried to the next hand's context


class WinFacts(TypedDict):
    """The keys a result with a winner has besides those of :class:`Result`."""

    win_tile: str | None  #: the winning tile (字牌: the card won on, if any)
    fan_total: int  #: the winner's fan (or 胡息, 对 …, as the game counts)
    fans: list[FanItem]  #: the fans that made it (possibly empty: 财神麻将 counts specials)


class EventView(TypedDict):
    """``Event.to_json()``: something that happened, as the public sees it."""

    type: str
    seat: NotRequired[int]
    tile: NotRequired[str]


class View(TypedDict):
    """What ``viewer`` (a seat, or ``None``: the public) may see of a hand: the renderer's and
    the front ends' only input.  Nothing hidden from ``viewer`` is in it."""

    variant: str  #: the game's id
    seq: int  #: actions applied so far (buttons carry it)
    dealer: int
    turn: int | None  #: the seat on turn (``None`` once over)
    phase: str  #: ``"discard"``, ``"claim"``, ``"rob"``, ``"over"``, or the game's own (opening, piao)
    pending: list[int]  #: seats whose decision the hand waits for
    wall_remaining: int
    dice: list[int]  #: the two dice of the deal (empty where the game throws none)
    last_discard: DiscardRef | None  #: the tile a claim window is open on
    rob: DiscardRef | None  #: the added tile that may be robbed (phase ``"rob"``)
    seats: list[SeatView]
    viewer: int | None
    #: the settlement once over: a :class:`Result` (built as a plain dict by the games; its shape
    #: is checked by ``engine.shape_check`` in the conformance tests)
    result: dict | None
    me: MeView | None  #: the viewer's own part (``None`` for the public)
    treasure: NotRequired[str | None]  #: 二人麻将 宝牌
    wild: NotRequired[WildView]  #: the wild tiles (财神麻将, 老五对)
    shown: NotRequired[ShownView | None]  #: 字牌: the shown card
    marked: NotRequired[MarkedView]  #: 金湖: the 贼 tiles


#: keys of ``Hand.result`` read outside the engine (the same as :class:`Result` and
#: :class:`WinFacts` declare, in words)
RESULT_KEYS: dict[str, Any] = {
    "points": "list[int], signed points per seat, summing to 0",
    "winner": "int | None: the (first) winner; None on an exhaustive draw",
    "winners": "list[int]: every winner (several: 一炮多响); empty on a draw",
    "discarder": "int | None: the seat that dealt in",
    "self_drawn": "bool",
    "robbing_kong": "bool, optional: won by robbing a kong",
    "shown_by": "int | None, optional: 字牌, won on a card turned up by this seat's draw",
    "liable": "int | None, optional: 老三番 三摊, the seat that pays for all",
    "baowu": "int | None, optional: 金湖 包五家, the seat that pays five shares",
    "win_tile": "str, notation",
    "fans": "list of [zh name, en name, value, count]",
    "fan_total": "int, the winner's fan (or 胡息/对 as the variant counts)",
    "total_fan": "int, optional: the count paid on, where it differs from fan_total",
    "fan_by_seat": "dict seat (text) -> fan, optional, with several winners",
    "fans_by_seat": "dict seat (text) -> fans, optional, with several winners",
    "multiplier_rows": "list of [zh name, en name, factor], optional: shown beside the fans",
    "summary_rows": "list of [zh name, en name, value], optional: the result's summary line "
                    "(e.g. 胡 26 · 番 1 · 120) instead of the fan total",
    "payments": "list of {from, to, points[, notes]}, optional: who paid whom",
    "count": "{name, value, items: [{item, value, tiles}]}, optional: the winner's 胡/胡息/对 item by item",
    "count_by_seat": "dict seat (text) -> count, optional, with several winners",
    "calc": "{key, total, …ints}, optional: the numbers of the formula that gave the total",
    "calc_by_seat": "dict seat (text) -> calc, optional, with several winners",
    "caps": "list of {item, uncapped, value}, optional: caps applied",
    "liability": "{seat, reason, to, tile}, optional: why the liable seat pays for others",
    "money": "list[int], optional: 么半六 money rounding of points",
    "next_dealer": "int, optional: who deals next when the variant's rule is not 'winner deals'",
    "match_updates": "dict, optional: match-level facts carried to the next hand's context",
}


# ---------------------------------------------------------------------------- the hand
@runtime_checkable
class Hand(Protocol):
    """One deal of one game, driven only by :meth:`apply`.

    Seats are 0..n-1 in turn order.  ``seq`` counts the actions applied (buttons carry it,
    so a click from an earlier turn is recognised as stale).  ``isinstance(hand, Hand)``
    checks that every member below exists.
    """

    n: int  #: number of seats
    seed: int  #: the seed the hand was dealt from
    dealer: int  #: seat of the dealer
    seq: int  #: actions applied so far
    turn: int  #: the seat on turn (or the last one, once over)
    phase: str  #: as ``view()["phase"]``
    context: dict  #: the match context it was dealt with (stored with the hand for replays)
    #: the settlement once over: a :class:`Result` (built as a plain dict by the games; its shape
    #: is checked by ``engine.shape_check`` in the conformance tests)
    result: dict | None
    events: list[Event]  #: every event so far (``.to_json()`` gives :class:`EventView` dicts)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now; ``str(action)`` is ``"<seat> <type> [<tile>]"``."""
        ...

    def apply(self, action: Action) -> list[Event]:
        """Apply one action and return the events it caused; raises ``IllegalAction`` with a
        message-catalogue ``code`` (state unchanged) when the rules refuse it."""
        ...

    def pending_seats(self) -> list[int]:
        """Seats whose decision the hand waits for (each has legal actions)."""
        ...

    def is_over(self) -> bool:
        """True once :attr:`result` holds the settlement."""
        ...

    def view(self, viewer: int | None = None, reveal: bool = False) -> View:
        """What ``viewer`` (``None``: the public) may see (:class:`View`), JSON-ready; the
        renderer's only input.  ``reveal=True`` (replays of finished hands) shows every hand
        face up."""
        ...

    def public_frame(self) -> tuple[View, int]:
        """``(view, events)``: what the channel may see now — the same whether or not a seat
        may claim the last tile (``engine/frames.py``): the public view without ``pending``
        and ``seq``, and how many of :attr:`events` it includes."""
        ...

    def timeout_action(self, seat: int) -> Action:
        """What happens for ``seat`` when its timer runs out (and under 托管)."""
        ...

    def timer_kind(self) -> str:
        """``"discard"`` or ``"claim"``: which table timeout applies now."""
        ...

    def ai_action(self, seat: int) -> Action:
        """The AI seat's choice (the game's declared ``VariantInfo.ai``)."""
        ...


__all__ = ["Hand", "pending_moves", "View", "SeatView", "MeView", "MeldView", "WaitView", "HintView", "WarningView",
           "ChiOptionView", "DiscardRef", "WildView", "ShownView", "MarkedView", "Result", "WinFacts",
           "CountItem", "Count", "Calc", "Cap", "Liability", "Payment",
           "EventView", "FanItem", "Row", "RESULT_KEYS"]


def pending_moves(hand: Hand, seat: int) -> tuple[list[Action], set[str]]:
    """An AI's first look at a pending seat: ``(hand.legal_actions(seat), their types)``.

    :raises ValueError: the seat has nothing to do."""
    legal = hand.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    return legal, {a.type for a in legal}
