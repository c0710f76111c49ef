"""The bot's metrics in Prometheus' text format (``/metrics``, served by ``cogs/web.py``).

One :class:`Metrics` per bot, with its own ``CollectorRegistry`` (never the library's global
one, so two bots in one process — tests — count apart).  Every series has a ``shard`` label:
a table's, an action's and an interaction's is its guild's shard (``service.routing.shard_of``;
0 for a bot that is not sharded, and for DMs); what belongs to the whole process (its REST
calls, the fan-out, errors) carries the shards the process runs, ``"0,1"``.

=========================================  =========  =========================================
series                                     type       labels, what it counts
=========================================  =========  =========================================
``mahjong_open_tables``                    gauge      shard, game: open tables (lobbies too)
``mahjong_actions_total``                  counter    shard, game, kind: actions applied and
                                                      stored (a player's, the AI's, a timeout's);
                                                      actions/s is its ``rate()``
``mahjong_interaction_ack_seconds``        histogram  shard, type (component, command, modal,
                                                      autocomplete): from the interaction's
                                                      arrival to the end of its first response
                                                      (the acknowledgement Discord waits 3 s for)
``mahjong_fanout_queue_depth``             gauge      shard: message lanes (a table message, a
                                                      player's DMs) with a change not yet sent
``mahjong_discord_requests_total``         counter    shard, route, status: REST requests, each
                                                      try (``POST /channels/{channel_id}/messages``)
``mahjong_discord_rate_limited_total``     counter    shard, route, scope: those answered 429
``mahjong_errors_total``                   counter    shard, source, kind: errors logged by the
                                                      bot or discord.py (kind: the exception's
                                                      class, ``logged`` without one)
``mahjong_event_loop_lag_seconds``         gauge      shard: how late the loop's last beat was
``mahjong_gateway_latency_seconds``        gauge      shard: heartbeat round trip (once known)
=========================================  =========  =========================================

The hooks: the REST calls through discord.py's ``http_trace`` option (an ``aiohttp``
``TraceConfig``: every request it sends, interaction callbacks and each retry after a 429
included); the arrival of an interaction through the bot's event hooks (called as discord.py
dispatches, before any handler runs); actions through the table service's changes
(``Change.actions``); errors through a logging handler.  The service knows nothing of this.
"""

from __future__ import annotations

import logging
import math
import re
import time
from typing import Any, Callable, Optional

import aiohttp
import discord
from yarl import URL
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from engine.variants import all_variants
from service.routing import shard_of

#: the loggers whose errors are counted
ERROR_LOGGERS = ("bot", "cogs", "service", "store", "render", "discord")
#: seconds from an interaction's arrival to its acknowledgement
ACK_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
#: seconds an arrival is kept waiting for its acknowledgement (Discord's 3 s, and room)
ARRIVAL_KEPT = 30.0
#: a snowflake segment of a URL is named by the collection before it
_ID_NAMES = {"channels": "channel_id", "messages": "message_id", "guilds": "guild_id",
             "applications": "application_id", "interactions": "interaction_id", "webhooks": "webhook_id",
             "users": "user_id", "emojis": "emoji_id", "commands": "command_id", "members": "user_id",
             "roles": "role_id", "threads": "thread_id", "stickers": "sticker_id"}
_API = re.compile(r"^/api/v\d+")
_INTERACTION_TYPES = {discord.InteractionType.component: "component",
                      discord.InteractionType.application_command: "command",
                      discord.InteractionType.modal_submit: "modal",
                      discord.InteractionType.autocomplete: "autocomplete"}


def route_of(method: str, url: Any) -> str:
    """The route of a REST request as discord.py names its routes, ids and tokens replaced
    by their names: ``POST /channels/{channel_id}/messages``,
    ``POST /interactions/{interaction_id}/{interaction_token}/callback``; ``GET cdn`` for a
    file of Discord's CDN."""
    u = url if isinstance(url, URL) else URL(str(url))
    if not _API.match(u.path):
        return f"{method} cdn"
    parts = _API.sub("", u.path).strip("/").split("/")
    out: list[str] = []
    for i, seg in enumerate(parts):
        prev = parts[i - 1] if i else ""
        if seg.isdigit():
            out.append("{" + _ID_NAMES.get(prev, "id") + "}")
        elif i >= 2 and parts[i - 2] in ("webhooks", "interactions") and parts[i - 1].isdigit():
            out.append("{webhook_token}" if parts[i - 2] == "webhooks" else "{interaction_token}")
        elif prev == "reactions":
            out.append("{emoji}")
        else:
            out.append(seg)
    return f"{method} /" + "/".join(out)


class _Errors(logging.Handler):
    def __init__(self, metrics: "Metrics"):
        super().__init__(logging.ERROR)
        self.metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        kind = type(exc).__name__ if exc is not None else "logged"
        self.metrics.errors.labels(self.metrics.process_shards, record.name.split(".", 1)[0], kind).inc()


class _Live(Collector):
    """What is read when scraped: open tables, fan-out depth, loop lag, gateway latency."""

    def __init__(self, metrics: "Metrics"):
        self.metrics = metrics

    def collect(self):
        m = self.metrics
        tables = GaugeMetricFamily("mahjong_open_tables", "Open tables (lobbies too), by game",
                                   labels=["shard", "game"])
        depth = GaugeMetricFamily("mahjong_fanout_queue_depth",
                                  "Message lanes (table messages, players' DMs) with a change not yet sent",
                                  labels=["shard"])
        lag = GaugeMetricFamily("mahjong_event_loop_lag_seconds", "How late the event loop's last beat was",
                                labels=["shard"])
        latency = GaugeMetricFamily("mahjong_gateway_latency_seconds",
                                    "Gateway heartbeat round trip (once known)", labels=["shard"])
        bot = m.bot
        counts = {(str(s), g.id): 0 for s in m.shards for g in all_variants()}
        service = getattr(bot, "service", None) if bot is not None else None
        if service is not None:
            for snap in service.snapshots():
                key = (m.shard(snap.guild_id), snap.game.id)
                counts[key] = counts.get(key, 0) + 1
        for (shard, game), n in sorted(counts.items()):
            tables.add_metric([shard, game], n)
        fanout = getattr(bot, "fanout", None) if bot is not None else None
        if fanout is not None:
            busy = {str(s): 0 for s in m.shards}
            for feed in list(fanout.feeds.values()):
                lanes = [feed.public, *feed.seats.values()]
                key = m.shard(feed.latest.guild_id)
                busy[key] = busy.get(key, 0) + sum(1 for lane in lanes if not lane.idle.is_set())
            for shard, n in sorted(busy.items()):
                depth.add_metric([shard], n)
        if m.heartbeat is not None:
            lag.add_metric([m.process_shards], max(m.heartbeat.lag, m.heartbeat.overdue()))
        for shard, seconds in m.gateway_latencies():
            latency.add_metric([shard], seconds)
        return [tables, depth, lag, latency]

    def describe(self):
        return []


class Metrics:
    """The bot's metrics (see the module docstring).

    :param shard_count: shards of the whole bot (1 when not sharded).
    :param shards: the shards this process runs.
    :param clock: seconds, monotonic, for the acknowledgement times (``time.perf_counter``).
    """

    def __init__(self, shard_count: int = 1, shards: tuple[int, ...] = (0,),
                 clock: Callable[[], float] = time.perf_counter):
        self.shard_count = shard_count
        self.shards = shards
        self.process_shards = ",".join(str(s) for s in shards)
        self.clock = clock
        self.bot: Optional[discord.Client] = None
        self.heartbeat: Any = None  #: the event loop's (``service.health.Heartbeat``), when watched
        self.registry = CollectorRegistry()
        r = self.registry
        self.actions = Counter("mahjong_actions", "Actions applied and stored, by game and kind",
                               ["shard", "game", "kind"], registry=r)
        self.ack = Histogram("mahjong_interaction_ack_seconds",
                             "Seconds from an interaction's arrival to its acknowledgement",
                             ["shard", "type"], buckets=ACK_BUCKETS, registry=r)
        self.requests = Counter("mahjong_discord_requests", "Discord REST requests (each try), by route and status",
                                ["shard", "route", "status"], registry=r)
        self.rate_limited = Counter("mahjong_discord_rate_limited", "Discord REST requests answered 429, by route",
                                    ["shard", "route", "scope"], registry=r)
        self.errors = Counter("mahjong_errors", "Errors logged, by source and kind", ["shard", "source", "kind"],
                              registry=r)
        r.register(_Live(self))
        #: interaction id -> (arrival on :attr:`clock`, shard, type)
        self._arrivals: dict[int, tuple[float, str, str]] = {}
        self._errors = _Errors(self)
        #: the trace config to give discord.py (``Client(http_trace=…)``)
        self.http_trace = aiohttp.TraceConfig()
        self.http_trace.on_request_end.append(self._request_end)

    def shard(self, guild_id: Optional[int]) -> str:
        """The ``shard`` label of a guild's series (DMs: shard 0)."""
        return str(shard_of(guild_id or 0, self.shard_count))

    # ------------------------------------------------------------------ the hooks
    def install(self, bot: Any) -> None:
        """Watch ``bot``: its changes, its events, its errors (until :meth:`uninstall`)."""
        self.bot = bot
        bot.service.listeners.append(self.on_change)
        bot.event_hooks.append(self.on_event)
        for name in ERROR_LOGGERS:
            logging.getLogger(name).addHandler(self._errors)

    def uninstall(self) -> None:
        for name in ERROR_LOGGERS:
            logging.getLogger(name).removeHandler(self._errors)

    async def on_change(self, change: Any) -> None:
        """The table service's listener: count the change's actions."""
        snap = change.snapshot
        if snap is None or not change.actions:
            return
        shard, game = self.shard(snap.guild_id), snap.game.id
        for kind in change.actions:
            self.actions.labels(shard, game, kind).inc()

    def on_event(self, event: str, args: tuple) -> None:
        """The bot's event hook (called as discord.py dispatches): an interaction arrived."""
        if event != "interaction" or not args:
            return
        interaction = args[0]
        now = self.clock()
        if len(self._arrivals) > 1000:
            self._arrivals = {k: v for k, v in self._arrivals.items() if now - v[0] < ARRIVAL_KEPT}
        kind = _INTERACTION_TYPES.get(interaction.type, "other")
        self._arrivals[interaction.id] = (now, self.shard(interaction.guild_id), kind)

    async def _request_end(self, session: Any, ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        route = route_of(params.method, params.url)
        self.requests.labels(self.process_shards, route, str(status)).inc()
        if status == 429:
            scope = params.response.headers.get("X-RateLimit-Scope", "user")
            self.rate_limited.labels(self.process_shards, route, scope).inc()
        elif 200 <= status < 300 and route.endswith("/callback") and route.startswith("POST /interactions/"):
            iid = params.url.path.rstrip("/").split("/")[-3]
            arrived = self._arrivals.pop(int(iid), None) if iid.isdigit() else None
            if arrived is not None:
                at, shard, kind = arrived
                self.ack.labels(shard, kind).observe(max(0.0, self.clock() - at))

    def gateway_latencies(self) -> list[tuple[str, float]]:
        """``(shard, seconds)`` of each connected shard whose heartbeat round trip is known."""
        bot = self.bot
        if bot is None:
            return []
        pairs = list(getattr(bot, "latencies", [])) if hasattr(bot, "shards") else [(self.shards[0], bot.latency)]
        return [(str(s), float(v)) for s, v in pairs if v is not None and math.isfinite(v)]

    # ------------------------------------------------------------------ reading
    def exposition(self) -> bytes:
        """The metrics now, in Prometheus' text format."""
        return generate_latest(self.registry)


__all__ = ["Metrics", "route_of", "ACK_BUCKETS", "ERROR_LOGGERS"]
