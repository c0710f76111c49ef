"""The fake Discord's modals: it refuses, as Discord does with a 400, a modal that breaks the
rules (more than 5 top-level components, a Label's text over 45 characters or its description
over 100, a radio group of fewer than 2 or more than 10 options, a checkbox group of more than
10, a modal after the interaction was answered or deferred, a modal answering a modal), and
submits Labels with text inputs, radio groups, checkbox groups, checkboxes and selects in the
shape Discord sends them."""

from __future__ import annotations

from typing import Any, Callable, Dict, List

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

try:
    from fakediscord import FakeDiscord, HarnessError, modal_errors
except ImportError:  # pragma: no cover
    from tests.harness.fakediscord import FakeDiscord, HarnessError, modal_errors


def radio(cid: str, n: int, default: int | None = 0) -> discord.ui.RadioGroup:
    return discord.ui.RadioGroup(custom_id=cid, options=[
        discord.RadioGroupOption(label=f"choice {i}", value=f"v{i}", default=i == default) for i in range(n)])


def checks(cid: str, n: int) -> discord.ui.CheckboxGroup:
    return discord.ui.CheckboxGroup(custom_id=cid, required=False, min_values=0, max_values=n, options=[
        discord.CheckboxGroupOption(label=f"box {i}", value=f"b{i}", default=i == 1) for i in range(n)])


def text(cid: str, value: str = "7") -> discord.ui.TextInput:
    return discord.ui.TextInput(custom_id=cid, default=value)


class Form(discord.ui.Modal):
    """A modal of the Labels ``build()`` returns; its submission is answered with what it read."""

    def __init__(self, labels: List[discord.ui.Label]):
        super().__init__(title="Form", custom_id="demo:form")
        for item in labels:
            self.add_item(item)
        self.seen: Dict[str, Any] = {}

    async def on_submit(self, interaction: discord.Interaction) -> None:
        for label in self.children:
            c = label.component
            self.seen[c.custom_id] = getattr(c, "values", None) if isinstance(
                c, (discord.ui.CheckboxGroup, discord.ui.Select)) else c.value
        await interaction.response.send_message("read", ephemeral=True)


class Demo(commands.Cog):
    def __init__(self) -> None:
        self.build: Callable[[], List[discord.ui.Label]] = lambda: []
        self.last: Form | None = None
        self.failures: List[discord.HTTPException] = []

    @app_commands.command(name="form", description="Open the form")
    async def form(self, interaction: discord.Interaction) -> None:
        self.last = Form(self.build())
        try:
            await interaction.response.send_modal(self.last)
        except discord.HTTPException as e:
            self.failures.append(e)
            await interaction.followup.send("refused") if interaction.response.is_done() else None

    @app_commands.command(name="late", description="Defer, then try a modal")
    async def late(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        interaction.response._response_type = None  # past discord.py's own check: Discord decides
        try:
            await interaction.response.send_modal(Form([discord.ui.Label(text="x", component=text("x"))]))
        except discord.HTTPException as e:
            self.failures.append(e)
        await interaction.followup.send("done", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.demo = Demo()

    async def setup_hook(self) -> None:
        await self.add_cog(self.demo)


@pytest_asyncio.fixture
async def fd():
    harness = FakeDiscord(DemoBot())
    await harness.start()
    yield harness
    await harness.close()


def labels_of(*items) -> List[discord.ui.Label]:
    return [discord.ui.Label(text=f"field {i}", component=c) for i, c in enumerate(items)]


@pytest.mark.asyncio
async def test_a_modal_of_labels_is_submitted_as_discord_sends_it(fd: FakeDiscord) -> None:
    demo = fd.bot.demo
    select = discord.ui.Select(custom_id="s", options=[discord.SelectOption(label=x, value=x, default=x == "b")
                                                       for x in "abc"])
    demo.build = lambda: labels_of(text("t", "15"), radio("r", 3), checks("c", 3), select,
                                   discord.ui.Checkbox(custom_id="k", default=True))
    alice = fd.user(1, "alice")
    opened = await fd.slash(alice, "form")
    assert opened.response_type == 9
    sent = opened.interaction.response_data
    assert [c["type"] for c in sent["components"]] == [18] * 5
    assert [c["component"]["type"] for c in sent["components"]] == [4, 21, 22, 3, 23]
    # nothing changed: what the modal showed comes back
    r = await fd.submit_modal(alice, opened, {})
    assert r.content == "read"
    assert demo.last.seen == {"t": "15", "r": "v0", "c": ["b1"], "s": ["b"], "k": True}
    # filled in: each kind of input in Discord's shape
    opened = await fd.slash(alice, "form")
    await fd.submit_modal(alice, opened, {"t": "abc", "r": "v2", "c": ["b0", "b2"], "s": ["c"], "k": False})
    assert demo.last.seen == {"t": "abc", "r": "v2", "c": ["b0", "b2"], "s": ["c"], "k": False}
    with pytest.raises(HarnessError, match="not an option"):  # the client offers only the options
        await fd.submit_modal(alice, opened, {"r": "v9"})
    with pytest.raises(HarnessError, match="no inputs"):
        await fd.submit_modal(alice, opened, {"nope": "1"})


@pytest.mark.parametrize("build, where", [
    (lambda: labels_of(*(text(f"t{i}") for i in range(6))), "top-level components, this one has 6"),
    (lambda: [discord.ui.Label(text="x" * 46, component=text("t"))], "a Label's text"),
    (lambda: [discord.ui.Label(text="x", description="d" * 101, component=text("t"))], "a Label's description"),
    (lambda: labels_of(radio("r", 1)), "radio group 'r' has 1 options"),
    (lambda: labels_of(radio("r", 11)), "radio group 'r' has 11 options"),
    (lambda: labels_of(checks("c", 11)), "checkbox group 'c' has 11 options"),
])
@pytest.mark.asyncio
async def test_a_modal_breaking_the_limits_is_refused(fd: FakeDiscord, build, where) -> None:
    demo = fd.bot.demo
    # discord.py refuses some of these itself; the raw payload is built past it
    demo.build = lambda: []
    real = Form.to_components
    try:
        Form.to_components = lambda self: [item.to_component_dict() for item in built]
        if "11 options" in where:
            kind = discord.ui.RadioGroup if "radio" in where else discord.ui.CheckboxGroup
            opt = discord.RadioGroupOption if "radio" in where else discord.CheckboxGroupOption
            group = kind(custom_id=where.split("'")[1], options=[opt(label=f"o{i}", value=f"o{i}") for i in range(11)])
            built = labels_of(group)
        else:
            built = build()
        r = await fd.slash(fd.user(1, "alice"), "form", check=False)
    finally:
        Form.to_components = real
    assert r.response_type is None
    (failure,) = demo.failures
    assert failure.status == 400 and failure.code == 50035
    assert where in str(failure)


@pytest.mark.asyncio
async def test_a_modal_after_a_defer_or_after_a_modal_is_refused(fd: FakeDiscord) -> None:
    demo = fd.bot.demo
    r = await fd.slash(fd.user(1, "alice"), "late")
    (failure,) = demo.failures
    assert failure.status == 400 and failure.code == 40060
    assert r.response_type == 5 and r.followups == [] and r.message.content == "done"


def test_a_modal_without_inputs_or_with_a_long_title_is_refused() -> None:
    errors = modal_errors({"custom_id": "x", "title": "t" * 46, "components": []})
    assert errors["components"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"
    assert errors["title"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"


@pytest.mark.asyncio
async def test_a_modal_cannot_answer_a_modal(fd: FakeDiscord) -> None:
    class Again(Form):
        async def on_submit(self, interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_modal(Form(labels_of(text("u"))))
            except discord.HTTPException as e:
                fd.bot.demo.failures.append(e)
                await interaction.response.send_message("no", ephemeral=True)

    demo = fd.bot.demo
    alice = fd.user(1, "alice")
    demo.build = lambda: labels_of(text("t"))
    opened = await fd.slash(alice, "form")
    modal = demo.last
    modal.__class__ = Again
    r = await fd.submit_modal(alice, opened, {"t": "x"})
    (failure,) = demo.failures
    assert failure.status == 400 and "not a modal's submission" in str(failure)
    assert r.content == "no"
