"""The rules form: a game's own options (those it declares beyond the shared ones,
``engine.options.TIMEOUT_OPTIONS``) as a Discord modal, in the player's language, prefilled
with the values in force; the same form opens at ``/mj table create rules:True``, from the
lobby's **Rules** button and at ``/mj config default|preset`` without options.

Discord's limits shape it: a modal holds at most :data:`MOST_INPUTS` Labels (text at most
:data:`LABEL_MOST` characters, description at most :data:`DESCRIPTION_MOST`), each wrapping one
input; there is no number input.  An option becomes

* on/off (``bool``): a radio group of the two words;
* a choice of 2 to 10 values: a radio group; of 11 to 25 (or a single value): a select;
* anything else (an integer range, more than 25 choices): a text input prefilled with the
  value, its placeholder naming the values allowed.

A game with more own options than a modal holds gets several forms (:func:`option_groups`:
"rules 1/2", "rules 2/2"), each applied on its own submission.  A submission is checked whole
before anything is applied (:func:`checked`): one refused value refuses the form, and the
answer names every refused value with the values allowed (``err.option_bad_value``); what the
player typed is kept (:func:`keep_draft`) for the form opened again.

A form is not kept in memory while it is open: its id (:func:`form_id`) says what it sets,
and ``cogs/form_submits.py`` reads the submission from it alone — a form sent across a
restart of the bot still counts.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import discord

from engine.errors import OptionError
from engine.options import TIMEOUT_OPTIONS, Option
from render.text import error_text, game_name, pick, t
from render.text.table_message import option_value_text

from service.tables import ServiceError

from .common import remember_lang, reply, reply_error
from .markup import shown

#: Discord's limits of a modal: its Labels, a Label's text and description, a radio group's
#: options, a select's options, a modal's title
MOST_INPUTS, LABEL_MOST, DESCRIPTION_MOST, RADIO_MOST, SELECT_MOST, TITLE_MOST = 5, 45, 100, 10, 25, 45
#: the values of an on/off radio group
ON, OFF = "on", "off"
SHARED = frozenset(o.name for o in TIMEOUT_OPTIONS)
#: what a form sets, as its id's first word: a lobby's rules (``t``), a server's defaults
#: (``d``), a preset (``p``), a new table's (``c``)
KINDS = "tdpc"
#: the refused drafts kept (the oldest go first); the longest text an input takes
MOST_DRAFTS, TEXT_MOST = 500, 100


def own_options(declared: Sequence[Option]) -> tuple[Option, ...]:
    """The options a game declares beyond the shared ones (timers, match length, auto-play)."""
    return tuple(o for o in declared if o.name not in SHARED)


def option_groups(declared: Sequence[Option], most: int = MOST_INPUTS) -> list[tuple[Option, ...]]:
    """The game's own options split into forms of at most ``most`` inputs, in declaration
    order (``[]`` for a game without options of its own)."""
    own = own_options(declared)
    return [own[i:i + most] for i in range(0, len(own), most)]


def _short(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def option_label(opt: Option, lang: str) -> str:
    """An option's short name in ``lang`` (``form.opt__<name>``; else its description),
    at most :data:`LABEL_MOST` characters."""
    key = f"form.opt__{opt.name}"
    text = t(key, lang)
    if text.endswith(key):  # not in the catalogue: the game's own description
        text = pick(opt.zh, opt.en, lang)
    return _short(text, LABEL_MOST)


def option_description(opt: Option, lang: str) -> str:
    """An option's one-line description in ``lang``, at most :data:`DESCRIPTION_MOST`
    characters."""
    return _short(pick(opt.zh, opt.en, lang), DESCRIPTION_MOST)


def value_text(opt: Option, value: Any) -> str:
    """A value as the form shows and submits it: ``on``/``off`` for on/off, else its text."""
    if opt.type is bool:
        return ON if value else OFF
    return str(value)


def _choices(opt: Option) -> Optional[list]:
    if opt.type is bool:
        return [True, False]
    return list(opt.choices) if opt.choices is not None else None


def option_input(opt: Option, value: Any, lang: str) -> discord.ui.Label:
    """The Label of one option, its input showing ``value`` (see the module docstring)."""
    cid = f"opt:{opt.name}"
    choices = _choices(opt)
    current = value_text(opt, value)

    def word(choice: Any) -> str:
        return option_value_text(opt, choice, lang)

    if choices is not None and 2 <= len(choices) <= RADIO_MOST:
        item: discord.ui.Item = discord.ui.RadioGroup(custom_id=cid, options=[
            discord.RadioGroupOption(label=word(c)[:100], value=value_text(opt, c), default=value_text(opt, c) == current)
            for c in choices])
    elif choices is not None and len(choices) <= SELECT_MOST:
        item = discord.ui.Select(custom_id=cid, min_values=1, max_values=1, options=[
            discord.SelectOption(label=word(c)[:100], value=value_text(opt, c), default=value_text(opt, c) == current)
            for c in choices])
    else:
        allowed = t("form.allowed", lang, allowed=opt.allowed())
        item = discord.ui.TextInput(custom_id=cid, default=current[:TEXT_MOST], placeholder=_short(allowed, 100),
                                    max_length=TEXT_MOST)
    return discord.ui.Label(text=option_label(opt, lang), description=option_description(opt, lang), component=item)


def form_id(kind: str, part: int, rest: str) -> str:
    """A form's id: ``mjform:<kind>:<part>:<rest>`` (``kind`` one of :data:`KINDS`; ``rest``:
    the channel, the game, or the game and the preset's name), at most 100 characters."""
    return f"mjform:{kind}:{part}:{rest}"[:100]


def read_submission(components: Sequence[dict]) -> dict[str, str]:
    """``{option name: submitted text}`` of a submitted form's components as Discord sends
    them (Labels wrapping one input, or action rows): a text input's or radio group's
    ``value``, a select's first of ``values``; an input left empty is absent."""
    out: dict[str, str] = {}
    for top in components:
        inner = [top["component"]] if "component" in top else list(top.get("components") or [])
        for c in inner:
            cid = str(c.get("custom_id") or "")
            if not cid.startswith("opt:"):
                continue
            value = c.get("value")
            if value is None and c.get("values"):
                value = c["values"][0]
            if value not in (None, ""):
                out[cid[4:]] = str(value).strip()
    return out


def _draft_key(interaction: Any, fid: str) -> tuple:
    """Drafts are the player's, in one server and channel, of one form (whose id names the
    table, the new table's command, or the game and preset)."""
    return (interaction.user.id, interaction.guild_id, interaction.channel_id, fid)


def keep_draft(bot: Any, interaction: Any, fid: str, raw: dict[str, str]) -> None:
    """Keep what the player typed into form ``fid`` when it was refused (each text cut to an
    input's :data:`TEXT_MOST` characters), for :func:`prefilled`; kept in memory, at most
    :data:`MOST_DRAFTS`, the oldest forgotten first."""
    drafts = bot.__dict__.setdefault("form_drafts", {})
    key = _draft_key(interaction, fid)
    drafts.pop(key, None)
    drafts[key] = {k: str(v)[:TEXT_MOST] for k, v in raw.items()}
    while len(drafts) > MOST_DRAFTS:
        drafts.pop(next(iter(drafts)))


def prefilled(bot: Any, interaction: Any, fid: str, values: dict) -> dict:
    """``values`` with what the player last typed into form ``fid`` and was refused over them."""
    return {**values, **(bot.__dict__.get("form_drafts") or {}).get(_draft_key(interaction, fid), {})}


def drop_draft(bot: Any, interaction: Any, fid: str) -> None:
    (bot.__dict__.get("form_drafts") or {}).pop(_draft_key(interaction, fid), None)


def checked(options: Sequence[Option], raw: dict[str, str]) -> tuple[dict, list[tuple[Option, str, str]]]:
    """``(values, refused)``: each submitted text converted by its option (``Option.coerce``)
    and the refused ones as ``(option, text, allowed)``; a refused form applies nothing."""
    values: dict = {}
    refused: list[tuple[Option, str, str]] = []
    for opt in options:
        if opt.name not in raw:
            continue
        try:
            values[opt.name] = opt.coerce(raw[opt.name])
        except OptionError as e:
            refused.append((opt, raw[opt.name], str(e.params.get("allowed", opt.allowed()))))
    return values, refused


def refusal_text(refused: list[tuple[Option, str, str]], lang: str) -> str:
    """The private answer to a refused form: nothing was changed, and each refused value
    with the values allowed (``err.option_bad_value``)."""
    lines = [error_text("option_bad_value", lang, {"option": t("form.quoted", lang, text=option_label(o, lang)), "value": text,
                                                    "allowed": allowed}, shown=shown)
             for o, text, allowed in refused]
    return error_text("form_bad_values", lang, {"lines": "\n".join(lines)})


def form_title(info: Any, lang: str, part: int, parts: int) -> str:
    """``老三番：规则`` (one form), ``老三番：规则 1/2`` (several), at most 45 characters."""
    name = game_name(info, lang)
    text = t("form.title", lang, game=name) if parts <= 1 else t("form.title_part", lang, game=name, n=part + 1, of=parts)
    return _short(text, TITLE_MOST)


class RulesForm(discord.ui.Modal):
    """One form of a game's own options (``options``, at most :data:`MOST_INPUTS`), each input
    showing ``values[name]`` (else the option's default).  Not kept while open: it is
    finished as it is made, so discord.py leaves its submission to ``cogs/form_submits.py``,
    which reads it by ``custom_id`` (:func:`form_id`)."""

    def __init__(self, *, title: str, options: Sequence[Option], values: dict, lang: str, custom_id: str):
        super().__init__(title=title, custom_id=custom_id[:100], timeout=None)
        if not 1 <= len(options) <= MOST_INPUTS:
            raise ValueError(f"a form holds 1 to {MOST_INPUTS} options, not {len(options)}")
        for opt in options:
            self.add_item(option_input(opt, values.get(opt.name, opt.default), lang))
        self.stop()


def form_options(declared: Sequence[Option], part: int) -> tuple[Option, ...]:
    """The options of form ``part`` (0-based) of a game declaring ``declared`` (``()``: no
    such form)."""
    groups = option_groups(declared)
    return groups[part] if 0 <= part < len(groups) else ()


def rules_form(info: Any, part: int, values: dict, lang: str, fid: str,
               declared: Optional[Sequence[Option]] = None) -> Optional[RulesForm]:
    """Form ``part`` (0-based) of game ``info``'s own options (``declared``: its options,
    ``info.options`` unless given), prefilled from ``values``, with id ``fid``; ``None`` when
    the game has no options of its own or no such part."""
    groups = option_groups(info.options if declared is None else declared)
    if not 0 <= part < len(groups):
        return None
    return RulesForm(title=form_title(info, lang, part, len(groups)), options=groups[part], values=values,
                     lang=lang, custom_id=fid)


async def take(bot: Any, interaction: discord.Interaction, declared, part: int, raw: dict[str, str],
               again: Optional[discord.ui.Item]) -> Optional[dict]:
    """The values of form ``part`` of a game declaring ``declared``, each converted by its
    option; ``None`` after answering a refusal (every refused value with the values allowed;
    what was typed kept for the form opened again by ``again``, a button) or a form that no
    longer exists (the game's options changed)."""
    options = form_options(declared, part)
    fid = str((interaction.data or {}).get("custom_id"))
    if not options:
        await reply_error(interaction, ServiceError("form_outdated"))
        return None
    values, refused = checked(options, raw)
    if refused:
        lang = await remember_lang(interaction)
        keep_draft(bot, interaction, fid, raw)
        view = None
        if again is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(again)
        await reply(interaction, refusal_text(refused, lang), **({"view": view} if view is not None else {}))
        return None
    drop_draft(bot, interaction, fid)
    return values


def fix_label(lang: str) -> str:
    """The label of the button that opens a refused form again."""
    return t("form.button_fix", lang)


__all__ = ["KINDS", "fix_label", "take", "MOST_INPUTS", "RulesForm", "checked", "drop_draft", "form_id", "form_options", "form_title",
           "keep_draft", "option_groups", "option_input", "option_label", "own_options", "prefilled",
           "read_submission", "refusal_text", "rules_form", "value_text"]
