"""The items a result carries add up, in every game, over seeded AI play-outs: the payments
give exactly each seat's points, a count (胡, 胡息, 对) is the sum of its items, the caps
applied are below what they capped, the liable seat is the one that paid, and the result text
says every payment and every item."""

from __future__ import annotations

import pytest

from engine.match import Match
from engine.variants import built_in, find_variant
from render.text.results import count_items, payment_items, result_lines

#: the built-in games, from their packages
GAMES = [v.id for v in built_in()]

SEEDS = range(1, 9)


def finished_hands(game: str, seed: int, hands: int = 3):
    info = find_variant(game)
    n = info.max_players if seed % 2 else info.min_players
    match = Match(info, info.resolve_options({}), seed, n)
    for _ in range(hands):
        hand = match.new_hand()
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            hand.apply(hand.ai_action(seat))
        match.finish(hand.result)
        yield hand


@pytest.mark.parametrize("game", GAMES)
def test_result_items_add_up(game):
    wins = 0
    for seed in SEEDS:
        for hand in finished_hands(game, seed):
            r = hand.result
            names = [f"s{i}" for i in range(hand.n)]
            facts = find_variant(game).facts
            text = "\n".join(result_lines(r, names, "en", facts))
            if r["winner"] is None:
                assert not r.get("payments") and "Payments" not in text
                continue
            wins += 1
            net = [0] * hand.n
            for p in r["payments"]:
                assert p["points"] > 0 and p["from"] != p["to"]
                net[p["from"]] -= p["points"]
                net[p["to"]] += p["points"]
            assert net == r["points"], (game, seed, r["payments"], r["points"])
            for item in payment_items(r, names, "en", facts):
                assert item in text
            counts = [r["count"]] if "count" in r else []
            counts += list((r.get("count_by_seat") or {}).values())
            for c in counts:
                assert sum(i["value"] for i in c["items"]) == c["value"], (game, seed, c)
            for seat in r["winners"]:
                for item in count_items(r, "en", facts, seat if len(r["winners"]) > 1 else None):
                    assert item in text
            for cap in r.get("caps") or []:
                assert cap["value"] < cap["uncapped"]
            if r.get("liability"):
                assert r["liability"]["seat"] in [p["from"] for p in r["payments"]]
            assert "calc" in r and "payments" in r
    assert wins >= 3, f"{game}: only {wins} wins in the play-outs"
