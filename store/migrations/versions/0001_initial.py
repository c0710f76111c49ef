"""The first schema: tables, seats, hands, their action logs and settlements.

Revision ID: 0001_initial
Revises:
Create Date: 2025-03-01

Frozen: this is the schema of every database the bot created before it had migrations
(``Store.init`` stamps such a database with this revision), written out here column by column;
later model changes go into new revisions, never into this file.

Types: ``JSON`` is ``JSONB`` on PostgreSQL; timestamps are ``TIMESTAMP WITH TIME ZONE`` on
PostgreSQL and ``DATETIME`` text (naive UTC) on SQLite; Discord snowflakes and seeds are
``BIGINT``.  The two partial unique indexes (one open table per channel, one playing hand per
table) exist on SQLite and PostgreSQL, the only supported databases.
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001_initial"
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _json() -> sa.types.TypeEngine:
    json = sa.JSON(none_as_null=True)
    return json.with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def _time() -> sa.types.TypeEngine:
    return sa.DateTime(timezone=True)


def _partial(where: str) -> dict:
    return {"sqlite_where": sa.text(where), "postgresql_where": sa.text(where)}


def upgrade() -> None:
    op.create_table(
        "game_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("creator_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", _json(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("lang", sa.String(16), nullable=False),
        sa.Column("state", _json(), nullable=False),
        sa.Column("created_at", _time(), nullable=False),
        sa.Column("updated_at", _time(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.CheckConstraint("status IN ('lobby', 'playing', 'closed')", name="ck_game_table_status"),
    )
    op.create_index(
        "uq_game_table_open_channel",
        "game_table",
        ["channel_id"],
        unique=True,
        **_partial("status IN ('lobby', 'playing')"),
    )
    op.create_index("ix_game_table_status", "game_table", ["status"])

    op.create_table(
        "seat",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("is_ai", sa.Boolean(), nullable=False),
        sa.Column("dms_open", sa.Boolean(), nullable=False),
        sa.Column("auto", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
    )

    op.create_table(
        "hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", _json(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("seats", _json(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", _json(), nullable=True),
        sa.Column("started_at", _time(), nullable=False),
        sa.Column("ended_at", _time(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.CheckConstraint("status IN ('playing', 'done', 'aborted')", name="ck_hand_status"),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
    )
    op.create_index(
        "uq_hand_playing_table",
        "hand",
        ["table_id"],
        unique=True,
        **_partial("status = 'playing'"),
    )
    op.create_index("ix_hand_table_status", "hand", ["table_id", "status"])

    op.create_table(
        "hand_action",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("created_at", _time(), nullable=False),
        sa.PrimaryKeyConstraint("hand_id", "idx"),
        sa.ForeignKeyConstraint(["hand_id"], ["hand.id"], ondelete="CASCADE"),
    )

    op.create_table(
        "settlement",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("is_ai", sa.Boolean(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("is_winner", sa.Boolean(), nullable=False),
        sa.Column("self_drawn", sa.Boolean(), nullable=False),
        sa.Column("dealt_in", sa.Boolean(), nullable=False),
        sa.Column("fan", sa.Integer(), nullable=True),
        sa.Column("created_at", _time(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("hand_id", "seat", name="uq_settlement_hand_seat"),
        sa.ForeignKeyConstraint(["hand_id"], ["hand.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_settlement_guild_user", "settlement", ["guild_id", "user_id", "variant"])
    op.create_index("ix_settlement_guild_time", "settlement", ["guild_id", "created_at"])


def downgrade() -> None:
    # Dropping a table drops its indexes; children before parents.
    op.drop_table("settlement")
    op.drop_table("hand_action")
    op.drop_table("hand")
    op.drop_table("seat")
    op.drop_table("game_table")
