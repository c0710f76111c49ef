"""How ``bot.py`` starts and stops as a process: one line on stderr and the right exit status
for each expected case, never a traceback.

The process is ``tests/harness/bot_at.py`` — ``bot.py`` run as ``__main__`` with discord.py's
REST base at a local stub (:class:`Stub`, ``aiohttp.web``): it answers ``/users/@me`` (200, or
401 for a refused token), the application, and holds the requests where a test wants the bot
to wait — logging in, the command sync, the gateway (the bot then serves: it set itself
up and connects to the gateway).  The fake Discord of ``tests/harness/fakediscord`` lives in a test's own
process, so the drain with a move in flight is tested there (``tests/discord/test_clean_stop.py``);
here, the signal → clean stop → exit status path of a real process, as PID 1 of its own PID
namespace (as in a container) and at a terminal (a pty, Ctrl-C typed).

Exit statuses (``bot.py``): 0 asked to stop, 1 Discord unreachable, 2 a configuration mistake.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import termios
from pathlib import Path
from typing import Optional

import pytest
from aiohttp import web

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests" / "harness" / "bot_at.py"
APP_ID = "1200000000000000001"
USER = {"id": APP_ID, "username": "Mahjong", "global_name": None, "discriminator": "0", "avatar": None,
        "bot": True, "verified": True, "mfa_enabled": False, "flags": 0, "public_flags": 0}
#: the longest a test waits for the process (a safety net, not a measure)
PATIENCE = 60.0


class Stub:
    """A local stand-in for Discord's REST API.  ``hold``: the routes (``"login"``, ``"sync"``,
    ``"gateway"``) whose requests are held unanswered; ``seen``: an event per route, set when
    its first request arrived; ``refuse``: answer ``/users/@me`` 401 as for a reset token."""

    def __init__(self, hold: tuple = (), refuse: bool = False):
        self.hold, self.refuse = set(hold), refuse
        self.seen = {name: asyncio.Event() for name in ("login", "sync", "gateway")}
        self._never = asyncio.Event()
        self.runner: Optional[web.AppRunner] = None
        self.port = 0

    async def _held(self, name: str):
        self.seen[name].set()
        if name in self.hold:
            await self._never.wait()

    async def me(self, request):
        await self._held("login")
        if self.refuse:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        return _json(USER)

    async def application(self, request):
        return _json({"id": APP_ID, "name": "Mahjong", "icon": None, "description": "",
                                  "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                                  "owner": USER, "summary": "", "verify_key": "0" * 64, "flags": 0,
                                  "team": None})

    async def commands(self, request):
        await self._held("sync")
        return _json([])

    async def gateway(self, request):
        await self._held("gateway")  # the bot set itself up and connects: it serves
        return web.Response(status=503)

    async def emojis(self, request):
        await self._never.wait()  # the tiles' emojis wait; the test is not about them

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/oauth2/applications/@me", self.application)
        app.router.add_put(f"/api/v10/applications/{APP_ID}/commands", self.commands)
        app.router.add_get(f"/api/v10/applications/{APP_ID}/emojis", self.emojis)
        app.router.add_get("/gateway", self.gateway)
        self.runner = web.AppRunner(app, handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def close(self) -> None:
        self._never.set()
        if self.runner is not None:
            await self.runner.cleanup()


def _json(data, status: int = 200) -> web.Response:
    """A JSON answer with Discord's exact ``Content-Type`` (discord.py parses only that)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _env(tmp_path: Path, api: str, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DISCORD_GUILD_ID", "SHARD_COUNT",
                                                            "SHARD_IDS", "STOP_TIMEOUT")}
    env.update(XDG_DATA_HOME=str(tmp_path / "xdg"), DISCORD_TOKEN="test.token.value", TEST_DISCORD_API=api,
               DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}", PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


async def _spawn(argv: list, env: dict, cwd: Path, terminal: bool = False):
    """Start the process; with ``terminal``, its standard input and output are a new pty whose
    controlling process it is (as a shell at a terminal starts it); returns ``(proc, master)``."""
    if not terminal:
        proc = await asyncio.create_subprocess_exec(*argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return proc, None
    master, slave = os.openpty()

    def controlling_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = await asyncio.create_subprocess_exec(*argv, env=env, cwd=cwd, stdin=slave, stdout=slave,
                                                stderr=subprocess.PIPE, preexec_fn=controlling_terminal)
    os.close(slave)
    return proc, master


async def _finish(proc) -> tuple[int, str]:
    _, err = await asyncio.wait_for(proc.communicate(), PATIENCE)
    return proc.returncode, err.decode()


def _said(err: str) -> list[str]:
    """The lines ``bot.py`` itself wrote (its messages start ``bot.py:``)."""
    return [line for line in err.splitlines() if line.startswith("bot.py:")]


def _free_port() -> int:
    """A local port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- failures to start: one line, the right status -----------------------------------------
@pytest.mark.asyncio
async def test_a_refused_token_says_so_on_one_line_and_exits_2(tmp_path):
    stub = Stub(refuse=True)
    api = await stub.start()
    try:
        proc, _ = await _spawn([sys.executable, str(RUNNER)], _env(tmp_path, api), tmp_path)
        status, err = await _finish(proc)
    finally:
        await stub.close()
    assert status == 2, err
    assert "Traceback" not in err
    assert len(_said(err)) == 1 and "Discord refused DISCORD_TOKEN" in _said(err)[0]


@pytest.mark.asyncio
async def test_discord_out_of_reach_says_so_on_one_line_and_exits_1(tmp_path):
    """Nothing listens at the API's address (as without network): status 1, which a service
    manager retries (the network may come back), unlike 2."""
    api = f"http://127.0.0.1:{_free_port()}/api/v10"
    proc, _ = await _spawn([sys.executable, str(RUNNER)], _env(tmp_path, api), tmp_path)
    status, err = await _finish(proc)
    assert status == 1, err
    assert "Traceback" not in err
    assert len(_said(err)) == 1 and "cannot reach Discord" in _said(err)[0]


@pytest.mark.asyncio
@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0, reason="unshare --net needs root")
async def test_without_any_network_the_real_bot_py_exits_1_on_one_line(tmp_path):
    """``python bot.py`` itself, with the real Discord address, in a network namespace with no
    interface up (no DNS, no route): status 1, one line."""
    env = _env(tmp_path, "unused")
    proc, _ = await _spawn(["unshare", "--net", sys.executable, str(ROOT / "bot.py")], env, tmp_path)
    status, err = await _finish(proc)
    assert status == 1, err
    assert "Traceback" not in err
    assert len(_said(err)) == 1 and "cannot reach Discord" in _said(err)[0]


@pytest.mark.asyncio
async def test_a_malformed_stop_timeout_is_a_configuration_mistake(tmp_path):
    proc, _ = await _spawn([sys.executable, str(ROOT / "bot.py")],
                           _env(tmp_path, "unused", STOP_TIMEOUT="soon"), tmp_path)
    status, err = await _finish(proc)
    assert status == 2 and "Traceback" not in err
    assert _said(err) == ["bot.py: STOP_TIMEOUT must be seconds (e.g. 8), not 'soon'"]


# --- Ctrl-C at a terminal during start-up ----------------------------------------------------
@pytest.mark.asyncio
@pytest.mark.parametrize("moment", ["login", "sync"])
async def test_ctrl_c_typed_at_a_terminal_during_start_up_stops_with_0_and_no_traceback(tmp_path, moment):
    """Ctrl-C typed at the bot's terminal while it logs in, or while it syncs the slash
    commands (after the migrations): status 0, no traceback, and the database it migrated is
    whole for the next start."""
    stub = Stub(hold=(moment,))
    api = await stub.start()
    try:
        proc, master = await _spawn([sys.executable, str(RUNNER)], _env(tmp_path, api), tmp_path, terminal=True)
        await asyncio.wait_for(stub.seen[moment].wait(), PATIENCE)
        os.write(master, b"\x03")  # the terminal turns it into SIGINT for its foreground process
        status, err = await _finish(proc)
        os.close(master)
    finally:
        await stub.close()
    assert status == 0, err
    assert "Traceback" not in err
    assert "SIGINT during start-up: stopping" in err and "stopped" in err.splitlines()[-1]
    if moment == "sync":
        import sqlite3

        con = sqlite3.connect(tmp_path / "bot.db")
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
        con.close()


# --- a clean stop of a serving bot, as PID 1 (a container) and at a terminal -----------------
async def _serving_bot_stopped(tmp_path: Path, argv_prefix: list, stop, terminal: bool = False):
    stub = Stub(hold=("gateway",))
    api = await stub.start()
    try:
        proc, master = await _spawn([*argv_prefix, sys.executable, str(RUNNER)], _env(tmp_path, api), tmp_path,
                                    terminal=terminal)
        await asyncio.wait_for(stub.seen["gateway"].wait(), PATIENCE)  # set up; connecting
        stop(proc, master)
        status, err = await _finish(proc)
        if master is not None:
            os.close(master)
    finally:
        await stub.close()
    return status, err


def _print_stop_time(err: str, label: str) -> None:
    """Print (seen with ``pytest -s``) how long the clean stop took, from the bot's own log
    times of "stopping" and "stopped" — a number to read, not asserted."""
    import datetime as dt

    def at(word: str) -> dt.datetime:
        line = next(line for line in err.splitlines() if f" bot: {word}" in line)
        return dt.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f")

    took = (at("stopped") - at("SIG")).total_seconds()
    print(f"\n{label}: the clean stop took {took * 1000:.0f} ms (bound: STOP_TIMEOUT 8 s)")


def _child_of(pid: int) -> int:
    """The one child of process ``pid`` (the bot, under ``unshare --fork``)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def _pid_namespaces_work() -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    return subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"],
                          capture_output=True).returncode == 0


@pytest.mark.asyncio
@pytest.mark.skipif(not _pid_namespaces_work(), reason="unshare --pid needs root and namespaces")
async def test_sigterm_to_the_bot_as_pid_1_stops_it_cleanly_with_0(tmp_path):
    """As in a container (``docker stop``): the bot is PID 1 of its own PID namespace, where a
    signal without a handler is ignored; SIGTERM from outside stops it cleanly with 0, its
    database closed (SQLite removes the write-ahead log when the last connection closes)."""
    probe = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c",
                            "import os; print(os.getpid())"], capture_output=True, text=True)
    assert probe.stdout.strip() == "1"  # the bot below runs as PID 1 of its namespace

    def sigterm(proc, master) -> None:
        os.kill(_child_of(proc.pid), signal.SIGTERM)

    status, err = await _serving_bot_stopped(tmp_path, ["unshare", "--pid", "--fork", "--mount-proc"], sigterm)
    assert status == 0, err
    assert "Traceback" not in err
    assert "SIGTERM: stopping — finishing what is in flight (at most 8 s)" in err
    _print_stop_time(err, "SIGTERM to PID 1")
    assert err.splitlines()[-1].endswith("bot: stopped")
    assert (tmp_path / "bot.db").exists() and not (tmp_path / "bot.db-wal").exists()


@pytest.mark.asyncio
async def test_ctrl_c_at_a_terminal_stops_a_serving_bot_cleanly_with_0(tmp_path):
    def ctrl_c(proc, master) -> None:
        os.write(master, b"\x03")

    status, err = await _serving_bot_stopped(tmp_path, [], ctrl_c, terminal=True)
    assert status == 0, err
    assert "Traceback" not in err
    assert "SIGINT: stopping — finishing what is in flight" in err
    _print_stop_time(err, "Ctrl-C at a terminal")
    assert err.splitlines()[-1].endswith("bot: stopped")
    assert not (tmp_path / "bot.db-wal").exists()


@pytest.mark.asyncio
async def test_an_unexpected_error_still_prints_its_traceback(tmp_path):
    """Only the expected cases are said on one line: a database where no folder can be made
    (under ``/dev/null``) fails where the bot did not expect it — with its traceback, status 1."""
    stub = Stub()
    api = await stub.start()
    try:
        proc, _ = await _spawn([sys.executable, str(RUNNER)],
                               _env(tmp_path, api, DATABASE_URL="sqlite:////dev/null/sub/bot.db"), tmp_path)
        status, err = await _finish(proc)
    finally:
        await stub.close()
    assert status == 1 and "Traceback" in err and "NotADirectoryError" in err


# --- the service managers' side: the stop signal, the time they give, the restart policy -----
def test_docker_systemd_and_compose_send_sigterm_and_wait_longer_than_the_clean_stop():
    """The bound (``STOP_TIMEOUT``, 8 s by default) fits in what each manager waits before its
    SIGKILL; compose does not restart a clean stop and retries a failure a bounded number of
    times, so a configuration mistake (status 2) does not loop."""
    import re

    import yaml

    from cogs.shutdown import STOP_TIMEOUT

    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^STOPSIGNAL SIGTERM$", docker, re.M)
    bot_service = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))["services"]["bot"]
    grace = re.fullmatch(r"(\d+)s", bot_service["stop_grace_period"])
    assert grace and STOP_TIMEOUT < int(grace.group(1))
    policy = re.fullmatch(r"on-failure:(\d+)", bot_service["restart"])
    assert policy and 1 <= int(policy.group(1)) <= 10
    unit = (ROOT / "deploy" / "mahjong-bot.service").read_text(encoding="utf-8")
    assert re.search(r"^KillSignal=SIGTERM$", unit, re.M)
    assert STOP_TIMEOUT < int(re.search(r"^TimeoutStopSec=(\d+)$", unit, re.M).group(1))
    assert re.search(r"^RestartPreventExitStatus=2$", unit, re.M) and re.search(r"^Restart=on-failure$", unit, re.M)
