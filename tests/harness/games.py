"""The games a cross-game test runs, taken from the registry (``engine.variants``), so a game
added there gets every cross-game check.  A test's own table of per-game values (a seed that
reaches a situation, a seating) is looked up with :func:`per_game`, which fails loudly for a
game the table lacks instead of leaving it out."""

from __future__ import annotations

import pytest

from engine.variants import all_variants, find_variant


def game_ids() -> list[str]:
    """Every registered game's id, in the registry's order."""
    return [v.id for v in all_variants()]


def game_params(quick: tuple[str, ...] = ()) -> list:
    """Every registered game as a ``pytest.param``; those not in ``quick`` are marked ``slow``
    (the quick lane runs ``quick``; a whole-hand test keeps one or two games there)."""
    return [pytest.param(g, id=g, marks=[] if g in quick else [pytest.mark.slow]) for g in game_ids()]


def fewest_seats(game: str) -> int:
    """The fewest seats a table of ``game`` starts with (``VariantInfo.min_players``)."""
    return find_variant(game).min_players


def per_game(table: dict, game: str):
    """``table[game]``, or a failure naming the table's missing game (a new game must be given
    its values, not skipped).

    :raises AssertionError: ``game`` is not in ``table``."""
    assert game in table, f"no per-game value for {game!r} (has {sorted(table)}): add one"
    return table[game]


#: the parameters that name the game a test runs
GAME_PARAMS = ("game", "variant")


def game_of(item) -> str | None:
    """The game a collected test runs, or None: its ``game``/``variant`` parameter, or the first
    element of a ``key`` tuple (the scenario and twin tables are keyed by game first)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    for name in GAME_PARAMS:
        if isinstance(params.get(name), str):
            return params[name]
    key = params.get("key")
    if isinstance(key, tuple) and key and isinstance(key[0], str):
        return key[0]
    return None


def games_left_out(items, every: set[str]) -> dict[tuple, list[str]]:
    """The registered games each test function parametrized by game leaves out.

    :param items: collected tests (``path``, ``originalname``, ``callspec``,
        ``get_closest_marker``); those marked ``some_games`` are not counted.
    :param every: the registered games' ids.
    :returns: ``{(path, function name): sorted ids left out}`` for each function that runs a
        registered game but not all of them."""
    seen: dict[tuple, set[str]] = {}
    for item in items:
        game = game_of(item)
        if game is None or item.get_closest_marker("some_games"):
            continue
        seen.setdefault((item.path, item.originalname), set()).add(game)
    return {k: sorted(every - games) for k, games in seen.items() if games & every and not every <= games}
