"""Each player's language (``player_lang``): the catalogue language of the player's last
interaction (``zh-CN``, ``zh-TW`` or ``en``), so their panels, notices and prompts keep it
through restarts.

Revision ID: 0010_player_lang
Revises: 0009_match
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0010_player_lang"
down_revision: Union[str, Sequence[str], None] = "0009_match"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# A new table only: plain CREATE/DROP TABLE on both databases (see 0005).


def upgrade() -> None:
    op.create_table(
        "player_lang",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("lang", sa.String(16), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id"),
    )


def downgrade() -> None:
    op.drop_table("player_lang")
