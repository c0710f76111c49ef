"""The table options of 字牌 (``docs/rules/zipai.md``)."""

from __future__ import annotations

from ...options import TIMEOUT_OPTIONS, Option

#: ``tun_per`` alone is score-only: it turns the winner's 胡息 into 囤 in the settlement
#: (``scoring.py``), after the win was decided.  ``min_huxi`` and ``maohu`` decide whether a
#: hand may win (毛胡 lets a 0-胡息 hand win), ``piao_max`` which 飘 may be declared,
#: ``ming_long`` when the non-dealers' starting 提 are laid.
OPTIONS = (
    Option("min_huxi", int, 9, "Minimum 胡息 to win", "起胡胡息", choices=(9, 6, 3), score_only=False),
    Option("tun_per", int, 3, "胡息 per 囤: 3 (三息一囤) or 1 (一息一囤)", "几息一囤（3 或 1）", choices=(3, 1),
           score_only=True),
    Option("maohu", int, 0, "毛胡: a five-group hand with 0 胡息 wins as 10 or 15 胡息 (0 = off)",
           "毛胡：0 胡息的五方门子按 10 或 15 胡息计（0 为不可）", choices=(0, 10, 15), score_only=False),
    Option("piao_max", int, 3, "Largest 飘 a player may declare before each hand (0 = no 飘)",
           "每局开始可选的最大飘分（0 为不飘）", min_value=0, max_value=3, score_only=False),
    Option("ming_long", bool, False, "出牌明龙: non-dealers lay their starting 提 after the dealer's first discard",
           "出牌明龙：闲家在庄家出第一张牌后再提", score_only=False),
) + TIMEOUT_OPTIONS
