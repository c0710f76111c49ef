"""Shipped presets (``presets.json`` in each game's package folder) load and validate, and options combine
with the documented precedence."""

from __future__ import annotations

import json

import pytest

from games import game_ids

from engine.variants import all_variants, find_variant
from service.presets import PRESET_FILE, check_options, find_preset, shipped_presets, table_options
from service.tables import ServiceError


def test_every_shipped_preset_is_valid():
    # every game's presets file, found in its own package (VariantInfo.data_dir)
    files = sorted(p for info in all_variants() if info.data_dir is not None
                   for p in [info.data_dir / PRESET_FILE] if p.exists())
    assert len(files) == len(all_variants())
    n = 0
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        info = find_variant(data["variant"])
        assert path.parent == info.data_dir
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


@pytest.mark.parametrize("variant", game_ids())
def test_a_relaxed_preset_loads_for_every_game(variant):
    info = find_variant(variant)
    relaxed = find_preset(variant, "relaxed", {})
    opts = info.resolve_options(table_options(info, preset=relaxed))
    assert (opts["discard_timeout"], opts["claim_timeout"], opts["result_timeout"]) == (60, 60, 60)
    # the rule files' own timers otherwise (15 s to act, 30 s on the result screen)
    plain = info.resolve_options({})
    assert (plain["discard_timeout"], plain["claim_timeout"], plain["result_timeout"]) == (15, 15, 30)


def test_pace_sets_the_timers_between_the_preset_and_the_typed_options():
    from service.presets import pace_options

    info = find_variant("laowudui")
    relaxed = pace_options("laowudui", "relaxed")
    assert relaxed == {"claim_timeout": 60, "discard_timeout": 60, "result_timeout": 60}
    assert pace_options("laowudui", "normal") == {} and pace_options("laowudui", None) == {}
    # the pace beats a preset's timers; a typed timer beats the pace
    opts = table_options(info, preset={"options": {"discard_timeout": 20}}, pace=relaxed,
                         given={"claim_timeout": "30"})
    assert (opts["discard_timeout"], opts["claim_timeout"], opts["result_timeout"]) == (60, 30, 60)
    with pytest.raises(ServiceError) as e:
        pace_options("laowudui", "sleepy")
    assert e.value.code == "unknown_pace"


@pytest.mark.asyncio
async def test_pace_chosen_at_create_through_discord(tmp_path):
    from discord_play import new_bot
    from fakediscord import FakeDiscord
    from service.clock import ManualClock

    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        ann, bo = fd.user(401, "ann", locale="en-US"), fd.user(402, "bo", locale="zh-CN")
        r = await fd.slash(ann, "mj table create", {"variant": "zipai", "pace": "relaxed"})
        table = bot.service.table_in(fd.channel_id)
        assert (table.options["discard_timeout"], table.options["claim_timeout"]) == (60, 60)
        assert "60 s to discard, 60 s to answer a claim" in r.content
        await fd.slash(ann, "mj table end")
        r = await fd.slash(bo, "mj table create", {"variant": "zipai"})
        assert "每步出牌 15 秒，吃碰杠胡 15 秒" in r.content
        assert bot.service.table_in(fd.channel_id).options["discard_timeout"] == 15
    finally:
        await fd.close()


@pytest.mark.parametrize("game,option,value,allowed", [
    ("laosanfan", "style", "bogus", "yaobansan, yaobanliu, tuidaoba, yaoerliu"),
    ("zipai", "min_huxi", "5", "9, 6, 3"),
    ("laosanfan", "hutou", "maybe", "on, off"),
    ("two_player", "min_fan", "99", "1–88"),
    ("two_player", "min_fan", "abc", "1–88"),
])
@pytest.mark.some_games("one option of each kind of value")
def test_a_bad_option_value_names_the_values_allowed(game, option, value, allowed):
    from engine.errors import OptionError
    from render.text.catalogue import error_text

    info = find_variant(game)
    with pytest.raises(OptionError) as e:
        info.resolve_options({option: value})
    assert e.value.params["allowed"] == allowed
    assert error_text(e.value.code, "en", e.value.params) == \
        f"Option {option} cannot be {value} (allowed: {allowed})."
