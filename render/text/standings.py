"""The words of a match's final standings (大结算): the message's title and lines, the
replay menu's options, the image's text alternative, and the matches of ``/mj history``.

``data`` is the standings dict of ``service.matches.standings``; ``match`` a
``store.MatchRecord`` (its variant, hands, times)."""

from __future__ import annotations

from typing import Any, Optional

from engine.facts import GameFacts

from .catalogue import game_name, t, tv

#: options of one replay menu (Discord allows 25 in a select menu)
PAGE = 25


def signed(n: int) -> str:
    """``+24``, ``-8``, ``0``."""
    return f"{n:+d}" if n else "0"


def title(match: Any, lang: str, game: Any) -> str:
    """``game``: the match's game's facts (``engine.facts.GameFacts``), as in every function
    here that names the game."""
    return t("ui.standings_title", lang, game=game_name(game, lang))


def subtitle(match: Any, data: dict, lang: str) -> str:
    """How many hands (of how many planned) and when: ``4 of 4 hands · 2026-11-30 20:01 – 22:15``."""
    played = len(data.get("hands", []))
    start = match.started_at.strftime("%Y-%m-%d %H:%M") if match.started_at else "?"
    end = match.ended_at.strftime("%H:%M" if match.started_at and match.started_at.date() == match.ended_at.date()
                                  else "%Y-%m-%d %H:%M") if match.ended_at else "?"
    if data.get("hands_planned"):
        return t("ui.standings_sub_planned", lang, played=played, planned=data["hands_planned"], start=start, end=end)
    return t("ui.standings_sub", lang, played=played, start=start, end=end)


def player_lines(data: dict, lang: str, game: Optional[GameFacts] = None) -> list[str]:
    """One line per player, best first: rank, name, total, hands won, best hand (with the
    game's own count: 番, 字牌's 胡息, 财神麻将's multiplier), biggest payment."""
    out = []
    for p in data.get("players", []):
        line = t("ui.standings_line", lang, rank=p["rank"], name=p["name"], total=signed(p["total"]),
                 wins=p["wins"], hands=p["hands"])
        extra = []
        best = p.get("best")
        if best is not None:
            key = "ui.standings_best_fan" if best.get("fan") else "ui.standings_best"
            extra.append(tv(game, key, lang, no=best["no"], points=signed(best["points"]), fan=best.get("fan")))
        paid = p.get("paid")
        if paid is not None:
            extra.append(t("ui.standings_paid", lang, no=paid["no"], points=paid["points"]))
        out.append(line + ("\n\u2003" + " · ".join(extra) if extra else ""))
    return out


def description(match: Any, data: dict, lang: str, game: Optional[GameFacts] = None, page: int = 0) -> str:
    """The text of the standings message (≤ 4,000 characters): subtitle, players, and what the
    replay menu of page ``page`` offers."""
    hands = data.get("hands", [])
    lines = [subtitle(match, data, lang), ""] + player_lines(data, lang, game)
    if hands:
        first = page * PAGE
        last = min(len(hands), first + PAGE)
        lines += ["", t("ui.standings_hands", lang, first=first + 1, last=last, total=len(hands))]
    return "\n".join(lines)[:4000]


def pages(data: dict) -> int:
    """How many replay menus the match's hands fill (at least 1)."""
    return max(1, -(-len(data.get("hands", [])) // PAGE))


def hand_option(h: dict, lang: str) -> tuple[str, str]:
    """``(label, description)`` of a hand in the replay menu: ``Hand 3 · #41`` and who won."""
    label = t("ui.standings_hand", lang, no=h["no"], hand=h["hand_id"])
    if h.get("winners"):
        desc = t("ui.standings_hand_win", lang, names=", ".join(h["winners"]))
    else:
        desc = t("ui.standings_hand_draw", lang)
    return label[:100], desc[:100]


def placeholder(lang: str) -> str:
    return t("ui.standings_pick", lang)


def alt_text(match: Any, data: dict, lang: str, game: Any) -> str:
    """The image's text alternative (≤ 256 characters): the game, the hands, the places."""
    places = ", ".join(t("ui.standings_place", lang, rank=p["rank"], name=p["name"], total=signed(p["total"]))
                       for p in data.get("players", []))
    text = t("ui.standings_alt", lang, game=game_name(game, lang), played=len(data.get("hands", [])),
             places=places)
    return text if len(text) <= 256 else text[:255] + "…"


def history_lines(matches: list, user_id: int, lang: str, games: Any) -> list[str]:
    """``/mj history``'s matches of a player: ``[(MatchRecord, standings)]``, newest first
    (``games``: game id → facts)."""
    out = []
    for m, data in matches:
        me = next((p for p in data.get("players", []) if p.get("user_id") == user_id and not p.get("is_ai")), None)
        if me is None:
            continue
        out.append(t("ui.history_match", lang, match=m.id, date=m.ended_at.strftime("%Y-%m-%d"),
                     game=game_name(games.get(m.variant), lang), rank=me["rank"], players=len(data["players"]),
                     total=signed(me["total"]), played=len(data.get("hands", []))))
    return out


def match_choice(match: Any, data: dict, lang: str, game: Any) -> str:
    """A match as ``/mj standings``' autocomplete offers it: ``M#12 · 2026-11-30 · 老三番 · 4
    hands · 1st: 小明 +120``."""
    first = (data.get("players") or [None])[0]
    return t("ui.standings_choice", lang, match=match.id, date=match.ended_at.strftime("%Y-%m-%d"),
             game=game_name(game, lang), played=len(data.get("hands", [])),
             name=first["name"] if first else "—", total=signed(first["total"]) if first else "0")[:100]


def history_title(lang: str) -> str:
    """The heading of ``/mj history``'s matches."""
    return t("ui.history_matches", lang)


def match_over(lang: str) -> str:
    return t("ui.match_over", lang)
