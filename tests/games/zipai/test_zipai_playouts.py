"""Random play-outs of 字牌 (docs/rules/zipai.md) for 2, 3 and 4 players with invariants checked after
every action: the 80 cards accounted for, each player's card count as the groups say, groups
well formed, nothing concealed in the public view, and replay from the action log."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.actions import Action
from engine.match import Match
from engine.tiles import kind_of
from engine.variants import find_variant
from engine.variants.zipai.huxi import classify_three, idx_of

ALL_CARDS = set(range(50 * 4, 70 * 4))


def check(h) -> None:
    """Every invariant of a 字牌 hand state (raises AssertionError)."""
    held = []
    for s in range(h.n):
        held += h.hands[s] + h.discards[s] + [t for g in h.groups[s] for t in g.tiles]
    held += h.stock[h.front:]
    if h.phase == "claim":
        held.append(h.pending[1])
    assert len(held) == 80 and set(held) == ALL_CARDS, "the 80 cards"
    for s in range(h.n):
        fours = sum(1 for g in h.groups[s] if g.type in ("pao", "ti"))
        total = len(h.hands[s]) + sum(len(g.tiles) for g in h.groups[s])
        for g in h.groups[s]:
            ks = [idx_of(kind_of(t)) for t in g.tiles]
            if g.type in ("pao", "ti"):
                assert len(set(ks)) == 1 and len(ks) == 4
            elif g.type in ("peng", "wei", "chouwei"):
                assert len(set(ks)) == 1 and len(ks) == 3
            else:
                assert classify_three(ks) in ("sentence", "jiao"), g
        c = Counter(kind_of(t) for t in h.hands[s])
        if h.phase in ("discard", "claim") and not h.deferred_ti:
            assert max(c.values(), default=0) <= 3, "no four of a kind stays in a hand"
        if h.phase in ("discard", "claim") and not h.dead[s] and not h.deferred_ti:
            want = 13 + max(fours, 1) + (1 if h.holding[s] else 0)
            assert total == want, (s, total, want, h.holding[s], fours)
    pub = h.view(None)
    if h.phase != "over":
        for sv in pub["seats"]:
            assert sv["concealed"] is None
            for m in sv["melds"]:
                if m["type"] in ("wei", "chouwei", "ti"):
                    assert m["tiles"][:-1] == [None] * (len(m["tiles"]) - 1)
        for v in range(h.n):
            for sv in h.view(v)["seats"]:
                if sv["seat"] != v:
                    assert sv["concealed"] is None


def play(n: int, seed: int, random_share: float, opts: dict) -> tuple[int, dict | None]:
    info = find_variant("zipai")
    options = info.resolve_options(opts)
    m = Match(info, options, seed, n)
    h = m.new_hand()
    rng = random.Random(seed)
    log = []
    check(h)
    while not h.is_over():
        pend = h.pending_seats()
        assert pend
        s = rng.choice(pend)
        legal = h.legal_actions(s)
        assert legal
        a = rng.choice(legal) if rng.random() < random_share else h.ai_action(s)
        assert a in legal
        h.apply(a)
        log.append(str(a))
        check(h)
    r = h.result
    assert sum(r["points"]) == 0
    if r["winner"] is not None:
        assert r["huxi"] >= options["min_huxi"]
        assert r["points"][r["winner"]] > 0 or r["total_tun"] == 0
    # replay from the log rebuilds the same hand
    again = m.replay(log)
    assert again.view(None) == h.view(None)
    return len(log), r


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts(n):
    hands = actions = wins = 0
    for seed in range(30):
        opts = {"ming_long": seed % 3 == 0, "min_huxi": (9, 6, 3)[seed % 3], "maohu": (0, 10, 15)[seed % 3],
                "tun_per": (3, 1)[seed % 2], "piao_max": seed % 4}
        k, r = play(n, 1000 * n + seed, 0.3 if seed % 2 else 0.0, opts)
        hands += 1
        actions += k
        wins += r["winner"] is not None
    print(f"zipai {n} players: {hands} hands, {actions} actions checked, {wins} wins")
    assert hands == 30 and actions > 30 * 10 and wins > 0
