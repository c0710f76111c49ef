"""What the tests of the players' panels look at through the fake Discord: a started table,
each player's live panel and notices, and the panel images uploaded to each message."""

from __future__ import annotations

import re

from service.clock import ManualClock

from discord_play import new_bot
from fakediscord import FakeDiscord


async def seated_table(tmp_path, game: str, seed: int, humans: int = 2, ais: int = 0, closed: tuple = (),
                 interval: float = 0.0, options: str | None = None, locales: tuple | None = None):
    """A started table of ``game`` (table seed ``seed``) with ``humans`` players (p0, p1 …,
    p1 in zh-CN) then ``ais`` AI seats; ``closed``: the indexes of players whose DMs are
    closed; ``locales``: each player's locale.  Returns ``(bot, fd, table, {seat: user})``."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock(), public_edit_interval=interval)
    fd = FakeDiscord(bot)
    await fd.start()
    bot.service.lobby.seed_source = lambda: seed
    users = [fd.user(700 + j, f"p{j}", locale=locales[j] if locales else ("zh-CN" if j % 2 else "en-US"),
                     dms_open=j not in closed)
             for j in range(humans)]
    await fd.slash(users[0], "mj table create", {"variant": game, **({"options": options} if options else {})})
    for u in users[1:]:
        await fd.slash(u, "mj table join")
    for _ in range(ais):
        await fd.slash(users[0], "mj table add-ai", {"level": "normal"})
    await fd.slash(users[0], "mj table start")
    table = bot.service.table_in(fd.channel_id)
    return bot, fd, table, {table.seat_of(u.id): u for u in users}


async def emoji_bot(url: str, clock=None, fd: FakeDiscord | None = None):
    """``(bot, fd)``: the real bot on ``url`` with tile emojis, started on a new fake Discord (or
    restarted on ``fd``), its emoji upload finished."""
    bot = new_bot(url, clock or ManualClock(), tile_emojis=True)
    if fd is None:
        fd = FakeDiscord(bot)
        await fd.start()
    else:
        await fd.restart(bot)
    await bot.emoji_task
    return bot, fd


async def two_humans(fd, bot, game: str, seed: int, *, ais: int | None = None, names=("p0", "p1"), **user):
    """``(table, {seat: user})`` of a started table of ``game`` (table seed ``seed``): two
    humans named ``names`` (``user``: more of ``fd.user``'s keywords), then ``ais`` AI seats
    (default: up to the game's most seats), settled."""
    from engine.variants import find_variant

    bot.service.lobby.seed_source = lambda: seed
    users = [fd.user(700 + j, name, **user) for j, name in enumerate(names)]
    await fd.slash(users[0], "mj table create", {"variant": game})
    await fd.slash(users[1], "mj table join")
    for _ in range(find_variant(game).max_players - 2 if ais is None else ais):
        await fd.slash(users[0], "mj table add-ai", {"level": "normal"})
    await fd.slash(users[0], "mj table start")
    await fd.settle()
    table = bot.service.table_in(fd.channel_id)
    return table, {table.seat_of(u.id): u for u in users}


def panel_now(bot, table, seat: int, lang: str | None = None):
    """The seat's panel as the bot draws it from the table's latest snapshot (``cogs.messages.
    panel_of``; ``lang``: the seat's language unless given)."""
    from cogs import messages

    return messages.panel_of(bot.service.snapshot(table.channel_id), seat, lang=lang, emojis=bot.tile_emojis)


def plain(value):
    """A snapshot's frozen value as plain JSON data (tuples as lists, mappings as dicts), to
    compare with the engine's views."""
    import json

    return json.loads(json.dumps(value, default=str))


def restarted_bot(bot):
    """A fresh bot on the same store and clock (as after a process restart)."""
    return new_bot(bot.store.db.parsed_url.render_as_string(hide_password=False), bot.service.clock)


#: the message flag of a Components V2 message (a panel)
V2 = 1 << 15


def panels_of(fd, user) -> list:
    """The user's live panels (the DMs drawn as one container), oldest first."""
    return [m for m in fd.dms_to(user) if m.flags & V2]


def shows_hand(message) -> bool:
    """Is ``message`` a panel showing its player's hand: one container whose buttons are the
    hand's tiles (``mj:…:discard:<tile>``)?"""
    return bool(message is not None and message.flags & V2
                and any(re.match(r"mj:\d+:\d+:d\d+:(discard|ting):", c) for c in message.custom_ids))


def notices_of(fd, user) -> list:
    """The user's live notices (short DMs without image or buttons)."""
    return [m for m in fd.dms_to(user) if not m.flags & V2 and not m.data["attachments"] and not m.custom_ids]


def panel_uploads(fd, calls) -> dict:
    """message id -> the panel image bytes uploaded to it, in order (sends, edits, click answers)."""
    out: dict = {}
    for c in calls:
        if not c.files or c.method not in ("POST", "PATCH") or c.status >= 300:
            continue
        if c.route == "/channels/{channel_id}/messages" and c.method == "POST":
            mid = int(c.response["id"])
        elif c.route == "/channels/{channel_id}/messages/{message_id}":
            mid = int(c.path.split("/")[-1])
        elif c.interaction_id is not None:
            inter = fd.interactions[c.interaction_id]
            mid = inter.message_id if inter.message_id is not None else inter.original_message_id
        else:
            continue
        out.setdefault(mid, []).extend(f.data for f in c.files if f.name == "panel.png")
    return out
