"""Build the shipped CJK font subsets in ``data/fonts/``.

The bot draws every label with Noto Sans CJK SC (SIL Open Font License 1.1).  The
full font is ~20 MB per weight, so only the characters the bot can print are kept:

* printable ASCII, Latin-1 and Latin Extended-A (player names; Noto CJK lacks part of
  Extended-A) and a few marks (· × – — … → ≥ ＋ ： etc.);
* every CJK character found in the repository's text files — the rule files
  (``rules/*.md``, when the rules directory is given or found), ``engine/*.py``
  (tile names), ``render/*.py``, ``cogs/*.py``, ``service/*.py`` and every text file
  under ``data/`` (string catalogues, presets);
* a fixed list of UI words (:data:`UI_WORDS`) and their traditional-Chinese forms
  (:data:`TRADITIONAL`), so zh-TW labels can be added later without a new font;
* the Traditional (zh-TW) form of all of the above (OpenCC ``s2twp``, as
  ``render.text.catalogue.zh_tw`` converts the games' own words at run time).

It also writes ``data/fonts/charset.txt`` (the characters kept), which the renderer
reads to replace characters the font lacks instead of drawing empty boxes.

Run from the repository root::

    /work/venv/bin/python render/build_font_subset.py \
        [--source-dir /usr/share/fonts/opentype/noto] [--rules /path/to/rules]

Needs ``fontTools`` (build time only) and the ``fonts-noto-cjk`` files
``NotoSansCJK-Regular.ttc`` / ``NotoSansCJK-Bold.ttc`` (face index 2 = SC).
Output: ``data/fonts/NotoSansCJKsc-Regular-subset.otf`` and ``…-Bold-subset.otf``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "data" / "fonts"
SC_INDEX = 2  # face number of "Noto Sans CJK SC" inside the .ttc collections
WEIGHTS = ("Regular", "Bold")

#: Words the interface prints (simplified Chinese), beyond the rule files.
UI_WORDS = """
万筒条饼索 东南西北 中发白 發 红中 发财 白板 春夏秋冬梅兰菊竹 千子 白花 红花 福禄寿喜财
一二三四五六七八九十 壹贰叁肆伍陆柒捌玖拾 零百千两
庄 闲 庄家 闲家 听 听牌 加倍 宝牌 剩余 牌墙 余牌 自摸 胡 和 碰 吃 杠 明杠 暗杠 加杠 过 得分 番
托管 轮到 出牌 打牌 摸牌 补花 花牌 结果 流局 荒庄 胜 负 赢 输 点炮 放炮 玩家 座位 风 局 第 张
倍 分 总计 合计 等待 准备 开始 结束 骰子 百搭 财神 翻牌 本局 连庄 底分 桌 我 你 他 她 对家 上家
下家 可胡 胡牌 提示 打 留 查看 分数 积分 时间 秒 超时 番数 番种 倍数 得失 无人 和了 点数 胜者
赢家 输家 庄位 门风 圈风 上一手 最后 动作 弃牌 牌河 手牌 副露 进张 听哪 哪 些 还 剩 枚 未见
已 被 抢 回合 本 轮 房间 名称 观战 退出 加入 离开 开局 下一局 再来 确认 取消 是 否 请 选择
错误 不足 不能 不可 可以 需要 等待中 断线 重连 自动 手动 总分 排名 积分榜 历史 记录 规则 帮助
设置 选项 语言 中文 英文 繁体 简体 大字 小字 红字 黑字 胡息 囤 提 偎 跑 坎 绞 对 句 一句话
""".split()

#: Traditional-Chinese forms of the characters above and of the rule-file vocabulary.
TRADITIONAL = (
    "萬筒條餅東南西北發紅財白板蘭貳陸兩莊閒聽倍寶牌剩餘牆摸槓過得分番託管輪補結果負贏輸點"
    "玩家座位風局張總計準備開始骰搭財神翻連庄桌對上下胡提示留查看數積時間秒超無勝者門圈"
    "動作棄河手進還見已被搶回合輪房間名稱觀戰退出加入離開再確認取消請選擇錯誤足能可以需要"
    "斷線重連自動總排名榜歷史記錄規則幫助設選項語言英繁體簡紅黑囤偎跑坎絞句話會為麼眾響後國"
    "塊復複頭夾壽將嶺帶歸當斷時標類燈點獨祿絕節蓮計記調賊邊進針釣門陸頂順飄龍個買別單開殺"
    "親們幾問間長與專業丟嚴臨舉義樂習書爭產從價傳體餘償優關興寫決況淨減擊則剛創刪務動勞勢"
    "區華協賣衛卻歷壓參變疊號葉嗎員啟團圍圖場壞聲處備夠奪獎學寧實審寬導層歲幣幫並廣應廢異"
    "棄彈錄徵態懷懸驚慣願戰戶執擴掃揚擾拋護報擔擬擁擇掛擋揮損換據擲攪攜擺敵顯曉暫術機雜權"
    "來極構樣檢樓歡殘畢氣匯漢沒濟測遊灣滿滅靈熱爺狀猶環現電畫盤監蓋碼確禮稱種穩窮筆簽簡紀"
    "級線練組細終經給統繼續網罰聯腦藝範獲營雖裝規視覽覺認讓議訊講設證識訴詞試說讀誰課謝賬"
    "敗貨質貴費資賽趕軟轉輕載輯達運這遠遲選遞邏遺郵釋鍵閉隊階際險隨隱難頁項預領頻題額顏飛"
    "館驗黃齊麵與瑞鍾寫箇嘍麼钜脫詳剝戲雙暗鬥鬧嗶"
)

EXTRA_SYMBOLS = "·×–—…→←↑↓−≥≤±「」『』，。、：；！？（）【】《》＋－／％○●◎★☆♦■□▲△✓✗"

TEXT_SUFFIXES = {".py", ".md", ".json", ".toml", ".yaml", ".yml", ".txt", ".ftl", ".po", ".csv"}


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return 0x3000 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF


def repo_text_files(root: Path, rules_dir: Path | None) -> list[Path]:
    """The text files whose characters the subset must cover (see module docstring)."""
    files: list[Path] = []
    for sub in ("engine", "render", "cogs", "service", "local", "store"):
        d = root / sub
        if d.is_dir():
            files += sorted(d.rglob("*.py"))
    data = root / "data"
    if data.is_dir():
        files += sorted(p for p in data.rglob("*") if p.suffix in TEXT_SUFFIXES and p.is_file()
                        and p.name != "charset.txt")
    docs = root / "docs"
    if docs.is_dir():
        files += sorted(docs.rglob("*.md"))
    for extra in ("bot.py", "README.md"):
        if (root / extra).is_file():
            files.append(root / extra)
    if rules_dir is not None and rules_dir.is_dir():
        files += sorted(rules_dir.glob("*.md"))
    return files


def collect_chars(root: Path = ROOT, rules_dir: Path | None = None) -> str:
    """Every character to keep, sorted, as one string."""
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars |= {chr(c) for c in range(0xA0, 0x180)}  # Latin-1 and Latin Extended-A (player names)
    chars |= set(EXTRA_SYMBOLS)
    chars |= set("".join(UI_WORDS))
    chars |= set(TRADITIONAL)
    for path in repo_text_files(root, rules_dir):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        chars |= {ch for ch in text if _is_cjk(ch)}
        chars |= {ch for ch in _traditional(text) if _is_cjk(ch)}
    return "".join(sorted(chars))


def _traditional(text: str) -> str:
    """The zh-TW form of a text (OpenCC ``s2twp``)."""
    import opencc

    return opencc.OpenCC("s2twp").convert(text)


def build(source_dir: Path, rules_dir: Path | None, out_dir: Path = OUT_DIR) -> list[Path]:
    """Write the subset fonts and ``charset.txt``; return the written font paths.

    Raises ``FileNotFoundError`` when a source ``.ttc`` is missing.
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    text = collect_chars(ROOT, rules_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    covered: set[int] | None = None
    for weight in WEIGHTS:
        src = source_dir / f"NotoSansCJK-{weight}.ttc"
        if not src.is_file():
            raise FileNotFoundError(src)
        font = TTFont(src, fontNumber=SC_INDEX, lazy=False)
        opts = subset.Options()
        opts.layout_features = ["kern", "liga", "locl", "vert", "vrt2", "palt"]
        opts.name_IDs = ["*"]
        opts.name_languages = ["*"]
        opts.notdef_outline = True
        opts.hinting = False
        opts.desubroutinize = False
        sub = subset.Subsetter(options=opts)
        sub.populate(text=text)
        sub.subset(font)
        dest = out_dir / f"NotoSansCJKsc-{weight}-subset.otf"
        font.save(dest)
        written.append(dest)
        cmap = set(font.getBestCmap())
        covered = cmap if covered is None else covered & cmap
    # only what every weight can draw (Noto CJK lacks parts of Latin Extended-A, for instance)
    kept = "".join(ch for ch in text if ord(ch) in (covered or set()))
    (out_dir / "charset.txt").write_text(kept + "\n", encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source-dir", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    default_rules = ROOT.parent / "shared" / "rules"
    ap.add_argument("--rules", type=Path, default=default_rules if default_rules.is_dir() else None)
    args = ap.parse_args(argv)
    for path in build(args.source_dir, args.rules):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")
    print(f"{len((OUT_DIR / 'charset.txt').read_text(encoding='utf-8').strip())} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
