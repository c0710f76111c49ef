"""老三番 hands stored and re-scored under other score-only options (``service.rescore``):
the values are those ``test_laosanfan.py`` pins for the same hands played under each option
(its style table, its 点炮 and 胡头 examples), so a re-score is what playing the hand under
those rules would have paid."""

from __future__ import annotations

import pytest
import pytest_asyncio
from stored_hands import LAOSANFAN_WORKED, full_log, playing_table, stacked_context, store_hand

from engine.variants.laosanfan.scoring import style_total
from service.records import Records
from service.tables import ServiceError
from store import Store

GUILD = 7

# test_laosanfan.py, test_discard_pays_option: seat 1 wins on seat 0's 2s, 胡 2 → 40 a loser
DISCARD_WIN = {"hands": ["2s123456789m11z44z", "13s123456789p99p", "147m258p369s2345z", "258m369p147s5z66z7z"],
               "draws": "", "back": "", "lines": ["0 discard 2s", "1 hu"]}
# test_laosanfan.py, test_worked_example_styles: the worked example's total per loser, fan 0
# (胡 26): ("yaobansan", 0, 60), ("yaobanliu", 0, 90), ("tuidaoba", 0, 100), ("yaoerliu", 0, 130)
STYLE_TOTALS = {"yaobansan": 60, "yaobanliu": 90, "tuidaoba": 100, "yaoerliu": 130}


@pytest_asyncio.fixture
async def stored(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/r.db")
    await store.init()
    table = await playing_table(store, GUILD, 70, "laosanfan")
    ids = {}
    for n, (name, spec) in enumerate((("worked", LAOSANFAN_WORKED), ("discard", DISCARD_WIN))):
        ids[name], _ = await store_hand(store, table, n + 1, "laosanfan", {}, seed=3, dealer=0,
                                        context=stacked_context(spec), actions=full_log("laosanfan", spec, {}),
                                        users=[1, 2, None, 4])
    yield Records(store), ids
    await store.close()


@pytest.mark.asyncio
async def test_the_worked_hand_under_each_style_pays_the_style_table(stored):
    records, ids = stored
    for style, each in STYLE_TOTALS.items():
        assert style_total(style, 26, 0) == each  # the table's row is the scoring's
        if style == "yaobansan":  # the style it was played with: nothing to re-score
            with pytest.raises(ServiceError) as e:
                await records.rescore(GUILD, ids["worked"], {"style": style})
            assert e.value.code == "rescore.same"
            continue
        r = await records.rescore(GUILD, ids["worked"], {"style": style})
        # self-drawn: each of the three losers pays the style's total to the dealer
        assert r.played == [180, -60, -60, -60]
        assert r.rescored == [3 * each, -each, -each, -each]
        assert [(c.option, c.played, c.rescored) for c in r.changes] == [("style", "yaobansan", style)]
        assert r.rescored_result["hu"] == 26 and r.rescored_result["fan_total"] == 0
        assert r.rescored_result["style"] == style


@pytest.mark.asyncio
async def test_discard_pays_and_hutou_rescore_as_their_examples(stored):
    records, ids = stored
    # test_discard_pays_option: all → [-40, 120, -40, -40]; discarder → [-40, 40, 0, 0]
    r = await records.rescore(GUILD, ids["discard"], {"discard_pays": "discarder"})
    assert (r.played, r.rescored) == ([-40, 120, -40, -40], [-40, 40, 0, 0])
    # test_hutou_settlement_between_non_winners: seat 2's concealed 999s and 111p make 16 胡
    # against 0: it collects 5 from each 边家 → [180, -65, -50, -65]
    r = await records.rescore(GUILD, ids["worked"], {"hutou": "on"})
    assert r.rescored == [180, -65, -50, -65]
    # two at once: 推倒八 and 胡头 (推倒八's 胡头: a 边家 50 胡 behind pays 50; 16 − 0 < 50: none)
    r = await records.rescore(GUILD, ids["worked"], {"style": "tuidaoba", "hutou": "true"})
    assert r.rescored == [300, -100, -100, -100]
    assert [c.option for c in r.changes] == ["style", "hutou"]


@pytest.mark.asyncio
async def test_play_options_are_refused_by_name(stored):
    records, ids = stored
    with pytest.raises(ServiceError) as e:
        await records.rescore(GUILD, ids["worked"], {"opening_restriction": "off", "style": "tuidaoba"})
    assert e.value.code == "rescore.refused"
    assert e.value.params["options"] == "opening_restriction"
    assert e.value.params["allowed"] == "style, discard_pays, hutou, money_rounding"
    with pytest.raises(ServiceError) as e:
        await records.rescore(GUILD, ids["worked"], {"claim_timeout": "60"})
    assert (e.value.code, e.value.params["options"]) == ("rescore.refused", "claim_timeout")
    # the shipped preset "relaxed" differs from the hand in its three timers
    with pytest.raises(ServiceError) as e:
        await records.rescore(GUILD, ids["worked"], preset="relaxed")
    assert e.value.code == "rescore.refused_preset"
    assert e.value.params == {"options": "claim_timeout, discard_timeout, result_timeout",
                              "allowed": "style, discard_pays, hutou, money_rounding", "preset": "relaxed"}
    # a server's preset of scoring options alone re-scores
    r = await records.rescore(GUILD, ids["worked"], preset="push",
                              server_presets={"push": {"variant": "laosanfan", "options": {"style": "yaoerliu"}}})
    assert r.preset == "push" and r.rescored == [390, -130, -130, -130]
    # a typed option over the preset
    r = await records.rescore(GUILD, ids["worked"], {"style": "yaobanliu"}, preset="push",
                              server_presets={"push": {"variant": "laosanfan", "options": {"style": "yaoerliu"}}})
    assert r.rescored == [270, -90, -90, -90]
    # the shipped "standard" sets nothing: the rules as played
    with pytest.raises(ServiceError) as e:
        await records.rescore(GUILD, ids["worked"], preset="standard")
    assert e.value.code == "rescore.same"
