"""二人麻将's 连庄 count belongs to the player (two_player.md §Settlement): stored per player and
server, read when a hand is dealt (the hand keeps it in its context), written when the hand is
settled (kept the deal → count + 1, lost it → 0); AI seats keep none.  When the seated players
change between hands the next dealer is drawn again from the seed (§Set-up).

The hands that must end a given way are dealt from stacked walls (``conftest.stacked_hand``'s
layout), added to the context of the next deals through :func:`stack_next_deals`; hands that
only need to end are played by 托管 (auto-play), which on these seeds ends in exhaustive draws.
"""

from __future__ import annotations

import asyncio

import pytest
from conftest import kinds
from sqlalchemy import text

from engine.match import Match
from engine.variants import all_variants, find_variant
from service.clock import ManualClock
from store import HandNotPlaying, SeatRecord, SettlementRecord, Store
from service.tables import TableService
from tests.store.test_store import ALICE, BOB, GUILD, GUILD2, backend, new_hand, new_table  # noqa: F401 (backend: fixture)

TP = find_variant("two_player")
OPTS = TP.resolve_options(None)
A, B, C = 101, 102, 103
CH1, CH2 = 5, 6


# The worked example of two_player.md: the dealer is dealt four flowers (replaced by 5z 5z 5z 1z),
# doubles once, wins 16 fan with one 宝牌 (1m): 16 × 2 × 2 × (count + 1) (see
# test_two_player_rules.test_dealer_kept_twice_192_through_a_real_hand).
DEALER_WINS_16 = "1f2f3f4f1235676799m"
IDLE = "2224m2233466z77z"  # not ready, claims nothing in these hands
# The dealer discards 2m and the other player wins on it: 人胡 68 fan × (count + 1).
DEALER_FEEDS = "2m1122334455667z"
READY_1 = "1234567892233m"


def K(spec: str) -> int:
    return kinds(spec)[0]


def dealer_wins(dealer: int) -> dict:
    hands = [IDLE, IDLE]
    hands[dealer] = DEALER_WINS_16
    return {"stacked": {"hands": [kinds(h) for h in hands], "draws": kinds("1z8m1z8m"),
                        "back": kinds("5z5z5z1z")}, "treasure": K("1m")}


def dealer_loses(dealer: int) -> dict:
    hands = [READY_1, READY_1]
    hands[dealer] = DEALER_FEEDS
    return {"stacked": {"hands": [kinds(h) for h in hands], "draws": [], "back": []},
            "treasure": K("7z")}


def stack_next_deals(monkeypatch, *deals: dict) -> list[dict]:
    """The next hands dealt (by any table) get these stacked walls, one each, in order."""
    queue = list(deals)
    original = Match.hand_context

    def hand_context(self, extra=None):
        ctx = original(self, extra)
        if queue:
            ctx.update(queue.pop(0))
        return ctx

    monkeypatch.setattr(Match, "hand_context", hand_context)
    return queue


async def play_dealer_wins(svc: TableService, ch: int, dealer_user: int, other_user: int) -> dict:
    for user, action, tile in ((dealer_user, "discard", "1z"), (other_user, "discard", "1z"),
                               (dealer_user, "double", None), (dealer_user, "discard", "8m"),
                               (other_user, "discard", "1z"), (dealer_user, "hu", None)):
        await svc.act(ch, user, action, None if tile is None else K(tile))
    return svc.tables[ch].last_result


async def play_dealer_loses(svc: TableService, ch: int, dealer_user: int, other_user: int) -> dict:
    await svc.act(ch, dealer_user, "discard", K("2m"))
    await svc.act(ch, other_user, "hu")
    return svc.tables[ch].last_result


def seed_dealing(seat: int, start: int = 0) -> int:
    """A table seed whose first hand is dealt by ``seat`` (of two)."""
    s = start
    while Match(TP, OPTS, s, 2).state["dealer"] != seat:
        s += 1
    return s


async def open_store(tmp_path) -> Store:
    store = Store(f"sqlite:///{tmp_path}/streak.db")
    await store.init()
    return store


def service(store: Store, *seeds: int) -> TableService:
    it = iter(seeds)
    return TableService(store, ManualClock(), seed_source=lambda: next(it))


async def two_player_table(svc: TableService, ch: int, first: int, second: int, guild: int = GUILD):
    """A started table with ``first`` in seat 0 and ``second`` in seat 1."""
    await svc.create_table(guild_id=guild, channel_id=ch, user_id=first, name=f"u{first}", variant="two_player")
    await svc.join(ch, second, f"u{second}")
    await svc.start(ch, first)
    return svc.tables[ch]


async def stored_rows(store: Store) -> int:
    async with store.engine.connect() as conn:
        return await conn.scalar(text("SELECT COUNT(*) FROM player_streak"))


# --------------------------------------------------------------------------- the rule


def test_only_two_player_keeps_the_count_per_player():
    assert TP.streak_per_player is True
    assert [v.id for v in all_variants() if v.streak_per_player] == ["two_player"]


@pytest.mark.asyncio
async def test_a_dealer_who_kept_the_deal_twice_wins_192(tmp_path, monkeypatch):
    """B (count 2) and A sit down together; B is drawn as dealer → ×3 (the seed's example), and
    the worked example 16 × 2 × 2 × 3 = 192; B's count becomes 3."""
    store = await open_store(tmp_path)
    await store.set_streak(GUILD, "two_player", A, 3)
    await store.set_streak(GUILD, "two_player", B, 2)
    stack_next_deals(monkeypatch, dealer_wins(1))
    svc = service(store, seed_dealing(1))
    t = await two_player_table(svc, CH1, A, B)
    assert t.hand.dealer == 1 and t.seats[1].user_id == B
    assert t.hand.context["dealer_streak"] == 2
    assert (await store.get_hand(t.hand_id)).context["dealer_streak"] == 2
    r = await play_dealer_wins(svc, CH1, B, A)
    assert (r["fan_total"], r["doubles"], r["treasure_multiplier"], r["streak_multiplier"]) == (16, 2, 2, 3)
    assert ["连庄", "Dealer streak", 3] in r["multiplier_rows"]
    assert r["points"] == [-192, 192]
    assert await store.get_streak(GUILD, "two_player", B) == 3
    assert await store.get_streak(GUILD, "two_player", A) == 3  # not the dealer: untouched
    await store.close()


@pytest.mark.asyncio
async def test_kept_adds_one_lost_resets_and_the_next_dealer_brings_their_own(tmp_path, monkeypatch):
    store = await open_store(tmp_path)
    await store.set_streak(GUILD, "two_player", B, 2)
    stack_next_deals(monkeypatch, dealer_wins(1), dealer_loses(1))
    svc = service(store, seed_dealing(1))
    t = await two_player_table(svc, CH1, A, B)
    await play_dealer_wins(svc, CH1, B, A)  # kept: 2 → 3
    assert await store.get_streak(GUILD, "two_player", B) == 3
    await svc.next_hand(CH1, A)
    assert t.hand.dealer == 1 and t.hand.context["dealer_streak"] == 3
    r = await play_dealer_loses(svc, CH1, B, A)  # lost: 3 → 0
    assert r["winner"] == 0 and r["streak_multiplier"] == 4 and r["points"] == [272, -272]
    assert await store.get_streak(GUILD, "two_player", B) == 0
    # A deals now, with whatever is stored for A when the hand is dealt
    await store.set_streak(GUILD, "two_player", A, 4)
    await svc.next_hand(CH1, A)
    assert t.hand.dealer == 0 and t.hand.context["dealer_streak"] == 4
    await store.close()


@pytest.mark.asyncio
async def test_an_exhaustive_draw_keeps_the_deal_and_counts(tmp_path):
    store = await open_store(tmp_path)
    svc = service(store, seed_dealing(1))
    t = await two_player_table(svc, CH1, A, B)
    await svc.set_auto(CH1, A, True)
    await svc.set_auto(CH1, B, True)  # 托管 plays the hand to its end
    assert t.hand.is_over() and t.last_result["winner"] is None
    assert await store.get_streak(GUILD, "two_player", B) == 1
    assert await stored_rows(store) == 1  # nothing for A, the non-dealer
    await svc.next_hand(CH1, A)
    assert t.hand.dealer == 1 and t.hand.context["dealer_streak"] == 1
    await store.close()


@pytest.mark.asyncio
async def test_an_ai_dealer_plays_at_x1_and_nothing_is_stored(tmp_path):
    store = await open_store(tmp_path)
    svc = service(store, seed_dealing(1))
    await svc.create_table(guild_id=GUILD, channel_id=CH1, user_id=A, name="a", variant="two_player")
    await svc.add_ai(CH1, A, "normal")
    await svc.start(CH1, A)
    t = svc.tables[CH1]
    await svc.set_auto(CH1, A, True)  # A on 托管: every hand plays to its end at once
    dealers = []
    for _ in range(8):
        assert t.hand.is_over()
        dealers.append(t.hand.dealer)
        if t.hand.dealer == 1:
            assert t.hand.context["dealer_streak"] == 0
            if t.last_result.get("winner") is not None:
                assert t.last_result["streak_multiplier"] == 1
        await svc.next_hand(CH1, A)
    # the AI dealt again after keeping the deal, and still played at ×1
    assert any(a == b == 1 for a, b in zip(dealers, dealers[1:]))
    assert await store.get_streak(GUILD, "two_player", A) == 0
    async with store.engine.connect() as conn:
        users = (await conn.scalars(text("SELECT user_id FROM player_streak"))).all()
    assert None not in users and set(users) <= {A}
    await store.close()


@pytest.mark.asyncio
async def test_the_count_follows_the_player_to_another_table_of_the_server(tmp_path):
    store = await open_store(tmp_path)
    svc = service(store, seed_dealing(1), seed_dealing(1, 100), seed_dealing(1, 200))
    await two_player_table(svc, CH1, A, B)
    await svc.set_auto(CH1, A, True)
    await svc.set_auto(CH1, B, True)  # a drawn hand: B, the dealer, keeps the deal (count 1)
    await svc.end(CH1, A)  # the table closes
    # B sits down with C at another channel's table and is dealer there
    t2 = await two_player_table(svc, CH2, C, B)
    assert t2.hand.dealer == 1 and t2.hand.context["dealer_streak"] == 1
    # another server keeps its own count
    t3 = await two_player_table(svc, 7, A, B, guild=GUILD2)
    assert t3.hand.dealer == 1 and t3.hand.context["dealer_streak"] == 0
    await store.close()


@pytest.mark.asyncio
async def test_a_restart_rebuilds_the_hand_with_the_count_it_was_dealt_with(tmp_path, monkeypatch):
    store = await open_store(tmp_path)
    await store.set_streak(GUILD, "two_player", B, 2)
    stack_next_deals(monkeypatch, dealer_wins(1))
    svc = service(store, seed_dealing(1))
    await two_player_table(svc, CH1, A, B)
    await svc.act(CH1, B, "discard", K("1z"))
    # meanwhile B's stored count changes (another table of the server settled)
    await store.set_streak(GUILD, "two_player", B, 7)
    again = service(store)
    [snap] = await again.load()
    t = again.table_in(snap.channel_id)
    assert t.hand.context["dealer_streak"] == 2 and t.actions == ["1 discard 1z"]
    for user, action, tile in ((A, "discard", "1z"), (B, "double", None), (B, "discard", "8m"),
                               (A, "discard", "1z"), (B, "hu", None)):
        await again.act(CH1, user, action, None if tile is None else K(tile))
    assert t.last_result["points"] == [-192, 192]
    assert await store.get_streak(GUILD, "two_player", B) == 3
    await store.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("first", [1, 2])
async def test_two_tables_settling_the_later_count_is_stored(tmp_path, monkeypatch, first):
    """B deals at two tables at once with count 2: B wins at table 1 (→ 3) and loses at table 2
    (→ 0); whichever settlement is written last is the stored count."""
    store = await open_store(tmp_path)
    await store.set_streak(GUILD, "two_player", B, 2)
    stack_next_deals(monkeypatch, dealer_wins(1), dealer_loses(1))
    svc = service(store, seed_dealing(1), seed_dealing(1, 100))
    t1 = await two_player_table(svc, CH1, A, B)
    t2 = await two_player_table(svc, CH2, C, B)
    finish = store.finish_hand
    order: list[int] = []

    async def recording(hand_id, **kw):
        order.append(hand_id)
        return await finish(hand_id, **kw)

    monkeypatch.setattr(store, "finish_hand", recording)
    # every action but the winning one
    for user, action, tile in ((B, "discard", "1z"), (A, "discard", "1z"), (B, "double", None),
                               (B, "discard", "8m"), (A, "discard", "1z")):
        await svc.act(CH1, user, action, None if tile is None else K(tile))
    await svc.act(CH2, B, "discard", K("2m"))
    wins = {1: svc.act(CH1, B, "hu"), 2: svc.act(CH2, C, "hu")}
    expected = {t1.hand_id: 3, t2.hand_id: 0}
    await asyncio.gather(wins[first], wins[3 - first])
    assert t1.last_result["winner"] == 1 and t2.last_result["winner"] == 0
    assert len(order) == 2
    assert await store.get_streak(GUILD, "two_player", B) == expected[order[-1]]
    await store.close()


# --------------------------------------------------------------------------- players change


async def play_first_hand_by_auto(svc: TableService, ch: int) -> None:
    await svc.set_auto(ch, A, True)
    await svc.set_auto(ch, B, True)
    t = svc.tables[ch]
    assert t.hand.is_over() and t.last_result["winner"] is None  # a draw: the dealer keeps it


def seed_with_a_redraw_that_moves_the_deal() -> tuple[int, int, int]:
    """A seed whose first dealer differs from the dealer drawn again for hand 2: ``(seed, first
    dealer, redrawn dealer)``."""
    for s in range(100):
        first = Match(TP, OPTS, s, 2).state["dealer"]
        m = Match(TP, OPTS, s, 2, state={"hand_no": 1, "dealer": first, "dealer_streak": 1, "scores": [0, 0]})
        redrawn = m.redraw_dealer()
        if redrawn != first:
            return s, first, redrawn
    raise AssertionError("no seed")


@pytest.mark.asyncio
async def test_a_new_player_in_a_seat_redraws_the_dealer(tmp_path):
    seed, first, redrawn = seed_with_a_redraw_that_moves_the_deal()
    store = await open_store(tmp_path)
    svc = service(store, seed)
    t = await two_player_table(svc, CH1, A, B)
    assert t.hand.dealer == first
    await play_first_hand_by_auto(svc, CH1)
    assert t.match.state["dealer"] == first  # the drawn hand would keep the deal
    await store.set_streak(GUILD, "two_player", C, 6)
    # what a seat change leaves in the store: C sits where B sat
    await store.set_seats(t.id, [SeatRecord(0, A, "a"), SeatRecord(1, C, "c")])
    again = service(store)
    [snap] = await again.load()
    t2 = again.table_in(snap.channel_id)
    await again.next_hand(CH1, A)
    assert t2.hand.dealer == redrawn != first
    assert (await store.get_hand(t2.hand_id)).dealer == redrawn
    new_dealer = [A, C][redrawn]
    assert t2.hand.context["dealer_streak"] == await store.get_streak(GUILD, "two_player", new_dealer)
    await store.close()


@pytest.mark.asyncio
async def test_the_same_players_keep_the_dealer_even_on_auto_play(tmp_path):
    seed, first, redrawn = seed_with_a_redraw_that_moves_the_deal()
    store = await open_store(tmp_path)
    svc = service(store, seed)
    t = await two_player_table(svc, CH1, A, B)
    await play_first_hand_by_auto(svc, CH1)
    # the same users, B still on 托管, A back
    await store.set_seats(t.id, [SeatRecord(0, A, "a"), SeatRecord(1, B, "b", auto=True)])
    again = service(store)
    [snap] = await again.load()
    t2 = again.table_in(snap.channel_id)
    await again.next_hand(CH1, A)
    assert t2.hand.dealer == first != redrawn
    assert t2.hand.context["dealer_streak"] == 1  # the dealer kept the drawn hand
    await store.close()


@pytest.mark.asyncio
async def test_other_games_keep_the_table_count(tmp_path):
    store = await open_store(tmp_path)
    svc = service(store, 5)
    await svc.create_table(guild_id=GUILD, channel_id=CH1, user_id=A, name="a", variant="laosanfan")
    for _ in range(3):
        await svc.add_ai(CH1, A, "normal")
    await svc.start(CH1, A)
    t = svc.tables[CH1]
    await svc.set_auto(CH1, A, True)
    for _ in range(3):
        assert t.hand.is_over()
        dealer, streak = t.match.state["dealer"], t.match.state["dealer_streak"]
        await svc.next_hand(CH1, A)
        assert (t.hand.dealer, t.hand.context["dealer_streak"]) == (dealer, streak)
    assert await stored_rows(store) == 0
    await store.close()


# --------------------------------------------------------------------------- the store


@pytest.mark.asyncio
async def test_store_counts_per_player_server_and_game(backend):
    store = await backend.open()
    assert await store.get_streak(GUILD, "two_player", ALICE) == 0
    await store.set_streak(GUILD, "two_player", ALICE, 2)
    await store.set_streak(GUILD, "two_player", ALICE, 3)  # plain overwrite
    assert await store.get_streak(GUILD, "two_player", ALICE) == 3
    assert await store.get_streak(GUILD2, "two_player", ALICE) == 0
    assert await store.get_streak(GUILD, "laosanfan", ALICE) == 0
    assert await store.get_streak(GUILD, "two_player", BOB) == 0


@pytest.mark.asyncio
async def test_finish_hand_writes_the_count_with_the_settlement(backend):
    store = await backend.open()
    table_id = await new_table(store)
    hand_id = await new_hand(store, table_id)
    sets = [SettlementRecord(seat=0, user_id=ALICE, name="Alice", points=8, is_winner=True),
            SettlementRecord(seat=1, user_id=BOB, name="Bob", points=-8)]
    await store.finish_hand(hand_id, result={"winner": 0}, settlements=sets, streaks={ALICE: 4})
    assert await store.get_streak(GUILD, "two_player", ALICE) == 4
    # a second settlement of the same hand writes nothing, not even the count
    with pytest.raises(HandNotPlaying):
        await store.finish_hand(hand_id, result={"winner": 0}, settlements=sets, streaks={ALICE: 9})
    assert await store.get_streak(GUILD, "two_player", ALICE) == 4
