"""The 段位 ladder in words (``render/text/dan.py``) and on ``/mj rules``: rank names and
progress in every language, the ladder's page for the seat counts each game plays (games from
the registry), within Discord's embed limits, and through the fake Discord."""

from __future__ import annotations

import pytest

from cogs.rules import rules_pages
from engine.variants import all_variants, find_variant
from render.text.catalogue import LANGUAGES, t
from render.text.dan import ladder_page, progress, rank_name, seat_lines
from service.clock import ManualClock
from service.dan import State, load

try:
    from discord_play import new_bot
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot
    from tests.harness.fakediscord import FakeDiscord


def test_every_rank_has_a_name_in_every_language():
    ladder = load()
    for lang in LANGUAGES:
        names = [rank_name(ladder, i, lang) for i in range(len(ladder.ranks))]
        assert not [n for n in names if n.startswith("dan.")], lang
        assert len(set(names)) == len(names), lang
    assert [rank_name(ladder, i, "zh-CN") for i in (0, 1, 5, 6, 7, 15)] == ["新人", "5级", "1级", "初段", "二段", "十段"]
    assert [rank_name(ladder, i, "zh-TW") for i in (1, 6)] == ["5級", "初段"]
    assert [rank_name(ladder, i, "en") for i in (0, 1, 6, 15)] == ["Novice", "5 kyu", "1 dan", "10 dan"]


def test_progress_reads_rank_points_and_threshold():
    ladder = load()
    assert progress(ladder, State(7, 640), "zh-CN") == "二段 · 640/800 pt"
    assert progress(ladder, State(7, 640), "en") == "2 dan · 640/800 pt"
    assert progress(ladder, State(3, 20), "zh-TW") == "3級 · 20/60 pt"
    # the top rank has no threshold
    assert progress(ladder, State(15, 2350), "zh-CN") == "十段 · 2350 pt"


def test_seat_lines_join_ranks_with_the_same_points():
    ladder = load()
    # 新人 to 3级 share +20 +10 0 0 at four; 2级 loses 10 at 4th, 十段 120
    lines = seat_lines(ladder, 4, "zh-CN")
    assert lines[0] == "新人–3级：+20 +10 0 0"
    assert lines[1] == "2级：+20 +10 0 -10"
    assert lines[-1] == "十段：+60 +30 0 -120"
    assert len(lines) == len(ladder.ranks) - 3
    assert seat_lines(ladder, 2, "en")[0] == "Novice–3 kyu: +20 0"
    assert seat_lines(ladder, 3, "en")[-1] == "10 dan: +90 0 -120"


def test_the_ladder_page_names_thresholds_starts_and_protection():
    ladder = load()
    title, text, fields = ladder_page(ladder, [3, 4], "zh-CN")
    assert title == "段位" and "🔒" in text
    ranks = fields[0][1].splitlines()
    assert ranks[0] == "新人 🔒：20 · 0"
    assert ranks[6] == "初段 🔒：400 · 200"
    assert ranks[7] == "二段：800 · 400"
    assert ranks[-1] == "十段：— · 2000"
    assert [name for name, _ in fields[1:]] == ["3 人：第 1 名、第 2 名…", "4 人：第 1 名、第 2 名…"]


def _embed_size(e) -> int:
    return len(e.title or "") + len(e.description or "") + sum(len(f.name) + len(f.value) for f in e.fields)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_games_rules_end_with_the_ladder_for_its_seat_counts(lang):
    """The last page of ``/mj rules`` is the ladder, one field of places per seat count the
    game plays (``min_players .. max_players``), and the message stays within Discord's limits
    (10 embeds, 6000 characters in all, 25 fields and 4096 characters of description an
    embed, 1024 a field value, 256 a field name)."""
    ladder = load()
    games = all_variants()
    assert games
    for game in games:
        info = find_variant(game.id)
        pages = rules_pages(game.id, lang)
        assert len(pages) <= 10 and sum(_embed_size(e) for e in pages) <= 6000, (game.id, lang)
        for e in pages:
            assert len(e.fields) <= 25 and len(e.description or "") <= 4096 and len(e.title or "") <= 256
            assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in e.fields)
        last = pages[-1]
        assert last.title == t("dan.title", lang)
        seats = list(range(info.min_players, info.max_players + 1))
        assert [f.name for f in last.fields] == [t("dan.ranks", lang)] + [t("dan.seats", lang, count=n) for n in seats]
        # each seat count's field ends with the top rank's places for that many players
        top = ladder.ranks[-1]
        for f, n in zip(last.fields[1:], seats):
            assert f.value.splitlines()[-1].endswith(" ".join(f"{p:+d}" if p else "0" for p in top.places[n]))


@pytest.mark.asyncio
async def test_mj_rules_shows_the_ladder_through_discord(tmp_path):
    """``/mj rules`` of a 2-to-4-seat game and of a 2-seat game, in Chinese and English."""
    games = all_variants()
    wide = next(g.id for g in games if find_variant(g.id).min_players == 2 and find_variant(g.id).max_players == 4)
    pair = next(g.id for g in games if find_variant(g.id).max_players == 2)
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        ann = fd.user(1, "ann", locale="zh-CN")
        r = await fd.slash(ann, "mj rules", {"variant": wide})
        last = r.message.embeds[-1]
        assert last["title"] == "段位"
        assert [f["name"] for f in last["fields"]] == ["段位：昇段点 · 起始点", "2 人：第 1 名、第 2 名…",
                                                       "3 人：第 1 名、第 2 名…", "4 人：第 1 名、第 2 名…"]
        assert "初段：+40 +10 0 -30" in last["fields"][3]["value"]
        bo = fd.user(2, "bo", locale="en-US")
        r = await fd.slash(bo, "mj rules", {"variant": pair})
        last = r.message.embeds[-1]
        assert last["title"] == "Rank ladder (段位)"
        assert [f["name"] for f in last["fields"]] == ["Ranks: promote at · start", "2 players: 1st, 2nd…"]
        assert "2 dan: +40 -35" in last["fields"][1]["value"]
    finally:
        await fd.close()
