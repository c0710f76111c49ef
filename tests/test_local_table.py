"""The README's first command without a Discord token: the local table in the terminal."""

from __future__ import annotations

import builtins
import re

import pytest

import bot
from engine.variants import all_variants


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
def test_auto_plays_a_hand_of_every_game_and_prints_the_settlement(variant, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env is read from the project
    info = next(v for v in all_variants() if v.id == variant)
    code = bot.main(["--auto", "--variant", variant, "--hands", "1", "--seed", "3",
                     "--players", str(info.max_players), "--out", str(tmp_path / "img")])
    out = capsys.readouterr().out
    assert code == 0
    # one settlement block and the totals, whose points sum to zero
    assert out.count("== 第 1 局结算 ==") == 1 and "== 总分 ==" in out
    totals = [int(x) for x in re.findall(r"^  .+: ([+-]\d+)$", out.split("== 总分 ==")[1], re.M)]
    assert len(totals) == info.max_players and sum(totals) == 0
    assert (tmp_path / "img" / "hand-1-result.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_interactive_table_answers_help_hint_bad_tiles_and_quits(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    answers = iter(["help", "hint", "9z", "banana", "quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    code = bot.main(["--seed", "4", "--lang", "en", "--out", str(tmp_path / "img")])
    out = capsys.readouterr().out
    assert code == 0
    assert "Discard: type a tile" in out  # help
    assert "Unknown tile: 9z" in out and "Unknown tile: banana" in out
    assert "== Totals ==" in out and (tmp_path / "img" / "table.png").exists()
