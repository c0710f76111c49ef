"""Each game's largest decision fits Discord's limits for a Components V2 message (at most 40
components, rows of at most 5 buttons, 4,000 characters of text), in the DM panel and in the
ephemeral **My hand** alike, and still offers every choice (a tile button, a labelled button
or a menu option).

The decision is made worse than any one hand shows: for each game and seat count, seeded
hands are played out by the AI and the largest hand (with its drawn tile) and, per kind of
action, the most choices of that kind at one decision are kept; the test then offers all of
those kinds at once, at their most, with that largest hand — with tile emojis and without.
The checks are the fake Discord's own (``fakediscord/rest.py`` ``_validate``)."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from cogs.emojis import TileEmojis
from cogs.panel_layout import MAX_COMPONENTS, PanelLayout, panel_rows
from engine.match import Match
from engine.variants import all_variants
from fakediscord.rest import RestMixin
from render.emoji import EMOJI_NAMES
from render.text.panel import TILES_BUDGET

V2, EPHEMERAL = 1 << 15, 1 << 6
CASES = [(v, n) for v in all_variants() for n in range(v.min_players, v.max_players + 1)]


def _largest(info, n: int, seeds: int = 12):
    """``(hand, drawn, {action type: most choices of it at one decision})`` over ``seeds``
    AI-played hands of ``info``'s game at ``n`` seats."""
    best_hand, best_drawn, most = [], None, Counter()
    for seed in range(1, seeds + 1):
        hand = Match(info, info.resolve_options({}), seed, n).new_hand()
        while not hand.is_over():
            for s in hand.pending_seats():
                me = hand.view(s)["me"]
                size = len(me["hand"] or []) + (1 if me.get("drawn") else 0)
                if size > len(best_hand) + (1 if best_drawn else 0):
                    best_hand, best_drawn = list(me["hand"]), me.get("drawn")
                for typ, k in Counter(a.type for a in hand.legal_actions(s)).items():
                    most[typ] = max(most[typ], k)
            seat = hand.pending_seats()[0]
            hand.apply(hand.ai_action(seat))
    return best_hand, best_drawn, most


def _worst_part(info, n: int):
    """A seat part deciding among every kind of action its game has, each at its most, with the
    largest hand."""
    hand, drawn, most = _largest(info, n)
    tiles = list(dict.fromkeys(hand + ([drawn] if drawn else [])))
    moves = []
    for typ, k in most.items():
        if typ == "discard":
            moves += [SimpleNamespace(type="discard", tile=t) for t in tiles]
        elif typ in ("hu", "pass", "double", "pung") or k == 1 and typ not in ("kong", "chow", "ting"):
            moves.append(SimpleNamespace(type=typ, tile=None))
        else:
            moves += [SimpleNamespace(type=typ, tile=tiles[i % len(tiles)]) for i in range(k)]
    view = {"me": {"seat": 0, "hand": hand, "drawn": drawn, "hint": []}}
    return SimpleNamespace(view=view, moves=moves, decision=(7, 3)), most


@pytest.mark.parametrize("info,n", CASES, ids=[f"{v.id}-{n}" for v, n in CASES])
def test_the_largest_decision_fits_discords_limits(info, n):
    part, most = _worst_part(info, n)
    snap = SimpleNamespace(channel_id=1300000000000000002, hand_id=7, game=info.facts)
    emojis = TileEmojis()
    for i, name in enumerate(EMOJI_NAMES):
        emojis.set(name, 1400000000000000000 + i)
    words, tiles = "w" * 2000, "t" * TILES_BUDGET  # the longest words and table of tiles
    for bank in (emojis, TileEmojis()):
        rows = panel_rows(snap, part, "en", bank, used=3)
        layout = PanelLayout([words, tiles], rows)
        components = layout.to_components()
        count = len(_walk(components))
        assert count <= MAX_COMPONENTS, (info.id, n, count)
        for flags in (V2, V2 | EPHEMERAL):  # the DM panel, the ephemeral My hand
            RestMixin._validate({"flags": flags, "components": components}, creating=True, files=[],
                                emojis={e.id for e in bank.known.values()})
        offered = set()
        for c in _walk(components):
            if c.get("type") == 2 and not c.get("disabled"):
                offered.add(tuple(c["custom_id"].split(":")[4:6]))
            for o in c.get("options", []):
                offered.add(tuple(o["value"].split(":")))
        for m in part.moves:
            want = (m.type, m.tile or "-")
            if m.type == "ting" and m.tile:
                want = ("ting_menu", "-")  # 听 with a tile: chosen in the 听 menu (its hand buttons)
            assert want in offered, (info.id, n, want, sorted(offered))
    print(f"{info.id} at {n} seats: hand {len(part.view['me']['hand'])} + drawn, {len(part.moves)} choices "
          f"({dict(most)}): {count} components")


@pytest.mark.parametrize("info,n", CASES, ids=[f"{v.id}-{n}" for v, n in CASES])
def test_the_ting_menu_of_the_largest_hand_fits(info, n):
    part, _ = _worst_part(info, n)
    hand = part.view["me"]["hand"] + ([part.view["me"]["drawn"]] if part.view["me"]["drawn"] else [])
    part.moves = [SimpleNamespace(type="ting", tile=t) for t in dict.fromkeys(hand)]
    snap = SimpleNamespace(channel_id=1300000000000000002, hand_id=7, game=info.facts)
    rows = panel_rows(snap, part, "en", TileEmojis(), used=3, ting_menu=True)
    components = PanelLayout(["w" * 2000, "t" * TILES_BUDGET], rows).to_components()
    assert len(_walk(components)) <= MAX_COMPONENTS
    RestMixin._validate({"flags": V2, "components": components}, creating=True, files=[])
    ids = [c["custom_id"] for c in _walk(components) if c.get("type") == 2 and not c.get("disabled")]
    assert {i.split(":")[5] for i in ids if i.split(":")[4] == "ting"} == set(hand)


def _walk(components: list) -> list:
    out = []
    for c in components:
        out.append(c)
        out += _walk(c.get("components") or [])
    return out


@pytest.mark.parametrize("info", all_variants(), ids=[v.id for v in all_variants()])
def test_the_tiles_a_game_singles_out_are_marked_on_their_buttons(info):
    """A wild tile ★ (财神麻将's 财神, 老五对's 百搭), the 宝牌 ◆ (二人麻将), 金湖's 贼 tiles their
    word: found in the seat's view of a seeded hand of each game, and on its hand's buttons."""
    hand = Match(info, info.resolve_options({}), 3, info.max_players).new_hand()
    seat = hand.pending_seats()[0]
    view = hand.view(seat)
    want = {}
    if view.get("treasure"):
        want[view["treasure"]] = "◆"
    for tile in (view.get("marked") or {}).get("kinds") or ():
        want[tile] = view["marked"]["label"]
    for tile in (view.get("wild") or {}).get("kinds") or ():
        want[tile] = "★"
    part = SimpleNamespace(view=dict(view, me=dict(view["me"], hand=sorted(want) + view["me"]["hand"])),
                           moves=[], decision=None)
    snap = SimpleNamespace(channel_id=1300000000000000002, hand_id=7, game=info.facts)
    rows = panel_rows(snap, part, "en", TileEmojis(), used=3)
    labels = {b.item.custom_id.split(":")[5]: b.item.label for row in rows for b in row}
    for tile, mark in want.items():
        assert labels[tile].endswith(" " + mark), (tile, labels[tile])
    assert sum(1 for label in labels.values() if label.endswith(("★", "◆", "贼"))) == len(want)
    expected = {"two_player": 1, "caishen": 1, "jinhu": 4, "laowudui": 2}.get(info.id, 0)  # from the views above
    assert len(want) == expected
