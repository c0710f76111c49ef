"""Game records to share: a server's finished hand or match exported as a record file, and a
record file imported — checked by replaying it — and stored so it can be replayed here
(``/mj record export``, ``/mj record import``; the format is ``service.record_file``'s).

An imported record is stored by ``Store.import_hands``: a closed table of the importing server
marked ``imported`` holding its hands, with no settlement rows, so it counts in no score,
leaderboard, history, statistic, rate or rating (``store/imports.py``).  The settlements the
file gave are kept in that mark, so an imported hand exports again as it came.

Errors for users: :class:`service.tables.ServiceError` (``unknown_hand``,
``hand_not_finished``, ``unknown_match``) and :class:`service.record_file.RecordRefused`.
Replaying is CPU work (a few ms a hand): it runs in a worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from store import IMPORTED, HandRecord, Store

from . import record_file
from .record_file import Checked, RecordRefused
from .record_schema import FORMAT, VERSION
from .records import finished_hand
from .tables import ServiceError


@dataclass(frozen=True)
class Export:
    """An exported record: ``name`` the files' stem (``hand-12``, ``match-3``), ``data`` the
    record, ``raw`` its file's bytes, ``checked`` the record as replayed (for the text)."""

    name: str
    data: dict
    raw: bytes
    checked: Checked


@dataclass(frozen=True)
class Imported:
    """An imported record: as replayed (``checked``), and where it is stored here (the closed
    table ``table_id`` and its hands ``hand_ids``, in the record's order)."""

    checked: Checked
    table_id: int
    hand_ids: tuple[int, ...]


def _iso(value: Any) -> Optional[str]:
    return value.isoformat() if value is not None else None


class RecordExchange:
    """Exporting and importing game records of the servers, through the store."""

    def __init__(self, store: Store):
        self.store = store

    async def _entry(self, record: HandRecord) -> dict:
        """A stored finished hand as a record's hand (the settlements of an imported hand from
        its table's mark)."""
        settlements: Sequence[Any] = record.settlements
        if not settlements:
            mark = (await self.store.get_table(record.table_id)).state.get(IMPORTED) or {}
            settlements = (mark.get("settlements") or {}).get(str(record.hand_no)) or ()
        return record_file.hand_entry(
            hand_id=record.id, hand_no=record.hand_no, variant=record.variant, options=record.options,
            seed=record.seed, dealer=record.dealer, seats=list(record.seats), context=record.context,
            actions=record.actions, result=record.result or {}, settlements=settlements,
            ended_at=_iso(record.ended_at))

    @staticmethod
    async def _checked(name: str, data: dict) -> Export:
        """The record checked as an import would check it (so every export imports), or
        ``RecordRefused`` naming what does not replay; ``too_big`` past the import's limit."""
        raw = record_file.dumps(data)
        if len(raw) > record_file.MAX_BYTES:
            raise RecordRefused("too_big", size=len(raw), limit=record_file.MAX_BYTES)
        checked = await asyncio.to_thread(record_file.read, raw)  # the file, as an import reads it
        return Export(name, data, raw, checked)

    async def export_hand(self, guild_id: int, hand_id: int) -> Export:
        """A finished hand of this server as a record (``unknown_hand``,
        ``hand_not_finished``)."""
        record = await finished_hand(self.store, guild_id, hand_id)
        data = record_file.record(record.variant, [await self._entry(record)])
        return await self._checked(f"hand-{hand_id}", data)

    async def export_match(self, guild_id: int, match_id: int) -> Export:
        """An ended match of this server, every settled hand, as a record
        (``unknown_match``)."""
        try:
            match = await self.store.get_match(match_id)
        except LookupError:
            raise ServiceError("unknown_match", match=match_id) from None
        if match.guild_id != guild_id:
            raise ServiceError("unknown_match", match=match_id)
        entries = [await self._entry(await self.store.get_hand(h.id))
                   for h in await self.store.match_hands(match.table_id)]
        data = record_file.record(match.variant, entries, {
            "id": match.id, "hands_planned": match.hands_planned, "hands_played": len(entries),
            "started_at": _iso(match.started_at), "ended_at": _iso(match.ended_at)})
        return await self._checked(f"match-{match_id}", data)

    async def import_file(self, guild_id: int, channel_id: int, user_id: int, lang: str, raw: bytes) -> Imported:
        """Read, check and store a record file (untrusted ``raw`` bytes) as imported hands of
        ``guild_id`` (``user_id`` the importer, ``channel_id`` where).

        :raises RecordRefused: the first problem found (``service.record_file.parse``,
            ``check``)."""
        checked = await asyncio.to_thread(record_file.read, raw)
        data = checked.data
        mark = {"format": FORMAT, "version": VERSION, "kind": data["kind"],
                "source_hands": [h.get("id") for h in data["hands"]],
                "settlements": {str(h["hand_no"]): h["settlements"] for h in data["hands"]}}
        if "match" in data:
            mark["match"] = data["match"]
        hands = [{"hand_no": h["hand_no"], "seed": h["seed"], "options": h["options"], "dealer": h["dealer"],
                  "seats": [{"user_id": None, "name": s["name"], "is_ai": s["ai"]} for s in h["seats"]],
                  "context": h["context"], "result": h["result"], "actions": h["actions"]}
                 for h in data["hands"]]
        table_id, ids = await self.store.import_hands(guild_id=guild_id, channel_id=channel_id, creator_id=user_id,
                                                      variant=data["game"], lang=lang, mark=mark, hands=hands)
        return Imported(checked, table_id, tuple(ids))


__all__ = ["Export", "Imported", "RecordExchange"]
