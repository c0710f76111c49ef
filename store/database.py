"""The database a store works on, shared by every part of the store: the engine, the clock of
its timestamps, the short reads, and the write path — one writer task that commits the queued
writes in groups (group commit).

Every write is a job ``job(conn)`` handed to :meth:`Database.submit`, or an action append (the
one write that is batched into shared statements: ``append_batch``, given by the store's hands
part).  The caller is answered once the transaction holding its write has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from datetime import datetime, timezone
from typing import Any, AsyncIterator, Awaitable, Callable, Optional

from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .connect import normalize_url, open_engine
from .records import StoreError

#: most write jobs committed in one group-commit transaction (see :meth:`Database.submit`)
_MAX_BATCH = 500

#: an action append: ``(hand_id, idx, texts)``
Append = tuple[int, int, list[str]]
#: ``append_batch(conn, appends, now)``: checks and inserts the appends of one transaction
#: (stored at time ``now``), and returns each one's refusal (``None``: stored)
AppendBatch = Callable[[AsyncConnection, list[Append], datetime], Awaitable[list[Optional[StoreError]]]]
Job = Callable[[AsyncConnection], Awaitable[Any]]


def utc(value: datetime) -> datetime:
    """``value`` as an aware UTC time (a naive one is taken as UTC)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


class Database:
    """A store's database.

    :param url: database URL, normalized by :func:`store.connect.normalize_url`.
    :param append_batch: stores the action appends of one transaction (see the module).
    :param echo, schema, sqlite_synchronous: as :class:`store.Store`.
    :param clock: returns the current time; every stored timestamp comes from it.
    """

    def __init__(self, url: str, append_batch: AppendBatch, *, echo: bool = False,
                 clock: Optional[Callable[[], datetime]] = None, schema: Optional[str] = None,
                 sqlite_synchronous: str = "FULL"):
        self.url = normalize_url(url)
        self.parsed_url: URL = make_url(self.url)
        self.clock: Callable[[], datetime] = clock or (lambda: datetime.now(timezone.utc))
        self.is_sqlite = self.parsed_url.get_backend_name() == "sqlite"
        if schema is not None and self.parsed_url.get_backend_name() != "postgresql":
            raise ValueError("schema= is only supported on PostgreSQL")
        if sqlite_synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("sqlite_synchronous must be FULL, NORMAL or EXTRA")
        #: PostgreSQL schema of the tables, ``None`` for the connection's default
        self.schema = schema
        self.engine: AsyncEngine = open_engine(self.parsed_url, echo=echo, schema=schema,
                                               sqlite_synchronous=sqlite_synchronous)
        self._append_batch = append_batch
        #: SQLite: the one connection the short reads share (``None`` until the first)
        self._reader: Optional[AsyncConnection] = None
        self._reader_lock: Optional[asyncio.Lock] = None
        #: SQLite file: (device, inode) of the file when the kept reader opened it
        self._file_id: Optional[tuple[int, int]] = None
        self._write_lock = asyncio.Lock()
        self._write_queue: list[tuple[Optional[Job], Optional[Append], asyncio.Future]] = []
        #: the writer task while writes are queued
        self.writer: Optional[asyncio.Task] = None
        #: :meth:`close` was called (nothing may use the database since)
        self.closed = False

    @property
    def in_memory(self) -> bool:
        """An in-memory SQLite database (or one without a file name)."""
        return self.is_sqlite and self.parsed_url.database in (None, "", ":memory:")

    def now(self) -> datetime:
        """The current time, aware UTC (from :attr:`clock`)."""
        return utc(self.clock())

    # ------------------------------------------------------------------ reads
    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """A connection for a short read.  On a SQLite file, the store's one kept reading
        connection, taken in turns: in WAL mode it never waits for the writer, and no new
        connection (a thread of the driver, its pragmas) is opened for a read during play;
        each read ends its transaction, so it sees every commit before it.  Elsewhere (an
        in-memory SQLite, PostgreSQL) one of the pool's."""
        if not self.is_sqlite or self.in_memory:
            async with self.engine.connect() as conn:
                yield conn
            return
        if self._reader_lock is None:
            self._reader_lock = asyncio.Lock()
        async with self._reader_lock:
            if self._reader is None:
                self._reader = await self.engine.connect()
                self._file_id = self._file_identity()
            try:
                yield self._reader
            except BaseException:
                reader, self._reader = self._reader, None
                with contextlib.suppress(Exception):
                    await reader.close()
                raise
            else:
                await self._reader.rollback()

    async def ping(self) -> None:
        """One trivial query through :meth:`read` that reads one of the bot's tables (a
        ``SELECT 1`` reads none, and answers when the file is gone or damaged): returns once
        the database answered.  :raises RuntimeError: the database was closed; the driver's
        error when it cannot answer."""
        from sqlalchemy import select

        from .base import _T

        if self.closed:
            raise RuntimeError("the database is closed")
        async with self.read() as conn:
            await conn.execute(select(_T.c.id).limit(1))
        if self._file_id is not None and self._file_identity() != self._file_id:
            # the open connections still read the file they opened, now gone or replaced
            raise StoreError("the database file was removed or replaced")

    def _file_identity(self) -> Optional[tuple[int, int]]:
        """A SQLite file's (device, inode); ``None`` elsewhere or when there is no file."""
        if not self.is_sqlite or self.in_memory:
            return None
        try:
            st = os.stat(str(self.parsed_url.database))
        except OSError:
            return None
        return st.st_dev, st.st_ino

    # ------------------------------------------------------------------ writes
    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction.  On SQLite the writers of this process take turns on an
        ``asyncio.Lock`` (SQLite has one writer at a time; waiting here costs nothing, while
        waiting in SQLite's busy handler polls and sleeps); other processes still wait on
        the busy timeout."""
        if self.is_sqlite:
            async with self._write_lock:
                async with self.engine.begin() as conn:
                    # take the write lock now: a transaction that reads before it writes could
                    # otherwise fail to upgrade when another process wrote in between
                    await conn.exec_driver_sql("BEGIN IMMEDIATE")
                    yield conn
        else:
            async with self.engine.begin() as conn:
                yield conn

    async def submit(self, job: Optional[Job], append: Optional[Append] = None) -> Any:
        """Run ``job(conn)`` in a write transaction and return its result once committed (or,
        with ``job=None``, the action append ``(hand_id, idx, texts)``: its refusal or ``None``).

        Group commit: writes submitted while a transaction is being written wait, then go
        together into the next transaction (at most ``_MAX_BATCH``), with one commit for all:
        first every queued action append (two statements for all of them), then the other jobs
        one after the other.  A job that raises rolls back its batch; the writes of that batch
        are then run again each in its own transaction, so each caller gets its own result or
        error and a failed write never takes another's with it.  Jobs only touch the database
        (they may run twice).
        """
        loop = asyncio.get_running_loop()
        fut: asyncio.Future = loop.create_future()
        self._write_queue.append((job, append, fut))
        if self.writer is None or self.writer.done():
            self.writer = loop.create_task(self._write_batches())
        return await fut

    async def _run_batch(self, batch: list) -> list[tuple[bool, Any]]:
        """One transaction for ``batch``; outcomes in batch order (raises if it rolled back)."""
        out: list[tuple[bool, Any]] = [(True, None)] * len(batch)
        async with self.write() as conn:
            appends = [i for i, (job, _, _) in enumerate(batch) if job is None]
            if appends:
                refusals = await self._append_batch(conn, [batch[i][1] for i in appends], self.now())
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

    async def drain(self) -> None:
        """Wait until the writer task has written every queued write."""
        if self.writer is not None and not self.writer.done():
            await asyncio.wait([self.writer])

    async def close(self) -> None:
        """Write what is queued, then close every connection.  The database cannot be used
        afterwards."""
        self.closed = True
        await self.drain()
        if self._reader is not None:
            reader, self._reader = self._reader, None
            with contextlib.suppress(Exception):
                await reader.close()
        await self.engine.dispose()


__all__ = ["Database", "Append", "AppendBatch", "Job", "utc"]
