"""Syncing the slash commands to Discord only when their definitions changed.

A sync (``CommandTree.sync``) replaces the application's commands and counts against a daily
limit, so the bot keeps the SHA-256 of the payload it last synced for each scope and syncs
again only when it differs.  The payload is hashed as it is sent — after translation, so a
change to a description in the catalogues (``data/i18n``) changes the hash and reaches
Discord.  The hash is kept by the caller (the bot keeps it in the store, ``bot_state``);
only one process of a sharded bot syncs (the one running shard 0).
"""

from __future__ import annotations

import hashlib
import json
from typing import Awaitable, Callable, Optional

import discord
from discord import app_commands


async def command_digest(tree: app_commands.CommandTree, guild: Optional[discord.abc.Snowflake] = None) -> str:
    """SHA-256 (hex) of the commands of ``tree`` for ``guild`` (``None``: the global ones)
    as a sync would send them: each command's translated payload
    (``Command.get_translated_payload``) or, without a translator, ``to_dict``."""
    translator = tree.translator
    payload = []
    for command in tree.get_commands(guild=guild):
        if translator is not None:
            payload.append(await command.get_translated_payload(tree, translator))
        else:
            payload.append(command.to_dict(tree))
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def state_key(application_id: Optional[int], guild: Optional[discord.abc.Snowflake]) -> str:
    """The name the hash is kept under: ``commands:<application>:<guild id or global>``."""
    return f"commands:{application_id or 0}:{guild.id if guild is not None else 'global'}"


async def sync_if_changed(tree: app_commands.CommandTree, guild: Optional[discord.abc.Snowflake],
                          get: Callable[[str], Awaitable[Optional[str]]],
                          put: Callable[[str, str], Awaitable[None]]) -> bool:
    """Sync ``tree`` to ``guild`` (or globally) unless the hash kept by ``get`` equals the
    payload's; keep the new hash with ``put`` after a successful sync.  Returns whether it
    synced.  Raises what ``CommandTree.sync`` raises (the hash is then not kept, so the next
    start tries again)."""
    key = state_key(tree.client.application_id, guild)
    digest = await command_digest(tree, guild)
    if await get(key) == digest:
        return False
    await tree.sync(guild=guild)
    await put(key, digest)
    return True
