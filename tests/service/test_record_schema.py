"""The record files' JSON Schema: the published copy in ``docs/`` is the one the bot checks
with, every field it defines is in ``docs/records.md``, and the validator checks what the
schema says — and refuses a schema that says more than it checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.record_schema import SCHEMA, SCHEMA_FILE, Invalid, SchemaProblem, published, validate

ROOT = Path(__file__).resolve().parents[2]


def _fields(schema) -> set[str]:
    """Every property name the schema defines, at any depth."""
    out = set()
    if isinstance(schema, dict):
        for key, sub in schema.items():
            if key == "properties":
                out |= set(sub)
                for s in sub.values():
                    out |= _fields(s)
            elif key in ("$defs",):
                for s in sub.values():
                    out |= _fields(s)
            elif isinstance(sub, dict):
                out |= _fields(sub)
    return out


def test_the_published_schema_is_the_one_the_bot_checks_with():
    assert SCHEMA_FILE == ROOT / "docs" / "record.schema.json"
    assert SCHEMA_FILE.read_text(encoding="utf-8") == published(), "run python -m service.record_schema"


def test_every_field_of_the_schema_is_defined_in_the_doc():
    doc = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    fields = _fields(SCHEMA)
    # counted by hand from the schema, each name once: 6 top-level, 5 of a match, 10 more of a
    # hand (its id and ended_at are a match's names), 3 of a seat, 5 more of a settlement
    # (seat, name, ai are a seat's), 2 of the wall; a result's points is a settlement's name
    assert len(fields) == 31, sorted(fields)
    assert [f for f in sorted(fields) if f"`{f}`" not in doc] == []


@pytest.mark.parametrize("schema, value, path, reason", [
    ({"type": "integer"}, True, "", "expected integer, got boolean"),
    ({"type": ["integer", "null"]}, 1.5, "", "expected integer or null, got number"),
    ({"const": 1}, True, "", "must be 1"),
    ({"enum": ["hand", "match"]}, "set", "", 'must be one of "hand", "match"'),
    ({"type": "string", "maxLength": 3}, "abcd", "", "longer than 3 characters"),
    ({"type": "string", "pattern": "^[a-z]+$"}, "a1", "", "does not match ^[a-z]+$"),
    ({"type": "integer", "minimum": 0}, -1, "", "less than 0"),
    ({"type": "array", "maxItems": 1, "items": {"type": "integer"}}, [1, 2], "", "more than 1 items"),
    ({"type": "array", "items": {"type": "integer"}}, [1, "2"], "1", "expected integer, got string"),
    ({"type": "object", "required": ["a"]}, {}, "", "missing field 'a'"),
    ({"type": "object", "properties": {"a": {}}, "additionalProperties": False}, {"a": 1, "b": 2}, "b", "unknown field"),
    ({"type": "object", "additionalProperties": {"type": "string"}}, {"a": 1}, "a", "expected string, got integer"),
    ({"type": "object", "maxProperties": 1}, {"a": 1, "b": 2}, "", "more than 1 fields"),
    ({"$defs": {"n": {"type": "integer"}}, "type": "object", "properties": {"x": {"$ref": "#/$defs/n"}}},
     {"x": "1"}, "x", "expected integer, got string"),
])
def test_the_validator_refuses_what_each_keyword_refuses(schema, value, path, reason):
    with pytest.raises(Invalid) as err:
        validate(value, schema)
    assert (err.value.path, err.value.reason) == (path, reason)


def test_the_validator_refuses_a_schema_keyword_it_does_not_check():
    with pytest.raises(SchemaProblem):
        validate(1, {"oneOf": [{"type": "integer"}]})
    with pytest.raises(SchemaProblem):
        validate({}, {"properties": {"a": {"uniqueItems": True}}})
    validate({"a": 1}, {"type": "object", "title": "annotations are fine", "properties": {"a": {"format": "x"}}})
