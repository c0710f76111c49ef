"""The backup commands as README and ``deploy/`` write them, run from another folder against a
temporary database; the image's and compose's backup folder; the installed entry point."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from store import Store
from store.retention import backup_time

ROOT = Path(__file__).resolve().parents[1]


def _readme_backup_lines() -> list[str]:
    """The command lines of README's "Backups" section's ``sh`` blocks (comments dropped)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Backups\n", 1)[1].split("\n## ", 1)[0]
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        lines += [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return lines


def _as_here(line: str, tmp: Path) -> str:
    """A README line with the server's paths replaced by this checkout's and ``tmp``'s."""
    return (line.replace("/opt/mahjong-bot/.venv/bin/python", shlex.quote(sys.executable))
            .replace("/opt/mahjong-bot", str(ROOT))
            .replace("/var/lib/mahjong-bot", str(tmp / "state"))
            .replace(" /backups", f" {tmp / 'backups'}"))


def _env(tmp: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PYTHONPATH")}
    env["XDG_DATA_HOME"] = str(tmp / "xdg")
    env.update(extra)
    return env


async def _database(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    store = Store(f"sqlite:///{path}")
    await store.init()
    await store.set_preset(5, "evening", "laosanfan", {"style": "tuidaoba"})
    await store.close()


def _presets(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT count(*) FROM guild_config").fetchone()[0]
    finally:
        con.close()


@pytest.mark.asyncio
async def test_readmes_backup_and_restore_lines_run_as_written_from_another_folder(tmp_path):
    """By hand, cron, Docker (``docker compose exec bot`` runs in the image's /app with its
    DATABASE_URL), the systemd service's ExecStart, and the restore: each from a folder that is
    not the checkout, each copy checked, the restore bringing the database back."""
    lines = _readme_backup_lines()
    kinds = {"by hand": [ln for ln in lines if ln.startswith("/opt/") and " restore " not in ln],
             "cron": [ln for ln in lines if re.match(r"^[\d*]", ln)],
             "docker": [ln for ln in lines if ln.startswith("docker compose exec bot ")],
             "restore": [ln for ln in lines if " restore " in ln]}
    assert {k: len(v) for k, v in kinds.items()} == {"by hand": 1, "cron": 1, "docker": 1, "restore": 1}
    unit = (ROOT / "deploy" / "mahjong-backup.service").read_text(encoding="utf-8")
    exec_start = re.search(r"^ExecStart=(.+)$", unit, re.M).group(1)
    workdir = re.search(r"^WorkingDirectory=(.+)$", unit, re.M).group(1)
    assert workdir == "/"  # the unit runs it from another folder than the checkout
    db = tmp_path / "state" / "mahjong.db"
    await _database(db)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    commands = [("by hand", kinds["by hand"][0], elsewhere, {}),
                ("cron", kinds["cron"][0].split(None, 5)[5], elsewhere, {}),  # after the 5 time fields
                ("systemd", exec_start, elsewhere, {"DATABASE_URL": f"sqlite:///{db}"}),
                # the image: /app is the checkout, DATABASE_URL set by the image
                ("docker", kinds["docker"][0].replace("docker compose exec bot python", shlex.quote(sys.executable)),
                 ROOT, {"DATABASE_URL": f"sqlite:///{db}"})]
    for day, (kind, line, cwd, extra) in enumerate(commands, start=1):
        cmd = _as_here(line, tmp_path)
        proc = subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True, env=_env(tmp_path, **extra),
                              timeout=120)
        assert proc.returncode == 0, (kind, cmd, proc.stderr)
        assert "integrity ok" in proc.stdout and "Traceback" not in proc.stderr, kind
        # the copy just written is the newest of its folder; dated back a day each, as daily runs would be
        folder = tmp_path / ("backups" if kind == "docker" else "state/backups")
        newest = max(folder.iterdir(), key=lambda p: backup_time(p.name))
        newest.rename(folder / f"mahjong-2026-01-0{day}T033000Z.db")
    copies = sorted((tmp_path / "state" / "backups").iterdir())
    docker_copies = sorted((tmp_path / "backups").iterdir())
    assert [p.name for p in copies] == [f"mahjong-2026-01-0{d}T033000Z.db" for d in (1, 2, 3)]
    assert [p.name for p in docker_copies] == ["mahjong-2026-01-04T033000Z.db"]
    for copy in copies + docker_copies:
        assert _presets(copy) == 1
    # the restore: the copy under the README's name, the database lost, the line run
    restore = _as_here(kinds["restore"][0], tmp_path)
    named = Path(shlex.split(restore)[-1])
    shutil.copy(copies[0], named)
    db.unlink()
    proc = subprocess.run(restore, shell=True, cwd=elsewhere, capture_output=True, text=True, env=_env(tmp_path),
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert _presets(db) == 1


@pytest.mark.asyncio
async def test_a_name_taken_is_refused_and_nothing_is_overwritten(tmp_path, capsys):
    from datetime import datetime, timezone

    from store.copies import BackupError, backup_into

    db = tmp_path / "x.db"
    await _database(db)
    when = datetime(2026, 1, 1, 3, tzinfo=timezone.utc)
    first, removed = backup_into(f"sqlite:///{db}", tmp_path / "b", when)
    assert removed == [] and first.name == "mahjong-2026-01-01T030000Z.db"
    before = first.read_bytes()
    with pytest.raises(BackupError, match="exists already"):
        backup_into(f"sqlite:///{db}", tmp_path / "b", when)
    assert first.read_bytes() == before


def test_the_timer_starts_the_backup_service_daily():
    timer = (ROOT / "deploy" / "mahjong-backup.timer").read_text(encoding="utf-8")
    assert "OnCalendar=*-*-* 03:30:00 UTC" in timer and "Persistent=true" in timer
    unit = (ROOT / "deploy" / "mahjong-backup.service").read_text(encoding="utf-8")
    assert "Type=oneshot" in unit and "User=mahjong" in unit
    assert "Environment=DATABASE_URL=sqlite:////var/lib/mahjong-bot/mahjong.db" in unit  # the bot unit's database


def test_the_image_and_compose_keep_the_copies_in_a_volume_of_their_own_writable_by_the_bot():
    import yaml

    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    uid = re.search(r"useradd --system --uid (\d+) .*? (\w+)\s", text).groups()
    assert uid == ("10001", "mahjong")
    assert re.search(r"mkdir /data /backups && chown mahjong /data /backups", text)
    assert 'VOLUME ["/backups"]' in text
    assert "COPY bot.py pyproject.toml LICENSE ./" in text  # the version known in the image
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    bot = compose["services"]["bot"]
    assert "backups:/backups" in bot["volumes"] and "backups" in compose["volumes"]
    assert bot["environment"]["BACKUP_DIR"] == "${BACKUP_DIR-/backups}"  # on by default, BACKUP_DIR= turns it off


def test_mahjong_backup_is_installed_with_the_project():
    import importlib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, name = scripts["mahjong-backup"].partition(":")
    assert getattr(importlib.import_module(module), name).__module__ == "store.backup"
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    assert "store*" in packages["find"]["include"]
    # the bot installed this way runs too (mahjong-bot): its data/ is installed beside the packages
    assert "data*" in packages["find"]["include"] and packages["find"]["namespaces"] is True
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert data["data"] == ["*/*"] and all(p.parent.parent.name == "data" for p in (ROOT / "data").glob("*/*"))


@pytest.mark.parametrize("setting", ["BACKUP_AT=25", "BACKUP_KEEP_DAILY=x"])
def test_a_malformed_backup_setting_exits_2_and_names_it(setting, tmp_path):
    name, _, value = setting.partition("=")
    env = _env(tmp_path, DISCORD_TOKEN="not-a-real-token", BACKUP_DIR=str(tmp_path / "b"), **{name: value})
    for other in ("DISCORD_GUILD_ID", "SHARD_COUNT", "SHARD_IDS"):
        env.pop(other, None)
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert name in proc.stderr and repr(value) in proc.stderr and "Traceback" not in proc.stderr
