"""The bot's version (``pyproject.toml``'s, the one source) in ``/mj help`` and in the start log."""

from __future__ import annotations

import logging
import tomllib
from pathlib import Path

import pytest

from discord_play import new_bot
from fakediscord import FakeDiscord
from service.clock import ManualClock
from service.version import licence, version

ROOT = Path(__file__).resolve().parents[2]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_version_and_licence_are_pyprojects():
    project = _pyproject()
    assert version() == project["version"] and licence() == project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    assert project["license-files"] == ["LICENSE"]
    # the changelog has this version's section and one for the work after it
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog and f"## [{project['version']}] - " in changelog


@pytest.mark.asyncio
@pytest.mark.parametrize("locale,line", [
    ("en-US", "Bot version {v} · code under the MIT licence"),
    ("zh-CN", "机器人版本 {v} · 代码采用 MIT 许可证"),
    ("zh-TW", "機器人版本 {v} · 程式碼採用 MIT 許可證"),
])
async def test_help_shows_the_version_and_the_start_log_says_it(tmp_path, caplog, locale, line):
    with caplog.at_level(logging.INFO, logger="bot"):
        bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
        fd = FakeDiscord(bot)
        await fd.start()
    v = _pyproject()["version"]
    starts = [r.getMessage() for r in caplog.records if r.name == "bot" and "starting" in r.getMessage()]
    assert starts == [f"mahjong-bot {v} (MIT licence) starting"]
    res = await fd.slash(fd.user(811, "admin", locale=locale), "mj help")
    intro = res.message.data["embeds"][0]["description"]
    assert res.ephemeral and line.format(v=v) in intro.splitlines()
    await fd.close()
