"""A clean stop of the Discord bot on SIGTERM or SIGINT (``docker stop``, ``systemctl stop``,
Ctrl-C at a terminal).

:func:`serve` runs the bot (``bot.start(token)``) with the loop's handlers for both signals.
A signal during start-up (logging in, the migrations, the command sync) cancels the start —
the migrations run in one transaction, so a cancelled one leaves the database as it was.  A
signal once the bot serves starts :meth:`Shutdown.drain`, bounded by ``STOP_TIMEOUT`` seconds
(:data:`STOP_TIMEOUT` by default, under Docker's 10 s before its SIGKILL):

1. new interactions are no longer handled: each gets a private "restarting, try again in a
   moment" (``lifecycle.restarting``; an autocomplete gets no choices);
2. the interactions in flight finish: acknowledged, their moves stored, answered;
3. the table timers stop between two ticks (a timeout or AI move in progress is finished);
4. the fan-out sends what it was given — each table's message and panels, its memory kept
   (``cogs/fanout.py`` ``Fanout.finish``);
5. the refusals of step 1 are sent; then the bot closes: the gateway, the HTTP session, the
   store.

What the bound cuts off is logged and left to the next start, which resumes every open table
and sends what the stopped process had not sent.  A second signal while draining stops at once.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Awaitable, Callable, Iterable, Optional

import discord
from discord import app_commands

from render.text import t

from .common import admit, user_lang

log = logging.getLogger("bot")

#: seconds a clean stop may take by default (Docker sends SIGKILL 10 s after SIGTERM)
STOP_TIMEOUT = 8.0
#: seconds the gateway's connection has to end once the bot closed
CLOSE_WAIT = 1.0
#: the signals that ask for a clean stop
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def stop_timeout(text: Optional[str]) -> float:
    """``STOP_TIMEOUT`` (seconds, a number ≥ 0; empty or ``None``: :data:`STOP_TIMEOUT`).

    :raises ValueError: not such a number (a configuration mistake)."""
    if text is None or not text.strip():
        return STOP_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"STOP_TIMEOUT must be seconds (e.g. 8), not {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"STOP_TIMEOUT must be seconds of at least 0, not {text!r}")
    return value


class Shutdown:
    """The gate of a bot's interactions and its draining (see the module docstring).

    Made with the bot (``bot.shutdown``).  Every interaction passes :meth:`admit` first —
    the slash commands through :class:`GatedTree`, the bot's buttons and menus through
    ``cogs.common.Guarded``, the rules form through its ``interaction_check`` — which
    remembers its task while it is handled, and refuses it once stopping.
    """

    def __init__(self, bot: discord.Client):
        self.bot = bot
        #: the bot set itself up (``setup_hook`` ended): a stop drains instead of cancelling
        self.serving = False
        #: new interactions are refused
        self.stopping = False
        #: interactions answered "restarting" since the stop began
        self.refused = 0
        self._in_flight: set[asyncio.Task] = set()
        self._refusals: set[asyncio.Task] = set()

    @property
    def in_flight(self) -> int:
        """Interactions being handled now (their tasks)."""
        return sum(1 for task in self._in_flight if not task.done())

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Called first in the handling of every interaction (:func:`admit`): ``True`` — handle
        it, its task is now in flight; ``False`` — the bot is stopping and the interaction was
        answered "restarting" (privately; an autocomplete with no choices)."""
        task = asyncio.current_task()
        if not self.stopping:
            if task is not None:
                self._in_flight.add(task)
                task.add_done_callback(self._in_flight.discard)
            return True
        self.refused += 1
        if task is not None:
            self._refusals.add(task)
            task.add_done_callback(self._refusals.discard)
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(t("lifecycle.restarting", user_lang(interaction)),
                                                        ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not answer an interaction while stopping: %s", exc)
        return False

    async def drain(self, timeout: float) -> bool:
        """Refuse new interactions, then let what is in flight finish, within ``timeout``
        seconds in all (steps 1–5 of the module docstring, without the closing).  Returns
        ``True`` when everything finished in time; what did not is logged (and, for the
        fan-out, sent by the next start)."""
        self.stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        bot = self.bot
        ok = await _until(deadline, self._in_flight, "interactions")
        ticking: Optional[asyncio.Lock] = getattr(bot, "ticking", None)
        timer: Optional[asyncio.Task] = getattr(bot, "_timer_task", None)
        if timer is not None and not timer.done():
            if ticking is not None:  # the tick in progress ends first
                try:
                    await asyncio.wait_for(ticking.acquire(), max(0.0, deadline - loop.time()))
                except asyncio.TimeoutError:
                    ok = False
                    log.warning("stopping: the table timers' tick did not end in time")
            timer.cancel()
        fanout = getattr(bot, "fanout", None)
        if fanout is not None:
            finishing = loop.create_task(fanout.finish(), name="fanout-finish")
            ok = await _until(deadline, {finishing}, "the fan-out") and ok
            finishing.cancel()
        ok = await _until(deadline, self._refusals, "restarting answers") and ok
        return ok


class GatedTree(app_commands.CommandTree):
    """The bot's command tree: every slash command and autocomplete passes :func:`admit`."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await admit(interaction)


async def _until(deadline: float, tasks: Iterable[asyncio.Task], what: str) -> bool:
    """Wait for ``tasks`` until the loop's time ``deadline``; ``False`` (logged) when some are
    still running then."""
    pending = {task for task in tasks if not task.done()}
    if not pending:
        return True
    left = deadline - asyncio.get_running_loop().time()
    if left > 0:
        _, pending = await asyncio.wait(pending, timeout=left)
    if pending:
        log.warning("stopping: %d of %s not finished within STOP_TIMEOUT; the next start takes them up",
                    len(pending), what)
    return not pending


async def serve(bot, start: Callable[[], Awaitable[None]], *, timeout: float = STOP_TIMEOUT,
                signals: tuple = STOP_SIGNALS) -> Optional[str]:
    """Run ``start()`` (``bot.start(token)``; a test passes its own) until it ends or one of
    ``signals`` asks the bot to stop; then stop cleanly (module docstring) and close the bot.

    :returns: the name of the signal that stopped the bot (``"SIGTERM"``), or ``None`` when
        ``start()`` returned by itself.
    :raises: what ``start()`` raises (``discord.LoginFailure`` for a refused token,
        ``aiohttp.ClientError`` without network, …); the bot is closed first.
    """
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received: list[str] = []
    draining: list[asyncio.Task] = []

    def on_signal(sig: signal.Signals) -> None:
        received.append(sig.name)
        if len(received) == 1:
            stop.set()
        else:
            log.warning("%s again: stopping now", sig.name)
            for task in draining:
                task.cancel()

    for sig in signals:
        loop.add_signal_handler(sig, on_signal, sig)
    try:
        running = loop.create_task(start(), name="bot")
        waiting = loop.create_task(stop.wait(), name="stop-signal")
        await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if running.done():
            waiting.cancel()
            running.result()  # a failure to start is raised here
            return None
        shutdown: Shutdown = bot.shutdown
        if not shutdown.serving:
            log.info("%s during start-up: stopping", received[0])
            running.cancel()
            await asyncio.wait({running})
        else:
            log.info("%s: stopping — finishing what is in flight (at most %g s)", received[0], timeout)
            draining.append(loop.create_task(shutdown.drain(timeout), name="drain"))
            await asyncio.wait(draining)
        await bot.close()
        if not running.done():  # the gateway's loop ends once it sees the bot closed
            await asyncio.wait({running}, timeout=CLOSE_WAIT)
            running.cancel()
            await asyncio.wait({running})
        if not running.cancelled() and running.exception() is not None:
            log.warning("the bot's connection ended with %r while stopping", running.exception())
        log.info("stopped")
        return received[0]
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
        if not bot.is_closed():
            await bot.close()


__all__ = ["CLOSE_WAIT", "GatedTree", "STOP_SIGNALS", "STOP_TIMEOUT", "Shutdown", "admit", "serve", "stop_timeout"]
