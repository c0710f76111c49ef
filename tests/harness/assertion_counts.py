"""Passed assertions per test, written as JSON.

    ASSERTION_COUNTS_OUT=counts.json PYTHONDONTWRITEBYTECODE=1 \
        python -m pytest -p assertion_counts -o enable_assertion_pass_hook=true -p no:cacheprovider

Every test that ran is a key of the output, ``{nodeid: passed assertions}`` (``int``, 0 for
a test without one or skipped before its first), sorted by node id.  An assertion counts
toward the test whose setup, call or teardown it passed in, fixtures' assertions included.
Only assertions in rewritten modules are seen: test modules, ``conftest.py`` files and the
modules registered for rewriting.

With ``-n N`` each worker writes ``<path>.<worker id>`` and the controller merges those of
its workers into ``<path>`` at the end of the session (and removes them).

A rewritten module cached before the hook was enabled calls no hook: clear the tests'
``__pycache__/*-pytest-*.pyc`` first, and set ``PYTHONDONTWRITEBYTECODE=1`` so that no run
without the hook caches one.

:raises pytest.UsageError: ``enable_assertion_pass_hook`` is off while
    ``ASSERTION_COUNTS_OUT`` is set.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ENV = "ASSERTION_COUNTS_OUT"


class AssertionCounts:
    """The counts of one pytest process (a worker, the controller or a run without workers)."""

    def __init__(self, config: pytest.Config, out: Path):
        self.config = config
        self.out = out
        self.counts: dict[str, int] = {}
        self.worker_id: str | None = getattr(config, "workerinput", {}).get("workerid")
        self.workers: list[str] = []  # worker ids seen by the controller

    def path(self) -> Path:
        """Where this process writes: ``<out>.<worker id>`` in a worker, else ``<out>``."""
        return self.out.with_name(f"{self.out.name}.{self.worker_id}") if self.worker_id else self.out

    def pytest_runtest_logstart(self, nodeid: str, location) -> None:
        self.counts.setdefault(nodeid, 0)

    def pytest_assertion_pass(self, item: pytest.Item, lineno: int, orig: str, expl: str) -> None:
        self.counts[item.nodeid] = self.counts.get(item.nodeid, 0) + 1

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        wid = getattr(node, "workerinput", {}).get("workerid")
        if wid is not None:
            self.workers.append(wid)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus) -> None:
        counts = dict(self.counts)
        if self.worker_id is None:
            for wid in self.workers:
                part = self.out.with_name(f"{self.out.name}.{wid}")
                try:
                    counts.update(json.loads(part.read_text(encoding="utf-8")))
                except FileNotFoundError:
                    continue
                part.unlink()
        target = self.path()
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(dict(sorted(counts.items())), indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
        tmp.replace(target)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.worker_id is None:
            terminalreporter.write_line(f"assertion counts: {self.out}")


def pytest_configure(config: pytest.Config) -> None:
    out = os.environ.get(ENV)
    if not out:
        return
    if not config.getini("enable_assertion_pass_hook"):
        raise pytest.UsageError(f"{ENV} is set but enable_assertion_pass_hook is off: "
                                "add -o enable_assertion_pass_hook=true")
    plugin = AssertionCounts(config, Path(out).resolve())
    if plugin.worker_id is None:  # stale parts of an earlier run
        for part in plugin.out.parent.glob(plugin.out.name + ".gw*"):
            part.unlink(missing_ok=True)
    config.pluginmanager.register(plugin, "assertion_counts_plugin")
