"""Localized text: the shared message catalogues in ``data/i18n`` (one JSON file per
language) and each game's own words in its package (``<id>.<lang>.json`` in the folder its
facts name, ``GameFacts.words_dir``), read with the ``i18nice`` library (the maintained
successor of ``python-i18n``, same API).

Discord locales map to the catalogues: ``zh-CN`` → Simplified Chinese, ``zh-TW`` →
Traditional Chinese when that catalogue exists (else Simplified), anything else →
English.  Keys are dotted: ``err.not_your_turn``, ``btn.pung``, ``ev.discard``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable

import i18n as _i18n

from engine.facts import GameFacts
from engine.tiles import kind_name, parse_kind

CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "data" / "i18n"
LANGUAGES = tuple(sorted(p.name.split(".")[1] for p in CATALOGUE_DIR.glob("messages.*.json")))

_i18n.load_path.append(str(CATALOGUE_DIR))
_i18n.set("file_format", "json")
_i18n.set("filename_format", "{namespace}.{locale}.{format}")
_i18n.set("fallback", "en")
_i18n.set("skip_locale_root_data", False)
_i18n.set("enable_memoization", True)
_i18n.set("on_missing_translation", None)  # a missing key reads as the key itself


def lang_of(locale: object | None) -> str:
    """Catalogue language for a Discord locale (``discord.Locale`` or its string)."""
    code = str(getattr(locale, "value", locale) or "en")
    if code.startswith("zh"):
        if code in ("zh-TW", "zh-HK") and "zh-TW" in LANGUAGES:
            return "zh-TW"
        return "zh-CN"
    return "en"


def t(key: str, lang: str | None = "en", **params) -> str:
    """The text of ``key`` in ``lang`` with ``%{name}`` placeholders filled."""
    return _i18n.t("messages." + key, locale=lang_of(lang), **params)


#: game id -> the folder of its words, once put on the catalogues' load path
_WORD_DIRS: dict[str, str] = {}


@lru_cache(maxsize=None)
def _own_words(game_id: str, words_dir: str) -> bool:
    """Whether the game says things in its own words (``<id>.en.json`` in ``words_dir``); its
    folder is put on the load path the first time."""
    if not (Path(words_dir) / f"{game_id}.en.json").is_file():
        return False
    if _WORD_DIRS.get(game_id) != words_dir:
        _i18n.load_path.append(words_dir)
        _WORD_DIRS[game_id] = words_dir
    return True


def tv(game: GameFacts | None, key: str, lang: str | None = "en", /, **params) -> str:
    """``key`` in the game's own words (``game``: its facts; the namespace is its id) when it
    has them, else in the shared catalogue (positional-only, so a message may have a
    ``%{game}`` placeholder)."""
    if game is not None and game.words_dir and _own_words(game.id, game.words_dir):
        text = _i18n.t(f"{game.id}.{key}", locale=lang_of(lang), **params)
        if not text.startswith(f"{game.id}."):
            return text
    return t(key, lang, **params)


def tile_label(tile: str, lang: str | None) -> str:
    """``"5m"`` → ``"五万"`` (Chinese; ``五萬`` in zh-TW) or ``"5m"`` shown with its English name."""
    kind = parse_kind(tile)
    if lang_of(lang).startswith("zh"):
        return pick(kind_name(kind, "zh"), "", lang)
    return f"{tile} ({kind_name(kind, 'en')})"


#: parameters of refusals that may hold what a user typed (quoted back short and sanitized)
USER_TEXT_PARAMS = ("tile", "option", "value", "preset", "variant", "setting", "name")
QUOTE_LIMIT = 24


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """A short piece of what a user typed, to quote back in a reply: control characters and
    runs of spaces collapsed, at most ``limit`` characters (then ``…``).  Shown as typed: a
    front end that renders markup escapes it (:func:`error_text`'s ``shown``)."""
    s = " ".join(str(text).split())
    if len(s) > limit:
        s = s[:limit].rstrip() + "…"
    return s


def error_text(code: str, lang: str | None, params: dict | None = None, game: GameFacts | None = None,
               shown: Callable[[str], str] = str) -> str:
    """The user-facing text of a ``ServiceError``/``IllegalAction`` code (the game's own words
    first, for codes only that game has): key ``err.<code>``, or the code itself when it has a
    prefix of its own (``seatview.not_yours``).  A tile parameter is shown by its name; anything a
    user typed or chose as a name (:data:`USER_TEXT_PARAMS`) is quoted short (:func:`quote`)
    and passed through ``shown`` — Discord's escaping of markdown and mentions
    (``cogs/markup.py``); as it is at a terminal."""
    p = dict(params or {})
    for k in USER_TEXT_PARAMS:
        if k in p and isinstance(p[k], str) and p[k] not in ("?",):
            if k == "tile":
                try:
                    p[k] = tile_label(p[k], lang)
                    continue
                except ValueError:
                    pass
            p[k] = shown(quote(p[k]))
    if "claim" in p:  # the game's own button name (堆, 碰 …), else the shared one, else the word
        name = tv(game, f"btn.{p['claim']}", lang, tiles="", tile="").strip()
        p["claim"] = p["claim"] if name.startswith("messages.") else name
    key = code if "." in code else f"err.{code}"  # a code of its own prefix (``seatview.…``) is its key
    text = tv(game, key, lang, **p)
    if text == f"messages.{key}":
        return t("err.internal", lang)
    return text


def short_tile(tile: str, lang: str | None) -> str:
    """A tile on a button: ``五万`` in Chinese (``五萬`` in zh-TW), ``5m`` in English."""
    return pick(kind_name(parse_kind(tile), "zh"), tile, lang)


def game_name(game, lang: str | None) -> str:
    """A game's display name in ``lang`` (``二人麻将``, ``Two-player mahjong (二人麻将)``) from
    its facts (``engine.facts.GameFacts``); ``?`` without them."""
    if game is None:
        return "?"
    return pick(game.name_zh, f"{game.name_en} ({game.name_zh})", lang)


@lru_cache(maxsize=1)
def _traditional():
    import opencc

    return opencc.OpenCC("s2twp")


@lru_cache(maxsize=8192)
def zh_tw(text: str) -> str:
    """Simplified Chinese → Traditional (Taiwan phrasing, OpenCC ``s2twp``): for the words the
    games themselves carry (tile, fan and option names), which the catalogues do not hold."""
    return _traditional().convert(text)


def pick(zh: str, en: str, lang: str | None) -> str:
    """The games' own words in ``lang``: their Simplified ``zh`` (converted for zh-TW) or
    their ``en``."""
    code = lang_of(lang)
    if code == "en":
        return en
    return zh_tw(zh) if code == "zh-TW" else zh
