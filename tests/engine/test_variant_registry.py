"""The registry of games (``engine.variants``): the built-in games, and a game registered for
a while (``register`` / ``unregister`` / ``with registered(...)``) that nothing sees after."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.match import Match
from engine.variants import (built_in, all_variants, find_variant, register, registered,
                             unregister)


ROOT = Path(__file__).resolve().parents[2]


def _copy(info, **changes):
    """Another game like ``info`` (its hands), under other names."""
    return dataclasses.replace(info, **{"aliases": (), "name_zh": "试局", **changes})


def test_built_in_games_in_order():
    # every package of engine/variants is a game, listed in its declared order
    packages = sorted(p.parent.name for p in (ROOT / "engine" / "variants").glob("*/__init__.py"))
    assert sorted(v.id for v in built_in()) == packages
    assert [v.id for v in all_variants()][:len(packages)] == [
        "two_player", "laosanfan", "jinhu", "caishen", "laowudui", "zipai"]
    assert find_variant("二人麻将").id == "two_player" and find_variant(" LWD ").id == "laowudui"
    with pytest.raises(KeyError):
        find_variant("no_such_game")


def test_registered_for_a_block_only():
    extra = _copy(find_variant("two_player"), id="extra_game")
    with registered(extra) as info:
        assert info is extra and find_variant("extra_game") is extra and find_variant("试局") is extra
        assert all_variants()[-1] is extra
        hand = Match("extra_game", extra.resolve_options({}), 7, 2).new_hand()
        assert hand.pending_seats()
    with pytest.raises(KeyError):
        find_variant("extra_game")
    assert extra not in all_variants()


def test_unregistered_even_when_the_block_fails():
    extra = _copy(find_variant("zipai"), id="extra_game")
    with pytest.raises(RuntimeError):
        with registered(extra):
            raise RuntimeError("boom")
    with pytest.raises(KeyError):
        find_variant("extra_game")


def test_names_must_be_new_and_built_in_games_stay():
    two = find_variant("two_player")
    with pytest.raises(ValueError):
        register(_copy(two, id="two_player"))
    with pytest.raises(ValueError):
        register(_copy(two, id="extra_game", aliases=("2p",)))
    with pytest.raises(ValueError):
        register(_copy(two, id="extra_game", name_zh="二人麻将"))
    with pytest.raises(ValueError):
        unregister("two_player")
    with pytest.raises(KeyError):
        unregister("extra_game")
    extra = register(_copy(two, id="extra_game"))
    try:
        assert register(extra) is extra  # the same game again: nothing changes
    finally:
        assert unregister("extra_game") is extra
    assert "extra_game" not in [v.id for v in all_variants()]
