"""The fake Discord's transport: the stand-in for discord.py's aiohttp session, the fast retry sleeps, the captured errors, routes and API errors."""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import logging
import re
import types
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from multidict import CIMultiDict

from .model import *  # noqa: F401,F403


class FakeResponse:
    """Enough of ``aiohttp.ClientResponse`` for discord.py's request loops and errors."""

    def __init__(self, status: int, body: Any, headers: Optional[Dict[str, str]] = None, raw: Optional[bytes] = None):
        self.status = status
        self.reason = {200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
                       404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error"}.get(status, "")
        self.headers = CIMultiDict({"Via": "1.1 google"})
        if raw is not None:
            self._raw = raw
            self.headers["Content-Type"] = "application/octet-stream"
        elif body is None:
            self._raw = b""
        else:
            self._raw = json.dumps(body).encode()
            self.headers["Content-Type"] = "application/json"
        self.headers.update(headers or {})

    async def text(self, encoding: str = "utf-8") -> str:
        return self._raw.decode(encoding)

    async def read(self) -> bytes:
        return self._raw

    async def json(self) -> Any:
        return json.loads(self._raw)

    def release(self) -> None:
        pass


class _RequestContext:
    def __init__(self, coro):
        self._coro = coro

    async def __aenter__(self) -> FakeResponse:
        return await self._coro

    async def __aexit__(self, *exc) -> None:
        return None


class FakeSession:
    """Stands in for the ``aiohttp.ClientSession`` of ``discord.http.HTTPClient``.

    :param trace_configs: the bot's ``http_trace`` (``aiohttp.TraceConfig``), as discord.py
        gives it to its session: told of each request's start, end (with the answer's status
        and headers) or exception, as aiohttp tells them."""

    def __init__(self, harness: "FakeDiscord", trace_configs: Optional[List[Any]] = None):
        self._harness = harness
        self.closed = False
        self._trace_configs = list(trace_configs or [])
        for tc in self._trace_configs:
            tc.freeze()

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        if not self._trace_configs:
            return _RequestContext(self._harness._handle_request(method, str(url), **kwargs))
        return _RequestContext(self._traced(method, str(url), **kwargs))

    async def _traced(self, method: str, url: str, **kwargs: Any) -> FakeResponse:
        from aiohttp.tracing import Trace
        from yarl import URL

        traces = [Trace(self, tc, tc.trace_config_ctx(trace_request_ctx=kwargs.get("trace_request_ctx")))  # type: ignore[arg-type]
                  for tc in self._trace_configs]
        u, headers = URL(url), CIMultiDict(kwargs.get("headers") or {})
        for t in traces:
            await t.send_request_start(method, u, headers)
        try:
            response = await self._harness._handle_request(method, url, **kwargs)
        except BaseException as exc:
            for t in traces:
                await t.send_request_exception(method, u, headers, exc)
            raise
        for t in traces:
            await t.send_request_end(method, u, headers, response)  # type: ignore[arg-type]
        return response

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    async def ws_connect(self, *a: Any, **k: Any):  # pragma: no cover - never used
        raise RuntimeError("FakeDiscord has no gateway")

    async def close(self) -> None:
        self.closed = True


class _FastSleepAsyncio(types.ModuleType):
    """``asyncio`` as seen by discord.http / the webhook adapter: retry back-offs
    (429 retry_after, 5xx 1 s/3 s/...) do not really sleep."""

    def __init__(self):
        super().__init__("asyncio")

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(0, result)


class _ErrorCapture(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.errors: List[BaseException] = []
        self.messages: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
        if record.exc_info and record.exc_info[1] is not None:
            self.errors.append(record.exc_info[1])
        else:
            self.errors.append(RuntimeError(record.getMessage()))


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


def _route_regex(template: str) -> "re.Pattern[str]":
    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")


# ---------------------------------------------------------------------------
# The harness
# ---------------------------------------------------------------------------


@dataclass
class _Failure:
    status: int
    body: Dict[str, Any]
    match: Callable[[RecordedCall], bool]
    times: int


_KNOWN_ERRORS = {
    10003: "Unknown Channel", 10008: "Unknown Message", 10015: "Unknown Webhook", 10062: "Unknown interaction",
    10014: "Unknown Emoji", 30008: "Maximum number of emojis reached",
    40060: "Interaction has already been acknowledged.", 50001: "Missing Access", 50007:
    "Cannot send messages to this user", 50013: "Missing Permissions", 50027: "Invalid Webhook Token",
}


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _guess_type(name: str) -> str:
    ext = name.rsplit(".", 1)[-1].lower()
    return {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
            "webp": "image/webp", "txt": "text/plain; charset=utf-8", "json": "application/json"}.get(
        ext, "application/octet-stream")

__all__ = ["FakeResponse", "_RequestContext", "FakeSession", "_FastSleepAsyncio", "_ErrorCapture", "_now", "_route_regex", "_Failure", "_KNOWN_ERRORS", "_ApiError", "_guess_type"]
