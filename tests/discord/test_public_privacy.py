"""Public output tells only what the public may know, for every game.

Everything the bot posts in the channel (the table message and its edits, notices) is
inspected at the moment Discord receives it, beside the hand's public events at that moment —
those of its public frame (``engine/frames.py``: the events up to the last public decision,
without ``pass``: a pass tells that a seat had a choice, and what followed a discard by
itself tells whether a window opened):

* two payloads sent while the public events were the same are the same (a hidden decision —
  a pass, a 假听, a seat that could claim — changes nothing public);
* a player whose DMs are closed is mentioned in the channel only when the table publicly
  waits for them (their own turn, or a decision every seat makes at once), never because a
  claim window opened for them.

Every seat is a human playing the rules' timeout choice, so nothing depends on the AI.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from games import game_ids, per_game

from service.clock import ManualClock

try:
    from discord_play import new_bot, press, table_button, timeout_policy
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press, table_button, timeout_policy
    from tests.harness.fakediscord import FakeDiscord

GAMES = {"two_player": (2, 3), "laosanfan": (4, 5), "jinhu": (4, 5), "caishen": (4, 5), "laowudui": (3, 5),
         "zipai": (3, 5)}
#: decisions every seat makes at once (買庄/折庄, 飘): waiting for a seat there tells nothing
OPENING_PHASES = {"opening", "piao"}


def public_events(hand) -> list[dict]:
    """The public events of the hand's public frame (``Hand.public_frame``)."""
    _, n = hand.public_frame()
    return [e.to_json() for e in hand.events[:n] if e.type != "pass"]


class PublicRecorder:
    """Wraps the fake's request handler: each public channel message or edit is kept with the
    public events of the hand at that moment."""

    def __init__(self, fd: FakeDiscord, bot, monkeypatch, closed_user_id: int):
        self.sent: list[tuple[str, str, str]] = []  # (public events json, payload digest, what)
        self.mentions: list[dict] = []
        self.fd, self.bot, self.closed = fd, bot, closed_user_id
        real = fd._handle_request

        async def handle(method, url, **kw):
            resp = await real(method, url, **kw)
            call = fd.calls[-1]
            if call.route.startswith("/channels/{channel_id}/messages") and method in ("POST", "PATCH") \
                    and call.path.split("/")[2] == str(fd.channel_id) and call.status == 200:
                self.record(call)
            return resp

        monkeypatch.setattr(fd, "_handle_request", handle)

    def record(self, call) -> None:
        try:
            table = self.bot.service.table_in(self.fd.channel_id)
        except Exception:
            return
        hand = table.hand
        if hand is None:
            return
        body = call.json or {}
        payload = {"content": body.get("content"), "embeds": body.get("embeds"),
                   "components": [c.get("custom_id") for row in body.get("components") or []
                                  for c in row.get("components", [])],
                   "files": [hashlib.sha1(f.data).hexdigest() for f in call.files]}
        key = json.dumps([table.hand_id, public_events(hand), [s.auto for s in table.seats]], sort_keys=True,
                         ensure_ascii=False)
        what = "table" if body.get("embeds") or payload["components"] else "notice"
        self.sent.append((key + what, json.dumps(payload, sort_keys=True, ensure_ascii=False), what))
        if f"<@{self.closed}>" in (body.get("content") or ""):
            seat = table.seat_of(self.closed)
            pub = hand.view(None)
            self.mentions.append({"seat": seat, "phase": pub.get("phase"), "turn": pub.get("turn"),
                                  "timer": hand.timer_kind(), "pending": list(hand.pending_seats()),
                                  "discards": sum(len(sv.get("discards") or []) for sv in pub["seats"])})


async def _play(fd, bot, users, closed) -> None:
    """Play one hand: every seat the rules' timeout choice; the player with closed DMs
    opens their hand with the table message's **My hand** button first."""
    table = bot.service.table_in(fd.channel_id)
    by_seat = {table.seat_of(u.id): u for u in users}
    n = 0
    while not table.hand.is_over():
        seat = table.hand.pending_seats()[0]
        user = by_seat[seat]
        if user is closed:
            msg, cid = table_button(fd, fd.channel_id, "hand")
            await fd.click(user, msg, cid)
        await press(fd, user, timeout_policy(table.hand, seat))
        n += 1
        assert n < 3000


@pytest.mark.slow
@pytest.mark.parametrize("game", game_ids())
@pytest.mark.asyncio
async def test_public_messages_depend_only_on_public_events(tmp_path, monkeypatch, game):
    n, seed = per_game(GAMES, game)
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: seed
        users = [fd.user(600 + i, f"p{i}") for i in range(n)]
        closed = fd.user(600 + n - 1, f"p{n - 1}")
        closed.dms_open = False
        rec = PublicRecorder(fd, bot, monkeypatch, closed.id)
        await fd.slash(users[0], "mj table create", {"variant": game})
        for u in users[1:]:
            await fd.slash(u, "mj table join")
        await fd.slash(users[0], "mj table start")
        await _play(fd, bot, users, closed)
        assert rec.sent, "nothing public was sent"
        by_key: dict[str, set[str]] = {}
        for key, payload, _ in rec.sent:
            by_key.setdefault(key, set()).add(payload)
        differing = {k: v for k, v in by_key.items() if len(v) > 1}
        assert not differing, (f"{len(differing)} public states were shown in several ways",
                               [sorted(v) for v in differing.values()][:1])
        # while the table waits on a claim, nothing public names who may claim: the same
        # public events never gave two payloads above; the log has no pass lines
        for _, payload, _ in rec.sent:
            assert "passes" not in payload and "过牌" not in payload
        # the player with closed DMs is told once, at the deal (before any discard) — never
        # because a decision, a claim window above all, came to them
        assert len(rec.mentions) == 1 and rec.mentions[0]["discards"] == 0, rec.mentions
        # every table message sent equals the one rebuilt from the stored log at the point where
        # the public events were the same
        rebuilt = await _rebuilt_payloads(bot, bot.service.table_in(fd.channel_id))
        checked = 0
        for key, payload, what in rec.sent:
            if what != "table" or key not in rebuilt:
                continue  # the lobby, and the result screen's last edit (checked above)
            got = json.loads(payload)
            assert _essence(got) == rebuilt[key], (key[-200:], _essence(got), rebuilt[key])
            checked += 1
        assert checked >= 5, checked
    finally:
        await fd.close()


def _essence(payload: dict) -> tuple:
    """What a table message shows: its title and text, its buttons, its image."""
    e = (payload.get("embeds") or [{}])[0]
    return e.get("title"), e.get("description"), tuple(payload.get("components") or ()), tuple(payload["files"])


async def _rebuilt_payloads(bot, table) -> dict[str, tuple]:
    """The table message of every point of the hand, rebuilt by replaying the stored log on a
    copy of the table, keyed like :class:`PublicRecorder` (public events, 托管 flags)."""
    import copy

    import cogs.messages as ui
    from engine.actions import Action
    from service import publish
    from service.table import Decisions, public_log
    from render.table import render_table

    stored = await bot.store.get_hand(table.hand_id)
    hand = table.match.new_hand(context=dict(stored.context), seed=stored.seed)
    out: dict[str, tuple] = {}

    before = dict(table.match.state, hand_no=stored.hand_no,
                  scores=[a - b for a, b in zip(table.scores(), (table.last_result or {}).get("points") or [])])

    def snapshot() -> None:
        t = copy.copy(table)
        t.hand, t.recent, t.decisions = hand, public_log(hand), Decisions()
        t.last_result = table.last_result if hand.is_over() else None
        t.match = copy.copy(table.match)
        t.match.state = dict(table.match.state) if hand.is_over() else dict(before)
        t.status, t.snapshot, t.view_cache = "playing", None, None
        snap = publish.build(t, 0, lambda user: None)
        embed = ui.table_embed(snap).to_dict()
        buttons = tuple(c.custom_id for c in ui.table_buttons(snap).children)
        image = hashlib.sha1(render_table(ui.drawable(snap.public.view, snap.public.names, snap.lang,
                                                      snap.game))).hexdigest()
        key = json.dumps([table.hand_id, public_events(hand), [s.auto for s in table.seats]], sort_keys=True,
                         ensure_ascii=False) + "table"
        out[key] = (embed.get("title"), embed.get("description"), buttons, (image,))

    snapshot()
    for line in stored.actions:
        hand.apply(Action.parse(line))
        snapshot()
    return out


# ------------------------------------------------------------------ twins
try:
    from privacy_twins import TWINS, first_hand_context
except ImportError:  # pragma: no cover
    from tests.harness.privacy_twins import TWINS, first_hand_context


async def _run_twin(tmp_path, monkeypatch, twin, run, tag: str):
    """Play one run of a twin through the fake: every seat a human, the hidden seat's DMs
    closed (it plays from the **My hand** button); returns (recorder, public events)."""
    from engine.actions import Action

    bot = new_bot(f"sqlite:///{tmp_path}/{tag}.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: twin.table_seed
        bot.service.hands.deal_context = first_hand_context(run)
        users = [fd.user(900 + i, f"p{i}") for i in range(twin.n_seats)]
        hidden = users[twin.hidden_seat]
        hidden.dms_open = False
        rec = PublicRecorder(fd, bot, monkeypatch, hidden.id)
        opts = " ".join(f"{k}={v}" for k, v in twin.options.items())
        await fd.slash(users[0], "mj table create", {"variant": twin.game, **({"options": opts} if opts else {})})
        for u in users[1:]:
            await fd.slash(u, "mj table join")
        await fd.slash(users[0], "mj table start")
        table = bot.service.table_in(fd.channel_id)
        for line in run.actions:
            a = Action.parse(line)
            user = users[a.seat]
            if user is hidden:
                msg, cid = table_button(fd, fd.channel_id, "hand")
                await fd.click(user, msg, cid)
            r = await press(fd, user, a)
            assert r.response_type is not None and not r.errors, (line, r.content)
        buttons = {u.id: _action_ids_seen(fd, u) for u in users if u is not hidden}
        return rec, public_events(table.hand), buttons
    finally:
        await fd.close()


def _action_ids_seen(fd, user) -> set[str]:
    """Every action button and menu id ``user`` was ever shown privately (each version of each
    DM and ephemeral answer): what a player can read of their buttons' ids."""
    seen: set[str] = set()

    def walk(items) -> None:
        for c in items or ():
            cid = c.get("custom_id") or ""
            if cid.startswith(("mj:", "mjs:")):
                seen.add(cid)
            walk(c.get("components"))
            if isinstance(c.get("accessory"), dict):
                walk([c["accessory"]])

    for m in list(fd.messages.values()):
        if (user.dm_channel_id is not None and m.channel_id == user.dm_channel_id) \
                or (m.ephemeral and m.recipient_id == user.id):
            for data in [m.data] + list(m.history):
                walk(data.get("components"))
    return seen


#: the twins of two games in the quick lane, all of them in the slow one
TWIN_PARAMS = [pytest.param(k, id=f"{k[0]}-{k[1]}", marks=[] if k[0] in ("two_player", "jinhu") else [pytest.mark.slow])
               for k in sorted(TWINS)]


@pytest.mark.parametrize("key", TWIN_PARAMS)
@pytest.mark.asyncio
async def test_twins_publish_the_same(tmp_path, monkeypatch, key):
    """Two runs that differ only in a hidden fact — the hidden seat could claim a discard and
    passed, or could not; a 假听 instead of a real 听 — give the same public events, the same
    table messages for the same public states (the claim window shows no state of its own:
    it looks as the discard nobody may claim does; run A, which has one change more, may be
    drawn at moments run B's messages skipped), the same final table message, the same
    channel mentions of the player whose DMs are closed, and the same button ids in every other
    player's DMs."""
    twin = TWINS[key]
    rec_a, events_a, buttons_a = await _run_twin(tmp_path, monkeypatch, twin, twin.a, "a")
    rec_b, events_b, buttons_b = await _run_twin(tmp_path, monkeypatch, twin, twin.b, "b")
    assert events_a == events_b
    # the other players' buttons carry the same ids: their decision numbers count their own
    # decisions, not the hand's actions (the hidden pass among them)
    assert all(buttons_b.values()) and buttons_a == buttons_b
    shown_a: dict[str, set[str]] = {}
    for k, payload, _ in rec_a.sent:
        shown_a.setdefault(k, set()).add(payload)
    shown_b: dict[str, set[str]] = {}
    for k, payload, _ in rec_b.sent:
        shown_b.setdefault(k, set()).add(payload)
    tables_b = {k: v for k, v in shown_b.items() if k.endswith("table")}
    assert tables_b, "run B showed nothing"
    for k, v in tables_b.items():
        assert k in shown_a, "run B showed a public state run A never showed"
        assert shown_a[k] == v, "the same public state looked different in the two runs"
    final_a = [p for k, p, w in rec_a.sent if w == "table"][-1]
    final_b = [p for k, p, w in rec_b.sent if w == "table"][-1]
    assert final_a == final_b
    notices_a = [p for k, p, w in rec_a.sent if w == "notice"]
    notices_b = [p for k, p, w in rec_b.sent if w == "notice"]
    assert notices_a == notices_b, "a claim window caused a public notice"
