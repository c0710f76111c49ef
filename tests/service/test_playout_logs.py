"""Seeded play-outs of every game store the same hands as ``tests/data/playout_logs.json``:
the table service with a player on timeout moves against AI seats, and the local table's
``bot.py --auto`` (its output and its database), from ``bench/playout_logs.py``.

After a change that alters play on purpose, write the file again with
``python bench/playout_logs.py --out tests/data/playout_logs.json``.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("playout_logs", ROOT / "bench" / "playout_logs.py")
playouts = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(playouts)

STORED = Path(__file__).resolve().parents[1] / "data" / "playout_logs.json"


def stored(part: str) -> list[dict]:
    return json.loads(STORED.read_text(encoding="utf-8"))[part]


def check(part: str, actual: list[dict], expected: list[dict] | None = None) -> None:
    expected = stored(part) if expected is None else expected
    diff = playouts.first_difference(expected, actual, part)
    assert diff is None, f"{diff}\n(regenerate {STORED.name} only for a change of play meant to be)"
    # byte for byte, as the file holds it
    assert playouts.dumps({part: actual}) == playouts.dumps({part: expected})


def test_the_stored_playouts_cover_every_game():
    games = playouts.game_ids()
    assert sorted({t["game"] for t in stored("service")}) == sorted(games)
    assert sorted({t["game"] for t in stored("local")}) == sorted(games)


def test_service_playouts_store_the_same_hands():
    check("service", playouts.service_playouts())


def local_as_now(runs: list[dict]) -> list[dict]:
    """The stored local play-outs with the one change made on purpose: ``--auto`` lets the AI
    play your seat through the table service (``TableService.let_ai_play``), which stores the
    seat as the AI seat it is (``is_ai``, at the level the AI seats play, strong by default),
    where it was an AI seat in memory only before.  Hands, actions, results, settlements and
    what the terminal printed are unchanged."""
    out = []
    for run in runs:
        seats = [dict(s, is_ai=True, ai_level="strong") if s["seat"] == 0 else s for s in run["seats"]]
        out.append(dict(run, seats=seats))
    return out


@pytest.mark.lengthy
@pytest.mark.slow  # a bot.py process per game and seed
def test_local_table_playouts_store_the_same_hands_and_print_the_same():
    check("local", playouts.local_playouts(), local_as_now(stored("local")))
