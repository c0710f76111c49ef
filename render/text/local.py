"""The words of the local table (the terminal), and the words players type there."""

from __future__ import annotations

from . import typed
from .catalogue import lang_of, t, tile_label
from .results import result_lines

#: what a player types for the shared actions (``render.text.typed`` reads every game's)
VERBS = {"d": "discard", "discard": "discard", "ting": "ting", "chow": "chow", "pung": "pung", "kong": "kong",
         "hu": "hu", "double": "double", "pass": "pass", "p": "pass"}
CHINESE_VERBS = typed.CHINESE_VERBS
#: words that leave or ask for help
QUIT_WORDS = ("quit", "q", "exit")
HELP_WORDS = ("help", "?", "帮助")


def _zh(lang: str) -> bool:
    return lang_of(lang).startswith("zh")


def tiles(kinds: list[str], lang: str) -> str:
    """Tiles in a line: ``五万 白板`` in Chinese, ``5m 5z`` in English."""
    return " ".join(tile_label(x, lang) if _zh(lang) else x for x in kinds)


def notice(key: str, tile: str | None, lang: str) -> str:
    """A notice about your own move (catalogue ``key``, e.g. the ignored 听), naming ``tile``
    (tile notation) or ``?`` when the move had none."""
    return t(key, lang, tile=tile_label(tile, lang) if tile else "?")


def help_text(lang: str) -> str:
    return t("local.help", lang)


def goodbye(lang: str) -> str:
    return t("local.goodbye", lang)


def error(text: str, lang: str) -> str:
    """A start-up error line."""
    return t("local.error", lang, text=text)


def players(info, lang: str) -> str:
    """``<game> is played by 2–4 players.``"""
    lo, hi = info.min_players, info.max_players
    n = str(lo) if lo == hi else f"{lo}–{hi}"
    return t("local.players", lang, game=info.name_zh if _zh(lang) else info.name_en, n=n)


def cannot_write_images(path, reason: str, lang: str) -> str:
    return t("local.cannot_write_images", lang, path=path, reason=reason)


def cannot_open_db(url: str, reason: str, lang: str) -> str:
    return t("local.cannot_open_db", lang, url=url, reason=reason)


def you(lang: str) -> str:
    """Your name at the local table."""
    return t("local.you", lang)


def opening(info, seed: int, out, lang: str) -> str:
    return t("local.opening", lang, game=f"{info.name_zh} {info.name_en}", seed=seed, out=out)


def hand_lines(me: dict, choosing: bool, lang: str) -> list[str]:
    """Your hand, your waits, and what you may do now (``me``: your part of the view;
    ``choosing``: a claim or another decision than a discard of your own)."""
    line = t("local.hand", lang, tiles=tiles(me["hand"], lang))
    if me.get("drawn"):
        line += t("local.drawn", lang, tile=tiles([me["drawn"]], lang))
    out = [line]
    if me.get("waits"):
        out.append(t("local.waits", lang, waits=", ".join(
            t("local.wait_item", lang, tile=w["tile"], fan=w.get("fan", "?")) for w in me["waits"])))
    legal = me.get("legal") or []
    if choosing:
        out.append(t("local.you_may", lang, actions=", ".join(a.split(" ", 1)[1] for a in legal)))
    else:
        extra = sorted({a.split()[1] for a in legal} - {"discard"})
        out.append(t("local.discard", lang) + (t("local.also", lang, actions=", ".join(extra)) if extra else ""))
    return out


def hint_lines(me: dict, lang: str) -> list[str]:
    """For each discard that leaves a ready hand: its waits, their fan and copies left."""
    hints = me.get("hint") or []
    if not hints:
        return [t("local.no_hint", lang)]
    return [f"{h['discard']}: " + ", ".join(t("local.hint_item", lang, tile=w["tile"], fan=w.get("fan", "?"),
                                                left=w.get("left", "?")) for w in h["waits"]) for h in hints]


def unknown_tile_hint(lang: str) -> str:
    return t("local.unknown_tile_hint", lang)


def hand_over(no: int, lang: str) -> str:
    return t("ui.hand_over_title", lang, no=no)


def totals(lang: str) -> str:
    return t("local.totals", lang)


def settlement(result: dict, names: list[str], lang: str, variant: str | None = None) -> str:
    """The settlement of a hand as plain text lines: every winner and how they won, the fans,
    the summary and multipliers, who is liable, the points (the same words as on Discord)."""
    lines = result_lines(result, names, lang, variant, markdown=False)
    return "\n".join(lines[:1] + ["    " + x for x in lines[1:]])
