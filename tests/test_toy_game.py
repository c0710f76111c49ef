"""A game defined inside the tests — 玩具牌, two players drawing and discarding 1m–9m (36
tiles) on the shared draw/discard hand — registered for the duration of each test
(``engine.variants.registered``), kept to the protocol, and played to the end through the table
service (a stored table, AI and timeout moves, the settlement stored, the table reloaded from
the store by another service mid-hand and between hands), through the local table (images
written) and through the fake Discord: offered by ``/mj table create``'s autocomplete, played
with the DM buttons, its table and hand images drawn, its result shown and stored, its rules
listed.  Nothing outside this file knows the game, and no project module is patched.
"""

from __future__ import annotations

import pytest

import builtins
import re

from engine.mahjong import MahjongHand
from engine.options import TIMEOUT_OPTIONS, Option
from engine.variant import VariantInfo
from engine.variants import all_variants, find_variant, registered
from protocol_checks import check_facts, check_finished, check_view, play_and_check
from service.clock import ManualClock
from store import Store
from service.tables import TableService

GUILD, CHANNEL, ALICE = 1, 42, 1001


class ToyHand(MahjongHand):
    """玩具牌: one suit (1m–9m, four of each), two seats, any complete hand wins 1 point a
    seat (doubled by ``stake``)."""

    VARIANT = "toy"
    N_SEATS = 2
    RULES = "toy"

    def tile_counts(self) -> dict[int, int]:
        return {k: 4 for k in range(9)}

    def evaluate_win(self, seat: int, win_kind: int, self_drawn: bool, **flags) -> dict:
        return {"ok": True, "fan_total": 1, "fans": [["胡", "Win", 1, 1]]}

    def settle(self, winner: int | None, win: dict | None, discarder: int | None) -> list[int]:
        if winner is None:
            return [0] * self.n
        stake = self.options.get("stake", 1)
        points = [-stake] * self.n
        points[winner] = stake * (self.n - 1)
        return points


TOY = VariantInfo(
    "toy", "玩具牌", "Toy game", 2, 2,
    (Option("stake", int, 1, "Points a loser pays", "输家付分", min_value=1, max_value=10,
            score_only=True),) + TIMEOUT_OPTIONS,
    lambda options, seed, dealer, n, ctx: ToyHand(options, seed, dealer, ctx),
    aliases=("toy_game",),
    fan_table=(("胡", "Win", 1),),
)


@pytest.fixture
def toy():
    with registered(TOY) as info:
        yield info
    with pytest.raises(KeyError):
        find_variant("toy")  # gone for every other test


def test_registered_only_inside_the_block():
    assert "toy" not in [v.id for v in all_variants()]
    with registered(TOY):
        assert find_variant("玩具牌") is TOY and find_variant("TOY_GAME") is TOY
    assert "toy" not in [v.id for v in all_variants()]


def test_the_toys_options_are_classified(toy):
    """Its stake changes only the score (a hand may be re-scored under another); the shared
    timeouts do not."""
    from engine.options import unclassified

    assert unclassified(toy.options) == [] and toy.score_only_options == {"stake"}


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_the_toy_keeps_the_protocol(toy, seed):
    check_facts(toy)
    results = play_and_check(toy, seed, 2, hands=3)
    assert all(r["fan_total"] == 1 for r in results if r["winner"] is not None)


async def _play(svc: TableService, clock: ManualClock, stop=lambda t: False, limit: int = 500):
    """Let the timers run (Alice times out, the AI plays) until ``stop(table)`` or the hand
    is over."""
    t = svc.tables[CHANNEL]
    for _ in range(limit):
        if t.hand.is_over() or stop(t):
            return t
        clock.advance(t.options["discard_timeout"] + t.options["claim_timeout"] + 1)
        assert await svc.tick() >= 1
    raise AssertionError("the toy hand does not end")


@pytest.mark.asyncio
async def test_the_toy_plays_through_the_table_service_and_comes_back_from_the_store(toy, tmp_path):
    url = f"sqlite:///{tmp_path}/toy.db"
    store = Store(url)
    await store.init()
    clock = ManualClock()
    svc = TableService(store, clock, seed_source=lambda: 9)
    await svc.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="alice", variant="toy",
                           options={"stake": 2})
    t = svc.table_in(CHANNEL)
    assert t.variant is TOY and t.options["stake"] == 2
    await svc.add_ai(CHANNEL, ALICE, "normal")
    await svc.start(CHANNEL, ALICE)
    assert t.status == "playing" and isinstance(t.hand, ToyHand)

    # a few moves, then a restart mid-hand: the hand is replayed from the stored log
    t = await _play(svc, clock, stop=lambda t: t.hand.seq >= 6)
    seq, seen = t.hand.seq, t.hand.view(0)
    svc2 = TableService(Store(url), ManualClock(), seed_source=lambda: 10)
    await svc2.store.init()
    (snap2,) = await svc2.load()
    t2 = svc2.table_in(snap2.channel_id)
    assert t2.variant is TOY and t2.hand.seq == seq and t2.hand.view(0) == seen
    await svc2.store.close()

    # to the end of the hand: settled and stored
    t = await _play(svc, clock)
    result = t.last_result
    assert result is not None and t.hand.is_over()
    check_finished(TOY, t.hand)
    stored = await store.get_hand(t.hand_id)
    assert stored.status == "done" and stored.variant == "toy"
    assert stored.result["points"] == result["points"] and stored.result["winners"] == result["winners"]
    assert [s.points for s in stored.settlements] == result["points"]
    if result["winner"] is not None:
        assert sorted(result["points"]) == [-2, 2]  # the table's stake
    assert t.match.state["scores"] == result["points"]
    view = svc.snapshot(CHANNEL).parts[0].view
    check_view(TOY, t.hand, 0)
    assert view["variant"] == "toy" and [s["name"] for s in view["seats"]] == ["alice", "AI 1"]

    # the next hand, dealt by the result timer, and a restart between hands
    clock.advance(t.options.get("result_timeout", 30) + 1)
    await svc.tick()
    assert t.match.hand_no == 1 and not t.hand.is_over()
    first_hand = stored.id
    t = await _play(svc, clock)
    scores = t.match.state["scores"]
    svc3 = TableService(Store(url), ManualClock(), seed_source=lambda: 11)
    await svc3.store.init()
    (snap3,) = await svc3.load()
    t3 = svc3.table_in(snap3.channel_id)
    assert t3.variant is TOY and t3.match.state["scores"] == scores and t3.hand_id != first_hand
    await svc3.store.close()
    await store.close()


@pytest.mark.asyncio
async def test_an_unregistered_toy_table_is_not_resumed(tmp_path):
    """A stored table of a game nobody registered any more is left alone on load (the service
    logs it), not guessed at."""
    url = f"sqlite:///{tmp_path}/toy.db"
    with registered(TOY):
        store = Store(url)
        await store.init()
        svc = TableService(store, ManualClock(), seed_source=lambda: 5)
        await svc.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="alice", variant="toy")
        await svc.add_ai(CHANNEL, ALICE, "normal")
        await svc.start(CHANNEL, ALICE)
        await store.close()
    svc2 = TableService(Store(url), ManualClock(), seed_source=lambda: 6)
    await svc2.store.init()
    assert await svc2.load() == []
    await svc2.store.close()



# --------------------------------------------------------------------------- the local table
def test_the_toy_plays_at_the_local_table(toy, tmp_path, capsys, monkeypatch):
    """``python bot.py --variant toy --auto``: AI against AI, two hands, the settlement and
    the result image; then a human seat that asks for help and quits, its images written."""
    import bot

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    code = bot.main(["--auto", "--variant", "toy", "--hands", "2", "--seed", "5", "--option", "stake=3",
                     "--out", str(tmp_path / "auto")])
    out = capsys.readouterr().out
    assert code == 0 and "玩具牌" in out and out.count("局结算 ==") == 2
    totals = [int(x) for x in re.findall(r"^  .+: ([+-]\d+)$", out.split("== 总分 ==")[1], re.M)]
    assert len(totals) == 2 and sum(totals) == 0 and all(x % 3 == 0 for x in totals)  # the stake
    assert (tmp_path / "auto" / "hand-1-result.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    answers = iter(["help", "banana", "quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    code = bot.main(["--local", "--variant", "toy", "--seed", "5", "--lang", "en", "--out", str(tmp_path / "me")])
    out = capsys.readouterr().out
    # a word that is neither a move nor a tile: refused with the moves the player has (the one
    # reading of typed moves, service/interpret.py)
    assert code == 0 and "Toy game" in out and "That is not an action you can take now: banana. You can:" in out
    for name in ("table.png", "hand.png"):
        assert (tmp_path / "me" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- Discord
@pytest.mark.asyncio
async def test_the_toy_plays_in_discord(toy, tmp_path):
    from discord_play import new_bot, play_humans, table_message
    from fakediscord import FakeDiscord
    from panel_checks import shows_hand
    from PIL import Image
    import io

    clock = ManualClock()
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", clock)
    bot.service.lobby.seed_source = lambda: 21
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        alice, bob = fd.user(101, "alice"), fd.user(102, "bob")
        # the game registered after the bot was built is offered by /mj table create
        choices = await fd.autocomplete(alice, "mj table create", {"variant": "toy"}, "variant")
        assert [c["value"] for c in choices] == ["toy"] and "玩具牌" in choices[0]["name"]
        options = await fd.autocomplete(alice, "mj table create", {"variant": "toy", "options": "st"}, "options")
        assert options and options[0]["value"] == "stake=1"

        r = await fd.slash(alice, "mj table create", {"variant": "toy", "options": "stake=4"})
        assert r.ephemeral and "玩具牌" in r.text
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table start")
        table = bot.service.table_in(fd.channel_id)
        assert table.variant is toy and table.options["stake"] == 4
        users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}

        # the public message carries the table image; each player has a panel by DM (their hand as buttons)
        public = table_message(fd, fd.channel_id)
        image = next(f for f in public.attachments if f.name == "table.png")
        assert Image.open(io.BytesIO(image.data)).size[0] > 300
        for user in (alice, bob):
            assert any(shows_hand(m) for m in fd.dms_to(user))

        presses = await play_humans(fd, bot, fd.channel_id, users)
        await fd.settle()
        assert presses > 0 and table.hand.is_over()
        result = table.last_result
        stored = await bot.store.get_hand(table.hand_id)
        assert stored.status == "done" and stored.result["points"] == result["points"]
        if result["winner"] is not None:
            assert sorted(result["points"]) == [-4, 4]
        # the result screen (the server speaks English) names the game and its only fan
        public = table_message(fd, fd.channel_id)
        assert public.embeds[0]["title"].startswith("Toy game (玩具牌)")
        text = public.embeds[0]["description"]
        assert ("— 1 fan\nWin 1\n" in text) if result["winner"] is not None else text

        # /mj rules shows the toy's options and fan table
        r = await fd.slash(alice, "mj rules", {"variant": "toy"}, locale="en-US")
        pages = r.message.embeds
        assert pages[0]["title"].startswith("Toy game") and "stake" in str(pages[0])
        assert any("Win" in (p.get("description") or "") for p in pages[1:])
    finally:
        await fd.close()
