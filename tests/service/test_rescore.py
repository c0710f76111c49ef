"""``Records.rescore`` (``service/rescore.py``): stored hands of several games re-scored under
their score-only options, the refusals naming the options that would have changed what was
dealt or legal (typed, or brought by a preset), and the hands a server may not re-score."""

from __future__ import annotations

import pytest
import pytest_asyncio
from stored_hands import ai_log, played, playing_table, store_hand

from engine.variants import find_variant
from service.records import Records
from service.tables import ServiceError
from store import Store

GUILD, OTHER_GUILD = 5, 6


def winning_seed(game: str, n: int, options: dict | None = None, want=lambda r: True) -> tuple[int, list[str]]:
    """The first seed from 1 whose hand, played by the strong AI, has a winner (and
    ``want(result)``): ``(seed, log)``."""
    info = find_variant(game)
    for seed in range(1, 60):
        log = ai_log(game, options or {}, seed, n)
        r = played(game, info.resolve_options(options or {}), seed, 0, n, {}, log).result
        if (r.get("winners") or [r.get("winner")])[0] is not None and want(r):
            return seed, log
    raise AssertionError(f"no winning seed for {game}")


@pytest_asyncio.fixture
async def records(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/r.db")
    await store.init()
    yield Records(store), store
    await store.close()


async def stored(store, game: str, n: int, guild: int = GUILD, channel: int = 50, want=lambda r: True):
    seed, log = winning_seed(game, n, want=want)
    table = await playing_table(store, guild, channel, game)
    return await store_hand(store, table, 1, game, {}, seed=seed, dealer=0, context={}, actions=log,
                            users=[10 + i for i in range(n)])


async def refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as e:
        await call
    return e.value


@pytest.mark.asyncio
async def test_two_player_base_points_scales_and_min_fan_is_refused(records):
    rec, store = records
    hand_id, result = await stored(store, "two_player", 2)
    # the settlement is fan × 加倍 × 宝牌 × 连庄 × 底分 (two_player.md §Settlement): ×7 with 底分 7
    r = await rec.rescore(GUILD, hand_id, {"base_points": "7"})
    assert r.played == result["points"] and r.rescored == [7 * p for p in result["points"]]
    assert r.rescored_result["fan_total"] == result["fan_total"]
    e = await refusal(rec.rescore(GUILD, hand_id, {"min_fan": "8", "base_points": "2"}))
    assert (e.code, e.params["options"], e.params["allowed"]) == ("rescore.refused", "min_fan", "base_points")
    # the shipped preset low_minimum: 8 fan and 30 s timers
    e = await refusal(rec.rescore(GUILD, hand_id, preset="low_minimum"))
    assert e.code == "rescore.refused_preset" and e.params["options"] == "min_fan, claim_timeout, discard_timeout"
    e = await refusal(rec.rescore(GUILD, hand_id, {}))
    assert (e.code, e.params) == ("rescore.no_change_given", {"allowed": "base_points"})
    e = await refusal(rec.rescore(GUILD, hand_id, {"base": "2"}))
    assert e.code == "option_unknown"
    e = await refusal(rec.rescore(GUILD, hand_id, {"base_points": "0"}))
    assert (e.code, e.params["allowed"]) == ("option_bad_value", "1–1000")
    e = await refusal(rec.rescore(GUILD, hand_id, preset="nope"))
    assert e.code == "unknown_preset"


@pytest.mark.asyncio
async def test_zipai_one_tun_per_huxi_and_caishen_stake(records):
    rec, store = records
    hand_id, result = await stored(store, "zipai", 3)
    r = await rec.rescore(GUILD, hand_id, {"tun_per": "1"})
    # 一息一囤: 囤 = 胡息; each payer pays 囤 × 番 + both 飘 (zipai.md §Scoring)
    w, total = result["winner"], result["huxi"] * result["fan"]
    piao = result["piao"]
    expected = [0] * 3
    for s in result["payers"]:
        expected[s] -= total + piao[s] + piao[w]
        expected[w] += total + piao[s] + piao[w]
    assert r.rescored == expected and r.rescored_result["tun"] == result["huxi"]
    hand_id, result = await stored(store, "caishen", 4, channel=51)
    r = await rec.rescore(GUILD, hand_id, {"base_stake": "3"})
    assert r.rescored == [3 * p for p in result["points"]]  # score = 底注 × multiplier
    e = await refusal(rec.rescore(GUILD, hand_id, {"wild_discard": "off"}))
    assert (e.code, e.params["options"], e.params["allowed"]) == ("rescore.refused", "wild_discard",
                                                                 "base_stake, discard_pays")


@pytest.mark.asyncio
async def test_a_game_without_score_only_options_refuses_every_change(records):
    rec, store = records
    hand_id, _ = await stored(store, "laowudui", 2)
    e = await refusal(rec.rescore(GUILD, hand_id, {"wilds": "4"}))
    assert (e.code, e.params["options"]) == ("rescore.refused_none", "wilds")
    e = await refusal(rec.rescore(GUILD, hand_id, {}))
    assert e.code == "rescore.none_allowed"


@pytest.mark.asyncio
async def test_only_this_servers_finished_hands_that_replay_to_their_result(records):
    rec, store = records
    hand_id, _ = await stored(store, "two_player", 2)
    e = await refusal(rec.rescore(OTHER_GUILD, hand_id, {"base_points": "2"}))
    assert (e.code, e.params) == ("unknown_hand", {"hand": hand_id})
    e = await refusal(rec.rescore(GUILD, 99999, {"base_points": "2"}))
    assert e.code == "unknown_hand"
    # a hand still being played
    table = await playing_table(store, GUILD, 52, "two_player")
    playing = await store.start_hand(table_id=table, hand_no=1, seed=1, variant="two_player", options={}, dealer=0,
                                     seats=[{"seat": 0, "user_id": 1, "name": "a"}, {"seat": 1, "user_id": 2, "name": "b"}])
    e = await refusal(rec.rescore(GUILD, playing, {"base_points": "2"}))
    assert e.code == "hand_not_finished"
    # a stored result its log no longer gives is not compared
    seed, log = winning_seed("two_player", 2)
    table = await playing_table(store, GUILD, 53, "two_player")
    bad = await store.start_hand(table_id=table, hand_no=1, seed=seed, variant="two_player",
                                 options=find_variant("two_player").resolve_options({}), dealer=0,
                                 seats=[{"seat": 0, "user_id": 1, "name": "a"}, {"seat": 1, "user_id": 2, "name": "b"}])
    await store.finish_hand(bad, result={"points": [1, -1]}, settlements=[], actions=(0, log))
    e = await refusal(rec.rescore(GUILD, bad, {"base_points": "2"}))
    assert (e.code, e.params) == ("rescore.not_replayed", {"hand": bad})
