"""Random play-outs of seeded 老三番 hands with the invariant checks of
``tests/harness/four_seat_playouts.py``."""

from __future__ import annotations

import pytest

from four_seat_playouts import run_playouts


@pytest.mark.slow
def test_laosanfan_playouts():
    c = run_playouts("laosanfan", 50, 144)
    assert c["hands"] == 50 and c["wins"] > 0 and c["draws"] > 0
    for typ in ("discard", "chow", "pung", "kong", "hu", "pass"):
        assert c[typ] > 0, typ
