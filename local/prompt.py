"""Reading a line at the local table's prompt so that Ctrl-C always interrupts it.

The prompt reads in the main thread: the table has nothing else to do while it waits for you
(the AI seats move inside each action), and there Ctrl-C can interrupt the read.  A read in a
worker thread (``asyncio.to_thread``) cannot be interrupted, so Ctrl-C used to leave the
process waiting for that thread.  :func:`interruptible` sets up, for the time of a game, the
signal wake-up pipe :func:`read_line` waits on.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import select
import signal
import sys
import threading
from typing import Iterator

_BUILTIN_INPUT = builtins.input
#: read end of the signal wake-up pipe while :func:`interruptible` runs (POSIX), else ``None``
_wakeup_r: int | None = None


def _stdin_fd() -> int | None:
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # replaced by a test runner, closed …
        return None


def read_line(prompt: str = "> ") -> str:
    """``input(prompt)`` that Ctrl-C always interrupts (``KeyboardInterrupt``); ``EOFError``
    at the end of input.

    The kernel hands SIGINT to any thread of the process (the SQLite driver runs one); only
    when it lands on the main thread does a blocked read return to run the handler.  So the
    main thread first waits in ``select()`` on stdin and on the signal wake-up pipe, which
    is written whichever thread got the signal; the handler then raises right here.  A
    replaced ``input`` (tests) or a stdin without a file descriptor is read as it is."""
    fd = _stdin_fd()
    if _wakeup_r is None or fd is None or builtins.input is not _BUILTIN_INPUT:
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    while True:
        ready, _, _ = select.select([fd, _wakeup_r], [], [])
        if _wakeup_r in ready:
            try:
                os.read(_wakeup_r, 512)  # another signal than Ctrl-C: keep waiting
            except BlockingIOError:
                pass
        if fd in ready:
            return input()




def _interrupt(signum, frame):
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # one Ctrl-C ends the game; the clean-up runs undisturbed
    raise KeyboardInterrupt


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """For the time of a game: Ctrl-C raises ``KeyboardInterrupt`` where the program is (at
    the prompt: in :func:`read_line`) instead of asyncio's default of cancelling the main task,
    which a blocking read would not notice; a second Ctrl-C during the clean-up is ignored."""
    global _wakeup_r
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, _interrupt) if main_thread else None
    pipe = previous_wakeup = None
    if main_thread and os.name == "posix":
        pipe = os.pipe()
        for end in pipe:
            os.set_blocking(end, False)
        previous_wakeup = signal.set_wakeup_fd(pipe[1], warn_on_full_buffer=False)
        _wakeup_r = pipe[0]
    try:
        yield
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
        if pipe is not None:
            signal.set_wakeup_fd(previous_wakeup)
            _wakeup_r = None
            for end in pipe:
                os.close(end)
