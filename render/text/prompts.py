"""The words of a player's private messages: what to decide now, the 听 hint, notices, the
auto-play notice, the buttons' labels — from the seat's view."""

from __future__ import annotations

from typing import Optional

from engine.facts import GameFacts

from .catalogue import short_tile, t, tile_label, tv

#: the actions every draw/discard game shares, with their own buttons
SHARED_ACTIONS = ("discard", "hu", "double", "ting", "kong", "pung", "chow", "pass")


def prompt(view: dict, names: list[str], lang: str, game, channel: str) -> str:
    """The text above a player's hand (``view``: the seat's view, ``me`` included): whose
    move it is and what they may do, the game's own notes (a dealt tile, a wild to confirm,
    liability warnings), the waits when ready.  ``channel`` is the table's channel mention."""
    lines = []
    me = view.get("me") or {}
    seat = me.get("seat", view.get("viewer"))
    if view.get("phase") not in ("over",) and seat in (view.get("pending") or []):
        if view.get("phase") == "discard":
            lines.append(t("ui.your_turn", lang, channel=channel))
            if me.get("win_offered") and me.get("drawn"):
                lines.append(t("ui.your_win", lang, tile=tile_label(me["drawn"], lang)))
        elif view.get("phase") == "rob" and view.get("rob"):
            lines.append(t("ui.your_rob", lang, name=names[view["rob"]["seat"]],
                           tile=tile_label(view["rob"]["tile"], lang)))
        elif view.get("last_discard"):
            ld = view["last_discard"]
            lines.append(t("ui.your_claim", lang, name=names[ld["seat"]], tile=tile_label(ld["tile"], lang)))
        elif me.get("legal"):  # an opening decision (买庄, 飘): what is asked, by name
            acts = [line.split()[1:] for line in me["legal"]]
            lines.append(t("ui.your_choice", lang, choices=", ".join(
                button(a[0], lang, game, a[1] if len(a) > 1 else None) for a in acts if a)))
        if me.get("confirming"):
            lines.append(tv(game, "ui.confirm_wild", lang, tile=tile_label(me["confirming"], lang)))
        for w in me.get("warnings") or []:
            key = "warn.santan" if w.get("reason") == "三摊" else "warn.baowu"
            who = names[w["liable_to"]] if w.get("liable_to") is not None else ""
            lines.append("⚠ " + tv(game, key, lang, tile=tile_label(w["tile"], lang), name=who))
        refused = me.get("win_refused")
        if refused:
            reason = tv(game, f"ui.wait_cannot.{refused['why']}", lang, need=refused.get("need", ""))
            if reason.startswith("messages."):
                reason = t("ui.wait_cannot.any", lang)
            lines.append("ℹ " + t("ui.win_refused", lang, tile=tile_label(refused["tile"], lang) if refused.get("tile")
                                  else "—", reason=reason))
        lines.extend(explanations(view, game, lang))
        lines.extend(hint_summary(view, game, lang))
    elif me.get("bi_withheld"):
        lines.extend(explanations(view, game, lang))
    waits = me.get("waits") or []
    if waits:
        lines.append(t("ui.waits", lang, waits=", ".join(_wait_item(w, lang, game) for w in waits)))
    return "\n".join(lines) or t("ui.hand_caption", lang)


#: the discards the panel's hint lists at most (the best first; ``hint`` at the local table
#: and the 听 menu list them all)
HINT_SHOWN = 4
#: the waits of one discard the panel lists at most (a hand of many wilds waits on many)
HINT_WAITS_SHOWN = 6


def hint_summary(view: dict, game: Optional[GameFacts], lang: str) -> list[str]:
    """At the seat's own discard, the discards that leave its hand ready (听牌提示): those
    with the most copies of winning tiles still to come first, at most :data:`HINT_SHOWN`,
    each with its waits (:func:`wait_text`); a discard none of whose waits can win marked ✗.
    Nothing when no discard leaves the hand ready."""
    hints = list((view.get("me") or {}).get("hint") or [])
    if not hints:
        return []
    hints.sort(key=lambda h: -sum(w.get("left") or 0 for w in h["waits"] if can_win(w)))
    out = [t("ui.hint_title", lang)]
    for h in hints[:HINT_SHOWN]:
        mark = "" if any(can_win(w) for w in h["waits"]) else "✗ "
        waits = [_wait_item(w, lang, game) for w in h["waits"][:HINT_WAITS_SHOWN]]
        if len(h["waits"]) > HINT_WAITS_SHOWN:
            waits.append(t("ui.hint_more", lang, n=len(h["waits"]) - HINT_WAITS_SHOWN))
        out.append(f"  {mark}" + t("ui.ting_hint_line", lang, tile=short_tile(h["discard"], lang),
                                   waits=", ".join(waits)))
    if len(hints) > HINT_SHOWN:
        out.append("  " + t("ui.hint_more", lang, n=len(hints) - HINT_SHOWN))
    out.append("  " + t("ui.hint_assumes", lang))
    return out


def explanations(view: dict, game: Optional[GameFacts], lang: str) -> list[str]:
    """One sentence for each of the game's own choices and rules that bear on the seat's
    decision now, in the game's words (``explain.<key>`` of its package): its own actions
    offered (飘, 买庄, 假听, 老五对's 吃 and 留 …: the action's type, else the part before its
    first ``_``), the first go-around's restriction at one's discard (老三番, 金湖), a 假听
    being declared, a 吃 that 比牌 withheld (字牌).  Nothing for a game without such words."""
    me = view.get("me") or {}
    keys: list[str] = []
    for line in me.get("legal") or []:
        act = line.split()[1] if len(line.split()) > 1 else ""
        if game is not None and game.action_label(act) is not None:
            keys += [f"explain.{act}", f"explain.{act.split('_')[0]}"]
    if view.get("opening_restriction") and view.get("phase") == "discard":
        keys.append("explain.opening_restriction")
    if me.get("fake_ting_pending"):
        keys.append("explain.fake_ting_pending")
    if me.get("bi_withheld"):
        keys.append("explain.bi_withheld")
    out: list[str] = []
    for key in keys:
        text = tv(game, key, lang)
        if not text.startswith(("messages.", "explain.")) and text not in out:
            out.append(text)
    return ["ℹ " + x for x in out]


def wait_text(w: dict, lang: str, game: Optional[GameFacts] = None) -> str:
    """A wait as players read it: the tile, its value in the game's units (``huxi`` 胡息,
    ``hu`` 胡, ``fan`` 番, ``mult`` ×N, ``score`` what one loser pays — of a win on a discard;
    ``fan_self``/``score_self``/``mult_self`` self-drawn where it differs, or only self-drawn
    may win; nothing when the game gives none), the copies left ("none left" when every copy is in
    sight) and, when a win on it is refused, why (the table's minimum, the game's wait rule:
    ``ui.wait_cannot.<code>``, the game's own words first) — never ``?``."""
    details = []
    if w.get("huxi") is not None:
        details.append(t("ui.wait_huxi", lang, n=w["huxi"]))
    if w.get("hu") is not None:
        details.append(t("ui.wait_hu", lang, n=w["hu"]))
    if w.get("fan") is not None and w.get("huxi") is None:
        details.append(t("ui.wait_fan", lang, n=w["fan"]))
    if w.get("mult") is not None:
        details.append(t("ui.wait_mult", lang, n=w["mult"]))
    if w.get("score") is not None:
        details.append(t("ui.wait_score", lang, n=w["score"]))
    if w.get("fan_self") is not None:
        key = "ui.wait_self_only" if w.get("self_drawn_only") else "ui.wait_fan_self"
        details.append(t(key, lang, n=w["fan_self"]))
    for key in ("score_self", "mult_self"):
        if w.get(key) is not None:
            details.append(t(f"ui.wait_{key}", lang, n=w[key]))
    if w.get("left") is not None:
        details.append(t("ui.wait_left", lang, n=w["left"]) if w["left"] > 0 else t("ui.wait_none_left", lang))
    if w.get("ok") is False and w.get("ok_self"):
        details.append(t("ui.wait_self_only_win", lang, need=w.get("need", "")))
    elif w.get("ok") is False:
        why = tv(game, f"ui.wait_cannot.{w.get('why') or 'any'}", lang, need=w.get("need", ""))
        details.append(why if not why.startswith("messages.") else t("ui.wait_cannot.any", lang))
    tile = short_tile(w["tile"], lang)
    return t("ui.wait_item", lang, tile=tile, details=t("ui.detail_sep", lang).join(details)) if details else tile


def can_win(w: dict) -> bool:
    """Whether a wait can still bring a win: allowed (on a discard, or at least self-drawn),
    and a copy left to come."""
    return (w.get("ok") is not False or bool(w.get("ok_self"))) and w.get("left") != 0


_wait_item = wait_text


def ting_hint(view: dict, lang: str, game: Optional[GameFacts] = None) -> str:
    """The 听 menu's text: for each discard that leaves a ready hand, its waits — a
    declaration none of whose waits can win is marked ✗ (its waits say why)."""
    lines = [t("ui.ting_pick", lang), t("ui.hint_assumes", lang)]
    for h in (view.get("me") or {}).get("hint", []):
        line = t("ui.ting_hint_line", lang, tile=short_tile(h["discard"], lang),
                 waits=", ".join(_wait_item(w, lang, game) for w in h["waits"]))
        lines.append(line if any(can_win(w) for w in h["waits"]) else "✗ " + line)
    return "\n".join(lines)


def confirm_wild_discard(tile: str, lang: str) -> str:
    return t("ui.confirm_discard_wild", lang, tile=tile_label(tile, lang))


def notices(keys: list[str], view: dict, seat: int, lang: str) -> list[str]:
    """What a player must be told of their own move (``notice.…`` keys), e.g. an ignored 听
    (about their last discard)."""
    last = "?"
    for sv in view.get("seats") or []:
        if sv.get("seat") == seat and sv.get("discards"):
            last = tile_label(sv["discards"][-1], lang)
    return [t(key, lang, tile=last) for key in keys]


def auto_notice(channel: str, lang: str, level: str | None = None) -> str:
    """The DM to a player put on 托管 at ``channel``: what the table plays for them — the AI at
    ``level`` (the table option ``auto_play_ai`` is on), else the drawn tile and wins."""
    if level:
        return t("ui.auto_notice_ai", lang, channel=channel, level=t(f"ui.ai_level_{level}", lang))
    return t("ui.auto_notice", lang, channel=channel)


def left_notice(channel: str, lang: str) -> str:
    """The DM to a player who left the running game at ``channel``: their seat plays on
    auto-play (托管) and another player may take it between hands until they come back."""
    return t("ui.left_notice", lang, channel=channel)


def taken_over(lang: str) -> str:
    return t("ui.taken_over", lang)


def dm_fallback(mention: str, lang: str) -> str:
    return t("ui.dm_fallback", lang, mention=mention)


def button(act: str, lang: str, game=None, tile: Optional[str] = None) -> str:
    """The label of an action button: a tile to discard (its name), the shared actions
    (吃 with the chow's tiles, 碰, 杠 / 杠 <tile>, 胡, 听…, 加倍, 过), a wild's confirmation
    (``wdiscard`` / ``keep_wild``), ``cancel``, and a game's own actions from its catalogue
    (``<label> <tile>``; the action's name when it has no words)."""
    if act == "discard" and tile:
        return short_tile(tile, lang)
    if act == "wdiscard":
        return t("btn.discard_wild", lang, tile=short_tile(tile or "?", lang))
    if act in ("keep_wild", "cancel", "hu", "double", "pung", "pass"):
        return t(f"btn.{act}", lang)
    if act == "ting":
        return short_tile(tile, lang) if tile else t("btn.ting", lang).rstrip("….")
    if act == "ting_menu":
        return t("btn.ting", lang)
    if act == "kong":
        return t("btn.kong_own", lang, tile=short_tile(tile, lang)) if tile else t("btn.kong", lang)
    if act == "chow" and tile:
        from engine.tiles import parse_kind

        k = parse_kind(tile)
        return t("btn.chow", lang, tiles="".join(str((k + i) % 9 + 1) for i in range(3)))
    label = tv(game, own_action_key(game, act), lang, tile="", tiles="").strip()
    if label.startswith("messages."):
        label = act
    return f"{label} {short_tile(tile, lang)}" if tile else label


def own_action_key(game, act: str) -> str:
    """The catalogue key of a game's own action's button: the one the game declares
    (``GameFacts.action_label``; ``game``: the game's facts or ``None``), else ``btn.<action>``."""
    return (game.action_label(act) if game is not None else None) or f"btn.{act}"


def choose(lang: str) -> str:
    return t("ui.choose", lang)
