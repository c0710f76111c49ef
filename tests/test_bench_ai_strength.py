"""The AI strength benchmark (bench/bench_ai_strength.py) on a few walls: the seatings, the
paired samples and the stopping rule."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location(
    "bench_ai_strength", Path(__file__).resolve().parents[1] / "bench" / "bench_ai_strength.py")
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def test_a_wall_rotates_the_tested_seat_and_normal_against_itself_scores_zero():
    row = bench.play_wall(("laosanfan", 11, ("normal", "easy")))
    normal, easy = row["normal"], row["easy"]
    assert normal["seatings"] == easy["seatings"] == 4
    assert normal["sample"] == 0  # zero-sum hand, every seat the same AI
    # easy's sample is the mean of its four seatings' points, each played on wall 11
    points = []
    for seat in range(4):
        seating = ["normal"] * 4
        seating[seat] = "easy"
        result, hand, times = bench.play_hand("laosanfan", 11, seating, seat)
        points.append(result["points"][seat])
        assert times and all(t >= 0 for t in times)
    assert easy["sample"] == sum(points) / 4
    assert easy["wins"] + easy["dealins"] <= 4


def test_interval_and_the_stopping_rule():
    m, h = bench.interval([1.0, 3.0])
    assert m == 2.0 and h == pytest.approx(1.96 * 2 ** 0.5 / 2 ** 0.5)  # sd √2 over √2 walls
    assert bench._settled({"easy": [1.0, 1.2, 0.8, 1.0]})  # interval 1 ± 0.16: zero excluded
    assert not bench._settled({"easy": [1.0, -1.0, 2.0, -2.0]})
    assert not bench._settled({"strong": [0.0, 0.0]})  # strong = normal: still includes zero


def test_the_benchmark_prints_every_level_and_the_wall_count(capsys, strong_is_normal):
    # 二人麻将 plays a strong AI of its own; 财神麻将's strong is its normal AI for this test
    assert bench.main(["--games", "two_player,caishen", "--walls", "3", "--max-walls", "3"]) == 0
    out = capsys.readouterr().out
    rows = [line.split()[0] for line in out.splitlines() if line.split() and line.split()[0] in
            ("easy", "normal", "strong", "strong=normal")]
    assert rows == ["easy", "normal", "strong", "easy", "normal", "strong=normal"]
    assert out.count(": 3 walls,") == 2 and out.strip().splitlines()[-1].startswith("6 walls in ")


def test_tracked_scoring_items_are_printed_with_zero_counts_first():
    from collections import Counter

    items = Counter({"么半三": 5, "混一色": 2, "正花": 1})
    assert bench.item_counts("laosanfan", items) == [
        ("清一色", 0), ("混一色", 2), ("对对胡", 0), ("么半三", 5), ("正花", 1)]
    assert bench.item_counts("laosanfan", items, others=1)[-1] == ("么半三", 5)
    # 财神麻将: all twelve special hands, in the rule file's order
    shown = bench.item_counts("caishen", Counter({"七对子": 3}))
    assert len(shown) == 12 and shown[:2] == [("清一色", 0), ("七对子", 3)] and shown[-1] == ("字清", 0)
    assert bench.item_counts("zipai", Counter({"自摸": 4})) == [("自摸", 4)]  # nothing tracked
