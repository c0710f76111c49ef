"""Errors nobody answered, and outcomes nobody was told about, through the fake Discord.

One error path for every command, button and select: an unexpected failure is answered
privately ("something went wrong — nothing was lost") after the table was rebuilt from the
store, and logged with the table and hand; refusals quote at most a short, sanitized piece of
what was typed; a blank tile asks which tile; a button nobody knows gets a clear answer; a
听 that the rules ignore is played as a plain discard and the player is told so.
"""

from __future__ import annotations

import logging

import pytest

from engine.actions import Action
from engine.match import Match
from engine.tiles import kind_str
from engine.variants import find_variant
from service.clock import ManualClock

try:
    from discord_play import latest_prompt, new_bot, press, table_button, timeout_policy
    from fakediscord import FakeDiscord, as_shown, ping_problems
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import latest_prompt, new_bot, press, table_button, timeout_policy
    from tests.harness.fakediscord import FakeDiscord, as_shown, ping_problems

SORRY = "nothing was lost"


async def _two_player(tmp_path, seed: int = 7):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    bot.service.lobby.seed_source = lambda: seed
    alice, bob = fd.user(701, "alice"), fd.user(702, "bob")
    await fd.slash(alice, "mj table create", {"variant": "two_player"})
    await fd.slash(bob, "mj table join")
    await fd.slash(alice, "mj table start")
    table = bot.service.table_in(fd.channel_id)
    return bot, fd, table, {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}


def _break_apply_once(monkeypatch, hand) -> list:
    """The hand's next ``apply`` changes the hand and then fails as a bug would."""
    cls = type(hand)
    real = cls.apply
    calls = []

    def apply(self, action):
        out = real(self, action)
        if not calls:
            calls.append(action)
            raise RuntimeError("engine bug after changing the hand")
        return out

    monkeypatch.setattr(cls, "apply", apply)
    return calls


@pytest.mark.asyncio
async def test_a_command_failing_unexpectedly_is_answered_and_the_table_rebuilt(tmp_path, monkeypatch, caplog):
    bot, fd, table, users = await _two_player(tmp_path)
    try:
        seat = table.hand.pending_seats()[0]
        a = timeout_policy(table.hand, seat)
        assert a.type == "discard"
        stored = list(table.actions)
        broke = _break_apply_once(monkeypatch, table.hand)
        with caplog.at_level(logging.ERROR):
            r = await fd.slash(users[seat], "discard", {"tile": kind_str(a.kind)}, check=False)
        assert broke and r.ephemeral and SORRY in r.text, r.text
        # rebuilt from the store: the half-applied discard is gone, the same decision waits
        table = bot.service.table_in(fd.channel_id)
        assert list(table.actions) == stored and table.hand.seq == len(stored)
        assert seat in table.hand.pending_seats()
        logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records if r.levelno >= logging.ERROR)
        assert f"table {table.id}" in logged and f"hand {table.hand_id}" in logged
        # the player can go on
        r = await fd.slash(users[seat], "discard", {"tile": kind_str(a.kind)})
        assert table.hand.seq > len(stored)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_button_failing_unexpectedly_is_answered(tmp_path, monkeypatch):
    bot, fd, table, users = await _two_player(tmp_path)
    try:
        seat = table.hand.pending_seats()[0]
        a = timeout_policy(table.hand, seat)
        stored = list(table.actions)
        _break_apply_once(monkeypatch, table.hand)
        r = await press(fd, users[seat], a, check=False)
        assert r.response_type is not None
        texts = [m.text for m in r.all_messages] + ([r.message.text] if r.message else [])
        assert any(SORRY in (t or "") for t in texts), texts
        table = bot.service.table_in(fd.channel_id)
        assert list(table.actions) == stored
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_refusals_quote_a_short_sanitized_piece_and_a_blank_tile_asks_which(tmp_path):
    bot, fd, table, users = await _two_player(tmp_path)
    try:
        seat = table.hand.pending_seats()[0]
        user = users[seat]
        before = table.hand.seq
        long = "@everyone <@123> **x** " + "9" * 6000
        r = await fd.slash(user, "discard", {"tile": long}, check=False)
        assert r.response_type is not None and not r.errors and r.ephemeral
        # short, shown as typed, and nothing Discord would ping even where every mention is allowed
        assert len(r.text) < 300 and ping_problems({"content": r.text}) == [], r.text
        assert as_shown(r.text).startswith("Unknown tile: @everyone <@123> **x** 9…"), r.text
        r = await fd.slash(user, "discard", {"tile": "   "}, check=False)
        assert r.ephemeral and "?" not in r.text.split(".")[0] or "which" in r.text.lower(), r.text
        assert "which tile" in r.text.lower(), r.text
        assert table.hand.seq == before
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_an_unknown_button_gets_a_clear_answer(tmp_path):
    bot, fd, table, users = await _two_player(tmp_path)
    try:
        user = next(iter(users.values()))
        before = table.hand.seq
        clear = {"That button is out of date. Use the latest message, or /mj hand.",
                 "That button is unknown to this bot (perhaps from an older version). Use the latest message, or /mj hand.",
                 "The next hand has already been dealt."}
        # ids of no current format: with the bot's prefix, and without it (a message of an
        # earlier version of the bot, whose ids had none)
        for cid in (f"mjt:{fd.channel_id}:frobnicate", f"mjt:{fd.channel_id}:next:99999999999999999999999",
                    f"mj:{fd.channel_id}:{table.hand.seq}:frobnicate:-", "join", "discard:5m", "x" * 100):
            planted = fd.plant_message([cid], channel_id=fd.channel_id) if not cid.startswith("mj:") else \
                fd.plant_message([cid], user=user)
            r = await fd.click(user, planted, cid, check=False)
            assert r.response_type is not None and not r.errors, cid
            texts = " ".join((m.text or "") for m in r.all_messages)
            assert r.ephemeral and texts in clear, (cid, texts)
        assert table.hand.seq == before
    finally:
        await fd.close()


def _seed_with_human_dealer(tmp_seat: int = 0) -> int:
    info = find_variant("two_player")
    for seed in range(1, 200):
        if Match(info, info.resolve_options({}), seed, 2).state["dealer"] == tmp_seat:
            return seed
    raise AssertionError


@pytest.mark.asyncio
async def test_an_ignored_ting_is_told(tmp_path):
    """two_player: 听 declared with a discard that leaves no ready hand counts as a plain
    discard (two_player.md §Play); the player is told, and the table shows no 听."""
    bot, fd, table, users = await _two_player(tmp_path, seed=_seed_with_human_dealer(0))
    try:
        seat = table.hand.pending_seats()[0]
        hand = table.hand
        legal = hand.legal_actions(seat)
        ting_ok = {a.kind for a in legal if a.type == "ting"}
        plain = [a.kind for a in legal if a.type == "discard" and a.kind not in ting_ok]
        assert plain
        r = await fd.slash(users[seat], "ting", {"tile": kind_str(plain[0])}, check=False)
        assert not r.errors and r.ephemeral
        assert "ignored" in r.text.lower() or "not ready" in r.text.lower(), r.text
        assert not table.hand.view(None)["seats"][seat]["ting"]
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_buttons_of_the_older_format_are_out_of_date(tmp_path):
    """Ids drawn before hands were in them (``mj:<channel>:<seq>:…``, ``mjs:<channel>:<seq>``)
    get the "out of date" answer and act on nothing."""
    bot, fd, table, users = await _two_player(tmp_path)
    try:
        seat = table.hand.pending_seats()[0]
        user = users[seat]
        a = timeout_policy(table.hand, seat)
        before = (table.hand.seq, list(table.actions))
        old = f"mj:{fd.channel_id}:{table.hand.seq}:{a.type}:{kind_str(a.kind) if a.kind is not None else '-'}"
        r = await fd.click(user, fd.plant_message([old], user=user), old, check=False)
        assert r.ephemeral and "out of date" in r.text, r.text
        sel = f"mjs:{fd.channel_id}:{table.hand.seq}"
        r = await fd.select(user, fd.plant_message([sel], user=user, select_values=["discard:1m"]), sel,
                            ["discard:1m"], check=False)
        assert r.ephemeral and "out of date" in r.text, r.text
        assert (table.hand.seq, list(table.actions)) == before
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_buttons_whose_number_counted_the_hands_actions_are_out_of_date(tmp_path):
    """Ids of the format before decisions were counted per seat (``mj:<channel>:<hand>:<n>:…``,
    ``n`` the hand's action counter, no ``d`` mark): a number that happens to equal the seat's
    decision now acts on nothing — the "out of date" answer — so a hand played across the
    change never takes an earlier decision's button for the current one."""
    bot, fd, table, users = await _two_player(tmp_path)
    try:
        seat = table.hand.pending_seats()[0]
        user = users[seat]
        a = timeout_policy(table.hand, seat)
        before = (table.hand.seq, list(table.actions))
        n = table.decision(seat)  # the number a button of this decision carries now, unmarked
        old = f"mj:{fd.channel_id}:{table.hand_id}:{n}:{a.type}:{kind_str(a.kind) if a.kind is not None else '-'}"
        r = await fd.click(user, fd.plant_message([old], user=user), old, check=False)
        assert r.ephemeral and "out of date" in r.text, r.text
        sel = f"mjs:{fd.channel_id}:{table.hand_id}:{n}"
        r = await fd.select(user, fd.plant_message([sel], user=user, select_values=[f"{a.type}:-"]), sel,
                            [f"{a.type}:-"], check=False)
        assert r.ephemeral and "out of date" in r.text, r.text
        assert (table.hand.seq, list(table.actions)) == before
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("command", ["mj oldname", "mj table oldname", "mahjong"])
async def test_a_command_the_bot_no_longer_has_is_answered_that_it_changed(command, tmp_path):
    """A Discord client keeps an old list of commands for a while after the bot's commands
    change: such a command is answered privately that it changed (no error logged, which
    would fail the interaction in the fake)."""
    bot, fd, table, users = await _two_player(tmp_path)
    try:
        user = next(iter(users.values()))
        r = await fd.stale_slash(user, command)
        assert r.ephemeral and r.text == ("This command has changed since Discord last updated your list of "
                                             "commands. Try again in a minute, or see /mj help."), r.text
    finally:
        await fd.close()
