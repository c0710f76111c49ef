"""The engine is pure (project rule): importing every engine module pulls in no Discord,
database, imaging or asyncio module, and no engine module draws from the global
``random`` generator (randomness only through a ``random.Random(seed)`` instance).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
_GREP = re.compile(r"(?<![\w.])random\.(random|shuffle|choice|choices|randint|randrange|seed|sample|"
                   r"uniform|getrandbits|gauss)\(")
FORBIDDEN = ("discord", "sqlmodel", "sqlalchemy", "aiosqlite", "PIL", "asyncio")


def _engine_modules() -> list[str]:
    mods = []
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods.append(".".join(parts))
    return mods


def test_engine_imports_nothing_impure():
    modules = _engine_modules()
    assert "engine.mahjong" in modules and "engine.variants.two_player" in modules
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert set(modules) <= set(loaded)
    bad = sorted(m for m in loaded if m.split(".")[0] in FORBIDDEN)
    assert bad == []


class _GlobalRandomUse(ast.NodeVisitor):
    """Finds ``random.<name>(...)`` calls other than ``random.Random(...)`` and
    ``from random import <function>`` imports."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "random" \
                and f.attr not in ("Random",):
            self.found.append(f"line {node.lineno}: random.{f.attr}(...)")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module == "random":
            for alias in node.names:
                if alias.name != "Random":
                    self.found.append(f"line {node.lineno}: from random import {alias.name}")
        self.generic_visit(node)


def test_engine_never_uses_the_global_random_generator():
    offenders = {}
    for path in sorted(ENGINE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        finder = _GlobalRandomUse()
        finder.visit(ast.parse(text, filename=str(path)))
        # plain-text grep as well (module-level generator functions, outside comments)
        for no, line in enumerate(text.splitlines(), 1):
            if _GREP.search(line.split("#", 1)[0]):
                finder.found.append(f"line {no}: {line.strip()}")
        if finder.found:
            offenders[str(path.relative_to(ROOT))] = finder.found
    assert offenders == {}, json.dumps(offenders, ensure_ascii=False, indent=1)


def test_engine_has_no_clock():
    # a hand is a function of (options, seed, actions): no wall-clock reads in the engine
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(n.split(".")[0] in ("time", "datetime") for n in names):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
