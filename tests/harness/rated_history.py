"""A stored history of settled hands for the rating tests: hands settled through the store as
the table service settles them (``Store.finish_hand`` with ``rate=``), so they are rated live."""

from __future__ import annotations

from service import ratings
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
    await store.finish_hand(hand_id, result={"points": [p for _, p in seats]}, settlements=lines,
                            actions=(0, ["deal"]), rate=ratings.for_table(match_hands),
                            end_match=match_hands if end else None)
    return hand_id


async def played_hand(store: Store, table_id: int, hand_no: int, users: list, variant: str, seed: int,
                      match_hands: int = 0, end: bool = False) -> dict:
    """A hand of ``variant`` dealt from ``seed`` and played to its end by the game's AI for
    every seat (``users``: each seat's user id, ``None`` for an AI seat), stored with its action
    log and settled as the table service settles it (rated live).  Returns its result."""
    from engine.variants import find_variant

    info = find_variant(variant)
    options = info.resolve_options({"match_hands": match_hands})
    hand = info.new_hand(options, seed, 0, len(users))
    lines: list[str] = []
    while not hand.is_over():
        for s in list(hand.pending_seats()):
            if not hand.is_over() and s in hand.pending_seats():
                action = hand.ai_action(s)
                hand.apply(action)
                lines.append(str(action))
    result = hand.result
    hand_id = await store.start_hand(
        table_id=table_id, hand_no=hand_no, seed=seed, variant=variant, options=options, dealer=0,
        seats=[{"seat": i, "user_id": u, "name": f"P{u}" if u else f"AI {i}"} for i, u in enumerate(users)])
    settlements = settlement_records(result, [(u, f"P{u}" if u else f"AI {i}", u is None) for i, u in enumerate(users)])
    claimed = sorted(claiming_seats(hand))  # stored with the result, as the table service stores it
    await store.finish_hand(hand_id, result=dict(result, seed=seed, claimed_by=claimed), settlements=settlements,
                            actions=(0, lines), rate=ratings.for_table(match_hands),
                            end_match=match_hands if end else None)
    return result
