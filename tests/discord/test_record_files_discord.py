"""``/mj record export`` and ``/mj record import`` through Discord: the files come within
Discord's limits (the fake refuses more), a good file is verified and kept to replay, a bad
one gets a private reason, another server's hand is not exported."""

from __future__ import annotations

import json

import pytest
from fd_fixture import fd_bot  # noqa: F401  (the fixture)

from fakediscord import MAX_ATTACHMENT_BYTES, RecordedFile
from rated_history import new_rated_table, played_hand

from service.record_file import MAX_BYTES

ALICE, BOB = 41, 42


async def _hand(bot, guild_id: int, channel_id: int, seed: int = 5) -> tuple[int, dict]:
    table = await new_rated_table(bot.store, guild_id, channel_id, "laosanfan")
    result = await played_hand(bot.store, table, 0, [ALICE, BOB, None, None], "laosanfan", seed=seed)
    return (await bot.store.finished_hands(guild_id, limit=1))[0].id, result


@pytest.mark.asyncio
async def test_export_answers_with_the_record_and_its_text_and_import_verifies_it(fd_bot):
    fd, bot = fd_bot
    alice = fd.user(ALICE, "alice")
    hand_id, result = await _hand(bot, fd.guild_id, 901)
    r = await fd.slash(alice, "mj record export", {"hand": hand_id})
    assert r.ephemeral and f"Hand #{hand_id}" in r.content
    files = {f.name: f.data for f in r.message.attachments}
    assert sorted(files) == [f"hand-{hand_id}.json", f"hand-{hand_id}.txt"]
    assert all(len(data) <= MAX_ATTACHMENT_BYTES for data in files.values())
    record = json.loads(files[f"hand-{hand_id}.json"])
    assert record["hands"][0]["id"] == hand_id and record["hands"][0]["result"]["points"] == list(result["points"])
    text = files[f"hand-{hand_id}.txt"].decode()
    assert text.count("\n  0. ") == 1 and f"P{ALICE}" in text
    # imported back (as anyone would from the file): verified, kept as a new hand to replay
    n_actions = len(record["hands"][0]["actions"])
    board = await fd.slash(alice, "mj leaderboard")
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile(f"hand-{hand_id}.json", files[f"hand-{hand_id}.json"])})
    assert r.ephemeral and "Imported and verified" in r.content
    assert f"{n_actions} actions replayed, result matches" in r.content
    new_id = max(h.id for h in await bot.store.finished_hands(fd.guild_id))
    assert new_id != hand_id and f"/mj replay hand:{new_id}" in r.content
    replay = await fd.slash(alice, "mj replay", {"hand": new_id})
    assert not replay.ephemeral and replay.message.attachments
    assert replay.content == f"Replay of hand #{new_id} (Lao San Fan (老三番)) — step 0/{n_actions} · imported from a record file (counted nowhere)"
    assert "imported" not in (await fd.slash(alice, "mj replay", {"hand": hand_id})).content
    # not counted: the leaderboard reads as before
    assert (await fd.slash(alice, "mj leaderboard")).message.embeds == board.message.embeds


@pytest.mark.asyncio
async def test_a_match_is_exported_whole(fd_bot):
    fd, bot = fd_bot
    alice = fd.user(ALICE, "alice")
    table = await new_rated_table(bot.store, fd.guild_id, 902, "two_player", match_hands=2)
    for n in range(2):
        await played_hand(bot.store, table, n, [ALICE, BOB], "two_player", seed=3 + n, match_hands=2, end=n == 1)
    match = (await bot.store.guild_matches(fd.guild_id))[0]
    r = await fd.slash(alice, "mj record export", {"match": match.id})
    assert r.ephemeral and f"Match #{match.id}, 2 hands" in r.content
    data = json.loads(r.message.attachments[0].data)
    assert data["kind"] == "match" and len(data["hands"]) == 2
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile("m.json", r.message.attachments[0].data)})
    assert r.ephemeral and "Imported and verified" in r.content and "2 hand(s)" in r.content


@pytest.mark.asyncio
async def test_bad_files_and_other_servers_hands_get_a_private_refusal(fd_bot):
    fd, bot = fd_bot
    alice = fd.user(ALICE, "alice")
    hand_id, _ = await _hand(bot, fd.guild_id, 901)
    stranger_hand, _ = await _hand(bot, 777, 903, seed=9)  # a hand of another server
    r = await fd.slash(alice, "mj record export", {"hand": stranger_hand})
    assert r.ephemeral and not r.message.attachments and f"No finished hand #{stranger_hand}" in r.content
    r = await fd.slash(alice, "mj record export", {})
    assert r.ephemeral and "Name one hand" in r.content
    r = await fd.slash(alice, "mj record export", {"hand": hand_id, "match": 1})
    assert r.ephemeral and "Name one hand" in r.content
    good = (await fd.slash(alice, "mj record export", {"hand": hand_id})).message.attachments[0].data
    count = len(await bot.store.finished_hands(fd.guild_id))
    # one action changed: refused, naming it; nothing stored
    data = json.loads(good)
    k = next(i for i, a in enumerate(data["hands"][0]["actions"]) if " discard " in a)
    seat = int(data["hands"][0]["actions"][k].split()[0])
    data["hands"][0]["actions"][k] = f"{(seat + 1) % 4} discard 1m"
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile("bad.json", json.dumps(data).encode())})
    assert r.ephemeral and r.content.startswith("The record was not imported: hand 1, action #%d" % k)
    # another version; a file too big (refused before it is downloaded)
    data = dict(json.loads(good), version=2)
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile("v2.json", json.dumps(data).encode())})
    assert r.ephemeral and "version 2; this bot reads version 1" in r.content
    calls = len(fd.calls)
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile("big.json", b" " * (MAX_BYTES + 1))})
    assert r.ephemeral and f"the file has {MAX_BYTES + 1} bytes" in r.content
    assert not [c for c in fd.calls[calls:] if c.via == "cdn"]
    # a name in the file that would be markdown or a ping is shown as typed (the fake fails
    # the interaction otherwise)
    data = json.loads(good)
    data["hands"][0]["seats"][0]["name"] = "**@everyone**"
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile("n.json", json.dumps(data).encode())})
    assert r.ephemeral and "Imported and verified" in r.content
    assert len(await bot.store.finished_hands(fd.guild_id)) == count + 1


@pytest.mark.asyncio
async def test_a_hand_played_at_a_table_exports_without_the_players_ids_and_imports(fd_bot):
    """A 二人麻将 hand played through the table service (its context holds each seat's user id
    beside the dealer's 连庄 count): the record has the names, not the ids, and imports."""
    fd, bot = fd_bot
    alice = fd.user(987_654_321_098, "alice")
    await fd.slash(alice, "mj table create", {"variant": "two_player"})
    await fd.slash(alice, "mj table add-ai", {"level": "normal"})
    await fd.slash(alice, "mj table start")
    table = bot.service.table_in(fd.channel_id)
    await bot.service.set_auto(fd.channel_id, alice.id, True)
    await fd.settle()
    assert table.hand.is_over()
    hand_id = table.hand_id
    await fd.slash(alice, "mj table end")
    stored = await bot.store.get_hand(hand_id)
    assert stored.context["seat_users"] == [alice.id, None]  # what the record must leave out
    r = await fd.slash(alice, "mj record export", {"hand": hand_id})
    raw = r.message.attachments[0].data
    entry = json.loads(raw)["hands"][0]
    assert str(alice.id).encode() not in raw and entry["seats"][0]["name"] == stored.seats[0]["name"]
    assert "seat_users" not in entry["context"] and entry["context"]["dealer_streak"] == stored.context["dealer_streak"]
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile("hand.json", raw)})
    assert r.ephemeral and f"{len(stored.actions)} actions replayed, result matches" in r.content
