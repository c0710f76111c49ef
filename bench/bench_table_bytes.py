"""Bytes of the public table image per move, this tree against another revision, side by side.

    python bench/bench_table_bytes.py [--against REV] [--seeds 1 2 3]

Every game at its most seats (four where it allows) plays whole hands by its own AI (seeded);
after every move the public view, as the table message draws it, is drawn and encoded as the
bot sends it (``render.table.render_table``).  Printed per game: the PNG bytes per move (mean),
the image's mean height, and the ratio now / before.  ``--against`` (default ``HEAD``) is
checked out once in a git worktree under ``~/.cache/bench_discord/``; the same hands are drawn there
(the engine decides them, so both trees draw the same moves as long as the engine is the
same).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HARNESS = ROOT / "tests" / "harness"

from revisions import worktree  # noqa: E402


def measure(seeds: list[int]) -> dict:
    """In the tree on ``sys.path``: game → ``{"bytes": [...], "heights": [...]}`` per move."""
    from table_views import _deal, _step, games, most_seats, public

    from render.table import render_table, table_image

    out = {}
    for game in games():
        n = most_seats(game)
        sizes, heights = [], []
        for seed in seeds:
            hand = _deal(game, n, seed)
            moves = 0
            while not hand.is_over() and moves < 400:
                _step(hand)
                moves += 1
                view = public(hand, n)
                sizes.append(len(render_table(view)))
                heights.append(table_image(view).height)
        out[game] = {"bytes": sizes, "heights": heights}
    return out



def run_tree(tree: Path, seeds: list[int]) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree), str(HARNESS)])
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", *map(str, seeds)],
                          cwd=str(tree), env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", default="HEAD")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--one", type=int, nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure(args.one)))
        return
    now = run_tree(ROOT, args.seeds)
    before = run_tree(worktree(args.against), args.seeds)
    print(f"public table image per move, seeds {args.seeds}: now / {args.against}")
    print(f"{'game':11s} {'moves':>5s} {'kB/move now':>11s} {'before':>7s} {'ratio':>6s}   "
          f"{'height now':>10s} {'before':>7s}")
    for game, r in now.items():
        b = before.get(game)
        kb = statistics.mean(r["bytes"]) / 1000
        if b is None:
            print(f"{game:11s} {len(r['bytes']):5d} {kb:11.1f}     (not in {args.against})")
            continue
        kb0 = statistics.mean(b["bytes"]) / 1000
        print(f"{game:11s} {len(r['bytes']):5d} {kb:11.1f} {kb0:7.1f} {kb / kb0:6.2f}   "
              f"{statistics.mean(r['heights']):10.0f} {statistics.mean(b['heights']):7.0f}")


if __name__ == "__main__":
    main()
