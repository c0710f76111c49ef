"""Bytes uploaded and rate-limited REST calls per human move, for one hand of every game,
through the fake Discord — this tree and another revision side by side.

    python bench/bench_uploads.py                      # this tree
    python bench/bench_uploads.py --against aaa3179    # and that revision's bot, side by side
    python bench/bench_uploads.py --games two_player laosanfan --seed 3
    python bench/bench_uploads.py --think 0 --pace 0   # every change edits the table: full cost

Each game (from the registry) is played for one hand at a table of two humans (the rest AI
seats, normal level), table seed ``--seed``; the humans press the button of their
rule-defined move (the timeout choice; ``--policy ai``: the AI's choice, hands that are won
rather than mostly drawn) ``--think`` seconds (default 1.1) after the bot has
sent everything of the move before (the fake settled), and the bot keeps its production pace
(``--pace``: one edit of the table message a second, coalescing what came meanwhile).  With
``--think 0 --pace 0`` every change edits the table message: every move pays its full cost.
The tile emojis are uploaded before the table starts and counted apart (once per application,
not per hand).

Printed per game and tree: bytes uploaded in the hand (all, and those of the public table
message), human moves, rate-limited REST calls per human move (every bot-token call;
interaction answers are exempt on Discord) and of them the notice DMs and their deletions.
This tree runs with the bot's own notice setting (a notice only after ``notice_delay`` seconds
without an answer: a player pressing within it is never pinged); ``--notice-at-once`` adds a
run with ``notice_delay`` 0 (every decision pinged, as before).  The fake Discord is this tree's for both bots; each bot
runs in a process of its own from its tree (a git worktree of ``--against`` under
``~/.cache/bench_discord``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HARNESS = HERE / "tests" / "harness"
#: the routes Discord does not count against the bot's rate limits (interaction answers)
EXEMPT = ("/interactions/", "/webhooks/")


async def measure(game: str, seed: int, notice_delay: float | None, think: float, pace: float,
                  policy: str = "timeout") -> dict:
    import inspect

    from bench_discord import _button
    from fakediscord import FakeDiscord

    from bot import make_bot
    from engine.variants import find_variant
    from service.clock import ManualClock

    info = find_variant(game)
    with tempfile.TemporaryDirectory() as d:
        kwargs = {"clock": ManualClock(), "timer_interval": 0}
        emojis = "tile_emojis" in inspect.signature(make_bot).parameters
        bot = make_bot(f"sqlite:///{d}/bench.db", **kwargs)
        bot.public_edit_interval = pace
        bot.defer_after = None
        if notice_delay is not None:
            bot.notice_delay = notice_delay
        fd = FakeDiscord(bot, fast_retries=True, strict=False, guard_layers=False)
        await fd.start()
        if emojis and bot.emoji_task is not None:
            await bot.emoji_task
        emoji_bytes = sum(len(f.data) for c in fd.calls for f in c.files) + sum(
            len(c.json.get("image") or "") * 3 // 4 for c in fd.calls if isinstance(c.json, dict) and "image" in c.json)
        getattr(bot.service, "lobby", bot.service).seed_source = lambda: seed
        users = [fd.user(900 + i, f"p{i}") for i in range(2)]
        await fd.slash(users[0], "mj table create", {"variant": game})
        await fd.slash(users[1], "mj table join")
        for _ in range(max(0, info.max_players - 2)):
            await fd.slash(users[0], "mj table add-ai", {"level": "normal"})
        first = len(fd.calls)
        await fd.slash(users[0], "mj table start")
        await fd.settle()
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        moves = 0
        while table.hand is not None and not table.hand.is_over() and moves < 400:
            seat = next((s for s in table.hand.pending_seats() if table.seat_of(users[0].id) == s
                         or table.seat_of(users[1].id) == s), None)
            if seat is None:
                await bot.service.tick()
                await fd.settle()
                continue
            user = next(u for u in users if table.seat_of(u.id) == seat)
            action = table.hand.ai_action(seat) if policy == "ai" else table.hand.timeout_action(seat)
            target = _button(fd, user, action)  # bench_discord's
            if target is None and policy == "ai":  # a choice offered in a menu: the rule-defined move
                action = table.hand.timeout_action(seat)
                target = _button(fd, user, action)
            if target is None:
                raise RuntimeError(f"{game}: no button for {action} in {user.name}'s DMs")
            await fd.click(user, target[0], target[1], check=False)
            await fd.settle()
            moves += 1
            if think:
                await asyncio.sleep(think)
                await fd.settle()
        await asyncio.sleep(pace + 0.5)  # the last move's messages, at the bot's pace
        await fd.settle()
        calls = fd.calls[first:]
        table_msg = bot.service.table_in(ch).message_id
        public = f"/channels/{ch}/messages"
        out = {"moves": moves,
               "bytes": sum(len(f.data) for c in calls for f in c.files),
               "public_bytes": sum(len(f.data) for c in calls for f in c.files if c.path.startswith(public)),
               "limited": sum(1 for c in calls if not any(x in c.path for x in EXEMPT)),
               "notices": sum(1 for c in calls if c.method in ("POST", "DELETE") and not any(x in c.path for x in EXEMPT)
                              and not c.path.startswith(public) and not c.files and _is_notice(c)),
               "emoji_bytes": emoji_bytes, "table": table_msg}
        await fd.close()
        return out


def _is_notice(call) -> bool:
    """A notice DM (short text, no components) or the deletion of one."""
    if call.method == "DELETE":
        return "/messages/" in call.path
    body = call.json if isinstance(call.json, dict) else {}
    return bool(body.get("content")) and not body.get("components")


def child(args) -> None:
    delay = None if args.delay == "default" else float(args.delay)
    print(json.dumps(asyncio.run(measure(args.one, args.seed, delay, args.think, args.pace, args.policy))))


def run_tree(tree: Path, game: str, seed: int, delay: str, think: float, pace: float, policy: str) -> dict:
    env = dict(os.environ)
    env.pop("DISCORD_TOKEN", None)
    env["PYTHONPATH"] = os.pathsep.join([str(tree), str(HARNESS)])
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", game, "--seed", str(seed),
                           "--delay", delay, "--think", str(think), "--pace", str(pace), "--policy", policy], cwd=str(tree), env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{tree} {game}: {proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def line(name: str, r: dict) -> str:
    per = r["limited"] / max(1, r["moves"])
    return (f"  {name:18s} {r['bytes'] / 1e6:6.3f} MB (public {r['public_bytes'] / 1e6:5.3f})  "
            f"{r['moves']:3d} human moves   rate-limited calls/move {per:4.2f} (notices and their deletions "
            f"{r['notices'] / max(1, r['moves']):4.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=None, help="game ids (default: every registered game)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--against", default=None, help="a git revision whose bot is measured side by side")
    ap.add_argument("--think", type=float, default=1.1, help="seconds a human takes to press (default 1.1)")
    ap.add_argument("--pace", type=float, default=1.0, help="the bot's seconds between two table edits (default 1.0)")
    ap.add_argument("--policy", choices=("timeout", "ai"), default="timeout",
                    help="what the humans press: the rule-defined timeout move (long hands, mostly drawn) or "
                         "the AI's choice (hands that are won)")
    ap.add_argument("--notice-at-once", action="store_true", help="also run this tree with notice_delay 0")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--delay", default="default", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one is not None:
        return child(args)
    sys.path.insert(0, str(HERE))
    from engine.variants import all_variants

    games = args.games or [v.id for v in all_variants()]
    from bench_discord import worktree  # the other revision's tree, shared with that bench

    other = worktree(args.against) if args.against else None
    print(f"one hand per game, two humans (the rest AI) pressing the {args.policy} move, table seed {args.seed}; "
          f"humans press {args.think} s after "
          f"the bot sent the move before; the bot edits the table message at most every {args.pace} s")
    for game in games:
        print(game)
        mine = run_tree(HERE, game, args.seed, "default", args.think, args.pace, args.policy)
        print(line("this", mine))
        if args.notice_at_once:
            print(line("this, notice at once", run_tree(HERE, game, args.seed, "0", args.think, args.pace, args.policy)))
        if other is not None:
            theirs = run_tree(other, game, args.seed, "default", args.think, args.pace, args.policy)
            print(line(args.against, theirs))
            print(f"  {'ratio':18s} bytes {mine['bytes'] / max(1, theirs['bytes']):.2f}   rate-limited calls/move "
                  f"{(mine['limited'] / max(1, mine['moves'])) / max(1e-9, theirs['limited'] / max(1, theirs['moves'])):.2f}")
        print(f"  tile emojis uploaded once: {mine['emoji_bytes'] / 1e3:.0f} kB")


if __name__ == "__main__":
    main()
