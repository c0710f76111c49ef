"""At run time, the front ends never touch what the table service owns.

While :func:`guarded` is active (every fake-Discord test: ``FakeDiscord`` enters it), reading
or writing an attribute of a ``service.table.Table`` — its lock and its hand among them — or
calling a method of an engine hand, from code in ``cogs/``, ``local/`` or ``render/`` raises
:class:`FrontEndReachedIn`; so does a published change that holds a ``Table``, an engine hand
or a lock anywhere inside it (:func:`check_published`, a listener the guard adds to every
service it is given).  The front ends read snapshots (``service/snapshot.py``) only.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import os
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
#: the front ends' folders
FRONT_ENDS = tuple(str(ROOT / d) + os.sep for d in ("cogs", "local", "render"))
#: the engine hand's methods a front end might call
HAND_METHODS = ("view", "public_frame", "apply", "legal_actions", "pending_seats", "is_over", "timeout_action",
                "timer_kind", "ai_action", "win_offered")


class FrontEndReachedIn(AssertionError):
    """A front end touched the service's table, its lock or its hand."""


#: every violation found while guarded (the bot may catch and log what it raises: the fake
#: Discord reports these as problems of the interaction or the settle that saw them)
VIOLATIONS: list[str] = []


def _violation(text: str) -> FrontEndReachedIn:
    VIOLATIONS.append(text)
    return FrontEndReachedIn(text)


def _front(frame) -> bool:
    return frame is not None and frame.f_code.co_filename.startswith(FRONT_ENDS)


def _where(frame) -> str:
    return f"{os.path.relpath(frame.f_code.co_filename, ROOT)}:{frame.f_lineno}"


def _hand_classes() -> list[type]:
    from engine.frames import PublicFrames

    out, todo = [], [PublicFrames]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in out:
                out.append(sub)
                todo.append(sub)
    return out


_depth = 0
_undo: list = []


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Make a front end's touch of a ``Table`` or an engine hand raise, for the ``with`` block
    (re-entrant: the outermost block installs and removes the guard)."""
    global _depth
    _depth += 1
    if _depth == 1:
        _install()
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            while _undo:
                cls, name, old = _undo.pop()
                if old is None:
                    delattr(cls, name)
                else:
                    setattr(cls, name, old)


def _install() -> None:
    from service.table import Table

    def get(self, name):
        frame = sys._getframe(1)
        if _front(frame):
            raise _violation(f"{_where(frame)} reads Table.{name}: the front ends read snapshots only")
        return object.__getattribute__(self, name)

    def put(self, name, value):
        frame = sys._getframe(1)
        if _front(frame):
            raise _violation(f"{_where(frame)} writes Table.{name}: only the service changes a table")
        object.__setattr__(self, name, value)

    for name, fn in (("__getattribute__", get), ("__setattr__", put)):
        _undo.append((Table, name, Table.__dict__.get(name)))
        setattr(Table, name, fn)
    for cls in _hand_classes():
        for name in HAND_METHODS:
            own = cls.__dict__.get(name)
            method = own if own is not None else getattr(cls, name, None)  # a mixin's method
            if method is None or not callable(method) or getattr(method, "guarded", False):
                continue
            _undo.append((cls, name, own))
            setattr(cls, name, _guard_method(cls, name, method))


def _guard_method(cls: type, name: str, method):
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        frame = sys._getframe(1)
        if _front(frame):
            raise _violation(f"{_where(frame)} calls {cls.__name__}.{name}: the front ends read snapshots only")
        return method(self, *args, **kwargs)

    call.guarded = True
    return call


def forbidden_inside(value: Any, path: str = "change", seen: set | None = None) -> list[str]:
    """Where a ``Table``, an engine hand or an ``asyncio.Lock`` is reachable from ``value``
    (through dataclass fields, mappings, sequences and sets)."""
    from engine.frames import PublicFrames
    from service.table import Table

    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, (str, bytes, int, float, bool, type(None))):
        return []
    seen.add(id(value))
    if isinstance(value, (Table, PublicFrames, asyncio.Lock)):
        return [f"{path}: {type(value).__name__}"]
    found: list[str] = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += forbidden_inside(getattr(value, f.name), f"{path}.{f.name}", seen)
    elif isinstance(value, dict):
        for k, v in value.items():
            found += forbidden_inside(v, f"{path}[{k!r}]", seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for i, v in enumerate(value):
            found += forbidden_inside(v, f"{path}[{i}]", seen)
    elif hasattr(value, "__dict__") and type(value).__module__.startswith(("service", "cogs", "engine")):
        for k, v in vars(value).items():
            found += forbidden_inside(v, f"{path}.{k}", seen)
    return found


async def check_published(change) -> None:
    """A listener for the table service: every published change holds no ``Table``, engine
    hand or lock, and its snapshot cannot be changed."""
    found = forbidden_inside(change)
    if found:
        raise _violation(f"a published change holds what the service owns: {found[:3]}")
    snap = change.snapshot
    for target, name in ((snap, "version"), (snap.public, "view")):
        try:
            setattr(target, name, None)
        except (dataclasses.FrozenInstanceError, AttributeError):
            continue
        raise _violation(f"a snapshot's {type(target).__name__}.{name} could be assigned")
    try:
        snap.public.view["turn"] = None  # type: ignore[index]
    except TypeError:
        pass
    else:
        raise _violation("a snapshot's public view could be changed")


__all__ = ["VIOLATIONS", "FrontEndReachedIn", "guarded", "forbidden_inside", "check_published", "FRONT_ENDS"]
