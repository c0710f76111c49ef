"""Unit tests of the two_player fan calculator (``docs/rules/two_player.md``, "Fan table").

Every case below is a hand worked by hand: the comment lists the sets, why each fan
scores, what the exclusions remove and the sum.  Notation: ``123m`` 万, ``1z``..``7z``
= 东 南 西 北 白 发 中.  ``melds`` entries are ``"chow:123m"``, ``"pung:5z"``,
``"kong:1m"`` (exposed) and ``"ckong:7z"`` (concealed kong 暗杠).  A "unique wait"
means the 13 concealed tiles wait on one kind only, the condition of 边张/坎张/单钓将.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # run from any directory, with or without a pytest.ini
    sys.path.insert(0, str(ROOT))

from engine.melds import CHOW, KONG, PUNG, Meld  # noqa: E402
from engine.tiles import parse_kind, parse_kinds  # noqa: E402
from engine.variants.two_player.fans import (  # noqa: E402
    FAN_ROWS,
    NotAWin,
    WinContext,
    calculate_fans,
    fan_table,
)


def meld(spec: str) -> Meld:
    typ, tiles = spec.split(":")
    kinds = parse_kinds(tiles)
    k = kinds[0]
    if typ == "chow":
        return Meld(CHOW, (k * 4, (k + 1) * 4, (k + 2) * 4))
    if typ == "pung":
        return Meld(PUNG, (k * 4, k * 4 + 1, k * 4 + 2))
    return Meld(KONG, tuple(k * 4 + i for i in range(4)), concealed=typ == "ckong")


def ctx(hand: str, win: str, melds=(), self_drawn=False, **kw) -> WinContext:
    concealed = tuple(sorted(parse_kinds(hand))) if hand else ()
    return WinContext(concealed, tuple(meld(m) for m in melds), parse_kind(win), self_drawn, **kw)


def score(c: WinContext) -> tuple[dict[str, int], int]:
    r = calculate_fans(c)
    return {f.name: f.count for f in r.fans}, r.total


# (id, context, expected fans {name: count}, expected total)
CASES = [
    # 天胡: 123 456 789 123m + 白白, dealer, self-drawn with the dealt hand.
    # 清龙 16 + 一般高 1 (the extra 123) + 混一色 6 + 不求人 4 (excl. 自摸) + 天胡 48.
    # The 13 tiles wait only on 白, but 天胡 excludes 单钓将.  48+16+1+6+4 = 75.
    ("天胡", ctx("123456789123m5z", "5z", self_drawn=True, heavenly=True),
     {"天胡": 1, "清龙": 1, "一般高": 1, "混一色": 1, "不求人": 1}, 75),
    # 地胡: 234 345 456m 白白白 77m, self-drawn first draw.  一色三步高 16 + 箭刻 2 +
    # 混一色 6 + 不求人 4; waits 白/7m (not unique); 白 pung concealed (1 only).  32+28 = 60.
    ("地胡", ctx("234345456m77m55z", "5z", self_drawn=True, earthly=True),
     {"地胡": 1, "一色三步高": 1, "箭刻": 1, "混一色": 1, "不求人": 1}, 60),
    # 人胡: 111 456 789m 22m + 发发 waiting 2m/发, wins 发 on the dealer's first discard:
    # the 发 pung is completed by a discard (exposed).  混一色 6 + 箭刻 2 + 幺九刻 1 (111) +
    # 门前清 2 + 连六 1 (456/789) + 人胡 24 = 36.
    ("人胡", ctx("111456789m22m66z", "6z", human=True),
     {"人胡": 1, "混一色": 1, "箭刻": 1, "幺九刻": 1, "门前清": 1, "连六": 1}, 36),
    # 天听: 123456789m 9m 东东东 wins 9m on a discard.  The 13 tiles wait on 3m, 6m and 9m
    # (123 345 678 99 / 123 456 678 99 / 123 456 789 99): no wait fan.  清龙 16 +
    # 混一色 6 + 幺九刻 1 + 门前清 2 + 天听 16 = 41.
    ("天听", ctx("123456789m9m111z", "9m", heavenly_ready=True),
     {"天听": 1, "清龙": 1, "混一色": 1, "幺九刻": 1, "门前清": 1}, 41),
    # 大四喜: 东 南 西 exposed, 北北北 concealed, 55m single wait.  大四喜 88 (excl. 三风刻,
    # 碰碰和, 幺九刻) + 混一色 6 + 单钓将 1 = 95.
    ("大四喜", ctx("444z5m", "5m", ["pung:1z", "pung:2z", "pung:3z"]),
     {"大四喜": 1, "混一色": 1, "单钓将": 1}, 95),
    # 大三元: 白白白 发发发 中中中 123m + 9m single, on a discard.  大三元 88 (excl. 箭刻,
    # 双箭刻) + 三暗刻 16 + 混一色 6 + 门前清 2 + 全带幺 4 (123, 99, dragons) + 单钓将 1 = 117.
    ("大三元", ctx("555666777z123m9m", "9m"),
     {"大三元": 1, "三暗刻": 1, "混一色": 1, "门前清": 1, "全带幺": 1, "单钓将": 1}, 117),
    # 九莲宝灯: 1112345678999m + 5m on a discard.  pymahjonggb's reading for a 5: 九莲宝灯 88
    # + 双暗刻 2 + 幺九刻 1 (清一色, 门前清 excluded) = 91.
    ("九莲宝灯", ctx("1112345678999m", "5m"), {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1}, 91),
    # 四杠: 1m 9m 东 exposed kongs, 中 concealed kong, 5m single.  四杠 88 (excl. 明杠, 暗杠,
    # 单钓将, ...) + 幺九刻 3 (1m, 9m, 东) + 箭刻 2 + 混一色 6 = 99.
    ("四杠", ctx("5m", "5m", ["kong:1m", "kong:9m", "kong:1z", "ckong:7z"]),
     {"四杠": 1, "幺九刻": 3, "箭刻": 1, "混一色": 1}, 99),
    # 连七对: 22..88m pairs on a discard.  连七对 88 + 断幺 2 (2~8, as pymahjonggb) = 90.
    ("连七对", ctx("2233445566778m", "8m"), {"连七对": 1, "断幺": 1}, 90),
    # 小四喜: 东 南 exposed, 西西西 北北 12m + 3m edge (unique wait).  小四喜 64 (excl. 三风刻,
    # 幺九刻) + 混一色 6 + 全带幺 4 + 边张 1 = 75.
    ("小四喜", ctx("333z44z12m", "3m", ["pung:1z", "pung:2z"]),
     {"小四喜": 1, "混一色": 1, "全带幺": 1, "边张": 1}, 75),
    # 小三元: 白白白 发发发 中中 234m 56m, wins 7m (two-sided).  小三元 64 (excl. 箭刻, 双箭刻)
    # + 双暗刻 2 + 混一色 6 + 门前清 2 + 连六 1 (234/567) = 75.
    ("小三元", ctx("55566677z23456m", "7m"),
     {"小三元": 1, "双暗刻": 1, "混一色": 1, "门前清": 1, "连六": 1}, 75),
    # 字一色: 东东东 南南南 白白白 西西 + 中中 waiting 西/中, wins 中 on a discard (exposed).
    # 字一色 64 (excl. 碰碰和, 混幺九, 全带幺, 幺九刻) + 双箭刻 6 + 三暗刻 16 + 门前清 2 = 88.
    ("字一色", ctx("111222555z33z77z", "7z"),
     {"字一色": 1, "双箭刻": 1, "三暗刻": 1, "门前清": 1}, 88),
    # 四暗刻: 111 333 555m 南南南 + 9m single, self-drawn.  四暗刻 64 (excl. 碰碰和, 不求人,
    # keeps 自摸) + 自摸 1 + 混一色 6 + 幺九刻 2 (111, 南) + 单钓将 1 = 74.
    ("四暗刻", ctx("111333555m9m222z", "9m", self_drawn=True),
     {"四暗刻": 1, "自摸": 1, "混一色": 1, "幺九刻": 2, "单钓将": 1}, 74),
    # 一色双龙会: 123 123 789 789m + 5m (the only wait, also as seven pairs).  一色双龙会 64
    # (excl. 清一色, 平和, 一般高, 老少副, 七对) + 门前清 2 + 单钓将 1 = 67 (> 七对 reading 48).
    ("一色双龙会", ctx("1122337788995m", "5m"), {"一色双龙会": 1, "门前清": 1, "单钓将": 1}, 67),
    # 一色四同顺: 234m x4 + 东 single.  一色四同顺 48 (excl. 四归一, 一色三节高, ...) + 混一色 6
    # + 门前清 2 + 单钓将 1 = 57 (222 333 444 234 reading: 24+16+6+2+6+1 = 55; 七对: 36).
    ("一色四同顺", ctx("222233334444m1z", "1z"), {"一色四同顺": 1, "混一色": 1, "门前清": 1, "单钓将": 1}, 57),
    # 一色四节高: 333m exposed, 444 555 666m + 9m single.  一色四节高 48 (excl. 碰碰和,
    # 一色三节高, 一色三同顺) + 清一色 24 + 三暗刻 16 + 单钓将 1 = 89.
    ("一色四节高", ctx("4445556669m", "9m", ["pung:3m"]),
     {"一色四节高": 1, "清一色": 1, "三暗刻": 1, "单钓将": 1}, 89),
    # 一色四步高: 123 234 345 456m + 9m single, self-drawn.  一色四步高 32 + 清一色 24 +
    # 不求人 4 + 平和 2 (four chows, 万 pair) + 单钓将 1 = 63.
    ("一色四步高", ctx("1223334445569m", "9m", self_drawn=True),
     {"一色四步高": 1, "清一色": 1, "不求人": 1, "平和": 1, "单钓将": 1}, 63),
    # 三杠: 2m 5m exposed kongs, 8m concealed kong, 西西西 + 北 single.  三杠 32 + 双暗刻 2
    # (暗杠 + 西 pung) + 碰碰和 6 + 幺九刻 1 + 混一色 6 + 单钓将 1 = 48.
    ("三杠", ctx("3334z", "4z", ["kong:2m", "kong:5m", "ckong:8m"]),
     {"三杠": 1, "双暗刻": 1, "碰碰和": 1, "幺九刻": 1, "混一色": 1, "单钓将": 1}, 48),
    # 混幺九: 111m exposed, 999m 东东东 白白白 + 南 single.  混幺九 32 (excl. 碰碰和, 幺九刻,
    # 全带幺) + 三暗刻 16 + 箭刻 2 + 混一色 6 + 单钓将 1 = 57.
    ("混幺九", ctx("999m1115552z", "2z", ["pung:1m"]),
     {"混幺九": 1, "三暗刻": 1, "箭刻": 1, "混一色": 1, "单钓将": 1}, 57),
    # 七对: 11 33 55 77 99m 东东 + 南, self-drawn.  七对 24 + 混一色 6 + 自摸 1 = 31
    # (七对 excludes 门前清/不求人/单钓将).
    ("七对", ctx("1133557799m112z", "2z", self_drawn=True), {"七对": 1, "混一色": 1, "自摸": 1}, 31),
    # 清一色: 111 345 678m 22m 99m waiting 2m/9m, wins 2m on a discard (222 exposed).
    # 清一色 24 + 门前清 2 + 幺九刻 1 (111) + 连六 1 (345/678) = 28.
    ("清一色", ctx("1113456782299m", "2m"), {"清一色": 1, "门前清": 1, "幺九刻": 1, "连六": 1}, 28),
    # 一色三同顺: 123m 123m exposed, 123 456m + 9m single.  一色三同顺 24 (excl. 一般高) +
    # 连六 1 (456 with a 123) + 清一色 24 + 平和 2 + 单钓将 1 = 52.
    ("一色三同顺", ctx("1234569m", "9m", ["chow:123m", "chow:123m"]),
     {"一色三同顺": 1, "连六": 1, "清一色": 1, "平和": 1, "单钓将": 1}, 52),
    # 一色三节高: 222 333 444 678m + 白 single, self-drawn.  Pung reading: 一色三节高 24 +
    # 三暗刻 16 + 混一色 6 + 不求人 4 + 单钓将 1 = 51 (chow reading 234 x3: 24+6+4+1 = 35).
    ("一色三节高", ctx("222333444678m5z", "5z", self_drawn=True),
     {"一色三节高": 1, "三暗刻": 1, "混一色": 1, "不求人": 1, "单钓将": 1}, 51),
    # 清龙: 123 456 789m 55m 东东 waiting 东/5m, wins 东 on a discard (exposed pung).
    # 清龙 16 + 混一色 6 + 门前清 2 + 幺九刻 1 = 25.
    ("清龙", ctx("12345678955m11z", "1z"), {"清龙": 1, "混一色": 1, "门前清": 1, "幺九刻": 1}, 25),
    # 一色三步高: 123 234 345 999m + 南 single.  一色三步高 16 + 混一色 6 + 门前清 2 +
    # 幺九刻 1 + 单钓将 1 = 26.
    ("一色三步高", ctx("123234345999m2z", "2z"),
     {"一色三步高": 1, "混一色": 1, "门前清": 1, "幺九刻": 1, "单钓将": 1}, 26),
    # 三暗刻: 222 444 666m 88m 西西 waiting 8m/西, wins 西 on a discard (exposed).
    # 三暗刻 16 + 碰碰和 6 + 混一色 6 + 门前清 2 + 幺九刻 1 = 31.
    ("三暗刻", ctx("22244466688m33z", "3z"),
     {"三暗刻": 1, "碰碰和": 1, "混一色": 1, "门前清": 1, "幺九刻": 1}, 31),
    # 大于五: 678m 789m exposed, 666m 99m 88m waiting 9m/8m, wins 9m (exposed pung).
    # 大于五 12 + 清一色 24 + 幺九刻 1 + 四归一 x3 (6m 8m 9m) 6 = 43.
    ("大于五", ctx("6669988m", "9m", ["chow:678m", "chow:789m"]),
     {"大于五": 1, "清一色": 1, "幺九刻": 1, "四归一": 3}, 43),
    # 小于五: 123m 234m exposed, 111m 44m 33m, wins 4m.  小于五 12 + 清一色 24 + 幺九刻 1 +
    # 四归一 x3 (1m 3m 4m) 6 = 43.
    ("小于五", ctx("1114433m", "4m", ["chow:123m", "chow:234m"]),
     {"小于五": 1, "清一色": 1, "幺九刻": 1, "四归一": 3}, 43),
    # 三风刻: 东 南 exposed, 西西西 123m + 5m single.  三风刻 12 (its three 幺九刻 removed) +
    # 混一色 6 + 单钓将 1 = 19.
    ("三风刻", ctx("333z1235m", "5m", ["pung:1z", "pung:2z"]),
     {"三风刻": 1, "混一色": 1, "单钓将": 1}, 19),
    # 妙手回春: the 清一色 hand self-drawn on the last tile: 111 222 concealed → 双暗刻 2;
    # 清一色 24 + 不求人 4 + 幺九刻 1 + 连六 1 + 妙手回春 8 (自摸 excluded) = 40.
    ("妙手回春", ctx("1113456782299m", "2m", self_drawn=True, wall_last=True),
     {"妙手回春": 1, "清一色": 1, "不求人": 1, "双暗刻": 1, "幺九刻": 1, "连六": 1}, 40),
    # 海底捞月: same hand on the last discard: 28 + 8 = 36.
    ("海底捞月", ctx("1113456782299m", "2m", wall_last=True),
     {"海底捞月": 1, "清一色": 1, "门前清": 1, "幺九刻": 1, "连六": 1}, 36),
    # 杠上开花: 白 concealed kong, 123456789m + 9m, self-drawn on the replacement.  Waits
    # 3m/6m/9m (no wait fan).  杠上开花 8 (excl. 自摸) + 清龙 16 + 混一色 6 + 暗杠 2 + 箭刻 2 +
    # 不求人 4 = 38.
    ("杠上开花", ctx("1234567899m", "9m", ["ckong:5z"], self_drawn=True, kong_replacement=True),
     {"杠上开花": 1, "清龙": 1, "混一色": 1, "暗杠": 1, "箭刻": 1, "不求人": 1}, 38),
    # 抢杠胡: 234 789m 东东东 99m 45m waiting 3m/6m, robs a 6m (no other 6m in the hand;
    # the 和绝张 flag is excluded by 抢杠胡).  抢杠胡 8 + 混一色 6 + 门前清 2 + 幺九刻 1 +
    # 连六 1 (456/789) = 18.
    ("抢杠胡", ctx("2347899945m111z", "6m", robbing_kong=True, last_copy=True),
     {"抢杠胡": 1, "混一色": 1, "门前清": 1, "幺九刻": 1, "连六": 1}, 18),
    # 碰碰和: 222m 555m exposed, 888m 东东 西西, wins 西 (exposed).  碰碰和 6 + 混一色 6 +
    # 幺九刻 1 = 13.
    ("碰碰和", ctx("888m1133z", "3z", ["pung:2m", "pung:5m"]), {"碰碰和": 1, "混一色": 1, "幺九刻": 1}, 13),
    # 混一色: 345m exposed, 456m 南南南 78m 白白, wins 6m (waits 6m/9m).  混一色 6 +
    # 幺九刻 1 + 连六 1 (345/678) = 8.
    ("混一色", ctx("45678m22255z", "6m", ["chow:345m"]), {"混一色": 1, "幺九刻": 1, "连六": 1}, 8),
    # 全求人: 123m 789m chows, 555m 东东东 pungs, all claimed; wins 9m on a discard.
    # 全求人 6 (excl. 单钓将) + 混一色 6 + 幺九刻 1 + 老少副 1 = 14.
    ("全求人", ctx("9m", "9m", ["chow:123m", "pung:5m", "pung:1z", "chow:789m"]),
     {"全求人": 1, "混一色": 1, "幺九刻": 1, "老少副": 1}, 14),
    # 双暗杠: 东 and 3m concealed kongs, 456m 78m 99m, wins 9m (waits 6m/9m).  双暗杠 6
    # (excl. 暗杠) + 混一色 6 + 幺九刻 1 + 门前清 2 + 连六 1 (456/789) = 16.
    ("双暗杠", ctx("4567899m", "9m", ["ckong:1z", "ckong:3m"]),
     {"双暗杠": 1, "混一色": 1, "幺九刻": 1, "门前清": 1, "连六": 1}, 16),
    # 双箭刻: 白 exposed, 发发发 123 456m + 9m single.  双箭刻 6 (excl. 箭刻) + 混一色 6 +
    # 连六 1 + 单钓将 1 = 14.
    ("双箭刻", ctx("666z1234569m", "9m", ["pung:5z"]), {"双箭刻": 1, "混一色": 1, "连六": 1, "单钓将": 1}, 14),
    # 全带幺: 123m exposed, 789m 东东东 99m 12m, wins 3m (edge, unique).  全带幺 4 + 混一色 6 +
    # 幺九刻 1 + 一般高 1 and 老少副 1 (123 123 789: three pair fans cut to two) + 边张 1 = 14.
    ("全带幺", ctx("7899912m111z", "3m", ["chow:123m"]),
     {"全带幺": 1, "混一色": 1, "幺九刻": 1, "一般高": 1, "老少副": 1, "边张": 1}, 14),
    # 不求人: 234 678m 发发发 99m 45m, self-drawn 3m (waits 3m/6m).  不求人 4 (excl. 门前清,
    # 自摸) + 混一色 6 + 箭刻 2 + 连六 1 (345/678) = 13.
    ("不求人", ctx("2346789945m666z", "3m", self_drawn=True), {"不求人": 1, "混一色": 1, "箭刻": 1, "连六": 1}, 13),
    # 双明杠: 2m 9m exposed kongs, 345 678m + 东 single.  双明杠 4 (excl. 明杠) + 混一色 6 +
    # 幺九刻 1 (9m) + 连六 1 + 单钓将 1 = 13.
    ("双明杠", ctx("345678m1z", "1z", ["kong:2m", "kong:9m"]),
     {"双明杠": 1, "混一色": 1, "幺九刻": 1, "连六": 1, "单钓将": 1}, 13),
    # 和绝张: 12 456 789m 白白白 99m wins 3m (edge, the only wait), the other three 3m
    # visible and none in the hand.  和绝张 4 + 清龙 16 + 混一色 6 + 门前清 2 + 箭刻 2 +
    # 边张 1 = 31.
    ("和绝张", ctx("1245678999m555z", "3m", last_copy=True),
     {"和绝张": 1, "清龙": 1, "混一色": 1, "门前清": 1, "箭刻": 1, "边张": 1}, 31),
    # 箭刻: 中 exposed, 345 678m 22m 99m, wins 2m (exposed).  箭刻 2 + 混一色 6 + 连六 1 = 9.
    ("箭刻", ctx("3456782299m", "2m", ["pung:7z"]), {"箭刻": 1, "混一色": 1, "连六": 1}, 9),
    # 门前清 / 平和: 123 234 567m 55m 78m, wins 9m on a discard (waits 6m/9m).  平和 2 +
    # 清一色 24 + 门前清 2 + 老少副 1 (123/789) + 连六 1 (234/567) = 30.
    ("平和", ctx("1232345675578m", "9m"), {"平和": 1, "清一色": 1, "门前清": 1, "老少副": 1, "连六": 1}, 30),
    # 四归一: 111 123 456m 78m 白白, wins 9m (waits 6m/9m): four 1m, not a kong.  四归一 2 +
    # 清龙 16 + 混一色 6 + 门前清 2 + 幺九刻 1 = 27.
    ("四归一", ctx("111123456m78m55z", "9m"), {"四归一": 1, "清龙": 1, "混一色": 1, "门前清": 1, "幺九刻": 1}, 27),
    # 双暗刻: 111 555 234m 78m 南南, wins 6m (waits 6m/9m).  双暗刻 2 + 幺九刻 1 + 混一色 6 +
    # 门前清 2 = 11.
    ("双暗刻", ctx("11155523478m22z", "6m"), {"双暗刻": 1, "幺九刻": 1, "混一色": 1, "门前清": 1}, 11),
    # 暗杠: 9m concealed kong, 234 456m 67m 东东, wins 5m (waits 5m/8m).  暗杠 2 + 幺九刻 1 +
    # 混一色 6 + 门前清 2 + 连六 1 (234/567) = 12.
    ("暗杠", ctx("23445667m11z", "5m", ["ckong:9m"]), {"暗杠": 1, "幺九刻": 1, "混一色": 1, "门前清": 1, "连六": 1}, 12),
    # 断幺: 234m exposed, 345 567m 66m 88m, wins 8m (888 exposed).  断幺 2 + 清一色 24 +
    # 连六 1 (234/567) = 27.
    ("断幺", ctx("3455676688m", "8m", ["chow:234m"]), {"断幺": 1, "清一色": 1, "连六": 1}, 27),
    # 一般高: 234 234 789m 55m 发发, wins 发 (exposed).  一般高 1 + 混一色 6 + 门前清 2 +
    # 箭刻 2 = 11.
    ("一般高", ctx("223344789m55m66z", "6z"), {"一般高": 1, "混一色": 1, "门前清": 1, "箭刻": 1}, 11),
    # 连六 / 老少副: see 清一色, 全求人, 平和.  明杠: 5m exposed kong, 123 789m 南南 西西,
    # wins 南 (exposed).  明杠 1 + 混一色 6 + 幺九刻 1 + 老少副 1 = 9.
    ("明杠", ctx("123789m2233z", "2z", ["kong:5m"]), {"明杠": 1, "混一色": 1, "幺九刻": 1, "老少副": 1}, 9),
    # 边张: 12 567 789m 白白白 44m, wins 3m (1m and 2m fit nowhere else: the only wait).
    # 边张 1 + 混一色 6 + 门前清 2 + 箭刻 2 + 老少副 1 (123/789) = 12.
    ("边张", ctx("1256778944m555z", "3m"), {"边张": 1, "混一色": 1, "门前清": 1, "箭刻": 1, "老少副": 1}, 12),
    # 坎张: 13 456 789m 白白白 22m, wins 2m (only wait).  坎张 1 + 清龙 16 + 混一色 6 +
    # 门前清 2 + 箭刻 2 = 27.
    ("坎张", ctx("1345678922m555z", "2m"), {"坎张": 1, "清龙": 1, "混一色": 1, "门前清": 1, "箭刻": 1}, 27),
    # 花牌 / 自摸: the 箭刻 hand self-drawn with 3 flowers: 222m now concealed (1 pung only).
    # 箭刻 2 + 混一色 6 + 连六 1 + 自摸 1 + 花牌 3 = 13.
    ("花牌", ctx("3456782299m", "2m", ["pung:7z"], self_drawn=True, flowers=3),
     {"箭刻": 1, "混一色": 1, "连六": 1, "自摸": 1, "花牌": 3}, 13),
]


@pytest.mark.parametrize("case_id, c, fans, total", CASES, ids=[c[0] for c in CASES])
def test_fan_case(case_id, c, fans, total):
    got, got_total = score(c)
    assert got == fans
    assert got_total == total


def test_every_fan_of_the_table_is_exercised():
    # Each of the 59 rows appears in at least one case (连六 and 老少副 beside others).
    seen = set()
    for _id, _c, fans, _t in CASES:
        seen.update(fans)
    assert seen == {row[0] for row in FAN_ROWS}


# --- the Decisions' examples ------------------------------------------------------


def test_big_four_winds_excludes_all_pungs_and_terminal_pungs():
    fans, _ = score(ctx("444z5m", "5m", ["pung:1z", "pung:2z", "pung:3z"]))
    assert "碰碰和" not in fans and "幺九刻" not in fans and "三风刻" not in fans


def test_seven_pairs_excludes_concealed_hand_and_single_wait():
    # 11 33 55 77 99m 东东 + 南 on a discard: 七对 24 + 混一色 6 = 30; the hand is
    # concealed and waits on 南 alone, yet 门前清 and 单钓将 are not scored.
    fans, total = score(ctx("1133557799m112z", "2z"))
    assert fans == {"七对": 1, "混一色": 1} and total == 30
    fans, total = score(ctx("1133557799m112z", "2z", self_drawn=True))
    assert "不求人" not in fans and fans["自摸"] == 1 and total == 31


def test_four_concealed_pungs_keeps_self_drawn():
    fans, _ = score(ctx("111333555m9m222z", "9m", self_drawn=True))
    assert fans["自摸"] == 1 and "不求人" not in fans and "碰碰和" not in fans and "门前清" not in fans


def test_seven_pairs_all_terminals_and_honours():
    # 11 99m 东东 南南 西西 白白 中中: 七对 24 + 混幺九 32 + 混一色 6 = 62.
    assert score(ctx("1199m112233557z", "7z")) == ({"七对": 1, "混幺九": 1, "混一色": 1}, 62)


def test_seven_pairs_all_honours():
    # 东东 南南 西西 北北 白白 发发 中中: 七对 24 + 字一色 64 = 88.
    assert score(ctx("1122334455667z", "7z")) == ({"七对": 1, "字一色": 1}, 88)


def test_seven_pairs_all_simples_and_tile_hog():
    # 2222 33 55 66 77 88m (four 2m = two pairs): no standard reading.
    # 七对 24 + 清一色 24 + 断幺 2 + 四归一 2 = 52.
    assert score(ctx("2222335566778m", "8m")) == ({"七对": 1, "清一色": 1, "断幺": 1, "四归一": 1}, 52)


def test_seven_pairs_upper_and_lower_four():
    # 6666 77 8888 9999m (pairs 66 66 77 88 88 99 99): 七对 24 + 清一色 24 + 大于五 12 +
    # 四归一 x3 (6m, 8m, 9m) 6 = 66.
    assert score(ctx("6666778888999m", "9m")) == ({"七对": 1, "清一色": 1, "大于五": 1, "四归一": 3}, 66)
    # 1111 22 3333 4444m: 七对 24 + 清一色 24 + 小于五 12 + 四归一 x3 6 = 66.
    assert score(ctx("1111223333444m", "4m")) == ({"七对": 1, "清一色": 1, "小于五": 1, "四归一": 3}, 66)


def test_heavenly_hand_keeps_fully_concealed_and_drops_waits():
    fans, total = score(ctx("123456789123m5z", "5z", self_drawn=True, heavenly=True))
    assert fans["不求人"] == 1 and "自摸" not in fans and "单钓将" not in fans and total == 75
    # without 天胡 the same hand scores 单钓将 instead: 16+1+6+4+1 = 28
    assert score(ctx("123456789123m5z", "5z", self_drawn=True))[1] == 28


def test_melded_and_concealed_kong_score_both_kong_fans():
    # MCR's 明暗杠 is not in the table: 明杠 1 + 暗杠 2 are counted instead.
    # 1m exposed kong, 东 concealed kong, 4556789m + 5m (the only wait), on a discard: the
    # split 456 789 55 holds 5m in the middle of 456, so the wait reads 坎张 (before 单钓将).
    # 明杠 1 + 暗杠 2 + 幺九刻 2 (1m, 东) + 混一色 6 + 连六 1 + 坎张 1 = 13.
    fans, total = score(ctx("4567895m", "5m", ["kong:1m", "ckong:1z"]))
    assert fans == {"明杠": 1, "暗杠": 1, "幺九刻": 2, "混一色": 1, "连六": 1, "坎张": 1}
    assert total == 13


def test_wind_pung_is_a_terminal_pung_here():
    # No 门风刻/圈风刻 in this game: a 东 pung is just 幺九刻 1 (see the 清龙 case).
    fans, _ = score(ctx("12345678955m11z", "1z"))
    assert fans["幺九刻"] == 1


def test_last_copy_flag_ignored_when_the_hand_holds_another_copy():
    # 和绝张 is impossible when the hand holds another copy of the winning tile
    # (waits 东/5m, wins 东 with two 东 in hand): the flag is dropped, total 25.
    assert score(ctx("12345678955m11z", "1z", last_copy=True))[1] == 25
    # a single wait on 南 with one 南 in hand is not 和绝张 either: 清龙 16 + 混一色 6 +
    # 门前清 2 + 箭刻 2 + 单钓将 1 = 27.
    assert score(ctx("123456789m5552z", "2z", last_copy=True)) == (
        {"清龙": 1, "混一色": 1, "门前清": 1, "箭刻": 1, "单钓将": 1}, 27)


def test_kong_replacement_flag_needs_a_kong():
    # 杠上开花 without any kong is dropped; 自摸 stays.  清一色 example self-drawn:
    # 清一色 24 + 不求人 4 + 双暗刻 2 + 幺九刻 1 + 连六 1 = 32.
    fans, total = score(ctx("1113456782299m", "2m", self_drawn=True, kong_replacement=True))
    assert "杠上开花" not in fans and total == 32


def test_unique_wait_needed_for_wait_fans():
    # 123456789m 9m + 白白白 waits on 3m, 6m and 9m: winning on 9m (the pair) is no
    # 单钓将; the 天听 case shows the same shape.  清龙 16 + 混一色 6 + 门前清 2 + 箭刻 2 = 26.
    assert score(ctx("1234567899m555z", "9m")) == ({"清龙": 1, "混一色": 1, "门前清": 1, "箭刻": 1}, 26)


# --- errors -------------------------------------------------------------------------


def test_not_a_win():
    with pytest.raises(NotAWin):
        calculate_fans(ctx("1234567891234m", "7z"))


def test_wrong_tile_count():
    with pytest.raises(ValueError):
        calculate_fans(ctx("123456789m", "5m"))


def test_five_copies_rejected():
    with pytest.raises(ValueError):
        calculate_fans(ctx("1111234567899m", "1m"))
    with pytest.raises(ValueError):
        calculate_fans(ctx("1234567895m", "5m", ["kong:5m"]))


def test_not_a_win_is_a_value_error():
    assert issubclass(NotAWin, ValueError)


def test_fan_table_rows():
    rows = fan_table()
    # 59 rows as in docs/rules/two_player.md; first and last rows, values of a few.
    assert len(rows) == 59
    assert rows[0] == ("天胡", "Heavenly Hand", 48)
    assert rows[-1] == ("自摸", "Self-Drawn", 1)
    values = {zh: v for zh, _en, v in rows}
    assert values["大四喜"] == 88 and values["四杠"] == 88 and values["三杠"] == 32
    assert values["一色四步高"] == 32 and values["七对"] == 24 and values["抢杠胡"] == 8


def test_total_is_sum_of_fans():
    r = calculate_fans(ctx("1113456782299m", "2m", self_drawn=True, wall_last=True, flowers=2))
    assert r.total == sum(f.value * f.count for f in r.fans) == 42
