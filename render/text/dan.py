"""The words of the 段位 ladder (``service.dan``): rank names, a player's progress, and the
ladder's page of ``/mj rules`` (catalogue section ``dan``).

The ladder and states are taken as given (``service.dan.Ladder`` / ``State``: read by their
attributes, so this module imports nothing of the service)."""

from __future__ import annotations

from typing import Any

from .catalogue import t

#: the mark of a protected rank (never demoted from)
PROTECTED = "🔒"


def rank_name(ladder: Any, rank: int, lang: str) -> str:
    """The name of rank index ``rank`` (``"二段"``, ``"2 dan"``); raises ``IndexError`` for an
    index the ladder does not have."""
    return t(f"dan.rank.{ladder.ranks[rank].id}", lang)


def progress(ladder: Any, state: Any, lang: str) -> str:
    """A player's standing in a line: ``"二段 · 640/800 pt"``, or ``"十段 · 2350 pt"`` on the
    top rank (no threshold)."""
    rank = ladder.ranks[state.rank]
    name = rank_name(ladder, state.rank, lang)
    if rank.promote is None:
        return t("dan.progress_top", lang, rank=name, points=state.points)
    return t("dan.progress", lang, rank=name, points=state.points, promote=rank.promote)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def seat_lines(ladder: Any, players: int, lang: str) -> list[str]:
    """The points by place for units of ``players`` rated players, one line per run of ranks
    with the same points: ``"新人–3级: +20 +10 0 0"``."""
    runs: list[tuple[int, int, tuple[int, ...]]] = []
    for i, r in enumerate(ladder.ranks):
        row = tuple(r.places[players])
        if runs and runs[-1][2] == row:
            runs[-1] = (runs[-1][0], i, row)
        else:
            runs.append((i, i, row))
    out = []
    for lo, hi, row in runs:
        names = rank_name(ladder, lo, lang) + ("" if lo == hi else "–" + rank_name(ladder, hi, lang))
        out.append(t("dan.row", lang, ranks=names, points=" ".join(_signed(p) for p in row)))
    return out


def ladder_page(ladder: Any, seats: list[int], lang: str) -> tuple[str, str, list[tuple[str, str]]]:
    """The ladder's page of ``/mj rules``: ``(title, text, [(field name, field text)])`` — how
    the ladder moves, the ranks (threshold, start points, 🔒 protected), then the points by
    place for each of ``seats`` (the unit sizes the game plays that the ladder rates, fewest
    first).  Each field stays within Discord's 1024 characters (a 16-rank ladder takes about
    400)."""
    rungs = []
    for i, r in enumerate(ladder.ranks):
        name = rank_name(ladder, i, lang) + (f" {PROTECTED}" if r.protected else "")
        key = "dan.rung_top" if r.promote is None else "dan.rung"
        rungs.append(t(key, lang, rank=name, promote=r.promote, start=r.start))
    fields = [(t("dan.ranks", lang), "\n".join(rungs)[:1024])]
    fields += [(t("dan.seats", lang, count=n), "\n".join(seat_lines(ladder, n, lang))[:1024]) for n in seats]
    return t("dan.title", lang), t("dan.intro", lang), fields
