"""The result box under the table image: who won, how and from whom, the winning tile, the
total in the game's own terms (``胡 26 · 番 0 · 计 60``, ``胡息 16 · 10 囤``, ``8 倍``, ``31
番``), the items of the count and the fans as pills, the formula, the caps, the liability, who
paid whom and every seat's points.

The words are those of the result text (``render.text.results``); the box grows with its
content, and a winning tile or card taller than the headline (字牌's long cards) makes the
headline row taller instead of reaching into the rows below it.
"""

from __future__ import annotations

from engine.outcome import DISCARD, ROB_KONG, SELF_DRAWN, SHOWN, outcome

from .canvas import Layer, fit_text, text_advance
from .common import (GOLD, GREY, MUTED, RED, WHITE, compact_cards, game_of, kind, label, paper_cards, piece_image,
                     pill, pill_height, pill_width, tile_tag)
from .text.results import (calc_text, cap_lines, count_items, count_title, fan_items, headline_total,
                           liability_line, multiplier_items, payment_items, summary_items)
from .text import t

PAD = 10
TITLE, PILL, LINE = 26, 16, 18  #: font sizes: winner, pills, text lines
LINE_H = 24  #: height of a text line
WIN_TILE_W = 30  #: width of the winning tile (a 字牌 card is drawn narrower: it is long)
WIN_CARD_W = 18  #: … a long 字牌 card (a compact one is as wide as a tile)
GAIN, LOSS = (120, 230, 140), (255, 130, 120)
COUNT_TITLE_BG, COUNT_BG, FAN_BG, PAY_BG = (150, 112, 20), (92, 74, 30), (60, 70, 65), (52, 58, 70)


def _pills(layer: Layer, x0: float, y: float, width: float, items: list[tuple[str, tuple]]) -> float:
    """Pills ``(text, colour)`` laid left to right from ``(x0, y)``, wrapped at ``width``;
    returns the y below them (``y`` itself when there are none)."""
    if not items:
        return y
    ph = pill_height(PILL)
    x = x0
    for text, colour in items:
        text, size = fit_text(text, PILL, width - 4)
        w = pill_width(text, size)
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + ph + 4
        x += pill(layer, x, y + (ph - pill_height(size)) / 2, text, size, colour) + 6
    return y + ph + 6


def _line(layer: Layer, x: float, y: float, width: float, text: str, colour, size: int = LINE) -> float:
    """One line of text fitted to ``width``; returns the y below it."""
    text, size = fit_text(text, size, width)
    layer.text((x, y + LINE_H / 2), text, size, fill=colour, bold=True, anchor="lm")
    return y + LINE_H


def _headline(view: dict, body: Layer, w: dict, names: dict, y: float, width: float) -> float:
    """Winner, how (and from whom), the winning tile, the total; returns the y below."""
    res = view["result"]
    lang, game = view.get("lang"), game_of(view)
    several = len(outcome(res)["wins"]) > 1
    src = names.get(w["from"], "?") if w["from"] is not None else ""
    how = {SELF_DRAWN: (label(view, "self_drawn"), RED), DISCARD: (label(view, "on_discard", name=src), GREY),
           ROB_KONG: (label(view, "rob", name=src), GREY), SHOWN: (label(view, "shown", name=src), GREY)}
    tile = None
    if w.get("tile") is not None:
        k = kind(w["tile"])
        long_card = paper_cards(view) and not compact_cards(view)
        tile = piece_image(view, k, WIN_CARD_W if long_card else WIN_TILE_W)
    h = max(40, tile.height + 6 if tile is not None else 0)
    cy = y + h / 2
    x = PAD
    x += body.text((x, cy), label(view, "win", name=names.get(w["seat"], "?")), TITLE, fill=GOLD, bold=True,
                   anchor="lm") + 12
    text, colour = how[w["how"]]
    x += pill(body, x, cy - pill_height(PILL) / 2, text, PILL, colour) + 8
    if tile is not None:
        body.image(tile, x + 4, cy - tile.height / 2, tile_tag("win", w["seat"], kind(w["tile"])))
        x += tile.width + 16
    total = headline_total(res, lang, game, w["seat"] if several else None) \
        or label(view, "fan_total", n=w["fan"])
    total, size = fit_text(total, LINE + 2, PAD + width - x)
    body.text((x, cy), total, size, fill=WHITE, bold=True, anchor="lm")
    return y + h


def result_panel(view: dict, width: int) -> Layer | None:
    """The result box (see the module docstring), ``width`` px wide, or ``None`` before the
    hand is over."""
    res = view.get("result")
    if not res:
        return None
    seats = view.get("seats") or []
    names = {s.get("seat"): str(s.get("name", "?")) for s in seats}
    name_list = [names.get(i, "?") for i in range(max(len(res.get("points") or []), len(seats)))]
    lang, game = view.get("lang"), game_of(view)
    inner = width - 2 * PAD
    body = Layer(width, 0)
    y = PAD
    o = outcome(res)
    several = len(o["wins"]) > 1
    if o["draw"]:
        body.text((PAD, y + 18), label(view, "draw"), TITLE, fill=GOLD, bold=True, anchor="lm")
        y += 38
    for w in o["wins"]:  # one block per winner (老五对: several on one discard)
        seat = w["seat"] if several else None
        y = _headline(view, body, w, names, y, inner)
        pills = []
        title = count_title(res, lang, game, seat)
        if title is not None:
            pills.append((title, COUNT_TITLE_BG))
            pills += [(text, COUNT_BG) for text in count_items(res, lang, game, seat)]
        pills += [(text, FAN_BG) for text in fan_items(res, lang, seat)]
        y = _pills(body, PAD, y, inner, pills)
        if res.get("calc") or res.get("calc_by_seat"):
            calc = calc_text(res, lang, game, seat)
            if calc:
                y = _line(body, PAD, y, inner, calc, WHITE)
        else:  # a result stored before results carried their formula
            parts = summary_items(res, lang) or [label(view, "fan_total", n=w["fan"])]
            parts += multiplier_items(res, lang)
            y = _line(body, PAD, y, inner, "   ".join(parts), WHITE)
    if o["wins"]:
        for text in cap_lines(res, lang, game):
            y = _line(body, PAD, y, inner, text, GOLD, LINE - 1)
    why = liability_line(res, name_list, lang, game)
    if why:
        y = _line(body, PAD, y, inner, why, LOSS, LINE - 1)
    pays = payment_items(res, name_list, lang, game)
    if pays:
        head = t("result.payments", lang, list="").strip()
        x = PAD + body.text((PAD, y + 2 + pill_height(PILL) / 2), head, LINE, fill=MUTED, bold=True, anchor="lm") + 8
        y = _pills(body, x, y + 2, inner - x + PAD, [(p, PAY_BG) for p in pays])
    pts = res.get("points") or []
    if pts:  # every seat's points, wrapped under the label when the line is full
        x0 = PAD + body.text((PAD, y + 12), label(view, "points") + ":", LINE, fill=MUTED, bold=True,
                             anchor="lm") + 10
        x = x0
        for i, p in enumerate(pts):
            sign = "+" if p > 0 else ("−" if p < 0 else "±")
            colour = GAIN if p > 0 else (LOSS if p < 0 else WHITE)
            text, size = fit_text(f"{names.get(i, i)} {sign}{abs(p)}", LINE, width - PAD - x0)
            w = text_advance(text, size, True)
            if x > x0 and x + w > width - PAD:
                x, y = x0, y + LINE_H
            x += body.text((x, y + 12), text, size, fill=colour, bold=True, anchor="lm") + 20
        y += LINE_H + 2
    h = int(y + PAD)
    layer = Layer(width, h)
    layer.rrect((0, 0, width - 1, h - 1), radius=12, fill=(40, 40, 38), outline=GOLD, width=2)
    layer.add(body, 0, 0)
    return layer


__all__ = ["result_panel"]
