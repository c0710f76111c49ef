"""Ratings and 段位: ``rating`` (a player's per guild and game), ``rated_unit`` and ``unit_place``.

Revision ID: 0014_ratings
Revises: 0013_seat_level
Create Date: 2026-12-06

New tables only, empty: the bot fills them from the stored hands at its next start
(``service.ratings.rebuild``), so this revision needs no rating library.
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0014_ratings"
down_revision: Union[str, Sequence[str], None] = "0013_seat_level"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# New tables only: plain CREATE/DROP TABLE on both databases (see 0005).


def upgrade() -> None:
    op.create_table(
        "rating",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("units", sa.Integer(), nullable=False),
        sa.Column("dan_rank", sa.Integer(), nullable=False),
        sa.Column("dan_points", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("guild_id", "variant", "user_id", name="uq_rating_guild_variant_user"),
    )
    op.create_table(
        "rated_unit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("first_hand_id", sa.Integer(), nullable=False),
        sa.Column("last_hand_id", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rated_unit_table", "rated_unit", ["table_id", "last_hand_id"])
    op.create_index("ix_rated_unit_guild_time", "rated_unit", ["guild_id", "variant", "created_at"])
    op.create_table(
        "unit_place",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("unit_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("dan_rank", sa.Integer(), nullable=False),
        sa.Column("dan_points", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["unit_id"], ["rated_unit.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("unit_id", "user_id", name="uq_unit_place_user"),
    )
    op.create_index("ix_unit_place_player", "unit_place", ["guild_id", "user_id", "variant"])


def downgrade() -> None:
    op.drop_index("ix_unit_place_player", table_name="unit_place")
    op.drop_table("unit_place")
    op.drop_index("ix_rated_unit_guild_time", table_name="rated_unit")
    op.drop_index("ix_rated_unit_table", table_name="rated_unit")
    op.drop_table("rated_unit")
    op.drop_table("rating")
