"""Whether the player of a seat left the running game (``seat.left``): another player may take
that seat between hands (``/mj table join``), while a seat on 托管 after three timeouts stays
its player's.

Revision ID: 0011_seat_left
Revises: 0010_player_lang
Create Date: 2026-11-30

Seats stored before this revision get ``false``: nobody had left (a player who left before
the upgrade keeps their seat on 托管 until they come back or the seat is handed to the AI).
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0011_seat_left"
down_revision: Union[str, Sequence[str], None] = "0010_player_lang"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


# Plain ALTER TABLE on both databases (see 0003): batch mode would rebuild the table on SQLite.


def upgrade() -> None:
    op.add_column("seat", sa.Column("left", sa.Boolean(), nullable=False, server_default=sa.text("false")))


def downgrade() -> None:
    op.drop_column("seat", "left")
