"""The project keeps its layers: the Discord front end uses discord.py's public API only,
cogs talk to the service and never to the store, no game is named outside the engine and the
data (but the default game), and only the play verbs and ``/mj`` are top-level commands."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

from engine.variants import all_variants

ROOT = Path(__file__).resolve().parents[1]
#: the project's own code (the tests and the virtual environment are not)
CODE_DIRS = ("cogs", "engine", "local", "render", "service", "store", "bench")
DEFAULT_GAME = "two_player"
PRIVATE_DISCORD = re.compile(r"\._connection\b|_view_store\b|\bfrom_state\b")


def project_files(*dirs: str) -> list[Path]:
    files = [ROOT / "bot.py"] if not dirs else []
    for d in dirs or CODE_DIRS:
        files += sorted(p for p in (ROOT / d).rglob("*.py") if "__pycache__" not in p.parts)
    return files


def test_no_private_discord_state_in_project_code():
    """``Client._connection``, the view store and ``Webhook.from_state`` are discord.py's
    internals: unknown buttons go to a ``DynamicItem``, forwarded clicks use
    ``Webhook.partial``."""
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in project_files()
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if PRIVATE_DISCORD.search(line)]
    assert found == []


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


def test_cogs_never_reach_the_store():
    """No cog imports the store (``store``, or the service's re-exports of it) nor reads
    ``bot.store`` / ``client.store``: cogs talk to the service only."""
    bad = {}
    for path in project_files("cogs"):
        mods = {m for m in _imports(path) if m == "store" or m.startswith(("store.", "sqlalchemy", "sqlmodel"))}
        text = path.read_text(encoding="utf-8")
        reads = re.findall(r"\b(?:bot|client|self\.bot)\.store\b", text)
        if mods or reads:
            bad[str(path.relative_to(ROOT))] = sorted(mods) + reads
    assert bad == {}


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def game_id_literals(paths: list[Path], ids: set[str]) -> list[str]:
    """Every string constant (docstrings aside) equal to a game id, as ``file:line: id``."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ids \
                    and id(node) not in docs:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value}")
    return found


def test_no_game_id_literal_outside_the_engine_and_the_data():
    """Front ends, service, store and renderer decide by what a game declares, not by its
    name; only the default game is named (the game a new table plays).  The benchmarks,
    like the tests, measure named games and are not looked at."""
    ids = {v.id for v in all_variants()} - {DEFAULT_GAME}
    assert len(ids) >= 5
    paths = [ROOT / "bot.py"] + project_files("cogs", "local", "render", "service", "store")
    assert game_id_literals(paths, ids) == []


def test_the_finder_sees_a_game_id_literal(tmp_path):
    """The check above finds what it looks for (a file naming a game in a comparison)."""
    probe = ROOT / "render" / "_probe_game_id.py"
    try:
        probe.write_text('"""docstring naming zipai"""\nif view["variant"] == "zipai":\n    pass\n', encoding="utf-8")
        assert game_id_literals([probe], {"zipai"}) == ["render/_probe_game_id.py:2: zipai"]
    finally:
        probe.unlink()


def test_top_level_commands_are_the_play_verbs_and_mj():
    """One short word for each move; everything else is grouped under ``/mj`` (no generic
    top-level name such as ``/score``, ``/rules``, ``/config``, ``/hand`` or ``/help``)."""
    from bot import COGS, make_bot

    async def names():
        bot = make_bot("sqlite:///:memory:", timer_interval=0)
        for c in COGS:
            await bot.load_extension(c)
        top = sorted(c.name for c in bot.tree.get_commands())
        mj = bot.tree.get_command("mj")
        subs = sorted(c.qualified_name for c in mj.walk_commands())
        leaves = sorted(c.qualified_name for c in bot.tree.walk_commands() if not hasattr(c, "walk_commands"))
        await bot.store.close()
        return top, subs, leaves

    top, subs, leaves = asyncio.run(names())
    # the README's command table lists every command
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(leaves) == 33
    assert [c for c in leaves if f"| `/{c}" not in readme] == []
    assert top == ["act", "chow", "discard", "double", "hu", "kong", "mj", "pass", "pung", "ting"]
    assert {"mj table", "mj table create", "mj table join", "mj table add-ai", "mj table start", "mj table replace",
            "mj table end", "mj table show", "mj hand", "mj score", "mj leaderboard", "mj history", "mj replay",
            "mj verify", "mj rules", "mj help", "mj standings", "mj config", "mj config default", "mj config server",
            "mj config show"} <= set(subs)
