"""Each player's private panel, through the fake Discord, in every game: one DM per player
per hand edited in place (never a new DM per decision); it shows the other seats' discards
and melds; after the last move and after a restart it equals the seat's panel view; at every
step at most one notice message per player exists; a panel uploads no picture (its hand is
tile buttons, the table its tiles in text); closed DMs give one channel message per player per hand, mentioning only them,
and a panel again at the next hand once DMs are open."""

from __future__ import annotations

import pytest

from games import game_ids, game_params, per_game

from cogs import messages
from render.text.prompts import short_tile
from service.clock import ManualClock

try:
    from discord_play import new_bot, press, timeout_policy
    from fakediscord import FakeDiscord
    from panel_checks import V2, panel_now, notices_of, panel_uploads, panels_of, seated_table
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press, timeout_policy
    from tests.harness.fakediscord import FakeDiscord
    from tests.harness.panel_checks import V2, panel_now, notices_of, panel_uploads, panels_of, seated_table

SEATING = {"two_player": (2, 0), "laosanfan": (2, 2), "jinhu": (2, 2), "caishen": (2, 2),
           "laowudui": (2, 1), "zipai": (2, 1)}
#: every game, 字牌 and 财神麻将 in the quick lane (the others in the slow one: whole hands)
GAMES = game_params(quick=("zipai", "caishen"))


async def _table(tmp_path, game: str, seed: int = 7, closed: tuple = ()):
    humans, ais = per_game(SEATING, game)
    return await seated_table(tmp_path, game, seed, humans=humans, ais=ais, closed=closed)


def check_step(fd, users, start_call: int) -> None:
    for user in users.values():
        assert len(notices_of(fd, user)) <= 1, [m.content for m in notices_of(fd, user)]
    assert all(images == [] for images in panel_uploads(fd, fd.calls[start_call:]).values())  # no panel picture


def shown(components: list) -> list:
    """What a component tree shows, without the ids Discord numbers it with: each text, and
    each button's id, label, emoji and whether it is disabled, in order."""
    out = []

    def walk(items):
        for c in items:
            if c.get("type") == 10:
                out.append(("text", c["content"]))
            elif c.get("type") == 2:
                out.append(("button", c.get("custom_id"), c.get("label"), (c.get("emoji") or {}).get("id"),
                            bool(c.get("disabled"))))
            elif c.get("type") == 3:
                out.append(("menu", c.get("custom_id"), tuple(o["value"] for o in c.get("options", []))))
            walk(c.get("components") or [])

    walk(components)
    return out


def panel_matches_view(fd, bot, table, seat: int, user) -> None:
    """The user's panel is what the seat's panel view draws now: its words, its table of
    tiles and its buttons."""
    (panel,) = panels_of(fd, user)
    parts = panel_now(bot, table, seat)
    assert shown(panel.components) == shown(messages.panel_layout(parts, buttons=parts.rows != []).to_components())
    assert parts.content in panel.text and panel.attachments == []


@pytest.mark.asyncio
@pytest.mark.parametrize("game", GAMES)
async def test_one_panel_per_player_per_hand_edited_in_place(game, tmp_path):
    bot, fd, table, users = await _table(tmp_path, game)
    try:
        start = len(fd.calls)
        hand_id = table.hand_id
        steps = 0
        while not table.hand.is_over():
            seat = next(s for s in table.hand.pending_seats() if s in users)
            await press(fd, users[seat], timeout_policy(table.hand, seat))
            await fd.settle()
            steps += 1
            check_step(fd, users, start)
            # one panel per player in this hand, whatever happened
            for user in users.values():
                assert len(panels_of(fd, user)) == 1
        assert steps > 3 and table.hand_id == hand_id
        # every panel was sent once and edited after: more edits than panels
        edits = [c for c in fd.calls[start:] if c.method == "PATCH" and "/messages/" in c.path]
        assert len(edits) > len(users)
        for seat, user in users.items():
            panel_matches_view(fd, bot, table, seat, user)
            # no notice is left once the hand is over
            assert notices_of(fd, user) == []
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_panel_shows_the_other_seats_and_a_notice_pings_the_decision(tmp_path):
    bot, fd, table, users = await _table(tmp_path, "laosanfan", seed=5)
    try:
        for _ in range(12):
            seat = next(s for s in table.hand.pending_seats() if s in users)
            await press(fd, users[seat], timeout_policy(table.hand, seat))
            await fd.settle()
            if table.hand.is_over():
                break
        for seat, user in users.items():
            view = bot.service.snapshot(table.channel_id).parts[seat].view
            others = [sv for sv in view["seats"] if sv["seat"] != seat]
            # the other seats' discards, as the table shows them, and only the viewer's hand
            assert any(sv["discards"] for sv in others)
            assert all(sv.get("concealed") is None for sv in others)
            assert view["me"]["hand"] and view["viewer"] == seat
            panel_matches_view(fd, bot, table, seat, user)
            (panel,) = panels_of(fd, user)
            for sv in others:  # each other seat's last discard is in the panel's table of tiles
                claimed = set(sv.get("claimed_discards") or ())
                pond = [x for n, x in enumerate(sv["discards"]) if n not in claimed]
                line = next(x for x in panel.text.split("\n") if x.startswith("**") and f"** {sv['wind']}" in x)
                if pond:
                    lang = bot.service.snapshot(table.channel_id).parts[seat].lang
                    assert short_tile(pond[-1], lang) in line.split("·")[-1], line
        waiting = [s for s in table.hand.pending_seats() if s in users]
        assert waiting and not table.hand.is_over()  # seed 5: a player decides after 12 presses
        for seat, user in users.items():
            notes = notices_of(fd, user)
            # the player the hand waits for has one notice linking to their panel; the others none
            assert len(notes) == (1 if seat in waiting else 0)
            if notes:
                (panel,) = panels_of(fd, user)
                assert f"/{panel.channel_id}/{panel.id}" in notes[0].content
                # the time left, as a Discord timestamp of the decision's wall-clock deadline
                # (the manual clock's time + its fixed epoch)
                when = f"<t:{int(ManualClock.EPOCH + table.deadline)}:R>"
                assert when in panel.text and when in notes[0].content
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", game_ids())
async def test_after_a_restart_each_panel_is_edited_to_the_current_view(game, tmp_path):
    bot, fd, table, users = await _table(tmp_path, game, seed=3)
    try:
        for _ in range(6):
            if table.hand.is_over():
                break
            seat = next(s for s in table.hand.pending_seats() if s in users)
            await press(fd, users[seat], timeout_policy(table.hand, seat))
            await fd.settle()
        before = {seat: panels_of(fd, user)[0].id for seat, user in users.items()}
        notes = {seat: [m.id for m in notices_of(fd, user)] for seat, user in users.items()}
        bot2 = new_bot(bot.store.db.parsed_url.render_as_string(hide_password=False), ManualClock())
        await fd.restart(bot2)
        await fd.settle()
        table2 = bot2.service.table_in(fd.channel_id)
        for seat, user in users.items():
            assert [m.id for m in panels_of(fd, user)] == [before[seat]]  # the same panel, edited
            panel_matches_view(fd, bot2, table2, seat, user)
            # at most one notice, the one kept through the restart when the decision is the same
            live = [m.id for m in notices_of(fd, user)]
            assert len(live) <= 1 and (not live or not notes[seat] or live == notes[seat])
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", GAMES)
async def test_closed_dms_get_one_channel_notice_per_hand_and_a_panel_once_open(game, tmp_path):
    bot, fd, table, users = await _table(tmp_path, game, seed=4, closed=(1,))
    try:
        closed = next(u for u in users.values() if not u.dms_open)
        open_user = next(u for u in users.values() if u.dms_open)

        def channel_notices():
            return [c for c in fd.calls if c.method == "POST" and c.path == f"/channels/{fd.channel_id}/messages"
                    and f"<@{closed.id}>" in ((c.json or {}).get("content") or "")]

        while not table.hand.is_over():
            seat = next(s for s in table.hand.pending_seats() if s in users)
            if users[seat] is closed:
                r = await fd.slash(closed, "mj hand")
                assert r.ephemeral and r.message.flags & V2, r.message
                hand = bot.service.snapshot(table.channel_id).parts[seat].view["me"].get("hand")
                # the hand as tile buttons (字牌's 飘 is declared before the cards are dealt)
                assert bool(hand) == any(":discard:" in c for c in r.message.custom_ids), r.message.components
            await press(fd, users[seat], timeout_policy(table.hand, seat))
            await fd.settle()
        sent = channel_notices()
        assert len(sent) == 1  # at the deal, never because a decision came
        allowed = sent[0].json["allowed_mentions"]
        assert allowed.get("parse", []) == [] and [int(u) for u in allowed.get("users")] == [closed.id]
        assert panels_of(fd, closed) == [] and len(panels_of(fd, open_user)) == 1
        # DMs opened: the next hand brings a panel by DM, and no channel notice
        closed.dms_open = True
        await fd.click(open_user, *_next_button(fd))
        await fd.settle()
        assert table.hand_id is not None and not table.hand.is_over()
        assert len(panels_of(fd, closed)) == 1 and len(channel_notices()) == 1
    finally:
        await fd.close()


def _next_button(fd):
    from discord_play import table_button

    return table_button(fd, fd.channel_id, "next")


#: (game, seats, table seed, options, most legal actions at one decision): the table seeds
#: (of 1–79) whose first hand, played by the AI, holds the largest decision of each game at its
#: most seats (``Match(...).new_hand()`` is that hand); 老五对 with 11 百搭
LARGEST = [("two_player", 2, 55, None, 14), ("laosanfan", 4, 4, None, 14), ("jinhu", 4, 35, None, 17),
           ("caishen", 4, 5, None, 14), ("laowudui", 4, 7, "wilds=11", 13), ("zipai", 4, 5, None, 14)]


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.parametrize("game,seats,seed,options,most", LARGEST)
async def test_the_largest_decisions_fit_discords_limits(game, seats, seed, options, most, tmp_path):
    """Every seat human, the hand played by its own AI through the panels: every payload
    passes the fake's checks of Discord's limits (a refused one would leave the move
    unoffered), and the largest decision offers every legal action (tiles as buttons, the
    rest as buttons or one menu; 听 with a tile behind the 听 button)."""
    from discord_play import play_humans

    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: seed
        users = [fd.user(800 + j, f"p{j}") for j in range(seats)]
        await fd.slash(users[0], "mj table create", {"variant": game, **({"options": options} if options else {})})
        for u in users[1:]:
            await fd.slash(u, "mj table join")
        await fd.slash(users[0], "mj table start")
        table = bot.service.table_in(fd.channel_id)
        by_seat = {table.seat_of(u.id): u for u in users}
        biggest = 0

        def policy(hand, seat):
            nonlocal biggest
            legal = hand.legal_actions(seat)
            if len(legal) > biggest:
                biggest = len(legal)
                (panel,) = panels_of(fd, by_seat[seat])
                offered = set()
                for comp in panel.walk_components():
                    cid = comp.get("custom_id", "")
                    if comp.get("type") == 2 and cid.startswith("mj:") and not comp.get("disabled"):
                        offered.add(tuple(cid.split(":")[4:6]))
                    for opt in comp.get("options", []):
                        offered.add(tuple(opt["value"].split(":")))
                wanted = {(a.type, str(a).split()[2] if len(str(a).split()) > 2 else "-") for a in legal}
                wanted = {w for w in wanted if not (w[0] == "ting" and w[1] != "-")}
                assert wanted <= offered | ({("ting_menu", "-")} if any(a.type == "ting" for a in legal) else set()), \
                    (wanted - offered)
            return hand.ai_action(seat)

        presses = await play_humans(fd, bot, fd.channel_id, by_seat, policy=policy)
        assert presses > 10 and table.hand.is_over()
        assert biggest == most
        if options:
            assert table.options["wilds"] == 11
    finally:
        await fd.close()
