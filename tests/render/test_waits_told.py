"""A wait that cannot win says so, and why, wherever waits are shown: the panel's wait line,
the 听 menu (its text, and ✗ on a declaration none of whose waits can win), the local table's
hand and ``hint`` — in every game where such a wait comes up in seeded AI play.

The reasons: below the table's minimum (二人麻将, 15 fan), a wait the game's rule forbids
(金湖: only a closed or edge wait, or more fan), every copy in sight ("none left").  老五对's
wait line gives the value of a win on a discard and, where it differs, self-drawn.
"""

from __future__ import annotations

import pytest

from games import game_ids, per_game

from engine.variants import find_variant
from render.text import local, prompts

#: the kinds of wait that cannot win each game shows in seeded play: ``"ok"`` (refused by the
#: minimum or the wait rule), ``"left"`` (every copy in sight).  老三番 has no minimum or wait
#: rule and its AI seldom waits on a tile it can see all of; 字牌's waits list only winning
#: cards (its minimum 胡息 leaves the others out) and carry no copies left
KINDS = {"two_player": {"ok", "left"}, "jinhu": {"ok"}, "caishen": {"left"}, "laowudui": {"left"},
         "laosanfan": set(), "zipai": set()}
#: what each reason reads in English
REASONS = {"fan_below_minimum": "cannot win: below the 15-fan minimum",
           "wait_not_allowed": "cannot win: only a closed (夹) or edge (边) wait wins, or a hand with more fan"}


def _first_cases(game: str, kinds: set[str], seeds: int = 80) -> dict:
    """``{(where, kind): (view, wait)}``: the first seat view of seeded AI play-outs showing a
    wait of each kind that cannot win, in ``me["waits"]`` (``where="waits"``) or in the 听
    hint (``"hint"``)."""
    info = find_variant(game)
    found: dict = {}
    for seed in range(1, seeds):
        n = info.max_players if seed % 2 else info.min_players
        hand = info.new_hand(info.resolve_options({}), seed, 0, n)
        while not hand.is_over():
            for s in hand.pending_seats():
                view = hand.view(s)
                me = view["me"]
                for where, waits in [("waits", me.get("waits") or [])] + [("hint", h["waits"]) for h in me.get("hint") or []]:
                    for w in waits:
                        kind = "ok" if w.get("ok") is False else "left" if w.get("left") == 0 else None
                        if kind in kinds:
                            found.setdefault((where, kind), (view, w))
            s = hand.pending_seats()[0]
            hand.apply(hand.ai_action(s))
        if {k for _, k in found} == kinds:
            break
    return found


def _reason(w: dict) -> str:
    return REASONS[w["why"]] if w.get("ok") is False else "none left"


@pytest.mark.parametrize("game", game_ids())
def test_a_wait_that_cannot_win_says_why_in_the_panel_the_ting_menu_and_the_local_table(game):
    kinds = per_game(KINDS, game)
    facts = find_variant(game).facts
    found = _first_cases(game, kinds)
    assert {k for _, k in found} == kinds, sorted(found)
    for (where, kind), (view, w) in found.items():
        reason = _reason(w)
        item = prompts.wait_text(w, "en", facts)
        assert item.startswith(prompts.short_tile(w["tile"], "en")) and reason in item, item
        if where == "waits":
            assert reason in prompts.prompt(view, ["a", "b", "c", "d"], "en", facts, "#t")
            assert any(reason in line for line in local.hand_lines(view, facts, "en"))
        else:
            hint = next(h for h in view["me"]["hint"] if w in h["waits"])
            menu = prompts.ting_hint(view, "en", facts)
            line = next(x for x in menu.splitlines() if reason in x and prompts.short_tile(hint["discard"], "en") in x)
            # ✗ exactly when none of that declaration's waits can win
            assert line.startswith("✗ ") == (not any(prompts.can_win(x) for x in hint["waits"]))
            assert any(reason in x for x in local.hint_lines(view["me"], "en", facts))


def test_a_wait_that_can_win_reads_as_before():
    # 二人麻将, a 20-fan wait with two copies left: value and copies, no reason
    w = {"tile": "5m", "left": 2, "fan": 20, "total": 20, "ok": True}
    assert prompts.wait_text(w, "en", find_variant("two_player").facts) == "5m (20 fan, 2 left)"
    assert prompts.wait_text(dict(w, ok=False, why="fan_below_minimum", need=15, fan=12), "zh-CN",
                             find_variant("two_player").facts) == "五万（12 番，剩 2 张，不能胡：不足 15 番起胡）"


def test_laowudui_tells_a_win_on_a_discard_from_a_self_drawn_one():
    """老五对: the wait line's value is that of a win on a discard; a self-drawn win's, where
    it differs (自摸 is a fan of its own: laowudui.md §Scoring); a 百搭 wait only self-drawn."""
    facts = find_variant("laowudui").facts
    assert prompts.wait_text({"tile": "6m", "left": 1, "fan": 2, "fan_self": 3}, "en", facts) == \
        "6m (2 fan, 3 fan self-drawn, 1 left)"
    assert prompts.wait_text({"tile": "Tm", "left": 2, "fan_self": 3, "self_drawn_only": True}, "en", facts) == \
        "Tm (3 fan, self-drawn only, 2 left)"
    info = find_variant("laowudui")
    seen = 0
    for seed in range(1, 30):
        hand = info.new_hand(info.resolve_options({}), seed, 0, 4 if seed % 2 else 2)
        while not hand.is_over():
            for s in hand.pending_seats():
                for w in hand.view(s)["me"].get("waits") or []:
                    k = __import__("engine.tiles", fromlist=["parse_kind"]).parse_kind(w["tile"])
                    own = hand.evaluate_win(s, k, True)["fan_total"]
                    if w.get("self_drawn_only"):
                        assert "fan" not in w and w["fan_self"] == own
                    else:
                        assert w["fan"] == hand.evaluate_win(s, k, False)["fan_total"]
                        assert w.get("fan_self", w["fan"]) == own
                    seen += 1
            s = hand.pending_seats()[0]
            hand.apply(hand.ai_action(s))
    assert seen > 20


@pytest.mark.parametrize("game", game_ids())
def test_the_hint_is_on_the_panel_and_at_the_local_table_in_every_game(game):
    """At a seat's own discard with a hand one discard from ready, the panel lists the ready
    discards (the best four: most winning copies to come first) and ``hint`` at the local
    table lists them all, each with its waits as :func:`prompts.wait_text` reads them."""
    info = find_variant(game)
    facts = info.facts
    for seed in range(1, 40):
        hand = info.new_hand(info.resolve_options({}), seed, 0, info.max_players)
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            view = hand.view(seat)
            hints = view["me"].get("hint") or []
            if len(hints) >= 2:
                panel = prompts.prompt(view, ["a", "b", "c", "d"], "en", facts, "#t").splitlines()
                start = panel.index("Ready after discarding (听牌提示):")
                shown = panel[start + 1:start + 1 + min(len(hints), prompts.HINT_SHOWN)]
                best = max(hints, key=lambda h: sum(w["left"] for w in h["waits"] if prompts.can_win(w)))
                assert prompts.short_tile(best["discard"], "en") + " → " in shown[0].lstrip("✗ ").strip()
                lines = local.hint_lines(view["me"], "en", facts)
                assert len(lines) == 1 + len(hints)  # the values' assumptions, then each discard
                for h in hints:
                    assert any(line.lstrip("✗ ").startswith(prompts.short_tile(h["discard"], "en") + ": ")
                               and all(prompts.wait_text(w, "en", facts) in line for w in h["waits"]) for line in lines)
                return
            hand.apply(hand.ai_action(seat))
    raise AssertionError(f"no decision of {game} with two ready discards in 39 hands")


#: the rule that refuses a win whose shape is complete, where a game has one
REFUSED = {"two_player": "fan_below_minimum", "jinhu": "wait_not_allowed", "laosanfan": None, "caishen": None,
           "laowudui": None, "zipai": None}


@pytest.mark.parametrize("game", game_ids())
def test_a_win_the_rules_refuse_is_told_with_its_rule(game):
    """When the tile completes a hand's shape but the rules refuse the win (二人麻将's
    minimum, 金湖's wait rule), no 胡 is offered and the panel says which rule — in seeded
    play; a game without such a rule never shows it."""
    why = per_game(REFUSED, game)
    info = find_variant(game)
    seen = None
    for seed in range(1, 80):
        hand = info.new_hand(info.resolve_options({}), seed, 0, info.max_players)
        while not hand.is_over() and seen is None:
            for s in hand.pending_seats():
                view = hand.view(s)
                refused = view["me"].get("win_refused")
                if refused:
                    assert why is not None and refused["why"] == why
                    assert not any(a.type == "hu" for a in hand.legal_actions(s))
                    seen = (view, refused)
            hand.apply(hand.ai_action(hand.pending_seats()[0]))
        if seen or why is None and seed > 20:
            break
    if why is None:
        assert seen is None
        return
    view, refused = seen
    line = next(x for x in prompts.prompt(view, ["a", "b", "c", "d"], "en", info.facts, "#t").splitlines()
                if "completes your hand" in x)
    assert line == f"ℹ {prompts.tile_label(refused['tile'], 'en')} completes your hand, but {REASONS[why]}."


def test_a_wait_that_wins_only_self_drawn_is_not_marked_as_hopeless():
    """二人麻将: self-drawn adds fan (自摸 and its kin), so a wait below the 15-fan minimum on a
    discard may reach it self-drawn; such a wait says so, and its 听 is not marked ✗."""
    info = find_variant("two_player")
    for seed in range(1, 200):
        hand = info.new_hand(info.resolve_options({}), seed, 0, 2)
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            for h in hand.view(seat)["me"].get("hint") or []:
                for w in h["waits"]:
                    if w.get("ok") is False and w.get("ok_self"):
                        assert w["fan_self"] > w["fan"]
                        text = prompts.wait_text(w, "en", info.facts)
                        assert "wins only self-drawn: below the 15-fan minimum on a discard" in text, text
                        assert "cannot win" not in text and prompts.can_win(w) == (w["left"] > 0)
                        return
            hand.apply(hand.ai_action(seat))
    raise AssertionError("no wait winning only self-drawn in 199 hands")


def test_the_local_prompt_marks_a_hopeless_ready_declaration():
    """The local table offers 听 after a discard none of whose waits can win, marked ✗ as the
    panel's 听 menu marks it; a 听 that can win is not marked."""
    view = {"phase": "discard", "pending": [0], "seats": [], "me": {
        "seat": 0, "hand": ["1m"], "legal": ["0 discard 3z", "0 discard 5m", "0 ting 3z", "0 ting 5m"],
        "hint": [{"discard": "3z", "waits": [{"tile": "9m", "left": 2, "fan": 8, "ok": False,
                                              "why": "fan_below_minimum", "need": 15}]},
                 {"discard": "5m", "waits": [{"tile": "6m", "left": 3, "fan": 20, "ok": True}]}]}}
    line = local.hand_lines(view, find_variant("two_player").facts, "en")[-1]
    assert "Ready, discarding 3z ✗" in line and "Ready, discarding 5m ✗" not in line, line
