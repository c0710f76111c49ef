"""Each player's language: the part of the table service that remembers, per Discord user,
the catalogue language of their last interaction (``zh-CN``, ``zh-TW`` or ``en``) — the one
their panels, notices and private answers are written in — and keeps it in the store, so a
restarted bot writes to them as before.

Reads come from memory (:meth:`Langs.user_lang`); the stored languages of the players of the
open tables are read once at start (:meth:`Langs.load_langs`, called by ``load``), and of
anyone else the first time a front end asks for them.  A language is written only when it
changed: once per player, and again when they switch Discord's language — one small write
of the store's group commit, so the answer to a click hardly waits for it.
"""

from __future__ import annotations

import logging
from typing import Iterable, Optional

from store import Store

log = logging.getLogger("service.tables")


class Langs:
    """Each player's language, remembered in memory and kept in ``store``."""

    def __init__(self, store: Store):
        self.store = store
        #: user id -> language (``None``: looked up, none stored)
        self._known: dict[int, Optional[str]] = {}

    def user_lang(self, user_id: Optional[int]) -> Optional[str]:
        """The language last seen for ``user_id`` (``zh-CN``, ``zh-TW``, ``en``), ``None``
        when none is known (yet): the caller falls back on the table's."""
        if user_id is None:
            return None
        return self._known.get(user_id)

    async def remember_lang(self, user_id: int, lang: str) -> bool:
        """Remember ``lang`` as the language of ``user_id``; stored when it changed.  Returns
        ``True`` when it changed.  A failed write is logged, never raised (the player's
        action does not depend on it; the language is written again at their next change)."""
        if self._known.get(user_id) == lang:
            return False
        self._known[user_id] = lang
        try:
            await self.store.set_lang(user_id, lang)
        except Exception:
            log.exception("could not store the language of user %s", user_id)
            self._known.pop(user_id, None)  # written again at the next interaction
        return True

    async def load_langs(self, user_ids: Iterable[Optional[int]]) -> None:
        """Read the stored languages of the users not looked up yet (``None`` ids ignored)."""
        todo = {u for u in user_ids if u is not None and u not in self._known}
        if not todo:
            return
        stored = await self.store.get_langs(todo)
        for u in todo:
            self._known.setdefault(u, stored.get(u))
