"""Melds (副露): chow, pung and kong sets laid on the table.

Source: ``docs/rules/README.md`` (vocabulary: 吃 chow, 碰 pung, 杠 kong — 明杠 exposed,
暗杠 concealed, 加杠 added).
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import kind_of, kind_str

CHOW, PUNG, KONG = "chow", "pung", "kong"


@dataclass(frozen=True, slots=True)
class Meld:
    """One set on the table.

    :ivar type: ``"chow"``, ``"pung"`` or ``"kong"``.
    :ivar tiles: the physical tiles (``kind*4+copy``), sorted by kind.
    :ivar concealed: True only for a concealed kong (暗杠); every other meld is exposed.
    :ivar claimed: the physical tile taken from another seat's discard, or ``None``
        (concealed kong; for an added kong 加杠 the tile claimed for the original pung).
    :ivar from_seat: the seat that discarded ``claimed`` (``None`` when not claimed).
    :ivar added: True for a kong made by adding a fourth tile to an exposed pung (加杠).
    """

    type: str
    tiles: tuple[int, ...]
    concealed: bool = False
    claimed: int | None = None
    from_seat: int | None = None
    added: bool = False

    @property
    def kind(self) -> int:
        """The lowest kind of the set (the kind of a pung/kong, the first tile of a chow)."""
        return kind_of(self.tiles[0])

    @property
    def kinds(self) -> tuple[int, ...]:
        return tuple(kind_of(t) for t in self.tiles)

    @property
    def is_kong(self) -> bool:
        return self.type == KONG

    @property
    def is_pung_like(self) -> bool:
        """Pung or kong (刻子/杠)."""
        return self.type in (PUNG, KONG)

    def __str__(self) -> str:
        return self.type + ":" + "".join(kind_str(k) for k in self.kinds)

    def to_json(self) -> dict:
        return {
            "type": self.type,
            "tiles": list(self.tiles),
            "concealed": self.concealed,
            "claimed": self.claimed,
            "from_seat": self.from_seat,
            "added": self.added,
        }


def chow_bases(counts: list[int], kind: int) -> list[int]:
    """The chows a claimed suited ``kind`` (0–26) completes from ``counts`` (per kind, the
    claimer's concealed tiles): the lowest kind of each, lowest first (吃 of ``4m`` with
    ``2m 3m 5m 6m`` held: ``2m``, ``3m``, ``4m``)."""
    n = kind % 9
    bases = []
    for start in (n - 2, n - 1, n):
        if 0 <= start <= 6:
            base = kind - n + start
            if all(counts[base + i] >= 1 for i in range(3) if base + i != kind):
                bases.append(base)
    return bases

