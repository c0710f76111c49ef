"""The profile card (``render/profile.py``) and its text (``render/text/profile.py``): every
game, every language, a new player and a seasoned one, the top rank, a hostile name; the
numbers as the counts give them, and text that reads at Discord's 450 px."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from profile_cases import RECENT, game, games, newcomer, seasoned, top_rank
from render.profile import MIN_TEXT, WIDTH, profile_image, profile_picture, recent_points
from render.text.profile import MESSAGE_LIMIT, profile_text
from service import dan

LANGS = ("zh-CN", "zh-TW", "en")
#: the palette PNG's budget
MAX_BYTES = 60_000
#: Discord shows the card this wide on a laptop
SHOWN = 450
HOSTILE = ("**bold** __u__ ~~s~~ ||spoiler|| `code` <@123> @everyone 😀🀄 " * 3)[:100]


def png_of(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", [g.id for g in games()])
def test_every_game_draws_a_card_within_the_budget(game_id, lang):
    for profile in (seasoned(game(game_id)), newcomer(game(game_id))):
        data = profile_image(profile, lang)
        im = png_of(data)
        assert im.width == WIDTH and 600 < im.height < 1100
        assert im.mode == "P"  # the shared palette
        assert len(data) < MAX_BYTES


def test_the_text_gives_the_numbers_the_counts_make():
    text = profile_text(seasoned(game("zipai")), "zh-CN")
    lines = text.splitlines()
    assert lines[0] == "Alice · 字牌 · 全部"
    # 段位 State(7, 640): 二段, threshold 800 → 160 to go to 三段
    assert lines[1] == "段位：二段 · 640/800 pt · 距三段还差 160 pt"
    assert lines[2] == "评分 1623（μ 27.10 ± σ 1.30）· 计分单位 42 个"
    assert "对局数：52" in lines
    assert "和了率 23.1%（12/52）" in lines  # 12 / 52 = 0.2308
    assert "放铳率 13.5%（7/52）" in lines  # 7 / 52 = 0.1346
    assert "自摸率 41.7%（5/12）" in lines  # 5 / 12 = 0.4167
    assert "副露率 38.5%（20/52）" in lines  # 20 / 52 = 0.3846
    assert "流局率 7.7%（4/52）" in lines  # 4 / 52 = 0.0769
    assert "平均打点 45.0 分" in lines  # 540 / 12
    assert "平均铳点 29.0 分" in lines  # 203 / 7
    assert "每和：胡息 16.5（12 次和了）" in lines  # 198 / 12, 字牌's 胡息
    # RECENT: places 1,3,2,4,1,2,2,1,3,1,2,4,1,3,2,1,2,3,1,2 → sum 41 / 20 = 2.05; 7 firsts of 20
    assert "平均顺位 2.05（计分单位 20 个）" in lines
    assert "一位率 35.0%（7/20）" in lines
    # 7 × 1st, 7 × 2nd, 4 × 3rd, 2 × 4th of 20
    assert "顺位分布：1位 35.0% · 2位 35.0% · 3位 20.0% · 4位 10.0%" in lines
    assert "最近 20 个计分单位的顺位（从早到晚）：1/4 3/4 2/3 4/4 1/2" in text
    assert lines[-1] == "最佳和牌（/mj replay）：#1234 +120（8 胡息）；#987 +96；#55 +64（3 胡息）"
    assert len(text) <= MESSAGE_LIMIT


def test_english_says_the_same_in_clear_words():
    text = profile_text(seasoned(game("laowudui")), "en")
    lines = text.splitlines()
    assert lines[0] == "Alice · Lao Wu Dui (老五对) · all time"
    assert lines[1] == "Rank (段位): 2 dan · 640/800 pt · 160 pt to 3 dan"
    assert "Win rate 23.1% (12 of 52)" in lines
    assert "Deal-in rate 13.5% (7 of 52)" in lines
    assert "Self-draw rate 41.7% (5 of 12)" in lines
    assert "Call rate 38.5% (20 of 52)" in lines
    assert "Draw rate 7.7% (4 of 52)" in lines
    assert "Average place 2.05 (20 rated units)" in lines
    assert "First-place rate 35.0% (7 of 20)" in lines
    assert any(line.startswith("Per win: ") and "16.5" in line for line in lines)  # 老五对's 对
    assert "#1234 +120" in lines[-1]


def test_zh_tw_is_traditional():
    text = profile_text(seasoned(game("caishen")), "zh-TW")
    assert "放銃率 13.5%（7/52）" in text and "順位分佈" in text and "評分 1623" in text
    assert "#1234 +120（×8）" in text  # 财神麻将 counts its multiplier


def test_a_new_player_reads_unrated_and_dashes():
    text = profile_text(newcomer(game("two_player")), "en")
    lines = text.splitlines()
    assert lines[1] == "Rank (段位): Novice · 0/20 pt · 20 pt to 5 kyu"
    assert lines[2] == "Unrated yet: no rated unit played"
    for label in ("Win rate", "Deal-in rate", "Self-draw rate", "Call rate", "Draw rate", "Average win",
                  "Average deal-in", "Average place", "First-place rate"):
        assert f"{label} —" in lines
    assert "No rated unit yet" in lines and "No win yet" in lines
    zh = profile_text(newcomer(game("two_player")), "zh-CN")
    assert "尚无评分" in zh and "和了率 —" in zh.splitlines()


def test_a_game_without_claims_has_no_call_rate():
    from dataclasses import replace

    p = seasoned(game("two_player"))
    p = replace(p, rates=replace(p.rates, calls=None))
    assert "副露率 —" in profile_text(p, "zh-CN").splitlines()
    png_of(profile_image(p, "zh-CN"))


def test_the_top_rank_has_no_threshold_and_no_bar():
    p = top_rank(game("laosanfan"))
    lines = profile_text(p, "zh-CN").splitlines()
    assert lines[1] == "段位：十段 · 2350 pt"
    record: list = []
    profile_picture(p, "zh-CN", record)
    shown = {tag[1]: box for tag, box in record}
    assert shown["to_next"] and shown["points"]
    mid = profile_picture(seasoned(game("laosanfan")), "zh-CN")
    top = profile_picture(p, "zh-CN")
    assert top.size == mid.size


def test_specials_are_named_in_the_games_words():
    p = seasoned(game("caishen"), specials=[("dapenghu", 2), ("ziqing", 1)])
    assert "特殊牌型：大碰胡 ×2；字清 ×1" in profile_text(p, "zh-CN")
    assert "Special hands: All pungs 大碰胡 ×2; All honours 字清 ×1" in profile_text(p, "en")
    assert len(profile_image(p, "en")) < MAX_BYTES


@pytest.mark.parametrize("lang", LANGS)
def test_a_hostile_name_breaks_neither(lang):
    from cogs.markup import shown

    p = seasoned(game("zipai"), HOSTILE)
    assert len(HOSTILE) == 100
    plain = profile_text(p, lang)
    assert plain.splitlines()[0].startswith(HOSTILE.strip())
    escaped = profile_text(p, lang, shown=shown)
    first = escaped.splitlines()[0]
    assert "\\*\\*bold\\*\\*" in first and "\\|\\|spoiler\\|\\|" in first and "@\u200beveryone" in first
    assert "\\<@123>" in first
    assert len(escaped) <= MESSAGE_LIMIT
    # a name with a newline stays on its line; one that is only emoji still draws
    assert profile_text(seasoned(game("zipai"), "a\nb\tc"), lang).splitlines()[0].startswith("a b c ·")
    for name in (HOSTILE, "😀😀", "", "W" * 100):
        data = profile_image(seasoned(game("zipai"), name), lang)
        assert png_of(data).width == WIDTH and len(data) < MAX_BYTES


def test_the_name_is_cut_to_the_card():
    record: list = []
    profile_picture(seasoned(game("zipai"), "W" * 100), "en", record)
    (box,) = [b for tag, b in record if tag == ("profile", "name")]
    assert box[2] <= WIDTH - 20


def test_every_text_reads_at_discords_width():
    """Shown 450 px wide, the card's smallest text (a ``7/52``, a legend) is still at least
    13 px tall, and the numbers players compare are taller."""
    scale = SHOWN / WIDTH
    assert MIN_TEXT * scale >= 13
    for lang in LANGS:
        record: list = []
        profile_picture(seasoned(game("zipai")), lang, record)
        boxes = {tag[1]: box for tag, box in record}
        for key in ("wins", "deal_ins", "rating", "rank", "name"):
            x0, y0, x1, y1 = boxes[key]
            assert (y1 - y0) * scale >= 13, (lang, key)
        # the percentages' digits: about 21 px here, 13 px at 450
        x0, y0, x1, y1 = boxes["wins"]
        assert (y1 - y0) >= 21
        for key, box in boxes.items():
            assert 0 <= box[0] <= box[2] <= WIDTH and box[3] > box[1], (lang, key)


def test_texts_do_not_overlap():
    """No two tagged texts of the card share a pixel (the grid, the bars and the chart keep
    apart)."""
    for lang in LANGS:
        for p in (seasoned(game("zipai")), newcomer(game("caishen")), top_rank(game("laowudui"))):
            record: list = []
            profile_picture(p, lang, record)
            boxes = [b for _, b in record]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (lang, record)


def test_recent_places_are_scaled_by_the_players():
    pts = recent_points([(1, 4), (4, 4), (2, 3), (2, 2), (1, 2), (3, 4)], 0, 190, 10, 100, 20)
    assert [x for x, _ in pts] == [0, 10, 20, 30, 40, 50]  # 20 columns over 190 px, oldest left
    assert [y for _, y in pts] == [10, 100, 55, 100, 10, 70]  # 1st on top, the last place at the bottom


def test_the_chart_draws_every_recent_unit():
    """Each of the 20 units is a dot: gold for 1st, red for the last place."""
    from render.profile import LOSS
    from render.common import GOLD

    record: list = []
    im = profile_picture(seasoned(game("zipai")), "en", record)
    (box,) = [b for tag, b in record if tag == ("profile", "recent_top")]
    row = [im.getpixel((x, box[1] + (box[3] - box[1]) // 2)) for x in range(box[2], WIDTH - 20)]
    golds = sum(1 for a, b in zip(row, row[1:]) if b == GOLD and a != GOLD)
    assert golds == sum(1 for p, _ in RECENT if p == 1)
    assert LOSS in [im.getpixel((x, y)) for x in range(0, WIDTH, 2) for y in range(box[1], box[1] + 140, 2)]


def test_the_dan_bar_fills_to_the_points():
    """二段 640/800: the gold bar covers 80 % of its track."""
    from render.common import GOLD

    record: list = []
    im = profile_picture(seasoned(game("zipai"), state=dan.State(7, 640)), "en", record)
    (box,) = [b for tag, b in record if tag == ("profile", "to_next")]
    y = box[1] - 20  # the bar lies just above the words toward the next rank
    row = [im.getpixel((x, y)) for x in range(0, WIDTH // 2)]
    gold = [x for x, c in enumerate(row) if c == GOLD]
    track = [x for x, c in enumerate(row) if c != row[0]]
    assert gold and track
    assert abs((gold[-1] - gold[0]) / (track[-1] - track[0]) - 0.8) < 0.03
