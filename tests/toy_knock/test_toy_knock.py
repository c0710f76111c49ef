"""敲牌 (``tests/toy_knock/``), a game with its own action, words, presets, rules summary and
paper cards, all in its own folder: registered for the duration of each test, it is offered
with its preset, played — its own action pressed as a button and typed at the local table, its
event told in its own words — and drawn in paper cards, through the table service, the local
table and the fake Discord, with no project module patched and no project file knowing it."""

from __future__ import annotations

import builtins
import dataclasses

import pytest

from engine.actions import Action
from engine.variants import find_variant, registered
from protocol_checks import check_facts, play_and_check
from service.clock import ManualClock
from service.guilds import GuildSettings
from service.tables import TableService
from store import Store
from toy_knock import INFO, KNOCK, KnockHand

GUILD, CHANNEL, ALICE = 1, 42, 1001


@pytest.fixture
def knock():
    with registered(INFO) as info:
        yield info
    with pytest.raises(KeyError):
        find_variant("toy_knock")  # gone for every other test


def _knocking_seed(pairs: int, dealer: int | None = None) -> int:
    """A table seed whose first hand offers the dealer (seat ``dealer``, when given) a knock at
    once (``pairs`` needed)."""
    from engine.match import Match

    for seed in range(200):
        hand = Match(INFO, INFO.resolve_options({"knock_pairs": pairs}), seed, 2).new_hand()
        seat = hand.pending_seats()[0]
        if Action(seat, KNOCK) in hand.legal_actions(seat) and dealer in (None, seat):
            return seed
    raise AssertionError("no seed deals a knock")


@pytest.mark.parametrize("seed", (1, 2))
def test_the_knock_game_keeps_the_protocol(knock, seed):
    check_facts(knock)
    play_and_check(knock, seed, 2, hands=2)
    facts = knock.facts
    assert facts.tile_style == "paper" and facts.action_label(KNOCK) == "btn.knock"
    assert facts.words_dir == str(INFO.data_dir)


def test_its_options_are_classified(knock):
    """The stake changes only the score; the pairs needed change when a knock is legal."""
    from engine.options import unclassified

    assert unclassified(knock.options) == [] and knock.score_only_options == {"stake"}


def test_a_knock_before_enough_pairs_is_refused_with_the_games_words(knock):
    from engine.errors import IllegalAction
    from render.text import error_text

    hand = KnockHand(INFO.resolve_options({"knock_pairs": 7}), 3, 0)
    with pytest.raises(IllegalAction) as e:
        hand.apply(Action(0, KNOCK))
    assert e.value.code == "knock_not_yet"
    assert error_text(e.value.code, "en", e.value.params, knock.facts) == "You need 7 pairs in your hand to knock."
    assert error_text(e.value.code, "zh-TW", e.value.params, knock.facts) == "手中需有 7 對才能敲牌。"


@pytest.mark.asyncio
async def test_the_preset_and_a_knock_through_the_service(knock, tmp_path):
    store = Store(f"sqlite:///{tmp_path}/knock.db")
    await store.init()
    try:
        # the game's own preset, read from its folder
        settings = GuildSettings(store)
        assert "early" in await settings.preset_names(GUILD, "toy_knock")
        opts = await settings.new_table_options(GUILD, CHANNEL, "toy_knock", "early", None, None)
        assert opts["knock_pairs"] == 2 and opts["stake"] == 3
        svc = TableService(store, ManualClock(), seed_source=lambda: _knocking_seed(2, dealer=0))
        await svc.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="alice",
                               variant="toy_knock", options=opts)
        await svc.add_ai(CHANNEL, ALICE, "normal")
        seen = []
        svc.listeners.append(lambda change: seen.append(change) or _noop())
        await svc.start(CHANNEL, ALICE)
        snap = svc.snapshot(CHANNEL)
        mine = snap.parts[0]
        assert mine.decision is not None  # Alice deals, and may knock at once
        assert any(m.type == KNOCK for m in mine.moves)  # her knock, a typed move with its key
        change = await svc.press(CHANNEL, ALICE, f"{KNOCK}:-", hand_id=snap.hand_id, seq=mine.decision[1])
        assert change.kind == "hand_over"
        result = change.snapshot.public.result
        assert result["winner"] == 0 and list(result["points"]) == [3, -3]  # the preset's stake
        assert result["fans"] == (("敲", "Knock", 1, 1),)  # frozen in the snapshot
        assert [e["type"] for e in change.events][:2] == [KNOCK, "hu"]
        stored = await store.get_hand(snap.hand_id)
        assert stored.status == "done" and list(stored.actions) == [f"0 {KNOCK}"]
        # the images draw its pieces as paper cards, from the facts the snapshot carries
        from render.table import table_layout
        from render.tiles import card_height
        from table_views import flat

        view = dict(change.snapshot.parts[0].view, lang="en")
        assert view["game"].tile_style == "paper"
        layout = table_layout(view)
        pieces = [im for _, _, band, _ in layout.seats.values() for im, _, _ in flat(band)]
        assert pieces and all(im.height == card_height(im.width) for im in pieces)
    finally:
        await store.close()


async def _noop() -> None:
    return None


def test_the_knock_is_typed_and_explained_at_the_local_table(knock, tmp_path, capsys, monkeypatch):
    """``python bot.py --variant toy_knock``: ``help`` names the knock and explains it in the
    game's own words, ``knock`` is understood as a move, and the rules summary is the game's."""
    import bot

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    seed = _knocking_seed(4, dealer=0)
    answers = iter(["help", "knock", "quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    code = bot.main(["--local", "--variant", "toy_knock", "--seed", str(seed), "--hands", "1", "--lang", "en",
                     "--out", str(tmp_path / "me")])
    out = capsys.readouterr().out
    assert code == 0 and "Knock" in out
    assert "knock — on your turn, with enough pairs in your hand" in out  # its own help
    assert "knocks!" in out  # its event, in its own words
    assert (tmp_path / "me" / "hand-1-result.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.asyncio
async def test_the_knock_game_in_discord(knock, tmp_path):
    from discord_play import new_bot, press, table_message
    from fakediscord import FakeDiscord, as_shown

    clock = ManualClock()
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", clock)
    bot.service.lobby.seed_source = lambda: _knocking_seed(2)
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        alice, bob = fd.user(101, "alice"), fd.user(102, "bob")
        presets = await fd.autocomplete(alice, "mj table create", {"variant": "toy_knock"}, "preset")
        assert "early" in [c["value"] for c in presets]
        r = await fd.slash(alice, "mj table create", {"variant": "toy_knock", "preset": "early"})
        assert r.ephemeral and "敲牌" in r.content
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table start")
        table = bot.service.table_in(fd.channel_id)
        assert table.options["knock_pairs"] == 2 and table.options["stake"] == 3
        dealer = table.hand.pending_seats()[0]
        user = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}[dealer]
        # the dealer's panel offers the knock, labelled in the game's own words
        labels = [c.get("label") for m in fd.dms_to(user) for c in m.walk_components()
                  if c.get("custom_id", "").endswith(f":{KNOCK}:-")]
        assert labels and labels[-1] == "Knock"
        await press(fd, user, Action(dealer, KNOCK))
        await fd.settle()
        assert table.hand.is_over() and table.last_result["winner"] == dealer
        public = table_message(fd, fd.channel_id)
        assert f"{user.name} knocks!" in as_shown(public.embeds[0]["description"])
        assert "Knock (敲牌)" in public.embeds[0]["title"]
        # /mj rules: the game's own summary and fan table
        r = await fd.slash(alice, "mj rules", {"variant": "toy_knock"}, locale="en-US")
        pages = r.message.embeds
        assert "you may knock: the hand ends at once" in str(pages[0])
        assert any("Knock" in (p.get("description") or "") for p in pages[1:])
    finally:
        await fd.close()


def test_nothing_outside_its_folder_names_the_game():
    """The words, the presets and the tile style were found through the game's package: no
    module or data file of the bot, and no other test, names it."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    here = Path(__file__).resolve().parent
    places = [root / "bot.py"] + [p for d in ("cogs", "engine", "local", "render", "service", "store", "bench",
                                             "data", "tests") for p in (root / d).rglob("*")]
    found = [str(p.relative_to(root)) for p in places if p.is_file() and "__pycache__" not in p.parts
             and here not in p.parents and p.suffix in (".py", ".json", ".ini", ".toml")
             and "toy_knock" in p.read_text(encoding="utf-8", errors="ignore")]
    assert found == []
    assert dataclasses.is_dataclass(INFO.facts)
