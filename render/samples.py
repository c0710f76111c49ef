"""Sample views for the renderers, and a command that writes sample PNGs and times them.

::

    /work/venv/bin/python -m render.samples [OUT_DIR]   # default /tmp/render_samples

The views follow the engine's view shape (see :func:`render.table.table_image`); they are
hand-made, not dealt, so tile counts need not add up to a real wall.
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path

from engine.variants import all_variants

#: the registered games' facts, taken once when the samples are imported (a sample view
#: carries its game's facts as a snapshot's view does, ``view["game"]``)
GAMES = {v.id: v.facts for v in all_variants()}


def _with_game(view: dict) -> dict:
    view["game"] = GAMES.get(view["variant"])
    return view


def two_player_view(lang: str = "zh") -> dict:
    """A two-seat hand in progress, seen by seat 0 (Alice, dealer, ready, doubled twice)."""
    return _with_game({
        "variant": "two_player", "lang": lang, "table_name": "#general", "hand_no": 3,
        "seq": 17, "dealer": 0, "turn": 1, "phase": "discard",
        "wall_remaining": 30, "dice": [3, 5], "treasure": "5m", "wild": None,
        "last_discard": {"seat": 0, "tile": "9m"}, "viewer": 0,
        "seats": [
            {"seat": 0, "name": "Alice", "wind": "东", "is_dealer": True, "score": 12,
             "hand_count": 10, "has_drawn": False,
             "discards": ["1z", "4z", "2z", "7z", "1m", "3z", "9m", "8m", "2m", "9m"],
             "melds": [{"type": "pung", "tiles": ["6z", "6z", "6z"], "concealed": False,
                        "claimed_index": 1}],
             "flowers": ["1f", "5f"], "ting": True, "doubles": 4, "auto": False,
             "concealed": None, "drawn": None},
            {"seat": 1, "name": "Bob 小明", "wind": "南", "is_dealer": False, "score": -12,
             "hand_count": 7, "has_drawn": True,
             "discards": ["4z", "1z", "2m", "3z", "7m", "5z", "1m", "8m"],
             "melds": [{"type": "chow", "tiles": ["3m", "4m", "5m"], "concealed": False,
                        "claimed_index": 0},
                       {"type": "kong", "tiles": ["7z", "7z", "7z", "7z"], "concealed": True,
                        "claimed_index": None}],
             "flowers": ["2f"], "ting": False, "doubles": 1, "auto": True,
             "concealed": None, "drawn": None},
        ],
        "result": None,
        "log": ["Alice 打出 二万", "Bob 摸牌", "Bob 打出 八万", "Alice 碰 发财", "Alice 打出 九万"],
        "me": {"seat": 0, "hand": ["1m", "1m", "2m", "3m", "4m", "5m", "5m", "6m", "7m", "8m"],
               "drawn": None,
               "waits": [{"tile": "3m", "fan": 24, "left": 2}, {"tile": "6m", "fan": 26, "left": 1},
                         {"tile": "9m", "fan": 24, "left": 0}],
               "hint": []},
    })


def two_player_drawn_view(lang: str = "zh") -> dict:
    """Seat 0 holds a drawn 14th tile and sees the discard hint."""
    v = two_player_view(lang)
    v["turn"] = 0
    v["last_discard"] = {"seat": 1, "tile": "8m"}
    s0 = v["seats"][0]
    s0["has_drawn"] = True
    s0["ting"] = False
    s0["doubles"] = 0
    v["me"]["drawn"] = "9m"
    v["me"]["waits"] = []
    v["me"]["hint"] = [
        {"discard": "9m", "waits": [{"tile": "3m", "fan": 24, "left": 2},
                                    {"tile": "6m", "fan": 26, "left": 1}]},
        {"discard": "2m", "waits": [{"tile": "9m", "fan": 25, "left": 1}]},
        {"discard": "5m", "waits": [{"tile": "1m", "fan": 24, "left": 2},
                                    {"tile": "4m", "fan": 24, "left": 3}]},
    ]
    return v


def two_player_over_view(lang: str = "zh") -> dict:
    """The hand is over: Alice won by self-draw; both hands are public."""
    v = two_player_view(lang)
    v["phase"] = "over"
    v["turn"] = None
    v["viewer"] = None
    v["me"] = None
    v["seats"][0]["concealed"] = ["1m", "1m", "2m", "3m", "4m", "5m", "5m", "6m", "7m", "8m"]
    v["seats"][0]["drawn"] = "3m"
    v["seats"][0]["has_drawn"] = True
    v["seats"][1]["concealed"] = ["1z", "1z", "2m", "2m", "6m", "7m", "8m"]
    v["result"] = {
        "winner": 0, "self_drawn": True, "win_tile": "3m",
        "fans": [["混一色", "Half flush", 6, 1], ["箭刻", "Dragon pung", 2, 1], ["花牌", "Flower", 1, 2],
                 ["自摸", "Self-drawn", 1, 1], ["幺九刻", "Terminal pung", 1, 1], ["单钓将", "Single wait", 1, 1]],
        "fan_total": 13,
        "multiplier_rows": [["加倍", "Double", 4], ["宝牌", "Treasure", 4], ["连庄", "Dealer streak", 1]],
        "points": [208, -208], "draw": False,
    }
    v["log"] = ["Alice 自摸 三万"]
    return v


def _four_seat_game_with_wild() -> str:
    """A registered four-seat game whose wild tiles have a name of their own (财神麻将's 财神),
    so the sample shows that label."""
    return next(g.id for g in GAMES.values() if g.max_players == 4 and g.wild_name not in (None, "wild"))


def four_player_view(lang: str = "zh") -> dict:
    """A four-seat hand (财神 style wild) in progress, public view."""
    names = ["东家 Alice", "Bob", "Carol", "Dave the very long named player"]
    winds = ["东", "南", "西", "北"]
    discards = [
        ["1z", "9p", "2s", "7z", "1m", "3z", "9m", "8p", "2p", "4s", "6p", "1s"],
        ["4z", "1p", "2m", "3z", "7m", "5s", "1m", "8s", "9s", "3p", "4p"],
        ["2z", "9s", "7p", "3z", "4m", "5p", "1m"],
        ["1z", "4z", "5z", "6p", "2s", "3m", "8m", "8p", "9p", "7s"],
    ]
    seats = []
    for i in range(4):
        seats.append({
            "seat": i, "name": names[i], "wind": winds[i], "is_dealer": i == 0,
            "score": [25, -5, -10, -10][i], "hand_count": [10, 13, 10, 7][i],
            "has_drawn": i == 2, "discards": discards[i],
            "melds": [
                [{"type": "pung", "tiles": ["2p", "2p", "2p"], "concealed": False,
                  "claimed_index": 2}],
                [],
                [{"type": "chow", "tiles": ["3s", "4s", "5s"], "concealed": False,
                  "claimed_index": 0}],
                [{"type": "kong", "tiles": ["9m", "9m", "9m", "9m"], "concealed": False,
                  "claimed_index": 3},
                 {"type": "pung", "tiles": ["6z", "6z", "6z"], "concealed": False,
                  "claimed_index": 1}],
            ][i],
            "flowers": [["1f", "5f"], [], ["3f"], ["4f", "8f", "6f"]][i],
            "ting": i == 3, "doubles": 1, "auto": i == 1, "concealed": None, "drawn": None,
        })
    return _with_game({
        "variant": _four_seat_game_with_wild(), "lang": lang, "table_name": "#mahjong", "hand_no": 7, "seq": 88,
        "dealer": 0, "turn": 2, "phase": "discard", "wall_remaining": 61, "dice": [6, 2],
        "treasure": None, "wild": {"indicator": "5s", "kinds": ["6s"]},
        "last_discard": {"seat": 1, "tile": "4p"}, "viewer": None, "seats": seats,
        "result": None, "log": ["Bob 打出 四筒", "Carol 摸牌"], "me": None,
    })


def _four_seat_game_without_wild() -> str:
    """The first registered four-seat mahjong game without wild tiles (老三番), whose results
    list their 胡 item by item."""
    return next(g.id for g in GAMES.values()
                if g.min_players == g.max_players == 4 and g.wild_name is None and g.tile_style == "mahjong")


def four_player_over_view(lang: str = "zh") -> dict:
    """A four-seat hand just won: Alice self-drew 2s with the rule file's worked example of
    老三番 (胡 26) plus her seat flower 梅 (4 胡, 1 fan): (30 + 30) × 2 = 120 from each."""
    v = four_player_view(lang)
    v["variant"] = _four_seat_game_without_wild()
    _with_game(v)
    v.pop("wild", None)
    v.update(phase="over", turn=None, last_discard=None, log=["东家 Alice 自摸 二条"])
    s0 = v["seats"][0]
    s0.update(concealed=["1s", "3s", "6m", "6m", "8m", "8m", "8m"], drawn="2s", has_drawn=True, flowers=["5f"],
              melds=[{"type": "kong", "tiles": ["9m"] * 4, "concealed": False, "claimed_index": 3},
                     {"type": "pung", "tiles": ["5m"] * 3, "concealed": False, "claimed_index": 2}])
    items = [("exposed_kong", 16, ["9m"] * 4), ("exposed_pung", 2, ["5m"] * 3), ("chow", 0, ["1s", "2s", "3s"]),
             ("concealed_pung", 4, ["8m"] * 3), ("pair", 0, ["6m"] * 2), ("closed_wait", 2, ["2s"]),
             ("flowers", 4, ["5f"]), ("self_drawn", 2, [])]
    v["result"] = {
        "winner": 0, "winners": [0], "draw": False, "self_drawn": True, "discarder": None, "win_tile": "2s",
        "fans": [["正花", "Seat flower", 1, 1]], "fan_total": 1, "hu": 30, "total": 120,
        "count": {"name": "hu", "value": 30, "items": [{"item": i, "value": n, "tiles": t} for i, n, t in items]},
        "calc": {"key": "yaobansan", "hu": 30, "fan": 1, "base": 30, "mult": 2, "raw": 120, "rounded": 120,
                 "total": 120},
        "caps": [], "payments": [{"from": s, "to": 0, "points": 120} for s in (1, 2, 3)],
        "points": [360, -120, -120, -120],
    }
    return v


def all_samples() -> dict[str, dict]:
    return {
        "two_player": two_player_view(),
        "two_player_drawn": two_player_drawn_view(),
        "two_player_over": two_player_over_view(),
        "two_player_en": two_player_over_view("en"),
        "four_player": four_player_view(),
        "four_player_en": four_player_view("en"),
        "four_player_over": four_player_over_view(),
        "four_player_over_en": four_player_over_view("en"),
    }


def main(argv: list[str] | None = None) -> int:
    from PIL import Image

    from .hand import hand_image, render_hand
    from .table import render_table, table_image

    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "/tmp/render_samples")
    out.mkdir(parents=True, exist_ok=True)
    for name, view in all_samples().items():
        render_table(copy.deepcopy(view))  # warm the sprite caches
        n = 20
        t0 = time.perf_counter()
        for _ in range(n):
            img = table_image(view)
        t1 = time.perf_counter()
        for _ in range(n):
            png = render_table(view)
        t2 = time.perf_counter()
        (out / f"table_{name}.png").write_bytes(png)
        small = img.resize((450, round(img.height * 450 / img.width)), Image.Resampling.LANCZOS)
        small.save(out / f"table_{name}_450.png")  # as Discord shows it
        print(f"table {name:18s} {img.width}x{img.height}  draw {1000 * (t1 - t0) / n:5.1f} ms"
              f"  draw+png {1000 * (t2 - t1) / n:5.1f} ms  {len(png) / 1024:6.1f} KiB")
        if view.get("me"):
            hpng = render_hand(view)
            t0 = time.perf_counter()
            for _ in range(n):
                hpng = render_hand(view)
            t1 = time.perf_counter()
            (out / f"hand_{name}.png").write_bytes(hpng)
            himg = hand_image(view)
            print(f"hand  {name:18s} {himg.width}x{himg.height}  draw+png "
                  f"{1000 * (t1 - t0) / n:5.1f} ms  {len(hpng) / 1024:6.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
