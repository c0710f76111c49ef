"""The suite's own PostgreSQL selection (``tests/conftest.py``): the hook that leaves the
``postgres`` tests out without a server runs after ``-m``/``-k`` have chosen, so the number it
reports is of the tests the run would have played."""

from __future__ import annotations

import conftest


def test_the_collection_hook_runs_after_m_and_k():
    impl = getattr(conftest.pytest_collection_modifyitems, "pytest_impl", None)
    assert impl is not None and impl.get("trylast") is True
    # and no fixture took the hook's marker instead
    assert not hasattr(conftest.strong_is_normal, "pytest_impl")
