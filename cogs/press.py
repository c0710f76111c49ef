"""What a press of an action button (or a choice in an action menu) does, whichever process
received it: the checks, a redraw that is not a move, the key of the move to store.  Used by
the buttons (``cogs/play.py``) and by clicks routed from another process
(``cogs/routing.py``)."""

from __future__ import annotations

from typing import Optional

from . import messages

#: button actions that only redraw the player's message (no move)
LOOK_ONLY = ("prompt", "ting_menu")


def check_press(service, channel_id: int, user_id: int, act: str, hand_id: int, seq: int):
    """The checks of a button press (or a menu choice, or a click forwarded from another
    process): ``TableService.check`` lets the user act on this hand and decision.  Returns
    ``(snapshot, seat)``; raises ``ServiceError``/``IllegalAction``."""
    return service.check(channel_id, user_id, hand_id=hand_id, seq=seq, waited=act not in LOOK_ONLY)


def redraw_only(snap, seat: int, act: str, tile: str, lang: str, emojis=None) -> Optional["messages.Panel"]:
    """The panel when a press only redraws it (the ready menu, back to the prompt, or the
    confirmation a game asks before a wild tile is discarded); ``None`` when the press is a
    move.  ``emojis``: the tiles' emojis (``cogs.emojis.TileEmojis``)."""
    if act in LOOK_ONLY:
        return messages.panel_of(snap, seat, ting_menu=act == "ting_menu", lang=lang, emojis=emojis)
    if act == "discard" and snap.game.confirms_wild_discard and messages.is_wild(snap.parts[seat].view, tile):
        return messages.panel_of(snap, seat, confirm_wild=tile, lang=lang, emojis=emojis)
    return None


def press_key(act: str, tile: str) -> str:
    """A pressed action and tile → the key of the move to store (a confirmed wild discard is a
    discard; ``service.snapshot.Move.key``)."""
    return f"{'discard' if act == 'wdiscard' else act}:{tile or '-'}"
