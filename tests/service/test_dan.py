"""The 段位 ladder (``service/dan.py``, table ``data/ranks/dan.json``): players walked up and
down by stated places for 2-, 3- and 4-player units, worked by hand from the table (its
README's table; rank indices: 0 新人, 1–5 5级…1级, 6 初段, 7 二段 … 15 十段), ties, refused
input, and the table's shape."""

from __future__ import annotations

import json

import pytest

from engine.variants import all_variants
from service import dan
from service.dan import LADDER_FILE, State, after, initial, load, parse, place_points, walk

NOVICE, KYU5, KYU4, KYU3, KYU2, KYU1, DAN1, DAN2, DAN3, DAN4 = range(10)
DAN9, DAN10 = 14, 15


def test_the_ladder_reads_as_its_readme_says():
    ladder = load()
    assert [r.id for r in ladder.ranks] == ["novice", "kyu5", "kyu4", "kyu3", "kyu2", "kyu1"] + [
        f"dan{d}" for d in range(1, 11)]
    assert [r.promote for r in ladder.ranks] == [20, 20, 40, 60, 80, 100] + [400 * d for d in range(1, 10)] + [None]
    assert [r.start for r in ladder.ranks] == [0] * 6 + [200 * d for d in range(1, 11)]
    assert [r.id for r in ladder.ranks if r.protected] == ["novice", "kyu5", "kyu4", "kyu3", "kyu2", "kyu1", "dan1"]
    assert ladder.ranks[DAN1].places == {2: (40, -30), 3: (50, 0, -30), 4: (40, 10, 0, -30)}
    assert ladder.ranks[DAN10].places == {2: (60, -75), 3: (90, 0, -120), 4: (60, 30, 0, -120)}
    assert initial() == State(NOVICE, 0)


def test_four_player_units_up_and_down():
    # from 新人: 1st +20 reaches 新人's 20 → 5级 at 0
    s = after(initial(), 1, 4)
    assert s == State(KYU5, 0)
    # 4th at 5级 costs nothing (0); then 2nd +10, 2nd +10 = 20 → 4级 at 0
    assert walk([(4, 4), (2, 4)], s) == State(KYU5, 10)
    s = walk([(4, 4), (2, 4), (2, 4)], s)
    assert s == State(KYU4, 0)
    # 4级 needs 40: 1st +20, 3rd 0, 1st +20 → 3级 at 0
    assert walk([(1, 4), (3, 4), (1, 4)], s) == State(KYU3, 0)
    # 1级 at 90, 1st +20 = 110 ≥ 100 → 初段 at its start, 200 (the 10 over is not carried)
    s = after(State(KYU1, 90), 1, 4)
    assert s == State(DAN1, 200)
    # 初段: 4th −30 → 170; 2nd +10 → 180
    assert walk([(4, 4), (2, 4)], s) == State(DAN1, 180)
    # 初段 is protected: at 5, 4th −30 would be −25 → stays 初段 at 0
    assert after(State(DAN1, 5), 4, 4) == State(DAN1, 0)
    # so is 1级: at 10, 4th −20 → 1级 at 0
    assert after(State(KYU1, 10), 4, 4) == State(KYU1, 0)
    # 初段 at 390, 2nd +10 = 400 → 二段 at 400; there 4th −40 → 360
    s = after(State(DAN1, 390), 2, 4)
    assert s == State(DAN2, 400)
    assert after(s, 4, 4) == State(DAN2, 360)
    # 二段 is not protected: at 35, 4th −40 = −5 → 初段 at its start 200
    assert after(State(DAN2, 35), 4, 4) == State(DAN1, 200)
    # 十段 has no threshold: 1st +60 from 3990 → 4050, still 十段; at 100, 4th −120 → 九段 at 1800
    assert after(State(DAN10, 3990), 1, 4) == State(DAN10, 4050)
    assert after(State(DAN10, 100), 4, 4) == State(DAN9, 1800)


def test_three_player_units_up_and_down():
    # 新人: 1st +30 ≥ 20 → 5级 at 0; 2nd 0 and 3rd 0 (5级) leave it there
    assert walk([(1, 3), (2, 3), (3, 3)]) == State(KYU5, 0)
    # 2级 (protected) at 5: 3rd −10 → 0, not −5
    assert after(State(KYU2, 5), 3, 3) == State(KYU2, 0)
    # 2级 at 60: 1st +30 = 90 ≥ 80 → 1级 at 0
    assert after(State(KYU2, 60), 1, 3) == State(KYU1, 0)
    # 三段 at 1160: 1st +50 = 1210 ≥ 1200 → 四段 at 800; 3rd −60 → 740; 2nd 0 → 740
    s = after(State(DAN3, 1160), 1, 3)
    assert s == State(DAN4, 800)
    assert walk([(3, 3), (2, 3)], s) == State(DAN4, 740)
    # 四段 at 50: 3rd −60 = −10 → 三段 at 600; there 2nd 0 → 600
    s = after(State(DAN4, 50), 3, 3)
    assert s == State(DAN3, 600)
    assert after(s, 2, 3) == State(DAN3, 600)


def test_two_player_units_up_and_down():
    # 新人: 1st +20 → 5级 at 0; 2nd at 5级 costs nothing
    assert walk([(1, 2), (2, 2)]) == State(KYU5, 0)
    # 1级 (protected) at 10: 2nd −20 → 0
    assert after(State(KYU1, 10), 2, 2) == State(KYU1, 0)
    # 初段 at 380: 1st +40 = 420 → 二段 at 400; 2nd −35 → 365
    s = after(State(DAN1, 380), 1, 2)
    assert s == State(DAN2, 400)
    assert after(s, 2, 2) == State(DAN2, 365)
    # 二段 at 30: 2nd −35 = −5 → 初段 at 200; 初段 at 20: 2nd −30 → held at 0
    assert after(State(DAN2, 30), 2, 2) == State(DAN1, 200)
    assert after(State(DAN1, 20), 2, 2) == State(DAN1, 0)
    # 十段 at 70: 2nd −75 = −5 → 九段 at 1800
    assert after(State(DAN10, 70), 2, 2) == State(DAN9, 1800)


def test_ties_share_the_places_they_cover():
    # four players, 初段 (+40 +10 0 −30): two tied 1st → (40 + 10) / 2 = 25
    assert place_points(DAN1, 1, 4, tied=2) == 25
    # three tied from 2nd → (10 + 0 − 30) / 3 = −6.67 → −7; all four → (40 + 10 + 0 − 30) / 4 = 5
    assert place_points(DAN1, 2, 4, tied=3) == -7
    assert place_points(DAN1, 1, 4, tied=4) == 5
    # 十段 all four: (60 + 30 + 0 − 120) / 4 = −7.5 → −7 (a half toward zero)
    assert place_points(DAN10, 1, 4, tied=4) == -7
    # three players, 初段 (+50 0 −30): 1st and 2nd tied → 25; all three → 20 / 3 = 6.67 → 7
    assert place_points(DAN1, 1, 3, tied=2) == 25
    assert place_points(DAN1, 1, 3, tied=3) == 7
    # two players tied: 初段 (40 − 30) / 2 = 5; 二段 (40 − 35) / 2 = 2.5 → 2; 十段 (60 − 75) / 2 = −7.5 → −7
    assert [place_points(r, 1, 2, tied=2) for r in (DAN1, DAN2, DAN10)] == [5, 2, -7]
    # a shared place moves the state as any other: 初段 at 380 + 25 = 405 → 二段 at 400
    assert after(State(DAN1, 380), 1, 4, tied=2) == State(DAN2, 400)
    # two tied last of four at 二段: (0 − 40) / 2 = −20; from 10 → −10 → 初段 at 200
    assert after(State(DAN2, 10), 3, 4, tied=2) == State(DAN1, 200)
    # tied = 1 is the place's own points
    assert place_points(DAN2, 4, 4, tied=1) == place_points(DAN2, 4, 4) == -40


@pytest.mark.parametrize("rank, place, players, tied", [
    (NOVICE, 1, 5, 1), (NOVICE, 1, 1, 1), (NOVICE, 0, 4, 1), (NOVICE, 5, 4, 1), (NOVICE, 4, 4, 2),
    (NOVICE, 1, 4, 0), (16, 1, 4, 1), (-1, 1, 4, 1)])
def test_what_the_ladder_does_not_have_is_refused(rank, place, players, tied):
    with pytest.raises(ValueError):
        place_points(rank, place, players, tied=tied)
    with pytest.raises(ValueError):
        after(State(rank, 0), place, players, tied=tied)


def test_the_table_file_has_its_shape():
    doc = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    assert isinstance(doc["version"], int) and doc["version"] >= 1
    ladder = load()
    assert ladder.seats == (2, 3, 4) and len(ladder.ranks) >= 2
    for i, r in enumerate(ladder.ranks):
        assert sorted(r.places) == list(ladder.seats)
        for n, row in r.places.items():
            assert len(row) == n
            assert list(row) == sorted(row, reverse=True)  # a better place never gets less
            assert row[0] > 0 >= row[-1]  # 1st wins, last never gains
        if i < ladder.top:
            assert r.promote > 0 and 0 <= r.start < r.promote
        else:
            assert r.promote is None and r.start >= 0
    # thresholds and last places grow with rank; protected ranks are the lowest ones
    assert all(a.promote <= b.promote for a, b in zip(ladder.ranks, ladder.ranks[1:-1]))
    for n in ladder.seats:
        assert all(a.places[n][-1] >= b.places[n][-1] for a, b in zip(ladder.ranks, ladder.ranks[1:]))
    protected = [r.protected for r in ladder.ranks]
    assert protected[0] and protected == sorted(protected, reverse=True)
    # a demoted player lands on the lower rank below its threshold
    assert all(lo.start < lo.promote for lo in ladder.ranks[:-1])


def test_a_broken_table_is_refused():
    doc = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    assert parse(doc) == load()
    for breakage in (lambda d: d["ranks"][3]["places"].pop("3"),
                     lambda d: d["ranks"][3]["places"].__setitem__("4", [20, 10, 0]),
                     lambda d: d["ranks"][-1].__setitem__("promote", 5000),
                     lambda d: d["ranks"][2].__setitem__("promote", None),
                     lambda d: d["ranks"][2].__setitem__("promote", 0),
                     lambda d: d["ranks"][8].__setitem__("start", 1200),
                     lambda d: d["ranks"][1].__setitem__("id", "novice"),
                     lambda d: d.__setitem__("ranks", [])):
        broken = json.loads(json.dumps(doc))
        breakage(broken)
        with pytest.raises(ValueError):
            parse(broken)


def test_every_game_can_be_rated():
    """Every unit size a game plays (its ``min_players .. max_players``) from 2 up is one the
    ladder rates, so none of its rated units is refused."""
    ladder = load()
    games = all_variants()
    assert games
    for info in games:
        sizes = set(range(max(2, info.min_players), info.max_players + 1))
        assert sizes and sizes <= set(ladder.seats), info.id


def test_load_reads_a_table_once_and_any_path(tmp_path):
    assert load() is load()
    doc = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    doc["version"] = 2
    other = tmp_path / "dan.json"
    other.write_text(json.dumps(doc), encoding="utf-8")
    ladder = dan.load(other)
    assert ladder.version == 2
    assert after(State(DAN1, 390), 2, 4, ladder=ladder) == State(DAN2, 400)
