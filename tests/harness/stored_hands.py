"""Finished hands stored as the table service stores them — a hand dealt from its seed, dealer
and context (a stacked wall in ``context["stacked"]`` too), its action log applied, its result
and settlements written — for the tests that read stored hands back (``/mj rescore``)."""

from __future__ import annotations

from engine.actions import Action
from engine.variants import find_variant
from service.claims import claiming_seats
from service.hands import settlement_records
from store import Store

#: 老三番's worked example as a stacked deal (``docs/rules/laosanfan.md``; ``tests/games/laosanfan/
#: test_laosanfan.py``'s ``worked_hand``): seat 0, the dealer, pungs 5m and kongs 9m from seat 1,
#: then draws 2s — 胡 26, no fan, self-drawn; dealt as the table's second hand (``hand_no`` 1: the
#: opening restriction, on by default, is over).  ``lines`` are the moves, claim windows nobody
#: answers left out (:func:`full_log` adds their passes).
LAOSANFAN_WORKED = {
    "hands": ["999m55m13s66m888m1z2z", "59m12345679p456s", "123s999s111p258p3z", "2345678s369p44z6z"],
    "draws": "1z2z5z5z5z2s", "back": "7z",
    "lines": ["0 discard 1z", "1 discard 5m", "0 pung", "0 discard 2z", "1 discard 9m", "0 kong",
              "0 discard 7z", "1 discard 5z", "2 discard 5z", "3 discard 5z", "0 hu"]}


def stacked_context(spec: dict, hand_no: int = 1) -> dict:
    """The context of a stacked deal (``spec``: ``hands`` per seat, ``draws``, ``back``)."""
    from engine.tiles import parse_kinds

    return {"stacked": {"hands": [parse_kinds(h) for h in spec["hands"]], "draws": parse_kinds(spec["draws"]),
                        "back": parse_kinds(spec["back"])}, "hand_no": hand_no}


def full_log(variant: str, spec: dict, options: dict, seed: int = 3, n_seats: int = 4) -> list[str]:
    """``spec["lines"]`` of a stacked deal (dealer 0) with the passes of the claim windows
    none of them answers, as a stored log holds them."""
    info = find_variant(variant)
    hand = info.new_hand(info.resolve_options(options), seed, 0, n_seats, stacked_context(spec))
    out = []
    for line in spec["lines"]:
        a = Action.parse(line)
        while hand.phase == "claim" and a.seat not in hand.pending_seats():
            p = Action(hand.pending_seats()[0], "pass")
            hand.apply(p)
            out.append(str(p))
        hand.apply(a)
        out.append(line)
    return out


async def playing_table(store: Store, guild_id: int, channel_id: int, variant: str, options: dict | None = None) -> int:
    """A playing table of ``variant`` on ``guild_id`` (``options``: the table's, resolved)."""
    table_id = await store.create_table(guild_id=guild_id, channel_id=channel_id, creator_id=1, variant=variant,
                                        options=find_variant(variant).resolve_options(options or {}), seed=channel_id)
    await store.update_table(table_id, status="playing")
    return table_id


def played(variant: str, options: dict, seed: int, dealer: int, n_seats: int, context: dict, actions: list[str]):
    """The hand dealt from ``(options, seed, dealer, context)`` with ``actions`` applied (each
    must be legal); a claim window none of ``actions`` answers is not passed for it."""
    hand = find_variant(variant).new_hand(options, seed, dealer, n_seats, dict(context))
    for line in actions:
        hand.apply(Action.parse(line))
    return hand


async def store_hand(store: Store, table_id: int, hand_no: int, variant: str, options: dict, *, seed: int,
                     dealer: int, context: dict, actions: list[str], users: list,
                     names: list[str] | None = None) -> tuple[int, dict]:
    """Deal, play ``actions`` to the end of the hand and store it finished (result, settlements,
    log) on ``table_id``: ``(hand id, result)``.  ``users``: each seat's user id, ``None`` for an
    AI seat, named ``names`` (default ``P<id>`` / ``AI <seat>``).  ``options``: given ones,
    resolved here."""
    options = find_variant(variant).resolve_options(options)
    hand = played(variant, options, seed, dealer, len(users), context, actions)
    assert hand.is_over(), "the actions do not end the hand"
    names = names or [f"P{u}" if u else f"AI {i}" for i, u in enumerate(users)]
    hand_id = await store.start_hand(
        table_id=table_id, hand_no=hand_no, seed=seed, variant=variant, options=options, dealer=dealer,
        seats=[{"seat": i, "user_id": u, "name": names[i], "is_ai": u is None} for i, u in enumerate(users)],
        context=dict(context))
    result = dict(hand.result, seed=seed, claimed_by=sorted(claiming_seats(hand)))
    await store.finish_hand(hand_id, result=result,
                            settlements=settlement_records(result, [(u, names[i], u is None) for i, u in enumerate(users)]),
                            actions=(0, list(actions)))
    return hand_id, result


def ai_log(variant: str, options: dict, seed: int, n_seats: int, level: str = "strong",
           context: dict | None = None) -> list[str]:
    """The action log of a hand dealt from ``seed`` (dealer 0) and played to its end by the
    game's AI at ``level`` for every seat."""
    info = find_variant(variant)
    hand = info.new_hand(info.resolve_options(options), seed, 0, n_seats, dict(context or {}))
    lines: list[str] = []
    while not hand.is_over():
        seat = hand.pending_seats()[0]
        action = info.ai_move(hand, seat, level)
        hand.apply(action)
        lines.append(str(action))
    return lines
