"""Handing each change of a table to the front ends: the snapshot after it (built by
``service/publish.py``), its version, and the listeners that receive it — the part of the
table service that every part changing a table is given."""

from __future__ import annotations

import logging
from typing import Optional

from . import publish
from .langs import Langs
from .snapshot import Change, TableSnapshot, freeze
from .table import HIDDEN_EVENTS, Listener, Table, Update

log = logging.getLogger("service.tables")


class Publisher:
    """Snapshots and their listeners.

    :param langs: the players' languages, for the seat parts of a snapshot."""

    def __init__(self, langs: Langs):
        self.langs = langs
        #: ``await listener(change)`` after every change (the front ends)
        self.listeners: list[Listener] = []
        #: this process's start number (``Store.next_start``, set when the tables are loaded):
        #: the high bits of every version
        self.generation = 0
        self._published = 0

    def _version(self) -> int:
        """The next snapshot version: monotonic within this process, and across restarts (the
        start number is in the high bits)."""
        self._published += 1
        return (self.generation << 32) | self._published

    def publish(self, t: Table, upd: Update) -> Change:
        """The snapshot of ``t`` after ``upd`` and the change the front ends receive (the lock is
        held, or the table is not yet shared).  Nobody listening (a benchmark, a test of the
        rules), no snapshot is built and no engine views are kept for it: the change's
        ``snapshot`` is ``None`` and :meth:`snapshot_of` builds one when it is asked."""
        snap = None
        if self.listeners:
            # who acted, and whom a public event names (a pass is recorded when its window
            # closes: the seat that passed took part in an earlier change)
            involved = {upd.actor} | {e.get("seat") for e in upd.events if e.get("type") not in HIDDEN_EVENTS}
            t.touched |= {s for s in involved if isinstance(s, int)}
            snap = self.build(t)
        else:
            # built when first read; the engine views kept for the next one would only be
            # memory and work for the collector (the last snapshot stays: its parts keep their
            # versions while they do not change)
            t.snapshot_due = True
            t.view_cache = None
            t.touched = set()
        notices = freeze({s: list(keys) for s, keys in upd.notices.items()})
        return Change(kind=upd.kind, snapshot=snap, events=publish.public_events(upd.events), actor=upd.actor,
                      notices=notices, prompt=frozenset(upd.seats_to_notify), hand_id=upd.hand_id,
                      match_id=upd.match_id, actions=tuple(upd.action_types))

    def build(self, t: Table) -> TableSnapshot:
        """Build and keep the snapshot of ``t`` now (``service/publish.py``)."""
        snap = publish.build(t, self._version(), self.langs.user_lang, t.touched)
        t.snapshot, t.snapshot_due, t.touched = snap, False, set()
        return snap

    def snapshot_of(self, t: Table) -> TableSnapshot:
        """The latest snapshot of ``t`` (built now when nobody listened since its last change)."""
        if t.snapshot is None or t.snapshot_due:
            return self.build(t)
        return t.snapshot

    def after(self, t: Table) -> Optional[TableSnapshot]:
        """What a request that changed ``t`` returns: the snapshot its change published, or
        ``None`` when nobody listens (:meth:`snapshot_of` builds one when asked)."""
        return t.snapshot if self.listeners else None

    async def notify(self, change: Change) -> None:
        """Hand ``change`` to every listener; a listener that fails is logged (a front end
        failing must not undo the game)."""
        for listener in list(self.listeners):
            try:
                await listener(change)
            except Exception:
                log.exception("table listener failed")


__all__ = ["Publisher"]
