"""Tables opened at the table service's seam (no Discord): a service on a store of its own and
a table of human seats, started."""

from __future__ import annotations

from render.text import typed
from service.clock import ManualClock
from service.tables import TableService
from store import Store

#: the channel the helpers open their table in
CHANNEL = 5


async def new_service(url: str = "sqlite:///:memory:", seed: int = 3) -> TableService:
    """A table service on a fresh store at ``url`` (initialised), a manual clock, every table
    dealt with seed ``seed``, typed moves read by the bot's words."""
    store = Store(url)
    await store.init()
    return TableService(store, ManualClock(), seed_source=lambda: seed, vocabulary=typed)


async def human_table(svc: TableService, game: str, n: int, channel: int = CHANNEL) -> list[int]:
    """Open and start a table of ``game`` in ``channel`` with ``n`` human seats (users 100,
    101 …, named p0, p1 …; user 100 creates it); returns the users' ids in joining order."""
    users = [100 + i for i in range(n)]
    await svc.create_table(guild_id=1, channel_id=channel, user_id=users[0], name="p0", variant=game)
    for i, u in enumerate(users[1:], 1):
        await svc.join(channel, u, f"p{i}")
    await svc.start(channel, users[0])
    return users
