"""Per-guild configuration: variant defaults, presets and the allowed channels.

Revision ID: 0002_guild_config
Revises: 0001_initial
Create Date: 2025-03-15

``guild_config`` has one row per Discord guild (``guild_id`` is the snowflake, not a
generated key): ``defaults`` ``{variant: {option: value}}``, ``presets``
``{name: {"variant": str, "options": {...}}}``, ``channels`` (list of channel ids where tables
may be opened; empty means every channel) and ``updated_at`` (UTC).
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002_guild_config"
down_revision: Union[str, Sequence[str], None] = "0001_initial"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _json() -> sa.types.TypeEngine:
    json = sa.JSON(none_as_null=True)
    return json.with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.create_table(
        "guild_config",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("defaults", _json(), nullable=False),
        sa.Column("presets", _json(), nullable=False),
        sa.Column("channels", _json(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id"),
    )


def downgrade() -> None:
    op.drop_table("guild_config")
