"""Build the shipped fonts in ``data/fonts/``: subsets of Noto Sans CJK SC, with the Latin,
Greek and Cyrillic letters it lacks taken from Noto Sans (both SIL Open Font License 1.1).

The full CJK font is ~20 MB per weight, so only what the bot prints is kept:

* **both weights** (``NotoSansCJKsc-Regular-subset.otf`` and ``…-Bold-subset.otf``) — the
  interface: printable ASCII and a few marks (· × – — … → ≥ ＋ ： etc.); every CJK character
  found in the repository's text files — the rule files (``rules/*.md``, when the rules
  directory is given or found), ``engine/``, ``render/``, ``cogs/``, ``service/``, ``local/``,
  ``store/`` and every text file under ``data/`` (string catalogues, presets); a fixed list of
  interface words (:data:`UI_WORDS`) and Traditional forms (:data:`TRADITIONAL`); the
  Traditional (zh-TW) form of all of the above (OpenCC ``s2twp``, as
  ``render.text.catalogue.zh_tw`` converts the games' own words at run time); and the letters
  of player names in Latin (Latin-1, Latin Extended-A/B, Latin Extended Additional: "Zoë",
  "Łukasz", "Nguyễn"), Greek and Cyrillic (:data:`LETTER_RANGES`).  Noto Sans CJK lacks part
  of them (Ł, ễ, …): those glyphs are copied from Noto Sans of the same weight (outlines
  converted to CFF, same 1000 units per em, advance widths kept).
* **Bold only** — the characters of player names in CJK scripts (:func:`name_chars`): GB2312
  hanzi (6,763, Simplified), Big5 level-1 hanzi (5,401 common Traditional), JIS X 0208
  level-1 kanji (2,965), hiragana and katakana, the CJK marks 々〆ー, and the 2,350 Hangul
  syllables of KS X 1001 — 12,700 characters, ~4.5 MB.  Names are drawn bold; text in the
  regular weight that contains one of these characters is drawn with the bold font
  (:func:`render.tiles.text_font`), which keeps the repository ~4 MB lighter than a second
  weight of them.

It also writes ``data/fonts/charset.txt`` (what both weights draw) and
``data/fonts/charset-bold.txt`` (what only the bold weight draws), which the renderer reads
to pick a font and to leave out characters no shipped font draws instead of drawing boxes.

Run from the repository root (about a minute)::

    python render/build_font_subset.py [--source-dir /usr/share/fonts/opentype/noto] \
        [--latin-dir /usr/share/fonts/truetype/noto] [--rules /path/to/rules]

Needs ``fontTools`` (requirements-dev.txt, build time only), the ``fonts-noto-cjk`` files
``NotoSansCJK-Regular.ttc`` / ``NotoSansCJK-Bold.ttc`` (face index 2 = SC) and the
``fonts-noto-core`` files ``NotoSans-Regular.ttf`` / ``NotoSans-Bold.ttf``
(``apt-get install fonts-noto-cjk fonts-noto-core``).  Raises ``FileNotFoundError`` when a
source font is missing.
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

#: Letters of player names kept in both weights: Latin-1, Latin Extended-A/B, Greek and Coptic,
#: Cyrillic, Latin Extended Additional (Vietnamese); from Noto Sans where Noto CJK lacks them.
LETTER_RANGES = ((0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x1E00, 0x1EFF))

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
                        and not p.name.startswith("charset"))
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
    """Every character both weights keep (the interface and the letters of names), sorted."""
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars |= {chr(c) for lo, hi in LETTER_RANGES for c in range(lo, hi + 1)}
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


def _decoded(codec: str, leads: range, trails: range) -> set[str]:
    """The single characters of the double-byte codes ``lead, trail`` of ``codec``."""
    out = set()
    for a in leads:
        for b in trails:
            try:
                ch = bytes((a, b)).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.add(ch)
    return out


def _is_han(ch: str) -> bool:
    o = ord(ch)
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF


def name_chars() -> str:
    """The CJK characters of player names the bold weight adds, sorted (see module docstring).

    Read from Python's codecs: GB2312 rows 16–87 (``gb2312``), Big5 level 1
    (``big5`` 0xA440–0xC67E), JIS X 0208 rows 16–47 (``euc_jp`` 0xB0A1–0xCFFE), KS X 1001
    Hangul syllables (``euc_kr`` 0xB0A1–0xC8FE); plus hiragana, katakana (with the phonetic
    extensions and half-width forms) and the CJK marks 〃々〆〇ー.
    """
    trail = range(0xA1, 0xFF)
    chars = {c for c in _decoded("gb2312", range(0xB0, 0xF8), trail) if _is_han(c)}
    chars |= {c for c in _decoded("big5", range(0xA4, 0xC7), range(0x40, 0xFF)) if _is_han(c)}
    chars |= {c for c in _decoded("euc_jp", range(0xB0, 0xD0), trail) if _is_han(c)}
    chars |= {c for c in _decoded("euc_kr", range(0xB0, 0xC9), trail) if 0xAC00 <= ord(c) <= 0xD7A3}
    chars |= {chr(c) for c in range(0x3041, 0x3097)} | {chr(c) for c in range(0x3099, 0x3100)}
    chars |= {chr(c) for c in range(0x31F0, 0x3200)} | {chr(c) for c in range(0xFF65, 0xFFA0)}
    chars |= set("〃々〆〇ー")
    return "".join(sorted(chars))


def _traditional(text: str) -> str:
    """The zh-TW form of a text (OpenCC ``s2twp``)."""
    import opencc

    return opencc.OpenCC("s2twp").convert(text)


def _subset(src: Path, text: str):
    """The SC face of the ``.ttc`` at ``src`` cut down to ``text`` (a fontTools ``TTFont``)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

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
    return font


def add_glyphs(font, donor, chars: str) -> str:
    """Copy the glyphs of ``chars`` that ``font`` (a CID-keyed CFF ``TTFont``) lacks from
    ``donor`` (a TrueType ``TTFont`` of the same units per em); return the characters added.

    The outlines are converted to CFF charstrings in the font dictionary of the font's own
    Latin letters (that of ``H``); advance widths are the donor's, vertical metrics follow the
    font's default vertical origin.  Characters the donor lacks too are left out.
    """
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    assert font["head"].unitsPerEm == donor["head"].unitsPerEm
    cmap, donor_cmap = font.getBestCmap(), donor.getBestCmap()
    todo = [ch for ch in chars if ord(ch) not in cmap and ord(ch) in donor_cmap]
    if not todo:
        return ""
    cff = font["CFF "].cff
    top = cff.topDictIndex[0]
    strings = top.CharStrings
    order = list(font.getGlyphOrder())
    fd_index = top.FDSelect[order.index(cmap[ord("H")])]
    private = top.FDArray[fd_index].Private
    used = {int(n[3:]) for n in order if n.startswith("cid")}
    free_cids = (c for c in range(1, 65535) if c not in used)
    glyphs = donor.getGlyphSet()
    vorg = font["VORG"].defaultVertOriginY if "VORG" in font else 880
    added = []
    for ch in todo:
        source = glyphs[donor_cmap[ord(ch)]]
        advance = donor["hmtx"][donor_cmap[ord(ch)]][0]
        width = None if advance == private.defaultWidthX else advance - private.nominalWidthX
        pen = T2CharStringPen(width, glyphs)
        source.draw(pen)
        charstring = pen.getCharString(private=private, globalSubrs=cff.GlobalSubrs)
        bounds = BoundsPen(glyphs)
        source.draw(bounds)
        x_min, _, _, y_max = (round(v) for v in bounds.bounds) if bounds.bounds else (0, 0, 0, 0)
        name = f"cid{next(free_cids):05d}"
        strings.charStringsIndex.append(charstring)
        strings.charStrings[name] = len(strings.charStringsIndex) - 1
        top.charset.append(name)
        top.FDSelect.append(fd_index)
        order.append(name)
        font["hmtx"].metrics[name] = (advance, x_min)
        if "vmtx" in font:
            font["vmtx"].metrics[name] = (font["head"].unitsPerEm, vorg - y_max)
        for table in font["cmap"].tables:
            if table.isUnicode():
                table.cmap[ord(ch)] = name
        added.append(ch)
    font.setGlyphOrder(order)
    return "".join(added)


def build(source_dir: Path, rules_dir: Path | None, out_dir: Path = OUT_DIR,
          latin_dir: Path = Path("/usr/share/fonts/truetype/noto")) -> list[Path]:
    """Write both weights, ``charset.txt`` and ``charset-bold.txt``; return the font paths.

    Raises ``FileNotFoundError`` when a source font (``.ttc`` or Noto Sans ``.ttf``) is missing.
    """
    from fontTools.ttLib import TTFont

    shared = collect_chars(ROOT, rules_dir)
    names = "".join(ch for ch in name_chars() if ch not in shared)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    covered: dict[str, set[int]] = {}
    for weight in WEIGHTS:
        src, donor = source_dir / f"NotoSansCJK-{weight}.ttc", latin_dir / f"NotoSans-{weight}.ttf"
        for path in (src, donor):
            if not path.is_file():
                raise FileNotFoundError(path)
        text = shared + (names if weight == "Bold" else "")
        font = _subset(src, text)
        add_glyphs(font, TTFont(donor), text)
        dest = out_dir / f"NotoSansCJKsc-{weight}-subset.otf"
        font.save(dest)
        written.append(dest)
        covered[weight] = set(TTFont(dest).getBestCmap())
    # what every weight draws, and what only the bold one does
    both = "".join(ch for ch in shared if all(ord(ch) in c for c in covered.values()))
    bold = "".join(ch for ch in shared + names if ord(ch) in covered["Bold"] and ch not in both)
    (out_dir / "charset.txt").write_text(both + "\n", encoding="utf-8")
    (out_dir / "charset-bold.txt").write_text("".join(sorted(bold)) + "\n", encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source-dir", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    ap.add_argument("--latin-dir", type=Path, default=Path("/usr/share/fonts/truetype/noto"))
    default_rules = ROOT.parent / "shared" / "rules"
    ap.add_argument("--rules", type=Path, default=default_rules if default_rules.is_dir() else None)
    args = ap.parse_args(argv)
    for path in build(args.source_dir, args.rules, latin_dir=args.latin_dir):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")
    for name in ("charset.txt", "charset-bold.txt"):
        print(f"{name}: {len((OUT_DIR / name).read_text(encoding='utf-8').strip())} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
