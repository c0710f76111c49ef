"""The words of a hand's result (its shape: :func:`engine.outcome.outcome`)."""

from __future__ import annotations

from typing import Optional

from engine.outcome import DISCARD, ROB_KONG, SELF_DRAWN, SHOWN, outcome

from .catalogue import pick, t, tile_label, tv


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
            text = " · ".join(f"{pick(f[0], f[1], lang)} {f[2]}" + (f"×{f[3]}" if len(f) > 3 and f[3] > 1 else "")
                              for f in fl)
            out.append((f"{names[w['seat']]}: " if len(o["wins"]) > 1 else "") + text)
        if result.get("summary_rows"):
            out.append(" · ".join(summary_items(result, lang)))
        rows = multiplier_items(result, lang)
        if rows:
            out.append("× " + " × ".join(rows))
    if o["liable"] is not None:
        out.append(tv(variant, "ui.result_liable", lang, name=names[o["liable"]["seat"]], reason=o["liable"]["reason"]))
    out.append(" | ".join(t("ui.result_points", lang, name=names[i], points=f"{p:+d}")
                          for i, p in enumerate(o["points"]) if i < len(names)))
    return out


def fan_items(result: dict, lang: str, seat: Optional[int] = None) -> list[str]:
    """The fans of a win (of ``seat`` when the result has several winners), each
    ``<name> <value>``, named in ``lang``; a fan counted several times shows its total."""
    by_seat = result.get("fans_by_seat") or {}
    fl = (by_seat.get(str(seat), by_seat.get(seat)) if by_seat and seat is not None else None) or result.get("fans") or []
    return [f"{pick(f[0], f[1], lang)} {f[2] * (f[3] if len(f) > 3 else 1)}" for f in fl]


def summary_items(result: dict, lang: str) -> list[str]:
    """The result's summary (胡 · 番 · total, 胡息 · 囤 …), ``<name> <value>`` each."""
    return [f"{pick(r[0], r[1], lang)} {r[2]}" for r in result.get("summary_rows") or []]


def multiplier_items(result: dict, lang: str) -> list[str]:
    """The multipliers other than 1 (加倍, 宝牌, 连庄 …), ``<name> <factor>`` each."""
    return [f"{pick(r[0], r[1], lang)} {r[2]}" for r in result.get("multiplier_rows") or [] if r[2] != 1]


__all__ = ["outcome", "result_lines", "how_text", "fan_items", "summary_items", "multiplier_items"]
