"""The result of a hand, in one shape for every game.

Every game's engine returns its own ``result`` dict (see ``engine.protocol.RESULT_KEYS``);
front ends (the Discord table message, the local table, the result image) read it only
through :func:`outcome`, which says for every game the same things: who won, how, from whom,
who is liable, and the points (its words: ``render.text.results``).

Shapes the games produce (``rules/*.md``):

* exhaustive draw (every game): no winner, nobody pays;
* self-drawn win (自摸): every other seat pays, or as the game says;
* win on a discard (点炮): ``from`` is the discarder;
* win robbing a kong (抢杠胡, 老三番 / 财神麻将 / 二人麻将): ``from`` is the seat that added
  the tile to its pung; it pays as a discarder;
* win on a card turned up by another seat's draw (字牌 示众牌): ``from`` is that seat, who
  is no discarder (everybody pays one 番);
* several winners on one discard (老五对 一炮多响);
* liability: 老三番 三摊 (the liable discarder pays for all three), 金湖 包五家 (five shares).
"""

from __future__ import annotations

#: how a winner won (``outcome()["wins"][i]["how"]``)
SELF_DRAWN, DISCARD, ROB_KONG, SHOWN = "self_drawn", "discard", "rob_kong", "shown"


def outcome(result: dict) -> dict:
    """The game-independent shape of a finished hand's ``result``.

    :returns: ``{"draw": bool, "wins": [{"seat", "how", "from", "tile", "fan"}], "liable":
        {"seat", "reason"} | None, "points": [int per seat], "payers": [seats paying],
        "payments": [{"from", "to", "points"[, "notes"]}]}``;
        ``how`` is one of ``self_drawn``, ``discard``, ``rob_kong``, ``shown`` and ``from`` the
        seat that dealt in, whose kong was robbed, or whose draw showed the card (``None`` when
        self-drawn); ``fan`` the winner's fan (or the game's count: 胡息, 对 …); ``tile``
        notation or ``None``; ``payments`` the result's own, else (a result that does not list
        them) every losing seat paying the one winner what it lost.
    """
    points = list(result.get("points") or [])
    winners = list(result.get("winners") or ([] if result.get("winner") is None else [result["winner"]]))
    wins = []
    fan_by_seat = result.get("fan_by_seat") or {}
    for w in winners:
        discarder = result.get("discarder")
        if result.get("self_drawn") and len(winners) == 1:
            how, src = SELF_DRAWN, None
        elif result.get("robbing_kong"):
            how, src = ROB_KONG, discarder
        elif discarder is not None:
            how, src = DISCARD, discarder
        elif result.get("shown_by") is not None:
            how, src = SHOWN, result["shown_by"]
        else:
            how, src = SELF_DRAWN, None
        fan = fan_by_seat.get(str(w), fan_by_seat.get(w))
        if fan is None:
            fan = result.get("total_fan", result.get("fan_total", 0))
        wins.append({"seat": w, "how": how, "from": src, "tile": result.get("win_tile"), "fan": fan})
    liable = None
    if result.get("liable") is not None:
        liable = {"seat": result["liable"], "reason": "三摊"}
    elif result.get("baowu") is not None:
        liable = {"seat": result["baowu"], "reason": "包五家"}
    payments = result.get("payments")
    if payments is None:
        payments = [{"from": i, "to": winners[0], "points": -p} for i, p in enumerate(points)
                    if p < 0 and len(winners) == 1]
    return {"draw": not winners, "wins": wins, "liable": liable, "points": points,
            "payers": [i for i, p in enumerate(points) if p < 0], "payments": list(payments)}


__all__ = ["outcome", "SELF_DRAWN", "DISCARD", "ROB_KONG", "SHOWN"]
