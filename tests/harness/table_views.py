"""Table views of real, seeded hands of every game for the image tests: a hand in progress
with the turn on a side seat, and a finished hand won by a side seat — public views as the
table message draws them (names, scores, the table log), played by the games' own AI.

A *side seat* is one the image draws beside the public view's bottom seat (seat 0): with
three or four seats the next (下家) or previous (上家) seat, with two the seat across.
"""

from __future__ import annotations

from engine.variants import all_variants, find_variant
from render.text.events import log_lines
from service.table import HIDDEN_EVENTS, OPENING_PHASES, WINDOW_PHASES

#: players' names in mixed scripts (Latin, hanzi, kana, Hangul, Cyrillic)
NAMES = ("Alice", "小明 Ming", "さくら", "Дмитрий", "김민준")


def games() -> list[str]:
    return [v.id for v in all_variants()]


def most_seats(game: str) -> int:
    """Four seats where the game allows, else its most."""
    return min(4, find_variant(game).max_players)


def side_seats(n: int) -> set[int]:
    return {1} if n == 2 else {1, n - 1}


def public(hand, n: int, lang: str = "zh", scores: list[int] | None = None) -> dict:
    """The public view of ``hand`` as ``Table.public_view`` gives it, with names, scores and
    log lines."""
    info = find_variant(hand.view(None)["variant"])
    v = hand.view(None)
    v.pop("pending", None)
    v.pop("seq", None)
    if v.get("phase") in WINDOW_PHASES:
        v["turn"] = None
    if isinstance(v.get("shown"), dict):
        v["shown"] = {k: x for k, x in v["shown"].items() if k != "waiting"}
    names = list(NAMES[:n])
    for sv in v["seats"]:
        sv.update(name=names[sv["seat"]], is_ai=False, auto=False,
                  score=(scores or [0] * n)[sv["seat"]])
    if hand.is_over():
        v["to_act"] = []
    elif v.get("phase") in OPENING_PHASES:
        v["to_act"] = list(range(n))
    else:
        v["to_act"] = [v["turn"]] if v.get("turn") is not None else []
    recent = [e for e in (x.to_json() for x in hand.events) if e.get("type") not in HIDDEN_EVENTS][-8:]
    v["log"] = log_lines(recent, names, lang, info.facts)
    v["lang"] = lang
    v["hand_no"] = 1
    v["table_name"] = "#mahjong"
    v["game"] = info.facts  # as a snapshot carries them (the images never look a game up)
    return v


def _step(hand) -> None:
    for s in list(hand.pending_seats()):
        if hand.is_over():
            return
        if s in hand.pending_seats():
            hand.apply(hand.ai_action(s))


def _deal(game: str, n: int, seed: int):
    info = find_variant(game)
    return info.new_hand(info.resolve_options({}), seed, 0, n)


def first_view(game: str, n: int, wanted, what: str, seed_from: int = 1, min_moves: int = 0):
    """``(hand, public view)`` at the first moment, over the seeds from ``seed_from``, after at
    least ``min_moves`` rounds of AI moves of a hand in progress, whose public view
    ``wanted(view)`` accepts.  ``LookupError`` (naming ``what``) when none in 400 seeds does."""
    for seed in range(seed_from, seed_from + 400):
        hand = _deal(game, n, seed)
        moves = 0
        while not hand.is_over() and moves < 300:
            _step(hand)
            moves += 1
            if moves < min_moves or hand.is_over():
                continue
            v = public(hand, n)
            if wanted(v):
                return hand, v
    raise LookupError(f"no {what} view for {game}")


def _every_pond(v: dict) -> bool:
    return all(s.get("discards") for s in v["seats"])


def mid_hand(game: str, n: int | None = None, seed_from: int = 1, min_moves: int = 12):
    """``(hand, public view)`` of the first seed from ``seed_from`` whose hand, after at least
    ``min_moves`` rounds of AI moves, shows a meld and every seat's discards on the table with
    a side seat on turn (the public view names the turn)."""
    n = n or most_seats(game)
    return first_view(game, n, lambda v: v.get("turn") in side_seats(n) and _every_pond(v)
                      and any(s.get("melds") for s in v["seats"]), "mid-hand", seed_from, min_moves)


def crowded(game: str, n: int | None = None, seed_from: int = 1, pond: int = 24):
    """``(hand, public view)``: a hand in progress with a side seat on turn and melds claimed
    from several seats (from every other seat where there is one other, else from at least
    two), every seat's pond then made ``pond`` tiles long by repeating its own discards — more
    than any hand lays (a 4-seat hand's ponds end near 20, 二人麻将's near 24): the most
    crowded table each game can draw."""
    n = n or most_seats(game)

    def wanted(v: dict) -> bool:
        sources = {m.get("from_seat") for s in v["seats"] for m in s.get("melds") or []} - {None}
        return v.get("turn") in side_seats(n) and len(sources) >= min(2, n - 1) and _every_pond(v)

    hand, v = first_view(game, n, wanted, "crowded", seed_from)
    for s in v["seats"]:
        own = list(s["discards"])
        s["discards"] = (own * pond)[:max(pond, len(own))]
    return hand, v


def claim_window(game: str, n: int | None = None, seed_from: int = 1, min_moves: int = 6):
    """``(hand, public view)`` of the first seed from ``seed_from`` whose hand, after at least
    ``min_moves`` rounds of AI moves, stops on a discard (字牌: a shown card) that a side seat
    put out and others may claim: the public view's ``last_discard``."""
    n = n or most_seats(game)
    return first_view(game, n, lambda v: (v.get("last_discard") or {}).get("seat") in side_seats(n),
                      "claim window", seed_from, min_moves)


def finished(game: str, n: int | None = None, seed_from: int = 1):
    """``(hand, public view)`` of the first seed from ``seed_from`` whose hand the AI finishes
    with a single win by a side seat."""
    n = n or most_seats(game)
    for seed in range(seed_from, seed_from + 400):
        hand = _deal(game, n, seed)
        while not hand.is_over():
            _step(hand)
        res = hand.result or {}
        winners = res.get("winners") or ([res["winner"]] if res.get("winner") is not None else [])
        if len(winners) == 1 and winners[0] in side_seats(n):
            return hand, public(hand, n, scores=list(res.get("points") or [0] * n))
    raise LookupError(f"no finished view for {game}")


def flat(layer, ox: int = 0, oy: int = 0) -> list:
    """Every image a layer of an image pastes, nested layers flattened: ``(image, x, y)`` in
    drawing order."""
    out = []
    for op in layer.ops:
        if op[0] == "img":
            out.append((op[1], ox + op[2], oy + op[3]))
        elif op[0] == "layer":
            out += flat(op[1], ox + op[2], oy + op[3])
    return out


def drawn_tiles(view: dict) -> tuple[list[tuple[tuple, tuple[int, int, int, int]]], tuple[int, int]]:
    """Every tile the table image of ``view`` draws, as it lands on the drawn image:
    ``[(tag, box)]`` (``render.common.tile_tag``; box in px of the image, its opaque part) and
    the image's size — recorded while the image is drawn (``Layer.render(record=…)``), which
    must be the size its layout says."""
    from render.common import FELT
    from render.table import table_layout

    layout = table_layout(view)
    record: list = []
    image = layout.root.render(FELT, record)
    assert image.size == (layout.root.width, layout.root.height)
    return record, image.size
