"""What each seat was last prompted for (``seat.prompted``), so that a restarted bot sends the
prompts the stopped one had not sent, and no prompt twice.

Revision ID: 0007_seat_prompted
Revises: 0006_routed_hand
Create Date: 2026-11-30

Seats stored before this revision get NULL: the first decision after the upgrade is prompted.
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0007_seat_prompted"
down_revision: Union[str, Sequence[str], None] = "0006_routed_hand"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# Plain ALTER TABLE on both databases (see 0003): batch mode would rebuild the table on SQLite.


def upgrade() -> None:
    op.add_column("seat", sa.Column("prompted", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("seat", "prompted")
