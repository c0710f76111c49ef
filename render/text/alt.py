"""The text alternative of every image the bot sends (the attachment's ``description``, which
screen readers read and Discord shows when an image does not load): the table's state in a
sentence or two, from the same view the image is drawn from and nothing else.

* a table image (the public message): the game and hand, whose turn it is (nobody is named
  during a claim window, as the public view names nobody), the last discard, and each seat's
  name and score; once the hand is over its result instead of the turn: the winner(s), how
  (self-drawn, from whom) and the points, or the exhaustive draw;
* a player's panel: the same public sentence and how many tiles or cards the viewer holds
  (never a tile of theirs, never anything of another seat);
* a replay step: which hand and step, then the same sentence for that step.

At most :data:`MAX_ALT` characters (Discord's limit for a media description): names are
shortened first when the sentence would be longer.  Words: catalogue section ``alt``.
"""

from __future__ import annotations

from typing import Optional

from engine.outcome import outcome

from .catalogue import game_name, lang_of, t, tile_label
from .results import how_text

#: the longest description Discord takes for an image (characters)
MAX_ALT = 256
#: phases without a hand running (no turn to name)
_IDLE = (None, "lobby", "between", "over")


def last_discard(events: list[dict]) -> Optional[dict]:
    """``{"seat", "tile"}`` of the last ``discard`` among public ``events``; ``None`` if none."""
    for e in reversed(events or []):
        if e.get("type") == "discard":
            return {"seat": e.get("seat"), "tile": e.get("tile")}
    return None


def _name(names: list[str], seat: Optional[int]) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def _sentences(view: dict, names: list[str], lang: str, last: Optional[dict]) -> list[str]:
    """The public state of ``view`` in sentences (see the module docstring)."""
    out = []
    phase = view.get("phase")
    result = view.get("result")
    if phase not in _IDLE and result is None:
        turn = view.get("turn")
        if len(view.get("to_act") or ()) > 1:
            out.append(t("alt.opening", lang))
        elif turn is not None:
            out.append(t("alt.turn", lang, name=_name(names, turn)))
        else:
            out.append(t("alt.claims", lang))
    elif result is not None:
        o = outcome(result)
        if o["draw"] or not o["wins"]:
            out.append(t("alt.draw", lang))
        for w in o["wins"]:
            pts = o["points"][w["seat"]] if w["seat"] < len(o["points"]) else 0
            how = how_text(w, names, lang)
            out.append(t("alt.win", lang, name=_name(names, w["seat"]), how=how, points=f"{pts:+d}"))
    if last and last.get("tile") and result is None:
        out.append(t("alt.last", lang, name=_name(names, last.get("seat")), tile=tile_label(last["tile"], lang)))
    seats = [s for s in view.get("seats") or [] if "score" in s]
    if seats:
        scores = t("alt.sep", lang).join(t("alt.score", lang, name=_name(names, s.get("seat")), points=s["score"])
                                         for s in seats)
        out.append(t("alt.scores", lang, scores=scores))
    return out


def _fit(build, names: list[str]) -> str:
    """``build(names)`` within :data:`MAX_ALT` characters: names shortened (to 16, then 8
    characters) when it is longer, then cut."""
    for keep in (None, 16, 8):
        short = [n if keep is None or len(n) <= keep else n[:keep - 1] + "…" for n in names]
        text = build(short)
        if len(text) <= MAX_ALT:
            return text
    return text[:MAX_ALT - 1] + "…"


def _join(parts: list[str], lang: str) -> str:
    """Sentences one after the other: a space between English ones, none after a Chinese 。"""
    return (" " if lang_of(lang) == "en" else "").join(parts)


def _names(view: dict) -> list[str]:
    seats = view.get("seats") or []
    names = ["?"] * (max((s.get("seat", 0) for s in seats), default=-1) + 1)
    for s in seats:
        names[s.get("seat", 0)] = str(s.get("name", "?"))
    return names


def _last(view: dict) -> Optional[dict]:
    return view.get("last_out") or last_discard(view.get("recent") or [])


def table_alt(view: dict, game, lang: str) -> str:
    """The description of a table image drawn from the public ``view``
    (a snapshot's public part; ``game``: the game's facts): game and hand, turn or result, last discard, scores; at most
    :data:`MAX_ALT` characters."""
    head = t("alt.table", lang, game=game_name(game, lang), no=max(view.get("hand_no") or 1, 1))
    last = _last(view)
    return _fit(lambda names: _join([head] + _sentences(view, names, lang, last), lang), _names(view))


def replay_alt(view: dict, game, lang: str, hand_id: int, step: int, total: int,
               events: list[dict]) -> str:
    """The description of a replay step's image (``service.records.Replay``): the hand and
    step, then whose turn, the last discard (from the step's public ``events``) or the
    result."""
    head = t("alt.replay", lang, game=game_name(game, lang), hand=hand_id, step=step, total=total)
    last = last_discard(events)
    return _fit(lambda names: _join([head] + _sentences(view, names, lang, last), lang), _names(view))
