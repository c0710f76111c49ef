"""A server's table settings in their own column (``guild_config.settings``: the public table's
language, lobby minutes, repost after N messages — ``/mj config server``).

Revision ID: 0012_guild_settings
Revises: 0011_seat_left
Create Date: 2026-11-30

Settings stored before this revision under the key ``@server`` of ``defaults`` are moved into
the new column (and back on downgrade).
"""

from __future__ import annotations

import json
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0012_guild_settings"
down_revision: Union[str, Sequence[str], None] = "0011_seat_left"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

OLD_KEY = "@server"


def _json_type() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


def _rows(conn: sa.engine.Connection) -> tuple:
    table = sa.table("guild_config", sa.column("guild_id", sa.BigInteger), sa.column("defaults", _json_type()),
                     sa.column("settings", _json_type()))
    return table, conn.execute(sa.select(table.c.guild_id, table.c.defaults, table.c.settings)).all()


def _loads(value: object) -> dict:
    """A JSON column's value as a dict (SQLite drivers may hand back its text)."""
    found = json.loads(value) if isinstance(value, str) else value
    return dict(found) if isinstance(found, dict) else {}


# Plain ALTER TABLE on both databases (see 0003): batch mode would rebuild the table on SQLite.


def upgrade() -> None:
    op.add_column("guild_config", sa.Column("settings", _json_type(), nullable=False, server_default=sa.text("'{}'")))
    conn = op.get_bind()
    table, rows = _rows(conn)
    for guild_id, defaults, _ in rows:
        defaults = _loads(defaults)
        if OLD_KEY in defaults:
            settings = defaults.pop(OLD_KEY) or {}
            conn.execute(table.update().where(table.c.guild_id == guild_id).values(defaults=defaults, settings=settings))


def downgrade() -> None:
    conn = op.get_bind()
    table, rows = _rows(conn)
    for guild_id, defaults, settings in rows:
        settings = _loads(settings)
        if settings:
            defaults = dict(_loads(defaults), **{OLD_KEY: settings})
            conn.execute(table.update().where(table.c.guild_id == guild_id).values(defaults=defaults))
    op.drop_column("guild_config", "settings")
