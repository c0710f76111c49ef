"""The ``strong`` AI of 财神麻将: the normal AI, playing for the self-drawn win.

Rules: ``rules/caishen.md`` §Scoring.  A self-drawn win is paid by all three others at twice
the multiplier; a win on a discard by the discarder alone (the default ``discard_pays``).  A
plain win is therefore worth 1 on a discard and 6 self-drawn (more with the dealer's double),
and a seat that waits with many live tiles does better to let a plain discard go by and draw
its win.  On top of the normal AI (:mod:`engine.variants.caishen.ai`) this level passes a win
on a discard when the win it expects to draw is worth more (:func:`pass_value`): the chance of
drawing one of its live winning tiles (a 财神 among them) before the hand ends otherwise, times
what the self-drawn win pays, less what the hand costs when another seat ends it, against what
the discard pays now.  A win on a later discard stays open (the rule file has no 振听).  Its
win rate falls (21% of the hands against normal's 25%) and its points rise (+0.14 a hand
against normal seats, ``bench/bench_ai_strength.py``).

Everything else plays as normal: it wins at once on its own draw (胡, else 财神会), keeps its
财神, claims what lowers its shanten.  Pure and deterministic.
"""

from __future__ import annotations

from ... import wilds as W
from ...actions import HU, PASS, Action
from ...mahjong.phases import CLAIM_PHASE
from ...tiles import kind_of
from . import ai
from .hand import settlement

#: the chance per round that the hand ends otherwise than by this seat's draw (another seat's
#: win, or this seat's own win on a later discard); fitted on all-AI tables: 0.3 and 0.55 did
#: worse than 0.4 (+0.10 and +0.08 points a hand against normal, 1,000 walls)
END_RATE = 0.4
#: what a seat loses on average, per base stake, when another seat ends the hand: a normal
#: seat's wins at all-AI tables are worth about 3.9 a hand won, a quarter of the hands, so
#: the other three quarters cost it about 1.3 each (twice that for the dealer)
LOSS = 1.3


def live_wins(hand, seat: int, counts: list[int]) -> tuple[int, int]:
    """``(live, unseen)``: the unseen copies (to ``seat``) of the printed kinds that complete
    the 13-tile-form ``counts`` (printed counts; a 财神 completes every ready hand), and all
    the tiles ``seat`` cannot see."""
    c, w = hand.split_counts(counts)
    waits = W.winning_kinds(c, w, len(hand.melds[seat]))
    visible = hand.visible_counts(seat)
    unseen_total = 136 - sum(visible.values())
    if not waits:
        return 0, unseen_total
    live = sum(max(0, 4 - visible[k]) for k in range(34)
               if not hand.is_wild(k) and hand.eff(k) in waits)
    live += max(0, 4 - visible[hand.wild])
    return live, unseen_total


def draw_chance(live: int, unseen: int, draws: int, end_rate: float = END_RATE) -> float:
    """The chance (0..1) of drawing one of ``live`` tiles among ``unseen`` within ``draws`` own
    draws while the hand ends otherwise at ``end_rate`` a round: with ``p = live / unseen`` and
    ``x = (1 - p)(1 - end_rate)``, ``p (1 - x**draws) / (1 - x)``."""
    if live <= 0 or unseen <= 0 or draws <= 0:
        return 0.0
    p = min(1.0, live / unseen)
    x = (1 - p) * (1 - end_rate)
    return p * (1 - x ** draws) / (1 - x)


def pass_value(hand, seat: int) -> tuple[float, float]:
    """``(take, wait)``, in points, for ``seat``'s win on the discard of the claim window
    (``hand`` in its claim phase, the win legal): what the discard win pays now
    (:func:`settlement` of its multiplier), and what letting it go is expected to bring —
    :func:`draw_chance` over ``wall_remaining // 4`` own draws, times the self-drawn payment at
    twice the multiplier (capped at 40), less :data:`LOSS` (twice for the dealer) for the rest."""
    discarder, tile = hand.last_discard
    kind = kind_of(tile)
    win = hand.evaluate_win(seat, kind, False)
    n, dealer = hand.n, hand.dealer
    stake = hand.options.get("base_stake", 1)
    pays = hand.options.get("discard_pays", "discarder")
    take = settlement(win["multiplier"], seat, dealer, n, False, discarder, stake, pays)[seat]
    product = max(1, win["multiplier"])
    self_mult = min(40, product * 2)
    drawn = settlement(self_mult, seat, dealer, n, True, None, stake, pays)[seat]
    live, unseen = live_wins(hand, seat, hand.counts(seat))
    draws = hand.wall_remaining // n
    chance = draw_chance(live, unseen, draws)
    loss = LOSS * stake * (2 if seat == dealer else 1)  # the dealer pays double
    wait = chance * drawn - (1 - chance) * loss
    return take, wait


def choose_action(hand, seat: int) -> Action:
    """The strong AI's choice for ``seat`` of a pending :class:`CaishenHand`: one of
    ``hand.legal_actions(seat)``; raises ``ValueError`` if the seat has no legal action."""
    legal = hand.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    types = {a.type for a in legal}
    if HU in types and hand.phase == CLAIM_PHASE:
        take, wait = pass_value(hand, seat)
        if wait > take:
            return Action(seat, PASS)
        return Action(seat, HU)
    return ai.choose_action(hand, seat)
