"""Game records as files: a finished hand (or a match's hands) written as a versioned JSON
record, read back from an untrusted file, and checked by replaying every action through the
game's engine (``docs/records.md`` defines the format; ``docs/record.schema.json`` its
schema, :mod:`service.record_schema`).

Pure: no store, no Discord, no clock.  :func:`hand_entry` and :func:`record` build a record
from stored hands; :func:`parse` reads a file's bytes (size, JSON, format and version, schema,
game, options) and :func:`check` replays each hand and compares it with the stored result and
settlements.  Every refusal is a :class:`RecordRefused` with a catalogue code (words:
``record.refused.<code>``) and the facts that name what is wrong.

Privacy: a record names the players as they sat (display names, AI or not); it carries no
Discord ids — the hands' ``seat_users`` (the user id of each seat, kept in the match context of
the games whose 连庄 count is the player's) is left out, and the check proves the hand replays
without it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from engine.actions import Action
from engine.errors import OptionError
from engine.variants import find_variant
from engine.variant import VariantInfo

from .claims import claiming_seats
from .hands import settlement_records
from .record_schema import FORMAT, VERSION, Invalid, validate
from .records import wall_digest

#: the largest file an import reads, in bytes (2 MiB: a 100-hand match of four seats is
#: under 1 MiB; see docs/records.md)
MAX_BYTES = 2 * 1024 * 1024
#: context keys that name players by their Discord id (``service.streaks.SEAT_USERS``): not
#: exported, and refused in an imported record
PRIVATE_CONTEXT = ("seat_users",)
#: keys the table service adds to a game's result when it stores it (the seed, the seats that
#: claimed, the players' names); every other key of a stored result is the game's own
SERVICE_RESULT_KEYS = ("seed", "claimed_by", "names")
#: at most this many legal moves are named when an action is refused
SHOWN_LEGAL = 8
#: the deepest nesting of arrays and objects a record may have (the bot's records have at most
#: 9 levels; JSON itself reads about 1,000, which the store cannot write back)
MAX_DEPTH = 32
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


class RecordRefused(ValueError):
    """A record the bot does not accept: ``code`` (catalogue ``record.refused.<code>``) and
    ``params`` (numbers, ids and short texts, the same in every language)."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code + (" " + json.dumps(params, ensure_ascii=False, default=str) if params else ""))
        self.code = code
        self.params = params


@dataclass(frozen=True)
class CheckedHand:
    """One hand of a record that replayed to its stored result: its entry (the record's JSON
    object), the game, the hand as replayed (``hand``, an ``engine.protocol.Hand``), the events
    of the deal (``opening``) and those each action caused (``steps[i]``: action ``i``'s), as
    ``Event.to_json()`` dicts."""

    entry: dict
    game: VariantInfo
    hand: Any
    opening: tuple[dict, ...] = ()
    steps: tuple[tuple[dict, ...], ...] = ()

    @property
    def actions(self) -> int:
        """Actions replayed."""
        return len(self.steps)


@dataclass(frozen=True)
class Checked:
    """A record that passed every check: its JSON ``data`` and each hand replayed."""

    data: dict
    game: VariantInfo
    hands: tuple[CheckedHand, ...] = field(default_factory=tuple)

    @property
    def actions(self) -> int:
        """Actions replayed over every hand."""
        return sum(h.actions for h in self.hands)


# --------------------------------------------------------------------------- building


def _name(value: Any) -> str:
    """A player's name as a record holds it: at most 100 characters, each control character
    (a line break …, which the schema refuses) a space."""
    return _CONTROL.sub(" ", str(value))[:100]


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def hand_entry(*, hand_id: Optional[int], hand_no: int, variant: str, options: dict, seed: int, dealer: int,
               seats: Sequence[dict], context: dict, actions: Sequence[str], result: dict,
               settlements: Iterable[Any], ended_at: Optional[str] = None) -> dict:
    """One hand of a record (a JSON object) from a stored hand's columns: ``seats`` as stored
    (``{"name", "is_ai", "user_id"…}``; the user id is left out), ``settlements``
    ``SettlementRecord``-like objects or record settlement dicts.  Adds the wall's size and
    SHA-256 (dealt again from the seed); an option the game no longer declares is left out.
    ``variant`` must be a registered game (``KeyError``)."""
    info = find_variant(variant)
    declared = {o.name for o in info.options}  # one the game no longer has plays no part, and no import reads it
    options = {k: v for k, v in (options or {}).items() if k in declared}
    ctx = {k: v for k, v in (context or {}).items() if k not in PRIVATE_CONTEXT}
    tiles, digest = wall_digest(info.new_hand(dict(options), seed, dealer, len(seats), ctx))
    out: dict[str, Any] = {}
    if hand_id is not None:
        out["id"] = hand_id
    out["hand_no"] = hand_no
    if ended_at is not None:
        out["ended_at"] = ended_at
    out.update(
        options=_plain(options), seed=seed, dealer=dealer,
        seats=[{"seat": i, "name": _name(s.get("name", "?")),
                "ai": bool(s.get("is_ai", s.get("ai", s.get("user_id") is None)))} for i, s in enumerate(seats)],
        context=_plain(ctx), actions=list(actions), result=_plain(result),
        settlements=[settlement_entry(s) for s in settlements],
        wall={"tiles": tiles, "sha256": digest},
    )
    return out


def settlement_entry(s: Any) -> dict:
    """A record's settlement from a ``SettlementRecord`` (or a record settlement, unchanged)."""
    if isinstance(s, dict):
        return dict(s, name=_name(s.get("name", "?")))
    return {"seat": s.seat, "name": _name(s.name), "ai": bool(s.is_ai), "points": int(s.points),
            "winner": bool(s.is_winner), "self_drawn": bool(s.self_drawn), "dealt_in": bool(s.dealt_in),
            "fan": s.fan}


def record(game: str, hands: Sequence[dict], match: Optional[dict] = None) -> dict:
    """A whole record: ``hands`` built by :func:`hand_entry`; with ``match`` (``{"id",
    "hands_planned", "hands_played", "started_at", "ended_at"}``) a match's record."""
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "kind": "match" if match is not None else "hand",
                           "game": game}
    if match is not None:
        out["match"] = {k: v for k, v in match.items() if v is not None}
    out["hands"] = list(hands)
    return out


def dumps(data: dict) -> bytes:
    """The file's bytes: UTF-8 JSON, one field a line (actions one a line), ending in a newline."""
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


# --------------------------------------------------------------------------- reading


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large for JSON's numbers")
    return value


def _too_deep(data: Any) -> Optional[str]:
    """The path (``hands/0/context/x/0/…``) of the first value nested deeper than
    :data:`MAX_DEPTH`, ``None`` when none is."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            if isinstance(item, (dict, list)):
                where = f"{path}/{key}" if path else str(key)
                if depth + 1 >= MAX_DEPTH:
                    return where
                stack.append((item, where, depth + 1))
    return None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"field {k!r} given twice")
        out[k] = v
    return out


def parse(raw: bytes) -> dict:
    """Read an untrusted file into a record, in this order: size (:data:`MAX_BYTES`), UTF-8
    JSON (no NaN, no number too large for a float, no lone surrogate escape, no key given
    twice), the format's name and version, the schema (:func:`service.record_schema.validate`,
    and nesting no deeper than :data:`MAX_DEPTH`), a registered game, each hand's options (each
    known, of its type and allowed; one the record does not name gets its default, in the
    returned record).

    :raises RecordRefused: ``too_big`` (``size``, ``limit``), ``not_json`` (``why``),
        ``not_a_record``, ``version`` (``version``, ``supported``), ``schema`` (``path``,
        ``why``), ``unknown_game`` (``game``), ``options`` (``hand``, ``why``)."""
    if len(raw) > MAX_BYTES:
        raise RecordRefused("too_big", size=len(raw), limit=MAX_BYTES)
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite,
                          object_pairs_hook=_unique_keys)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise RecordRefused("not_json", why=str(e)[:200]) from None
    try:  # "\ud800" is JSON's syntax but no character: nothing could write it out again as UTF-8
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as e:
        raise RecordRefused("not_json", why=f"a lone surrogate \\u{ord(e.object[e.start]):04x} is no character") from None
    except (ValueError, RecursionError) as e:
        raise RecordRefused("not_json", why=str(e)[:200]) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordRefused("not_a_record", format=FORMAT)
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise RecordRefused("version", version=str(data.get("version"))[:20], supported=VERSION)
    deep = _too_deep(data)
    if deep is not None:
        raise RecordRefused("schema", path=deep[:200], why=f"nested deeper than {MAX_DEPTH} levels")
    try:
        validate(data)
    except Invalid as e:
        raise RecordRefused("schema", path=e.path or "/", why=e.reason) from None
    try:
        info = find_variant(data["game"])
    except KeyError:
        raise RecordRefused("unknown_game", game=data["game"]) from None
    if info.id != data["game"]:  # an alias: the record names games by id
        raise RecordRefused("unknown_game", game=data["game"])
    for i, h in enumerate(data["hands"]):
        try:
            resolved = info.resolve_options(h["options"])
        except OptionError as e:
            raise RecordRefused("options", hand=i + 1, why=f"{e.code} {e.params.get('option', '')}".strip()) from None
        changed = sorted(k for k, v in h["options"].items() if resolved[k] != v or type(resolved[k]) is not type(v))
        if changed:
            raise RecordRefused("options", hand=i + 1, why="not of the option's type: " + ", ".join(changed))
        h["options"] = resolved  # an option the record does not name (a newer one) plays its default
    return data


# --------------------------------------------------------------------------- checking


def _diff(stored: Any, replayed: Any, limit: int = 120) -> str:
    def short(v: Any) -> str:
        text = json.dumps(v, ensure_ascii=False)
        return text if len(text) <= limit else text[:limit - 1] + "…"
    return f"stored {short(stored)}, replayed {short(replayed)}"


def _check_seats(i: int, h: dict, info: VariantInfo) -> int:
    n = len(h["seats"])
    if not info.min_players <= n <= info.max_players:
        raise RecordRefused("seats", hand=i, why=f"{n} seats; {info.id} plays {info.min_players}–{info.max_players}")
    if [s["seat"] for s in h["seats"]] != list(range(n)):
        raise RecordRefused("seats", hand=i, why="seats are not numbered 0, 1, … in order")
    if [s["seat"] for s in h["settlements"]] != list(range(n)):
        raise RecordRefused("seats", hand=i, why="one settlement per seat, in seat order")
    if h["dealer"] >= n:
        raise RecordRefused("seats", hand=i, why=f"dealer {h['dealer']} of {n} seats")
    if len(h["result"]["points"]) != n:
        raise RecordRefused("seats", hand=i, why=f"{len(h['result']['points'])} points for {n} seats")
    private = sorted(set(h["context"]) & set(PRIVATE_CONTEXT))
    if private:
        raise RecordRefused("seats", hand=i, why="context names players by id: " + ", ".join(private))
    return n


def _legal_text(hand: Any, seat: int) -> str:
    try:
        legal = [str(a) for a in hand.legal_actions(seat)]
    except Exception:  # noqa: BLE001 — an out-of-range seat of an untrusted file
        legal = []
    shown = ", ".join(legal[:SHOWN_LEGAL]) + (" …" if len(legal) > SHOWN_LEGAL else "")
    return shown or "—"


def replay_hand(i: int, h: dict, info: VariantInfo) -> CheckedHand:
    """Deal hand ``i`` (1-based, for the messages) of a record again and apply each action,
    each one first checked against the hand's legal moves; returns the finished hand with the
    events of each step (not yet compared with the stored result: :func:`compare`).

    :raises RecordRefused: ``deal`` (the seed, dealer and context deal no hand: ``why``),
        ``action_malformed`` / ``action_illegal`` (``hand``, ``index`` 0-based, ``action``,
        ``why``: who is to move, the legal moves of the seat), ``after_end``, ``unfinished``."""
    n = _check_seats(i, h, info)
    try:
        hand = info.new_hand(dict(h["options"]), h["seed"], h["dealer"], n, dict(h["context"]))
    except Exception as e:  # noqa: BLE001 — an untrusted context the game cannot deal from
        raise RecordRefused("deal", hand=i, why=f"{type(e).__name__}: {e}"[:200]) from None
    opening = tuple(e.to_json() for e in hand.events)
    steps = []
    for idx, text in enumerate(h["actions"]):
        try:
            action = Action.parse(text)
        except ValueError:
            action = None
        if action is None or str(action) != text:
            raise RecordRefused("action_malformed", hand=i, index=idx, action=text)
        if hand.is_over():
            raise RecordRefused("after_end", hand=i, index=idx, action=text)
        pending = list(hand.pending_seats())
        if action.seat not in pending:
            raise RecordRefused("action_illegal", hand=i, index=idx, action=text,
                                why=f"seat {action.seat} is not to move (waiting for seat "
                                    f"{', '.join(map(str, pending)) or '—'})")
        if action not in hand.legal_actions(action.seat):
            raise RecordRefused("action_illegal", hand=i, index=idx, action=text,
                                why=f"not a legal move now; legal: {_legal_text(hand, action.seat)}")
        before = len(hand.events)
        try:
            hand.apply(action)
        except Exception as e:  # noqa: BLE001 — the engine refused it after all
            raise RecordRefused("action_illegal", hand=i, index=idx, action=text,
                                why=getattr(e, "code", type(e).__name__)) from None
        steps.append(tuple(e.to_json() for e in hand.events[before:]))
    if not hand.is_over():
        raise RecordRefused("unfinished", hand=i, actions=len(h["actions"]))
    return CheckedHand(h, info, hand, opening, tuple(steps))


def compare(i: int, h: dict, hand: Any, info: VariantInfo) -> None:
    """The replayed ``hand`` against hand ``i``'s stored result, settlements and wall.

    :raises RecordRefused: ``result_differs`` (``hand``, ``key``, ``diff``),
        ``settlement_differs`` (``hand``, ``seat``, ``key``, ``diff``), ``wall_differs``."""
    replayed = _plain(hand.result)
    stored = h["result"]
    for key in sorted(set(replayed) | set(stored)):
        if key in SERVICE_RESULT_KEYS:
            continue
        if key not in stored or key not in replayed or stored[key] != replayed[key]:
            raise RecordRefused("result_differs", hand=i, key=key, diff=_diff(stored.get(key), replayed.get(key)))
    service_values = {"seed": h["seed"], "claimed_by": sorted(claiming_seats(hand))}
    for key, value in service_values.items():
        if key in stored and stored[key] != value:
            raise RecordRefused("result_differs", hand=i, key=key, diff=_diff(stored[key], value))
    names = stored.get("names")
    if names is not None and not (isinstance(names, list) and len(names) == len(h["seats"])
                                  and all(isinstance(x, str) and len(x) <= 100 for x in names)):
        raise RecordRefused("result_differs", hand=i, key="names", diff="not one name per seat")
    expected = settlement_records(replayed, [(None, s["name"], s["ai"]) for s in h["settlements"]])
    for got, want in zip(h["settlements"], expected, strict=True):
        for key, value in (("points", want.points), ("winner", want.is_winner), ("self_drawn", want.self_drawn),
                           ("dealt_in", want.dealt_in), ("fan", want.fan)):
            if got[key] != value or type(got[key]) is not type(value):
                raise RecordRefused("settlement_differs", hand=i, seat=got["seat"], key=key,
                                    diff=_diff(got[key], value))
    if "wall" in h:
        dealt = info.new_hand(dict(h["options"]), h["seed"], h["dealer"], len(h["seats"]), dict(h["context"]))
        tiles, digest = wall_digest(dealt)
        if [h["wall"]["tiles"], h["wall"]["sha256"]] != [tiles, digest]:
            raise RecordRefused("wall_differs", hand=i, diff=_diff(h["wall"], {"tiles": tiles, "sha256": digest}))


def check(data: dict) -> Checked:
    """Replay every hand of a parsed record (:func:`parse`) and compare it with what the record
    stores; a match's record must also hold as many hands as it says it played.

    :raises RecordRefused: the first problem (see :func:`replay_hand`, :func:`compare`;
        ``match`` when the match's count or kind does not fit its hands)."""
    info = find_variant(data["game"])
    hands = data["hands"]
    if data["kind"] == "hand" and (len(hands) != 1 or "match" in data):
        raise RecordRefused("match", why="a hand's record holds one hand and no match")
    if data["kind"] == "match":
        m = data.get("match")
        if m is None or m["hands_played"] != len(hands):
            raise RecordRefused("match", why=f"{len(hands)} hands, the match says "
                                             f"{m['hands_played'] if m else 'nothing'}")
        if m["hands_planned"] and m["hands_played"] > m["hands_planned"]:
            raise RecordRefused("match", why=f"{m['hands_played']} hands played of {m['hands_planned']} planned")
    numbers = [h["hand_no"] for h in hands]
    if any(b <= a for a, b in zip(numbers, numbers[1:])):
        raise RecordRefused("match", why="hand numbers do not increase: " + ", ".join(map(str, numbers[:10])))
    out = []
    for i, h in enumerate(hands, start=1):
        try:
            done = replay_hand(i, h, info)
            compare(i, h, done.hand, info)
        except RecordRefused:
            raise
        except Exception as e:  # noqa: BLE001 — an untrusted context the game chokes on later
            raise RecordRefused("deal", hand=i, why=f"{type(e).__name__}: {e}"[:200]) from None
        out.append(done)
    return Checked(data, info, tuple(out))


def read(raw: bytes) -> Checked:
    """:func:`parse` then :func:`check`: a file's bytes to a verified record."""
    return check(parse(raw))


__all__ = ["MAX_BYTES", "PRIVATE_CONTEXT", "SERVICE_RESULT_KEYS", "Checked", "CheckedHand", "RecordRefused", "check",
           "compare", "dumps", "hand_entry", "parse", "read", "record", "replay_hand", "settlement_entry"]
