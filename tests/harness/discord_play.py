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
    from tests.harness.fakediscord import FakeDiscord

from bot import make_bot
from cogs import components
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


def custom_id(channel_id: int, seq: int, action: Action, hand_id: int | None = None) -> str:
    """The id of the button that makes ``action`` at decision ``seq`` (``hand_id``: the stored
    id of the hand; without it, the format before hands were in ids)."""
    tile = kind_str(action.kind) if action.kind is not None else "-"
    if hand_id is None:
        return f"mj:{channel_id}:{seq}:{action.type}:{tile}"  # the format before hands were in ids
    return components.action_id(channel_id, hand_id, seq, action.type, tile)


def decision_prefixes(channel_id: int, hand_id: int, decision) -> tuple[str, str]:
    """The start of the ids of every button and the id of the menu of one decision."""
    return (f"mj:{channel_id}:{hand_id}:d{decision}:", components.select_id(channel_id, hand_id, decision))


def action_id(table, action: Action, menu: str | None = None) -> str:
    """The id of the button that makes ``action`` for its seat's current decision at ``table``
    (the service's table; ``menu``: the id of that decision's button of this name instead,
    e.g. ``"ting_menu"``).  A seat the hand does not wait for has no decision: its id carries
    0, which no decision has."""
    dec = table.decision(action.seat) or 0
    if menu is not None:
        return components.action_id(table.channel_id, table.hand_id, dec, menu)
    return custom_id(table.channel_id, dec, action, table.hand_id)


def prompt_with(fd: FakeDiscord, user, cid: str):
    """The newest DM or ephemeral message of ``user`` that carries button ``cid``."""
    msgs = fd.dms_to(user) + fd.ephemeral_replies_to(user)
    for m in sorted(msgs, key=lambda m: m.id, reverse=True):
        if not m.deleted and cid in m.custom_ids:
            return m
    return None


async def press_for(fd: FakeDiscord, bot, user, channel_id: int, action: Action):
    """Press what the bot offers ``user`` for ``action`` (see :func:`press`); the prompt
    pressed must be one drawn for the current hand and turn."""
    table = bot.service.table_in(channel_id)
    seq = table.decisions.get(table.seat_of(user.id), table.hand.seq)
    prefix, menu = decision_prefixes(channel_id, table.hand_id, seq)
    newest = latest_prompt(fd, user)
    assert newest is not None and any(c.startswith(prefix) or c == menu for c in newest.custom_ids), \
        f"{user.name} has no prompt for hand {table.hand_id} decision {seq}: " \
        f"{getattr(newest, 'custom_ids', None)}"
    return await press(fd, user, action)


def new_bot(db_url: str, clock: ManualClock, *, public_edit_interval: float = 0.0, **kwargs):
    """The real bot on ``db_url`` with the timer task off (tests call ``service.tick()``), the
    table message edited after every change (``public_edit_interval`` 0; Discord's pace, one
    edit a second, is what a bot in production uses), no interaction deferred for time
    (``defer_after`` None: what a test sees does not depend on how fast the machine is; the
    deferral itself is tested with a manual timer, ``tests/discord/test_deferral.py``) and a
    decision's notice sent at once (``notice_delay`` 0; the delay is tested with a manual timer,
    ``tests/discord/test_notice_delay.py``).  No tile emojis unless ``tile_emojis=True`` (a
    test of them awaits ``bot.emoji_task``); ``kwargs``: more of ``make_bot``'s."""
    kwargs.setdefault("tile_emojis", False)
    bot = make_bot(db_url, clock=clock, timer_interval=0, **kwargs)
    bot.public_edit_interval = public_edit_interval
    bot.defer_after = None
    bot.notice_delay = 0
    return bot


# ---------------------------------------------------------------------------------------------
# Playing through what the bot sent, whatever the format of its custom ids: the newest private
# message of a player that offers a component for the action is the one pressed.
# ---------------------------------------------------------------------------------------------

def _is_action_id(cid: str) -> bool:
    return cid.startswith(("mj:", "mjs:"))


def _offers(msg, action_type: str, tile: str):
    """``(kind, custom_id, value)`` of the component of ``msg`` that makes the action, or None:
    a button whose id ends with ``:<type>:<tile>``, or a select offering ``<type>:<tile>``."""
    for comp in msg.walk_components():
        cid = comp.get("custom_id", "")
        if not _is_action_id(cid):
            continue
        if comp.get("type") == 2 and cid.endswith(f":{action_type}:{tile}"):
            return "button", cid, None
        if comp.get("type") == 3:
            for opt in comp.get("options", []):
                if opt.get("value") == f"{action_type}:{tile}":
                    return "select", cid, opt["value"]
    return None


def private_messages(fd: FakeDiscord, user) -> list:
    """The user's live DMs and ephemeral replies, newest first."""
    return sorted(fd.dms_to(user) + fd.ephemeral_replies_to(user), key=lambda m: m.id, reverse=True)


def latest_prompt(fd: FakeDiscord, user):
    """The newest private message of ``user`` that carries action components (or None)."""
    for m in private_messages(fd, user):
        if any(_is_action_id(c) for c in m.custom_ids):
            return m
    return None


async def press(fd: FakeDiscord, user, action: Action, *, check=None, wait: str = "settled"):
    """Make ``action`` by pressing what the bot offers in the newest private message of
    ``user`` that offers it: a button, a select option, the 听 menu first, and the
    confirmation of a wild discard after.  ``AssertionError`` when nothing offers it."""
    tile = kind_str(action.kind) if action.kind is not None else "-"
    if action.type == "ting" and action.kind is not None:
        for m in private_messages(fd, user):
            menu = next((c for c in m.custom_ids if _is_action_id(c) and c.endswith(":ting_menu:-")), None)
            if menu is not None:
                await fd.click(user, m, menu, check=check)
                break
    for m in private_messages(fd, user):
        found = _offers(m, action.type, tile)
        if found is None:
            continue
        kind, cid, value = found
        if kind == "select":
            r = await fd.select(user, m, cid, [value], check=check, wait=wait)
        else:
            r = await fd.click(user, m, cid, check=check, wait=wait)
        if action.type == "discard" and r.message is not None:
            confirm = _offers(r.message, "wdiscard", tile)
            if confirm is not None:  # a wild tile: the bot asks first
                r = await fd.click(user, r.message, confirm[1], check=check, wait=wait)
        return r
    raise AssertionError(f"nothing offers {action} to {user.name}; newest prompt: "
                         f"{getattr(latest_prompt(fd, user), 'custom_ids', None)}")


def table_message(fd: FakeDiscord, channel_id: int):
    """The public table message of a channel (the newest message with table buttons)."""
    for m in sorted(fd.messages_in(channel_id), key=lambda m: m.id, reverse=True):
        if any(c.startswith("mjt:") for c in m.custom_ids):
            return m
    return None


def table_button(fd: FakeDiscord, channel_id: int, op: str):
    """``(message, custom_id)`` of the table message's button ``op`` (``join``, ``next`` …)."""
    msg = table_message(fd, channel_id)
    assert msg is not None, "no table message"
    for cid in msg.custom_ids:
        parts = cid.split(":")
        if cid.startswith("mjt:") and len(parts) >= 3 and parts[2] == op:
            return msg, cid
    raise AssertionError(f"the table message has no {op!r} button: {msg.custom_ids}")


def timeout_policy(hand, seat: int) -> Action:
    """What the rules do for a seat on a timeout (and on auto-play): a fixed, rule-defined
    choice that does not depend on the AI."""
    return hand.timeout_action(seat)


async def play_humans(fd: FakeDiscord, bot, channel_id: int, users: dict, *, policy=timeout_policy,
                      until=None, limit: int = 2000) -> int:
    """Press, for every human seat the hand waits for, the action ``policy`` picks, until
    the hand is over (or ``until(table)`` is true); returns the number of presses."""
    table = bot.service.table_in(channel_id)
    presses = 0
    while table.hand is not None and not table.hand.is_over():
        if until is not None and until(table):
            break
        pending = [s for s in table.hand.pending_seats() if s in users]
        assert pending, f"the hand waits for {table.hand.pending_seats()}, none of them human"
        seat = pending[0]
        await press(fd, users[seat], policy(table.hand, seat))
        presses += 1
        assert presses < limit, "the hand does not end"
    return presses
