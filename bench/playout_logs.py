"""Seeded play-outs of every game, through the table service and the local table, as JSON.

    python bench/playout_logs.py                    # the whole document on stdout
    python bench/playout_logs.py --out FILE         # written to FILE
    python bench/playout_logs.py --part service     # only the table-service play-outs

Every game of ``engine.variants.all_variants()`` is played from fixed seeds, and what the
store kept of each hand is recorded, so two versions of the bot can be compared byte for
byte (``tests/service/test_playout_logs.py`` compares with ``tests/data/playout_logs.json``).

The document is ``{"service": [table, …], "local": [run, …]}``:

* ``service`` — :class:`service.tables.TableService` over a temporary SQLite store and a
  :class:`service.clock.ManualClock`: per game, per seat count from ``min_players`` to
  ``max_players`` (at most three: the least, the middle, the most), per seed of
  :data:`SEEDS`, a table whose seat 0 is a player who always submits the engine's timeout
  move (``hand.timeout_action(0)``, through ``TableService.act``) and whose other seats are
  AI seats at their default level; :data:`HANDS` hands (the next dealt with
  ``TableService.next_hand``).  A table is ``{"game", "players", "seed", "seats", "hands"}``.
* ``local`` — ``python bot.py --auto --variant GAME --seed SEED --hands 2 --db … --out …``
  per game and seed: ``{"game", "seed", "returncode", "stdout", "stderr", "seats", "hands"}``;
  the image folder's path in the output is written ``<out>``.

A hand is ``{"hand_no", "seed", "dealer", "status", "context", "actions", "result",
"settlements"}``: ``actions`` the stored log in index order (text form), ``settlements`` one
per seat (``seat``, ``name``, ``is_ai``, ``points``, ``is_winner``, ``self_drawn``,
``dealt_in``, ``fan``).  A seat is ``{"seat", "user_id", "name", "is_ai", "ai_level"}``.

:func:`generate` builds the document, :func:`dumps` gives its canonical text.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from engine.variants import all_variants  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.tables import TableService  # noqa: E402
from store import Store  # noqa: E402

#: the table seeds of every game
SEEDS = (1, 2)
#: hands played at each table
HANDS = 2
#: the player at seat 0 (user id) and the channels of the service tables
PLAYER, GUILD, FIRST_CHANNEL = 1001, 1, 5000
#: local-table processes run at once
LOCAL_JOBS = 2
#: seconds one local-table process may take
LOCAL_TIMEOUT = 300


def seat_counts(min_players: int, max_players: int) -> list[int]:
    """The seat counts played: every one of ``min..max`` when at most three, else the least,
    the middle and the most."""
    counts = list(range(min_players, max_players + 1))
    if len(counts) <= 3:
        return counts
    return [min_players, (min_players + max_players) // 2, max_players]


def game_ids() -> list[str]:
    """The ids of every game, in registry order."""
    return [v.id for v in all_variants()]


# ------------------------------------------------------------------ reading the store
async def stored_table(store: Store, table_id: int) -> dict:
    """``{"seats", "hands"}`` of a stored table: its seats in seat order, its hands by id."""
    async with store.engine.connect() as conn:
        hand_ids = (await conn.execute(text("SELECT id FROM hand WHERE table_id = :t ORDER BY id"),
                                       {"t": table_id})).scalars().all()
    seats = await store.get_seats(table_id)
    hands = [hand_json(await store.get_hand(h)) for h in hand_ids]
    return {"seats": [{"seat": s.seat, "user_id": s.user_id, "name": s.name, "is_ai": s.is_ai,
                       "ai_level": s.ai_level} for s in seats],
            "hands": hands}


def hand_json(h) -> dict:
    """One stored hand (``store.HandRecord``) as JSON data."""
    return {
        "hand_no": h.hand_no, "seed": h.seed, "dealer": h.dealer, "status": h.status,
        "context": h.context, "actions": list(h.actions), "result": h.result,
        "settlements": [{"seat": p.seat, "name": p.name, "is_ai": p.is_ai, "points": p.points,
                         "is_winner": p.is_winner, "self_drawn": p.self_drawn, "dealt_in": p.dealt_in,
                         "fan": p.fan} for p in h.settlements],
    }


def _plain(data):
    """``data`` as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(data, ensure_ascii=False))


# ------------------------------------------------------------------ the table service
async def play_service_table(store: Store, channel: int, game: str, players: int, seed: int,
                             hands: int = HANDS) -> dict:
    """Play ``hands`` hands of ``game`` at a new table of ``players`` seats (seat 0 the
    player on timeout moves, the others AI seats) and return what the store kept.

    :raises RuntimeError: the table waits for nobody while its hand runs."""
    service = TableService(store, ManualClock(), seed_source=lambda: seed)
    await service.create_table(guild_id=GUILD, channel_id=channel, user_id=PLAYER, name="player", variant=game)
    for _ in range(players - 1):
        await service.add_ai(channel, PLAYER)
    await service.start(channel, PLAYER)
    table = service.table_in(channel)
    table_id = table.id
    played = 0
    while True:
        hand = table.hand
        if hand.is_over():
            played += 1
            if played >= hands:
                break
            await service.next_hand(channel, PLAYER)
            table = service.table_in(channel)
            continue
        if 0 not in hand.pending_seats():
            raise RuntimeError(f"{game} seed {seed}: the hand waits for {hand.pending_seats()}, not seat 0")
        action = hand.timeout_action(0)
        await service.act(channel, PLAYER, action.type, action.kind)
    out = {"game": game, "players": players, "seed": seed}
    out.update(await stored_table(store, table_id))
    return out


async def _service_playouts(db_dir: str, games: list[str] | None = None) -> list[dict]:
    from engine.variants import find_variant

    store = Store(f"sqlite:///{db_dir}/service.db", sqlite_synchronous="NORMAL")  # no fsync: speed only
    await store.init()
    tables = []
    try:
        channel = FIRST_CHANNEL
        for game in games or game_ids():
            info = find_variant(game)
            for players in seat_counts(info.min_players, info.max_players):
                for seed in SEEDS:
                    tables.append(await play_service_table(store, channel, game, players, seed))
                    channel += 1
    finally:
        await store.close()
    return tables


def service_playouts(games: list[str] | None = None) -> list[dict]:
    """The ``service`` part of the document (every game, or ``games``)."""
    with tempfile.TemporaryDirectory() as d:
        return _plain(asyncio.run(_service_playouts(d, games)))


# ------------------------------------------------------------------ the local table
def _local_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


async def _read_local_db(url: str) -> dict:
    store = Store(url)
    await store.init()
    try:
        async with store.engine.connect() as conn:
            ids = (await conn.execute(text("SELECT id FROM game_table ORDER BY id"))).scalars().all()
        if len(ids) != 1:
            raise RuntimeError(f"{url}: {len(ids)} tables, not one")
        return await stored_table(store, ids[0])
    finally:
        await store.close()


def local_run(game: str, seed: int, hands: int = HANDS) -> dict:
    """Run ``bot.py --auto`` for one game and seed in a temporary folder and return its
    output and what its database kept.

    :raises subprocess.TimeoutExpired: it ran longer than :data:`LOCAL_TIMEOUT` seconds."""
    with tempfile.TemporaryDirectory() as d:
        out_dir = Path(d) / "out"
        url = f"sqlite:///{d}/x.db"
        proc = subprocess.run(
            [sys.executable, str(ROOT / "bot.py"), "--auto", "--variant", game, "--seed", str(seed),
             "--hands", str(hands), "--db", url, "--out", str(out_dir)],
            cwd=d, env=_local_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=LOCAL_TIMEOUT)
        stdout = proc.stdout.decode("utf-8").replace(str(out_dir), "<out>")
        stderr = proc.stderr.decode("utf-8").replace(str(out_dir), "<out>")
        run = {"game": game, "seed": seed, "returncode": proc.returncode, "stdout": stdout, "stderr": stderr}
        run.update(asyncio.run(_read_local_db(url)) if proc.returncode == 0 else {"seats": [], "hands": []})
    return _plain(run)


def local_playouts(games: list[str] | None = None, jobs: int = LOCAL_JOBS) -> list[dict]:
    """The ``local`` part of the document (every game, or ``games``), ``jobs`` processes at
    a time; in game and seed order whatever finishes first."""
    work = [(g, s) for g in (games or game_ids()) for s in SEEDS]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda gs: local_run(*gs), work))


# ------------------------------------------------------------------ the document
PARTS = ("service", "local")


def generate(parts: tuple[str, ...] = PARTS, games: list[str] | None = None) -> dict:
    """The document, with the ``parts`` asked for (``"service"``, ``"local"``)."""
    doc = {}
    if "service" in parts:
        doc["service"] = service_playouts(games)
    if "local" in parts:
        doc["local"] = local_playouts(games)
    return doc


def dumps(doc: dict) -> str:
    """The canonical text of a document: sorted keys, one-space indent, UTF-8 characters."""
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def first_difference(expected: list[dict], actual: list[dict], part: str) -> str | None:
    """Where ``actual`` first differs from ``expected`` (a part of the document), as a
    sentence naming the table (game, seats, seed), the hand and the field; ``None`` if equal."""
    def name(t: dict) -> str:
        seats = f", {t['players']} seats" if "players" in t else ""
        return f"{part} {t.get('game')}{seats}, seed {t.get('seed')}"

    if len(expected) != len(actual):
        have = {name(t) for t in actual}
        want = {name(t) for t in expected}
        return (f"{part}: {len(actual)} tables, expected {len(expected)} "
                f"(missing {sorted(want - have)}, new {sorted(have - want)})")
    for e, a in zip(expected, actual):
        if e == a:
            continue
        where = name(e) if name(e) == name(a) else f"{name(e)} (got {name(a)})"
        for key in sorted(set(e) | set(a)):
            ev, av = e.get(key), a.get(key)
            if key == "hands" or ev == av:
                continue
            if isinstance(ev, list) and isinstance(av, list) and len(ev) == len(av):
                j = next(j for j, (p, q) in enumerate(zip(ev, av)) if p != q)
                return f"{where}: {key}[{j}] differs: expected {ev[j]!r}, got {av[j]!r}"
            return f"{where}: {key} differs: expected {ev!r}, got {av!r}"
        eh, ah = e.get("hands", []), a.get("hands", [])
        if len(eh) != len(ah):
            return f"{where}: {len(ah)} hands, expected {len(eh)}"
        for i, (x, y) in enumerate(zip(eh, ah), 1):
            if x == y:
                continue
            for key in sorted(set(x) | set(y)):
                xv, yv = x.get(key), y.get(key)
                if xv == yv:
                    continue
                if key == "actions" and isinstance(xv, list) and isinstance(yv, list):
                    j = next((j for j, (p, q) in enumerate(zip(xv, yv)) if p != q), min(len(xv), len(yv)))
                    return (f"{where}, hand {i}: action {j} differs: expected "
                            f"{xv[j] if j < len(xv) else '(end)'!r}, got {yv[j] if j < len(yv) else '(end)'!r}")
                return f"{where}, hand {i}: {key} differs: expected {xv!r}, got {yv!r}"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="write the document here (default: stdout)")
    ap.add_argument("--part", choices=PARTS, action="append", default=None,
                    help="only this part (repeatable; default: both)")
    ap.add_argument("--game", action="append", default=None, help="only this game id (repeatable)")
    args = ap.parse_args(argv)
    doc = dumps(generate(tuple(args.part or PARTS), args.game))
    if args.out is None:
        sys.stdout.write(doc)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(doc, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
