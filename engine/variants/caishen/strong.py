"""The ``strong`` AI of 财神麻将: the normal AI, playing for the self-drawn win.

Rules: ``docs/rules/caishen.md`` §Scoring.  A self-drawn win is paid by all three others at twice
the multiplier; a win on a discard by the discarder alone (the default ``discard_pays``).  A
non-dealer's plain win is therefore worth 1 on another non-dealer's discard and 8 self-drawn
(2 + 2 and the dealer's 4), and a seat that waits with many live tiles does better to let a plain discard go by and draw
its win.  On top of the normal AI (:mod:`engine.variants.caishen.ai`) this level passes a win
on a discard when the win it expects to draw is worth more (:func:`pass_value`): the chance of
drawing one of its live winning tiles (a 财神 among them) before the hand ends otherwise, times
what the self-drawn win pays, less what the hand costs when another seat ends it, against what
the discard pays now.  A win on a later discard stays open (no rule bars a win on a tile let go before).  Its
win rate falls and its points rise against normal seats (``bench/bench_ai_strength.py``; the
figures are in the README's Benchmarks).  The self-drawn payment is worked out for each live
kind (:meth:`CaishenHand.evaluate_drawn_win`), so a discard-only 地胡 or a 字清 that only an
honour would complete is not expected of a plain draw.

Its defence (:func:`danger_of`): a win on a discard is paid by the discarder, so among the
discards that leave its lowest shanten it first keeps back the tiles that the seats showing two
melds or more have not let go themselves.

Everything else plays as normal: it wins at once on its own draw (胡, else 财神会), keeps its
财神, claims what lowers its shanten.  Pure and deterministic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from ... import wilds as W
from ...actions import HU, PASS, Action
from ...mahjong.phases import CLAIM_PHASE
from ...tiles import kind_of
from .ai import choose_action as normal_action
from .hand import settlement
from ...protocol import pending_moves

if TYPE_CHECKING:
    from .hand import CaishenHand

#: the chance per round that the hand ends otherwise than by this seat's draw (another seat's
#: win, or this seat's own win on a later discard); fitted on all-AI tables over 1,000 walls:
#: 0.3 and 0.4 score alike against normal, 0.55 less
END_RATE = 0.4
#: what a seat loses on average, per base stake, when another seat ends the hand: a normal
#: seat's wins at all-AI tables are worth about 3.9 a hand won, a quarter of the hands, so
#: the other three quarters cost it about 1.3 each (twice that for the dealer)
LOSS = 1.3
#: melds shown that make another seat a threat to discard into (with 财神 in play, two melds
#: are often a ready hand); 3 changed nothing measurable, 2 lowered the deal-ins from 17.9% to
#: 16.6% of the hands at the same points (1,000 walls)
THREAT = 2


def own_draws(hand: CaishenHand, seat: int) -> int:
    """The draws left to ``seat`` if nobody claims: the wall's ``wall_remaining`` tiles go one
    by one to the seats in turn from the one after the discarder of the claim window's tile."""
    assert hand.last_discard is not None  # a claim window is open
    discarder = hand.last_discard[0]
    first = (seat - discarder - 1) % hand.n  # the draws others make before this seat's first
    left = hand.wall_remaining
    return 0 if left <= first else (left - 1 - first) // hand.n + 1


def draw_chance(live: int, unseen: int, draws: int, before: float = 0.0, end_rate: float = END_RATE) -> float:
    """The chance (0..1) of drawing one of ``live`` tiles among ``unseen`` within ``draws`` own
    draws while the hand ends otherwise at ``end_rate`` a round (``before``: the part of a round
    the others play before the first own draw).  With ``p = live / unseen`` and
    ``x = (1 - p)(1 - end_rate)``: ``(1 - end_rate)**before * p * (1 - x**draws) / (1 - x)``."""
    if live <= 0 or unseen <= 0 or draws <= 0:
        return 0.0
    p = min(1.0, live / unseen)
    x = (1 - p) * (1 - end_rate)
    return (1 - end_rate) ** before * p * (1 - x ** draws) / (1 - x)


def _waits(hand: CaishenHand, seat: int) -> list[int]:
    """:meth:`CaishenHand.waits` for a hand that is not all honours, from one
    :func:`engine.wilds.winning_kinds` (十三幺 waits, which it leaves out, are not counted)."""
    counts = hand.counts(seat)
    if hand._all_honours(seat, counts):
        return hand.waits(seat)  # 字清 wins on any honour, shape or not
    c, w = hand.split_counts(counts)
    eff = set(W.winning_kinds(c, w, len(hand.melds[seat])))
    if not eff:
        return []
    return [k for k in range(34) if hand.is_wild(k) or hand.eff(k) in eff]


def drawn_wins(hand: CaishenHand, seat: int) -> tuple[int, int, float]:
    """``(live, unseen, pay)`` for ``seat``'s 13-tile-form hand: the unseen copies (to ``seat``)
    of the printed kinds whose draw wins (:meth:`CaishenHand.waits`, a 财神 among them), all
    the tiles ``seat`` cannot see, and the points the self-drawn win pays on average over those
    live tiles (each kind's own win: :meth:`CaishenHand.evaluate_drawn_win`, paid by all three,
    :func:`settlement`)."""
    visible = hand.visible_counts(seat)
    unseen = 136 - sum(visible.values())
    stake = hand.options.get("base_stake", 1)
    pays = hand.options.get("discard_pays", "discarder")
    live, total = 0, 0.0
    for k in _waits(hand, seat):
        copies = max(0, 4 - visible[k])
        if not copies:
            continue
        win = hand.evaluate_drawn_win(seat, k)
        if not win.get("ok"):
            continue
        live += copies
        total += copies * settlement(win["multiplier"], seat, hand.dealer, hand.n, True, None, stake, pays)[seat]
    return live, unseen, (total / live if live else 0.0)


def pass_value(hand: CaishenHand, seat: int) -> tuple[float, float]:
    """``(take, wait)``, in points, for ``seat``'s win on the discard of the claim window
    (``hand`` in its claim phase, the win legal): what the discard win pays now
    (:func:`settlement` of its multiplier, 地胡 included), and what letting it go is expected to
    bring — :func:`draw_chance` of a live tile within :func:`own_draws`, times the average
    self-drawn payment of those tiles (:func:`drawn_wins`), less :data:`LOSS` (twice for the
    dealer) for the rest."""
    assert hand.last_discard is not None  # a claim window is open
    discarder, tile = hand.last_discard
    n, dealer = hand.n, hand.dealer
    stake = hand.options.get("base_stake", 1)
    win = hand.evaluate_win(seat, kind_of(tile), False)
    take = settlement(win["multiplier"], seat, dealer, n, False, discarder, stake,
                      hand.options.get("discard_pays", "discarder"))[seat]
    live, unseen, pay = drawn_wins(hand, seat)
    before = ((seat - discarder - 1) % n) / (n - 1)
    chance = draw_chance(live, unseen, own_draws(hand, seat), before)
    loss = LOSS * stake * (2 if seat == dealer else 1)  # the dealer pays double
    return take, chance * pay - (1 - chance) * loss


def danger_of(hand: CaishenHand, seat: int) -> Optional[Callable[[int], int]]:
    """The strong level's defence: ``kind -> int``, for each printed kind the number of the
    other seats showing :data:`THREAT` melds or more that have not discarded that kind
    themselves (lower is safer; a seat's own discards are the tiles it let go), or ``None`` when
    no other seat shows that many melds."""
    threats = [o for o in range(hand.n) if o != seat and len(hand.melds[o]) >= THREAT]
    if not threats:
        return None
    let_go = [{kind_of(t) for t in hand.discards[o]} for o in threats]

    def danger(kind: int) -> int:
        return sum(1 for kinds in let_go if kind not in kinds)

    return danger


def choose_action(hand: CaishenHand, seat: int) -> Action:
    """The strong AI's choice for ``seat`` of a pending :class:`CaishenHand`: one of
    ``hand.legal_actions(seat)``; raises ``ValueError`` if the seat has no legal action."""
    legal, types = pending_moves(hand, seat)
    if HU in types and hand.phase == CLAIM_PHASE:
        take, wait = pass_value(hand, seat)
        if wait > take:
            return Action(seat, PASS)
        return Action(seat, HU)
    return normal_action(hand, seat, danger=danger_of(hand, seat))
