"""字牌 groups, 胡息 and the best split of a hand (``docs/rules/zipai.md`` §Groups, §Winning, §胡息).

Cards are counted in 20-long arrays indexed ``kind - 50``: ``0..9`` = small 一..十
(``1x..10x``), ``10..19`` = big 壹..拾 (``1X..10X``).  A group is a tuple
``(type, idx, idx, idx[, idx])`` with ``type`` one of ``"sentence"`` (a 一句话 — a run of three
of one case or 二七十/贰柒拾), ``"jiao"`` (绞牌), ``"pair"``, ``"peng"`` (碰, also a triple made
in a winning hand from a pair and the outside card), ``"kan"`` (坎), ``"wei"`` (偎/臭偎),
``"pao"`` (跑) and ``"ti"`` (提).

Everything here is pure and memoised; the split search visits a concealed hand of up to
about 20 cards in well under a millisecond.
"""

from __future__ import annotations

from functools import lru_cache

from ...tiles import ZI_SMALL

N_IDX = 20

#: 胡息 of the identical-card groups: type -> (big, small) (zipai.md §胡息)
SAME_HUXI = {"peng": (3, 1), "kan": (6, 3), "wei": (6, 3), "chouwei": (6, 3), "pao": (9, 6), "ti": (12, 9)}
#: 胡息 of 壹贰叁 / 一二三 and 贰柒拾 / 二七十 (big, small); every other sentence, jiao or pair is 0
SPECIAL_SENTENCE_HUXI = (6, 3)


def idx_of(kind: int) -> int:
    """``kind`` (50..69) -> array index 0..19."""
    return kind - ZI_SMALL


def kind_of_idx(i: int) -> int:
    """Array index 0..19 -> kind 50..69."""
    return i + ZI_SMALL


def is_big(i: int) -> bool:
    return i >= 10


def num(i: int) -> int:
    """Face number 1..10 of an index."""
    return i % 10 + 1


def other_case(i: int) -> int:
    """The same number in the other case (一 <-> 壹)."""
    return (i + 10) % 20


def group_huxi(gtype: str, idxs: tuple[int, ...] | list[int]) -> int:
    """胡息 of one group (zipai.md §胡息 table).

    ``gtype`` is a group type of this module (``"chi"``/``"bi"`` are read as the sentence or
    jiao their cards make); ``idxs`` are the array indices of its cards.

    >>> group_huxi("kan", (14, 14, 14))   # 坎 of 伍
    6
    >>> group_huxi("sentence", (0, 1, 2))  # 一二三
    3
    """
    big = is_big(idxs[0])
    if gtype in SAME_HUXI:
        return SAME_HUXI[gtype][0 if big else 1]
    if gtype in ("sentence", "chi", "bi"):
        s = sorted(idxs)
        if len({is_big(i) for i in s}) == 1:
            nums = [num(i) for i in s]
            if nums == [1, 2, 3] or nums == [2, 7, 10]:
                return SPECIAL_SENTENCE_HUXI[0 if big else 1]
        return 0
    return 0  # jiao, pair


def classify_three(idxs: tuple[int, ...] | list[int]) -> str | None:
    """``"sentence"``, ``"jiao"``, ``"peng"`` (three identical) or ``None`` for three cards."""
    a, b, c = sorted(idxs)
    if a == b == c:
        return "peng"
    if len({is_big(a), is_big(b), is_big(c)}) == 1:
        n = sorted(num(i) for i in (a, b, c))
        if n == [2, 7, 10] or (n[1] == n[0] + 1 and n[2] == n[1] + 1):
            return "sentence"
        return None
    if num(a) == num(b) == num(c):
        return "jiao"
    return None


@lru_cache(maxsize=200_000)
def _split(counts: tuple[int, ...], need_pair: bool) -> tuple[int, tuple] | None:
    """Best ``(huxi, groups)`` splitting ``counts`` entirely into triples (and exactly one pair
    when ``need_pair``); ``None`` if impossible."""
    i = next((j for j in range(N_IDX) if counts[j]), -1)
    if i < 0:
        return None if need_pair else (0, ())
    best: tuple[int, tuple] | None = None
    c = list(counts)

    def consider(used: tuple[int, ...], gtype: str, value: int, pair_left: bool) -> None:
        nonlocal best
        for u in used:
            c[u] -= 1
        ok = all(x >= 0 for x in c)
        if ok:
            sub = _split(tuple(c), pair_left)
            if sub is not None and (best is None or sub[0] + value > best[0]):
                best = (sub[0] + value, ((gtype,) + used,) + sub[1])
        for u in used:
            c[u] += 1

    n = num(i)
    if need_pair and counts[i] >= 2:
        consider((i, i), "pair", 0, False)
    if counts[i] >= 3:
        consider((i, i, i), "peng", group_huxi("peng", (i,)), need_pair)
    if n <= 8:
        consider((i, i + 1, i + 2), "sentence", group_huxi("sentence", (i, i + 1, i + 2)), need_pair)
    if n == 2:
        consider((i, i + 5, i + 8), "sentence", group_huxi("sentence", (i, i + 5, i + 8)), need_pair)
    if not is_big(i):
        o = other_case(i)
        if counts[o]:
            if counts[i] >= 2:
                consider((i, i, o), "jiao", 0, need_pair)
            if counts[o] >= 2:
                consider((i, o, o), "jiao", 0, need_pair)
    return best


def best_split(counts: list[int], need_pair: bool) -> tuple[int, list[tuple]] | None:
    """The split of free concealed cards (no 坎) into groups with the most 胡息.

    :param counts: 20 counts (each 0..3; a 3 is only used as a triple made with an outside card).
    :param need_pair: exactly one pair (将) must be among the groups.
    :returns: ``(huxi, [group, ...])`` or ``None`` when the cards do not split.
    """
    r = _split(tuple(counts), need_pair)
    if r is None:
        return None
    return r[0], list(r[1])


def best_win(hand: list[int] | tuple[int, ...], table: list[tuple[str, int, int, int]], extra: int | None = None,
             extra_outside: bool = True) -> tuple[int, list[tuple]] | None:
    """Best winning split of a player's cards (zipai.md §Winning): five groups (门子) with a pair
    exactly when there is a 4-card group; a 坎 in hand is never split.

    :param hand: 20 counts of the concealed hand (no 4 of a kind).
    :param table: the player's table groups as ``(type, huxi, n_cards, idx)``: type ``"chi"``,
        ``"bi"``, ``"peng"``, ``"wei"``, ``"chouwei"``, ``"pao"``, ``"ti"``; ``idx`` the lowest card.
    :param extra: index of the card won on (``None``: the cards as they are).
    :param extra_outside: the extra card came from outside (a triple it makes with a pair
        counts as 碰, four with a 坎 as 跑); it also may join a 碰/偎 on the table as a 跑.
    :returns: ``(huxi, groups)`` — the concealed part's groups as ``(type, idx...)``, plus
        ``("table_pao", idx)`` when the card turned a 碰/偎 on the table into a 跑 — or ``None`` if
        the cards do not win.  The 胡息 counts the table groups too.
    """
    kans = [i for i in range(N_IDX) if hand[i] == 3]
    base_free = [0 if hand[i] == 3 else hand[i] for i in range(N_IDX)]
    table_hx = sum(g[1] for g in table)
    n_four = sum(1 for g in table if g[2] == 4)
    kan_hx = sum(group_huxi("kan", (i,)) for i in kans)
    best: tuple[int, list[tuple]] | None = None

    def attempt(free: list[int], fixed: int, fours: int, extra_groups: list[tuple], extra_hx: int) -> None:
        nonlocal best
        need_pair = fours >= 1
        size = sum(free)
        want = 3 * (5 - fixed - (1 if need_pair else 0)) + (2 if need_pair else 0)
        if size != want or fixed > 5:
            return
        r = best_split(free, need_pair)
        if r is None:
            return
        total = r[0] + table_hx + kan_hx + extra_hx
        if best is None or total > best[0]:
            groups = [("kan", i, i, i) for i in kans] + extra_groups + r[1]
            best = (total, groups)

    n_fixed = len(table) + len(kans)
    if extra is None:
        attempt(base_free, n_fixed, n_four, [], 0)
        return best
    # (A) the card joins the free cards
    free = list(base_free)
    free[extra] += 1
    attempt(free, n_fixed, n_four, [], 0)
    if extra_outside:
        # (B) the card joins a 坎 in hand as a 跑
        if extra in kans:
            kans.remove(extra)
            kan_hx -= group_huxi("kan", (extra,))
            attempt(base_free, n_fixed, n_four + 1, [("pao", extra, extra, extra, extra)],
                    group_huxi("pao", (extra,)))
            kans.append(extra)
            kans.sort()
            kan_hx += group_huxi("kan", (extra,))
        # (C) the card joins a 碰/偎 on the table as a 跑
        for j, g in enumerate(table):
            if g[0] in ("peng", "wei", "chouwei") and len(g) > 3 and g[3] == extra:
                new_table = list(table)
                new_table[j] = ("pao", group_huxi("pao", (extra,)), 4, extra)
                saved = table_hx, n_four
                table_hx = sum(x[1] for x in new_table)
                attempt(base_free, n_fixed, n_four + 1, [("table_pao", extra)], 0)
                table_hx, n_four = saved
                break
    return best


def chi_shapes(i: int) -> list[tuple[str, tuple[int, int]]]:
    """The ways card ``i`` makes a group with two other cards, as ``(code, (a, b))`` where
    ``a, b`` are the two other cards' indices (zipai.md §Groups):

    * ``l`` / ``m`` / ``h``: a run with the card lowest / in the middle / highest;
    * ``e``: 二七十 (贰柒拾);
    * ``d``: 绞牌 with one more copy of the card and the other case (五五伍);
    * ``j``: 绞牌 with two of the other case (五伍伍).
    """
    n, o = num(i), other_case(i)
    out = []
    if n <= 8:
        out.append(("l", (i + 1, i + 2)))
    if 2 <= n <= 9:
        out.append(("m", (i - 1, i + 1)))
    if n >= 3:
        out.append(("h", (i - 2, i - 1)))
    if n in (2, 7, 10):
        base = i - (n - 1)
        others = [base + m - 1 for m in (2, 7, 10) if m != n]
        out.append(("e", (others[0], others[1])))
    out.append(("d", (i, o)))
    out.append(("j", (o, o)))
    return out


def chi_choices(avail: list[int], i: int) -> list[tuple[str, list[tuple[int, ...]]]]:
    """Every legal 吃 of card ``i`` with the free hand cards ``avail`` (20 counts, 坎 removed),
    with 比牌 (zipai.md §Actions, 吃 and 比牌): after the sentence/jiao with the taken card,
    every further copy of ``i`` in hand must be laid down in another sentence/jiao of hand cards.

    :returns: ``[(code, [group, ...]), ...]``; ``code`` is ``main`` or ``main + "_" + bi codes``
        (codes of :func:`chi_shapes`, bi codes sorted), groups are index triples, the first
        containing the taken card.  Sorted by code; no duplicates.
    """
    out: dict[str, list[tuple[int, ...]]] = {}
    c = list(avail)
    for code, (a, b) in chi_shapes(i):
        c[a] -= 1
        c[b] -= 1
        if c[a] >= 0 and c[b] >= 0:
            main = tuple(sorted((i, a, b)))
            for bi_codes, bi_groups in _bi(c, i, ""):
                key = code + ("_" + bi_codes if bi_codes else "")
                out.setdefault(key, [main] + bi_groups)
        c[a] += 1
        c[b] += 1
    return sorted(out.items())


def _bi(c: list[int], i: int, last: str) -> list[tuple[str, list[tuple[int, ...]]]]:
    """Ways to lay every remaining copy of ``i`` in ``c`` into groups (codes non-decreasing)."""
    if c[i] == 0:
        return [("", [])]
    res = []
    c[i] -= 1
    for code, (a, b) in chi_shapes(i):
        if code < last:
            continue
        c[a] -= 1
        c[b] -= 1
        if c[a] >= 0 and c[b] >= 0:
            g = tuple(sorted((i, a, b)))
            for rest_codes, rest in _bi(c, i, code):
                res.append((code + rest_codes, [g] + rest))
        c[a] += 1
        c[b] += 1
    c[i] += 1
    return res


def tun_of(huxi: int, per: int) -> int:
    """囤 from 胡息: 三息一囤 (``per=3``) floor(胡息 / 3), 一息一囤 (``per=1``) 胡息 (zipai.md §Scoring).

    >>> tun_of(17, 3), tun_of(17, 1)
    (5, 17)
    """
    if per not in (1, 3):
        raise ValueError(f"囤 is counted per 1 or 3 胡息, not {per}")
    return huxi // per
