"""``/healthz``: whether the bot is healthy, as ``cogs/web.py`` serves it.

Three checks, each in the JSON body with its figures (``service.health.HealthReport``):

* ``gateway`` — connected to Discord: the bot is ready (READY was received), not closed, and
  no shard of this process is between a disconnect and its reconnection (``connect``,
  ``resumed``, ``ready`` and their ``shard_…`` forms end a ``disconnect``).  The heartbeat
  round trip is reported once known (``latency_s``; discord.py knows it from the first
  heartbeat acknowledged, about 40 s after connecting) but does not decide;
* ``event_loop`` — the loop is not stalled (``service.health.Heartbeat``);
* ``store`` — the store answers a trivial query in time (``TableService.check_store``).

200 when all pass, 503 otherwise, the failed checks named in ``"failed"``.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from service.health import Check, HealthReport, Heartbeat

#: the gateway events that end a disconnection, and the one that starts it
_UP = {"connect", "resumed", "ready", "shard_connect", "shard_resumed", "shard_ready"}
_DOWN = {"disconnect", "shard_disconnect"}


class Gateway:
    """The gateway's state, from the bot's events (``bot.event_hooks``)."""

    def __init__(self, bot: Any):
        self.bot = bot
        #: shards (``None``: the connection of a bot that is not sharded) disconnected now
        self.down: set[Optional[int]] = set()

    def on_event(self, event: str, args: tuple) -> None:
        if event not in _UP and event not in _DOWN:
            return
        shard = args[0] if event.startswith("shard_") and args else None
        if event in _DOWN:
            self.down.add(shard)
        else:
            self.down.discard(shard)

    def check(self) -> Check:
        bot = self.bot
        ready, closed = bot.is_ready(), bot.is_closed()
        latency = bot.latency
        detail: dict[str, Any] = {"ready": ready, "closed": closed,
                                  "disconnected": sorted("bot" if s is None else f"shard {s}" for s in self.down),
                                  "latency_s": round(latency, 3) if latency is not None and math.isfinite(latency)
                                  else None}
        ok = ready and not closed and not self.down
        if not ok:
            detail["error"] = "closed" if closed else "not ready" if not ready else "disconnected from the gateway"
        return Check("gateway", ok, detail)


async def report(bot: Any, gateway: Gateway, heartbeat: Heartbeat, store_timeout: float) -> HealthReport:
    """Every check now: the gateway, the event loop, the store."""
    return HealthReport((gateway.check(), heartbeat.check(), await bot.service.check_store(store_timeout)))


__all__ = ["Gateway", "report"]
