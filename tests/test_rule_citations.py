"""Every rule file the code cites is in the repository (``docs/rules/``)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITATION = re.compile(r"([\w./]*rules/[A-Za-z_]+\.md)")
FOLDERS = ("engine", "service", "store", "cogs", "render", "local", "data", "bench", "tests")


def _citations():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for cited in CITATION.findall(line):
                    yield path.relative_to(ROOT), n, cited


def test_cited_rule_files_exist():
    found = list(_citations())
    # the engine cites every game's file; a scan that found none would prove nothing
    assert len(found) >= 50
    cited_files = {c for _, _, c in found}
    # and every shipped rule file is cited by something
    assert cited_files == {f"docs/rules/{f.name}" for f in (ROOT / "docs" / "rules").glob("*.md")}
    missing = [f"{p}:{n}: {c}" for p, n, c in found if not c.startswith("docs/rules/") or not (ROOT / c).is_file()]
    assert missing == []
