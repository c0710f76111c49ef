"""The result box of the table image (``render/result.py``) for every game's result shapes:
it says who won, how and from whom, the total in the game's terms (字牌: 胡息 and 囤, not 番),
the items, the formula and who paid whom; and a winning tile or card never covers the rest of
the box (字牌's long cards used to reach into the rows below)."""

from __future__ import annotations

import pytest
from result_scenarios import SCENARIOS, deal

from engine.actions import Action
from render.canvas import Layer
from render.result import result_panel
from render.table import table_image
from render.text.results import calc_text, count_items, headline_total, payment_items

WINS = sorted(k for k in SCENARIOS if k[1] != "draw")


def finished_view(key, lang="zh-CN") -> dict:
    sc = SCENARIOS[key]
    h = deal(sc)
    for line in sc.actions:
        h.apply(Action.parse(line))
    v = h.view(None)
    for s in v["seats"]:
        s["name"] = f"p{s['seat']}"
    v["lang"] = lang
    v["game"] = sc.facts  # as the service's snapshots carry them
    return v


def drawn_texts(monkeypatch, view) -> list[str]:
    seen: list[str] = []
    real = Layer.text

    def record(self, xy, text, *a, **kw):
        seen.append(str(text))
        return real(self, xy, text, *a, **kw)

    monkeypatch.setattr(Layer, "text", record)
    assert result_panel(view, 944) is not None
    monkeypatch.setattr(Layer, "text", real)
    return seen


def boxes(layer: Layer, ox: int = 0, oy: int = 0) -> list[tuple[str, tuple[int, int, int, int]]]:
    """``(kind, (x0, y0, x1, y1))`` of every drawing operation, nested layers flattened."""
    out = []
    for op in layer.ops:
        if op[0] == "img":
            out.append(("img", (ox + op[2], oy + op[3], ox + op[2] + op[1].width, oy + op[3] + op[1].height)))
        elif op[0] == "mask":
            out.append(("text", (ox + op[2], oy + op[3], ox + op[2] + op[1].width, oy + op[3] + op[1].height)))
        elif op[0] == "rrect":
            x0, y0, x1, y1 = op[1]
            out.append(("rrect", (ox + x0, oy + y0, ox + x1, oy + y1)))
        elif op[0] == "layer":
            out += boxes(op[1], ox + op[2], oy + op[3])
    return out


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("key", WINS, ids=lambda k: f"{k[0]}-{k[1]}")
def test_the_box_says_who_how_the_total_the_items_and_the_payments(monkeypatch, key):
    view = finished_view(key)
    res, lang, game = view["result"], view["lang"], view["game"]
    texts = drawn_texts(monkeypatch, view)
    names = [s["name"] for s in view["seats"]]
    several = len(res["winners"]) > 1
    for w in res["winners"]:
        assert f"{names[w]} 胡" in texts
        seat = w if several else None
        total = headline_total(res, lang, game, seat)
        if total is not None:
            assert total in texts
        for item in count_items(res, lang, game, seat):
            assert item in texts
        calc = calc_text(res, lang, game, seat)
        if calc is not None:
            assert calc in texts
    if res.get("discarder") is not None:
        assert any(f"p{res['discarder']}" in x and x != f"p{res['discarder']} 胡" for x in texts)
    for pay in payment_items(res, names, lang, game):
        assert pay in texts


@pytest.mark.some_games("字牌 alone counts 胡息 and 囤")
@pytest.mark.parametrize("key", [k for k in WINS if k[0] == "zipai"], ids=lambda k: k[1])
def test_zipai_headline_says_huxi_and_tun(monkeypatch, key):
    view = finished_view(key)
    total = headline_total(view["result"], "zh-CN", view["game"])
    assert "胡息" in total and "囤" in total and "番" not in total
    assert total in drawn_texts(monkeypatch, view)
    en = headline_total(view["result"], "en", view["game"])
    assert "hu xi" in en and "tun" in en and "fan" not in en


@pytest.mark.parametrize("key", WINS, ids=lambda k: f"{k[0]}-{k[1]}")
def test_the_winning_tile_covers_nothing(key):
    view = finished_view(key)
    panel = result_panel(view, 944)
    ops = boxes(panel)
    tiles = [b for kind, b in ops if kind == "img"]
    assert tiles, "the winning tile is drawn"
    for t in tiles:
        others = [b for kind, b in ops if b != t and kind != "rrect" or (kind == "rrect" and b[1] > 0 and b[3] < panel.height - 1)]
        hit = [b for b in others if overlap(t, b)]
        assert hit == [], (key, t, hit)
    assert table_image(view).width == 720
