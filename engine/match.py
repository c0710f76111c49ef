"""A match: the consecutive hands played at one table.

Keeps what carries from hand to hand — hand number, dealer, the dealer's count of
kept hands (连庄), cumulative points — as a JSON-ready ``state`` dict, so the
table service can store it and rebuild the match after a restart.

Dealer rules (``two_player.md`` §Set-up, and each variant's rule file): the first
dealer is drawn at random (from the table seed) — or is the table's creator (seat 0) where
the variant declares ``first_dealer="creator"`` (老五对); the winner deals next and on an
exhaustive draw the dealer deals again, unless the variant's result names ``next_dealer``.  When the seated players
change between hands (two_player.md), :meth:`Match.redraw_dealer` draws the dealer again.
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .protocol import Hand
from .rng import dealer_draw_seed, hand_seed, make_rng
from .variant import VariantInfo
from .variants import find_variant


class Match:
    """Hands of one variant at one table of ``n_seats`` seats.

    :param variant: a variant id or :class:`VariantInfo`.
    :param options: resolved options (see ``VariantInfo.resolve_options``).
    :param table_seed: the table's seed; hand *k* is seeded ``hand_seed(table_seed, k)``.
    :param state: a stored ``state`` dict to resume from.
    """

    def __init__(self, variant: str | VariantInfo, options: dict, table_seed: int, n_seats: int,
                 state: dict | None = None):
        self.info = variant if isinstance(variant, VariantInfo) else find_variant(variant)
        self.options = options
        self.table_seed = table_seed
        self.n = n_seats
        first = 0 if self.info.first_dealer == "creator" else \
            make_rng(hand_seed(table_seed, -1)).randrange(n_seats)
        #: the match state: ``hand_no``, ``dealer``, ``dealer_streak``, ``scores`` and what the
        #: game and the table keep with them (JSON values)
        self.state: dict[str, Any] = dict(state) if state else {
            "hand_no": 0, "dealer": first, "dealer_streak": 0, "scores": [0] * n_seats,
        }

    @property
    def hand_no(self) -> int:
        return self.state["hand_no"]

    def hand_seed(self) -> int:
        return hand_seed(self.table_seed, self.state["hand_no"])

    def redraw_dealer(self) -> int:
        """The seated players changed since the last hand: draw the next dealer at random again
        (two_player.md §Set-up: 「玩家发生变换，则重新由系统随机定庄」) from the table seed and the
        hand number, so the same table draws the same; the match's count of kept hands
        restarts.  Returns the new dealer."""
        rng = make_rng(dealer_draw_seed(self.table_seed, self.state["hand_no"]))
        self.state["dealer"] = rng.randrange(self.n)
        self.state["dealer_streak"] = 0
        return self.state["dealer"]

    def hand_context(self, extra: dict | None = None) -> dict:
        """The context the next hand is dealt with: the match state without the scores (nor
        the table's per-player totals),
        plus ``extra`` (facts the table adds at the deal, e.g. a stacked wall in tests or the
        dealer's stored 连庄 count)."""
        context = {k: v for k, v in self.state.items() if k not in ("scores", "player_totals")}
        context.update(extra or {})
        return context

    def new_hand(self, extra: dict | None = None, *, context: dict | None = None, seed: int | None = None) -> Hand:
        """The hand numbered ``state["hand_no"]``, freshly dealt.

        :param extra: added to :meth:`hand_context`.
        :param context: the exact context to deal with (a stored hand's ``context``, so that
            a replay after a restart rebuilds exactly the hand that was dealt).
        :param seed: the hand's own seed (a stored hand of an earlier number); by default
            ``hand_seed(table seed, state["hand_no"])``."""
        ctx: dict[str, Any] = dict(context) if context is not None else self.hand_context(extra)
        dealer: int = ctx.get("dealer", self.state["dealer"])
        return self.info.new_hand(self.options, self.hand_seed() if seed is None else seed, dealer, self.n, ctx)

    def replay(self, actions: list[str], context: dict | None = None, seed: int | None = None) -> Hand:
        """Rebuild a hand from its action log (text lines), dealt with ``context`` and ``seed``
        when given (see :meth:`new_hand`); raises ``IllegalAction`` if a stored line no longer
        applies."""
        hand = self.new_hand(context=context, seed=seed)
        for line in actions:
            hand.apply(Action.parse(line))
        return hand

    def finish(self, result: dict) -> dict:
        """Record a finished hand: points, next dealer, 连庄 count, next hand number.

        By default the winner deals next and an exhaustive draw keeps the dealer; a variant
        with other rules puts ``next_dealer`` in its result, and any match-level facts it
        carries from hand to hand in ``match_updates`` (both optional)."""
        self.state = self.finished_state(result)
        return self.state

    def finished_state(self, result: dict) -> dict:
        """The state after a finished hand with ``result`` (see :meth:`finish`), as a new
        dict: the current state is left as it is, so a table can store the new state first
        and adopt it only once the store accepted it."""
        st = dict(self.state)
        st["scores"] = [a + b for a, b in zip(st["scores"], result["points"])]
        winner = result.get("winner")
        nxt = result.get("next_dealer")
        if nxt is None:
            nxt = st["dealer"] if winner is None else winner
        if nxt == st["dealer"]:
            st["dealer_streak"] += 1
        else:
            st["dealer"] = nxt
            st["dealer_streak"] = 0
        st.update(result.get("match_updates") or {})
        st["hand_no"] += 1
        return st
