"""``/mj rescore`` through the fake Discord: a stored 老三番 hand (the seed's worked example,
``stored_hands.LAOSANFAN_WORKED``) compared under another style in English
and Chinese, the suggestions of the hand's score-only options and presets, and the private
refusals: an option that changes what was dealt or legal, a preset that does, an unknown
hand, another server's hand."""

from __future__ import annotations

import pytest
from fd_fixture import fd_bot  # noqa: F401  (the fixture)
from fakediscord import as_shown
from stored_hands import LAOSANFAN_WORKED, full_log, playing_table, stacked_context, store_hand


async def worked_hand(bot, guild_id: int, channel_id: int, names: list[str]) -> int:
    table = await playing_table(bot.store, guild_id, channel_id, "laosanfan")
    hand_id, result = await store_hand(bot.store, table, 1, "laosanfan", {}, seed=3, dealer=0,
                                       context=stacked_context(LAOSANFAN_WORKED),
                                       actions=full_log("laosanfan", LAOSANFAN_WORKED, {}),
                                       users=[1, 2, None, 4], names=names)
    assert result["points"] == [180, -60, -60, -60]  # 么半三, 60 a loser
    return hand_id


@pytest.mark.asyncio
async def test_a_hand_under_another_style_and_the_refusals(fd_bot):
    fd, bot = fd_bot
    alice = fd.user(1, "alice")
    hid = await worked_hand(bot, fd.guild_id, 900, [alice.name, "bob", "AI 2", "carol"])
    r = await fd.slash(alice, "mj rescore", {"hand": hid, "options": "style=tuidaoba"})
    assert not r.ephemeral
    text = as_shown(r.content)
    lines = text.splitlines()
    assert lines[0] == f"**Hand #{hid} · Lao San Fan (老三番): under other rules**"
    assert lines[1] == "`style` yaobansan → tuidaoba"
    # 推倒八 pays 100 a loser for no fan (test_laosanfan.py's style table): 3 × 100 to the dealer
    assert f"• {alice.name}: +180 → +300 (+120)" in lines
    assert "• bob: -60 → -100 (-40)" in lines and "• AI 2: -60 → -100 (-40)" in lines
    assert "• carol: -60 → -100 (-40)" in lines
    # the winner's formula, as played and under 推倒八
    assert any(ln.startswith(f"{alice.name}: ") and "⟶" in ln and "26" in ln for ln in lines), lines
    # the same in Chinese: the catalogue's words
    zh = fd.user(5, "dan", locale="zh-CN")
    r = await fd.slash(zh, "mj rescore", {"hand": hid, "options": "hutou=on"})
    text = as_shown(r.content)
    assert text.splitlines()[0] == f"**第 {hid} 局 · 老三番：换规则计分**"
    assert "• bob：-60 → -65（-5）" in text.splitlines()  # 胡头: seat 2's 16 胡 collect 5 from each 边家

    # suggestions: the score-only options of the hand's game, and its presets
    choices = await fd.autocomplete(alice, "mj rescore", {"hand": hid}, "options")
    assert [c["value"] for c in choices] == ["style=yaobansan", "discard_pays=all", "hutou=false",
                                             "money_rounding=false"]
    choices = await fd.autocomplete(alice, "mj rescore", {"hand": hid, "options": "style="}, "options")
    assert [c["value"] for c in choices] == ["style=yaobansan", "style=yaobanliu", "style=tuidaoba", "style=yaoerliu"]
    assert await fd.autocomplete(alice, "mj rescore", {"hand": hid, "options": "min_"}, "options") == []
    choices = await fd.autocomplete(alice, "mj rescore", {"hand": hid}, "preset")
    assert [c["value"] for c in choices] == ["standard", "relaxed"]

    # refusals, privately, naming the option and why
    r = await fd.slash(alice, "mj rescore", {"hand": hid, "options": "opening_restriction=off"})
    assert r.ephemeral
    assert as_shown(r.content) == (
        "`opening_restriction` cannot change for a re-score: it changes what was dealt, what was legal or how the "
        "hand was played, not only what it paid. This game's options that change only the score: style, "
        "discard_pays, hutou, money_rounding.")
    r = await fd.slash(alice, "mj rescore", {"hand": hid, "preset": "relaxed"})
    assert r.ephemeral and as_shown(r.content).startswith(
        "The preset relaxed changes `claim_timeout, discard_timeout, result_timeout`, which changes what was dealt")
    r = await fd.slash(alice, "mj rescore", {"hand": hid})
    assert r.ephemeral and "style, discard_pays, hutou, money_rounding" in r.content
    r = await fd.slash(alice, "mj rescore", {"hand": hid, "options": 'style="tuidaoba'})
    assert r.ephemeral and r.content == (await fd.slash(alice, "mj table create", {"options": 'a="b'})).content
    r = await fd.slash(zh, "mj rescore", {"hand": hid, "options": "style=tuidaoba min_fan=3"})
    assert r.ephemeral and as_shown(r.content).startswith("未知选项 min_fan。")  # 二人麻将's, not 老三番's
    r = await fd.slash(zh, "mj rescore", {"hand": hid, "options": "style=tuidaoba opening_restriction=false"})
    assert r.ephemeral and as_shown(r.content).startswith(
        "`opening_restriction` 不能用来重新计分：它会改变发的牌、能做的动作或打法，而不只是得分。")
    r = await fd.slash(alice, "mj rescore", {"hand": hid + 100, "options": "style=tuidaoba"})
    assert r.ephemeral and as_shown(r.content) == f"No finished hand #{hid + 100} in this server."
    # another server's hand is unknown here, and suggests nothing
    other = fd.add_guild("elsewhere")
    other_channel = next(c for c, d in fd.channels.items() if d.get("guild_id") == str(other))
    theirs = await worked_hand(bot, other, 901, ["x", "y", "AI 2", "z"])
    r = await fd.slash(alice, "mj rescore", {"hand": theirs, "options": "style=tuidaoba"})
    assert r.ephemeral and as_shown(r.content) == f"No finished hand #{theirs} in this server."
    assert await fd.autocomplete(alice, "mj rescore", {"hand": theirs}, "options") == []
    # its own server sees it
    r = await fd.slash(alice, "mj rescore", {"hand": theirs, "options": "style=yaoerliu"},
                       guild_id=other, channel_id=other_channel)
    assert not r.ephemeral and "• x: +180 → +390 (+210)" in as_shown(r.content).splitlines()
