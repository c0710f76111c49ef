"""Discord's rate limits, as the fake Discord applies them with ``FakeDiscord(rate_limits=True)``.

**Per-route buckets.**  Discord counts each request against the bucket of its route and of
its *top-level resource* (the major parameter: ``channel_id``, ``guild_id``, or webhook id and
token), so two channels never share a bucket.  A bucket is a fixed window: the first request
after a window ended opens one of ``per`` seconds, in which at most ``limit`` requests are
taken; one more is answered 429 until the window ends.  The limits (``RATE_LIMITS``; each
:class:`FakeDiscord` keeps its own copy in ``rate_limit_table``, which a test may change before
the requests; the keys are ``"METHOD route"``, ``"webhook"``, ``"*"`` and ``"global"``):

=====================================================  =========  ==============================
bucket                                                 limit      counted per
=====================================================  =========  ==============================
``POST /channels/{channel_id}/messages`` (send)         5 / 5 s    channel (DM channels too)
``PATCH /channels/{channel_id}/messages/{message_id}``  5 / 5 s    channel
``DELETE /channels/{channel_id}/messages/{message_id}`` 5 / 1 s    channel
``POST /users/@me/channels`` (open a DM)                5 / 1 s    the bot
``POST /applications/{application_id}/emojis``         5 / 5 s    the application (one a fake)
(upload an application emoji)
``webhook``: every ``/webhooks/{application_id}/{token}...``
route (followups, edits and deletes by token)           5 / 2 s    interaction token
interaction callback                                    not refused (one response per
                                                        interaction: 40060 after that)
``*``: every other route                                50 / 1 s   route and major parameter
``global``: all routes but the interaction ones         50 / 1 s   the bot
=====================================================  =========  ==============================

Sending 5 per 5 s per channel and deleting 5 per 1 s per channel are the limits commonly
observed on Discord; editing is given the sending one; the token routes' 5 per 2 s, the
DM channels' 5 per second and the emoji uploads' 5 per 5 s (an application uploading its set
of emojis at start meets it) are this fake's choice (Discord documents no numbers and asks bots
to read the headers); 50 requests a second is Discord's documented global limit, from which
interaction endpoints are exempt.

**Headers.**  Every answered response of a counted route carries ``X-RateLimit-Limit``,
``X-RateLimit-Remaining``, ``X-RateLimit-Reset`` (epoch seconds, float),
``X-RateLimit-Reset-After`` (seconds, rounded up to the millisecond) and
``X-RateLimit-Bucket`` (an opaque id of the bucket, the same for every major parameter, as
Discord's).  A 429 has the body ``{"message": "You are being rate limited.", "retry_after":
<seconds>, "global": <bool>}``, a ``Retry-After`` header (whole seconds, rounded up) and
``X-RateLimit-Scope``: ``user`` for a route's bucket, ``global`` (with ``X-RateLimit-Global:
true``, and no bucket headers) for the global limit.  Without ``rate_limits`` nothing is
counted and no rate-limit header is sent.

**What discord.py 2.7 does with them.**  ``HTTPClient.request`` reads the bucket headers of
every answer that is not a 429 (``X-RateLimit-Reset-After``, measured on the loop's clock;
``X-RateLimit-Reset`` only with ``use_clock``) and, when ``remaining`` reaches 0, waits out
``Reset-After`` before the next request of that bucket; the webhook adapter (interaction
tokens) does the same per token.  The global limit is not counted: discord.py learns of it
from a global 429 and then holds every bot-token request for ``retry_after``.  On any 429 it
sleeps ``retry_after`` and tries again, at most 5 times.  So a single bot that honours the
headers is refused by a route bucket only when something it cannot see shares the bucket (a
second process of the bot); the global limit refuses a fan-out of more than 50 bot-token
calls in a second.  What a bot that goes too fast on one bucket meets is a *hold*: discord.py
keeps its next request of the bucket (and the task that sends it) waiting for the rest of the
window.  The fake reports, per bucket, the windows used up (``exhausted_counts``), those used
up faster than the bucket's steady rate of ``limit`` per ``per`` seconds (``burst_counts``:
the hold was longer than ``per / limit``) and the 429s (``rate_limit_counts``; each refused
call is kept in ``FakeDiscord.rate_limited``).

**Clock.**  The buckets run on ``rate_clock()`` when given (a test advances time itself), else
on the running loop's ``time()`` -- the clock discord.py computes its waits on, so a bot that
sleeps what the headers say is not refused.  A window counts as over 1 ms early (the headers
are in milliseconds, and the loop may wake a timer a hair early).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import discord.http as _discord_http
import discord.webhook.async_ as _discord_webhook

from .model import RecordedCall

#: ``(limit, seconds)`` of each bucket; see the module docstring
RATE_LIMITS: Dict[str, Tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": (5, 1.0),
    "POST /users/@me/channels": (5, 1.0),
    "POST /applications/{application_id}/emojis": (5, 5.0),
    "webhook": (5, 2.0),
    "POST /interactions/{interaction_id}/{token}/callback": (5, 1.0),
    "*": (50, 1.0),
    "global": (50, 1.0),
}
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
#: a window counts as over this many seconds before its end
EPSILON = 0.001
_MESSAGE = "You are being rate limited."

#: discord.py's own waits inside a request (rate-limit and retry sleeps, the global lock, the
#: webhook adapter's delay): a task waiting there is busy, however long the wait
DISCORD_WAITS = {
    _discord_http.HTTPClient.request.__code__, _discord_http.Ratelimit._refresh.__code__,
    _discord_webhook.AsyncWebhookAdapter.request.__code__, _discord_webhook.AsyncDeferredLock.__aexit__.__code__,
}


@dataclass
class Bucket:
    """One bucket: ``name`` (a key of the limits table), ``major`` (its major parameter)."""

    name: str
    major: str
    limit: int
    per: float
    taken: int = 0
    reset_at: float = float("-inf")
    requests: int = 0  #: requests taken, over all windows
    refused: int = 0  #: requests answered 429
    exhausted: int = 0  #: windows whose last request was taken
    #: for each window used up: the seconds it still had to run (what a client holds its next
    #: request of the bucket for)
    holds: List[float] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.name} [{self.major}]" if self.major else self.name

    @property
    def hash(self) -> str:
        return hashlib.sha1(self.name.encode()).hexdigest()[:32]

    @property
    def bursts(self) -> int:
        """Windows used up faster than the bucket's steady rate (``limit`` per ``per``):
        with more than ``per / limit`` seconds left."""
        return sum(1 for h in self.holds if h > self.per / self.limit + EPSILON)

    def take(self, now: float) -> None:
        self.taken += 1
        self.requests += 1
        if self.taken == self.limit:
            self.exhausted += 1
            self.holds.append(self.reset_at - now)

    def roll(self, now: float) -> None:
        if now >= self.reset_at - EPSILON:
            self.taken, self.reset_at = 0, now + self.per


class RateLimitMixin:
    """Counting requests against Discord's rate limits (part of :class:`FakeDiscord`)."""

    def _init_rate_limits(self, enabled: bool, clock: Optional[Callable[[], float]],
                          limits: Optional[Dict[str, Tuple[int, float]]]) -> None:
        self.rate_limits = enabled
        self.rate_clock = clock
        self.rate_limit_table: Dict[str, Tuple[int, float]] = {**RATE_LIMITS, **(limits or {})}
        #: when true, a 429 is not a problem of the bot (strict mode does not raise for it)
        self.allow_rate_limits = False
        self.rate_limited: List[RecordedCall] = []  #: every call answered 429 by the limits
        self._rl_seen = 0
        self.buckets: Dict[Tuple[str, str], Bucket] = {}

    def _rl_now(self) -> float:
        return self.rate_clock() if self.rate_clock is not None else asyncio.get_running_loop().time()

    def _bucket(self, name: str, major: str) -> Bucket:
        b = self.buckets.get((name, major))
        if b is None:
            limit, per = self.rate_limit_table.get(name) or self.rate_limit_table["*"]
            b = self.buckets[(name, major)] = Bucket(name, major, limit, per)
        return b

    def _bucket_of(self, call: RecordedCall, match: Dict[str, str]) -> Tuple[Bucket, bool]:
        """The call's bucket, and whether it is an interaction endpoint (exempt from global)."""
        if call.key == CALLBACK:
            return self._bucket(CALLBACK, f"{match['interaction_id']}+{match['token']}"), True
        if call.route.startswith("/webhooks/{application_id}/{token}"):
            token = match["token"]
            return self._bucket("webhook", f"{match['application_id']}+{token}"), token in self._by_token
        major = next((f"{k}={match[k]}" for k in ("channel_id", "guild_id") if k in match), "")
        return self._bucket(call.key, major), False

    def _rate_limit(self, call: RecordedCall, match: Dict[str, str]) -> Tuple[Optional[Any], Dict[str, str]]:
        """Count ``call``: ``(None, headers)`` when it may go on (``headers`` for its answer),
        else ``(429 body, headers)``."""
        now = self._rl_now()
        bucket, interaction = self._bucket_of(call, match)
        call.bucket = bucket.label
        if not interaction:
            g = self._bucket("global", "")
            g.roll(now)
            if g.taken >= g.limit:
                g.refused += 1
                retry = _ms(g.reset_at - now)
                call.bucket = g.label
                return ({"message": _MESSAGE, "retry_after": retry, "global": True},
                        {"Retry-After": str(math.ceil(retry)), "X-RateLimit-Global": "true",
                         "X-RateLimit-Scope": "global"})
            g.take(now)
        bucket.roll(now)
        if bucket.taken >= bucket.limit and bucket.name != CALLBACK:
            bucket.refused += 1
            headers = self._bucket_headers(bucket, now)
            retry = float(headers["X-RateLimit-Reset-After"])
            headers.update({"Retry-After": str(math.ceil(retry)), "X-RateLimit-Scope": "user"})
            return {"message": _MESSAGE, "retry_after": retry, "global": False}, headers
        bucket.take(now)
        return None, self._bucket_headers(bucket, now)

    @staticmethod
    def _bucket_headers(bucket: Bucket, now: float) -> Dict[str, str]:
        after = _ms(bucket.reset_at - now)
        return {"X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.taken)),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}", "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": bucket.hash}

    # -- reporting -------------------------------------------------------
    @property
    def rate_limit_counts(self) -> "Counter[str]":
        """429s answered per bucket (``"route [major parameter]"``, or ``"global"``)."""
        return Counter(c.bucket for c in self.rate_limited)

    @property
    def exhausted_counts(self) -> "Counter[str]":
        """Per bucket: windows the bot used up (discord.py then waits for the window's end)."""
        return Counter({b.label: b.exhausted for b in self.buckets.values() if b.exhausted})

    @property
    def burst_counts(self) -> "Counter[str]":
        """Per bucket: windows used up faster than its steady rate (see :attr:`Bucket.bursts`):
        discord.py held the bot's next request of that bucket longer than ``per / limit``."""
        return Counter({b.label: b.bursts for b in self.buckets.values() if b.bursts})

    def _rate_limit_problems(self) -> List[str]:
        """The 429s since the last look, when they are a problem (strict, enforced, not allowed);
        and every touch of the service's table by a front end, every message that would ping
        someone unnamed or show a name as markup (``mentions.py``) since the last look, strict
        or not."""
        out = _guard_problems(self) + self.text_problems
        self.text_problems = []
        new = self.rate_limited[self._rl_seen:]
        self._rl_seen = len(self.rate_limited)
        if not new or not (self.strict and self.rate_limits) or self.allow_rate_limits:
            return out
        return out + [f"rate limited (429) {c.method} {c.path} [{c.bucket}], retry_after "
                      f"{c.response['retry_after']} s" for c in new]


def _guard_problems(fd: Any) -> List[str]:
    guard = _layer_guard()
    if guard is None:
        return []
    seen = getattr(fd, "_guard_seen", 0)
    fd._guard_seen = len(guard.VIOLATIONS)
    return list(guard.VIOLATIONS[seen:])


def _layer_guard():
    """The layer guard of the tests (``tests/harness/layer_guard.py``), ``None`` outside them."""
    try:
        import layer_guard
    except ImportError:
        try:
            from tests.harness import layer_guard  # type: ignore[no-redef]
        except ImportError:
            return None
    return layer_guard


def waits_in_discord_py(coro: Any) -> bool:
    """Whether ``coro`` (the awaiter of a task's innermost wait) is one of :data:`DISCORD_WAITS`."""
    frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
    return frame is not None and frame.f_code in DISCORD_WAITS


def _ms(seconds: float) -> float:
    """Seconds rounded up to the millisecond (as Discord's headers), never below 0."""
    return max(0.0, math.ceil(round(seconds * 1000, 6)) / 1000)


__all__ = ["RATE_LIMITS", "Bucket", "RateLimitMixin", "DISCORD_WAITS", "waits_in_discord_py"]
