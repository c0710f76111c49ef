"""A finished hand replayed from one seat's view, and the frames of an animated hand — built
from the stored action log, step by step, through the live game's own views.

Every view before the hand's end comes from :func:`service.publish.build`, the code that
builds the live table's snapshots: the hand is rebuilt action by action in a :class:`Table`
made for it (the stored seats, the hand's decisions noted as the table service notes them),
and a step's public view is the snapshot's public part (the public frame, as the channel saw
it live), a seat's view that seat's part (the public table plus exactly what that seat saw:
its own tiles, and the real table when the hand waited for it).  No second privacy rule: a
concealed tile is hidden here exactly where the live table hid it.  At the end (the hand
over) every hand is shown face up, as ``/mj replay`` always shows it.

A seat's *decisions* are its actions in the log: before each, what it had (its concealed
tiles and drawn tile), its legal moves (what its panel offered), what it chose, and what it
could have claimed or done but let go (:attr:`Decision.passed`).

Errors for users are :class:`service.tables.ServiceError`: ``seatview.no_seat`` (no such
seat in that hand), ``seatview.not_yours`` (a seat's view asked by someone who did not sit
there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Optional

from engine.actions import ACTION_TYPES, DISCARD, PASS, Action
from engine.variants import find_variant
from store import HandRecord

from .publish import build
from .snapshot import Move, TableSnapshot
from .table import HIDDEN_EVENTS, OPENING_PHASES, PLAYING, WINDOW_PHASES, Decisions, Seat, ServiceError, Table, public_log

#: public events kept in a step's log
LOG = 6
#: action types that never count as "something else it could have done" (the plain turn and
#: the plain pass)
PLAIN = frozenset({DISCARD, PASS})
#: on its own turn, the moves it let go that count: the shared ones (胡, 杠, 听, 加倍 …) — a
#: game's own moves open at every turn (金湖's 假听) would only be noise
OWN_TURN = frozenset(ACTION_TYPES) - PLAIN


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: the action at index ``index`` of the log was its.

    :ivar hand: its concealed tiles then (notation, as its view listed them).
    :ivar drawn: the tile it had just drawn (``None``: none).
    :ivar legal: its legal moves then, as its panel offered them.
    :ivar chose: the move it made.
    :ivar passed: the moves of other kinds it could have made and did not, one per kind of
        action (the first of its kind), in the order the hand listed them: on a tile open to
        claim and in an opening choice every other kind; on its own turn the shared ones
        (:data:`OWN_TURN`: 胡, 杠, 听, 加倍 …); the plain discard and pass never count.
    :ivar tile: the tile the decision was about when a discard (or a kong to rob) was open to
        claim (``None`` on its own turn).
    :ivar since: the step from which the hand waited for this decision (``index`` or earlier:
        another seat in the same window acted first)."""

    index: int
    hand: tuple[str, ...]
    drawn: Optional[str]
    legal: tuple[Move, ...]
    chose: Move
    passed: tuple[Move, ...]
    tile: Optional[str] = None
    since: Optional[int] = None


def decision_of(index: int, me: Mapping[str, Any], chose: Action, open_tile: Optional[str], own_turn: bool,
                since: Optional[int] = None) -> Decision:
    """The :class:`Decision` of the seat whose view's ``me`` is ``me`` and who chose ``chose``
    (the log's action ``index``); ``open_tile``: the tile open to claim, if any; ``own_turn``:
    the seat's own turn (neither a claim nor an opening choice)."""
    legal = tuple(Move.of(Action.parse(line)) for line in me.get("legal") or ())
    move = Move.of(chose)
    passed: list[Move] = []
    kinds = {move.type}
    for m in legal:
        if m.type in PLAIN or m.type in kinds or (own_turn and m.type not in OWN_TURN):
            continue
        kinds.add(m.type)
        passed.append(m)
    return Decision(index, tuple(me.get("hand") or ()), me.get("drawn"), legal, move, tuple(passed), open_tile,
                    index if since is None else since)


def check_seat(record: HandRecord, seat: int, user_id: Optional[int], own: bool = True) -> None:
    """Refuse a seat's view of a stored hand: ``seatview.no_seat`` (no such seat, 0-based);
    with ``own``, ``seatview.not_yours`` unless ``user_id`` sat in ``seat`` (another player's
    or an AI seat: a GIF posted in the channel from a seat's view is its player's to ask)."""
    if not 0 <= seat < len(record.seats):
        raise ServiceError("seatview.no_seat", hand=record.id, seat=seat + 1, seats=len(record.seats))
    if not own:
        return
    owner = (record.seats[seat] or {}).get("user_id")
    if owner is None or user_id is None or int(owner) != int(user_id):
        raise ServiceError("seatview.not_yours", seat=seat + 1)


def seat_names(record: HandRecord) -> list[str]:
    return [str(s.get("name", "?")) for s in record.seats]


def _table(record: HandRecord) -> Table:
    """A table holding the stored hand's seats, as the live table held them."""
    info = find_variant(record.variant)
    t = Table(record.table_id, 0, 0, 0, info, dict(record.options), record.seed, status=PLAYING)
    t.seats = [Seat(s.get("user_id"), str(s.get("name", "?")), is_ai=s.get("user_id") is None)
               for s in record.seats]
    t.dealt_users = [s.get("user_id") for s in record.seats]
    t.hand_id = record.id
    return t


def _lang_of(_user: Optional[int]) -> Optional[str]:
    return None


@dataclass(frozen=True)
class Step:
    """One step of a replay: after the log's first ``step`` actions.

    :ivar public: the public view (the live table's, the channel's) — every hand face up
        once the hand is over.
    :ivar seat: the seat's view (``None`` without a seat) — face up at the end.
    :ivar moved: the public table changed with this step's action (a move the channel saw).
    :ivar action: the action that led here (``None`` at the deal).
    :ivar waiting: the hand waits for the seat's decision here."""

    step: int
    public: dict
    seat: Optional[dict]
    moved: bool
    action: Optional[Action]
    waiting: bool = False


def _revealed(hand: Any, record: HandRecord, viewer: Optional[int]) -> dict:
    """The finished hand's view, every hand face up (as ``/mj replay`` shows it)."""
    v: dict[str, Any] = dict(hand.view(None, reveal=True))
    names = seat_names(record)
    v["seats"] = [dict(sv, name=names[sv["seat"]]) for sv in v["seats"]]
    v["viewer"] = viewer
    v["game"] = find_variant(record.variant).facts
    v["recent"] = [e.to_json() for e in hand.events if e.type not in HIDDEN_EVENTS][-8:]
    return v


def _plain(view: Any) -> dict:
    """A snapshot's frozen view as a plain dict (its top level), for the images."""
    return dict(view)


def steps(record: HandRecord, seat: Optional[int] = None, upto: Optional[int] = None) -> Iterator[Step]:
    """The steps of a stored hand from the deal to step ``upto`` (all when ``None``), each
    built by the live snapshot code (see the module docstring); ``seat``: also that seat's
    view (0-based)."""
    info = find_variant(record.variant)
    t = _table(record)
    context = dict(getattr(record, "context", None) or {})
    hand = info.new_hand(record.options, record.seed, record.dealer, len(record.seats), context)
    t.hand = hand
    t.decisions = Decisions()
    t.decisions.note(hand, None)
    t.recent = public_log(hand)
    total = len(record.actions) if upto is None else min(upto, len(record.actions))
    version = 0
    before: Optional[TableSnapshot] = None
    action: Optional[Action] = None
    for step in range(total + 1):
        if step:
            action = Action.parse(record.actions[step - 1])
            hand.apply(action)
            t.decisions.note(hand, action.seat)
            t.recent = public_log(hand)
        if hand.is_over():
            t.last_result = dict(record.result or hand.result or {})
        version += 1
        snap = t.snapshot = build(t, version, _lang_of, {action.seat} if action is not None else set())
        moved = before is None or snap.public.view != before.public.view
        before = snap
        if hand.is_over():
            public = _revealed(hand, record, None)
            own = _revealed(hand, record, seat) if seat is not None else None
        else:
            public = _plain(snap.public.view)
            part = snap.parts[seat] if seat is not None else None
            own = None if seat is None else (_plain(part.view) if part is not None else dict(public, viewer=seat))
        for v in (public, own):
            if v is not None:
                v["hand_no"] = record.hand_no  # the stored hand's number (no match is rebuilt)
        yield Step(step, public, own, moved, action, seat is not None and seat in t.pending())


def _drawn(view: Optional[dict]) -> Optional[dict]:
    """What of a seat's view the table image shows: all but its ``me`` (hints, legal moves)."""
    return None if view is None else {k: v for k, v in view.items() if k != "me"}


@dataclass(frozen=True)
class Frame:
    """One frame of an animated hand: the view after the log's first ``step`` actions and
    its kind — ``"deal"``, ``"move"`` (a discard), ``"claim"`` (any other move: a claim, a
    kong, an opening choice …) or ``"result"`` (the end, every hand face up)."""

    step: int
    kind: str
    view: dict


def frames(record: HandRecord, seat: Optional[int] = None) -> list[Frame]:
    """The frames of a stored hand, move by move: the deal, then one frame each time the table
    changed as it was shown live — the public table (``seat`` ``None``: a pass, a window nobody
    took, a 假听 before its discard show nothing new, as they showed nothing to the channel),
    or ``seat``'s view (the windows it was asked in too; not what only its hints say) — and the result
    for the last action.  Views as :func:`steps` builds them."""
    total = len(record.actions)
    out: list[Frame] = []
    last: Optional[dict] = None
    for st in steps(record, seat):
        view = st.public if seat is None else st.seat
        assert view is not None
        if st.step == 0:
            out.append(Frame(0, "deal", view))
        elif st.step == total:
            out.append(Frame(st.step, "result", view))
        elif st.moved if seat is None else _drawn(view) != _drawn(last):
            kind = "move" if st.action is not None and st.action.type == DISCARD else "claim"
            out.append(Frame(st.step, kind, view))
        last = view
    return out


def decisions(record: HandRecord, seat: int) -> list[Decision]:
    """Every decision of ``seat`` in a stored hand, in order (see :class:`Decision`)."""
    info = find_variant(record.variant)
    context = dict(getattr(record, "context", None) or {})
    hand = info.new_hand(record.options, record.seed, record.dealer, len(record.seats), context)
    out = []
    since: Optional[int] = None  # the step from which the hand has waited for the seat
    for i, line in enumerate(record.actions):
        a = Action.parse(line)
        waiting = seat in hand.pending_seats()
        since = (i if since is None else since) if waiting else None
        if a.seat == seat:
            v = hand.view(seat)
            open_tile = None
            phase = v.get("phase")
            if phase in WINDOW_PHASES:
                open_on: Any = v.get("rob") or v.get("last_discard") or {}
                open_tile = open_on.get("tile") if isinstance(open_on, dict) else None
            own_turn = phase not in WINDOW_PHASES and phase not in OPENING_PHASES
            out.append(decision_of(i, v.get("me") or {}, a, open_tile, own_turn, since))
            since = None  # what follows its own move is a new decision
        hand.apply(a)
    return out


def decision_at(found: list[Decision], step: int, pending: bool) -> Optional[Decision]:
    """The decision shown at ``step`` (after ``step`` actions): the one the hand waits for
    there (``pending``: it waits for the seat; from :attr:`Decision.since` to its action),
    else ``None`` — also when the hand went on before the seat decided (a window another
    seat's claim closed)."""
    if not pending:
        return None
    return next((d for d in found if (d.since if d.since is not None else d.index) <= step <= d.index), None)


__all__ = ["Decision", "Frame", "frames", "Step", "steps", "decisions", "decision_at", "decision_of", "check_seat", "seat_names"]
