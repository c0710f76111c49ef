"""Ended matches and their final standings (大结算): ``match``.

Revision ID: 0009_match
Revises: 0008_bot_state
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0009_match"
down_revision: Union[str, Sequence[str], None] = "0008_bot_state"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# A new table only: plain CREATE/DROP TABLE on both databases (see 0005).


def upgrade() -> None:
    json_type = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("hands_planned", sa.Integer(), nullable=False),
        sa.Column("hands_played", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("standings", json_type, nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", name="uq_match_table"),
    )
    op.create_index("ix_match_guild_time", "match", ["guild_id", "ended_at"])


def downgrade() -> None:
    op.drop_index("ix_match_guild_time", table_name="match")
    op.drop_table("match")
