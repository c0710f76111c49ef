"""Clocks for the table service's timers: the real one, and one tests move by hand."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """What the table service asks of a clock: seconds that only go forward, and the Unix time
    of one of them (for deadlines shown to players)."""

    def now(self) -> float: ...

    def unix_time(self, t: float) -> float: ...


class SystemClock:
    """Monotonic seconds (``time.monotonic``)."""

    def now(self) -> float:
        return time.monotonic()

    def unix_time(self, t: float) -> float:
        """The Unix time (seconds) of clock time ``t`` — for deadlines shown to players."""
        return time.time() + (t - time.monotonic())


class ManualClock:
    """A clock that only moves when told: ``clock.advance(15)``."""

    #: the Unix time of clock time 0 (a fixed day, so shown deadlines are the same every run)
    EPOCH = 1_767_225_600.0

    def __init__(self, start: float = 1000.0):
        self.t = start

    def now(self) -> float:
        return self.t

    def unix_time(self, t: float) -> float:
        """The Unix time (seconds) of clock time ``t`` (:data:`EPOCH` + ``t``)."""
        return self.EPOCH + t

    def advance(self, seconds: float) -> None:
        self.t += seconds
