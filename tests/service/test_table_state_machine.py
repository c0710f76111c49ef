"""The whole life of a table, in any order: a stateful property test of the table service.

Hypothesis drives one channel through create / join / leave / add-ai / start / act (legal
and illegal) / timeout / next hand / take over / end / restart, for all six games, and after
every step checks:

* the points of the match sum to zero;
* every stored hand is settled at most once (one settlement row per seat, or none);
* a new ``TableService`` loaded from the store has the same seats, scores, hand number,
  dealer, 连庄 count and action log as the one in memory (what a restart would see is what
  the players saw).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import func, select

from engine.actions import Action
from engine.errors import IllegalAction
from engine.variants import all_variants
from service.clock import ManualClock
from store import Store
from store.base import _H, _P
from service.tables import ServiceError, TableService

GAMES = [v.id for v in all_variants()]
USERS = [1, 2, 3, 4]
CH, GUILD = 77, 5
SEEN: set = set()  #: (game, hands finished, a hand running) states the runs went through


class TableLife(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.dir = tempfile.TemporaryDirectory()
        self.url = f"sqlite:///{Path(self.dir.name) / 'life.db'}"
        self.clock = ManualClock()
        self.store = Store(self.url)
        self.run(self.store.init())
        self.seed = 0
        self.service = self._service()
        self.steps = 0

    def _service(self) -> TableService:
        self.seed += 1
        seed = self.seed
        return TableService(self.store, self.clock, seed_source=lambda: seed)

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    def teardown(self):
        try:
            self.run(self.store.close())
        finally:
            self.loop.close()
            self.dir.cleanup()

    # ------------------------------------------------------------------ helpers
    @property
    def table(self):
        t = self.service.tables.get(CH)
        return t if t is not None and t.status != "closed" else None

    def attempt(self, coro) -> None:
        """Requests may be refused (ServiceError / IllegalAction); anything else is a fault."""
        try:
            self.run(coro)
        except (ServiceError, IllegalAction):
            pass

    # ------------------------------------------------------------------ rules
    GAME = "two_player"  #: the game every run starts with (one test per game)

    @initialize(humans=st.integers(1, 4), data=st.data())
    def open_and_start(self, humans, data):
        """A table of ``GAME`` with some humans and AI seats, started (the rules below then
        leave, end, open other tables …)."""
        from engine.variants import find_variant

        info = find_variant(self.GAME)
        n = data.draw(st.integers(info.min_players, info.max_players))
        humans = min(humans, n)
        self.run(self.service.create_table(guild_id=GUILD, channel_id=CH, user_id=USERS[0], name="u1",
                                           variant=self.GAME))
        for u in USERS[1:humans]:
            self.run(self.service.join(CH, u, f"u{u}"))
        for _ in range(n - humans):
            self.run(self.service.add_ai(CH, USERS[0], "normal"))
        self.run(self.service.start(CH, USERS[0]))

    @rule(user=st.sampled_from(USERS), game=st.sampled_from(GAMES))
    def create(self, user, game):
        self.attempt(self.service.create_table(guild_id=GUILD, channel_id=CH, user_id=user, name=f"u{user}",
                                               variant=game))

    @precondition(lambda self: self.table is not None)
    @rule(user=st.sampled_from(USERS))
    def join(self, user):
        self.attempt(self.service.join(CH, user, f"u{user}"))

    @precondition(lambda self: self.table is not None)
    @rule(user=st.sampled_from(USERS))
    def leave(self, user):
        self.attempt(self.service.leave(CH, user))

    @precondition(lambda self: self.table is not None)
    @rule(user=st.sampled_from(USERS))
    def add_ai(self, user):
        self.attempt(self.service.add_ai(CH, user, "normal"))

    @precondition(lambda self: self.table is not None)
    @rule(user=st.sampled_from(USERS))
    def start(self, user):
        self.attempt(self.service.start(CH, user))

    @precondition(lambda self: self.table is not None and self.table.hand is not None
                  and not self.table.hand.is_over())
    @rule(data=st.data())
    def act(self, data):
        t = self.table
        humans = [s for s in t.hand.pending_seats() if not t.seats[s].is_ai]
        if not humans:
            return
        seat = data.draw(st.sampled_from(humans))
        legal = t.hand.legal_actions(seat)
        a = data.draw(st.sampled_from(legal))
        self.attempt(self.service.act(CH, t.seats[seat].user_id, a.type, a.kind,
                                      seq=data.draw(st.sampled_from([None, t.hand.seq])),
                                      hand_id=data.draw(st.sampled_from([None, t.hand_id]))))

    @precondition(lambda self: self.table is not None and self.table.hand is not None)
    @rule(user=st.sampled_from(USERS), typ=st.sampled_from(["discard", "pung", "hu", "pass", "chow", "ting"]),
          kind=st.one_of(st.none(), st.integers(0, 40)), stale=st.booleans())
    def act_anything(self, user, typ, kind, stale):
        t = self.table
        seq = t.hand.seq - 1 if stale else None
        self.attempt(self.service.act(CH, user, typ, kind, seq=seq))

    @precondition(lambda self: self.table is not None)
    @rule(seconds=st.sampled_from([1, 16, 31, 100]))
    def timeout(self, seconds):
        self.clock.advance(seconds)
        self.run(self.service.tick())

    @precondition(lambda self: self.table is not None)
    @rule(user=st.sampled_from(USERS), after=st.booleans())
    def next_hand(self, user, after):
        t = self.table
        self.attempt(self.service.next_hand(CH, user, after_hand=t.hand_id if after else None))

    @precondition(lambda self: self.table is not None)
    @rule(user=st.sampled_from(USERS))
    def take_over(self, user):
        self.attempt(self.service.take_over(CH, user))

    @precondition(lambda self: self.table is not None)
    @rule(user=st.sampled_from(USERS), admin=st.booleans())
    def end(self, user, admin):
        self.attempt(self.service.end(CH, user, is_admin=admin))

    @rule()
    def restart(self):
        self.service = self._service()
        self.run(self.service.load())

    # ------------------------------------------------------------------ invariants
    @invariant()
    def points_sum_to_zero(self):
        """Every player's total at the table (per player: who left keeps theirs, a newcomer
        starts at 0) sums to zero, and each seat shows its occupant's total."""
        t = self.table
        if t is not None and t.match is not None:
            from service.seats import player_key, player_totals

            totals = player_totals(t)
            assert sum(totals.values()) == 0, totals
            assert t.scores() == [totals[player_key(s)] for s in t.seats]
            SEEN.add((t.variant.id, t.match.hand_no, t.hand is not None and not t.hand.is_over()))

    @invariant()
    def every_hand_settled_at_most_once(self):
        async def counts():
            async with self.store.engine.connect() as conn:
                rows = await conn.execute(select(_P.c.hand_id, func.count(), func.count(func.distinct(_P.c.seat)))
                                          .group_by(_P.c.hand_id))
                per_hand = {r[0]: (r[1], r[2]) for r in rows}
                seats = {r[0]: len(r[1] or []) for r in await conn.execute(select(_H.c.id, _H.c.seats))}
            return per_hand, seats

        per_hand, seats = self.run(counts())
        for hid, (n, distinct) in per_hand.items():
            assert n == distinct == seats[hid], (hid, n, distinct, seats[hid])

    @invariant()
    def a_restart_sees_what_memory_has(self):
        t = self.table
        fresh = TableService(self.store, self.clock)
        self.run(fresh.load())
        f = fresh.tables.get(CH)
        if t is None:
            assert f is None
            return
        assert f is not None
        assert [(s.user_id, s.name, s.is_ai, s.auto) for s in f.seats] == \
            [(s.user_id, s.name, s.is_ai, s.auto) for s in t.seats]
        assert f.status == t.status
        if t.match is None:
            return
        assert f.scores() == t.scores()
        for key in ("hand_no", "dealer", "dealer_streak"):
            assert f.match.state.get(key) == t.match.state.get(key), key
        if t.hand is not None and not t.hand.is_over():
            assert f.hand_id == t.hand_id and f.actions == t.actions
            assert f.hand.seq == t.hand.seq and f.hand.dealer == t.hand.dealer


@pytest.mark.lengthy
@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_table_life_in_any_order(game):
    machine = type(f"TableLife_{game}", (TableLife,), {"GAME": game})
    machine.TestCase.settings = settings(max_examples=12, stateful_step_count=50, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    SEEN.clear()
    machine.TestCase().runTest()
    running = {n for g, n, r in SEEN if r and g == game}
    finished = max((n for g, n, _ in SEEN if g == game), default=0)
    print(f"\n{game}: hands running in {len(running)} hand numbers, up to {finished} hands finished")
    assert running, "the runs never reached a running hand"
