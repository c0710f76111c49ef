"""Twin hands for the privacy tests: two runs of one hand that differ only in a hidden fact.

The bot's public table message may depend only on what the public may know.  Each twin
below is a pair of runs of the first hand of a table (same game, seats, options and table
seed) whose deals differ only in the tiles of one seat (the *hidden seat*), so the two runs
must produce exactly the same public events (the ``pass`` events left out: a pass tells
that a seat had a choice) and the same public view.

Kinds of twin:

* ``claim_pass`` (every game): in run A the hidden seat holds what lets it claim one
  discard (a pair for 碰; in 老五对 the tile for a 吃 of the 上家's unchanged dealt tile;
  in 字牌 a pair for 碰 on a discarded card), a claim window opens for it there and it
  passes; in run B it holds other tiles instead, so no window opens for it at that discard.
* ``fake_ting`` (金湖 only): in run A the hidden seat declares 假听 (``fake_ting``, then its
  discard); in run B it holds a ready hand and declares a real 听 with the same discard.

The deals are stacked walls (``context["stacked"]``).  Both runs name the same multiset of
tiles: the tiles only one run gives the hidden seat are named, in the other run, as the
last draws of the stacked wall, which the script never reaches.  So every tile the script
draws or shows is the same in both runs, and so is the unnamed rest of the wall (the 财神
indicator among it).  The tiles the hidden seat holds in only one run are never shown
during the script.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tiles import parse_kinds


@dataclass(frozen=True)
class Run:
    """One run: the extra context of the table's first hand and the actions played."""

    extra: dict  #: extra context of the first hand, e.g. ``{"stacked": {...}}``
    actions: tuple[str, ...]  #: the action log to play, ``"<seat> <type> [<tile>]"``


@dataclass(frozen=True)
class Twin:
    """Two runs of the first hand of one table that must look the same to the public."""

    game: str
    kind: str
    n_seats: int
    options: dict
    table_seed: int
    hidden_seat: int  #: the seat whose hidden fact differs
    a: Run
    b: Run
    #: index in ``a.actions`` / ``b.actions`` of the action at the twin moment: the discard
    #: that opens (A) or does not open (B) the hidden seat's claim window, or the 听 / 假听
    moment_a: int = 0
    moment_b: int = 0


def first_hand_context(run: Run):
    """A ``Hands.deal_context`` that deals the table's first hand as ``run`` stacks it
    (its extra context) and every later hand as usual."""
    dealt = []

    def context(table):
        if dealt:
            return {}
        dealt.append(1)
        return dict(run.extra)

    return context


def deal(t: Twin, run: Run):
    """The first hand of ``t``'s table, dealt with ``run.extra``."""
    from engine.match import Match
    from engine.variants import find_variant

    info = find_variant(t.game)
    return Match(info, info.resolve_options(t.options), t.table_seed, t.n_seats).new_hand(run.extra)


def _swap(hand: list[int], out: list[int], into: list[int]) -> list[int]:
    """``hand`` with the kinds ``out`` replaced, in place, by the kinds ``into``."""
    hand = list(hand)
    for o, i in zip(out, into, strict=True):
        hand[hand.index(o)] = i
    return hand


def _twin_extras(hands: list[str], draws: str, hidden: int, a_only: str, b_only: str, *,
                 draws_key: str = "draws", **spec) -> tuple[dict, dict]:
    """The two stacked deals: ``hands`` as in run A (notation, one string per seat); in run B
    the hidden seat holds ``b_only`` instead of ``a_only``.  Each run names the other run's
    hidden-only tiles after ``draws``, where the script does not reach."""
    ha = [parse_kinds(h) for h in hands]
    out, into = parse_kinds(a_only), parse_kinds(b_only)
    hb = [list(h) for h in ha]
    hb[hidden] = _swap(ha[hidden], out, into)
    dr = parse_kinds(draws)
    a = {"stacked": {"hands": ha, draws_key: dr + into, **spec}}
    b = {"stacked": {"hands": hb, draws_key: dr + out, **spec}}
    return a, b


def _acts(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in text.strip().splitlines() if line.strip())


def _claim_pass(game: str, n: int, seed: int, hidden: int, hands: list[str], draws: str, a_only: str,
                b_only: str, script: str, options: dict | None = None, **spec) -> Twin:
    """A ``claim_pass`` twin; ``script`` is run A's action log with the hidden seat's pass
    marked ``*`` (run B leaves that line out); the line before it is the twin moment."""
    lines = _acts(script)
    star = next(i for i, line in enumerate(lines) if line.startswith("*"))
    a_lines = lines[:star] + (lines[star][1:].strip(),) + lines[star + 1:]
    b_lines = lines[:star] + lines[star + 1:]
    ea, eb = _twin_extras(hands, draws, hidden, a_only, b_only, **spec)
    return Twin(game, "claim_pass", n, dict(options or {}), seed, hidden, Run(ea, a_lines), Run(eb, b_lines),
                star - 1, star - 1)


#: every twin by ``(game, kind)``.  Table seed 1 deals the first hand from seat 1 at four seats
#: and from seat 0 at two and three (老五对: the creator, seat 0, always deals first).
TWINS: dict[tuple[str, str], Twin] = {}


def _add(t: Twin, name: str = "") -> None:
    """Register ``t`` as ``(game, kind)``, or ``(game, kind:name)`` for a game's further twin
    of a kind."""
    TWINS[(t.game, f"{t.kind}:{name}" if name else t.kind)] = t


# --- 二人麻将: the dealer (seat 0) discards 中; seat 1 holds 中中 in A (碰), 9m9m in B
_add(_claim_pass(
    "two_player", 2, 1, 1,
    hands=["147m258m369m1234z7z", "123456789m12z7z7z"],
    draws="5z6z5z6z1z", a_only="7z7z", b_only="9m9m",
    script="""
        0 discard 7z
        * 1 pass
        1 discard 5z
        0 discard 6z
        1 discard 5z
        0 discard 6z
    """))


# --- 老三番: the opening go-around (万/筒 discards, no claims), then the dealer (seat 1) discards
# 中; seat 3 holds 中中 in A (碰), 8s8s in B
_add(_claim_pass(
    "laosanfan", 4, 1, 3,
    hands=["147m258p369s3344z", "147m258p369s123z7z9p", "258m369p147s1234z", "369m147p258s12z7z7z"],
    draws="9m9m9m5z6z6z6z5z1p", a_only="7z7z", b_only="8s8s",
    script="""
        1 discard 9p
        2 discard 9m
        3 discard 9m
        0 discard 9m
        1 discard 7z
        * 3 pass
        2 discard 6z
        3 discard 6z
        0 discard 6z
        1 discard 5z
    """))

# --- 金湖: the dealer (seat 1) discards 9p; seat 3 holds 9p9p in A (碰), 7p7p in B
_add(_claim_pass(
    "jinhu", 4, 1, 3,
    hands=["147m258p369s258m1p", "147m258p369s258m1p9p", "369m147p258s36p14s", "369m36p147s258s9p9p"],
    draws="4p7m3s5s6p", a_only="9p9p", b_only="7p7p",
    script="""
        1 discard 9p
        * 3 pass
        2 discard 4p
        3 discard 7m
        0 discard 3s
        1 discard 5s
    """))

# --- 财神 (白板 turned: 白 is the 财神): the dealer (seat 1) discards 中; seat 3 holds 中中 in A (碰),
# 1m1m in B
_add(_claim_pass(
    "caishen", 4, 1, 3,
    hands=["2468m135p468s9p2p7s", "1122m55p99s12346z7z", "3346m6679p118s25s", "579m24p357s9s8p8m7z7z"],
    draws="6z6z6z4z9m", a_only="7z7z", b_only="1m1m",
    script="""
        1 discard 7z
        * 3 pass
        2 discard 6z
        3 discard 6z
        0 discard 6z
        1 discard 4z
    """))

# --- 老五对 (four seats, 红花 turned: 9s and 红花 wild): seat 1 discards its dealt 6s unchanged;
# seat 2, its 下家, holds a 6s in A (吃), 福 in B
_add(_claim_pass(
    "laowudui", 4, 1, 2,
    hands=["123456789mTm1p2p", "345678p12345s", "12345m678sTp9p3h", "6789mTm12p67p78s"],
    draws="6s5p3sTp4p", a_only="6s", b_only="1h", indicator=parse_kinds("Ts")[0],
    script="""
        0 no_buy
        1 no_buy
        2 no_buy
        3 no_buy
        0 discard Tm
        1 discard 6s
        * 2 pass
        2 discard 5p
        3 discard 3s
        0 discard Tp
    """))

# --- 字牌 (three seats): the dealer (seat 0) discards 拾; seat 2 holds 拾拾 in A (碰), 十十 in B
_add(_claim_pass(
    "zipai", 3, 1, 2,
    hands=["10X6x7x2x4x5X7X8X1X3X2X9x10x6X3x", "1X3X9X2x4x6x7x10x5X7X3x9x1x6X", "1x1x1x4X4X4X8x8x8x10X10X3x6X9x"],
    draws="2X5x8X", a_only="10X10X", b_only="10x10x", draws_key="stock",
    script="""
        0 piao_none
        1 piao_none
        2 piao_none
        0 discard 10X
        * 2 pass
        1 chi_m 2X
        1 discard 9X
        0 chi_l 5x
        0 discard 2X
        1 chi_h 8X
    """))

# --- 字牌 (three seats), a card shown from the stock: the dealer (seat 0) discards 9x, which
# nobody may take; seat 1 shows 5X from the stock; seat 2 holds 5X5X in A (碰), 1x7x in B.  When
# nobody takes a card shown from the stock it is a passed card (过张) of the seat that showed
# it: in A once seat 2 passed, in B at once — and only then does seat 1's part show it
_add(_claim_pass(
    "zipai", 3, 1, 2,
    hands=["9x1X1X8X8X9X10X6x6x8x5x3X4X6X7X", "1x1x3x3x4x4x6x6x1X2X2X8X10X10X", "3x4x5X5X9X9X8x8x7x10x1x2X10X9x"],
    draws="5X2x3x4X6X", a_only="5X5X", b_only="1x7x", draws_key="stock",
    script="""
        0 piao_none
        1 piao_none
        2 piao_none
        0 discard 9x
        * 2 pass
        2 chi_l 2x
        2 discard 9X
        0 pass
        1 pass
        1 pass
    """), "stock")

# --- 金湖 假听: seat 2 draws 2s and declares 听 with it: in A its hand is not ready (3m 1s 4s
# where B holds 3m 4m 5m) and the 听 is a 假听; in B it is ready (waits 6s 9s) and the 听 real
_FT_A, _FT_B = _twin_extras(
    ["147m258p369s258m1p", "147m258p369s258m1p9p", "3m1s4s678m345p678s9s", "369m147p258s36p14s"],
    "2s7m9m4p2p8p1m", 2, "1s4s", "4m5m")
_add(Twin(
    "jinhu", "fake_ting", 4, {}, 1, 2,
    Run(_FT_A, _acts("""
        1 discard 9p
        2 fake_ting
        2 discard 2s
        3 discard 7m
        0 discard 9m
        1 discard 4p
        2 discard 2p
        3 discard 8p
    """)),
    Run(_FT_B, _acts("""
        1 discard 9p
        2 ting 2s
        3 discard 7m
        0 discard 9m
        1 discard 4p
        2 discard 2p
        3 discard 8p
    """)),
    1, 1))
