"""Build the Traditional Chinese (zh-TW) catalogues from the Simplified ones.

    python -m render.text.build_catalogues

Every ``<namespace>.zh-CN.json`` of the shared catalogues (``data/i18n``) and of the games'
own words (``engine/variants/<game>/data``) is converted with OpenCC's ``s2twp``
(Simplified → Traditional, Taiwan phrasing) into ``<namespace>.zh-TW.json`` beside it.  The
zh-CN files are the ones to edit; a test checks the shipped zh-TW files are up to date.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE_DIR = ROOT / "data" / "i18n"


def catalogue_dirs() -> list[Path]:
    """The shared catalogues' folder, then each built-in game's own folder that holds words."""
    games = sorted(d for d in (ROOT / "engine" / "variants").glob("*/data") if any(d.glob("*.zh-CN.json")))
    return [CATALOGUE_DIR] + games


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
    for folder in catalogue_dirs():
        for name, text in build_zh_tw(folder).items():
            (folder / name).write_text(text, encoding="utf-8")
            print("wrote", (folder / name).relative_to(ROOT))


if __name__ == "__main__":
    main()
