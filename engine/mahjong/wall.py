"""The wall and the deal of the draw/discard hand: shuffle, dice, a stacked wall for tests,
draws from the front and the back, the deal and the flower replacement after it.

Mixed into :class:`engine.mahjong.hand.MahjongHand` (whose state it reads and writes).
"""

from __future__ import annotations

from ..events import Event
from ..tiles import kind_of, kind_str, make_tiles
from .phases import DISCARD_PHASE
from .state import MahjongState



class StackedWall:
    """A wall laid out for a fixed deal (tests, puzzles, bug reports), from the seeded shuffle
    ``shuffled`` (tile ids): copies are taken by kind (:meth:`take`) into the front and the back,
    and every other tile follows in the shuffled order (:meth:`laid_out`)."""

    def __init__(self, shuffled: list[int]):
        self.shuffled = shuffled
        self.pool: dict[int, list[int]] = {}
        for t in shuffled:
            self.pool.setdefault(kind_of(t), []).append(t)

    def take(self, kind: int) -> int:
        """A copy of ``kind`` not taken yet.

        :raises ValueError: every copy of ``kind`` was taken."""
        if not self.pool.get(kind):
            raise ValueError(f"stacked wall: no copy of {kind_str(kind)} left")
        return self.pool[kind].pop()

    def laid_out(self, front: list[int], back: list[int]) -> list[int]:
        """The wall: ``front``, the tiles not taken in shuffled order, then ``back`` reversed
        (its first tile is the first drawn from the back)."""
        used = set(front) | set(back)
        return front + [t for t in self.shuffled if t not in used] + back[::-1]

class Wall(MahjongState):
    """Set-up of :class:`~engine.mahjong.hand.MahjongHand`: wall, deal, flower replacement."""

    def _build_wall(self) -> None:
        self._kind_counts = self.tile_counts()
        self._allowed_set = frozenset(self.allowed_kinds())
        wall = make_tiles(self._kind_counts)
        self.rng.shuffle(wall)
        self.dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        if "stacked" in self.context:
            wall = self._stack(wall, self.context["stacked"])
        self.wall = wall
        self.front = 0
        self.back = len(wall)
        self.total_tiles = len(wall)

    def _stack(self, shuffled: list[int], spec: dict) -> list[int]:
        """Lay the wall out so that the deal gives the hands of ``spec`` (for tests, puzzles
        and bug reports): ``{"hands": [kinds per seat (dealer: one more)], "draws": [kinds
        drawn from the front after the deal], "back": [kinds drawn from the back, first
        first]}``; every other tile follows in the seeded shuffled order.
        Raises ``ValueError`` if the spec asks for more copies than the set has."""
        stack = StackedWall(shuffled)
        hands = [list(h) for h in spec["hands"]]
        order = [(self.dealer + i) % self.n for i in range(self.n)]
        sizes = [self.DEAL_DEALER if s == self.dealer else self.DEAL_OTHER for s in range(self.n)]
        if any(len(hands[s]) != sizes[s] for s in range(self.n)):
            raise ValueError("stacked wall: wrong hand sizes")
        front: list[int] = []
        pos = [0] * self.n
        plan = [(s, 4) for _ in range(3) for s in order] + [(s, 1) for s in order] + [(self.dealer, 1)]
        for s, n in plan:
            for _ in range(n):
                front.append(stack.take(hands[s][pos[s]]))
                pos[s] += 1
        front += [stack.take(k) for k in spec.get("draws", [])]
        back = [stack.take(k) for k in spec.get("back", [])]
        return stack.laid_out(front, back)

    @property
    def wall_remaining(self) -> int:
        return self.back - self.front

    def _take(self, from_back: bool) -> int:
        if from_back:
            self.back -= 1
            return self.wall[self.back]
        t = self.wall[self.front]
        self.front += 1
        return t

    def _deal(self) -> None:
        order = [(self.dealer + i) % self.n for i in range(self.n)]
        for _ in range(3):
            for s in order:
                for _ in range(4):
                    self.hands[s].append(self._take(False))
        for s in order:
            self.hands[s].append(self._take(False))
        self.hands[self.dealer].append(self._take(False))
        self.events.append(Event("dice", data={"dice": list(self.dice)}))
        self.after_deal()
        # flower replacement, dealer first, repeated until nobody holds a bonus tile
        changed = True
        while changed:
            changed = False
            for s in order:
                while True:
                    bonus = [t for t in self.hands[s] if self.is_bonus(kind_of(t))]
                    if not bonus or self.wall_remaining == 0:
                        break
                    for t in bonus:
                        self.hands[s].remove(t)
                        self.flowers[s].append(t)
                        self.events.append(Event("flower", s, kind_of(t)))
                        self.hands[s].append(self._take(True))
                    changed = True
        self.drawn[self.dealer] = self.hands[self.dealer][-1]
        self.turn = self.dealer
        self.phase = DISCARD_PHASE

    def after_deal(self) -> None:
        """*hook*: called once after the deal, before flower replacement (e.g. 宝牌)."""
