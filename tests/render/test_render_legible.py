"""Every tile a player reads on the table image is readable where Discord shows it: at least
14 px wide on a laptop (the image shown 450 px wide) — every face-up tile of a hand, every
pond, every meld, the flowers, the last discard, the 宝牌/wild/贼 tiles, the winning tile —
and on a phone (300 px) whose turn it is, the last discard and the viewer's own hand.

Measured on the drawn image: each tile is tagged where it is placed and its box recorded as it
is pasted (``Layer.render(record=…)``), the box being the tile's opaque pixels; a tile's width
is its box's shorter side (a claimed tile lies sideways), scaled by 450 (300) over the image's
width.  The views are real, seeded hands of every game (from the registry) at four seats
where the game allows and at its fewest: the most crowded mid-hand table (a side seat on turn,
melds claimed from several seats, ponds of 24 tiles) and a result won by a side seat.
字牌's groups are columns of upright cards.
"""

from __future__ import annotations

import pytest
from table_views import claim_window, crowded, drawn_tiles, finished, flat, games, mid_hand, most_seats, side_seats

from engine.variants import find_variant
from render.canvas import Layer
from render.common import kind
from render.emoji import compact_card_image
from render.hand import hand_image
from render.table import PHONE_WIDTH, READABLE_PX, SHOWN_WIDTH, WIDTH, seat_positions, table_layout
from render.tiles import tile_image
from render.zipai import adapt

LAPTOP, PHONE = SHOWN_WIDTH, PHONE_WIDTH  # Discord's width on a laptop (450 px) and a phone (300 px)
#: the tiles a player reads (a hidden hand's backs are only counted)
READ = {"hand", "drawn", "meld", "flower", "pond", "last", "special", "win"}


def shown(box: tuple[int, int, int, int], image_w: int, at: int) -> float:
    """A tile's width as shown when the image is ``at`` px wide: its box's shorter side."""
    x0, y0, x1, y1 = box
    return min(x1 - x0, y1 - y0) * at / image_w


def too_small(record, image_w: int, at: int = LAPTOP, roles=READ) -> list:
    return [(tag, round(shown(box, image_w, at), 1)) for tag, box in record
            if tag[0] in roles and shown(box, image_w, at) < READABLE_PX]


def cases() -> list[tuple[str, int]]:
    """Every game at four seats where it allows (else its most), and at its fewest too."""
    out = []
    for game in games():
        info = find_variant(game)
        out += [(game, n) for n in sorted({most_seats(game), info.min_players})]
    return out


CASES = cases()
IDS = [f"{g}-{n}" for g, n in CASES]


@pytest.mark.parametrize("game, n", CASES, ids=IDS)
def test_every_tile_of_a_crowded_table_reads_on_a_laptop(game, n):
    _, view = crowded(game, n)
    turn = view["turn"]
    assert seat_positions(view)[turn] in (("top",) if n == 2 else ("left", "right"))
    record, (w, h) = drawn_tiles(view)
    assert w == WIDTH and h <= w  # never taller than wide: Discord would show it narrower
    assert too_small(record, w) == []
    roles = {tag[0] for tag, _ in record}
    assert {"pond", "meld"} <= roles, roles
    ponds = {}
    for tag, _ in record:
        if tag[0] == "pond":
            ponds[tag[1]] = ponds.get(tag[1], 0) + 1
    assert sorted(ponds) == list(range(n)) and min(ponds.values()) >= 20, ponds  # every pond, 24 long
    # the 宝牌, wild and 贼 tiles the view names are drawn, readable
    named = ([view["treasure"]] if view.get("treasure") else []) + list((view.get("wild") or {}).get("kinds") or []) \
        + list((view.get("marked") or {}).get("kinds") or [])
    specials = {tag[2] for tag, _ in record if tag[0] == "special"}
    assert {kind(t) for t in named} <= specials


@pytest.mark.parametrize("game, n", CASES, ids=IDS)
def test_whose_turn_and_the_last_discard_read_on_a_phone(game, n):
    _, view = claim_window(game, n)  # the last discard is shown while it may be claimed
    record, (w, _) = drawn_tiles(view)
    last = [box for tag, box in record if tag[0] == "last"]
    assert len(last) == 1 and shown(last[0], w, PHONE) >= READABLE_PX
    assert too_small(record, w) == []
    _, view = crowded(game, n)  # a seat's turn to discard
    record, (w, _) = drawn_tiles(view)
    turn = [box for tag, box in record if tag[0] == "turn"]
    assert len(turn) == 1
    x0, y0, x1, y1 = turn[0]
    assert (y1 - y0) * PHONE / w >= 10  # the turn's line: its glyphs at least 10 px tall


@pytest.mark.parametrize("game, n", CASES, ids=IDS)
def test_every_tile_of_the_result_reads_on_a_laptop(game, n):
    _, view = finished(game, n)
    winner = view["result"]["winners"][0] if view["result"].get("winners") else view["result"]["winner"]
    assert winner in side_seats(n)
    record, (w, h) = drawn_tiles(view)
    assert h <= w
    assert too_small(record, w) == []
    hands = {tag[1] for tag, _ in record if tag[0] == "hand"}
    assert hands == set(range(n))  # every hand face up at the end
    assert [tag[1:3] for tag, _ in record if tag[0] == "win"] == [(winner, kind(view["result"]["win_tile"]))] \
        if view["result"].get("win_tile") else True
    # the winner's hand is drawn larger than the others'
    size = {s: max(b[2] - b[0] for tag, b in record if tag[0] == "hand" and tag[1] == s) for s in hands}
    assert size[winner] > max(px for s, px in size.items() if s != winner)


@pytest.mark.parametrize("game", games())
def test_the_viewers_own_hand_reads_on_a_phone(game):
    hand, public = mid_hand(game)
    viewer = next(s for s in range(len(public["seats"])) if s != public["turn"])
    view = hand.view(viewer)
    view["lang"], view["game"] = "en", find_variant(game).facts
    record, (w, _) = drawn_tiles(view)
    assert w == WIDTH and seat_positions(view)[viewer] == "bottom"
    own = [(tag, box) for tag, box in record if tag[0] in ("hand", "drawn") and tag[1] == viewer]
    want = sorted(kind(t) for t in view["me"]["hand"] + ([view["me"]["drawn"]] if view["me"].get("drawn") else []))
    assert sorted(tag[2] for tag, _ in own) == want  # every tile of the hand, face up
    assert too_small(own, w, PHONE) == []
    assert too_small(record, w) == []


# ----------------------------------------------------------------------------- 字牌 columns
def _columns_of(view: dict) -> list[tuple[int, dict, list[tuple[object, int, int]]]]:
    """For every group on the table: ``(seat, group, its cards as drawn)``, found in the
    seat's band as the run of pastes of exactly the group's card images."""
    layout = table_layout(view)
    shown = adapt(view)
    out = []
    for sv in shown["seats"]:
        _, _, band, style = layout.seats[sv["seat"]]
        pastes = flat(band)
        w = style.card_w
        for group in sv["melds"]:
            want = [compact_card_image(None if c is None else kind(c), w) for c in group["tiles"]]
            runs = [pastes[i:i + len(want)] for i in range(len(pastes) - len(want) + 1)
                    if all(p[0] is im for p, im in zip(pastes[i:i + len(want)], want, strict=True))]
            assert runs, (sv["seat"], group)
            out.append((sv["seat"], group, runs[0]))
    return out


@pytest.mark.parametrize("which", ["mid", "result"])
def test_zipai_groups_are_columns_of_upright_cards(which):
    game = next(g for g in games() if find_variant(g).tile_style == "paper")
    _, view = (mid_hand if which == "mid" else finished)(game)
    cols = _columns_of(view)
    assert len(cols) >= 3
    assert all(len(cards) >= 3 for _, _, cards in cols)
    for seat, group, cards in cols:
        xs = {x for _, x, _ in cards}
        assert len(xs) == 1, (seat, group, cards)  # one x-range: a column
        ys = [y for _, _, y in cards]
        assert ys == sorted(ys) and len(set(ys)) == len(ys)  # stacked downward
        for (im, _, y), (_, _, y_next) in zip(cards, cards[1:]):
            assert y_next < y + im.height  # each card lies over the one above (a fan)
            assert y_next - y >= im.width  # … leaving its top end, the character, in sight
    # no card anywhere on the table lies sideways
    for im, _, _ in flat(table_layout(view).root):
        if im.height < 60 and im.width == im.height:
            continue  # the dice
        assert im.width < im.height, im.size


def test_zipai_groups_are_columns_in_the_hand_image_too(monkeypatch):
    game = next(g for g in games() if find_variant(g).tile_style == "paper")
    hand, _ = mid_hand(game)
    seat = next(s for s in range(hand.n) if hand.view(s)["seats"][s]["melds"] and hand.view(s)["me"].get("hand"))
    view = dict(hand.view(seat), game=find_variant(game).facts)
    seen: list[Layer] = []
    real = Layer.render
    monkeypatch.setattr(Layer, "render", lambda self, bg=(0, 0, 0): (seen.append(self), real(self, bg))[1])
    hand_image(view)
    pastes = flat(seen[-1])
    for group in adapt(view)["seats"][seat]["melds"]:
        want = [tile_image(kind(c), 44) for c in group["tiles"]]
        run = next(pastes[i:i + len(want)] for i in range(len(pastes) - len(want) + 1)
                   if all(p[0] is im for p, im in zip(pastes[i:i + len(want)], want, strict=True)))
        assert len({x for _, x, _ in run}) == 1
        assert [y for _, _, y in run] == sorted({y for _, _, y in run})
    assert all(im.width < im.height for im, _, _ in pastes)
