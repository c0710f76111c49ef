"""Per-player tallies of the rates: ``player_tally`` (a row per guild, player, game and UTC day),
and an index a player's best hands and the points board read alone.

Revision ID: 0015_player_tally
Revises: 0014_ratings
Create Date: 2026-12-06

A new table only, empty: the bot fills it from the stored hands at its next start
(``service.rates.rebuild_tallies``: older hands' claims come from replaying their logs, which a
migration must not do), then adds to it in each settling transaction.
"""

from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0015_player_tally"
down_revision: Union[str, Sequence[str], None] = "0014_ratings"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    json_type = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
    counts = ("hands", "wins", "deal_ins", "self_drawn", "calls", "draws")
    sums = ("points", "win_points", "deal_in_points")
    op.create_table(
        "player_tally",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in counts],
        *[sa.Column(c, sa.BigInteger(), nullable=False) for c in sums],
        sa.Column("counted", sa.Integer(), nullable=False),
        sa.Column("count_sum", sa.BigInteger(), nullable=False),
        sa.Column("count_name", sa.String(16), nullable=True),
        sa.Column("specials", json_type, nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("guild_id", "user_id", "variant", "day", name="uq_player_tally_day"),
    )
    # a player's best hands (``Store.best_hands``: ordered by points) and the points board
    # (``Store.leaderboard``: summed per player) read this index alone, not the table's rows
    op.create_index("ix_settlement_player_points", "settlement",
                    ["guild_id", "variant", "user_id", "is_ai", "points", "is_winner", "self_drawn", "dealt_in"])


def downgrade() -> None:
    op.drop_index("ix_settlement_player_points", table_name="settlement")
    op.drop_table("player_tally")
