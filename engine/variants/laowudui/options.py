"""The table options of 老五对 (``docs/rules/laowudui.md``)."""

from __future__ import annotations

from ...options import TIMEOUT_OPTIONS, Option
from .shapes import WILD_OPTIONS

OPTIONS = (
    Option("wilds", int, 7, "百搭 count: 4 (四百佬), 7 (七百佬) or 11 (十一百佬)",
           "百搭数：4 四百佬 / 7 七百佬 / 11 十一百佬", choices=WILD_OPTIONS),
    Option("wild_discard", bool, True, "百搭 may be discarded (and won on: 胡百搭)", "百搭可出（可胡百搭）"),
    Option("discard_win", bool, True, "Wins on a discard (点炮) allowed", "可点炮胡"),
    Option("buy_dealer", bool, True, "买庄 side bet offered before each hand", "每局开始前可买庄"),
) + TIMEOUT_OPTIONS
