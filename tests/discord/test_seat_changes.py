"""Seat changes during a match, through the fake Discord (README "Playing on Discord" item 9):
a late player takes an AI seat or the seat of a player who left, at once between hands or at
the next deal; the table's creator, or a majority vote, hands an absent player's seat to the AI;
totals are kept per player; the dealer follows each game's rule (二人麻将: drawn again when the
players change, two_player.md §Set-up; the other games: it stays on the seat); restarts keep it
all."""

from __future__ import annotations

import pytest

from engine.rng import dealer_draw_seed, make_rng
from render.text.catalogue import error_text, t as words
from games import fewest_seats, game_params

try:
    from discord_play import table_button, table_message
    from fakediscord import as_shown
    from panel_checks import panels_of, restarted_bot, seated_table
    from table_helpers import embed_text
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import table_button, table_message
    from tests.harness.fakediscord import as_shown
    from tests.harness.panel_checks import panels_of, restarted_bot, seated_table
    from tests.harness.table_helpers import embed_text



async def finish_hand(fd, bot) -> None:
    """Let every human decision of the running hand time out (the third timeout puts the seat
    on 托管, and the rest of the hand plays itself) until the hand is over."""
    table = bot.service.table_in(fd.channel_id)
    for _ in range(40):
        if table.hand.is_over():
            break
        bot.service.clock.advance(100)
        await bot.service.tick()
        await fd.settle()
    assert table.hand.is_over() and table.settled_hand_id == table.hand_id


async def deal_next(fd, bot) -> None:
    """Let the result timeout run out: the timer deals the next hand."""
    table = bot.service.table_in(fd.channel_id)
    before = table.hand_id
    bot.service.clock.advance(100)
    await bot.service.tick()
    await fd.settle()
    assert table.hand_id != before


def said(result) -> str:
    """The private answer of an interaction."""
    assert result.message is not None and result.message.ephemeral, "no private answer"
    return as_shown(result.message.content)


def public_text(fd) -> str:
    """The table message's text as the channel reads it."""
    return embed_text(table_message(fd, fd.channel_id))


def redrawn_dealer(seed: int, hand_no: int, n: int) -> int:
    """two_player.md §Set-up: players changed → the dealer drawn again (engine/match.py)."""
    return make_rng(dealer_draw_seed(seed, hand_no)).randrange(n)


# ------------------------------------------------------------------------------------------
# a late player takes an AI seat, in every game
# ------------------------------------------------------------------------------------------

async def _joins_an_ai_seat(tmp_path, game: str) -> None:
    n = fewest_seats(game)
    seed = 11
    bot, fd, table, users = await seated_table(tmp_path, game, seed, humans=1, ais=n - 1)
    try:
        late = fd.user(800, "late")
        ai_seats = [i for i, s in enumerate(table.seats) if s.is_ai]
        await finish_hand(fd, bot)
        creator_seat = table.seat_of(700)
        assert table.seats[creator_seat].auto and not table.seats[creator_seat].left  # timed out: not free
        points = list(table.last_result["points"])
        first = ai_seats[0]
        ai_name = table.seats[first].name
        dealer_after = table.match.state["dealer"]
        hand_no = table.match.hand_no
        msg, join = table_button(fd, fd.channel_id, "join")  # a free seat: the table offers it
        r = await fd.click(late, msg, join)
        assert said(r) == words("ui.seat_now", "en", seat=first + 1)
        assert table.seats[first].user_id == late.id and not table.seats[first].is_ai
        assert table.last_result["names"][first] == ai_name  # the result names who played the hand
        assert table.seats[creator_seat].user_id == 700
        # totals per player: the newcomer starts at 0, the AI keeps what it won or paid
        assert table.scores()[first] == 0
        assert table.match.state["player_totals"][f"ai:{ai_name}"] == points[first]
        assert table.scores()[creator_seat] == points[creator_seat]
        assert words("ev.seated", "en", player=late.name, no=first + 1) in public_text(fd)
        # the finished hand still shows who played it: the seat's name and total, the log and
        # the result name the AI; the newcomer only as sitting down (until the next deal)
        seen = bot.service.snapshot(table.channel_id).public.view["seats"][first]
        assert (seen["name"], seen["score"], seen["is_ai"]) == (ai_name, points[first], True)
        board = table_message(fd, fd.channel_id)
        late_lines = [ln for ln in embed_text(board).splitlines() if "late" in ln]
        assert late_lines == [words("ev.seated", "en", player=late.name, no=first + 1)], late_lines
        [alt] = [a.get("description") for a in board.data["attachments"] if a["filename"] == "table.png"]
        assert "late" not in alt and ai_name in alt
        assert panels_of(fd, late) == []  # the panel comes with the deal
        # nor may they look at the finished hand through My hand: it was the AI's hand
        r = await fd.slash(late, "mj hand")
        assert r.ephemeral and said(r) == error_text("hand_at_next_deal", "en", {"seat": first + 1})
        assert not r.message.data.get("attachments")
        if n == 2:  # the other seat timed out to 托管: its player did not leave, it is not free
            r = await fd.slash(fd.user(801, "later"), "mj table join")
            assert said(r) == error_text("no_free_seat", "en")
        await deal_next(fd, bot)
        assert table.hand_id is not None and table.match.hand_no >= hand_no
        dealt = table.hand.dealer
        if table.variant.streak_per_player:  # 二人麻将: the players changed, the dealer is drawn again
            assert dealt == redrawn_dealer(seed, hand_no, n)
        else:  # the rule files say nothing: the dealer stays on the seat
            assert dealt == dealer_after
        assert len(panels_of(fd, late)) == 1
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", game_params(quick=("two_player", "zipai")))
async def test_a_late_player_takes_an_ai_seat_between_hands(game, tmp_path):
    await _joins_an_ai_seat(tmp_path, game)


# ------------------------------------------------------------------------------------------
# a late player takes the seat of a player who left; totals per player; restarts
# ------------------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_a_late_player_waits_for_the_deal_takes_a_left_seat_and_totals_stay_per_player(tmp_path):
    seed = 13  # the redrawn dealer differs from the one who would deal on
    bot, fd, table, users = await seated_table(tmp_path, "two_player", seed, humans=2)
    try:
        p0 = next(u for u in users.values() if u.id == 700)
        p1 = next(u for u in users.values() if u.id == 701)
        s0, s1 = table.seat_of(p0.id), table.seat_of(p1.id)
        late = fd.user(800, "late")
        # nobody left: no seat is free
        r = await fd.slash(late, "mj table join")
        assert said(r) == error_text("no_free_seat", "en")
        await fd.slash(p1, "mj table leave")
        assert table.seats[s1].left and table.seats[s1].auto
        # the one who left is told what becomes of their seat (not "you timed out")
        expected = words("ui.left_notice", "zh-CN", channel=f"<#{fd.channel_id}>")  # p1 plays in zh-CN
        told = [m for m in fd.dms_to(p1) if m.content == expected]
        assert len(told) == 1 and any("takeover" in c for c in told[0].custom_ids), told
        r = await fd.slash(late, "mj table join", {"seat": s0 + 1})
        assert said(r) == error_text("seat_not_free", "en", {"seat": s0 + 1})
        r = await fd.slash(late, "mj table join")  # a hand runs: they wait for the next deal
        assert said(r) == words("ui.seat_queued", "en", seat=s1 + 1)
        assert table.seats[s1].user_id == p1.id
        assert words("ev.queued", "en", player=late.name, no=s1 + 1) in public_text(fd)
        r = await fd.slash(late, "mj table join")
        assert said(r) == error_text("already_queued", "en", {"seat": s1 + 1})

        await fd.restart(restarted_bot(bot))  # the wait survives a restart
        await fd.settle()
        bot = fd.bot
        table = bot.service.table_in(fd.channel_id)
        assert table.queue == [{"user_id": late.id, "name": late.name, "seat": s1}]
        p1_panels = len(panels_of(fd, p1))

        await finish_hand(fd, bot)
        points = list(table.last_result["points"])
        hand_no = table.match.hand_no
        kept = table.match.state["dealer"]  # who would deal without a change of players
        assert redrawn_dealer(seed, hand_no, 2) != kept
        await deal_next(fd, bot)  # the late player sits down, then the hand is dealt
        assert table.seats[s1].user_id == late.id and not table.seats[s1].left and not table.seats[s1].auto
        assert table.queue == []
        assert table.hand.dealer == redrawn_dealer(seed, hand_no, 2)
        totals = table.match.state["player_totals"]
        assert totals == {f"u{p0.id}": points[s0], f"u{p1.id}": points[s1], f"u{late.id}": 0}
        assert table.scores() == [points[s0] if i == s0 else 0 for i in range(2)]
        assert len(panels_of(fd, late)) == 1
        assert len(panels_of(fd, p1)) == p1_panels  # the one who left gets no more panels

        await fd.restart(restarted_bot(bot))  # the change and the totals survive a restart
        await fd.settle()
        bot = fd.bot
        table = bot.service.table_in(fd.channel_id)
        assert table.seats[s1].user_id == late.id
        assert table.match.state["player_totals"] == totals

        # the late player leaves in turn (the rest of the hand plays itself: p0 is on 托管),
        # and p1 comes back to the seat with their own total
        await fd.slash(late, "mj table leave")
        await fd.settle()
        assert table.hand.is_over() and table.settled_hand_id == table.hand_id
        points2 = list(table.last_result["points"])
        r = await fd.slash(p1, "mj table join")  # p1 plays in zh-CN
        assert said(r) == words("ui.seat_now", "zh", seat=s1 + 1) == "你坐到了 %d 号座位。下一局发牌时会收到手牌。" % (s1 + 1)
        assert table.seats[s1].user_id == p1.id
        assert table.match.state["player_totals"] == {
            f"u{p0.id}": points[s0] + points2[s0], f"u{p1.id}": points[s1], f"u{late.id}": points2[s1]}
        assert table.scores()[s1] == points[s1] and table.scores()[s0] == points[s0] + points2[s0]
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_leave_stops_waiting_for_a_seat(tmp_path):
    bot, fd, table, users = await seated_table(tmp_path, "laosanfan", 11, humans=2, ais=2)
    try:
        late = fd.user(800, "late")
        r = await fd.slash(late, "mj table join")
        ai = next(i for i, s in enumerate(table.seats) if s.is_ai)
        assert said(r) == words("ui.seat_queued", "en", seat=ai + 1)
        r = await fd.slash(late, "mj table leave")
        assert said(r) == words("ui.unqueued", "en")
        assert table.queue == []
        r = await fd.slash(late, "mj table leave")
        assert said(r) == error_text("not_seated", "en")
    finally:
        await fd.close()


# ------------------------------------------------------------------------------------------
# an absent player's seat handed to the AI
# ------------------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_an_absent_seat_goes_to_the_ai_by_vote_and_by_the_creator(tmp_path):
    bot, fd, table, users = await seated_table(tmp_path, "laosanfan", 11, humans=4, locales=("en-US",) * 4)
    try:
        p = {u.id - 700: u for u in users.values()}
        seat = {j: table.seat_of(p[j].id) for j in p}
        stranger = fd.user(900, "stranger")
        await fd.slash(p[3], "mj table leave")
        await fd.settle()
        # refused, privately
        checks = [
            (p[1], p[1], "replace_self", {}),
            (p[1], p[2], "replace_present", {"name": p[2].name}),
            (p[1], stranger, "replace_not_seated", {}),
            (stranger, p[3], "not_seated", {}),
        ]
        for who, target, code, params in checks:
            r = await fd.slash(who, "mj table replace", {"player": target})
            assert said(r) == error_text(code, "en", params), code
        # a vote: p0, p1, p2 vote (p3 is the absent one): two are needed
        r = await fd.slash(p[1], "mj table replace", {"player": p[3]})
        assert said(r) == words("ui.vote_cast", "en", name=p[3].name, seat=seat[3] + 1, votes=1, needed=2)
        assert words("ev.vote", "en", player=p[3].name, no=seat[3] + 1, votes=1, needed=2) in public_text(fd)
        assert words("ui.vote_line", "en", player=p[3].name, no=seat[3] + 1, votes=1, needed=2) in public_text(fd)
        assert not table.seats[seat[3]].is_ai

        await fd.restart(restarted_bot(bot))  # the votes survive a restart
        await fd.settle()
        bot = fd.bot
        table = bot.service.table_in(fd.channel_id)
        assert table.votes == {p[3].id: [p[1].id]}
        r = await fd.slash(p[1], "mj table replace", {"player": p[3]})
        assert said(r) == error_text("already_voted", "en", {"votes": 1, "needed": 2})
        p3_dm = panels_of(fd, p[3])[0].channel_id
        mark = len(fd.calls)
        r = await fd.slash(p[2], "mj table replace", {"player": p[3]})
        assert said(r) == words("ui.replaced", "en", name=p[3].name, seat=seat[3] + 1)
        s3 = table.seats[seat[3]]
        assert s3.is_ai and s3.user_id is None and s3.name == "AI 1"
        assert table.votes == {}
        assert words("ui.vote_line", "en", player=p[3].name, no=seat[3] + 1, votes=1, needed=2) not in public_text(fd)
        assert words("ev.to_ai", "en", player=p[3].name, no=seat[3] + 1) in public_text(fd)
        r = await fd.slash(p[1], "mj table replace", {"player": p[3]})
        assert said(r) == error_text("replace_already_ai", "en")

        # the creator hands p2's seat over at once once p2 is gone
        await fd.slash(p[2], "mj table leave")
        await fd.settle()
        r = await fd.slash(p[0], "mj table replace", {"player": p[2]})
        assert said(r) == words("ui.replaced", "en", name=p[2].name, seat=seat[2] + 1)
        assert table.seats[seat[2]].is_ai and table.seats[seat[2]].name == "AI 2"
        await finish_hand(fd, bot)
        assert not [c for c in fd.calls[mark:] if c.path.startswith(f"/channels/{p3_dm}/")]  # no more panels
        points = list(table.last_result["points"])
        totals = table.match.state["player_totals"]
        # the hand is the AI's, as the stored settlement says; p2 and p3 keep their totals (0)
        assert totals == {f"u{p[0].id}": points[seat[0]], f"u{p[1].id}": points[seat[1]],
                          f"u{p[2].id}": 0, f"u{p[3].id}": 0,
                          "ai:AI 1": points[seat[3]], "ai:AI 2": points[seat[2]]}
        stored = {x.seat: (x.user_id, x.name, x.points) for x in (await bot.store.get_hand(table.hand_id)).settlements}
        assert stored[seat[3]] == (None, "AI 1", points[seat[3]]) and stored[seat[2]] == (None, "AI 2", points[seat[2]])
        # on the result screen p3 comes back: they take the first AI seat, with their own total
        r = await fd.slash(p[3], "mj table join")
        back = min(seat[2], seat[3])
        assert said(r) == words("ui.seat_now", "en", seat=back + 1)
        assert table.scores()[back] == 0 and table.match.state["player_totals"][f"u{p[3].id}"] == 0
    finally:
        await fd.close()
