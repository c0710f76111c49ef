"""The local table speaks every game (stdin fed, stdout read): the game's own action names in
the prompt (never ``buy``, ``piao_one``, ``chi_h 10X``, ``fake_ting``), the prompt's verb right
during 买庄 and 飘, ``help`` for each game, 字牌's cards typed as shown (``八`` small, ``捌``
big), 老五对's wild tiles marked, your melds shown, waits with their value in the game's unit."""

from __future__ import annotations

import builtins
import re

import pytest

import bot
from games import game_ids, per_game

RAW_IDS = re.compile(r"\b(buy|no_buy|piao_\w+|chi_\w+|fake_ting|caishen_hui)\b")


class Player:
    """Answers the local table's prompts from what it printed: ``policy(screen)`` returns the
    line to type (``screen``: everything printed since the last prompt)."""

    def __init__(self, capsys, policy, limit: int = 200):
        self.capsys, self.policy, self.limit = capsys, policy, limit
        self.screens: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompt = prompt  # what input() was asked with (a policy may read it)
        screen = self.capsys.readouterr().out
        self.screens.append(screen)
        if len(self.screens) > self.limit:
            return "quit"
        return self.policy(screen, len(self.screens))

    @property
    def text(self) -> str:
        return "".join(self.screens) + self.capsys.readouterr().out


def run(monkeypatch, tmp_path, capsys, policy, *args) -> Player:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    player = Player(capsys, policy)
    monkeypatch.setattr(builtins, "input", player)
    code = bot.main(["--local", "--ai-level", "normal", *args, "--out", str(tmp_path / "img")])
    assert code == 0
    return player


def _hand(screen: str) -> list[str]:
    m = re.findall(r"^手牌: (.*)$", screen, re.M)
    return m[-1].split() if m else []


def test_zipai_piao_by_name_cards_typed_as_shown_and_help(monkeypatch, tmp_path, capsys):
    typed_cards = []

    def policy(screen, n):
        if n == 1:
            return "help"
        if "请选择：" in screen:
            return "飘 1"
        if screen.rstrip().endswith("出牌") and len(typed_cards) < 3:
            small = [c for c in _hand(screen) if c in "一二三四五六七八九十"]
            big = [c for c in _hand(screen) if c in "壹贰叁肆伍陆柒捌玖拾"]
            card = (small or big)[0] if len(typed_cards) % 2 == 0 or not big else big[0]
            typed_cards.append(card)
            return card
        return "pass" if "可以操作" in screen else "quit"

    p = run(monkeypatch, tmp_path, capsys, policy, "--variant", "zipai", "--players", "3", "--seed", "5")
    out = p.text
    # the opening prompt names the 飘 choices and is no discard prompt
    first = p.screens[0]
    assert "请选择：不飘, 飘 1, 飘 2, 飘 3" in first and "出牌" not in first.split("请选择")[1]
    # help: the shared words, this game's actions now and its own rules
    assert "本局的操作：不飘, 飘 1, 飘 2, 飘 3。" in p.screens[1]
    assert "小字牌写作 一…十" in p.screens[1]
    assert "你 飘 1" in out
    # every card typed as shown was discarded, small ones as small
    assert typed_cards and all(f"你 打出 {c}" in out for c in typed_cards)
    assert not RAW_IDS.search(out)


def test_laowudui_buy_typed_wilds_marked_and_the_opening_verb(monkeypatch, tmp_path, capsys):
    def policy(screen, n):
        if "请选择：买庄, 不买" in screen:
            return "买庄"
        return "quit"

    p = run(monkeypatch, tmp_path, capsys, policy, "--variant", "laowudui", "--players", "2", "--seed", "7")
    out = p.text
    first = p.screens[0]
    # seed 7: the turned tile is 五万, so 五万 is wild (百搭) and marked in the hand
    assert "翻牌：五万" in first and "五万（百搭）" in _hand(first)
    assert "请选择：买庄, 不买" in first and "出牌" not in first
    assert "你 买庄" in out
    assert not RAW_IDS.search(out)


@pytest.mark.some_games("the games a hand of draw, discard and pass plays through; 老五对 and 字牌 prompt differently")
@pytest.mark.parametrize("variant,players,seed", [("jinhu", 4, 2), ("caishen", 4, 3), ("laosanfan", 4, 4),
                                                  ("two_player", 2, 4)])
def test_mahjong_prompts_name_the_games_own_actions(variant, players, seed, monkeypatch, tmp_path, capsys):
    """A hand played from the prompt by discarding the drawn tile and passing every claim: no
    prompt shows an action's id; waits show a value in the game's unit, never ``?``."""

    def policy(screen, n):
        if n == 1:
            return "help"
        m = re.findall(r"^手牌: .*\+ (\S+)$", screen, re.M)
        if screen.rstrip().endswith("出牌") or "出牌  （" in screen.splitlines()[-1]:
            return m[-1] if m else _hand(screen)[-1]
        if "可以操作" in screen:
            return "过"
        return "quit"

    p = run(monkeypatch, tmp_path, capsys, policy, "--variant", variant, "--players", str(players),
            "--seed", str(seed), "--hands", "1")
    out = p.text
    assert "== 第 1 局结算 ==" in out  # the hand was played to its end from the prompt
    assert not RAW_IDS.search(out), RAW_IDS.search(out)
    assert "?" not in "".join(re.findall(r"^听: .*$", out, re.M))
    if variant == "jinhu":
        assert "假听" in out  # offered by its name at a discard


#: the shared verbs a help text may name, and the engine's action types each one types
HELP_VERBS = {"chow": {"chow"}, "pung": {"pung", "peng"}, "kong": {"kong"}, "ting": {"ting"},
              "double": {"double"}, "hu": {"hu"}, "pass": {"pass"}}


def _legal_types(game: str) -> set[str]:
    """Every action type legal at some decision of seeded AI play-outs of ``game`` (fewest and
    most seats)."""
    from engine.variants import find_variant

    info = find_variant(game)
    seen: set[str] = set()
    for seed in range(1, 13):
        n = info.min_players if seed % 2 else info.max_players
        hand = info.new_hand(info.resolve_options({}), seed, 0, n)
        while not hand.is_over():
            for s in hand.pending_seats():
                seen.update(a.type for a in hand.legal_actions(s))
            s = hand.pending_seats()[0]
            hand.apply(hand.ai_action(s))
    return seen


@pytest.mark.parametrize("game", game_ids())
def test_help_names_only_the_actions_the_game_has(game):
    """``help`` at the local table, in English and Chinese, names a shared verb (``chow``,
    ``ting 5m``, ``double`` …) only when the game has that action: 金湖 (pung only) never
    offers ``chow`` or ``kong``; ``ting`` only where a ready hand is declared."""
    from engine.variants import find_variant
    from render.text.local import help_text

    facts = find_variant(game).facts
    legal = _legal_types(game)
    for lang in ("en", "zh-CN"):
        text = help_text(lang, facts)
        named = {verb for verb in HELP_VERBS if re.search(rf"(?<![\w_]){verb}(?![\w_])", text)}
        assert all(HELP_VERBS[v] & legal for v in named), (lang, named, legal)
        assert ("chow" in named) == ("chow" in legal) and ("ting" in named) == ("ting" in legal), (lang, named)


def test_ting_without_its_tile_asks_which_and_the_result_waits_for_enter(monkeypatch, tmp_path, capsys):
    """二人麻将 in English, two hands: ``ting`` (and ``discard``) typed without a tile are
    answered "Which tile?" with an example, never "You don't hold ?."; each hand is then played
    by discarding the drawn tile and passing; after the first hand's result the winner's tiles
    are shown and the table waits for Enter before dealing the second (``quit`` there leaves
    after the first hand's totals)."""
    asked: list[str] = []

    def policy(screen, n):
        if n == 1:
            return "ting"
        if n == 2:
            return "discard"
        if "Press Enter for the next hand" in builtins.input.prompt:
            asked.append(screen)
            return "quit"
        drawn = re.findall(r"^Hand: .*\+ (\S+)$", screen, re.M)
        if "Discard a tile" in screen:
            return drawn[-1] if drawn else re.findall(r"^Hand: (\S+)", screen, re.M)[-1]
        return "pass"

    p = run(monkeypatch, tmp_path, capsys, policy, "--variant", "two_player", "--seed", "5", "--hands", "2",
            "--lang", "en")
    out = p.text
    assert "You don't hold ?" not in out
    assert "Which tile? Type ting with the tile it goes with, e.g. ting " in p.screens[1]
    assert "Which tile? Type discard with the tile it goes with, e.g. discard " in p.screens[2]
    assert "== Hand 1 — result ==" in out and "== Hand 2 — result ==" not in out
    assert len(asked) == 1 and "== Totals ==" in out
    result = out[out.index("== Hand 1 — result =="):]
    assert re.search(r"^  .+'s hand: .+", result, re.M), result[:600]


def test_a_winners_hand_shows_the_winning_tile_apart():
    """The winner's tiles after the result: concealed tiles (the winning tile taken out),
    melds in brackets, then ``+`` the winning tile."""
    from render.text import local

    view = {"seats": [{"seat": 0, "concealed": ["1m", "2m", "3m", "7z", "7z"], "melds": [
        {"type": "pung", "tiles": ["6p", "6p", "6p"]}]}, {"seat": 1, "concealed": None, "melds": []}]}
    result = {"winner": 0, "discarder": 1, "win_tile": "7z", "points": [8, -8]}
    assert local.winning_hands(view, result, ["ann", "bo"], "en") == ["ann's hand: 1m 2m 3m 7z [6p6p6p] + 7z"]
    # self-drawn: the drawn tile is held apart in the view already, the hand keeps its 13
    drawn = {"seats": [{"seat": 0, "concealed": ["1m", "2m", "3m", "7z"], "drawn": "7z", "melds": [
        {"type": "pung", "tiles": ["6p", "6p", "6p"]}]}]}
    assert local.winning_hands(drawn, {"winner": 0, "self_drawn": True, "win_tile": "7z", "points": [8]},
                               ["ann"], "en") == ["ann's hand: 1m 2m 3m 7z [6p6p6p] + 7z"]


def test_your_name_is_the_one_you_give(monkeypatch, tmp_path, capsys):
    """``--name`` names your seat in every line (a piped game without it keeps the word for
    you, so its output is the same on any machine)."""
    p = run(monkeypatch, tmp_path, capsys, lambda screen, n: "quit", "--variant", "two_player", "--seed", "3",
            "--lang", "en", "--name", "Alice")
    out = p.text
    assert "▶ Alice (dealer) +0" in out and "  Alice: +0" in out and "Player" not in out


#: whether seed 4's hand offers the seat a declaration or a choice of the game's own (听, 假听,
#: 买庄, 飘 …): 老三番 and 财神麻将 have none
DECLARES = {"two_player": True, "laosanfan": False, "jinhu": True, "caishen": False, "laowudui": True,
            "zipai": True}
#: the table seed of each game's hand (二人麻将's seed 14 offers 听 to this way of playing)
SEEDS = {"two_player": 14}


@pytest.mark.parametrize("game", game_ids())
def test_a_whole_hand_in_english_with_help_hint_and_a_declaration(game, monkeypatch, tmp_path, capsys):
    """Every registered game, in English, one hand through stdin: ``help`` and ``hint`` first,
    then each decision answered as a player types it — an opening choice (买庄, 飘) or the game's
    own declaration (假听, 吃 …) by the first name the prompt offers, the first time it is
    offered; at a discard ``hint`` is asked and followed (``ting <tile>`` when the hinted discard
    may declare 听), else the drawn (dealt) tile goes, or the first hand tile; a claim is passed.
    The hand reaches its result, and every table printed before a decision fits 80 columns."""
    from engine.variants import find_variant
    from render.text.local import _cols

    own = {key for _, key in find_variant(game).facts.action_labels}
    declared: list[str] = []
    asked: list[int] = []  # the prompts answered with hint

    def policy(screen, n):
        if n == 1:
            return "help"
        if n == 2:
            return "hint"
        lines = screen.splitlines()
        choose = [x for x in lines if x.startswith("Choose: ")]
        if choose:  # an opening choice (买庄, 飘): a declaration of the game's own
            declared.append(choose[-1])
            return choose[-1][len("Choose: "):].split(", ")[0]
        may = [x for x in lines if x.startswith(("You may: ", "Discard a tile"))]
        if not may:
            return "quit"
        last = may[-1]
        offered = (last[len("You may: "):].split(", ") if last.startswith("You may: ") else
                   last.split("(", 1)[1].rstrip(")").split(", ") if "(" in last else [])
        ready = re.search(r"Ready, discarding (\S+?)[,)]", last + ")")
        if ready and not declared:  # 听, typed with its tile
            declared.append("ting")
            return f"ting {ready.group(1)}"
        mine = [x for x in offered if x and not x.startswith(("Pass", "Win", "Pung", "Chow", "Kong", "Discard",
                                                                 "Ready", "discarding", "Peng", "Double"))]
        if mine and own and not declared:
            declared.append(mine[0])
            return mine[0]
        if last.startswith("Discard a tile") and not asked[-1:] == [n - 1]:
            asked.append(n)  # ask the hint first, then follow it
            return "hint"
        good = re.findall(r"^  (\S+): .*$", screen, re.M) if asked[-1:] == [n - 1] else []
        if good and last.startswith("Discard a tile"):
            if f"Ready, discarding {good[0]}" in last and not declared:
                declared.append("ting")
                return f"ting {good[0]}"
            return good[0]
        if last.startswith("Discard a tile"):
            drawn = re.findall(r"^Hand: .*\+ (\S+)$", screen, re.M)
            tile = drawn[-1] if drawn else re.findall(r"^Hand: (\S+)", screen, re.M)[-1]
            return re.sub(r"\(.*\)$", "", tile)  # a wild tile is marked "(wild)"
        passes = [x for x in offered if x.startswith("Pass")]
        return passes[0] if passes else offered[0]

    p = run(monkeypatch, tmp_path, capsys, policy, "--variant", game, "--seed", str(SEEDS.get(game, 4)), "--hands", "1",
            "--lang", "en")
    out = p.text
    assert "== Hand 1 — result ==" in out, out[-800:]
    assert bool(declared) == per_game(DECLARES, game), declared
    assert "Discard: type a tile" in p.screens[1] or "Play a card" in p.screens[1]  # help, in English
    assert p.screens[2].strip().splitlines()[0].startswith(("Values are for a win", "No discard leaves"))  # hint
    tables = [x for s in p.screens for x in s.splitlines() if x.startswith(("── ", "▶ ", "  ", "     "))]
    assert tables and all(_cols(x) <= 80 for x in tables if not x.startswith("  ") or "+" in x or x.startswith("     "))
    assert not re.search(r"[\u4e00-\u9fff]{3,}", "\n".join(x for x in out.splitlines() if x.startswith("Hand: ")))
