"""Load: N concurrent AI tables played through the table service, with the real store
(every action committed before ``act`` returns) and no rendering.

    python bench/bench_load.py                       # N = 100, 500, 1000 on SQLite
    python bench/bench_load.py --tables 1000 --db postgres --hands 2 --variant all
    python bench/bench_load.py --tables 300 --think 0 --against f9f5c24   # side by side
    python bench/bench_load.py --log-sql --against f9f5c24                # SQL of one hand

Each table has one player seat driven like a Discord client: a task per table asks the
engine's AI for the seat's move and submits it with ``TableService.act`` (as a button
click would, carrying the seat's decision number as ``seq``); the other seats are AI seats,
played inside the table's lock after each action.  All tables run at once on one event loop.

Printed per N:

* actions/s — every stored action (the player's and the AI seats') over the wall time of
  the play (dealing included);
* p50/p99 action latency — the time of one ``act`` call: validating the player's action,
  playing the AI seats' answers, and committing them all; it returns only after the
  commit, so it is the acknowledgement latency a player sees (before any rendering);
* memory per table — resident set growth (``/proc/self/statm``) from before the tables
  were created to when every table had its hand dealt, divided by N;
* SQL — statements the driver executed (``BEGIN IMMEDIATE`` included) and transactions
  committed, per stored action, during the deal and the play; pool checkouts (by the
  writer task and by the store calls that read outside it) and DB connections opened;
* CPU — seconds of the whole process (``time.process_time``) during the deal and the play,
  and their split over the threads (``/proc/self/task/*/stat``): the event loop, the
  SQLite connection threads (one per aiosqlite connection; a thread that ends is read just
  before its connection closes), and the rest.

``--against REV`` runs the same scenario with the code of a git revision too: a worktree of
REV (``git worktree add --detach``, kept under ``$XDG_CACHE_HOME/bench_load`` for the next
run), each run in a fresh subprocess of this very file importing the given tree's modules,
the two trees alternating first per N, then prints both rows and the ratios current/REV.

``--log-sql`` plays one table for one hand and lists every statement, grouped by phase
(deal, each player action with the AI answers, settlement) and by the store call it ran for.

Targets at 1,000 tables: >= 2,000 actions/s on SQLite, p99 <= 50 ms, <= 200 KB per table.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Optional

from load_probe import CpuWindow, Probe

HERE = Path(__file__).resolve().parent.parent  # the tree this file belongs to
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
PAGE = os.sysconf("SC_PAGE_SIZE")

# filled by load_tree(): the modules of the tree under test
find_variant = all_variants = ManualClock = Store = TableService = None  # type: ignore[assignment]
TREE: Path = HERE
#: the level of the AI seats (``add_ai(level=…)``); "default": the tree's own choice
AI_LEVEL = "default"
#: a listener stands for a front end: it reads what each change publishes (``--front-end``)
FRONT_END = False


def load_tree(tree: Path) -> None:
    """Import the service, the store and the engine from ``tree`` (this file's own tree, or a
    worktree of another revision: its store was ``service/store.py`` before it became the
    ``store`` package)."""
    global find_variant, all_variants, ManualClock, Store, TableService, TREE
    tree = tree.resolve()
    for p in (str(HERE), str(HERE / "bench"), str(tree)):
        while p in sys.path:
            sys.path.remove(p)
    sys.path.insert(0, str(tree))
    TREE = tree
    from engine import variants as ev
    from service.clock import ManualClock as MC
    from service.tables import TableService as TS

    try:
        from store import Store as S  # the store package
        if not str(Path(inspect.getfile(S)).resolve()).startswith(str(tree)):
            raise ImportError("store package of another tree")
    except ImportError:
        from service.store import Store as S  # type: ignore[no-redef]  # older trees
    for mod in (ev, MC, TS, S):
        f = Path(inspect.getfile(mod)).resolve()
        if not str(f).startswith(str(tree) + os.sep):
            raise SystemExit(f"{f} is not from {tree}")
    find_variant, all_variants, ManualClock, Store, TableService = (
        ev.find_variant, ev.all_variants, MC, S, TS)


def rss_bytes() -> int:
    """Resident set size of this process (``/proc/self/statm``, second field, in pages)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


# ---------------------------------------------------------------------------- the load
def decision_of(table: Any, seat: int) -> Optional[int]:
    """What a button of ``seat`` carries as ``seq``: its decision number
    (``Table.decisions``, a dict in older trees) where the service checks that, else the
    hand's ``seq`` (older trees still)."""
    decisions = getattr(table, "decisions", None)
    if decisions is not None and hasattr(decisions, "get"):
        return decisions.get(seat)
    return table.hand.seq


async def play_table(service: Any, ch: int, hands: int, latencies: list[float], think: float,
                     client: str, rng: random.Random, probe: Optional[Probe] = None) -> None:
    """Play ``hands`` hands at table ``ch`` as its player seat, thinking ``think`` seconds
    (uniformly 0.5–1.5 × ``think``) before each action."""
    uid = ch  # one player per table
    table = service.table_in(ch)
    seat = table.seat_of(uid)
    played = 0
    n_act = 0
    if think:
        await asyncio.sleep(rng.uniform(0, think))  # the tables do not all start at once
    while True:
        hand = table.hand
        if hand.is_over():
            played += 1
            if played >= hands:
                return
            if probe is not None:
                probe.phase = f"hand {played + 1} deal (next_hand)"
            await service.next_hand(ch, uid)
            table = service.table_in(ch)
            n_act = 0
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
        n_act += 1
        if probe is not None:
            probe.phase = f"hand {played + 1} act {n_act}"
        t0 = time.perf_counter()
        await service.act(ch, uid, action.type, action.kind, seq=decision_of(table, seat))
        latencies.append(time.perf_counter() - t0)


def front_end_of(service):
    """A listener standing for a front end (``--front-end``).  With snapshots (``service/
    snapshot.py``) a change brings what a front end draws, built once by the service: it reads
    the public part and each seat's.  A tree before snapshots published the table itself, and
    its front end asked it for the views it drew: the public view and each human seat's view
    (the least its Discord front end asked for, which asked for more)."""
    if hasattr(service, "snapshot"):
        async def read(change):
            snap = change.snapshot
            if snap is not None:
                _ = snap.public.view, [p.view for p in snap.parts if p is not None]
        return read

    async def views(table, update):
        table.public_view()
        if table.hand is not None:
            for i, s in enumerate(table.seats):
                if not s.is_ai:
                    table.view(i)
    return views


async def run(n: int, url: str, variants: list[str], hands: int, think: float = 1.0, client: str = "timeout",
              quiet: bool = False, log_sql: bool = False) -> dict:
    store = Store(url)
    await store.init()
    probe = Probe(store, log=log_sql)
    service = TableService(store, ManualClock(), seed_source=iter(range(1, 10**9)).__next__)
    if FRONT_END:
        service.listeners.append(front_end_of(service))
    gc.collect()
    rss0 = rss_bytes()
    base = 10_000_000 * (1 + os.getpid() % 1000)
    chans = [base + i for i in range(n)]

    ai_kw = {}
    if AI_LEVEL != "default":
        if "level" in inspect.signature(service.add_ai).parameters:
            ai_kw["level"] = AI_LEVEL
        elif AI_LEVEL != "normal":
            raise SystemExit(f"this tree's AI seats have no level {AI_LEVEL!r} (one AI: normal)")

    async def open_table(i: int, ch: int) -> None:
        variant = find_variant(variants[i % len(variants)])
        await service.create_table(guild_id=1 + i % 7, channel_id=ch, user_id=ch, name=f"p{i}",
                                   variant=variant.id)
        for _ in range(variant.max_players - 1):
            await service.add_ai(ch, ch, **ai_kw)

    t_open = time.perf_counter()
    await asyncio.gather(*(open_table(i, ch) for i, ch in enumerate(chans)))
    cpu = CpuWindow()
    probe.active = True
    probe.phase = "hand 1 deal (start)"
    cpu.start(probe)
    t_start = time.perf_counter()
    await asyncio.gather(*(service.start(ch, ch) for ch in chans))
    gc.collect()
    rss1 = rss_bytes()
    latencies: list[float] = []
    rng = random.Random(n)
    await asyncio.gather(*(play_table(service, ch, hands, latencies, think, client, rng,
                                      probe if log_sql else None) for ch in chans))
    t_end = time.perf_counter()
    probe.active = False
    cpu_out = cpu.stop(probe)
    rss2 = rss_bytes()
    # count what is stored: every action of every hand of these tables
    total_actions = 0
    total_hands = 0
    async with store.engine.connect() as conn:
        from sqlalchemy import text

        ids = [service.table_in(ch).id for ch in chans]
        for k in range(0, len(ids), 500):
            chunk = ",".join(map(str, ids[k:k + 500]))
            total_actions += (await conn.execute(text(
                "SELECT count(*) FROM hand_action a JOIN hand h ON h.id = a.hand_id WHERE h.table_id IN ("
                + chunk + ")"))).scalar_one()
            total_hands += (await conn.execute(text(
                f"SELECT count(*) FROM hand WHERE table_id IN ({chunk})"))).scalar_one()
    for ch in chans:
        await service.end(ch, ch)
    await store.close()
    wall = t_end - t_start  # dealing (start) and play; the lobby is not counted
    acts = max(total_actions, 1)
    out = {
        "n": n, "actions": total_actions, "hands": total_hands, "acts": len(latencies), "wall": wall,
        "aps": total_actions / wall, "p50": pct(latencies, 50) * 1000, "p99": pct(latencies, 99) * 1000,
        "mean": statistics.mean(latencies) * 1000 if latencies else float("nan"),
        "kb_per_table": (rss1 - rss0) / n / 1024, "kb_per_table_end": (rss2 - rss0) / n / 1024,
        "open_s": t_start - t_open,
        "stmts": probe.stmts, "commits": probe.commits, "rollbacks": probe.rollbacks,
        "stmts_per_action": probe.stmts / acts, "commits_per_action": probe.commits / acts,
        "stmts_by_kind": dict(probe.stmts_by_kind.most_common()),
        "checkouts": dict(probe.checkouts.most_common()), "connects": dict(probe.connects.most_common()),
        "connects_total": sum(probe.connects.values()),
        "reads": sum(v for k, v in probe.checkouts.items() if k != "writer"),
        "calls": dict(probe.calls.most_common()),
        **cpu_out,
        "cpu_ms_per_action": cpu_out["cpu"] / acts * 1000,
        "tree": str(TREE),
    }
    if log_sql:
        out["records"] = probe.records
    if not quiet:
        print_row(out)
    return out


def print_row(out: dict, label: str = "") -> None:
    lab = f"{label:>8s} " if label else ""
    print(f"{lab}N={out['n']:5d}  {out['actions']:7d} actions in {out['wall']:6.2f} s = {out['aps']:8.0f} actions/s"
          f"   act latency p50 {out['p50']:6.1f} ms  p99 {out['p99']:6.1f} ms  (mean {out['mean']:.1f}, "
          f"{out['acts']} acts)   RSS/table {out['kb_per_table']:6.1f} KB dealt, "
          f"{out['kb_per_table_end']:6.1f} KB at end   (lobby set-up {out['open_s']:.1f} s)", flush=True)
    pad = " " * len(lab)
    print(f"{pad}   SQL {out['stmts_per_action']:.2f} statements, {out['commits_per_action']:.3f} commits per stored "
          f"action ({out['stmts']} statements, {out['commits']} commits, {out['hands']} hands);  "
          f"checkouts {_counts(out['checkouts'])};  connections opened {out['connects_total']} "
          f"({_counts(out['connects'])})", flush=True)
    print(f"{pad}   CPU {out['cpu']:.1f} s ({out['cpu_ms_per_action']:.2f} ms per stored action): event loop "
          f"{out['cpu_loop']:.1f} s, SQLite connection threads {out['cpu_sqlite']:.1f} s "
          f"({out['sqlite_threads']} threads), to_thread workers {out.get('cpu_workers', 0):.1f} s, "
          f"other threads {out['cpu_other']:.1f} s", flush=True)
    print(f"{pad}   statements {_counts(out['stmts_by_kind'])};  store calls {_counts(out['calls'])}", flush=True)


def _counts(c: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in c.items()) or "none"


# ---------------------------------------------------------------------------- one database run
def run_one(n: int, db: str, variants: list[str], hands: int, think: float, client: str,
            quiet: bool = False, log_sql: bool = False) -> dict:
    if db == "sqlite":
        with tempfile.TemporaryDirectory() as d:
            return asyncio.run(run(n, f"sqlite:///{d}/load.db", variants, hands, think, client, quiet, log_sql))
    import uuid

    schema = "bench_" + uuid.uuid4().hex[:8]
    return asyncio.run(_pg(n, schema, variants, hands, think, client, quiet, log_sql))


async def _pg(n: int, schema: str, variants: list[str], hands: int, think: float, client: str,
              quiet: bool, log_sql: bool) -> dict:
    """PostgreSQL in a throw-away schema (dropped afterwards)."""
    import asyncpg

    orig = Store.__init__

    def with_schema(self, url, **kw):
        orig(self, url, schema=schema, **kw)

    Store.__init__ = with_schema  # type: ignore[method-assign]
    try:
        return await run(n, PG_URL, variants, hands, think, client, quiet, log_sql)
    finally:
        Store.__init__ = orig  # type: ignore[method-assign]
        conn = await asyncpg.connect(PG_URL)
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()


# ---------------------------------------------------------------------------- the SQL of one hand
def print_sql_log(out: dict, label: str) -> None:
    """Every statement of one table's hands, by phase and store call (runs of phases with the
    same statements folded into one), then the count per phase."""
    recs = out["records"]
    print(f"--- {label} ({out['tree']}): {out['hands']} hands, {out['actions']} stored actions, "
          f"{out['stmts']} statements, {out['commits']} commits, pool checkouts {_counts(out['checkouts'])}, "
          f"connections opened {out['connects_total']}")
    phases: dict[str, list] = {}
    for phase, call, sql, rows in recs:
        # the settlement's statements run inside the hand's last act: a phase of their own
        key = phase.split(" act")[0] + " settlement" if call == "finish_hand" else phase
        phases.setdefault(key, []).append((call, _short(sql), rows))
    folded: list[tuple[list[str], list]] = []
    for phase, items in phases.items():
        sig = [(c, s) for c, s, _ in items]
        if folded and " act " in phase and " act " in folded[-1][0][-1] \
                and [(c, s) for c, s, _ in folded[-1][1]] == sig:
            folded[-1][0].append(phase)
        else:
            folded.append(([phase], items))
    for names, items in folded:
        name = names[0] if len(names) == 1 else f"{names[0]} … {names[-1].split(' act ')[1]} ({len(names)} acts)"
        print(f"  [{name}] {len(items)} statements{' each' if len(names) > 1 else ''}")
        for call, sql, rows in items:
            print(f"      {call:<16s} {sql}{f'  [{rows} rows]' if rows > 1 and len(names) == 1 else ''}")
    per = Counter()
    for phase, items in phases.items():
        kind = "act" if " act " in phase else phase.split(" ", 2)[-1]
        per[kind] += len(items)
    n_acts = sum(1 for p in phases if " act " in p)
    print("  per phase: " + ", ".join(f"{k} {v}" for k, v in per.items() if k != "act")
          + f"; act (a player action and the AI answers, one flush): {per['act']} statements over {n_acts} acts "
          f"= {per['act'] / max(n_acts, 1):.2f} each")


def _short(sql: str, width: int = 120) -> str:
    sql = re.sub(r"\s+", " ", sql)
    sql = re.sub(r"\(\?(, \?)*\)", "(?…)", sql)
    sql = re.sub(r"\(\$\d+(::\w+)?(, \$\d+(::\w+)?)*\)", "($…)", sql)
    return sql if len(sql) <= width else sql[: width - 1] + "…"


# ---------------------------------------------------------------------------- side by side
def worktree_of(rev: str) -> tuple[Path, str]:
    """A worktree of ``rev`` (detached), created under the cache directory or reused."""
    sha = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bench_load"
    wt = cache / f"wt-{sha[:12]}"
    if wt.exists():
        head = subprocess.run(["git", "-C", str(wt), "rev-parse", "HEAD"], capture_output=True, text=True)
        if head.returncode == 0 and head.stdout.strip() == sha:
            return wt, sha
        subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(wt)], capture_output=True)
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "-C", str(HERE), "worktree", "prune"], capture_output=True)
    subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(wt), sha],
                   check=True, capture_output=True, text=True)
    return wt, sha


def child(tree: Path, args: argparse.Namespace, n: int, variants: list[str], log_sql: bool = False) -> dict:
    """One run of the scenario with ``tree``'s code, in a fresh process of this file."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--tree", str(tree), "--json",
           "--tables", str(n), "--db", args.db, "--variant", ",".join(variants), "--hands", str(args.hands),
           "--think", str(args.think), "--client", args.client, "--ai-level", args.ai_level]
    if args.front_end:
        cmd.append("--front-end")
    if log_sql:
        cmd.append("--log-sql")
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=str(tree))
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        err = (p.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"error": err, "tree": str(tree)}
    return json.loads(lines[-1])


RATIO_KEYS = [("aps", "actions/s"), ("p50", "p50"), ("p99", "p99"), ("mean", "mean"),
              ("stmts_per_action", "stmts/action"), ("commits_per_action", "commits/action"),
              ("reads", "read checkouts"), ("connects_total", "connections"),
              ("cpu_ms_per_action", "CPU/action"), ("cpu_loop", "loop CPU"), ("cpu_sqlite", "SQLite-thread CPU"),
              ("kb_per_table", "KB/table")]


def side_by_side(args: argparse.Namespace, variants: list[str]) -> None:
    wt, sha = worktree_of(args.against)
    label = args.against if len(args.against) <= 8 else sha[:8]
    if args.current:
        cur, cur_sha = worktree_of(args.current)
        where = f"{cur} ({args.current} = {cur_sha[:12]})"
    else:
        cur, where = HERE, f"{HERE} (this file's working tree)"
    trees = [("current", cur), (label, wt)]
    print(f"side by side: current = {where}, {label} = {wt} ({sha[:12]}); AI seats {args.ai_level}")
    if args.log_sql:
        for name, tree in trees:
            out = child(tree, args, 1, variants, log_sql=True)
            if "error" in out:
                print(f"--- {name}: failed: {out['error']}")
            else:
                print_sql_log(out, name)
        return
    summary = []
    for i, n in enumerate(args.tables):
        for r in range(args.repeat):
            order = trees if (i + r) % 2 == 0 else trees[::-1]  # alternate which tree runs first
            res = {}
            for name, tree in order:
                res[name] = child(tree, args, n, variants)
            for name, _ in trees:
                out = res[name]
                if "error" in out:
                    print(f"{name:>8s} N={n:5d}  failed: {out['error']}", flush=True)
                else:
                    print_row(out, name)
            a, b = res["current"], res[label]
            if "error" not in a and "error" not in b:
                ratios = {k: (a[k] / b[k] if b[k] else (1.0 if not a[k] else float("inf")))
                          for k, _ in RATIO_KEYS}
                summary.append((n, a, b, ratios))
                print(f"{'ratio':>8s} N={n:5d}  current/{label}: "
                      + ", ".join(f"{t} {ratios[k]:.2f}" for k, t in RATIO_KEYS), flush=True)
            print(flush=True)
    if summary:
        print(f"summary (current vs {label}; ratio current/{label}):")
        print(f"{'N':>6s} {'actions/s':>21s} {'p50 ms':>20s} {'p99 ms':>22s} {'stmts/action':>18s} "
              f"{'commits/action':>20s} {'conns':>12s} {'SQLite CPU s':>18s} {'CPU ms/action':>19s}")
        for n, a, b, r in summary:
            print(f"{n:6d} {a['aps']:6.0f} {b['aps']:6.0f} ({r['aps']:.2f})  {a['p50']:6.0f} {b['p50']:6.0f} "
                  f"({r['p50']:.2f})  {a['p99']:7.0f} {b['p99']:7.0f} ({r['p99']:.2f})  "
                  f"{a['stmts_per_action']:5.2f} {b['stmts_per_action']:5.2f} ({r['stmts_per_action']:.2f})  "
                  f"{a['commits_per_action']:6.3f} {b['commits_per_action']:6.3f} ({r['commits_per_action']:.2f})  "
                  f"{a['connects_total']:5d} {b['connects_total']:5d}  {a['cpu_sqlite']:6.1f} {b['cpu_sqlite']:6.1f} "
                  f"({r['cpu_sqlite']:.2f})  {a['cpu_ms_per_action']:5.2f} {b['cpu_ms_per_action']:5.2f} "
                  f"({r['cpu_ms_per_action']:.2f})")


# ---------------------------------------------------------------------------- main
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[100, 500, 1000], help="values of N")
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--variant", default="two_player",
                    help="a game id, several separated by commas, or 'all' to mix every game")
    ap.add_argument("--hands", type=int, default=1, help="hands played at each table")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a player takes per action (0: act as fast as possible)")
    ap.add_argument("--client", choices=["timeout", "ai"], default="timeout",
                    help="how the player seat chooses: the timeout move (cheap) or the full AI")
    ap.add_argument("--ai-level", default="default",
                    help="level of the AI seats: easy, normal, strong, or 'default' (each tree's own "
                         "choice for a new AI seat; a tree without levels plays its one AI, as normal)")
    ap.add_argument("--current", metavar="REV",
                    help="with --against: run the current side from a worktree of REV (e.g. HEAD) instead "
                         "of this file's working tree")
    ap.add_argument("--against", metavar="REV",
                    help="also run the same scenario with the code of git revision REV (a worktree), "
                         "alternating per N, and print both and the ratios current/REV")
    ap.add_argument("--repeat", type=int, default=1, help="with --against: runs of each tree per N")
    ap.add_argument("--front-end", action="store_true",
                    help="a listener reads what every change publishes, as a front end would (the snapshot; "
                         "before snapshots, the public view and each human seat's view)")
    ap.add_argument("--log-sql", action="store_true",
                    help="one table, one hand: list every SQL statement by phase and store call")
    ap.add_argument("--tree", type=Path, default=HERE, help=argparse.SUPPRESS)  # the code to import
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one JSON line per N
    args = ap.parse_args()
    global AI_LEVEL, FRONT_END
    AI_LEVEL, FRONT_END = args.ai_level, args.front_end
    if args.log_sql:
        args.tables, args.hands, args.think = [1], 2, 0.0
    # the games are resolved from this file's tree, so both trees of --against play the same ones
    load_tree(HERE if args.against else args.tree)
    if args.variant == "all":
        variants = [v.id for v in all_variants()]
    else:
        variants = [find_variant(v).id for v in args.variant.split(",")] if not args.json else args.variant.split(",")
    print(f"load: {', '.join(variants)}; {args.hands} hand(s) per table; player thinks {args.think} s "
          f"({args.client} moves); db {args.db}; rendering off"
          + ("; a listener reads what each change publishes" if args.front_end else ""), flush=True)
    if args.against:
        side_by_side(args, variants)
    elif args.json:
        for n in args.tables:
            out = run_one(n, args.db, [find_variant(v).id for v in variants], args.hands, args.think,
                          args.client, quiet=True, log_sql=args.log_sql)
            print(json.dumps(out), flush=True)
        return
    else:
        for n in args.tables:
            out = run_one(n, args.db, variants, args.hands, args.think, args.client, log_sql=args.log_sql)
            if args.log_sql:
                print_sql_log(out, "current")
    print("targets at 1,000 tables: >= 2,000 actions/s (SQLite), p99 <= 50 ms, <= 200 KB per table")


if __name__ == "__main__":
    main()
