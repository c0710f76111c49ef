"""Privacy and authorization through Discord, for every game.

For each game one hand is played through the fake Discord (human seats pressing the buttons
the bot sent them, AI seats), and everything that leaves the bot is inspected:

* every image's source view (``cogs.messages.render_table`` / ``render_hand`` are wrapped, so the
  bytes of each PNG are tied to the view it was drawn from): while the hand runs a table
  image shows no seat's concealed tiles or drawn/dealt tile and no face-down meld; a hand
  image drawn for seat *s* holds exactly *s*'s own concealed tiles and nobody else's — except
  that in 二人麻将 a player who declared 听 sees the opponent's hand (``two_player.md`` §听);
* every outgoing REST call with a file: a hand image only ever goes privately (DM, ephemeral
  reply, or the edit of one) to the user of the seat it was drawn for; table images may go
  anywhere; every uploaded image is one of the drawn views;
* every player's panel (``cogs.messages.panel_of`` is wrapped: each panel's view is checked as
  a hand view is, and its components are tied to the seat it was drawn for): a message showing
  a hand — its tile buttons, its table of tiles — only ever goes privately to that seat's user;
* every public message, embed and edit (content, titles, descriptions, fields, the images'
  descriptions): a tile named
  in it is one the public may see at that moment (in the public engine view or its events).

Then the authorization rules: only seated players act or get a hand, a forged or copied
action button acts for nobody else, only the creator or an admin ends a table, only admins
change the server configuration.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re

import pytest

from games import game_params, per_game

import cogs.messages as ui_module
from engine.match import Match
from engine.tiles import kind_str
from engine.variants import find_variant
from service.clock import ManualClock
from render.text import tile_label

try:
    from crash_child import Player
    from discord_play import new_bot
    from fakediscord import EPHEMERAL, FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.crash_child import Player
    from tests.harness.discord_play import new_bot
    from tests.harness.fakediscord import EPHEMERAL, FakeDiscord

#: (game, human seats, AI seats) of the hand played per game
SEATING = {"two_player": (2, 0), "laosanfan": (2, 2), "jinhu": (2, 2), "caishen": (2, 2),
           "laowudui": (2, 1), "zipai": (2, 1)}


def _labels() -> dict[str, str]:
    """English tile label (``"5m (5 Characters)"``, distinctive in text) -> notation."""
    out = {}
    for k in range(0, 128):
        try:
            s = kind_str(k)
            out[tile_label(s, "en")] = s
        except Exception:
            continue
    return {label: s for label, s in out.items() if "(" in label}


LABELS = _labels()


def _strings(obj, acc: set) -> set:
    if isinstance(obj, str):
        acc.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _strings(v, acc)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _strings(v, acc)
    return acc


def _walk(components: list) -> list:
    out = []
    for c in components or []:
        out.append(c)
        out += _walk(c.get("components") or [])
    return out


def _shows(components: list) -> str:
    """What a component tree shows (texts, ids, labels, emojis), without Discord's numbering."""
    return json.dumps([[c.get("type"), c.get("content"), c.get("custom_id"), c.get("label"),
                        (c.get("emoji") or {}).get("id"), bool(c.get("disabled"))] for c in _walk(components)])


def _seed_with(game: str, n: int, predicate, limit: int = 300) -> int:
    info = find_variant(game)
    options = info.resolve_options({})
    for seed in range(1, limit):
        hand = Match(info, options, seed, n).new_hand()
        acts = []
        while not hand.is_over():
            a = hand.ai_action(hand.pending_seats()[0])
            acts.append(a)
            hand.apply(a)
        if predicate(hand, acts):
            return seed
    raise AssertionError(f"no seed for {game}")


class Audit:
    """Wraps the renderers and the fake's REST layer; checks each view as it is drawn."""

    def __init__(self, fd: FakeDiscord, bot, monkeypatch):
        self.fd, self.bot = fd, bot
        self.views: dict[str, list[tuple[str, dict]]] = {}  # png sha1 -> [(kind, view)]
        self.violations: list[str] = []
        self.counts = {"table_views": 0, "hand_views": 0, "reveals": 0, "files": 0, "private_files": 0,
                       "public_texts": 0, "tile_mentions": 0, "panels": 0}
        #: what each drawn panel's components show -> the user of the seat it was drawn for
        self.panels: dict[str, int] = {}
        real_panel_of = ui_module.panel_of

        def panel_of(snap, seat, **kw):
            p = real_panel_of(snap, seat, **kw)
            part = snap.parts[seat]
            view = json.loads(json.dumps(ui_module.drawable(part.view, snap.public.names, p.lang, snap.game),
                                         default=str))
            self._check(self.check_hand_view, view)
            self._check(self.check_panel_is_public_plus_own, view)
            for buttons in (True, False):
                self.panels[_shows(ui_module.panel_layout(p, buttons).to_components())] = part.user_id
            return p

        monkeypatch.setattr(ui_module, "panel_of", panel_of)
        real_table = ui_module.render_table

        def render_table(drawn):
            # the public table message, or a player's panel (the table from their seat)
            view = json.loads(json.dumps(drawn, default=str))  # the snapshot's frozen values as plain data
            if view.get("viewer") is None:
                self._check(self.check_public_view, view)
                return self._keep("table", view, real_table(drawn))
            self._check(self.check_hand_view, view)
            self._check(self.check_panel_is_public_plus_own, view)
            return self._keep("hand", view, real_table(drawn))

        monkeypatch.setattr(ui_module, "render_table", render_table)
        real_request = fd._handle_request

        async def handle(method, url, **kw):
            before = self.public_knowledge()
            resp = await real_request(method, url, **kw)
            call = fd.calls[-1]
            if not hasattr(call, "public_known"):
                after = self.public_knowledge()
                call.public_known = None if before is None or after is None else before | after
            return resp

        monkeypatch.setattr(fd, "_handle_request", handle)

    def _check(self, check, view: dict) -> None:
        # the bot runs the renderers inside its own error handling: keep what was found
        try:
            check(view)
        except AssertionError as e:
            self.violations.append(repr(e))

    def _keep(self, kind: str, view: dict, data: bytes) -> bytes:
        self.views.setdefault(hashlib.sha1(data).hexdigest(), []).append((kind, copy.deepcopy(view)))
        return data

    def _table(self, view: dict):
        return next(t for t in self.bot.service.tables.values() if t.id == view["table_id"])

    def public_knowledge(self) -> set | None:
        """Tile notations the public may see now (``None``: a hand is over, all is shown)."""
        known: set = set()
        for t in self.bot.service.tables.values():
            if t.hand is None:
                continue
            if t.hand.is_over():
                return None
            _strings(t.hand.view(None), known)
            _strings([e.to_json() for e in t.hand.events], known)
        return known

    # -- views -----------------------------------------------------------
    @staticmethod
    def _hidden_melds_ok(sv: dict) -> bool:
        for m in sv.get("melds", []):
            if not m.get("concealed"):
                continue
            tiles = m["tiles"]
            if m["type"] in ("wei", "chouwei", "ti"):  # 字牌: the shown card is last, the rest face down
                tiles = tiles[:-1]
            if any(x is not None for x in tiles):
                return False
        return True

    def check_public_view(self, view: dict) -> None:
        self.counts["table_views"] += 1
        if view.get("phase") in ("over", "lobby", "between") or view.get("result"):
            return
        assert view.get("viewer") is None and view.get("me") is None, view.get("me")
        for sv in view["seats"]:
            assert sv.get("concealed") is None, ("public view shows a hand", view["variant"], sv["seat"])
            assert sv.get("drawn") is None, ("public view shows a drawn tile", view["variant"], sv["seat"])
            assert self._hidden_melds_ok(sv), ("public view shows a face-down meld", view["variant"], sv)

    def check_hand_view(self, view: dict) -> None:
        self.counts["hand_views"] += 1
        if view.get("phase") in ("over",) or view.get("result"):
            return
        table = self._table(view)
        hand = table.hand
        me = view["viewer"]
        assert me is not None and view["me"] is not None
        own = hand.view(me)["seats"][me]
        # the hand image holds exactly the player's own tiles (worked out by the engine)
        assert view["seats"][me]["concealed"] == own["concealed"]
        assert view["seats"][me]["drawn"] == own["drawn"]
        if view["me"].get("hand"):
            assert set(view["me"]["hand"]) <= set((own["concealed"] or []) + [own["drawn"]]), view["me"]["hand"]
        ready_reveal = view["variant"] == "two_player" and bool(getattr(hand, "ting", [False] * 2)[me])
        for sv in view["seats"]:
            if sv["seat"] == me:
                continue
            if ready_reveal:  # two_player.md §听: a ready player sees the opponent's hand
                self.counts["reveals"] += sv.get("concealed") is not None
                continue
            assert sv.get("concealed") is None, (view["variant"], "seat", me, "sees seat", sv["seat"])
            assert sv.get("drawn") is None, (view["variant"], "seat", me, "sees the drawn tile of", sv["seat"])
            assert self._hidden_melds_ok(sv), (view["variant"], sv)

    def check_panel_is_public_plus_own(self, view: dict) -> None:
        """A panel shows what its viewer may see, nothing more: the viewer's own seat as their
        own view has it, and every other seat and the table as either the public frame
        (``Hand.public_frame``: a viewer the hand does not wait for) or the viewer's own view
        of the hand (one it waits for: the discard it may claim, the card it may take) — never a
        mix with anything else.  ``pending`` is only ever the viewer."""
        if view.get("phase") in ("over",) or view.get("result"):
            return
        table = self._table(view)
        me = view["viewer"]
        assert view.get("pending") in ([], [me]), view.get("pending")
        frame, _ = table.hand.public_frame()
        real = table.hand.view(me)
        own = real["seats"][me]
        assert {k: v for k, v in own.items() if k in view["seats"][me]} == \
            {k: view["seats"][me][k] for k in own}, ("the viewer's seat is not as they see it", view["variant"])
        source = real if view.get("pending") == [me] else frame
        keys = [k for k in source if k not in ("seats", "viewer", "me", "pending", "seq", "turn", "last_discard",
                                              "rob", "shown")]
        assert {k: view.get(k) for k in keys} == {k: source[k] for k in keys}, \
            ("a panel shows more than its viewer may see", view["variant"], me)
        for sv in view["seats"]:
            if sv["seat"] == me:
                continue
            engine = source["seats"][sv["seat"]]
            shown = {k: sv.get(k) for k in engine if k not in ("concealed", "drawn")}
            assert shown == {k: v for k, v in engine.items() if k not in ("concealed", "drawn")}, \
                ("a panel shows another seat as its viewer may not see it", view["variant"], me, sv["seat"])

    # -- outgoing calls --------------------------------------------------
    def destination(self, call) -> tuple[str, int | None]:
        """``("public", None)`` or ``("private", user id)`` for a call that sends a message."""
        fd = self.fd
        parts = call.path.split("/")
        if call.route.startswith("/channels/{channel_id}/messages"):
            ch = int(parts[2])
            owner = fd._dm_owner.get(ch)
            return ("private", owner) if owner is not None else ("public", None)
        if call.interaction_id is None:
            return ("public", None)
        inter = fd.interactions[call.interaction_id]
        body = call.json or {}
        if call.route == "/interactions/{interaction_id}/{token}/callback":
            cb, flags = int(body.get("type", 0)), int((body.get("data") or {}).get("flags") or 0)
            if cb == 7:
                msg = fd.messages[inter.message_id]
                return self._visibility(msg)
        else:
            flags = int(body.get("flags") or 0)
            if call.method == "PATCH":
                mid = parts[-1]
                msg = fd.messages.get(inter.original_message_id if mid == "@original" else int(mid))
                if msg is not None:
                    return self._visibility(msg)
        if inter.guild_id is None:
            return ("private", inter.user.id)
        return ("private", inter.user.id) if flags & EPHEMERAL else ("public", None)

    def _visibility(self, msg) -> tuple[str, int | None]:
        owner = self.fd._dm_owner.get(msg.channel_id)
        if owner is not None:
            return ("private", owner)
        if msg.ephemeral:
            return ("private", msg.recipient_id)
        return ("public", None)

    def check_calls(self, calls) -> None:
        for call in calls:
            if call.method not in ("POST", "PATCH") or call.via == "cdn":
                continue
            where, user = self.destination(call)
            for f in call.files:
                self.counts["files"] += 1
                sources = self.views.get(hashlib.sha1(f.data).hexdigest())
                assert sources, f"an uploaded image ({f.name}) that no renderer drew"
                if where == "public":
                    # the same bytes as a public drawing show nothing more (a finished hand's
                    # panel is the public table from another seat's side)
                    assert any(kind == "table" for kind, _ in sources), ("a hand image in public", call.path)
                else:
                    self.counts["private_files"] += 1
                    # the same bytes drawn from several views (say, two hands still face down in
                    # the 飘 phase) show nothing more than the recipient's own view does
                    assert any(kind == "table" or view.get("result")
                               or self._table(view).seats[view["viewer"]].user_id == user
                               for kind, view in sources), (
                        "a hand image sent to another user", [(k, v["variant"], v["viewer"]) for k, v in sources], user)
            if where == "public":
                self.check_public_text(call)
            self.check_panel(call, where, user)

    def check_panel(self, call, where: str, user) -> None:
        """A message with a hand's tile buttons is a panel drawn for the recipient's own seat."""
        body = call.json or {}
        if "data" in body and isinstance(body["data"], dict):
            body = body["data"]
        components = body.get("components") or []
        ids = [c.get("custom_id", "") for c in _walk(components)]
        if not any(re.match(r"mj:\d+:\d+:d\d+:(discard|ting|wdiscard):", i) for i in ids):
            return
        self.counts["panels"] += 1
        owner = self.panels.get(_shows(components))
        assert owner is not None, ("a hand's buttons that no panel drew", ids[:5])
        assert where == "private" and user == owner, ("a hand's buttons sent to another user", owner, where, user)

    def check_public_text(self, call) -> None:
        body = call.json or {}
        if "data" in body and isinstance(body["data"], dict):
            body = body["data"]
        texts = [body.get("content") or ""]
        for e in body.get("embeds") or []:
            texts += [e.get("title") or "", e.get("description") or ""]
            texts += [f"{x.get('name', '')} {x.get('value', '')}" for x in e.get("fields", [])]
            texts.append((e.get("footer") or {}).get("text", ""))
        texts += [a.get("description") or "" for a in body.get("attachments") or []]  # the images' alt text
        text = "\n".join(texts)
        if not text.strip():
            return
        self.counts["public_texts"] += 1
        known = getattr(call, "public_known", None)
        if known is None:
            return
        for label, s in LABELS.items():
            if label in text:
                self.counts["tile_mentions"] += 1
                assert s in known, ("a public message names a tile the public cannot see", s, text)


async def _play_hand(game: str, tmp_path, monkeypatch) -> dict:
    humans, ais = per_game(SEATING, game)
    n = humans + ais
    if game == "two_player":
        # a hand where a player declares 听: the opponent's hand is then shown to them (§听)
        seed = _seed_with(game, n, lambda h, acts: any(a.type == "ting" for a in acts))
    else:
        seed = _seed_with(game, n, lambda h, acts: h.result.get("winner") is not None)
    clock = ManualClock()
    bot = new_bot(f"sqlite:///{tmp_path}/{game}.db", clock)
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        audit = Audit(fd, bot, monkeypatch)
        bot.service.lobby.seed_source = lambda: seed
        users = [fd.user(300 + j, f"p{j}") for j in range(humans)]
        ch = fd.channel_id
        await fd.slash(users[0], "mj table create", {"variant": game})
        for u in users[1:]:
            await fd.slash(u, "mj table join")
        for _ in range(ais):
            await fd.slash(users[0], "mj table add-ai", {"level": "normal"})
        await fd.slash(users[0], "mj table start")
        table = bot.service.table_in(ch)
        player = Player(fd, bot, clock, random.Random(seed))
        steps = 0
        while not table.hand.is_over():
            pending = [s for s in table.hand.pending_seats() if not table.seats[s].is_ai]
            seat = pending[0]
            user = fd.users[table.seats[seat].user_id]
            if steps % 9 == 4:  # now and then the player asks for the hand: /hand or My hand
                if steps % 2:
                    await fd.slash(user, "mj hand")
                else:
                    public = fd.messages_in(ch)[0]
                    await fd.click(user, public, f"mjt:{ch}:hand")
            pressed = await player.press(user, ch, table.hand.ai_action(seat))
            assert not audit.violations, audit.violations[:3]
            if not pressed:
                audit.check_calls(fd.calls)  # a misdirected hand shows up here first
            assert pressed, (game, steps)
            steps += 1
            assert steps < 400
        assert not audit.violations, audit.violations[:3]
        audit.check_calls(fd.calls)
        return dict(audit.counts, steps=steps, calls=len(fd.calls))
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", game_params(quick=("two_player", "zipai")))  # two games in the quick lane
async def test_nothing_concealed_leaks(game, tmp_path, monkeypatch):
    c = await _play_hand(game, tmp_path, monkeypatch)
    print(f"\n[{game}] {c['steps']} clicks, {c['calls']} REST calls: {c['table_views']} table views and "
          f"{c['hand_views']} hand views checked, {c['files']} uploaded images traced to their view "
          f"({c['private_files']} private), {c['public_texts']} public texts with {c['tile_mentions']} tile "
          f"names checked, {c['reveals']} 听 reveals, {c['panels']} panels traced to their seat")
    assert c["table_views"] > 0 and c["hand_views"] > 0 and c["files"] > 0 and c["panels"] > 0
    if game == "two_player":
        assert c["reveals"] > 0


@pytest.mark.asyncio
async def test_only_seated_players_act_creator_or_admin_ends_admins_configure(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/auth.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: 4242
        alice, bob = fd.user(401, "alice"), fd.user(402, "bob")
        carol = fd.user(403, "carol")  # not seated
        dave = fd.user(404, "dave", admin=True)  # server admin, not seated
        ch = fd.channel_id
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table start")
        table = bot.service.table_in(ch)
        seq = table.hand.seq
        actor = table.hand.pending_seats()[0]
        actor_user = alice if table.seats[actor].user_id == alice.id else bob
        other_user = bob if actor_user is alice else alice
        action = table.hand.ai_action(actor)
        cid = f"mj:{ch}:{table.hand_id}:d{table.decision(actor)}:{action.type}:" \
              f"{kind_str(action.kind) if action.kind is not None else '-'}"
        refused = 0

        def files_of(r):
            return [f for c in r.calls for f in c.files]

        # an outsider: commands, the My hand button, a copied action button — all refused
        tile = kind_str(action.kind) if action.kind is not None else "1m"
        for r in [await fd.slash(carol, "discard", {"tile": tile}), await fd.slash(carol, "mj hand"),
                  await fd.slash(carol, "pass"),
                  await fd.click(carol, fd.messages_in(ch)[0], f"mjt:{ch}:hand")]:
            assert r.ephemeral and "not seated" in r.content, r.content
            assert files_of(r) == []  # no hand image for someone not at the table
            refused += 1
        forged = fd._create_message(ch, {"content": "copied", "components": [
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": cid}]}]}, [])
        r = await fd.click(carol, forged, cid)
        assert "not seated" in r.content and table.hand.seq == seq
        refused += 1
        # the other seated player pressing the actor's button acts for nobody
        r = await fd.click(other_user, forged, cid)
        assert r.ephemeral and table.hand.seq == seq and files_of(r) == []
        refused += 1
        # ending: not an outsider, not a seated non-creator; the creator or an admin may
        for u in (carol, bob):
            r = await fd.slash(u, "mj table end")
            assert "creator" in r.content and bot.service.table_in(ch) is table
            refused += 1
        # configuring: admins only
        before = await bot.store.get_guild_config(fd.guild_id)
        r = await fd.slash(alice, "mj config default", {"variant": "two_player", "options": "min_fan=8"})
        assert r.ephemeral and await bot.store.get_guild_config(fd.guild_id) == before
        refused += 1
        r = await fd.slash(dave, "mj config default", {"variant": "two_player", "options": "min_fan=8"})
        assert (await bot.store.get_guild_config(fd.guild_id)).defaults["two_player"]["min_fan"] == 8
        # the turn was never taken from the actor: their button still works
        assert table.hand.seq == seq
        msg = next(m for m in reversed(fd.dms_to(actor_user)) if cid in m.custom_ids)
        r = await fd.click(actor_user, msg, cid)
        assert r.response_type == 7 and table.hand.seq > seq
        r = await fd.slash(dave, "mj table end")
        assert r.ephemeral
        assert bot.service.tables.get(ch) is None or bot.service.tables[ch].status == "closed"
        print(f"\n[authorization] {refused} refused requests (outsider commands and buttons, a copied "
              "button, ending by non-creators, configuring by a non-admin); admin config and admin end accepted")
    finally:
        await fd.close()
