"""Clocks for the table service's timers: the real one, and one tests move by hand."""

from __future__ import annotations

import time


class SystemClock:
    """Monotonic seconds (``time.monotonic``)."""

    def now(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that only moves when told: ``clock.advance(15)``."""

    def __init__(self, start: float = 1000.0):
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
