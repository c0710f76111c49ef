"""A player's 连庄 count (hands kept in a row as dealer), per guild and game: ``player_streak``.

Revision ID: 0005_player_streak
Revises: 0004_routed_action
Create Date: 2026-11-30

In 二人麻将 the count belongs to the player, not the table (two_player.md §Settlement): it is
read when the player deals, written when that hand is settled, and survives leaving and
changing tables.  No row means a count of 0; AI seats never have one.
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0005_player_streak"
down_revision: Union[str, Sequence[str], None] = "0004_routed_action"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# A new table only: plain CREATE/DROP TABLE on both databases, never batch mode (which would
# rebuild tables on SQLite and cascade-delete their rows).


def upgrade() -> None:
    op.create_table(
        "player_streak",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("kept", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "variant"),
    )


def downgrade() -> None:
    op.drop_table("player_streak")
