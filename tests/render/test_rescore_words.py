"""The words of re-scoring (``render/text/rescore.py``, the ``rescore`` catalogue section):
``/mj rules`` names each game's score-only options whole, and a comparison reads as the
catalogue says in every language."""

from __future__ import annotations

import pytest
from games import game_ids, game_params

from engine.variants import find_variant
from render.text import t
from render.text.records import rules
from render.text.rescore import comparison, value_text
from service.rescore import Change, Rescore


@pytest.mark.parametrize("game", game_params(quick=tuple(game_ids())))
def test_the_rules_page_names_the_score_only_options_whole(game):
    info = find_variant(game)
    names = [o.name for o in info.options if o.score_only]
    for lang in ("en", "zh-CN", "zh-TW"):
        field = rules(info, lang)[0][2][1]
        assert len(field) <= 1024  # an embed field's limit: nothing was cut
        last = field.splitlines()[-1]
        if names:
            assert last == t("rescore.rules_line", lang, options=", ".join(names))
        else:
            assert "/mj rescore" not in field


def test_a_comparison_in_three_languages():
    game = find_variant("two_player")
    played = {"points": [16, -16], "winners": [0]}
    other = {"points": [48, -48], "winners": [0]}
    r = Rescore(3, game.facts, ["ann", "AI 1"], True, [Change("base_points", 1, 3)], None, [16, -16], [48, -48],
                played, other)
    en = comparison(r, "en").splitlines()
    assert en == ["**Hand #3 · Two-player mahjong (二人麻将): under other rules**",
                  "`base_points` 1 → 3",
                  "The same deal and the same moves, scored under the other rules. (The AI seats played for the "
                  "rules of the table: under these they might have played otherwise.)",
                  "Points as played → under the other rules:",
                  "• ann: +16 → +48 (+32)", "• AI 1: -16 → -48 (-32)"]
    r = Rescore(3, game.facts, ["ann", "bo"], False, [Change("base_points", 1, 3)], "big", [16, -16], [48, -48],
                played, other)
    zh = comparison(r, "zh-TW").splitlines()
    assert zh[:3] == ["**第 3 局 · 二人麻將：換規則計分**", "預設 big · `base_points` 1 → 3", "同一副牌、同樣的出牌，按新規則計分。"]
    assert zh[-1] == "• bo：-16 → -48（-32）"
    assert [value_text(v) for v in (True, False, "all", 7)] == ["true", "false", "all", "7"]
