"""Helpers of the tests of a table's life under faults (failing writes, restarts, slow Discord) through the
fake Discord."""

from __future__ import annotations

from service.clock import ManualClock

try:
    from discord_play import new_bot, press, table_button, table_message, timeout_policy
    from fakediscord import FakeDiscord, as_shown
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press, table_button, table_message, timeout_policy
    from tests.harness.fakediscord import FakeDiscord, as_shown


async def open_table(tmp_path, variant: str, seed: int, humans: list[str], n_ai: int = 0, *,
                     options: str | None = None, latency=0.0, public_edit_interval: float = 0.0,
                     closed: tuple[str, ...] = (), db: str = "bot.db", uid0: int = 700, start: bool = True):
    """A table of ``variant`` (table seed ``seed``) with ``humans`` (then ``n_ai`` AI seats),
    started; returns ``(bot, fd, table, users, by_seat)``."""
    clock = ManualClock()
    bot = new_bot(f"sqlite:///{tmp_path}/{db}", clock, public_edit_interval=public_edit_interval)
    fd = FakeDiscord(bot)
    await fd.start()
    bot.service.lobby.seed_source = lambda: seed
    users = [fd.user(uid0 + i, name, dms_open=name not in closed) for i, name in enumerate(humans)]
    await fd.slash(users[0], "mj table create", {"variant": variant, **({"options": options} if options else {})})
    for u in users[1:]:
        await fd.slash(u, "mj table join")
    for _ in range(n_ai):
        await fd.slash(users[0], "mj table add-ai", {"level": "normal"})
    fd.latency = latency
    if not start:
        return bot, fd, bot.service.table_in(fd.channel_id), users, {}
    await fd.slash(users[0], "mj table start", check=False)
    table = bot.service.table_in(fd.channel_id)
    by_seat = {table.seat_of(u.id): u for u in users}
    return bot, fd, table, users, by_seat


def embed_text(msg) -> str:
    """The title and text of a message's embed as the channel reads them (escapes shown as
    what they escape: a name appears as its player typed it)."""
    if msg is None or not msg.embeds:
        return ""
    e = msg.embeds[0]
    return as_shown((e.get("title") or "") + "\n" + (e.get("description") or ""))


async def wait_for_prompt(fd, bot, user, channel_id: int, timeout: float = 20.0) -> bool:
    """Wait (real time) until ``user`` holds a private message with the buttons of their
    current decision at the channel's table, as a player waits for their DM."""
    import asyncio

    from discord_play import decision_prefixes, private_messages

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        table = bot.service.table_in(channel_id)
        seat = table.seat_of(user.id)
        if table.hand is None or table.hand.is_over() or seat not in table.hand.pending_seats():
            return False
        dec = table.decisions.get(seat, table.hand.seq)
        pre = decision_prefixes(channel_id, table.hand_id, dec)
        for m in private_messages(fd, user):
            if any(c.startswith(pre) for c in m.custom_ids):
                return True
        await asyncio.sleep(0.01)
    return False
