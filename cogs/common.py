"""Helpers shared by the cogs: the user's language, answering an interaction in time, the
one error path, which table a command is about.

Answering in time (Discord gives 3 seconds for the first response of an interaction):
the cheap checks run first and a refusal is answered at once; the work (the table's lock,
the engine, the database write) runs next, and :func:`within` defers the interaction —
privately — only when the work is not done after the bot's ``defer_after`` seconds (default
:data:`DEFER_AFTER`; waited for by its ``defer_timer``, ``asyncio.sleep``).  An action is
never shown as accepted before the store accepted it: the answer is built from the state
after the write.  The fan-out to the table message and the other players' DMs happens after,
in the table's own task (``cogs/fanout.py``).

The one error path (:func:`handle_error`): slash commands through ``CommandTree.on_error``,
the bot's buttons and menus through :class:`Guarded` (discord.py only logs the exception of a
``DynamicItem`` callback and never calls ``View.on_error``).  A refusal of the rules or the
table gets its own private text; anything else is logged with the table and hand, the table
is rebuilt from the store, and the user is told privately that nothing was lost.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Optional, TypeVar

import discord
from discord import app_commands

from engine.errors import IllegalAction
from engine.facts import GameFacts
from render.text import error_text, lang_of
from service.tables import ServiceError, TableFault, TableService
from .markup import shown

log = logging.getLogger(__name__)
T = TypeVar("T")

#: seconds of work after which an interaction is deferred before it is answered (the bot's
#: ``defer_after`` setting; ``None`` there: never deferred for time)
DEFER_AFTER = 1.5


def user_lang(interaction: discord.Interaction) -> str:
    """The catalogue language of the user's Discord language (``interaction.locale``)."""
    return lang_of(interaction.locale)


async def remember_lang(interaction: discord.Interaction) -> str:
    """The user's language (:func:`user_lang`), remembered by the table service for what the
    bot sends them alone later (their panel, notices), also after a restart; stored only when
    it changed."""
    lang = user_lang(interaction)
    service = getattr(interaction.client, "service", None)
    if service is not None:
        await service.remember_lang(interaction.user.id, lang)
    return lang


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kwargs) -> None:
    """Answer an interaction whether or not it was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(content=content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content=content, ephemeral=ephemeral, **kwargs)


async def edit_clicked(interaction: discord.Interaction, **kwargs) -> None:
    """Redraw the message whose component was used (the answer to a click), whether or not
    the interaction was deferred first."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def within(interaction: discord.Interaction, work: Awaitable[T], *, update: bool = False) -> T:
    """Await ``work``; when it takes longer than the bot's ``defer_after`` seconds
    (:data:`DEFER_AFTER` unless set; ``None``: never), acknowledge the interaction first so its
    answer may come later: privately ("thinking…", only the user sees it) for a command, a
    deferred update for a click (``update=True``).  The seconds pass on the bot's
    ``defer_timer`` (``asyncio.sleep`` unless set: ``(seconds) -> awaitable``)."""
    task = asyncio.ensure_future(work)
    after = getattr(interaction.client, "defer_after", DEFER_AFTER)
    if after is None:
        return await task
    timer = asyncio.ensure_future(getattr(interaction.client, "defer_timer", asyncio.sleep)(after))
    try:
        await asyncio.wait({task, timer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
    if not task.done() and not interaction.response.is_done():
        try:
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as exc:
            log.warning("could not defer an interaction: %s", exc)
    return await task


def answering(client, channel_id: int):
    """Context for handling an interaction that changes the table of ``channel_id``: the
    table's fan-out waits until the interaction is answered (``cogs/fanout.py``)."""
    import contextlib

    fanout = getattr(client, "fanout", None)
    return fanout.answering(channel_id) if fanout is not None else contextlib.nullcontext()


async def answer(awaitable) -> bool:
    """Await an answer to an interaction (a reply, an edit of the clicked message).  When it
    cannot be delivered — the token expired (404 10062 / 401 50027), Discord is failing —
    the request itself is already done and stored, so this only logs; ``False`` then."""
    try:
        await awaitable
        return True
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction: %s", exc)
        return False


def refusal_text(exc: ServiceError | IllegalAction, lang: str, game: Optional[GameFacts],
                 here: Optional[int]) -> str:
    """The words of a refusal to a user in channel ``here`` (``None``: not known): a table
    that is gone from another channel than ``here`` (a DM's panel, a routed click) is named
    by its channel, not called "this channel"'s."""
    code, params = exc.code, dict(exc.params)
    if code == "no_table" and params.get("channel") is not None and params["channel"] != here:
        code, params = "no_table_there", {"channel": f"<#{params['channel']}>"}
    return error_text(code, lang, params, game, shown=shown)


async def reply_error(interaction: discord.Interaction, exc: Exception) -> None:
    """A clear, private message for a refused request (the game is unchanged)."""
    lang = user_lang(interaction)
    if isinstance(exc, (ServiceError, IllegalAction)):
        text = refusal_text(exc, lang, _game_here(interaction), interaction.channel_id)
    else:
        text = error_text("internal", lang)
    try:
        await reply(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply")


async def handle_error(interaction: discord.Interaction, exc: BaseException, where: str = "") -> None:
    """The one error path of commands, buttons and menus (see the module docstring)."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, (ServiceError, IllegalAction)):
        return await reply_error(interaction, exc)
    if isinstance(exc, app_commands.NoPrivateMessage):
        return await reply_error(interaction, ServiceError("guild_only"))
    if isinstance(exc, app_commands.CheckFailure):
        return await reply_error(interaction, ServiceError("admin_only"))
    if isinstance(exc, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        # a client still showing a command list from before the bot's commands changed
        log.info("a command the bot no longer has as sent: %s", exc)
        return await reply_error(interaction, ServiceError("unknown_command"))
    service: Optional[TableService] = getattr(interaction.client, "service", None)
    snap = _snapshot_here(interaction)
    if isinstance(exc, TableFault):
        table_id, hand_id = exc.table_id, exc.hand_id
        cause = exc.cause
    else:
        table_id = snap.table_id if snap is not None else None
        hand_id = snap.hand_id if snap is not None else None
        cause = exc
        if service is not None and snap is not None:
            try:
                await service.reload(snap.channel_id)
            except Exception:
                log.exception("could not rebuild table %s from the store", table_id)
    log.error("unexpected error in %s (table %s hand %s, user %s)", where or _what(interaction), table_id, hand_id,
              interaction.user.id if interaction.user else None, exc_info=cause)
    await reply_error(interaction, cause if isinstance(cause, (ServiceError, IllegalAction)) else RuntimeError())


def _what(interaction: discord.Interaction) -> str:
    data = interaction.data or {}
    if interaction.type is discord.InteractionType.application_command:
        return f"/{getattr(interaction.command, 'qualified_name', data.get('name', '?'))}"
    return f"component {data.get('custom_id', '?')!r}"


def _snapshot_here(interaction: discord.Interaction):
    """The latest snapshot of the table an interaction is about, if one can be told without
    asking."""
    service = getattr(interaction.client, "service", None)
    if service is None:
        return None
    cid = str((interaction.data or {}).get("custom_id", ""))
    parts = cid.split(":")
    if len(parts) >= 2 and parts[0] in ("mj", "mjs", "mjt") and parts[1].isdigit():
        snap = service.find_snapshot(int(parts[1]))
        if snap is not None:
            return snap
    try:
        return snapshot_for(service, interaction)
    except ServiceError:
        return None


def _game_here(interaction: discord.Interaction) -> GameFacts | None:
    """The facts of the game of the table this interaction is about, if any (for its own
    words)."""
    snap = _snapshot_here(interaction)
    return snap.game if snap is not None else None


def snapshot_for(service: TableService, interaction: discord.Interaction):
    """The latest snapshot of the table a command is about: the channel's table, or in a DM
    the user's table where they may act (``which_table`` when that is not clear)."""
    if interaction.guild_id is None:
        return service.snapshot_for_user(interaction.user.id)
    return service.snapshot(interaction.channel_id)


def is_admin(interaction: discord.Interaction) -> bool:
    """Server admin: Manage Server or Administrator (the member's resolved permissions that
    Discord sends with the interaction)."""
    perms = interaction.permissions
    return bool(perms and (perms.manage_guild or perms.administrator))


async def admit(interaction: discord.Interaction) -> bool:
    """Whether to handle an interaction: the bot's clean stop (``cogs.shutdown.Shutdown.admit``)
    answers it "restarting" and says ``False`` once the bot is stopping; ``True`` for a client
    without one."""
    shutdown = getattr(interaction.client, "shutdown", None)
    return True if shutdown is None else await shutdown.admit(interaction)


class Guarded:
    """Mixin for the bot's persistent buttons and menus: ``callback`` runs ``run`` through
    the one error path.  Subclasses implement ``async def run(self, interaction)``."""

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        if not await admit(interaction):  # the bot is stopping: answered "restarting"
            return
        try:
            await self.run(interaction)
        except Exception as exc:
            await handle_error(interaction, exc, where=f"component {getattr(self, 'custom_id', '?')!r}")

    async def run(self, interaction: discord.Interaction) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
