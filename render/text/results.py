"""The words of a hand's result (its shape: :func:`engine.outcome.outcome`).

A result explains itself: every winner and how they won, the items of their count (老三番 胡,
字牌 胡息, 老五对 对) and their fans with values, the formula that gave the total, the caps
applied, who is liable and why, and who paid whom.  The engine carries these as data
(``engine.protocol.Result``: ``count``, ``fans``, ``calc``, ``caps``, ``liability``,
``payments``); the words come from the game's own words (``engine/variants/<game>/data/<game>.<lang>.json``,
section ``result``) and else from the shared one (``messages``, section ``result``).  A result
without those keys (a hand stored before they existed) reads as it always did: the fan total,
the summary and the multipliers.
"""

from __future__ import annotations

import re
from typing import Optional

from engine.outcome import DISCARD, ROB_KONG, SELF_DRAWN, SHOWN, outcome

from engine.facts import GameFacts

from .catalogue import lang_of, pick, short_tile, t, tile_label, tv


def how_text(win: dict, names: list[str], lang: str) -> str:
    """``self-drawn`` / ``from bob`` / ``robbing bob's kong`` / ``on the card bob turned up``."""
    src = names[win["from"]] if win.get("from") is not None and win["from"] < len(names) else "?"
    key = {SELF_DRAWN: "ui.result_selfdrawn", DISCARD: "ui.result_from", ROB_KONG: "ui.result_rob",
           SHOWN: "ui.result_shown"}[win["how"]]
    return t(key, lang, name=src)


def _words(game: Optional[GameFacts], key: str, lang: str, **params) -> Optional[str]:
    """``key`` in the game's catalogue, else in the shared one; ``None`` when neither has it."""
    text = tv(game, key, lang, **params)
    return None if text.startswith("messages.") else text


def _by_seat(result: dict, key: str, seat: Optional[int]):
    """The result's ``<key>_by_seat`` entry of ``seat`` (several winners), else its ``key``."""
    by_seat = result.get(f"{key}_by_seat") or {}
    if by_seat and seat is not None:
        hit = by_seat.get(str(seat), by_seat.get(seat))
        if hit is not None:
            return hit
    return result.get(key)


def _name(names: list[str], seat: Optional[int]) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def tiles_text(tiles: list[str], lang: str) -> str:
    """Tiles of one item, short: a set of one kind by its name once (``八万`` / ``8m``), a run
    with its suit once (``一二三条`` / ``123s``, 字牌 ``贰柒拾`` / ``2-7-10X``)."""
    if not tiles:
        return ""
    if len(set(tiles)) == 1:
        return short_tile(tiles[0], lang)
    names = [short_tile(x, lang) for x in tiles]
    if lang_of(lang) != "en":
        if all(len(n) == 2 for n in names) and len({n[1] for n in names}) == 1:
            return "".join(n[0] for n in names) + names[0][1]
        return "".join(names)
    parts = [re.fullmatch(r"(\d+)([A-Za-z])", x) for x in tiles]
    if all(parts) and len({p.group(2) for p in parts}) == 1:
        nums = [p.group(1) for p in parts]
        return ("" if all(len(n) == 1 for n in nums) else "-").join(nums) + parts[0].group(2)
    return " ".join(names)


def _numbers(calc: dict) -> dict:
    return {k: v for k, v in calc.items() if k != "key"}


def headline_total(result: dict, lang: str, game: Optional[GameFacts], seat: Optional[int] = None) -> Optional[str]:
    """The total of a win as its game says it in a headline (``胡 26 · 番 0 · 计 60``,
    ``胡息 16 · 10 囤``, ``8 倍``), or ``None`` where the game says ``<n> fan``."""
    calc = _by_seat(result, "calc", seat)
    if not calc:
        return None
    return _words(game, "result.headline", lang, **_numbers(calc))


def item_text(item: dict, lang: str, game: Optional[GameFacts]) -> str:
    """One count item: ``暗刻 八万 4``, ``坎 伍 6``, ``杠 九条 20``."""
    tiles = tiles_text(item.get("tiles") or [], lang)
    what = _words(game, f"result.item.{item['item']}", lang, tiles=tiles) or f"{item['item']} {tiles}"
    return f"{what.strip()} {item['value']}"


def count_title(result: dict, lang: str, game: Optional[GameFacts], seat: Optional[int] = None) -> Optional[str]:
    """The count's name and value (``胡 26``, ``胡息 16``, ``对 23``), or ``None``."""
    count = _by_seat(result, "count", seat)
    if not count:
        return None
    return _words(game, f"result.count.{count['name']}", lang, n=count["value"]) or f"{count['name']} {count['value']}"


def count_items(result: dict, lang: str, game: Optional[GameFacts], seat: Optional[int] = None) -> list[str]:
    """Every item of the winner's count with its value (:func:`item_text`)."""
    count = _by_seat(result, "count", seat) or {}
    return [item_text(i, lang, game) for i in count.get("items") or []]


def count_line(result: dict, lang: str, game: Optional[GameFacts], seat: Optional[int] = None) -> Optional[str]:
    """``胡 26：碰 五万 2 · 明杠 九万 16 · …``, or ``None`` when the game keeps no count."""
    title = count_title(result, lang, game, seat)
    if title is None:
        return None
    items = count_items(result, lang, game, seat)
    return t("result.count_line", lang, count=title, items=" · ".join(items)) if items else title


def calc_text(result: dict, lang: str, game: Optional[GameFacts], seat: Optional[int] = None) -> Optional[str]:
    """The formula of the win's total in the game's words (``么半三：(30 + 26) × 2^1 = 112 →
    120``), or ``None``.  A plain product of the fan and multipliers (``product``) is said only
    when some multiplier is not 1."""
    calc = _by_seat(result, "calc", seat)
    if not calc:
        return None
    numbers = _numbers(calc)
    if calc["key"] == "product":
        factors = "".join(f" × {pick(r[0], r[1], lang)} {r[2]}" for r in result.get("multiplier_rows") or []
                          if r[2] != 1)
        if not factors:
            return None
        numbers["factors"] = factors
    return _words(game, f"result.calc.{calc['key']}", lang, **numbers)


def cap_lines(result: dict, lang: str, game: Optional[GameFacts]) -> list[str]:
    """The caps applied (三番为顶, 财神麻将's 40 …)."""
    out = []
    for cap in result.get("caps") or []:
        p = {"uncapped": cap["uncapped"], "value": cap["value"]}
        out.append(_words(game, f"result.cap.{cap['item']}", lang, **p) or t("result.cap", lang, **p))
    return out


def liability_line(result: dict, names: list[str], lang: str, game: Optional[GameFacts]) -> Optional[str]:
    """Why the liable seat pays (三摊: the tile it discarded into three exposures; 包五家)."""
    lia = result.get("liability")
    if not lia:
        return None
    tile = tile_label(lia["tile"], lang) if lia.get("tile") else "—"
    return _words(game, f"result.liability.{lia['reason']}", lang, name=_name(names, lia["seat"]),
                  winner=_name(names, lia.get("to")), tile=tile)


def payment_items(result: dict, names: list[str], lang: str, game: Optional[GameFacts]) -> list[str]:
    """Every payment: ``bob → amy 60``, with why it differs from the plain amount
    (``（庄家 ×2）``, ``（飘 +1）``, ``（3 份）`` …)."""
    out = []
    for pay in outcome(result)["payments"]:
        text = t("result.payment", lang, payer=_name(names, pay["from"]), payee=_name(names, pay["to"]),
                 points=pay["points"])
        notes = [_words(game, f"result.note.{k}", lang, n=n) for k, n in pay.get("notes") or []]
        notes = [x for x in notes if x]
        if notes:
            text += t("result.notes", lang, notes=", ".join(notes))
        out.append(text)
    return out


def result_lines(result: dict, names: list[str], lang: str, game: Optional[GameFacts] = None, *,
                 markdown: bool = True, fans: bool = True) -> list[str]:
    """The settlement in words: one line per winner (tile, how, total); per winner the items of
    the count, the fans, the formula and the caps; who is liable and why; who paid whom; every
    seat's points.  ``markdown=False`` for plain text (the local table)."""
    o = outcome(result)
    out: list[str] = []
    several = len(o["wins"]) > 1
    if o["draw"]:
        out.append(t("ui.result_draw", lang))
    for w in o["wins"]:
        tile = tile_label(w["tile"], lang) if w.get("tile") else "—"
        who = dict(name=_name(names, w["seat"]), tile=tile, how=how_text(w, names, lang))
        total = headline_total(result, lang, game, w["seat"] if several else None)
        if total is not None:
            line = t("result.win", lang, total=total, **who)
        elif result.get("summary_rows"):  # the game counts otherwise (胡 · 番 · total, 胡息 · 囤): see below
            line = t("ui.result_win_plain", lang, **who)
        else:
            line = t("ui.result_win", lang, fan=w["fan"], **who)
        out.append(line if markdown else line.replace("**", ""))
    if fans and o["wins"]:
        for w in o["wins"]:
            seat = w["seat"] if several else None
            prefix = f"{_name(names, w['seat'])}: " if several else ""
            lines = [count_line(result, lang, game, seat)]
            fl = _by_seat(result, "fans", seat)
            if fl:
                lines.append(" · ".join(f"{pick(f[0], f[1], lang)} {f[2]}" + (f"×{f[3]}" if len(f) > 3 and f[3] > 1 else "")
                                        for f in fl))
            if _by_seat(result, "calc", seat):
                lines.append(calc_text(result, lang, game, seat))
            else:  # a result stored before results carried their formula
                if result.get("summary_rows"):
                    lines.append(" · ".join(summary_items(result, lang)))
                rows = multiplier_items(result, lang)
                if rows:
                    lines.append("× " + " × ".join(rows))
            out += [prefix + x for x in lines if x]
        out += cap_lines(result, lang, game)
    if o["liable"] is not None:
        out.append(tv(game, "ui.result_liable", lang, name=names[o["liable"]["seat"]], reason=o["liable"]["reason"]))
        why = liability_line(result, names, lang, game)
        if why:
            out.append(why)
    pays = payment_items(result, names, lang, game)
    if pays:
        out.append(t("result.payments", lang, list=" · ".join(pays)))
    out.append(" | ".join(t("ui.result_points", lang, name=names[i], points=f"{p:+d}")
                          for i, p in enumerate(o["points"]) if i < len(names)))
    if result.get("money"):
        out.append(t("result.money", lang, list=" | ".join(f"{_name(names, i)} {m:+d}"
                                                           for i, m in enumerate(result["money"]))))
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


__all__ = ["outcome", "result_lines", "how_text", "fan_items", "summary_items", "multiplier_items", "tiles_text",
           "headline_total", "item_text", "count_title", "count_items", "count_line", "calc_text", "cap_lines",
           "liability_line", "payment_items"]
