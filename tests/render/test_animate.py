"""The animated hand (``render.animate``, ``service.replays.frames``) of the longest seeded hand
of every game (from the registry; the longest of ``bench/bench_animate.py``'s seeded AI hands):
under the 10 MiB a server without boosts accepts, one frame per move the channel saw plus the
deal and the result, each shown as long as its kind says."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import pytest
from games import game_params
from PIL import Image

from engine.actions import Action
from engine.variants import find_variant
from render.animate import CLAIM_MS, DEAL_MS, LIMIT, MOVE_MS, RESULT_MS, SCALE, encode
from render.table import WIDTH

SPEC = importlib.util.spec_from_file_location(
    "bench_animate", Path(__file__).resolve().parents[2] / "bench" / "bench_animate.py")
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)
HANDS = 20  #: seeded hands per game, as the benchmark's default


def public_changes(record) -> int:
    """How many of the log's actions but the last changed the public table: the engine's public
    frame (``Hand.public_frame``) after it differs from the one before — replayed here apart
    from the service."""
    info = find_variant(record.variant)
    hand = info.new_hand(record.options, record.seed, record.dealer, len(record.seats))
    before, changes = hand.public_frame(), 0
    for line in record.actions[:-1]:
        hand.apply(Action.parse(line))
        now = hand.public_frame()
        changes += now != before
        before = now
    return changes


@pytest.mark.parametrize("game", game_params(quick=("laosanfan",)))
def test_the_longest_seeded_hand_animates_under_the_limit_one_frame_a_move(game):
    record = bench.longest(game, HANDS)
    m = bench.measure(record)
    data = m["gif"]
    assert 0 < len(data) < LIMIT, len(data)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.width == round(WIDTH * SCALE)
    # the deal, one frame per move the channel saw, the result (the last action's)
    assert gif.n_frames == m["frames"] == public_changes(record) + 2
    from service.replays import frames

    kinds = [f.kind for f in frames(record)]
    assert kinds[0] == "deal" and kinds[-1] == "result" and set(kinds[1:-1]) <= {"move", "claim"}
    shown = []
    for i in range(gif.n_frames):
        gif.seek(i)
        shown.append(gif.info["duration"])
    want = {"deal": DEAL_MS, "move": MOVE_MS, "claim": CLAIM_MS, "result": RESULT_MS}
    assert shown == [want[k] for k in kinds]


def test_frames_of_several_sizes_share_one_canvas_and_need_one_duration_each():
    small = Image.new("RGB", (40, 20), (255, 0, 0))
    big = Image.new("RGB", (60, 50), (0, 0, 255))
    gif = Image.open(io.BytesIO(encode([small, big], [100, 200])))
    assert gif.size == (60, 50) and gif.n_frames == 2
    with pytest.raises(ValueError):
        encode([small, big], [100])
    with pytest.raises(ValueError):
        encode([], [])
