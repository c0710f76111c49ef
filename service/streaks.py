"""连庄 counts that belong to the player (two_player.md §Set-up, §Settlement), for the table
service.

In a game whose :class:`~engine.variants.VariantInfo` says ``streak_per_player`` (二人麻将) the
dealer's count of hands kept in a row is the player's, stored per player, server and game by
:class:`~store.Store` (``player_streak``), not the table's:

* :func:`deal_context`, before a hand is dealt: when a seat holds another user than at the
  table's previous hand, the dealer is drawn again (``Match.redraw_dealer``: seeded, so the
  same table draws the same); then the dealer's stored count is read (an AI seat keeps none:
  0) and handed to the deal as ``context["dealer_streak"]``, which the hand keeps — replays,
  /verify and restarts rebuild the hand from its stored context, whatever is stored later.
* :func:`settled_counts`, when the hand is settled: the count to store for the dealer, kept the
  deal (won, or an exhaustive draw) → count + 1, lost it → 0; nothing for an AI dealer.  The
  table service writes it in the settlement's transaction (``Store.finish_hand(streaks=…)``);
  with two tables at once the later settlement's count is the one kept.

Other games keep the match's own count (``Match.state["dealer_streak"]``) and are left alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from store import Store
    from .table import Table

#: match-state key: the user id of each seat (``None`` for an AI) when the last hand was dealt
SEAT_USERS = "seat_users"


def seat_users(table: "Table") -> list[Optional[int]]:
    """The user id in each seat (``None`` for an AI seat); 托管 does not change it."""
    return [s.user_id for s in table.seats]


#: the service's memory of the stored counts: ``(guild, game, user) -> count``
Counts = dict


async def deal_context(store: "Store", table: "Table", known: Optional[Counts] = None) -> dict:
    """What the next hand of ``table`` is dealt with besides the match state: the dealer's
    stored count as ``dealer_streak`` (``{}`` for a game whose count is the table's).

    Draws the dealer again first when the seated users differ from the previous hand's (the
    match state remembers them; the caller stores the state with the hand).  ``known``: the
    counts this process read or wrote before (a guild's tables all run in one process, so
    what it wrote last is what is stored); a count it does not know is read once."""
    info = table.variant
    if not info.streak_per_player:
        return {}
    match = table.current_match
    users = seat_users(table)
    before = match.state.get(SEAT_USERS)
    if before is not None and list(before) != users:
        match.redraw_dealer()
    match.state[SEAT_USERS] = users
    dealer_user = users[match.state["dealer"]]
    if dealer_user is None:
        return {"dealer_streak": 0}
    key = (table.guild_id, info.id, dealer_user)
    if known is not None and key in known:
        return {"dealer_streak": known[key]}
    kept = await store.get_streak(table.guild_id, info.id, dealer_user)
    if known is not None:
        known[key] = kept
    return {"dealer_streak": kept}


def remember(known: Counts, table: "Table", counts: dict[int, int]) -> None:
    """After a settlement the store accepted: the counts it wrote (:func:`settled_counts`)."""
    for user, kept in counts.items():
        known[(table.guild_id, table.variant.id, user)] = kept


def kept_the_deal(dealer: int, result: dict) -> bool:
    """Does the dealer keep the deal after this result?  The winner deals next and an
    exhaustive draw keeps the dealer, unless the result names ``next_dealer`` (as
    ``Match.finish`` decides)."""
    nxt = result.get("next_dealer")
    if nxt is None:
        winner = result.get("winner")
        nxt = dealer if winner is None else winner
    return nxt == dealer


def settled_counts(table: "Table", result: dict) -> dict[int, int]:
    """``{dealer's user id: count}`` to store with the settlement of ``table``'s hand: the count
    the hand was dealt with + 1 if the dealer kept the deal, else 0.  Empty for a game whose
    count is the table's and for an AI dealer."""
    if not table.variant.streak_per_player:
        return {}
    hand = table.current_hand
    user = table.seats[hand.dealer].user_id
    if user is None:
        return {}
    kept = int(hand.context.get("dealer_streak", 0))
    return {user: kept + 1 if kept_the_deal(hand.dealer, result) else 0}


__all__ = ["SEAT_USERS", "deal_context", "settled_counts", "kept_the_deal", "seat_users", "remember"]
