"""Helpers for the Discord-level tests: build the real bot on a test database, and play a
seat by pressing the buttons the bot sent to that player (choosing like the AI)."""

from __future__ import annotations

from engine import ai
from engine.actions import Action
from engine.match import Match
from engine.tiles import kind_str

try:
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.fakediscord import FakeDiscord

from bot import make_bot
from service.clock import ManualClock


def find_seed(predicate, variant: str = "two_player", n_seats: int = 2, limit: int = 500) -> int:
    """The first table seed whose first hand, played AI against AI, satisfies ``predicate(hand,
    log)``; lets a test pick a game with, say, a claim and a win, without stacking the wall."""
    from engine.variants import find_variant

    options = find_variant(variant).resolve_options({})
    for seed in range(1, limit):
        m = Match(variant, options, seed, n_seats)
        hand = m.new_hand()
        log = []
        while not hand.is_over():
            s = hand.pending_seats()[0]
            a = ai.choose_action(hand, s)
            hand.apply(a)
            log.append(a)
        if predicate(hand, log):
            return seed
    raise AssertionError("no seed found")


def custom_id(channel_id: int, seq: int, action: Action) -> str:
    tile = kind_str(action.kind) if action.kind is not None else "-"
    return f"mj:{channel_id}:{seq}:{action.type}:{tile}"


def prompt_with(fd: FakeDiscord, user, cid: str):
    """The newest DM or ephemeral message of ``user`` that carries button ``cid``."""
    msgs = fd.dms_to(user) + fd.ephemeral_replies_to(user)
    for m in sorted(msgs, key=lambda m: m.id, reverse=True):
        if not m.deleted and cid in m.custom_ids:
            return m
    return None


async def press_for(fd: FakeDiscord, bot, user, channel_id: int, action: Action):
    """Press the button that makes ``action`` (opening the 听 menu first when needed)."""
    table = bot.service.table_in(channel_id)
    seq = table.hand.seq
    if action.type == "ting" and action.kind is not None:
        menu = f"mj:{channel_id}:{seq}:ting_menu:-"
        msg = prompt_with(fd, user, menu)
        assert msg is not None, f"no 听 menu button for {user.name}"
        await fd.click(user, msg, menu)
    cid = custom_id(channel_id, seq, action)
    msg = prompt_with(fd, user, cid)
    if msg is None:  # several choices of one kind come as a select menu
        sid = f"mjs:{channel_id}:{seq}"
        value = f"{action.type}:{kind_str(action.kind) if action.kind is not None else '-'}"
        msg = prompt_with(fd, user, sid)
        assert msg is not None, f"no button {cid} and no menu {sid} for {user.name}"
        assert value in [o["value"] for o in msg.component(sid)["options"]], (value, sid)
        return await fd.select(user, msg, sid, [value])
    return await fd.click(user, msg, cid)


def new_bot(db_url: str, clock: ManualClock):
    return make_bot(db_url, clock=clock, timer_interval=0)
