"""Named values the bot keeps between starts: ``bot_state`` (e.g. the hash of the slash
commands last synced to Discord, so an unchanged set is not synced again).

Revision ID: 0008_bot_state
Revises: 0007_seat_prompted
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0008_bot_state"
down_revision: Union[str, Sequence[str], None] = "0007_seat_prompted"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# A new table only: plain CREATE/DROP TABLE on both databases (see 0005).


def upgrade() -> None:
    op.create_table(
        "bot_state",
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("bot_state")
