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


@pytest.mark.asyncio
async def test_files_over_discords_limits_are_refused(fd: FakeDiscord) -> None:
    """Like Discord: a file over the upload limit (10 MiB without boosts, the interactions'
    ``attachment_size_limit``) is answered 413 code 40005, more than 10 files 400 code 50035;
    nothing is posted."""
    from tests.harness.fakediscord import MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS

    channel = fd.bot.get_partial_messageable(fd.channel_id)
    before = len(fd.messages)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(file=discord.File(io.BytesIO(b"x" * (MAX_ATTACHMENT_BYTES + 1)), filename="big.json"))
    assert (err.value.status, err.value.code) == (413, 40005)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(files=[discord.File(io.BytesIO(b"x"), filename=f"{i}.txt") for i in range(MAX_ATTACHMENTS + 1)])
    assert (err.value.status, err.value.code) == (400, 50035)
    assert len(fd.messages) == before
    msg = await channel.send(file=discord.File(io.BytesIO(b"x" * MAX_ATTACHMENT_BYTES), filename="limit.json"))
    assert len(fd.messages[msg.id].attachments[0].data) == MAX_ATTACHMENT_BYTES


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
