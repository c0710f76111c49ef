"""What the fan-out keeps of the messages it sent for a table: typed, owned by the fan-out, kept
through the table service in one stored value per table (``service.front_memory``), so a
restarted bot edits the same panel and deletes the same notice.

* :class:`PanelMemo` — a seat's panel of one hand (one DM per player per hand, edited in
  place): where it is, which version of the seat's part it shows, and its format;
* :class:`NoticeMemo` — the short DM that pinged the player for a decision;
* :class:`SeatMemory` — per seat: its player, panel, notice, notices still to delete, the hand
  whose closed-DM channel note was posted, the decision last prompted;
* :class:`TableMemory` — the seats' memories.

All frozen: a change makes a new value (``dataclasses.replace``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Optional


@dataclass(frozen=True)
class PanelMemo:
    hand_id: int
    channel_id: int
    message_id: int
    version: int = -1  #: the seat part's version it shows (-1: unknown, drawn again)
    #: the picture version and SHA-1 of the image a panel of format 1 showed (read from stored
    #: memories; a container has no image)
    picture: int = -1
    png: Optional[str] = None
    #: the message's format: 1 text, image and buttons (before the tiles were buttons), 2 one
    #: Components V2 container (:data:`PANEL_LAYOUT`); a panel of an older format is replaced
    layout: int = 1


#: the format of the panels drawn now (``PanelMemo.layout``)
PANEL_LAYOUT = 2


@dataclass(frozen=True)
class NoticeMemo:
    hand_id: int
    decision: int
    channel_id: int
    message_id: int
    deadline: Optional[int] = None


@dataclass(frozen=True)
class SeatMemory:
    user_id: Optional[int] = None
    panel: Optional[PanelMemo] = None
    notice: Optional[NoticeMemo] = None
    stale: tuple[tuple[int, int], ...] = ()  #: notices Discord would not delete yet
    told: Optional[int] = None  #: the hand whose closed-DM note was posted
    prompted: Optional[tuple[int, int]] = None  #: the decision last prompted
    #: the decision whose look-only screen (听 menu, a wild's confirmation) the panel shows
    menu: Optional[tuple[int, int]] = None

    def for_user(self, user_id: Optional[int]) -> "SeatMemory":
        """This memory when it is ``user_id``'s, else an empty one of theirs (another player
        took the seat: its messages were the other's)."""
        return self if self.user_id == user_id else SeatMemory(user_id=user_id)


@dataclass(frozen=True)
class TableMemory:
    seats: dict = field(default_factory=dict)  #: seat -> :class:`SeatMemory`

    def seat(self, seat: int) -> SeatMemory:
        return self.seats.get(seat) or SeatMemory()

    def with_seat(self, seat: int, memo: SeatMemory) -> "TableMemory":
        return TableMemory({**self.seats, seat: memo})

    # ------------------------------------------------------------------ stored form
    def to_json(self) -> dict:
        """The JSON stored with the table (``menu`` is not kept: a restart redraws)."""
        out = {}
        for seat, m in self.seats.items():
            d = asdict(replace(m, menu=None))
            out[str(seat)] = d
        return {"v": 3, "seats": out}

    @classmethod
    def from_json(cls, data: dict) -> "TableMemory":
        """The memory stored by :meth:`to_json`, or by an earlier form: ``v`` 2, whose decisions
        were numbered by the hand's actions (the decision prompted is forgotten: the current
        one is prompted again rather than never), or the per-seat form (``{"panel": {"hand",
        "channel", "message"}, "notice": {...}, "stale", "told", "user"}``); what cannot be
        read is forgotten."""
        seats = {}
        for key, raw in (data.get("seats") or {}).items():
            try:
                memo = _seat(raw, data.get("v") in (2, 3))
                if data.get("v") != 3:
                    memo = replace(memo, prompted=None)
                seats[int(key)] = memo
            except (TypeError, ValueError, KeyError):
                continue
        return cls(seats)


def _seat(raw: dict, current: bool) -> SeatMemory:
    if current:
        p, n = raw.get("panel"), raw.get("notice")
        return SeatMemory(user_id=raw.get("user_id"), panel=PanelMemo(**p) if p else None,
                          notice=NoticeMemo(**n) if n else None,
                          stale=tuple(tuple(x) for x in raw.get("stale") or ()), told=raw.get("told"),
                          prompted=tuple(raw["prompted"]) if raw.get("prompted") else None)
    p, n = raw.get("panel"), raw.get("notice")
    return SeatMemory(user_id=raw.get("user"),
                      panel=PanelMemo(p["hand"], p["channel"], p["message"]) if p and p.get("message") else None,
                      notice=NoticeMemo(n["hand"], n["decision"], n["channel"], n["message"], n.get("deadline"))
                      if n else None,
                      stale=tuple(tuple(x) for x in raw.get("stale") or ()), told=raw.get("told"),
                      prompted=(n["hand"], n["decision"]) if n else None)


__all__ = ["PANEL_LAYOUT", "PanelMemo", "NoticeMemo", "SeatMemory", "TableMemory"]
