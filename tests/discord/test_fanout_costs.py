"""What the fan-out sends, counted through the fake Discord, in every game: closing a table
edits each player's panel once (its last state, without buttons); the first move after a
restart costs no more REST calls than the moves before it (the restart itself redraws what
the stopped process may not have sent, once)."""

from __future__ import annotations

import pytest

from engine.variants import all_variants

try:
    from discord_play import press, timeout_policy
    from panel_checks import panels_of, restarted_bot
    from table_helpers import open_table
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import press, timeout_policy
    from tests.harness.panel_checks import panels_of, restarted_bot
    from tests.harness.table_helpers import open_table

GAMES = [v.id for v in all_variants()]


async def _move(fd, table, by_seat) -> int:
    """The pending human's timeout choice, pressed; returns the REST calls it cost."""
    start = len(fd.calls)
    seat = next(s for s in table.hand.pending_seats() if s in by_seat)
    await press(fd, by_seat[seat], timeout_policy(table.hand, seat))
    await fd.settle()
    return len(fd.calls) - start


def _edits_of(fd, start: int, message) -> int:
    return sum(1 for c in fd.calls[start:] if c.method == "PATCH" and c.path.endswith(f"/messages/{message.id}"))


@pytest.mark.asyncio
@pytest.mark.parametrize("game", GAMES)
async def test_closing_a_table_edits_each_panel_once(game, tmp_path):
    bot, fd, table, users, by_seat = await open_table(tmp_path, game, 3, ["ann", "bob"],
                                                      n_ai=max(0, next(v for v in all_variants() if v.id == game)
                                                               .min_players - 2))
    try:
        for _ in range(3):
            if table.hand.is_over():
                break
            await _move(fd, table, by_seat)
        panels = {u.id: panels_of(fd, u)[-1] for u in users}
        start = len(fd.calls)
        await fd.slash(users[0], "mj table end")
        await fd.settle()
        for user in users:
            panel = panels[user.id]
            assert _edits_of(fd, start, panel) == 1, (game, user.name)
            assert fd.message(panel.id).custom_ids == []  # no button left to press
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", GAMES)
async def test_the_first_move_after_a_restart_costs_no_more_calls_than_any_other(game, tmp_path):
    humans = min(4, next(v for v in all_variants() if v.id == game).max_players)
    names = ["ann", "bob", "cat", "dan"][:humans]
    bot, fd, table, users, by_seat = await open_table(tmp_path, game, 3, names)
    try:
        costs = []
        for _ in range(6):
            costs.append(await _move(fd, table, by_seat))
        assert not table.hand.is_over()
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        t2 = fd.bot.service.table_in(fd.channel_id)
        by_seat2 = {t2.seat_of(u.id): u for u in users}
        first = await _move(fd, t2, by_seat2)
        assert first <= max(costs), (game, first, costs)
    finally:
        await fd.close()
