"""The level each AI seat plays at (``seat.ai_level``: easy, normal or strong).

Revision ID: 0013_seat_level
Revises: 0012_guild_settings
Create Date: 2026-11-30

Seats stored before this revision get NULL: an AI seat without a level plays ``normal``, as
every AI seat did before levels existed.
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0013_seat_level"
down_revision: Union[str, Sequence[str], None] = "0012_guild_settings"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# Plain ALTER TABLE on both databases (see 0003): batch mode would rebuild the table on SQLite.


def upgrade() -> None:
    op.add_column("seat", sa.Column("ai_level", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("seat", "ai_level")
