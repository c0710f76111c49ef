"""Compare two assertion-count files of the test suite (``tests/harness/assertion_counts.py``).

    python tests/harness/compare_assertion_counts.py BEFORE.json AFTER.json [--allow FILE] [--moved FILE]

Prints the tests of BEFORE missing from AFTER, the tests whose count went down (before and
after), the new tests of AFTER, and the totals of both files.

``--allow FILE``: node ids, one a line (a line starting with ``#`` is a comment), whose count varies from run
to run; a lower count for them is listed but is no failure (a missing one still is).

``--moved FILE``: test files or tests that moved, ``OLD NEW`` paths or node ids a line (``#``
comments); BEFORE's node ids under OLD (or equal to it) are compared as if they had been under NEW
(the allow file names the new paths).

Exit status: 0 when no test was lost and none lost assertions, 1 otherwise, 2 for an
unreadable file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def load_counts(path: Path) -> dict[str, int]:
    """``{nodeid: count}`` from a counts file.

    :raises ValueError: the file is not a JSON object of integers."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, int) for v in data.values()):
        raise ValueError(f"{path}: not a JSON object of node id -> integer")
    return data


def load_allowed(path: Path) -> set[str]:
    """The node ids of an allow file: one a line; blank lines and lines starting with ``#``
    are skipped."""
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            ids.add(line)
    return ids


def load_moves(path: Path) -> dict[str, str]:
    """``{old path: new path}`` from a moves file: ``OLD NEW`` a line; blank lines and lines
    starting with ``#`` are skipped.

    :raises ValueError: a line that is not two paths."""
    moves = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(f"{path}: not 'OLD NEW': {line!r}")
        moves[parts[0]] = parts[1]
    return moves


def moved(counts: dict[str, int], moves: dict[str, str]) -> dict[str, int]:
    """``counts`` with each node id renamed by ``moves``: the whole id where it is listed, else
    its file (``path::name`` ids)."""
    out = {}
    for nodeid, n in counts.items():
        if nodeid in moves:
            out[moves[nodeid]] = n
            continue
        path, sep, rest = nodeid.partition("::")
        out[moves.get(path, path) + sep + rest] = n
    return out


def compare(before: dict[str, int], after: dict[str, int], allowed: set[str] = frozenset()) -> dict:
    """What changed from ``before`` to ``after``.

    :returns: ``missing`` (sorted node ids), ``fewer`` and ``fewer_allowed`` (sorted
        ``(nodeid, before, after)``), ``new`` (sorted node ids), ``totals``
        (``{"before": (tests, assertions), "after": (tests, assertions)}``) and ``ok``
        (nothing missing, nothing fewer outside ``allowed``)."""
    missing = sorted(set(before) - set(after))
    down = sorted((k, before[k], after[k]) for k in before if k in after and after[k] < before[k])
    fewer = [d for d in down if d[0] not in allowed]
    fewer_allowed = [d for d in down if d[0] in allowed]
    return {
        "missing": missing,
        "fewer": fewer,
        "fewer_allowed": fewer_allowed,
        "new": sorted(set(after) - set(before)),
        "totals": {"before": (len(before), sum(before.values())), "after": (len(after), sum(after.values()))},
        "ok": not missing and not fewer,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--allow", type=Path, default=None, help="node ids whose counts vary, one a line")
    ap.add_argument("--moved", type=Path, default=None, help="test files that moved, OLD NEW a line")
    args = ap.parse_args(argv)
    try:
        before, after = load_counts(args.before), load_counts(args.after)
        allowed = load_allowed(args.allow) if args.allow else set()
        if args.moved:
            before = moved(before, load_moves(args.moved))
    except (OSError, ValueError) as e:
        print(f"compare_assertion_counts: {e}", file=sys.stderr)
        return 2
    r = compare(before, after, allowed)
    print(f"missing from {args.after}: {len(r['missing'])}")
    for k in r["missing"]:
        print(f"  {k}")
    print(f"fewer assertions: {len(r['fewer'])}")
    for k, b, a in r["fewer"]:
        print(f"  {k}: {b} -> {a}")
    if r["fewer_allowed"]:
        print(f"fewer assertions, allowed to vary: {len(r['fewer_allowed'])}")
        for k, b, a in r["fewer_allowed"]:
            print(f"  {k}: {b} -> {a}")
    print(f"new tests: {len(r['new'])}")
    (tb, ab), (ta, aa) = r["totals"]["before"], r["totals"]["after"]
    print(f"totals: before {tb} tests, {ab} assertions; after {ta} tests, {aa} assertions "
          f"({ta - tb:+d} tests, {aa - ab:+d} assertions)")
    print("OK" if r["ok"] else "FAIL: tests lost or assertions lost")
    return 0 if r["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
