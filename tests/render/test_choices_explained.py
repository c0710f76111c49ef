"""Each game's own choices are explained where they are asked, in one sentence of the game's
words (``explain.<key>`` in its package), in all three languages: on the panel (the prompt
above the hand) and at the local table — 飘 (字牌), 买庄, 吃 of a dealt tile and 留 of a 百搭
(老五对), 假听 and a 假听 being declared (金湖), the first go-around's restriction (老三番,
金湖), a 吃 that 比牌 withheld (字牌).  Seeded AI play finds each situation; 金湖's seats
press 假听 in every third hand so that its declaration comes up."""

from __future__ import annotations

import pytest

from games import game_ids, per_game

from engine.variants import find_variant
from render.text import local, prompts
from render.text.catalogue import tv

#: the explanations each game's seeded play must show
EXPLAINED = {"two_player": set(), "caishen": set(), "laosanfan": {"opening_restriction"},
             "jinhu": {"fake_ting", "fake_ting_pending", "opening_restriction"},
             "laowudui": {"buy", "chi", "keep"}, "zipai": {"piao", "bi_withheld"}}
LANGS = ("en", "zh-CN", "zh-TW")


def _situations(game: str, keys: set[str]) -> dict:
    """``{key: (view, deciding)}``: the first seat view of seeded play whose explanations
    include ``explain.<key>`` (``deciding``: the hand waits for that seat)."""
    info = find_variant(game)
    facts = info.facts
    wanted = {tv(facts, f"explain.{k}", "en"): k for k in keys}
    found: dict = {}
    for seed in range(1, 300):
        n = info.max_players if seed % 2 else info.min_players
        opts = info.resolve_options({"opening_restriction": True} if facts.option("opening_restriction") else {})
        hand = info.new_hand(opts, seed, 0, n)
        while not hand.is_over():
            pending = hand.pending_seats()
            for s in range(n):
                view = hand.view(s)
                for line in prompts.explanations(view, facts, "en"):
                    key = wanted.get(line.removeprefix("ℹ "))
                    if key is not None:
                        found.setdefault(key, (view, s in pending))
            s = pending[0]
            fake = [a for a in hand.legal_actions(s) if a.type == "fake_ting"]
            hand.apply(fake[0] if fake and seed % 3 == 0 else hand.ai_action(s))
        if set(found) == keys:
            break
    return found


@pytest.mark.parametrize("game", game_ids())
def test_each_games_choices_are_explained_where_they_are_asked(game):
    keys = per_game(EXPLAINED, game)
    facts = find_variant(game).facts
    found = _situations(game, keys)
    assert set(found) == keys, sorted(found)
    names = [f"p{i}" for i in range(facts.max_players)]
    for key, (view, deciding) in found.items():
        for lang in LANGS:
            sentence = tv(facts, f"explain.{key}", lang)
            assert not sentence.startswith(("messages.", "explain.")), (key, lang)
            assert "ℹ " + sentence in prompts.prompt(view, names, lang, facts, "#t").splitlines(), (key, lang)
            if deciding:
                assert "ℹ " + sentence in local.hand_lines(view, facts, lang), (key, lang)


def test_a_false_ready_being_declared_reads_as_one():
    """金湖: right after 假听 is pressed the panel says the next discard completes it, and no
    longer warns of 包五家 (a seat declaring 假听 is ready-declared: its discard pays none)."""
    found = _situations("jinhu", {"fake_ting_pending"})
    view, deciding = found["fake_ting_pending"]
    assert deciding and view["me"]["fake_ting_pending"] and view["me"]["warnings"] == []
    text = prompts.prompt(view, ["a", "b", "c", "d"], "en", find_variant("jinhu").facts, "#t")
    assert "You are declaring a false ready (假听)" in text and "包五家" not in text


def test_zhezhuang_is_explained_when_offered():
    """老五对's 折庄 (rare in seeded play): offered with the 折庄 button's action, explained."""
    facts = find_variant("laowudui").facts
    view = {"phase": "discard", "pending": [1], "me": {"seat": 1, "legal": ["1 zhezhuang", "1 no_zhezhuang"]}}
    for lang in LANGS:
        assert prompts.explanations(view, facts, lang) == ["ℹ " + tv(facts, "explain.zhezhuang", lang)]
