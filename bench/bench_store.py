"""Latency of ``Store.append_action`` (one committed INSERT per action).

Prints p50 / p99 / mean / max of 2,000 sequential appends to one hand on:

* SQLite, a file in a temporary directory, WAL with ``synchronous=FULL`` (the default) and,
  for comparison, ``synchronous=NORMAL``;
* PostgreSQL at ``BENCH_DATABASE_URL`` (default
  ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``), in a scratch schema dropped at the end.

Usage::

    python bench/bench_store.py [--n 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from store import Store  # noqa: E402

PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def _pct(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


async def run(label: str, store: Store, n: int) -> None:
    await store.init()
    table_id = await store.create_table(
        guild_id=1, channel_id=uuid.uuid4().int >> 80, creator_id=1, variant="two_player",
        options={}, seed=1,
    )
    hand_id = await store.start_hand(
        table_id=table_id, hand_no=1, seed=1, variant="two_player", options={}, dealer=0,
        seats=[{"seat": 0}, {"seat": 1}],
    )
    await store.append_action(hand_id, 0, "deal")  # warm the pool
    times = []
    for i in range(1, n + 1):
        t = time.perf_counter()
        await store.append_action(hand_id, i, f"discard {i % 2} {i % 9 + 1}m")
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print(
        f"{label:<28} n={n}  p50={_pct(times, 0.50):6.3f} ms  p99={_pct(times, 0.99):6.3f} ms  "
        f"mean={statistics.fmean(times):6.3f} ms  max={times[-1]:7.3f} ms"
    )


async def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for sync in ("FULL", "NORMAL"):
            store = Store(f"sqlite:///{tmp}/{sync}.db", sqlite_synchronous=sync)
            try:
                await run(f"sqlite WAL synchronous={sync}", store, n)
            finally:
                await store.close()
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    store = Store(PG_URL, schema=schema)
    try:
        await run("postgresql (asyncpg)", store, n)
    except OSError as exc:
        print(f"postgresql: not reachable at {PG_URL}: {exc}")
    finally:
        try:
            async with store.engine.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        except OSError:
            pass
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="appends per backend")
    asyncio.run(main(parser.parse_args().n))
