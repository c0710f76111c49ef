"""A server's settings for tables — default options per game, named presets, the channels
that may host tables — and the options of a new table (the use cases behind the settings
commands and ``/mj table create``; the front ends never query the store themselves)."""

from __future__ import annotations

from typing import Any, Optional

from engine.variants import find_variant

from .presets import check_options, find_preset, pace_options, shipped_presets, table_options
from .tables import ServiceError


class GuildSettings:
    """Settings of every server, through the store (``store.Store``)."""

    def __init__(self, store: Any):
        self.store = store

    async def config(self, guild_id: int):
        """The server's ``GuildConfig`` (defaults, presets, channels)."""
        return await self.store.get_guild_config(guild_id)

    async def set_default(self, guild_id: int, variant: str, options: dict) -> None:
        """The server's default options of a game (checked; empty: the rule file's)."""
        await self.store.set_guild_default(guild_id, variant, check_options(find_variant(variant), options))

    async def set_preset(self, guild_id: int, name: str, variant: str, options: dict) -> None:
        """Save a named preset of a game's options (checked)."""
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


__all__ = ["GuildSettings"]
