"""The fake Discord itself: the world (users, guilds, channels), the bot's lifecycle, waiting for the bot, injected failures and look-ups."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import discord
import discord.http as _discord_http
import discord.webhook.async_ as _discord_webhook

from .emojis import MAX_APP_EMOJIS, EmojiMixin
from .handlers import HandlersMixin
from .inbound import InboundMixin
from .mentions import MARKUP_NAME
from .model import *  # noqa: F401,F403
from .ratelimit import RateLimitMixin, waits_in_discord_py
from .ratelimit import _layer_guard
from .rest import RestMixin
from .transport import *  # noqa: F401,F403


#: the loggers whose errors fail a strict interaction: discord.py's and the bot's own (an
#: exception the fan-out logged and retried is a failure, not a pass)
CAPTURED_LOGGERS = ("discord", "cogs", "service", "store", "render", "bot")

class FakeDiscord(InboundMixin, RestMixin, HandlersMixin, EmojiMixin, RateLimitMixin):
    """Runs ``bot`` against an in-memory Discord.  See the module docstring.

    :param bot: a ``commands.Bot`` (not started, not logged in).
    :param app_id: application id (also the bot user id unless ``bot_user_id``).
    :param strict: after each ``slash``/``click``/``select``/``autocomplete``, raise
        :class:`BotHandlingError` if the bot logged an exception, called a route the
        fake does not know, left the interaction unacknowledged, or (with ``rate_limits``,
        unless ``allow_rate_limits``) was answered 429 -- also at the next :meth:`settle`.
    :param park_after: seconds; a task sleeping at least this long counts as idle.
    :param fast_retries: skip the real sleeps of discord.py's retry back-offs.
    :param latency: seconds each REST call takes before the fake handles it (a float, or a
        function of the :class:`RecordedCall` for per-route delays); real sleeps.
    :param ack_deadline: seconds an interaction may wait for its first response (Discord: 3).
    :param guard_layers: while started, code under ``cogs/``, ``local/`` and ``render/`` that
        touches the service's table, its lock or its hand raises, and every published change
        is walked for them (``tests/harness/layer_guard.py``); off for a bot of another tree.
    :param rate_limits: apply Discord's rate limits (``ratelimit.py``; default: on when
        ``fast_retries`` is off); ``rate_clock``: their clock (default: the loop's time);
        ``rate_limit_table``: changes to ``ratelimit.RATE_LIMITS`` (``{key: (limit, seconds)}``).
    :param max_app_emojis: the most emojis the application may have (Discord: 2,000; one more
        upload is refused with 400 code 30008); see ``emojis.py``.
    """

    def __init__(self, bot: discord.Client, *, app_id: int = 1_200_000_000_000_000_001,
                 bot_user_id: Optional[int] = None, bot_name: str = "TestBot",
                 strict: bool = True, park_after: float = 1.0, fast_retries: bool = True,
                 guild_locale: str = "en-US",
                 latency: Union[float, Callable[["RecordedCall"], float]] = 0.0, ack_deadline: float = 3.0,
                 guard_layers: bool = True,
                 rate_limits: Optional[bool] = None, rate_clock: Optional[Callable[[], float]] = None,
                 rate_limit_table: Optional[Dict[str, Tuple[int, float]]] = None,
                 max_app_emojis: int = MAX_APP_EMOJIS):
        self.bot = bot
        self.app_id = app_id
        self.bot_user_id = bot_user_id or app_id
        self.bot_name = bot_name
        self.strict = strict
        #: texts of errors a test causes on purpose (:meth:`tolerating`): logged, not failures
        self.tolerated: tuple = ()
        self.park_after = park_after
        self.fast_retries = fast_retries
        self.guild_locale = guild_locale
        self.latency = latency
        self.ack_deadline = ack_deadline
        #: the front ends' touches of the service's table raise (``tests/harness/layer_guard.py``)
        self.guard_layers = guard_layers
        self.late: List[FakeInteraction] = []  #: interactions whose first response came too late
        self._ids = itertools.count(1_300_000_000_000_000_000)
        self.calls: List[RecordedCall] = []
        self.users: Dict[int, FakeUser] = {}
        self.messages: Dict[int, FakeMessage] = {}
        #: files users attached to slash commands (attachment options), by attachment id
        self.uploads: Dict[str, RecordedFile] = {}
        self.interactions: Dict[int, FakeInteraction] = {}
        self._by_token: Dict[str, FakeInteraction] = {}
        self.guilds: Dict[int, Dict[str, Any]] = {}
        #: the bot's permissions per channel where they differ from the usual ones (sent as an
        #: interaction's ``app_permissions``)
        self.bot_permissions: Dict[int, discord.Permissions] = {}
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
        #: what the bot's messages would ping unnamed or show as markup (``mentions.py``)
        self.text_problems: List[str] = []
        #: the application's emojis, id -> FakeEmoji (with the image's bytes); they belong to the
        #: application, so they stay across :meth:`restart` (``emojis.py``)
        self.app_emojis: Dict[int, FakeEmoji] = {}
        #: the most emojis the application may have (Discord: 2,000); a test may lower it
        self.max_app_emojis = max_app_emojis
        self._init_rate_limits(not fast_retries if rate_limits is None else rate_limits, rate_clock, rate_limit_table)

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
        for name in CAPTURED_LOGGERS:
            logging.getLogger(name).addHandler(self._capture)
        guard = _layer_guard() if self.guard_layers else None
        if guard is not None:  # the front ends never touch the service's table (tests/harness/layer_guard.py)
            self._guard = guard.guarded()
            self._guard.__enter__()
            self._guard_seen = len(guard.VIOLATIONS)
        if self.fast_retries:
            fast = _FastSleepAsyncio()
            for mod in (_discord_http, _discord_webhook):
                self._patched.append((mod, "asyncio", mod.asyncio))
                mod.asyncio = fast  # type: ignore[attr-defined]
        await self._attach(self.bot, first=True)

    async def restart(self, bot: discord.Client) -> None:
        """Close the current bot and start ``bot`` (a fresh instance, as after a process
        restart) against the same world: users, guilds, channels, DM channels, the
        application's emojis and every message with its components stay, so persistent
        views and ``DynamicItem`` s can be clicked on messages the previous bot sent."""
        await self.bot.close()
        await self._cancel_tracked()
        self.bot = bot
        await self._attach(bot, first=False)

    async def _attach(self, bot: discord.Client, *, first: bool) -> None:
        await bot._async_setup_hook()
        http = bot.http
        trace = getattr(http, "http_trace", None)  # the bot's own (discord.py's ``http_trace``)
        http._HTTPClient__session = FakeSession(self, [trace] if trace is not None else None)  # type: ignore[attr-defined]
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
        guard = _layer_guard() if self.guard_layers else None
        service = getattr(bot, "service", None)
        if guard is not None and service is not None and guard.check_published not in service.listeners:
            service.listeners.append(guard.check_published)
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
            for name in CAPTURED_LOGGERS:
                logging.getLogger(name).removeHandler(self._capture)
            if getattr(self, "_guard", None) is not None:
                self._guard.__exit__(None, None, None)
                self._guard = None
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
        caller = None
        while True:
            nxt = getattr(coro, "cr_await", None)
            if nxt is None:
                nxt = getattr(coro, "gi_yieldfrom", None)
            if nxt is None or not (hasattr(nxt, "cr_frame") or hasattr(nxt, "gi_frame")):
                break
            caller, coro = coro, nxt
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            return False
        if waits_in_discord_py(caller):
            return False  # discord.py waiting out a rate limit or a retry: work in progress
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
        (see the module docstring).  ``TimeoutError`` lists the busy tasks; with ``strict``,
        :class:`BotHandlingError` lists the 429s answered since the last report."""
        await self._wait_idle(timeout)
        problems = self._rate_limit_problems()
        if problems:
            raise BotHandlingError("; ".join(problems))

    async def _wait_idle(self, timeout: float = 30.0) -> None:
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

    @contextlib.contextmanager
    def tolerating(self, *texts: str):
        """Within the block, an error the bot logs whose text contains one of ``texts`` (one the
        test causes on purpose, e.g. a store refusing a write) does not fail a strict
        interaction; it is still in the result's ``errors``."""
        saved = self.tolerated
        self.tolerated = saved + texts
        try:
            yield
        finally:
            self.tolerated = saved

    def dm_owner(self, channel_id: int) -> Optional[int]:
        """The user whose DM channel ``channel_id`` is, or ``None`` (not a DM channel)."""
        return self._dm_owner.get(int(channel_id))

    def user(self, id: int, name: str, *, locale: str = "en-US", dms_open: bool = True, admin: bool = False,
             plain: bool = False) -> FakeUser:
        """Register (or return) a user.  Their name is ``name`` followed by markup and mentions
        (``mentions.MARKUP_NAME``), so that every message shows whether names appear as typed,
        unless ``plain``."""
        if id in self.users:
            return self.users[id]
        u = FakeUser(id=id, name=name if plain else name + MARKUP_NAME, locale=locale, dms_open=dms_open, admin=admin)
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

    def set_guild(self, guild_id: Optional[int] = None, *, features: Optional[List[str]] = None,
                  preferred_locale: Optional[str] = None) -> None:
        """Change a guild (default: the main one) as a GUILD_UPDATE would: its ``features``
        (e.g. ``["COMMUNITY"]``) and ``preferred_locale`` (Discord reports ``en-US`` for a
        server that is not a Community server: only those can set one)."""
        gid = guild_id or self.guild_id
        if features is not None:
            if not all(isinstance(f, str) and f.isupper() for f in features):
                raise HarnessError(f"guild features are upper-case names, got {features!r}")
            self.guilds[gid]["features"] = list(features)
        if preferred_locale is not None:
            if preferred_locale not in {loc.value for loc in discord.Locale}:
                raise HarnessError(f"{preferred_locale!r} is not a Discord locale")
            self.guilds[gid]["preferred_locale"] = preferred_locale
        if "COMMUNITY" not in self.guilds[gid].get("features", []):
            self.guilds[gid]["preferred_locale"] = "en-US"
        self._cache_guild(gid)

    def guild_locale_of(self, guild_id: Optional[int]) -> str:
        """The preferred locale a guild reports (interactions' ``guild_locale``)."""
        return self.guilds.get(guild_id or self.guild_id, {}).get("preferred_locale", self.guild_locale)

    async def join_guild(self, name: str, *, system_channel: bool = True, community: bool = False,
                         locale: str = "en-US", bot_permissions: Optional[discord.Permissions] = None) -> int:
        """The bot is added to a new guild: a GUILD_CREATE as the gateway sends it (with a
        ``general`` channel, its system channel when ``system_channel``; the bot a member whose
        permissions there are ``bot_permissions``, default the usual ones; a ``community``
        server reports its ``locale``, the others en-US); returns the guild id."""
        gid = self.next_id()
        self.guilds[gid] = {"id": str(gid), "name": name, "owner_id": str(self.next_id()),
                            "features": ["COMMUNITY"] if community else [],
                            "preferred_locale": locale if community else "en-US"}
        cid = self.add_channel("general", guild_id=gid, _cache=False)
        perms = bot_permissions if bot_permissions is not None else _BOT_PERMS
        role_id = self.next_id()
        data = self._guild_data(gid)
        data["roles"].append({"id": str(role_id), "name": self.bot_name, "permissions": str(perms.value),
                              "position": 1, "color": 0, "hoist": False, "managed": True, "mentionable": False,
                              "flags": 0})
        data["roles"][0]["permissions"] = "0"
        data["members"] = [{"user": self._bot_user_payload(), "roles": [str(role_id)], "joined_at": "2026-01-01T00:00:00+00:00",
                            "deaf": False, "mute": False, "flags": 0}]
        data["system_channel_id"] = str(cid) if system_channel else None
        self.bot._connection.parse_guild_create(data)  # type: ignore[arg-type]
        await self.settle()
        return gid

    def _guild_data(self, gid: int) -> Dict[str, Any]:
        """A guild object as GUILD_CREATE carries it (its features and locale as set)."""
        return {
            "features": [], "preferred_locale": self.guild_locale,
            **self.guilds[gid], "icon": None, "splash": None, "member_count": 2, "large": False,
            "roles": [{"id": str(gid), "name": "@everyone", "permissions": str(_EVERYONE_PERMS.value),
                       "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [c for c in self.channels.values() if c.get("guild_id") == str(gid)],
            "members": [], "emojis": [], "stickers": [], "threads": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "system_channel_flags": 0, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
        }

    def _cache_guild(self, gid: int) -> None:
        data = self._guild_data(gid)
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
