"""The table commands and the buttons of the public table message: opening, joining,
leaving, adding an AI seat, starting, taking over, the next hand, ending (``/mj table …``,
declared in ``cogs/commands.py``).

Each answers as soon as the service stored the change; what the change shows (the public
message, the players' DMs) goes out afterwards, from the table's fan-out task
(``cogs/fanout.py``).
"""

from __future__ import annotations

import shlex

import discord
from discord import app_commands

from engine.variants import all_variants, find_variant
from render.text import prompts, table_message
from render.text import records as choice_words
from service.tables import ServiceError

from . import messages
from .common import answer, answering, is_admin, reply, reply_error, user_lang, within
from .play import send_hand

#: the game a new table plays when none is chosen
DEFAULT_GAME = "two_player"


def parse_options(text: str | None) -> dict:
    """``"base_points=2 min_fan=10"`` → ``{"base_points": "2", "min_fan": "10"}``
    (values are checked by the variant's option declarations)."""
    out = {}
    if not text:
        return out
    try:
        words = shlex.split(text)
    except ValueError:  # an unclosed quotation mark
        raise ServiceError("option_syntax") from None
    for word in words:
        if "=" not in word:
            raise ServiceError("option_syntax")
        k, v = word.split("=", 1)
        out[k.strip()] = v.strip()
    return out


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Every game registered now (so a game added later is offered too), by its name in the
    user's language."""
    lang = user_lang(interaction)
    cur = current.strip().lower()
    out = []
    for info in all_variants():
        label = choice_words.game_choice(info, lang)
        if not cur or cur in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=info.id))
    return out[:25]


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Suggest the next ``key=value`` of the chosen game's options: unknown keys first, then
    the allowed values of the key being typed."""
    variant = getattr(interaction.namespace, "variant", None) or DEFAULT_GAME
    try:
        info = find_variant(variant)
    except KeyError:
        return []
    lang = user_lang(interaction)
    words = current.split(" ")
    done, last = words[:-1], words[-1]
    prefix = " ".join(done) + (" " if done else "")
    used = {w.split("=", 1)[0] for w in done if "=" in w}
    out: list[app_commands.Choice[str]] = []
    if "=" in last:
        key, typed = last.split("=", 1)
        opt = next((o for o in info.options if o.name == key), None)
        if opt is not None:
            if opt.choices is not None:
                values = list(opt.choices)
            elif opt.type is bool:
                values = [True, False]
            else:
                lo, hi = opt.min_value or 0, opt.max_value or opt.default * 4
                values = sorted({opt.default, lo, hi, *(v for v in (1, 2, 3, 5, 8, 10, 15, 20, 30, 60) if lo <= v <= hi)})
            for v in values:
                text = str(v).lower() if isinstance(v, bool) else str(v)
                if text.startswith(typed):
                    out.append(app_commands.Choice(name=(prefix + f"{key}={text}")[:100], value=(prefix + f"{key}={text}")[:100]))
        return out[:25]
    for opt in info.options:
        if opt.name in used or not opt.name.startswith(last):
            continue
        value = prefix + f"{opt.name}={opt.default if opt.type is not bool else str(opt.default).lower()}"
        out.append(app_commands.Choice(name=choice_words.option_choice(value, opt, lang)[:100], value=value[:100]))
    return out[:25]


async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Presets of the chosen game: the server's, then the shipped ones."""
    variant = getattr(interaction.namespace, "variant", None) or DEFAULT_GAME
    names = await interaction.client.settings.preset_names(interaction.guild_id, variant)
    return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]


async def create(bot, interaction: discord.Interaction, variant: str, preset: str | None, options: str | None,
                 pace: str | None = None) -> None:
    """Open a table in the channel with the user seated, at ``pace`` (``normal``/``relaxed``)."""
    lang = user_lang(interaction)
    bot.user_langs[interaction.user.id] = lang
    try:
        find_variant(variant)
    except KeyError:
        return await reply_error(interaction, ServiceError(
            "unknown_variant", variant=variant, known=", ".join(v.id for v in all_variants())))
    try:
        opts = await bot.settings.new_table_options(interaction.guild_id, interaction.channel_id, variant,
                                                    preset, parse_options(options), pace)
        table = await within(interaction, bot.service.create_table(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id,
            name=interaction.user.display_name, variant=variant, options=opts, lang=lang,
            channel_name=getattr(interaction.channel, "name", None)))
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, table_message.created(variant, lang, table.options))


async def end(bot, interaction: discord.Interaction) -> None:
    """Close the channel's table (its creator or a server admin)."""
    try:
        await bot.service.end(interaction.channel_id, interaction.user.id, is_admin(interaction))
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, table_message.closed(user_lang(interaction)))


async def lobby_op(bot, interaction: discord.Interaction, op: str, channel_id: int | None = None,
                   arg: int | None = None, level: str | None = None) -> None:
    """``join``, ``leave``, ``addai`` (``level``: the AI's, default strong), ``start``, ``next``
    (``arg``: the finished hand), ``takeover``: stored, then answered privately, before the
    table hears of it."""
    lang = user_lang(interaction)
    bot.user_langs[interaction.user.id] = lang
    service = bot.service
    ch = channel_id or interaction.channel_id
    uid, name = interaction.user.id, interaction.user.display_name
    ops = {
        "join": lambda: service.join(ch, uid, name),
        "leave": lambda: service.leave(ch, uid),
        "addai": lambda: service.add_ai(ch, uid) if level is None else service.add_ai(ch, uid, level),
        "start": lambda: service.start(ch, uid),
        "next": lambda: service.next_hand(ch, uid, after_hand=arg),
        "takeover": lambda: service.take_over(ch, uid),
    }
    if op not in ops:
        return await reply_error(interaction, ServiceError("unknown_button"))
    table = service.tables.get(ch)
    if table is not None and table.channel_name is None:  # a table resumed after a restart
        messages.note_channel(table, interaction.channel)
    seat = table.seat_of(uid) if table is not None else None
    was_auto = op == "join" and seat is not None and table.seats[seat].auto
    async with answering(bot, ch):  # the table hears after this player
        try:
            await within(interaction, ops[op]())
        except ServiceError as e:
            return await reply_error(interaction, e)
        if op == "takeover" or was_auto:
            return await _taken_over(bot, interaction, ch, lang)
        await answer(reply(interaction, table_message.done(lang)))


async def _taken_over(bot, interaction: discord.Interaction, channel_id: int, lang: str) -> None:
    """Answer a take-over: the player's hand, and the buttons when they decide now."""
    table = bot.service.tables.get(channel_id)
    seat = table.seat_of(interaction.user.id) if table is not None else None
    if table is None or seat is None or table.hand is None:
        return await answer(reply(interaction, prompts.taken_over(lang)))
    kwargs = await messages.hand_message(table, seat, lang, head=prompts.taken_over(lang))
    if kwargs.get("view") is None:
        kwargs.pop("view")
    await answer(reply(interaction, ephemeral=True, **kwargs))


async def on_table_button(bot, interaction: discord.Interaction, button) -> None:
    """A button of the public table message (``cogs.components.TableButton``)."""
    table = bot.service.tables.get(button.ch)
    if table is not None and table.channel_name is None:  # a table resumed after a restart
        messages.note_channel(table, interaction.channel)
    if button.op == "hand":
        return await send_hand(bot, interaction, channel_id=button.ch)
    await lobby_op(bot, interaction, button.op, channel_id=button.ch, arg=button.arg)
