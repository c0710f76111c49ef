"""Helpers of the rules-form tests: a bot on the fake Discord, and what an opened form shows."""

from __future__ import annotations

from discord_play import new_bot
from fakediscord import FakeDiscord

from service.clock import ManualClock

#: Discord's interaction type of a modal submission
MODAL_SUBMIT = 5


async def form_bot(tmp_path):
    """``(bot, fake Discord)``: a started bot on a fresh SQLite store and a manual clock."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    return bot, fd


def inputs(opened) -> dict:
    """``{custom_id: input component}`` of the form an interaction answered with."""
    return {c["component"]["custom_id"]: c["component"] for c in opened.interaction.response_data["components"]}


def shown(component) -> str:
    """What an input shows now: a text input's text, a radio group's or select's chosen value."""
    if component["type"] == 4:
        return component.get("value")
    return next(o["value"] for o in component["options"] if o.get("default"))


async def forged(fd, user, custom_id: str, values: dict):
    """A form submission as a tampered client could send it: id ``custom_id``, text inputs
    ``values``."""
    comps = [{"type": 18, "component": {"type": 4, "custom_id": k, "value": v}} for k, v in values.items()]
    inter, _ = fd._base_payload(user, MODAL_SUBMIT, {"custom_id": custom_id, "components": comps},
                                channel_id=None, guild_id=fd.guild_id, locale=None, dm=False)
    return await fd._dispatch(inter, check=False)
