"""Running the bot as a service: no silent wrong mode without a token, and a database that does
not depend on the working directory (``store/location.py``)."""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import discord
import pytest

import bot
from store import Store
from store.location import DB_FILE, data_dir, database_url

ROOT = Path(__file__).resolve().parents[1]


def _env_without_token(tmp_path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    return env


def test_without_token_or_terminal_the_bot_exits_2_and_says_why(tmp_path):
    """Under a service manager (no terminal, no token) ``python bot.py`` must not deal a local
    game and exit 0: it exits 2 with a message naming DISCORD_TOKEN and the ways out."""
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=_env_without_token(tmp_path), timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "DISCORD_TOKEN is not set" in proc.stderr
    assert "--local" in proc.stderr and "--auto" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_without_terminal_local_or_auto_still_play(tmp_path):
    """``--local`` reads moves from a pipe (end of input leaves with the totals); ``--auto``
    needs no input at all."""
    env = _env_without_token(tmp_path)
    local = subprocess.run([sys.executable, str(ROOT / "bot.py"), "--local", "--seed", "3", "--lang", "en",
                            "--out", str(tmp_path / "img")], cwd=tmp_path, input="quit\n",
                           capture_output=True, text=True, env=env, timeout=120)
    assert local.returncode == 0, local.stderr
    assert "== Totals ==" in local.stdout
    auto = subprocess.run([sys.executable, str(ROOT / "bot.py"), "--auto", "--hands", "1", "--seed", "3",
                           "--out", str(tmp_path / "img2")], cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=env, timeout=120)
    assert auto.returncode == 0, auto.stderr
    assert "== 总分 ==" in auto.stdout


def test_database_url_wins_when_set(tmp_path):
    assert database_url({"DATABASE_URL": "postgresql://h/db"}, cwd=tmp_path, home=tmp_path / "h") == \
        "postgresql://h/db"


def test_default_database_is_in_the_data_directory_whatever_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    home = data_dir()
    assert home == tmp_path / "xdg" / "mahjong-bot" and home.is_dir()
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    assert database_url({}, cwd=a) == database_url({}, cwd=b) == f"sqlite:///{home / DB_FILE}"


@pytest.mark.asyncio
async def test_the_bot_started_from_another_directory_finds_the_same_scores(tmp_path, monkeypatch):
    """A preset saved by a bot started in one directory is there for a bot started in another."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    for d in ("one", "two"):
        (tmp_path / d).mkdir()
    monkeypatch.chdir(tmp_path / "one")
    first = bot.make_bot(timer_interval=0)
    await first.store.init()
    await first.store.set_preset(42, "evening", "laosanfan", {"style": "tuidaoba"})
    await first.store.close()
    monkeypatch.chdir(tmp_path / "two")
    second = bot.make_bot(timer_interval=0)
    await second.store.init()
    cfg = await second.store.get_guild_config(42)
    await second.store.close()
    assert cfg.presets == {"evening": {"variant": "laosanfan", "options": {"style": "tuidaoba"}}}
    assert not (tmp_path / "one" / DB_FILE).exists() and not (tmp_path / "two" / DB_FILE).exists()


@pytest.mark.asyncio
async def test_an_old_database_in_the_working_directory_is_moved_with_a_log_line(tmp_path, caplog):
    """The earlier default (``mahjong.db`` in the working directory) is found and moved into the
    data directory with its write-ahead log, so its rows are all there."""
    old_dir, home = tmp_path / "old", tmp_path / "home"
    old_dir.mkdir()
    store = Store(f"sqlite:///{old_dir / DB_FILE}")
    await store.init()
    await store.set_preset(7, "kept", "zipai", {"min_huxi": 6})
    await store.close()
    with caplog.at_level(logging.WARNING, logger="store.location"):
        url = database_url({}, cwd=old_dir, home=home)
    assert url == f"sqlite:///{home / DB_FILE}"
    assert not (old_dir / DB_FILE).exists() and (home / DB_FILE).exists()
    assert any("moved the database" in r.getMessage() and str(home / DB_FILE) in r.getMessage()
               for r in caplog.records)
    moved = Store(url)
    await moved.init()
    assert (await moved.get_guild_config(7)).presets["kept"] == {"variant": "zipai", "options": {"min_huxi": 6}}
    await moved.close()
    con = sqlite3.connect(home / DB_FILE)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()


def test_both_databases_present_keeps_the_data_directorys_and_warns(tmp_path, caplog):
    old_dir, home = tmp_path / "old", tmp_path / "home"
    old_dir.mkdir(), home.mkdir()
    (old_dir / DB_FILE).write_bytes(b"old")
    (home / DB_FILE).write_bytes(b"new")
    with caplog.at_level(logging.WARNING, logger="store.location"):
        url = database_url({}, cwd=old_dir, home=home)
    assert url == f"sqlite:///{home / DB_FILE}"
    assert (old_dir / DB_FILE).read_bytes() == b"old" and (home / DB_FILE).read_bytes() == b"new"
    assert any("DATABASE_URL=sqlite:///" in r.getMessage() for r in caplog.records)


def test_a_database_already_in_the_data_directory_is_not_moved_onto_itself(tmp_path):
    (tmp_path / DB_FILE).write_bytes(b"x")
    assert database_url({}, cwd=tmp_path, home=tmp_path) == f"sqlite:///{tmp_path / DB_FILE}"
    assert (tmp_path / DB_FILE).read_bytes() == b"x"


# --- the application's setup: permissions, invite URL, the variables the code reads --------
def _readme_permissions() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("these permissions, the complete list for every feature", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\s*- (.+)$", block, re.M)


def test_the_invite_urls_permission_integer_is_the_readmes_list():
    from cogs.permissions import NEEDED, invite_url

    listed = _readme_permissions()
    assert listed == [name for _, name in NEEDED]
    by_name = {n.replace(" ", "_").lower(): True for n in listed}
    expected = discord.Permissions(**by_name).value
    # View Channel 1024 + Send Messages 2048 + Embed Links 16384 + Attach Files 32768
    # + Send Messages in Threads 2**38
    assert expected == 1024 + 2048 + 16384 + 32768 + 2 ** 38
    query = parse_qs(urlparse(invite_url(123456789012345678)).query)
    assert query["client_id"] == ["123456789012345678"]
    assert int(query["permissions"][0]) == expected
    assert query["scope"][0].split() == ["bot", "applications.commands"]


def test_missing_permissions_are_named_in_a_channel_and_in_a_thread():
    from cogs.permissions import missing

    everything = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                     embed_links=True, attach_files=True)
    assert missing(everything) == [] and missing(everything, in_thread=True) == []
    no_embeds = discord.Permissions(view_channel=True, send_messages=True, attach_files=True)
    assert missing(no_embeds) == ["embed_links"]
    assert missing(no_embeds, in_thread=True) == ["send_messages_in_threads", "embed_links"]
    assert missing(discord.Permissions.none()) == ["view_channel", "send_messages", "embed_links", "attach_files"]


def _variables_read_by_the_code() -> set[str]:
    names: set[str] = set()
    files = [ROOT / "bot.py", *(p for d in ("cogs", "service", "store", "local", "render", "engine")
                                for p in (ROOT / d).rglob("*.py"))]
    for path in files:
        src = path.read_text(encoding="utf-8")
        names.update(re.findall(r"""(?:environ\.get|getenv|env\.get)\(\s*["']([A-Z_][A-Z0-9_]*)["']""", src))
        names.update(re.findall(r"""environ\[\s*["']([A-Z_][A-Z0-9_]*)["']\s*\]""", src))
    return names


def _variables_in(text: str) -> set[str]:
    """``NAME=`` at the start of a line, commented out or not (``# NAME=``)."""
    return set(re.findall(r"^#?\s*([A-Z_][A-Z0-9_]*)=", text, re.M))


def test_env_example_names_exactly_the_variables_the_code_reads():
    read = _variables_read_by_the_code()
    assert {"DISCORD_TOKEN", "DATABASE_URL", "DISCORD_GUILD_ID", "SHARD_COUNT", "SHARD_IDS"} <= read
    assert _variables_in((ROOT / ".env.example").read_text(encoding="utf-8")) == read


# --- running it 24/7: the Docker image, compose and the systemd unit ------------------------
def _dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), " ".join(rest.split())))
    return out


def _requirement_names(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[<>=!\[; ]", line, 1)[0].lower().replace("_", "-"))
    return names


def test_dockerfile_is_slim_python_non_root_with_data_in_a_volume_and_the_bots_entry_point():
    steps = _dockerfile()
    base = next(arg for ins, arg in steps if ins == "FROM")
    m = re.fullmatch(r"python:3\.(\d+)-slim", base)
    assert m and int(m.group(1)) >= 11, base
    env = " ".join(arg for ins, arg in steps if ins == "ENV")
    assert "DATABASE_URL=sqlite:////data/mahjong.db" in env
    assert ("VOLUME", '["/data"]') in steps
    runs = [arg for ins, arg in steps if ins == "RUN"]
    assert "pip install -c constraints.txt -r requirements.txt" in runs
    user = [arg for ins, arg in steps if ins == "USER"]
    assert user and user[-1] not in ("root", "0")
    # the user is switched to after the installs, and before the command
    order = [ins for ins, _ in steps]
    assert order.index("USER") > max(i for i, ins in enumerate(order) if ins == "RUN")
    assert steps[-1] == ("CMD", '["python", "bot.py"]') and (ROOT / "bot.py").exists()
    copied = {arg.split()[0] for ins, arg in steps if ins == "COPY"}
    # everything bot.py imports at run time, and the shipped fonts and catalogues
    assert {"bot.py", "cogs", "engine", "local", "render", "service", "store", "data"} <= copied
    assert (ROOT / "data" / "fonts").is_dir() and "data" in copied
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".env" in ignored and "*.db" in ignored  # no token nor database baked into the image


def test_constraints_pin_every_requirement_and_ci_installs_from_them():
    pinned = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pinned[name.lower().replace("_", "-")] = version
    wanted = _requirement_names(ROOT / "requirements.txt") | _requirement_names(ROOT / "requirements-dev.txt")
    wanted = {w.replace("sqlalchemy[asyncio]", "sqlalchemy") for w in wanted}
    assert wanted - set(pinned) == set()
    assert all(re.fullmatch(r"\d+(\.\w+)*", v) for v in pinned.values())
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -q -c constraints.txt -r requirements-dev.txt" in ci
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["requires-python"] == ">=3.11"
    assert sys.version_info >= (3, 11)


def test_compose_runs_the_bot_with_its_variables_and_postgresql_as_an_option():
    import yaml

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    bot_service = compose["services"]["bot"]
    assert bot_service["build"] == "."
    assert set(bot_service["environment"]) == _variables_read_by_the_code()
    assert bot_service["environment"]["DATABASE_URL"] == "${DATABASE_URL:-sqlite:////data/mahjong.db}"
    assert "data:/data" in bot_service["volumes"] and "data" in compose["volumes"]
    assert bot_service["restart"] == "on-failure:5"  # tests/test_lifecycle_exits.py says why
    pg = compose["services"]["postgres"]
    assert pg["profiles"] == ["postgres"] and pg["image"].startswith("postgres:")
    # with the profile on, the bot waits for the server's healthcheck; without it, for nothing
    assert bot_service["depends_on"] == {"postgres": {"condition": "service_healthy", "required": False}}
    assert "pg_isready" in pg["healthcheck"]["test"]
    user, password, db = (pg["environment"][k] for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"))
    # the URL the file's comment tells to put in .env reaches that server
    assert f"DATABASE_URL=postgresql://{user}:{password}@postgres:5432/{db}" in \
        (ROOT / "compose.yaml").read_text(encoding="utf-8")


def test_systemd_unit_names_the_variables_and_does_not_restart_on_a_configuration_error():
    unit = (ROOT / "deploy" / "mahjong-bot.service").read_text(encoding="utf-8")
    for name in _variables_read_by_the_code():
        assert name in unit, name
    assert "ExecStart=/opt/mahjong-bot/.venv/bin/python bot.py" in unit
    assert "RestartPreventExitStatus=2" in unit  # bot.py's exit status without a token
    user = re.search(r"^User=(?!root)(\w+)", unit, re.M).group(1)
    assert f"useradd --system --home-dir /opt/mahjong-bot --shell /usr/sbin/nologin {user}" in unit
    assert "Environment=DATABASE_URL=sqlite:////var/lib/mahjong-bot/mahjong.db" in unit
    assert "StateDirectory=mahjong-bot" in unit


def test_the_images_files_run_the_bot_and_docker_builds_it_where_an_engine_answers(tmp_path):
    """The files the Dockerfile copies are all the bot needs: laid out as in the image (and
    nothing else of the project), ``python bot.py --auto`` plays a hand with every module,
    font, catalogue and tile image it uses.  Where a Docker engine answers
    (development and CI machines have a client only), the image itself is built too."""
    import shutil

    image = tmp_path / "app"
    image.mkdir()
    for ins, arg in _dockerfile():
        if ins == "COPY":
            for src in arg.split()[:-1]:  # (the last word is the destination, the work dir)
                if (ROOT / src).is_dir():
                    shutil.copytree(ROOT / src, image / src, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copy2(ROOT / src, image / src)
    env = _env_without_token(tmp_path)
    proc = subprocess.run([sys.executable, "bot.py", "--auto", "--hands", "1", "--seed", "3", "--out",
                           str(tmp_path / "img")], cwd=image, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "== 总分 ==" in proc.stdout
    assert sorted(p.name for p in image.iterdir()) == ["LICENSE", "bot.py", "cogs", "constraints.txt", "data", "engine",
                                                       "local", "pyproject.toml", "render", "requirements.txt",
                                                       "service", "store"]
    # the image knows its version (pyproject.toml copied beside bot.py; nothing installed)
    said = subprocess.run([sys.executable, "-c", "from service.version import version; print(version())"], cwd=image,
                          capture_output=True, text=True, env=env, timeout=120)
    import tomllib

    assert said.stdout.strip() == tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert (tmp_path / "img" / "hand-1-result.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # fonts and tiles found
    if shutil.which("docker") is not None and subprocess.run(["docker", "info"], capture_output=True).returncode == 0:
        built = subprocess.run(["docker", "build", "-q", "-t", "mahjong-bot-test", str(ROOT)], capture_output=True,
                               text=True, timeout=1800)
        assert built.returncode == 0, built.stderr


# --- backups: a consistent copy while tables are played -------------------------------------
@pytest.mark.asyncio
async def test_a_backup_taken_while_tables_play_is_whole_and_holds_every_acknowledged_action(tmp_path):
    """Two tables play (every move acknowledged once the service returns); copies are taken
    with ``python -m store.backup``'s code in another thread while the moves go on.  Each copy
    passes ``integrity_check`` and holds every move acknowledged before it began."""
    import asyncio

    from service.clock import ManualClock
    from service.tables import TableService
    from store.copies import backup_sqlite

    db = tmp_path / "live.db"
    store = Store(f"sqlite:///{db}")
    await store.init()
    svc = TableService(store, ManualClock(), seed_source=lambda: 4321)
    for ch in (5, 6):
        await svc.create_table(guild_id=1, channel_id=ch, user_id=ch * 10, name="a", variant="two_player")
        await svc.join(ch, ch * 10 + 1, "b")
        await svc.start(ch, ch * 10)
    acknowledged: dict[int, list[str]] = {}  # hand id -> the moves acknowledged so far

    async def play(ch: int, moves: int) -> None:
        for _ in range(moves):
            t = svc.table_in(ch)
            if t.hand.is_over():
                await svc.next_hand(ch, ch * 10)
                continue
            seat = t.hand.pending_seats()[0]
            a = t.hand.timeout_action(seat)
            await svc.act(ch, t.seats[seat].user_id, a.type, a.kind)
            acknowledged[t.hand_id] = list(t.actions)
            await asyncio.sleep(0)

    copies = []
    for round_no in range(4):
        before = {h: list(lines) for h, lines in acknowledged.items()}
        dest = tmp_path / f"copy-{round_no}.db"
        # the copy runs in a thread while both tables go on playing
        await asyncio.gather(asyncio.to_thread(backup_sqlite, db, dest, 1), play(5, 15), play(6, 15))
        copies.append((dest, before))
    await store.close()
    assert sum(len(v) for v in acknowledged.values()) >= 60
    assert sum(len(v) for v in copies[-1][1].values()) >= 40  # the last copy had much to hold
    for dest, before in copies:
        con = sqlite3.connect(dest)
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        for hand_id, lines in before.items():
            stored = [r[0] for r in con.execute("SELECT text FROM hand_action WHERE hand_id = ? ORDER BY idx",
                                                (hand_id,))]
            assert stored[:len(lines)] == lines, hand_id
        con.close()


def test_backup_command_refuses_postgresql_with_the_pg_dump_advice_and_an_existing_file(tmp_path, capsys):
    from store.backup import main as backup_main

    assert backup_main([str(tmp_path / "x.db"), "--db", "postgresql://h/db"]) == 1
    assert "pg_dump -Fc" in capsys.readouterr().err
    (tmp_path / "taken.db").write_bytes(b"")
    assert backup_main([str(tmp_path / "taken.db"), "--db", f"sqlite:///{tmp_path}/none.db"]) == 1
    assert "no database at" in capsys.readouterr().err


# --- configuration mistakes stop the bot with status 2 (a service manager does not loop) ----
@pytest.mark.parametrize("env,said", [
    ({"DISCORD_GUILD_ID": "abc"}, "DISCORD_GUILD_ID must be a server id (digits), not 'abc'"),
    ({"SHARD_COUNT": "x"}, "SHARD_COUNT / SHARD_IDS:"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "5"}, "shard ids [5] not within 0..1"),
    ({"WEB_PORT": "metrics"}, "WEB_PORT must be a port number (1-65535), not 'metrics'"),
    ({"WEB_PORT": "9100", "HEALTH_STALL_SECONDS": "-1"}, "HEALTH_STALL_SECONDS must be a number of seconds above 0"),
    ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'loud'"),
])
def test_a_malformed_setting_exits_2_and_names_it(env, said, tmp_path):
    full = dict(_env_without_token(tmp_path), DISCORD_TOKEN="not-a-real-token", **env)
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=full, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert said in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("error,said", [
    ("LoginFailure", "Discord refused DISCORD_TOKEN"),
    ("PrivilegedIntentsRequired", "the bot needs none"),
])
def test_a_token_discord_refuses_exits_2_with_the_way_out(error, said, monkeypatch, capsys):
    """Discord's answer to a wrong or reset token (``discord.LoginFailure``) is a configuration
    mistake too: status 2 and what to do, not a traceback and a restart loop."""
    import render.table

    class Refused:
        async def start(self, token):
            exc = getattr(discord, error)
            raise exc("refused") if error == "LoginFailure" else exc(None)

        def is_closed(self):
            return False

        async def close(self):
            pass

    monkeypatch.setattr(render.table, "warm_up", lambda: None)
    monkeypatch.setattr(bot, "make_bot", lambda **kw: Refused())
    for name in ("DISCORD_GUILD_ID", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    assert bot.run_discord("token") == 2
    assert said in capsys.readouterr().err


@pytest.mark.asyncio
async def test_backup_reads_database_url_from_dot_env_and_refuses_a_missing_folder(tmp_path, monkeypatch, capsys):
    """``python -m store.backup`` run where the bot runs finds the database the bot uses (its
    ``.env``), and a destination in a folder that does not exist is a clear error."""
    from store.backup import main as backup_main

    db = tmp_path / "bot.db"
    store = Store(f"sqlite:///{db}")
    await store.init()
    await store.set_preset(3, "p", "jinhu", {})
    await store.close()
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"DATABASE_URL=sqlite:///{db}\n", encoding="utf-8")
    assert backup_main([str(tmp_path / "copy.db")]) == 0
    assert f"{db} -> {tmp_path / 'copy.db'}" in capsys.readouterr().out
    con = sqlite3.connect(tmp_path / "copy.db")
    assert con.execute("SELECT count(*) FROM guild_config").fetchone() == (1,)
    con.close()
    assert backup_main([str(tmp_path / "no-such-folder" / "copy.db")]) == 1
    err = capsys.readouterr().err
    assert f"no folder {tmp_path / 'no-such-folder'}; create it first" in err and "Traceback" not in err
    monkeypatch.delenv("DATABASE_URL", raising=False)  # (load_dotenv set it in this process)


# --- health, metrics and logs of a bot running for months ---------------------------------
def test_log_level_names_a_level_or_is_a_configuration_error():
    import logging

    assert bot.log_level(None, logging.INFO) == logging.INFO and bot.log_level(" ", logging.WARNING) == logging.WARNING
    assert bot.log_level("debug", logging.INFO) == logging.DEBUG and bot.log_level("ERROR", logging.INFO) == logging.ERROR
    with pytest.raises(ValueError, match="LOG_LEVEL must be one of"):
        bot.log_level("verbose", logging.INFO)


def test_the_image_and_compose_check_health_on_the_loopback_and_bound_their_logs():
    """The image serves /healthz on its own loopback and asks it (``python -m cogs.web
    --check``); compose does the same, passes every setting, and keeps its logs bounded."""
    import yaml

    steps = _dockerfile()
    env = " ".join(arg for ins, arg in steps if ins == "ENV")
    assert "WEB_PORT=8080" in env and "WEB_HOST=127.0.0.1" in env
    health = [arg for ins, arg in steps if ins == "HEALTHCHECK"]
    assert len(health) == 1 and health[0].endswith('CMD ["python", "-m", "cogs.web", "--check"]')
    assert "--start-period=" in health[0]
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    for name, service in compose["services"].items():
        assert service["logging"] == {"driver": "json-file", "options": {"max-size": "10m", "max-file": "5"}}, name
    bot_service = compose["services"]["bot"]
    assert bot_service["healthcheck"]["test"] == ["CMD", "python", "-m", "cogs.web", "--check"]
    assert bot_service["environment"]["WEB_PORT"] == "${WEB_PORT-8080}"  # set empty in .env: off
    assert bot_service["environment"]["WEB_HOST"] == "${WEB_HOST:-127.0.0.1}"
    assert bot_service["environment"]["LOG_LEVEL"] == "${LOG_LEVEL:-INFO}"


@pytest.mark.asyncio
async def test_the_health_check_command_asks_the_running_bot(tmp_path):
    """``python -m cogs.web --check`` (the image's HEALTHCHECK): 0 while /healthz answers 200,
    1 with the JSON body once it answers 503 (a closed store), 0 when WEB_PORT is unset, 1
    when nothing listens."""
    import asyncio

    from cogs.web import WebSettings
    from service.clock import ManualClock

    async def check(port: str) -> tuple[int, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "HEALTH_"))}
        if port:
            env["WEB_PORT"] = port
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "cogs.web", "--check", cwd=ROOT, env=env,
                                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out, _ = await proc.communicate()
        return proc.returncode, out.decode()

    running = bot.make_bot(f"sqlite:///{tmp_path}/bot.db", clock=ManualClock(), timer_interval=0,
                           tile_emojis=False, web=WebSettings(port=0, beat_interval=0))
    running.is_ready = lambda: True  # as after Discord's READY (no gateway here)
    await running.store.init()
    await running.web.start()
    port = str(running.web.port)
    try:
        code, out = await check(port)
        assert code == 0 and '"status": "ok"' in out
        await running.store.close()
        code, out = await check(port)
        assert code == 1 and '"failed": ["store"]' in out
    finally:
        await running.web.stop()
    assert await check("") == (0, "health check: WEB_PORT is not set: the web server is off, nothing to check\n")
    code, out = await check(port)
    assert code == 1 and "Connection refused" in out
