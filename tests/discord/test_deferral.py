"""Answering in time (``cogs/common.py`` ``within``): work that outlasts the bot's
``defer_after`` seconds is acknowledged first — a deferred update for a click, a private
"thinking…" for a command — and answered when it is done; work done before then is answered in
one response.  The seconds pass on a manual timer the test fires, so nothing here depends on how
fast the machine is."""

from __future__ import annotations

import asyncio

import pytest

from discord_play import prompt_with
from panel_checks import seated_table
from engine.tiles import kind_str


class ManualTimer:
    """The bot's ``defer_timer``: each wait is a future the test completes with :meth:`fire`."""

    def __init__(self):
        self.asked: list[float] = []
        self.waits: list[asyncio.Future] = []

    def __call__(self, seconds: float) -> asyncio.Future:
        self.asked.append(seconds)
        self.waits.append(asyncio.get_running_loop().create_future())
        return self.waits[-1]

    def fire(self) -> None:
        for w in self.waits:
            if not w.done():
                w.set_result(None)


async def _until(cond, what: str, turns: int = 10_000) -> None:
    """Let the loop run until ``cond()`` holds (a bounded number of turns, not a time)."""
    for _ in range(turns):
        if cond():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


def _hold(obj, name: str) -> asyncio.Event:
    """Make ``obj.name`` (a coroutine function) wait until the returned event is set."""
    gate, real = asyncio.Event(), getattr(obj, name)

    async def held(*a, **k):
        await gate.wait()
        return await real(*a, **k)

    setattr(obj, name, held)
    return gate


def _token_edits(r) -> list:
    """The edits of ``r``'s original response through its interaction token."""
    return [c for c in r.calls if c.key == "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
            and c.interaction_id == r.id]


async def _setup(tmp_path):
    bot, fd, table, users = await seated_table(tmp_path, "two_player", 3, humans=2)
    timer = ManualTimer()
    bot.defer_after, bot.defer_timer = 1.5, timer
    seat = table.hand.pending_seats()[0]
    action = table.hand.timeout_action(seat)
    tile = "-" if action.kind is None else kind_str(action.kind)
    cid = f"mj:{fd.channel_id}:{table.hand_id}:d{table.decision(seat)}:{action.type}:{tile}"
    dm = prompt_with(fd, users[seat], cid)
    assert dm is not None
    return bot, fd, table, users[seat], dm, cid, action, timer, users[1 - seat]


@pytest.mark.asyncio
async def test_a_click_whose_store_write_outlasts_defer_after_is_acknowledged_first(tmp_path):
    bot, fd, table, user, dm, cid, action, timer, other = await _setup(tmp_path)
    try:
        gate = _hold(bot.store, "append_actions")
        before = len(table.actions)
        click = asyncio.create_task(fd.click(user, dm, cid))
        await _until(lambda: timer.asked, "the bot waits on its timer")
        assert timer.asked == [1.5]
        inter = max(fd.interactions.values(), key=lambda i: i.id)
        assert inter.response_type is None  # the seconds have not passed: no answer yet

        timer.fire()  # 1.5 s pass while the write is held
        await _until(lambda: inter.response_type is not None, "the click is acknowledged")
        assert inter.response_type == 6  # deferred update: the clicked message is edited later
        assert len(table.actions) == before  # nothing acknowledged as done before it is stored

        gate.set()
        r = await click
        assert r.response_type == 6 and table.actions[before] == str(action)
        # the answer came after, as an edit of the original response through the token
        edits = _token_edits(r)
        assert len(edits) == 1 and edits[0].status == 200
        assert cid not in fd.message(dm.id).custom_ids
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_click_done_before_defer_after_is_answered_in_one_response(tmp_path):
    bot, fd, table, user, dm, cid, action, timer, other = await _setup(tmp_path)
    try:
        before = len(table.actions)
        r = await fd.click(user, dm, cid)
        assert r.response_type == 7  # the clicked message updated in the response itself
        assert timer.asked == [1.5] and timer.waits[0].cancelled()  # the wait was given up
        assert table.actions[before] == str(action)
        assert _token_edits(r) == []
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_command_whose_work_outlasts_defer_after_thinks_privately_then_answers(tmp_path):
    bot, fd, table, user, dm, cid, action, timer, other = await _setup(tmp_path)
    try:
        gate = _hold(bot.service, "hand_to_ai")
        # the table's creator hands the other player's seat to the AI (at once: the creator may)
        creator = next(u for u in (user, other) if u.id == table.creator_id)
        absent = other if creator is user else user
        cmd = asyncio.create_task(fd.slash(creator, "mj table replace", {"player": absent}))
        await _until(lambda: timer.asked, "the bot waits on its timer")
        inter = max(fd.interactions.values(), key=lambda i: i.id)
        assert inter.response_type is None
        timer.fire()
        await _until(lambda: inter.response_type is not None, "the command is acknowledged")
        assert inter.response_type == 5 and inter.response_data["flags"] & 64  # thinking…, privately
        gate.set()
        r = await cmd
        assert r.response_type == 5 and r.message is not None and r.message.ephemeral
        assert r.message.content  # the answer filled the "thinking…" message
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_no_defer_after_never_defers(tmp_path):
    bot, fd, table, user, dm, cid, action, timer, other = await _setup(tmp_path)
    try:
        bot.defer_after = None
        r = await fd.click(user, dm, cid)
        assert r.response_type == 7 and timer.asked == []
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_typed_move_that_outlasts_defer_after_answers_with_the_panel_container(tmp_path):
    """The panel is a Components V2 container: a deferred command's "thinking…" message takes
    that format from the followup that fills it (Discord ignores it on the defer itself)."""
    from panel_checks import V2, shows_hand

    bot, fd, table, user, dm, cid, action, timer, other = await _setup(tmp_path)
    try:
        assert action.type == "discard"
        gate = _hold(bot.service, "act")
        cmd = asyncio.create_task(fd.slash(user, "discard", {"tile": kind_str(action.kind)}))
        await _until(lambda: timer.asked, "the bot waits on its timer")
        inter = max(fd.interactions.values(), key=lambda i: i.id)
        timer.fire()
        await _until(lambda: inter.response_type is not None, "the command is acknowledged")
        assert inter.response_type == 5 and not inter.response_data["flags"] & V2
        gate.set()
        r = await cmd
        assert r.response_type == 5 and r.message.ephemeral and r.message.flags & V2
        assert shows_hand(r.message) and not r.message.loading
    finally:
        await fd.close()
