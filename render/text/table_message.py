"""The words of the public table message (one per table, edited in place), from the public
part of a table's snapshot only (``service/snapshot.py``); ``game``: the game's facts
(``engine.facts.GameFacts``)."""

from __future__ import annotations

from typing import Optional

from .catalogue import game_name, pick, t, tile_label
from .results import result_lines


def title(view: dict, game, lang: str) -> str:
    """``<game> — table open`` in the lobby, else ``<game> — hand <n>`` (``hand <n> of <m>`` in a
    match of ``view["match_hands"]`` hands)."""
    name = game_name(game, lang)
    if view.get("status") == "lobby":
        return t("ui.lobby_title", lang, game=name)
    if view.get("match_hands"):
        return t("ui.hand_title_of", lang, game=name, no=max(view.get("hand_no") or 1, 1), total=view["match_hands"])
    return t("ui.hand_title", lang, game=name, no=max(view.get("hand_no") or 1, 1))


def option_value_text(opt, value, lang: str) -> str:
    """An option's value in words: on/off in ``lang``, a named choice by its name
    (``form.val__<option>__<value>``: ``么半三``, ``三家都付``), else the value as typed."""
    if opt.type is bool:
        return t("ui.option_on" if value else "ui.option_off", lang)
    key = f"form.val__{opt.name}__{value}"
    text = t(key, lang)
    return str(value) if text.endswith(key) else text


def option_lines(game, options: Optional[dict], lang: str) -> list[str]:
    """The table's options that differ from the game's defaults, one line each in the order
    the game declares them: ``· 起胡番数（含加倍、宝牌）：8（默认 15）`` (the option's own
    description, the value, the default)."""
    declared = game.options if game is not None else ()
    return [t("ui.lobby_option", lang, option=pick(o.zh, o.en, lang), value=option_value_text(o, options[o.name], lang),
              default=option_value_text(o, o.default, lang))
            for o in declared if o.name in (options or {}) and options[o.name] != o.default]


def body(view: dict, game, lang: str, *, max_players: int, result: Optional[dict] = None,
         hand_id: Optional[int] = None, result_timeout: int = 30, options: Optional[dict] = None,
         match_over: bool = False) -> str:
    """The message text: the lobby's players, the AI seats' levels and the table's options
    that differ from the game's defaults (``options``: the table's); during a hand whose turn
    it is (never during a claim window), the wall, the 宝牌, the wall commitment; after it the
    result in words, the revealed seed and when the next hand comes (``match_over``: that the
    match is over and its standings follow); the seats on auto-play, the AI seats' levels,
    and — when the view names an ``auto_play_ai`` level (the table option is on) — that
    auto-play is played by the AI at that level; the last log lines
    (``view["log"]``)."""
    seats = view.get("seats") or []
    names = [str(s.get("name", "?")) for s in seats]
    levels = ai_levels_line(seats, lang)
    if view.get("status") == "lobby":
        text = t("ui.lobby_desc", lang, n=len(names), max=max_players, players=", ".join(names) or "—")
        if levels:
            text += "\n" + levels
        changed = option_lines(game, options, lang)
        if changed:
            text += "\n" + "\n".join([t("ui.lobby_options", lang)] + changed)
        return text[:4000]
    lines = []
    running = view.get("phase") not in (None, "lobby", "between", "over")
    if running:
        if view.get("turn") is not None and view["turn"] < len(names):
            lines.append(t("ui.turn", lang, name=names[view["turn"]]))
        lines.append(t("ui.wall", lang, n=view.get("wall_remaining", 0)))
        if view.get("treasure"):
            lines.append(t("ui.treasure", lang, tile=tile_label(view["treasure"], lang)))
        if view.get("seed_hash"):
            lines.append(t("ui.seed_hash", lang, hash=view["seed_hash"][:16]))
    elif result is not None:
        lines.extend(result_lines(result, list(result.get("names") or names), lang, game))
        if hand_id is not None and "seed" in result:
            lines.append(t("ui.seed_reveal", lang, seed=result["seed"], id=hand_id))
        lines.append(t("ui.match_over", lang) if match_over else t("ui.next_hand_in", lang, s=result_timeout))
    auto = [names[s["seat"]] for s in seats if s.get("auto") and not s.get("is_ai") and s["seat"] < len(names)]
    if auto:
        lines.append(t("ui.auto_seats", lang, names=", ".join(auto)))
    for vote in view.get("votes") or []:
        if vote["seat"] < len(names):
            lines.append(t("ui.vote_line", lang, player=names[vote["seat"]], no=vote["seat"] + 1,
                           votes=vote["votes"], needed=vote["needed"]))
    if levels:
        lines.append(levels)
    if view.get("auto_play_ai"):
        lines.append(t("ui.auto_play_ai", lang, level=ai_level_name(view["auto_play_ai"], lang)))
    lines.extend(view.get("log", [])[-4:])
    return "\n".join(lines)[:4000]


def ai_level_name(level: str, lang: str) -> str:
    """An AI level's name (``easy``, ``normal``, ``strong``) in ``lang``."""
    return t(f"ui.ai_level_{level}", lang)


def ai_levels_line(seats: list[dict], lang: str) -> str:
    """``AI levels: AI 1 strong, AI 2 easy`` for the AI seats of a view's ``seats`` (each with
    ``is_ai`` and ``ai_level``); ``""`` without AI seats."""
    found = [f"{s.get('name', '?')} {ai_level_name(s['ai_level'], lang)}" for s in seats
             if s.get("is_ai") and s.get("ai_level")]
    return t("ui.ai_levels", lang, list=", ".join(found)) if found else ""


def closed(lang: str) -> str:
    return t("ui.closed", lang)


def lobby_expired(minutes: int, lang: str) -> str:
    """The channel message when a lobby closed because nobody started it within ``minutes``."""
    return t("ui.lobby_expired", lang, minutes=minutes)


def button(op: str, lang: str) -> str:
    """The label of a table-message button: ``join``, ``addai``, ``start``, ``leave``,
    ``hand``, ``takeover``, ``next``."""
    key = {"addai": "add_ai", "hand": "my_hand", "takeover": "take_over", "next": "next_hand"}.get(op, op)
    return t(f"btn.{key}", lang)


def done(op: str, lang: str, **params) -> str:
    """What a player is told once their request ``op`` is done: ``show`` (the table message
    posted again), ``join`` (``seat``, 1-based), ``leave``, ``addai`` (``seat``, ``level``: the
    AI's level in ``lang``), ``start``, ``next``."""
    return t(f"ui.done_{op}", lang, **params)


def seat_change(outcome: str, lang: str, **params) -> str:
    """The private answer to a seat change during a match (``seat`` 1-based):
    ``seat_now`` (the player sat down between hands), ``seat_queued`` (they sit down at the
    next deal), ``unqueued`` (they no longer wait), ``replaced`` (``name``'s seat is the AI's
    now), ``vote_cast`` (``name``, ``votes`` of ``needed``)."""
    return t(f"ui.{outcome}", lang, **params)


def created(game, lang: str, options: Optional[dict] = None) -> str:
    """The answer to ``/mj table create``: the game, and the time to act (seconds to discard
    and to answer a claim, from the table's ``options``) and how to change it."""
    text = t("ui.created", lang, game=game_name(game, lang))
    if options and options.get("match_hands"):
        text += "\n" + t("ui.created_hands", lang, n=options["match_hands"])
    if options and "discard_timeout" in options:
        text += "\n" + t("ui.created_pace", lang, discard=options["discard_timeout"],
                         claim=options.get("claim_timeout", options["discard_timeout"]))
    return text


def command_description(key: str, lang: str) -> Optional[str]:
    """A slash command's or option's description in ``lang`` (catalogue section ``cmd``), or
    ``None`` when the catalogue has none."""
    text = t(key, lang)
    return None if text.startswith("messages.") else text
