"""The README's first command without a Discord token: the local table in the terminal."""

from __future__ import annotations

import builtins
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import kinds

import bot
from engine.tiles import parse_kind
from engine.variants import all_variants
from local.table import CHANNEL, GUILD, ME, _human_turn

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
def test_auto_plays_a_hand_of_every_game_and_prints_the_settlement(variant, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env is read from the project
    info = next(v for v in all_variants() if v.id == variant)
    code = bot.main(["--ai-level", "normal", "--auto", "--variant", variant, "--hands", "1", "--seed", "3",
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
    code = bot.main(["--local", "--ai-level", "normal", "--seed", "4", "--lang", "en", "--out", str(tmp_path / "img")])
    out = capsys.readouterr().out
    assert code == 0
    assert "Discard: type a tile" in out  # help
    # a word written like a tile that is none, and a word that is neither a move nor a tile
    assert "Unknown tile: 9z" in out and "That is not an action you can take now: banana. You can:" in out
    assert "== Totals ==" in out and (tmp_path / "img" / "table.png").exists()


# --- start-up: options, variants and their errors -----------------------------------------
def run_main(monkeypatch, tmp_path, *args) -> int:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    return bot.main(["--local", "--ai-level", "normal", *args, "--seed", "3", "--out", str(tmp_path / "img")])


@pytest.mark.parametrize("bad", ["foo", "=3"])
def test_option_without_key_and_value_is_a_usage_error(bad, tmp_path, capsys, monkeypatch):
    with pytest.raises(SystemExit) as e:
        run_main(monkeypatch, tmp_path, "--option", bad)
    err = capsys.readouterr().err
    assert e.value.code == 2
    last = err.strip().splitlines()[-1]
    assert "--option" in last and repr(bad) in last and "key=value" in last
    assert "Traceback" not in err


@pytest.mark.parametrize("lang,option,text", [
    ("en", "min_fan=abc", "Option min_fan cannot be abc (allowed: 1–88)."),
    ("zh", "min_fan=abc", "选项 min_fan 不能为 abc（可选：1–88）。"),
    ("en", "nosuch=1", "Unknown option nosuch. Known options: base_points, min_fan,"),
    ("zh", "nosuch=1", "未知选项 nosuch。可用选项：base_points, min_fan,"),
])
def test_bad_option_key_or_value_prints_the_localized_message(lang, option, text, tmp_path, capsys, monkeypatch):
    code = run_main(monkeypatch, tmp_path, "--lang", lang, "--option", option)
    out = capsys.readouterr()
    assert code == 2
    assert text in out.err
    assert "option_" not in out.err + out.out and "{" not in out.err


@pytest.mark.parametrize("lang,text", [("en", "Unknown game: nosuch."), ("zh", "未知玩法：nosuch。")])
def test_unknown_variant_prints_the_localized_message(lang, text, tmp_path, capsys, monkeypatch):
    code = run_main(monkeypatch, tmp_path, "--lang", lang, "--variant", "nosuch")
    out = capsys.readouterr()
    assert code == 2
    assert text in out.err and "unknown_variant" not in out.err + out.out


@pytest.mark.parametrize("lang,unusable,text", [
    ("en", "--db", "error: cannot open the database foo: "),
    ("zh", "--db", "错误：无法打开数据库 foo："),
    ("en", "--out", "error: cannot write the images to "),
])
def test_database_or_image_folder_that_cannot_be_opened_is_a_clear_error(lang, unusable, text, tmp_path, capsys,
                                                                          monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a folder")
    argv = ["--local", "--seed", "3", "--lang", lang, "--out", str(tmp_path / "img")]
    argv += ["--db", "foo"] if unusable == "--db" else ["--out", str(tmp_path / "a-file")]
    code = bot.main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(text) and len(err.strip().splitlines()) == 1, err


# --- leaving the prompt: quit, end of input, Ctrl-C ---------------------------------------
@pytest.fixture
def closed_stores(monkeypatch):
    """The stores closed during the test (``Store.close`` still runs)."""
    from store import Store

    closed = []
    real = Store.close

    async def close(self):
        closed.append(self)
        await real(self)

    monkeypatch.setattr(Store, "close", close)
    return closed


def answers_then(monkeypatch, lines, end):
    """``input()`` gives ``lines``, then raises ``end`` (EOFError, KeyboardInterrupt)."""
    it = iter(lines)

    def fake_input(prompt=""):
        for line in it:
            return line
        raise end

    monkeypatch.setattr(builtins, "input", fake_input)


def test_end_of_input_at_the_prompt_says_goodbye_and_closes_the_store(tmp_path, capsys, monkeypatch,
                                                                     closed_stores):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    answers_then(monkeypatch, ["hint"], EOFError)
    code = bot.main(["--local", "--ai-level", "normal", "--seed", "3", "--lang", "en", "--out", str(tmp_path / "img")])
    out = capsys.readouterr().out
    assert code == 0
    assert out.rstrip().endswith("Goodbye.") and "== Totals ==" in out
    assert len(closed_stores) == 1


def test_ctrl_c_at_the_prompt_says_goodbye_and_closes_the_store(tmp_path, capsys, monkeypatch, closed_stores):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    answers_then(monkeypatch, ["hint"], KeyboardInterrupt)
    try:
        code = bot.main(["--local", "--ai-level", "normal", "--seed", "3", "--out", str(tmp_path / "img")])
    except KeyboardInterrupt:  # caught here: escaping, it would stop the whole test run
        pytest.fail("KeyboardInterrupt escaped the local table")
    out = capsys.readouterr().out
    assert code == 130
    assert out.rstrip().endswith("再见。")
    assert len(closed_stores) == 1


def _read_until(fd: int, marker: bytes, timeout: float) -> bytes:
    """Output of a child on ``fd`` until ``marker`` shows (or the time is up)."""
    buf = b""
    deadline = time.monotonic() + timeout
    while marker not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the pty's other end is closed: the child is gone
            break
        if not chunk:
            break
        buf += chunk
    return buf


def test_sigint_at_the_prompt_of_a_real_terminal_exits_promptly(tmp_path):
    """``python bot.py --seed 3`` on a pseudo-terminal; SIGINT while it waits at the prompt."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = {**os.environ, "DISCORD_TOKEN": "", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "bot.py"), "--seed", "3", "--out", str(tmp_path / "img")],
                            stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, env=env,
                            start_new_session=True)
    os.close(slave)
    try:
        out = _read_until(master, b"> ", 60)  # start-up time varies with the machine's load
        assert b"> " in out, out.decode(errors="replace")
        proc.send_signal(signal.SIGINT)  # to the process: the kernel picks any of its threads
        t0 = time.monotonic()
        out += _read_until(master, b"\x00", 5)  # everything until it closes the terminal
        try:
            code = proc.wait(timeout=max(0.1, 5 - (time.monotonic() - t0)))
        except subprocess.TimeoutExpired:
            pytest.fail("still running 5 s after SIGINT:\n" + out.decode(errors="replace"))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    text = out.decode(errors="replace")
    assert code == 130, text
    assert "Traceback" not in text
    assert "再见。" in text.split("> ")[-1]


# --- refusals at the local table: each game's own messages --------------------------------
JINHU_AI = ["1m4m7m2p5p8p3s6s9s2m8m1p4s", "2m5m8m3p6p9p1s4s7s3m9m4p7p", "3m6m9m1p4p7p2s5s8s5p6s8p2p"]
#: the AI seats hold no pair (so nobody can pung) and draw kinds they do not hold
JINHU_AI_DRAWS = "6p1m7m"


async def local_table(monkeypatch, tmp_path, variant, hands, *, players=None, options=None, lang="en",
                      draws="", spec=None, **deal):
    """A local table (you at seat 0, AI seats) whose first hand is dealt from a stacked wall:
    ``hands`` per seat, ``draws`` off the front, ``spec`` more of the variant's stacking keys,
    ``deal`` more hand context (``dealer``, ``hand_no``, …)."""
    from engine.match import Match
    from store import Store
    from service.tables import TableService

    stacked = {"hands": [kinds(h) for h in hands], "draws": kinds(draws), **(spec or {})}
    real = Match.new_hand

    def new_hand(self, extra=None, *, context=None):
        if context is None:
            extra = {**(extra or {}), "stacked": stacked, **deal}
        return real(self, extra, context=context)

    monkeypatch.setattr(Match, "new_hand", new_hand)
    store = Store(f"sqlite:///{tmp_path}/local.db")
    await store.init()
    from render.text import typed

    service = TableService(store, seed_source=lambda: 3, vocabulary=typed)
    await service.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=ME, name="Player",
                               variant=variant, options=options or {}, lang=lang)
    table = service.table_in(CHANNEL)
    while len(table.seats) < (players or table.variant.max_players):
        await service.add_ai(CHANNEL, ME, "normal")
    await service.start(CHANNEL, ME)
    return store, service, table


async def type_at_prompt(monkeypatch, capsys, service, table, lang, *lines) -> str:
    """Type ``lines`` at the local table's prompt, one turn each; returns what it printed."""
    it = iter(lines)
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(it))
    capsys.readouterr()
    for _ in lines:
        assert await _human_turn(service, service.snapshot(CHANNEL), lang)
    return capsys.readouterr().out


@pytest.mark.asyncio
@pytest.mark.parametrize("lang,text", [
    ("en", "This wait may not win: it must be a closed (夹) or edge (边) wait, or the hand needs more fan."),
    ("zh", "这样叫牌不能胡：必须是夹张或边张，或者番数不够。"),
])
async def test_jinhu_open_wait_refusal_is_jinhu_text(lang, text, tmp_path, capsys, monkeypatch):
    # you deal 34456m 123p 789s 11s + 2m: complete (234m 456m), but 2m is an open wait
    # worth 1 fan (自摸) below min_fan_for_open_wait 2: wait_not_allowed
    store, service, table = await local_table(monkeypatch, tmp_path, "jinhu", ["34456m123p789s11s2m", *JINHU_AI],
                                              draws=JINHU_AI_DRAWS, dealer=0, lang=lang)
    try:
        assert table.hand.pending_seats() == [0] and table.hand.win_offered(0)
        out = await type_at_prompt(monkeypatch, capsys, service, table, lang, "hu")
    finally:
        await store.close()
    assert "  " + text in out.splitlines()
    assert not table.hand.is_over()


@pytest.mark.asyncio
async def test_jinhu_fake_ready_win_refusal_is_jinhu_text(tmp_path, capsys, monkeypatch):
    # you deal 34456m 123p 789s 11s + 9p, declare 假听 and pass 9p on; the AI seats pass their
    # draws on; you draw 5m (a closed wait: a winning hand) but may not win after 假听
    store, service, table = await local_table(monkeypatch, tmp_path, "jinhu", ["34456m123p789s11s9p", *JINHU_AI],
                                              draws=JINHU_AI_DRAWS + "5m", dealer=0)
    try:
        await type_at_prompt(monkeypatch, capsys, service, table, "en", "fake_ting", "9p")
        hand = table.hand
        assert hand.fake[0] and hand.turn == 0 and hand.drawn[0] >> 2 == parse_kind("5m")
        assert hand.win_shape(0, None)
        out = await type_at_prompt(monkeypatch, capsys, service, table, "en", "hu")
    finally:
        await store.close()
    assert "  You declared a false ready (假听): you cannot win this hand." in out.splitlines()


@pytest.mark.asyncio
async def test_laowudui_dealt_tile_refusal_is_laowudui_text(tmp_path, capsys, monkeypatch):
    # two seats, the AI deals (a later hand, so not the creator) and passes a tile on;
    # you are dealt 3s and try to discard 1p from your hand instead
    store, service, table = await local_table(
        monkeypatch, tmp_path, "laowudui", ["1p2p3p4p5p6p7p8p1m2m3m", "5m6m7m8m9m1m2h3h4h5h1s2s"], players=2,
        options={"wilds": "4", "buy_dealer": "false"}, draws="3s", dealer=1, hand_no=1,
        spec={"indicator": parse_kind("Tp")})
    try:
        hand = table.hand
        assert hand.phase == "discard" and hand.turn == 0 and hand.dealt[0] >> 2 == parse_kind("3s")
        out = await type_at_prompt(monkeypatch, capsys, service, table, "en", "1p")
    finally:
        await store.close()
    assert ("  You must pass on the tile you were dealt (3s (3 Bamboo)) unless you claim it or it is a wild."
            in out.splitlines())


@pytest.mark.asyncio
async def test_caishen_wild_discard_refusal_is_caishen_text(tmp_path, capsys, monkeypatch):
    # wild_discard=false and 4p is the 财神: you may not discard it
    hands = ["147m258p369s1234z4p", "35p4p4p147m369s123z", "147m258p369s5677z", "147m258p369s1567z"]
    store, service, table = await local_table(monkeypatch, tmp_path, "caishen", hands,
                                              options={"wild_discard": "false"}, dealer=0,
                                              indicator=parse_kind("4p"))
    try:
        out = await type_at_prompt(monkeypatch, capsys, service, table, "en", "4p")
    finally:
        await store.close()
    assert "  A 财神 (4p (4 Dots)) may not be discarded at this table." in out.splitlines()


@pytest.mark.asyncio
async def test_laosanfan_opening_refusal_is_laosanfan_text(tmp_path, capsys, monkeypatch):
    # the table's first hand, first go-around: only 筒 and 万 may go
    hands = ["1m2m3m5p5p1s2s3s7z7z1z2z3z4z", "5p7z2s3s4s5s6s7s8s9s1z2z3z", "5m5m5m1s2s3s4s5s6s7s8s9s1z",
             "1s2s3s4s5s6s7s8s9s1z2z3z4z"]
    store, service, table = await local_table(monkeypatch, tmp_path, "laosanfan", hands, dealer=0)
    try:
        assert table.hand.opening_active()
        out = await type_at_prompt(monkeypatch, capsys, service, table, "en", "7z")
    finally:
        await store.close()
    assert "  First go-around: only 筒 and 万 may be discarded." in out.splitlines()


def test_an_ignored_ting_is_told_at_the_local_table(tmp_path, capsys, monkeypatch):
    """two_player.md §Play: 听 with a discard that leaves no ready hand is ignored and played as
    a plain discard — the player is told so at the local table too."""
    from engine.match import Match
    from engine.tiles import kind_str
    from engine.variants import find_variant

    info = find_variant("two_player")
    seed = next(s for s in range(1, 300) if Match(info, info.resolve_options({}), s, 2).state["dealer"] == 0)
    hand = Match(info, info.resolve_options({}), seed, 2).new_hand()
    legal = hand.legal_actions(0)
    ready = {a.kind for a in legal if a.type == "ting"}
    plain = next(a.kind for a in legal if a.type == "discard" and a.kind not in ready)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    answers = iter([f"ting {kind_str(plain)}", "quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    code = bot.main(["--local", "--ai-level", "normal", "--seed", str(seed), "--lang", "en", "--out", str(tmp_path / "img")])
    out = capsys.readouterr().out
    assert code == 0
    assert f"Your 听 was ignored: discarding {kind_str(plain)}" in out, out


def test_a_kept_database_opens_again(tmp_path, capsys, monkeypatch):
    """``--db`` kept between runs: the second game opens (the first one's unfinished table is
    ended, its scores stay)."""
    url = f"sqlite:///{tmp_path}/kept.db"
    for _ in range(2):
        assert run_main(monkeypatch, tmp_path, "--db", url, "--auto", "--hands", "1") == 0
    out = capsys.readouterr()
    assert out.out.count("== 总分 ==") == 2 and "错误" not in out.err


@pytest.mark.parametrize("bad", ["0", "-1", "two"])
def test_hands_must_be_a_whole_number_of_at_least_one(bad, tmp_path, capsys, monkeypatch):
    with pytest.raises(SystemExit) as e:
        run_main(monkeypatch, tmp_path, "--hands", bad)
    assert e.value.code == 2 and "--hands" in capsys.readouterr().err


def test_unknown_variant_lists_the_games(tmp_path, capsys, monkeypatch):
    assert run_main(monkeypatch, tmp_path, "--variant", "nosuch", "--lang", "en") == 2
    err = capsys.readouterr().err
    assert all(v.id in err for v in all_variants()), err


def test_chinese_verbs_and_a_games_own_claim_names(capsys):
    """过/碰/吃 are understood; a refused claim of a game's own (老五对 堆) is named in words,
    never as a catalogue key."""
    from engine.variants import find_variant
    from render.text import error_text

    from local.table import CHINESE_VERBS

    assert CHINESE_VERBS["过"] == ("pass",) and "peng" in CHINESE_VERBS["碰"] and "chi" in CHINESE_VERBS["吃"]
    for lang in ("en", "zh"):
        text = error_text("cannot_claim", lang, {"claim": "dui"}, find_variant("laowudui").facts)
        assert "messages." not in text and ("堆" in text), text


def test_a_win_without_a_card_of_its_own_is_told_in_words():
    """字牌 偎胡/提胡: the win event has no card; the log line still reads well."""
    from engine.variants import find_variant
    from render.text import describe_event

    for lang, word in (("en", "wins!"), ("zh", "胡了")):
        line = describe_event({"type": "hu", "seat": 1, "self_drawn": True}, ["a", "b"], lang, find_variant("zipai").facts)
        assert line and word in line and "!" not in line.replace(word, "") and "messages" not in line, line


def test_double_where_the_game_has_none_is_not_offered_as_a_rule():
    """加倍 exists in 二人麻将 only: elsewhere it is just not an action of the game."""
    from engine.actions import Action
    from engine.errors import IllegalAction
    from engine.match import Match
    from engine.variants import find_variant

    info = find_variant("laosanfan")
    hand = Match(info, info.resolve_options({}), 3, 4).new_hand()
    seat = hand.pending_seats()[0]
    with pytest.raises(IllegalAction) as e:
        hand.apply(Action(seat, "double"))
    assert e.value.code == "action_not_available"


def test_the_local_game_is_a_match_of_its_hands(tmp_path, capsys, monkeypatch):
    """``--hands 2``: a match of two hands (option ``match_hands``), ended and kept with its
    standings when the last hand is settled."""
    import asyncio

    from store import Store

    url = f"sqlite:///{tmp_path}/kept.db"
    assert run_main(monkeypatch, tmp_path, "--db", url, "--auto", "--hands", "2") == 0

    async def stored():
        async with Store(url) as store:
            [match] = await store.unposted_matches()
            return match, await store.match_hands(match.table_id), await store.get_table(match.table_id)

    match, hands, table = asyncio.run(stored())
    assert (match.hands_planned, match.hands_played, len(hands)) == (2, 2, 2)
    assert table.status == "closed" and table.options["match_hands"] == 2
