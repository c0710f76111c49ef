"""Button clicks routed between bot processes (shards): ``routed_action``.

Revision ID: 0004_routed_action
Revises: 0003_hand_context
Create Date: 2026-11-29

A click in a DM reaches shard 0 whatever the table; the process that receives it for a table
another process owns stores it here, and the owner applies it (``service/routing.py``).
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0004_routed_action"
down_revision: Union[str, Sequence[str], None] = "0003_hand_context"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# A new table only: plain CREATE/DROP TABLE on both databases, never batch mode (which would
# rebuild tables on SQLite and cascade-delete their rows).


def upgrade() -> None:
    op.create_table(
        "routed_action",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("shard", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(), nullable=False),
        sa.Column("application_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("tile", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("locale", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_routed_action_shard", "routed_action", ["shard", "id"])


def downgrade() -> None:
    op.drop_index("ix_routed_action_shard", table_name="routed_action")
    op.drop_table("routed_action")
