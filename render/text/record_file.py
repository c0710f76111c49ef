"""The words of game record files (``service.record_file``): the readable ``.txt`` record of
an exported hand or match, the answers of ``/mj record export`` and ``/mj record import``, and
why a record was refused — all from the catalogues' ``record.`` section."""

from __future__ import annotations

from typing import Any, Callable

from .catalogue import game_name, t
from .events import describe_event
from .results import result_lines

#: names in a message go through the front end's escaping; in a file they are shown as typed
Shown = Callable[[str], str]


def _names(entry: dict) -> list[str]:
    return [s["name"] for s in entry["seats"]]


def _seat_line(seat: dict, lang: str, shown: Shown = str) -> str:
    return t("record.text.seat_ai" if seat["ai"] else "record.text.seat", lang, seat=seat["seat"],
             name=shown(seat["name"]))


def _options(options: dict) -> str:
    return " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(options.items())) or "—"


def hand_text(h: Any, n: int, lang: str) -> list[str]:
    """The lines of one hand (``service.record_file.CheckedHand``, the ``n``-th of its record):
    header, seats, one line per action with what it caused in the game's words, the result."""
    e, game = h.entry, h.game.facts
    names = _names(e)
    out = [t("record.text.hand", lang, n=n, hand=e.get("id", "—"), no=e["hand_no"]),
           t("record.text.seed", lang, seed=e["seed"], dealer=names[e["dealer"]],
             tiles=e["wall"]["tiles"] if "wall" in e else "—", sha=e["wall"]["sha256"] if "wall" in e else "—"),
           t("record.text.options", lang, options=_options(e["options"])),
           t("record.text.seats", lang)]
    out += [_seat_line(s, lang) for s in e["seats"]]
    deal = [x for x in (describe_event(ev, names, lang, game) for ev in h.opening) if x]
    if deal:
        out.append(t("record.text.deal", lang, words="; ".join(deal)))
    out.append(t("record.text.actions", lang, n=len(e["actions"])))
    for idx, (text, events) in enumerate(zip(e["actions"], h.steps, strict=True)):
        words = [x for x in (describe_event(ev, names, lang, game) for ev in events) if x]
        key = "record.text.action_words" if words else "record.text.action"
        out.append(t(key, lang, index=idx, action=text, words="; ".join(words)))
    out.append(t("record.text.result", lang))
    out += ["  " + x for x in result_lines(e["result"], names, lang, game, markdown=False)]
    return out


def text_record(checked: Any, lang: str) -> str:
    """The readable record (``service.record_file.Checked``) in ``lang``: a title, then each
    hand (:func:`hand_text`), and for a match the totals by player name."""
    data = checked.data
    game = game_name(checked.game.facts, lang)
    if data["kind"] == "match":
        m = data["match"]
        title = t("record.text.title_match", lang, game=game, match=m.get("id", "—"), hands=len(data["hands"]),
                  version=data["version"])
    else:
        title = t("record.text.title_hand", lang, game=game, hand=data["hands"][0].get("id", "—"),
                  version=data["version"])
    lines = [title, ""]
    for n, h in enumerate(checked.hands, start=1):
        lines += hand_text(h, n, lang) + [""]
    if data["kind"] == "match":
        totals: dict[str, int] = {}
        for h in data["hands"]:
            for s in h["settlements"]:
                totals[s["name"]] = totals.get(s["name"], 0) + s["points"]
        lines.append(t("record.text.totals", lang, list=" | ".join(f"{k} {v:+d}" for k, v in totals.items())))
    return "\n".join(lines).rstrip() + "\n"


def exported(data: dict, lang: str) -> str:
    """The answer of ``/mj record export``, above the two files."""
    if data["kind"] == "match":
        return t("record.exported_match", lang, match=data["match"].get("id", "—"), hands=len(data["hands"]))
    return t("record.exported", lang, hand=data["hands"][0].get("id", "—"))


def imported(checked: Any, hand_ids: tuple[int, ...], lang: str, shown: Shown = str) -> str:
    """The private answer of ``/mj record import``: what was verified and where to replay it."""
    first = checked.hands[0].entry
    seats = ", ".join(_seat_line(s, lang, shown).strip() for s in first["seats"])
    last = checked.hands[-1].entry
    result = result_lines(last["result"], [shown(x) for x in _names(last)], lang, checked.game.facts, fans=False)
    ids = ", ".join(f"#{i}" for i in hand_ids[:10]) + (" …" if len(hand_ids) > 10 else "")
    return t("record.imported", lang, game=game_name(checked.game.facts, lang), hands=len(hand_ids), seats=seats,
             result="\n".join(result[:6]), actions=checked.actions, ids=ids, first=hand_ids[0])


def refused(code: str, params: dict, lang: str, exporting: bool = False) -> str:
    """Why a record was refused (``service.record_file.RecordRefused``), privately: on import
    nothing was stored; on export nothing was sent."""
    why = t(f"record.refused.{code}", lang, **params)
    if why.startswith("messages."):
        why = code
    return t("record.refused_export" if exporting else "record.refused_import", lang, why=why)


__all__ = ["exported", "hand_text", "imported", "refused", "text_record"]
