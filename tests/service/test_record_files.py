"""Game record files (``service.record_file``, ``service.record_exchange``): a played hand of
every game exported and imported into a fresh store replays to the same result, a whole
match too; an imported hand counts nowhere; a tampered record is refused with its reason."""

from __future__ import annotations

import copy
import json
import uuid

import asyncpg
import pytest
import pytest_asyncio

from engine.actions import Action
from engine.variants import find_variant
from games import game_ids
from postgres import pg_dsn, require_postgres
from rated_history import new_rated_table, played_hand
from render.text.record_file import text_record
from service import ratings
from service.record_exchange import RecordExchange
from service.record_file import MAX_BYTES, RecordRefused, check, dumps, parse, read
from service.records import Records
from store import Store

GUILD, OTHER_GUILD = 5150, 6160
#: user ids long enough that finding their digits in a file means they leaked into it
ALICE, BOB = 987654321012345, 876543210123456


async def _stores(tmp_path):
    src = Store(f"sqlite:///{tmp_path}/src.db")
    dst = Store(f"sqlite:///{tmp_path}/dst.db")
    await src.init()
    await dst.init()
    return src, dst


@pytest_asyncio.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
                        loop_scope="function")
async def importing_store(request, tmp_path):
    """The store a record is imported into: a SQLite file or a fresh PostgreSQL schema (dropped
    at the end)."""
    if request.param == "sqlite":
        store = Store(f"sqlite:///{tmp_path}/importing.db")
        await store.init()
        yield store
        await store.close()
        return
    schema = f"test_records_{uuid.uuid4().hex[:12]}"
    store = Store(require_postgres(), schema=schema)
    try:
        await store.init()
        yield store
    finally:
        await store.close()
        conn = await asyncpg.connect(pg_dsn(), timeout=5)
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()


def _users(variant: str) -> list:
    n = find_variant(variant).max_players
    return [ALICE, BOB] + [None] * (n - 2)


async def _exported_hand(tmp_path, variant: str = "laosanfan", seed: int = 42):
    src, dst = await _stores(tmp_path)
    table = await new_rated_table(src, GUILD, 100, variant)
    result = await played_hand(src, table, 0, _users(variant), variant, seed=seed)
    hand_id = (await src.finished_hands(GUILD, limit=1))[0].id
    return src, dst, result, hand_id, await RecordExchange(src).export_hand(GUILD, hand_id)


def _refusal(data) -> RecordRefused:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    with pytest.raises(RecordRefused) as err:
        read(raw)
    return err.value


@pytest.mark.asyncio
@pytest.mark.parametrize("variant", game_ids())
async def test_every_game_exports_imports_and_replays_to_the_same_result(tmp_path, variant):
    src, dst, result, hand_id, ex = await _exported_hand(tmp_path, variant, seed=7)
    try:
        stored = await src.get_hand(hand_id)
        data = json.loads(ex.raw)
        assert (data["format"], data["version"], data["kind"], data["game"]) == ("mahjong-bot-record", 1, "hand", variant)
        entry = data["hands"][0]
        assert entry["actions"] == list(stored.actions) and entry["seed"] == 7 and entry["dealer"] == 0
        assert entry["options"] == find_variant(variant).resolve_options({"match_hands": 0})
        assert [s["name"] for s in entry["seats"]] == [f"P{ALICE}", f"P{BOB}"] + [f"AI {i}" for i in range(2, len(entry["seats"]))]
        assert [s["ai"] for s in entry["seats"]] == [u is None for u in _users(variant)]
        assert [s["points"] for s in entry["settlements"]] == list(result["points"])
        # privacy: the players' Discord ids are nowhere in the file but in their names (the
        # harness names a player "P<id>")
        unnamed = ex.raw.replace(f"P{ALICE}".encode(), b"").replace(f"P{BOB}".encode(), b"")
        assert str(ALICE).encode() not in unnamed and str(BOB).encode() not in unnamed
        assert b"user_id" not in ex.raw
        # into a fresh store: the same result, replayable and verified there
        got = await RecordExchange(dst).import_file(OTHER_GUILD, 300, 77, "en", ex.raw)
        assert got.checked.actions == len(stored.actions)
        again = await dst.get_hand(got.hand_ids[0])
        assert again.status == "done" and list(again.actions) == list(stored.actions)
        assert again.result == stored.result and again.seed == 7
        records = Records(dst)
        v = await records.verify(OTHER_GUILD, again.id)
        assert v.same_result and v.actions == len(stored.actions)
        last = await records.replay(OTHER_GUILD, again.id, 10**6)
        assert last.step == len(stored.actions) and last.view["result"]["points"] == list(result["points"])
        # exported again from there: the same record but for the hand's number and time here
        back = json.loads((await RecordExchange(dst).export_hand(OTHER_GUILD, again.id)).raw)["hands"][0]
        assert {k: v for k, v in back.items() if k not in ("id", "ended_at")} == \
            {k: v for k, v in entry.items() if k not in ("id", "ended_at")}
        # the text: a line per action, numbered from 0 as in the file
        text = text_record(ex.checked, "en")
        for i, action in enumerate(stored.actions):
            assert f"\n  {i}. {action}" in text
        assert text.startswith(find_variant(variant).name_en)
    finally:
        await src.close()
        await dst.close()


@pytest.mark.asyncio
async def test_a_whole_match_exports_and_imports(tmp_path):
    src, dst = await _stores(tmp_path)
    try:
        table = await new_rated_table(src, GUILD, 100, "zipai", match_hands=3)
        results = [await played_hand(src, table, n, [ALICE, BOB, None], "zipai", seed=20 + n, match_hands=3,
                                     end=n == 2) for n in range(3)]
        match = (await src.guild_matches(GUILD))[0]
        ex = await RecordExchange(src).export_match(GUILD, match.id)
        data = json.loads(ex.raw)
        assert data["kind"] == "match" and data["match"]["hands_planned"] == 3 and data["match"]["hands_played"] == 3
        assert [h["hand_no"] for h in data["hands"]] == [0, 1, 2]
        got = await RecordExchange(dst).import_file(OTHER_GUILD, 300, 77, "en", ex.raw)
        assert len(got.hand_ids) == 3 and got.checked.actions == sum(len(h["actions"]) for h in data["hands"])
        for hand_id, result in zip(got.hand_ids, results, strict=True):
            h = await dst.get_hand(hand_id)
            assert h.result["points"] == list(result["points"])
            assert (await Records(dst).verify(OTHER_GUILD, hand_id)).same_result
        # the text ends with the match's totals by player, summed by hand from the results
        totals = [sum(r["points"][s] for r in results) for s in range(3)]
        assert text_record(ex.checked, "en").rstrip().endswith(
            f"Match totals: P{ALICE} {totals[0]:+d} | P{BOB} {totals[1]:+d} | AI 2 {totals[2]:+d}")
        # a match of another server is not found
        with pytest.raises(Exception) as err:
            await RecordExchange(src).export_match(OTHER_GUILD, match.id)
        assert getattr(err.value, "code", None) == "unknown_match"
    finally:
        await src.close()
        await dst.close()


@pytest.mark.asyncio
async def test_an_imported_hand_counts_in_no_score_board_statistic_rate_or_rating(tmp_path, importing_store):
    src, unused, result, hand_id, ex = await _exported_hand(tmp_path, "laosanfan")
    await unused.close()
    dst = importing_store
    try:
        # the importing store's own history: four hands of the same two players (a rated block)
        table = await new_rated_table(dst, GUILD, 200, "laosanfan")
        for n in range(4):
            await played_hand(dst, table, n, [ALICE, BOB, None, None], "laosanfan", seed=60 + n)
        before = (await dst.leaderboard(GUILD), await dst.stats(GUILD, ALICE), await dst.history(GUILD, ALICE),
                  await dst.rate_hands(GUILD, ALICE), await dst.ratings(GUILD, "laosanfan"),
                  await dst.player_matches(GUILD, ALICE), await dst.best_hands(GUILD, ALICE, "laosanfan", 5),
                  ratings.replay(await dst.rebuild_source()))
        got = await RecordExchange(dst).import_file(GUILD, 300, ALICE, "en", ex.raw)
        after = (await dst.leaderboard(GUILD), await dst.stats(GUILD, ALICE), await dst.history(GUILD, ALICE),
                 await dst.rate_hands(GUILD, ALICE), await dst.ratings(GUILD, "laosanfan"),
                 await dst.player_matches(GUILD, ALICE), await dst.best_hands(GUILD, ALICE, "laosanfan", 5),
                 ratings.replay(await dst.rebuild_source()))
        assert after == before and before[1].hands == 4
        # but it is there to replay: among the server's finished hands, under a closed table
        assert got.hand_ids[0] in [h.id for h in await dst.finished_hands(GUILD)]
        table_row = await dst.get_table((await dst.get_hand(got.hand_ids[0])).table_id)
        assert table_row.status == "closed" and table_row.state["imported"]["format"] == "mahjong-bot-record"
        assert (await Records(dst).verify(GUILD, got.hand_ids[0])).same_result
    finally:
        await src.close()


@pytest.mark.asyncio
async def test_players_ids_in_a_hands_context_are_left_out_and_it_still_replays(tmp_path):
    """二人麻将 keeps each seat's user id in the match context (``seat_users``) next to the
    dealer's 连庄 count: the record keeps the count, not the ids, and still verifies."""
    store = Store(f"sqlite:///{tmp_path}/s.db")
    await store.init()
    try:
        info = find_variant("two_player")
        options = info.resolve_options({})
        context = {"seat_users": [ALICE, BOB], "dealer_streak": 2, "hand_no": 3}
        hand = info.new_hand(options, 99, 1, 2, dict(context))
        lines = []
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            action = hand.ai_action(seat)
            hand.apply(action)
            lines.append(str(action))
        table = await new_rated_table(store, GUILD, 100, "two_player")
        hand_id = await store.start_hand(table_id=table, hand_no=3, seed=99, variant="two_player", options=options,
                                         dealer=1, seats=[{"user_id": ALICE, "name": "alice", "is_ai": False},
                                                          {"user_id": BOB, "name": "bob", "is_ai": False}],
                                         context=context)
        from service.hands import settlement_records
        await store.finish_hand(hand_id, result=dict(hand.result, seed=99), actions=(0, lines),
                                settlements=settlement_records(hand.result, [(ALICE, "alice", False), (BOB, "bob", False)]))
        ex = await RecordExchange(store).export_hand(GUILD, hand_id)
        assert json.loads(ex.raw)["hands"][0]["context"] == {"dealer_streak": 2, "hand_no": 3}
        assert str(ALICE).encode() not in ex.raw
        # a record that does carry them is refused
        data = json.loads(ex.raw)
        data["hands"][0]["context"]["seat_users"] = [1, 2]
        assert _refusal(data).code == "seats"
    finally:
        await store.close()


# ------------------------------------------------------------------ tampered records


@pytest.mark.asyncio
async def test_an_action_changed_to_an_illegal_one_is_refused_naming_its_index(tmp_path):
    src, dst, _, _, ex = await _exported_hand(tmp_path)
    await src.close()
    await dst.close()
    data = json.loads(ex.raw)
    actions = data["hands"][0]["actions"]
    # the first discard, made by a seat that is not to move (the next seat)
    k = next(i for i, a in enumerate(actions) if " discard " in a)
    seat, _, tile = actions[k].split()
    bad = copy.deepcopy(data)
    bad["hands"][0]["actions"][k] = f"{(int(seat) + 1) % 4} discard {tile}"
    err = _refusal(bad)
    assert (err.code, err.params["hand"], err.params["index"]) == ("action_illegal", 1, k)
    assert err.params["why"] == f"seat {(int(seat) + 1) % 4} is not to move (waiting for seat {seat})"
    # the right seat, a tile it does not hold: the legal moves are named
    hand = check(parse(dumps(data))).hands[0].game.new_hand(data["hands"][0]["options"], 42, 0, 4)
    for line in actions[:k]:
        hand.apply(Action.parse(line))
    held = {str(a).split()[-1] for a in hand.legal_actions(int(seat)) if a.type == "discard"}
    missing = next(x for x in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p") if x not in held)
    bad["hands"][0]["actions"][k] = f"{seat} discard {missing}"
    err = _refusal(bad)
    assert (err.code, err.params["index"], err.params["action"]) == ("action_illegal", k, f"{seat} discard {missing}")
    assert err.params["why"].startswith("not a legal move now; legal: ") and f"{seat} discard" in err.params["why"]
    # not an action at all; an action after the end; a log cut short
    bad["hands"][0]["actions"][k] = f"{seat} discard"
    assert _refusal(bad).code in ("action_illegal", "action_malformed")
    bad = copy.deepcopy(data)
    bad["hands"][0]["actions"].append("0 pass")
    err = _refusal(bad)
    assert (err.code, err.params["index"]) == ("after_end", len(actions))
    bad["hands"][0]["actions"] = actions[:-1]
    assert _refusal(bad).code == "unfinished"


@pytest.mark.asyncio
async def test_a_legal_action_changed_that_leads_to_another_result_is_refused(tmp_path):
    """One action replaced by another legal one, every later action still legal: the replay
    ends with another result than the stored one, and the record is refused naming the key."""
    src, dst, _, _, ex = await _exported_hand(tmp_path)
    await src.close()
    await dst.close()
    data = json.loads(ex.raw)
    entry = data["hands"][0]
    info = find_variant(data["game"])
    found = None
    for k in range(len(entry["actions"]) - 1, -1, -1):
        hand = info.new_hand(entry["options"], entry["seed"], entry["dealer"], 4, entry["context"])
        for line in entry["actions"][:k]:
            hand.apply(Action.parse(line))
        seat = Action.parse(entry["actions"][k]).seat
        for alt in hand.legal_actions(seat):
            tried = copy.deepcopy(data)
            tried["hands"][0]["actions"][k] = str(alt)
            if str(alt) == entry["actions"][k]:
                continue
            try:
                read(dumps(tried))
            except RecordRefused as e:
                if e.code == "result_differs":
                    found = (k, str(alt), e)
                    break
        if found:
            break
    assert found is not None, "no single legal change leads to another result"
    k, alt, err = found
    assert err.params["hand"] == 1 and err.params["key"] in entry["result"]
    assert err.params["diff"].startswith("stored ")


@pytest.mark.asyncio
async def test_a_changed_result_or_settlement_value_is_refused_naming_it(tmp_path):
    src, dst, result, _, ex = await _exported_hand(tmp_path)
    await src.close()
    await dst.close()
    data = json.loads(ex.raw)
    bad = copy.deepcopy(data)
    bad["hands"][0]["result"]["points"][0] += 1
    err = _refusal(bad)
    p = list(result["points"])
    q = [p[0] + 1] + p[1:]
    assert (err.code, err.params["key"], err.params["diff"]) == ("result_differs", "points",
                                                                 f"stored {json.dumps(q)}, replayed {json.dumps(p)}")
    bad = copy.deepcopy(data)
    bad["hands"][0]["settlements"][2]["points"] += 10
    err = _refusal(bad)
    assert (err.code, err.params["seat"], err.params["key"]) == ("settlement_differs", 2, "points")
    bad = copy.deepcopy(data)
    bad["hands"][0]["result"]["seed"] = 43
    assert (_refusal(bad).code, _refusal(bad).params["key"]) == ("result_differs", "seed")
    bad = copy.deepcopy(data)
    bad["hands"][0]["result"]["invented"] = 1
    assert (_refusal(bad).code, _refusal(bad).params["key"]) == ("result_differs", "invented")
    bad = copy.deepcopy(data)
    bad["hands"][0]["wall"]["sha256"] = "0" * 64
    assert _refusal(bad).code == "wall_differs"


@pytest.mark.asyncio
async def test_a_file_that_is_too_big_not_json_of_another_version_game_or_shape_is_refused(tmp_path):
    src, dst, _, _, ex = await _exported_hand(tmp_path)
    await src.close()
    await dst.close()
    data = json.loads(ex.raw)
    # size first: a valid record padded past the limit is refused before it is read
    padded = ex.raw + b" " * (MAX_BYTES + 1 - len(ex.raw))
    err = _refusal(padded)
    assert (err.code, err.params) == ("too_big", {"size": MAX_BYTES + 1, "limit": MAX_BYTES})
    assert _refusal(b"\xff\xfe not utf-8").code == "not_json"
    assert _refusal(b'{"format": NaN}').code == "not_json"
    assert _refusal(b'{"format": "mahjong-bot-record", "format": "x"}').code == "not_json"
    assert _refusal(b"[1, 2]").code == "not_a_record"
    err = _refusal(dict(data, version=2))
    assert (err.code, err.params) == ("version", {"version": "2", "supported": 1})
    assert _refusal(dict(data, version=True)).code == "version"
    err = _refusal(dict(data, game="mahjong_9000"))
    assert (err.code, err.params) == ("unknown_game", {"game": "mahjong_9000"})
    # the schema: a missing field, a wrong type, an unknown field, a malformed action
    bad = copy.deepcopy(data)
    del bad["hands"][0]["seed"]
    err = _refusal(bad)
    assert (err.code, err.params) == ("schema", {"path": "hands/0", "why": "missing field 'seed'"})
    bad = copy.deepcopy(data)
    bad["hands"][0]["seed"] = "42"
    assert _refusal(bad).params == {"path": "hands/0/seed", "why": "expected integer, got string"}
    bad = copy.deepcopy(data)
    bad["hands"][0]["settlements"][1]["winner"] = 1
    assert _refusal(bad).params == {"path": "hands/0/settlements/1/winner", "why": "expected boolean, got integer"}
    bad = copy.deepcopy(data)
    bad["hands"][0]["seats"][0]["user_id"] = 1
    assert _refusal(bad).params == {"path": "hands/0/seats/0/user_id", "why": "unknown field"}
    bad = copy.deepcopy(data)
    bad["hands"][0]["actions"][0] = "0  discard"
    assert _refusal(bad).params["path"] == "hands/0/actions/0"
    bad = copy.deepcopy(data)
    bad["hands"][0]["seed"] = 2**63
    assert _refusal(bad).params == {"path": "hands/0/seed", "why": f"more than {2**63 - 1}"}
    # an option the game does not have, or a value it does not take
    bad = copy.deepcopy(data)
    bad["hands"][0]["options"]["house_rule"] = 1
    err = _refusal(bad)
    assert (err.code, err.params["hand"]) == ("options", 1) and "house_rule" in err.params["why"]
    bad = copy.deepcopy(data)
    bad["hands"][0]["options"]["style"] = "tuidaoshi"
    assert _refusal(bad).code == "options"
    bad = copy.deepcopy(data)
    bad["hands"][0]["options"]["claim_timeout"] = "15"
    assert _refusal(bad).params == {"hand": 1, "why": "not of the option's type: claim_timeout"}
    # an option the record does not name plays its default (a record older than the option)
    older = copy.deepcopy(data)
    del older["hands"][0]["options"]["hutou"]
    assert read(dumps(older)).hands[0].entry["options"] == data["hands"][0]["options"]
    # a hand's record with two hands, a match whose count is not its hands'
    assert _refusal(dict(data, hands=data["hands"] * 2)).code == "match"
    two = dict(data, kind="match", match={"hands_planned": 0, "hands_played": 2})
    assert _refusal(two).code == "match"
    twice = [copy.deepcopy(h) for h in data["hands"] * 2]
    twice[1]["hand_no"] = 1
    over = dict(data, kind="match", hands=twice, match={"hands_planned": 1, "hands_played": 2})
    assert _refusal(over).params == {"why": "2 hands played of 1 planned"}
    same_no = dict(over, hands=data["hands"] * 2, match={"hands_planned": 2, "hands_played": 2})
    assert _refusal(same_no).params == {"why": "hand numbers do not increase: 0, 0"}
    assert read(dumps(dict(over, match={"hands_planned": 2, "hands_played": 2}))).actions == \
        2 * len(data["hands"][0]["actions"])


@pytest.mark.asyncio
async def test_only_a_finished_hand_of_the_asking_server_is_exported(tmp_path):
    src, dst, _, hand_id, _ = await _exported_hand(tmp_path)
    try:
        exchange = RecordExchange(src)
        with pytest.raises(Exception) as err:
            await exchange.export_hand(OTHER_GUILD, hand_id)
        assert (getattr(err.value, "code", None), err.value.params) == ("unknown_hand", {"hand": hand_id})
        with pytest.raises(Exception) as err:
            await exchange.export_hand(GUILD, hand_id + 100)
        assert getattr(err.value, "code", None) == "unknown_hand"
        table = await new_rated_table(src, GUILD, 101, "laosanfan")
        playing = await src.start_hand(table_id=table, hand_no=0, seed=1, variant="laosanfan", options={}, dealer=0,
                                       seats=[{"user_id": None, "name": f"AI {i}", "is_ai": True} for i in range(4)])
        with pytest.raises(Exception) as err:
            await exchange.export_hand(GUILD, playing)
        assert getattr(err.value, "code", None) == "hand_not_finished"
    finally:
        await src.close()
        await dst.close()
