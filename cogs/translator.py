"""Slash-command descriptions in the user's language, through discord.py's
``app_commands.Translator`` (Discord shows each user the text of their client's locale).

Keys in the catalogues (``data/i18n/messages.<lang>.json``, section ``cmd``):
``cmd.<command>`` for a command or group description and ``cmd.<command>__<parameter>`` for
a parameter description, ``cmd.choice__<value>`` for the name of a fixed choice (e.g.
``/mj leaderboard period``) — or the key the choice's name gives as ``locale_str(name,
key="cmd.choice__…")`` when two parameters share a value (``/mj table add-ai level``'s
``normal`` beside the pace ``normal``: ``cmd.choice__ai_normal``) —, where ``<command>`` is the qualified name with spaces and dashes
written as underscores (``mj table create`` → ``mj_table_create``).  Command *names* stay the same
in every language, so ``/discard`` works for everybody.
"""

from __future__ import annotations

import discord
from discord import app_commands

from render.text import LANGUAGES
from render.text.table_message import command_description

LOCALES = {discord.Locale.chinese: "zh-CN", discord.Locale.taiwan_chinese: "zh-TW"}


def command_key(qualified_name: str) -> str:
    return "cmd." + qualified_name.replace(" ", "_").replace("-", "_")


def description_keys(tree: app_commands.CommandTree) -> dict[str, str]:
    """Every catalogue key the tree's descriptions use, with the English text of the code."""
    out: dict[str, str] = {}

    def walk(cmd) -> None:
        out[command_key(cmd.qualified_name)] = str(cmd.description)
        if isinstance(cmd, app_commands.Group):
            for sub in cmd.commands:
                walk(sub)
        else:
            for p in cmd.parameters:
                out[command_key(cmd.qualified_name) + "__" + p.name] = str(p.description)

    for cmd in tree.get_commands():
        walk(cmd)
    return out


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None or lang not in LANGUAGES and lang != "zh-TW":
            return None
        loc = context.location
        data = context.data
        if loc in (app_commands.TranslationContextLocation.command_description,
                   app_commands.TranslationContextLocation.group_description):
            key = command_key(data.qualified_name)
        elif loc is app_commands.TranslationContextLocation.parameter_description:
            key = command_key(data.command.qualified_name) + "__" + data.name
        elif loc is app_commands.TranslationContextLocation.choice_name:
            # a choice's name: the key it names, else by its value
            key = string.extras.get("key") or "cmd.choice__" + str(data.value)
        else:
            return None
        text = command_description(key, lang)
        return None if text is None else text[:100]
