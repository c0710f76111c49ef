"""A hand imported from a record file is anyone's invention (its names too): the public
answers about it must say where it came from, as the replay's caption does."""

from __future__ import annotations

import json

import pytest
from fd_fixture import fd_bot  # noqa: F401  (the fixture)
from fakediscord import RecordedFile, as_shown
from rated_history import new_rated_table, played_hand

ALICE, BOB = 41, 42


@pytest.mark.asyncio
async def test_a_public_rescore_of_an_imported_hand_says_it_came_from_a_record_file(fd_bot):
    fd, bot = fd_bot
    alice = fd.user(ALICE, "alice")
    table = await new_rated_table(bot.store, fd.guild_id, 901, "laosanfan")
    await played_hand(bot.store, table, 0, [ALICE, BOB, None, None], "laosanfan", seed=5)
    hand_id = (await bot.store.finished_hands(fd.guild_id, limit=1))[0].id
    data = json.loads((await fd.slash(alice, "mj record export", {"hand": hand_id})).message.attachments[0].data)
    data["hands"][0]["seats"][1]["name"] = "The server owner"  # any name the file's writer likes
    r = await fd.slash(alice, "mj record import", {"file": RecordedFile("h.json", json.dumps(data).encode())})
    assert "Imported and verified" in r.content
    imported = max(h.id for h in await bot.store.finished_hands(fd.guild_id))
    r = await fd.slash(alice, "mj rescore", {"hand": imported, "options": "style=tuidaoba"})
    assert not r.ephemeral
    first = as_shown(r.content).splitlines()[0]
    assert first.endswith("· imported from a record file (counted nowhere)"), first
    # the hand played here is not marked
    r = await fd.slash(alice, "mj rescore", {"hand": hand_id, "options": "style=tuidaoba"})
    assert "imported" not in as_shown(r.content)


@pytest.mark.asyncio
async def test_the_public_verify_and_gif_of_an_imported_hand_say_it_came_from_a_record_file(fd_bot):
    # /mj verify speaks of "the commitment shown at the deal", which no one here saw for an
    # imported hand; the GIF draws the file's names in the channel
    fd, bot = fd_bot
    alice = fd.user(ALICE, "alice")
    table = await new_rated_table(bot.store, fd.guild_id, 901, "laosanfan")
    await played_hand(bot.store, table, 0, [ALICE, BOB, None, None], "laosanfan", seed=5)
    hand_id = (await bot.store.finished_hands(fd.guild_id, limit=1))[0].id
    raw = (await fd.slash(alice, "mj record export", {"hand": hand_id})).message.attachments[0].data
    await fd.slash(alice, "mj record import", {"file": RecordedFile("h.json", raw)})
    imported = max(h.id for h in await bot.store.finished_hands(fd.guild_id))
    mark = "· imported from a record file (counted nowhere)"
    for hid, marked in ((imported, True), (hand_id, False)):
        r = await fd.slash(alice, "mj verify", {"hand": hid})
        assert not r.ephemeral and as_shown(r.content).splitlines()[0].endswith(mark) == marked, r.content
        r = await fd.slash(alice, "mj replay", {"hand": hid, "animate": True})
        assert not r.ephemeral and r.message.attachments
        assert as_shown(r.message.content).splitlines()[0].endswith(mark) == marked, r.message.content
