"""Crash recovery: the bot process is killed with SIGKILL at random moments while it plays one
table of every game (AI and scripted human seats, ``tests/harness/crash_child.py``), then started
again on the same database; after every kill the tables resume where the database left them.

Each run of the bot journals (fsynced) every action the table service stored and handed to
its listeners.  After the last kill the test checks, on SQLite and on PostgreSQL (a fresh
schema per run):

* no journaled (acknowledged) action is lost: each is in the database at its index with the
  same text, and each journaled finished hand is stored as finished with the same points;
* none is applied twice: every hand's action indices run 0..n-1 without gap, and every
  stored hand replays cleanly from ``(variant, options, seed, dealer, context)`` through the
  engine — a finished hand to the stored result and settlements, an open one still open;
  a table has at most one hand in play;
* SQLite's ``PRAGMA integrity_check`` answers ``ok``;
* after the last restart (a process that is not killed) a button drawn before the restart,
  a button of the ``/hand`` reply and the turn timers all work again.

The number of kills is ``CRASH_KILLS`` (default 50 per database).  The bot processes are
forked from a process that has already imported the bot (``multiprocessing`` forkserver),
so a restart costs the bot's own start-up (database, resume), not the interpreter's.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import signal
import sqlite3
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1] / "harness"  # crash_child and the fake Discord
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import crash_child  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.variants import find_variant  # noqa: E402

KILLS = int(os.environ.get("CRASH_KILLS", "50"))
from postgres import pg_dsn, require_postgres  # noqa: E402


def _context():
    """The forkserver context; its server imports the bot and draws one image first (the
    font and tile art loaded), once for the whole test session."""
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["__main__", "crash_child"])
    return ctx


def _start(ctx, *args):
    """Start a bot process.  The first start also starts the forkserver, with the variables
    it needs: this directory on its path (Python 3.11 does not pass ``sys.path`` on) and the
    warm-up switch of ``crash_child``."""
    env = {"MAHJONG_CRASH_WARM_UP": "1",
           "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parents[1]), os.environ.get("PYTHONPATH", "")])}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        p = ctx.Process(target=crash_child.run, args=args)
        p.start()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return p


def _read_journal(path: Path) -> list[list[str]]:
    if not path.exists():
        return []
    data = path.read_bytes()
    return [raw.decode().split(" ", 4) for raw in data.split(b"\n")[:-1] if raw]


def _wait_ready(p, journal: Path, run: int, out: Path, timeout: float = 60.0) -> None:
    marker = f"ready {run}\n".encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if journal.exists() and marker in journal.read_bytes():
            return
        if not p.is_alive():
            raise AssertionError(f"bot process {run} ended before it was ready:\n{out.read_text()[-4000:]}")
        time.sleep(0.01)
    raise AssertionError(f"bot process {run} not ready after {timeout} s")


def _rows(db_url: str, schema: str | None) -> dict:
    """Every table, hand, action and settlement row (JSON columns decoded), and SQLite's
    integrity check (``None`` on PostgreSQL)."""
    if db_url.startswith("sqlite"):
        conn = sqlite3.connect(db_url.split("///", 1)[1])
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        dec = json.loads
    else:
        import psycopg2

        conn = psycopg2.connect(pg_dsn())
        integrity = None
        dec = lambda v: v if not isinstance(v, str) else json.loads(v)  # noqa: E731
    cur = conn.cursor()
    if schema:
        cur.execute(f'SET search_path TO "{schema}"')
    cur.execute("SELECT id, channel_id, variant, status, seed, hand_no, state FROM game_table ORDER BY id")
    tables = [dict(id=r[0], channel=r[1], variant=r[2], status=r[3], seed=r[4], hand_no=r[5], state=dec(r[6]))
              for r in cur.fetchall()]
    cur.execute("SELECT id, table_id, hand_no, seed, variant, options, dealer, seats, status, result, context "
                "FROM hand ORDER BY id")
    hands = [dict(id=r[0], table_id=r[1], hand_no=r[2], seed=r[3], variant=r[4], options=dec(r[5]), dealer=r[6],
                  seats=dec(r[7]), status=r[8], result=dec(r[9]) if r[9] is not None else None,
                  context=dec(r[10]) if r[10] is not None else None) for r in cur.fetchall()]
    cur.execute("SELECT hand_id, idx, text FROM hand_action ORDER BY hand_id, idx")
    actions: dict[int, list[tuple[int, str]]] = {}
    for hid, idx, text in cur.fetchall():
        actions.setdefault(hid, []).append((idx, text))
    cur.execute("SELECT hand_id, seat, points FROM settlement ORDER BY hand_id, seat")
    settlements: dict[int, list[int]] = {}
    for hid, seat, points in cur.fetchall():
        settlements.setdefault(hid, []).append(points)
    conn.close()
    return dict(tables=tables, hands=hands, actions=actions, settlements=settlements, integrity=integrity)


def _check_database(db_url: str, schema: str | None, journal: Path) -> dict:
    """The checks of the module docstring on the database against the journal; returns counts.
    No kill point may leave a hand whose stored actions finish it still unsettled: the
    service stores a hand's last actions and its settlement in one transaction."""
    db = _rows(db_url, schema)
    if db["integrity"] is not None:
        assert db["integrity"] == "ok", db["integrity"]
    tables = {t["id"]: t for t in db["tables"]}
    playing = Counter(h["table_id"] for h in db["hands"] if h["status"] == "playing")
    assert all(n == 1 for n in playing.values()), playing
    stored: dict[int, list[str]] = {}
    replayed = 0
    for h in db["hands"]:
        rows = db["actions"].get(h["id"], [])
        # no gap, no index twice: the log is exactly 0..n-1
        assert [idx for idx, _ in rows] == list(range(len(rows))), (h["id"], [i for i, _ in rows])
        texts = [text for _, text in rows]
        stored[h["id"]] = texts
        info = find_variant(h["variant"])
        hand = info.new_hand(h["options"], h["seed"], h["dealer"], len(h["seats"]), h["context"] or {})
        for text in texts:
            assert not hand.is_over(), (h["id"], "action stored after the hand ended", text)
            hand.apply(Action.parse(text))  # raises IllegalAction if one were applied twice
        replayed += len(texts)
        if h["status"] == "done":
            assert hand.is_over(), h["id"]
            assert hand.result["points"] == h["result"]["points"], h["id"]
            assert db["settlements"][h["id"]] == h["result"]["points"], h["id"]
        elif h["status"] == "playing":
            assert tables[h["table_id"]]["status"] == "playing"
            assert not hand.is_over(), (
                f"hand {h['id']}: its stored actions end it, but it is not settled (status 'playing'): "
                "the last action and the settlement were stored apart")
    channel_of = {h["id"]: tables[h["table_id"]]["channel"] for h in db["hands"]}
    acked: dict[tuple[int, int], str] = {}
    finished = 0
    for parts in _read_journal(journal):
        if parts[0] == "ack":
            ch, hid, idx, text = int(parts[1]), int(parts[2]), int(parts[3]), parts[4]
            assert acked.setdefault((hid, idx), text) == text, (hid, idx)
            assert hid in stored, f"acknowledged hand {hid} is not in the database"
            assert channel_of[hid] == ch
            assert idx < len(stored[hid]), f"acknowledged action {hid}/{idx} {text!r} lost"
            assert stored[hid][idx] == text, (hid, idx, stored[hid][idx], text)
        elif parts[0] == "done":
            hid = int(parts[2])
            h = next(x for x in db["hands"] if x["id"] == hid)
            assert h["status"] == "done" and h["result"]["points"] == json.loads(" ".join(parts[3:])), hid
            finished += 1
    return dict(acked=len(acked), replayed=replayed, hands=len(db["hands"]), finished=finished,
                tables=len(db["tables"]), integrity=db["integrity"])


def _campaign(tmp_path: Path, db_url: str, schema: str | None, label: str, seed: int) -> None:
    ctx = _context()
    journal = tmp_path / "journal.txt"
    out = tmp_path / "child.txt"
    rng = random.Random(seed)
    base = ["--db", db_url, "--journal", str(journal), "--seed", str(seed)] + (["--schema", schema] if schema else [])
    kills = before_ready = 0
    for run in range(KILLS):
        p = _start(ctx, base + ["--run", str(run)], str(out))
        if run % 8 == 5:
            # now and then during start-up: store.init, resuming the tables, the first moves
            time.sleep(rng.uniform(0.0, 0.25))
            before_ready += 1
        else:
            _wait_ready(p, journal, run, out)
            time.sleep(rng.uniform(0.0, 0.8))
        assert p.is_alive(), f"bot process {run} ended by itself:\n{out.read_text()[-4000:]}"
        os.kill(p.pid, signal.SIGKILL)
        p.join(30)
        assert p.exitcode == -signal.SIGKILL, (run, p.exitcode)
        kills += 1
    after_kills = _check_database(db_url, schema, journal)  # right after a kill: nothing finished unsettled
    # the last restart: resumed tables take buttons and their timers run again
    report = tmp_path / "verify.txt"
    p = _start(ctx, base + ["--run", str(KILLS), "--verify"], str(report))
    p.join(180)
    text = report.read_text() if report.exists() else ""
    assert p.exitcode == 0, text[-4000:]
    verified = json.loads(text.strip().splitlines()[-1])
    final = _check_database(db_url, schema, journal)
    n_games = len(crash_child.plan())
    print(f"\n[{label}] kills survived: {kills} ({before_ready} during start-up); "
          f"acknowledged actions checked: {after_kills['acked']}; stored actions replayed: "
          f"{after_kills['replayed']} in {after_kills['hands']} hands ({after_kills['finished']} finished) "
          f"at {after_kills['tables']} tables (none finished but unsettled); integrity_check: {after_kills['integrity'] or 'n/a (PostgreSQL)'}; "
          f"after the last restart: {verified['tables']} tables resumed, {verified['old_buttons']} pre-restart "
          f"buttons and {verified['hand_buttons']} /mj hand buttons pressed, {verified['timeouts']} timeouts played; "
          f"final replay {final['replayed']} actions")
    assert kills >= KILLS
    assert after_kills["acked"] > 0 and after_kills["finished"] > 0
    assert verified["tables"] == n_games
    assert verified["old_buttons"] >= 1 and verified["hand_buttons"] >= 1 and verified["timeouts"] >= 1
    assert final["acked"] >= after_kills["acked"]


@pytest.mark.slow
@pytest.mark.lengthy
def test_sigkill_recovery_sqlite(tmp_path):
    _campaign(tmp_path, f"sqlite:///{tmp_path}/bot.db", None, "SQLite", seed=11)


@pytest.mark.slow
@pytest.mark.lengthy
@pytest.mark.postgres
def test_sigkill_recovery_postgresql(tmp_path):
    import psycopg2

    url = require_postgres()  # (left out of the run when no server answers, unless required)
    schema = f"crash_{uuid.uuid4().hex[:12]}"
    try:
        _campaign(tmp_path, url, schema, "PostgreSQL", seed=23)
    finally:
        conn = psycopg2.connect(pg_dsn())
        conn.autocommit = True
        conn.cursor().execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.close()


@pytest.mark.asyncio
async def test_a_settlement_refused_stores_none_of_the_last_move(tmp_path):
    """The hand's last action and its settlement are one transaction: when the store refuses
    it (here: it fails, as a process stopped mid-transaction would leave it), the last move is
    not stored either — the hand is as it was before it, the player is told, and the move can
    be made again (after a restart too), which then settles the hand."""
    from discord_play import find_seed, new_bot
    from fakediscord import FakeDiscord
    from service.clock import ManualClock

    seed = find_seed(lambda hand, log: hand.result["winner"] is not None)
    db_url = f"sqlite:///{tmp_path}/bot.db"
    clock = ManualClock()
    bot = new_bot(db_url, clock)
    bot.service.lobby.seed_source = lambda: seed
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        alice = fd.user(101, "alice")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        await fd.slash(alice, "mj table add-ai", {"level": "normal"})
        real = bot.store.finish_hand

        async def dies(*a, **kw):
            raise RuntimeError("the store refused the settlement")

        bot.store.finish_hand = dies
        await fd.slash(alice, "mj table start", check=False)
        table = bot.service.table_in(fd.channel_id)
        refused = None
        while not table.hand.is_over():  # alice plays as the AI would
            action = table.hand.ai_action(table.hand.pending_seats()[0])
            before = list(table.actions)
            try:
                await bot.service.act(fd.channel_id, alice.id, action.type, action.kind)
            except Exception:
                refused = action
                break
        assert refused is not None, "the hand ended without a settlement"
        hand_id = table.hand_id
        stored = await bot.store.get_hand(hand_id)
        assert stored.status == "playing" and list(stored.actions) == before == table.actions
        assert not table.hand.is_over()  # as stored: before the last move

        bot2 = new_bot(db_url, clock)
        await fd.restart(bot2)
        t2 = bot2.service.table_in(fd.channel_id)
        assert not t2.hand.is_over() and t2.actions == before
        assert bot2.store.finish_hand.__func__ is real.__func__
        await bot2.service.act(fd.channel_id, alice.id, refused.type, refused.kind)
        settled = await bot2.store.get_hand(hand_id)
        assert settled.status == "done" and list(settled.actions)[:len(before) + 1] == before + [str(refused)]
        assert [s.points for s in settled.settlements] == t2.last_result["points"]
        clock.advance(31)  # result_timeout: the next hand is dealt
        await bot2.service.tick()
        assert t2.hand is not None and not t2.hand.is_over() and t2.hand_id != hand_id
    finally:
        await fd.close()
