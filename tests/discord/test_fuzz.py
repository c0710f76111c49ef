"""Bad input, fuzzed (hypothesis): random tile strings, option values, action sequences and
stale or forged button ids thrown at the engine and at the Discord command layer.

Each part checks the same contract: no unhandled exception — a refusal is the engine's
``IllegalAction`` / ``TileParseError`` / ``OptionError`` or the service's ``ServiceError``,
each with a message-catalogue code, and on Discord a private (ephemeral) message — and the
game state exactly as it was.  Each part prints how many inputs it tried.  The runs are
derandomized, so CI sees the same inputs every time.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import ACTION_TYPES, Action
from engine.errors import IllegalAction, OptionError
from engine.match import Match
from engine.tiles import N_KINDS, TileParseError, kind_str, parse_kind, parse_kinds
from engine.variants import all_variants, find_variant
from service.clock import ManualClock
from render.text import error_text
from service.presets import find_preset, table_options
from service.tables import ServiceError

try:
    from discord_play import new_bot
    from fakediscord import FakeDiscord, HarnessError
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot
    from tests.harness.fakediscord import FakeDiscord, HarnessError

VARIANTS = [v.id for v in all_variants()]
_SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


def FUZZ(max_examples: int) -> settings:
    """Deterministic settings: no deadline, derandomized, no example database."""
    return settings(max_examples=max_examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=_SUPPRESS)

#: action types a player can put in a button id (``[a-z_]+``): the common ones, the variants'
#: own, and made-up words
VARIANT_TYPES = ("buy", "dui", "liu", "chi", "peng", "wei", "ti", "pao", "piao", "confirm", "show", "ready")
TYPES = st.one_of(st.sampled_from(ACTION_TYPES + VARIANT_TYPES),
                  st.from_regex(r"[a-z_]{1,12}", fullmatch=True))
KINDS = st.one_of(st.none(), st.integers(0, N_KINDS - 1))
#: text a player might type for a tile: notation-like pieces, Chinese tile words, anything
TILE_TEXT = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"[0-9]{0,3}[mpszfhxX]{0,2}", fullmatch=True),
    st.text(alphabet="一二三四五六七八九十壹贰叁万筒条东南西北白发中春梅板花百搭 0123456789mpsz", max_size=6),
    st.sampled_from(["5m", "五万", "白板", "red", "east", "10x", "10X", "0m", "8f", "9f", "1h", "6h", "-", ""]),
)

COUNTS: dict[str, int] = {}


def _count(part: str) -> None:
    COUNTS[part] = COUNTS.get(part, 0) + 1


def _report(part: str) -> None:
    print(f"\nfuzz {part}: {COUNTS.get(part, 0)} inputs tried")


def _state(hand) -> str:
    """Everything observable of a hand: ``seq``, every seat's view, the public view, the
    events and the result."""
    views = [hand.view(s) for s in range(hand.n)] + [hand.view(None)]
    return json.dumps([hand.seq, views, [e.to_json() for e in hand.events], hand.result],
                      sort_keys=True, ensure_ascii=False, default=str)


# --------------------------------------------------------------------------- (a) engine


@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_refuses_garbage_actions_and_keeps_its_state(variant):
    info = find_variant(variant)
    options = info.resolve_options({})
    part = f"engine {variant}"

    @FUZZ(12)
    @given(seed=st.integers(0, 2**63 - 1), n_seats=st.integers(info.min_players, info.max_players),
           data=st.data())
    def run(seed, n_seats, data):
        hand = Match(info, options, seed, n_seats).new_hand()
        for _ in range(data.draw(st.integers(5, 60), label="steps")):
            if hand.is_over():
                break
            pending = hand.pending_seats()
            assert pending, "a running hand waits for somebody"
            if data.draw(st.booleans(), label="garbage"):
                action = Action(data.draw(st.integers(0, n_seats - 1), label="seat"),
                                data.draw(TYPES, label="type"), data.draw(KINDS, label="kind"))
                before = _state(hand)
                _count(part)
                try:
                    hand.apply(action)
                except IllegalAction as e:
                    # a refusal names its reason and leaves everything as it was
                    assert isinstance(e.code, str) and e.code
                    assert _state(hand) == before, f"{action} changed the state when refused ({e.code})"
                    assert error_text(e.code, "en", e.params, find_variant(variant).facts)  # the message exists
            else:
                seat = data.draw(st.sampled_from(pending), label="pending seat")
                legal = hand.legal_actions(seat)
                assert legal, f"pending seat {seat} has no legal action"
                _count(part)
                hand.apply(data.draw(st.sampled_from(legal), label="legal"))

    run()
    _report(part)
    assert COUNTS[part] > 100  # every example applied several actions


# --------------------------------------------------------------------------- (b) tiles


def test_tile_parsing_only_raises_tile_parse_errors():
    @FUZZ(800)
    @given(text=TILE_TEXT)
    def run(text):
        _count("tiles")
        try:
            k = parse_kind(text)
        except TileParseError as e:
            assert e.text == text
        else:
            assert 0 <= k < N_KINDS
            assert parse_kind(kind_str(k)) == k  # what it read prints back as the same kind
        try:
            ks = parse_kinds(text)
        except TileParseError:
            pass
        else:
            assert all(0 <= k < N_KINDS for k in ks)

    run()
    _report("tiles")
    # hand-checked anchors: 五万 is 5m (kind 4), 白板 is 5z (kind 31)
    assert (parse_kind("五万"), parse_kind("白板")) == (4, 31)


# --------------------------------------------------------------------------- (c) options

OPTION_KEYS = sorted({o.name for v in all_variants() for o in v.options}) + ["colour", "", "MIN_FAN", "min fan"]
OPTION_VALUES = st.one_of(st.text(max_size=8), st.integers(-10**6, 10**6), st.booleans(), st.none(),
                          st.floats(allow_nan=True), st.sampled_from(["on", "off", "是", "关", "1e3", " 5 ", "0x10"]),
                          st.lists(st.integers(), max_size=2))


def test_option_values_only_raise_option_errors():
    @FUZZ(500)
    @given(variant=st.sampled_from(VARIANTS),
           given_=st.dictionaries(st.one_of(st.sampled_from(OPTION_KEYS), st.text(max_size=6)), OPTION_VALUES,
                                  max_size=4),
           preset=st.one_of(st.none(), st.sampled_from(["standard", "relaxed", "low_minimum", "nope", ""])))
    def run(variant, given_, preset):
        _count("options")
        info = find_variant(variant)
        try:
            resolved = info.resolve_options(given_)
        except OptionError as e:
            assert e.code in ("option_unknown", "option_bad_value")
            assert error_text(e.code, "en", e.params, info.facts)
        else:
            assert set(resolved) == {o.name for o in info.options}
        try:
            chosen = find_preset(variant, preset, {}) if preset is not None else None
            opts = table_options(info, preset=chosen, given={k: str(v) for k, v in given_.items()})
        except ServiceError as e:
            assert e.code in ("option_unknown", "option_bad_value", "unknown_preset", "preset_other_variant")
        else:
            assert set(opts) <= {o.name for o in info.options}

    run()
    _report("options")


# --------------------------------------------------------------------------- (d) Discord


class _World:
    """One bot on FakeDiscord (strict: a logged exception fails the test) with a running
    二人麻将 hand between alice and bob, on one event loop driven by the sync test."""

    def __init__(self, tmp_path):
        self.loop = asyncio.new_event_loop()
        self.tmp_path = tmp_path

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    async def start(self):
        clock = ManualClock()
        self.bot = new_bot(f"sqlite:///{self.tmp_path}/fuzz.db", clock)
        self.bot.service.lobby.seed_source = lambda: 4242
        self.fd = FakeDiscord(self.bot)
        await self.fd.start()
        fd = self.fd
        self.alice, self.bob = fd.user(101, "alice"), fd.user(102, "bob", locale="zh-CN")
        self.stranger = fd.user(103, "carol")
        await fd.slash(self.alice, "mj table create", {"variant": "two_player"})
        await fd.slash(self.bob, "mj table join")
        await fd.slash(self.alice, "mj table start")
        self.table = self.bot.service.table_in(fd.channel_id)
        self.spare = fd.add_channel("spare")  # /mj table create goes here

    def snapshot(self):
        t = self.table
        return t.hand.seq, list(t.actions), _state(t.hand), [(s.auto, s.timeouts) for s in t.seats]

    def users(self):
        return {self.table.seat_of(u.id): u for u in (self.alice, self.bob)}

    async def close(self):
        await self.fd.close()


@pytest.fixture
def world(tmp_path):
    w = _World(tmp_path)
    w.run(w.start())
    yield w
    w.run(w.close())
    w.loop.close()


def _accepted(table, seat, typ: str, kind) -> bool:
    """Would the engine take this action now (tried on a replayed copy of the hand)?  Some
    moves outside ``legal_actions`` are taken on purpose (a 听 whose discard leaves no ready
    hand counts as a plain discard), so the legal list alone cannot tell."""
    try:
        table.match.replay(table.actions).apply(Action(seat, typ, kind))
    except IllegalAction:
        return False
    return True


def _private(r) -> None:
    """The bot answered, privately (a refusal, never a public message)."""
    assert r.response_type in (4, 5, 7) and r.text, r.text
    assert r.ephemeral


def test_discord_commands_with_random_tiles_change_nothing(world):
    w = world
    cmds = [("discard", "tile"), ("kong", "tile"), ("chow", "tiles"), ("ting", "tile")]

    @FUZZ(160)
    @given(cmd=st.sampled_from(cmds), text=TILE_TEXT, who=st.sampled_from(["turn", "other", "stranger"]))
    def run(cmd, text, who):
        t = w.table
        turn = t.hand.pending_seats()[0]
        user = {"turn": w.users()[turn], "other": w.users()[1 - turn], "stranger": w.stranger}[who]
        name, opt = cmd
        try:
            kind = parse_kind(text) if text.strip() not in ("", "-") else None
        except TileParseError:
            kind = None
        seat = t.seat_of(user.id)
        if name == "chow" and kind is None and text.strip() in ("", "-"):
            kind = next((a.kind for a in t.hand.legal_actions(seat) if a.type == "chow"), None) \
                if seat is not None else None
        if seat is not None and _accepted(t, seat, name, kind):
            return  # a legal move is not bad input
        before = w.snapshot()
        _count("discord commands")
        r = w.run(w.fd.slash(user, name, {opt: text}))
        _private(r)
        assert w.snapshot() == before

    run()
    _report("discord commands")


def test_discord_table_create_with_random_options(world):
    w = world
    keys = st.sampled_from(OPTION_KEYS + ["claim_timeout", "preset"])
    words = st.one_of(st.text(max_size=10),
                      st.builds(lambda k, v: f"{k}={v}", keys, st.one_of(st.text(max_size=6), st.integers(-5, 2000))))

    @FUZZ(200)
    @given(variant=st.sampled_from(VARIANTS), options=st.lists(words, max_size=3).map(" ".join))
    def run(variant, options):
        _count("discord /mj table create")
        before = w.snapshot()
        r = w.run(w.fd.slash(w.alice, "mj table create", {"variant": variant, "options": options},
                             channel_id=w.spare))
        assert r.ephemeral and r.text
        opened = w.bot.service.tables.get(w.spare)
        if opened is not None:  # the options were all valid: the table opened with them
            assert opened.variant.id == variant
            w.run(w.fd.slash(w.alice, "mj table end", channel_id=w.spare))
            assert w.spare not in w.bot.service.tables
        assert w.snapshot() == before  # the game in the other channel is untouched

    run()
    _report("discord /mj table create")


def test_discord_forged_and_stale_button_ids(world):
    w = world
    ch = w.fd.channel_id
    ids = st.one_of(
        # action buttons: this table or another channel, old/current/future decision, any action and tile
        st.builds(lambda c, dseq, act, tile: ("action", c, dseq, act, tile),
                  st.sampled_from(["here", "other", "huge"]), st.integers(-30, 3), TYPES | st.sampled_from(
                      ["prompt", "ting_menu", "wdiscard"]),
                  st.one_of(st.just("-"), st.from_regex(r"[0-9A-Za-z]{1,4}", fullmatch=True),
                            st.sampled_from(["5m", "1z", "7z", "9m", "10x"]))),
        # table buttons and malformed ids
        st.builds(lambda c, op: ("table", c, op, None, None), st.sampled_from(["here", "other"]),
                  st.from_regex(r"[a-z_]{1,8}", fullmatch=True) | st.sampled_from(
                      ["join", "addai", "start", "leave", "next", "hand"])),
        # action select menus (their value says the action): "mjs:<channel>:<hand>:<seq>"
        st.builds(lambda c, dseq, tile: ("select", c, dseq, "discard", tile), st.sampled_from(["here", "other"]),
                  st.integers(-30, 3), st.one_of(st.just("-"), st.from_regex(r"[0-9A-Za-z]{1,4}", fullmatch=True))),
        # any id with the bot's prefix (every component the bot draws has it; an id without
        # it is no component of this bot's, and discord.py's catch-all must not claim it)
        st.builds(lambda s: ("raw", s, None, None, None), st.from_regex(r"mj[ts]?:[0-9a-z:\-]{0,30}", fullmatch=True)
                  | st.text(min_size=0, max_size=40).map(lambda s: "mj" + s)),
    )

    def custom_id(spec) -> str:
        kind, a, b, c, d = spec
        pending = w.table.hand.pending_seats()
        seq = w.table.decision(pending[0]) if pending else 0  # the current decision's number, offset by b
        chan = {"here": ch, "other": w.spare, "huge": 2**64 + 5}
        if kind == "table":
            return f"mjt:{chan[a]}:{b}"
        if kind == "raw":
            return a
        hid = w.table.hand_id
        if kind == "select":
            return f"mjs:{chan[a]}:{hid}:d{max(0, seq + b)}"
        return f"mj:{chan[a]}:{hid}:d{max(0, seq + b)}:{c}:{d}"

    @FUZZ(300)
    @given(spec=ids, who=st.sampled_from(["turn", "other", "stranger"]), dm=st.booleans())
    def run(spec, who, dm):
        t = w.table
        turn = t.hand.pending_seats()[0]
        user = {"turn": w.users()[turn], "other": w.users()[1 - turn], "stranger": w.stranger}[who]
        cid = custom_id(spec)
        # Discord sends a click only for a component of the message, with that component's
        # type: ids of the select template arrive from a select menu, others from a button
        select = cid.startswith("mjs:")
        if len(cid) > 100:
            return
        seat = t.seat_of(user.id)
        kind, where, dseq, act, tile = spec
        if kind in ("action", "select") and where == "here" and seat is not None and (dseq == 0 or select):
            try:
                k = None if tile == "-" else parse_kind(tile)
            except TileParseError:
                k = -1
            act = "discard" if act == "wdiscard" else act
            if act in ("prompt", "ting_menu") or (k != -1 and _accepted(t, seat, act, k)):
                return  # the real button of a legal move (or a menu): not bad input
        if kind == "table" and where == "here" and dseq == "leave" and seat is not None:
            return  # leaving puts the seat on auto-play: a legal request
        before = w.snapshot()
        _count("discord buttons")
        msg = w.fd.plant_message([cid], user=user if dm else None, channel_id=None if dm else ch,
                                 select_values=[f"discard:{tile or '-'}", "pass:-"] if select else None)
        if select:
            r = w.run(w.fd.select(user, msg, cid, [f"discard:{tile or '-'}"]))
        else:
            r = w.run(w.fd.click(user, msg, cid))
        assert r.response_type is not None, "every click is answered"
        if r.response_type in (4, 5):
            assert r.ephemeral and r.text
        assert w.snapshot() == before

    run()
    _report("discord buttons")
    # hand-checked: a button of this table from an earlier turn is refused as stale
    t = w.table
    seat = t.hand.pending_seats()[0]
    user = w.users()[seat]
    old = f"mj:{ch}:{t.hand_id}:d{t.decision(seat) - 1}:pass:-"  # the seat's decision before this one
    msg = w.fd.plant_message([old], user=user)
    r = w.run(w.fd.click(user, msg, old))
    assert r.ephemeral and "earlier turn" in r.text


def test_harness_refuses_to_plant_a_message_discord_would_refuse(world):
    with pytest.raises(HarnessError):
        world.fd.plant_message(["x" * 101], user=world.alice)
