"""A discard another seat claimed is marked in the discarder's pond as its game says
(``GameFacts.claimed_discards``): dimmed in its place (the mahjong games), or left out of the
pond (字牌, where only a card nobody took is laid out) — so no tile shows more than four times
unmarked; on the table image mid-hand, at the result, and in the replay.

The expected ponds come from the hand's event log, rebuilt from its action log as ``/mj replay``
rebuilds a stored hand: each discard (字牌: also each card shown from the stock) is offered
by its seat until the next draw or offer; an event that takes that tile from that seat (a
claim naming it ``from``, a win on it) marks it taken.  The drawn ponds are read from the
image's record of placed tiles (``Layer.render(record=…)``).
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest
from table_views import _deal, drawn_tiles, games, most_seats, public

from engine.variants import find_variant
from render.common import kind
from service.stored_hand import rebuild

#: tiles drawn face up and unmarked on the seats' bands: what a player counts as live copies
LIVE = {"hand", "drawn", "meld", "flower", "pond"}


def offered(events: list[dict]) -> dict[int, list[list]]:
    """Seat → ``[[kind, taken, open], …]``: the tiles the seat put out, in order (see the
    module docstring); ``open`` for the one still on offer."""
    ponds: dict[int, list[list]] = {}
    open_offer = None
    for e in events:
        t = e["type"]
        if t in ("discard", "show"):
            if open_offer is not None:
                ponds[open_offer[0]][open_offer[1]][2] = False
            ponds.setdefault(e["seat"], []).append([kind(e["tile"]), False, True])
            open_offer = (e["seat"], len(ponds[e["seat"]]) - 1)
        elif t == "draw":
            if open_offer is not None:
                ponds[open_offer[0]][open_offer[1]][2] = False
            open_offer = None
        elif open_offer is not None and "from" in e and e.get("tile") is not None:
            s, i = open_offer
            takes = e["from"] == s or (t == "hu" and e["from"] is None)
            if takes and kind(e["tile"]) == ponds[s][i][0]:
                ponds[s][i][1:] = [True, False]
                open_offer = None
    return ponds


def expected_ponds(game: str, events: list[dict], n: int) -> dict[int, list[tuple[int, bool]]]:
    """Seat → the pond as the image must draw it: ``(kind, dimmed)`` in order.  A game that
    moves a claimed tile lays a tile in the pond only once nobody took it (not while it is
    still on offer)."""
    mode = find_variant(game).facts.claimed_discards
    out = {s: [] for s in range(n)}
    for s, tiles in offered(events).items():
        out[s] = [(k, taken) for k, taken, _ in tiles] if mode == "dimmed" else \
            [(k, False) for k, taken, still in tiles if not taken and not still]
    return out


def drawn_ponds(record, n: int) -> dict[int, list[tuple[int, bool]]]:
    out = {s: [] for s in range(n)}
    for tag, _ in record:
        if tag[0] == "pond":
            out[tag[1]].append((tag[2], tag[3] == "claimed"))
    return out


def live_copies(record) -> Counter:
    """Face-up, unmarked tiles per kind on the seats' bands (the centre's copies of the last
    discard and the wild/宝牌 tiles are labels, not tiles on the table)."""
    return Counter(tag[2] for tag, _ in record
                   if tag[0] in LIVE and tag[2] is not None and not (tag[0] == "pond" and tag[3] == "claimed"))


def played(game: str, n: int, min_claims: int = 2):
    """``(record, hand)``: the first seeded hand the AI plays with at least ``min_claims``
    discards taken by another seat, its action log kept as the store keeps it."""
    info = find_variant(game)
    for seed in range(1, 200):
        hand = _deal(game, n, seed)
        lines: list[str] = []
        while not hand.is_over():
            for s in list(hand.pending_seats()):
                if hand.is_over():
                    break
                if s in hand.pending_seats():
                    a = hand.ai_action(s)
                    hand.apply(a)
                    lines.append(str(a))
        taken = sum(t for tiles in offered([e.to_json() for e in hand.events]).values() for _, t, _ in tiles)
        if taken >= min_claims:
            rec = SimpleNamespace(variant=game, options=info.resolve_options({}), seed=seed, dealer=0,
                                  seats=[{"name": f"P{i}"} for i in range(n)], actions=lines, context={})
            return rec, hand
    raise LookupError(f"no hand of {game} with {min_claims} claims")


def replay_view(record, step: int) -> dict:
    """The view ``/mj replay`` draws at ``step`` (``service.records.Records.replay``)."""
    hand = rebuild(record, step)
    view = dict(hand.view(None, reveal=True))
    view["game"] = find_variant(record.variant).facts
    view["seats"] = [dict(sv, name=record.seats[sv["seat"]]["name"]) for sv in view["seats"]]
    return view


@pytest.mark.parametrize("game", games())
def test_the_ponds_mark_the_claims_of_the_action_log(game):
    n = most_seats(game)
    record, final = played(game, n)
    steps = sorted({*range(0, len(record.actions), max(1, len(record.actions) // 10)), len(record.actions)})
    claims_seen = 0
    for step in steps:
        hand = rebuild(record, step)
        events = [e.to_json() for e in hand.events]
        want = expected_ponds(game, events, n)
        claims_seen = max(claims_seen, sum(t for tiles in offered(events).values() for _, t, _ in tiles))
        for view in (public(hand, n), replay_view(record, step)):
            tiles, _ = drawn_tiles(view)
            assert drawn_ponds(tiles, n) == want, (game, step)
            assert max(live_copies(tiles).values(), default=0) <= 4, (game, step, live_copies(tiles).most_common(2))
    assert claims_seen >= 2
    # the result: the last step is the finished hand, as the table message draws it
    assert rebuild(record, len(record.actions)).is_over() and final.is_over()


@pytest.mark.parametrize("game", games())
def test_a_claimed_tile_is_in_the_claimers_meld(game):
    """The other half of the mark: each claimed discard is drawn in the claimer's meld (the
    mahjong games: lying sideways, tagged ``claimed``; 字牌: in its column of cards)."""
    n = most_seats(game)
    record, hand = played(game, n)
    view = public(hand, n)
    tiles, _ = drawn_tiles(view)
    taken = Counter()
    for e in (e.to_json() for e in hand.events):
        if "from" in e and e["type"] != "hu" and e.get("from") not in (None, e.get("seat")) and e.get("tile"):
            taken[(e["seat"], kind(e["tile"]))] += 1
    assert taken
    if find_variant(game).facts.claimed_discards == "dimmed":
        melds = Counter((tag[1], tag[2]) for tag, _ in tiles if tag[0] == "meld" and tag[3] == "claimed")
        assert taken == melds, (taken, melds)
    else:  # a column of upright cards, the taken one among them
        melds = Counter((tag[1], tag[2]) for tag, _ in tiles if tag[0] == "meld")
        assert all(melds[sk] >= c for sk, c in taken.items()), (taken, melds)
