"""One ordered, paced sender per message of a table (:class:`Lane`): the public table message
has one, each player's DMs (their panel and its notice) one.

The messages of one change are independent (the table message and each player's DM are in
different channels), so their lanes send at once, side by side; within a lane the sends keep
their order.  A lane always draws the latest snapshot when it gets to send, so a burst of
changes costs one edit (coalesced), and it keeps the bot's pace per message
(``interval`` seconds between two of its sends), except for an urgent send (a player who
must decide now).  Every lane waits until the interaction that caused the change is answered
(the player who acted hears first).  A failed send is tried again later, with a doubling
delay (:data:`RETRY_EDIT` … 60 s, at most :data:`RETRIES` times in a row).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, Optional

log = logging.getLogger("cogs.fanout")

#: seconds before the first retry of a failed send (doubling, at most 60)
RETRY_EDIT = 0.5
#: failed sends in a row before a lane waits for the next change
RETRIES = 8


class Lane:
    """A paced, ordered sender (see the module docstring).

    :param name: for the logs and the task's name.
    :param step: ``async step() -> bool | None``: send what the latest snapshot asks for;
        ``True`` when something was sent, ``False`` when Discord failed (tried again later),
        ``None`` when nothing was to send.
    :param interval: ``() -> float``, the pace in seconds.
    :param before: awaited before each step (the answer to the interaction goes first).
    """

    def __init__(self, name: str, step: Callable[[], Awaitable[Optional[bool]]], interval: Callable[[], float],
                 before: Callable[[], Awaitable[None]]):
        self.name = name
        self._step = step
        self._interval = interval
        self._before = before
        self.wake = asyncio.Event()
        self.urgent = False
        self.last = float("-inf")
        self.failures = 0
        self.task: Optional[asyncio.Task] = None
        #: when the step being run sent its request (``sending()``): the pace counts from there
        self.sent_at: Optional[float] = None
        self.stopping = False  #: finish the current work, then end
        self.idle = asyncio.Event()
        self.idle.set()

    def poke(self, urgent: bool = False) -> None:
        """Something changed: send it (at once when ``urgent``, else at the lane's pace)."""
        self.urgent = self.urgent or urgent
        self.idle.clear()
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"lane-{self.name}")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self.wake.is_set():
                self.idle.set()
                if self.stopping:
                    return
                await self.wake.wait()
                self.idle.clear()
            self.wake.clear()
            wait = self.last + self._interval() - loop.time()
            while wait > 0 and not self.urgent and not self.stopping:
                try:  # an urgent poke ends the wait; an ordinary one is drawn with it
                    await asyncio.wait_for(self._urgent_poke(), timeout=wait)
                except asyncio.TimeoutError:
                    pass
                wait = self.last + self._interval() - loop.time()
            self.urgent = False
            self.wake.clear()
            await self._before()
            self.sent_at = None
            try:
                sent = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("fan-out lane %s failed", self.name)
                sent = False
            if sent is False:
                self.failures += 1
                if self.failures <= RETRIES:
                    self.last = loop.time() + min(60.0, RETRY_EDIT * 2 ** (self.failures - 1)) - self._interval()
                    self.wake.set()
            else:
                self.failures = 0
                if sent:
                    self.last = self.sent_at if self.sent_at is not None else loop.time()

    def sending(self) -> None:
        """A step is about to send its request: the lane's pace counts from now (Discord counts
        a request when it arrives, not when its answer comes back)."""
        if self.sent_at is None:
            self.sent_at = asyncio.get_running_loop().time()

    async def _urgent_poke(self) -> None:
        while not self.urgent and not self.stopping:
            self.wake.clear()
            await self.wake.wait()

    async def finish(self) -> None:
        """Let the lane send what is due, then end; returns when it ended."""
        self.stopping = True
        self.wake.set()
        if self.task is not None and not self.task.done():
            await asyncio.wait([self.task])

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()


__all__ = ["Lane", "RETRY_EDIT", "RETRIES"]
