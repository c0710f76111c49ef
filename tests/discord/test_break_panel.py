"""A reviewer's attempts to break each player's private panel (``cogs/fanout.py``,
``cogs/messages.py`` ``panel_view``/``hand_parts``, ``render/text/panel.py``) and the typed
actions (``/act``, ``render/text/typed.py``), through the fake Discord, in the six games.

Each test states the behaviour it expects and why; the tests that fail show a fault of the
bot (nothing here changes the bot)."""

from __future__ import annotations

import pytest

from cogs import messages
from cogs.emojis import FACE_DOWN

try:
    from discord_play import play_humans, press, table_button, timeout_policy
    from fakediscord import ping_problems
    from panel_checks import panel_now, plain, notices_of, panel_uploads, panels_of, restarted_bot, seated_table as _table
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import play_humans, press, table_button, timeout_policy
    from tests.harness.fakediscord import ping_problems
    from tests.harness.panel_checks import panel_now, plain, notices_of, panel_uploads, panels_of, restarted_bot, seated_table as _table

DM_POST = "POST /channels/{channel_id}/messages"


def action_buttons(msg) -> list[str]:
    return [c for c in msg.custom_ids if c.startswith(("mj:", "mjs:"))]


def channel_mentions(fd, user) -> list:
    """The bot's channel messages that mention ``user`` (the closed-DM notice)."""
    return [c for c in fd.calls if c.method == "POST" and c.path == f"/channels/{fd.channel_id}/messages"
            and c.status < 300 and f"<@{user.id}>" in ((c.json or {}).get("content") or "")]


# ------------------------------------------------------------------------------------------
# the table ends mid-hand
# ------------------------------------------------------------------------------------------

@pytest.mark.some_games("a hand of 字牌 and one of 老三番 stand for the rest: the end is the same code in every game")
@pytest.mark.asyncio
@pytest.mark.parametrize("game,seed,ais", [("laosanfan", 5, 2), ("zipai", 3, 1)])
async def test_ending_the_table_mid_hand_deletes_the_notice_and_the_panels_buttons(game, seed, ais, tmp_path):
    """Expected: when the creator ends the table (``/mj table end``) while a player must
    decide, that player's notice ("Your turn … →") is deleted — its decision passed, exactly as
    when a hand ends (README: a notice "is deleted when they answer or the decision passes") —
    and no panel keeps action buttons of a table that no longer exists.  Found: the fan-out of a
    closed table only redraws the table message; the notice stays, pinging a turn that will
    never come, and the panel keeps its buttons."""
    bot, fd, table, users = await _table(tmp_path, game, seed, ais=ais)
    try:
        for _ in range(20):  # play until a player holds a notice
            seat = next(s for s in table.hand.pending_seats() if s in users)
            await press(fd, users[seat], timeout_policy(table.hand, seat))
            await fd.settle()
            if any(notices_of(fd, u) for u in users.values()):
                break
        waiting = [s for s in table.hand.pending_seats() if s in users]
        assert waiting and any(notices_of(fd, users[s]) for s in waiting)  # a live notice before the end
        creator = users[table.seat_of(700)]
        await fd.slash(creator, "mj table end")
        await fd.settle()
        for seat, user in users.items():
            assert notices_of(fd, user) == [], [m.content for m in notices_of(fd, user)]
            for panel in panels_of(fd, user):
                assert action_buttons(panel) == [], action_buttons(panel)
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# closed DMs and restarts
# ------------------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_a_restart_does_not_mention_a_closed_dm_player_again_in_the_same_hand(tmp_path):
    """Expected: a player whose DMs are closed is mentioned in the channel ONCE per hand, at the
    deal (README: "the bot tells you so in the channel once per hand, at the deal"; after a
    restart it "pings only what was not pinged — none twice").  Found: the set of players told
    is kept in memory only (``TableFeed.channel_noticed``) and the restart's ``resume`` counts
    as a deal, so every restart mid-hand mentions the player in the channel again."""
    bot, fd, table, users = await _table(tmp_path, "two_player", 4, closed=(1,))
    try:
        closed = next(u for u in users.values() if not u.dms_open)
        assert len(channel_mentions(fd, closed)) == 1  # at the deal
        seat = table.hand.pending_seats()[0]
        await press(fd, users[seat], timeout_policy(table.hand, seat))  # the hand goes on
        await fd.settle()
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        t2 = fd.bot.service.table_in(fd.channel_id)
        assert t2.hand_id == table.hand_id and not t2.hand.is_over()  # still the same hand
        assert len(channel_mentions(fd, closed)) == 1
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_restart_that_changes_nothing_uploads_no_panel_image_again(tmp_path):
    """Expected: "an image your panel already shows is not uploaded again" (README) holds across
    a restart.  Found: what a panel shows was kept in memory only, so each restart re-uploaded
    every panel's image.  A panel now carries no image at all (its hand is tile buttons, its
    table text): nothing is uploaded to a panel, before a restart or after two."""
    bot, fd, table, users = await _table(tmp_path, "two_player", 5)
    try:
        for _ in range(4):
            seat = table.hand.pending_seats()[0]
            await press(fd, users[seat], timeout_policy(table.hand, seat))
        await fd.settle()
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        shown = {m.id: m.text for u in users.values() for m in panels_of(fd, u)}
        assert len(shown) == len(users)
        await fd.restart(restarted_bot(fd.bot))
        await fd.settle()
        assert all(images == [] for images in panel_uploads(fd, fd.calls).values())
        assert {m.id: m.text for u in users.values() for m in panels_of(fd, u)} == shown  # the same panels
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# what a panel shows the viewer of their own seat
# ------------------------------------------------------------------------------------------

@pytest.mark.some_games("face-down groups: 字牌 偎/提 and 二人麻将 暗杠")
@pytest.mark.asyncio
@pytest.mark.parametrize("game,seed,ais", [("zipai", 4, 1), ("zipai", 3, 1), ("two_player", 25, 0)])
async def test_the_panel_shows_the_viewer_their_own_face_down_groups(game, seed, ais, tmp_path):
    """Expected: a panel is "the public table plus their own hand" (README), so the viewer's
    own concealed groups — 字牌's 偎/提 (with their 胡息), a concealed kong (暗杠) — are shown
    face up to them, as the seat's own view (``Table.view(seat)``) has them, and as the hand
    image showed them before the panel.  Found: ``messages.panel_view`` copies only the
    viewer's ``concealed``/``drawn`` tiles into the public view, so the viewer's own 偎/提 and
    暗杠 are drawn face down on their own panel, and their own 胡息 shown is short by those
    groups."""
    bot, fd, table, users = await _table(tmp_path, game, seed, ais=ais)
    try:
        checked = 0
        for _ in range(120):
            if table.hand.is_over():
                break
            for seat in users:
                own = next(s for s in table.hand.view(seat)["seats"] if s["seat"] == seat)
                if any(m.get("concealed") for m in own["melds"]):
                    view = bot.service.snapshot(table.channel_id).parts[seat].view  # what the panel is drawn from
                    shown = next(s for s in view["seats"] if s["seat"] == seat)
                    assert plain(shown["melds"]) == own["melds"]
                    assert shown.get("huxi_shown") == own.get("huxi_shown")
                    # … and its table of tiles writes them face up
                    (panel,) = panels_of(fd, users[seat])
                    line = next(x for x in panel.text.split("\n") if x.startswith("**") and f"** {own['wind']}" in x)
                    assert FACE_DOWN not in line.split("·")[1], line
                    checked += 1
            if checked:
                break
            seat = next(s for s in table.hand.pending_seats() if s in users)
            await press(fd, users[seat], table.hand.ai_action(seat))
        assert checked, "no concealed group in this seed's hand"
    finally:
        await fd.close()


@pytest.mark.some_games("字牌 飘, a choice each seat makes before the first turn, kept secret until all chose")
@pytest.mark.asyncio
@pytest.mark.parametrize("game,seed,ais", [("zipai", 5, 1)])
async def test_the_panel_shows_the_viewer_their_own_opening_choice(game, seed, ais, tmp_path):
    """Expected: once a player declared 飘 (字牌) at the opening, their own panel shows their
    choice while the others still choose (it is their own decision; the seat's own view has
    it).  Found: the panel takes the seat from the public view, where the
    choices stay hidden until everybody chose, so the player's panel shows nothing of what they
    chose."""
    bot, fd, table, users = await _table(tmp_path, game, seed, ais=ais)
    try:
        seat = next(s for s in table.hand.pending_seats() if s in users)
        await press(fd, users[seat], table.hand.legal_actions(seat)[0])
        await fd.settle()
        others = [s for s in table.hand.pending_seats() if s != seat]
        assert others, "the opening is over already"
        own = next(s for s in table.hand.view(seat)["seats"] if s["seat"] == seat)
        view = bot.service.snapshot(table.channel_id).parts[seat].view  # what the panel is drawn from
        shown = next(s for s in view["seats"] if s["seat"] == seat)
        for key in ("piao", "piao_chosen", "bought"):
            assert shown.get(key) == own.get(key), (key, shown.get(key), own.get(key))
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# the notice
# ------------------------------------------------------------------------------------------

@pytest.mark.some_games("the games with a decision before the first turn: 字牌 飘 and 老五对 买庄")
@pytest.mark.asyncio
@pytest.mark.parametrize("game,word", [("zipai", "飘"), ("laowudui", "买庄")])
async def test_the_notice_of_an_opening_decision_says_what_is_asked(game, word, tmp_path):
    """Expected: the notice says what is asked ("what is asked (your turn / you may claim …)",
    ``render/text/panel.notice_text``): at 字牌's deal the players are asked to declare 飘, at
    老五对's whether to 买庄.  Found: the notice takes the first line of the hand's prompt,
    which for these decisions is only the caption "你的手牌" / "Your hand": the ping does not
    say there is a decision, let alone which."""
    bot, fd, table, users = await _table(tmp_path, game, 5, ais=1)
    try:
        zh = next(u for u in users.values() if u.locale == "zh-CN")
        seat = table.seat_of(zh.id)
        assert seat in table.hand.pending_seats()
        (notice,) = notices_of(fd, zh)
        assert word in notice.content, notice.content
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's retries and the panels' back-off
async def test_the_notice_links_to_the_panel_of_this_hand(tmp_path):
    """Expected: a notice links to the panel that shows the decision it pings (README: it
    "links to the panel").  Here Discord fails the first panel DM of hand 2 (five 502s, all of
    discord.py's tries); the fan-out sends the panel on its next pass.  Found: the notice is sent
    all the same, linking to the panel of hand 1 (whose buttons are stale), and is never
    corrected once hand 2's panel exists."""
    bot, fd, table, users = await _table(tmp_path, "two_player", 4)
    try:
        await play_humans(fd, bot, fd.channel_id, users)
        await fd.settle()
        for user in users.values():
            dm = user.dm_channel_id
            fd.fail_next(502, route=lambda c, dm=dm: c.key == DM_POST and c.path == f"/channels/{dm}/messages",
                         times=5)
        await fd.click(users[0], *table_button(fd, fd.channel_id, "next"))
        await fd.settle()
        hand2 = table.hand_id
        seat = table.hand.pending_seats()[0]
        user = users[seat]
        current = [m for m in panels_of(fd, user) if any(f":{hand2}:" in c for c in action_buttons(m))]
        assert len(current) == 1, "no panel of hand 2"
        for notice in notices_of(fd, user):
            assert f"/{current[0].channel_id}/{current[0].id}" in notice.content, notice.content
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_notice_kept_through_a_restart_shows_the_restarted_deadline(tmp_path):
    """Expected: a notice shows the decision's deadline ("the time left", README) — the same
    time as the panel.  A restart restarts the turn timer in full, and the bot keeps the notice
    of a decision it already pinged; that notice must then tell the new deadline (edited, or sent
    anew), not the old one.  Found: the kept notice still counts down to the old deadline (10 s
    earlier here) while the panel shows the new one."""
    import re

    bot, fd, table, users = await _table(tmp_path, "two_player", 4)
    try:
        seat = table.hand.pending_seats()[0]
        user = users[seat]
        assert len(notices_of(fd, user)) == 1
        bot.service.clock.advance(10)
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        t2 = fd.bot.service.table_in(fd.channel_id)
        when = f"<t:{t2.deadline_unix()}:R>"
        (panel,) = panels_of(fd, user)
        assert when in panel.text  # the panel has the restarted timer
        for notice in notices_of(fd, user):
            assert re.findall(r"<t:\d+:R>", notice.content) == [when], notice.content
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# privacy
# ------------------------------------------------------------------------------------------

@pytest.mark.some_games("a situation found by seed in two games; every game has it in tests/service/test_privacy_twins.py")
@pytest.mark.asyncio
@pytest.mark.parametrize("game,seed", [("laosanfan", 23), ("caishen", 9)])
async def test_another_players_pass_in_a_claim_window_does_not_change_my_panel(game, seed, tmp_path):
    """Two humans may both claim an AI's discard (seats 0 and 1; table seed chosen so).  Five
    seconds in, seat 1 passes — a hidden move (the table message never says who could claim or
    who passed).  Expected: seat 0's panel does not change (README: "Another player's pass does
    not make your buttons stale"; a panel is only the public view plus the viewer's own hand and
    decision).  Found: each action re-arms the table's timer, so the pass moves the claim
    window's deadline and seat 0's panel is edited with a later countdown — telling seat 0 that
    another player could claim the tile and passed (and its notice keeps the old time)."""
    from engine.actions import Action

    bot, fd, table, users = await _table(tmp_path, game, seed, ais=2)
    try:
        await play_humans(fd, bot, fd.channel_id, users, until=lambda t: {0, 1} <= set(t.hand.pending_seats()))
        await fd.settle()
        assert table.hand.phase == "claim"
        (panel,) = panels_of(fd, users[0])
        before = panel.text
        bot.service.clock.advance(5)
        await press(fd, users[1], Action(1, "pass"))
        await fd.settle()
        assert table.hand.pending_seats() == [0]
        assert fd.messages[panel.id].text == before
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# typed actions
# ------------------------------------------------------------------------------------------

def _legal(table, seat) -> list[str]:
    """The seat's legal actions without the seat (``"discard 5X"``, ``"chi_d 7X"``, ``"pass"``)."""
    return [str(a).split(" ", 1)[1] for a in table.hand.legal_actions(seat)]


async def _play_until(fd, table, users, wanted, limit: int = 150):
    """Play the humans by the AI's choice until ``wanted(seat, legal)`` holds for the human
    the hand waits for; returns that seat."""
    for _ in range(limit):
        assert not table.hand.is_over(), "the hand ended first"
        seat = next(s for s in table.hand.pending_seats() if s in users)
        if wanted(seat, _legal(table, seat)):
            return seat
        await press(fd, users[seat], table.hand.ai_action(seat))
    raise AssertionError("not reached")


@pytest.mark.asyncio
async def test_act_with_a_small_zipai_card_never_plays_the_big_one(tmp_path):
    """字牌 (table seed 1): a player may discard the big 7 (7X, 柒) but holds no small 7 (7x, 七)
    and types ``/act 7x``.  Expected: refused (``unknown_action``) and nothing played — a small
    and a big card are different cards (``render/text/typed.py``: "case kept: a 字牌 ``5x``
    small card is not ``5X``").  Found: the case-blind second pass of ``typed.parse`` matches
    ``7X`` and the big 7 is discarded."""
    bot, fd, table, users = await _table(tmp_path, "zipai", 1, ais=1)
    try:
        def wanted(seat, legal):
            return "discard 7X" in legal and "discard 7x" not in legal

        seat = await _play_until(fd, table, users, wanted)
        before = list(table.actions)
        r = await fd.slash(users[seat], "act", {"action": "7x"}, check=False)
        assert table.actions == before, f"played {table.actions[len(before):]} for '7x'"
        assert r.ephemeral
    finally:
        await fd.close()


@pytest.mark.some_games("字牌 and 老五对, whose 吃 a typed command may give without tiles")
@pytest.mark.asyncio
@pytest.mark.parametrize("game,seed", [("zipai", 1), ("laowudui", 1)])
async def test_chow_without_tiles_makes_the_games_only_chi(game, seed, tmp_path):
    """Expected: ``/chow`` reads as the game's own 吃 when the game has no shared chow (README:
    "``/chow`` 老五对's 吃"); with exactly one way to 吃, ``/chow`` with no tiles makes it, as it
    does for a mahjong chow.  Found: with no ``tiles`` the command looks only for the shared
    ``chow`` action, finds none and refuses "You cannot Chow 吃 this tile." although 吃 is legal."""
    bot, fd, table, users = await _table(tmp_path, game, seed, ais=1)
    try:
        def wanted(seat, legal):
            return len([a for a in legal if a.split()[0].startswith("chi")]) == 1

        seat = await _play_until(fd, table, users, wanted)
        chi = next(a for a in _legal(table, seat) if a.split()[0].startswith("chi"))
        before = list(table.actions)
        r = await fd.slash(users[seat], "chow", {}, check=False)
        assert table.actions[len(before):len(before) + 1] == [f"{seat} {chi}"], r.content
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_discard_takes_a_small_zipai_card_as_its_button_names_it(tmp_path):
    """字牌 (table seed 1): the panel's button for a small card (here the small 3, 3x) reads "三"
    to a zh-CN player.  Expected: ``/discard 三`` discards it (README: tiles may be typed as
    shown; ``/act 三`` does, and ``/discard 叁`` takes the big 3).  Found: ``/discard`` parses its
    tile with the mahjong tile parser, which knows the small cards' names as no tile: "Unknown
    tile: 三"."""
    from render.text.catalogue import short_tile

    bot, fd, table, users = await _table(tmp_path, "zipai", 1, ais=1)
    try:
        zh = next(u for u in users.values() if u.locale == "zh-CN")

        def wanted(seat, legal):
            return users[seat] is zh and any(a.startswith("discard") and a.endswith("x") for a in legal)

        seat = await _play_until(fd, table, users, wanted)
        card = next(a.split()[1] for a in _legal(table, seat) if a.startswith("discard") and a.endswith("x"))
        name = short_tile(card, "zh-CN")
        (panel,) = panels_of(fd, zh)
        assert any(c.get("label") == name for c in panel.walk_components()), "the button reads otherwise"
        before = list(table.actions)
        r = await fd.slash(zh, "discard", {"tile": name}, check=False)
        assert table.actions[len(before):len(before) + 1] == [f"{seat} discard {card}"], r.content
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# Discord failing
# ------------------------------------------------------------------------------------------

@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's retries and the panels' back-off
async def test_a_panel_edit_lost_when_a_decision_comes_is_tried_again(tmp_path):
    """two_player (table seed 4): the first player discards; the other player's panel must now
    show their turn's buttons, but Discord answers 503 to both edits of that panel the fan-out
    makes (the prompt's and the paced redraw's; discord.py does not retry a 503).  Expected: the
    panel is drawn again later — the table message is retried with a back-off after such a
    failure (``TableFeed.publish``), and a notice ("Your turn … →") must not point at a panel
    with no buttons.  Found: ``Fanout.show_panel`` logs the failure and leaves the retry to "the
    next change", which never comes while the table waits for this very player: the notice is
    sent, and the panel keeps no buttons until the timeout plays for them."""
    import asyncio

    bot, fd, table, users = await _table(tmp_path, "two_player", 4)
    try:
        seat = table.hand.pending_seats()[0]
        other = next(s for s in users if s != seat)
        (panel,) = panels_of(fd, users[other])
        fd.fail_next(503, route=lambda c: c.method == "PATCH" and c.path.endswith(f"/messages/{panel.id}"),
                     times=2)
        await press(fd, users[seat], timeout_policy(table.hand, seat))
        await fd.settle()
        assert table.hand.pending_seats() == [other]
        prefix = f"mj:{fd.channel_id}:{table.hand_id}:d{table.decisions[other]}:"
        for _ in range(20):  # up to 5 s of real time (and timer ticks) for a retry
            if any(c.startswith(prefix) for c in fd.messages[panel.id].custom_ids):
                break
            await asyncio.sleep(0.25)
            await bot.service.tick()
            await fd.settle()
        assert any(c.startswith(prefix) for c in fd.messages[panel.id].custom_ids), \
            f"the panel offers nothing for the decision; notices: {[m.content for m in notices_of(fd, users[other])]}"
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("last", [False, True], ids=["mid_hand", "last_move"])
@pytest.mark.slow  # real waits: Discord's retries and the panels' back-off
async def test_a_click_whose_answer_failed_still_gets_the_panel_redrawn(last, tmp_path):
    """two_player (table seed 4): a player clicks on their DM panel; the move is stored, but the
    answer to the click (the edit of the clicked panel) fails — the interaction expired (404
    10062), as after a slow store.  Expected: the fan-out redraws the panel, so it shows the
    table as it is (no buttons of the decision just answered; after the hand's last move, the
    result).  Found: ``on_action_button`` calls ``Fanout.panel_answered`` whether or not the
    answer was delivered, so the fan-out believes the panel shows the new state and never
    redraws it: the panel keeps offering the answered decision — after the last move of the
    hand, for good, without the result."""
    import copy

    CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
    bot, fd, table, users = await _table(tmp_path, "two_player", 4)
    try:
        while last:
            seat = table.hand.pending_seats()[0]
            action = timeout_policy(table.hand, seat)
            after = copy.deepcopy(table.hand)
            after.apply(action)
            if after.is_over():
                break
            await press(fd, users[seat], action)
        seat = table.hand.pending_seats()[0]
        user = users[seat]
        (panel,) = panels_of(fd, user)
        answered = f"mj:{fd.channel_id}:{table.hand_id}:d{table.decisions[seat]}:"
        fd.fail_next(404, route=CALLBACK, code=10062)
        r = await press(fd, user, timeout_policy(table.hand, seat), check=False)
        await fd.settle()
        assert r.response_type is None and not r.errors  # not answered, handled
        assert table.hand.is_over() is last
        panel = fd.messages[panel.id]
        assert not any(c.startswith(answered) for c in panel.custom_ids), panel.text
        parts = panel_now(bot, table, seat)
        assert panel.text.startswith(parts.content)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_restart_keeps_each_panel_in_its_players_language(tmp_path):
    """two_player (table seed 4): p0 (en-US) opens the table, p1 (zh-CN) joins; p1's panel is in
    简体中文.  The bot restarts and p0 plays a move.  Expected: p1's panel — the same message,
    edited in place — and p1's notice stay in p1's language (the restart changes nothing p1
    did).  Found: the players' languages are kept in memory only (``bot.user_langs``), so after
    a restart every panel and notice is redrawn in the table's language (English) until the
    player interacts again."""
    bot, fd, table, users = await _table(tmp_path, "two_player", 4)
    try:
        zh = next(u for u in users.values() if u.locale == "zh-CN")
        (panel,) = panels_of(fd, zh)
        assert "二人麻将**" in panel.text.split("\n")[0]  # the zh-CN header: **二人麻将** · … · 第 1 局
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        t2 = fd.bot.service.table_in(fd.channel_id)
        seat = t2.hand.pending_seats()[0]
        assert users[seat] is not zh
        await press(fd, users[seat], timeout_policy(t2.hand, seat))
        await fd.settle()
        (panel,) = panels_of(fd, zh)
        assert panel.text.split("\n")[0].startswith("**二人麻将**"), panel.text.split("\n")[0]
        for notice in notices_of(fd, zh):
            assert "Your" not in notice.content, notice.content
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's retries and the panels' back-off
async def test_a_notice_whose_delete_failed_once_is_not_left_behind(tmp_path):
    """two_player (table seed 4): Discord answers 503 once to the deletion of a notice (the
    decision was answered; discord.py does not retry a 503).  Expected: at every later step each
    player has at most one notice, and none once the hand is over (README: "at most one").
    Found: ``Fanout.delete_notice`` forgets the notice before it tries to delete it, so the one
    failure leaves that notice live for good — the player holds two notices at each later
    decision, and one after the hand."""
    bot, fd, table, users = await _table(tmp_path, "two_player", 4)
    try:
        fd.fail_next(503, route="DELETE /channels/{channel_id}/messages/{message_id}", times=1)
        steps = 0
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            await press(fd, users[seat], timeout_policy(table.hand, seat))
            await fd.settle()
            steps += 1
            for s, user in users.items():
                assert len(notices_of(fd, user)) <= 1, (steps, s, [m.content for m in notices_of(fd, user)])
        for user in users.values():
            assert notices_of(fd, user) == []
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_act_takes_ting_with_a_tile_in_traditional_chinese(tmp_path):
    """two_player (table seed 1), p1 plays in 繁體中文 (zh-TW).  When p1 may declare 听 with a
    discard, they type the game's term as they read it: ``/act 聽 西風`` (zh-CN players type
    ``听 西风``, which works).  Expected: the 听 is declared (README: ``/act`` takes "the game's
    term" in zh-CN/zh-TW/en).  Found: the typed verbs know 聽 only as the menu button's "聽…"
    (with its ellipsis), so ``聽 西風`` names no action: "現在沒有這個操作"."""
    from render.text.catalogue import short_tile

    bot, fd, table, users = await _table(tmp_path, "two_player", 1, locales=("en-US", "zh-TW"))
    try:
        tw = next(u for u in users.values() if u.locale == "zh-TW")

        def wanted(seat, legal):
            return users[seat] is tw and any(a.startswith("ting ") for a in legal)

        seat = await _play_until(fd, table, users, wanted)
        tile = next(a.split()[1] for a in _legal(table, seat) if a.startswith("ting "))
        text = f"聽 {short_tile(tile, 'zh-TW')}"
        before = list(table.actions)
        r = await fd.slash(tw, "act", {"action": text}, check=False)
        assert table.actions[len(before):len(before) + 1] == [f"{seat} ting {tile}"], (text, r.content)
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# regression guards (these pass): behaviour that held under the same attacks
# ------------------------------------------------------------------------------------------

ODD_TEXTS = ["", " ", "a" * 6000, "🀄", "**碰**", "<@700>", "@everyone", "<@&1>", "||5m||", "5m\n碰", "买庄",
             "飘 1", "八", "chi_d 5X", "discard 5m 6m", "<t:1:R>"]


@pytest.mark.asyncio
async def test_act_with_odd_text_is_refused_privately_and_changes_nothing(tmp_path):
    """Guard: ``/act`` with empty, very long, emoji, markdown, mention or another game's text
    (two_player, the player on turn, none of these a legal action here) is refused in a private
    answer within Discord's limits, quoting the text defused (no live mention), and plays
    nothing."""
    bot, fd, table, users = await _table(tmp_path, "two_player", 4)
    try:
        seat = table.hand.pending_seats()[0]
        before = list(table.actions)
        for text in ODD_TEXTS:
            r = await fd.slash(users[seat], "act", {"action": text})  # strict: no error, answered in time
            assert table.actions == before, text
            assert r.ephemeral and len(r.content) <= 2000, text
            # nothing Discord would ping, even where every mention is allowed
            assert ping_problems({"content": r.content}) == [], text
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_two_claimers_one_passes_the_others_notice_and_buttons_stay(tmp_path):
    """Guard: laosanfan (table seed 23), seats 0 and 1 (humans) may both claim an AI's discard.
    Seat 0 holds the notice; seat 1 passes: seat 0 keeps its one notice and its panel's buttons
    (the same custom ids: another's pass does not make them stale), and seat 0's chow from that
    panel is taken; no player ever holds two notices, and the one left is gone once answered."""
    from engine.actions import Action

    bot, fd, table, users = await _table(tmp_path, "laosanfan", 23, ais=2)
    try:
        await play_humans(fd, bot, fd.channel_id, users, until=lambda t: {0, 1} <= set(t.hand.pending_seats()))
        await fd.settle()
        (panel,) = panels_of(fd, users[0])
        ids = action_buttons(fd.messages[panel.id])
        notes = [m.id for m in notices_of(fd, users[0])]
        assert ids and len(notes) == 1
        await press(fd, users[1], Action(1, "pass"))
        await fd.settle()
        assert action_buttons(fd.messages[panel.id]) == ids
        assert [m.id for m in notices_of(fd, users[0])] == notes and notices_of(fd, users[1]) == []
        chow = next(a for a in table.hand.legal_actions(0) if a.type == "chow")
        r = await fd.click(users[0], fd.messages[panel.id], next(c for c in ids if ":chow:" in c))
        await fd.settle()
        assert r.response_type == 7 and table.actions[-1] == str(chow)
        assert notices_of(fd, users[0]) == []  # answered: its own move is never pinged
    finally:
        await fd.close()
