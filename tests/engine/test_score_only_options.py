"""Every game's options are said to be score-only or not (``Option.score_only``), and a
score-only option never changes what a stored hand was: replayed under any of its values, the
stored AI hands (the seeded play-outs of ``tests/data/playout_logs.json``, and hands the strong
AI played under each other value) keep every action legal and end the same way — only the
points may differ.  The same replay shows the check would see an option that does change the
play: the stored hands that the non-score-only options break."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from games import game_ids, game_params, per_game
from stored_hands import ai_log

from engine.actions import Action
from engine.errors import IllegalAction
from engine.options import unclassified
from engine.variants import all_variants, find_variant

STORED = Path(__file__).resolve().parents[1] / "data" / "playout_logs.json"

#: the score-only options each game declares (by reading its rules and its code; see the
#: comments beside each game's ``OPTIONS``)
SCORE_ONLY = {
    "two_player": {"base_points"},
    "laosanfan": {"style", "discard_pays", "hutou", "money_rounding"},
    "jinhu": set(),
    "caishen": {"base_stake", "discard_pays"},
    "laowudui": set(),
    "zipai": {"tun_per"},
}

#: the other options under whose values some stored play-out no longer replays (found by
#: replaying the stored logs of ``playout_logs.json`` under every value below)
BREAK_STORED_HANDS = {
    "two_player": {"min_fan"},  # 88: the stored wins fall short
    "laosanfan": {"opening_restriction"},  # the stored first hands discard honours at once
    "jinhu": {"opening_restriction"},
    "caishen": set(),  # wild_discard: no stored hand discards a 财神
    "laowudui": {"wilds", "discard_win", "buy_dealer"},
    "zipai": {"min_huxi", "maohu", "piao_max"},  # piao_max 1: a stored 飘 of 2 or 3 is refused
}


def values(option) -> list:
    """The values a replay tries: every choice, on and off, or a range's ends, its default and
    its middle (the ranged score-only options, 底分 and 底注, are 1–1000: every one of them over
    every hand would take minutes; the engine reads them as factors of the settlement alone)."""
    if option.choices is not None:
        return list(option.choices)
    if option.type is bool:
        return [True, False]
    lo, hi = option.min_value, option.max_value
    return sorted({lo, hi, option.default, (lo + hi) // 2})


def stored_hands(game: str) -> list[dict]:
    """``{"n", "seed", "dealer", "context", "actions", "options"}`` of each stored play-out of
    ``game`` (both lanes; default options)."""
    doc = json.loads(STORED.read_text(encoding="utf-8"))
    out = []
    for run in doc["service"] + doc["local"]:
        if run["game"] == game:
            out += [{"n": len(run["seats"]), "seed": h["seed"], "dealer": h["dealer"], "context": h["context"],
                     "actions": h["actions"], "options": {}} for h in run["hands"]]
    return out


def ai_hands(game: str) -> list[dict]:
    """A hand played by the strong AI for every seat under each other value of each
    score-only option (its moves weigh the score where the AI reads it), seed 1, the most seats."""
    info = find_variant(game)
    out = []
    for o in info.options:
        if o.score_only:
            for v in values(o):
                if v != o.default:
                    opts = {o.name: v}
                    out.append({"n": info.max_players, "seed": 1, "dealer": 0, "context": {},
                                "actions": ai_log(game, opts, 1, info.max_players), "options": opts})
    return out


def outcome(game: str, h: dict, options: dict):
    """``("illegal", index)``, ``("unfinished",)``, or ``("over", winners, discarder,
    self_drawn, points)`` of the hand ``h`` replayed under ``options``."""
    info = find_variant(game)
    hand = info.new_hand(info.resolve_options(options), h["seed"], h["dealer"], h["n"], dict(h["context"]))
    for i, line in enumerate(h["actions"]):
        try:
            hand.apply(Action.parse(line))
        except IllegalAction:
            return ("illegal", i)
    if not hand.is_over():
        return ("unfinished",)
    r = hand.result
    winners = r.get("winners") if r.get("winners") is not None else [w for w in [r.get("winner")] if w is not None]
    return ("over", list(winners), r.get("discarder"), bool(r.get("self_drawn")), list(r["points"]))


def test_every_option_of_every_game_is_classified():
    """(The games kept in the tests classify theirs too: their own test files check it.)"""
    for info in all_variants():
        assert unclassified(info.options) == [], info.id
        assert info.score_only_options <= {o.name for o in info.options}


@pytest.mark.parametrize("game", game_params(quick=tuple(game_ids())))
def test_score_only_options_are_the_declared_ones(game):
    assert set(find_variant(game).score_only_options) == per_game(SCORE_ONLY, game)


@pytest.mark.parametrize("game", game_params(quick=tuple(game_ids())))
def test_the_readme_lists_the_score_only_options(game):
    """README's table of the options ``/mj rescore`` may change says what the game declares."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    names = [o.name for o in find_variant(game).options if o.score_only]
    row = f"| `{game}` | " + (", ".join(f"`{n}`" for n in names) or "—") + " |"
    assert row in readme.split("### Re-scoring a hand")[1].split("###")[0].splitlines()


@pytest.mark.parametrize("game", game_params(quick=("laosanfan", "two_player")))
def test_score_only_options_never_change_what_was_played(game):
    info = find_variant(game)
    hands = stored_hands(game) + ai_hands(game)
    assert hands, "no stored hand to replay"
    checked = 0
    for h in hands:
        played = outcome(game, h, h["options"])
        assert played[0] == "over", (h["seed"], played)
        for o in info.options:
            if not o.score_only:
                continue
            for v in values(o):
                got = outcome(game, h, {**h["options"], o.name: v})
                # the same end (winners, who dealt in, self-drawn); the points may differ
                assert got[0] == "over" and got[1:4] == played[1:4], (o.name, v, h["seed"], got)
                if v == {**{x.name: x.default for x in info.options}, **h["options"]}[o.name]:
                    assert got == played
                checked += 1
    assert checked == len(hands) * sum(len(values(o)) for o in info.options if o.score_only)


@pytest.mark.slow  # every value of every option over every stored play-out
@pytest.mark.parametrize("game", game_params())
def test_the_replay_sees_options_that_change_the_play(game):
    """The check above is not blind: replaying the stored play-outs under the values of the
    options that are not score-only breaks some of them (an action refused, or another end)."""
    info = find_variant(game)
    breaking = set()
    for h in stored_hands(game):
        played = outcome(game, h, {})
        for o in info.options:
            if o.name in breaking:
                continue
            for v in values(o):
                got = outcome(game, h, {o.name: v})
                if got[0] != "over" or got[1:4] != played[1:4]:
                    breaking.add(o.name)
                    break
    assert breaking == per_game(BREAK_STORED_HANDS, game)
    assert not breaking & info.score_only_options
