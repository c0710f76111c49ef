"""Routed clicks carry the hand they were drawn for (``routed_action.hand_id``), so a click
from an earlier hand is refused at the owning process like any stale button.

Revision ID: 0006_routed_hand
Revises: 0005_player_streak
Create Date: 2026-11-30

Rows stored before this revision (clicks in flight during the upgrade) get NULL: the owner
then checks the turn counter only, as before.
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0006_routed_hand"
down_revision: Union[str, Sequence[str], None] = "0005_player_streak"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# Plain ALTER TABLE on both databases (see 0003): batch mode would rebuild the table on SQLite.


def upgrade() -> None:
    op.add_column("routed_action", sa.Column("hand_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column("routed_action", "hand_id")
