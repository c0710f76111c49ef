"""Click → answer and click → table message updated, through the fake Discord, with every REST
call taking a set time.

    python bench/bench_discord.py                        # this tree, 0 / 90 / 350 ms per call
    python bench/bench_discord.py --against 2674d54      # and that commit's bot, side by side
    python bench/bench_discord.py --moves 60 --latency 0.09 0.35

Two players at a 二人麻将 table (seed 7), each pressing the button of their rule-defined move
(the timeout choice) 1.1 s after the move before, while the bot keeps its own pace (one edit a
second per table message, ``public_edit_interval`` 1.0) and Discord's rate limits are
enforced (the fake's buckets, real waits).  The fake Discord is this tree's
(``tests/harness/fakediscord``) for both bots; each bot runs in a process of its own from its
tree (a git worktree of ``--against``, made under ``~/.cache/bench_discord``), the trees
taking turns per latency.

Printed per latency and tree: click → acknowledgement (the interaction's first response
handled) and, for every discard (it always changes what the table shows), click → the table
message updated (the first edit of it sent after the click, handled), p50 and p99 in ms; REST
calls per press; the store's transactions per press; the 429s answered.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HARNESS = HERE / "tests" / "harness"

from revisions import worktree  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


# ------------------------------------------------------------------ one tree, one latency
async def measure(latency: float, moves: int, seed: int, gap: float) -> dict:
    from fakediscord import FakeDiscord

    from bot import make_bot
    from service.clock import ManualClock

    with tempfile.TemporaryDirectory() as d:
        bot = make_bot(f"sqlite:///{d}/bench.db", clock=ManualClock(), timer_interval=0)
        bot.public_edit_interval = 1.0
        fd = FakeDiscord(bot, fast_retries=False, strict=False, guard_layers=False)
        await fd.start()
        # the part that opens tables draws their seeds (a revision before the service had parts: the service)
        getattr(bot.service, "lobby", bot.service).seed_source = lambda: seed
        users = [fd.user(800 + i, f"p{i}") for i in range(2)]
        await fd.slash(users[0], "mj table create", {"variant": "two_player"})
        await fd.slash(users[1], "mj table join")
        await fd.slash(users[0], "mj table start")
        await fd.settle()
        await asyncio.sleep(1.2)
        ch = fd.channel_id
        fd.latency = latency
        from sqlalchemy import event

        commits = [0]
        event.listen(bot.store.engine.sync_engine, "commit", lambda conn: commits.__setitem__(0, commits[0] + 1))
        loop = asyncio.get_running_loop()
        rows = []
        next_at = loop.time()
        while len(rows) < moves:
            table = bot.service.table_in(ch)
            if table.hand.is_over():
                await bot.service.next_hand(ch, users[0].id)
                await asyncio.sleep(1.5)
                next_at = loop.time()
                continue
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            table = bot.service.table_in(ch)
            seat = table.hand.pending_seats()[0]
            user = next(u for u in users if table.seat_of(u.id) == seat)
            action = table.hand.timeout_action(seat)
            target = _button(fd, user, action)
            waited = 0.0
            while target is None and waited < 5.0:  # the player presses what they have been shown
                await asyncio.sleep(0.05)
                waited += 0.05
                target = _button(fd, user, action)
            if target is None:
                raise RuntimeError(f"no button for {action} in {user.name}'s DMs")
            message, cid = target
            first_call = len(fd.calls)
            t0 = loop.time()
            result = await fd.click(user, message, cid, wait="answered", check=False)
            rows.append({"t0": t0, "first_call": first_call, "interaction": result.interaction.id,
                         "discard": action.type == "discard"})
            next_at = t0 + gap
        await asyncio.sleep(2.5)  # the last move's messages
        await fd.settle()
        table_msg = bot.service.table_in(ch).message_id
        out = _figures(fd, rows, ch, table_msg, latency)
        out["rate_limited"] = len(getattr(fd, "rate_limited", []))
        out["commits"] = commits[0]
        await fd.close()
        return out


def _button(fd, user, action):
    """``(message, custom_id)`` of the newest private message of ``user`` with an enabled button
    of ``action`` (its id ends ``:<type>:<tile>``)."""
    from engine.tiles import kind_str

    tile = kind_str(action.kind) if action.kind is not None else "-"
    suffix = f":{action.type}:{tile}"
    msgs = fd.dms_to(user) + fd.ephemeral_replies_to(user)
    for m in sorted(msgs, key=lambda m: m.id, reverse=True):
        if m.deleted:
            continue
        for c in m.walk_components():
            cid = c.get("custom_id", "")
            if cid.startswith("mj:") and cid.endswith(suffix) and not c.get("disabled"):
                return m, cid
    return None


def _figures(fd, rows: list[dict], channel_id: int, table_msg: int, latency: float) -> dict:
    """Per press: its answer's time from the click; for a discard (which always changes what the
    table shows) the time from the click to the first edit of the table message sent after it;
    and the REST calls until the next press."""
    acks, updates, calls = [], [], []
    table_path = f"/channels/{channel_id}/messages/{table_msg}"
    for i, row in enumerate(rows):
        end = rows[i + 1]["first_call"] if i + 1 < len(rows) else len(fd.calls)
        calls.append(end - row["first_call"])
        ack = next((c.at for c in fd.calls[row["first_call"]:end] if c.interaction_id == row["interaction"]
                    and c.route.endswith("/callback")), None)
        if ack is not None:
            acks.append((ack - row["t0"]) * 1000)
        if row["discard"]:
            edit = next((c.at for c in fd.calls[row["first_call"]:] if c.path == table_path and c.method == "PATCH"
                         and c.at - latency >= row["t0"]), None)
            if edit is not None:
                updates.append((edit - row["t0"]) * 1000)
    return {"moves": len(rows), "acks": acks, "updates": updates, "calls": calls}


def child(args) -> None:
    """Run the measurement with the bot of the tree this process was started in."""
    out = asyncio.run(measure(args.one, args.moves, args.seed, args.gap))
    print(json.dumps(out))


# ------------------------------------------------------------------ the trees, side by side

def run_tree(tree: Path, latency: float, args) -> dict:
    env = dict(os.environ)
    env.pop("DISCORD_TOKEN", None)
    # the bot from its tree, the fake Discord from this one
    env["PYTHONPATH"] = os.pathsep.join([str(tree), str(HARNESS)])
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", str(latency), "--moves",
                           str(args.moves), "--seed", str(args.seed), "--gap", str(args.gap)],
                          cwd=str(tree), env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def row(name: str, r: dict) -> str:
    a, u = r["acks"], r["updates"]
    return (f"  {name:10s} ack p50 {pct(a, 50):6.0f}  p99 {pct(a, 99):6.0f} ms   table updated p50 {pct(u, 50):6.0f}"
            f"  p99 {pct(u, 99):6.0f} ms  ({len(u)} discards of {r['moves']} presses)   REST calls/move "
            f"{statistics.mean(r['calls']):4.1f}   store transactions/press {r['commits'] / r['moves']:4.2f}   "
            f"429s {r['rate_limited']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, nargs="+", default=[0.0, 0.09, 0.35], help="seconds per REST call")
    ap.add_argument("--moves", type=int, default=40, help="presses measured per latency and tree")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--gap", type=float, default=1.1, help="seconds between two presses")
    ap.add_argument("--against", default=None, help="a git revision whose bot is measured side by side")
    ap.add_argument("--one", type=float, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one is not None:
        return child(args)
    trees = [("this", HERE)] + ([(args.against, worktree(args.against))] if args.against else [])
    print(f"two_player, two players pressing {args.gap} s apart, {args.moves} presses per run; the bot's pace 1 s "
          f"per table message; Discord's rate limits enforced")
    for i, latency in enumerate(args.latency):
        print(f"{latency * 1000:.0f} ms per REST call")
        order = trees if i % 2 == 0 else list(reversed(trees))
        results = {name: run_tree(tree, latency, args) for name, tree in order}
        for name, _ in trees:
            print(row(name, results[name]))
        if len(trees) == 2:
            mine, other = results["this"], results[trees[1][0]]
            ratio = [pct(mine["updates"], p) / pct(other["updates"], p) for p in (50, 99)]
            print(f"  {'ratio':10s} table updated p50 {ratio[0]:.2f}  p99 {ratio[1]:.2f}   REST calls/move "
                  f"{statistics.mean(mine['calls']) / statistics.mean(other['calls']):.2f}")


if __name__ == "__main__":
    main()
