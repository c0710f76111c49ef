"""The write path of the store: one writer task per store commits the queued writes in groups.

Every write of the store is a job ``job(conn)`` handed to :meth:`WriterMixin._submit`, or an
action append (the one write that is batched into shared statements, see
:meth:`store.hands.HandsMixin._append_batch`).  The caller is answered once the transaction
holding its write has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Awaitable, Callable, Optional

from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .records import StoreError

#: most write jobs committed in one group-commit transaction (see ``WriterMixin._submit``)
_MAX_BATCH = 500


class WriterMixin(StoreBase):
    """Write transactions and the group-commit queue of a store."""

    _write_lock: asyncio.Lock
    _write_queue: list[tuple[Any, Any, asyncio.Future]]
    #: the writer task while writes are queued
    _writer: Optional[asyncio.Task]

    def _init_writer(self) -> None:
        self._write_lock = asyncio.Lock()
        self._write_queue = []
        self._writer = None

    @contextlib.asynccontextmanager
    async def _write(self) -> Any:
        """A write transaction.  On SQLite the writers of this process take turns on an
        ``asyncio.Lock`` (SQLite has one writer at a time; waiting here costs nothing, while
        waiting in SQLite's busy handler polls and sleeps); other processes still wait on
        the busy timeout."""
        if self._is_sqlite:
            async with self._write_lock:
                async with self._engine.begin() as conn:
                    # take the write lock now: a transaction that reads before it writes could
                    # otherwise fail to upgrade when another process wrote in between
                    await conn.exec_driver_sql("BEGIN IMMEDIATE")
                    yield conn
        else:
            async with self._engine.begin() as conn:
                yield conn

    async def _submit(
        self,
        job: Optional[Callable[[AsyncConnection], Awaitable[Any]]],
        append: Optional[tuple[int, int, list[str]]] = None,
    ) -> Any:
        """Run ``job(conn)`` in a write transaction and return its result once committed (or,
        with ``job=None``, the action append ``(hand_id, idx, texts)``: its refusal or ``None``).

        Group commit: writes submitted while a transaction is being written wait, then go
        together into the next transaction (at most ``_MAX_BATCH``), with one commit for all:
        first every queued action append (two statements for all of them, see
        :meth:`_append_batch`), then the other jobs one after the other.  A job that raises
        rolls back its batch; the writes of that batch are then run again each in its own
        transaction, so each caller gets its own result or error and a failed write never
        takes another's with it.  Jobs only touch the database (they may run twice).
        """
        loop = asyncio.get_running_loop()
        fut: asyncio.Future = loop.create_future()
        self._write_queue.append((job, append, fut))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_batches())
        return await fut

    async def _run_batch(self, batch: list) -> list[tuple[bool, Any]]:
        """One transaction for ``batch``; outcomes in batch order (raises if it rolled back)."""
        out: list[tuple[bool, Any]] = [(True, None)] * len(batch)
        async with self._write() as conn:
            appends = [i for i, (job, _, _) in enumerate(batch) if job is None]
            if appends:
                refusals = await self._append_batch(conn, [batch[i][1] for i in appends])
                for i, refused in zip(appends, refusals):
                    out[i] = (True, refused)
            for i, (job, _, _) in enumerate(batch):
                if job is not None:
                    out[i] = (True, await job(conn))
        return out

    async def _write_batches(self) -> None:
        """The writer task: write the queued writes, batch after batch, until none is left."""
        while self._write_queue:
            batch = self._write_queue[:_MAX_BATCH]
            del self._write_queue[: len(batch)]
            try:
                try:
                    outcomes = await self._run_batch(batch)
                except Exception as exc:
                    if len(batch) == 1:
                        outcomes = [(False, exc)]
                    else:  # rolled back: each write alone
                        outcomes = []
                        for item in batch:
                            try:
                                outcomes.extend(await self._run_batch([item]))
                            except Exception as one:
                                outcomes.append((False, one))
            except BaseException:  # cancelled (shutdown): nothing of the batch is acknowledged
                for *_, fut in batch:
                    if not fut.done():
                        fut.cancel()
                raise
            for (*_, fut), (ok, value) in zip(batch, outcomes):
                if fut.done():
                    continue
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)

    async def _append_batch(
        self, conn: AsyncConnection, requests: list[tuple[int, int, list[str]]]
    ) -> list[Optional[StoreError]]:
        """Check and insert the action appends ``(hand_id, idx, texts)`` of a batch in its
        transaction; each request's refusal or ``None``.  Written by
        :class:`store.hands.HandsMixin`."""
        raise NotImplementedError

    async def _drain(self) -> None:
        """Wait until the writer task has written every queued write."""
        if self._writer is not None and not self._writer.done():
            await asyncio.wait([self._writer])
