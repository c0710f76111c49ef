"""Every image the bot sends has a description (alt text) that tells, in words, what the
public may see — and only that — for every game.

One hand of each game is played through the fake Discord, every seat a human pressing the
rules' timeout choice (p1 reads Discord in 繁體中文, the table and the others in English).
Each upload is checked when Discord receives it, beside the table as it is then:

* every uploaded image has a description of at most 256 characters;
* an English table image or panel names whose turn it is as its viewer sees it (the table image
  the public part, a panel its seat's part: ``Turn: <name>.``; a seat's own claim window
  ``Waiting for claims``, which the public part never shows; during an opening decision
  everybody) — the last
  discard (``Last discard: <tile> by <name>.``, the hand's last public ``discard`` event), and
  each seat's name with its score; once the hand is over the winner, how they won (self-drawn
  or from whom) and their points (``result["points"]``), or the exhaustive draw;
* a tile named in a description is one the public may see then (as
  ``tests/discord/test_privacy.py`` checks the public texts);
* p1's panels are written in zh-TW, the others' in English; a panel carries no image (its hand
  is tile buttons, read aloud by their emojis' names, and its table is text).

A check that fails is kept and reported at the end of the test: raised inside the fake's request
handler it would reach the bot as a failed request, which the fan-out retries.
"""

from __future__ import annotations

import re

import pytest

from games import game_params, per_game

from engine.outcome import outcome
from engine.variants import find_variant
from render.text import game_name, tile_label
from service.clock import ManualClock

try:
    from discord_play import new_bot, press, timeout_policy
    from fakediscord import FakeDiscord
    from panel_checks import panels_of
    from test_privacy import LABELS, _strings
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press, timeout_policy
    from tests.harness.fakediscord import FakeDiscord
    from tests.harness.panel_checks import panels_of
    from tests.discord.test_privacy import LABELS, _strings

#: seats and table seed of the hand played per game
SEATS = {"two_player": (2, 3), "laosanfan": (4, 5), "jinhu": (4, 5), "caishen": (4, 5), "laowudui": (3, 5),
         "zipai": (3, 5)}
#: how a win reads in English (``render.text.results.how_text``)
HOW = {"self_drawn": "self-drawn", "discard": "from {src}", "rob_kong": "robbing {src}'s kong",
       "shown": "on the card {src} turned up"}


def _descriptions(call) -> list[tuple[str, object]]:
    """``(file name, description)`` of each file uploaded by ``call``."""
    body = call.json or {}
    if isinstance(body.get("data"), dict):
        body = body["data"]
    specs = {str(a.get("id")): a for a in body.get("attachments") or []}
    return [(f.name, (specs.get(str(i)) or {}).get("description")) for i, f in enumerate(call.files)]


def _expected(bot, table, seat) -> dict:
    """What the description of an English image must say of the table now, as ``seat`` sees it
    in the latest snapshot (``None``: the public part)."""
    hand = table.hand
    names = table.names()
    snap = bot.service.snapshot(table.channel_id)
    view = snap.public.view if seat is None else snap.parts[seat].view
    out = {"scores": [f"{names[s['seat']]} {s['score']}" for s in view["seats"]]}
    if hand.is_over():
        o = outcome(hand.result)
        out["says"] = [f"{names[w['seat']]} wins ({HOW[w['how']].format(src=names[w['from']] if w['from'] is not None else '')}), "
                       f"{o['points'][w['seat']]:+d} points." for w in o["wins"]] or ["Exhaustive draw."]
        return out
    if len(view["to_act"]) > 1:
        out["says"] = ["Every player is choosing."]
    elif view["turn"] is not None:
        out["says"] = [f"Turn: {names[view['turn']]}."]
    else:
        out["says"] = ["Waiting for claims on the last discard."]
    last = view.get("last_out")
    if last is not None:
        out["says"].append(f"Last discard: {tile_label(last['tile'], 'en')} by {names[last['seat']]}.")
    return out


class Uploads:
    """Wraps the fake's request handler: each upload is checked against the table then."""

    def __init__(self, fd, bot, monkeypatch, game):
        self.fd, self.bot, self.game = fd, bot, game
        self.counts = {"images": 0, "english": 0, "results": 0, "tiles": 0}
        self.problems: list = []
        real = fd._handle_request

        async def handle(method, url, **kw):
            resp = await real(method, url, **kw)
            call = fd.calls[-1]
            if call.files and call.status < 300:
                try:
                    self.check(call)
                except AssertionError as e:  # kept for the test, not raised into the bot
                    self.problems.append(str(e))
            return resp

        monkeypatch.setattr(fd, "_handle_request", handle)

    def viewer(self, call):
        """The user an upload is for: the clicker of an interaction in a DM, the owner of a
        DM channel; ``None`` for the table's channel."""
        if call.interaction_id is not None:
            inter = self.fd.interactions[call.interaction_id]
            return inter.user.id if inter.guild_id is None else None
        m = re.match(r"/channels/(\d+)/", call.path)
        return self.fd.dm_owner(int(m.group(1))) if m else None

    def check(self, call) -> None:
        table = self.bot.service.tables.get(self.fd.channel_id)
        for name, text in _descriptions(call):
            self.counts["images"] += 1
            assert isinstance(text, str) and text.strip() and len(text) <= 256, (name, text)
            if table is None or table.hand is None:
                continue
            if text.startswith(game_name(find_variant(self.game).facts, "en")):
                self.counts["english"] += 1
                user = self.viewer(call)
                want = _expected(self.bot, table, None if user is None else table.seat_of(user))
                for piece in want["says"] + want["scores"]:
                    assert piece in text, (piece, text)
                self.counts["results"] += table.hand.is_over()
            if not table.hand.is_over():
                known = _strings(table.hand.view(None), set())
                _strings([e.to_json() for e in table.hand.events], known)
                for label, tile in LABELS.items():
                    if label in text:
                        self.counts["tiles"] += 1
                        assert tile in known, ("a description names a tile the public cannot see", tile, text)


@pytest.mark.asyncio
@pytest.mark.parametrize("game", game_params(quick=("two_player", "zipai")))  # two games in the quick lane
async def test_every_image_has_a_description_of_the_public_state(game, tmp_path, monkeypatch):
    n, seed = per_game(SEATS, game)
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        up = Uploads(fd, bot, monkeypatch, game)
        bot.service.lobby.seed_source = lambda: seed
        users = [fd.user(600 + i, f"p{i}", locale="zh-TW" if i == 1 else "en-US", plain=True) for i in range(n)]  # alt text is plain: names as typed, shortened to fit
        await fd.slash(users[0], "mj table create", {"variant": game})
        for u in users[1:]:
            await fd.slash(u, "mj table join")
        await fd.slash(users[0], "mj table start")
        table = bot.service.table_in(fd.channel_id)
        by_seat = {table.seat_of(u.id): u for u in users}
        steps = 0
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            await press(fd, by_seat[seat], timeout_policy(table.hand, seat))
            steps += 1
            assert steps < 3000
        await fd.settle()
        print(f"\n[{game}] {steps} presses: {up.counts}")
        assert up.problems == []
        # every image is the English table's (panels carry none), the result's among them
        assert up.counts["english"] == up.counts["images"] >= 2 and up.counts["results"] >= 1, up.counts
        # each live panel is text (its tiles emojis or names, read aloud) in its player's
        # language, with no image to describe; the table message in the table's
        for u in users:
            lang = "zh-TW" if u is users[1] else "en"
            for m in panels_of(fd, u):
                assert m.attachments == [] and m.descriptions == {}
                assert m.text.startswith(f"**{game_name(find_variant(game).facts, lang)}** · "), m.text
        (public,) = [m for m in fd.messages_in(fd.channel_id) if m.data["attachments"]]
        assert public.descriptions["table.png"].startswith(game_name(find_variant(game).facts, "en") + ", hand 1.")
    finally:
        await fd.close()
