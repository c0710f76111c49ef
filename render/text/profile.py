"""The words of a player's profile (``/mj profile``): the facts the card draws
(``render/profile.py``) and the same facts as plain sentences for screen readers
(:func:`profile_text`), catalogue section ``profile``.

The profile is taken as given (``service.profile.Profile`` and the ``service.rates`` values in
it, read by their attributes), so this module imports nothing of the service."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from .catalogue import game_name, t, tv
from .dan import progress, rank_name
from .results import count_title

#: Discord's limit on a message's text
MESSAGE_LIMIT = 2000
NONE = "—"


@dataclass(frozen=True)
class Fact:
    """One number of the card: ``key`` (``"wins"``: the catalogue key ``profile.<key>``),
    ``label`` (its words), ``value`` (``"23.1%"``, ``"52"``, ``"24.5"``, ``—`` with nothing to
    count) and ``detail`` (``"12/52"`` for a rate, ``""`` otherwise)."""

    key: str
    label: str
    value: str
    detail: str = ""


def percent(rate: Any) -> str:
    """A ``Rate``'s value as a percentage with one decimal (``"23.1%"``), ``—`` when ``of`` is 0."""
    return NONE if rate is None or rate.value is None else f"{rate.value * 100:.1f}%"


def mean(m: Any, digits: int = 1) -> str:
    """A ``Mean``'s value with ``digits`` decimals, ``—`` when ``of`` is 0."""
    return NONE if m.value is None else f"{m.value:.{digits}f}"


def signed(n: int) -> str:
    """``+120``, ``−8`` (a minus sign), ``0``."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def place_name(place: int, lang: str) -> str:
    """``1st`` / ``1位`` (``#5`` past the fourth place)."""
    text = t(f"profile.place.{place}", lang)
    return f"#{place}" if text.startswith("messages.") else text


def _rate(key: str, rate: Any, lang: str) -> Fact:
    if rate is None:  # a game without claims
        return Fact(key, t(f"profile.{key}", lang), NONE)
    return Fact(key, t(f"profile.{key}", lang), percent(rate), f"{rate.count}/{rate.of}" if rate.of else "")


def count_text(profile: Any, lang: str) -> Optional[str]:
    """The game's own count per win in its words (``16.5 胡息``, ``8.0 对``), ``None`` when the
    game keeps none or no win had one."""
    r = profile.rates
    if r.count_name is None or r.count_per_win.value is None:
        return None
    return count_title({"count": {"name": r.count_name, "value": mean(r.count_per_win)}}, lang, profile.game)


def facts(profile: Any, lang: str) -> list[Fact]:
    """The card's numbers in order: hands played, the five rates (和了率, 放铳率, 自摸率,
    副露率, 流局率), the average win and deal-in values (points), the count per win where the
    game keeps one, the average place and the first-place rate."""
    r = profile.rates
    out = [Fact("hands", t("profile.hands", lang), str(r.hands))]
    out += [_rate(k, getattr(r, k), lang) for k in ("wins", "deal_ins", "self_drawn", "calls", "draws")]
    out.append(Fact("win_value", t("profile.win_value", lang), mean(r.win_value)))
    out.append(Fact("deal_in_value", t("profile.deal_in_value", lang), mean(r.deal_in_value)))
    count = count_text(profile, lang)
    if count is not None:
        out.append(Fact("count_per_win", t("profile.count_per_win", lang), count))
    p = r.placements
    out.append(Fact("average", t("profile.average", lang), mean(p.average, 2), str(p.units) if p.units else ""))
    out.append(_rate("first", p.first, lang))
    return out


def dan_words(profile: Any, lang: str) -> tuple[str, str, Optional[str]]:
    """``(rank name, points, toward the next rank)``: ``("二段", "640/800 pt", "距三段还差 160
    pt")``; on the top rank ``("十段", "2350 pt", None)``."""
    ladder, state = profile.ladder, profile.dan
    rank = ladder.ranks[state.rank]
    name = rank_name(ladder, state.rank, lang)
    if rank.promote is None:
        return name, f"{state.points} pt", None
    nxt = rank_name(ladder, state.rank + 1, lang)
    return name, f"{state.points}/{rank.promote} pt", t("profile.to_next", lang, left=rank.promote - state.points,
                                                          next=nxt)


def best_words(profile: Any, lang: str) -> list[str]:
    """The best hands: ``#1234 +120（8番）`` (the game's own count: 番, 字牌's 胡息, 财神麻将's ×),
    best first; ``#id`` is what ``/mj replay`` takes."""
    out = []
    for b in profile.best:
        text = t("profile.best_hand", lang, id=b.hand_id, points=signed(b.points))
        if b.fan:
            text += t("profile.best_fan", lang, fan=tv(profile.game, "img.fan", lang, n=b.fan))
        out.append(text)
    return out


def special_words(profile: Any, lang: str) -> list[str]:
    """Each special hand won (财神麻将's): ``字清 ×2`` in the game's words."""
    out = []
    for kind, n in profile.rates.specials:
        name = tv(profile.game, f"fan.{kind}", lang)
        out.append(t("profile.special", lang, name=kind if name.startswith("messages.") else name, n=n))
    return out


def place_shares(profile: Any, lang: str) -> list[str]:
    """``1st 31.0%`` for each place of the distribution."""
    return [t("profile.place_share", lang, place=place_name(i + 1, lang), value=percent(d))
            for i, d in enumerate(profile.rates.placements.distribution)]


def one_line(name: str) -> str:
    """A player's name on one line: control characters and runs of blanks made one space."""
    return " ".join("".join(c if c.isprintable() else " " for c in str(name)).split())


def profile_text(profile: Any, lang: str, shown: Callable[[str], str] = str) -> str:
    """The profile as plain lines, the card's facts in the same order (its text alternative,
    at most :data:`MESSAGE_LIMIT` = 2000 characters).

    :param profile: a ``service.profile.Profile``.
    :param lang: a catalogue language (``en``, ``zh-CN``, ``zh-TW``).
    :param shown: how the player's name is shown: the name as typed by default — Discord's
        caller passes ``cogs.markup.shown`` so that markdown and mentions in it read as
        typed.  Nothing else in the text comes from a user.
    """
    r = profile.rates
    game = t("profile.period", lang, game=game_name(profile.game, lang), period=t(f"ui.period_{profile.period}", lang))
    lines = [t("profile.title", lang, name=shown(one_line(profile.name)), game=game)]
    rank, points, to_next = dan_words(profile, lang)
    lines.append(t("profile.dan_line", lang, progress=progress(profile.ladder, profile.dan, lang))
                 + (f" · {to_next}" if to_next else ""))
    if profile.rating is None:
        lines.append(t("profile.unrated_line", lang))
    else:
        lines.append(t("profile.rating_line", lang, rating=profile.rating, mu=f"{profile.mu:.2f}",
                       sigma=f"{profile.sigma:.2f}", units=profile.units))
    for f in facts(profile, lang):
        if f.key == "hands":
            lines.append(t("profile.hands_line", lang, n=f.value))
        elif f.key in ("win_value", "deal_in_value"):
            key = "profile.no_value_line" if f.value == NONE else "profile.value_line"
            lines.append(t(key, lang, label=f.label, value=f.value))
        elif f.key == "count_per_win":
            lines.append(t("profile.count_line", lang, label=f.label, count=f.value, of=r.count_per_win.of))
        elif f.key == "average":
            key = "profile.no_value_line" if f.value == NONE else "profile.average_line"
            lines.append(t(key, lang, label=f.label, value=f.value, units=r.placements.units))
        elif f.detail:
            count, of = f.detail.split("/")
            lines.append(t("profile.rate_line", lang, label=f.label, value=f.value, count=count, of=of))
        else:
            lines.append(t("profile.no_value_line", lang, label=f.label))
    if r.placements.units:
        lines.append(t("profile.places_line", lang, places=" · ".join(place_shares(profile, lang))))
    if profile.recent:
        places = " ".join(t("profile.recent_place", lang, place=p, players=n) for p, n in profile.recent)
        lines.append(t("profile.recent_line", lang, n=len(profile.recent), places=places))
    else:
        lines.append(t("profile.recent_none", lang))
    best = best_words(profile, lang)
    sep = t("profile.list_sep", lang)
    lines.append(t("profile.best_line", lang, hands=sep.join(best)) if best else t("profile.best_none", lang))
    specials = special_words(profile, lang)
    if specials:
        lines.append(t("profile.specials_line", lang, specials=sep.join(specials)))
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT - 1] + "…"


__all__ = ["Fact", "MESSAGE_LIMIT", "best_words", "count_text", "dan_words", "facts", "mean", "one_line", "percent",
           "place_name", "place_shares", "profile_text", "signed", "special_words"]
