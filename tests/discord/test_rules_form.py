"""The rules by form, through the fake Discord: a table created through the form plays by it; the
lobby's Rules button and its menus change the options until Start, for the table's creator
only; a refused value names the values allowed and nothing is applied; every registered
game's form keeps Discord's limits and gives back the defaults unchanged; a server's defaults
and presets by form; ``key=value`` still works beside it."""

from __future__ import annotations

import pytest
from discord_play import table_button, table_message
from fakediscord import modal_errors
from form_checks import form_bot, inputs, shown

from cogs.rules_form import own_options
from engine.variants import all_variants, find_variant


async def _seat_ais(fd, user, variant: str) -> None:
    for _ in range(find_variant(variant).min_players - 1):
        await fd.slash(user, "mj table add-ai", {"level": "normal"})


@pytest.mark.asyncio
async def test_a_table_created_through_the_form_stores_its_options_and_plays_by_them(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice")
        opened = await fd.slash(alice, "mj table create", {"variant": "laosanfan", "rules": True})
        assert opened.response_type == 9
        form = inputs(opened)
        assert set(form) == {f"opt:{o.name}" for o in own_options(find_variant("laosanfan").options)}
        assert form["opt:style"]["type"] == 21 and shown(form["opt:style"]) == "yaobansan"
        assert [o["value"] for o in form["opt:hutou"]["options"]] == ["on", "off"]
        assert bot.service.find_snapshot(fd.channel_id) is None  # nothing opens before the form is sent
        r = await fd.submit_modal(alice, opened, {"opt:style": "tuidaoba", "opt:hutou": "on"})
        assert r.ephemeral and "Table created" in r.content
        table = bot.service.table_in(fd.channel_id)
        stored = await bot.store.get_table(table.id)
        assert stored.options["style"] == "tuidaoba" and stored.options["hutou"] is True
        assert stored.options["discard_pays"] == "all"  # left as the form showed it
        await _seat_ais(fd, alice, "laosanfan")
        await fd.slash(alice, "mj table start")
        assert table.match.options["style"] == "tuidaoba" and table.match.options["hutou"] is True
        assert table.hand.options["style"] == "tuidaoba"
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_lobby_rules_and_menus_change_the_options_until_start_for_the_creator_only(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        alice, bob = fd.user(1, "alice"), fd.user(2, "bob")
        await fd.slash(alice, "mj table create", {"variant": "laosanfan"})
        await fd.slash(bob, "mj table join")
        msg = table_message(fd, fd.channel_id)
        rows = msg.components
        assert [len(r["components"]) for r in rows] == [5, 1, 1, 1]
        ch = fd.channel_id
        assert [r["components"][0]["custom_id"] for r in rows[1:]] == [f"mjo:{ch}:pace", f"mjo:{ch}:hands",
                                                                         f"mjo:{ch}:auto"]
        _, rules = table_button(fd, ch, "rules")
        # another player: a private refusal, no form
        r = await fd.click(bob, msg, rules)
        assert r.response_type == 4 and r.ephemeral and "Only the table's creator" in r.content
        r = await fd.select(bob, msg, f"mjo:{ch}:hands", ["8"])
        assert r.ephemeral and "Only the table's creator" in r.content
        table = bot.service.table_in(ch)
        assert table.options["match_hands"] == 0
        # the creator: the form, prefilled with the table's options
        opened = await fd.click(alice, msg, rules)
        assert opened.response_type == 9 and shown(inputs(opened)["opt:discard_pays"]) == "all"
        r = await fd.submit_modal(alice, opened, {"opt:discard_pays": "discarder", "opt:opening_restriction": "off"})
        assert r.ephemeral and "rules are changed" in r.content
        assert table.options["discard_pays"] == "discarder" and table.options["opening_restriction"] is False
        stored = await bot.store.get_table(table.id)
        assert stored.options["discard_pays"] == "discarder"  # stored before the answer
        # the lobby message shows what differs from the defaults
        assert "discarder" in table_message(fd, ch).embeds[0]["description"]
        msg = table_message(fd, ch)
        await fd.select(alice, msg, f"mjo:{ch}:pace", ["relaxed"])
        await fd.select(alice, msg, f"mjo:{ch}:hands", ["8"])
        await fd.select(alice, msg, f"mjo:{ch}:auto", ["on"])
        assert (table.options["discard_timeout"], table.options["claim_timeout"]) == (60, 60)
        assert table.options["match_hands"] == 8 and table.options["auto_play_ai"] is True
        pace = table_message(fd, ch).component(f"mjo:{ch}:pace")
        assert [o["value"] for o in pace["options"] if o.get("default")] == ["relaxed"]
        # a form opened before Start and sent after it is refused
        late = await fd.click(alice, table_message(fd, ch), rules)
        for _ in range(2):
            await fd.slash(alice, "mj table add-ai", {"level": "normal"})
        await fd.slash(alice, "mj table start")
        assert table.match.options["discard_pays"] == "discarder" and table.match.options["match_hands"] == 8
        assert table.match.options["discard_timeout"] == 60 and table.match.options["auto_play_ai"] is True
        assert not any(c.startswith(("mjo:", f"mjt:{ch}:rules")) for c in table_message(fd, ch).custom_ids)
        r = await fd.submit_modal(alice, late, {"opt:discard_pays": "all"})
        assert r.ephemeral and "has started" in r.content and table.options["discard_pays"] == "discarder"
        old = fd.plant_message([f"mjo:{ch}:hands"], channel_id=ch, select_values=["4"])
        r = await fd.select(alice, old, f"mjo:{ch}:hands", ["4"])
        assert r.ephemeral and "has started" in r.content and table.options["match_hands"] == 8
        old = fd.plant_message([f"mjt:{ch}:rules"], channel_id=ch)
        r = await fd.click(alice, old, f"mjt:{ch}:rules")
        assert r.response_type == 4 and "has started" in r.content
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_refused_value_names_the_values_allowed_and_nothing_is_applied(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice")
        opened = await fd.slash(alice, "mj table create", {"variant": "two_player", "rules": True})
        assert shown(inputs(opened)["opt:base_points"]) == "1"
        assert "1–1000" in inputs(opened)["opt:base_points"]["placeholder"]
        r = await fd.submit_modal(alice, opened, {"opt:base_points": "abc", "opt:min_fan": "10"})
        assert r.ephemeral and "Nothing was changed" in r.content
        assert "abc" in r.content and "1–1000" in r.content and "Base points" in r.content
        assert bot.service.find_snapshot(fd.channel_id) is None  # no table with half the form
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        table = bot.service.table_in(fd.channel_id)
        opened = await fd.click(alice, *table_button(fd, fd.channel_id, "rules"))
        r = await fd.submit_modal(alice, opened, {"opt:base_points": "5", "opt:min_fan": "99"})
        assert "1–88" in r.content and "99" in r.content
        assert (table.options["base_points"], table.options["min_fan"]) == (1, 15)
        assert (await bot.store.get_table(table.id)).options["base_points"] == 1
    finally:
        await fd.close()


@pytest.mark.parametrize("game", [v.id for v in all_variants()])
@pytest.mark.asyncio
async def test_every_games_form_keeps_discords_limits_and_gives_back_the_defaults(tmp_path, game):
    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice", locale="zh-CN")
        info = find_variant(game)
        own = own_options(info.options)
        opened = await fd.slash(alice, "mj table create", {"variant": game, "rules": True})
        if not own:  # nothing to ask: the table opens at once
            assert opened.response_type == 4
            return
        modal = opened.interaction.response_data
        assert modal_errors(modal) == {} and 1 <= len(modal["components"]) <= 5
        assert [c["component"]["custom_id"] for c in modal["components"]] == [f"opt:{o.name}" for o in own[:5]]
        await fd.submit_modal(alice, opened, {})
        table = bot.service.table_in(fd.channel_id)
        assert table.options == info.resolve_options({})
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_server_defaults_and_presets_by_form(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        admin, bob = fd.user(1, "admin", admin=True), fd.user(2, "bob")
        r = await fd.slash(bob, "mj config default", {"variant": "laosanfan"})
        assert r.response_type == 4 and "Only server admins" in r.content
        opened = await fd.slash(admin, "mj config default", {"variant": "laosanfan"})
        assert opened.response_type == 9 and shown(inputs(opened)["opt:style"]) == "yaobansan"
        r = await fd.submit_modal(admin, opened, {"opt:style": "tuidaoba"})
        assert r.content == "Saved."
        cfg = await bot.settings.config(fd.guild_id)
        assert cfg.defaults["laosanfan"] == {"style": "tuidaoba"}  # only what differs from the game's
        opened = await fd.slash(admin, "mj config default", {"variant": "laosanfan"})
        assert shown(inputs(opened)["opt:style"]) == "tuidaoba"  # prefilled with the defaults in force
        # a preset by form; key=value still works beside it
        opened = await fd.slash(admin, "mj config preset", {"name": "quick", "variant": "zipai"})
        assert shown(inputs(opened)["opt:min_huxi"]) == "9"
        r = await fd.submit_modal(admin, opened, {"opt:min_huxi": "6", "opt:piao_max": "x"})
        assert "0–3" in r.content and "quick" not in (await bot.settings.config(fd.guild_id)).presets
        # the refusal's button opens the form again with what was typed, to be fixed
        again = next(c["custom_id"] for row in r.message.components for c in row["components"])
        opened = await fd.click(admin, r.message, again)
        assert opened.response_type == 9
        assert shown(inputs(opened)["opt:min_huxi"]) == "6" and shown(inputs(opened)["opt:piao_max"]) == "x"
        r = await fd.submit_modal(admin, opened, {"opt:piao_max": "2"})
        assert r.content == "Saved."
        assert (await bot.settings.config(fd.guild_id)).presets["quick"]["options"]["min_huxi"] == 6
        assert (await bot.settings.config(fd.guild_id)).presets["quick"]["options"]["piao_max"] == 2
        opened = await fd.slash(admin, "mj config preset", {"name": "quick", "variant": "zipai"})
        assert shown(inputs(opened)["opt:piao_max"]) == "2"  # the saved preset; the draft is gone
        await fd.slash(admin, "mj config default", {"variant": "laosanfan", "options": "hutou=on"})
        assert (await bot.settings.config(fd.guild_id)).defaults["laosanfan"] == {"hutou": True}
        await fd.slash(admin, "mj table create", {"variant": "zipai", "preset": "quick"})
        assert bot.service.table_in(fd.channel_id).options["min_huxi"] == 6
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_typed_options_and_the_form_together(tmp_path):
    """``options`` typed with ``rules:True``: the form opens prefilled with them."""
    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice")
        opened = await fd.slash(alice, "mj table create", {"variant": "two_player", "rules": True,
                                                           "options": "base_points=3", "pace": "relaxed"})
        assert shown(inputs(opened)["opt:base_points"]) == "3"
        await fd.submit_modal(alice, opened, {"opt:min_fan": "8"})
        table = bot.service.table_in(fd.channel_id)
        assert (table.options["base_points"], table.options["min_fan"], table.options["discard_timeout"]) == (3, 8, 60)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_form_opened_before_a_restart_counts_after_it(tmp_path):
    """A form is read by its id, not kept in memory: one filled in while the bot restarted
    still applies — a new table's (its command's other options kept in the store) and a
    lobby's."""
    from panel_checks import restarted_bot

    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice")
        first = await fd.slash(alice, "mj table create", {"variant": "laosanfan", "rules": True, "hands": 4})
        await fd.restart(restarted_bot(bot))
        r = await fd.submit_modal(alice, first, {"opt:style": "yaobanliu"})
        assert "Table created" in r.content
        table = fd.bot.service.table_in(fd.channel_id)
        assert (table.options["style"], table.options["match_hands"]) == ("yaobanliu", 4)
        lobby = table_message(fd, fd.channel_id)
        opened = await fd.click(alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":rules")))
        await fd.restart(restarted_bot(fd.bot))
        r = await fd.submit_modal(alice, opened, {"opt:hutou": "on"})
        assert r.ephemeral and fd.bot.service.table_in(fd.channel_id).options["hutou"] is True
        # the first form sent again: its table exists now, so it is refused, and nothing changes
        r = await fd.submit_modal(alice, first, {"opt:style": "tuidaoba"})
        assert r.ephemeral and "already has a table" in r.content
        assert fd.bot.service.table_in(fd.channel_id).options["style"] == "yaobanliu"
    finally:
        await fd.close()
