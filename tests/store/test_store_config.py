"""Guild configuration, player history and statistics of the store package (SQLite and PostgreSQL).

Uses the ``backend``/``store`` fixtures of ``tests/store/test_store.py``: every test runs on a SQLite
file and on a fresh PostgreSQL schema.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from store import (
    GuildConfig,
    HistoryLine,
    PlayerStats,
    ScoreLine,
    SettlementRecord,
    Store,
)
from test_store import (  # noqa: F401  (backend and store are fixtures)
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    GUILD2,
    T0,
    Clock,
    backend,
    new_hand,
    new_table,
    play,
    store,
)

UTC = timezone.utc


# --------------------------------------------------------------------------- guild configuration


@pytest.mark.asyncio
async def test_guild_config_is_empty_until_set(store):
    assert await store.get_guild_config(GUILD) == GuildConfig(GUILD, {}, {}, (), None)
    # Deleting from a guild that never stored anything writes nothing.
    assert await store.delete_preset(GUILD, "quick") is False
    assert (await store.get_guild_config(GUILD)).updated_at is None


@pytest.mark.asyncio
async def test_guild_defaults_replace_one_variant_and_clear(store, backend):
    cfg = await store.set_guild_default(GUILD, "two_player", {"min_fan": 8, "base_points": 2})
    assert cfg == GuildConfig(
        GUILD, {"two_player": {"min_fan": 8, "base_points": 2}}, {}, (), T0
    )
    backend.clock.advance(minutes=1)
    await store.set_guild_default(GUILD, "other_variant", {"wilds": True})
    # Replacing a variant's defaults drops the options not given again (base_points).
    cfg = await store.set_guild_default(GUILD, "two_player", {"min_fan": 12})
    assert cfg.defaults == {"two_player": {"min_fan": 12}, "other_variant": {"wilds": True}}
    assert cfg.updated_at == T0 + timedelta(minutes=1)
    cfg = await store.set_guild_default(GUILD, "other_variant", {})
    assert cfg.defaults == {"two_player": {"min_fan": 12}}
    assert await store.get_guild_config(GUILD) == cfg
    # Other guilds are untouched.
    assert await store.get_guild_config(GUILD2) == GuildConfig(GUILD2)
    with pytest.raises(TypeError):
        await store.set_guild_default(GUILD, "two_player", {1: 2})
    with pytest.raises(TypeError):
        await store.set_guild_default(GUILD, "", {})


@pytest.mark.asyncio
async def test_presets_set_replace_delete(store):
    await store.set_preset(GUILD, "quick", "two_player", {"min_fan": 8})
    cfg = await store.set_preset(GUILD, "big", "two_player", {"min_fan": 24, "base_points": 5})
    assert cfg.presets == {
        "quick": {"variant": "two_player", "options": {"min_fan": 8}},
        "big": {"variant": "two_player", "options": {"min_fan": 24, "base_points": 5}},
    }
    cfg = await store.set_preset(GUILD, "quick", "other_variant", {})
    assert cfg.presets["quick"] == {"variant": "other_variant", "options": {}}
    assert await store.delete_preset(GUILD, "big") is True
    assert await store.delete_preset(GUILD, "big") is False
    assert (await store.get_guild_config(GUILD)).presets == {
        "quick": {"variant": "other_variant", "options": {}}
    }
    with pytest.raises(TypeError):
        await store.set_preset(GUILD, "x", "two_player", [("min_fan", 8)])


@pytest.mark.asyncio
async def test_channels_are_unique_sorted_and_empty_means_all(store):
    big = 1_200_000_000_000_000_009  # a 64-bit snowflake
    cfg = await store.set_channels(GUILD, [30, big, 10, 30])
    assert cfg.channels == (10, 30, big)
    assert (await store.get_guild_config(GUILD)).channels == (10, 30, big)
    assert (await store.set_channels(GUILD, [])).channels == ()
    with pytest.raises(TypeError):
        await store.set_channels(GUILD, ["10"])
    with pytest.raises(ValueError):
        await store.set_channels(GUILD, [2**64])


@pytest.mark.asyncio
async def test_guild_config_survives_restart_and_concurrent_edits_all_land(backend):
    store = await backend.open()
    # Eight concurrent edits of one guild that has no row yet: none may be lost.
    names = [f"p{i}" for i in range(8)]
    await asyncio.gather(
        *(store.set_preset(GUILD, n, "two_player", {"min_fan": i}) for i, n in enumerate(names))
    )
    await store.set_channels(GUILD, [7])
    await store.set_guild_default(GUILD, "two_player", {"base_points": 3})
    await store.close()
    cfg = await (await backend.open()).get_guild_config(GUILD)
    assert sorted(cfg.presets) == names
    assert cfg.presets["p5"] == {"variant": "two_player", "options": {"min_fan": 5}}
    assert (cfg.channels, cfg.defaults) == ((7,), {"two_player": {"base_points": 3}})


# --------------------------------------------------------------------------- history & statistics


def day(d: int) -> datetime:
    return datetime(2025, 3, d, 20, 0, tzinfo=UTC)


async def scripted_series(store: Store, clock: Clock) -> dict[str, int]:
    """Six settled hands in GUILD over two variants, plus hands that must never count.

    =====  ======  =============  =========================================================
    hand   day     variant        result (points)
    =====  ======  =============  =========================================================
    h1     1 Mar   two_player     Alice self-drawn, 8 fan: Alice +48, Bob -48
    h2     2 Mar   two_player     Bob on Alice's discard, 2 fan: Bob +10, Alice -10
    h3     3 Mar   other_variant  Alice on Carol's discard, 6 fan: Alice +30, Carol -30
    h4     4 Mar   two_player     drawn hand: Alice 0, Bob 0
    h5     5 Mar   other_variant  Carol self-drawn, 10 fan: Carol +60, Alice -60
    h6     6 Mar   two_player     Alice on Bob's discard, 12 fan: Alice +48, Bob -48
    =====  ======  =============  =========================================================

    Not counted: an aborted hand and a playing hand in GUILD, and a hand in GUILD2
    (Alice +100, Dave -100).
    """
    t1 = await new_table(store, channel_id=10)
    t2 = await new_table(store, channel_id=11, variant="other_variant")
    S = SettlementRecord
    ids = {}
    ids["h1"] = await play(store, clock, t1, 1, day(1), [
        S(0, ALICE, "Alice", 48, is_winner=True, self_drawn=True, fan=8),
        S(1, BOB, "Bob", -48),
    ])
    ids["h2"] = await play(store, clock, t1, 2, day(2), [
        S(0, ALICE, "Alice", -10, dealt_in=True),
        S(1, BOB, "Bob", 10, is_winner=True, fan=2),
    ])
    ids["h3"] = await play(store, clock, t2, 1, day(3), [
        S(0, ALICE, "Alice", 30, is_winner=True, fan=6),
        S(1, CAROL, "Carol", -30, dealt_in=True),
    ], variant="other_variant")
    ids["h4"] = await play(store, clock, t1, 3, day(4), [
        S(0, ALICE, "Alice", 0),
        S(1, BOB, "Bob", 0),
    ])
    ids["h5"] = await play(store, clock, t2, 2, day(5), [
        S(0, CAROL, "Carol", 60, is_winner=True, self_drawn=True, fan=10),
        S(1, ALICE, "Alice", -60),
    ], variant="other_variant")
    ids["h6"] = await play(store, clock, t1, 4, day(6), [
        S(0, ALICE, "Alice", 48, is_winner=True, fan=12),
        S(1, BOB, "Bob", -48, dealt_in=True),
    ])
    clock.now = day(7)
    aborted = await new_hand(store, t1, hand_no=5)
    await store.abort_hand(aborted)
    await new_hand(store, t1, hand_no=5)  # still playing
    t3 = await new_table(store, channel_id=20, guild_id=GUILD2)
    ids["g2"] = await play(store, clock, t3, 1, day(3), [
        S(0, ALICE, "Alice", 100, is_winner=True, self_drawn=True, fan=20),
        S(1, DAVE, "Dave", -100),
    ])
    return ids


@pytest.mark.asyncio
async def test_history_newest_first_with_winner_and_fan(store, backend):
    ids = await scripted_series(store, backend.clock)
    t1, t2 = (await store.get_hand(ids["h1"])).table_id, (await store.get_hand(ids["h3"])).table_id
    H = HistoryLine
    h6 = H(ids["h6"], t1, "two_player", day(6), 0, 48, True, False, False, 12, "Alice")
    h5 = H(ids["h5"], t2, "other_variant", day(5), 1, -60, False, False, False, 10, "Carol")
    h4 = H(ids["h4"], t1, "two_player", day(4), 0, 0, False, False, False, None, None)
    h3 = H(ids["h3"], t2, "other_variant", day(3), 0, 30, True, False, False, 6, "Alice")
    h2 = H(ids["h2"], t1, "two_player", day(2), 0, -10, False, False, True, 2, "Bob")
    h1 = H(ids["h1"], t1, "two_player", day(1), 0, 48, True, True, False, 8, "Alice")
    assert await store.history(GUILD, ALICE) == [h6, h5, h4, h3, h2, h1]
    assert await store.history(GUILD, ALICE, limit=2) == [h6, h5]
    assert await store.history(GUILD, ALICE, variant="two_player") == [h6, h4, h2, h1]
    assert await store.history(GUILD, ALICE, variant="other_variant", limit=1) == [h5]
    assert (await store.history(GUILD, ALICE))[0].ended_at.tzinfo is not None
    # Carol sat in h3 (seat 1, dealt in) and h5 (seat 0, self-drawn win).
    assert await store.history(GUILD, CAROL) == [
        H(ids["h5"], t2, "other_variant", day(5), 0, 60, True, True, False, 10, "Carol"),
        H(ids["h3"], t2, "other_variant", day(3), 1, -30, False, False, True, 6, "Alice"),
    ]
    assert await store.history(GUILD, DAVE) == []
    assert [h.hand_id for h in await store.history(GUILD2, ALICE)] == [ids["g2"]]


@pytest.mark.asyncio
async def test_stats_sum_and_maxima_over_settlements(store, backend):
    ids = await scripted_series(store, backend.clock)
    # Alice: 48 - 10 + 30 + 0 - 60 + 48 = 56 over 6 hands (56 / 6); wins h1, h3, h6 (h1
    # self-drawn); dealt in h2; best 48 first reached in h1; best fan of her wins max(8, 6, 12).
    assert await store.stats(GUILD, ALICE) == PlayerStats(
        ALICE, "Alice", hands=6, wins=3, self_drawn=1, deal_ins=1, points=56,
        average_points=56 / 6, best_points=48, best_hand_id=ids["h1"], best_fan=12,
    )
    # two_player only (h1, h2, h4, h6): 48 - 10 + 0 + 48 = 86, 86 / 4 = 21.5.
    assert await store.stats(GUILD, ALICE, "two_player") == PlayerStats(
        ALICE, "Alice", hands=4, wins=2, self_drawn=1, deal_ins=1, points=86,
        average_points=21.5, best_points=48, best_hand_id=ids["h1"], best_fan=12,
    )
    # other_variant (h3, h5): 30 - 60 = -30, -15.0 a hand; h5's 10 fan is Carol's, not Alice's.
    assert await store.stats(GUILD, ALICE, "other_variant") == PlayerStats(
        ALICE, "Alice", hands=2, wins=1, self_drawn=0, deal_ins=0, points=-30,
        average_points=-15.0, best_points=30, best_hand_id=ids["h3"], best_fan=6,
    )
    # Since 4 March 00:00 (h4, h5, h6): 0 - 60 + 48 = -12, -4.0 a hand.
    since = datetime(2025, 3, 4, tzinfo=UTC)
    assert await store.stats(GUILD, ALICE, since=since) == PlayerStats(
        ALICE, "Alice", hands=3, wins=1, self_drawn=0, deal_ins=0, points=-12,
        average_points=-4.0, best_points=48, best_hand_id=ids["h6"], best_fan=12,
    )
    # Only h5 (a loss): the best hand is the only one, with no fan of her own.
    assert await store.stats(GUILD, ALICE, "other_variant", since=since) == PlayerStats(
        ALICE, "Alice", hands=1, points=-60, average_points=-60.0, best_points=-60,
        best_hand_id=ids["h5"], best_fan=None,
    )
    # Bob: -48 + 10 + 0 - 48 = -86 over 4, his only win h2 (2 fan), dealt in h6.
    assert await store.stats(GUILD, BOB) == PlayerStats(
        BOB, "Bob", hands=4, wins=1, self_drawn=0, deal_ins=1, points=-86,
        average_points=-21.5, best_points=10, best_hand_id=ids["h2"], best_fan=2,
    )
    # Carol: -30 + 60 = 30 over 2.
    assert await store.stats(GUILD, CAROL) == PlayerStats(
        CAROL, "Carol", hands=2, wins=1, self_drawn=1, deal_ins=1, points=30,
        average_points=15.0, best_points=60, best_hand_id=ids["h5"], best_fan=10,
    )
    assert await store.stats(GUILD, DAVE) == PlayerStats(DAVE, None)
    assert (await store.stats(GUILD, DAVE)).average_points == 0.0
    assert await store.stats(GUILD2, ALICE) == PlayerStats(
        ALICE, "Alice", hands=1, wins=1, self_drawn=1, points=100, average_points=100.0,
        best_points=100, best_hand_id=ids["g2"], best_fan=20,
    )
    # The score and the leaderboard agree with the statistics.
    assert await store.score(GUILD, ALICE) == ScoreLine(ALICE, "Alice", 56, 6, 3, 1, 1)
    assert [(s.user_id, s.points) for s in await store.leaderboard(GUILD)] == [
        (ALICE, 56), (CAROL, 30), (BOB, -86),
    ]
    assert [(s.user_id, s.points) for s in await store.leaderboard(GUILD, since=since)] == [
        (CAROL, 60), (ALICE, -12), (BOB, -48),
    ]


@pytest.mark.asyncio
async def test_finished_hands_newest_first_for_replay(store, backend):
    ids = await scripted_series(store, backend.clock)
    hands = await store.finished_hands(GUILD)
    # Done hands only (not the aborted or playing one), not GUILD2's.
    assert [h.id for h in hands] == [ids[k] for k in ("h6", "h5", "h4", "h3", "h2", "h1")]
    assert [h.ended_at for h in hands] == [day(d) for d in (6, 5, 4, 3, 2, 1)]
    first = hands[0]
    assert (first.status, first.variant, first.hand_no, first.actions) == (
        "done", "two_player", 4, (),
    )
    assert [(s.seat, s.user_id, s.points) for s in first.settlements] == [
        (0, ALICE, 48), (1, BOB, -48),
    ]
    assert [h.id for h in await store.finished_hands(GUILD, limit=2)] == [ids["h6"], ids["h5"]]
    assert [h.id for h in await store.finished_hands(GUILD, user_id=CAROL)] == [
        ids["h5"], ids["h3"],
    ]
    assert [h.id for h in await store.finished_hands(GUILD, variant="two_player", limit=3)] == [
        ids["h6"], ids["h4"], ids["h2"],
    ]
    assert [h.id for h in await store.finished_hands(GUILD2)] == [ids["g2"]]
    # The log itself comes from get_hand: play() stored one action, "deal".
    assert (await store.get_hand(first.id)).actions == ("deal",)
