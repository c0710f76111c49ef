"""Message catalogues: every key exists in every language, placeholders match, the zh-TW
files are the conversion of the zh-CN ones, and every slash-command description has its
translations."""

from __future__ import annotations

from engine.variants import find_variant

import asyncio
import json
import re
from pathlib import Path

from render.text.build_catalogues import build_zh_tw, catalogue_dirs

DIR = Path(__file__).resolve().parents[2] / "data" / "i18n"
LANGS = ("en", "zh-CN", "zh-TW")
#: the shared catalogues' folder and every game's own words
DIRS = catalogue_dirs()


def flat(d: dict, prefix: str = "") -> dict[str, str]:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flat(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def namespaces() -> list[tuple[Path, str]]:
    return sorted({(d, p.name.split(".")[0]) for d in DIRS for p in d.glob("*.en.json")})


def load(ns: str, lang: str, folder: Path = DIR) -> dict[str, str]:
    return flat(json.loads((folder / f"{ns}.{lang}.json").read_text(encoding="utf-8"))[lang])


def test_the_games_words_are_found_in_their_packages():
    from engine.variants import all_variants

    own = {ns for d, ns in namespaces() if d != DIR}
    assert own == {i.id for i in all_variants()}  # every game has its own words (its rules summary)
    for info in all_variants():
        assert Path(info.facts.words_dir) == info.data_dir and (info.data_dir / f"{info.id}.en.json").is_file()


def test_every_key_in_every_language_with_the_same_placeholders():
    checked = 0
    for folder, ns in namespaces():
        cats = {lang: load(ns, lang, folder) for lang in LANGS}
        keys = set(cats["en"])
        for lang in LANGS:
            assert set(cats[lang]) == keys, (ns, lang, set(cats[lang]) ^ keys)
        for key in keys:
            ph = {lang: sorted(re.findall(r"%\{(\w+)\}", cats[lang][key])) for lang in LANGS}
            assert ph["en"] == ph["zh-CN"] == ph["zh-TW"], (ns, key, ph)
            checked += 1
    assert checked > 150
    print(f"catalogues: {checked} keys checked in {len(LANGS)} languages")


def test_zh_tw_catalogues_are_built_from_zh_cn():
    for folder in DIRS:
        for name, text in build_zh_tw(folder).items():
            assert (folder / name).read_text(encoding="utf-8") == text, \
                f"{folder / name} is stale: python -m render.text.build_catalogues"


def test_every_command_description_is_translated():
    from bot import COGS, make_bot
    from cogs.translator import description_keys

    async def keys():
        bot = make_bot("sqlite:///:memory:", timer_interval=0)
        for c in COGS:
            await bot.load_extension(c)
        return description_keys(bot.tree)

    used = asyncio.run(keys())
    assert len(used) > 40
    for lang in LANGS:
        cat = load("messages", lang)
        missing = [k for k in used if k not in cat]
        assert not missing, (lang, missing)
    en = load("messages", "en")
    assert all(en[k] == text for k, text in used.items()), "en catalogue differs from the code's descriptions"


def test_every_declared_action_label_has_words_in_every_language():
    """Each game's own actions (``VariantInfo.action_labels``, 字牌's 92 吃 codes included) get
    a label from the game's catalogue in every language, never the bare action code."""
    from engine.variants import all_variants
    from render.text import prompts

    missing = []
    for info in all_variants():
        for act in info.action_labels:
            for lang in ("en", "zh-CN", "zh-TW"):
                label = prompts.button(act, lang, info.facts)
                if label == act or label.startswith("messages.") or not label:
                    missing.append((info.id, act, lang))
    assert missing == []
    # 字牌: a way to 吃 with two 比 reads in the engine's code order (e: 二七十, h: 顺(尾))
    assert prompts.button("chi_e_eh", "zh-CN", find_variant("zipai").facts) == "吃 二七十 · 比 二七十+顺(尾)"
    assert prompts.button("chi_e_eh", "zh-TW", find_variant("zipai").facts) == "吃 二七十 · 比 二七十+順(尾)"


def test_a_wait_gives_its_value_in_the_games_unit_never_a_question_mark():
    from render.text.prompts import wait_text

    # 二人麻将 and 金湖 count 番 for a wait, 字牌 胡息; 老三番 and 财神麻将 give no value before the win
    assert wait_text({"tile": "7m", "left": 1, "fan": 13}, "zh-CN") == "七万（13 番，剩 1 张）"
    assert wait_text({"tile": "2x", "huxi": 9}, "zh-CN") == "二（9 胡息）"
    assert wait_text({"tile": "6s", "left": 4}, "en") == "6s (4 left)"
    assert wait_text({"tile": "5z"}, "zh-TW") == "白板"
