"""The public table image of every game as Discord shows it (about 450 px wide): the narrowest
tile a player reads (backs of hidden hands aside) of the seats beside the bottom seat, of the
seat on turn and of the winner, measured as shown on the drawn image, the image's size, and
the time to draw it (and to encode the PNG).

    python bench/bench_table_image.py [--n 30]

The hands are those of ``docs/screens/make_screens.py`` (fixed seeds, played by the AI).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs" / "screens"))

from make_screens import mid_hand, result  # noqa: E402

from engine.outcome import outcome  # noqa: E402
from engine.variants import all_variants  # noqa: E402
from render.table import render_table, shown_px, table_image, table_layout, warm_up  # noqa: E402


#: the tiles a player reads (a hidden hand's backs are only counted)
READ = {"hand", "drawn", "meld", "flower", "pond", "last", "special", "win"}


def _narrowest(view: dict) -> dict:
    """Seat (``None``: the information line and the result) → the narrowest tile a player
    reads, in px of the drawn image (its opaque box's shorter side)."""
    from render.common import FELT

    record: list = []
    table_layout(view).root.render(FELT, record)
    out: dict = {}
    for tag, (x0, y0, x1, y1) in record:
        if tag[0] in READ:
            seat = tag[1] if tag[0] not in ("last", "special", "win") else None
            out[seat] = min(out.get(seat, 10 ** 6), min(x1 - x0, y1 - y0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30, help="draws per image for the timing")
    n = ap.parse_args().n
    warm_up()
    print(f"{'game':11s} {'shows':8s} {'w x h':>9s}  {'beside':>6s} {'focus':>5s} (px at 450)  "
          f"{'draw':>6s} {'+png':>6s} ms")
    for info in all_variants():
        for what, make in (("mid-hand", mid_hand), ("result", result)):
            _, view = make(info)
            focus = view["turn"] if what == "mid-hand" else outcome(view["result"])["wins"][0]["seat"]
            lay = table_layout(view)
            w = lay.root.width
            nseats = len(view["seats"])
            beside = {1} if nseats == 2 else {1, nseats - 1}
            narrow = _narrowest(view)
            side = min(shown_px(narrow[s], w) for s in beside if s in narrow)
            foc = shown_px(narrow[focus], w)
            render_table(view)
            t0 = time.perf_counter()
            for _ in range(n):
                table_image(view)
            t1 = time.perf_counter()
            for _ in range(n):
                render_table(view)
            t2 = time.perf_counter()
            print(f"{info.id:11s} {what:8s} {w:4d}x{lay.root.height:<4d}  {side:6.1f} {foc:5.1f}              "
                  f"{1000 * (t1 - t0) / n:6.1f} {1000 * (t2 - t1) / n:6.1f}")


if __name__ == "__main__":
    main()
