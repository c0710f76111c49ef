"""What a press of an action button (or a choice in an action menu) does, whichever process
received it: the checks, a redraw that is not a move, the move to store.  Used by the
buttons (``cogs/play.py``) and by clicks routed from another process (``cogs/routing.py``)."""

from __future__ import annotations

from engine.tiles import TileParseError, parse_kind
from service.tables import ServiceError, Table

from . import messages

#: button actions that only redraw the player's message (no move)
LOOK_ONLY = ("prompt", "ting_menu")


def parse_tile(text: str | None) -> int | None:
    """A typed or clicked tile → its kind; ``None`` when blank; ``unknown_tile`` (quoting at
    most a short, sanitized piece of the input) when unreadable."""
    if text is None or text.strip() in ("", "-"):
        return None
    try:
        return parse_kind(text.strip())
    except (TileParseError, ValueError):
        raise ServiceError("unknown_tile", tile=text) from None


def check_press(service, channel_id: int, user_id: int, act: str, hand_id: int, seq: int) -> tuple[Table, int]:
    """The checks of a button press (or a menu choice, or a click forwarded from another
    process): the table exists and ``TableService.may_act`` lets the user act on this hand
    and decision.  Returns ``(table, seat)``; raises ``ServiceError``/``IllegalAction``."""
    table = service.table_in(channel_id)
    seat = service.may_act(table, user_id, hand_id=hand_id, seq=seq, waited=act not in LOOK_ONLY)
    return table, seat


async def redraw_only(table: Table, seat: int, act: str, tile: str, lang: str) -> tuple | None:
    """The panel (``(messages.Panel, send/edit keyword arguments)``) when a press only
    redraws it (the ready menu, back to the prompt, or the confirmation a game asks before a
    wild tile is discarded); ``None`` when the press is a move."""
    if act in LOOK_ONLY:
        return await messages.hand_panel(table, seat, lang, ting_menu=act == "ting_menu")
    if act == "discard" and table.variant.front_end_confirms_wild_discard \
            and messages.is_wild(messages.seat_view(table, seat, lang), tile):
        return await messages.hand_panel(table, seat, lang, confirm_wild=tile)
    return None


def press_move(act: str, tile: str) -> tuple[str, int | None]:
    """A pressed action and tile → the move to store (a confirmed wild discard is a discard)."""
    return ("discard" if act == "wdiscard" else act), parse_tile(tile)
