"""The words players type for an action, in every game: what each legal action is called, and
which action a typed text means.

A player may type what they read — the button's label in any of the bot's languages (``碰``,
``吃 顺(尾) 伍``, ``Pung``, ``买庄``, ``飘 1``), the game's term with the tiles or cards
(``吃 肆伍陆`` for a 字牌 吃 laid as 肆伍陆, ``打 五万``), the shared English verbs (``discard
5m``, ``pung``, ``chow 3m``) or a bare tile to discard (``5m``, ``五万``, and a 字牌 card as it is
shown: ``八`` small, ``捌`` big).  Used by the typed action command and the play verbs on
Discord and the local table through the table service's one reading of a typed move
(``service/interpret.py``: this module is its vocabulary); both read only the seat's view (``view["me"]["legal"]``: lines ``"<seat> <action> [<tile>]"``, and for 字牌
``view["me"]["chi_options"]``: each 吃's groups of cards).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from .catalogue import LANGUAGES, short_tile, t, tile_label, tv
from .prompts import SHARED_ACTIONS, button, own_action_key

#: the English verbs players type, and the actions they may mean (the first the game offers now)
VERBS = {"d": ("discard",), "discard": ("discard",), "ting": ("ting",), "chow": ("chow", "chi"),
         "chi": ("chi", "chow"), "pung": ("pung", "peng"), "peng": ("peng", "pung"), "kong": ("kong",),
         "gang": ("kong",), "hu": ("hu",), "win": ("hu",), "double": ("double",), "pass": ("pass",),
         "p": ("pass",)}
#: the Chinese verbs players type, and the actions they may mean
CHINESE_VERBS = {"打": ("discard",), "出": ("discard",), "打出": ("discard",), "听": ("ting",), "报听": ("ting",),
                 "吃": ("chow", "chi"), "碰": ("pung", "peng"), "杠": ("kong",), "胡": ("hu",), "和": ("hu",),
                 "加倍": ("double",), "过": ("pass",), "堆": ("dui",), "留": ("keep",)}


def _with_traditional(verbs: dict) -> dict:
    """The verbs and their Traditional forms (聽, 槓, 過 …), as zh-TW players type them."""
    from .catalogue import zh_tw

    out = dict(verbs)
    for word, meant in verbs.items():
        out.setdefault(zh_tw(word), meant)
    return out


CHINESE_VERBS = _with_traditional(CHINESE_VERBS)


class TypedActionError(Exception):
    """A typed text that names no legal action (``code="unknown_action"``, ``params["value"]``:
    what was typed, ``params["choices"]``: the legal actions' labels) or several
    (``code="ambiguous_action"``, ``params["choices"]``: the labels of those it could mean) —
    the codes of the error catalogue (``err.<code>``)."""

    def __init__(self, code: str, **params):
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class ActionChoice:
    """One legal action of a seat, as a player reads and types it.

    ``value``: the action without the seat (``"discard 5m"``, ``"chi_d 5X"``, ``"pung"``) — the
    typed action command's autocomplete value, itself accepted when typed; ``act``/``tile``: the
    action and its tile or card (tile notation) or ``None``; ``label``: its name in the
    player's language (what the autocomplete shows)."""

    value: str
    act: str
    tile: Optional[str]
    label: str
    forms: frozenset = field(default=frozenset(), compare=False, repr=False)
    #: the words for the action without its tile (a verb alone names it when it is the only one)
    verbs: frozenset = field(default=frozenset(), compare=False, repr=False)


def norm(text: str) -> str:
    """A typed or shown text compared loosely: NFKC (full-width brackets and digits become
    ASCII), no blanks, no ``·``, no wild mark after a tile (``8s(wild)`` is ``8s``)."""
    text = _MARKS.sub("", unicodedata.normalize("NFKC", text))
    return "".join(ch for ch in text if not ch.isspace() and ch not in "·・")


#: the marks the local table prints after a tile (``8s(wild)``, ``八条（百搭）``), typed back
_MARKS = re.compile(r"\((?:wild|百搭)\)")


def _langs() -> tuple[str, ...]:
    return tuple(dict.fromkeys(("zh-CN", "zh-TW", "en", *LANGUAGES)))


@lru_cache(maxsize=512)
def _tile_forms(tile: str) -> frozenset[str]:
    """Every way a tile or card is written: its notation and its names in every language
    (``5m``, ``五万``, ``五萬``; a 字牌 card ``8x`` as ``八``, ``8X`` as ``捌``)."""
    out = {tile}
    for lang in _langs():
        for f in (short_tile, tile_label):
            try:
                out.add(f(tile, lang))
            except ValueError:
                pass
    return frozenset(norm(x) for x in out if x)


@lru_cache(maxsize=1024)
def _verb_forms(act: str, game) -> frozenset[str]:
    """The words for an action without its tile: its id, the verbs that mean it, and its
    button's label (without tile) in every language."""
    out = {act}
    out.update(w for w, meant in VERBS.items() if _means(meant, act))
    out.update(w for w, meant in CHINESE_VERBS.items() if _means(meant, act))
    for lang in _langs():
        key = own_action_key(game, act) if act not in _SHARED_KEYS else _SHARED_KEYS[act]
        label = tv(game, key, lang, tile="", tiles="").strip()
        if not label.startswith("messages."):
            out.add(label)
            out.add(label.rstrip(".…").strip())  # 听… / 聽… without the ellipsis
    return frozenset(norm(x) for x in out if x)


#: catalogue keys of the shared actions' labels without a tile
_SHARED_KEYS = {"discard": "typed.discard_verb", "ting": "btn.ting", "kong": "btn.kong", "chow": "typed.chow_verb",
                "pung": "btn.pung", "hu": "btn.hu", "double": "btn.double", "pass": "btn.pass"}


def _means(meant: tuple[str, ...], act: str) -> bool:
    return any(act == m or act.startswith(m + "_") for m in meant)


def shared_verb(text: str) -> Optional[tuple[str, Optional[str]]]:
    """``(action, tile text or None)`` when ``text`` starts with a verb of the shared actions
    (``hu``, ``胡``, ``pung 5m``, ``碰``) — for the engine to say why it cannot be done now;
    ``None`` otherwise."""
    words = text.split()
    if not words:
        return None
    meant = VERBS.get(words[0].lower()) or CHINESE_VERBS.get(words[0])
    if not meant or meant[0] not in SHARED_ACTIONS:
        return None
    return meant[0], (" ".join(words[1:]) or None)


def verb_means(verb: str, act: str) -> bool:
    """Whether a typed verb (``pung``, ``chow``, ``碰`` …) may mean the game's action ``act``
    (``peng``, ``chi_d`` …); an unknown verb means only the action of that name."""
    meant = VERBS.get(verb.lower()) or CHINESE_VERBS.get(verb) or (verb,)
    return _means(meant, act)


@lru_cache(maxsize=1024)
def _group_forms(groups: tuple) -> frozenset[str]:
    """A 字牌 吃 written by its cards: the first group (with the taken card), and all groups,
    each in the order shown and sorted, in every language (``肆伍陆``)."""
    out = set()
    for lang in _langs():
        names = [[short_tile(c, lang) for c in g] for g in groups]
        first = names[0]
        out.update({"".join(first), "".join(sorted(first))})
        out.add("".join("".join(g) for g in names))
    return frozenset(norm(x) for x in out)


@lru_cache(maxsize=4096)
def _label(act: str, tile: Optional[str], game, lang: str, groups: Optional[tuple] = None) -> str:
    if act == "discard" and tile:
        return t("typed.discard", lang, tile=short_tile(tile, lang))
    if act == "ting" and tile:
        return t("typed.ting", lang, tile=short_tile(tile, lang))
    text = button(act, lang, game, tile)
    if groups:
        text += " — " + " ".join("".join(short_tile(c, lang) for c in g) for g in groups)
    return text


#: Chinese characters and full-width brackets, left out of a label's English words
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff（）]+")
#: the action that confirms the discard of a 百搭 (老五对's 打)
CONFIRM_WILD = "confirm"


def choices(view: dict, game, lang: str) -> list[ActionChoice]:
    """The seat's legal actions (``view``: the seat's view, ``me`` included; ``game``: the
    game's facts, ``engine.facts.GameFacts``), in the order the game lists them, each with its label in ``lang`` and every form that names it."""
    me = view.get("me") or {}
    groups_of = {o["action"].split(" ", 1)[1]: o.get("groups") or [] for o in me.get("chi_options") or []}
    out = []
    for line in me.get("legal") or []:
        parts = line.split()[1:]
        if not parts:
            continue
        act, tile = parts[0], (parts[1] if len(parts) > 1 else None)
        value = " ".join(parts)
        groups = tuple(tuple(g) for g in groups_of.get(value) or ()) or None
        verbs = _verb_forms(act, game)
        forms = {norm(value)} | {norm(_label(act, tile, game, lg, groups)) for lg in _langs()}
        forms |= {norm(_label(act, tile, game, lg)) for lg in _langs()}
        if tile is None:
            forms |= verbs
        else:
            tiles = _tile_forms(tile)
            forms |= {v + x for v in verbs for x in tiles}
            if act == "discard":
                forms |= tiles
            if groups:
                forms |= {v + g for v in verbs for g in _group_forms(groups)}
        # a label's words without its Chinese (No bet 不买 → No bet), as an English player types it
        forms |= {f for f in (norm(_CJK.sub("", _label(act, tile, game, lg, groups))) for lg in _langs())
                  if f and any(ch.isalpha() for ch in f)}
        if act == CONFIRM_WILD and me.get("confirming"):
            # the 百搭 being confirmed, typed again (or with the discard verb): 打 it
            shown = _tile_forms(me["confirming"])
            forms |= shown | {v + x for v in _verb_forms("discard", game) for x in shown}
        if act == "chow" and tile:  # the chow by its numbers, as its button reads: 吃 567
            from engine.tiles import parse_kind

            k = parse_kind(tile)
            digits = "".join(str((k + i) % 9 + 1) for i in range(3))
            forms |= {v + digits for v in verbs} | {v + digits + tile[-1] for v in verbs}
        out.append(ActionChoice(value, act, tile, _label(act, tile, game, lang, groups), frozenset(forms),
                                frozenset(verbs)))
    return out


def parse(text: str, view: dict, game, lang: str) -> ActionChoice:
    """The legal action a typed ``text`` names (see the module docstring).

    Exact forms first (case kept: a 字牌 ``5x`` small card is not ``5X``), then ignoring case;
    a verb alone (``吃``, ``pung``) names the only legal action of that verb.

    :raises TypedActionError: ``unknown_action`` when it names none, ``ambiguous_action``
        when it names several (e.g. ``吃`` with two ways to 吃)."""
    opts = choices(view, game, lang)
    typed = norm(text)
    if typed:
        for loose in (False, True):
            # ignoring case never turns a small 字牌 card (7x) into a big one (7X): their
            # notations differ only by case
            if loose:
                hits = [c for c in opts if _case_safe(c.tile, typed)
                        and any(f.casefold() == typed.casefold() for f in c.forms)]
            else:
                hits = [c for c in opts if typed in c.forms]
            if len(hits) == 1:
                return hits[0]
            if hits:
                raise TypedActionError("ambiguous_action", choices=", ".join(c.label for c in hits[:10]))
        # a verb alone (吃, chow) for an action with a tile: the only one of that verb
        hits = [c for c in opts if c.tile is not None and c.act != "discard"
                and any(f.casefold() == typed.casefold() for f in c.verbs)]
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise TypedActionError("ambiguous_action", choices=", ".join(c.label for c in hits[:10]))
    raise TypedActionError("unknown_action", value=text.strip(),
                           choices=", ".join(c.label for c in opts[:10]) or "—")


_CARD = re.compile(r"\d+[xX]")


def _case_safe(tile: Optional[str], typed: str) -> bool:
    """Whether ignoring case may match ``typed`` to an action on ``tile``: always, but for a
    字牌 card (``7x`` small, ``7X`` big, differing only by case) named in the typed text by
    another notation than its own."""
    if not tile or tile[-1] not in "xX":
        return True
    return tile in typed or not _CARD.search(typed)


def suggest(text: str, view: dict, game, lang: str, limit: int = 25) -> list[ActionChoice]:
    """At most ``limit`` legal actions matching what is typed so far (autocomplete): those
    whose label or a form contains it (ignoring case and blanks); all of them for an empty
    text."""
    typed = norm(text).casefold()
    out = []
    for c in choices(view, game, lang):
        if not typed or typed in norm(c.label).casefold() or any(typed in f.casefold() for f in c.forms):
            out.append(c)
    return out[:limit]
