"""Building the snapshot of a table after a change (``service/snapshot.py`` says what it holds).

:func:`build` is called by the table service under the table's lock, once per accepted
change.  It asks the engine for the hand's public frame once when the hand moved (none when
the frame the engine keeps did not move), and for a seat's view only when that seat's part
may have changed: every seat when the public frame moved (each part shows it) or a decision
began (the hand went on, by itself too, behind the frame: a window closed and the next seat
drew), else — a pass in a window still open — the seats that passed (:class:`ViewCache`).
A seat outside these keeps its last view: nothing of its own moved, and the public frame it
shows did not either.  Every part equal to the last one is kept as that very object, with its
version: a front end redraws a message only when its part's version moved.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Callable, Mapping, Optional

from engine.protocol import Hand

from engine.actions import Action

from .snapshot import (EMPTY, Move, PublicPart, SeatInfo, SeatPart, TableSnapshot, freeze, FrozenDict, refreeze)
from .table import HIDDEN_EVENTS, LOBBY, OPENING_PHASES, WINDOW_PHASES, Table

#: public events the table log keeps in a snapshot
RECENT = 8


class ViewCache:
    """The engine views of a table's current hand: its public frame at the hand's action
    counter (frozen), and each seat's last view.  A seat's view is asked again only when the
    hand moved and the public frame moved with it (every part shows it), or the seat took part
    in the change or the hand waits (waited) for it, or a decision began (the hand went on);
    otherwise its last view stands — a pass in a window still open (see the module docstring).  A seat's view is kept as the engine gave it (nothing here changes it)
    and frozen in the pieces a part shows, each once: all of it for a seat the hand waits
    for, its ``me`` for the others."""

    __slots__ = ("hand", "seq", "raw_frame", "frame", "seats", "pieces", "old")

    def __init__(self, hand: Hand):
        self.hand = hand
        self.seq = hand.seq
        self.raw_frame: Mapping[str, Any] = {}
        self.frame: tuple = ()
        self._take_frame(hand.public_frame())
        self.seats: dict[int, Mapping[str, Any]] = {}
        #: (seat, piece) → (the piece as the engine gave it, frozen); ``old``: the same of the
        #: views asked before, whose frozen parts a new view shares where it is equal
        self.pieces: dict[tuple, tuple] = {}
        self.old: dict[tuple, tuple] = {}

    def _take_frame(self, frame: tuple[Mapping[str, Any], int]) -> bool:
        """Keep the engine's frame; ``True`` when it is another than the one kept."""
        view, n = frame
        if view is self.raw_frame and self.frame and n == self.frame[1]:
            return False
        frozen = refreeze(view, self.raw_frame, self.frame[0] if self.frame else None)
        moved = not self.frame or frozen is not self.frame[0] or n != self.frame[1]
        self.raw_frame = view
        self.frame = (frozen, n)
        return moved

    def moved(self, hand: Hand, touched: AbstractSet[int], went_on: bool = False) -> None:
        """The hand may have moved since: forget what it changed.  ``touched``: the seats the
        change concerned (who acted, whom an event names, whose decision began or ended);
        ``went_on``: a decision began — the hand went on, by itself too (a window closed and
        the next seat drew behind the public frame), which may change what any seat sees of
        its own (二人麻将's waits left to a ready player, 字牌's passed cards)."""
        if hand.seq == self.seq:
            return
        if self._take_frame(hand.public_frame()) or went_on:
            forget = set(self.seats)  # every seat's part shows it, or may
        else:
            forget = set(touched) & set(self.seats)  # passes in a window still open
        for s in forget:
            del self.seats[s]
        if forget:
            self.old.update((k, v) for k, v in self.pieces.items() if k[0] in forget)
            self.pieces = {k: v for k, v in self.pieces.items() if k[0] not in forget}
        self.seq = hand.seq

    def public(self) -> tuple:
        """``(frozen public frame, its number of events)``."""
        return self.frame

    def seat(self, seat: int) -> Mapping[str, Any]:
        """The seat's view as the engine gave it (read only)."""
        v = self.seats.get(seat)
        if v is None:
            v = self.seats[seat] = self.hand.view(seat)
        return v

    def piece(self, seat: int, key: Any, make: Callable[[], Any]) -> Any:
        """A frozen piece of the seat's view (``make()`` once per view; what equals the same
        piece of the seat's previous view is shared with it)."""
        k = (seat, key)
        got = self.pieces.get(k)
        if got is None:
            raw = make()
            before = self.old.pop(k, None)
            got = self.pieces[k] = (raw, freeze(raw) if before is None else refreeze(raw, *before))
        return got[1]


def views_of(t: Table, touched: AbstractSet[int] = frozenset()) -> Optional[ViewCache]:
    """The table's view cache for its current hand (made anew for a new hand; ``touched``:
    the seats a change concerned, see :class:`ViewCache`)."""
    if t.hand is None:
        return None
    cache = t.view_cache
    if cache is None or cache.hand is not t.hand:
        cache = t.view_cache = ViewCache(t.hand)
    else:
        before = t.snapshot
        was = {p.seat: p.decision for p in (before.parts if before is not None else ()) if p is not None}
        now = {s: (t.hand_id, t.decision(s)) for s in t.pending()}
        began = {s for s in now if was.get(s) != now[s]}
        ended = {s for s in was if was[s] is not None and now.get(s) != was[s]}
        cache.moved(t.hand, set(touched) | began | ended, went_on=bool(began))
    return cache


def _seat_overlay(t: Table) -> list[dict]:
    """Per seat, what the table adds to the engine's seat view: name, AI, 托管, score, level
    (a finished hand whose seat another player took since shows who played it)."""
    scores = t.scores()
    played = t.hand_names() if t.hand is not None else t.names()
    totals = (t.match.state.get("player_totals") or {}) if t.match is not None else {}
    out = []
    for i, s in enumerate(t.seats):
        if played[i] != s.name:
            was_ai = t.dealt_users[i] is None if i < len(t.dealt_users) else s.is_ai
            key = f"ai:{played[i]}" if was_ai else f"u{t.dealt_users[i]}"
            out.append({"name": played[i], "is_ai": was_ai, "auto": False, "score": totals.get(key, 0)})
            continue
        extra = {"name": s.name, "is_ai": s.is_ai, "auto": s.auto, "score": scores[i] if i < len(scores) else 0}
        if s.is_ai:
            extra["ai_level"] = s.level
        out.append(extra)
    return out


def _recent(t: Table, upto: Optional[int]) -> list[dict]:
    """The table log: public events of the hand up to event ``upto`` (the frame's), and the
    table's own events, the last :data:`RECENT`."""
    out = []
    for e in t.recent:
        n = e.get("_n")
        if n is not None and upto is not None and n >= upto:
            continue
        out.append({k: v for k, v in e.items() if k != "_n"} if n is not None else e)
    return out[-RECENT:]


def _last_out(hand: Any, upto: int) -> Optional[dict]:
    for e in reversed(hand.events[:upto]):
        if e.type == "discard":
            j = e.to_json()
            return {"seat": j.get("seat"), "tile": j.get("tile")}
    return None


def _table_keys(t: Table, upto: Optional[int]) -> dict:
    """The table's own keys of every view of a snapshot."""
    hand_no = 0
    if t.match is not None:
        hand_no = t.match.hand_no + (0 if t.hand is None or t.hand.is_over() else 1)
    return {
        "table_id": t.id, "hand_no": hand_no, "match_hands": t.match_hands,
        "min_players": t.variant.min_players, "max_players": t.variant.max_players, "status": t.status,
        "recent": _recent(t, upto), "votes": t.open_votes(), "seed_hash": t.seed_hash(),
        "auto_play_ai": t.auto_play_level(), "game": t.variant.facts,
        "table_name": f"#{t.channel_name}" if t.channel_name else None,
    }


def _lobby_view(t: Table) -> dict:
    return {"variant": t.variant.id, "phase": "lobby" if t.status == LOBBY else "between", "seats":
            [{"seat": i, "name": s.name, "is_ai": s.is_ai} for i, s in enumerate(t.seats)],
            "viewer": None, "me": None, "result": t.last_result, "last_out": None}


def public_view(t: Table, cache: Optional[ViewCache]) -> FrozenDict:
    """The public view of a snapshot, frozen: the hand's public frame with the table's names,
    scores and marks; ``to_act``: the seats the table publicly waits for."""
    if cache is None:
        v, upto = dict(freeze(_lobby_view(t))), None
    else:
        frame, upto = cache.public()
        v = dict(frame)
        v["last_out"] = freeze(_last_out(t.hand, upto))
    v["seats"] = tuple(FrozenDict({**sv, **extra}) for sv, extra in zip(v["seats"], _seat_overlay(t)))
    v.update(freeze(_table_keys(t, upto)))
    phase = v.get("phase")
    shown = v.get("shown")
    if isinstance(shown, dict) and "waiting" in shown:
        v["shown"] = FrozenDict({k: x for k, x in shown.items() if k != "waiting"})
    if phase in WINDOW_PHASES:  # a frame never is; kept for a game that does not mark one
        v["turn"] = None
    if t.hand is None or t.hand.is_over():
        v["to_act"] = ()
    elif phase in OPENING_PHASES:
        v["to_act"] = tuple(range(len(t.seats)))
    elif phase not in WINDOW_PHASES and v.get("turn") is not None:
        v["to_act"] = (v["turn"],)
    else:
        v["to_act"] = ()
    v["lang"] = t.lang
    return FrozenDict(v)


#: the keys a waited-for seat's view takes from the public one (the table's own)
TABLE_KEYS = ("recent", "votes", "seed_hash", "auto_play_ai", "game", "table_name", "table_id", "hand_no",
              "match_hands", "min_players", "max_players", "status", "last_out", "to_act")


def _seat_view(t: Table, cache: ViewCache, seat: int, public: FrozenDict, lang: str) -> FrozenDict:
    """A human seat's view, frozen: the real table when the hand waits for it, else the public
    one with its own seat as it is (its tiles, its face-down groups, its opening choice), the
    concealed hand of a seat the rules let it see (二人麻将's 听), and ``me``."""
    own = cache.seat(seat)
    pending = seat in t.pending()
    if pending:
        v = dict(cache.piece(seat, "all", lambda: {k: x for k, x in own.items() if k not in ("seq", "pending")}))
        v["seats"] = tuple(FrozenDict({**pub, **mine}) for pub, mine in zip(public["seats"], v["seats"]))
        for k in TABLE_KEYS:
            v[k] = public.get(k)
        if v.get("phase") in WINDOW_PHASES:
            v["turn"] = None
    else:
        v = dict(public)
        seats = []
        for i, (pub, mine) in enumerate(zip(public["seats"], own["seats"])):
            if i == seat:
                seats.append(FrozenDict({**pub, **cache.piece(seat, i, lambda: mine)}))
            elif mine.get("concealed") is not None and pub.get("concealed") is None:
                seats.append(FrozenDict({**pub, "concealed": cache.piece(seat, i, lambda: mine["concealed"])}))
            else:
                seats.append(pub)
        v["seats"] = tuple(seats)
    v["me"] = cache.piece(seat, "me", lambda: own.get("me"))
    v["viewer"] = seat
    v["pending"] = (seat,) if pending else ()
    v["lang"] = lang  # as the player's language is kept (the images read any of its forms)
    return FrozenDict(v)


def _part(t: Table, cache: Optional[ViewCache], seat: int, public: FrozenDict, lang: str, version: int,
          before: Optional[SeatPart]) -> SeatPart:
    s = t.seats[seat]
    assert s.user_id is not None  # a seat with a part is a player's
    dealt = t.dealt_to(seat)
    moves: tuple[Move, ...] = ()
    decision: Optional[tuple[int, int]] = None
    deadline: Optional[int] = None
    if cache is None or not dealt:
        view = FrozenDict({**public, "viewer": seat, "me": None, "pending": (), "lang": lang})
    else:
        view = _seat_view(t, cache, seat, public, lang)
        if seat in t.pending() and not s.auto:
            moves = tuple(Move.of(Action.parse(line)) for line in (view.get("me") or {}).get("legal") or ())
            number = t.decision(seat)  # (none only for a table not built by the service: tests)
            decision = (t.hand_id, number) if t.hand_id is not None and number is not None else None
            deadline = t.deadline_unix()
    picture = version
    if before is not None and before.view == view:
        view, picture = before.view, before.picture
    part = SeatPart(seat=seat, user_id=s.user_id, version=version, picture=picture, view=view, moves=moves,
                    decision=decision, deadline=deadline, lang=lang, auto=s.auto, dms_open=s.dms_open, dealt=dealt)
    if before is not None and _same_part(before, part):
        return before
    return part


def _same_part(a: SeatPart, b: SeatPart) -> bool:
    return (a.view is b.view and a.user_id == b.user_id and a.moves == b.moves and a.decision == b.decision
            and a.deadline == b.deadline and a.lang == b.lang and a.auto == b.auto and a.dms_open == b.dms_open
            and a.dealt == b.dealt)


def build(t: Table, version: int, lang_of: Callable[[Optional[int]], Optional[str]],
          touched: AbstractSet[int] = frozenset()) -> TableSnapshot:
    """The snapshot of ``t`` now, version ``version`` (see the module docstring); ``lang_of``
    gives a player's language (``None``: the table's); ``touched``: the seats the change
    concerned (who acted, who an event names, who must decide).  Read under the table's lock."""
    from .seats import free_seats

    before: Optional[TableSnapshot] = t.snapshot
    cache = views_of(t, touched)
    view = pub = public_view(t, cache)
    result = freeze(t.last_result) if t.last_result is not None else None
    public = PublicPart(version=version, view=view, names=tuple(t.hand_names()), result=result,
                        joinable=t.status != LOBBY and bool(free_seats(t, frozenset(q["seat"] for q in t.queue))),
                        takeover=any(s.auto and not s.is_ai for s in t.seats),
                        next_hand=t.hand is not None and t.hand_over)
    if before is not None and before.options == freeze(t.options):  # changed options: a new public part
        old = before.public
        if old.view == view:
            public = PublicPart(version=old.version, view=old.view, names=public.names, result=public.result,
                                joinable=public.joinable, takeover=public.takeover, next_hand=public.next_hand)
            if (old.names, old.result, old.joinable, old.takeover, old.next_hand) == \
                    (public.names, public.result, public.joinable, public.takeover, public.next_hand):
                public = old
    parts: list[Optional[SeatPart]] = []
    for i, s in enumerate(t.seats):
        if s.is_ai and s.user_id is None:
            parts.append(None)
            continue
        lang = lang_of(s.user_id) or t.lang
        prev = before.parts[i] if before is not None and i < len(before.parts) else None
        if prev is not None and prev.user_id != s.user_id:
            prev = None
        parts.append(_part(t, cache, i, pub, lang, version, prev))
    seats = tuple(SeatInfo(seat=i, name=s.name, user_id=s.user_id, is_ai=s.is_ai, auto=s.auto, left=s.left,
                           ai_level=s.level if s.is_ai else None, dms_open=s.dms_open, dealt=t.dealt_to(i))
                  for i, s in enumerate(t.seats))
    final = t.status == "closed" and t.match_id is not None and t.last_result is not None \
        and t.hand is not None and t.hand.is_over()
    return TableSnapshot(version=version, table_id=t.id, guild_id=t.guild_id, channel_id=t.channel_id,
                         creator_id=t.creator_id, status=t.status, lang=t.lang, game=t.variant.facts,
                         options=freeze(t.options), public=public, seats=seats, parts=tuple(parts),
                         hand_id=t.hand_id, message_id=t.message_id, channel_name=t.channel_name,
                         match_id=t.match_id, final=final, lobby_minutes=t.lobby_minutes,
                         queue=freeze(list(t.queue)))


def public_events(events: list[dict]) -> tuple:
    """The public events of a change, frozen (no passes, no timeouts, no bookkeeping keys)."""
    return tuple(freeze({k: v for k, v in e.items() if k != "_n"}) for e in events
                 if e.get("type") not in HIDDEN_EVENTS)


__all__ = ["build", "public_view", "public_events", "views_of", "ViewCache", "RECENT", "EMPTY"]
