"""``/healthz`` and ``/metrics`` (``cogs/web.py``) on the real bot against the fake Discord:
healthy until the event loop is blocked past its bound, the store stops answering or the
gateway is lost; the metrics read back by ``prometheus_client``'s own parser after a few
moves; bound to 127.0.0.1 unless configured; off (no port) by default.

No test waits on wall time: the heartbeat and the acknowledgement times run on manual clocks
(the fake Discord's ``latency`` hook moves the latter by 0.25 s at each interaction callback)."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
from collections import Counter

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cogs.metrics import route_of
from cogs.web import WebSettings
from engine.variants import all_variants
from service.clock import ManualClock

try:
    from discord_play import new_bot, press, timeout_policy
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press, timeout_policy
    from tests.harness.fakediscord import FakeDiscord

ACK = 0.25  #: seconds the manual clock moves at each interaction callback
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


class Clock:
    """A manual clock of seconds."""

    def __init__(self, now: float = 100.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _started(tmp_path, web: WebSettings | None = None, **fd_kw):
    """The bot with its web server (port 0: any free one; no heartbeat task) on manual clocks,
    started against the fake Discord; ``(bot, fd, beat_clock, ack_clock)``."""
    web = web or WebSettings(port=0, beat_interval=0)
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock(), web=web)
    beat, ack = Clock(), Clock()
    bot.web.heartbeat.clock = beat
    bot.metrics.clock = ack

    def latency(call) -> float:
        if call.path.endswith("/callback"):
            ack.now += ACK  # the callback is answered a quarter second after the arrival
        return 0.0

    fd = FakeDiscord(bot, latency=latency, **fd_kw)
    await fd.start()
    return bot, fd, beat, ack


async def _get(bot, path: str, host: str = "127.0.0.1") -> tuple[int, str]:
    # a closed connection after each answer: no idle keep-alive task left in the bot's loop
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s:
        async with s.get(f"http://{host}:{bot.web.port}{path}") as r:
            return r.status, await r.text()


async def _health(bot) -> tuple[int, dict]:
    import json

    status, body = await _get(bot, "/healthz")
    return status, json.loads(body)


@pytest.mark.asyncio
async def test_healthz_follows_the_loop_the_store_and_the_gateway(tmp_path):
    bot, fd, beat, _ = await _started(tmp_path, WebSettings(port=0, beat_interval=0, stall_after=5.0,
                                                              store_timeout=0.05))
    try:
        status, body = await _health(bot)
        assert status == 200 and body["status"] == "ok" and body["failed"] == []
        assert set(body["checks"]) == {"gateway", "event_loop", "store"}
        assert body["checks"]["gateway"]["ready"] is True and body["checks"]["gateway"]["closed"] is False
        # the event loop: the next beat overdue by exactly the bound is still healthy, by more is not
        beat.now += 5.0
        assert (await _health(bot))[0] == 200
        beat.now += 1.0
        status, body = await _health(bot)
        assert status == 503 and body["failed"] == ["event_loop"]
        assert body["checks"]["event_loop"]["overdue_s"] == 6.0 and "blocked for 6.0 s" in body["checks"]["event_loop"]["error"]
        bot.web.heartbeat.beat()  # the loop runs again: that beat came 6 s late, still unhealthy
        status, body = await _health(bot)
        assert status == 503 and body["checks"]["event_loop"]["lag_s"] == 6.0
        beat.now += 0.5
        bot.web.heartbeat.beat()  # an in-time beat: healthy again
        assert (await _health(bot))[0] == 200
        # the gateway: a disconnection until it resumes; a shard's too
        bot.dispatch("disconnect")
        status, body = await _health(bot)
        assert status == 503 and body["failed"] == ["gateway"] and body["checks"]["gateway"]["disconnected"] == ["bot"]
        bot.dispatch("resumed")
        assert (await _health(bot))[0] == 200
        bot.dispatch("shard_disconnect", 3)
        assert (await _health(bot))[1]["checks"]["gateway"]["disconnected"] == ["shard 3"]
        bot.dispatch("shard_resumed", 3)
        assert (await _health(bot))[0] == 200
        # the store: a query that never answers, then a closed store
        real = bot.store.ping

        async def hangs() -> None:
            await asyncio.Event().wait()

        bot.store.ping = hangs
        status, body = await _health(bot)
        assert status == 503 and body["failed"] == ["store"]
        assert body["checks"]["store"]["error"] == "no answer within 0.05 s"
        bot.store.ping = real
        assert (await _health(bot))[0] == 200
        await bot.store.close()
        status, body = await _health(bot)
        assert status == 503 and body["failed"] == ["store"]
        assert body["checks"]["store"]["error"] == "RuntimeError: the database is closed"
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_closed_bot_is_unhealthy(tmp_path):
    bot, fd, _, _ = await _started(tmp_path)
    try:
        gateway = bot.web.gateway
        assert gateway.check().ok
        await fd.close()
        found = gateway.check()
        assert not found.ok and found.detail["closed"] is True and found.detail["error"] == "closed"
        assert bot.web.port is None  # the web server stopped first
    finally:
        await fd.close()


def _families(text: str) -> dict:
    return {f.name: f for f in text_string_to_metric_families(text)}


def _value(fams: dict, family: str, sample: str, **labels) -> float:
    found = [s.value for s in fams[family].samples if s.name == sample
             and all(s.labels.get(k) == v for k, v in labels.items())]
    assert len(found) == 1, (sample, labels, found)
    return found[0]


@pytest.mark.asyncio
async def test_metrics_after_a_few_moves(tmp_path, caplog):
    bot, fd, _, _ = await _started(tmp_path)
    try:
        bot.service.lobby.seed_source = lambda: 5
        ann, ben = fd.user(801, "ann"), fd.user(802, "ben")
        await fd.slash(ann, "mj table create", {"variant": "two_player"})
        await fd.slash(ben, "mj table join")
        await fd.slash(ann, "mj table start")
        table = bot.service.table_in(fd.channel_id)
        by_seat = {table.seat_of(u.id): u for u in (ann, ben)}
        fd.fail_next(429, route=EDIT, retry_after=0.01)  # the next table edit is refused once
        clicks = 0
        for _ in range(6):
            seat = table.hand.pending_seats()[0]
            await press(fd, by_seat[seat], timeout_policy(table.hand, seat))
            clicks += 1
        await fd.settle()
        with fd.tolerating("boom"):
            logging.getLogger("cogs.probe").error("boom")
            try:
                raise ValueError("boom")
            except ValueError:
                logging.getLogger("service.probe").exception("boom")
        status, text = await _get(bot, "/metrics")
        assert status == 200
        fams = _families(text)
        # actions by game and kind: as many as the stored log holds of each kind (its lines
        # are "seat kind [tile]")
        stored = Counter(line.split()[1] for line in table.actions)
        assert sum(stored.values()) >= clicks
        for kind, n in stored.items():
            assert _value(fams, "mahjong_actions", "mahjong_actions_total", shard="0", game="two_player",
                          kind=kind) == n
        # one acknowledgement per interaction: 3 commands, the clicks; each took ACK seconds
        for kind, n in (("command", 3), ("component", clicks)):
            assert _value(fams, "mahjong_interaction_ack_seconds", "mahjong_interaction_ack_seconds_count",
                          shard="0", type=kind) == n
            assert _value(fams, "mahjong_interaction_ack_seconds", "mahjong_interaction_ack_seconds_sum",
                          shard="0", type=kind) == pytest.approx(ACK * n)
            assert _value(fams, "mahjong_interaction_ack_seconds", "mahjong_interaction_ack_seconds_bucket",
                          shard="0", type=kind, le="0.1") == 0  # 0.25 s is above 0.1
        # REST: every call the fake answered, by route; the 429 counted, and its retry
        requests = fams["mahjong_discord_requests"].samples
        totals = [s for s in requests if s.name == "mahjong_discord_requests_total"]
        assert sum(s.value for s in totals) == len(fd.calls)
        sends = len(fd.calls_to("POST /channels/{channel_id}/messages"))
        assert sends > 0 and sum(s.value for s in totals if s.labels["route"] == "POST /channels/{channel_id}/messages"
                                 and s.labels["status"] == "200") == sends
        edits = fd.calls_to(EDIT)
        assert [c.status for c in edits].count(429) == 1
        assert sum(s.value for s in totals if s.labels["route"] == EDIT and s.labels["status"] == "429") == 1
        assert _value(fams, "mahjong_discord_rate_limited", "mahjong_discord_rate_limited_total", shard="0",
                      route=EDIT, scope="user") == 1
        # what is read when scraped: one open table, of its game; nothing left to send
        for info in all_variants():
            assert _value(fams, "mahjong_open_tables", "mahjong_open_tables", shard="0", game=info.id) == \
                (1 if info.id == "two_player" else 0)
        assert _value(fams, "mahjong_fanout_queue_depth", "mahjong_fanout_queue_depth", shard="0") == 0
        assert _value(fams, "mahjong_event_loop_lag_seconds", "mahjong_event_loop_lag_seconds", shard="0") == 0
        # errors by source and kind
        assert _value(fams, "mahjong_errors", "mahjong_errors_total", shard="0", source="cogs", kind="logged") == 1
        assert _value(fams, "mahjong_errors", "mahjong_errors_total", shard="0", source="service",
                      kind="ValueError") == 1
        assert all("shard" in s.labels for f in fams.values() for s in f.samples)
    finally:
        await fd.close()


def test_a_sharded_process_labels_a_guild_by_its_shard_and_itself_by_its_shards():
    from cogs.metrics import Metrics

    m = Metrics(4, (1, 2))
    assert m.process_shards == "1,2"
    guild = (7 << 22) | 12345  # Discord's formula: (guild_id >> 22) % 4 = 7 % 4 = 3
    assert m.shard(guild) == "3" and m.shard(None) == "0"  # a DM: shard 0


def test_routes_are_named_as_discord_py_names_them():
    api = "https://discord.com/api/v10"
    assert route_of("POST", f"{api}/channels/123/messages") == "POST /channels/{channel_id}/messages"
    assert route_of("PATCH", f"{api}/channels/1/messages/2?x=1") == EDIT
    assert route_of("POST", f"{api}/interactions/99/aW50ZXJhY3Rpb24/callback") == \
        "POST /interactions/{interaction_id}/{interaction_token}/callback"
    assert route_of("PATCH", f"{api}/webhooks/5/tok-en/messages/@original") == \
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert route_of("POST", f"{api}/users/@me/channels") == "POST /users/@me/channels"
    assert route_of("GET", "https://cdn.discordapp.com/emojis/1.png") == "GET cdn"


# ------------------------------------------------------------------ where it listens
def _other_address() -> str | None:
    """An address of this machine other than the loopback, or ``None``."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # no packet is sent: the route's source address is chosen
        addr = s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()
    return None if addr.startswith("127.") else addr


def _listening_sockets() -> set[str]:
    """The inodes of this process's listening TCP sockets (Linux ``/proc``)."""
    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[8:-1])
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if os.path.exists(table):
            for line in open(table).read().splitlines()[1:]:
                cols = line.split()
                if cols[3] == "0A":  # LISTEN
                    listening.add(cols[9])
    return mine & listening


def test_settings_are_off_by_default_and_localhost_unless_told():
    assert WebSettings.from_env({}) is None and WebSettings.from_env({"WEB_PORT": " "}) is None
    s = WebSettings.from_env({"WEB_PORT": "9100"})
    assert (s.port, s.host, s.stall_after) == (9100, "127.0.0.1", 5.0)
    s = WebSettings.from_env({"WEB_PORT": "9100", "WEB_HOST": "0.0.0.0", "HEALTH_STALL_SECONDS": "2.5"})
    assert (s.host, s.stall_after) == ("0.0.0.0", 2.5)
    for env, said in (({"WEB_PORT": "http"}, "WEB_PORT must be a port number (1-65535), not 'http'"),
                      ({"WEB_PORT": "70000"}, "not '70000'"),
                      ({"WEB_PORT": "9100", "HEALTH_STALL_SECONDS": "0"}, "HEALTH_STALL_SECONDS must be")):
        with pytest.raises(ValueError, match=re.escape(said)):
            WebSettings.from_env(env)


@pytest.mark.asyncio
async def test_bound_to_the_loopback_by_default_and_everywhere_when_configured(tmp_path):
    other = _other_address()
    for host in ("127.0.0.1", "0.0.0.0"):
        bot = new_bot(f"sqlite:///{tmp_path}/{host}.db", ManualClock(), web=WebSettings(port=0, host=host,
                                                                                         beat_interval=0))
        from aiohttp import web

        async def hello(request):
            return web.Response(text="hello")

        bot.web.app.router.add_get("/hello", hello)  # another front end's route, added before the start
        await bot.store.init()
        await bot.web.start()
        try:
            assert [a[0] for a in bot.web.addresses] == [host]
            assert (await _get(bot, "/metrics"))[0] == 200
            assert await _get(bot, "/hello") == (200, "hello")
            if other is not None:
                if host == "127.0.0.1":  # from another address of this machine: refused
                    with pytest.raises(aiohttp.ClientConnectorError):
                        await _get(bot, "/metrics", host=other)
                else:
                    assert (await _get(bot, "/metrics", host=other))[0] == 200
        finally:
            await bot.web.stop()
            await bot.store.close()


@pytest.mark.asyncio
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads Linux's /proc")
async def test_no_port_is_opened_unless_web_port_is_set(tmp_path):
    before = _listening_sockets()
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        assert bot.web is None and bot.metrics is None
        assert _listening_sockets() == before
    finally:
        await fd.close()
    bot, fd, _, _ = await _started(tmp_path / "on" if (tmp_path / "on").mkdir() is None else tmp_path)
    try:
        assert len(_listening_sockets() - before) == 1  # the web server's
    finally:
        await fd.close()
    assert _listening_sockets() == before


@pytest.mark.asyncio
async def test_the_rest_hook_counts_what_a_real_aiohttp_session_sends(tmp_path):
    """The trace config given to discord.py (``Client(http_trace=…)``) counts the requests of
    a real ``aiohttp`` session (here asking this bot's own web server for a Discord route it
    does not have: 404, then a 429 it answers)."""
    from aiohttp import web

    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock(), web=WebSettings(port=0, beat_interval=0))
    assert bot.http.http_trace is bot.metrics.http_trace

    async def limited(request):
        return web.json_response({"retry_after": 1}, status=429, headers={"X-RateLimit-Scope": "global"})

    bot.web.app.router.add_get("/api/v10/users/@me", limited)
    await bot.web.start()
    try:
        async with aiohttp.ClientSession(trace_configs=[bot.metrics.http_trace],
                                         connector=aiohttp.TCPConnector(force_close=True)) as s:
            for path in ("/api/v10/channels/42/messages", "/api/v10/users/@me"):
                async with s.get(f"http://127.0.0.1:{bot.web.port}{path}") as r:
                    await r.read()
        fams = _families(bot.metrics.exposition().decode())
        assert _value(fams, "mahjong_discord_requests", "mahjong_discord_requests_total", shard="0",
                      route="GET /channels/{channel_id}/messages", status="404") == 1
        assert _value(fams, "mahjong_discord_rate_limited", "mahjong_discord_rate_limited_total", shard="0",
                      route="GET /users/@me", scope="global") == 1
    finally:
        await bot.web.stop()
        await bot.store.close()
