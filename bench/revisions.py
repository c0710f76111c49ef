"""Another revision of the project checked out beside this one, for the benchmarks that print
their figures now against a revision (``--against REV``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: where the revisions are checked out (one detached git worktree per commit, kept for reuse)
CACHE = Path.home() / ".cache" / "bench_discord"


def worktree(rev: str) -> Path:
    """A detached worktree of ``rev`` under :data:`CACHE`, created once and reused.

    :raises subprocess.CalledProcessError: ``rev`` is not a revision of this repository."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", rev], capture_output=True, text=True,
                         check=True).stdout.strip()
    path = CACHE / sha[:12]
    if not (path / "bot.py").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), sha], check=True,
                       capture_output=True)
    return path
