"""Server settings (``/mj config …``, declared in ``cogs/commands.py``; Manage Server
permission): a game's default options, named presets, the channels that may host tables, and
the server settings (the public table's language, the lobby's minutes, reposting the table)."""

from __future__ import annotations

import discord

from engine.variants import all_variants, find_variant
from render.text import records as words
from render.text import t
from service.tables import ServiceError

from .common import is_admin, reply, reply_error, user_lang
from .components import FormButton
from .rules_form import fix_label, form_id, option_groups, prefilled, rules_form, take
from .tables import parse_options


async def _saved(interaction: discord.Interaction, work) -> None:
    """Run a settings change for an admin, then answer "saved" (or the error), privately."""
    if not is_admin(interaction):
        return await reply_error(interaction, ServiceError("admin_only"))
    try:
        await work()
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, words.saved(user_lang(interaction)))


async def default(bot, interaction: discord.Interaction, variant: str, options: str | None) -> None:
    """``/mj config default``: ``options`` typed (``key=value …``) replace the game's defaults
    on this server; without them, the game's rules form opens, prefilled with the defaults in
    force (:func:`open_form`)."""
    if not options:
        return await open_form(bot, interaction, "d", variant, None, 0)
    await _saved(interaction, lambda: bot.settings.set_default(interaction.guild_id, variant, parse_options(options)))


async def preset(bot, interaction: discord.Interaction, name: str, variant: str, options: str | None) -> None:
    """``/mj config preset``: save preset ``name`` of ``options``; without them, by the game's
    rules form, prefilled with the preset's values when it exists (else the defaults)."""
    if not options:
        if not name.strip():
            return await reply_error(interaction, ServiceError("preset_name_blank"))
        return await open_form(bot, interaction, "p", variant, name.strip()[:40], 0)
    await _saved(interaction, lambda: bot.settings.set_preset(interaction.guild_id, name, variant,
                                                              parse_options(options)))


async def open_form(bot, interaction: discord.Interaction, kind: str, variant: str, name: str | None,
                    part: int) -> None:
    """Form ``part`` of ``variant``'s rules for the server's defaults (``kind`` ``"d"``) or
    preset ``name`` (``"p"``), admins only, as the interaction's first answer, prefilled with
    the stored values (or what the admin typed last, when it was refused); the submission
    comes to :func:`rules_submitted`.  A game without options of its own: its defaults are
    reset (``set_default`` with nothing) or the preset saved as it is."""
    lang = user_lang(interaction)
    if not is_admin(interaction):
        return await reply_error(interaction, ServiceError("admin_only"))
    try:
        info = find_variant(variant)
    except KeyError:
        return await reply_error(interaction, ServiceError(
            "unknown_variant", variant=variant, known=", ".join(v.id for v in all_variants())))
    stored = await _stored(bot, interaction.guild_id, kind, variant, name)
    if not option_groups(info.options):
        return await _saved(interaction, lambda: _save(bot, interaction.guild_id, kind, info, name, stored, {}))
    fid = form_id(kind, part, f"{variant}:{name}" if kind == "p" else variant)
    form = rules_form(info, part, prefilled(bot, interaction, fid, info.resolve_options(stored)), lang, fid)
    if form is None:
        return await reply_error(interaction, ServiceError("outdated"))
    await interaction.response.send_modal(form)


async def rules_submitted(bot, interaction: discord.Interaction, kind: str, info, name: str | None, part: int,
                          raw: dict[str, str]) -> None:
    """A defaults or preset form sent: checked whole, then saved over the stored values (of a
    default, those equal to the game's own are dropped); the answer offers the next form of a
    game with several (``cogs.components.FormButton``)."""

    lang = user_lang(interaction)
    if not is_admin(interaction):
        return await reply_error(interaction, ServiceError("admin_only"))
    again = FormButton(kind, info.id, part, name, fix_label(lang))
    values = await take(bot, interaction, info.options, part, raw, again)
    if values is None:
        return
    try:
        stored = await _stored(bot, interaction.guild_id, kind, info.id, name)
        await _save(bot, interaction.guild_id, kind, info, name, stored, values)
    except ServiceError as e:
        return await reply_error(interaction, e)
    parts = len(option_groups(info.options))
    text = words.saved(lang)
    if part + 1 >= parts:
        return await reply(interaction, text)
    view = discord.ui.View(timeout=None)
    view.add_item(FormButton(kind, info.id, part + 1, name, t("form.button_part", lang, n=part + 2, of=parts)))
    await reply(interaction, text + "\n" + t("form.more_parts", lang, n=part + 2, of=parts), view=view)


async def _stored(bot, guild_id: int, kind: str, variant: str, name: str | None) -> dict:
    """The options stored now: the server's defaults of the game, or the preset's (the
    defaults for a new preset, or one of another game)."""
    cfg = await bot.settings.config(guild_id)
    defaults = dict(cfg.defaults.get(variant) or {})
    if kind == "p":
        found = cfg.presets.get(name or "")
        if found is not None and found.get("variant") == variant:
            return dict(found.get("options") or {})
    return defaults


async def _save(bot, guild_id: int, kind: str, info, name: str | None, stored: dict, values: dict) -> None:
    merged = {**stored, **values}
    if kind == "d":
        declared = {o.name: o.default for o in info.options}
        merged = {k: v for k, v in merged.items() if k not in values or v != declared.get(k)}
        return await bot.settings.set_default(guild_id, info.id, merged)
    await bot.settings.set_preset(guild_id, name or "", info.id, merged)


async def preset_delete(bot, interaction: discord.Interaction, name: str) -> None:
    await _saved(interaction, lambda: bot.settings.delete_preset(interaction.guild_id, name))


async def channel(bot, interaction: discord.Interaction, target: discord.abc.GuildChannel, allow: bool) -> None:
    await _saved(interaction, lambda: bot.settings.allow_channel(interaction.guild_id, target.id, allow))


async def server(bot, interaction: discord.Interaction, language: str | None, lobby_minutes: int | None,
                 repost_after: int | None) -> None:
    """``/mj config server``: the settings given change, the others stay (``setting_bad_value``
    for a value out of bounds)."""
    await _saved(interaction, lambda: bot.settings.set_server(interaction.guild_id, language=language,
                                                              lobby_minutes=lobby_minutes,
                                                              repost_after=repost_after))


async def show(bot, interaction: discord.Interaction) -> None:
    lang = user_lang(interaction)
    title, body = words.settings(await bot.settings.config(interaction.guild_id), lang,
                                 await bot.settings.server(interaction.guild_id))
    await reply(interaction, embed=discord.Embed(title=title, description=body))
