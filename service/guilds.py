"""A server's settings for tables — default options per game, named presets, the channels
that may host tables, the server settings (:class:`ServerSettings`: the public table's
language, how long a lobby may wait, when the table message is posted again) — and the
options and language of a new table (the use cases behind the settings commands and
``/mj table create``; the front ends never query the store themselves)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional, TypeGuard

from engine.variants import find_variant
from store import GuildConfig

from .presets import check_options, find_preset, pace_options, shipped_presets, table_options
from .table import LOBBY_MINUTES
from .tables import ServiceError


#: the public table's language settings: ``auto`` (the server's locale on a Community server,
#: else the creator's) or a catalogue language
TABLE_LANGUAGES = ("auto", "zh-CN", "zh-TW", "en")
#: minutes a lobby may wait for its start (``lobby_minutes``): default and bounds
LOBBY_MINUTES_RANGE = (1, 1440)
#: other messages in a channel after which the table message is posted again (0: never)
REPOST_AFTER_RANGE = (0, 500)


@dataclass(frozen=True)
class ServerSettings:
    """A server's table settings (``/mj config server``).

    :ivar language: the public table's language, one of :data:`TABLE_LANGUAGES`.
    :ivar lobby_minutes: a lobby nobody changed or started for this many minutes closes, and
        anyone in the channel may end it (1–1440; default 15).
    :ivar repost_after: after this many other messages in the table's channel the table
        message is posted again at the bottom (0: never; at most 500).
    """

    language: str = "auto"
    lobby_minutes: int = LOBBY_MINUTES
    repost_after: int = 0

    @classmethod
    def of(cls, stored: dict) -> "ServerSettings":
        """The settings from the stored ``{name: value}`` (unknown or bad values: defaults)."""
        out = cls()
        lang = stored.get("language")
        minutes, repost = stored.get("lobby_minutes"), stored.get("repost_after")
        return cls(language=lang if lang in TABLE_LANGUAGES else out.language,
                   lobby_minutes=minutes if _within(minutes, LOBBY_MINUTES_RANGE) else out.lobby_minutes,
                   repost_after=repost if _within(repost, REPOST_AFTER_RANGE) else out.repost_after)


def _within(value: Any, bounds: tuple[int, int]) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and bounds[0] <= value <= bounds[1]


def table_language(setting: str, creator: str, community: bool, guild_locale: Optional[str]) -> str:
    """The language of a new table's public messages: the server setting when it names one;
    with ``auto``, the server's locale (``guild_locale``, a catalogue language) when the server
    is a Community server (only those can set one; the others report en-US), else the
    creator's (``creator``)."""
    if setting != "auto":
        return setting
    if community and guild_locale:
        return guild_locale
    return creator


class GuildSettings:
    """Settings of every server, through the store (``store.Store``); the server settings
    are cached (this process changes them: a server's commands reach the process of its
    shard)."""

    def __init__(self, store: Any):
        self.store = store
        self._server: dict[int, ServerSettings] = {}

    async def server(self, guild_id: int) -> ServerSettings:
        """The server's :class:`ServerSettings` (defaults when none were set)."""
        found = self._server.get(guild_id)
        if found is None:
            found = self._server[guild_id] = ServerSettings.of((await self.store.get_guild_config(guild_id)).settings)
        return found

    async def set_server(self, guild_id: int, *, language: Optional[str] = None, lobby_minutes: Optional[int] = None,
                         repost_after: Optional[int] = None) -> ServerSettings:
        """Change the server settings given (``None``: unchanged); returns them all.

        :raises ServiceError: ``setting_bad_value`` (with ``setting`` and ``value``) for a
            language not in :data:`TABLE_LANGUAGES` or a number out of its bounds."""
        given = {"language": language, "lobby_minutes": lobby_minutes, "repost_after": repost_after}
        checks = {"language": lambda v: v in TABLE_LANGUAGES,
                  "lobby_minutes": lambda v: _within(v, LOBBY_MINUTES_RANGE),
                  "repost_after": lambda v: _within(v, REPOST_AFTER_RANGE)}
        for name, value in given.items():
            if value is not None and not checks[name](value):
                raise ServiceError("setting_bad_value", setting=name, value=value)
        cfg = await self.store.set_guild_settings(guild_id, {k: v for k, v in given.items() if v is not None})
        found = self._server[guild_id] = ServerSettings.of(cfg.settings)
        return found

    async def config(self, guild_id: int) -> GuildConfig:
        """The server's ``GuildConfig`` (defaults, presets, channels)."""
        return await self.store.get_guild_config(guild_id)

    async def set_default(self, guild_id: int, variant: str, options: dict) -> None:
        """The server's default options of a game (checked; empty: the rule file's)."""
        await self.store.set_guild_default(guild_id, variant, check_options(find_variant(variant), options))

    async def set_preset(self, guild_id: int, name: str, variant: str, options: dict) -> None:
        """Save a named preset of a game's options (checked); ``preset_name_blank`` for a name
        of blanks only."""
        if not name.strip():
            raise ServiceError("preset_name_blank")
        opts = check_options(find_variant(variant), options)
        await self.store.set_preset(guild_id, name.strip()[:40], variant, opts)

    async def delete_preset(self, guild_id: int, name: str) -> None:
        """Delete a server preset; ``unknown_preset`` if there is none by that name."""
        if not await self.store.delete_preset(guild_id, name):
            raise ServiceError("unknown_preset", preset=name)

    async def allow_channel(self, guild_id: int, channel_id: int, allow: bool) -> None:
        """Allow or forbid tables in a channel (the first allowed channel restricts tables to
        the allowed ones)."""
        cfg = await self.store.get_guild_config(guild_id)
        channels = [c for c in cfg.channels if c != channel_id] + ([channel_id] if allow else [])
        await self.store.set_channels(guild_id, channels)

    async def preset_names(self, guild_id: int, variant: str) -> list[str]:
        """The presets a table of ``variant`` may use: the server's, then the shipped ones."""
        cfg = await self.store.get_guild_config(guild_id)
        names = [n for n, p in sorted(cfg.presets.items()) if p.get("variant") == variant]
        return names + [n for n in shipped_presets(variant) if n not in names]

    async def new_table_options(self, guild_id: int, channel_id: int, variant: str, preset: Optional[str],
                                given: dict, pace: Optional[str] = None) -> dict:
        """The options of a new table in a channel: the typed ones over the pace's timers over
        the preset over the server's defaults over the game's (``service.presets``).  ``channel_not_allowed`` when
        the server restricts tables to other channels; the options' own refusals."""
        cfg = await self.store.get_guild_config(guild_id)
        if cfg.channels and channel_id not in cfg.channels:
            raise ServiceError("channel_not_allowed")
        info = find_variant(variant)
        chosen = find_preset(variant, preset, cfg.presets) if preset else None
        return table_options(info, server_defaults=cfg.defaults.get(variant), preset=chosen,
                             pace=pace_options(variant, pace), given=given)

    # a new table waiting for its rules form (``/mj table create rules:True``): the form is not
    # kept in memory, so what the command resolved waits in the store, one per channel and player
    @staticmethod
    def _held_key(channel_id: int, user_id: int) -> str:
        return f"form:create:{channel_id}:{user_id}"

    async def hold_new_table(self, channel_id: int, user_id: int, token: str, variant: str, options: dict,
                             lang: str) -> None:
        """Keep a new table's resolved ``options`` (and the creator's ``lang``) until its rules
        form ``token`` is sent (:meth:`held_new_table`); a newer form of the same player in the
        channel replaces it (the older form is then out of date)."""
        await self.store.set_state(self._held_key(channel_id, user_id), json.dumps(
            {"token": token, "variant": variant, "options": options, "lang": lang}))

    async def held_new_table(self, guild_id: int, channel_id: int, user_id: int, token: str,
                             variant: str) -> dict:
        """``{"variant", "options", "lang"}`` held for form ``token`` of a new table of
        ``variant``, the channel checked again (the server may have restricted tables since).

        :raises ServiceError: ``form_outdated`` (no such form held: a newer one replaced it, or
            its table opened), ``channel_not_allowed``."""
        text = await self.store.get_state(self._held_key(channel_id, user_id))
        try:
            held = json.loads(text) if text else None
        except ValueError:
            held = None
        if not isinstance(held, dict) or held.get("token") != token or held.get("variant") != variant:
            raise ServiceError("form_outdated")
        cfg = await self.store.get_guild_config(guild_id)
        if cfg.channels and channel_id not in cfg.channels:
            raise ServiceError("channel_not_allowed")
        return held

    async def release_new_table(self, channel_id: int, user_id: int) -> None:
        """Forget the new table held for the player (it opened)."""
        await self.store.set_state(self._held_key(channel_id, user_id), "")

__all__ = ["GuildSettings", "ServerSettings", "TABLE_LANGUAGES", "table_language"]
