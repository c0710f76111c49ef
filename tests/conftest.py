"""Shared helpers of the engine tests: stacked walls, snapshots, action scripts.

``stacked_hand`` builds a ``two_player`` hand whose deal, front draws and back draws
(flower and kong replacements) are fixed, through the ``context["stacked"]`` hook of
``engine.mahjong.MahjongHand`` (``docs/rules/two_player.md`` set-up, laid out for tests).
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from pathlib import Path

#: harness modules whose checks are asserts: rewritten like the tests' (their failures say the
#: values, and they count as the tests' assertions)
pytest.register_assert_rewrite("two_player_deals")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from any directory, with or without a pytest.ini
    sys.path.insert(0, str(ROOT))

from engine.actions import Action
from engine.tiles import kinds_str, parse_kinds

#: the 16 non-flower kinds of two_player: 1m..9m, 1z..7z
NON_FLOWER_KINDS = tuple(range(9)) + tuple(range(27, 34))


def kinds(spec) -> list[int]:
    """``"123m55z"`` or a list of kinds -> list of kinds."""
    if isinstance(spec, str):
        return parse_kinds(spec) if spec else []
    return list(spec)


def default_options(**given) -> dict:
    """Resolved two_player options (defaults: min_fan 15, base_points 1)."""
    from engine.variants import find_variant  # imported on use: other test files need no engine

    return find_variant("two_player").resolve_options(given)


def stacked_hand(hands, draws="", back="", *, dealer: int = 0, treasure=None, streak: int = 0,
                 seed: int = 7, options: dict | None = None):
    """A ``TwoPlayerHand`` with a fixed deal.

    :param hands: ``[seat 0, seat 1]`` as notation strings or kind lists (the dealer's has 14).
    :param draws: kinds drawn from the front after the deal, in order.
    :param back: kinds drawn from the back (flower / kong replacements), in order.
    :param treasure: the 宝牌 kind (notation or kind); by default the first non-flower kind
        that appears in none of ``hands``, ``draws``, ``back`` (so it multiplies nothing);
        ``ValueError`` if there is none.
    :param streak: hands the dealer kept before this one (``dealer_streak``).
    """
    from engine.variants.two_player import TwoPlayerHand

    hs = [kinds(h) for h in hands]
    dr, bk = kinds(draws), kinds(back)
    if treasure is None:
        used = set(hs[0]) | set(hs[1]) | set(dr) | set(bk)
        free = [k for k in NON_FLOWER_KINDS if k not in used]
        if not free:
            raise ValueError("every kind is used: pass treasure= explicitly")
        treasure = free[0]
    elif isinstance(treasure, str):
        treasure = kinds(treasure)[0]
    ctx = {"stacked": {"hands": hs, "draws": dr, "back": bk}, "treasure": treasure,
           "dealer_streak": streak}
    return TwoPlayerHand(options or default_options(), seed, dealer, ctx)


def act(hand, *lines: str) -> None:
    """Apply actions given in the action-log text form (``"0 discard 5m"``)."""
    for line in lines:
        hand.apply(Action.parse(line))


def legal(hand, seat: int) -> set[str]:
    """The seat's legal actions as text (``{"0 discard 5m", "0 hu", ...}``)."""
    return {str(a) for a in hand.legal_actions(seat)}


def snapshot(hand) -> str:
    """Everything observable of a hand (every view and the action counter), as text."""
    views = [hand.view(0), hand.view(1), hand.view(None)]
    return json.dumps([hand.seq, views, [e.to_json() for e in hand.events]], sort_keys=True,
                      ensure_ascii=False, default=str)


def concealed(hand, seat: int) -> str:
    """The seat's concealed kinds, sorted, as compact notation (``"123m55z"``)."""
    return kinds_str(sorted(hand.concealed_kinds(seat)))


@pytest.fixture
def strong_is_normal():
    """财神麻将 (``caishen``) as a game without a strong AI of its own: its ``strong`` level set
    to its ``normal`` move for the test (the case of a game added before its strong AI).
    Yields the game's ``VariantInfo``."""
    from engine.ai_levels import ai_levels
    from engine.variants import find_variant

    info = find_variant("caishen")
    kept = info.ai_levels
    object.__setattr__(info, "ai_levels", ai_levels(kept["normal"], easy=kept["easy"]))
    yield info
    object.__setattr__(info, "ai_levels", kept)


# --- the PostgreSQL tests (marker ``postgres``, ``tests/harness/postgres.py``) ---------------
@pytest.hookimpl(trylast=True)  # after -m/-k have chosen: only the tests that would have run
def pytest_collection_modifyitems(config, items):
    """Without a PostgreSQL server (and without ``TEST_REQUIRE_POSTGRES``), the tests marked
    ``postgres`` are left out of the run: counted as deselected, and the count and the reason
    said at the end of the run."""
    # the tests that run for minutes go first, so that the other workers fill in beside them
    items.sort(key=lambda item: item.get_closest_marker("lengthy") is None)
    marked = [item for item in items if item.get_closest_marker("postgres")]
    if not marked:
        return
    from postgres import required, unreachable_reason

    if required():
        return
    why = unreachable_reason()
    if why is None:
        return
    config._postgres_left_out = (len(marked), why)
    config.hook.pytest_deselected(items=marked)
    items[:] = [item for item in items if not item.get_closest_marker("postgres")]
    if hasattr(config, "workeroutput"):  # a pytest-xdist worker: told to the controller
        config.workeroutput["postgres_left_out"] = config._postgres_left_out


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core and one more — many tests wait (SQLite's fsync, the fake
    Discord's simulated latency), and the extra worker runs while they do — and, when the slow
    tests run, one more for the two crash loops, which mostly wait on their bot processes
    (measured on 2 cores: the whole suite 7 min 13 s with three workers, 6 min 18 s with four)."""
    quick = "not slow" in (config.getoption("markexpr", "") or "")
    return (os.cpu_count() or 1) + (1 if quick else 2)


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        class _LeftOut:
            @staticmethod
            def pytest_testnodedown(node, error):
                found = getattr(node, "workeroutput", {}).get("postgres_left_out")
                if found is not None:
                    config._postgres_left_out = tuple(found)

        config.pluginmanager.register(_LeftOut(), "postgres-left-out")
    config.pluginmanager.register(_EveryGame(), "every-game")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """How many PostgreSQL tests did not run, and why."""
    found = getattr(config, "_postgres_left_out", None)
    if found is not None and not hasattr(config, "workeroutput"):
        n, why = found
        terminalreporter.write_line(f"{n} PostgreSQL tests not run (marker postgres, deselected): {why}; "
                                    f"or TEST_REQUIRE_POSTGRES=1 to make this a failure")


# ------------------------------------------------------------------ the images never look a game up
RENDER_DIR = str(ROOT / "render") + "/"


@pytest.fixture(autouse=True)
def no_game_lookup_in_render(monkeypatch):
    """In every test, the game registry's look-ups (``find_variant``, ``all_variants``) raise
    when code under ``render/`` calls them: the images and the words take a game's facts from
    the snapshot (``view["game"]``), resolved once by the service."""
    import engine.variants as registry

    for name in ("find_variant", "all_variants"):
        real = getattr(registry, name)

        def guarded(*args, _real=real, _name=name, **kwargs):
            frame = sys._getframe(1)
            if frame.f_code.co_filename.startswith(RENDER_DIR):
                raise AssertionError(f"{frame.f_code.co_filename}:{frame.f_lineno} looks a game up ({_name})")
            return _real(*args, **kwargs)

        monkeypatch.setattr(registry, name, guarded)


# ------------------------------------------------------------ cross-game tests cover every game
class _EveryGame:
    """Cross-game tests cover every game: a plugin of its own (``tests/conftest.py`` has its one
    ``pytest_collection_modifyitems`` for the PostgreSQL tests)."""

    @staticmethod
    @pytest.hookimpl(tryfirst=True)  # before -m/-k deselect: every parameter collected is seen
    def pytest_collection_modifyitems(config, items):
        """A test parametrized by game runs every registered game (``engine.variants``), so a game
        added to the registry gets every cross-game check; a test meant for some games only says so
        with ``@pytest.mark.some_games("why")`` (tests of one game live in ``tests/games/<game>/``).
        Not checked when node ids were chosen on the command line."""
        if any("::" in str(a) for a in config.args):
            return
        from games import game_ids, games_left_out

        short = [f"{path.relative_to(ROOT)}::{name}: {missing}"
                 for (path, name), missing in games_left_out(items, set(game_ids())).items()]
        if short:
            raise pytest.UsageError("tests parametrized by game that leave out registered games "
                                    "(take the games from engine.variants, or mark some_games):\n  "
                                    + "\n  ".join(short))
