"""What ``bench_load.py`` measures a store and the process with: statements, commits and
connections per store call (:class:`Probe`), and the CPU of the event loop, the SQLite threads
and the worker threads (:class:`CpuWindow`, from ``/proc/self/task``)."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import os
import re
import threading
import time
from collections import Counter
from typing import Any, Optional

TICK = os.sysconf("SC_CLK_TCK")

def thread_cpu(tid: int) -> Optional[float]:
    """CPU seconds (user + system) of one thread of this process; ``None`` once it ended."""
    try:
        with open(f"/proc/self/task/{tid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


def all_thread_cpu() -> dict[int, float]:
    out = {}
    for name in os.listdir("/proc/self/task"):
        c = thread_cpu(int(name))
        if c is not None:
            out[int(name)] = c
    return out


# ---------------------------------------------------------------------------- instrumentation
#: the store call a task is inside (reads run in the caller's task; writes in the writer's)
CALL: contextvars.ContextVar[str] = contextvars.ContextVar("store_call", default="-")


class Probe:
    """Counts what a store does on its engine: statements, commits, pool checkouts and new
    connections (attributed to the writer task or to the store call that read outside it),
    and the CPU of the SQLite connection threads.  With ``log``: every statement, with the
    phase and the store calls under way."""

    def __init__(self, store: Any, log: bool = False):
        from sqlalchemy import event

        self.store = store
        self.active = False
        self.log = log
        self.phase = "-"
        self.calls_open: list[str] = []  # store calls under way (for ``log``: one table)
        self.records: list[tuple[str, str, str, int]] = []  # (phase, call, sql, rows)
        self.stmts = 0
        self.stmts_by_kind: Counter = Counter()
        self.commits = 0
        self.rollbacks = 0
        self.checkouts: Counter = Counter()
        self.connects: Counter = Counter()
        self.calls: Counter = Counter()
        self.sqlite_tids: set[int] = set()
        self.cpu_at_close: dict[int, float] = {}
        eng = store.engine.sync_engine
        event.listen(eng, "before_cursor_execute", self._stmt)
        event.listen(eng, "commit", self._commit)
        event.listen(eng, "rollback", self._rollback)
        event.listen(eng.pool, "connect", self._connect)
        event.listen(eng.pool, "checkout", self._checkout)
        event.listen(eng.pool, "close", self._close)
        self._wrap_store()

    def _wrap_store(self) -> None:
        """Wrap every public coroutine method of the store (its own, or a part's it hands
        calls to): count it and name it in ``CALL``."""
        for name in dir(self.store):
            if name.startswith("_"):
                continue
            bound = getattr(self.store, name, None)
            if not inspect.iscoroutinefunction(bound):
                continue

            def make(name: str, bound: Any) -> Any:
                @functools.wraps(bound)
                async def wrapper(*a: Any, **kw: Any) -> Any:
                    if self.active:
                        self.calls[name] += 1
                    token = CALL.set(name)
                    if self.log:
                        self.calls_open.append(name)
                    try:
                        return await bound(*a, **kw)
                    finally:
                        if self.log:
                            self.calls_open.remove(name)
                        CALL.reset(token)
                return wrapper

            setattr(self.store, name, make(name, bound))

    def _who(self) -> str:
        try:
            task = asyncio.current_task()
        except RuntimeError:
            task = None
        # the writer task: the store's database's (a revision before the store had parts: the store's own)
        writer = getattr(getattr(self.store, "db", None), "writer", None) or getattr(self.store, "_writer", None)
        if task is not None and task is writer:
            return "writer"
        return CALL.get()

    def _stmt(self, conn, cursor, statement, parameters, context, executemany) -> None:
        if not self.active:
            return
        self.stmts += 1
        sql = " ".join(statement.split())
        self.stmts_by_kind[_kind(sql)] += 1
        if self.log:
            rows = len(parameters) if executemany and parameters is not None else 1
            call = self.calls_open[-1] if self.calls_open else "-"
            self.records.append((self.phase, call, sql, rows))

    def _commit(self, conn) -> None:
        if self.active:
            self.commits += 1

    def _rollback(self, conn) -> None:
        if self.active:
            self.rollbacks += 1

    def _checkout(self, dbapi_conn, record, proxy) -> None:
        if self.active:
            self.checkouts[self._who()] += 1

    def _connect(self, dbapi_conn, record) -> None:
        tid = _sqlite_tid(dbapi_conn)
        if tid is not None:
            self.sqlite_tids.add(tid)
        if self.active:
            self.connects[self._who()] += 1

    def _close(self, dbapi_conn, record) -> None:
        tid = _sqlite_tid(dbapi_conn)
        if tid is not None:
            c = thread_cpu(tid)
            if c is not None:
                self.cpu_at_close[tid] = c


def _sqlite_tid(dbapi_conn: Any) -> Optional[int]:
    """The OS thread id of an aiosqlite connection's worker thread (``None`` elsewhere)."""
    inner = getattr(dbapi_conn, "_connection", None)
    th = getattr(inner, "_thread", None) or (inner if isinstance(inner, threading.Thread) else None)
    return getattr(th, "native_id", None)


def _sqlite_threads() -> set[int]:
    """The OS thread ids of the live aiosqlite connection threads (also those opened before
    the probe was attached)."""
    return {th.native_id for th in threading.enumerate()
            if getattr(getattr(th, "_target", None), "__module__", "").startswith("aiosqlite")
            and th.native_id is not None}


def _worker_threads() -> set[int]:
    """The OS thread ids of the event loop's default executor (``asyncio.to_thread``)."""
    return {th.native_id for th in threading.enumerate()
            if th.name.startswith("asyncio_") and th.native_id is not None}


def _kind(sql: str) -> str:
    """``SELECT hand``, ``INSERT hand_action`` …: the verb and the first table named."""
    words = sql.split()
    verb = words[0].upper() if words else "?"
    m = None
    if verb == "SELECT":
        m = re.search(r"\bFROM\s+\"?(\w+)", sql, re.I)
    elif verb == "INSERT":
        m = re.search(r"\bINTO\s+\"?(\w+)", sql, re.I)
    elif verb == "UPDATE":
        m = re.search(r"^UPDATE\s+\"?(\w+)", sql, re.I)
    elif verb == "DELETE":
        m = re.search(r"\bFROM\s+\"?(\w+)", sql, re.I)
    elif verb == "BEGIN":
        return " ".join(words[:2]).upper()
    return f"{verb} {m.group(1)}" if m else verb


class CpuWindow:
    """CPU of the process and of its threads over a window (start() … stop())."""

    def start(self, probe: Probe) -> None:
        probe.sqlite_tids.update(_sqlite_threads())
        self.workers = _worker_threads()
        self.p0 = time.process_time()
        self.t0 = all_thread_cpu()

    def stop(self, probe: Probe) -> dict:
        p1 = time.process_time()
        t1 = all_thread_cpu()
        probe.sqlite_tids.update(_sqlite_threads())
        t1.update({tid: c for tid, c in probe.cpu_at_close.items() if tid not in t1})
        main = os.getpid()

        def delta(tid: int) -> float:
            return max(0.0, t1.get(tid, 0.0) - self.t0.get(tid, 0.0))

        loop = delta(main)
        sqlite = sum(delta(tid) for tid in probe.sqlite_tids)
        workers = self.workers | _worker_threads()  # asyncio.to_thread's (an AI level's moves)
        work = sum(delta(tid) for tid in t1 if tid in workers and tid not in probe.sqlite_tids)
        rest = sum(delta(tid) for tid in t1 if tid != main and tid not in probe.sqlite_tids
                   and tid not in workers)
        return {"cpu": p1 - self.p0, "cpu_loop": loop, "cpu_sqlite": sqlite, "cpu_workers": work,
                "cpu_other": rest, "sqlite_threads": len(probe.sqlite_tids)}
