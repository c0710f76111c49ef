"""The bot's small web server: ``/healthz`` and ``/metrics``, off unless configured.

Settings (the environment or ``.env``, :meth:`WebSettings.from_env`):

* ``WEB_PORT`` — the port to serve on (1–65535); unset or empty: no web server, no port
  opened, no metrics kept;
* ``WEB_HOST`` — the address to bind (default ``127.0.0.1``: reachable from this machine
  only); ``0.0.0.0`` (or ``::``) binds every interface;
* ``HEALTH_STALL_SECONDS`` — how late the event loop's heartbeat may be before ``/healthz``
  says it is stalled (default 5).

It is one ``aiohttp.web`` application (:attr:`WebApp.app`) running in the bot's event loop;
another front end adds its routes to it before the bot starts it (``app.router.add_get``,
``app.add_subapp``).  Routes:

* ``GET /healthz`` — 200 or 503 with a JSON body naming the failed checks (``cogs/health.py``);
* ``GET /metrics`` — Prometheus' text format (``cogs/metrics.py``).

``python -m cogs.web --check`` asks ``/healthz`` of the bot these settings describe (the
container's health check): exit 0 when healthy — or when the web server is off, as there is
nothing to ask — 1 otherwise, with the answer on standard output.  It reads the
environment only (a container's, where compose put ``.env``'s values).
"""

from __future__ import annotations

import logging
import os
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from service.health import BEAT_INTERVAL, STALL_AFTER, STORE_TIMEOUT, Heartbeat

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"


@dataclass(frozen=True)
class WebSettings:
    """Where the web server listens and how health is judged.

    :ivar port: TCP port (0: any free one, for tests).
    :ivar host: address to bind.
    :ivar stall_after: seconds of heartbeat lateness that mean a stalled loop.
    :ivar beat_interval: seconds between heartbeats (0: no heartbeat task; tests beat).
    :ivar store_timeout: seconds the store has to answer.
    """

    port: int
    host: str = DEFAULT_HOST
    stall_after: float = STALL_AFTER
    beat_interval: float = BEAT_INTERVAL
    store_timeout: float = STORE_TIMEOUT

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Optional["WebSettings"]:
        """The settings of ``WEB_PORT``, ``WEB_HOST``, ``HEALTH_STALL_SECONDS``; ``None`` when
        ``WEB_PORT`` is unset or empty (off).  :raises ValueError: a malformed value, named."""
        port_text = (env.get("WEB_PORT") or "").strip()
        if not port_text:
            return None
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise ValueError(f"WEB_PORT must be a port number (1-65535), not {port_text!r}")
        host = (env.get("WEB_HOST") or "").strip() or DEFAULT_HOST
        stall_text = (env.get("HEALTH_STALL_SECONDS") or "").strip()
        stall = STALL_AFTER
        if stall_text:
            try:
                stall = float(stall_text)
            except ValueError:
                stall = -1.0
            if not 0 < stall < 3600:
                raise ValueError(f"HEALTH_STALL_SECONDS must be a number of seconds above 0, not {stall_text!r}")
        return cls(int(port_text), host, stall)


class WebApp:
    """The web server of one bot (see the module docstring): made with the bot, started at
    the end of its ``setup_hook`` (after the cogs, which may add routes), stopped first when
    it closes.

    :param bot: the bot (its ``service``, ``event_hooks``, ``metrics``).
    :param settings: where to listen.
    """

    def __init__(self, bot: Any, settings: WebSettings):
        from aiohttp import web

        from .health import Gateway

        self.bot = bot
        self.settings = settings
        self.app = web.Application()
        self.heartbeat = Heartbeat(settings.beat_interval, settings.stall_after)
        self.gateway = Gateway(bot)
        bot.event_hooks.append(self.gateway.on_event)
        self.app.router.add_get("/healthz", self.healthz)
        if getattr(bot, "metrics", None) is not None:
            bot.metrics.heartbeat = self.heartbeat
            self.app.router.add_get("/metrics", self.metrics)
        self.runner: Any = None
        #: the addresses bound, ``(host, port)`` (IPv6: 4-tuples), once started
        self.addresses: list[tuple] = []

    async def start(self) -> None:
        """Bind and serve.  A port that cannot be bound is logged as an error and the bot
        goes on without the web server (its health check then fails, which says so)."""
        from aiohttp import web

        if getattr(self.bot, "metrics", None) is not None:
            self.bot.metrics.install(self.bot)
        self.heartbeat.start()
        self.runner = web.AppRunner(self.app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.settings.host, self.settings.port)
        try:
            await site.start()
        except OSError as exc:
            log.error("web server: cannot listen on %s port %s: %s", self.settings.host, self.settings.port, exc)
            await self.runner.cleanup()
            self.runner = None
            return
        self.addresses = list(self.runner.addresses)
        log.info("health and metrics on http://%s:%s/ (healthz, metrics)", self.settings.host,
                 self.addresses[0][1] if self.addresses else self.settings.port)

    async def stop(self) -> None:
        self.heartbeat.stop()
        if getattr(self.bot, "metrics", None) is not None:
            self.bot.metrics.uninstall()
        self.addresses = []
        if self.runner is not None:
            runner, self.runner = self.runner, None
            await runner.cleanup()

    @property
    def port(self) -> Optional[int]:
        """The port bound (``None`` before :meth:`start`, or when it could not bind)."""
        return self.addresses[0][1] if self.addresses else None

    # ------------------------------------------------------------------ routes
    async def healthz(self, request: Any) -> Any:
        from aiohttp import web

        from .health import report

        found = await report(self.bot, self.gateway, self.heartbeat, self.settings.store_timeout)
        return web.json_response(found.to_json(), status=200 if found.ok else 503)

    async def metrics(self, request: Any) -> Any:
        from aiohttp import web
        from prometheus_client import CONTENT_TYPE_LATEST

        body = self.bot.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


def probe_url(settings: WebSettings) -> str:
    """The ``/healthz`` URL of the bot these settings describe, from the same machine (an
    address that binds every interface is asked on the loopback)."""
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(settings.host, settings.host)
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{settings.port}/healthz"


def check(env: Mapping[str, str], timeout: float = 4.0) -> int:
    """Ask ``/healthz`` (``python -m cogs.web --check``): 0 healthy or off, 1 otherwise."""
    try:
        settings = WebSettings.from_env(env)
    except ValueError as exc:
        print(f"health check: {exc}")
        return 1
    if settings is None:
        print("health check: WEB_PORT is not set: the web server is off, nothing to check")
        return 0
    try:
        with urllib.request.urlopen(probe_url(settings), timeout=timeout) as answer:
            print(answer.read().decode("utf-8", "replace"))
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode("utf-8", "replace"))
    except (OSError, ValueError) as exc:
        print(f"health check: {probe_url(settings)}: {exc}")
    return 1


def main(argv: Optional[list[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["--check"]:
        print("usage: python -m cogs.web --check", file=sys.stderr)
        return 2
    return check(os.environ)


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["WebSettings", "WebApp", "probe_url", "check", "DEFAULT_HOST"]
