"""Write the screens of the table image: for every game, a hand in progress and a finished
hand, as the public table message shows them, and the final standings (大结算) of a match of
four hands; and ``README.md`` listing them.

    python docs/screens/make_screens.py [OUT_DIR]      # default: this folder

Each hand is dealt from a fixed seed and played by the games' own AI (the same seed, the same
screens): the hand in progress is the first moment, after some rounds of play, with a group on
the table, discards in front of every seat and a seat beside the bottom seat on turn; the
finished hand is the first seed won by a seat beside the bottom seat.  Four seats where the
game allows, players named in mixed scripts.  The match is the hands of one table seed played
one after the other by the AI (its dealer and scores carried from hand to hand), its standings
worked out by ``service.matches.standings`` as the bot does from the stored settlements.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from types import SimpleNamespace  # noqa: E402

from engine.match import Match  # noqa: E402
from engine.outcome import outcome  # noqa: E402
from engine.variants import all_variants  # noqa: E402
from render.standings import render_standings  # noqa: E402
from render.table import render_table  # noqa: E402
from render.text import standings as standing_words  # noqa: E402
from render.text.catalogue import game_name  # noqa: E402
from render.text.events import log_lines  # noqa: E402
from service.matches import standings  # noqa: E402
from service.table import HIDDEN_EVENTS, OPENING_PHASES, WINDOW_PHASES  # noqa: E402

HERE = Path(__file__).resolve().parent
NAMES = ("Alice", "小明 Ming", "さくら", "Дмитрий")  #: Latin, hanzi, kana, Cyrillic
LANG = "zh"
MIN_ROUNDS = 12  #: rounds of play before a moment of a hand counts as "in progress"
MATCH_HANDS = 4  #: hands of the match whose standings are drawn


def _seats(info) -> int:
    return min(4, info.max_players)


def _beside(n: int) -> set[int]:
    """The seats drawn next to seat 0 at the bottom: the one across with two seats, else the
    next and the previous seat."""
    return {1} if n == 2 else {1, n - 1}


def _round(hand) -> None:
    """Every seat the hand waits for makes the AI's choice."""
    for seat in list(hand.pending_seats()):
        if not hand.is_over() and seat in hand.pending_seats():
            hand.apply(hand.ai_action(seat))


def public_view(info, hand, n: int, scores: list[int]) -> dict:
    """What the table message shows of ``hand`` (as ``Table.public_view`` makes it): no
    pending seats, nobody on turn during a claim window, names, scores and the table log."""
    v = hand.view(None)
    v.pop("pending", None)
    v.pop("seq", None)
    if v.get("phase") in WINDOW_PHASES:
        v["turn"] = None
    if isinstance(v.get("shown"), dict):
        v["shown"] = {k: x for k, x in v["shown"].items() if k != "waiting"}
    names = list(NAMES[:n])
    for sv in v["seats"]:
        sv.update(name=names[sv["seat"]], is_ai=False, auto=False, score=scores[sv["seat"]])
    opening = v.get("phase") in OPENING_PHASES
    v["to_act"] = [] if hand.is_over() else (list(range(n)) if opening else [t for t in [v.get("turn")] if t is not None])
    events = [e for e in (x.to_json() for x in hand.events) if e.get("type") not in HIDDEN_EVENTS]
    v.update(log=log_lines(events[-8:], names, LANG, info.facts), lang=LANG, hand_no=1, table_name="#mahjong",
             game=info.facts)  # as a snapshot carries them (the images never look a game up)
    return v


def mid_hand(info) -> tuple[int, dict]:
    """``(seed, view)`` of the game's first seed with a moment as the module docstring says."""
    n = _seats(info)
    for seed in range(1, 500):
        hand = info.new_hand(info.resolve_options({}), seed, 0, n)
        rounds = 0
        while not hand.is_over() and rounds < 200:
            _round(hand)
            rounds += 1
            if rounds < MIN_ROUNDS or hand.is_over():
                continue
            v = public_view(info, hand, n, [0] * n)
            if (v.get("turn") in _beside(n) and any(s.get("melds") for s in v["seats"])
                    and all(s.get("discards") for s in v["seats"])):
                return seed, v
    raise LookupError(info.id)


def result(info) -> tuple[int, dict]:
    """``(seed, view)`` of the game's first seed whose hand one seat beside the bottom wins."""
    n = _seats(info)
    for seed in range(1, 500):
        hand = info.new_hand(info.resolve_options({}), seed, 0, n)
        while not hand.is_over():
            _round(hand)
        wins = outcome(hand.result)["wins"]
        if len(wins) == 1 and wins[0]["seat"] in _beside(n):
            return seed, public_view(info, hand, n, list(hand.result.get("points") or [0] * n))
    raise LookupError(info.id)


def _settlements(result: dict, n: int) -> list:
    """The settlement rows of a finished hand, as the table service stores them."""
    winners = {w["seat"] for w in outcome(result)["wins"]}
    fans = result.get("fan_by_seat") or {}
    return [SimpleNamespace(seat=i, user_id=None if i else 1, name=NAMES[i], is_ai=bool(i),
                            points=result["points"][i], is_winner=i in winners,
                            self_drawn=bool(i in winners and result.get("self_drawn")),
                            dealt_in=result.get("discarder") == i and bool(winners),
                            fan=(fans.get(str(i), fans.get(i)) if fans else result.get("fan_total"))
                            if i in winners else None)
            for i in range(n)]


def match_standings(info, seed: int = 1) -> tuple[int, dict]:
    """``(seed, view)`` of the standings image of a match of :data:`MATCH_HANDS` hands of the
    table seed ``seed``, every seat played by the AI."""
    n = _seats(info)
    match = Match(info, info.resolve_options({"match_hands": MATCH_HANDS}), seed, n)
    hands = []
    for k in range(MATCH_HANDS):
        hand = match.new_hand()
        while not hand.is_over():
            _round(hand)
        hands.append(SimpleNamespace(id=100 + k, settlements=_settlements(hand.result, n)))
        match.finish(hand.result)
    data = standings(hands, hands_planned=MATCH_HANDS)
    when = SimpleNamespace(variant=info.id, started_at=None, ended_at=None)
    sub = standing_words.subtitle(when, data, LANG).split(" · ")[0]
    return seed, {"lang": LANG, "variant": info.id, "standings": data, "subtitle": sub,
                  "seats": [{"seat": i} for i in range(n)]}


#: the widths Discord shows the image at: a laptop, a phone
SHOWN = (450, 300)


def shown_copy(png_path: Path, width: int) -> Path:
    """The image at ``png_path`` scaled to ``width`` px wide as a browser scales it (Lanczos),
    written beside it as ``<name>-<width>.png``."""
    from PIL import Image

    with Image.open(png_path) as im:
        im = im.convert("RGB")
        small = im.resize((width, round(im.height * width / im.width)), Image.Resampling.LANCZOS)
    path = png_path.with_name(f"{png_path.stem}-{width}.png")
    small.save(path, optimize=True)
    return path


def main(argv: list[str] | None = None) -> int:
    from PIL import Image

    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else HERE
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for info in all_variants():
        for what, make in (("mid-hand", mid_hand), ("result", result), ("standings", match_standings)):
            seed, view = make(info)
            png = render_standings(view) if what == "standings" else render_table(view)
            name = f"{info.id}-{what}.png"
            (out / name).write_bytes(png)
            with Image.open(out / name) as im:
                w, h = im.size
            shown = [shown_copy(out / name, px).name for px in SHOWN] if what != "standings" else []
            rows.append((name, game_name(info, "en"), what, len(view["seats"]), seed, w, h, len(png), shown))
            print(f"{name:28s} {w}x{h}  {len(png):7d} bytes  seed {seed}")
    lines = [
        "# Screens of the table image",
        "",
        "The public table image of every game, drawn by `render/table.py` from hands dealt from fixed",
        "seeds and played by the games' own AI: a hand in progress (the seat on turn beside the",
        "bottom seat) and a finished hand (won by a seat beside the bottom seat), four seats where the",
        "game allows; and the final standings (大结算, `render/standings.py`) of a match of four hands",
        "of one table seed played by the AI. Discord shows the image about 450 px wide on a laptop and",
        "300 px on a phone: the last two columns are the image scaled to those widths, as a browser",
        "scales it (every tile a player reads is at least 14 px wide at 450 px; at 300 px whose turn",
        "it is and the last discard still read). Made by `python docs/screens/make_screens.py` (the",
        "same seeds give the same screens).",
        "",
        "| file | game | shows | seats | seed | pixels (w × h) | bytes | at 450 px | at 300 px |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, game, what, n, seed, w, h, size, shown in rows:
        cells = [f"[{px}]({f})" for px, f in zip(SHOWN, shown)] or ["", ""]
        lines.append(f"| [{name}]({name}) | {game} | {what} | {n} | {seed} | {w} × {h} | {size:,} | "
                     + " | ".join(cells) + " |")
    readme = out / "README.md"
    rest = ""  # the sections other scripts write (the Discord screens) are kept
    if readme.is_file():
        old = readme.read_text(encoding="utf-8")
        cut = old.find("\n# ", 1)
        rest = old[cut:] if cut >= 0 else ""
    readme.write_text("\n".join(lines) + "\n" + rest, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
