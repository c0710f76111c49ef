"""The result of a hand, in one shape for every game, and its words.

Every game's engine returns its own ``result`` dict (see ``engine.protocol.RESULT_KEYS``);
front ends (the Discord table message, the local table, the result image) read it only
through :func:`outcome`, which says for every game the same things: who won, how, from whom,
who is liable, and the points — and :func:`result_lines`, the words for it.

Shapes the games produce (``rules/*.md``):

* exhaustive draw (every game): no winner, nobody pays;
* self-drawn win (自摸): every other seat pays, or as the game says;
* win on a discard (点炮): ``from`` is the discarder;
* win robbing a kong (抢杠胡, 老三番 / 财神麻将 / 二人麻将): ``from`` is the seat that added
  the tile to its pung; it pays as a discarder;
* win on a card turned up by another seat's draw (字牌 示众牌): ``from`` is that seat, who
  is no discarder (everybody pays one 番);
* several winners on one discard (老五对 一炮多响);
* liability: 老三番 三摊 (the liable discarder pays for all three), 金湖 包五家 (five shares).
"""

from __future__ import annotations

from typing import Optional

from .i18n import t, tile_label, tv

#: how a winner won (``outcome()["wins"][i]["how"]``)
SELF_DRAWN, DISCARD, ROB_KONG, SHOWN = "self_drawn", "discard", "rob_kong", "shown"


def outcome(result: dict) -> dict:
    """The game-independent shape of a finished hand's ``result``.

    :returns: ``{"draw": bool, "wins": [{"seat", "how", "from", "tile", "fan"}], "liable":
        {"seat", "reason"} | None, "points": [int per seat], "payers": [seats paying]}``;
        ``how`` is one of ``self_drawn``, ``discard``, ``rob_kong``, ``shown`` and ``from`` the
        seat that dealt in, whose kong was robbed, or whose draw showed the card (``None`` when
        self-drawn); ``fan`` the winner's fan (or the game's count: 胡息, 对 …); ``tile``
        notation or ``None``.
    """
    points = list(result.get("points") or [])
    winners = list(result.get("winners") or ([] if result.get("winner") is None else [result["winner"]]))
    wins = []
    fan_by_seat = result.get("fan_by_seat") or {}
    for w in winners:
        discarder = result.get("discarder")
        if result.get("self_drawn") and len(winners) == 1:
            how, src = SELF_DRAWN, None
        elif result.get("robbing_kong"):
            how, src = ROB_KONG, discarder
        elif discarder is not None:
            how, src = DISCARD, discarder
        elif result.get("shown_by") is not None:
            how, src = SHOWN, result["shown_by"]
        else:
            how, src = SELF_DRAWN, None
        fan = fan_by_seat.get(str(w), fan_by_seat.get(w))
        if fan is None:
            fan = result.get("total_fan", result.get("fan_total", 0))
        wins.append({"seat": w, "how": how, "from": src, "tile": result.get("win_tile"), "fan": fan})
    liable = None
    if result.get("liable") is not None:
        liable = {"seat": result["liable"], "reason": "三摊"}
    elif result.get("baowu") is not None:
        liable = {"seat": result["baowu"], "reason": "包五家"}
    return {"draw": not winners, "wins": wins, "liable": liable, "points": points,
            "payers": [i for i, p in enumerate(points) if p < 0]}


def how_text(win: dict, names: list[str], lang: str) -> str:
    """``self-drawn`` / ``from bob`` / ``robbing bob's kong`` / ``on the card bob turned up``."""
    src = names[win["from"]] if win.get("from") is not None and win["from"] < len(names) else "?"
    key = {SELF_DRAWN: "ui.result_selfdrawn", DISCARD: "ui.result_from", ROB_KONG: "ui.result_rob",
           SHOWN: "ui.result_shown"}[win["how"]]
    return t(key, lang, name=src)


def result_lines(result: dict, names: list[str], lang: str, variant: Optional[str] = None, *,
                 markdown: bool = True, fans: bool = True) -> list[str]:
    """The settlement in words: one line per winner (tile, how, fan), the fan list, the
    summary (胡 · 番 · total, 胡息 · 囤 …), the multipliers, who is liable, and every seat's
    points.  ``markdown=False`` for plain text (the local table)."""
    o = outcome(result)
    zh = lang.startswith("zh")
    out: list[str] = []
    if o["draw"]:
        out.append(t("ui.result_draw", lang))
    for w in o["wins"]:
        tile = tile_label(w["tile"], lang) if w.get("tile") else "—"
        if result.get("summary_rows"):  # the game counts otherwise (胡 · 番 · total, 胡息 · 囤): see below
            line = t("ui.result_win_plain", lang, name=names[w["seat"]], tile=tile, how=how_text(w, names, lang))
        else:
            line = t("ui.result_win", lang, name=names[w["seat"]], tile=tile, how=how_text(w, names, lang),
                     fan=w["fan"])
        out.append(line if markdown else line.replace("**", ""))
    if fans and o["wins"]:
        by_seat = result.get("fans_by_seat") or {}
        for w in o["wins"]:
            fl = by_seat.get(str(w["seat"]), by_seat.get(w["seat"])) if by_seat else result.get("fans")
            if not fl:
                continue
            text = " · ".join(f"{f[0] if zh else f[1]} {f[2]}" + (f"×{f[3]}" if len(f) > 3 and f[3] > 1 else "")
                              for f in fl)
            out.append((f"{names[w['seat']]}: " if len(o["wins"]) > 1 else "") + text)
        if result.get("summary_rows"):
            out.append(" · ".join(f"{r[0] if zh else r[1]} {r[2]}" for r in result["summary_rows"]))
        rows = [r for r in result.get("multiplier_rows") or [] if r[2] != 1]
        if rows:
            out.append("× " + " × ".join(f"{r[0] if zh else r[1]} {r[2]}" for r in rows))
    if o["liable"] is not None:
        out.append(tv(variant, "ui.result_liable", lang, name=names[o["liable"]["seat"]], reason=o["liable"]["reason"]))
    out.append(" | ".join(t("ui.result_points", lang, name=names[i], points=f"{p:+d}")
                          for i, p in enumerate(o["points"]) if i < len(names)))
    return out


__all__ = ["outcome", "result_lines", "how_text", "SELF_DRAWN", "DISCARD", "ROB_KONG", "SHOWN"]
