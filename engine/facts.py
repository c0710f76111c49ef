"""The facts of a game the front ends need, resolved once per table: :class:`GameFacts`.

The table service hands them to the front ends inside every snapshot (``service/snapshot.py``),
so that the images and the words never look a game up in the registry: its names, how its
pieces are drawn, what its wild tiles are called, the catalogue keys of its own actions, its
options and its fan table.  Frozen and hashable (a key of the words' caches).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .options import Option

@dataclass(frozen=True)
class GameFacts:
    """What a front end needs to know of one game (a subset of ``engine.variant.VariantInfo``).

    :ivar id: the game's id (``"two_player"``): the namespace of its own words, never a branch
        of front-end code.
    :ivar words_dir: the folder of its own words (``<id>.<lang>.json``, in the game's package:
        ``VariantInfo.data_dir``), ``None`` when it says everything in the shared words.
    :ivar tile_style: ``"mahjong"`` or ``"paper"`` (字牌's long cards).
    :ivar claimed_discards: ``"dimmed"`` or ``"moved"``: how a discard another seat claimed
        shows in the discarder's pond (``engine.variant.VariantInfo.claimed_discards``).
    :ivar wild_name: the label key shown beside the wild tiles (``"wild"``, ``"wild_caishen"``),
        ``None`` without wild tiles.
    :ivar confirms_wild_discard: the front end asks before a wild tile is discarded.
    :ivar action_labels: ``((action type, catalogue key), …)`` of the game's own actions.
    :ivar options: the declared table options.
    :ivar fan_table: ``((zh name, en name, value), …)`` as ``/mj rules`` shows it.
    """

    id: str
    name_zh: str
    name_en: str
    min_players: int
    max_players: int
    tile_style: str = "mahjong"
    claimed_discards: str = "dimmed"
    wild_name: Optional[str] = None
    confirms_wild_discard: bool = False
    action_labels: tuple[tuple[str, str], ...] = ()
    options: tuple[Option, ...] = ()
    fan_table: tuple[tuple[str, str, int], ...] = ()
    words_dir: Optional[str] = None

    @property
    def paper(self) -> bool:
        """The game plays long paper cards (``tile_style == "paper"``)."""
        return self.tile_style == "paper"

    def action_label(self, act: str) -> Optional[str]:
        """The catalogue key of the game's own action ``act`` (``None``: not one of its own)."""
        for name, key in self.action_labels:
            if name == act:
                return key
        return None

    def option(self, name: str) -> Optional[Option]:
        """The declared option ``name`` (``None``: the game has none of that name)."""
        return next((o for o in self.options if o.name == name), None)


__all__ = ["GameFacts"]
