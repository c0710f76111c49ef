"""The words of ``/mj rescore``: a finished hand's points as played and under other rules
(``service.rescore.Rescore``), with the options changed and the winners' formulas."""

from __future__ import annotations

from typing import Any, Callable

from .catalogue import game_name, t
from .results import calc_text


def value_text(value: Any) -> str:
    """An option's value as typed in ``key=value``: ``true``/``false`` for on/off."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _winners(result: dict) -> list[int]:
    winners = result.get("winners")
    if winners is None:
        winners = [] if result.get("winner") is None else [result["winner"]]
    return list(winners)


def comparison(r: Any, lang: str, shown: Callable[[str], str] = str) -> str:
    """The answer: a title (hand, game), the preset and each option changed (``style
    yaobansan → tuidaoba``), that the moves are the same (and that AI seats played for the
    table's rules, when the hand had some), one line per seat (``name: +180 →
    +300 (+120)``) and, for each winner whose formula changed, the formula as played and
    under the other rules.  ``shown``: how a player's name is shown (Discord's escaping)."""
    title = f"**{t('rescore.title', lang, hand=r.hand_id, game=game_name(r.game, lang))}**"
    if getattr(r, "imported", False):  # anyone's invention, names too: said as the replay says it
        title = t("record.imported_caption", lang, caption=title)
    lines = [title]
    changed = [t("rescore.option", lang, option=c.option, played=value_text(c.played),
                 rescored=value_text(c.rescored)) for c in r.changes]
    if r.preset:
        changed.insert(0, t("rescore.preset", lang, preset=shown(r.preset)))
    lines.append(" · ".join(changed))
    lines.append(t("rescore.same_moves", lang) + (" " + t("rescore.ai_note", lang) if r.ai_seats else ""))
    lines.append(t("rescore.columns", lang))
    names = [shown(n) for n in r.names]
    for seat, name in enumerate(names):
        before, after = r.played[seat], r.rescored[seat]
        lines.append("• " + t("rescore.seat", lang, name=name, played=f"{before:+d}", rescored=f"{after:+d}",
                              diff=f"{after - before:+d}"))
    for seat in _winners(r.rescored_result):
        before = calc_text(r.played_result, lang, r.game, seat)
        after = calc_text(r.rescored_result, lang, r.game, seat)
        if before and after and before != after:
            lines.append(t("rescore.formula", lang, name=names[seat], played=before, rescored=after))
    return "\n".join(lines)


__all__ = ["comparison", "value_text"]
