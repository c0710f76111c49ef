"""A lobby's settings on its table message, for the table's creator until **Start**: the
**Rules** button (the game's own options, by form: ``cogs/rules_form.py``) and three menus of
the shared options — the pace (the timers of ``service.presets.PACES``), the match's length
(``match_hands``) and what auto-play (托管) plays (``auto_play_ai``).

The table message is a classic message (an embed): at most 5 rows.  The lobby's rows:

1. the buttons **Join**, **Add AI**, **Start**, **Leave**, **Rules** (``mjt:<channel>:<op>``;
   the Rules button of form *n* of a game with several: ``mjt:<channel>:rules:<n>``);
2. the pace menu ``mjo:<channel>:pace`` (values ``normal``, ``relaxed``);
3. the match menu ``mjo:<channel>:hands`` (values: hands, ``0`` until the table is ended);
4. the auto-play menu ``mjo:<channel>:auto`` (values ``on``, ``off``).

Whoever else uses them is told privately that only the creator may
(``Lobby.check_may_change_options``); a change is stored before it is acknowledged, and the
table message shows the options that differ from the game's defaults.
"""

from __future__ import annotations

import discord

from engine.variants import find_variant
from render.text import t
from service.presets import PACES
from service.tables import ServiceError

from .common import answer, answering, reply, reply_error, remember_lang, within
from .rules_form import fix_label, form_id, option_groups, prefilled, rules_form, take

#: the match lengths the menu offers (0: until the table is ended); the table's own is added
HANDS = (0, 1, 2, 4, 8, 12, 16, 24)
#: the rows of the settings menus (the buttons take row 0)
PACE_ROW, HANDS_ROW, AUTO_ROW = 1, 2, 3
#: the menus' keys (``mjo:<channel>:<key>``)
MENUS = ("pace", "hands", "auto")


def current_pace(options: dict, timers: dict[str, dict]) -> str | None:
    """The pace whose timers (``timers[pace]``) the table's ``options`` have, if one."""
    for pace in PACES:
        if timers.get(pace) and all(options.get(k) == v for k, v in timers[pace].items()):
            return pace
    return None


def pace_menu_options(options: dict, timers: dict[str, dict], lang: str) -> list[discord.SelectOption]:
    """The pace menu: each pace by its seconds a move, the table's marked; a table on timers of
    its own has them as a third choice (``custom``)."""
    now = current_pace(options, timers)
    out = [discord.SelectOption(label=t(f"form.pace_{p}", lang, discard=timers[p].get("discard_timeout", "?"))[:100],
                                value=p, default=p == now) for p in PACES if timers.get(p)]
    if now is None:
        out.append(discord.SelectOption(label=t("form.pace_custom", lang, discard=options.get("discard_timeout", "?"))[:100],
                                        value="custom", default=True))
    return out


def hands_menu_options(options: dict, lang: str) -> list[discord.SelectOption]:
    now = int(options.get("match_hands", 0) or 0)
    values = sorted(set(HANDS) | {now})
    return [discord.SelectOption(label=(t("form.hands_n", lang, n=n) if n else t("form.hands_open", lang))[:100],
                                 value=str(n), default=n == now) for n in values]


def auto_menu_options(options: dict, lang: str) -> list[discord.SelectOption]:
    now = bool(options.get("auto_play_ai"))
    return [discord.SelectOption(label=t("form.auto_off", lang)[:100], value="off", default=not now),
            discord.SelectOption(label=t("form.auto_on", lang)[:100], value="on", default=now)]


def settings_items(snap, timers: dict[str, dict], select_cls, button_cls) -> list[discord.ui.Item]:
    """The Rules button (``button_cls``, ``cogs.components.TableButton``; none for a game
    without options of its own) and the three menus (``select_cls``,
    ``cogs.components.LobbySelect``) of a lobby's message, in the table's language;
    ``timers``: ``{pace: its timers}`` (:func:`paces_of`)."""
    lang, ch, options = snap.lang, snap.channel_id, dict(snap.options)
    out: list[discord.ui.Item] = []
    parts = len(option_groups(snap.game.options))
    if parts:
        label = t("form.button_rules", lang) if parts == 1 else t("form.button_part", lang, n=1, of=parts)
        out.append(button_cls(ch, "rules", label, discord.ButtonStyle.secondary))
    menus = (("pace", pace_menu_options(options, timers, lang), PACE_ROW),
             ("hands", hands_menu_options(options, lang), HANDS_ROW),
             ("auto", auto_menu_options(options, lang), AUTO_ROW))
    for key, opts, row in menus:
        out.append(select_cls(ch, key, opts, t(f"form.{key}_placeholder", lang), row))
    return out


def paces_of(variant: str) -> dict[str, dict]:
    """``{pace: its timers}`` from the game's own and shipped timers: what the pace menu names
    and what choosing a pace sets (timers of a server's own defaults show as the table's own,
    ``custom``)."""
    from service.presets import pace_options

    info = find_variant(variant)
    base = info.resolve_options({})
    keys = set(pace_options(variant, "relaxed"))
    return {p: {k: pace_options(variant, p).get(k, base[k]) for k in sorted(keys)} for p in PACES}


async def open_rules(bot, interaction: discord.Interaction, channel_id: int, part: int) -> None:
    """The Rules button (``part``: which form of a game with several): the creator of a lobby
    gets the form, prefilled with the table's options — or with what they typed into it last
    when that was refused (the form is the click's first answer); anyone else a private
    refusal.  The submission comes to :func:`rules_submitted`."""
    lang = await remember_lang(interaction)
    try:
        bot.service.check_may_change_options(channel_id, interaction.user.id)
        snap = bot.service.snapshot(channel_id)
        info = find_variant(snap.game.id)
    except ServiceError as e:
        return await reply_error(interaction, e)
    fid = form_id("t", part, f"{channel_id}:{snap.table_id}")
    form = rules_form(info, part, prefilled(bot, interaction, fid, dict(snap.options)), lang, fid)
    if form is None:
        return await reply_error(interaction, ServiceError("outdated"))
    await interaction.response.send_modal(form)


async def rules_submitted(bot, interaction: discord.Interaction, channel_id: int, table_id: int, part: int,
                          raw: dict[str, str]) -> None:
    """A lobby's rules form sent (``raw``: the submitted texts): refused unless it is of the
    channel's table now (``table_id``), from its creator, before Start; then checked whole
    and stored (:func:`apply`)."""
    from .components import TableButton

    lang = await remember_lang(interaction)
    try:
        snap = bot.service.find_snapshot(channel_id)
        if snap is None or snap.table_id != table_id:
            raise ServiceError("form_outdated")
        bot.service.check_may_change_options(channel_id, interaction.user.id)
    except ServiceError as e:
        return await reply_error(interaction, e)
    again = TableButton(channel_id, "rules", fix_label(lang), discord.ButtonStyle.primary, part)
    values = await take(bot, interaction, snap.game.options, part, raw, again)
    if values is not None:
        await apply(bot, interaction, channel_id, values, "form.saved_table", part + 1)


async def apply(bot, interaction: discord.Interaction, channel_id: int, changes: dict, said: str,
                next_part: int | None = None) -> None:
    """Store ``changes`` to a lobby's options (``TableService.set_options``: all or none),
    then answer privately (``said``: the catalogue key) — with the button of the game's next
    rules form when ``next_part`` names one; the table message is redrawn after."""
    lang = await remember_lang(interaction)
    async with answering(bot, channel_id):
        try:
            snap = await within(interaction, bot.service.set_options(channel_id, interaction.user.id, changes))
        except ServiceError as e:
            return await reply_error(interaction, e)
        view = None
        parts = len(option_groups(snap.game.options)) if snap is not None else 0
        text = t(said, lang)
        if next_part is not None and next_part < parts:
            from .components import TableButton

            text += "\n" + t("form.more_parts", lang, n=next_part + 1, of=parts)
            view = discord.ui.View(timeout=None)
            view.add_item(TableButton(channel_id, "rules", t("form.button_part", lang, n=next_part + 1, of=parts),
                                      discord.ButtonStyle.primary, next_part))
        await answer(reply(interaction, text, **({"view": view} if view is not None else {})))


async def on_menu(bot, interaction: discord.Interaction, channel_id: int, key: str, value: str) -> None:
    """A choice in one of the lobby's menus (``key``: ``pace``, ``hands``, ``auto``)."""
    try:
        bot.service.check_may_change_options(channel_id, interaction.user.id)
        snap = bot.service.snapshot(channel_id)
        if key == "pace":
            if value == "custom":  # the table's own timers, already in force
                return await reply(interaction, t("form.saved_setting", await remember_lang(interaction)))
            changes = paces_of(snap.game.id).get(value)  # the timers the menu names
            if changes is None:
                raise ServiceError("unknown_button")
        elif key == "hands":
            changes = {"match_hands": value}
        elif key == "auto":
            changes = {"auto_play_ai": value}
        else:
            raise ServiceError("unknown_button")
    except ServiceError as e:
        return await reply_error(interaction, e)
    await apply(bot, interaction, channel_id, changes, "form.saved_setting")


__all__ = ["HANDS", "MENUS", "apply", "current_pace", "on_menu", "open_rules", "paces_of", "rules_submitted",
           "settings_items"]
