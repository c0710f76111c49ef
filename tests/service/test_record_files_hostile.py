"""Hostile record files (``service.record_file``): every refusal is a ``RecordRefused`` the
importer is told about privately, never another exception escaping the import, and nothing the
bot could not write back as JSON is accepted."""

from __future__ import annotations

import json

import pytest

from rated_history import new_rated_table, played_hand
from service.record_exchange import RecordExchange
from service.record_file import RecordRefused, read
from store import Store

GUILD = 5150


async def _record(tmp_path, variant: str, users: list) -> dict:
    store = Store(f"sqlite:///{tmp_path}/src.db")
    await store.init()
    try:
        table = await new_rated_table(store, GUILD, 100, variant)
        await played_hand(store, table, 0, users, variant, seed=42)
        hand_id = (await store.finished_hands(GUILD, limit=1))[0].id
        return json.loads((await RecordExchange(store).export_hand(GUILD, hand_id)).raw)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_number_too_large_for_a_float_is_refused_as_not_json(tmp_path):
    # Python's json reads 1e400 as float('inf'), which JSON cannot write back: an imported
    # hand holding it would export as a file with "Infinity" in it, which no import reads
    data = await _record(tmp_path, "laosanfan", [41, 42, None, None])
    data["hands"][0]["context"] = {"dealer_streak": 12345}
    for literal in ("1e400", "-1e400"):
        raw = json.dumps(data).replace("12345", literal).encode()
        with pytest.raises(RecordRefused) as err:
            read(raw)
        assert err.value.code == "not_json"


@pytest.mark.asyncio
async def test_a_context_value_of_the_wrong_type_is_refused_not_a_crash(tmp_path):
    # two_player deals its 宝牌 from context["treasure"] when given: a string there made the
    # opening events' tile names raise TypeError out of the import (the importer saw no reason)
    data = await _record(tmp_path, "two_player", [41, 42])
    for bad in ("x", [1], {"a": 1}):
        data["hands"][0]["context"] = {"treasure": bad}
        with pytest.raises(RecordRefused) as err:
            read(json.dumps(data).encode())
        assert err.value.code == "deal" and err.value.params["hand"] == 1


@pytest.mark.asyncio
async def test_a_name_with_a_line_break_or_control_character_is_refused(tmp_path):
    # a Discord name has no line break; one in a file would put lines of the importer's own
    # in the bot's public answers about the hand (/mj rescore is answered in the channel)
    data = await _record(tmp_path, "laosanfan", [41, 42, None, None])
    for name in ("a\n**Tournament cancelled**", "tab\there", "bell\x07", "nel\x85"):
        bad = json.loads(json.dumps(data))
        bad["hands"][0]["seats"][0]["name"] = name
        with pytest.raises(RecordRefused) as err:
            read(json.dumps(bad).encode())
        assert (err.value.code, err.value.params["path"]) == ("schema", "hands/0/seats/0/name"), name
        bad = json.loads(json.dumps(data))
        bad["hands"][0]["settlements"][1]["name"] = name
        with pytest.raises(RecordRefused) as err:
            read(json.dumps(bad).encode())
        assert (err.value.code, err.value.params["path"]) == ("schema", "hands/0/settlements/1/name"), name
    # names as Discord allows them still import: markdown, mentions, other scripts, emoji
    ok = json.loads(json.dumps(data))
    ok["hands"][0]["seats"][0]["name"] = "**@everyone** <@42> 王小明 🀄"
    assert read(json.dumps(ok).encode()).hands[0].entry["seats"][0]["name"] == "**@everyone** <@42> 王小明 🀄"


@pytest.mark.asyncio
async def test_a_stored_name_with_a_control_character_still_exports_a_record_that_imports(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/src.db")
    await store.init()
    try:
        table = await new_rated_table(store, GUILD, 100, "two_player")
        await played_hand(store, table, 0, [41, 42], "two_player", seed=42)
        hand_id = (await store.finished_hands(GUILD, limit=1))[0].id
        ex = await RecordExchange(store).export_hand(GUILD, hand_id)
        data = json.loads(ex.raw)
        # the export cleans what the import refuses: a name written with a control character
        # (a name kept before names were checked) becomes spaces
        from service.record_file import hand_entry
        entry = data["hands"][0]
        again = hand_entry(hand_id=None, hand_no=0, variant="two_player", options=entry["options"], seed=42,
                           dealer=entry["dealer"], seats=[{"name": "a\nb", "is_ai": False}, {"name": "c\td", "is_ai": False}],
                           context=entry["context"], actions=entry["actions"], result=entry["result"],
                           settlements=entry["settlements"])
        assert [s["name"] for s in again["seats"]] == ["a b", "c d"]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_deeply_nested_context_is_refused_before_it_reaches_the_store(tmp_path):
    # JSON reads nesting up to about 1,000 levels, but storing such a context as JSON again
    # overflowed Python's stack in the database write: the import failed with no reason given.
    # The bot's records nest at most 9 levels (laowudui's result); 32 are allowed.
    data = await _record(tmp_path, "laosanfan", [41, 42, None, None])
    store = Store(f"sqlite:///{tmp_path}/dst.db")
    await store.init()
    try:
        for depth in (40, 980):
            raw = json.dumps(data).replace('"context": {}', '"context": {"x": ' + "[" * depth + "]" * depth + "}")
            with pytest.raises(RecordRefused) as err:
                await RecordExchange(store).import_file(GUILD, 1, 2, "en", raw.encode())
            assert err.value.code == "schema" and err.value.params["path"].startswith("hands/0/context/x"), depth
        assert await store.finished_hands(GUILD) == []  # nothing stored
        raw = json.dumps(data).replace('"context": {}', '"context": {"x": ' + "[" * 20 + "]" * 20 + "}")
        done = await RecordExchange(store).import_file(GUILD, 1, 2, "en", raw.encode())
        assert len(done.hand_ids) == 1  # a nesting the limit allows still imports
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_hand_stored_with_an_option_its_game_no_longer_has_exports_a_record_that_imports(tmp_path):
    # the export promises that every export imports; a hand stored under an option the game
    # has since dropped exported it, and the import then refused the file (option_unknown)
    from dataclasses import replace

    from rated_history import play_by_ai, store_played

    store = Store(f"sqlite:///{tmp_path}/src.db")
    await store.init()
    try:
        table = await new_rated_table(store, GUILD, 100, "laosanfan")
        played = play_by_ai("laosanfan", 4, 5)
        await store_played(store, table, 0, [41, 42, None, None],
                           replace(played, options={**played.options, "retired_option": True}))
        hand_id = (await store.finished_hands(GUILD, limit=1))[0].id
        ex = await RecordExchange(store).export_hand(GUILD, hand_id)
        assert "retired_option" not in json.loads(ex.raw)["hands"][0]["options"]
        checked = read(ex.raw)
        assert checked.hands[0].entry["result"]["points"] == list(played.result["points"])
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_lone_surrogate_escape_is_refused_as_not_json(tmp_path):
    # "\ud800" is valid JSON syntax but no character: stored from a name or a context key, it
    # made the hand's export (and every message naming it) fail to encode as UTF-8
    data = await _record(tmp_path, "laosanfan", [41, 42, None, None])
    for place in ("name", "context key", "context value"):
        bad = json.loads(json.dumps(data))
        if place == "name":
            bad["hands"][0]["seats"][0]["name"] = "MARK"
        elif place == "context key":
            bad["hands"][0]["context"] = {"MARK": 1}
        else:
            bad["hands"][0]["context"] = {"k": ["MARK"]}
        raw = json.dumps(bad).replace('"MARK"', '"a\\udc00b"').encode()
        with pytest.raises(RecordRefused) as err:
            read(raw)
        assert err.value.code == "not_json", place
    # a pair of surrogate escapes is one character (🀄, U+1F004) and is welcome
    ok = json.loads(json.dumps(data))
    ok["hands"][0]["seats"][0]["name"] = "MARK"
    raw = json.dumps(ok).replace('"MARK"', '"\\ud83c\\udc04"').encode()
    assert read(raw).hands[0].entry["seats"][0]["name"] == "\U0001F004"


@pytest.mark.asyncio
async def test_an_open_ended_match_of_more_than_100_hands_exports(tmp_path):
    # 二人麻将 hands are short: an evening at an open-ended table passes 100 hands, and its
    # export was refused ("match/hands_played: more than 100") though the file is ~0.3 MB
    store = Store(f"sqlite:///{tmp_path}/src.db")
    await store.init()
    try:
        table = await new_rated_table(store, GUILD, 100, "two_player", match_hands=0)
        for n in range(101):
            await played_hand(store, table, n, [41, 42], "two_player", seed=n, match_hands=0, end=n == 100)
        match = (await store.guild_matches(GUILD))[0]
        assert match.hands_planned == 0
        ex = await RecordExchange(store).export_match(GUILD, match.id)
        assert len(json.loads(ex.raw)["hands"]) == 101 and len(read(ex.raw).hands) == 101
    finally:
        await store.close()
