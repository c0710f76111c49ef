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
from render.text import help as help_words
from render.text import prompts, table_message
from render.text import records as choice_words
from render.text import lang_of, t
from service.guilds import table_language
from service.tables import PLAYING, ServiceError

from . import lobby_settings, messages, permissions
from .emojis import sending_panel
from .common import answer, answering, is_admin, remember_lang, reply, reply_error, user_lang, within
from .components import TableButton
from .markup import shown
from .play import send_hand
from .rules_form import fix_label, form_id, option_groups, prefilled, rules_form, take

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
    return option_choices(info, current, user_lang(interaction))


def option_choices(info, current: str, lang: str, keep=lambda opt: True) -> list[app_commands.Choice[str]]:
    """The suggestions for ``current``, a ``key=value …`` text of the game ``info``'s options
    (those ``keep(option)`` accepts): the keys not yet typed, or the allowed values of the key
    being typed; at most 25."""
    words = current.split(" ")
    done, last = words[:-1], words[-1]
    prefix = " ".join(done) + (" " if done else "")
    used = {w.split("=", 1)[0] for w in done if "=" in w}
    out: list[app_commands.Choice[str]] = []
    if "=" in last:
        key, typed = last.split("=", 1)
        opt = next((o for o in info.options if o.name == key and keep(o)), None)
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
        if opt.name in used or not opt.name.startswith(last) or not keep(opt):
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
                 pace: str | None = None, hands: int | None = None, rules: bool = False) -> None:
    """Open a table in the channel with the user seated, at ``pace`` (``normal``/``relaxed``);
    ``hands``: the match's length (option ``match_hands``, 1–100; ``None``: the server's
    default or preset, else open-ended); ``rules``: first a form of the game's own options
    (``cogs/rules_form.py``), prefilled with what the table would get — the table opens with
    the form's values once it is sent (the form is the command's first answer: nothing before
    it defers)."""
    lang = await remember_lang(interaction)
    try:
        info = find_variant(variant)
    except KeyError:
        return await reply_error(interaction, ServiceError(
            "unknown_variant", variant=variant, known=", ".join(v.id for v in all_variants())))
    lacking = _lacking(interaction, lang)
    if lacking is not None:  # a table nobody could see would only block the channel
        return await reply_error(interaction, lacking)
    try:
        typed = parse_options(options)
        if hands is not None:
            if not 1 <= hands <= 100:
                raise ServiceError("option_bad_value", option="hands", value=hands, allowed="1–100")
            typed["match_hands"] = hands
        opts = await bot.settings.new_table_options(interaction.guild_id, interaction.channel_id, variant,
                                                    preset, typed, pace)
        if rules and option_groups(info.options):
            if bot.service.find_snapshot(interaction.channel_id) is not None:
                raise ServiceError("table_exists")
            # what the command said waits in the store for the form (which is not kept in memory)
            token = str(interaction.id)
            await bot.settings.hold_new_table(interaction.channel_id, interaction.user.id, token, info.id, opts, lang)
            return await open_new_rules(bot, interaction, info, 0, token, opts)
    except ServiceError as e:
        return await reply_error(interaction, e)
    await _open(bot, interaction, variant, opts, lang)


def _lacking(interaction: discord.Interaction, lang: str) -> ServiceError | None:
    """``missing_permissions`` when the bot lacks what a table in the channel needs."""
    lacking = permissions.missing(interaction.app_permissions, isinstance(interaction.channel, discord.Thread))
    if not lacking:
        return None
    return ServiceError("missing_permissions", perms=help_words.permission_names(lacking, lang))


async def open_new_rules(bot, interaction: discord.Interaction, info, part: int, token: str,
                         opts: dict | None = None) -> None:
    """Form ``part`` of the rules of the new table held under ``token`` (``opts``: the options
    the command resolved, else those held in the store), prefilled with them or with what was
    typed and refused; the submission comes to :func:`rules_submitted`."""
    lang = await remember_lang(interaction)
    try:
        if bot.service.find_snapshot(interaction.channel_id) is not None:
            raise ServiceError("table_exists")
        if opts is None:
            opts = (await bot.settings.held_new_table(interaction.guild_id, interaction.channel_id,
                                                      interaction.user.id, token, info.id))["options"]
    except ServiceError as e:
        return await reply_error(interaction, e)
    fid = form_id("c", part, f"{info.id}:{token}")
    form = rules_form(info, part, prefilled(bot, interaction, fid, info.resolve_options(opts)), lang, fid)
    if form is None:
        return await reply_error(interaction, ServiceError("form_outdated"))
    await interaction.response.send_modal(form)


async def rules_submitted(bot, interaction: discord.Interaction, info, token: str, part: int,
                          raw: dict[str, str]) -> None:
    """A new table's rules form sent: the channel, the bot's permissions and the form's
    currency checked again, the values checked whole, then the table opens with the command's
    options and the form's values (:func:`_open`)."""
    from .components import FormButton

    lang = await remember_lang(interaction)
    try:
        if bot.service.find_snapshot(interaction.channel_id) is not None:
            raise ServiceError("table_exists")
        held = await bot.settings.held_new_table(interaction.guild_id, interaction.channel_id,
                                                 interaction.user.id, token, info.id)
        lacking = _lacking(interaction, lang)
        if lacking is not None:
            raise lacking
    except ServiceError as e:
        return await reply_error(interaction, e)
    values = await take(bot, interaction, info.options, part, raw,
                        FormButton("c", info.id, part, token, fix_label(lang)))
    if values is None:
        return
    await _open(bot, interaction, info.id, {**held["options"], **values}, held.get("lang") or lang,
                rules_part=part + 1)
    if bot.service.find_snapshot(interaction.channel_id) is not None:
        await bot.settings.release_new_table(interaction.channel_id, interaction.user.id)


async def _open(bot, interaction: discord.Interaction, variant: str, opts: dict, lang: str,
                rules_part: int | None = None) -> None:
    """Open the table with ``opts`` and answer privately; ``rules_part``: the game's next rules
    form, offered by a button when the game has one (a game with more options than a form
    holds)."""
    try:
        server = await bot.settings.server(interaction.guild_id)
        table = await within(interaction, bot.service.create_table(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id,
            name=interaction.user.display_name, variant=variant, options=opts,
            lang=public_language(interaction, server.language, lang), lobby_minutes=server.lobby_minutes,
            channel_name=getattr(interaction.channel, "name", None)))
    except ServiceError as e:
        return await reply_error(interaction, e)
    parts = len(option_groups(find_variant(variant).options))
    if rules_part is None or rules_part >= parts:
        return await reply(interaction, table_message.created(table.game, lang, table.options))
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(interaction.channel_id, "rules", t("form.button_part", lang, n=rules_part + 1, of=parts),
                              discord.ButtonStyle.primary, rules_part))
    await reply(interaction, table_message.created(table.game, lang, table.options) + "\n"
                + t("form.more_parts", lang, n=rules_part + 1, of=parts), view=view)


async def note_channel(bot, channel_id: int, channel) -> None:
    """Tell the service the name of a table's channel (``interaction.channel``) when it is
    known — a table resumed after a restart learns it so."""
    name = getattr(channel, "name", None)
    if name and getattr(channel, "id", channel_id) == channel_id:
        await bot.service.note_channel_name(channel_id, str(name))


def public_language(interaction: discord.Interaction, setting: str, creator: str) -> str:
    """The language of a new table's public messages (``service.guilds.table_language``): the
    server setting, else the server's locale on a Community server, else the creator's."""
    guild = interaction.guild
    community = guild is not None and "COMMUNITY" in guild.features
    locale = lang_of(guild.preferred_locale) if community else None
    return table_language(setting, creator, community, locale)


async def show(bot, interaction: discord.Interaction) -> None:
    """``/mj table show``: a seated player has the table message posted again at the bottom
    of the channel (by the table's fan-out task; the old message is deleted)."""
    try:
        snap = bot.service.snapshot(interaction.channel_id)
        if snap.seat_of(interaction.user.id) is None:
            raise ServiceError("not_seated")
    except ServiceError as e:
        return await reply_error(interaction, e)
    async with answering(bot, interaction.channel_id):  # the player hears first
        bot.fanout.repost(snap)
        await answer(reply(interaction, table_message.done("show", user_lang(interaction))))


async def on_channel_message(bot, message: discord.Message) -> None:
    """Another message in a table's channel (not the bot's own): after the server's
    ``repost_after`` of them the table message is posted again."""
    if message.guild is None or bot.user is None or message.author.id == bot.user.id:
        return
    snap = bot.service.find_snapshot(message.channel.id)
    if snap is None:
        return
    server = await bot.settings.server(message.guild.id)
    if server.repost_after > 0:
        bot.fanout.message_seen(snap, server.repost_after)


async def end(bot, interaction: discord.Interaction) -> None:
    """Close the channel's table (its creator or a server admin; anyone once its lobby is
    idle, see ``TableService.end``)."""
    try:
        await bot.service.end(interaction.channel_id, interaction.user.id, is_admin(interaction))
    except ServiceError as e:
        return await reply_error(interaction, e)
    await reply(interaction, table_message.closed(user_lang(interaction)))


async def lobby_op(bot, interaction: discord.Interaction, op: str, channel_id: int | None = None,
                   arg: int | None = None, level: str | None = None) -> None:
    """``join`` (``arg``: the seat asked for, 0-based, once the game runs), ``leave``,
    ``addai`` (``level``: the AI's), ``start``, ``next`` (``arg``: the finished hand),
    ``takeover``: stored, then answered privately, before the table hears of it."""
    lang = await remember_lang(interaction)
    service = bot.service
    ch = channel_id or interaction.channel_id
    uid, name = interaction.user.id, interaction.user.display_name
    ops = {
        "join": lambda: service.join(ch, uid, name, arg),
        "leave": lambda: service.leave(ch, uid),
        "addai": lambda: service.add_ai(ch, uid) if level is None else service.add_ai(ch, uid, level),
        "start": lambda: service.start(ch, uid),
        "next": lambda: service.next_hand(ch, uid, after_hand=arg),
        "takeover": lambda: service.take_over(ch, uid),
    }
    if op not in ops:
        return await reply_error(interaction, ServiceError("unknown_button"))
    snap = service.find_snapshot(ch)
    await note_channel(bot, ch, interaction.channel)
    seat = snap.seat_of(uid) if snap is not None else None
    was_auto = op == "join" and seat is not None and snap.seats[seat].auto
    late = snap is not None and seat is None and snap.status == PLAYING  # a seat change in a match
    async with answering(bot, ch):  # the table hears after this player
        try:
            await within(interaction, ops[op]())
        except ServiceError as e:
            return await reply_error(interaction, e)
        if op == "takeover" or was_auto:
            return await _taken_over(bot, interaction, ch, lang)
        if late and op in ("join", "leave"):
            return await answer(reply(interaction, _late_answer(service.find_snapshot(ch), uid, lang)))
        await answer(reply(interaction, _done(op, service.find_snapshot(ch), uid, lang)))


def _done(op: str, snap, user_id: int, lang: str) -> str:
    """What the player who asked for ``op`` is told once it is done (``snap``: the table's
    snapshot after it): the seat they or the AI sit in, that the game started …"""
    params: dict = {}
    if op == "join" and snap is not None and snap.seat_of(user_id) is not None:
        params["seat"] = snap.seat_of(user_id) + 1
    elif op == "addai" and snap is not None and any(s.is_ai for s in snap.seats):
        ai = max((s for s in snap.seats if s.is_ai), key=lambda s: s.seat)
        params.update(seat=ai.seat + 1, level=table_message.ai_level_name(ai.ai_level or "normal", lang))
    elif op in ("join", "addai"):
        params.update(seat="?", level="")
    elif op == "next" and (snap is None or snap.closed or snap.hand_id is None):
        return table_message.closed(lang)  # the match ended with that hand: no hand is dealt
    return table_message.done(op, lang, **params)


def _late_answer(snap, user_id: int, lang: str) -> str:
    """What a player who was not seated at a running game is told after ``join``/``leave``
    (``snap``: the table's latest snapshot): the seat they sit in now, the seat they will sit
    in at the next deal, or that they no longer wait."""
    seat = snap.seat_of(user_id) if snap is not None else None
    if seat is not None:
        return table_message.seat_change("seat_now", lang, seat=seat + 1)
    queued = next((q for q in (snap.queue if snap is not None else ()) if q["user_id"] == user_id), None)
    if queued is not None:
        return table_message.seat_change("seat_queued", lang, seat=queued["seat"] + 1)
    return table_message.seat_change("unqueued", lang)


async def replace(bot, interaction: discord.Interaction, player) -> None:
    """``/mj table replace``: hand an absent player's seat to the AI (the creator or an admin at
    once; a vote of another seated player otherwise), stored, then answered privately."""
    lang = await remember_lang(interaction)
    ch = interaction.channel_id
    async with answering(bot, ch):
        try:
            outcome, params = await within(interaction, bot.service.hand_to_ai(
                ch, interaction.user.id, player.id, is_admin(interaction)))
        except ServiceError as e:
            return await reply_error(interaction, e)
        await answer(reply(interaction, table_message.seat_change(
            "replaced" if outcome == "done" else "vote_cast", lang,
            **{k: shown(v) if k == "name" else v for k, v in params.items()})))


async def _taken_over(bot, interaction: discord.Interaction, channel_id: int, lang: str) -> None:
    """Answer a take-over: the player's hand, and the buttons when they decide now."""
    snap = bot.service.find_snapshot(channel_id)
    seat = snap.seat_of(interaction.user.id) if snap is not None else None
    if snap is None or seat is None or snap.hand_id is None or not snap.parts[seat].dealt:
        return await answer(reply(interaction, prompts.taken_over(lang)))
    async def send(again: bool) -> None:  # drawn anew each time: Discord may refuse one of its emojis
        payload = messages.panel_payload(messages.panel_of(snap, seat, head=prompts.taken_over(lang), lang=lang,
                                                                 emojis=bot.tile_emojis))
        await reply(interaction, ephemeral=True, **payload)

    await answer(sending_panel(bot, send))


async def on_table_button(bot, interaction: discord.Interaction, button) -> None:
    """A button of the public table message (``cogs.components.TableButton``)."""
    await note_channel(bot, button.ch, interaction.channel)
    if button.op == "hand":
        return await send_hand(bot, interaction, channel_id=button.ch)
    if button.op == "rules":  # the form must be the click's first answer
        return await lobby_settings.open_rules(bot, interaction, button.ch, button.arg or 0)
    await lobby_op(bot, interaction, button.op, channel_id=button.ch, arg=button.arg)
