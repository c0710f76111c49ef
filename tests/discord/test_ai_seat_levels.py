"""AI levels at the table, through the fake Discord: ``/mj table add-ai level``, the level
stored with the seat and kept through a restart, shown on the public table, played by the
service; and the table option ``auto_play_ai`` (托管 played by the AI at the table's level)."""

from __future__ import annotations

import pytest

from engine.actions import DISCARD, HU, Action
from engine.tiles import kind_of
from service.clock import ManualClock
from service.table import ServiceError

try:
    from discord_play import new_bot, table_message
    from fakediscord import FakeDiscord
    from panel_checks import restarted_bot
    from table_helpers import embed_text
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, table_message
    from tests.harness.fakediscord import FakeDiscord
    from tests.harness.panel_checks import restarted_bot
    from tests.harness.table_helpers import embed_text

GAME = "caishen"


async def _table(tmp_path, levels: list[str | None], seed: int = 5, options: str | None = None,
                 game: str = GAME):
    """A four-seat table of ``game``: p0 (English), then an AI seat per ``levels`` (``None``:
    the command's default level).  Not started."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    bot.service.lobby.seed_source = lambda: seed
    p0 = fd.user(700, "p0", locale="en-US")
    await fd.slash(p0, "mj table create", {"variant": game, **({"options": options} if options else {})})
    for level in levels:
        await fd.slash(p0, "mj table add-ai", {"level": level} if level else {})
    return bot, fd, p0


def _moves(table):
    """The stored moves of the table's hand, each with the hand as it was just before it (a
    replay of the stored log)."""
    hand = table.match.new_hand(context=table.hand.context, seed=table.hand.seed)
    for line in table.actions:
        a = Action.parse(line)
        yield hand, a
        hand.apply(a)


@pytest.mark.asyncio
async def test_levels_are_chosen_stored_shown_and_kept_through_a_restart(tmp_path):
    # 老三番 plays a strong level of its own: it is offered, and a new AI seat's default
    bot, fd, p0 = await _table(tmp_path, ["easy", None, "normal"], game="laosanfan")
    try:
        t = bot.service.table_in(fd.channel_id)
        assert [(s.is_ai, s.ai_level) for s in t.seats] == [
            (False, None), (True, "easy"), (True, "strong"), (True, "normal")]  # default: strong
        stored = await bot.store.get_seats(t.id)
        assert [s.ai_level for s in stored] == [None, "easy", "strong", "normal"]
        lobby = embed_text(table_message(fd, fd.channel_id))
        assert "AI levels: AI 1 easy, AI 2 strong, AI 3 normal" in lobby
        await fd.slash(p0, "mj table start")
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        t2 = fd.bot.service.table_in(fd.channel_id)
        assert t2 is not t
        assert [s.ai_level for s in t2.seats] == [None, "easy", "strong", "normal"]
        assert [sv.get("ai_level") for sv in fd.bot.service.snapshot(fd.channel_id).public.view["seats"]] == [None, "easy", "strong", "normal"]
        assert "AI levels: AI 1 easy, AI 2 strong, AI 3 normal" in embed_text(table_message(fd, fd.channel_id))
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_game_without_its_own_strong_ai_defaults_to_normal_and_refuses_strong(tmp_path, strong_is_normal):
    bot, fd, p0 = await _table(tmp_path, [None])
    try:
        t = bot.service.table_in(fd.channel_id)
        assert [s.ai_level for s in t.seats] == [None, "normal"]
        r = await fd.slash(p0, "mj table add-ai", {"level": "strong"})
        assert r.ephemeral and r.content == "This game's AI has no strong level: choose easy, normal."
        assert len(t.seats) == 2  # nothing added
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_level_choice_is_translated_and_a_level_unknown_is_refused_privately(tmp_path):
    bot, fd, p0 = await _table(tmp_path, [])
    try:
        zh = fd.user(701, "p1", locale="zh-CN")
        await fd.slash(zh, "mj table join")
        with pytest.raises(ServiceError) as e:
            await bot.service.add_ai(fd.channel_id, p0.id, "hard")
        assert e.value.code == "ai_level_unknown"
        from render.text import error_text
        assert error_text(e.value.code, "en", e.value.params) == \
            "There is no AI level hard. Known: easy, normal, strong."
        assert error_text(e.value.code, "zh", e.value.params) == "没有这种电脑水平：hard。可选：easy, normal, strong。"
        assert len(bot.service.table_in(fd.channel_id).seats) == 2  # nothing added
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_service_plays_each_ai_seat_at_its_level(tmp_path):
    """p0 leaves at once (托管, option off): every move of the hand is automatic and stored;
    each AI seat's is its level's move, p0's the timeout move (win when possible, else
    discard the drawn tile)."""
    bot, fd, p0 = await _table(tmp_path, ["easy", "easy", "easy"], seed=8)
    try:
        await fd.slash(p0, "mj table start")
        await fd.slash(p0, "mj table leave")
        await fd.settle()
        t = bot.service.table_in(fd.channel_id)
        assert t.hand.is_over() and t.actions
        info = t.variant
        differs = drawn_discards = 0
        for hand, a in _moves(t):
            if t.seats[a.seat].is_ai:
                assert a == info.ai_move(hand, a.seat, "easy")
                differs += a != info.ai_move(hand, a.seat, "normal")
            else:
                legal = hand.legal_actions(a.seat)
                if any(x.type == HU for x in legal):
                    assert a.type == HU
                elif a.type == DISCARD and hand.drawn[a.seat] is not None:
                    assert a.kind == kind_of(hand.drawn[a.seat])
                    drawn_discards += 1
                assert a == hand.timeout_action(a.seat)
        assert differs > 0  # easy is not normal here: the check can tell them apart
        assert drawn_discards > 0
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_auto_play_ai_plays_the_ais_move_for_a_seat_on_auto_play_and_is_shown(tmp_path):
    bot, fd, p0 = await _table(tmp_path, ["easy", "easy", "easy"], seed=8, options="auto_play_ai=true")
    try:
        t = bot.service.table_in(fd.channel_id)
        assert t.options["auto_play_ai"] is True and t.auto_play_level() == "easy"
        assert "Auto-play (托管) is played by the AI at the table's level" in embed_text(table_message(fd, fd.channel_id))
        await fd.slash(p0, "mj table start")
        assert "Auto-play (托管) is played by the AI (easy)" in embed_text(table_message(fd, fd.channel_id))
        await fd.slash(p0, "mj table leave")
        await fd.settle()
        t = bot.service.table_in(fd.channel_id)
        assert t.hand.is_over()
        info = t.variant
        mine = not_timeout = 0
        for hand, a in _moves(t):
            if a.seat == 0:
                mine += 1
                assert a == info.ai_move(hand, 0, "easy")
                not_timeout += a != hand.timeout_action(0)
        assert mine > 0 and not_timeout > 0  # the AI's moves, not the timeout rule's
        assert bot.service.snapshot(t.channel_id).public.view["auto_play_ai"] == "easy"
    finally:
        await fd.close()


def test_the_table_level_of_auto_play_is_the_strongest_ai_seat_or_the_games_strongest():
    from engine.variants import find_variant
    from service.table import Seat, Table

    info = find_variant(GAME)
    t = Table(1, 1, 1, 1, info, info.resolve_options({"auto_play_ai": True}), 3)
    t.seats = [Seat(1, "p0")]
    assert t.auto_play_level() == "strong"  # no AI seat: the strongest level the game offers
    t.seats += [Seat(None, "AI 1", is_ai=True, ai_level="easy"), Seat(None, "AI 2", is_ai=True)]
    assert t.auto_play_level() == "normal"  # AI 2 stored before levels: normal
    t.seats.append(Seat(None, "AI 3", is_ai=True, ai_level="strong"))
    assert t.auto_play_level() == "strong"
    t.options = info.resolve_options({})
    assert t.auto_play_level() is None  # the option is off by default


def test_a_game_without_its_own_strong_ai_auto_plays_at_normal(strong_is_normal):
    from service.table import Seat, Table

    t = Table(1, 1, 1, 1, strong_is_normal, strong_is_normal.resolve_options({"auto_play_ai": True}), 3)
    t.seats = [Seat(1, "p0")]
    assert t.auto_play_level() == "normal"  # the strongest level the game offers


@pytest.mark.parametrize("given,level", [(["--ai-level", "easy"], "easy"), ([], "strong")])  # two_player: strong by default
def test_the_local_table_seats_its_ai_at_ai_level(given, level, tmp_path, monkeypatch, capsys):
    import bot
    from service.lobby import Lobby

    seen = []
    add_ai = Lobby.add_ai

    async def spy(self, channel_id, user_id, level=None):
        seen.append(level)
        t = await add_ai(self, channel_id, user_id, level)
        seen.append(self.publisher.snapshot_of(self.tables.table_in(channel_id)).seats[-1].ai_level)
        return t

    monkeypatch.setattr(Lobby, "add_ai", spy)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert bot.main([*given, "--auto", "--variant", "two_player", "--hands", "1", "--seed", "3",
                     "--out", str(tmp_path / "img")]) == 0
    assert seen == [level, level]  # asked for, and stored with the seat
    with pytest.raises(SystemExit) as e:
        bot.main(["--ai-level", "hard"])
    assert e.value.code == 2
    assert "invalid choice: 'hard'" in capsys.readouterr().err
