"""Matches with an end and their final standings (大结算), through the fake Discord: a
four-hand match ends by itself with the standings message and image, its values worked out
here from the stored settlements; ``/mj table end`` mid-match; a long match's menu in pages;
a restart between the last settlement and the standings; ``/mj history``; replays from the
standings."""

from __future__ import annotations

import pytest

from discord_play import new_bot, play_humans, table_button
from fakediscord import FakeDiscord, as_shown
from panel_checks import restarted_bot
from service.clock import ManualClock

GAME = "laosanfan"  # four seats: two players and two AI seats


async def open_match(tmp_path, hands: int | None, seed: int = 11, game: str = GAME, humans: int = 2, ais: int = 2):
    """A started table of ``game`` with ``humans`` players (p0 creates it with ``hands``) and
    ``ais`` AI seats; returns ``(bot, fd, table, {seat: user}, users)``."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    bot.service.lobby.seed_source = lambda: seed
    users = [fd.user(700 + j, f"p{j}") for j in range(humans)]
    args = {"variant": game}
    if hands is not None:
        args["hands"] = hands
    r = await fd.slash(users[0], "mj table create", args)
    assert r.ephemeral and "Table created" in r.text, r.text
    for u in users[1:]:
        await fd.slash(u, "mj table join")
    for _ in range(ais):
        await fd.slash(users[0], "mj table add-ai")
    await fd.slash(users[0], "mj table start")
    table = bot.service.table_in(fd.channel_id)
    return bot, fd, table, {table.seat_of(u.id): u for u in users}, users


async def play_with_settlement_refused(fd, bot, seats) -> None:
    """Play the humans' hand to its end while the store refuses every settlement ("database
    gone"), then let the store accept settlements again — storing the hand's last actions
    before it refuses, as a bot from before the last action and the settlement were one
    transaction left a hand it stopped between them: the hand's last action is stored, its
    settlement is not (the state ``needs_settling`` and the retries repair)."""
    real = bot.store.finish_hand

    async def refused(hand_id, *a, actions=None, **k):
        if actions is not None:
            await bot.store.append_actions(hand_id, *actions)
        raise RuntimeError("database gone")

    bot.store.finish_hand = refused
    try:
        with fd.tolerating("database gone"):
            await play_humans(fd, bot, fd.channel_id, seats)
            await fd.settle()
    finally:
        bot.store.finish_hand = real


async def play_hand(fd, bot, table, seats) -> None:
    await play_humans(fd, bot, fd.channel_id, seats)
    await fd.settle()
    assert table.hand.is_over()


async def next_hand(fd, user) -> None:
    msg, cid = table_button(fd, fd.channel_id, "next")
    await fd.click(user, msg, cid)


def standings_messages(fd, channel_id):
    return [m for m in fd.messages_in(channel_id)
            if not m.deleted and any(a["filename"] == "standings.png" for a in m.data["attachments"])]


def expected(hands) -> dict:
    """Per player, worked out from the stored settlements: total, hands, wins, best won hand
    (points, number in the match) and the most paid in one hand."""
    out: dict = {}
    for no, h in enumerate(hands, 1):
        for s in h.settlements:
            key = s.name if s.is_ai else s.user_id
            p = out.setdefault(key, {"total": 0, "hands": 0, "wins": 0, "best": None, "paid": None})
            p["total"] += s.points
            p["hands"] += 1
            if s.is_winner:
                p["wins"] += 1
                if p["best"] is None or s.points > p["best"][0]:
                    p["best"] = (s.points, no)
            if s.points < 0 and (p["paid"] is None or -s.points > p["paid"][0]):
                p["paid"] = (-s.points, no)
    return out


@pytest.mark.asyncio
@pytest.mark.slow
async def test_a_four_hand_match_ends_with_its_standings_stored_and_listed(tmp_path):
    bot, fd, table, seats, users = await open_match(tmp_path, 4)
    assert table.options["match_hands"] == 4
    assert "hand 1 of 4" in fd.message(table.message_id).embeds[0]["title"]
    for n in range(4):
        await play_hand(fd, bot, table, seats)
        if n < 3:
            assert table.status == "playing" and standings_messages(fd, fd.channel_id) == []
            await next_hand(fd, users[n % 2])
    # the fourth settlement closed the table: no next hand, the result stays on the table message
    assert table.status == "closed" and table.match_id is not None
    assert fd.channel_id not in bot.service.tables
    board = fd.message(table.message_id)
    assert not any(c.startswith("mjt:") for c in board.custom_ids)
    assert "The match is over" in board.embeds[0]["description"]
    assert any(a["filename"] == "table.png" for a in board.data["attachments"])
    # every player's panel shows the last hand's result, with no button left to press
    from cogs.messages import panel_of
    from panel_checks import panels_of

    for seat, user in seats.items():
        panel = panels_of(fd, user)[-1]
        assert panel.custom_ids == []
        assert panel.text.startswith(panel_of(table.snapshot, seat, lang="en").content)  # its last snapshot
        assert table.last_result["points"][seat] != 0 or "0" in panel.text
    last_hand = table.hand_id
    bot.service.clock.advance(600)
    await bot.service.tick()  # no timer deals a fifth hand
    await fd.settle()
    assert table.hand_id == last_hand
    stored = await bot.store.match_hands(table.id)
    assert len(stored) == 4 and [h.hand_no for h in stored] == [0, 1, 2, 3]

    # one standings message: text, image with its text alternative, a replay menu of the four hands
    [msg] = standings_messages(fd, fd.channel_id)
    embed = msg.embeds[0]
    assert embed["title"] == "Final standings — Lao San Fan (老三番)"
    want = expected(stored)
    match = await bot.store.match_of_table(table.id)
    assert match.id == table.match_id and match.message_id == msg.id
    assert (match.hands_planned, match.hands_played) == (4, 4)
    players = match.standings["players"]
    assert any(p["best"] for p in players) and any(p["paid"] for p in players)  # the seed has wins
    assert {p["user_id"] if not p["is_ai"] else p["name"] for p in players} == set(want)
    for p in players:
        w = want[p["name"] if p["is_ai"] else p["user_id"]]
        assert (p["total"], p["hands"], p["wins"]) == (w["total"], 4, w["wins"])
        assert (None if p["best"] is None else (p["best"]["points"], p["best"]["no"])) == w["best"]
        assert (None if p["paid"] is None else (p["paid"]["points"], p["paid"]["no"])) == w["paid"]
    assert [p["total"] for p in players] == sorted((w["total"] for w in want.values()), reverse=True)
    assert sum(p["total"] for p in players) == sum(sum(s.points for s in h.settlements) for h in stored)
    first = players[0]
    for p in players:
        total = f"{p['total']:+d}" if p["total"] else "0"
        assert f"{p['rank']}. **{p['name']}** {total} · {p['wins']} won of 4" in as_shown(embed["description"])
    assert "Hands played: 4 of 4" in embed["description"]
    [image] = [a for a in msg.data["attachments"] if a["filename"] == "standings.png"]
    alt = image["description"]
    assert len(alt) <= 256 and alt.startswith("Final standings of Lao San Fan (老三番) (hands played: 4): ")
    assert f"1. {first['name']} " in alt
    assert embed["image"]["url"] == "attachment://standings.png"
    [menu] = [c for c in msg.walk_components() if c.get("type") == 3]
    assert menu["custom_id"] == f"mjm:{match.id}:0"
    assert [o["value"] for o in menu["options"]] == [str(h.id) for h in stored]
    assert [o["label"] for o in menu["options"]] == [f"Hand {i} · #{h.id}" for i, h in enumerate(stored, 1)]

    # /mj history lists the match (place and total) beside the hands
    me = users[0]
    mine = next(p for p in players if p["user_id"] == me.id)
    r = await fd.slash(me, "mj history")
    [field] = r.message.embeds[0]["fields"]
    assert field["name"] == "Matches"
    total = f"{mine['total']:+d}" if mine["total"] else "0"
    assert f"`M#{match.id}`" in field["value"]
    assert f"place {mine['rank']}/4 **{total}** (hands: 4)" in field["value"]

    # the menu replays a hand of the match (a new public replay message)
    r = await fd.select(users[1], msg, menu["custom_id"], [str(stored[2].id)])
    replay = r.message
    assert replay is not None and not r.ephemeral
    assert f"Replay of hand #{stored[2].id}" in replay.text
    assert any(c.startswith(f"mjr:{stored[2].id}:") for c in replay.custom_ids)
    assert len(standings_messages(fd, fd.channel_id)) == 1
    await fd.close()


@pytest.mark.asyncio
async def test_table_end_mid_match_posts_the_standings_of_the_settled_hands(tmp_path):
    bot, fd, table, seats, users = await open_match(tmp_path, None, game="two_player", humans=1, ais=1)
    assert table.options["match_hands"] == 0  # open-ended: today's behaviour
    await play_hand(fd, bot, table, seats)
    await next_hand(fd, users[0])
    assert not table.hand.is_over()  # the second hand runs: it is aborted and counts for nothing
    first = (await bot.store.match_hands(table.id))[0]
    r = await fd.slash(users[0], "mj table end")
    assert r.ephemeral and r.text == "The table is closed."
    await fd.settle()
    [msg] = standings_messages(fd, fd.channel_id)
    match = await bot.store.match_of_table(table.id)
    assert (match.hands_planned, match.hands_played) == (0, 1)
    players = {p["user_id"] if not p["is_ai"] else p["name"]: p for p in match.standings["players"]}
    for s in first.settlements:
        p = players[s.name if s.is_ai else s.user_id]
        assert (p["total"], p["hands"], p["wins"]) == (s.points, 1, int(s.is_winner))
    assert [h["hand_id"] for h in match.standings["hands"]] == [first.id]
    assert "Hands played: 1 ·" in msg.embeds[0]["description"]
    # reachable later: /mj standings offers the server's matches and shows this one privately,
    # in the asking player's language, with its replay menu
    zh = fd.user(799, "zh", locale="zh-CN")
    [choice] = await fd.autocomplete(zh, "mj standings", {}, "match")
    first_player = match.standings["players"][0]
    assert choice["value"] == match.id
    assert choice["name"].startswith(f"M#{match.id} · ") and "二人麻将 · 1 局 · 第一：" in choice["name"]
    assert choice["name"].endswith(f"{first_player['name']} {first_player['total']:+d}")
    r = await fd.slash(zh, "mj standings", {"match": match.id})
    assert r.ephemeral and r.message.embeds[0]["title"].startswith("大结算")
    assert any(a["filename"] == "standings.png" and a.get("description") for a in r.message.data["attachments"])
    menu = next(c for c in r.message.walk_components() if c.get("type") == 3)
    assert menu["custom_id"] == f"mjm:{match.id}:0" and [o["value"] for o in menu["options"]] == [str(first.id)]
    r = await fd.slash(zh, "mj standings", {"match": match.id + 99})
    assert r.ephemeral and f"#{match.id + 99}" in r.text  # no such match: a private error
    # a table ended before any hand was settled shows no standings
    ch = fd.add_channel("empty")
    await fd.slash(users[0], "mj table create", {"variant": "two_player"}, channel_id=ch)
    await fd.slash(users[0], "mj table add-ai", channel_id=ch)
    await fd.slash(users[0], "mj table end", channel_id=ch)
    assert standings_messages(fd, ch) == []
    await fd.close()


@pytest.mark.asyncio
async def test_a_restart_between_the_last_settlement_and_the_standings_posts_them_once(tmp_path):
    bot, fd, table, seats, users = await open_match(tmp_path, 1, game="two_player", humans=1, ais=1)
    # the process "stops" before the standings reach Discord: their post is refused
    fd.fail_next(403, route=lambda c: c.key == "POST /channels/{channel_id}/messages"
                 and any(f.name == "standings.png" for f in c.files))
    await play_hand(fd, bot, table, seats)
    assert table.status == "closed"
    assert standings_messages(fd, fd.channel_id) == []
    match = await bot.store.match_of_table(table.id)
    assert match is not None and match.message_id is None
    bot2 = restarted_bot(bot)
    await fd.restart(bot2)
    await fd.settle()
    [msg] = standings_messages(fd, fd.channel_id)
    assert (await bot2.store.match_of_table(table.id)).message_id == msg.id
    assert fd.channel_id not in bot2.service.tables  # the closed table is not resumed
    await fd.restart(restarted_bot(bot2))
    await fd.settle()
    assert len(standings_messages(fd, fd.channel_id)) == 1  # no second post
    await fd.close()


@pytest.mark.asyncio
async def test_a_restart_before_the_last_settlement_settles_and_ends_the_match(tmp_path):
    bot, fd, table, seats, users = await open_match(tmp_path, 1, game="two_player", humans=1, ais=1)
    await play_with_settlement_refused(fd, bot, seats)
    assert table.hand.is_over() and table.settled_hand_id != table.hand_id
    assert await bot.store.match_of_table(table.id) is None
    bot2 = restarted_bot(bot)
    await fd.restart(bot2)
    await fd.settle()
    match = await bot2.store.match_of_table(table.id)
    assert match is not None and match.hands_played == 1
    assert (await bot2.store.get_table(table.id)).status == "closed"
    [msg] = standings_messages(fd, fd.channel_id)
    assert match.message_id == msg.id
    await fd.close()


@pytest.mark.asyncio
@pytest.mark.slow
async def test_a_long_match_pages_its_replay_menu(tmp_path):
    """A match of 27 hands: the menu holds 25 a page; ▶ shows the last two, ◀ goes back;
    the page buttons keep working after a restart."""
    bot, fd, table, seats, users = await open_match(tmp_path, 27, game="two_player", humans=1, ais=1)
    await bot.service.set_auto(fd.channel_id, users[0].id, True)  # both seats play by themselves
    for n in range(27):
        await fd.settle()
        assert table.hand.is_over()
        if n < 26:
            await next_hand(fd, users[0])  # (the timer would close a table nobody plays at)
    await fd.settle()
    assert table.status == "closed"
    [msg] = standings_messages(fd, fd.channel_id)
    hands = await bot.store.match_hands(table.id)
    assert len(hands) == 27
    match = await bot.store.match_of_table(table.id)

    def menu_of(m):
        return next(c for c in m.walk_components() if c.get("type") == 3)

    assert [o["value"] for o in menu_of(msg)["options"]] == [str(h.id) for h in hands[:25]]
    buttons = [c for c in msg.walk_components() if c.get("type") == 2]
    assert [(b["label"], b.get("disabled", False)) for b in buttons] == [("◀", True), ("▶", False)]
    assert "1–25 of 27" in msg.embeds[0]["description"]
    bot2 = restarted_bot(bot)
    await fd.restart(bot2)
    await fd.click(users[0], msg, f"mjp:{match.id}:1:1")
    msg = fd.message(msg.id)
    assert menu_of(msg)["custom_id"] == f"mjm:{match.id}:1"
    assert [o["value"] for o in menu_of(msg)["options"]] == [str(h.id) for h in hands[25:]]
    assert "26–27 of 27" in msg.embeds[0]["description"]
    assert len([a for a in msg.data["attachments"] if a["filename"] == "standings.png"]) == 1
    await fd.click(users[0], msg, f"mjp:{match.id}:0:0")
    assert [o["value"] for o in menu_of(fd.message(msg.id))["options"]] == [str(h.id) for h in hands[:25]]
    r = await fd.select(users[0], fd.message(msg.id), f"mjm:{match.id}:0", [str(hands[24].id)])
    assert f"Replay of hand #{hands[24].id}" in r.message.text
    await fd.close()


@pytest.mark.asyncio
async def test_the_match_length_at_create_and_its_bad_values(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    u = fd.user(1, "alice")
    r = await fd.slash(u, "mj table create", {"variant": "two_player", "options": "match_hands=300"})
    assert r.ephemeral and as_shown(r.text).startswith("Option match_hands cannot be 300")
    r = await fd.slash(u, "mj table create", {"variant": "zipai", "hands": 3})
    assert r.ephemeral and r.text.splitlines()[1] == \
        "A match of 3 hands: the table closes with the final standings after the last one."
    assert bot.service.table_in(fd.channel_id).options["match_hands"] == 3
    # a server default sets it for every table of a game; a typed value wins
    await fd.slash(u, "mj table end")
    admin = fd.user(2, "admin", admin=True)
    await fd.slash(admin, "mj config default", {"variant": "two_player", "options": "match_hands=8"})
    await fd.slash(u, "mj table create", {"variant": "two_player"})
    assert bot.service.table_in(fd.channel_id).options["match_hands"] == 8
    await fd.slash(u, "mj table end")
    await fd.slash(u, "mj table create", {"variant": "two_player", "hands": 2})
    assert bot.service.table_in(fd.channel_id).options["match_hands"] == 2
    await fd.close()
