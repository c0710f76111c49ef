"""A stored history of settled hands for the rating tests: hands settled through the store as
the table service settles them (``Store.finish_hand`` with ``rate=``), so they are rated live."""

from __future__ import annotations

from dataclasses import dataclass

from service import rates, ratings
from service.claims import claiming_seats
from service.hands import settlement_records
from store import SettlementRecord, Store


async def new_rated_table(store: Store, guild_id: int, channel_id: int, variant: str, match_hands: int = 0,
                          creator: int = 1) -> int:
    """A playing table of ``variant`` (``match_hands``: 0 open-ended) on ``guild_id``."""
    table_id = await store.create_table(guild_id=guild_id, channel_id=channel_id, creator_id=creator,
                                        variant=variant, options={"match_hands": match_hands}, seed=channel_id)
    await store.update_table(table_id, status="playing")
    return table_id


async def settled_hand(store: Store, table_id: int, hand_no: int, seats: list[tuple], variant: str,
                       match_hands: int = 0, end: bool = False, fan: int | None = None) -> int:
    """One settled hand: ``seats`` ``(user_id or None for an AI seat, points)``; the winner
    (most points) gets ``fan``; rated live as the table service rates."""
    hand_id = await store.start_hand(
        table_id=table_id, hand_no=hand_no, seed=hand_no, variant=variant, options={}, dealer=0,
        seats=[{"seat": i, "user_id": u, "name": f"P{u}" if u else f"AI {i}"} for i, (u, _) in enumerate(seats)])
    top = max(p for _, p in seats)
    lines = [SettlementRecord(seat=i, user_id=u, name=f"P{u}" if u else f"AI {i}", points=p, is_ai=u is None,
                              is_winner=p == top and p > 0, fan=fan if p == top and p > 0 else None)
             for i, (u, p) in enumerate(seats)]
    result = {"points": [p for _, p in seats], "claimed_by": []}
    await store.finish_hand(hand_id, result=result, settlements=lines, actions=(0, ["deal"]),
                            rate=ratings.for_table(match_hands), tallies=rates.hand_tallies(result, lines, frozenset()),
                            end_match=match_hands if end else None)
    return hand_id


async def played_hand(store: Store, table_id: int, hand_no: int, users: list, variant: str, seed: int,
                      match_hands: int = 0, end: bool = False) -> dict:
    """A hand of ``variant`` dealt from ``seed`` and played to its end by the game's AI for
    every seat (``users``: each seat's user id, ``None`` for an AI seat), stored with its action
    log and settled as the table service settles it (rated live).  Returns its result."""
    played = play_by_ai(variant, len(users), seed, match_hands)
    await store_played(store, table_id, hand_no, users, played, end=end)
    return played.result


@dataclass(frozen=True)
class Played:
    """A hand played to its end by the AI: its game, options, seed, action log, result, the
    seats that claimed, and its dealer."""

    variant: str
    options: dict
    seed: int
    lines: tuple[str, ...]
    result: dict
    claimed: frozenset[int]
    match_hands: int
    dealer: int = 0


def play_by_ai(variant: str, players: int, seed: int, match_hands: int = 0, dealer: int = 0) -> Played:
    """A hand of ``variant`` for ``players`` seats dealt from ``seed`` (``dealer`` deals), every
    seat played by the game's AI."""
    from engine.variants import find_variant

    info = find_variant(variant)
    options = info.resolve_options({"match_hands": match_hands})
    hand = info.new_hand(options, seed, dealer, players)
    lines: list[str] = []
    while not hand.is_over():
        for s in list(hand.pending_seats()):
            if not hand.is_over() and s in hand.pending_seats():
                action = hand.ai_action(s)
                hand.apply(action)
                lines.append(str(action))
    assert hand.result is not None
    return Played(variant, options, seed, tuple(lines), dict(hand.result), frozenset(claiming_seats(hand)),
                  match_hands, dealer)


async def store_played(store: Store, table_id: int, hand_no: int, users: list, played: Played,
                       end: bool = False) -> int:
    """Store a :class:`Played` hand at a table (``users`` its seats' user ids, ``None`` for an
    AI seat) with its log, and settle it as the table service settles it (rated and tallied
    live).  Returns the hand id."""
    hand_id = await store.start_hand(
        table_id=table_id, hand_no=hand_no, seed=played.seed, variant=played.variant, options=played.options,
        dealer=played.dealer, seats=[{"seat": i, "user_id": u, "name": f"P{u}" if u else f"AI {i}"} for i, u in enumerate(users)])
    settlements = settlement_records(played.result, [(u, f"P{u}" if u else f"AI {i}", u is None)
                                                     for i, u in enumerate(users)])
    # the claims stored with the result, as the table service stores them
    stored = dict(played.result, seed=played.seed, claimed_by=sorted(played.claimed))
    await store.finish_hand(hand_id, result=stored, settlements=settlements, actions=(0, played.lines),
                            rate=ratings.for_table(played.match_hands),
                            tallies=rates.hand_tallies(stored, settlements, played.claimed),
                            end_match=played.match_hands if end else None)
    return hand_id
