"""The table options of 老五对 (``docs/rules/laowudui.md``)."""

from __future__ import annotations

from ...options import TIMEOUT_OPTIONS, Option
from .shapes import WILD_OPTIONS

#: none is score-only: ``wilds`` decides which kinds are 百搭 (what a hand holds and may win
#: with), ``wild_discard`` whether a 百搭 may be discarded and won on, ``discard_win``
#: whether a discard may be won on, ``buy_dealer`` whether 买庄 is offered before the hand.
OPTIONS = (
    Option("wilds", int, 7, "百搭 count: 4 (四百佬), 7 (七百佬) or 11 (十一百佬)",
           "百搭数：4 四百佬 / 7 七百佬 / 11 十一百佬", choices=WILD_OPTIONS, score_only=False),
    Option("wild_discard", bool, True, "百搭 may be discarded (and won on: 胡百搭)", "百搭可出（可胡百搭）",
           score_only=False),
    Option("discard_win", bool, True, "Wins on a discard (点炮) allowed", "可点炮胡", score_only=False),
    Option("buy_dealer", bool, True, "买庄 side bet offered before each hand", "每局开始前可买庄",
           score_only=False),
) + TIMEOUT_OPTIONS
