"""The words of a player's private panel (one DM per player per hand, edited in place) and of
the short notice that pings them when they must decide — from the panel's view only: the
public view of the table plus the viewer's own part (``view["me"]``)."""

from __future__ import annotations

from typing import Callable, Optional

from .catalogue import game_name, t
from .prompts import prompt
from .results import result_lines


def _deadline(at: Optional[int]) -> str:
    """A Discord timestamp counting down to ``at`` (Unix seconds): ``<t:…:R>``."""
    return f"<t:{int(at)}:R>" if at else ""


def panel_text(view: dict, names: list[str], lang: str, game, channel: str, *,
               deadline: Optional[int] = None, head: Optional[list[str]] = None,
               decision: Optional[str] = None) -> str:
    """The text of a panel (at most 2,000 characters): the game, table and hand; whose turn
    and the time left (``deadline``: Unix seconds of the current decision, shown when the
    viewer must decide or the table publicly waits for a seat); what the viewer decides now
    (``decision``, else the prompt of :func:`render.text.prompts.prompt`); tiles left and
    scores; the last public events; the result when the hand is over.

    :param game: the game's facts (``engine.facts.GameFacts``).
    :param channel: the table's channel as a mention (``<#id>``).
    :param head: lines to put first (notices about the viewer's own move)."""
    lines = [t("panel.header", lang, game=game_name(game, lang), channel=channel,
               no=max(view.get("hand_no") or 1, 1))]
    lines += head or []
    me = view.get("me") or {}
    seat = me.get("seat", view.get("viewer"))
    over = view.get("phase") == "over" or bool(view.get("result"))
    if over and view.get("result"):
        lines += result_lines(view["result"], names, lang, game)[:12]
    else:
        to_act = view.get("to_act") or []
        mine = seat in (view.get("pending") or [])
        when = _deadline(deadline) if (mine or to_act) else ""
        if to_act and seat not in to_act:
            who = ", ".join(names[s] for s in to_act if s < len(names))
            lines.append(t("panel.turn", lang, name=who) + (f" · {when}" if when else ""))
        elif mine and when:
            lines.append(t("panel.your_time", lang, when=when))
        lines.append(decision if decision is not None else prompt(view, names, lang, game, channel))
        info = []
        if view.get("wall_remaining") is not None:
            info.append(t("panel.wall", lang, n=view["wall_remaining"]))
        scores = [f"{names[sv['seat']]} {int(sv.get('score') or 0):+d}" for sv in view.get("seats") or []
                  if sv.get("seat") is not None and sv["seat"] < len(names)]
        if scores:
            info.append(" | ".join(scores))
        if info:
            lines.append(" · ".join(info))
        recent = view.get("log") or []
        if recent:
            lines.append("\n".join(f"> {x}" for x in recent[-3:]))
    text = "\n".join(x for x in lines if x)
    return text[:2000]


#: the longest text of :func:`table_tiles` unless told (Discord: 4,000 characters of text in a
#: message, the panel's words included)
TILES_BUDGET = 1800


def table_tiles(view: dict, names: list[str], lang: str, tile_text: Callable[[Optional[str]], str], *,
                budget: int = TILES_BUDGET, hand: bool = False) -> str:
    """The table as tiles, for a panel whose tiles are emojis: per seat its name, melds,
    flowers and discards (a discard claimed by another seat is in that seat's meld, not
    repeated), then the last discard; with ``hand``, the viewer's own hand (a panel without
    buttons).  ``tile_text`` writes one tile (notation → its emoji, or its name; ``None``: a
    face-down tile).  At most ``budget`` characters, cut only between tiles: first the oldest
    discards of each seat go (``…`` says so), then the end of the longest seat lines; the title,
    the last discard and the hand always stay."""
    me = view.get("me") or {}
    seats = [sv for sv in view.get("seats") or [] if sv.get("seat") is not None]
    last = view.get("last_discard") if isinstance(view.get("last_discard"), dict) else None

    def seat_parts(sv: dict, keep: Optional[int]) -> list[str]:
        """The seat's line as pieces that may be cut between: its name, then one piece a tile."""
        i = sv["seat"]
        name = names[i] if i < len(names) else str(i + 1)
        out = [f"**{name}**" + (f" {sv['wind']}" if sv.get("wind") else "")]
        melds = [m.get("tiles") or () for m in sv.get("melds") or ()] + ([sv["flowers"]] if sv.get("flowers") else [])
        for n, meld in enumerate(melds):
            out.append((" · " + t("panel.melds", lang) + " " if n == 0 else " ") + (tile_text(meld[0]) if meld else ""))
            out += [tile_text(x) for x in meld[1:]]
        claimed = set(sv.get("claimed_discards") or ())
        pond = [x for n, x in enumerate(sv.get("discards") or ()) if n not in claimed]
        cut = keep is not None and len(pond) > keep
        if cut:
            pond = pond[len(pond) - keep:] if keep else []
        if pond or cut:
            out.append(" · " + t("panel.pond", lang) + " " + ("…" if cut else "") + (tile_text(pond[0]) if pond else ""))
            out += [tile_text(x) for x in pond[1:]]
        return out

    fixed_top = [t("panel.tiles_title", lang)]
    fixed_end = []
    if last and last.get("tile") and last.get("seat") is not None and last["seat"] < len(names):
        fixed_end.append(t("panel.last", lang, tile=tile_text(last["tile"]), name=names[last["seat"]]))
    if hand and me.get("hand") is not None:
        drawn = f" ＋ {tile_text(me['drawn'])}" if me.get("drawn") else ""
        fixed_end.append(f"{t('panel.hand', lang)}: " + "".join(tile_text(x) for x in me["hand"]) + drawn)

    def size(lines: list[list[str]]) -> int:
        return sum(len(x) for x in fixed_top + fixed_end) + sum(sum(len(p) for p in ln) for ln in lines) \
            + len(fixed_top) + len(fixed_end) + len(lines) - 1

    keep: Optional[int] = None
    lines = [seat_parts(sv, keep) for sv in seats]
    for keep in (24, 18, 12, 8, 6, 4, 2, 0):
        if size(lines) <= budget:
            break
        lines = [seat_parts(sv, keep) for sv in seats]
    while size(lines) > budget:  # each turn drops one piece: it ends
        longest = max(lines, key=lambda ln: sum(len(p) for p in ln))
        body = [p for p in longest if p != "…"]
        if len(body) <= 1:
            break
        longest[:] = body[:-1] + ["…"]
    return "\n".join(fixed_top + ["".join(ln) for ln in lines] + fixed_end)


def notice_text(view: dict, names: list[str], lang: str, game, channel: str, link: str,
                deadline: Optional[int] = None) -> str:
    """The short DM that pings a player who must decide now (Discord notifies on new
    messages, not on edits): what is asked (your turn / you may claim …), the time left and
    a link to the panel (``link``: the panel message's URL)."""
    first = prompt(view, names, lang, game, channel).split("\n")[0]
    when = f" · {_deadline(deadline)}" if deadline else ""
    return t("panel.notice", lang, what=first, when=when, link=link)[:2000]


def channel_notice(mention: str, lang: str) -> str:
    """The one channel message per player per hand when their DMs are closed: where to see
    their hand."""
    return t("panel.dms_closed", lang, mention=mention)
