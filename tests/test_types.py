"""The engine, the table service and the store pass the type checker (mypy, configured in
``pyproject.toml``: ``check_untyped_defs``, unused ``type: ignore`` comments refused)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_engine_service_and_store_type_check():
    out = _mypy()  # the files and options of pyproject.toml's [tool.mypy]
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    checked = int(re.search(r"no issues found in (\d+) source files", text).group(1))
    assert checked > 120  # engine/, service/ and store/ were read


def test_the_checker_refuses_a_wrong_type(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from service.table import Table\n\n"
                   "def seats(t: Table) -> int:\n    return t.hand.seq\n")  # hand may be None
    out = _mypy(str(bad))
    assert out.returncode == 1
    assert 'Item "None" of "Hand | None" has no attribute "seq"' in out.stdout
