"""The rates players compare (``docs/rates.md``, ``service/rates.py``, ``store/rates.py``).

A seeded history of every game is played through the table service with two human seats and
the games' own AI in the others, on SQLite and PostgreSQL (marker ``postgres``); each rate is
then counted again here straight from the stored hands (their results, settlements and
action logs: the claims by replaying the log move by move and watching the melds' sources in
the public view), and must equal what the rate book says.  Hand-made hands and units check
the game's own counts, the special hands, the placement rates and the empty cases.
"""

from __future__ import annotations

import dataclasses

import uuid
from datetime import datetime, timedelta, timezone

import asyncpg
import pytest
import pytest_asyncio

from engine.actions import Action
from engine.variants import find_variant
from games import game_ids
from postgres import pg_dsn, require_postgres
from service.clock import ManualClock
from service.rates import (Mean, Placements, Rate, RateBook, claims_for, claims_of, placement_rates, player_rates,
                           rebuild_tallies)
from service.tables import TableService
from store import HandRecord, SettlementRecord, Store

UTC = timezone.utc
#: a Wednesday: the first hands fall in the week before ``WEEK``'s
T0 = datetime(2025, 3, 5, 12, 0, tzinfo=UTC)
#: the Monday the later hands' week starts
WEEK = datetime(2025, 3, 10, tzinfo=UTC)
GUILD = 1_100_000_000_000_000_001
ALICE, BOB = 301_000_000_000_000_101, 301_000_000_000_000_102
CHANNEL = 7
#: hands played before the new week, and in it
EARLY, LATE = 2, 4


class Clock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest_asyncio.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
                        loop_scope="function")
async def store_clock(request, tmp_path):
    """``(store, clock)`` on a SQLite file or a fresh PostgreSQL schema (dropped at the end)."""
    clock = Clock(T0)
    if request.param == "sqlite":
        store = Store(f"sqlite:///{tmp_path}/bot.db", clock=clock, sqlite_synchronous="NORMAL")
        await store.init()
        yield store, clock
        await store.close()
        return
    schema = f"test_rates_{uuid.uuid4().hex[:12]}"
    store = Store(require_postgres(), clock=clock, schema=schema)
    try:
        await store.init()
        yield store, clock
    finally:
        await store.close()
        conn = await asyncpg.connect(pg_dsn(), timeout=5)
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()


# ------------------------------------------------------------------ the seeded history
async def play_history(store: Store, clock: Clock, game: str) -> None:
    """Hands of ``game`` at one table: Alice and Bob (humans) and the game's AI in the other
    seats (four seats where the game allows), the humans playing the AI's moves; ``EARLY``
    hands, then a new week, then ``LATE`` hands."""
    info = find_variant(game)
    n = min(4, info.max_players)
    svc = TableService(store, ManualClock(), seed_source=lambda: 11)
    await svc.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="Alice", variant=game)
    await svc.join(CHANNEL, BOB, "Bob")
    for _ in range(n - 2):
        await svc.add_ai(CHANNEL, ALICE, "normal")
    await svc.start(CHANNEL, ALICE)
    for k in range(EARLY + LATE):
        if k == EARLY:
            clock.now = WEEK + timedelta(hours=1)
        t = svc.table_in(CHANNEL)
        guard = 0
        while not t.hand.is_over():
            seat = next(s for s in t.hand.pending_seats() if not t.seats[s].is_ai)
            a = t.hand.ai_action(seat)
            await svc.act(CHANNEL, t.seats[seat].user_id, a.type, a.kind)
            guard += 1
            assert guard < 2000
        clock.now += timedelta(minutes=5)
        if k + 1 < EARLY + LATE:
            await svc.next_hand(CHANNEL, ALICE)


def replayed_claims(record: HandRecord) -> set[int]:
    """The seats that ever showed a meld taken from another seat, by replaying the log move by
    move and comparing the public view's melds (their ``from_seat``) before and after."""
    info = find_variant(record.variant)
    hand = info.new_hand(record.options, record.seed, record.dealer, len(record.seats), dict(record.context))

    def sources():
        return [[m["from_seat"] for m in s["melds"]] for s in hand.view(None, reveal=True)["seats"]]

    seen, before = set(), sources()
    for line in record.actions:
        hand.apply(Action.parse(line))
        after = sources()
        for seat, melds in enumerate(after):
            for i, src in enumerate(melds):
                old = before[seat][i] if i < len(before[seat]) else None
                if src is not None and src != seat and src != old:
                    seen.add(seat)
        before = after
    assert hand.is_over() and hand.result["points"] == record.result["points"]
    return seen


def expected(hands: list[HandRecord], user: int) -> dict:
    """The rates of ``user`` counted here from the stored hands."""
    mine = [(h, s) for h in hands for s in h.settlements if s.user_id == user and not s.is_ai]
    won = [(h, s) for h, s in mine if s.is_winner]
    dealt = [(h, s) for h, s in mine if s.dealt_in]
    counts = []
    for h, s in won:
        by_seat = (h.result.get("count_by_seat") or {}).get(str(s.seat))
        c = by_seat or (h.result.get("count") if h.result.get("winner") == s.seat else None)
        if c is not None:
            counts.append(c["value"])
    specials: dict[str, int] = {}
    for h, s in won:
        for kind in h.result.get("specials") or []:
            specials[kind] = specials.get(kind, 0) + 1
    return {
        "hands": len(mine),
        "wins": (len(won), len(mine)),
        "deal_ins": (len(dealt), len(mine)),
        "self_drawn": (sum(s.self_drawn for _, s in won), len(won)),
        "calls": (sum(s.seat in replayed_claims(h) for h, s in mine), len(mine)),
        "draws": (sum(bool(h.result.get("draw")) for h, _ in mine), len(mine)),
        "win_value": (sum(s.points for _, s in won), len(won)),
        "deal_in_value": (-sum(s.points for _, s in dealt), len(dealt)),
        "count_per_win": (sum(counts), len(counts)),
        "specials": tuple(sorted(specials.items())),
    }


def seen(r) -> dict:
    """The same keys read from a ``PlayerRates``."""
    pair = lambda x: (x.count, x.of) if isinstance(x, Rate) else (x.total, x.of)  # noqa: E731
    return {"hands": r.hands, **{k: pair(getattr(r, k)) for k in (
        "wins", "deal_ins", "self_drawn", "calls", "draws", "win_value", "deal_in_value", "count_per_win")},
            "specials": r.specials}


@pytest.mark.parametrize("game", game_ids())
@pytest.mark.asyncio(loop_scope="function")
async def test_each_rate_is_its_definition_counted_from_the_stored_hands(store_clock, game):
    store, clock = store_clock
    await play_history(store, clock, game)
    done = [h for h in await store.finished_hands(GUILD, limit=100) if h.status == "done"]
    hands = [await store.get_hand(h.id) for h in sorted(done, key=lambda h: h.id)]
    assert len(hands) == EARLY + LATE
    book = RateBook(store)
    week_start = WEEK
    for user in (ALICE, BOB):
        every = await book.player_rates(GUILD, user, game, "all")
        assert every.variant == game and every.since is None
        assert seen(every) == expected(hands, user)
        assert every.hands == EARLY + LATE
        week = await book.player_rates(GUILD, user, game, "week", now=week_start + timedelta(days=2))
        assert week.since == week_start
        assert seen(week) == expected([h for h in hands if h.ended_at >= week_start], user)
        assert week.hands == LATE
        # the rates are their counts' quotients, None for an empty denominator
        for rate in (every.wins, every.deal_ins, every.self_drawn, every.calls, every.draws):
            assert rate.value == (rate.count / rate.of if rate.of else None)
    total = {u: await book.player_rates(GUILD, u, game) for u in (ALICE, BOB)}
    # somebody claimed something and somebody won, over both humans: the history is not empty of them
    assert sum(r.wins.count + r.draws.count for r in total.values()) > 0
    # another game, another server, an AI: nothing
    other = next(g for g in game_ids() if g != game)
    assert (await book.player_rates(GUILD, ALICE, other)).hands == 0
    assert (await book.player_rates(GUILD + 1, ALICE, game)).hands == 0
    # the service stores each hand's claims with its result (read, not replayed), and they are
    # the ones its log gives; a hand without them (settled before they were stored) is replayed
    assert all(h.result["claimed_by"] == sorted(claims_of(h)) for h in hands)
    old = [dataclasses.replace(h, result={k: v for k, v in h.result.items() if k != "claimed_by"}) for h in hands]
    assert await claims_for(store, old) == {h.id: claims_of(h) for h in hands}
    # the tallies the settlements added are the ones a rebuild from the stored hands gives
    live = {(u, p): await store.tally(GUILD, u, game, since) for u in (ALICE, BOB) for p, since in
            (("all", None), ("week", WEEK))}
    assert await rebuild_tallies(store) == 0  # tallies are kept: nothing to rebuild
    await store.replace_all_tallies([])
    assert await rebuild_tallies(store) == 2 * 2  # two players, two days
    assert {(u, p): await store.tally(GUILD, u, game, since) for u in (ALICE, BOB) for p, since in
            (("all", None), ("week", WEEK))} == live


@pytest.mark.asyncio(loop_scope="function")
async def test_the_store_gives_the_players_human_done_hands_of_the_game_server_and_period(store_clock):
    store, clock = store_clock
    game = game_ids()[0]
    table = await store.create_table(guild_id=GUILD, channel_id=1, creator_id=ALICE, variant=game, options={},
                                     seed=5)
    other = await store.create_table(guild_id=GUILD + 1, channel_id=2, creator_id=ALICE, variant=game,
                                     options={}, seed=5)
    seats = [{"seat": 0, "user_id": ALICE, "name": "Alice"}, {"seat": 1, "user_id": None, "name": "AI"}]

    async def hand(table_id: int, no: int, rows: list[SettlementRecord], finish: bool = True) -> int:
        hid = await store.start_hand(table_id=table_id, hand_no=no, seed=no, variant=game, options={}, dealer=0,
                                     seats=seats)
        await store.append_actions(hid, 0, ["a", "b"])
        if finish:
            await store.finish_hand(hid, result={"points": [r.points for r in rows], "draw": False},
                                    settlements=rows)
        return hid

    win = [SettlementRecord(0, ALICE, "Alice", 8, is_winner=True), SettlementRecord(1, None, "AI", -8, is_ai=True)]
    h1 = await hand(table, 1, win)
    clock.now = WEEK
    h2 = await hand(table, 2, [SettlementRecord(0, ALICE, "Alice", -3, dealt_in=True),
                               SettlementRecord(1, None, "AI", 3, is_ai=True, is_winner=True)])
    await hand(other, 1, win)  # another server
    # a hand in which Alice's seat was played for her by the AI (is_ai): not hers
    await hand(table, 4, [SettlementRecord(0, ALICE, "Alice", 1, is_ai=True), SettlementRecord(1, None, "AI", -1,
                                                                                               is_ai=True)])
    await hand(table, 5, win, finish=False)  # still playing
    got = await store.rate_hands(GUILD, ALICE, game)
    assert [h.id for h in got] == [h1, h2]
    assert [[(s.seat, s.points) for s in h.settlements] for h in got] == [[(0, 8)], [(0, -3)]]
    assert got[0].result == {"points": [8, -8], "draw": False} and got[0].seed == 1 and got[0].actions == ()
    assert [h.id for h in await store.rate_hands(GUILD, ALICE, game, since=T0 + timedelta(days=1))] == [h2]
    assert await store.rate_hands(GUILD, ALICE, "no_such_game") == []
    assert await store.hand_actions([h2, h1, 999]) == {h1: ("a", "b"), h2: ("a", "b"), 999: ()}
    r = player_rates(got, ALICE, claims={h1: frozenset(), h2: frozenset({0})})
    assert (r.hands, r.wins, r.deal_ins, r.calls) == (2, Rate(1, 2), Rate(1, 2), Rate(1, 2))
    assert (r.win_value, r.deal_in_value) == (Mean(8, 1), Mean(3, 1))


# ------------------------------------------------------------------ hand-made hands
def made(hand_id: int, result: dict, *rows: SettlementRecord) -> HandRecord:
    return HandRecord(id=hand_id, table_id=1, hand_no=hand_id, seed=hand_id, variant="g", options={}, dealer=0,
                      seats=(), status="done", result=result, started_at=T0, ended_at=T0, settlements=rows)


def test_a_games_own_count_per_win_and_its_special_hands():
    """字牌's 胡息 (the result's ``count``), 老五对's 对 of each of several winners
    (``count_by_seat``), 财神麻将's special hands per kind (``specials``, the winner's)."""
    huxi = [made(1, {"winner": 0, "winners": [0], "count": {"name": "huxi", "value": 15, "items": []}},
                 SettlementRecord(0, ALICE, "A", 6, is_winner=True, self_drawn=True)),
            made(2, {"winner": 1, "winners": [1], "count": {"name": "huxi", "value": 21, "items": []}},
                 SettlementRecord(0, ALICE, "A", 9, is_winner=True)),  # (a seat not the result's winner: no count)
            made(3, {"winner": 2, "winners": [2], "count": {"name": "huxi", "value": 30, "items": []}},
                 SettlementRecord(2, ALICE, "A", 12, is_winner=True))]
    r = player_rates(huxi, ALICE, claims=None)
    assert (r.count_name, r.count_per_win, r.count_per_win.value) == ("huxi", Mean(45, 2), 22.5)
    assert (r.wins, r.self_drawn, r.calls, r.specials) == (Rate(3, 3), Rate(1, 3), None, ())
    dui = made(4, {"winner": 1, "winners": [1, 3], "count": {"name": "dui", "value": 11, "items": []},
                   "count_by_seat": {"1": {"name": "dui", "value": 11}, "3": {"name": "dui", "value": 7}}},
               SettlementRecord(3, ALICE, "A", 20, is_winner=True))
    r = player_rates([dui], ALICE, claims={4: frozenset({3})})
    assert (r.count_name, r.count_per_win, r.calls) == ("dui", Mean(7, 1), Rate(1, 1))
    specials = [made(5, {"winner": 0, "specials": ["qingyise", "duidiao"]}, SettlementRecord(0, ALICE, "A", 40,
                                                                                             is_winner=True)),
                made(6, {"winner": 0, "specials": ["qingyise"]}, SettlementRecord(0, ALICE, "A", 20, is_winner=True)),
                made(7, {"winner": 1, "specials": ["shisanyao"]}, SettlementRecord(0, ALICE, "A", -20, dealt_in=True)),
                made(8, {"winner": 0, "specials": []}, SettlementRecord(0, ALICE, "A", 2, is_winner=True))]
    r = player_rates(specials, ALICE, claims=None)
    assert r.specials == (("duidiao", 1), ("qingyise", 2))
    assert (r.count_name, r.count_per_win) == (None, Mean(0, 0))
    assert (r.win_value.value, r.deal_in_value.value, r.deal_ins) == (62 / 3, 20.0, Rate(1, 4))


def test_draws_ai_seats_and_other_players_are_counted_as_defined():
    hands = [made(1, {"draw": True, "winners": []}, SettlementRecord(0, ALICE, "A", 0),
                  SettlementRecord(1, BOB, "B", 0)),
             made(2, {"winner": 1}, SettlementRecord(0, ALICE, "A", -5, is_ai=True),  # 托管 by the bot: not hers
                  SettlementRecord(1, BOB, "B", 5, is_winner=True))]
    r = player_rates(hands, ALICE, claims={1: frozenset(), 2: frozenset()})
    assert (r.hands, r.draws, r.wins, r.self_drawn, r.win_value) == (1, Rate(1, 1), Rate(0, 1), Rate(0, 0),
                                                                     Mean(0, 0))
    assert (r.self_drawn.value, r.win_value.value, r.deal_in_value.value) == (None, None, None)
    with pytest.raises(KeyError):
        player_rates(hands, BOB, claims={1: frozenset()})
    empty = player_rates([], ALICE, claims={})
    assert (empty.hands, empty.wins.value, empty.calls, empty.placements) == (0, None, Rate(0, 0), Placements())


def test_the_placement_rates_of_rated_units():
    p = placement_rates([(1, 4), (3, 4), (1, 4), (2, 4), (4, 4), (2, 2)])
    assert p.units == 6
    assert (p.average, p.average.value) == (Mean(13, 6), 13 / 6)
    assert (p.first, p.first.value) == (Rate(2, 6), 1 / 3)
    assert p.distribution == (Rate(2, 6), Rate(2, 6), Rate(1, 6), Rate(1, 6))
    assert sum(r.count for r in p.distribution) == p.units
    assert placement_rates([]) == Placements(0, Mean(0, 0), Rate(0, 0), ())
    assert placement_rates([]).average.value is None
    assert placement_rates(iter([(2, 3)])).distribution == (Rate(0, 1), Rate(1, 1), Rate(0, 1))
    for bad in ((0, 4), (5, 4)):
        with pytest.raises(ValueError):
            placement_rates([bad])
    r = player_rates([], ALICE, claims=None, placements=[(1, 2), (2, 2)])
    assert (r.placements.first.value, r.placements.average.value) == (0.5, 1.5)


@pytest.mark.parametrize("lang", ["en", "zh-CN", "zh-TW"])
def test_the_words_of_a_players_rates(lang):
    from render.text.records import rates

    dui = made(1, {"winner": 0, "count": {"name": "dui", "value": 11}}, SettlementRecord(0, ALICE, "A", 48,
                                                                                       is_winner=True))
    r = player_rates([dui], ALICE, claims={1: frozenset({0})}, placements=[(1, 4), (3, 4)])
    title, body = rates(r, "Alice", find_variant("laowudui").facts, "week", lang)
    assert "Alice" in title and "%{" not in title + body and "rates." not in body
    assert "100.0%" in body and "(1/1)" in body.replace("（", "(").replace("）", ")") and "11.0" in body
    assert "2.00" in body and body.count("%") >= 5 + 1 + 4
    empty = rates(player_rates([], ALICE, claims={}), "Alice", find_variant("two_player").facts, "all", lang)[1]
    assert "—" in empty and "2.00" not in empty
