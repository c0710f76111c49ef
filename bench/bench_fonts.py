"""The shipped fonts: their size on disk, the time to the first table image in a fresh process,
and what a table with never-seen player names costs once the process is warm.

    python bench/bench_fonts.py [--runs 7] [--repo PATH] [--system-fonts]

``--repo`` measures another checkout of the bot (e.g. the main branch, for a before/after
figure); ``--system-fonts`` lets the renderer use full fonts installed on the machine (by
default they are hidden, as on a fresh machine set up from ``requirements.txt`` only).

Prints the size of each font file and what opening it at one size costs; then, in
milliseconds (medians over ``--runs`` fresh interpreters): the import of the renderer, the first table image (PNG bytes) with the samples' Latin names and with names in
five scripts, and the whole child process; then per-image costs in a warm process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: names in Simplified and Traditional Chinese, kana, Hangul and accented Latin
NAMES = ["陈静", "張偉", "さくら", "김민준"]
NAMES_2 = ["吳磊", "カタカナ", "Zoë Łukasz", "Nguyễn"]

CHILD = r"""
import json, random, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {repo!r})
from render import tiles
if not {system!r} and hasattr(tiles, "FALLBACK_FONTS"):
    tiles.FALLBACK_FONTS = ()
from render import samples
from render.table import render_table
t1 = time.perf_counter()

def view(names):
    v = samples.four_player_view()
    for seat, name in zip(v["seats"], names):
        seat["name"] = name
    return v

out = {{"import": t1 - t0}}
if {kind!r} == "latin":
    render_table(samples.four_player_view())
else:
    render_table(view({names!r}))
t2 = time.perf_counter()
out["first"] = t2 - t1
if {kind!r} == "warm":
    # a warm process: the same names again, then tables of never-seen names
    same, fresh = [], []
    pool = "".join(chr(c) for c in range(0x4E00, 0x9FA6))
    hangul = "".join(chr(c) for c in range(0xAC00, 0xD7A4))
    rng = random.Random(7)
    for i in range(30):
        a = time.perf_counter()
        render_table(view({names!r}))
        b = time.perf_counter()
        fresh_names = ["".join(rng.choice(pool) for _ in range(2)), "".join(rng.choice(hangul) for _ in range(3)),
                       "Zoë %d" % i, "".join(rng.choice(pool) for _ in range(3))]
        render_table(view(fresh_names))
        c = time.perf_counter()
        same.append(b - a)
        fresh.append(c - b)
    out["same"] = sorted(same)[len(same) // 2]
    out["fresh"] = sorted(fresh)[len(fresh) // 2]
print(json.dumps(out))
"""


def child(repo: Path, kind: str, system: bool) -> dict:
    code = CHILD.format(repo=str(repo), kind=kind, system=system, names=NAMES)
    import time

    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo, check=True)
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out["process"] = time.perf_counter() - t0
    return out


def font_open(path: Path) -> float:
    """Median seconds to open ``path`` at one size with Pillow and draw a first line."""
    import time

    from PIL import ImageFont

    times = []
    for size in range(12, 52):
        t0 = time.perf_counter()
        ImageFont.truetype(str(path), size).getmask("Alice 轮到 1")
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--repo", type=Path, default=ROOT)
    ap.add_argument("--system-fonts", action="store_true")
    args = ap.parse_args(argv)
    repo = args.repo.resolve()
    fonts = sorted((repo / "data" / "fonts").glob("*.otf"))
    total = 0
    for f in fonts:
        total += f.stat().st_size
        print(f"{f.name:40s} {f.stat().st_size / 1024:8.0f} KiB")
    print(f"{'fonts on disk':40s} {total / 1024:8.0f} KiB")
    for f in fonts:
        print(f"{f.name:40s} open at one size + first line: {1000 * font_open(f):5.2f} ms (median of 40 sizes)")
    med = lambda xs: 1000 * statistics.median(xs)  # noqa: E731
    for kind, what in (("latin", "sample names (Latin)"), ("names", "names in five scripts")):
        runs = [child(repo, kind, args.system_fonts) for _ in range(args.runs)]
        print(f"fresh process, {what}: import {med([r['import'] for r in runs]):6.1f} ms"
              f"  first image {med([r['first'] for r in runs]):6.1f} ms"
              f"  import + first image {med([r['import'] + r['first'] for r in runs]):6.1f} ms"
              f"  whole process {med([r['process'] for r in runs]):6.1f} ms")
    warm = child(repo, "warm", args.system_fonts)
    print(f"warm process, table image: same names {1000 * warm['same']:5.1f} ms"
          f"  four never-seen names {1000 * warm['fresh']:5.1f} ms"
          f"  (cost of new names {1000 * (warm['fresh'] - warm['same']):5.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
