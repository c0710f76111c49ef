"""Shipped presets (data/presets/<variant>.json) load and validate, and options combine
with the documented precedence."""

from __future__ import annotations

import json

import pytest

from engine.variants import find_variant
from service.presets import PRESET_DIR, check_options, find_preset, shipped_presets, table_options
from service.tables import ServiceError


def test_every_shipped_preset_is_valid():
    files = sorted(PRESET_DIR.glob("*.json"))
    assert files
    n = 0
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        info = find_variant(data["variant"])
        assert path.stem == info.id
        for name, preset in shipped_presets(info.id).items():
            assert preset["en"] and preset["zh"], name
            assert check_options(info, preset["options"]) == preset["options"]
            n += 1
    assert n >= 3
    print(f"presets: {n} shipped presets validated")


def test_precedence_typed_over_preset_over_server_defaults():
    info = find_variant("two_player")
    opts = table_options(info, server_defaults={"min_fan": 10, "base_points": 2},
                         preset={"options": {"min_fan": 8, "discard_timeout": 60}},
                         given={"discard_timeout": "45"})
    # discard_timeout typed (45) beats the preset (60); min_fan from the preset (8) beats the
    # server default (10); base_points only in the server defaults (2)
    assert opts == {"min_fan": 8, "base_points": 2, "discard_timeout": 45}


def test_bad_values_and_unknown_presets_are_refused():
    info = find_variant("two_player")
    with pytest.raises(ServiceError) as e:
        table_options(info, given={"min_fan": "0"})
    assert e.value.code == "option_bad_value"
    with pytest.raises(ServiceError) as e:
        find_preset("two_player", "nope", {})
    assert e.value.code == "unknown_preset"
    with pytest.raises(ServiceError) as e:
        find_preset("two_player", "mine", {"mine": {"variant": "zipai", "options": {}}})
    assert e.value.code == "preset_other_variant"
    assert find_preset("two_player", "relaxed", {})["options"]["discard_timeout"] == 60
