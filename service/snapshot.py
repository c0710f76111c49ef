"""What the table service publishes: one deeply immutable :class:`TableSnapshot` per accepted
change, handed to the front ends with the :class:`Change` that made it.

The front ends (the Discord cogs, the local table, a web page) are functions of snapshots:
they never see the service's ``Table``, its lock or its hand.

* :class:`PublicPart` — what the channel may see: seats, names, scores, ponds, melds, the last
  discard, tiles left, votes, recent events, the result once over.  Its ``view`` is the hand's
  *public frame* (``engine/frames.py``): right after a discard it shows the discard and the
  next seat on turn, and nothing else until the next public decision, whether or not some seat
  may claim that discard.  A claim window therefore shows exactly what a discard nobody may
  claim shows: no deadline, no "claims" turn line, no wall one tile shorter, no flower drawn
  a moment earlier.  It carries no deadline at all (a seat's own deadline is in its part).
* :class:`SeatPart` — per human seat: the public part plus exactly what that seat may see —
  its hand, its legal moves as typed :class:`Move` values with a stable ``key`` (buttons and
  menus carry it), its decision ``(hand id, decision number)`` and deadline, its hints and
  warnings (in ``view["me"]``), its language and the table's.  A seat the hand waits for sees
  the real table (the discard it may claim, the card it may take); the others see the public
  frame with their own seat.
* :class:`~engine.facts.GameFacts` — the game facts the front ends need, resolved once.
* ``version`` — monotonic across restarts (the service's start number in the high bits):
  front ends compare versions, never digests of what they drew.

Every mapping is a :class:`FrozenDict` and every sequence a tuple (``freeze``): assigning fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional


from engine.actions import Action
from engine.facts import GameFacts
from engine.tiles import kind_str, parse_kind

class FrozenDict(dict):
    """A ``dict`` that refuses every change (``TypeError``), hashable: the mappings of a snapshot.

    A ``dict`` underneath, so it is built, read, compared and written as JSON at ``dict``'s
    speed; the ``frozendict`` package does the same but, on CPython 3.11 and later, in pure
    Python (ten times ``dict``'s cost to build)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a snapshot is immutable")

    # every change refused (one function for all: their signatures do not matter)
    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple:
        return (type(self), (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


#: the empty frozen mapping
EMPTY = FrozenDict()


def freeze(value: Any) -> Any:
    """A deeply immutable copy of a JSON-like value: dicts become :class:`FrozenDict`, lists and
    tuples tuples; a ``FrozenDict`` (frozen already) and everything else (strings, numbers, the
    game's facts) stay as they are."""
    kind = type(value)
    if kind is dict:
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if kind is list or kind is tuple:
        return tuple(freeze(v) for v in value)
    return value


def refreeze(value: Any, before: Any, frozen: Any) -> Any:
    """``freeze(value)``, reusing the frozen parts of ``frozen`` (``freeze(before)``) where
    ``value`` equals ``before``: a view that changed in one seat's pond is frozen anew there
    only, the rest shared with the previous snapshot.  (Comparing the engine's plain lists and
    dicts is done in C; freezing is not.)"""
    if frozen is None:
        return freeze(value)
    if value == before:
        return frozen
    kind = type(value)
    if kind is dict and type(before) is dict:
        return FrozenDict({k: refreeze(v, before.get(k), frozen.get(k) if k in before else None)
                           for k, v in value.items()})
    if (kind is list or kind is tuple) and type(before) in (list, tuple) and len(before) == len(value):
        return tuple(refreeze(v, b, f) for v, b, f in zip(value, before, frozen))
    return freeze(value)


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move of a seat: its action type and tile (notation, ``None`` without one).

    ``key`` (``"discard:5m"``, ``"pass:-"``) is what a button or a menu carries; ``text``
    (``"discard 5m"``) the move as the action log writes it, without the seat."""

    type: str
    tile: Optional[str] = None

    @property
    def key(self) -> str:
        return f"{self.type}:{self.tile or '-'}"

    @property
    def text(self) -> str:
        return self.type if self.tile is None else f"{self.type} {self.tile}"

    @property
    def kind(self) -> Optional[int]:
        """The tile's kind (``engine.tiles``), ``None`` without one."""
        return None if self.tile is None else parse_kind(self.tile)

    def action(self, seat: int) -> Action:
        """The engine's action of this move for ``seat``."""
        return Action(seat, self.type, self.kind)

    @classmethod
    def of(cls, action: Action) -> "Move":
        return cls(action.type, None if action.kind is None else kind_str(action.kind))

    @classmethod
    def from_key(cls, key: str) -> "Move":
        """The move a button's key names (``"discard:5m"``); ``ValueError`` when the tile is
        not one (the key is read as it came, it may be tampered with)."""
        act, _, tile = key.partition(":")
        if tile in ("", "-"):
            return cls(act)
        parse_kind(tile)  # raises ValueError / TileParseError
        return cls(act, tile)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as everybody may see it (the seat's occupant now)."""

    seat: int
    name: str
    user_id: Optional[int]
    is_ai: bool
    auto: bool = False  #: on 托管 (auto-play)
    left: bool = False  #: the player left the running game
    ai_level: Optional[str] = None  #: an AI seat's level
    dms_open: bool = True  #: the bot can DM the player
    dealt: bool = True  #: the current hand was dealt to this occupant (a late player waits)


@dataclass(frozen=True)
class PublicPart:
    """What the channel may see (see the module docstring).

    :ivar view: the public view the table image and its words are drawn from (engine
        ``View`` keys, the table's names, scores and marks merged; ``recent``: public events;
        ``game``: the :class:`GameFacts`).
    :ivar names: who played the hand, by seat.
    :ivar result: the settled result of the last hand (with ``names`` and ``seed``), or ``None``.
    :ivar joinable: a late player may sit down (a free seat).
    :ivar takeover: a seat of a human is on 托管.
    :ivar next_hand: the hand is over and settled (the **Next hand** moment).
    """

    version: int
    view: FrozenDict
    names: tuple[str, ...]
    result: Optional[FrozenDict] = None
    joinable: bool = False
    takeover: bool = False
    next_hand: bool = False


@dataclass(frozen=True)
class SeatPart:
    """One human seat's view of the table (see the module docstring).

    :ivar version: the snapshot version at which this part last changed; ``picture``: at which
        its ``view`` (what the panel image is drawn from) last changed.
    :ivar view: the public part's view with this seat's own tiles and ``me``.
    :ivar moves: the legal moves now (empty when the hand does not wait for the seat).
    :ivar decision: ``(hand id, decision number)`` the hand waits for from this seat, or
        ``None``; a button drawn for another decision is stale.
    :ivar deadline: Unix seconds of the decision's timeout, or ``None``.
    :ivar lang: the seat's language (its player's, else the table's).
    """

    seat: int
    user_id: int
    version: int
    picture: int
    view: FrozenDict
    moves: tuple[Move, ...] = ()
    decision: Optional[tuple[int, int]] = None
    deadline: Optional[int] = None
    lang: str = "zh-CN"
    auto: bool = False
    dms_open: bool = True
    dealt: bool = True

    @property
    def me(self) -> FrozenDict:
        """The seat's own part of the view (hand, drawn tile, waits, hint, warnings)."""
        return self.view.get("me") or EMPTY

    def move(self, key: str) -> Optional[Move]:
        """The legal move ``key`` names (``None``: no such move now)."""
        return next((m for m in self.moves if m.key == key), None)


@dataclass(frozen=True)
class TableSnapshot:
    """One table as the service published it after a change (see the module docstring).

    :ivar status: ``"lobby"``, ``"playing"`` or ``"closed"``.
    :ivar seats: one :class:`SeatInfo` per seat.
    :ivar parts: per seat, its :class:`SeatPart` (``None`` for an AI seat).
    :ivar match_id: the stored id of the match that ended with the table (its standings).
    :ivar final: the table closed after a settled hand: its result stays shown.
    """

    version: int
    table_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    lang: str
    game: GameFacts
    options: FrozenDict
    public: PublicPart
    seats: tuple[SeatInfo, ...]
    parts: tuple[Optional[SeatPart], ...]
    hand_id: Optional[int] = None
    message_id: Optional[int] = None
    channel_name: Optional[str] = None
    match_id: Optional[int] = None
    final: bool = False
    lobby_minutes: int = 15
    queue: tuple[FrozenDict, ...] = ()

    @property
    def closed(self) -> bool:
        return self.status == "closed"

    @property
    def hand_running(self) -> bool:
        """A hand is dealt and not over."""
        return self.hand_id is not None and self.public.view.get("phase") not in (None, "lobby", "between", "over")

    def seat_of(self, user_id: int) -> Optional[int]:
        """The seat of ``user_id``, ``None`` when not seated."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def part_of(self, user_id: int) -> Optional[SeatPart]:
        """The seat part of ``user_id`` (``None`` when not seated)."""
        seat = self.seat_of(user_id)
        return None if seat is None else self.parts[seat]

    def humans(self) -> list[SeatPart]:
        """The seat parts of the humans the current hand was dealt to (who has a panel)."""
        return [p for p in self.parts if p is not None and p.dealt]


@dataclass(frozen=True)
class Change:
    """An accepted change and the snapshot after it, as the front ends receive it.

    :ivar kind: ``"lobby"``, ``"start"``, ``"action"``, ``"hand_over"``, ``"match_over"``,
        ``"closed"``, ``"resume"`` (a restart), ``"redraw"`` (nothing changed in the game: a
        name or a message id).
    :ivar events: the public events of the change, in order (no passes, no timeouts).
    :ivar actor: the seat whose request caused it (it gets its answer directly).
    :ivar notices: per seat, catalogue keys to tell that seat only (``notice.ting_ignored``).
    :ivar prompt: seats that must decide anew (their panel first, and a notice).
    :ivar actions: the type of each action the change applied and stored, in order
        (``discard``, ``pung``, ``pass`` …; no seat, no tile): what a front end counts.
    """

    kind: str
    #: the table after the change (``None`` from a service nobody listens to)
    snapshot: Optional[TableSnapshot]
    events: tuple[FrozenDict, ...] = ()
    actor: Optional[int] = None
    notices: FrozenDict = EMPTY
    prompt: frozenset = frozenset()
    hand_id: Optional[int] = None
    match_id: Optional[int] = None
    actions: tuple[str, ...] = ()


__all__ = ["EMPTY", "freeze", "refreeze", "FrozenDict", "Move", "SeatInfo", "PublicPart", "SeatPart", "TableSnapshot", "Change"]
