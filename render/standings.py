"""The image of a match's final standings (大结算), in the style of the result box
(``render/result.py``): a gold-framed dark panel on the felt with the title, one row per
player (place, name, total, hands won, best hand, biggest payment) and the players' running
totals hand by hand as a chart, each player in their own colour.

Input: ``view`` = ``{"lang", "variant", "standings": service.matches.standings(...),
"subtitle": str}``; words from the catalogue section ``img`` (``render.text``)."""

from __future__ import annotations

from PIL import ImageDraw

from .canvas import Layer, fit_text
from .common import FELT_DARK, GOLD, MUTED, WHITE, label, lang_of, to_png
from .text import tv

WIDTH = 720  #: as the table image (``render.table.WIDTH``)
PAD = 18
ROW_H = 46
CHART_H = 190
GAIN, LOSS = (120, 230, 140), (255, 130, 120)
PANEL, ROW_BG = (40, 40, 38), (52, 52, 48)
MEDALS = {1: (240, 190, 40), 2: (200, 205, 215), 3: (205, 130, 60)}
#: one colour per player (in places order), repeated past eight
COLOURS = ((240, 190, 40), (90, 170, 255), (120, 230, 140), (255, 130, 120), (200, 140, 255), (255, 210, 140),
           (120, 220, 220), (230, 230, 230))
#: columns: (catalogue key, x from the panel's inner left edge, anchor): values are drawn the same way
COLUMNS = (("standings_rank", 23, "mm"), ("standings_player", 66, "lm"), ("standings_total", 290, "rm"),
           ("standings_wins", 352, "rm"), ("standings_best", 372, "lm"), ("standings_paid", 548, "lm"))
X = {key: x for key, x, _ in COLUMNS}


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def _chart(view: dict, inner: int) -> Layer:
    """Running totals hand by hand, one line per player, zero marked."""
    data = view["standings"]
    hands, players = data.get("hands", []), data.get("players", [])
    layer = Layer(inner, CHART_H)
    layer.rrect((0, 0, inner - 1, CHART_H - 1), radius=8, fill=ROW_BG)
    runs = []
    for p in players:
        total, run = 0, [0]
        for h in hands:
            total += h["points"].get(p["key"], 0)
            run.append(total)
        runs.append(run)
    lo = min([0] + [v for r in runs for v in r])
    hi = max([0] + [v for r in runs for v in r])
    span = max(1, hi - lo)
    left, right, top, bottom = 56, inner - 16, 14, CHART_H - 26
    n = max(1, len(hands))

    def xy(i: int, v: int) -> tuple[float, float]:
        return left + (right - left) * i / n, bottom - (bottom - top) * (v - lo) / span

    for v in sorted({lo, 0, hi}):
        layer.text((left - 8, xy(0, v)[1]), _signed(v), 13, fill=MUTED, bold=True, anchor="rm")
    layer.text((left, CHART_H - 12), "0", 13,
               fill=MUTED, bold=True, anchor="lm")
    layer.text((right, CHART_H - 12), label(view, "standings_hands", n=len(hands)), 13, fill=MUTED, bold=True,
               anchor="rm")

    def draw(d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
        zy = xy(0, 0)[1]
        d.line((ox + left, oy + zy, ox + right, oy + zy), fill=(110, 110, 100), width=1)
        for k, run in reversed(list(enumerate(runs))):
            pts = [(ox + x, oy + y) for x, y in (xy(i, v) for i, v in enumerate(run))]
            colour = COLOURS[k % len(COLOURS)]
            d.line(pts, fill=colour, width=3, joint="curve")
            for x, y in pts[1:] if len(pts) <= 41 else pts[-1:]:
                d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)

    layer.call(draw)
    return layer


def standings_image(view: dict):
    """The standings image (PIL RGB), ``WIDTH`` px wide; its height grows with the players."""
    data = view["standings"]
    players = data.get("players", [])
    inner = WIDTH - 2 * PAD
    body = Layer(WIDTH, 0)
    y = PAD
    x = PAD + body.text((PAD, y + 20), label(view, "standings"), 30, fill=GOLD, bold=True, anchor="lm") + 16
    sub, size = fit_text(str(view.get("subtitle") or ""), 17, WIDTH - PAD - x)
    body.text((x, y + 22), sub, size, fill=MUTED, bold=True, anchor="lm")
    y += 52
    for key, cx, anchor in COLUMNS:
        body.text((PAD + cx, y + 10), label(view, key), 15, fill=MUTED, bold=True, anchor=anchor)
    y += 24
    for k, p in enumerate(players):
        body.rrect((PAD, y, PAD + inner - 1, y + ROW_H - 6), radius=8, fill=ROW_BG)
        cy = y + (ROW_H - 6) / 2
        medal = MEDALS.get(p["rank"], (90, 100, 95))
        body.ellipse((PAD + 8, cy - 15, PAD + 38, cy + 15), fill=medal)
        body.text((PAD + X["standings_rank"], cy), str(p["rank"]), 17, fill=(30, 30, 30) if p["rank"] <= 3 else WHITE, bold=True,
                  anchor="mm")
        colour = COLOURS[k % len(COLOURS)]
        body.ellipse((PAD + 46, cy - 5, PAD + 56, cy + 5), fill=colour)
        name, size = fit_text(str(p["name"]), 20, X["standings_total"] - X["standings_player"] - 64)
        body.text((PAD + X["standings_player"], cy), name, size, fill=WHITE, bold=True, anchor="lm")
        total = p["total"]
        body.text((PAD + X["standings_total"], cy), _signed(total), 22, fill=GAIN if total > 0 else (LOSS if total < 0 else WHITE),
                  bold=True, anchor="rm")
        body.text((PAD + X["standings_wins"], cy), f"{p['wins']}/{p['hands']}", 17, fill=WHITE, bold=True, anchor="rm")
        best = p.get("best")
        if best is not None:
            text = label(view, "standings_hand_no", no=best["no"]) + " " + _signed(best["points"])
            if best.get("fan"):
                # the game's own count: 番, 字牌's 胡息, 财神麻将's multiplier
                text += " · " + tv(view.get("game"), "img.fan", lang_of(view), n=best["fan"])
            text, size = fit_text(text, 17, X["standings_paid"] - X["standings_best"] - 12)
            body.text((PAD + X["standings_best"], cy), text, size, fill=GAIN, bold=True, anchor="lm")
        else:
            body.text((PAD + X["standings_best"], cy), "—", 17, fill=MUTED, bold=True, anchor="lm")
        paid = p.get("paid")
        if paid is not None:
            text, size = fit_text(label(view, "standings_hand_no", no=paid["no"]) + " " + _signed(-paid["points"]), 17,
                              inner - X["standings_paid"] - 12)
            body.text((PAD + X["standings_paid"], cy), text, size, fill=LOSS, bold=True, anchor="lm")
        else:
            body.text((PAD + X["standings_paid"], cy), "—", 17, fill=MUTED, bold=True, anchor="lm")
        y += ROW_H
    if data.get("hands"):
        y += 6
        body.add(_chart(view, inner), PAD, y)
        y += CHART_H
    h = int(y + PAD)
    outer = Layer(WIDTH, h)
    outer.rrect((0, 0, WIDTH - 1, h - 1), radius=14, fill=PANEL, outline=GOLD, width=3)
    outer.add(body, 0, 0)
    return outer.render(background=FELT_DARK)


def render_standings(view: dict) -> bytes:
    """PNG bytes of :func:`standings_image` (256-colour palette)."""
    return to_png(standings_image(view))


__all__ = ["render_standings", "standings_image", "WIDTH"]
