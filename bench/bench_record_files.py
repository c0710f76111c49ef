"""Game record files (``service/record_file.py``): the size of the largest record the bot
writes — a 100-hand match of the game's largest seat count, played by the AI — and the time
an import takes to check it (every action replayed through the engine), per game.

    python bench/bench_record_files.py [--hands 100]

Prints per game: seats, bytes of the .json, actions, seconds to check (parse, schema, replay,
compare), and the share of the import limit (``service.record_file.MAX_BYTES``) it takes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "harness"))

from rated_history import play_by_ai  # noqa: E402

from engine.variants import all_variants  # noqa: E402
from service.hands import settlement_records  # noqa: E402
from service.record_file import MAX_BYTES, dumps, hand_entry, read, record  # noqa: E402


def match_record(info, hands: int) -> bytes:
    """A ``hands``-hand match of ``info`` at its largest seat count, every seat the AI."""
    n = info.max_players
    entries = []
    for k in range(hands):
        seed, dealer = 1000 + k, k % n
        played = play_by_ai(info.id, n, seed, hands, dealer)
        options, lines = played.options, list(played.lines)
        names = [f"player {i}" for i in range(n)]
        result = json.loads(json.dumps(dict(played.result, seed=seed, claimed_by=sorted(played.claimed),
                                            names=names)))
        seats = [{"user_id": None, "name": name, "is_ai": False} for name in names]
        entries.append(hand_entry(hand_id=k + 1, hand_no=k, variant=info.id, options=options, seed=seed,
                                  dealer=dealer, seats=seats, context={}, actions=lines, result=result,
                                  settlements=settlement_records(result, [(None, x, False) for x in names])))
    return dumps(record(info.id, entries, {"id": 1, "hands_planned": hands, "hands_played": hands}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100)
    args = ap.parse_args()
    print(f"{'game':10s} seats {'bytes':>9s} {'actions':>8s} {'check s':>8s} {'of limit':>8s}")
    for info in all_variants():
        raw = match_record(info, args.hands)
        t0 = time.perf_counter()
        checked = read(raw)
        dt = time.perf_counter() - t0
        print(f"{info.id:10s} {info.max_players:5d} {len(raw):9d} {checked.actions:8d} {dt:8.2f} "
              f"{len(raw) / MAX_BYTES:8.0%}")


if __name__ == "__main__":
    main()
