"""``/mj help`` (what the bot does, a table in three steps, the games, where the rules are,
every command) and the welcome a server gets when the bot joins it (words:
``render.text.help``)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from engine.variants import all_variants
from render.text import help as words
from render.text.catalogue import lang_of
from service.version import licence, version

from .common import reply, user_lang
from .translator import command_key

log = logging.getLogger("cogs.help")


def command_list(tree: app_commands.CommandTree) -> list[tuple[str, str, str]]:
    """Every leaf command of ``tree``: ``(qualified name with its parameters, catalogue key,
    English description)``; the play verbs first, then the ``/mj`` group's commands."""
    out: list[tuple[str, str, str]] = []

    def walk(cmd) -> None:
        if isinstance(cmd, app_commands.Group):
            for sub in cmd.commands:
                walk(sub)
            return
        params = " ".join(f"<{p.name}>" if p.required else f"[{p.name}]" for p in cmd.parameters)
        out.append(((cmd.qualified_name + " " + params).strip(), command_key(cmd.qualified_name),
                    str(cmd.description)))

    roots = sorted(tree.get_commands(), key=lambda c: isinstance(c, app_commands.Group))
    for cmd in roots:
        walk(cmd)
    return out


def help_embeds(tree: app_commands.CommandTree, lang: str) -> list[discord.Embed]:
    pages = words.help_pages(all_variants(), command_list(tree), lang, version=version(), licence=licence())
    return [discord.Embed(title=title, description=text[:4096], colour=discord.Colour.dark_green() if i == 0 else None)
            for i, (title, text) in enumerate(pages)]


async def show_help(bot, interaction: discord.Interaction) -> None:
    """``/mj help``, privately, in the user's language."""
    await reply(interaction, embeds=help_embeds(bot.tree, user_lang(interaction)), ephemeral=True)


async def welcome(guild: discord.Guild) -> bool:
    """Greet a server the bot just joined, in its system channel when the bot may post there
    (Send Messages and Embed Links), in the server's language; returns whether it was sent."""
    channel = guild.system_channel
    if channel is None:
        return False
    perms = channel.permissions_for(guild.me)
    if not (perms.view_channel and perms.send_messages and perms.embed_links):
        return False
    title, text = words.welcome(lang_of(guild.preferred_locale))
    try:
        await channel.send(embed=discord.Embed(title=title, description=text, colour=discord.Colour.dark_green()))
    except discord.HTTPException:
        log.warning("could not greet guild %s in its system channel", guild.id)
        return False
    return True


__all__ = ["command_list", "help_embeds", "show_help", "welcome"]
