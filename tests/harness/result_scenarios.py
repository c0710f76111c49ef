"""Result-shape scenarios: for every game, one fixed first hand per shape of result it can end in.

A scenario is a table (game, seats, options, table seed, extra deal context) and the complete
action log of its first hand, every line a seat's own decision ("<seat> <type> [<tile>]"), so
that the hand can be replayed at engine level or played through the bot by human seats pressing
buttons: no AI choice and no timeout is involved.

The action logs are computed at import time by playing the hand with :func:`_policy`, a fixed
rule written here (it must not follow the bot's AI, which may change):

1. the next line of the scenario's ``script`` when its seat is asked now and the line is legal;
2. otherwise 胡 for the first asked seat that may win;
3. otherwise the plain choice of :func:`_plain_action`: pass a claim, discard the drawn tile
   (the tile just dealt, in 老五对), no 买庄 / 折庄 / 飘 — the choices the rule files give a
   seat that does nothing, written out here.

The common shapes (self-drawn, discard, exhaustive draw) come from table seeds found by
playing many seeds with no script; the rare ones (三摊, 抢杠胡, 包五家, 一炮多响, a win on a
card shown by another seat's draw) from stacked walls (``context["stacked"]``: see
``engine.mahjong.MahjongHand._stack``, ``engine.variants.laowudui.LaoWuDuiHand._stack`` and
``engine.variants.zipai.ZipaiHand``).  For a stacked wall the table seed is one whose first
dealer (``engine.match.Match``) is the seat the stack was laid out for.

``tests/engine/test_result_scenarios.py`` replays every scenario and checks its result.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action
from engine.tiles import kind_of, parse_kind, parse_kinds


@dataclass(frozen=True)
class Scenario:
    """One hand that ends in one result shape.

    :ivar discarder: the seat that dealt in (discard, 三摊, 包五家, 一炮多响), whose added kong
        was robbed (抢杠胡), or whose draw turned up the winning card (字牌 ``shown``: the
        result itself has no discarder); ``None`` for self-drawn wins and draws.
    :ivar liable: the liable seat of 三摊 (老三番 ``result["liable"]``) or 包五家 (金湖
        ``result["baowu"]``), else ``None``.
    """

    game: str
    shape: str
    n_seats: int
    options: dict
    table_seed: int
    extra: dict | None
    actions: tuple[str, ...]
    winners: tuple[int, ...]
    discarder: int | None
    liable: int | None

    @property
    def facts(self):
        """The game's facts (``engine.facts.GameFacts``), as a snapshot carries them."""
        from engine.variants import find_variant

        return find_variant(self.game).facts


#: the (game, shape) pairs a table can end a hand in, and the seats each game allows
SHAPES: dict[str, tuple[str, ...]] = {
    "two_player": ("self_drawn", "discard", "draw"),
    "laosanfan": ("self_drawn", "discard", "draw", "santan", "rob_kong"),
    "jinhu": ("self_drawn", "discard", "draw", "baowu"),
    "caishen": ("self_drawn", "discard", "draw", "rob_kong"),
    "laowudui": ("self_drawn", "discard", "several_winners", "draw"),
    "zipai": ("self_drawn", "discard", "shown", "draw"),
}


def deal(s: Scenario):
    """The first hand of the scenario's table, freshly dealt, as a table would deal it."""
    from engine.match import Match
    from engine.variants import find_variant

    info = find_variant(s.game)
    return Match(info, info.resolve_options(s.options), s.table_seed, s.n_seats).new_hand(s.extra)


# ---------------------------------------------------------------------- the fixed policy
def _plain_action(hand, seat: int) -> Action:
    """What ``seat`` does when it neither wins nor follows a script line.

    * every game: pass a claim (and a 抢杠 window);
    * draw/discard mahjong: discard the drawn tile, or after a claim the last legal discard
      (the highest tile); in 财神 never a 财神 while another tile can go;
    * 老五对: no 买庄, no 折庄; pass the dealt tile on; a dealt 百搭 is kept and the last
      non-wild tile of the hand goes instead (after a claim, and on the dealer's first turn,
      the last non-wild tile); a 百搭 under confirmation is kept (留) when another tile can go;
    * 字牌: 飘 0; the last legal discard.
    """
    legal = hand.legal_actions(seat)
    types = {a.type for a in legal}
    discards = [a for a in legal if a.type == "discard"]
    game = hand.VARIANT
    if game == "zipai":
        if hand.phase == "piao":
            return Action(seat, "piao_none")
        if hand.phase == "claim":
            return Action(seat, "pass")
        return discards[-1]
    if game == "laowudui":
        if hand.phase == "opening":
            return Action(seat, "no_buy" if "no_buy" in types else "no_zhezhuang")
        if hand.phase == "claim":
            return Action(seat, "pass")
        if hand.confirming is not None:
            if "keep" in types and any(kind_of(t) not in hand.wild for t in hand.hands[seat]):
                return Action(seat, "keep")
            return Action(seat, "confirm")
        dealt = hand.dealt[seat]
        if dealt is not None and kind_of(dealt) not in hand.wild:
            return Action(seat, "discard", kind_of(dealt))
        plain = [a for a in discards if a.kind not in hand.wild]
        return (plain or discards)[-1]
    if hand.phase != "discard":
        return Action(seat, "pass")
    wild = getattr(hand, "wild", None)  # 财神
    drawn = hand.drawn[seat]
    if drawn is not None and kind_of(drawn) != wild and Action(seat, "discard", kind_of(drawn)) in discards:
        return Action(seat, "discard", kind_of(drawn))
    plain = [a for a in discards if a.kind != wild]
    return (plain or discards)[-1]


def _policy(hand, script: list[Action]) -> Action:
    pending = hand.pending_seats()
    if script and script[0].seat in pending and script[0] in hand.legal_actions(script[0].seat):
        return script.pop(0)
    for s in pending:
        win = Action(s, "hu")
        if win in hand.legal_actions(s):
            return win
    return _plain_action(hand, pending[0])


def _play(game: str, n: int, options: dict, seed: int, extra: dict | None, script: tuple[str, ...]) -> tuple[str, ...]:
    """The action log of the scenario's hand played by :func:`_policy` to its end.
    ``RuntimeError`` if a script line was never used (the stack or the seed changed)."""
    probe = Scenario(game, "", n, options, seed, extra, (), (), None, None)
    hand = deal(probe)
    queue = [Action.parse(line) for line in script]
    log: list[str] = []
    while not hand.is_over():
        a = _policy(hand, queue)
        hand.apply(a)
        log.append(str(a))
        if len(log) > 1000:
            raise RuntimeError(f"{game} seed {seed}: the hand does not end")
    if queue:
        raise RuntimeError(f"{game} seed {seed}: script lines not used: {[str(a) for a in queue]}")
    return tuple(log)


SCENARIOS: dict[tuple[str, str], Scenario] = {}


def _add(game: str, shape: str, n: int, seed: int, *, winners: tuple[int, ...], discarder: int | None = None,
         liable: int | None = None, options: dict | None = None, extra: dict | None = None,
         script: tuple[str, ...] = ()) -> None:
    options = dict(options or {})
    actions = _play(game, n, options, seed, extra, script)
    SCENARIOS[(game, shape)] = Scenario(game, shape, n, options, seed, extra, actions, winners, discarder, liable)


def _k(spec: str) -> list[int]:
    """``"1m1m3m 5z"`` -> kinds (spaces are only for reading)."""
    return parse_kinds(spec.replace(" ", ""))


def _mahjong_stack(hands: list[str], draws: str = "", back: str = "") -> dict:
    """``context["stacked"]`` of the draw/discard games: hands by seat (the dealer's 14 tiles,
    the last one the tile it holds as drawn), then the draws off the front in turn order."""
    return {"hands": [_k(h) for h in hands], "draws": _k(draws), "back": _k(back)}


# ---------------------------------------------------------------------- two_player (2 seats)
# Seed 1: seat 0 deals.  Seat 0 holds 11m 33m 55m 77m 99m 11z + 5z and the drawn 2m: it discards
# 2m and waits on 5z for seven pairs (七对 24 + 混一色 6).  Seat 1 can claim nothing and is not
# ready.  The 宝牌 is fixed on 7z, which neither hand holds.
_TP_HANDS = ["1m1m3m3m5m5m7m7m9m9m1z1z5z 2m", "2m4m4m6m6m8m9m 2z2z3z3z4z6z"]
_add("two_player", "self_drawn", 2, 1, winners=(0,),
     extra={"stacked": _mahjong_stack(_TP_HANDS, draws="6z 5z"), "treasure": parse_kind("7z")})
_add("two_player", "discard", 2, 1, winners=(0,), discarder=1,
     extra={"stacked": _mahjong_stack(_TP_HANDS, draws="5z"), "treasure": parse_kind("7z")})
_add("two_player", "draw", 2, 61, winners=())

# ---------------------------------------------------------------------- laosanfan (4 seats)
_add("laosanfan", "self_drawn", 4, 479, winners=(1,))
_add("laosanfan", "discard", 4, 994, winners=(2,), discarder=1)
_add("laosanfan", "draw", 4, 98, winners=())
# 三摊 — seed 12: seat 0 deals.  The first go-around (opening restriction: 筒/万 only, no
# claims) passes; then seat 1 pungs 1s (from seat 0), 2s and 3s (from seat 2), discarding 7z 6z
# 6z, and waits on 6s/9s with 78s + 55z.  Seat 2, not ready, discards 9s (a 条 against three 条
# exposures) and seat 1 wins on it: seat 2 is liable.
_add("laosanfan", "santan", 4, 12, winners=(1,), discarder=2, liable=2,
     extra={"stacked": _mahjong_stack(
         ["1m4m7m 2p5p8p 3m6m9m 3p6p9p 1p 2m", "1s1s2s2s3s3s 7s8s 5z5z 6z6z7z",
          "1m4m7m 2p5p8p 3m6m9m 4z5z6z7z", "2m5m8m 1p4p7p 3p6p9p 4z5z6z7z"],
         draws="9p 8m 1p 1s 2s 3s 9s")},
     script=("1 pung", "1 pung", "1 pung"))
# 抢杠胡 — seed 12: seat 0 deals; the adder pays alone (discard_pays=discarder).  After the
# first go-around seat 0 discards 5m and seat 2 pungs it; seat 3 draws 1z and discards 9s, now
# waiting on 5m with 46m (123p 456p 789p 11z); seat 2 draws the fourth 5m and adds it to its
# pung; seat 3 robs it.
_add("laosanfan", "rob_kong", 4, 12, winners=(3,), discarder=2, options={"discard_pays": "discarder"},
     extra={"stacked": _mahjong_stack(
         ["1m4m7m 2p5p8p 3m6m9m 3p6p9p 1p 2m", "1s4s7s 2s5s8s 3s6s 1z2z3z4z 6z",
          "5m5m 1p4p7p 2s5s8s 3p6p 2z4z6z", "4m6m 1p2p3p 4p5p6p 7p8p9p 1z 9s"],
         draws="9m 8m 2m 5m 1z 2p 9m 5m")},
     script=("2 pung", "3 discard 9s", "2 kong 5m"))

# ---------------------------------------------------------------------- jinhu (4 seats)
_add("jinhu", "self_drawn", 4, 1171, winners=(3,))
_add("jinhu", "discard", 4, 507, winners=(0,), discarder=1)
_add("jinhu", "draw", 4, 488, winners=())
# 包五家 — seed 12: seat 0 deals and discards its drawn 5m (a 贼) without having declared 听;
# seat 1 wins on it with the closed wait 46m (123p 678p 234s 99s).
_add("jinhu", "baowu", 4, 12, winners=(1,), discarder=0, liable=0,
     extra={"stacked": _mahjong_stack(
         ["1m4m7m 2p5p8p 3m6m9m 3p6p9p 1p 5m", "4m6m 1p2p3p 6p7p8p 2s3s4s 9s9s",
          "1s4s7s 2s5s8s 3s6s9s 2m8m 7p4p", "1s4s7s 2s5s8s 3s6s9s 9m3m 1p5p"])})

# ---------------------------------------------------------------------- caishen (4 seats)
_add("caishen", "self_drawn", 4, 323, winners=(3,))
_add("caishen", "discard", 4, 324, winners=(3,), discarder=0)
_add("caishen", "draw", 4, 391, winners=())
# 抢杠胡 — seed 12: seat 0 deals; the 财神 is fixed on 7z (白板 5z stands in for it; neither is
# dealt).  Seat 0 discards 5m, seat 2 pungs it; seat 3 draws 1z and discards 9s, waiting on 5m
# with 46m (123p 456p 789p 11z); seat 2 draws the fourth 5m and adds it; seat 3 robs it.
_add("caishen", "rob_kong", 4, 12, winners=(3,), discarder=2,
     extra={"stacked": _mahjong_stack(
         ["1m4m7m 2p5p8p 3m6m9m 3p6p9p 1p 5m", "1s4s7s 2s5s8s 3s6s 1z2z3z4z 6z",
          "5m5m 1p4p7p 2s5s8s 3p6p 2z4z6z", "4m6m 1p2p3p 4p5p6p 7p8p9p 1z 9s"],
         draws="1z 2m 9m 5m"), "indicator": parse_kind("7z")},
     script=("2 pung", "3 discard 9s", "2 kong 5m"))

# ---------------------------------------------------------------------- laowudui (2–4 seats)
_add("laowudui", "self_drawn", 2, 127, winners=(0,))
_add("laowudui", "discard", 3, 483, winners=(0,), discarder=1)
_add("laowudui", "draw", 4, 500, winners=())
# 一炮多响 — 4 seats, seat 0 deals (the first hand's dealer is the table's creator) and buys
# 庄.  The turned tile is 5s, so 4s and 5s are wild (七百佬); no hand holds one.  Seats 1 and 2
# each hold five pairs and a 6m; the dealer discards its 6m and both win on it.
_add("laowudui", "several_winners", 4, 1, winners=(1, 2), discarder=0,
     extra={"stacked": {"hands": [
         _k("1p4p7p9p 2m3m5m7m 8s9s1s 6m"), _k("1m1m 3p3p 7s7s 9m9m 2p2p 6m"),
         _k("8m8m 2s2s 6p6p TsTs 3s3s 6m"), _k("2m4m5p8p TpTm 6s7m3m9s8s")],
         "indicator": parse_kind("5s")}},
     script=("0 buy", "0 discard 6m"))

# ---------------------------------------------------------------------- zipai (2–4 seats)
_add("zipai", "self_drawn", 2, 49, winners=(1,))
_add("zipai", "discard", 3, 93, winners=(2,), discarder=0)
_add("zipai", "draw", 4, 216, winners=())
# A card shown by another seat's draw — 3 seats, seed 1: seat 0 deals.  Seat 2 declares 飘 1.
# Seat 0 discards 9X, which nobody can use; seat 1 draws 4X and shows it; seat 2 completes
# 壹贰叁 二七十 四五六 柒捌玖 伍陆 with it.
_add("zipai", "shown", 3, 1, winners=(2,), discarder=1,
     extra={"stacked": {"hands": [
         _k("1x3x5x7x9x 1X3X5X9X 2x4x6x8x10x 8x"),
         _k("1x2x3x4x5x6x7x8x 1X2X3X5X6X9X"),
         _k("1X2X3X 2x7x10x 4x5x6x 7X8X9X 5X6X")],
         "stock": _k("4X")}},
     script=("2 piao_one",))


def first_hand_wall(sc):
    """A ``deal_context`` for the table service that stacks scenario ``sc``'s wall
    (``sc.extra``) for the table's first hand only; later hands are dealt as seeded."""
    dealt = []

    def stack(table) -> dict:
        if dealt:
            return {}
        dealt.append(True)
        return dict(sc.extra or {})

    return stack
