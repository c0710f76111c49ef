"""What one press costs, in every game at its most human seats, through the fake Discord: the
engine is asked for at most one public view (the hand's public frame) and one view per seat
whose part of the snapshot changed (or, when the hand went on behind the public frame, one
view per seat); one image is drawn when the table message's picture changed, and none for a
player's panel (its hand is tile buttons, its table text); the registry is never asked by the images (``tests/conftest.py``)."""

from __future__ import annotations

from collections import Counter

import pytest

import cogs.messages as ui
from engine.variants import all_variants

try:
    from discord_play import press, timeout_policy
    from panel_checks import seated_table
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import press, timeout_policy
    from tests.harness.panel_checks import seated_table

PRESSES = 12


class Counts:
    """Counts the engine's views by viewer and the images drawn by message."""

    def __init__(self, monkeypatch, hand_cls):
        self.views: Counter = Counter()
        self.images: Counter = Counter()
        real_view = hand_cls.view
        real_render = ui.render_table

        def view(hand, viewer=None, reveal=False):
            self.views["public" if viewer is None else viewer] += 1
            return real_view(hand, viewer, reveal)

        def render(v):
            self.images["table" if v.get("viewer") is None else v["viewer"]] += 1
            return real_render(v)

        monkeypatch.setattr(hand_cls, "view", view)
        monkeypatch.setattr(ui, "render_table", render)

    def take(self) -> tuple[Counter, Counter]:
        out = (self.views, self.images)
        self.views, self.images = Counter(), Counter()
        return out


@pytest.mark.asyncio
@pytest.mark.parametrize("game", [v.id for v in all_variants()])
async def test_a_press_asks_one_public_view_one_view_per_changed_part_and_one_table_image(game, tmp_path, monkeypatch):
    info = next(v for v in all_variants() if v.id == game)
    bot, fd, table, users = await seated_table(tmp_path, game, 3, humans=info.max_players)
    try:
        counts = Counts(monkeypatch, type(table.hand))
        await fd.settle()
        checked = 0
        for _ in range(PRESSES):
            if table.hand.is_over():
                break
            before = bot.service.snapshot(fd.channel_id)
            seat = next(s for s in table.hand.pending_seats() if s in users)
            counts.take()
            await press(fd, users[seat], timeout_policy(table.hand, seat))
            await fd.settle()
            views, images = counts.take()
            after = bot.service.snapshot(fd.channel_id)
            changed = {p.seat for p, q in zip(after.parts, before.parts) if p is not None and p.version != q.version}
            pictures = {p.seat for p, q in zip(after.parts, before.parts) if p is not None and p.picture != q.picture}
            # the hand went on behind the public frame (a window closed, the next seat drew): what
            # a seat sees of its own may have changed in any seat (a ready 二人麻将 player's waits,
            # 字牌's passed cards) and only the engine knows which — each may be asked once
            began = any(p is not None and p.decision is not None and p.decision != q.decision
                        for p, q in zip(after.parts, before.parts))
            behind = began and after.public.view is before.public.view
            # the engine: one public frame at most (the discard marks it; a claim needs one view)
            assert views["public"] <= 1, (game, views)
            for s in range(len(after.parts)):
                assert views[s] <= (1 if s in changed or behind else 0), \
                    (game, s, views, changed, seat, table.hand.events[-4:])
            # the images: one per message whose picture changed, none for the others
            assert images["table"] <= (1 if after.public.view is not before.public.view else 0), (game, images)
            assert images["table"] == (1 if after.public.view is not before.public.view else 0), (game, images)
            # … and none for the panels, whatever their part's picture did
            assert all(images[s] == 0 for s in range(len(after.parts))), (game, images, pictures)
            checked += views["public"] + sum(views[s] for s in range(len(after.parts))) > 0
        assert checked >= 6
    finally:
        await fd.close()
