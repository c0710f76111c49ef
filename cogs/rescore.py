"""``/mj rescore hand:<id> [options:<key=value …>] [preset:<name>]`` — a finished hand of this
server as played and under other values of its game's score-only options (``service.rescore``;
words: ``render.text.rescore``), declared in ``cogs/commands.py``.

The answer is public, like ``/mj verify``; a refusal (an option that would have changed what
was dealt or legal, an unknown hand, another server's hand, a hand still played) is private.
The options and presets are suggested for the game of the hand already chosen.
"""

from __future__ import annotations

import discord
from discord import app_commands

from engine.variants import find_variant
from render.text import rescore as words
from service.tables import ServiceError

from .common import reply, reply_error, user_lang
from .markup import shown
from .tables import option_choices, parse_options


async def _hand_game(interaction: discord.Interaction):
    """The game of the hand chosen so far in the command (``VariantInfo``), or ``None``."""
    hand = getattr(interaction.namespace, "hand", None)
    try:
        hand_id = int(hand)
    except (TypeError, ValueError):
        return None
    variant = await interaction.client.records.hand_variant(interaction.guild_id, hand_id)
    try:
        return find_variant(variant) if variant else None
    except KeyError:
        return None


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The next ``key=value`` among the score-only options of the chosen hand's game."""
    info = await _hand_game(interaction)
    if info is None:
        return []
    return option_choices(info, current, user_lang(interaction), keep=lambda o: bool(o.score_only))


async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The presets of the chosen hand's game: the server's, then the shipped ones."""
    info = await _hand_game(interaction)
    if info is None:
        return []
    names = await interaction.client.settings.preset_names(interaction.guild_id, info.id)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names if current.lower() in n.lower()][:25]


async def rescore(bot, interaction: discord.Interaction, hand: int, options: str | None, preset: str | None) -> None:
    """Answer with the comparison, or privately with why not."""
    lang = user_lang(interaction)
    try:
        typed = parse_options(options)
        presets = (await bot.settings.config(interaction.guild_id)).presets if preset else {}
        r = await bot.records.rescore(interaction.guild_id, hand, typed, preset or None, presets)
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, words.comparison(r, lang, shown), ephemeral=False)
