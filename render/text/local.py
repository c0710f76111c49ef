"""The words of the local table (the terminal), and the words players type there."""

from __future__ import annotations

import unicodedata
from typing import Optional

from engine.facts import GameFacts

from . import typed
from .catalogue import lang_of, short_tile, t, tile_label, tv
from .prompts import can_win, explanations, wait_text
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
    return " ".join(short_tile(x, lang) if _zh(lang) else x for x in kinds)


def notice(key: str, tile: str | None, lang: str) -> str:
    """A notice about your own move (catalogue ``key``, e.g. the ignored 听), naming ``tile``
    (tile notation) or ``?`` when the move had none."""
    return t(key, lang, tile=tile_label(tile, lang) if tile else "?")


def help_text(lang: str, game: Optional[GameFacts] = None) -> str:
    """How to type at the local table: the game's own words when it has them, else the
    mahjong games' shared ones."""
    return tv(game, "local.help", lang)


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


def next_hand_prompt(lang: str) -> str:
    """What the local table asks after a hand's result."""
    return t("local.next_hand_prompt", lang)


def you(lang: str) -> str:
    """Your name at the local table."""
    return t("local.you", lang)


def opening(info, seed: int, out, lang: str) -> str:
    return t("local.opening", lang, game=f"{info.name_zh} {info.name_en}", seed=seed, out=out)


def _hand_tiles(kinds: list[str], wild: set[str], lang: str) -> str:
    """Tiles in a line as shown (``五万``/``5m``, a 字牌 card as ``八``/``捌``), wild tiles
    marked (百搭)."""
    return " ".join(tiles([x], lang) + (t("local.wild_mark", lang) if x in wild else "") for x in kinds)


def _meld_text(meld: dict, lang: str) -> str:
    return "[" + "".join(short_tile(x, lang) if x else "▯" for x in meld.get("tiles") or []) + "]"


def _cols(text: str) -> int:
    """Columns ``text`` takes in a terminal (a wide CJK character takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _fit(prefix: str, tokens: list[str], width: int) -> str:
    """``prefix`` and the last of ``tokens`` that fit in ``width`` columns (``…`` before them
    when some are left out)."""
    kept: list[str] = []
    room = width - _cols(prefix)
    for tok in reversed(tokens):
        need = _cols(tok) + 1
        if need > room - (2 if len(kept) + 1 < len(tokens) else 0):
            return prefix + "… " + " ".join(reversed(kept)) if kept else prefix + "…"
        kept.append(tok)
        room -= need
    return prefix + " ".join(reversed(kept))


def table_lines(view: dict, game, lang: str, width: int = 80) -> list[str]:
    """The table as a terminal shows it, every line within ``width`` columns: the wall and the
    game's marked tiles (宝牌, the wild tiles, 贼), then each seat — ``▶`` on the seat to play,
    its name, score and melds, then its pond (the latest tiles that fit; a tile another seat
    took in parentheses, a wild or marked one starred)."""
    wild = set((view.get("wild") or {}).get("kinds") or [])
    marked = view.get("marked") or {}
    starred = wild | set(marked.get("kinds") or [])
    head = [t("local.table_wall", lang, n=view.get("wall_remaining", 0))]
    if view.get("treasure"):
        head.append(t("local.table_treasure", lang, tile=short_tile(view["treasure"], lang)))
    if wild:
        head.append(t("local.table_wild", lang, tiles=" ".join(short_tile(k, lang) for k in sorted(wild))))
    if marked.get("kinds"):
        head.append(f"{marked.get('label', '')}: " + " ".join(short_tile(k, lang) for k in marked["kinds"]))
    out = [_fit("── ", head, width) if _cols("── " + " · ".join(head)) > width else "── " + " · ".join(head)]
    turn = view.get("turn") if view.get("phase") == "discard" else None  # not while all choose (飘, 买庄)
    for sv in view.get("seats") or []:
        name = str(sv.get("name") or "?")
        while _cols(name) > 12:
            name = name[:-1]
        lead = ("▶ " if sv.get("seat") == turn else "  ") + name + (" " + t("local.table_dealer", lang) if sv.get("is_dealer") else "")
        melds = [_meld_text(m, lang) for m in sv.get("melds") or []]
        out.append(_fit(f"{lead} {int(sv.get('score') or 0):+d}  ", melds, width) if melds else
                   f"{lead} {int(sv.get('score') or 0):+d}")
        taken = set(sv.get("claimed_discards") or [])
        pond = [(f"({tiles([x], lang)})" if i in taken else tiles([x], lang)) + ("*" if x in starred else "")
                for i, x in enumerate(sv.get("discards") or [])]
        if pond:
            out.append(_fit("     ", pond, width))
    return out


def hand_lines(view: dict, game, lang: str) -> list[str]:
    """Your hand (wild tiles marked), your melds, your waits with their value in the game's
    unit, a sentence on each of the game's own choices or rules that bear on your decision
    (:func:`prompts.explanations`), and what you may do now in the game's own words (``view``: your seat's view) — a
    discard, or the choice of a claim or an opening (买庄, 飘) by its name."""
    me = view.get("me") or {}
    wild = set((view.get("wild") or {}).get("kinds") or [])
    if me.get("hand") or me.get("drawn") or view.get("phase") == "over":
        line = t("local.hand", lang, tiles=_hand_tiles(me.get("hand") or [], wild, lang))
    else:  # dealt face down until every seat has chosen (字牌's 飘)
        line = t("local.hand_hidden", lang)
    if me.get("drawn"):
        line += t("local.drawn", lang, tile=_hand_tiles([me["drawn"]], wild, lang))
    out = [line]
    if me.get("confirming"):  # a 百搭 to let go: 打 it or 留 it
        out.append(tv(game, "ui.confirm_wild", lang, tile=tile_label(me["confirming"], lang)))
    seat = me.get("seat", view.get("viewer"))
    mine = next((sv for sv in view.get("seats") or [] if sv.get("seat") == seat), {})
    if mine.get("melds"):
        out.append(t("local.melds", lang, melds=" ".join(_meld_text(m, lang) for m in mine["melds"])))
    if me.get("waits"):
        out.append(t("local.waits", lang, waits=", ".join(wait_text(w, lang, game) for w in me["waits"])))
    out.extend(explanations(view, game, lang))
    opts = typed.choices(view, game, lang)
    if any(c.act == "discard" for c in opts):
        # a 听 none of whose waits can win is offered all the same, marked ✗ (hint says why)
        hopeless = {h["discard"] for h in me.get("hint") or () if not any(can_win(w) for w in h["waits"])}
        extra = [c.label + (" ✗" if c.act == "ting" and c.tile in hopeless else "")
                 for c in opts if c.act not in ("discard",)]
        out.append(t("local.discard", lang) + (t("local.also", lang, actions=", ".join(extra)) if extra else ""))
    elif view.get("phase") not in ("discard", "claim", "rob") and not view.get("last_discard"):
        out.append(t("local.your_opening", lang, actions=", ".join(c.label for c in opts)))
    else:
        out.append(t("local.you_may", lang, actions=", ".join(c.label for c in opts)))
    return out


def hint_lines(me: dict, lang: str, game: Optional[GameFacts] = None) -> list[str]:
    """For each discard that leaves a ready hand: its waits, their value and copies left, and
    why a wait cannot win; a discard none of whose waits can win is marked ✗."""
    hints = me.get("hint") or []
    if not hints:
        return [t("local.no_hint", lang)]
    return [t("ui.hint_assumes", lang)] + [
        ("" if any(can_win(w) for w in h["waits"]) else "✗ ") + f"{short_tile(h['discard'], lang)}: "
        + ", ".join(wait_text(w, lang, game) for w in h["waits"]) for h in hints]


def help_lines(view: dict, game, lang: str) -> list[str]:
    """``help``: how to type (the shared words), and this game's actions now, by name
    (``game``: the game's facts)."""
    out = [help_text(lang, game)]
    opts = typed.choices(view, game, lang)
    own = [c.label for c in opts if c.act != "discard"]
    if own:
        out.append(t("local.help_game", lang, actions=", ".join(own)))
    own_help = tv(game, "local.help_game_rules", lang)
    if not own_help.startswith(("messages.", "local.")):
        out.append(own_help)
    return out


def unknown_tile_hint(lang: str) -> str:
    return t("local.unknown_tile_hint", lang)


def hand_over(no: int, lang: str) -> str:
    return t("ui.hand_over_title", lang, no=no)


def totals(lang: str) -> str:
    return t("local.totals", lang)


def winning_hands(view: dict, result: dict, names: list[str], lang: str) -> list[str]:
    """Each winner's tiles once the hand is over (``view``: the public view, every hand face
    up): the concealed tiles, the melds in brackets and the winning tile — ``alice: 1m 2m 3m …
    [5p5p5p] + 9m``."""
    from engine.outcome import outcome

    seats = {sv.get("seat"): sv for sv in view.get("seats") or []}
    out = []
    for w in outcome(result)["wins"]:
        sv = seats.get(w["seat"]) or {}
        tiles = list(sv.get("concealed") or [])
        apart = sv.get("drawn")  # a self-drawn tile is held apart already
        if apart is None and w.get("tile"):
            apart = w["tile"]
            if apart in tiles:
                tiles.remove(apart)  # a claimed winning tile joined the hand: shown apart
        melds = " ".join(_meld_text(m, lang) for m in sv.get("melds") or [])
        line = " ".join(short_tile(x, lang) for x in tiles) + (f" {melds}" if melds else "")
        if apart:
            line += f" + {short_tile(apart, lang)}"
        name = names[w["seat"]] if w["seat"] < len(names) else str(w["seat"])
        out.append(t("local.winning_hand", lang, name=name, tiles=line.strip()))
    return out


def settlement(result: dict, names: list[str], lang: str, game: Optional[GameFacts] = None) -> str:
    """The settlement of a hand as plain text lines: every winner and how they won, the fans,
    the summary and multipliers, who is liable, the points (the same words as on Discord)."""
    lines = result_lines(result, names, lang, game, markdown=False)
    return "\n".join(lines[:1] + ["    " + x for x in lines[1:]])
