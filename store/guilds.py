"""Guild configuration: a guild's option defaults per game, its presets, the channels where
tables may be opened and its table settings, one ``guild_config`` row per guild.

The table settings (``GuildConfig.settings``) have their own JSON column (revision
``0012_guild_settings``).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _G, _int64
from .records import GuildConfig
from .database import Database

class Guilds:
    """Guild settings of a store."""

    def __init__(self, db: Database):
        self.db = db

    async def get_guild_config(self, guild_id: int) -> GuildConfig:
        """Return the settings of a guild; an empty :class:`GuildConfig` if none are stored."""
        _int64("guild_id", guild_id)
        async with self.db.read() as conn:
            row = (await conn.execute(select(_G).where(_G.c.guild_id == guild_id))).first()
        return _guild_config(guild_id, row)

    async def set_guild_default(self, guild_id: int, variant: str, options: dict) -> GuildConfig:
        """Replace the guild's option defaults of one variant (``{}`` clears them).

        Values are stored as given; checking them against the variant's option declarations
        is the caller's job.

        :raises TypeError: ``variant`` not a non-empty str, ``options`` not a dict with str keys.
        :returns: the updated configuration.
        """
        variant = _name("variant", variant)
        options = _options(options)

        def edit(cfg: dict[str, Any]) -> None:
            if options:
                cfg["defaults"][variant] = options
            else:
                cfg["defaults"].pop(variant, None)

        return (await self._edit_guild(guild_id, edit, create=True))[0]

    async def set_preset(
        self, guild_id: int, name: str, variant: str, options: dict
    ) -> GuildConfig:
        """Create or replace the guild's preset ``name`` (a variant with option values).

        :raises TypeError: ``name``/``variant`` not non-empty str, ``options`` not a dict with
            str keys.
        :returns: the updated configuration.
        """
        name = _name("name", name)
        preset = {"variant": _name("variant", variant), "options": _options(options)}

        def edit(cfg: dict[str, Any]) -> None:
            cfg["presets"][name] = preset

        return (await self._edit_guild(guild_id, edit, create=True))[0]

    async def delete_preset(self, guild_id: int, name: str) -> bool:
        """Delete the guild's preset ``name``; ``False`` if there was none by that name."""

        def edit(cfg: dict[str, Any]) -> bool:
            return cfg["presets"].pop(name, None) is not None

        return bool((await self._edit_guild(guild_id, edit, create=False))[1])

    async def set_channels(self, guild_id: int, channels: Iterable[int]) -> GuildConfig:
        """Set the channels where tables may be opened (``[]``: every channel).

        Stored without duplicates, in ascending order.

        :raises TypeError/ValueError: a channel id is not a 64-bit int.
        :returns: the updated configuration.
        """
        ids = sorted({_int64("channel_id", c) for c in channels})

        def edit(cfg: dict[str, Any]) -> None:
            cfg["channels"] = ids

        return (await self._edit_guild(guild_id, edit, create=True))[0]

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, Any]) -> GuildConfig:
        """Set some of the guild's table settings (``{name: value}``, JSON values; a value
        ``None`` removes the setting, so its default applies again).  Other settings are kept.

        :raises TypeError: ``settings`` not a dict with str keys.
        :returns: the updated configuration.
        """
        settings = _options(settings)

        def edit(cfg: dict[str, Any]) -> None:
            for k, v in settings.items():
                if v is None:
                    cfg["settings"].pop(k, None)
                else:
                    cfg["settings"][k] = v

        return (await self._edit_guild(guild_id, edit, create=True))[0]

    async def _edit_guild(
        self, guild_id: int, edit: Callable[[dict[str, Any]], Any], *, create: bool
    ) -> tuple[GuildConfig, Any]:
        """Read-modify-write of a guild's row in one transaction, serialised per guild.

        The first statement takes the write lock (SQLite) or the row lock (PostgreSQL) before
        the row is read, so concurrent edits of one guild never lose each other's changes.
        With ``create=False`` a guild without a row is left without one.
        """
        _int64("guild_id", guild_id)
        now = self.db.now()
        async def _job(conn: AsyncConnection) -> Any:
            if create:
                ins = (sqlite_insert if self.db.is_sqlite else pg_insert)(_G)
                await conn.execute(
                    ins.values(
                        guild_id=guild_id, defaults={}, presets={}, channels=[], settings={}, updated_at=now
                    ).on_conflict_do_nothing(index_elements=[_G.c.guild_id])
                )
            else:
                locked = await conn.execute(
                    update(_G).where(_G.c.guild_id == guild_id).values(guild_id=_G.c.guild_id)
                )
                if locked.rowcount == 0:
                    return GuildConfig(guild_id), edit(_empty_config())
            row = (
                await conn.execute(
                    select(_G).where(_G.c.guild_id == guild_id).with_for_update()
                )
            ).one()
            cfg = {
                "defaults": dict(row.defaults or {}),
                "presets": dict(row.presets or {}),
                "channels": list(row.channels or []),
                "settings": dict(row.settings or {}),
            }
            before = {k: (dict(v) if isinstance(v, dict) else list(v)) for k, v in cfg.items()}
            result = edit(cfg)
            if create or cfg != before:
                row = (
                    await conn.execute(
                        update(_G)
                        .where(_G.c.guild_id == guild_id)
                        .values(**cfg, updated_at=now)
                        .returning(*_G.c)
                    )
                ).one()
            return _guild_config(guild_id, row), result

        return await self.db.submit(_job)


def _empty_config() -> dict[str, Any]:
    return {"defaults": {}, "presets": {}, "channels": [], "settings": {}}


def _guild_config(guild_id: int, row: Any) -> GuildConfig:
    if row is None:
        return GuildConfig(guild_id)
    return GuildConfig(
        guild_id=guild_id,
        defaults={k: dict(v) for k, v in (row.defaults or {}).items()},
        presets={k: dict(v) for k, v in (row.presets or {}).items()},
        channels=tuple(int(c) for c in (row.channels or ())),
        settings=dict(row.settings or {}),
        updated_at=row.updated_at,
    )


def _name(what: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"{what} must be a non-empty str, got {value!r}")
    return value


def _options(options: Any) -> dict:
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise TypeError(f"options must be a dict with str keys, got {options!r}")
    return dict(options)
