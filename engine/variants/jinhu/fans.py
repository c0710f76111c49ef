"""金湖老三番 fan and wait rule, as a pure function of the winning hand.

Source: ``docs/rules/laosanfan.md`` Part 2, "Fan (番) = points" and "Waits".

A win is read in every way the hand allows (each split into sets + pair, and where the
winning tile sits in it; or seven pairs).  A reading is *allowed* if its wait is closed
(夹) or edge (边), or one of the any-wait fans applies (七对, 对对胡, 清一色, 明大绝, 暗大绝,
一条龙 completed by the winning tile), or it is 硬抗贼 / 调贼 (a pung or pair wait on a
贼), or its fan without flowers reaches ``min_fan_for_open_wait`` (四同 and 胡贼 count
towards that only when the wait is a 甩大 or 姊妹 shape).  The allowed reading with the
most fan is the score.
"""

from __future__ import annotations

from typing import Iterator, Iterable, Sequence

from dataclasses import dataclass

from ... import hand_shapes
from ...tiles import FLOWER, GREEN, RED, WHITE

PC = hand_shapes.PUNG_CODE
#: 贼 tiles: 5m 7m 5p 5s
THIEVES = (4, 6, 13, 22)
#: 四同 worth 10: 4m 4p 4s (and the 贼)
BIG_FOUR = (3, 12, 21) + THIEVES
DRAGONS = (WHITE, GREEN, RED)
FREE_FANS = ("七对", "对对胡", "清一色", "明大绝", "暗大绝")


class NotAllowed(Exception):
    """The hand is complete but no reading of it may win (wait rule); ``code`` names why."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class JinhuWin:
    """What the fan calculation needs.

    :ivar concealed13: 34 counts of the concealed hand without the winning tile.
    :ivar pungs: kinds of the exposed pungs (jinhu has no chows or kongs).
    :ivar win: the winning kind.
    :ivar flowers: kinds of the flowers held (1f..8f and 白发中).
    """

    concealed13: tuple
    pungs: tuple
    win: int
    flowers: tuple
    self_drawn: bool = False
    last_tile: bool = False  #: self-drawn on the last tile before the draw point
    min_fan_for_open_wait: int = 2


def _fan(name: str, en: str, value: int, count: int = 1) -> list:
    return [name, en, value, count]


def _wait_type(codes: Sequence[int], pair: int, win: int, how: str, code: int) -> str:
    if how == "pair":
        return "pair"
    if how == "pung":
        return "pung"
    pos = win - code
    if pos == 1:
        return "closed"
    if (pos == 2 and code % 9 == 0) or (pos == 0 and code % 9 == 6):
        return "edge"
    return "open"


def _sisters(pung_kinds: Iterable[int], chow_codes: Iterable[int]) -> int:
    n = 0
    ps = set(pung_kinds)
    for k in ps:
        if k < 27 and k % 9 < 8 and k + 1 in ps:
            n += 1
    seen: dict[int, int] = {}
    for c in chow_codes:
        seen[c] = seen.get(c, 0) + 1
    n += sum(v - 1 for v in seen.values())
    return n


def _readings(w: JinhuWin) -> Iterator[tuple[str, tuple, int, str, int]]:
    """Yield ``(kind, codes, pair, how, code)``: ``kind`` is "seven" or "std"."""
    full = list(w.concealed13)
    full[w.win] += 1
    comb = list(full)
    for k in w.pungs:
        comb[k] += 3
    if sum(comb) == 14 and all(c % 2 == 0 for c in comb):
        yield ("seven", (), -1, "pair", -1)
    for codes, pair in hand_shapes.decompose_codes(full):
        if pair == w.win:
            yield ("std", codes, pair, "pair", -1)
        for c in set(codes):
            if c >= PC:
                if c - PC == w.win:
                    yield ("std", codes, pair, "pung", c)
            elif c <= w.win <= c + 2:
                yield ("std", codes, pair, "chow", c)


def hand_has_thief_pair_wait(concealed13: Sequence[int], n_pungs: int) -> bool:
    """调贼 of the whole ready hand: some 贼 completes it as the pair (5678m waiting on 5m)."""
    for z in THIEVES:
        if concealed13[z] >= 4:
            continue
        full = list(concealed13)
        full[z] += 1
        if sum(full) != 14 - 3 * n_pungs:
            return False
        if any(pair == z for _, pair in hand_shapes.decompose_codes(full)):
            return True
    return False


def jinhu_fans(w: JinhuWin) -> dict:
    """The fan of a 金湖 win (laosanfan.md Part 2, fan table and waits).

    :returns: ``{"fans": [[zh, en, value, count]…], "fan_total": int, "wait": str}``.
    :raises NotAllowed: ``"not_a_winning_hand"`` when no shape completes;
        ``"wait_not_allowed"`` when every reading breaks the wait rule.
    """
    full = list(w.concealed13)
    full[w.win] += 1
    comb = list(full)
    for k in w.pungs:
        comb[k] += 3
    # hand-level fans
    base: list[list] = []
    hard = [k for k in w.flowers if FLOWER <= k < FLOWER + 8]
    if w.flowers:
        base.append(_fan("花", "Flowers", 1, len(w.flowers)))
    if not hard:
        base.append(_fan("无花果", "No real flower", 10))
    fl = set(w.flowers)
    same = sum(1 for d in DRAGONS if list(w.flowers).count(d) == 4)
    same += all(FLOWER + i in fl for i in range(4)) + all(FLOWER + 4 + i in fl for i in range(4))
    if same:
        base.append(_fan("同花", "Flower set", 10, same))
    flower_fan = sum(f[2] * f[3] for f in base)
    extra: list[list] = []
    if w.self_drawn:
        extra.append(_fan("自摸", "Self-drawn", 1))
    if w.self_drawn and w.last_tile:
        extra.append(_fan("海底捞月", "Last tile", 10))
    suits = {k // 9 for k in range(27) if comb[k]}
    flush = len(suits) == 1
    if flush:
        extra.append(_fan("清一色", "Full flush", 10))
    if w.win in w.pungs:
        extra.append(_fan("明大绝", "Fourth of an exposed pung", 5))
    if w.concealed13[w.win] == 3:
        extra.append(_fan("暗大绝", "Fourth of a concealed triplet", 5))
    restricted: list[list] = []
    big = sum(1 for k in range(27) if comb[k] == 4 and k in BIG_FOUR)
    small = sum(1 for k in range(27) if comb[k] == 4 and k not in BIG_FOUR)
    if big:
        restricted.append(_fan("四同", "Four of a kind", 10, big))
    if small:
        restricted.append(_fan("四同", "Four of a kind", 2, small))
    thief = w.win in THIEVES
    if thief:
        restricted.append(_fan("胡贼", "Winning on a thief", 5))
    thief_pair_hand = None
    best = None
    for kind, codes, pair, how, code in _readings(w):
        fans: list[list] = list(extra)
        wait = "pair" if kind == "seven" else _wait_type(codes, pair, w.win, how, code)
        shape_wait = False
        if kind == "seven":
            fans.append(_fan("七对", "Seven pairs", 10))
        else:
            chows = [c for c in codes if c < PC]
            pung_kinds = [c - PC for c in codes if c >= PC] + list(w.pungs)
            if not chows:
                fans.append(_fan("对对胡", "All pungs", 5))
            dragon_wait = False
            for s in (0, 9, 18):
                if s in chows and s + 3 in chows and s + 6 in chows:
                    fans.append(_fan("一条龙", "Pure straight", 10))
                    dragon_wait = how == "chow" and code in (s, s + 3, s + 6)
                    break
            if how == "pair" and any(c + 2 == w.win for c in chows):
                fans.append(_fan("甩大", "Single wait beside a chow", 1))
                shape_wait = True
            sis = _sisters(pung_kinds, chows)
            if sis:
                fans.append(_fan("姊妹", "Sister sets", 1, sis))
                nbrs = ([w.win - 1] if w.win % 9 else []) + ([w.win + 1] if w.win % 9 < 8 else [])
                if how == "pung" and any(p in pung_kinds for p in nbrs):
                    shape_wait = True  # 33 222 waiting on 3
                if how == "chow" and chows.count(code) >= 2:
                    shape_wait = True
        names = {f[0] for f in fans}
        free = wait in ("closed", "edge") or bool(names & set(FREE_FANS))
        if kind == "std" and "一条龙" in names and dragon_wait:
            free = True
        if thief and wait in ("pair", "pung"):
            free = True  # 调贼 / 硬抗贼
        if not free and wait == "pair":
            if thief_pair_hand is None:
                thief_pair_hand = hand_has_thief_pair_wait(w.concealed13, len(w.pungs))
            free = thief_pair_hand  # 5678m: the ready hand is a 调贼, its pair waits may win
        own = sum(f[2] * f[3] for f in fans)
        if not free:
            counted = own + (sum(f[2] * f[3] for f in restricted) if shape_wait else 0)
            free = counted >= w.min_fan_for_open_wait
        if not free:
            continue
        total = flower_fan + own + sum(f[2] * f[3] for f in restricted)
        if best is None or total > best[0]:
            best = (total, base + fans + restricted, wait)
    if best is None:
        any_shape = any(True for _ in _readings(w))
        raise NotAllowed("wait_not_allowed" if any_shape else "not_a_winning_hand")
    return {"fans": best[1], "fan_total": best[0], "wait": best[2]}
