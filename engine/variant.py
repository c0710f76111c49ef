"""What a front end needs to know of a game: :class:`VariantInfo`, declared by each game's
package (``engine/variants/<game>/__init__.py``) and found through the registry in
``engine.variants``.

Everything a front end (the Discord cogs, the local table, the images) must know about a
game beyond its views is a declared fact here, so that no front end branches on a game id.
A new game declares only what differs from the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, Mapping

from .actions import ACTION_TYPES
from .ai_levels import DEFAULT_LEVEL, MoveFn, complete, move
from .facts import GameFacts
from .options import Option, resolve_options, score_only_names

if TYPE_CHECKING:
    from .actions import Action
    from .protocol import Hand

#: renderer styles of a game's pieces (:attr:`VariantInfo.tile_style`)
TILE_STYLES = ("mahjong", "paper")
#: where a discard another seat claimed is shown (:attr:`VariantInfo.claimed_discards`)
CLAIMED_DISCARDS = ("dimmed", "moved")
#: who deals a table's first hand (:attr:`VariantInfo.first_dealer`)
FIRST_DEALERS = ("random", "creator")

#: one row of a fan table: ``(zh name, en name, value)``
FanRow = tuple[str, str, int]


def hand_ai(hand: Hand, seat: int) -> "Action":
    """The default AI entry point: the hand's own ``ai_action``."""
    return hand.ai_action(seat)


@dataclass(frozen=True)
class VariantInfo:
    """What a front end needs to know of a game (a *variant*): its names, seats, options, how
    to deal a hand, and the facts below.  Frozen; declared once per game."""

    id: str
    """Stable id (``"two_player"``), stored with tables and hands."""
    name_zh: str
    """Display name in Chinese (``"二人麻将"``); :func:`engine.variants.find_variant` accepts it."""
    name_en: str
    """Display name in English."""
    min_players: int
    """Fewest seats a table of this game may start with."""
    max_players: int
    """Most seats a table of this game may have."""
    options: tuple[Option, ...]
    """Declared table options (:mod:`engine.options`)."""
    hand_factory: Callable[[dict, int, int, int, dict], Hand] = field(repr=False)
    """``(options, seed, dealer, n_seats, context) -> hand``: deals one hand (a
    :class:`engine.protocol.Hand`)."""
    aliases: tuple[str, ...] = ()
    """Other names accepted by :func:`engine.variants.find_variant`."""
    streak_per_player: bool = False
    """The dealer's 连庄 count belongs to the player, not the table (two_player.md
    §Settlement): the table service keeps it per player and server, puts the dealer's count in
    each hand's ``context["dealer_streak"]`` when dealing, and draws the dealer again when the
    seated players change between hands.  Otherwise the count is the match's
    (``Match.state["dealer_streak"]``)."""
    tile_style: str = "mahjong"
    """Which renderer style draws the game's pieces: ``"mahjong"`` (mahjong tiles) or
    ``"paper"`` (字牌's long paper cards).  One of :data:`TILE_STYLES`."""
    claimed_discards: str = "dimmed"
    """How the table shows a discard another seat claimed (the view lists it in the
    discarder's ``claimed_discards``): ``"dimmed"`` — it keeps its place in the discarder's
    pond, dimmed, so the pond still reads in the order discarded, while the claimer's meld shows
    it too (lying sideways); ``"moved"`` — only in the claimer's group (a card nobody took is
    the only one laid in a pond).  One of :data:`CLAIMED_DISCARDS`."""
    wild_name: str | None = None
    """What the game's wild tiles are called, as the key of the label shown beside them
    (``"wild"``: 百搭 / Wild; ``"wild_caishen"``: 财神 / Wild); ``None``: the game has no
    wild tiles (its views carry no ``wild``)."""
    front_end_confirms_wild_discard: bool = False
    """True: before it sends a discard of one of the view's wild kinds
    (``view["wild"]["kinds"]``), the front end asks the player to confirm (discard / keep),
    because the hand would take the discard at once (财神麻将).  False: the game has no wild
    tiles, or its hand asks itself — 老五对's discard of a 百搭 only sets ``me["confirming"]``
    and waits for the moves ``confirm`` (打) or ``keep`` (留), so the front end must not ask
    again."""
    first_dealer: str = "random"
    """Who deals a table's first hand: ``"random"`` (drawn from the table seed) or
    ``"creator"`` (seat 0, the player who opened the table: 老五对).  One of
    :data:`FIRST_DEALERS`; read by :class:`engine.match.Match`."""
    ai: Callable[..., "Action"] = field(default=hand_ai, repr=False)
    """The game's AI entry point: ``ai(hand, seat) -> Action``, the move of an AI seat (or of a
    player under 托管 where the table plays for them).  ``hand.ai_action(seat)`` gives the
    same move.  It is the ``normal`` level of :attr:`ai_levels`."""
    ai_levels: Mapping[str, MoveFn] = field(default_factory=dict, hash=False, repr=False)
    """The game's AI moves by level (:mod:`engine.ai_levels`): ``{"easy" | "normal" |
    "strong": (hand, seat) -> Action}``, built with :func:`engine.ai_levels.ai_levels`.  A
    level left out plays as ``normal``, and ``normal`` defaults to :attr:`ai`; after
    construction every level is present.  Read through :meth:`ai_move`."""
    fan_table: tuple[FanRow, ...] = ()
    """The rows of the game's fan table as ``/rules`` shows them, in table order:
    ``(zh name, en name, value)``; empty when the game publishes none."""
    action_labels: Mapping[str, str] = field(default_factory=dict, hash=False)
    """The game's own action types (``Action.type`` beyond :data:`engine.actions.ACTION_TYPES`:
    discard, 听, 吃, 碰, 杠, 胡, 加倍, 过) → the catalogue key of their button label, looked
    up in the game's own words (see :attr:`data_dir`), e.g. ``{"dui": "btn.dui"}``.  Every
    type the game's ``legal_actions`` may offer is listed."""
    data_dir: Path | None = field(default=None, compare=False)
    """The folder of the game's own files, kept in its package: its words,
    ``<id>.<lang>.json`` for each catalogue language (keys of the shared catalogue said in the
    game's own words — its buttons, events, prompts, result items — and ``rules.summary``, the
    paragraph ``/mj rules`` shows), and the presets it ships, ``presets.json``.  ``None``: the
    game has neither (the shared words, no presets)."""
    listing: int = 100
    """Where the game is listed among the games (menus, ``/mj rules``): lower first, then by
    id."""

    def __post_init__(self) -> None:
        if self.tile_style not in TILE_STYLES:
            raise ValueError(f"{self.id}: tile_style {self.tile_style!r} is not one of {TILE_STYLES}")
        if self.claimed_discards not in CLAIMED_DISCARDS:
            raise ValueError(f"{self.id}: claimed_discards {self.claimed_discards!r} is not one of {CLAIMED_DISCARDS}")
        if self.first_dealer not in FIRST_DEALERS:
            raise ValueError(f"{self.id}: first_dealer {self.first_dealer!r} is not one of {FIRST_DEALERS}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.id}: seats {self.min_players}..{self.max_players}")
        if self.front_end_confirms_wild_discard and self.wild_name is None:
            raise ValueError(f"{self.id}: a wild discard to confirm, but no wild tiles")
        standard = set(ACTION_TYPES) & set(self.action_labels)
        if standard:
            raise ValueError(f"{self.id}: action_labels names shared action types {sorted(standard)}")
        object.__setattr__(self, "fan_table", tuple(tuple(row) for row in self.fan_table))
        object.__setattr__(self, "action_labels", MappingProxyType(dict(self.action_labels)))
        object.__setattr__(self, "ai_levels", complete(self.ai_levels, self.ai))

    @property
    def facts(self) -> GameFacts:
        """What the front ends need of the game, resolved once (:class:`engine.facts.GameFacts`)."""
        cached = self.__dict__.get("_facts")
        if cached is None:
            cached = facts_of(self)
            object.__setattr__(self, "_facts", cached)
        return cached

    @property
    def score_only_options(self) -> frozenset[str]:
        """The names of the options that change only what a hand pays
        (:attr:`engine.options.Option.score_only`): a finished hand may be re-scored under
        other values of these, never of the others."""
        return score_only_names(self.options)

    def ai_move(self, hand: Hand, seat: int, level: str = DEFAULT_LEVEL) -> "Action":
        """The move of an AI playing ``seat`` of ``hand`` at ``level`` (one of
        :data:`engine.ai_levels.LEVELS`; ``ValueError`` otherwise): one of
        ``hand.legal_actions(seat)``."""
        return move(self, hand, seat, level)

    def resolve_options(self, given: dict | None) -> dict:
        """Defaults + ``given``, validated (raises ``OptionError``)."""
        return resolve_options(self.options, given)

    def new_hand(self, options: dict, seed: int, dealer: int, n_seats: int, context: dict | None = None) -> Hand:
        """A freshly dealt hand (see :attr:`hand_factory`)."""
        return self.hand_factory(options, seed, dealer, n_seats, context or {})


def facts_of(info: VariantInfo) -> GameFacts:
    """The :class:`GameFacts` of a ``VariantInfo``."""
    return GameFacts(id=info.id, name_zh=info.name_zh, name_en=info.name_en, min_players=info.min_players,
                     max_players=info.max_players, tile_style=info.tile_style,
                     claimed_discards=info.claimed_discards, wild_name=info.wild_name,
                     confirms_wild_discard=info.front_end_confirms_wild_discard,
                     action_labels=tuple(sorted(info.action_labels.items())), options=tuple(info.options),
                     fan_table=tuple(info.fan_table),
                     words_dir=str(info.data_dir) if info.data_dir is not None else None)
