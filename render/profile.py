"""The image of a player's profile in one game of a server (``/mj profile``), in the style of
the standings (``render/standings.py``): a gold-framed dark card on the felt, 720 px wide
(Discord shows it about 450 px wide: every text is at least 21 px here, 13 px there).

From the top: the player's name and the game (with the period counted); the 段位 (rank name,
points, a bar toward the next rank's threshold — none on the top rank) beside the rating (the
number, ``μ ± σ`` small, the rated units; "unrated yet" before the first); the numbers in a
grid of three columns (hands played, 和了率, 放铳率, 自摸率, 副露率, 流局率, the average win and
deal-in in points, the game's own count per win); the places (average place, first-place rate,
the share of each place as one stacked bar); the places of the last rated units as dots on a
line, 1st at the top and the last place at the bottom (a place scaled by the unit's players);
the best hands with ``#id`` for ``/mj replay``; the special hands won.

Input: a ``service.profile.Profile`` (read by its attributes); the words are
``render.text.profile``'s.  Each text is tagged ``("profile", key)`` for
:meth:`render.canvas.Layer.render`'s ``record``.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from .canvas import Layer, fit_text, text_advance
from .common import FELT_DARK, GOLD, MUTED, WHITE, to_png
from .standings import GAIN, LOSS, MEDALS, PANEL, ROW_BG
from .text import profile as words
from .text.catalogue import game_name, t
from .tiles import drawable_text

WIDTH = 720  #: as the table and standings images
PAD = 22
INNER = WIDTH - 2 * PAD
#: the smallest text: 13 px when Discord shows the card 450 px wide
MIN_TEXT = 21
COLS = 3
CELL_H = 88
CHART_H = 176
BAR_BG = (70, 70, 64)
#: the places' colours, 1st first (the standings' medals, then grey)
PLACE_COLOURS = (MEDALS[1], MEDALS[2], MEDALS[3], (110, 120, 115))
LINE = (150, 160, 150)
#: the chart's columns: as many as the units a profile charts (``service.profile.RECENT_UNITS``)
SLOTS = 20


def fit(text: str, size: int, width: float, bold: bool = True, least: int = MIN_TEXT) -> tuple[str, int]:
    """:func:`render.canvas.fit_text` down to the card's smallest text (:data:`MIN_TEXT`)."""
    return fit_text(text, size, width, bold, least)

def _tag(key: str) -> tuple:
    return ("profile", key)


def _header(body: Layer, profile: Any, lang: str, y: int) -> int:
    name = drawable_text(words.one_line(profile.name)) or "?"
    text, size = fit(name, 32, INNER)
    body.text((PAD, y + 20), text, size, fill=WHITE, bold=True, anchor="lm", tag=_tag("name"))
    game = t("profile.period", lang, game=game_name(profile.game, lang), period=t(f"ui.period_{profile.period}", lang))
    text, size = fit(game, MIN_TEXT, INNER)
    body.text((PAD, y + 58), text, size, fill=MUTED, bold=True, anchor="lm", tag=_tag("game"))
    return y + 78


def _bar(body: Layer, x: int, y: int, w: int, h: int, share: float, fill) -> None:
    body.rrect((x, y, x + w, y + h), radius=h // 2, fill=BAR_BG)
    if share > 0:
        body.rrect((x, y, x + max(h, int(w * min(1.0, share))), y + h), radius=h // 2, fill=fill)


def _dan_and_rating(body: Layer, profile: Any, lang: str, y: int) -> int:
    """The 段位 on the left half, the rating on the right."""
    h = 150
    half = (INNER - 12) // 2
    for x in (PAD, PAD + half + 12):
        body.rrect((x, y, x + half, y + h), radius=10, fill=ROW_BG)
    x = PAD + 14
    body.text((x, y + 20), t("profile.dan", lang), MIN_TEXT, fill=MUTED, bold=True, anchor="lm", tag=_tag("dan"))
    rank, points, to_next = words.dan_words(profile, lang)
    text, size = fit(rank, 30, half - 28)
    adv = body.text((x, y + 56), text, size, fill=GOLD, bold=True, anchor="lm", tag=_tag("rank"))
    body.text((x + adv + 12, y + 58), points, MIN_TEXT, fill=WHITE, bold=True, anchor="lm", tag=_tag("points"))
    promote = profile.ladder.ranks[profile.dan.rank].promote
    if promote is not None:
        _bar(body, x, y + 84, half - 28, 14, profile.dan.points / promote, GOLD)
        text, size = fit(to_next or "", MIN_TEXT, half - 28, bold=False)
        body.text((x, y + 124), text, size, fill=MUTED, anchor="lm", tag=_tag("to_next"))
    else:
        body.text((x, y + 100), t("profile.top", lang), MIN_TEXT, fill=MUTED, anchor="lm", tag=_tag("to_next"))
    x = PAD + half + 12 + 14
    body.text((x, y + 20), t("profile.rating", lang), MIN_TEXT, fill=MUTED, bold=True, anchor="lm",
              tag=_tag("rating_label"))
    if profile.rating is None:
        text, size = fit(t("profile.unrated", lang), 28, half - 28)
        body.text((x, y + 64), text, size, fill=MUTED, bold=True, anchor="lm", tag=_tag("rating"))
    else:
        body.text((x, y + 62), str(profile.rating), 44, fill=WHITE, bold=True, anchor="lm", tag=_tag("rating"))
        body.text((x, y + 104), f"μ {profile.mu:.2f} ± σ {profile.sigma:.2f}", MIN_TEXT, fill=MUTED, anchor="lm",
                  tag=_tag("mu_sigma"))
    text, size = fit(t("profile.units", lang, units=profile.units), MIN_TEXT, half - 28, bold=False)
    body.text((x, y + 132), text, size, fill=MUTED, anchor="lm", tag=_tag("units"))
    return y + h + 12


def _grid(body: Layer, profile: Any, lang: str, y: int) -> int:
    """The numbers, three to a row: label, value, and a rate's counts."""
    cells = [f for f in words.facts(profile, lang) if f.key not in ("average", "first")]
    w = (INNER - (COLS - 1) * 8) // COLS
    for i, f in enumerate(cells):
        cx, cy = PAD + (i % COLS) * (w + 8), y + (i // COLS) * (CELL_H + 8)
        body.rrect((cx, cy, cx + w, cy + CELL_H), radius=10, fill=ROW_BG)
        text, size = fit(f.label, MIN_TEXT, w - 24)
        body.text((cx + 12, cy + 22), text, size, fill=MUTED, bold=True, anchor="lm", tag=_tag(f.key + "_label"))
        detail = f.detail
        room = w - 24 - (text_advance(detail, MIN_TEXT) + 8 if detail else 0)
        text, size = fit(f.value, 30, room)
        colour = {"win_value": GAIN, "deal_in_value": LOSS}.get(f.key, WHITE) if f.value != words.NONE else MUTED
        body.text((cx + 12, cy + 60), text, size, fill=colour, bold=True, anchor="lm", tag=_tag(f.key))
        if detail:
            body.text((cx + w - 12, cy + 62), detail, MIN_TEXT, fill=MUTED, anchor="rm", tag=_tag(f.key + "_detail"))
    rows = -(-len(cells) // COLS)
    return y + rows * (CELL_H + 8) + 4


def _places(body: Layer, profile: Any, lang: str, y: int) -> int:
    """Average place and first-place rate, then the share of each place as one bar."""
    p = profile.rates.placements
    line = (f"{t('profile.average', lang)} {words.mean(p.average, 2)} · "
            f"{t('profile.first', lang)} {words.percent(p.first)}")
    text, size = fit(line, 22, INNER)
    body.text((PAD, y + 16), text, size, fill=WHITE, bold=True, anchor="lm", tag=_tag("places"))
    y += 36
    if not p.units:
        return y
    x = PAD
    for i, d in enumerate(p.distribution):
        w = round(INNER * d.count / p.units) if i < len(p.distribution) - 1 else PAD + INNER - x
        if w > 0:
            body.rrect((x, y, x + w - 1, y + 22), radius=4, fill=PLACE_COLOURS[min(i, 3)])
        x += w
    y += 32
    col = INNER // max(4, len(p.distribution))
    for i, share in enumerate(words.place_shares(profile, lang)):
        cx = PAD + i * col
        body.ellipse((cx, y + 5, cx + 14, y + 19), fill=PLACE_COLOURS[min(i, 3)])
        text, size = fit(share, MIN_TEXT, col - 24, bold=False)
        body.text((cx + 20, y + 12), text, size, fill=WHITE, anchor="lm", tag=_tag(f"place{i + 1}"))
    return y + 34


def recent_points(recent, left: float, right: float, top: float, bottom: float, slots: int
                  ) -> list[tuple[float, float]]:
    """The chart's point of each ``(place, players)``, oldest at the left: ``slots`` evenly
    spaced columns, 1st at ``top`` and the last place at ``bottom`` (a place among ``players``
    scaled between them)."""
    step = (right - left) / max(1, slots - 1)
    out = []
    for i, (place, players) in enumerate(recent):
        share = (place - 1) / (players - 1) if players > 1 else 0.0
        out.append((left + i * step, top + (bottom - top) * share))
    return out


def _recent(body: Layer, profile: Any, lang: str, y: int) -> int:
    """The last rated units' places: a dot each (gold 1st, red last), joined by a line."""
    recent = list(profile.recent)
    title = t("profile.recent", lang, n=len(recent)) if recent else t("profile.recent_none", lang)
    body.rrect((PAD, y, PAD + INNER, y + (CHART_H if recent else 40)), radius=10, fill=ROW_BG)
    body.text((PAD + 14, y + 20), title, MIN_TEXT, fill=MUTED, bold=True, anchor="lm", tag=_tag("recent"))
    if not recent:
        return y + 52
    top, bottom = y + 56, y + CHART_H - 22
    left, right = PAD + 24 + max(text_advance(t("profile.recent_top", lang), MIN_TEXT),
                                 text_advance(t("profile.recent_last", lang), MIN_TEXT)), PAD + INNER - 20
    body.text((left - 14, top), t("profile.recent_top", lang), MIN_TEXT, fill=MUTED, anchor="rm",
              tag=_tag("recent_top"))
    body.text((left - 14, bottom), t("profile.recent_last", lang), MIN_TEXT, fill=MUTED, anchor="rm",
              tag=_tag("recent_last"))
    points = recent_points(recent, left, right, top, bottom, max(SLOTS, len(recent)))
    colours = [GOLD if p == 1 else (LOSS if p == n else WHITE) for p, n in recent]

    def draw(d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
        for gy in (top, bottom):
            d.line((ox + left, oy + gy, ox + right, oy + gy), fill=BAR_BG, width=1)
        pts = [(ox + px, oy + py) for px, py in points]
        if len(pts) > 1:
            d.line(pts, fill=LINE, width=3, joint="curve")
        for (px, py), colour in zip(pts, colours):
            d.ellipse((px - 8, py - 8, px + 8, py + 8), fill=colour, outline=PANEL, width=2)

    body.call(draw)
    return y + CHART_H + 12


def _best(body: Layer, profile: Any, lang: str, y: int) -> int:
    body.text((PAD, y + 14), t("profile.best", lang), MIN_TEXT, fill=MUTED, bold=True, anchor="lm", tag=_tag("best"))
    y += 32
    best = words.best_words(profile, lang)
    if not best:
        body.text((PAD, y + 18), t("profile.best_none", lang), MIN_TEXT, fill=MUTED, anchor="lm",
                  tag=_tag("best_none"))
        return y + 40
    x = 0
    for i, text in enumerate(best):
        text, size = fit(text, 22, INNER - 20)
        w = int(text_advance(text, size, True)) + 20
        if x and x + w > INNER:
            x, y = 0, y + 46
        body.rrect((PAD + x, y, PAD + x + w, y + 38), radius=10, fill=ROW_BG)
        body.text((PAD + x + 10, y + 19), text, size, fill=GAIN, bold=True, anchor="lm", tag=_tag(f"best{i + 1}"))
        x += w + 8
    return y + 48


def _specials(body: Layer, profile: Any, lang: str, y: int) -> int:
    specials = words.special_words(profile, lang)
    if not specials:
        return y
    line = t("profile.specials_line", lang, specials=t("profile.list_sep", lang).join(specials))
    text, size = fit(line, MIN_TEXT, INNER, bold=False)
    body.text((PAD, y + 14), text, size, fill=WHITE, anchor="lm", tag=_tag("specials"))
    return y + 34


def profile_card(profile: Any, lang: str) -> Layer:
    """The card as a display list, :data:`WIDTH` px wide (its height, about 900–1000 px,
    follows what the profile holds)."""
    body = Layer(WIDTH, 0)
    y = _header(body, profile, lang, PAD - 4)
    y = _dan_and_rating(body, profile, lang, y)
    y = _grid(body, profile, lang, y)
    y = _places(body, profile, lang, y)
    y = _recent(body, profile, lang, y)
    y = _best(body, profile, lang, y)
    y = _specials(body, profile, lang, y)
    h = int(y + PAD - 6)
    outer = Layer(WIDTH, h)
    outer.rrect((0, 0, WIDTH - 1, h - 1), radius=14, fill=PANEL, outline=GOLD, width=3)
    outer.add(body, 0, 0)
    return outer


def profile_picture(profile: Any, lang: str, record: list | None = None) -> Image.Image:
    """The card as a PIL RGB image (``record``: see :meth:`render.canvas.Layer.render`)."""
    return profile_card(profile, lang).render(background=FELT_DARK, record=record)


def profile_image(profile: Any, lang: str) -> bytes:
    """PNG bytes (256-colour palette, about 30–45 kB) of the card of ``profile``
    (``service.profile.Profile``) in ``lang`` (``en``, ``zh-CN``, ``zh-TW``)."""
    return to_png(profile_picture(profile, lang))


__all__ = ["MIN_TEXT", "WIDTH", "fit", "profile_card", "profile_image", "profile_picture", "recent_points"]
