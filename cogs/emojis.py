"""The tiles as application emojis: uploaded once, shown on the panel's buttons and in its text.

Every tile and card of every game has a picture (``render/emoji.py``, one 128×128 PNG per
name).  At start-up the bot makes the application's emojis match them (:func:`sync_emojis`):
an emoji missing is created, one whose picture changed is deleted and created again (Discord
cannot edit an emoji's image), one unchanged is left alone.  What it uploaded is kept in the
store (``bot_state`` under ``emojis:<application id>``, ``{name: [emoji id, SHA-256 of the
picture]}``), so a second start uploads nothing.  In a sharded bot only the process running
shard 0 uploads; the others read what it kept (:func:`load_emojis`).

Discord's 429s on the emoji routes are waited out by discord.py.  When Discord refuses (the
application's 2,000 emojis, an outage, a missing permission) the bot logs once why and plays
on: a tile without an emoji is shown by its text label (:meth:`TileEmojis.of` is ``None``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Mapping, Optional, TypeVar

import discord

from engine.tiles import parse_kind

log = logging.getLogger(__name__)

#: a face-down tile or card in message text
FACE_DOWN = "▮"

T = TypeVar("T")
Get = Callable[[str], Awaitable[Optional[str]]]
Put = Callable[[str, str], Awaitable[None]]


def digest(png: bytes) -> str:
    """SHA-256 (hex) of a picture's bytes."""
    return hashlib.sha256(png).hexdigest()


def state_key(application_id: Optional[int]) -> str:
    """The name the uploaded emojis are kept under in the store."""
    return f"emojis:{application_id or 0}"


@dataclass
class TileEmojis:
    """The tiles' emojis this process may show: emoji name -> ``discord.PartialEmoji``.

    Empty until the emojis are synced or loaded; a name missing is shown as text."""

    known: dict[str, discord.PartialEmoji] = field(default_factory=dict)
    refused: Optional[str] = None  #: why Discord refused an upload (logged once)

    def named(self, name: str) -> Optional[discord.PartialEmoji]:
        return self.known.get(name)

    def of(self, tile: Optional[str]) -> Optional[discord.PartialEmoji]:
        """The emoji of a tile in notation (``"5m"``, ``"10X"``), or ``None`` (no emoji, not a
        tile, or a face-down one: ``None``)."""
        from render.emoji import name_of

        if not tile or tile == "-":
            return None
        try:
            return self.known.get(name_of(parse_kind(tile)))
        except ValueError:
            return None

    def set(self, name: str, emoji_id: int) -> None:
        self.known[name] = discord.PartialEmoji(name=name, id=int(emoji_id))

    async def verify(self, client: discord.Client) -> int:
        """Discord refused an emoji this bank shows (deleted on Discord, or replaced by another
        process of the bot): list the application's emojis again and keep, per name, the one
        Discord has (its id may be new), dropping the names it has not — those tiles are shown
        as text.  When the list cannot be read, every emoji is dropped.  Returns how many are
        left."""
        try:
            remote = {e.name: e.id for e in await client.fetch_application_emojis()}
        except discord.HTTPException:
            remote = {}
        for name in list(self.known):
            if name in remote:
                self.set(name, remote[name])
            else:
                del self.known[name]
        log.warning("tile emojis: Discord refused one; %d of them are shown now", len(self.known))
        return len(self.known)


def _kept(raw: Optional[str]) -> dict[str, tuple[int, str]]:
    """What the store keeps of the uploads: ``{name: (emoji id, digest)}``; anything that does not
    read so (not JSON, not an object, a bad entry) is left out, entry by entry."""
    try:
        data = json.loads(raw or "{}")
    except ValueError:
        return {}
    out: dict[str, tuple[int, str]] = {}
    for k, v in (data.items() if isinstance(data, dict) else ()):
        try:
            out[str(k)] = (int(v[0]), str(v[1]))
        except (TypeError, ValueError, IndexError, KeyError):
            continue
    return out


def _dump(kept: Mapping[str, tuple[int, str]]) -> str:
    return json.dumps({k: [v[0], v[1]] for k, v in sorted(kept.items())}, separators=(",", ":"))


@dataclass
class SyncReport:
    """What a sync did: names created (new or changed), deleted (changed pictures), kept."""

    created: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    refused: Optional[str] = None


async def sync_emojis(client: discord.Client, bank: TileEmojis, pictures: Mapping[str, bytes],
                      get: Get, put: Put) -> SyncReport:
    """Make the application's emojis show ``pictures`` (name -> PNG), filling ``bank`` as it
    goes (a game starts with the emojis that are there; the rest follow).

    One ``GET`` of the application's emojis; every emoji unchanged goes into ``bank`` at once;
    then a ``POST`` per picture missing or changed (and a ``DELETE`` before it when changed).
    What was uploaded is kept with ``put`` after each upload, so a stop in between loses
    nothing.  A refusal (``discord.HTTPException`` other than a 429, which discord.py waits out)
    stops the uploads: logged once, the report says why; the emojis already there stay shown.
    When the list cannot be read, the emojis the store keeps are shown (a refused one is
    dropped when Discord says so: :meth:`TileEmojis.verify`)."""
    report = SyncReport()
    key = state_key(client.application_id)
    kept = _kept(await get(key))
    try:
        remote = {e.name: e for e in await client.fetch_application_emojis()}
    except discord.HTTPException as exc:
        report.refused = bank.refused = f"listing the application's emojis failed: {exc}"
        log.warning("tile emojis: %s; the emojis kept from before are shown", report.refused)
        for name, png in pictures.items():
            if name in kept and kept[name][1] == digest(png):
                bank.set(name, kept[name][0])
        return report
    todo = []
    for name, png in pictures.items():
        have = remote.get(name)
        if have is not None and kept.get(name) == (have.id, digest(png)):
            bank.set(name, have.id)
            report.kept.append(name)
        else:
            todo.append(name)
    for name in todo:
        png, have = pictures[name], remote.get(name)
        try:
            if have is not None:
                try:
                    await have.delete()
                except discord.NotFound:
                    pass  # gone already
                report.deleted.append(name)
                bank.known.pop(name, None)
            made = await client.create_application_emoji(name=name, image=png)
        except discord.HTTPException as exc:
            report.refused = bank.refused = f"uploading {name!r} failed ({exc.status} {exc.code}: {exc.text})"
            log.warning("tile emojis: %s; the tiles without an emoji are shown as text", report.refused)
            break
        bank.set(name, made.id)
        kept[name] = (made.id, digest(png))
        report.created.append(name)
        try:
            await put(key, _dump(kept))
        except Exception:  # uploaded all the same: the next start finds it by name and uploads it again
            log.exception("tile emojis: could not keep what was uploaded")
    return report


async def load_emojis(client: discord.Client, bank: TileEmojis, pictures: Mapping[str, bytes], get: Get) -> int:
    """Fill ``bank`` with the emojis another process uploaded (kept in the store) whose
    picture is the one this process would show; returns how many."""
    kept = _kept(await get(state_key(client.application_id)))
    n = 0
    for name, png in pictures.items():
        if name in kept and kept[name][1] == digest(png):
            bank.set(name, kept[name][0])
            n += 1
    return n


async def follow_uploads(client: discord.Client, bank: TileEmojis, pictures: Mapping[str, bytes], get: Get,
                         every: float = 60.0) -> None:
    """In a process that does not upload: read what the uploading process kept, every ``every``
    s until every picture has its emoji (the uploading process may be refused now and fixed
    later)."""
    while await load_emojis(client, bank, pictures, get) < len(pictures):
        await asyncio.sleep(every)


def refused_emoji(exc: BaseException) -> bool:
    """Did Discord refuse a message for an emoji it does not know (400 50035 "Invalid emoji": an
    application emoji deleted while the bot shows it)?"""
    return isinstance(exc, discord.HTTPException) and exc.status == 400 and "emoji" in (exc.text or "").lower()


async def sending_panel(bot, send: Callable[[bool], Awaitable[T]]) -> T:
    """``await send(False)`` — a message showing tiles; when Discord refuses it for an emoji the
    bot's bank shows (:func:`refused_emoji`), the bank is checked against Discord
    (``bot.emoji_refused``) and ``await send(True)`` sends it once more, drawn anew with what is
    left (those tiles as text)."""
    try:
        return await send(False)
    except discord.HTTPException as exc:
        if not refused_emoji(exc) or not bot.tile_emojis.known:
            raise
        await bot.emoji_refused()
        return await send(True)


__all__ = ["FACE_DOWN", "SyncReport", "TileEmojis", "digest", "follow_uploads", "load_emojis", "refused_emoji",
           "sending_panel", "state_key", "sync_emojis"]
