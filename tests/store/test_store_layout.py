"""The persistence layer keeps its shape: ``store/`` is modules of one job each (none over 700
lines) and imports nothing of the layers above it (the service, the Discord cogs, the
renderer) nor Discord or Pillow; the database has one home (``service/`` holds no store,
models or migrations any more).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STORE = ROOT / "store"
MAX_LINES = 700
FORBIDDEN = ("service", "cogs", "render", "local", "bot", "terminal", "discord", "PIL")


def _store_files() -> list[Path]:
    return sorted(p for p in STORE.rglob("*.py") if "__pycache__" not in p.parts)


def _imported_roots(path: Path) -> set[str]:
    """Top-level names of the absolute imports of a file (relative ones stay in the package)."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_store_module_is_over_700_lines():
    files = _store_files()
    assert {"__init__.py", "database.py", "tables.py", "hands.py", "scores.py"} <= {p.name for p in files}
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in files}
    assert {f: n for f, n in sizes.items() if n > MAX_LINES} == {}


def test_no_store_file_imports_an_upper_layer_discord_or_pillow():
    """Every file, the Alembic environment and revisions included."""
    bad = {}
    for path in _store_files():
        found = sorted(_imported_roots(path) & set(FORBIDDEN))
        if found:
            bad[str(path.relative_to(ROOT))] = found
    assert bad == {}


def test_importing_the_store_loads_no_upper_layer_discord_or_pillow():
    """In a fresh interpreter: the store and all its modules, and what they pull in."""
    modules = ["store"] + [f"store.{p.stem}" for p in sorted(STORE.glob("*.py")) if p.stem != "__init__"]
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert set(modules) <= set(loaded)
    assert sorted(m for m in loaded if m.split(".")[0] in FORBIDDEN) == []


def test_the_database_has_one_home():
    assert not (ROOT / "service" / "store.py").exists()
    assert not (ROOT / "service" / "models.py").exists()
    assert not list((ROOT / "service" / "migrations").rglob("*.py"))  # a left-over __pycache__ is no home
    assert (STORE / "migrations" / "alembic.ini").is_file()
