"""Build the Traditional Chinese (zh-TW) catalogues from the Simplified ones.

    python -m render.text.build_catalogues

Every ``data/i18n/<namespace>.zh-CN.json`` is converted with OpenCC's ``s2twp``
(Simplified → Traditional, Taiwan phrasing) into ``<namespace>.zh-TW.json``.  The zh-CN
files are the ones to edit; a test checks the shipped zh-TW files are up to date.
"""

from __future__ import annotations

import json
from pathlib import Path

CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "data" / "i18n"


def convert(value, cc):
    if isinstance(value, dict):
        return {k: convert(v, cc) for k, v in value.items()}
    if isinstance(value, str):
        return cc.convert(value)
    return value


def build_zh_tw(directory: Path = CATALOGUE_DIR) -> dict[str, str]:
    """``{file name: JSON text}`` of every zh-TW catalogue built from its zh-CN source."""
    from opencc import OpenCC

    cc = OpenCC("s2twp")
    out = {}
    for src in sorted(directory.glob("*.zh-CN.json")):
        data = json.loads(src.read_text(encoding="utf-8"))
        tw = {"zh-TW": convert(data["zh-CN"], cc)}
        name = src.name.replace(".zh-CN.", ".zh-TW.")
        out[name] = json.dumps(tw, ensure_ascii=False, indent=1) + "\n"
    return out


def main() -> None:
    for name, text in build_zh_tw().items():
        (CATALOGUE_DIR / name).write_text(text, encoding="utf-8")
        print("wrote", name)


if __name__ == "__main__":
    main()
