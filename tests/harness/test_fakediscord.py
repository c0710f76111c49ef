"""Tests of the Discord stand-in (tests/harness/fakediscord/) with a small demo bot.

The demo bot is a real ``commands.Bot``: a ``/demo`` command group in a cog, a
``DynamicItem`` counter button whose custom_id carries a number, a persistent
view with a fixed custom_id, an autocomplete option, DMs with a file.
"""

from __future__ import annotations

import asyncio
import io
import logging
import json
import time
from typing import List

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

try:  # tests/ on sys.path (pytest's default rootdir-relative import)
    from fakediscord import (
        CB_AUTOCOMPLETE,
        CB_DEFERRED_MESSAGE,
        CB_MESSAGE,
        CB_UPDATE,
        EPHEMERAL,
        BotHandlingError,
        FakeDiscord,
        HarnessError,
        MARKUP_NAME,
        as_shown,
    )
    from fakediscord.mentions import ping_problems, raw_name_problems
except ImportError:  # tests imported as a package
    from tests.harness.fakediscord import (
        CB_AUTOCOMPLETE,
        CB_DEFERRED_MESSAGE,
        CB_MESSAGE,
        CB_UPDATE,
        EPHEMERAL,
        BotHandlingError,
        FakeDiscord,
        HarnessError,
        MARKUP_NAME,
        as_shown,
    )
    from tests.harness.fakediscord.mentions import ping_problems, raw_name_problems

PNG = b"\x89PNG\r\n\x1a\n-demo-hand-image-"
TILES = ["1m", "2m", "3m", "1p", "1s", "5m", "5p", "east", "west"]


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:count:(?P<n>[0-9]+)"):
    """A counter whose value lives in the custom_id, so it works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"+1 ({n})", style=discord.ButtonStyle.primary,
                                           custom_id=f"demo:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        n = self.n + 1
        await interaction.response.edit_message(content=f"count={n}", view=counter_view(n))


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(n))
    return view


class HandView(discord.ui.View):
    """Persistent view (fixed custom_id, registered with ``bot.add_view``)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="My hand", custom_id="demo:hand")
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("Your hand", ephemeral=True,
                                                file=discord.File(io.BytesIO(PNG), "hand.png"))


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=600)

    @discord.ui.select(custom_id="demo:pick", options=[discord.SelectOption(label=t, value=t) for t in TILES[:4]])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class ReadyView(discord.ui.View):
    """Persistent view sent in DMs; deferred update then edit of the clicked message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ready", custom_id="demo:ready")
    async def ready(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} is ready", view=None)


class DiscardModal(discord.ui.Modal, title="Discard"):
    tile = discord.ui.TextInput(label="Tile", custom_id="demo:modal:tile")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"discarded {self.tile.value}", ephemeral=True)


class Demo(commands.GroupCog, group_name="demo", group_description="Demo commands"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.dm_error_codes: List[int] = []
        self.pending: List[discord.Interaction] = []
        self.timer_fired = False

    @app_commands.command(name="hello", description="Say hello")
    async def hello(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello, {interaction.user.name}!", ephemeral=True)

    @app_commands.command(name="post", description="Post a counter and DM the hand")
    async def post(self, interaction: discord.Interaction, start: app_commands.Range[int, 0, 100] = 0) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.channel.send(f"count={start}", view=counter_view(start))
        try:
            await interaction.user.send("Your hand", file=discord.File(io.BytesIO(PNG), "hand.png"))
        except discord.Forbidden as e:
            self.dm_error_codes.append(e.code)
            await interaction.followup.send("I cannot DM you; press the button.", view=HandView(), ephemeral=True)
            return
        await interaction.followup.send("Posted.", ephemeral=True)

    @app_commands.command(name="tile", description="Name a tile")
    async def tile(self, interaction: discord.Interaction, tile: str) -> None:
        await interaction.response.send_message(f"tile {tile}", view=PickView())

    @tile.autocomplete("tile")
    async def tile_autocomplete(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=t, value=t) for t in TILES if t.startswith(current)]

    @app_commands.command(name="slow", description="Defer and answer later")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        self.pending.append(interaction)
        # A turn timer: parked (long sleep), so the harness does not wait for it.
        asyncio.get_running_loop().create_task(self._timer(60))
        # Quick background work: the harness waits for it.
        asyncio.get_running_loop().create_task(self._announce(interaction.channel_id))

    async def _timer(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.timer_fired = True

    async def _announce(self, channel_id: int) -> None:
        await asyncio.sleep(0.01)
        await self.bot.get_channel(channel_id).send("someone is thinking")

    @app_commands.command(name="invite", description="Invite a player by DM")
    async def invite(self, interaction: discord.Interaction, who: discord.User, seats: int = 2) -> None:
        await who.send(f"{interaction.user.name} invites you to a {seats}-seat table", view=ReadyView())
        await interaction.response.send_message("Invitation sent.", ephemeral=True)

    @app_commands.command(name="discard", description="Open a modal")
    async def discard(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(DiscardModal())

    @app_commands.command(name="broken", description="Raises")
    async def broken(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("demo failure")

    @app_commands.command(name="later", description="Answers, then logs an error in a task of its own")
    async def later(self, interaction: discord.Interaction) -> None:
        async def fanout() -> None:
            try:
                raise RuntimeError("demo fan-out failure")
            except RuntimeError:
                logging.getLogger("cogs.demo").exception("fan-out failed")

        await interaction.response.send_message("ok", ephemeral=True)
        asyncio.get_running_loop().create_task(fanout())


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await self.add_cog(Demo(self))
        self.add_view(HandView())
        self.add_view(ReadyView())
        self.add_dynamic_items(CounterButton)


@pytest_asyncio.fixture
async def fd():
    harness = FakeDiscord(DemoBot())
    await harness.start()
    yield harness
    await harness.close()


@pytest.mark.asyncio
async def test_ephemeral_hello(fd: FakeDiscord) -> None:
    alice = fd.user(101, "alice", plain=True)
    r = await fd.slash(alice, "demo hello")
    # One REST call: the interaction callback, type 4 (CHANNEL_MESSAGE_WITH_SOURCE), flags 64.
    assert [c.key for c in r.calls] == ["POST /interactions/{interaction_id}/{token}/callback"]
    call = r.calls[0]
    assert call.via == "webhook" and call.params == {"with_response": "1"}
    assert call.json["type"] == CB_MESSAGE
    assert call.json["data"]["content"] == "Hello, alice!"
    assert call.json["data"]["flags"] == EPHEMERAL
    assert r.response_type == CB_MESSAGE and r.ephemeral and r.content == "Hello, alice!"
    assert fd.ephemeral_replies_to(alice) == [r.message]
    assert fd.messages_in(fd.channel_id) == []  # nothing public
    bob = fd.user(102, "bob", plain=True)
    assert fd.visible_to(bob) == [] and fd.visible_to(alice) == [r.message]


@pytest.mark.asyncio
async def test_post_defer_channel_message_dm_and_followup(fd: FakeDiscord) -> None:
    alice = fd.user(101, "alice", plain=True)
    r = await fd.slash(alice, "demo post", {"start": 3})
    keys = [c.key for c in r.calls]
    # defer, public post, open DM channel, DM with file, followup -- in that order.
    assert keys == [
        "POST /interactions/{interaction_id}/{token}/callback",
        "POST /channels/{channel_id}/messages",
        "POST /users/@me/channels",
        "POST /channels/{channel_id}/messages",
        "POST /webhooks/{application_id}/{token}",
    ]
    assert r.calls[0].json == {"type": CB_DEFERRED_MESSAGE, "data": {"flags": EPHEMERAL}}
    assert r.calls[2].json == {"recipient_id": alice.id}
    public = fd.messages_in(fd.channel_id)
    assert len(public) == 1 and public[0].content == "count=3"
    assert public[0].custom_ids == ["demo:count:3"]
    assert public[0].components[0]["components"][0]["label"] == "+1 (3)"
    dms = fd.dms_to(alice)
    assert len(dms) == 1 and dms[0].content == "Your hand"
    assert [(f.name, f.data) for f in dms[0].attachments] == [("hand.png", PNG)]
    assert r.calls[3].files[0].name == "hand.png" and r.calls[3].files[0].data == PNG
    assert dms[0].data["attachments"][0]["content_type"] == "image/png"
    # The first followup after a thinking defer fills the deferred message.
    assert r.response_type == CB_DEFERRED_MESSAGE
    assert r.message.content == "Posted." and r.message.ephemeral and not r.message.loading
    assert r.followups == []
    assert fd.last_response(alice) is r.message


@pytest.mark.asyncio
async def test_dynamic_button_edits_message_and_survives_restart(fd: FakeDiscord) -> None:
    alice, bob = fd.user(101, "alice", plain=True), fd.user(102, "bob", plain=True)
    await fd.slash(alice, "demo post", {"start": 7})
    msg = fd.messages_in(fd.channel_id)[0]
    r = await fd.click(bob, msg, "demo:count:7")
    assert r.response_type == CB_UPDATE
    assert r.calls[0].json["data"]["content"] == "count=8"
    assert msg.content == "count=8" and msg.custom_ids == ["demo:count:8"] and msg.edits == 1
    with pytest.raises(HarnessError):  # the old button is gone from the message
        await fd.click(bob, msg, "demo:count:7")
    await fd.restart(DemoBot())
    r = await fd.click(alice, msg.id, "demo:count:8")
    assert r.response_type == CB_UPDATE and msg.content == "count=9"


@pytest.mark.asyncio
async def test_closed_dms_give_forbidden_50007(fd: FakeDiscord) -> None:
    carol = fd.user(103, "carol", plain=True, dms_open=False)
    r = await fd.slash(carol, "demo post")
    dm_calls = [c for c in r.calls if c.status == 403]
    assert len(dm_calls) == 1 and dm_calls[0].response["code"] == 50007
    assert fd.bot.get_cog("Demo").dm_error_codes == [50007]
    assert fd.dms_to(carol) == []
    # The fallback reply carries the persistent "My hand" button; pressing it answers
    # ephemerally with the image.
    reply = r.message
    assert reply.content == "I cannot DM you; press the button." and reply.ephemeral
    r2 = await fd.click(carol, reply, "demo:hand")
    assert r2.ephemeral and [(f.name, f.data) for f in r2.message.attachments] == [("hand.png", PNG)]
    payload = json.loads(json.dumps(r2.calls[0].json))
    assert payload["data"]["attachments"] == [{"id": 0, "filename": "hand.png"}]
    with pytest.raises(HarnessError):  # someone else cannot see carol's ephemeral message
        await fd.click(fd.user(104, "dave", plain=True), reply, "demo:hand")


@pytest.mark.asyncio
async def test_autocomplete_and_select(fd: FakeDiscord) -> None:
    alice = fd.user(101, "alice", plain=True)
    choices = await fd.autocomplete(alice, "demo tile", {"tile": "1"}, "tile")
    assert choices == [{"name": "1m", "value": "1m"}, {"name": "1p", "value": "1p"},
                       {"name": "1s", "value": "1s"}]
    assert fd.calls[-1].json["type"] == CB_AUTOCOMPLETE
    r = await fd.slash(alice, "demo tile", {"tile": "5m"})
    assert r.content == "tile 5m" and not r.ephemeral
    r2 = await fd.select(alice, r.message, "demo:pick", ["2m"])
    assert r2.content == "picked 2m" and r2.ephemeral
    with pytest.raises(HarnessError):
        await fd.select(alice, r.message, "demo:pick", ["9z"])


@pytest.mark.asyncio
async def test_injected_429_is_retried(fd: FakeDiscord) -> None:
    alice = fd.user(101, "alice", plain=True)
    fd.fail_next(429, route="POST /channels/{channel_id}/messages", retry_after=0.25)
    r = await fd.slash(alice, "demo post")
    posts = [c for c in r.calls if c.key == "POST /channels/{channel_id}/messages"]
    # First attempt rate limited, discord.py waits retry_after and sends again; then the DM.
    assert [(c.status, c.injected) for c in posts] == [(429, True), (200, False), (200, False)]
    assert posts[0].path == posts[1].path == f"/channels/{fd.channel_id}/messages"
    assert len(fd.messages_in(fd.channel_id)) == 1


@pytest.mark.asyncio
async def test_injected_500_retried_and_unknown_interaction(fd: FakeDiscord) -> None:
    alice = fd.user(101, "alice", plain=True)
    fd.fail_next(500, route="POST /interactions/{interaction_id}/{token}/callback", times=2)
    r = await fd.slash(alice, "demo hello")
    assert [c.status for c in r.calls] == [500, 500, 200] and r.ephemeral
    fd.fail_next(404, code=10062, message="Unknown interaction",
                 route="POST /interactions/{interaction_id}/{token}/callback")
    with pytest.raises(BotHandlingError):
        await fd.slash(alice, "demo hello")
    r = await fd.slash(alice, "demo hello", check=False)
    assert r.response_type == CB_MESSAGE  # the injection was used up by the previous call
    fd.fail_next(404, code=10062, route="POST /interactions/{interaction_id}/{token}/callback")
    r = await fd.slash(alice, "demo hello", check=False)
    assert r.response_type is None
    assert isinstance(r.errors[0].original, discord.NotFound) and r.errors[0].original.code == 10062


@pytest.mark.asyncio
async def test_settle_waits_for_work_not_timers_and_expired_tokens(fd: FakeDiscord) -> None:
    alice = fd.user(101, "alice", plain=True)
    r = await fd.slash(alice, "demo slow")
    assert r.message.loading and not r.message.ephemeral
    # The quick background task ran before slash() returned; the 60 s timer did not fire.
    assert [m.content for m in fd.messages_in(fd.channel_id)] == ["", "someone is thinking"]
    cog = fd.bot.get_cog("Demo")
    assert cog.timer_fired is False
    inter = cog.pending[0]
    edited = await inter.edit_original_response(content="done")
    assert edited.id == r.message.id and r.message.content == "done" and not r.message.loading
    fd.expire(r)
    with pytest.raises(discord.HTTPException) as exc:
        await inter.edit_original_response(content="too late")
    assert exc.value.status == 401 and exc.value.code == 50027
    assert r.message.content == "done"


@pytest.mark.asyncio
async def test_bot_errors_and_bad_requests_are_reported(fd: FakeDiscord) -> None:
    alice = fd.user(101, "alice", plain=True)
    with pytest.raises(BotHandlingError, match="demo failure"):
        await fd.slash(alice, "demo broken")
    with pytest.raises(HarnessError):
        await fd.slash(alice, "demo post", {"start": 101})  # outside Range[0, 100]
    with pytest.raises(HarnessError):
        await fd.slash(alice, "demo nothing")
    channel = fd.bot.get_channel(fd.channel_id)
    with pytest.raises(discord.HTTPException) as exc:
        await channel.send("x" * 2001)
    assert exc.value.code == 50035


@pytest.mark.asyncio
async def test_an_error_the_bot_logs_in_its_own_task_fails_the_interaction_unless_tolerated(fd: FakeDiscord) -> None:
    """The bot's own loggers count, not only discord.py's: an exception a fan-out task logged
    (and would retry) fails the strict interaction; one the test causes on purpose may be
    tolerated by its text, and is still reported in the result."""
    alice = fd.user(101, "alice", plain=True)
    with pytest.raises(BotHandlingError, match="demo fan-out failure"):
        await fd.slash(alice, "demo later")
    with fd.tolerating("demo fan-out"):
        r = await fd.slash(alice, "demo later")
    assert r.content == "ok" and [str(e) for e in r.errors] == ["demo fan-out failure"]
    with pytest.raises(BotHandlingError):  # the block is over: a failure again
        await fd.slash(alice, "demo later")


@pytest.mark.asyncio
async def test_messages_outside_interactions(fd: FakeDiscord) -> None:
    channel = fd.bot.get_channel(fd.channel_id)
    assert isinstance(channel, discord.TextChannel) and channel.guild.id == fd.guild_id
    sent = await channel.send("table", file=discord.File(io.BytesIO(PNG), "table.png"))
    fetched = await fd.bot.fetch_channel(fd.channel_id)
    assert fetched.id == fd.channel_id and fetched.name == "general"
    await channel.get_partial_message(sent.id).edit(content="table v2")
    stored = fd.message(sent.id)
    assert stored.content == "table v2" and [f.name for f in stored.attachments] == ["table.png"]
    again = await channel.fetch_message(sent.id)
    assert again.content == "table v2" and again.attachments[0].filename == "table.png"
    assert await again.attachments[0].read() == PNG
    other = fd.add_channel("mahjong")
    await fd.bot.get_channel(other).send("second table")
    assert [m.content for m in fd.messages_in(other)] == ["second table"]
    await sent.delete()
    assert fd.messages_in(fd.channel_id) == []


@pytest.mark.asyncio
async def test_user_option_dm_click_and_modal(fd: FakeDiscord) -> None:
    alice, bob = fd.user(101, "alice", plain=True), fd.user(102, "bob", plain=True)
    r = await fd.slash(alice, "demo invite", {"who": bob})
    assert r.content == "Invitation sent." and r.ephemeral
    (dm,) = fd.dms_to(bob)
    assert dm.content == "alice invites you to a 2-seat table" and dm.custom_ids == ["demo:ready"]
    # A click in a DM: no guild, the user object instead of a member.
    r2 = await fd.click(bob, dm, "demo:ready")
    assert "guild_id" not in r2.interaction.payload and r2.interaction.payload["user"]["id"] == str(bob.id)
    # Deferred update (type 6), then PATCH @original edits the clicked DM message.
    assert [c.key for c in r2.calls] == ["POST /interactions/{interaction_id}/{token}/callback",
                                         "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"]
    assert r2.calls[0].json == {"type": 6}
    assert r2.calls[1].path.endswith("/messages/@original")
    assert dm.content == "bob is ready" and dm.components == [] and r2.message is dm
    with pytest.raises(HarnessError):  # alice cannot click in bob's DMs
        await fd.click(alice, dm, "demo:ready")
    r3 = await fd.slash(alice, "demo discard")
    assert r3.response_type == 9 and r3.interaction.response_data["title"] == "Discard"
    r4 = await fd.submit_modal(alice, r3, {"demo:modal:tile": "5m"})
    assert r4.content == "discarded 5m" and r4.ephemeral


@pytest.mark.asyncio
async def test_latency_delays_every_call_and_late_first_responses_get_10062() -> None:
    """Each REST call waits ``latency`` seconds; a first response after the 3-second window
    (here shortened to 0.2 s) is refused as Discord does: 404, code 10062."""
    harness = FakeDiscord(DemoBot(), latency=0.05, ack_deadline=0.2)
    await harness.start()
    try:
        alice = harness.user(101, "alice", plain=True)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        r = await harness.slash(alice, "demo hello")
        assert r.response_type == CB_MESSAGE and loop.time() - t0 >= 0.05
        # /demo post: defer (1 call), channel message, DM channel, DM, followup: 5 calls in order
        t0 = loop.time()
        r = await harness.slash(alice, "demo post", {"start": 1})
        assert len(r.calls) == 5 and loop.time() - t0 >= 5 * 0.05
        assert not harness.late
        # a callback that comes after the deadline
        harness.latency = 0.3
        r = await harness.slash(alice, "demo hello", check=False)
        assert r.response_type is None and r.interaction.late and harness.late == [r.interaction]
        assert r.calls[0].status == 404 and r.calls[0].response["code"] == 10062
        with pytest.raises(BotHandlingError, match="10062"):
            await harness.slash(alice, "demo hello")
        # per-route latency: only DMs are slow
        harness.latency = lambda call: 0.3 if "/channels/" in call.path else 0.0
        r = await harness.slash(alice, "demo hello")
        assert r.response_type == CB_MESSAGE
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_wait_answered_returns_before_background_work() -> None:
    """``wait="answered"`` returns at the first response, while the bot still works."""
    harness = FakeDiscord(DemoBot(), latency=0.05)
    await harness.start()
    try:
        alice = harness.user(101, "alice", plain=True)
        r = await harness.slash(alice, "demo slow", wait="answered")
        assert r.response_type == CB_DEFERRED_MESSAGE
        assert not any(m.content == "someone is thinking" for m in harness.messages_in(harness.channel_id))
        await harness.settle()
        assert any(m.content == "someone is thinking" for m in harness.messages_in(harness.channel_id))
    finally:
        await harness.close()


# ---------------------------------------------------------------------------------------------
# Components V2: the fake refuses what Discord refuses
# ---------------------------------------------------------------------------------------------
def _v2_refusal(payload, files=()):
    from fakediscord.rest import RestMixin
    from fakediscord.model import RecordedFile
    from fakediscord.transport import _ApiError

    try:
        RestMixin._validate(payload, creating=True, files=[RecordedFile(n, b"x", "image/png") for n in files])
    except _ApiError as e:
        return e.errors
    return None


def test_v2_payloads_within_discords_rules_pass_and_the_others_are_refused():
    v2 = 1 << 15
    text = {"type": 10, "content": "hello"}
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://panel.png"}}]}
    ok = {"flags": v2, "components": [{"type": 17, "components": [text, gallery]}]}
    assert _v2_refusal(ok, ["panel.png"]) is None
    # content or embeds beside the components
    assert "content" in _v2_refusal(dict(ok, content="hi"), ["panel.png"])
    assert "embeds" in _v2_refusal(dict(ok, embeds=[{"description": "x"}]), ["panel.png"])
    # an image that no media component shows
    assert "attachments" in _v2_refusal(ok, ["panel.png", "other.png"])
    # 41 components (the container, 40 text displays)
    many = {"flags": v2, "components": [{"type": 17, "components": [dict(text) for _ in range(40)]}]}
    assert "components" in _v2_refusal(many)
    # 4,001 characters of text
    long = {"flags": v2, "components": [{"type": 10, "content": "x" * 2001}, {"type": 10, "content": "y" * 2000}]}
    assert "components" in _v2_refusal(long)
    assert _v2_refusal({"flags": v2, "components": [{"type": 10, "content": "x" * 4000}]}) is None


@pytest.mark.asyncio
async def test_a_message_keeps_its_format_for_life():
    from fakediscord.transport import _ApiError

    fd = FakeDiscord.__new__(FakeDiscord)
    fd.messages, fd.channels, fd._dm_owner, fd.users, fd.text_problems = {}, {}, {}, {}, []
    fd.app_emojis = {}
    fd._ids = iter(range(10_000, 20_000))
    fd.next_id = lambda: next(fd._ids)
    fd._bot_user_payload = lambda: {"id": "1", "username": "bot", "discriminator": "0", "avatar": None}
    legacy = fd._create_message(5, {"content": "plain"}, [])
    with pytest.raises(_ApiError):
        fd._edit_message(legacy, {"flags": 1 << 15, "components": [{"type": 10, "content": "now v2"}]}, [])
    v2 = fd._create_message(5, {"flags": 1 << 15, "components": [{"type": 10, "content": "v2"}]}, [])
    with pytest.raises(_ApiError):
        fd._edit_message(v2, {"content": "plain again"}, [])  # checked by V2's rules: no content
    fd._edit_message(v2, {"components": [{"type": 10, "content": "still v2"}]}, [])
    assert v2.data["components"][0]["content"] == "still v2"


@pytest.mark.asyncio
async def test_user_messages_reach_the_bot_as_message_create_and_guilds_change() -> None:
    seen: List[discord.Message] = []
    bot = DemoBot()

    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    bot.add_listener(on_message)
    harness = FakeDiscord(bot)
    await harness.start()
    try:
        alice = harness.user(101, "alice", plain=True)
        msg = await harness.post(alice, "hello there")
        own = await harness.post(None, "from the bot")
        assert harness.messages_in(harness.channel_id)[-2:] == [msg, own]
        assert [(m.id, m.author.id, m.channel.id, m.guild.id, m.content) for m in seen] == [
            (msg.id, 101, harness.channel_id, harness.guild_id, ""),  # no message-content intent
            (own.id, harness.bot_user_id, harness.channel_id, harness.guild_id, "")]
        with pytest.raises(HarnessError):
            await harness.post(alice, "x", channel_id=int(harness._dm_channel(alice)["id"]))
        with pytest.raises(HarnessError):
            await harness.post(alice, "")  # Discord refuses an empty message
        # a server that is not a Community server reports en-US, whatever it was given
        harness.set_guild(features=[], preferred_locale="zh-TW")
        guild = harness.bot.get_guild(harness.guild_id)
        assert guild.features == [] and guild.preferred_locale is discord.Locale.american_english
        harness.set_guild(features=["COMMUNITY"], preferred_locale="zh-TW")
        guild = harness.bot.get_guild(harness.guild_id)
        assert guild.features == ["COMMUNITY"] and guild.preferred_locale is discord.Locale.taiwan_chinese
        with pytest.raises(HarnessError):
            harness.set_guild(preferred_locale="klingon")
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_an_image_description_is_kept_and_one_over_256_characters_is_refused(fd: FakeDiscord) -> None:
    """Like Discord: an attachment's description (alt text) comes back with the message; one
    over 256 characters is refused (400, code 50035) and nothing is posted."""
    channel = fd.bot.get_partial_messageable(fd.channel_id)
    msg = await channel.send(file=discord.File(io.BytesIO(b"png"), filename="a.png", description="Turn: p0."))
    assert fd.messages[msg.id].descriptions == {"a.png": "Turn: p0."}
    before = len(fd.messages)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(file=discord.File(io.BytesIO(b"png"), filename="b.png", description="x" * 257))
    assert err.value.status == 400 and err.value.code == 50035
    assert len(fd.messages) == before


# ---------------------------------------------------------------------------------------------
# Rate limits (fakediscord/ratelimit.py): buckets per route and channel, the global limit
# ---------------------------------------------------------------------------------------------
SEND = "POST /channels/{channel_id}/messages"


async def _raw(harness: FakeDiscord, method: str, path: str, body=None, *, bot: bool = True):
    """One request as it reaches Discord, without discord.py's retries: the answer."""
    return await harness._handle_request(method, "https://discord.com/api/v10" + path,
                                         data=json.dumps(body) if body is not None else None,
                                         headers={"Authorization": "Bot t"} if bot else {})


@pytest.mark.asyncio
async def test_bucket_headers_count_down_then_429_until_the_window_ends() -> None:
    now = [100.0]  # the buckets' clock; the test moves it
    harness = FakeDiscord(DemoBot(), rate_limits=True, rate_clock=lambda: now[0],
                          rate_limit_table={SEND: (3, 2.0)})
    await harness.start()
    try:
        path, seen = f"/channels/{harness.channel_id}/messages", []
        for _ in range(3):
            r = await _raw(harness, "POST", path, {"content": "x"})
            assert r.status == 200
            seen.append(tuple(r.headers[f"X-RateLimit-{h}"] for h in ("Limit", "Remaining", "Reset-After")))
            now[0] += 0.5
        assert seen == [("3", "2", "2.000"), ("3", "1", "1.500"), ("3", "0", "1.000")]
        bucket = r.headers["X-RateLimit-Bucket"]
        assert abs(float(r.headers["X-RateLimit-Reset"]) - (time.time() + 1.0)) < 1
        r = await _raw(harness, "POST", path, {"content": "x"})  # 0.5 s before the window ends
        assert r.status == 429 and r.headers["X-RateLimit-Scope"] == "user" and r.headers["Retry-After"] == "1"
        assert await r.json() == {"message": "You are being rate limited.", "retry_after": 0.5, "global": False}
        assert r.headers["X-RateLimit-Remaining"] == "0" and r.headers["X-RateLimit-Bucket"] == bucket
        other = harness.add_channel("other")  # another channel: its own bucket, the same bucket id
        r = await _raw(harness, "POST", f"/channels/{other}/messages", {"content": "x"})
        assert (r.status, r.headers["X-RateLimit-Remaining"], r.headers["X-RateLimit-Bucket"]) == (200, "2", bucket)
        label = f"{SEND} [channel_id={harness.channel_id}]"
        assert harness.rate_limit_counts == {label: 1} and [c.path for c in harness.rate_limited] == [path]
        assert len(harness.messages_in(harness.channel_id)) == 3
        with pytest.raises(BotHandlingError, match=r"rate limited \(429\)"):
            await harness.settle()  # strict: the 429 is the bot's problem...
        await harness.settle()  # ...reported once
        now[0] += 0.5  # the window is over: a new one
        r = await _raw(harness, "POST", path, {"content": "x"})
        assert (r.status, r.headers["X-RateLimit-Remaining"], r.headers["X-RateLimit-Reset-After"]) == (200, "2", "2.000")
        # the used-up window had 1 s left, more than 2 s / 3: a burst
        assert harness.exhausted_counts == {label: 1} and harness.burst_counts == {label: 1}
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_the_global_limit_counts_bot_calls_and_exempts_interaction_endpoints() -> None:
    now = [0.0]
    harness = FakeDiscord(DemoBot(), rate_limits=True, rate_clock=lambda: now[0],
                          rate_limit_table={"global": (4, 1.0)})
    await harness.start()
    try:
        alice = harness.user(101, "alice", plain=True)
        for path in ["/users/@me", f"/channels/{harness.channel_id}", "/users/@me", f"/channels/{harness.channel_id}"]:
            assert (await _raw(harness, "GET", path)).status == 200  # four routes, one global count
        r = await _raw(harness, "GET", "/users/@me")
        assert r.status == 429 and (await r.json())["global"] is True and (await r.json())["retry_after"] == 1.0
        assert r.headers["X-RateLimit-Global"] == "true" and r.headers["X-RateLimit-Scope"] == "global"
        assert "X-RateLimit-Bucket" not in r.headers and harness.rate_limit_counts == {"global": 1}
        harness.allow_rate_limits = True  # the next check does not raise for it
        # the interaction endpoints are not counted: a callback and a followup by its token
        hello = await harness.slash(alice, "demo hello")
        assert hello.response_type == CB_MESSAGE and hello.calls[0].bucket.startswith("POST /interactions/")
        r = await _raw(harness, "POST", f"/webhooks/{harness.app_id}/{hello.interaction.token}", {"content": "more"},
                       bot=False)
        assert r.status == 200 and r.headers["X-RateLimit-Limit"] == "5"  # the token's bucket: 5 per 2 s
        assert harness.calls[-1].bucket == f"webhook [{harness.app_id}+{hello.interaction.token}]"
        assert (await _raw(harness, "GET", "/users/@me")).status == 429
        now[0] += 1.0
        assert (await _raw(harness, "GET", "/users/@me")).status == 200
        assert harness.rate_limit_counts == {"global": 2}
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_discord_py_waits_out_a_global_429_and_succeeds() -> None:
    """Real sleeps: five channels written to at once with a global limit of 3 per 0.3 s; two are
    refused (429, global), discord.py waits ``retry_after`` and sends them again."""
    harness = FakeDiscord(DemoBot(), fast_retries=False, rate_limit_table={"global": (3, 0.3)})
    assert harness.rate_limits  # on by default when the retry sleeps are real
    await harness.start()
    try:
        channels = [harness.add_channel(f"c{i}") for i in range(5)]
        await asyncio.gather(*(harness.bot.get_channel(c).send("hi") for c in channels))
        assert all(len(harness.messages_in(c)) == 1 for c in channels)
        refused = harness.rate_limited
        assert refused and all(c.response["global"] for c in refused) and harness.rate_limit_counts == {"global": len(refused)}
        for c in refused:  # each refused call was sent again, and went through
            assert [x.status for x in harness.calls if x.path == c.path] == [429, 200]
        with pytest.raises(BotHandlingError, match="global"):
            await harness.settle()
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_discord_py_holds_a_used_up_bucket_and_settle_waits_for_it() -> None:
    """Real sleeps: four messages in one channel sent at once, 2 per 0.3 s allowed.  discord.py
    reads the headers and holds the next send until the window ends, and after the last window
    is used up, the send that used it up: no 429; ``settle`` waits for the held sends, although
    they wait longer than ``park_after``."""
    harness = FakeDiscord(DemoBot(), fast_retries=False, park_after=0.1, rate_limit_table={SEND: (2, 0.3)})
    await harness.start()
    try:
        channel, done = harness.bot.get_channel(harness.channel_id), []

        async def send(i: int) -> None:
            await channel.send(f"m{i}")
            done.append(i)

        for i in range(4):  # the bot's own tasks, none waiting for another
            asyncio.get_running_loop().create_task(send(i))
        await harness.settle()
        assert sorted(done) == [0, 1, 2, 3] and harness.rate_limited == []
        assert [m.content for m in harness.messages_in(harness.channel_id)] == ["m0", "m1", "m2", "m3"]
        label = f"{SEND} [channel_id={harness.channel_id}]"
        assert harness.exhausted_counts == {label: 2} and harness.burst_counts == {label: 2}
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_a_name_shown_as_markup_or_a_ping_nobody_named_fails_the_interaction():
    """Every user's name carries markup and mentions unless ``plain``; the demo's ``hello``
    echoes it raw with no ``allowed_mentions``: Discord would show the spoiler and ping
    @everyone and role 1, so the fake fails the interaction and says so."""
    harness = FakeDiscord(DemoBot())
    await harness.start()
    try:
        eve = harness.user(105, "eve")
        assert eve.name == "eve" + MARKUP_NAME and len(eve.name) <= 32
        with pytest.raises(BotHandlingError) as e:
            await harness.slash(eve, "demo hello")
        text = str(e.value)
        assert "shows the name" in text and "pings @everyone" in text and "pings role 1" in text
    finally:
        await harness.close()


def test_what_a_payload_pings_and_shows():
    from cogs.markup import shown

    name = "eve" + MARKUP_NAME
    # escaped and sent with the client's allowed_mentions (none): nothing pinged, shown as typed
    quiet = {"content": f"Hello, {shown(name)} <@42>", "allowed_mentions": {"parse": []}}
    assert ping_problems(quiet) == [] and raw_name_problems(quiet, [name]) == []
    assert as_shown(quiet["content"]) == f"Hello, {name} <@42>"
    # a user named in allowed_mentions may be pinged; another one may not
    named = {"content": "<@42> <@43>", "allowed_mentions": {"parse": [], "users": ["42"]}}
    assert ping_problems(named) == []
    loose = {"content": "<@42> <@43>", "allowed_mentions": {"parse": ["users"], "users": []}}
    assert [p.split(" without")[0] for p in ping_problems(loose)] == ["pings user 42", "pings user 43"]
    # no allowed_mentions: Discord parses everything; V2 text pings too, embeds never
    assert len(ping_problems({"components": [{"type": 17, "components": [{"type": 10, "content": "@here"}]}]})) == 1
    assert ping_problems({"embeds": [{"description": "@everyone <@&1>"}]}) == []
    # markdown renders in embeds: a raw name there is shown as markup
    assert len(raw_name_problems({"embeds": [{"title": name}]}, [name])) == 1


# ---------------------------------------------------------------------------------------------
# Application emojis (fakediscord/emojis.py)
# ---------------------------------------------------------------------------------------------
EMOJIS_ROUTE = "POST /applications/{application_id}/emojis"
PNG_IMG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24
JPEG_IMG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 16
GIF_IMG = b"GIF89a" + b"\x00" * 24
WEBP_IMG = b"RIFF\x14\x00\x00\x00WEBPVP8 " + b"\x00" * 16


def _data_uri(data: bytes, mime: str = "image/png") -> str:
    import base64

    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def _error_codes(errors, path=()) -> List[tuple]:
    """``(dotted path, code, message)`` of each error of a Discord error body's ``errors``."""
    out = []
    for key, value in (errors or {}).items():
        if key == "_errors":
            out += [(".".join(path), e["code"], e["message"]) for e in value]
        elif isinstance(value, dict):
            out += _error_codes(value, path + (key,))
        else:
            out.append((".".join(path + (key,)), "", str(value)))
    return out


async def _upload_raw(harness: FakeDiscord, name, image):
    r = await _raw(harness, "POST", f"/applications/{harness.app_id}/emojis", {"name": name, "image": image})
    return r.status, await r.json()


@pytest.mark.asyncio
async def test_create_application_emoji_keeps_the_image(fd: FakeDiscord) -> None:
    emoji = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    assert emoji.is_application_owned() and emoji.name == "tile_1m" and not emoji.animated
    assert emoji.user is not None and emoji.user.id == fd.bot_user_id and emoji.require_colons
    assert set(fd.app_emojis) == {emoji.id} and fd.emoji_image(emoji.id) == PNG_IMG
    assert fd.app_emojis[emoji.id].content_type == "image/png"
    (call,) = fd.calls_to(EMOJIS_ROUTE)
    assert call.status == 201 and call.json["image"].startswith("data:image/png;base64,")
    assert await emoji.read() == PNG_IMG  # the CDN serves it
    gif = await fd.bot.create_application_emoji(name="spin", image=GIF_IMG)
    assert gif.animated and fd.app_emoji("spin").data == GIF_IMG
    with pytest.raises(HarnessError):
        fd.emoji_image(12345)


@pytest.mark.asyncio
async def test_fetch_application_emojis_lists_them_oldest_first(fd: FakeDiscord) -> None:
    assert await fd.bot.fetch_application_emojis() == []
    a = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    b = await fd.bot.create_application_emoji(name="tile_2m", image=WEBP_IMG)
    listed = await fd.bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(a.id, "tile_1m"), (b.id, "tile_2m")]
    assert all(e.is_application_owned() for e in listed)
    assert fd.calls_to("GET /applications/{application_id}/emojis")[-1].response["items"][1]["name"] == "tile_2m"


@pytest.mark.asyncio
async def test_fetch_application_emoji_by_id_and_unknown_is_10014(fd: FakeDiscord) -> None:
    made = await fd.bot.create_application_emoji(name="tile_1m", image=JPEG_IMG)
    got = await fd.bot.fetch_application_emoji(made.id)
    assert (got.id, got.name, got.animated) == (made.id, "tile_1m", False)
    with pytest.raises(discord.NotFound) as err:
        await fd.bot.fetch_application_emoji(made.id + 1)
    assert err.value.code == 10014 and "Unknown Emoji" in str(err.value)


@pytest.mark.asyncio
async def test_emoji_edit_renames_under_the_name_rules(fd: FakeDiscord) -> None:
    a = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    await fd.bot.create_application_emoji(name="tile_2m", image=PNG_IMG)
    renamed = await a.edit(name="man_1")
    assert renamed.id == a.id and renamed.name == "man_1" and fd.app_emojis[a.id].name == "man_1"
    assert fd.calls_to("PATCH /applications/{application_id}/emojis/{emoji_id}")[-1].json == {"name": "man_1"}
    assert (await renamed.edit(name="man_1")).name == "man_1"  # its own name is no clash
    with pytest.raises(discord.HTTPException) as err:
        await renamed.edit(name="tile_2m")
    assert err.value.status == 400 and err.value.code == 50035
    assert [c for _, c, _ in _error_codes(fd.calls[-1].response["errors"])] == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    with pytest.raises(discord.HTTPException):
        await renamed.edit(name="x")
    assert fd.app_emojis[a.id].name == "man_1"


@pytest.mark.asyncio
async def test_emoji_delete_uses_the_application_route(fd: FakeDiscord) -> None:
    a = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    await a.delete()
    (call,) = fd.calls_to("DELETE /applications/{application_id}/emojis/{emoji_id}")
    assert call.status == 204 and call.path == f"/applications/{fd.app_id}/emojis/{a.id}"
    assert fd.app_emojis == {} and await fd.bot.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound) as err:
        await a.delete()
    assert err.value.code == 10014


class EmojiBot(DemoBot):
    """Uploads the emojis it lacks at start, as a bot with application emojis would."""

    IMAGES = {"tile_1m": PNG_IMG, "tile_east": GIF_IMG}

    async def setup_hook(self) -> None:
        await super().setup_hook()
        have = {e.name: e for e in await self.fetch_application_emojis()}
        self.tile_emojis = {}
        for name, image in self.IMAGES.items():
            self.tile_emojis[name] = have.get(name) or await self.create_application_emoji(name=name, image=image)


@pytest.mark.asyncio
async def test_emojis_belong_to_the_application_and_survive_a_restart() -> None:
    harness = FakeDiscord(EmojiBot())
    await harness.start()
    try:
        first = {n: e.id for n, e in harness.bot.tile_emojis.items()}
        assert len(harness.calls_to(EMOJIS_ROUTE)) == 2
        await harness.restart(EmojiBot())
        assert {n: e.id for n, e in harness.bot.tile_emojis.items()} == first
        assert len(harness.calls_to(EMOJIS_ROUTE)) == 2  # the second start made no POST
        assert len(harness.calls_to("GET /applications/{application_id}/emojis")) == 2
        assert harness.emoji_image(first["tile_east"]) == GIF_IMG and harness.app_emojis[first["tile_east"]].animated
        # an emoji the application already had (uploaded by hand): nothing uploaded for it
        harness.app_emojis.clear()
        pre = harness.add_app_emoji("tile_1m", PNG_IMG)
        await harness.restart(EmojiBot())
        assert harness.bot.tile_emojis["tile_1m"].id == pre.id and len(harness.calls_to(EMOJIS_ROUTE)) == 3
        with pytest.raises(HarnessError):
            harness.add_app_emoji("tile_1m", PNG_IMG)  # the name is taken
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_emoji_names_are_2_to_32_word_characters_and_unique(fd: FakeDiscord) -> None:
    for bad, code in [("a", "BASE_TYPE_BAD_LENGTH"), ("x" * 33, "BASE_TYPE_BAD_LENGTH"),
                      ("tile-1m", "STRING_TYPE_REGEX"), ("tile 1m", "STRING_TYPE_REGEX"), ("牌", "BASE_TYPE_BAD_LENGTH")]:
        with pytest.raises(discord.HTTPException) as err:
            await fd.bot.create_application_emoji(name=bad, image=PNG_IMG)
        assert err.value.status == 400 and err.value.code == 50035 and "In name:" in str(err.value), bad
        assert [(p, c) for p, c, _ in _error_codes(fd.calls[-1].response["errors"])] == [("name", code)], bad
    await fd.bot.create_application_emoji(name="ab", image=PNG_IMG)
    await fd.bot.create_application_emoji(name="Z" * 32, image=PNG_IMG)
    with pytest.raises(discord.HTTPException) as err:
        await fd.bot.create_application_emoji(name="ab", image=JPEG_IMG)
    assert err.value.code == 50035 and "Emoji name already taken" in str(err.value)
    assert _error_codes(fd.calls[-1].response["errors"])[0][1] == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    assert sorted(e.name for e in fd.app_emojis.values()) == ["Z" * 32, "ab"]


@pytest.mark.asyncio
async def test_emoji_images_at_most_256_kib(fd: FakeDiscord) -> None:
    limit = 262_144
    ok = PNG_IMG + b"\x00" * (limit - len(PNG_IMG))
    assert len(ok) == limit
    made = await fd.bot.create_application_emoji(name="big", image=ok)
    assert fd.emoji_image(made.id) == ok
    with pytest.raises(discord.HTTPException) as err:
        await fd.bot.create_application_emoji(name="too_big", image=ok + b"\x00")
    assert err.value.status == 400 and err.value.code == 50035 and "256.0 kb" in str(err.value)
    assert [(p, c) for p, c, _ in _error_codes(fd.calls[-1].response["errors"])] == [("image", "BINARY_TYPE_MAX_SIZE")]
    assert list(fd.app_emojis) == [made.id]


@pytest.mark.asyncio
async def test_emoji_images_are_png_jpeg_gif_or_webp_and_what_they_say(fd: FakeDiscord) -> None:
    for mime, data in [("image/png", PNG_IMG), ("image/jpeg", JPEG_IMG), ("image/gif", GIF_IMG), ("image/webp", WEBP_IMG)]:
        status, body = await _upload_raw(fd, "e_" + mime[6:], _data_uri(data, mime))
        assert status == 201 and body["animated"] is (mime == "image/gif"), mime
    for uri in [_data_uri(JPEG_IMG, "image/png"),  # the bytes are not the format declared
                _data_uri(b"not an image at all", "image/png"),
                _data_uri(b"BM" + b"\x00" * 30, "image/bmp"),  # a format Discord does not take
                "https://example.com/tile.png",  # not a data URI
                "data:image/png;base64,@@@@"]:  # not base64
        status, body = await _upload_raw(fd, "bad", uri)
        assert (status, body["code"]) == (400, 50035), uri
        assert [(p, c) for p, c, _ in _error_codes(body["errors"])] == [("image", "IMAGE_INVALID")], uri
    status, body = await _upload_raw(fd, "no_image", None)
    assert status == 400 and _error_codes(body["errors"])[0][:2] == ("image", "BASE_TYPE_REQUIRED")
    assert len(fd.app_emojis) == 4


@pytest.mark.asyncio
async def test_an_application_has_at_most_2000_emojis() -> None:
    assert FakeDiscord(DemoBot()).max_app_emojis == 2000
    harness = FakeDiscord(DemoBot(), max_app_emojis=3)
    await harness.start()
    try:
        for i in range(3):
            await harness.bot.create_application_emoji(name=f"e_{i}", image=PNG_IMG)
        with pytest.raises(discord.HTTPException) as err:
            await harness.bot.create_application_emoji(name="e_3", image=PNG_IMG)
        assert err.value.status == 400 and err.value.code == 30008
        assert "Maximum number of emojis reached" in str(err.value) and len(harness.app_emojis) == 3
        await harness.bot.fetch_application_emojis()
        await (await harness.bot.fetch_application_emoji(next(iter(harness.app_emojis)))).delete()
        await harness.bot.create_application_emoji(name="e_3", image=PNG_IMG)  # room again
        # a test refuses every upload by lowering the limit to what the application has
        harness.max_app_emojis = len(harness.app_emojis)
        with pytest.raises(discord.HTTPException):
            await harness.bot.create_application_emoji(name="e_4", image=PNG_IMG)
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_an_injected_429_on_the_emoji_route_is_retried(fd: FakeDiscord) -> None:
    fd.fail_next(429, route=EMOJIS_ROUTE, retry_after=0.5)
    made = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    assert [(c.status, c.injected) for c in fd.calls_to(EMOJIS_ROUTE)] == [(429, True), (201, False)]
    assert list(fd.app_emojis) == [made.id]
    fd.fail_next(500, route=EMOJIS_ROUTE, times=5)  # discord.py gives up after 5 tries
    with pytest.raises(discord.DiscordServerError):
        await fd.bot.create_application_emoji(name="tile_2m", image=PNG_IMG)
    assert list(fd.app_emojis) == [made.id]


@pytest.mark.asyncio
async def test_emoji_uploads_have_a_bucket_of_5_per_5_seconds() -> None:
    now = [0.0]
    harness = FakeDiscord(DemoBot(), rate_limits=True, rate_clock=lambda: now[0])
    assert harness.rate_limit_table[EMOJIS_ROUTE] == (5, 5.0)
    await harness.start()
    try:
        for i in range(5):
            r = await _raw(harness, "POST", f"/applications/{harness.app_id}/emojis",
                           {"name": f"e_{i}", "image": _data_uri(PNG_IMG)})
            assert r.status == 201 and r.headers["X-RateLimit-Remaining"] == str(4 - i)
        r = await _raw(harness, "POST", f"/applications/{harness.app_id}/emojis",
                       {"name": "e_5", "image": _data_uri(PNG_IMG)})
        assert r.status == 429 and (await r.json())["retry_after"] == 5.0 and len(harness.app_emojis) == 5
        assert harness.rate_limit_counts == {EMOJIS_ROUTE: 1}
        harness.allow_rate_limits = True
        assert (await _raw(harness, "GET", f"/applications/{harness.app_id}/emojis")).status == 200  # another bucket
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_discord_py_holds_emoji_uploads_for_their_bucket() -> None:
    """Real sleeps: 5 uploads in a row, 2 per 0.05 s allowed: discord.py reads the headers and
    waits for each window; no 429."""
    harness = FakeDiscord(DemoBot(), fast_retries=False, rate_limit_table={EMOJIS_ROUTE: (2, 0.05)})
    await harness.start()
    try:
        for i in range(5):
            await harness.bot.create_application_emoji(name=f"e_{i}", image=PNG_IMG)
        assert len(harness.app_emojis) == 5 and harness.rate_limited == []
        assert harness.exhausted_counts == {EMOJIS_ROUTE: 2}
        await harness.settle()
    finally:
        await harness.close()


# ---------------------------------------------------------------------------------------------
# Components: action rows, buttons, selects and their emojis, wherever they sit
# ---------------------------------------------------------------------------------------------
V2_FLAG = 1 << 15


def _component_refusal(components, *, v2: bool = True, emojis=()):
    """``[(path, code, message)]`` Discord answers for a message with ``components`` (in a V2
    message: inside a Container), or ``[]``."""
    from fakediscord.rest import RestMixin
    from fakediscord.transport import _ApiError

    if v2:
        payload = {"flags": V2_FLAG, "components": [{"type": 17, "components": [{"type": 10, "content": "t"}, *components]}]}
    else:
        payload = {"content": "t", "components": components}
    try:
        RestMixin._validate(payload, creating=True, files=[], emojis=emojis)
    except _ApiError as e:
        assert (e.status, e.code) == (400, 50035)
        return _error_codes(e.errors)
    return []


def _button(cid="b", **kw):
    return {"type": 2, "style": 1, "label": "x", "custom_id": cid, **kw}


def _row(*items):
    return {"type": 1, "components": list(items)}


def _string_select(n=3, **kw):
    return {"type": 3, "custom_id": "s", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)], **kw}


APP_EMOJI = 777


#: (what the rule refuses, components, v2, the refused field's path within the component, code, text)
COMPONENT_RULES = [
    ("empty row", [_row()], True, "components", "BASE_TYPE_BAD_LENGTH", "this one is empty"),
    ("six buttons", [_row(*(_button(f"b{i}") for i in range(6)))], True, "components",
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "at most 5 buttons; this one holds 6"),
    ("select beside a button", [_row(_string_select(), _button())], True, "components",
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "that select menu and nothing else"),
    ("two selects", [_row(_string_select(), {"type": 5, "custom_id": "u"})], False, "components",
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "that select menu and nothing else"),
    ("text input in a message", [_row({"type": 4, "custom_id": "t", "style": 1, "label": "x"})], True, "components",
     "UNION_TYPE_CHOICES", "not a component of type 4"),
    ("select outside a row", [_string_select()], True, "", "COMPONENT_INVALID_POSITION", "sits in an action row"),
    ("no options", [_row(_string_select(0))], True, "components.0.options", "BASE_TYPE_BAD_LENGTH", "has 0 options"),
    ("26 options", [_row(_string_select(26, max_values=1))], False, "components.0.options", "BASE_TYPE_BAD_LENGTH",
     "has 26 options"),
    ("option label over 100", [_row(dict(_string_select(1), options=[{"label": "l" * 101, "value": "v"}]))], True,
     "components.0.options.0.label", "BASE_TYPE_MAX_LENGTH", "label of 101 characters"),
    ("option value over 100", [_row(dict(_string_select(1), options=[{"label": "l", "value": "v" * 101}]))], True,
     "components.0.options.0.value", "BASE_TYPE_MAX_LENGTH", "value of 101 characters"),
    ("duplicate option values", [_row(dict(_string_select(1), options=[{"label": "a", "value": "v"},
                                                                       {"label": "b", "value": "v"}]))], True,
     "components.0.options.1.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "appears twice"),
    ("placeholder over 150", [_row(_string_select(placeholder="p" * 151))], True, "components.0.placeholder",
     "BASE_TYPE_MAX_LENGTH", "placeholder of 151 characters"),
    ("min over max", [_row(_string_select(min_values=3, max_values=2))], True, "components.0.min_values",
     "SELECT_COMPONENT_MIN_GREATER_THAN_MAX", "min_values 3 is more than max_values 2"),
    ("max values over 25", [_row({"type": 6, "custom_id": "r", "max_values": 26})], True, "components.0.max_values",
     "NUMBER_TYPE_MAX", "max_values 26 is not 1 to 25"),
    ("max values over the options", [_row(_string_select(2, max_values=3))], True, "components.0.max_values",
     "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS", "max_values 3 is more than its 2 options"),
    ("select without custom_id", [_row({"type": 7, "custom_id": ""})], True, "components.0.custom_id",
     "BASE_TYPE_REQUIRED", "needs a custom_id"),
    ("button style 7", [_row(_button(style=7))], True, "components.0.style", "BASE_TYPE_CHOICES",
     "style 7 is not a button style"),
    ("button label over 80", [_row(_button(label="l" * 81))], False, "components.0.label", "BASE_TYPE_MAX_LENGTH",
     "label of 81 characters"),
    ("button without label or emoji", [_row(_button(label=None))], True, "components.0",
     "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "needs a label or an emoji"),
    ("button without custom_id", [_row({"type": 2, "style": 2, "label": "x"})], True, "components.0.custom_id",
     "BASE_TYPE_REQUIRED", "secondary button (style 2) needs a custom_id"),
    ("link button with custom_id", [_row(_button(style=5, url="https://example.com"))], True,
     "components.0.custom_id", "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID", "cannot have a custom_id"),
    ("link button without url", [_row({"type": 2, "style": 5, "label": "x"})], True, "components.0.url",
     "BASE_TYPE_REQUIRED", "needs a url"),
    ("url on a non-link button", [_row(_button(url="https://example.com"))], True, "components.0.url",
     "BUTTON_COMPONENT_URL_NOT_LINK", "only a link button"),
    ("premium button without sku", [_row({"type": 2, "style": 6})], True, "components.0.sku_id",
     "BASE_TYPE_REQUIRED", "needs a sku_id"),
    ("premium button with a label", [_row({"type": 2, "style": 6, "sku_id": "1", "label": "buy"})], True,
     "components.0.label", "BUTTON_COMPONENT_PREMIUM_FIELD", "has no label"),
    ("unknown custom emoji", [_row(_button(emoji={"id": "999", "name": "ghost"}))], True, "components.0.emoji.id",
     "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("unknown custom emoji in an option", [_row(dict(_string_select(1), options=[
        {"label": "a", "value": "v", "emoji": {"id": "999", "name": "ghost"}}]))], False,
     "components.0.options.0.emoji.id", "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("emoji name that is not an emoji", [_row(_button(emoji={"name": "mahjong"}))], True, "components.0.emoji.name",
     "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("a mahjong tile that is no emoji", [_row(_button(emoji={"name": "\U0001F007"}))], False,
     "components.0.emoji.name", "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("six rows in a classic message", [_row(_button(f"b{i}")) for i in range(6)], False, None,
     "BASE_TYPE_MAX_LENGTH", "at most 5 action rows"),
    ("section accessory button without custom_id", [{"type": 9, "components": [{"type": 10, "content": "x"}],
                                                     "accessory": {"type": 2, "style": 1, "label": "x"}}], True,
     "accessory.custom_id", "BASE_TYPE_REQUIRED", "needs a custom_id"),
]


@pytest.mark.parametrize("rule,components,v2,field,code,text", COMPONENT_RULES, ids=[r[0] for r in COMPONENT_RULES])
def test_each_component_rule_is_enforced(rule, components, v2, field, code, text) -> None:
    errors = _component_refusal(components, v2=v2, emojis={APP_EMOJI})
    assert len(errors) == 1, errors
    path, got_code, message = errors[0]
    if field is None:
        where = "components"
    else:  # the first component after the text display of the container, or the first row
        where = ("components.0.components.1" if v2 else "components.0") + (f".{field}" if field else "")
    assert (path, got_code) == (where, code) and text in message, errors[0]


def test_valid_components_pass_in_classic_and_v2_messages() -> None:
    rows = [
        _row(*(_button(f"b{i}", label=None, emoji={"id": str(APP_EMOJI), "name": "tile"}) for i in range(5))),
        _row(_button("u", emoji={"name": "🀄"}), _button("k", label=None, emoji={"name": "1\ufe0f\u20e3"}),
             _button("f", label=None, emoji={"id": None, "name": "👍🏽"}),
             {"type": 2, "style": 5, "label": "rules", "url": "https://example.com"},
             {"type": 2, "style": 6, "sku_id": "123"}),
        _row(dict(_string_select(25, min_values=0, max_values=25, placeholder="p" * 150),
                  options=[{"label": "l" * 100, "value": f"{i:03}" + "v" * 97, "description": "d" * 100,
                            "emoji": {"name": "🇯🇵"} if i % 2 else {"id": APP_EMOJI, "name": "tile"}}
                           for i in range(25)])),
        _row({"type": 5, "custom_id": "users", "min_values": 1, "max_values": 4}),
        _row(_button("long", label="l" * 80)),
    ]
    assert _component_refusal(rows, v2=False, emojis={APP_EMOJI}) == []
    section = {"type": 9, "components": [{"type": 10, "content": "x"}],
               "accessory": _button("acc", label=None, emoji={"id": str(APP_EMOJI), "name": "tile"})}
    assert _component_refusal(rows + [section], v2=True, emojis={APP_EMOJI}) == []
    # without the application's emoji, each of its uses is refused (5 buttons, 13 options, 1 accessory)
    refused = _component_refusal(rows + [section], v2=True, emojis=())
    assert len(refused) == 5 + 13 + 1 and {c for _, c, _ in refused} == {"BUTTON_COMPONENT_INVALID_EMOJI"}


def test_what_counts_as_a_unicode_emoji() -> None:
    from fakediscord import is_unicode_emoji

    for yes in ["🀄", "🃏", "👍", "👍🏽", "👨\u200d👩\u200d👧", "🇯🇵", "1\ufe0f\u20e3", "#\u20e3", "❤\ufe0f", "©", "✅"]:
        assert is_unicode_emoji(yes), yes
    for no in ["", "a", "mahjong", ":mahjong:", "<:tile:123>", "\U0001F007", "\U0001F02B", "中", "1", None, 5]:
        assert not is_unicode_emoji(no), no


#: every way a message's components reach Discord: (name, how)
MESSAGE_PATHS = ["channel send", "channel edit", "callback 4 (ephemeral)", "callback 7", "followup filling a defer",
                 "followup", "webhook edit of @original"]


@pytest.mark.asyncio
@pytest.mark.parametrize("v2", [False, True], ids=["classic", "v2"])
@pytest.mark.parametrize("way", MESSAGE_PATHS)
async def test_components_are_checked_on_every_path(fd: FakeDiscord, way: str, v2: bool) -> None:
    from fakediscord import APPLICATION_COMMAND

    emoji = fd.add_app_emoji("tile_1m", PNG_IMG)

    def body(emoji_id):
        row = _row(_button("b", emoji={"id": str(emoji_id), "name": "tile_1m"}))
        if v2:
            return {"flags": V2_FLAG, "components": [{"type": 17, "components": [{"type": 10, "content": "t"}, row]}]}
        return {"content": "t", "components": [row]}

    alice = fd.user(101, "alice", plain=True)
    cid = fd.channel_id
    posted = fd._create_message(cid, dict(body(emoji.id), flags=V2_FLAG) if v2 else body(emoji.id), [])

    async def send(emoji_id):
        data = body(emoji_id)
        if way == "channel send":
            return await _raw(fd, "POST", f"/channels/{cid}/messages", data)
        if way == "channel edit":
            return await _raw(fd, "PATCH", f"/channels/{cid}/messages/{posted.id}", data)
        if way == "callback 7":
            inter, _ = fd._component_interaction(alice, posted, "b", {}, None, (2,))
            return await _raw(fd, "POST", f"/interactions/{inter.id}/{inter.token}/callback",
                              {"type": 7, "data": data}, bot=False)
        inter, _ = fd._base_payload(alice, APPLICATION_COMMAND, {"id": "1", "name": "x", "type": 1},
                                    channel_id=None, guild_id=None, locale=None, dm=False)
        callback = f"/interactions/{inter.id}/{inter.token}/callback"
        hook = f"/webhooks/{fd.app_id}/{inter.token}"
        if way == "callback 4 (ephemeral)":
            data["flags"] = data.get("flags", 0) | EPHEMERAL
            return await _raw(fd, "POST", callback, {"type": 4, "data": data}, bot=False)
        if way == "followup filling a defer":
            assert (await _raw(fd, "POST", callback, {"type": 5, "data": {"flags": EPHEMERAL}}, bot=False)).status == 200
            return await _raw(fd, "POST", hook, data, bot=False)
        first = body(emoji.id)
        assert (await _raw(fd, "POST", callback, {"type": 4, "data": first}, bot=False)).status == 200
        if way == "followup":
            return await _raw(fd, "POST", hook, data, bot=False)
        return await _raw(fd, "PATCH", f"{hook}/messages/@original", data, bot=False)

    ok = await send(emoji.id)
    assert ok.status == 200, await ok.json()
    bad = await send(999)
    answer = await bad.json()
    assert (bad.status, answer["code"]) == (400, 50035)
    ((path, code, message),) = _error_codes(answer["errors"])
    assert path.endswith("components.0.emoji.id") and code == "BUTTON_COMPONENT_INVALID_EMOJI"
    assert message.startswith("Invalid emoji")


class Board(discord.ui.LayoutView):
    """A Components V2 board: a container with a text display and 5 rows of 5 emoji buttons."""

    def __init__(self, emojis: List[discord.Emoji]) -> None:
        super().__init__(timeout=None)
        rows = [discord.ui.ActionRow(*(discord.ui.Button(emoji=emojis[5 * r + c], custom_id=f"demo:tile:{r}{c}",
                                                         style=discord.ButtonStyle.secondary) for c in range(5)))
                for r in range(5)]
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("Pick a tile"), *rows))


@pytest.mark.asyncio
async def test_a_v2_board_of_25_application_emoji_buttons_is_accepted(fd: FakeDiscord) -> None:
    emojis = [await fd.bot.create_application_emoji(name=f"tile_{i}", image=PNG_IMG) for i in range(25)]
    channel = fd.bot.get_channel(fd.channel_id)
    sent = await channel.send(view=Board(emojis))
    stored = fd.message(sent.id)
    assert stored.flags & V2_FLAG
    buttons = [c for c in stored.walk_components() if c.get("type") == 2]
    assert len(buttons) == 25 and [int(b["emoji"]["id"]) for b in buttons] == [e.id for e in emojis]
    assert all("label" not in b for b in buttons)
    # the emojis are the application's: one deleted, the same board is refused
    await emojis[7].delete()
    with pytest.raises(discord.HTTPException) as err:
        await sent.edit(view=Board(emojis))
    assert err.value.status == 400 and err.value.code == 50035 and "Invalid emoji" in str(err.value)
    assert "components.0.components.2.components.2.emoji.id" in str(err.value)
    assert stored.edits == 0
