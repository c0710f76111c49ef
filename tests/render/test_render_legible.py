"""The table image is legible where Discord shows it, about 450 px wide: every seat's tiles
at least 12 px tall there, the seat on turn's and the winner's at least 20 px, and a public
table never taller than wide — measured on real, seeded hands of every game, with the turn
and the winner on a side seat.  字牌's groups are columns of upright cards."""

from __future__ import annotations

import pytest
from table_views import finished, flat, games, mid_hand, most_seats, side_seats

from engine.variants import find_variant
from render.canvas import Layer
from render.common import kind, tile_badge
from render.hand import hand_image
from render.table import BIG, SHOWN_WIDTH, WIDTH, seat_positions, table_image, table_layout
from render.tiles import card_back_image, tile_image
from render.zipai import adapt


def shown_heights(view: dict) -> tuple[dict[int, float], tuple[int, int]]:
    """Per seat, the smallest tile of its band as Discord shows the image (450 px wide), and
    the image's size; the image is drawn too, and must be the size the layout says."""
    layout = table_layout(view)
    size = (layout.root.width, layout.root.height)
    assert table_image(view).size == size
    out = {}
    for seat, (_, _, band, _) in layout.seats.items():
        heights = [im.height for im, _, _ in flat(band)]
        assert heights, f"seat {seat} draws no tile"
        out[seat] = min(heights) * SHOWN_WIDTH / size[0]
    return out, size


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
def test_mid_hand_with_the_turn_on_a_side_seat(game, n):
    _, view = mid_hand(game, n)
    turn = view["turn"]
    assert seat_positions(view)[turn] in (("top",) if n == 2 else ("left", "right"))
    shown, (w, h) = shown_heights(view)
    assert len(shown) == n
    assert all(px >= 12 for px in shown.values()), shown
    assert shown[turn] >= 20, shown
    assert w == WIDTH and h <= w


@pytest.mark.parametrize("game, n", CASES, ids=IDS)
def test_result_with_the_winner_on_a_side_seat(game, n):
    _, view = finished(game, n)
    winner = view["result"]["winners"][0] if view["result"].get("winners") else view["result"]["winner"]
    assert winner in side_seats(n)
    shown, (w, h) = shown_heights(view)
    assert all(px >= 12 for px in shown.values()), shown
    assert shown[winner] >= 20, shown
    # the winner's hand is no longer the smallest on screen
    assert shown[winner] > min(px for s, px in shown.items() if s != winner)
    assert w == WIDTH and h <= w


@pytest.mark.parametrize("game", games())
def test_the_viewers_own_hand_is_drawn_big_and_face_up(game):
    hand, public = mid_hand(game)
    viewer = next(s for s in range(len(public["seats"])) if s != public["turn"])
    view = hand.view(viewer)
    view["lang"], view["game"] = "en", find_variant(game).facts
    shown, (w, _) = shown_heights(view)
    assert w == WIDTH
    assert shown[viewer] >= 20 and shown[public["turn"]] >= 20
    assert seat_positions(view)[viewer] == "bottom"
    band = table_layout(view).seats[viewer][2]
    drawn = [im for im, _, _ in flat(band)]
    paper = find_variant(game).tile_style == "paper"
    w_hand = BIG.card_w if paper else BIG.hand_w
    for t in view["me"]["hand"]:  # every tile of the hand face up, at the big size
        k = kind(t)
        assert any(im is tile_image(k, w_hand, tile_badge(view, k)) for im in drawn), t


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
            want = [card_back_image(w) if c is None else tile_image(kind(c), w) for c in group["tiles"]]
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
