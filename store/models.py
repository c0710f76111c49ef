"""Database tables of the bot (SQLModel definitions).

A hand is fully determined by ``(variant, options, seed, action log)``; the database therefore
stores the log, one row per action, and every piece of game state is rebuilt by replaying it.

Tables
------
``game_table``
    One row per table ever opened in a Discord channel.  At most one *open* table
    (``status`` ``'lobby'`` or ``'playing'``) per channel: enforced by the store inside the
    creating transaction and, against races, by the partial unique index
    ``uq_game_table_open_channel`` (SQLite and PostgreSQL both support partial indexes).
``seat``
    The seats of a table, primary key ``(table_id, seat)``.
``hand``
    One row per dealt hand.  At most one ``'playing'`` hand per table (partial unique index
    ``uq_hand_playing_table``).
``hand_action``
    The action log, primary key ``(hand_id, idx)``: appending is a single ``INSERT`` and an
    index can never be stored twice.
``settlement``
    One row per seat per finished hand.  Cumulative scores are ``SUM`` queries over this table,
    never stored counters, so they can always be recomputed and never drift.
``guild_config``
    One row per Discord guild that changed a setting: variant option defaults, named presets
    and the channels where tables may be opened.
``player_streak``
    A player's count of hands kept in a row as dealer (连庄), per guild and game, for the games
    whose count belongs to the player rather than the table (二人麻将).
``match``
    One row per ended match (a table's hands from its start to its last hand, or to
    ``/mj table end``): written in the transaction that closes the table, with the final
    standings (大结算) and the id of the channel message that showed them (revision
    ``0009_match``).
``bot_state``
    Small named values the bot keeps between starts, e.g. the hash of the slash commands last
    synced to Discord (so an unchanged set is not synced again).
``player_lang``
    Each player's language (the one of their last interaction), so their private messages keep
    it through restarts.
``rating`` / ``rated_unit`` / ``unit_place``
    A player's rating per guild and game (Weng–Lin Plackett–Luce ``mu``/``sigma``), the rated
    units (a finished match, or a block of hands at an open-ended table) and each rated
    player's place in them, written in the transaction that settles the unit's last hand
    (revision ``0014_ratings``).
``player_tally``
    What a player's rates are counted from, per guild, game and UTC day, added to in the
    settling transaction (revision ``0015_player_tally``).

The schema is created and upgraded by the Alembic revisions in ``store/migrations/versions``
(``0001_initial``: the first five tables; ``0002_guild_config``; ``0003_hand_context``;
``0004_routed_action``; ``0005_player_streak``; ``0006_routed_hand``; ``0007_seat_prompted``;
``0008_bot_state``; ``0009_match``; ``0010_player_lang``; ``0011_seat_left``; ``0012_guild_settings``;
``0013_seat_level``; ``0014_ratings``; ``0015_player_tally``); a change to these models needs
a new revision, and ``tests/store/test_migrations.py`` checks that the head revision matches them.

Discord snowflakes (guild, channel, user, message ids) and seeds are 64-bit and use
``BIGINT`` columns.  Every timestamp is stored in UTC (:class:`UTCDateTime`).

The models are plain table definitions; the :mod:`store` package is the only one that queries
them and hands out frozen dataclasses instead of ORM objects.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any, ClassVar, Optional

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

__all__ = [
    "TABLE_STATUSES",
    "OPEN_TABLE_STATUSES",
    "HAND_STATUSES",
    "UTCDateTime",
    "TableRow",
    "SeatRow",
    "HandRow",
    "ActionRow",
    "SettlementRow",
    "GuildConfigRow",
    "PlayerStreakRow",
    "MatchRow",
    "RatingRow",
    "RatedUnitRow",
    "UnitPlaceRow",
    "ALL_TABLES",
]

#: Allowed values of ``game_table.status``.
TABLE_STATUSES = ("lobby", "playing", "closed")
#: Statuses of an open table (at most one per channel).
OPEN_TABLE_STATUSES = ("lobby", "playing")
#: Allowed values of ``hand.status``.
HAND_STATUSES = ("playing", "done", "aborted")


class UTCDateTime(TypeDecorator):
    """A ``DateTime`` column that always round-trips timezone-aware UTC datetimes.

    Bound values: a naive datetime is taken to be UTC; an aware one is converted to UTC.
    SQLite has no time-zone type, so the value is stored there as naive UTC text (which sorts
    and compares correctly); PostgreSQL stores ``timestamptz``.  Read values always carry
    ``tzinfo=timezone.utc``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Optional[datetime], dialect: Any) -> Optional[datetime]:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: Optional[datetime], dialect: Any) -> Optional[datetime]:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


def _json(nullable: bool = False) -> Column:
    # JSONB on PostgreSQL, JSON (text) elsewhere; Python None stays SQL NULL.
    json_type = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
    return Column(json_type, nullable=nullable)


def _open_only(where: str) -> dict[str, Any]:
    """Keyword arguments making an ``Index`` partial on SQLite and PostgreSQL."""
    return {"sqlite_where": text(where), "postgresql_where": text(where)}


_OPEN_WHERE = "status IN ('lobby', 'playing')"
_PLAYING_WHERE = "status = 'playing'"


class TableRow(SQLModel, table=True):
    """``game_table``: a table hosted in one Discord channel."""

    __tablename__: ClassVar[str] = "game_table"
    __table_args__ = (
        CheckConstraint("status IN ('lobby', 'playing', 'closed')", name="ck_game_table_status"),
        # Partial indexes are only created where the WHERE clause is understood; elsewhere a
        # plain unique index on channel_id would forbid ever opening a second table.
        Index(
            "uq_game_table_open_channel", "channel_id", unique=True, **_open_only(_OPEN_WHERE)
        ).ddl_if(dialect=("sqlite", "postgresql")),  # type: ignore[arg-type]  # a tuple of names, as documented
        Index("ix_game_table_status", "status"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    creator_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    options: dict = Field(default_factory=dict, sa_column=_json())
    status: str = Field(sa_column=Column(String(16), nullable=False))
    message_id: Optional[int] = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    hand_no: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    lang: str = Field(default="zh", sa_column=Column(String(16), nullable=False))
    state: dict = Field(default_factory=dict, sa_column=_json())
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class SeatRow(SQLModel, table=True):
    """``seat``: one seat of a table; ``user_id`` is NULL for an AI seat."""

    __tablename__: ClassVar[str] = "seat"

    table_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
        )
    )
    seat: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    user_id: Optional[int] = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    name: str = Field(sa_column=Column(String(100), nullable=False))
    is_ai: bool = Field(default=False, sa_column=Column(Boolean, nullable=False))
    dms_open: bool = Field(default=True, sa_column=Column(Boolean, nullable=False))
    auto: bool = Field(default=False, sa_column=Column(Boolean, nullable=False))
    #: the last decision the front end prompted this seat for (revision 0007_seat_prompted)
    prompted: Optional[str] = Field(default=None, sa_column=Column(String(64), nullable=True))
    #: the player left the running game: another player may take the seat (revision 0011_seat_left)
    left: bool = Field(default=False, sa_column=Column(Boolean, nullable=False, server_default=text("false")))
    #: the level an AI seat plays at (revision 0013_seat_level; NULL: a human, or ``normal``)
    ai_level: Optional[str] = Field(default=None, sa_column=Column(String(16), nullable=True))


class HandRow(SQLModel, table=True):
    """``hand``: one dealt hand; ``seats`` is the JSON list of seat descriptions at the deal."""

    __tablename__: ClassVar[str] = "hand"
    __table_args__ = (
        CheckConstraint("status IN ('playing', 'done', 'aborted')", name="ck_hand_status"),
        Index(
            "uq_hand_playing_table", "table_id", unique=True, **_open_only(_PLAYING_WHERE)
        ).ddl_if(dialect=("sqlite", "postgresql")),  # type: ignore[arg-type]  # a tuple of names, as documented
        Index("ix_hand_table_status", "table_id", "status"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    table_id: int = Field(
        sa_column=Column(Integer, ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    )
    hand_no: int = Field(sa_column=Column(Integer, nullable=False))
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    options: dict = Field(default_factory=dict, sa_column=_json())
    dealer: int = Field(sa_column=Column(Integer, nullable=False))
    seats: list = Field(default_factory=list, sa_column=_json())
    status: str = Field(sa_column=Column(String(16), nullable=False))
    result: Optional[dict] = Field(default=None, sa_column=_json(nullable=True))
    context: Optional[dict] = Field(default=None, sa_column=_json(nullable=True))
    started_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    ended_at: Optional[datetime] = Field(default=None, sa_column=Column(UTCDateTime, nullable=True))


class ActionRow(SQLModel, table=True):
    """``hand_action``: action ``idx`` (0, 1, 2, …) of a hand in its text form."""

    __tablename__: ClassVar[str] = "hand_action"

    hand_id: int = Field(
        sa_column=Column(Integer, ForeignKey("hand.id", ondelete="CASCADE"), primary_key=True)
    )
    idx: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    text: str = Field(sa_column=Column(String, nullable=False))
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class SettlementRow(SQLModel, table=True):
    """``settlement``: the result of one seat in one finished hand.

    ``points`` is signed (what the seat won or paid); ``dealt_in`` marks the seat that
    discarded the winning tile; ``fan`` is the winner's fan count (NULL when not applicable).
    """

    __tablename__: ClassVar[str] = "settlement"
    __table_args__ = (
        UniqueConstraint("hand_id", "seat", name="uq_settlement_hand_seat"),
        Index("ix_settlement_guild_user", "guild_id", "user_id", "variant"),
        Index("ix_settlement_guild_time", "guild_id", "created_at"),
        # a player's best hands and the points board read this index alone (revision 0015)
        Index("ix_settlement_player_points", "guild_id", "variant", "user_id", "is_ai", "points", "is_winner",
              "self_drawn", "dealt_in"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    hand_id: int = Field(
        sa_column=Column(Integer, ForeignKey("hand.id", ondelete="CASCADE"), nullable=False)
    )
    table_id: int = Field(
        sa_column=Column(Integer, ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    )
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    user_id: Optional[int] = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    name: str = Field(sa_column=Column(String(100), nullable=False))
    is_ai: bool = Field(default=False, sa_column=Column(Boolean, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    seat: int = Field(sa_column=Column(Integer, nullable=False))
    points: int = Field(sa_column=Column(Integer, nullable=False))
    is_winner: bool = Field(default=False, sa_column=Column(Boolean, nullable=False))
    self_drawn: bool = Field(default=False, sa_column=Column(Boolean, nullable=False))
    dealt_in: bool = Field(default=False, sa_column=Column(Boolean, nullable=False))
    fan: Optional[int] = Field(default=None, sa_column=Column(Integer, nullable=True))
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class GuildConfigRow(SQLModel, table=True):
    """``guild_config``: the settings of one guild (revision ``0002_guild_config``).

    ``defaults`` is ``{variant: {option: value}}`` (option values as the variant declares
    them), ``presets`` is ``{name: {"variant": str, "options": {option: value}}}`` and
    ``channels`` is the list of channel ids where tables may be opened (empty: every channel).
    """

    __tablename__: ClassVar[str] = "guild_config"

    guild_id: int = Field(
        sa_column=Column(BigInteger, primary_key=True, autoincrement=False)
    )
    defaults: dict = Field(default_factory=dict, sa_column=_json())
    presets: dict = Field(default_factory=dict, sa_column=_json())
    channels: list = Field(default_factory=list, sa_column=_json())
    #: the server's table settings ``{name: value}`` (``/mj config server``; revision 0012_guild_settings)
    settings: dict = Field(default_factory=dict, sa_column=Column(
        JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql"), nullable=False,
        server_default=text("'{}'")))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class RoutedActionRow(SQLModel, table=True):
    """``routed_action``: a button click received by a process that does not own the table
    (revision ``0004_routed_action``).

    With several bot processes (shards), a click in a DM arrives on shard 0 whatever the
    table.  The receiving process acknowledges it and stores it here with the ``shard`` that
    owns the table (its guild's shard); the owning process claims the row (deletes it), applies
    the action through its table service and answers through the interaction's ``token``.
    ``message_id`` is the clicked message, ``tile`` the button's tile text (``-`` for none),
    ``seq`` the hand's counter drawn on the button and ``hand_id`` the stored id of its hand
    (revision ``0006_routed_hand``; ``None`` for rows stored before it).
    """

    __tablename__: ClassVar[str] = "routed_action"
    __table_args__ = (Index("ix_routed_action_shard", "shard", "id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    shard: int = Field(sa_column=Column(Integer, nullable=False))
    token: str = Field(sa_column=Column(String, nullable=False))
    application_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    message_id: Optional[int] = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    action: str = Field(sa_column=Column(String(32), nullable=False))
    tile: str = Field(sa_column=Column(String(16), nullable=False))
    seq: int = Field(sa_column=Column(Integer, nullable=False))
    locale: str = Field(default="zh", sa_column=Column(String(16), nullable=False))
    hand_id: Optional[int] = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class PlayerStreakRow(SQLModel, table=True):
    """``player_streak``: the hands a player kept in a row as dealer (连庄), per guild and game
    (revision ``0005_player_streak``).

    Only games whose count belongs to the player (``VariantInfo.streak_per_player``) use it:
    the count is read when the player is dealt a hand as dealer and written when that hand is
    settled (kept the deal: count + 1, lost it: 0), whatever the table.  AI seats have no row.
    """

    __tablename__: ClassVar[str] = "player_streak"

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    variant: str = Field(sa_column=Column(String(64), primary_key=True))
    kept: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class BotStateRow(SQLModel, table=True):
    """``bot_state``: one named value the bot keeps between starts (revision
    ``0008_bot_state``), e.g. ``commands:<scope>`` → the SHA-256 of the command payload last
    synced to Discord for that scope."""

    __tablename__: ClassVar[str] = "bot_state"

    key: str = Field(sa_column=Column(String(128), primary_key=True))
    value: str = Field(sa_column=Column(String, nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class PlayerLangRow(SQLModel, table=True):
    """``player_lang``: a player's language (revision ``0010_player_lang``): the catalogue
    language (``zh-CN``, ``zh-TW``, ``en``) of the Discord locale of their last interaction,
    which their panels, notices and private answers use."""

    __tablename__: ClassVar[str] = "player_lang"

    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    lang: str = Field(sa_column=Column(String(16), nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
class MatchRow(SQLModel, table=True):
    """``match``: an ended match of a table (revision ``0009_match``), at most one per table.

    ``hands_planned`` is the table's ``match_hands`` option (0: open-ended); ``hands_played``
    the hands settled.  ``standings`` is the JSON of the final standings
    (``service.matches.standings``), ``None`` until computed from the settlements;
    ``message_id`` the channel message that showed them, ``None`` until it was posted (a
    restarted bot posts the ones still ``None``).
    """

    __tablename__: ClassVar[str] = "match"
    __table_args__ = (
        UniqueConstraint("table_id", name="uq_match_table"),
        Index("ix_match_guild_time", "guild_id", "ended_at"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    table_id: int = Field(
        sa_column=Column(Integer, ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    )
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    hands_planned: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    hands_played: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    started_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    ended_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    standings: Optional[dict] = Field(default=None, sa_column=_json(nullable=True))
    message_id: Optional[int] = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class RatingRow(SQLModel, table=True):
    """``rating``: a player's rating in one game on one guild (revision ``0014_ratings``): the
    Weng–Lin Plackett–Luce mean ``mu`` and deviation ``sigma`` (openskill's scale: a new
    player 25 ± 25/3) after ``units`` rated units, and the 段位 reached: ``dan_rank`` (index
    into the ladder of ``data/ranks/dan.json``) with ``dan_points`` on it."""

    __tablename__: ClassVar[str] = "rating"
    __table_args__ = (
        UniqueConstraint("guild_id", "variant", "user_id", name="uq_rating_guild_variant_user"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    mu: float = Field(sa_column=Column(Float, nullable=False))
    sigma: float = Field(sa_column=Column(Float, nullable=False))
    units: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    dan_rank: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    dan_points: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class RatedUnitRow(SQLModel, table=True):
    """``rated_unit``: hands rated together (revision ``0014_ratings``): ``kind`` ``match`` (a
    match's hands) or ``block`` (consecutive hands of an open-ended table with the same
    players), from hand ``first_hand_id`` to ``last_hand_id`` of table ``table_id``."""

    __tablename__: ClassVar[str] = "rated_unit"
    __table_args__ = (
        Index("ix_rated_unit_table", "table_id", "last_hand_id"),
        Index("ix_rated_unit_guild_time", "guild_id", "variant", "created_at"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    table_id: int = Field(
        sa_column=Column(Integer, ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    )
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    kind: str = Field(sa_column=Column(String(8), nullable=False))
    first_hand_id: int = Field(sa_column=Column(Integer, nullable=False))
    last_hand_id: int = Field(sa_column=Column(Integer, nullable=False))
    hands: int = Field(sa_column=Column(Integer, nullable=False))
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class UnitPlaceRow(SQLModel, table=True):
    """``unit_place``: one rated player's place in a rated unit (revision ``0014_ratings``):
    ``place`` 1.. among ``players`` rated players (ties share a place), the unit's ``points``
    summed, the rating before and after, and the 段位 after it."""

    __tablename__: ClassVar[str] = "unit_place"
    __table_args__ = (
        UniqueConstraint("unit_id", "user_id", name="uq_unit_place_user"),
        Index("ix_unit_place_player", "guild_id", "user_id", "variant"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    unit_id: int = Field(
        sa_column=Column(Integer, ForeignKey("rated_unit.id", ondelete="CASCADE"), nullable=False)
    )
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    place: int = Field(sa_column=Column(Integer, nullable=False))
    players: int = Field(sa_column=Column(Integer, nullable=False))
    points: int = Field(sa_column=Column(Integer, nullable=False))
    mu_before: float = Field(sa_column=Column(Float, nullable=False))
    sigma_before: float = Field(sa_column=Column(Float, nullable=False))
    mu_after: float = Field(sa_column=Column(Float, nullable=False))
    sigma_after: float = Field(sa_column=Column(Float, nullable=False))
    dan_rank: int = Field(sa_column=Column(Integer, nullable=False))
    dan_points: int = Field(sa_column=Column(Integer, nullable=False))
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))



class PlayerTallyRow(SQLModel, table=True):
    """``player_tally``: what a player's rates are counted from, summed per guild, game and UTC
    day of settlement (revision ``0015_player_tally``; ``docs/rates.md``): hands played as a
    human seat, wins, deal-ins, self-drawn wins, hands with a claim, draws, the points of all
    hands, of the hands won and of the hands dealt in (as paid, positive), the wins with a
    count of the winning hand and that count summed (``count_name``: ``huxi``, ``dui``, ``hu``),
    and ``specials`` ``{special hand id: times}``.  Added to in the transaction that settles a
    hand, so a profile reads a few rows per player instead of every hand."""

    __tablename__: ClassVar[str] = "player_tally"
    __table_args__ = (
        UniqueConstraint("guild_id", "user_id", "variant", "day", name="uq_player_tally_day"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = Field(sa_column=Column(String(64), nullable=False))
    day: date = Field(sa_column=Column(Date, nullable=False))
    hands: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    wins: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    deal_ins: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    self_drawn: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    calls: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    draws: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    points: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    win_points: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    deal_in_points: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    counted: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    count_sum: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    count_name: Optional[str] = Field(default=None, sa_column=Column(String(16), nullable=True))
    specials: dict = Field(default_factory=dict, sa_column=_json())


#: The tables this module defines, in dependency order (the schema at the head revision).
ALL_TABLES = [
    TableRow.__table__,  # type: ignore[attr-defined]
    SeatRow.__table__,  # type: ignore[attr-defined]
    HandRow.__table__,  # type: ignore[attr-defined]
    ActionRow.__table__,  # type: ignore[attr-defined]
    SettlementRow.__table__,  # type: ignore[attr-defined]
    GuildConfigRow.__table__,  # type: ignore[attr-defined]
    RoutedActionRow.__table__,  # type: ignore[attr-defined]
    PlayerStreakRow.__table__,  # type: ignore[attr-defined]
    BotStateRow.__table__,  # type: ignore[attr-defined]
    PlayerLangRow.__table__,  # type: ignore[attr-defined]
    MatchRow.__table__,  # type: ignore[attr-defined]
    RatingRow.__table__,  # type: ignore[attr-defined]
    RatedUnitRow.__table__,  # type: ignore[attr-defined]
    UnitPlaceRow.__table__,  # type: ignore[attr-defined]
    PlayerTallyRow.__table__,  # type: ignore[attr-defined]
]
