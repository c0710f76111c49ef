"""The match context a hand was dealt with (dealer streak, hand number, a variant's carried
facts), so that a replay or a verification rebuilds exactly the stored hand.

Revision ID: 0003_hand_context
Revises: 0002_guild_config
Create Date: 2026-11-29

Hands stored before this revision get NULL, read as an empty context (the defaults).
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003_hand_context"
down_revision: Union[str, Sequence[str], None] = "0002_guild_config"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _json() -> sa.types.TypeEngine:
    json = sa.JSON(none_as_null=True)
    return json.with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


# Plain ALTER TABLE on both databases (SQLite has ADD/DROP COLUMN since 3.35).  Batch mode
# would rebuild ``hand`` on SQLite, and dropping the old table would cascade-delete every
# action and settlement of it (foreign keys are on).


def upgrade() -> None:
    op.add_column("hand", sa.Column("context", _json(), nullable=True))


def downgrade() -> None:
    op.drop_column("hand", "context")
