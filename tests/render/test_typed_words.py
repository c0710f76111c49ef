"""Every action of every game can be typed (``render/text/typed.py``): the button's words in any
of the bot's languages, the game's term (``吃 肆伍陆``, ``买庄``), the shared verbs, a tile or
card as it is shown — at the engine's seam, over seeded play-outs.  ``/act`` through the fake
Discord is ``tests/discord/test_typed_actions.py``."""

from __future__ import annotations

from collections import Counter

import pytest

from games import per_game

from engine.variants import all_variants, find_variant
from render.text.typed import TypedActionError, choices, parse, suggest

LANGS = ("zh-CN", "zh-TW", "en")
#: the games' facts by id, as a snapshot carries them
GAMES = {v.id: v.facts for v in all_variants()}


def _value(action) -> str:
    """An engine action without its seat: ``"discard 5m"``, ``"chi_d 5X"``, ``"pung"``."""
    return str(action).split(" ", 1)[1]


def play_by_typing(game: str, seed: int, n: int, performed: Counter, offered: set) -> None:
    """A hand played to its end by typing: at each decision every legal action's label and
    value must name exactly that action; the move made is the first legal action of a kind not
    performed yet (so every kind that comes up is performed once), else the AI's choice, and
    it is made by typing its label (in the three languages in turn)."""
    info = find_variant(game)
    hand = info.new_hand(info.resolve_options({}), seed, 0, n)
    step = 0
    while not hand.is_over():
        seat = hand.pending_seats()[0]
        view = hand.view(seat)
        lang = LANGS[step % 3]
        opts = choices(view, GAMES[game], lang)
        assert sorted(c.value for c in opts) == sorted(_value(a) for a in hand.legal_actions(seat))
        for c in opts:
            assert parse(c.label, view, GAMES[game], lang).value == c.value
            assert parse(c.value, view, GAMES[game], "en").value == c.value
        offered.update(c.act for c in opts)
        new = [c for c in opts if c.act not in performed]
        wanted = new[0].value if new else _value(hand.ai_action(seat))
        label = next(c.label for c in opts if c.value == wanted)
        got = parse(label, view, GAMES[game], lang)
        performed[got.act] += 1
        hand.apply(next(a for a in hand.legal_actions(seat) if _value(a) == got.value))
        step += 1


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_is_performed_by_typing_its_label(game):
    performed: Counter = Counter()
    offered: set = set()
    info = find_variant(game)
    for seed in range(1, 9):
        play_by_typing(game, seed, info.max_players if seed % 2 else info.min_players, performed, offered)
    # every kind offered was performed, but for 字牌's 吃 variants (one of several at a decision;
    # each was typed and parsed above all the same)
    assert {k for k in offered - set(performed) if not k.startswith("chi_")} == set()
    # the kinds these seeds reach at least (rules/<game>.md: each game's actions)
    expected = per_game({
        "two_player": {"discard", "ting", "pung", "chow", "pass", "hu"},
        "laosanfan": {"discard", "pung", "chow", "pass", "hu"},
        "jinhu": {"discard", "pung", "pass", "fake_ting", "hu"},
        "caishen": {"discard", "pung", "chow", "pass", "hu"},
        "laowudui": {"buy", "no_buy", "discard", "chi", "pass", "hu"},
        "zipai": {"piao_none", "piao_one", "discard", "pass", "peng"},
    }, game)
    assert expected <= set(performed), performed


def _zipai_claim(kind_prefix: str):
    """A 字牌 seat deciding on a discard or shown card with a ``kind_prefix`` action legal
    (seeded AI play-out until one comes)."""
    info = find_variant("zipai")
    for seed in range(1, 400):
        hand = info.new_hand(info.resolve_options({}), seed, 0, 3)
        while not hand.is_over():
            for seat in hand.pending_seats():
                if any(a.type.startswith(kind_prefix) for a in hand.legal_actions(seat)):
                    return hand, seat
            s = hand.pending_seats()[0]
            hand.apply(hand.ai_action(s))
    raise AssertionError(f"no {kind_prefix} decision in 400 seeds")


def test_zipai_chi_typed_by_its_cards_and_peng_by_its_words():
    hand, seat = _zipai_claim("chi_")
    view = hand.view(seat)
    options = view["me"]["chi_options"]
    # each 吃 typed as its group of cards, as laid (e.g. 吃 肆伍陆): the only 吃 with that group
    # is found; a group shared by several 吃 (different 比) asks which one
    firsts = Counter(tuple(o["groups"][0]) for o in options)
    big = {f"{i}X": c for i, c in zip(range(1, 11), "壹贰叁肆伍陆柒捌玖拾")}
    small = {f"{i}x": c for i, c in zip(range(1, 11), "一二三四五六七八九十")}
    for o in options:
        group = o["groups"][0]
        text = "吃 " + "".join(big.get(c) or small[c] for c in group)
        value = o["action"].split(" ", 1)[1]
        if firsts[tuple(group)] == 1:
            assert parse(text, view, GAMES["zipai"], "zh-CN").value == value
        else:
            with pytest.raises(TypedActionError) as e:
                parse(text, view, GAMES["zipai"], "zh-CN")
            assert e.value.code == "ambiguous_action"
    hand, seat = _zipai_claim("peng")
    view = hand.view(seat)
    for text in ("碰", "peng", "Pung", "pung"):
        assert parse(text, view, GAMES["zipai"], "en").act == "peng"


def test_zipai_small_and_big_cards_typed_as_shown():
    info = find_variant("zipai")
    hand = info.new_hand(info.resolve_options({}), 3, 0, 3)
    while not hand.is_over() and hand.phase != "discard":
        s = hand.pending_seats()[0]
        hand.apply(hand.ai_action(s))
    seat = hand.pending_seats()[0]
    view = hand.view(seat)
    discards = [c.tile for c in choices(view, GAMES["zipai"], "zh-CN") if c.act == "discard"]
    small = "一二三四五六七八九十"
    big = "壹贰叁肆伍陆柒捌玖拾"
    for card in discards:
        n = int(card[:-1])
        shown = small[n - 1] if card.endswith("x") else big[n - 1]
        got = parse(shown, view, GAMES["zipai"], "zh-CN")
        assert (got.act, got.tile) == ("discard", card)
        assert parse(f"打 {shown}", view, GAMES["zipai"], "zh-CN").tile == card
        assert parse(card, view, GAMES["zipai"], "en").tile == card


def test_laowudui_buy_typed_as_the_game_says():
    info = find_variant("laowudui")
    hand = info.new_hand(info.resolve_options({}), 1, 0, 2)
    seat = hand.pending_seats()[0]
    view = hand.view(seat)
    assert {c.act for c in choices(view, GAMES["laowudui"], "zh-CN")} == {"buy", "no_buy"}
    assert parse("买庄", view, GAMES["laowudui"], "zh-CN").act == "buy"
    assert parse("買莊", view, GAMES["laowudui"], "zh-TW").act == "buy"
    assert parse("不买", view, GAMES["laowudui"], "en").act == "no_buy"


def test_unknown_and_ambiguous_texts_are_refused_with_the_choices():
    info = find_variant("two_player")
    hand = info.new_hand(info.resolve_options({}), 2, 0, 2)
    seat = hand.pending_seats()[0]
    view = hand.view(seat)
    with pytest.raises(TypedActionError) as e:
        parse("banana", view, GAMES["two_player"], "en")
    assert e.value.code == "unknown_action" and e.value.params["value"] == "banana"
    assert e.value.params["choices"].startswith("Discard ")
    # at most 25 suggestions, all for an empty text
    assert len(suggest("", view, GAMES["two_player"], "en")) == min(25, len(view["me"]["legal"]))


def test_a_choice_typed_by_its_english_words_and_a_tile_by_how_the_table_prints_it():
    """老五对's opening: ``No bet`` (the English words of ``No bet 不买``) is 不买; a wild tile
    typed as the local table prints it (``6p(wild)``, ``六筒（百搭）``) is that tile; while a
    dealt 百搭 waits for 打 or 留, typing it again (or ``discard 6p``) is 打."""
    info = find_variant("laowudui")
    hand = info.new_hand(info.resolve_options({}), 1, 0, 2)
    seat = hand.pending_seats()[0]
    view = hand.view(seat)
    assert parse("No bet", view, GAMES["laowudui"], "en").act == "no_buy"
    assert parse("no bet", view, GAMES["laowudui"], "en").act == "no_buy"
    confirming = {"me": {"seat": 0, "legal": ["0 confirm", "0 keep"], "confirming": "6p"}}
    for text in ("6p", "6p(wild)", "discard 6p", "打 六筒", "六筒（百搭）"):
        assert parse(text, confirming, GAMES["laowudui"], "zh-CN" if "六" in text else "en").act == "confirm", text
    discard = {"me": {"seat": 0, "legal": ["0 discard 8s", "0 discard 1m"]}}
    assert parse("8s(wild)", discard, GAMES["laowudui"], "en").tile == "8s"
