"""A stand-in for Discord that drives a real discord.py 2.7 bot in tests.

The bot under test is a real :class:`discord.ext.commands.Bot` with its real
:class:`~discord.app_commands.CommandTree`, cogs and :class:`discord.ui.View`\\ s.
Only the network is replaced:

* inbound: :class:`FakeDiscord` builds ``INTERACTION_CREATE`` payloads shaped like
  Discord's and hands them to ``ConnectionState.parse_interaction_create`` (the
  same call the gateway makes), so the command tree, persistent views and
  ``DynamicItem`` templates dispatch exactly as in production;
* outbound: the ``aiohttp.ClientSession`` that discord.py keeps on its
  ``HTTPClient`` is swapped for :class:`FakeSession`.  That one object is used
  both by ``HTTPClient.request`` (bot-token REST calls) and by
  ``AsyncWebhookAdapter.request`` (interaction callbacks, followups and
  original-response edits, which travel with the interaction token), so one
  seam covers both while discord.py's own request code -- JSON/multipart
  encoding, 429 retries, 5xx back-off, mapping of 403/404 to
  :class:`discord.Forbidden`/:class:`discord.NotFound` -- still runs.

The fake REST API keeps messages, DM channels and interactions in memory and
answers like Discord: full message objects with ids, the bot as author,
components echoed back (with their numeric ``id``), attachments listed with a
CDN url; the callback endpoint answers ``{"interaction": ..., "resource": ...}``
as with ``with_response=true``; closed DMs give HTTP 403 code 50007; a second
acknowledgement gives 400 code 40060; message bodies are checked against
Discord's limits (2000 characters, 10 embeds, 5 rows of 5 buttons, 25 select
options, unique custom ids) and rejected with 400 code 50035 / 50006.

Timing: ``latency`` (seconds, or a function of the :class:`RecordedCall`) delays every REST
call before the fake handles it, as a slow network or a busy Discord would; Discord's
3-second rule applies to the first response of an interaction (the callback): one that
arrives later than ``ack_deadline`` seconds after the interaction was created is answered
404 code 10062 (Unknown interaction), and the interaction is listed in :attr:`FakeDiscord.late`.

Waiting for the bot: every task created on the loop after :meth:`FakeDiscord.start`
is tracked (through the loop's task factory).  :meth:`FakeDiscord.settle` returns
once each tracked task is finished or *parked*: sleeping for at least
``park_after`` seconds (turn timers, view time-outs) or waiting on an
``asyncio.Event``/``Queue``/``View.wait``.  Work handed to threads
(``asyncio.to_thread``, aiosqlite) counts as busy and is waited for.

Usage::

    fd = FakeDiscord(bot)
    await fd.start()                      # runs bot.setup_hook(): cogs, persistent views
    alice = fd.user(101, "alice")
    r = await fd.slash(alice, "demo post", {"start": 3})
    msg = fd.messages_in(fd.channel_id)[-1]
    r2 = await fd.click(alice, msg, msg.custom_ids[0])
    assert r2.response_type == 7          # UPDATE_MESSAGE
    await fd.close()
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import itertools
import json
import logging
import re
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import aiohttp
import discord
import discord.http as _discord_http
import discord.webhook.async_ as _discord_webhook
from discord import app_commands
from multidict import CIMultiDict

API_BASE = "https://discord.com/api/v10"
CDN_BASE = "https://cdn.discordapp.com"

#: Interaction types (Discord API): 2 application command, 3 component, 4 autocomplete, 5 modal submit.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
#: Interaction callback types.
CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 1, 4, 5, 6, 7, 8, 9
#: Message flags.
EPHEMERAL, LOADING = 64, 128

_EVERYONE_PERMS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True,
    attach_files=True, add_reactions=True, use_application_commands=True, use_external_emojis=True,
)
_BOT_PERMS = discord.Permissions(_EVERYONE_PERMS.value | discord.Permissions(manage_messages=True).value)


class HarnessError(AssertionError):
    """A test asked for something a Discord client could not do (unknown command,
    a click on a button that is not on the message, a required option missing...)."""


class BotHandlingError(AssertionError):
    """The bot logged an exception, called an unknown route, or never acknowledged
    the interaction while handling it (raised by ``slash``/``click``/... when ``strict``)."""


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass
class RecordedFile:
    """One uploaded file: ``name`` as sent, ``data`` the bytes, ``content_type``."""

    name: str
    data: bytes
    content_type: Optional[str] = None


@dataclass
class RecordedCall:
    """One REST request the bot made.

    ``route`` is the template (``"/channels/{channel_id}/messages"``), ``path`` the
    concrete path without query, ``params`` the query parameters, ``json`` the JSON
    body (for multipart uploads: the decoded ``payload_json``), ``files`` the uploads.
    ``via`` is ``"bot"`` (bot-token REST through ``HTTPClient``), ``"webhook"``
    (interaction-token calls through the webhook adapter) or ``"cdn"``.
    ``status``/``response`` are what the fake answered; ``injected`` marks an
    error injected by :meth:`FakeDiscord.fail_next`; ``interaction_id`` links
    interaction-token calls to their interaction.
    """

    method: str
    path: str
    route: str
    params: Dict[str, Any]
    json: Any
    files: List[RecordedFile]
    via: str
    status: int = 0
    response: Any = None
    injected: bool = False
    interaction_id: Optional[int] = None

    @property
    def key(self) -> str:
        """``"METHOD route"``, e.g. ``"POST /channels/{channel_id}/messages"``."""
        return f"{self.method} {self.route}"


@dataclass
class FakeUser:
    """A Discord user the tests act as.  ``admin`` gives Administrator and Manage Guild
    in guild interactions; ``dms_open=False`` makes DMs to the user fail (403, 50007)."""

    id: int
    name: str
    locale: str = "en-US"
    dms_open: bool = True
    admin: bool = False
    roles: List[int] = field(default_factory=list)
    dm_channel_id: Optional[int] = None

    def payload(self) -> Dict[str, Any]:
        """The Discord user object."""
        return {
            "id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
            "avatar": None, "public_flags": 0, "bot": False,
        }

    def permissions(self) -> int:
        return discord.Permissions.all().value if self.admin else _EVERYONE_PERMS.value

    def member_payload(self) -> Dict[str, Any]:
        """A guild member object (as sent in an interaction: with ``permissions``)."""
        return {
            "user": self.payload(), "roles": [str(r) for r in self.roles], "nick": None, "avatar": None,
            "joined_at": "2024-01-01T00:00:00+00:00", "premium_since": None, "deaf": False, "mute": False,
            "flags": 0, "pending": False, "communication_disabled_until": None,
            "permissions": str(self.permissions()),
        }


class FakeMessage:
    """A message as the fake Discord stores it (current state; ``history`` keeps the
    earlier versions).  ``data`` is the Discord message object the bot got back."""

    def __init__(self, data: Dict[str, Any], *, recipient_id: Optional[int], interaction_id: Optional[int],
                 files: Dict[str, RecordedFile]):
        self.data = data
        self.recipient_id = recipient_id  #: DM recipient, or the only user who sees an ephemeral message
        self.interaction_id = interaction_id
        self.files = files  #: attachment id -> bytes
        self.history: List[Dict[str, Any]] = []
        self.deleted = False

    id = property(lambda self: int(self.data["id"]))
    channel_id = property(lambda self: int(self.data["channel_id"]))
    content = property(lambda self: self.data.get("content", ""))
    embeds = property(lambda self: self.data.get("embeds", []))
    components = property(lambda self: self.data.get("components", []))
    flags = property(lambda self: int(self.data.get("flags", 0)))
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))
    loading = property(lambda self: bool(self.flags & LOADING))
    edits = property(lambda self: len(self.history))

    @property
    def attachments(self) -> List[RecordedFile]:
        """The files currently attached, with their bytes."""
        return [self.files[a["id"]] for a in self.data.get("attachments", []) if a["id"] in self.files]

    def walk_components(self) -> List[Dict[str, Any]]:
        """Every component (rows and containers flattened), in order."""
        out: List[Dict[str, Any]] = []

        def walk(items):
            for c in items:
                out.append(c)
                walk(c.get("components", []))
                if isinstance(c.get("accessory"), dict):
                    out.append(c["accessory"])

        walk(self.components)
        return out

    @property
    def custom_ids(self) -> List[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def component(self, custom_id: Optional[str] = None, *, label: Optional[str] = None) -> Dict[str, Any]:
        """The component with this custom_id (or this button label); HarnessError if absent."""
        for c in self.walk_components():
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        raise HarnessError(f"message {self.id} has no component {custom_id or label!r}; has {self.custom_ids}")

    def __repr__(self) -> str:
        return f"<FakeMessage id={self.id} channel={self.channel_id} flags={self.flags} content={self.content[:40]!r}>"


@dataclass
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: Optional[int]
    payload: Dict[str, Any]
    message_id: Optional[int] = None  #: the message a component was on
    response_type: Optional[int] = None
    response_data: Any = None
    original_message_id: Optional[int] = None
    expired: bool = False
    followup_ids: List[int] = field(default_factory=list)
    created_at: float = 0.0  #: loop time when Discord sent it (the 3-second rule counts from here)
    late: bool = False  #: its callback came after the deadline (answered 404 10062)


@dataclass
class InteractionResult:
    """What one interaction led to.  ``calls`` are all REST calls made while it was
    handled (until the bot settled); ``response_type`` the callback type (4 message,
    5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal, ``None``: never
    acknowledged); ``message`` the original response (for 6/7: the clicked message);
    ``followups`` the followup messages; ``choices`` the autocomplete choices;
    ``errors`` exceptions the bot logged."""

    interaction: FakeInteraction
    calls: List[RecordedCall]
    errors: List[BaseException]
    harness: "FakeDiscord"

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def response_type(self) -> Optional[int]:
        return self.interaction.response_type

    @property
    def message(self) -> Optional[FakeMessage]:
        mid = self.interaction.original_message_id
        return self.harness.messages.get(mid) if mid is not None else None

    @property
    def followups(self) -> List[FakeMessage]:
        return [self.harness.messages[m] for m in self.interaction.followup_ids]

    @property
    def all_messages(self) -> List[FakeMessage]:
        """Original response (if it created one) followed by the followups."""
        first = [self.message] if self.response_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and self.message else []
        return first + self.followups

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def content(self) -> Optional[str]:
        return self.message.content if self.message else None

    @property
    def choices(self) -> List[Dict[str, Any]]:
        if self.response_type != CB_AUTOCOMPLETE:
            raise HarnessError(f"interaction answered with type {self.response_type}, not autocomplete")
        return list((self.interaction.response_data or {}).get("choices", []))


# ---------------------------------------------------------------------------
# aiohttp stand-ins
# ---------------------------------------------------------------------------


class FakeResponse:
    """Enough of ``aiohttp.ClientResponse`` for discord.py's request loops and errors."""

    def __init__(self, status: int, body: Any, headers: Optional[Dict[str, str]] = None, raw: Optional[bytes] = None):
        self.status = status
        self.reason = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
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
    """Stands in for the ``aiohttp.ClientSession`` of ``discord.http.HTTPClient``."""

    def __init__(self, harness: "FakeDiscord"):
        self._harness = harness
        self.closed = False

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        return _RequestContext(self._harness._handle_request(method, str(url), **kwargs))

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


class FakeDiscord:
    """Runs ``bot`` against an in-memory Discord.  See the module docstring.

    :param bot: a ``commands.Bot`` (not started, not logged in).
    :param app_id: application id (also the bot user id unless ``bot_user_id``).
    :param strict: after each ``slash``/``click``/``select``/``autocomplete``, raise
        :class:`BotHandlingError` if the bot logged an exception, called a route the
        fake does not know, or left the interaction unacknowledged.
    :param park_after: seconds; a task sleeping at least this long counts as idle.
    :param fast_retries: skip the real sleeps of discord.py's retry back-offs.
    :param latency: seconds each REST call takes before the fake handles it (a float, or a
        function of the :class:`RecordedCall` for per-route delays); real sleeps.
    :param ack_deadline: seconds an interaction may wait for its first response (Discord: 3).
    """

    def __init__(self, bot: discord.Client, *, app_id: int = 1_200_000_000_000_000_001,
                 bot_user_id: Optional[int] = None, bot_name: str = "TestBot",
                 strict: bool = True, park_after: float = 1.0, fast_retries: bool = True,
                 guild_locale: str = "en-US",
                 latency: Union[float, Callable[["RecordedCall"], float]] = 0.0, ack_deadline: float = 3.0):
        self.bot = bot
        self.app_id = app_id
        self.bot_user_id = bot_user_id or app_id
        self.bot_name = bot_name
        self.strict = strict
        self.park_after = park_after
        self.fast_retries = fast_retries
        self.guild_locale = guild_locale
        self.latency = latency
        self.ack_deadline = ack_deadline
        self.late: List[FakeInteraction] = []  #: interactions whose first response came too late
        self._ids = itertools.count(1_300_000_000_000_000_000)
        self.calls: List[RecordedCall] = []
        self.users: Dict[int, FakeUser] = {}
        self.messages: Dict[int, FakeMessage] = {}
        self.interactions: Dict[int, FakeInteraction] = {}
        self._by_token: Dict[str, FakeInteraction] = {}
        self.guilds: Dict[int, Dict[str, Any]] = {}
        self.channels: Dict[int, Dict[str, Any]] = {}  # guild text channels and DM channels
        self._dm_owner: Dict[int, int] = {}  # dm channel id -> user id
        self.unhandled: List[RecordedCall] = []
        self.command_ids: Dict[Tuple[str, Optional[int]], int] = {}
        self._failures: List[_Failure] = []
        self._tracked: "set[asyncio.Task[Any]]" = set()
        self._settling: "set[Any]" = set()
        self._capture = _ErrorCapture()
        self._old_factory = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._patched: List[Tuple[Any, str, Any]] = []
        self._routes = [(m, t, _route_regex(t), h) for m, t, h in self._route_table()]
        self.guild_id: int = 0
        self.channel_id: int = 0
        self.other_bots: List[discord.Client] = []  # see add_bot

    # -- ids -------------------------------------------------------------
    def next_id(self) -> int:
        """A fresh snowflake-sized id."""
        return next(self._ids)

    # -- lifecycle -------------------------------------------------------
    async def start(self) -> None:
        """Set the bot up as ``login`` would, without network or gateway: loop hooks,
        the fake session, the ``ClientUser``, the application id, one guild with one
        text channel (``self.guild_id`` / ``self.channel_id``), then ``setup_hook()``
        (which loads cogs and registers persistent views), then READY."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._old_factory = loop.get_task_factory()
        loop.set_task_factory(self._task_factory)
        logging.getLogger("discord").addHandler(self._capture)
        if self.fast_retries:
            fast = _FastSleepAsyncio()
            for mod in (_discord_http, _discord_webhook):
                self._patched.append((mod, "asyncio", mod.asyncio))
                mod.asyncio = fast  # type: ignore[attr-defined]
        await self._attach(self.bot, first=True)

    async def restart(self, bot: discord.Client) -> None:
        """Close the current bot and start ``bot`` (a fresh instance, as after a process
        restart) against the same world: users, guilds, channels, DM channels and every
        message with its components stay, so persistent views and ``DynamicItem`` s
        can be clicked on messages the previous bot sent."""
        await self.bot.close()
        await self._cancel_tracked()
        self.bot = bot
        await self._attach(bot, first=False)

    async def _attach(self, bot: discord.Client, *, first: bool) -> None:
        await bot._async_setup_hook()
        http = bot.http
        http._HTTPClient__session = FakeSession(self)  # type: ignore[attr-defined]
        http._global_over = asyncio.Event()
        http._global_over.set()
        http.token = "fake-token"
        state = bot._connection
        state.user = discord.ClientUser(state=state, data=self._bot_user_payload())  # type: ignore[arg-type]
        if state.application_id is None:
            state.application_id = self.app_id
        else:
            self.app_id = state.application_id
        if first:
            self.guild_id = self.add_guild("Test Guild")
            self.channel_id = next(c for c, d in self.channels.items() if d.get("guild_id") == str(self.guild_id))
        else:
            for gid in self.guilds:
                self._cache_guild(gid)
        await bot.setup_hook()
        bot._ready.set()  # type: ignore[attr-defined]
        bot.dispatch("ready")
        await self.settle()

    async def add_bot(self, bot: discord.Client) -> None:
        """Start a second bot of the same application in this world — another process of a
        sharded bot: it sees the same guilds, channels, users and messages and its REST calls
        (interaction tokens included) reach this fake.  Interactions go to ``self.bot``;
        assign ``fd.bot`` to deliver them to another bot.  :meth:`close` closes it too."""
        receiver = self.bot
        self.bot = bot
        try:
            await self._attach(bot, first=False)
        finally:
            self.bot = receiver
        self.other_bots.append(bot)

    async def close(self) -> None:
        """Close the bot, restore the loop's task factory and patched modules."""
        try:
            for other in getattr(self, "other_bots", []):
                if other is not self.bot:
                    await other.close()
            await self.bot.close()
            await self._cancel_tracked()
        finally:
            for mod, name, old in reversed(self._patched):
                setattr(mod, name, old)
            self._patched.clear()
            logging.getLogger("discord").removeHandler(self._capture)
            if self._loop is not None:
                self._loop.set_task_factory(self._old_factory)

    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _cancel_tracked(self) -> None:
        """Cancel what the bot left running (timers, view time-outs), as a process exit would."""
        me = asyncio.current_task()
        left = [t for t in self._tracked if not t.done() and t is not me]
        for t in left:
            t.cancel()
        if left:
            await asyncio.wait(left, timeout=5)
        self._tracked.clear()

    def _task_factory(self, loop, coro, **kwargs):
        if self._old_factory is not None:
            task = self._old_factory(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        self._tracked.add(task)
        return task

    # -- waiting ---------------------------------------------------------
    _PARKED_CODES = {
        asyncio.Event.wait.__code__, asyncio.Condition.wait.__code__, asyncio.Queue.get.__code__,
        discord.ui.View.wait.__code__, discord.ui.Modal.wait.__code__,
    }

    def _is_parked(self, task: "asyncio.Task[Any]") -> bool:
        coro: Any = task.get_coro()
        while True:
            nxt = getattr(coro, "cr_await", None)
            if nxt is None:
                nxt = getattr(coro, "gi_yieldfrom", None)
            if nxt is None or not (hasattr(nxt, "cr_frame") or hasattr(nxt, "gi_frame")):
                break
            coro = nxt
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            return False
        code = frame.f_code
        if code is asyncio.sleep.__code__:
            return float(frame.f_locals.get("delay", 0) or 0) >= self.park_after
        if code is asyncio.wait_for.__code__:
            t = frame.f_locals.get("timeout")
            return t is None or t >= self.park_after
        if code is discord.Client.wait_for.__code__:
            return True
        return code in self._PARKED_CODES

    async def _drain_ready(self) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(200):
            await asyncio.sleep(0)
            if not getattr(loop, "_ready", None):
                break

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until every task created since :meth:`start` is finished or parked
        (see the module docstring).  ``TimeoutError`` lists the busy tasks."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        me = asyncio.current_task()
        # tasks that are themselves waiting here (a test sending two interactions at once)
        # are not work of the bot
        self._settling.add(me)
        try:
            await self._settle(loop, deadline, me)
        finally:
            self._settling.discard(me)

    async def _settle(self, loop, deadline: float, me) -> None:
        while True:
            await self._drain_ready()
            self._tracked = {t for t in self._tracked if not t.done()}
            busy = [t for t in self._tracked if t is not me and t not in self._settling and not self._is_parked(t)]
            if not busy:
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError("bot did not settle; busy tasks: " + "; ".join(
                    f"{t.get_name()} at {t.get_stack(limit=3)}" for t in busy))
            await asyncio.wait(busy, timeout=min(0.05, remaining), return_when=asyncio.FIRST_COMPLETED)

    # -- world -----------------------------------------------------------
    def _bot_user_payload(self) -> Dict[str, Any]:
        return {"id": str(self.bot_user_id), "username": self.bot_name, "global_name": None, "discriminator": "0",
                "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0, "public_flags": 0,
                "locale": "en-US"}

    def user(self, id: int, name: str, *, locale: str = "en-US", dms_open: bool = True, admin: bool = False) -> FakeUser:
        """Register (or return) a user."""
        if id in self.users:
            return self.users[id]
        u = FakeUser(id=id, name=name, locale=locale, dms_open=dms_open, admin=admin)
        self.users[id] = u
        return u

    def add_guild(self, name: str, *, channel_name: str = "general", guild_id: Optional[int] = None) -> int:
        """Register a guild with one text channel in the bot's cache; returns the guild id
        (``guild_id``: that id, e.g. one that falls on a given shard)."""
        gid = guild_id or self.next_id()
        self.guilds[gid] = {"id": str(gid), "name": name, "owner_id": str(self.next_id())}
        self.add_channel(channel_name, guild_id=gid, _cache=False)
        self._cache_guild(gid)
        return gid

    def _cache_guild(self, gid: int) -> None:
        data = {
            **self.guilds[gid], "icon": None, "splash": None,
            "features": [], "preferred_locale": self.guild_locale, "member_count": 2, "large": False,
            "roles": [{"id": str(gid), "name": "@everyone", "permissions": str(_EVERYONE_PERMS.value),
                       "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [c for c in self.channels.values() if c.get("guild_id") == str(gid)],
            "members": [], "emojis": [], "stickers": [], "threads": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "system_channel_flags": 0, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
        }
        self.bot._connection._add_guild_from_data(data)  # type: ignore[arg-type]

    def add_channel(self, name: str, *, guild_id: Optional[int] = None, _cache: bool = True) -> int:
        """Add a text channel to a guild (default: the main one) and the bot's cache."""
        gid = guild_id or self.guild_id
        cid = self.next_id()
        position = sum(1 for c in self.channels.values() if c.get("guild_id") == str(gid))
        data = {"id": str(cid), "type": 0, "guild_id": str(gid), "name": name, "position": position,
                "permission_overwrites": [], "parent_id": None, "nsfw": False, "topic": None,
                "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}
        self.channels[cid] = data
        if _cache:
            guild = self.bot.get_guild(gid)
            if guild is not None:
                guild._add_channel(discord.TextChannel(state=self.bot._connection, guild=guild, data=data))  # type: ignore[arg-type]
        return cid

    def _dm_channel(self, user: FakeUser) -> Dict[str, Any]:
        if user.dm_channel_id is None:
            cid = self.next_id()
            user.dm_channel_id = cid
            self._dm_owner[cid] = user.id
            self.channels[cid] = {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                                  "recipients": [user.payload()]}
        return self.channels[user.dm_channel_id]

    # -- errors ----------------------------------------------------------
    def fail_next(self, status: int, *, route: Union[str, Callable[[RecordedCall], bool], None] = None,
                  code: int = 0, message: Optional[str] = None, retry_after: float = 0.01,
                  is_global: bool = False, times: int = 1) -> None:
        """Make the next ``times`` matching requests fail with ``status``.

        ``route``: ``"POST /channels/{channel_id}/messages"`` (method and template),
        a template alone, or a predicate on :class:`RecordedCall`; ``None`` matches all.
        429 answers carry ``retry_after`` (discord.py waits and retries); 5xx are retried
        by discord.py up to 5 times; 404 with ``code=10062`` is "Unknown interaction".
        """
        if callable(route):
            match = route
        elif route is None:
            match = lambda c: True  # noqa: E731
        elif " " in route:
            match = lambda c, r=route: c.key == r  # noqa: E731
        else:
            match = lambda c, r=route: c.route == r  # noqa: E731
        if status == 429:
            body = {"message": message or "You are being rate limited.", "retry_after": retry_after,
                    "global": is_global, "code": code}
        else:
            body = {"message": message or _KNOWN_ERRORS.get(code, f"HTTP {status}"), "code": code}
        self._failures.append(_Failure(status, body, match, times))

    def expire(self, interaction: Union[InteractionResult, FakeInteraction, int]) -> None:
        """Expire an interaction's token (15 minutes passed): its callback answers 404
        10062, its webhook routes 401 50027 (Invalid Webhook Token)."""
        iid = interaction if isinstance(interaction, int) else interaction.id
        self.interactions[iid].expired = True

    # -- lookups ---------------------------------------------------------
    def message(self, message_id: int) -> FakeMessage:
        return self.messages[message_id]

    def messages_in(self, channel_id: int, *, include_ephemeral: bool = False) -> List[FakeMessage]:
        """Live (not deleted) messages in a channel, oldest first."""
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted
                and (include_ephemeral or not m.ephemeral)]

    def dms_to(self, user: FakeUser) -> List[FakeMessage]:
        """Live messages in the user's DM channel, oldest first."""
        if user.dm_channel_id is None:
            return []
        return self.messages_in(user.dm_channel_id)

    def ephemeral_replies_to(self, user: FakeUser) -> List[FakeMessage]:
        """Ephemeral messages only ``user`` sees, oldest first."""
        return [m for m in self.messages.values() if m.ephemeral and m.recipient_id == user.id and not m.deleted]

    def visible_to(self, user: FakeUser, channel_id: Optional[int] = None) -> List[FakeMessage]:
        """What ``user`` sees in a channel (default: the main one): public messages and
        their own ephemeral replies."""
        cid = channel_id or self.channel_id
        return [m for m in self.messages_in(cid, include_ephemeral=True)
                if not m.ephemeral or m.recipient_id == user.id]

    def last_response(self, user: Optional[FakeUser] = None) -> Optional[FakeMessage]:
        """The most recent message created in answer to an interaction (of ``user``)."""
        for inter in reversed(list(self.interactions.values())):
            if user is not None and inter.user.id != user.id:
                continue
            ids = list(inter.followup_ids)
            if inter.response_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and inter.original_message_id:
                ids.insert(0, inter.original_message_id)
            if ids:
                return self.messages[ids[-1]]
        return None

    def calls_to(self, key: str) -> List[RecordedCall]:
        """Recorded calls whose ``"METHOD route"`` or route equals ``key``."""
        return [c for c in self.calls if c.key == key or c.route == key]

    # -- inbound: interactions ------------------------------------------
    def _base_payload(self, user: FakeUser, itype: int, data: Dict[str, Any], *, channel_id: Optional[int],
                      guild_id: Optional[int], locale: Optional[str], dm: bool) -> Tuple[FakeInteraction, Dict[str, Any]]:
        iid = self.next_id()
        token = f"itoken-{iid}"
        payload: Dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": itype, "data": data, "token": token,
            "version": 1, "locale": locale or user.locale, "entitlements": [], "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024, "app_permissions": str(_BOT_PERMS.value),
        }
        if dm:
            ch = self._dm_channel(user)
            cid = int(ch["id"])
            payload.update(channel=dict(ch), channel_id=ch["id"], user=user.payload(), context=1,
                           authorizing_integration_owners={"0": "0"})
            gid = None
        else:
            gid = guild_id or self.guild_id
            cid = channel_id or self.channel_id
            ch = self.channels.get(cid)
            if ch is None or ch.get("guild_id") != str(gid):
                raise HarnessError(f"channel {cid} is not a text channel of guild {gid}; use add_channel()")
            payload.update(guild_id=str(gid), channel=dict(ch, permissions=str(user.permissions())),
                           channel_id=str(cid), member=user.member_payload(), guild_locale=self.guild_locale,
                           guild={"id": str(gid), "locale": self.guild_locale, "features": []}, context=0,
                           authorizing_integration_owners={"0": str(gid)})
        inter = FakeInteraction(id=iid, token=token, type=itype, user=user, channel_id=cid, guild_id=gid,
                                payload=payload, created_at=asyncio.get_running_loop().time())
        self.interactions[iid] = inter
        self._by_token[token] = inter
        return inter, payload

    async def _dispatch(self, inter: FakeInteraction, *, check: Optional[bool], wait: str = "settled") -> InteractionResult:
        n_calls, n_err, n_unhandled = len(self.calls), len(self._capture.errors), len(self.unhandled)
        self.bot._connection.parse_interaction_create(inter.payload)  # type: ignore[arg-type]
        if wait == "answered":
            await self.answered(inter)
        else:
            await self.settle()
        result = InteractionResult(inter, self.calls[n_calls:], self._capture.errors[n_err:], self)
        if self.strict if check is None else check:
            problems = [f"{type(e).__name__}: {e}" for e in result.errors]
            problems += [f"unknown route {c.method} {c.path}" for c in self.unhandled[n_unhandled:]]
            if inter.late:
                problems.append(f"the first response came after {self.ack_deadline} s (404 10062)")
            elif inter.response_type is None:
                problems.append("the interaction was never acknowledged")
            if problems:
                raise BotHandlingError("; ".join(problems)) from (result.errors[0] if result.errors else None)
        return result

    async def answered(self, inter: FakeInteraction, timeout: float = 30.0) -> None:
        """Wait until ``inter`` got its first response (or was refused as late), without
        waiting for the rest of what the bot does (fan-out to other players)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while inter.response_type is None and not inter.late:
            if loop.time() > deadline:
                raise TimeoutError(f"interaction {inter.id} was not answered within {timeout} s")
            await asyncio.sleep(0.002)

    def _find_command(self, command: str, guild_id: Optional[int]):
        parts = command.split()
        tree = self.bot.tree  # type: ignore[attr-defined]
        root, cmd_guild = None, None
        if guild_id is not None:
            root = tree.get_command(parts[0], guild=discord.Object(guild_id))
            cmd_guild = guild_id if root is not None else None
        if root is None:
            root = tree.get_command(parts[0])
        if root is None:
            raise HarnessError(f"no slash command {parts[0]!r}")
        chain, cmd = [], root
        for p in parts[1:]:
            if not isinstance(cmd, app_commands.Group):
                raise HarnessError(f"{cmd.qualified_name!r} has no subcommands")
            nxt = cmd.get_command(p)
            if nxt is None:
                raise HarnessError(f"no subcommand {p!r} in {cmd.qualified_name!r}")
            chain.append(nxt)
            cmd = nxt
        if isinstance(cmd, app_commands.Group):
            raise HarnessError(f"{command!r} is a group; name a subcommand")
        return root, chain, cmd, cmd_guild

    def _option_value(self, param: Any, value: Any, resolved: Dict[str, Dict[str, Any]], guild: bool) -> Any:
        t = param.type
        if isinstance(value, app_commands.Choice):
            value = value.value
        T = discord.AppCommandOptionType
        if t is T.string:
            return str(value)
        if t is T.integer:
            return int(value)
        if t is T.number:
            return float(value)
        if t is T.boolean:
            return bool(value)
        if t in (T.user, T.mentionable):
            u = value if isinstance(value, FakeUser) else self.users[int(value)]
            resolved.setdefault("users", {})[str(u.id)] = u.payload()
            if guild:
                m = u.member_payload()
                m.pop("user")
                resolved.setdefault("members", {})[str(u.id)] = m
            return str(u.id)
        if t is T.channel:
            cid = int(value)
            ch = self.channels[cid]
            resolved.setdefault("channels", {})[str(cid)] = {
                "id": str(cid), "name": ch.get("name", ""), "type": ch["type"], "permissions": str(_EVERYONE_PERMS.value)}
            return str(cid)
        raise HarnessError(f"option type {t} not supported by the harness")

    def _build_options(self, cmd: Any, options: Dict[str, Any], resolved: Dict[str, Any], guild: bool,
                       focused: Optional[str]) -> List[Dict[str, Any]]:
        by_name = {}
        for p in cmd.parameters:
            by_name[p.display_name] = p
            by_name[p.name] = p
        out: List[Dict[str, Any]] = []
        seen = set()
        for key, value in options.items():
            p = by_name.get(key)
            if p is None:
                raise HarnessError(f"/{cmd.qualified_name} has no option {key!r}; has {[q.display_name for q in cmd.parameters]}")
            seen.add(p.display_name)
            if focused is not None and focused in (p.name, p.display_name):
                # Discord sends what the user typed so far, always as a string.
                out.append({"name": p.display_name, "type": p.type.value, "value": str(value), "focused": True})
                continue
            v = self._option_value(p, value, resolved, guild)
            if p.choices and v not in [c.value for c in p.choices]:
                raise HarnessError(f"{v!r} is not a choice of {p.display_name!r}: {[c.value for c in p.choices]}")
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if p.min_value is not None and v < p.min_value or p.max_value is not None and v > p.max_value:
                    raise HarnessError(f"{v!r} out of range for {p.display_name!r}")
            out.append({"name": p.display_name, "type": p.type.value, "value": v})
        if focused is None:
            missing = [p.display_name for p in cmd.parameters if p.required and p.display_name not in seen]
            if missing:
                raise HarnessError(f"/{cmd.qualified_name} needs options {missing}")
        return out

    def _command_payload(self, command: str, options: Optional[Dict[str, Any]], guild_id: Optional[int],
                         focused: Optional[str]) -> Dict[str, Any]:
        root, chain, cmd, cmd_guild = self._find_command(command, guild_id)
        resolved: Dict[str, Any] = {}
        opts = self._build_options(cmd, dict(options or {}), resolved, guild_id is not None, focused)
        for sub in reversed(chain):
            opts = [{"name": sub.name, "type": 2 if isinstance(sub, app_commands.Group) else 1, "options": opts}]
        key = (root.name, cmd_guild)
        if key not in self.command_ids:
            self.command_ids[key] = self.next_id()
        data: Dict[str, Any] = {"id": str(self.command_ids[key]), "name": root.name, "type": 1, "options": opts}
        if cmd_guild is not None:
            data["guild_id"] = str(cmd_guild)
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user: FakeUser, command: str, options: Optional[Dict[str, Any]] = None, *,
                    guild_id: Optional[int] = None, channel_id: Optional[int] = None, in_dm: bool = False,
                    locale: Optional[str] = None, check: Optional[bool] = None,
                    wait: str = "settled") -> InteractionResult:
        """Run a slash command as ``user``: ``command`` is the full name with subcommand
        groups (``"mj table create"``), ``options`` maps option names (Discord or Python
        names) to values (``FakeUser``/ids for user options, ``Choice`` or raw values).
        ``wait="answered"`` returns once the interaction got its first response (a user
        typing the next command right away), ``"settled"`` once the bot is idle."""
        gid = None if in_dm else (guild_id or self.guild_id)
        data = self._command_payload(command, options, gid, None)
        inter, _ = self._base_payload(user, APPLICATION_COMMAND, data, channel_id=channel_id, guild_id=gid,
                                      locale=locale, dm=in_dm)
        return await self._dispatch(inter, check=check, wait=wait)

    async def autocomplete(self, user: FakeUser, command: str, options: Optional[Dict[str, Any]], focused: str, *,
                           guild_id: Optional[int] = None, channel_id: Optional[int] = None, in_dm: bool = False,
                           locale: Optional[str] = None, check: Optional[bool] = None) -> List[Dict[str, Any]]:
        """Ask for autocomplete of option ``focused`` (its typed text is ``options[focused]``,
        default ``""``); returns the choices (``[{"name": ..., "value": ...}]``)."""
        opts = dict(options or {})
        opts.setdefault(focused, "")
        gid = None if in_dm else (guild_id or self.guild_id)
        data = self._command_payload(command, opts, gid, focused)
        inter, _ = self._base_payload(user, AUTOCOMPLETE, data, channel_id=channel_id, guild_id=gid,
                                      locale=locale, dm=in_dm)
        return (await self._dispatch(inter, check=check)).choices

    def _component_interaction(self, user: FakeUser, message: Union[FakeMessage, int], custom_id: str,
                               extra: Dict[str, Any], locale: Optional[str], expect_type: Sequence[int]):
        msg = message if isinstance(message, FakeMessage) else self.messages[int(message)]
        if msg.deleted:
            raise HarnessError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.recipient_id != user.id:
            raise HarnessError(f"{user.name} cannot see ephemeral message {msg.id}")
        dm_owner = self._dm_owner.get(msg.channel_id)
        if dm_owner is not None and dm_owner != user.id:
            raise HarnessError(f"{user.name} cannot see DM message {msg.id}")
        comp = msg.component(custom_id)
        if comp.get("type") not in expect_type:
            raise HarnessError(f"component {custom_id!r} has type {comp.get('type')}, expected {expect_type}")
        if comp.get("disabled"):
            raise HarnessError(f"component {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": comp["type"], **extra}
        if dm_owner is not None:
            inter, payload = self._base_payload(user, MESSAGE_COMPONENT, data, channel_id=None, guild_id=None,
                                                locale=locale, dm=True)
        else:
            gid = int(self.channels[msg.channel_id]["guild_id"])
            inter, payload = self._base_payload(user, MESSAGE_COMPONENT, data, channel_id=msg.channel_id,
                                                guild_id=gid, locale=locale, dm=False)
        payload["message"] = json.loads(json.dumps(msg.data))
        inter.message_id = msg.id
        return inter, comp

    async def click(self, user: FakeUser, message: Union[FakeMessage, int], custom_id: str, *,
                    locale: Optional[str] = None, check: Optional[bool] = None,
                    wait: str = "settled") -> InteractionResult:
        """Press button ``custom_id`` on a message the bot sent (public, DM or ephemeral);
        ``wait`` as for :meth:`slash`."""
        inter, _ = self._component_interaction(user, message, custom_id, {}, locale, (2,))
        return await self._dispatch(inter, check=check, wait=wait)

    def plant_message(self, custom_ids: Sequence[str], *, user: Optional[FakeUser] = None,
                      channel_id: Optional[int] = None, select_values: Optional[Sequence[str]] = None,
                      content: str = "…") -> FakeMessage:
        """Store a message from the bot that carries components with ``custom_ids`` — ids
        the bot may never have drawn (a tampered client, or a message of an older bot
        version) — in ``user``'s DM (default) or the guild channel ``channel_id``, so a test
        can :meth:`click` (or, with ``select_values``, :meth:`select`) them.  Each id is a
        button, or a string select offering ``select_values``; at most 5 per message."""
        if len(custom_ids) > 5:
            raise HarnessError("plant at most 5 components per message")
        if channel_id is None:
            if user is None:
                raise HarnessError("plant_message needs a user (DM) or a channel_id")
            channel_id = int(self._dm_channel(user)["id"])
        rows = []
        for cid in custom_ids:
            if select_values is not None:
                comp = {"type": 3, "custom_id": cid, "min_values": 1, "max_values": 1,
                        "options": [{"label": v[:100] or "-", "value": v} for v in select_values]}
            else:
                comp = {"type": 2, "style": 2, "label": "?", "custom_id": cid}
            rows.append({"type": 1, "components": [comp]})
        try:
            return self._create_message(channel_id, {"content": content, "components": rows}, [])
        except _ApiError as e:
            raise HarnessError(f"Discord would refuse that message: {e.message} {e.errors}") from None

    async def select(self, user: FakeUser, message: Union[FakeMessage, int], custom_id: str, values: List[str], *,
                     locale: Optional[str] = None, check: Optional[bool] = None,
                     wait: str = "settled") -> InteractionResult:
        """Choose ``values`` in select menu ``custom_id`` (string selects: checked against
        the options and min/max_values)."""
        msg = message if isinstance(message, FakeMessage) else self.messages[int(message)]
        comp = msg.component(custom_id)
        if comp.get("type") == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"{bad} not among the options {allowed}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise HarnessError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        extra: Dict[str, Any] = {"values": [str(v) for v in values]}
        if comp.get("type") == 5:
            extra["resolved"] = {"users": {str(v): self.users[int(v)].payload() for v in values}}
        inter, _ = self._component_interaction(user, msg, custom_id, extra, locale, (3, 5, 6, 7, 8))
        return await self._dispatch(inter, check=check, wait=wait)

    async def submit_modal(self, user: FakeUser, opened_by: InteractionResult, values: Dict[str, str], *,
                           check: Optional[bool] = None) -> InteractionResult:
        """Submit the modal that ``opened_by`` answered with (callback type 9);
        ``values`` maps text-input custom_ids to what the user typed."""
        if opened_by.response_type != CB_MODAL:
            raise HarnessError("that interaction did not open a modal")
        modal = opened_by.interaction.response_data
        rows = []
        for row in modal.get("components", []):
            comps = row.get("components", [row.get("component")] if row.get("component") else [])
            out = [{"type": c["type"], "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
                   for c in comps if c and "custom_id" in c]
            rows.append({"type": row.get("type", 1), "components": out} if row.get("type", 1) == 1
                        else {"type": row["type"], "component": out[0]})
        data = {"custom_id": modal["custom_id"], "components": rows}
        src = opened_by.interaction
        inter, payload = self._base_payload(user, MODAL_SUBMIT, data, channel_id=src.channel_id if src.guild_id else None,
                                            guild_id=src.guild_id, locale=None, dm=src.guild_id is None)
        if src.message_id is not None:
            payload["message"] = json.loads(json.dumps(self.messages[src.message_id].data))
            inter.message_id = src.message_id
        return await self._dispatch(inter, check=check)

    # -- outbound: REST --------------------------------------------------
    def _route_table(self):
        return [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._h_callback),
            ("POST", "/webhooks/{application_id}/{token}", self._h_followup),
            ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_wh_get),
            ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_wh_edit),
            ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_wh_delete),
            ("POST", "/channels/{channel_id}/messages", self._h_create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._h_get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._h_edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._h_delete_message),
            ("POST", "/channels/{channel_id}/typing", lambda call, **kw: (204, None)),
            ("GET", "/channels/{channel_id}", self._h_get_channel),
            ("POST", "/users/@me/channels", self._h_create_dm),
            ("GET", "/users/@me", lambda call, **kw: (200, self._bot_user_payload())),
            ("GET", "/users/{user_id}", self._h_get_user),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._h_get_member),
            ("PUT", "/applications/{application_id}/commands", self._h_sync),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._h_sync),
            ("GET", "/applications/{application_id}/commands", lambda call, **kw: (200, [])),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", lambda call, **kw: (200, [])),
        ]

    @staticmethod
    def _decode_body(data: Any) -> Tuple[Any, List[RecordedFile]]:
        if data is None:
            return None, []
        if isinstance(data, (str, bytes)):
            return (json.loads(data) if data else None), []
        if isinstance(data, aiohttp.FormData):
            body, files = None, []
            for type_options, headers, value in data._fields:
                name = type_options["name"]
                if name == "payload_json":
                    body = json.loads(value)
                    continue
                raw = value.read() if hasattr(value, "read") else bytes(value)
                files.append(RecordedFile(type_options.get("filename", name), raw,
                                          headers.get("Content-Type") if headers else None))
            return body, files
        raise TypeError(f"unexpected request body {type(data)!r}")

    async def _handle_request(self, method: str, url: str, *, data: Any = None, headers: Optional[Dict[str, str]] = None,
                              params: Optional[Dict[str, Any]] = None, **_: Any) -> FakeResponse:
        await asyncio.sleep(0)  # a real request always yields to the loop
        headers = headers or {}
        if self.latency:
            delay = self.latency(RecordedCall(method, url, url, {}, None, [], "")) if callable(self.latency) \
                else self.latency
            await asyncio.sleep(delay)
        if url.startswith(CDN_BASE):
            call = RecordedCall("GET", url[len(CDN_BASE):], "cdn", {}, None, [], "cdn")
            self.calls.append(call)
            aid = url[len(CDN_BASE):].split("/")[3] if url.count("/") >= 6 else ""
            for m in self.messages.values():
                if aid in m.files:
                    call.status = 200
                    return FakeResponse(200, None, raw=m.files[aid].data)
            call.status = 404
            return FakeResponse(404, {"message": "Not Found", "code": 0})
        path = url[len(API_BASE):] if url.startswith(API_BASE) else url
        path = path.split("?", 1)[0]
        body, files = self._decode_body(data)
        via = "bot" if "Authorization" in headers else "webhook"
        call = RecordedCall(method, path, path, dict(params or {}), body, files, via)
        handler, match = None, {}
        for m, template, rx, h in self._routes:
            mt = rx.match(path)
            if m == method and mt:
                call.route, handler, match = template, h, mt.groupdict()
                break
        if "token" in match and match["token"] in self._by_token:
            call.interaction_id = self._by_token[match["token"]].id
        self.calls.append(call)
        for f in self._failures:
            if f.times > 0 and f.match(call):
                f.times -= 1
                if f.times == 0:
                    self._failures.remove(f)
                call.status, call.response, call.injected = f.status, f.body, True
                return FakeResponse(f.status, f.body)
        if handler is None:
            self.unhandled.append(call)
            status, resp = 404, {"message": "404: Not Found", "code": 0}
        else:
            try:
                status, resp = handler(call, **match)
            except _ApiError as e:
                status, resp = e.status, {"message": e.message, "code": e.code, **({"errors": e.errors} if e.errors else {})}
        call.status, call.response = status, resp
        return FakeResponse(status, resp)

    # -- message store ---------------------------------------------------
    def _attachments(self, channel_id: int, payload: Dict[str, Any], files: List[RecordedFile],
                     old: Optional[FakeMessage]) -> Tuple[List[Dict[str, Any]], Dict[str, RecordedFile]]:
        store: Dict[str, RecordedFile] = dict(old.files) if old else {}
        old_list = old.data.get("attachments", []) if old else []
        if "attachments" not in payload:
            keep = list(old_list)
            new_specs = [{"id": i, "filename": f.name} for i, f in enumerate(files)]
        else:
            keep, new_specs = [], []
            old_ids = {a["id"]: a for a in old_list}
            for spec in payload["attachments"]:
                sid = str(spec.get("id"))
                if sid in old_ids:
                    keep.append(old_ids[sid])
                else:
                    new_specs.append(spec)
        out = list(keep)
        for spec in new_specs:
            idx = int(spec.get("id", 0))
            if idx >= len(files):
                raise _ApiError(400, 50035, "Invalid Form Body", {"attachments": "unknown file index"})
            f = files[idx]
            aid = str(self.next_id())
            fname = spec.get("filename") or f.name
            store[aid] = RecordedFile(fname, f.data, f.content_type)
            out.append({"id": aid, "filename": fname, "size": len(f.data),
                        "url": f"{CDN_BASE}/attachments/{channel_id}/{aid}/{fname}",
                        "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{aid}/{fname}",
                        "content_type": _guess_type(fname)})
        return out, store

    @staticmethod
    def _echo_components(components: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        counter = itertools.count(1)
        seen: set = set()

        def walk(items):
            out = []
            for c in items:
                c = dict(c)
                c.setdefault("id", next(counter))
                if "custom_id" in c:
                    if c["custom_id"] in seen:
                        raise _ApiError(400, 50035, "Invalid Form Body",
                                        {"components": f"duplicate custom_id {c['custom_id']!r}"})
                    if len(c["custom_id"]) > 100:
                        raise _ApiError(400, 50035, "Invalid Form Body", {"components": "custom_id over 100 characters"})
                    seen.add(c["custom_id"])
                if "components" in c:
                    c["components"] = walk(c["components"])
                if isinstance(c.get("accessory"), dict):
                    c["accessory"] = walk([c["accessory"]])[0]
                out.append(c)
            return out

        return walk(components)

    @staticmethod
    def _validate(payload: Dict[str, Any], *, creating: bool, files: Sequence[RecordedFile]) -> None:
        errors: Dict[str, str] = {}
        content = payload.get("content")
        if content is not None and len(content) > 2000:
            errors["content"] = "Must be 2000 or fewer in length."
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            errors["embeds"] = "Must be 10 or fewer in length."
        for e in embeds:
            if len(e.get("description") or "") > 4096 or len(e.get("title") or "") > 256 or len(e.get("fields", [])) > 25:
                errors["embeds"] = "Embed size exceeds maximum size."
        comps = payload.get("components") or []
        v2 = bool(int(payload.get("flags") or 0) & (1 << 15))
        if not v2:
            if len(comps) > 5:
                errors["components"] = "Must be 5 or fewer in length."
            for row in comps:
                inner = row.get("components", [])
                if row.get("type") == 1 and (len(inner) > 5 or not inner):
                    errors["components"] = "An action row holds 1 to 5 components."
                for c in inner:
                    if c.get("type") == 3 and not 1 <= len(c.get("options", [])) <= 25:
                        errors["components"] = "A select menu holds 1 to 25 options."
                    if c.get("type") == 2 and len(c.get("label") or "") > 80:
                        errors["components"] = "Button labels are at most 80 characters."
        if errors:
            raise _ApiError(400, 50035, "Invalid Form Body", errors)
        if creating and not (content or embeds or comps or files or payload.get("sticker_ids") or payload.get("poll")):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _create_message(self, channel_id: int, payload: Dict[str, Any], files: List[RecordedFile], *,
                        interaction: Optional[FakeInteraction] = None, loading: bool = False) -> FakeMessage:
        payload = payload or {}
        if not loading:
            self._validate(payload, creating=True, files=files)
        mid = self.next_id()
        flags = int(payload.get("flags") or 0) & (EPHEMERAL | 4 | 4096 | (1 << 15))
        if loading:
            flags |= LOADING
        attachments, store = self._attachments(channel_id, payload, files, None)
        ch = self.channels.get(channel_id, {})
        data: Dict[str, Any] = {
            "id": str(mid), "channel_id": str(channel_id), "type": 0, "content": payload.get("content") or "",
            "author": self._bot_user_payload(), "timestamp": _now(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": attachments,
            "embeds": list(payload.get("embeds") or []), "pinned": False, "flags": flags,
            "components": self._echo_components(payload.get("components") or []),
        }
        if "guild_id" in ch:
            data["guild_id"] = ch["guild_id"]
        if "poll" in payload:
            data["poll"] = payload["poll"]
        recipient = self._dm_owner.get(channel_id)
        if interaction is not None:
            data["type"] = 20 if interaction.type == APPLICATION_COMMAND else 0
            data["webhook_id"] = str(self.app_id)
            data["application_id"] = str(self.app_id)
            data["interaction_metadata"] = {"id": str(interaction.id), "type": interaction.type,
                                            "user": interaction.user.payload(),
                                            "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"]}
            if flags & EPHEMERAL:
                recipient = interaction.user.id
        if "message_reference" in payload:
            data["message_reference"] = payload["message_reference"]
            data["type"] = 19
        msg = FakeMessage(data, recipient_id=recipient, interaction_id=interaction.id if interaction else None, files=store)
        self.messages[mid] = msg
        if channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(mid)
        return msg

    def _edit_message(self, msg: FakeMessage, payload: Dict[str, Any], files: List[RecordedFile]) -> FakeMessage:
        payload = payload or {}
        self._validate(payload, creating=False, files=files)
        new = json.loads(json.dumps(msg.data))
        msg.history.append(msg.data)
        for key in ("content", "embeds"):
            if key in payload:
                new[key] = payload[key] if payload[key] is not None else ("" if key == "content" else [])
        if "components" in payload:
            new["components"] = self._echo_components(payload["components"] or [])
        if "poll" in payload:
            new["poll"] = payload["poll"]
        if "flags" in payload and payload["flags"] is not None:
            keep = int(new.get("flags", 0)) & (EPHEMERAL | (1 << 15))
            new["flags"] = keep | (int(payload["flags"]) & (4 | (1 << 15)))
        was_loading = bool(int(new.get("flags", 0)) & LOADING)
        new["flags"] = int(new.get("flags", 0)) & ~LOADING
        attachments, store = self._attachments(msg.channel_id, payload, files, msg)
        new["attachments"] = attachments
        msg.files = store
        if not (new.get("content") or new.get("embeds") or new.get("components") or new.get("attachments")):
            msg.history.pop()
            raise _ApiError(400, 50006, "Cannot send an empty message")
        if not was_loading:  # filling a deferred response is not an edit
            new["edited_timestamp"] = _now()
        msg.data = new
        return msg

    # -- handlers ---------------------------------------------------------
    def _interaction_for_token(self, token: str) -> FakeInteraction:
        inter = self._by_token.get(token)
        if inter is None or inter.expired:
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        return inter

    def _h_callback(self, call: RecordedCall, interaction_id: str, token: str):
        inter = self.interactions.get(int(interaction_id))
        if inter is None or inter.token != token or inter.expired:
            raise _ApiError(404, 10062, "Unknown interaction")
        if inter.response_type is None and asyncio.get_running_loop().time() - inter.created_at > self.ack_deadline:
            inter.late = True
            self.late.append(inter)
            raise _ApiError(404, 10062, "Unknown interaction")
        if inter.response_type is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = call.json or {}
        cb, data = int(body.get("type", 0)), body.get("data") or {}
        resource: Dict[str, Any] = {"type": cb}
        is_component = inter.type in (MESSAGE_COMPONENT, MODAL_SUBMIT) and inter.message_id is not None
        if cb == CB_MESSAGE:
            msg = self._create_message(inter.channel_id, data, call.files, interaction=inter)
            inter.original_message_id = msg.id
            resource["message"] = msg.data
        elif cb == CB_DEFERRED_MESSAGE:
            msg = self._create_message(inter.channel_id, {"flags": data.get("flags", 0)}, [], interaction=inter,
                                       loading=True)
            inter.original_message_id = msg.id
            resource["message"] = msg.data
        elif cb in (CB_DEFERRED_UPDATE, CB_UPDATE):
            if not is_component:
                raise _ApiError(400, 40043, "Interaction has no message to update")
            inter.original_message_id = inter.message_id
            if cb == CB_UPDATE:
                msg = self._edit_message(self.messages[inter.message_id], data, call.files)
                resource["message"] = msg.data
        elif cb == CB_AUTOCOMPLETE:
            if inter.type != AUTOCOMPLETE:
                raise _ApiError(400, 50035, "Invalid Form Body", {"type": "not an autocomplete interaction"})
            if len(data.get("choices", [])) > 25:
                raise _ApiError(400, 50035, "Invalid Form Body", {"choices": "Must be 25 or fewer in length."})
        elif cb == CB_MODAL:
            pass
        elif cb != CB_PONG:
            raise _ApiError(400, 50035, "Invalid Form Body", {"type": f"unsupported callback type {cb}"})
        inter.response_type, inter.response_data = cb, data
        msg = self.messages.get(inter.original_message_id) if inter.original_message_id else None
        interaction_obj: Dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        if msg is not None and cb in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE):
            interaction_obj.update(response_message_id=str(msg.id), response_message_loading=msg.loading,
                                   response_message_ephemeral=msg.ephemeral)
        return 200, {"interaction": interaction_obj, "resource": resource}

    def _h_followup(self, call: RecordedCall, application_id: str, token: str):
        inter = self._interaction_for_token(token)
        if inter.response_type is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        original = self.messages.get(inter.original_message_id) if inter.original_message_id else None
        if original is not None and original.loading and not original.deleted:
            # As Discord does: the first followup after a "thinking" defer fills the
            # loading message (keeping the defer's ephemeral choice) instead of
            # creating a second message.
            body = dict(call.json or {})
            body.pop("flags", None)
            self._validate(body, creating=True, files=call.files)
            return 200, self._edit_message(original, body, call.files).data
        msg = self._create_message(inter.channel_id, call.json or {}, call.files, interaction=inter)
        inter.followup_ids.append(msg.id)
        return 200, msg.data

    def _wh_message(self, inter: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            if inter.original_message_id is None:
                raise _ApiError(404, 10008, "Unknown Message")
            msg = self.messages[inter.original_message_id]
        else:
            msg = self.messages.get(int(message_id))
            if msg is None or (msg.id not in inter.followup_ids and msg.id != inter.original_message_id):
                raise _ApiError(404, 10008, "Unknown Message")
        if msg.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    def _h_wh_get(self, call: RecordedCall, application_id: str, token: str, message_id: str):
        return 200, self._wh_message(self._interaction_for_token(token), message_id).data

    def _h_wh_edit(self, call: RecordedCall, application_id: str, token: str, message_id: str):
        msg = self._wh_message(self._interaction_for_token(token), message_id)
        return 200, self._edit_message(msg, call.json or {}, call.files).data

    def _h_wh_delete(self, call: RecordedCall, application_id: str, token: str, message_id: str):
        self._wh_message(self._interaction_for_token(token), message_id).deleted = True
        return 204, None

    def _channel(self, channel_id: str) -> Dict[str, Any]:
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return ch

    def _h_create_message(self, call: RecordedCall, channel_id: str):
        self._channel(channel_id)
        owner = self._dm_owner.get(int(channel_id))
        if owner is not None and not self.users[owner].dms_open:
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        return 200, self._create_message(int(channel_id), call.json or {}, call.files).data

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        msg = self.messages.get(int(message_id))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != int(channel_id):
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    def _h_get_message(self, call: RecordedCall, channel_id: str, message_id: str):
        return 200, self._channel_message(channel_id, message_id).data

    def _h_edit_message(self, call: RecordedCall, channel_id: str, message_id: str):
        msg = self._channel_message(channel_id, message_id)
        return 200, self._edit_message(msg, call.json or {}, call.files).data

    def _h_delete_message(self, call: RecordedCall, channel_id: str, message_id: str):
        self._channel_message(channel_id, message_id).deleted = True
        return 204, None

    def _h_get_channel(self, call: RecordedCall, channel_id: str):
        return 200, self._channel(channel_id)

    def _h_create_dm(self, call: RecordedCall):
        uid = int((call.json or {}).get("recipient_id", 0))
        if uid not in self.users:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return 200, self._dm_channel(self.users[uid])

    def _h_get_user(self, call: RecordedCall, user_id: str):
        u = self.users.get(int(user_id))
        if u is None:
            raise _ApiError(404, 10013, "Unknown User")
        return 200, u.payload()

    def _h_get_member(self, call: RecordedCall, guild_id: str, user_id: str):
        u = self.users.get(int(user_id))
        if u is None or int(guild_id) not in self.guilds:
            raise _ApiError(404, 10007, "Unknown Member")
        m = u.member_payload()
        m.pop("permissions")
        return 200, m

    def _h_sync(self, call: RecordedCall, application_id: str, guild_id: Optional[str] = None):
        out = []
        for cmd in call.json or []:
            key = (cmd["name"], int(guild_id) if guild_id else None)
            self.command_ids.setdefault(key, self.next_id())
            out.append({**cmd, "id": str(self.command_ids[key]), "application_id": str(self.app_id),
                        "version": str(self.next_id()), **({"guild_id": guild_id} if guild_id else {}),
                        "default_member_permissions": cmd.get("default_member_permissions"),
                        "options": cmd.get("options", []), "description": cmd.get("description", ""),
                        "type": cmd.get("type", 1)})
        return 200, out


_KNOWN_ERRORS = {
    10003: "Unknown Channel", 10008: "Unknown Message", 10015: "Unknown Webhook", 10062: "Unknown interaction",
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
