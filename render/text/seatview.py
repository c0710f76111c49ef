"""The words of a replay from one seat's view and of an animated hand (``service.replays``):
the step's caption with the seat's decision — what it had, what it chose, what it could have
claimed or done and let go — and the GIF's caption and description."""

from __future__ import annotations

from typing import Any, Optional

from .catalogue import game_name, short_tile, t
from .records import imported_first_line
from .prompts import button


def move_text(move: Any, lang: str, game: Any = None) -> str:
    """A move (``service.snapshot.Move``) as its button reads (a discard: ``discard 五万``)."""
    if move.type == "discard" and move.tile:
        return t("seatview.discard", lang, tile=short_tile(move.tile, lang))
    return button(move.type, lang, game, move.tile)


def decision_lines(d: Any, lang: str, game: Any = None) -> list[str]:
    """A seat's decision (``service.replays.Decision``): its tiles, its choice and what it let
    go (``could 碰 二万 — passed``)."""
    tiles = " ".join(short_tile(x, lang) for x in d.hand)
    if d.drawn:
        tiles += " + " + short_tile(d.drawn, lang)
    chose = t("seatview.chose", lang, move=move_text(d.chose, lang, game))
    if d.passed:
        labels: list[str] = []
        for m in d.passed:
            text = move_text(m, lang, game)
            if text not in labels:
                labels.append(text)
        moves = "/".join(labels)
        chose += " · " + (t("seatview.passed_on", lang, moves=moves, tile=short_tile(d.tile, lang)) if d.tile
                          else t("seatview.passed", lang, moves=moves))
    return [t("seatview.had", lang, tiles=tiles), chose]


def caption(r: Any, name: str, lang: str) -> str:
    """The caption of a step of a replay from a seat's view (``service.records.Replay`` with
    ``seat``); ``name``: the seat's player's name as shown."""
    head = t("seatview.caption", lang, hand=r.hand_id, game=game_name(r.game, lang), seat=(r.seat or 0) + 1,
             name=name, step=r.step, total=r.total)
    lines = [head]
    if r.decision is not None:
        lines += decision_lines(r.decision, lang, r.game)
    elif r.went_on:
        lines.append(t("seatview.went_on", lang))
    if r.step == r.total:
        lines.append(t("seatview.end", lang))
    return "\n".join(lines)


def gif_caption(a: Any, name: Optional[str], lang: str) -> str:
    """The caption of an animated hand (``service.records.Animation``)."""
    game = game_name(a.game, lang)
    if a.seat is None:
        text = t("seatview.gif_caption", lang, hand=a.hand_id, game=game, moves=a.moves)
    else:
        text = t("seatview.gif_caption_seat", lang, hand=a.hand_id, game=game, seat=a.seat + 1, name=name or "?",
                 moves=a.moves)
    return imported_first_line(text, lang) if getattr(a, "imported", False) else text


def gif_alt(a: Any, lang: str) -> str:
    """The description of an animated hand's GIF (at most 256 characters)."""
    game = game_name(a.game, lang)
    if a.seat is None:
        return t("seatview.gif_alt", lang, hand=a.hand_id, game=game, moves=a.moves)[:256]
    return t("seatview.gif_alt_seat", lang, hand=a.hand_id, game=game, seat=a.seat + 1, moves=a.moves)[:256]


def too_long(hand_id: int, lang: str) -> str:
    """A hand whose GIF would not fit Discord's attachment limit."""
    return t("seatview.too_long", lang, hand=hand_id)


__all__ = ["too_long", "move_text", "decision_lines", "caption", "gif_caption", "gif_alt"]
