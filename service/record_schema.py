"""The JSON Schema of a game record file (``docs/record.schema.json``, field by field in
``docs/records.md``) and the strict validator that applies it to an imported file.

The schema is written here, as data, and published as ``docs/record.schema.json`` by
``python -m service.record_schema`` (a test checks that the two are the same).  The bot checks
a file with :func:`validate`, an own validator of the part of JSON Schema (draft 2020-12) the
schema uses: ``type``, ``const``, ``enum``, ``required``, ``properties``,
``additionalProperties``, ``maxProperties``, ``items``, ``minItems``, ``maxItems``,
``minimum``, ``maximum``, ``minLength``, ``maxLength``, ``pattern`` and local ``$ref``
(``#/$defs/…``); annotations (``title``, ``description``, ``format`` …) are not checked.  A
schema keyword outside that list is refused when the validator is built
(:class:`SchemaProblem`), so the schema never says more than the bot checks.  Any other JSON
Schema validator gives the same verdict on a record.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Optional

#: the record format's name and version (``format``, ``version`` of every record)
FORMAT = "mahjong-bot-record"
VERSION = 1
#: where the schema is published
SCHEMA_FILE = Path(__file__).resolve().parents[1] / "docs" / "record.schema.json"

#: most hands in one record: a planned match has at most 100 (the option ``match_hands``), an
#: open-ended table's match as many as were played before it ended — the file's size
#: (``service.record_file.MAX_BYTES``) bounds it first (a 二人麻将 hand is about 3 kB)
MAX_HANDS = 1000
#: most actions of one hand (the longest AI play-outs have a few hundred)
MAX_ACTIONS = 5000
#: most seats of a hand (the games have 2–4)
MAX_SEATS = 8
_INT64 = {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}
#: a player's name as Discord allows it: no line break nor other control character (C0, DEL, C1)
_NAME = {"type": "string", "maxLength": 100, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"}
_TIME = {"type": "string", "format": "date-time", "maxLength": 40}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:mahjong-bot:record:1",
    "title": "Game record of the mahjong table bot (version 1)",
    "description": "A finished hand, or a whole match, with everything needed to replay and verify it: "
                   "docs/records.md defines each field.",
    "type": "object",
    "required": ["format", "version", "kind", "game", "hands"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT, "description": "Always \"mahjong-bot-record\"."},
        "version": {"const": VERSION, "description": "The format's version: 1."},
        "kind": {"enum": ["hand", "match"], "description": "One hand, or a whole match."},
        "game": {"type": "string", "pattern": "^[a-z0-9_]{1,64}$",
                 "description": "The game's id (two_player, laosanfan, jinhu, caishen, laowudui, zipai …)."},
        "match": {"$ref": "#/$defs/match"},
        "hands": {"type": "array", "minItems": 1, "maxItems": MAX_HANDS, "items": {"$ref": "#/$defs/hand"},
                  "description": "The hands, in the order they were dealt (one for kind \"hand\")."},
    },
    "$defs": {
        "match": {
            "type": "object",
            "description": "Kind \"match\" only: the match the hands make.",
            "required": ["hands_planned", "hands_played"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "integer", "minimum": 1, "description": "The match's number where it was played."},
                "hands_planned": {"type": "integer", "minimum": 0, "maximum": 100,
                                  "description": "The table's match_hands (0: open-ended, ended by /mj table end)."},
                "hands_played": {"type": "integer", "minimum": 1, "maximum": MAX_HANDS,
                                 "description": "Hands settled: the number of hands in the record."},
                "started_at": _TIME,
                "ended_at": _TIME,
            },
        },
        "hand": {
            "type": "object",
            "required": ["hand_no", "options", "seed", "dealer", "seats", "context", "actions", "result",
                         "settlements"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "integer", "minimum": 1, "description": "The hand's number where it was played."},
                "hand_no": {"type": "integer", "minimum": 0, "maximum": 100000,
                            "description": "The hand's number at its table (0 the first)."},
                "ended_at": _TIME,
                "options": {"type": "object", "maxProperties": 64,
                            "additionalProperties": {"type": ["integer", "boolean", "string"], "maxLength": 64},
                            "description": "The table's options, resolved (every option of the game)."},
                "seed": dict(_INT64, description="The seed the wall was shuffled from (signed 64-bit)."),
                "dealer": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
                "seats": {"type": "array", "minItems": 1, "maxItems": MAX_SEATS, "items": {"$ref": "#/$defs/seat"}},
                "context": {"type": "object", "maxProperties": 64,
                            "description": "What the hand was dealt with besides the seed (dealer streak, "
                                           "hand number, a game's carried facts)."},
                "actions": {"type": "array", "maxItems": MAX_ACTIONS,
                            "items": {"type": "string", "maxLength": 48,
                                      "pattern": "^[0-9]{1,2} [a-z_]{1,32}( [^ ]{1,8})?$"},
                            "description": "Every decision, in order: \"<seat> <type> [<tile>]\"."},
                "result": {"type": "object", "required": ["points"], "maxProperties": 128,
                           "properties": {"points": {"type": "array", "maxItems": MAX_SEATS,
                                                     "items": {"type": "integer"}}},
                           "description": "The stored result: the game's result plus seed, claimed_by, names."},
                "settlements": {"type": "array", "minItems": 1, "maxItems": MAX_SEATS,
                                "items": {"$ref": "#/$defs/settlement"}},
                "wall": {"type": "object", "required": ["tiles", "sha256"], "additionalProperties": False,
                         "properties": {"tiles": {"type": "integer", "minimum": 0, "maximum": 1000},
                                        "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
                         "description": "The wall dealt from the seed: its size and the SHA-256 of its order."},
            },
        },
        "seat": {
            "type": "object",
            "required": ["seat", "name", "ai"],
            "additionalProperties": False,
            "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
                           "name": _NAME, "ai": {"type": "boolean"}},
        },
        "settlement": {
            "type": "object",
            "required": ["seat", "name", "ai", "points", "winner", "self_drawn", "dealt_in", "fan"],
            "additionalProperties": False,
            "properties": {
                "seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
                "name": _NAME,
                "ai": {"type": "boolean"},
                "points": _INT64,
                "winner": {"type": "boolean"},
                "self_drawn": {"type": "boolean"},
                "dealt_in": {"type": "boolean"},
                "fan": {"type": ["integer", "null"], "minimum": -1000000, "maximum": 1000000},
            },
        },
    },
}

#: the keywords the validator checks, and those it reads as annotations only
CHECKED = {"type", "const", "enum", "required", "properties", "additionalProperties", "maxProperties", "items",
           "minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength", "pattern", "$ref"}
ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description", "format", "$comment"}
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


class SchemaProblem(ValueError):
    """The schema uses a keyword the validator does not check."""


class Invalid(ValueError):
    """A value the schema refuses: ``path`` (``hands/0/seed``, ``""`` the top), ``reason``
    (English, language-neutral enough to quote: ``expected integer, got string``)."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path or '/'}: {reason}")
        self.path = path
        self.reason = reason


def check_schema(schema: Any) -> None:
    """:raises SchemaProblem: ``schema`` has a keyword outside :data:`CHECKED` and
    :data:`ANNOTATIONS` (at any depth)."""
    if isinstance(schema, dict):
        for key, sub in schema.items():
            if key not in CHECKED and key not in ANNOTATIONS:
                raise SchemaProblem(f"keyword {key!r} is not checked")
            if key in ("properties", "$defs"):
                for s in sub.values():
                    check_schema(s)
            elif key in ("items", "additionalProperties") and isinstance(sub, dict):
                check_schema(sub)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    for name, cls in _TYPES.items():
        if isinstance(value, cls):
            return name
    return type(value).__name__


def _is(value: Any, type_name: str) -> bool:
    if type_name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[type_name])


def _resolve(ref: str, root: dict) -> dict:
    if not ref.startswith("#/"):
        raise SchemaProblem(f"only local references: {ref!r}")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def _check(value: Any, schema: dict, root: dict, path: str) -> None:
    if "$ref" in schema:
        _check(value, _resolve(schema["$ref"], root), root, path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, t) for t in types):
            raise Invalid(path, f"expected {' or '.join(types)}, got {_type_name(value)}")
    if "const" in schema and not (value == schema["const"] and _type_name(value) == _type_name(schema["const"])):
        raise Invalid(path, f"must be {json.dumps(schema['const'])}")
    if "enum" in schema and value not in schema["enum"]:
        raise Invalid(path, "must be one of " + ", ".join(json.dumps(e) for e in schema["enum"]))
    if isinstance(value, str):
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise Invalid(path, f"longer than {schema['maxLength']} characters")
        if "minLength" in schema and len(value) < schema["minLength"]:
            raise Invalid(path, f"shorter than {schema['minLength']} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            raise Invalid(path, f"does not match {schema['pattern']}")
    if _is(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            raise Invalid(path, f"less than {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise Invalid(path, f"more than {schema['maximum']}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            raise Invalid(path, f"fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise Invalid(path, f"more than {schema['maxItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                _check(item, schema["items"], root, f"{path}/{i}" if path else str(i))
    if isinstance(value, dict):
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            raise Invalid(path, f"more than {schema['maxProperties']} fields")
        for key in schema.get("required", ()):
            if key not in value:
                raise Invalid(path, f"missing field {key!r}")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            where = f"{path}/{key}" if path else key
            if key in props:
                _check(item, props[key], root, where)
            elif extra is False:
                raise Invalid(where, "unknown field")
            elif isinstance(extra, dict):
                _check(item, extra, root, where)


def validate(value: Any, schema: Optional[dict] = None) -> None:
    """Check ``value`` (parsed JSON) against ``schema`` (default :data:`SCHEMA`).

    :raises Invalid: at the first value refused, depth first in the document's order.
    :raises SchemaProblem: the schema uses a keyword not checked here."""
    schema = SCHEMA if schema is None else schema
    check_schema(schema)
    _check(value, schema, schema, "")


def published() -> str:
    """The text of ``docs/record.schema.json``."""
    return json.dumps(SCHEMA, ensure_ascii=False, indent=2) + "\n"


if __name__ == "__main__":  # python -m service.record_schema: publish the schema
    SCHEMA_FILE.write_text(published(), encoding="utf-8")
    sys.stdout.write(f"wrote {SCHEMA_FILE}\n")
