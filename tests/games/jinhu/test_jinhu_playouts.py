"""Random play-outs of seeded 金湖老三番 hands with the invariant checks of
``tests/harness/four_seat_playouts.py`` (128 tiles; 中发白 never stay in a hand)."""

from __future__ import annotations

import pytest

from four_seat_playouts import run_playouts


@pytest.mark.slow
def test_jinhu_playouts():
    c = run_playouts("jinhu", 50, 128)
    assert c["hands"] == 50 and c["wins"] > 0 and c["draws"] > 0
    for typ in ("discard", "ting", "fake_ting", "pung", "hu", "pass"):
        assert c[typ] > 0, typ
    assert c["chow"] == 0 and c["kong"] == 0  # pung only
