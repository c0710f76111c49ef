"""The table service and the store are made of parts, and a part reaches another only through
what its constructor was given.

A *part* is a class of ``service/`` or ``store/`` whose constructor is given another part, the
store, the database or a clock (:data:`GIVEN`).  For each part:

* it inherits nothing of the project (no mixins: what it uses comes in its constructor);
* every ``self.x`` it reads is its own (a method, a class attribute, or set on ``self`` in
  the class);
* through what it was given it uses public names only (no ``self.tables._private``);
* it is not given the whole of its facade (a service part never gets the ``TableService``, a
  store part never the ``Store``);
* only the facades make parts (``TableService`` and ``Store``, in their constructors), so the
  constructor of a facade says which part uses which.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the facades: the one place each layer's parts are made
FACADES = {"service": "TableService", "store": "Store"}
#: what a part may be given besides another part
GIVEN = {"Store", "Database", "Clock"}


def _classes(folder: str) -> dict[str, tuple[str, ast.ClassDef]]:
    out = {}
    for path in sorted((ROOT / folder).glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                out[node.name] = (str(path.relative_to(ROOT)), node)
    return out


def _init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    return next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)


def _annotation_names(fn: ast.FunctionDef) -> dict[str, str]:
    """Constructor parameter -> the name its annotation gives (``Optional[X]``: ``X``)."""
    out = {}
    for a in fn.args.args[1:] + fn.args.kwonlyargs:
        if a.annotation is None:
            continue
        names = [n.id for n in ast.walk(a.annotation) if isinstance(n, ast.Name)]
        names += [n.value for n in ast.walk(a.annotation) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        kept = [n for n in names if n not in ("Optional", "Callable", "None")]
        if kept:
            out[a.arg] = kept[0]
    return out


def find_parts(classes: dict[str, tuple[str, ast.ClassDef]], facade: str) -> dict[str, tuple]:
    """The parts among ``classes``: ``name -> (file, class, {parameter: part or GIVEN name})``;
    a class given a part is one too."""
    found: dict[str, tuple] = {}
    grew = True
    while grew:
        grew = False
        for name, (path, cls) in classes.items():
            init = _init(cls)
            if init is None or name == facade or name in found:
                continue
            given = {p: t for p, t in _annotation_names(init).items() if t in found or t in GIVEN}
            if given:
                found[name] = (path, cls, given)
                grew = True
    for name, (path, cls, _) in list(found.items()):  # what each was given, among all the parts
        found[name] = (path, cls, {p: t for p, t in _annotation_names(_init(cls)).items()
                                   if t in found or t in GIVEN or t == facade})
    return found


def part_problems(classes: dict[str, tuple[str, ast.ClassDef]], facade: str) -> list[str]:
    """What breaks the rules of the module docstring, as ``file: class: what``."""
    parts = find_parts(classes, facade)
    problems = []
    for name, (path, cls, given) in sorted(parts.items()):
        where = f"{path}: {name}"
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in classes:
                problems.append(f"{where}: inherits {base.id}")
        if facade in given.values():
            problems.append(f"{where}: is given the {facade}")
        own = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        own |= {t.id for n in cls.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
        own |= {n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                and isinstance(n.value, ast.Name) and n.value.id == "self"}
        handed = {n.targets[0].attr for n in ast.walk(_init(cls)) if isinstance(n, ast.Assign)
                  and isinstance(n.targets[0], ast.Attribute) and isinstance(n.value, ast.Name)
                  and n.value.id in given}
        for node in ast.walk(cls):
            if not isinstance(node, ast.Attribute):
                continue
            if isinstance(node.value, ast.Name) and node.value.id == "self" and node.attr not in own:
                problems.append(f"{where}: reads self.{node.attr}, which is not its own")
            inner = node.value
            if (isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self"
                    and inner.attr in handed and node.attr.startswith("_")):
                problems.append(f"{where}: reaches self.{inner.attr}.{node.attr}")
    for name, (path, cls) in classes.items():
        for node in ast.walk(cls):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in parts
                    and name != facade):
                problems.append(f"{path}: {name}: makes a {node.func.id} (only the {facade} makes parts)")
    return sorted(set(problems))


def _parts_of(folder: str) -> set[str]:
    return set(find_parts(_classes(folder), FACADES[folder]))


def test_the_service_is_made_of_parts():
    assert _parts_of("service") >= {"OpenTables", "Publisher", "Seats", "Hands", "Lobby", "Timers", "Restore",
                                    "FrontEnds", "Langs"}
    assert part_problems(_classes("service"), "TableService") == []


def test_the_store_is_made_of_parts():
    assert _parts_of("store") >= {"Tables", "Hands", "Matches", "Streaks", "Scores", "Guilds", "RoutedActions",
                                  "NamedValues", "Langs", "Migrations"}
    assert part_problems(_classes("store"), "Store") == []


def test_the_check_sees_a_part_reaching_in():
    src = '''
class Facade:
    def __init__(self, db: Database):
        self.a = A(db)
        self.b = B(self.a)

class Database:
    pass

class A:
    def __init__(self, db: Database):
        self.db = db
        self._secret = 1

class Mixin:
    pass

class B(Mixin):
    def __init__(self, a: A, facade: Facade):
        self.a = a
        self.facade = facade

    def run(self):
        self.a._secret += self.helper() + self.inherited()
        return A(self.a.db)

    def helper(self):
        return 1
'''
    classes = {n.name: ("x.py", n) for n in ast.parse(src).body if isinstance(n, ast.ClassDef)}
    assert part_problems(classes, "Facade") == [
        "x.py: B: inherits Mixin",
        "x.py: B: is given the Facade",
        "x.py: B: makes a A (only the Facade makes parts)",
        "x.py: B: reaches self.a._secret",
        "x.py: B: reads self.inherited, which is not its own",
    ]
