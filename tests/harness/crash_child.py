"""The bot process of the crash-recovery test (``tests/discord/test_crash_recovery.py``).

Runs the real bot (``bot.make_bot``) against the recorded-HTTP fake Discord on a database
that survives it, with one table per game in its own channel: AI seats and scripted human
seats, whose clicks this process makes itself (the human presses the button of the choice
the hand's AI would make; now and then the clock jumps so a timer plays for them).

Every action the table service has stored is written to the journal, once the service has
handed it to its listeners (that is, after ``Store.append_action`` returned), as one line
``ack <channel> <hand_id> <idx> <action text>``, flushed and fsynced; a finished hand adds
``done <channel> <hand_id> <points as JSON>``.  ``ready <run>`` marks that the process is up
and playing.  The parent kills this process with SIGKILL at random moments and starts it
again on the same database: at start-up the real ``setup_hook`` resumes every table from
the database (``TableService.load``) and play goes on.

``--verify`` (the last run, never killed): for each resumed table with a human to act,
press an action button drawn before the restart (the same custom id; Discord keeps the
message), fetch the hand with ``/hand`` and press a button of that reply, then let the
turn timer run out and check that ``tick`` plays it; prints one JSON object.

    python tests/harness/crash_child.py --db URL [--schema S] --journal PATH --seed N --run K [--verify]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent  # tests/harness
ROOT = HERE.parents[1]
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

from bot import make_bot  # noqa: E402
from cogs import components  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.tiles import kind_str  # noqa: E402
from engine.variants import find_variant  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from service.clock import ManualClock  # noqa: E402

#: (game, human seats, AI seats): one table each, in channels created in this order
PLAN = [
    ("two_player", 2, 0),
    ("laosanfan", 2, 2),
    ("jinhu", 1, 3),
    ("caishen", 1, 3),
    ("laowudui", 2, 1),
    ("zipai", 1, 2),
]


def plan() -> list[tuple[str, int, int]]:
    """The tables this process plays: every game of :data:`PLAN` the registry knows."""
    out = []
    for game, humans, ais in PLAN:
        try:
            find_variant(game)
        except KeyError:
            continue
        out.append((game, humans, ais))
    return out


def warm_up() -> None:
    """Draw one table image and one hand image, so the font and the tile art are loaded
    (the test forks every bot process from a process that did this once)."""
    from cogs import messages as ui
    from engine.match import Match
    from render.hand import render_hand
    from render.table import render_table
    from service import publish
    from service.tables import Seat, Table

    info = find_variant("two_player")
    table = Table(1, 1, 1, 1, info, info.resolve_options({}), 5)
    table.seats = [Seat(1, "a"), Seat(2, "b")]
    table.match = Match(info, table.options, 5, 2)
    table.hand = table.match.new_hand()
    table.status, table.hand_id = "playing", 1
    snap = publish.build(table, 1, lambda user: None)
    render_table(ui.drawable(snap.public.view, snap.public.names, "zh", snap.game))
    render_hand(dict(snap.parts[0].view))


if os.environ.get("MAHJONG_CRASH_WARM_UP") == "1":
    warm_up()


def user_id(table_no: int, j: int) -> int:
    return 7_000_000 + 100 * table_no + j


class Journal:
    """Append-only, fsynced journal of stored actions (see the module docstring)."""

    def __init__(self, path: str):
        self.path = path
        self.done: dict[int, int] = {}  # hand_id -> actions journaled
        self.finished: set[int] = set()
        if os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read()
            for raw in data.split(b"\n")[:-1]:  # a torn last line (no newline) is ignored
                parts = raw.decode().split(" ", 4)
                if parts[0] == "ack" and len(parts) == 5:
                    hid, idx = int(parts[2]), int(parts[3])
                    self.done[hid] = max(self.done.get(hid, 0), idx + 1)
                elif parts[0] == "done":
                    self.finished.add(int(parts[2]))
            torn = bool(data) and not data.endswith(b"\n")
        else:
            torn = False
        self.f = open(path, "a", encoding="utf-8")
        if torn:
            self.write("")

    def write(self, line: str) -> None:
        self.f.write(line + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def listener_of(self, service):
        """The table-service listener that journals every stored action not yet journaled
        (read from the service's table of the change: the test may look inside it)."""
        tables: dict = {}

        async def listener(change) -> None:
            snap = change.snapshot
            table = service.tables.get(snap.channel_id)
            if table is None or table.id != snap.table_id:
                table = tables.get(snap.table_id)  # closed: no longer among the open tables
            if table is None:
                return
            tables[snap.table_id] = table
            self.journal(table)

        return listener

    def journal(self, table) -> None:
        hid = table.hand_id
        if hid is None or table.hand is None:
            return
        start = self.done.get(hid, 0)
        for idx in range(start, len(table.actions)):
            self.write(f"ack {table.channel_id} {hid} {idx} {table.actions[idx]}")
        self.done[hid] = max(start, len(table.actions))
        if table.hand.is_over() and hid not in self.finished and table.last_result is not None:
            self.write(f"done {table.channel_id} {hid} {json.dumps(table.last_result['points'])}")
            self.finished.add(hid)


def custom_id(ch: int, hand_id: int, seq: int, action: Action) -> str:
    tile = kind_str(action.kind) if action.kind is not None else "-"
    return components.action_id(ch, hand_id, seq, action.type, tile)


class Player:
    """Drives the tables of one process through the fake Discord."""

    def __init__(self, fd: FakeDiscord, bot, clock: ManualClock, rng: random.Random):
        self.fd, self.bot, self.clock, self.rng = fd, bot, clock, rng
        self.channels: list[int] = []
        self.games = plan()
        self.clicks = 0
        self.hand_fetches = 0

    def setup_world(self) -> None:
        """The channels (same ids in every run: the fake hands out ids in order) and users."""
        self.channels = [self.fd.channel_id] + [self.fd.add_channel(f"t{i}") for i in range(1, len(self.games))]
        for i, (game, humans, _) in enumerate(self.games):
            for j in range(humans):
                self.fd.user(user_id(i, j), f"p{i}{j}")

    def humans(self, i: int):
        return [self.fd.users[user_id(i, j)] for j in range(self.games[i][1])]

    async def ensure_table(self, i: int) -> None:
        """Create the table of channel ``i``, seat whoever is missing and start it."""
        ch = self.channels[i]
        game, n_humans, n_ai = self.games[i]
        humans = self.humans(i)
        svc = self.bot.service
        t = svc.tables.get(ch)
        if t is None or t.status == "closed":
            await self.fd.slash(humans[0], "mj table create", {"variant": game}, channel_id=ch)
            t = svc.table_in(ch)
        if t.status == "lobby":
            for u in humans:
                if t.seat_of(u.id) is None:
                    await self.fd.slash(u, "mj table join", channel_id=ch)
            creator = next(u for u in humans if t.seat_of(u.id) is not None)
            while sum(s.is_ai for s in t.seats) < n_ai:
                await self.fd.slash(creator, "mj table add-ai", {"level": "normal"}, channel_id=ch)
            await self.fd.slash(creator, "mj table start", channel_id=ch)

    def _find(self, user, cid: str):
        msgs = self.fd.dms_to(user) + self.fd.ephemeral_replies_to(user)
        for m in sorted(msgs, key=lambda m: m.id, reverse=True):
            if cid in m.custom_ids:
                return m
        return None

    def _find_select(self, user, ch: int, hand_id: int, seq: int, value: str):
        sid = components.select_id(ch, hand_id, seq)
        msgs = self.fd.dms_to(user) + self.fd.ephemeral_replies_to(user)
        for m in sorted(msgs, key=lambda m: m.id, reverse=True):
            if sid in m.custom_ids and value in [o["value"] for o in m.component(sid).get("options", [])]:
                return m, sid
        return None, sid

    async def press(self, user, ch: int, action: Action) -> bool:
        """Press the button (or select option) of ``action``; fetch the hand with ``/hand``
        first when no message of this process carries it (after a restart).  ``False`` if the
        bot offered no such control."""
        table = self.bot.service.table_in(ch)
        seq, hid = table.decisions.get(table.seat_of(user.id), table.hand.seq), table.hand_id
        cid = custom_id(ch, hid, seq, action)
        menu = components.action_id(ch, hid, seq, "ting_menu")
        for attempt in range(2):
            if action.type == "ting" and action.kind is not None and self._find(user, cid) is None:
                m = self._find(user, menu)
                if m is not None:
                    await self.fd.click(user, m, menu)
            m = self._find(user, cid)
            if m is not None:
                r = await self.fd.click(user, m, cid)
                self.clicks += 1
                return r.response_type == 7
            tile = kind_str(action.kind) if action.kind is not None else "-"
            m, sid = self._find_select(user, ch, hid, seq, f"{action.type}:{tile}")
            if m is not None:
                await self.fd.select(user, m, sid, [f"{action.type}:{tile}"])
                self.clicks += 1
                return True
            if attempt == 0:
                await self.fd.slash(user, "mj hand", channel_id=ch)
                self.hand_fetches += 1
        return False

    async def next_hand(self, i: int) -> None:
        ch = self.channels[i]
        for m in reversed(self.fd.messages_in(ch)):
            cid = next((c for c in m.custom_ids if c.startswith(f"mjt:{ch}:next")), None)
            if cid is not None:
                await self.fd.click(self.humans(i)[0], m, cid)
                return
        t = self.bot.service.table_in(ch)
        self.clock.advance(t.options.get("result_timeout", 30) + 1)
        await self.bot.service.tick()
        await self.fd.settle()

    async def step(self, i: int) -> None:
        """One move at table ``i``: a human's click, a timeout, or the next hand."""
        ch = self.channels[i]
        svc = self.bot.service
        t = svc.tables.get(ch)
        if t is None or t.status != "playing":
            await self.ensure_table(i)
            return
        if t.hand is None or t.hand.is_over():
            await self.next_hand(i)
            return
        pending = [s for s in t.hand.pending_seats() if not t.seats[s].is_ai and not t.seats[s].auto]
        if not pending:
            return
        if self.rng.random() < 0.03:  # the player lets the timer run out
            self.clock.advance(max(t.options.get("claim_timeout", 15), t.options.get("discard_timeout", 15)) + 1)
            await svc.tick()
            await self.fd.settle()
            return
        seat = pending[0]
        user = self.fd.users[t.seats[seat].user_id]
        if not await self.press(user, ch, t.hand.ai_action(seat)):
            self.clock.advance(16)
            await svc.tick()
            await self.fd.settle()


async def main_async(args) -> int:
    clock = ManualClock()
    bot = make_bot(args.db, clock=clock, timer_interval=0, schema=args.schema, tile_emojis=False)
    rng = random.Random(args.seed * 1000 + args.run)
    bot.service.lobby.seed_source = lambda: rng.randrange(1, 2**62)
    journal = Journal(args.journal)
    fd = FakeDiscord(bot)
    await fd.start()  # setup_hook: store.init, service.load (the restart), cogs, buttons
    bot.service.listeners.append(journal.listener_of(bot.service))
    player = Player(fd, bot, clock, rng)
    player.setup_world()
    loaded = {t.channel_id for t in bot.service.tables.values()}
    if not loaded <= set(player.channels):
        raise SystemExit(f"resumed tables in unknown channels {loaded - set(player.channels)}")
    try:
        if args.verify:
            print(json.dumps(await verify(player, journal)))
            return 0
        journal.write(f"ready {args.run}")
        while True:
            for i in range(len(player.games)):
                await player.step(i)
    finally:
        await fd.close()


async def verify(player: Player, journal: Journal) -> dict:
    """After the last restart: resumed state, buttons from before the restart, ``/hand``,
    and timers (see the module docstring)."""
    fd, bot, svc = player.fd, player.bot, player.bot.service
    out = {"tables": 0, "old_buttons": 0, "hand_buttons": 0, "timeouts": 0, "games": []}

    def old_message(channel_id: int, cid: str):
        # a message the previous process sent: Discord still shows it with its button
        return fd._create_message(channel_id, {"content": "sent before the restart", "components": [
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": cid}]}]}, [])

    for i, ch in enumerate(player.channels):
        t = svc.tables.get(ch)
        if t is None or t.status != "playing":
            await player.ensure_table(i)  # killed while the table was being opened
            t = svc.table_in(ch)
        out["tables"] += 1
        out["games"].append(t.variant.id)
        if t.hand is None or t.hand.is_over():
            # the public message's "next hand" button, drawn before the restart
            cid = f"mjt:{ch}:next:{t.hand_id}" if t.hand_id is not None else f"mjt:{ch}:next"
            r = await fd.click(player.humans(i)[0], old_message(ch, cid), cid)
            assert r.response_type is not None
        assert t.hand is not None and not t.hand.is_over(), f"{t.variant.id}: no next hand after the restart"
        for press in ("old", "hand"):
            pending = [s for s in t.hand.pending_seats() if not t.seats[s].is_ai and not t.seats[s].auto]
            if not pending or t.hand.is_over():
                break
            seat = pending[0]
            user = fd.users[t.seats[seat].user_id]
            action = t.hand.ai_action(seat)
            seq = t.hand.seq
            if press == "old":
                if action.type == "ting" and action.kind is not None:
                    continue  # its button sits behind the 听 menu
                cid = custom_id(ch, t.hand_id, t.decisions.get(seat, seq), action)
                r = await fd.click(user, old_message(fd._dm_channel(user)["id"], cid), cid)
                assert r.response_type == 7, (t.variant.id, r.response_type)
                out["old_buttons"] += 1
            else:
                assert await player.press(user, ch, action), (t.variant.id, str(action))
                out["hand_buttons"] += 1
            assert t.hand.seq > seq, (t.variant.id, seq)
    # the turn timers run again: every table waiting for a human times out in one tick
    waiting = {}
    for ch in player.channels:
        t = svc.table_in(ch)
        if t.hand is not None and not t.hand.is_over() and any(
                not t.seats[s].is_ai and not t.seats[s].auto for s in t.hand.pending_seats()):
            waiting[ch] = t.hand.seq
    player.clock.advance(601)
    n = await svc.tick()
    await fd.settle()
    assert n >= len(waiting), (n, len(waiting))
    for ch, seq in waiting.items():
        t = svc.table_in(ch)
        assert t.hand.is_over() or t.hand.seq > seq, (t.variant.id, seq)
    out["timeouts"] = n
    out["timed_tables"] = len(waiting)
    out["journaled_hands"] = len(journal.done)
    return out


def run(argv: list[str], out_path: str | None = None) -> int:
    """Entry point for a process forked by the test (``multiprocessing``): like the command
    line; the ``--verify`` report and any traceback go to ``out_path``."""
    import traceback

    code = 1
    try:
        if out_path:
            sys.stdout = open(out_path, "a", encoding="utf-8", buffering=1)
            sys.stderr = sys.stdout
        code = main(argv)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        os._exit(code)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--schema", default=None)
    ap.add_argument("--journal", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--run", type=int, default=0)
    ap.add_argument("--verify", action="store_true")
    args = ap.parse_args(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
