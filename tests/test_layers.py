"""The project keeps its layers: the Discord front end uses discord.py's public API only,
cogs talk to the service and never to the store, no game is named outside the engine and the
data (but the default game), and only the play verbs and ``/mj`` are top-level commands."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

import pytest

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
    assert len(leaves) == 38
    assert [c for c in leaves if f"| `/{c}" not in readme] == []
    assert top == ["act", "chow", "discard", "double", "hu", "kong", "mj", "pass", "pung", "ting"]
    assert {"mj table", "mj table create", "mj table join", "mj table add-ai", "mj table start", "mj table replace",
            "mj table end", "mj table show", "mj hand", "mj score", "mj leaderboard", "mj history", "mj replay",
            "mj verify", "mj rules", "mj help", "mj standings", "mj config", "mj config default", "mj config server",
            "mj config show", "mj profile", "mj profile-hide"} <= set(subs)


# ------------------------------------------------------------------ the service's table stays in service/
FRONT_ENDS = ("cogs", "local", "render")
#: what only the service may hold: its table (with its lock and hand) and its seats
SERVICE_OWNED = {"Table", "Seat"}


def _imported_names(path: Path) -> set[tuple[str, str]]:
    """``(module, name)`` of every ``from module import name`` (and ``(module, "")`` of every
    ``import module``) in a file, relative imports resolved against its folder."""
    out = set()
    pkg = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {(a.name, "") for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                mod = ".".join([*base, mod] if mod else base)
            out |= {(mod, a.name) for a in node.names}
    return out


def service_table_imports(paths: list[Path]) -> list[str]:
    """Every import of the service's table module, or of ``Table``/``Seat`` from the service,
    as ``file: module.name``."""
    found = []
    for path in paths:
        for mod, name in _imported_names(path):
            if mod == "service.table" or (mod.startswith("service") and name in SERVICE_OWNED):
                found.append(f"{path.relative_to(ROOT)}: {mod}.{name}")
    return sorted(found)


def test_front_ends_never_import_the_services_table():
    """``cogs/``, ``local/`` and ``render/`` get snapshots (``service/snapshot.py``), never the
    service's ``Table`` or ``Seat``, nor the module that defines them."""
    assert service_table_imports(project_files(*FRONT_ENDS)) == []


def test_the_import_check_sees_an_import_of_the_table(tmp_path):
    """The check above finds what it looks for (a front-end file importing ``Table``)."""
    probe = ROOT / "cogs" / "_probe_table_import.py"
    try:
        probe.write_text("from service.tables import Table\nfrom service.table import ServiceError\n", encoding="utf-8")
        assert service_table_imports([probe]) == ["cogs/_probe_table_import.py: service.table.ServiceError",
                                                  "cogs/_probe_table_import.py: service.tables.Table"]
    finally:
        probe.unlink()


def test_the_run_time_guard_catches_a_front_end_touching_the_table():
    """While guarded (every fake-Discord test is), code under ``cogs/`` that reads a table's
    hand or lock, writes a table, or calls an engine hand raises — and is recorded for the
    fake to report even when the bot catches it; the service's own code is not hindered."""
    import importlib

    from layer_guard import VIOLATIONS, FrontEndReachedIn, guarded
    from engine.variants import find_variant
    from service.table import Seat, Table

    info = find_variant(DEFAULT_GAME)
    table = Table(1, 2, 3, 4, info, info.resolve_options({}), 5, seats=[Seat(4, "a"), Seat(None, "AI", True)])
    hand = info.new_hand(table.options, 5, 0, 2)
    table.hand = hand
    probe = ROOT / "cogs" / "_probe_guard.py"
    probe.write_text("def read(t):\n    return t.hand\n\ndef lock(t):\n    return t.lock\n\n"
                     "def write(t):\n    t.channel_name = 'x'\n\ndef call(h):\n    return h.view(0)\n",
                     encoding="utf-8")
    try:
        mod = importlib.import_module("cogs._probe_guard")
        before = len(VIOLATIONS)
        with guarded():
            assert table.hand is hand and table.seat_of(4) == 0  # the service's (and the tests') reads
            for fn, arg in ((mod.read, table), (mod.lock, table), (mod.write, table), (mod.call, hand)):
                with pytest.raises(FrontEndReachedIn):
                    fn(arg)
        assert len(VIOLATIONS) == before + 4
        assert mod.read(table) is hand  # outside the guard nothing is hindered
        del VIOLATIONS[before:]
    finally:
        probe.unlink()
        import sys

        sys.modules.pop("cogs._probe_guard", None)


def test_a_published_change_holds_nothing_the_service_owns_and_cannot_be_changed():
    """A walk of everything reachable from a published change finds no ``Table``, engine hand
    or lock (and the walk finds one planted in it); a snapshot's fields and views refuse
    assignment."""
    import asyncio as aio
    import dataclasses

    from layer_guard import VIOLATIONS, FrontEndReachedIn, check_published, forbidden_inside
    from service.clock import ManualClock
    from service.tables import TableService
    from store import Store

    async def play() -> list:
        store = Store("sqlite:///:memory:")
        await store.init()
        service = TableService(store, ManualClock(), seed_source=lambda: 3)
        changes: list = []

        async def keep(change):
            changes.append(change)

        service.listeners.append(keep)
        await service.create_table(guild_id=1, channel_id=2, user_id=10, name="a", variant=DEFAULT_GAME)
        await service.join(2, 11, "b")
        await service.start(2, 10)
        t = service.table_in(2)
        for _ in range(6):
            seat = t.hand.pending_seats()[0]
            a = t.hand.timeout_action(seat)
            await service.act(2, t.seats[seat].user_id, a.type, a.kind)
        await store.close()
        return changes, t

    changes, table = aio.run(play())
    assert len(changes) >= 9
    before = len(VIOLATIONS)
    for change in changes:
        assert forbidden_inside(change) == []
        aio.run(check_published(change))
    assert len(VIOLATIONS) == before
    snap = changes[-1].snapshot
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.version = 0
    with pytest.raises(TypeError):
        snap.public.view["turn"] = 1
    with pytest.raises((TypeError, AttributeError)):
        snap.parts[0].view["me"]["hand"].append("1m")
    planted = dataclasses.replace(changes[-1], events=(table,))
    assert forbidden_inside(planted) == ["change.events[0]: Table"]
    with pytest.raises(FrontEndReachedIn):
        aio.run(check_published(planted))
    del VIOLATIONS[before:]


# ------------------------------------------------------------------ module sizes and import cycles
MAX_PRODUCT_LINES = 700
MAX_TEST_LINES = 800


def test_modules_are_small():
    """Product modules stay under 700 lines and test modules under 800: a module that outgrows
    that holds more than one thing."""
    product = [p for p in project_files() if "migrations" not in p.parts]  # generated migrations aside
    tests = sorted(p for p in (ROOT / "tests").rglob("*.py") if "__pycache__" not in p.parts)
    assert len(product) > 100 and len(tests) > 80  # the walk found the project
    over = [f"{p.relative_to(ROOT)}: {n}" for p, n, limit in
            [(p, len(p.read_text(encoding="utf-8").splitlines()), MAX_PRODUCT_LINES) for p in product] +
            [(p, len(p.read_text(encoding="utf-8").splitlines()), MAX_TEST_LINES) for p in tests]
            if n > limit]
    assert over == []


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def module_imports(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports when it is imported: its module-level imports (an
    import inside a function runs later and closes no cycle), ``from . import x`` resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If):  # TYPE_CHECKING blocks do not run
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of ``graph`` (module -> modules it imports): each strongly connected group of
    more than one module, sorted (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_no_import_cycles():
    files = [p for p in project_files() if "migrations" not in p.parts]
    known = {module_name(p) for p in files}
    graph = {module_name(p): module_imports(p, known) for p in files}
    assert sum(len(v) for v in graph.values()) > 300  # the imports were read
    assert import_cycles(graph) == []


def test_the_cycle_check_sees_a_cycle(tmp_path):
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .x import f\n")
    (pkg / "x.py").write_text("from . import y\n\ndef f():\n    from pkg import z\n")
    (pkg / "y.py").write_text("import pkg.x\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        known = {"pkg", "pkg.x", "pkg.y", "pkg.z"}
        assert module_imports(pkg / "__init__.py", known) == {"pkg.x"}
        assert module_imports(pkg / "x.py", known) == {"pkg", "pkg.y"}  # the import in f runs later
        assert module_imports(pkg / "y.py", known) == {"pkg.x"}
    finally:
        ROOT = saved
