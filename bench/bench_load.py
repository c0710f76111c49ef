"""Load: N concurrent AI tables played through the table service, with the real store
(every action committed before ``act`` returns) and no rendering.

    python bench/bench_load.py                       # N = 100, 500, 1000 on SQLite
    python bench/bench_load.py --tables 1000 --db postgres --hands 2 --variant all

Each table has one player seat driven like a Discord client: a task per table asks the
engine's AI for the seat's move and submits it with ``TableService.act`` (as a button
click would); the other seats are AI seats, played inside the table's lock after each
action.  All tables run at once on one event loop.

Printed per N:

* actions/s — every stored action (the player's and the AI seats') over the wall time of
  the play (dealing included);
* p50/p99 action latency — the time of one ``act`` call: validating the player's action,
  playing the AI seats' answers, and committing them all; it returns only after the
  commit, so it is the acknowledgement latency a player sees (before any rendering);
* memory per table — resident set growth (``/proc/self/statm``) from before the tables
  were created to when every table had its hand dealt, divided by N.

Targets at 1,000 tables: >= 2,000 actions/s on SQLite, p99 <= 50 ms, <= 200 KB per table.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.variants import all_variants, find_variant  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from store import Store  # noqa: E402
from service.tables import TableService  # noqa: E402

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    """Resident set size of this process (``/proc/self/statm``, second field, in pages)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


async def play_table(service: TableService, ch: int, hands: int, latencies: list[float], think: float,
                     client: str, rng: random.Random) -> None:
    """Play ``hands`` hands at table ``ch`` as its player seat, thinking ``think`` seconds
    (uniformly 0.5–1.5 × ``think``) before each action."""
    uid = ch  # one player per table
    table = service.table_in(ch)
    seat = table.seat_of(uid)
    played = 0
    if think:
        await asyncio.sleep(rng.uniform(0, think))  # the tables do not all start at once
    while True:
        hand = table.hand
        if hand.is_over():
            played += 1
            if played >= hands:
                return
            await service.next_hand(ch, uid)
            continue
        if seat not in hand.pending_seats():
            # every pending seat is the player's or an AI's: this only happens between
            # the AI's moves, which run inside the lock; yield and look again
            await asyncio.sleep(0)
            continue
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            hand = table.hand
            if hand.is_over() or seat not in hand.pending_seats():
                continue
        action = hand.ai_action(seat) if client == "ai" else hand.timeout_action(seat)
        t0 = time.perf_counter()
        await service.act(ch, uid, action.type, action.kind, seq=hand.seq)
        latencies.append(time.perf_counter() - t0)


async def run(n: int, url: str, variants: list[str], hands: int, think: float = 1.0, client: str = "timeout",
              quiet: bool = False) -> dict:
    store = Store(url)
    await store.init()
    service = TableService(store, ManualClock(), seed_source=iter(range(1, 10**9)).__next__)
    gc.collect()
    rss0 = rss_bytes()
    base = 10_000_000 * (1 + os.getpid() % 1000)
    chans = [base + i for i in range(n)]

    async def open_table(i: int, ch: int) -> None:
        variant = find_variant(variants[i % len(variants)])
        await service.create_table(guild_id=1 + i % 7, channel_id=ch, user_id=ch, name=f"p{i}",
                                   variant=variant.id)
        for _ in range(variant.max_players - 1):
            await service.add_ai(ch, ch)

    t_open = time.perf_counter()
    await asyncio.gather(*(open_table(i, ch) for i, ch in enumerate(chans)))
    t_start = time.perf_counter()
    await asyncio.gather(*(service.start(ch, ch) for ch in chans))
    gc.collect()
    rss1 = rss_bytes()
    latencies: list[float] = []
    t_play = time.perf_counter()
    rng = random.Random(n)
    await asyncio.gather(*(play_table(service, ch, hands, latencies, think, client, rng) for ch in chans))
    t_end = time.perf_counter()
    rss2 = rss_bytes()
    # count what is stored: every action of every hand of these tables
    total_actions = 0
    async with store.engine.connect() as conn:
        from sqlalchemy import text

        ids = [service.table_in(ch).id for ch in chans]
        for k in range(0, len(ids), 500):
            chunk = ids[k:k + 500]
            total_actions += (await conn.execute(text(
                "SELECT count(*) FROM hand_action a JOIN hand h ON h.id = a.hand_id WHERE h.table_id IN ("
                + ",".join(map(str, chunk)) + ")"))).scalar_one()
    for ch in chans:
        await service.end(ch, ch)
    await store.close()
    wall = t_end - t_start  # dealing (start) and play; the lobby is not counted
    out = {
        "n": n, "actions": total_actions, "acts": len(latencies), "wall": wall,
        "aps": total_actions / wall, "p50": pct(latencies, 50) * 1000, "p99": pct(latencies, 99) * 1000,
        "mean": statistics.mean(latencies) * 1000 if latencies else float("nan"),
        "kb_per_table": (rss1 - rss0) / n / 1024, "kb_per_table_end": (rss2 - rss0) / n / 1024,
        "open_s": t_start - t_open,
    }
    if not quiet:
        print(f"N={n:5d}  {out['actions']:7d} actions in {wall:6.2f} s = {out['aps']:8.0f} actions/s   "
              f"act latency p50 {out['p50']:6.1f} ms  p99 {out['p99']:6.1f} ms  (mean {out['mean']:.1f}, "
              f"{out['acts']} acts)   RSS/table {out['kb_per_table']:6.1f} KB dealt, "
              f"{out['kb_per_table_end']:6.1f} KB at end   (lobby set-up {out['open_s']:.1f} s)", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[100, 500, 1000], help="values of N")
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--variant", default="two_player", help="a game id, or 'all' to mix every game")
    ap.add_argument("--hands", type=int, default=1, help="hands played at each table")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a player takes per action (0: act as fast as possible)")
    ap.add_argument("--client", choices=["timeout", "ai"], default="timeout",
                    help="how the player seat chooses: the timeout move (cheap) or the full AI")
    args = ap.parse_args()
    variants = [v.id for v in all_variants()] if args.variant == "all" else [find_variant(args.variant).id]
    print(f"load: {', '.join(variants)}; {args.hands} hand(s) per table; player thinks {args.think} s "
          f"({args.client} moves); db {args.db}; rendering off")
    for n in args.tables:
        if args.db == "sqlite":
            with tempfile.TemporaryDirectory() as d:
                asyncio.run(run(n, f"sqlite:///{d}/load.db", variants, args.hands, args.think, args.client))
        else:
            import uuid

            schema = "bench_" + uuid.uuid4().hex[:8]
            asyncio.run(_pg(n, schema, variants, args.hands, args.think, args.client))
    print("targets at 1,000 tables: >= 2,000 actions/s (SQLite), p99 <= 50 ms, <= 200 KB per table")


async def _pg(n: int, schema: str, variants: list[str], hands: int, think: float, client: str) -> None:
    """PostgreSQL in a throw-away schema (dropped afterwards)."""
    import asyncpg

    orig = Store.__init__

    def with_schema(self, url, **kw):
        orig(self, url, schema=schema, **kw)

    Store.__init__ = with_schema  # type: ignore[method-assign]
    try:
        await run(n, PG_URL, variants, hands, think, client)
    finally:
        Store.__init__ = orig  # type: ignore[method-assign]
        conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()


if __name__ == "__main__":
    main()
