"""The rules form's layout, at its own layer (``cogs/rules_form.py``), with option tuples no
game declares today: more own options than a form holds are split into forms of at most 5
("rules 1/2", "rules 2/2"), each within Discord's limits as the fake Discord checks them; each
kind of option gets its input; a submission is converted all or nothing."""

from __future__ import annotations

import pytest

from engine.options import TIMEOUT_OPTIONS, Option
from engine.variants import find_variant

try:
    from fakediscord import modal_errors
except ImportError:  # pragma: no cover
    from tests.harness.fakediscord import modal_errors

from cogs.rules_form import checked, form_id, option_groups, option_input, read_submission, refusal_text, rules_form

LONG = "A very long description of an option that goes on and on, well beyond what a label may hold " * 2
OWN = (
    Option("points", int, 2, "Points per fan", "每番分数", min_value=1, max_value=1000),
    Option("open", bool, True, "Open play", "明牌"),
    Option("style", str, "a", "Style", "风格", choices=tuple("abc")),
    Option("many", int, 11, "Eleven to twenty-five choices", "多选", choices=tuple(range(11, 26))),
    Option("lots", int, 1, "Thirty choices", "三十个", choices=tuple(range(1, 31))),
    Option("nameless_option_with_a_long_text", int, 0, LONG, LONG, min_value=0, max_value=9),
    Option("seventh", bool, False, "Seventh", "第七"),
)
DECLARED = TIMEOUT_OPTIONS + OWN


def _modal(form) -> dict:
    return {"custom_id": form.custom_id, "title": form.title, "components": form.to_components()}


@pytest.mark.asyncio
async def test_more_own_options_than_a_form_holds_are_split_into_forms_within_discords_limits():
    assert [[o.name for o in g] for g in option_groups(DECLARED)] == [
        ["points", "open", "style", "many", "lots"], ["nameless_option_with_a_long_text", "seventh"]]
    assert option_groups(TIMEOUT_OPTIONS) == []
    info = find_variant("two_player")
    forms = [rules_form(info, part, {"points": 7}, "en", form_id("t", part, "1"), declared=DECLARED) for part in (0, 1)]
    assert rules_form(info, 2, {}, "en", form_id("t", 2, "1"), declared=DECLARED) is None
    titles = [f.title for f in forms]
    assert titles[0].endswith("rules 1/2") and titles[1].endswith("rules 2/2")
    for form in forms:
        assert modal_errors(_modal(form)) == {}
    first = [c["component"] for c in _modal(forms[0])["components"]]
    assert [c["type"] for c in first] == [4, 21, 21, 3, 4]  # text, on/off, 3 choices, 15 choices, 30 choices
    assert first[0]["value"] == "7" and "1–1000" in first[0]["placeholder"]
    assert [o["value"] for o in first[1]["options"]] == ["on", "off"]
    assert [o["value"] for o in first[1]["options"] if o.get("default")] == ["on"]
    second = _modal(forms[1])["components"]
    assert len(second[0]["label"]) <= 45 and len(second[0]["description"]) <= 100


def test_labels_are_in_the_players_language():
    label = option_input(OWN[1], True, "zh-CN")
    assert label.text == "明牌" and [o.label for o in label.component.options] == ["开", "关"]
    assert option_input(OWN[1], False, "en").component.options[1].default


def test_a_submission_is_converted_all_or_nothing():
    values, refused = checked(OWN[:3], {"points": "12", "open": "off", "style": "b"})
    assert values == {"points": 12, "open": False, "style": "b"} and refused == []
    values, refused = checked(OWN[:3], {"points": "abc", "open": "off", "style": "z"})
    assert [(o.name, text, allowed) for o, text, allowed in refused] == [("points", "abc", "1–1000"),
                                                                          ("style", "z", "a, b, c")]
    text = refusal_text(refused, "en")
    assert text.startswith("Nothing was changed") and "1–1000" in text and "a, b, c" in text


def test_a_submission_is_read_from_the_payload_discord_sends():
    # Labels (type 18) wrapping a text input (4), a radio group (21), a string select (3);
    # an empty text input counts as not given; a legacy action row (1) is read too
    components = [
        {"type": 18, "id": 1, "component": {"type": 4, "id": 2, "custom_id": "opt:points", "value": " 12 "}},
        {"type": 18, "id": 3, "component": {"type": 21, "id": 4, "custom_id": "opt:open", "value": "off"}},
        {"type": 18, "id": 5, "component": {"type": 3, "id": 6, "custom_id": "opt:many", "values": ["v7"]}},
        {"type": 18, "id": 7, "component": {"type": 4, "id": 8, "custom_id": "opt:style", "value": ""}},
        {"type": 1, "id": 9, "components": [{"type": 4, "id": 10, "custom_id": "opt:lots", "value": "w3"}]},
    ]
    assert read_submission(components) == {"points": "12", "open": "off", "many": "v7", "lots": "w3"}
