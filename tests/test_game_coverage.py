"""Cross-game tests take their games from the registry: the collection check of
``tests/conftest.py`` (``games.games_left_out``) refuses a test parametrized by game that leaves
a registered game out, unless it is marked ``some_games``."""

from pathlib import Path
from types import SimpleNamespace as NS

from games import game_ids, game_params, games_left_out, per_game
from engine.variants import all_variants

import pytest


def _item(name, marked=False, **params):
    return NS(path=Path("tests/x.py"), originalname=name, callspec=NS(params=params),
              get_closest_marker=lambda m: object() if marked and m == "some_games" else None)


def test_a_test_that_leaves_out_a_registered_game_is_named_with_the_games_it_left_out():
    every = {"a", "b", "c"}
    items = [_item("t1", game="a"), _item("t1", game="b"),            # leaves out c
             _item("t2", variant="a"), _item("t2", variant="b"), _item("t2", variant="c"),
             _item("t3", key=("c", "draw")),                           # keyed by game first: leaves out a, b
             _item("t4", marked=True, game="a"),                       # some games, said why
             _item("t5", game="elsewhere"),                            # no registered game: not a game test
             _item("t6", seed=3)]
    assert games_left_out(items, every) == {(Path("tests/x.py"), "t1"): ["c"], (Path("tests/x.py"), "t3"): ["a", "b"]}


def test_the_games_and_their_lanes_come_from_the_registry():
    ids = [v.id for v in all_variants()]
    assert game_ids() == ids and len(ids) == 6
    params = game_params(quick=("zipai",))
    assert [p.values[0] for p in params] == ids
    assert [p.id for p in params if not p.marks] == ["zipai"]
    assert all(m.name == "slow" for p in params for m in p.marks)


def test_a_per_game_table_without_the_game_fails_naming_it():
    assert per_game({"zipai": 3}, "zipai") == 3
    with pytest.raises(AssertionError, match="no per-game value for 'jinhu'"):
        per_game({"zipai": 3}, "jinhu")
