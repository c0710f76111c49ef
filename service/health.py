"""Whether the bot is healthy: the checks that know no Discord, and the report they make.

* :class:`Heartbeat` — the event loop is not stalled: a task beats every ``interval``
  seconds; a beat that came more than ``stall_after`` seconds late, or a beat overdue by more
  than that, means the loop was (or is) blocked.  Its clock is injectable (tests move it by
  hand, never by waiting).
* :class:`StoreHealth` — the store answers a trivial query within a timeout.
* :class:`Check` and :class:`HealthReport` — one check's verdict with its figures, and all of
  them together as the JSON body of ``/healthz`` (``cogs/health.py``).

The front end adds its own check (the Discord gateway) and serves the report; nothing here
imports Discord, the web server or the metrics library.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:  # (not imported at run time: ``python -m cogs.web --check`` starts light)
    from store import Store

#: seconds the store has to answer its health query
STORE_TIMEOUT = 2.0
#: seconds between two beats of the event loop's heartbeat
BEAT_INTERVAL = 1.0
#: seconds a beat may be late before the loop counts as stalled (``HEALTH_STALL_SECONDS``)
STALL_AFTER = 5.0


@dataclass(frozen=True)
class Check:
    """One check's verdict.

    :ivar name: ``"gateway"``, ``"event_loop"``, ``"store"``.
    :ivar ok: healthy.
    :ivar detail: figures and, when not ok, ``"error"``: why (JSON-able values).
    """

    name: str
    ok: bool
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HealthReport:
    """Every check's verdict; healthy when all are."""

    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failed(self) -> list[str]:
        """The names of the checks that failed, in order."""
        return [c.name for c in self.checks if not c.ok]

    def to_json(self) -> dict[str, Any]:
        """``{"status": "ok" | "unhealthy", "failed": [names], "checks": {name: {"ok": …,
        …figures}}}``."""
        return {"status": "ok" if self.ok else "unhealthy", "failed": self.failed,
                "checks": {c.name: {"ok": c.ok, **c.detail} for c in self.checks}}


class Heartbeat:
    """The event loop's heartbeat (see the module docstring).

    :param interval: seconds between beats (the task's sleep).
    :param stall_after: seconds of lateness from which the loop counts as stalled.
    :param clock: seconds, monotonic (``time.monotonic`` by default).
    """

    def __init__(self, interval: float = BEAT_INTERVAL, stall_after: float = STALL_AFTER,
                 clock: Callable[[], float] = time.monotonic):
        self.interval = interval
        self.stall_after = stall_after
        self.clock = clock
        #: the clock's value at the last beat (``None``: none yet)
        self.last: Optional[float] = None
        #: seconds the last beat came after it was due
        self.lag = 0.0
        self.task: Optional[asyncio.Task] = None

    def beat(self) -> None:
        """Record a beat now (the task calls it; a test may too)."""
        now = self.clock()
        if self.last is not None:
            self.lag = max(0.0, now - self.last - self.interval)
        self.last = now

    def overdue(self) -> float:
        """Seconds the next beat is late by now (0 when not due yet, or before the first)."""
        if self.last is None:
            return 0.0
        return max(0.0, self.clock() - self.last - self.interval)

    def check(self) -> Check:
        """Stalled when the last beat came, or the next one is, more than ``stall_after`` s
        late."""
        lag, overdue = self.lag, self.overdue()
        detail: dict[str, Any] = {"lag_s": round(lag, 3), "overdue_s": round(overdue, 3),
                                  "bound_s": self.stall_after}
        ok = self.last is not None and max(lag, overdue) <= self.stall_after
        if not ok:
            detail["error"] = "no beat yet" if self.last is None else \
                f"the event loop was blocked for {max(lag, overdue):.1f} s (bound {self.stall_after:g} s)"
        return Check("event_loop", ok, detail)

    def start(self) -> None:
        """Beat every ``interval`` seconds in a task of the running loop (``interval`` 0: no task;
        the caller beats)."""
        self.beat()
        if self.interval > 0 and (self.task is None or self.task.done()):
            self.task = asyncio.get_running_loop().create_task(self._run(), name="heartbeat")

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.beat()


class StoreHealth:
    """Whether the store answers.

    :param store: the bot's store."""

    def __init__(self, store: Store):
        self.store = store

    async def check(self, timeout: float = STORE_TIMEOUT) -> Check:
        """Ask the store one trivial query (``Store.ping``); unhealthy when it fails or takes
        longer than ``timeout`` seconds."""
        try:
            await asyncio.wait_for(self.store.ping(), timeout)
        except asyncio.TimeoutError:
            return Check("store", False, {"error": f"no answer within {timeout:g} s"})
        except Exception as exc:
            return Check("store", False, {"error": f"{type(exc).__name__}: {exc}"[:300]})
        return Check("store", True)


__all__ = ["Check", "HealthReport", "Heartbeat", "StoreHealth", "STORE_TIMEOUT", "BEAT_INTERVAL", "STALL_AFTER"]
