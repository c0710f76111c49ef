"""Checks a JSON-ready value against a typed shape of :mod:`engine.protocol` (a ``TypedDict``,
or a type built of ``int``, ``str``, ``bool``, ``None``, ``list[...]``, ``dict[...]``,
``tuple[...]`` (a fixed-length list in JSON), unions, ``Literal`` and ``Any``).

``check(view, View)`` returns the problems as ``"<path>: <what>"`` lines (empty: it conforms):
a declared key missing, or a value of another type.  Keys a shape does not declare are
allowed (the shapes are open: a game may add keys of its own).  ``bool`` is not an ``int``
here, and a ``tuple`` is not a list: views and results must survive a JSON round trip.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict


def check(value: Any, shape: Any, path: str = "$") -> list[str]:
    """Problems of ``value`` against ``shape`` (empty list: it conforms)."""
    out: list[str] = []
    _check(value, shape, path, out)
    return out


def _name(shape: Any) -> str:
    return getattr(shape, "__name__", None) or str(shape).replace("typing.", "")


def _container(shape: Any) -> type | None:
    """``dict`` or ``list`` for a shape whose values are one, else ``None``."""
    if is_typeddict(shape) or get_origin(shape) is dict:
        return dict
    if get_origin(shape) in (list, tuple):
        return list
    return None


def _check(value: Any, shape: Any, path: str, out: list[str]) -> None:
    if shape is Any or shape is object:
        return
    if shape is None or shape is type(None):
        if value is not None:
            out.append(f"{path}: expected None, got {value!r:.60}")
        return
    if is_typeddict(shape):
        _check_typeddict(value, shape, path, out)
        return
    origin = get_origin(shape)
    if origin in (Union, types.UnionType):
        options = get_args(shape)
        if any(not check(value, option, path) for option in options):
            return
        alike = [o for o in options if (kind := _container(o)) is not None and isinstance(value, kind)]
        if len(alike) == 1:  # the one option of the value's kind: say what is wrong inside it
            _check(value, alike[0], path, out)
        else:
            out.append(f"{path}: expected {_name(shape)}, got {type(value).__name__} {value!r:.60}")
        return
    if origin is Literal:
        if value not in get_args(shape):
            out.append(f"{path}: expected one of {get_args(shape)}, got {value!r:.60}")
        return
    if origin is list:
        if not isinstance(value, list):
            out.append(f"{path}: expected a list, got {type(value).__name__}")
            return
        (item,) = get_args(shape) or (Any,)
        for i, x in enumerate(value):
            _check(x, item, f"{path}[{i}]", out)
        return
    if origin is dict:
        if not isinstance(value, dict):
            out.append(f"{path}: expected a dict, got {type(value).__name__}")
            return
        key, item = get_args(shape) or (Any, Any)
        for k, x in value.items():
            _check(k, key, f"{path} key {k!r}", out)
            _check(x, item, f"{path}[{k!r}]", out)
        return
    if origin is tuple:
        args = get_args(shape)
        if not isinstance(value, list):
            out.append(f"{path}: expected a list of {len(args)}, got {type(value).__name__}")
            return
        if len(args) == 2 and args[1] is Ellipsis:
            for i, x in enumerate(value):
                _check(x, args[0], f"{path}[{i}]", out)
            return
        if len(value) != len(args):
            out.append(f"{path}: expected {len(args)} items, got {len(value)}")
            return
        for i, (x, a) in enumerate(zip(value, args)):
            _check(x, a, f"{path}[{i}]", out)
        return
    if shape is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif shape is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(shape, type):
        ok = isinstance(value, shape)
    else:
        raise TypeError(f"{path}: cannot check against {shape!r}")
    if not ok:
        out.append(f"{path}: expected {_name(shape)}, got {type(value).__name__} {value!r:.60}")


def _check_typeddict(value: Any, shape: Any, path: str, out: list[str]) -> None:
    if not isinstance(value, dict):
        out.append(f"{path}: expected a dict ({shape.__name__}), got {type(value).__name__}")
        return
    hints = get_type_hints(shape)
    for key in sorted(shape.__required_keys__):
        if key not in value:
            out.append(f"{path}: {shape.__name__} key {key!r} missing")
    for key, hint in hints.items():
        if key in value:
            _check(value[key], hint, f"{path}.{key}", out)


__all__ = ["check"]
