"""One turn through the table service: the player's action (validated, written to the
database, the AI's answer played and written too) plus the public table image and the
player's hand image — what the bot does for each click.

    python bench/bench_turn.py [--turns 300] [--db sqlite|postgres]

Prints p50/p90/p99 and the mean in milliseconds, and the split between the service and the
two images.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import ai  # noqa: E402
from render.table import warm_up  # noqa: E402
from render.hand import render_hand  # noqa: E402
from render.table import render_table  # noqa: E402
from render.text.events import with_log as drawable  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from store import Store  # noqa: E402
from service.tables import TableService  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


async def run(turns: int, url: str) -> None:
    store = Store(url)
    await store.init()
    service = TableService(store, ManualClock())
    warm_up()
    totals, svc, img = [], [], []
    ch = 0
    done = 0
    while done < turns:
        ch += 1
        await service.create_table(guild_id=1, channel_id=ch, user_id=1, name="bench", variant="two_player")
        await service.add_ai(ch, 1)
        await service.start(ch, 1)
        table = service.table_in(ch)  # the engine's AI reads the hand, as an AI seat would
        while not table.hand.is_over() and done < turns:
            seat = table.seat_of(1)
            action = ai.choose_action(table.hand, seat)
            t0 = time.perf_counter()
            await service.act(ch, 1, action.type, action.kind)
            t1 = time.perf_counter()
            snap = service.snapshot(ch)  # what the front ends draw
            render_table(drawable(snap.public.view, snap.public.names, "zh-CN", snap.game))
            part = snap.parts[seat]
            if part is not None and not table.hand.is_over():
                render_hand(dict(part.view))
            t2 = time.perf_counter()
            totals.append((t2 - t0) * 1000)
            svc.append((t1 - t0) * 1000)
            img.append((t2 - t1) * 1000)
            done += 1
        await service.end(ch, 1)
    await store.close()
    print(f"one turn through the table service ({url.split(':')[0]}, {len(totals)} turns):")
    print(f"  total   p50 {pct(totals, 50):6.1f} ms  p90 {pct(totals, 90):6.1f} ms  p99 {pct(totals, 99):6.1f} ms"
          f"  mean {statistics.mean(totals):6.1f} ms   (target p50 <= 30, p99 <= 100)")
    print(f"  service p50 {pct(svc, 50):6.1f} ms  p99 {pct(svc, 99):6.1f} ms  (action + AI answer, stored)")
    print(f"  images  p50 {pct(img, 50):6.1f} ms  p99 {pct(img, 99):6.1f} ms  (table + hand PNG)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    args = ap.parse_args()
    if args.db == "sqlite":
        with tempfile.TemporaryDirectory() as d:
            asyncio.run(run(args.turns, f"sqlite:///{d}/bench.db"))
    else:
        asyncio.run(run(args.turns, "postgresql://postgres@127.0.0.1:5432/test"))


if __name__ == "__main__":
    main()
