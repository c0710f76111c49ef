"""The twin hands of ``privacy_twins``: two runs that differ only in a hidden fact must show
the public exactly the same events and the same public view.

For each twin both runs are played action by action (each action legal when applied); the
public events — every event but ``pass`` — must be equal, event for event.  At the twin
moment run A's hidden seat has a claim window and passes, run B's has none (``claim_pass``);
or run A's seat declares 假听 and run B's a real 听 (``fake_ting``).
"""

from __future__ import annotations

import pytest

from games import game_ids

from engine.actions import Action

try:
    from privacy_twins import TWINS, Run, Twin, deal
except ImportError:  # pragma: no cover
    from tests.harness.privacy_twins import TWINS, Run, Twin, deal

GAMES = game_ids()
CLAIM_PHASES = ("claim", "rob")


def public(events) -> list[dict]:
    """The events the public may see: all but ``pass``."""
    return [j for j in (e.to_json() for e in events) if j["type"] != "pass"]


def in_window(hand) -> bool:
    return hand.phase in CLAIM_PHASES


def play(t: Twin, run: Run, check=None):
    """Deal ``run`` and apply its actions, each checked to be legal when applied;
    ``check(i, hand)`` is called after action ``i``.  Returns the hand."""
    hand = deal(t, run)
    for i, line in enumerate(run.actions):
        action = Action.parse(line)
        legal = hand.legal_actions(action.seat)
        assert action in legal, f"{t.game} {t.kind}: action {i} {line!r} not legal; legal: {[str(a) for a in legal]}"
        hand.apply(action)
        if check:
            check(i, hand)
    return hand


def named_draws(run: Run) -> list[int]:
    spec = run.extra["stacked"]
    return spec.get("draws", spec.get("stock", []))


def front_draws(hand) -> int:
    """Tiles (cards) taken from the front of the wall (stock) since the deal."""
    dealt = getattr(hand, "DEAL_OTHER", None)
    if dealt is None:  # 字牌: the stock is apart from the dealt hands
        return hand.front
    return hand.front - (dealt * hand.n + 1)


def public_view(hand, *, phase: bool) -> dict:
    v = {k: val for k, val in hand.view(None).items() if k not in ("pending", "seq")}
    if not phase:
        v.pop("phase")
        v.pop("turn")
    return v


def test_every_game_has_its_twins():
    assert set(TWINS) == {(g, "claim_pass") for g in GAMES} | {("jinhu", "fake_ting"), ("zipai", "claim_pass:stock")}
    for (game, kind), t in TWINS.items():
        assert (t.game, t.kind) == (game, kind.partition(":")[0])


@pytest.mark.parametrize("key", sorted(TWINS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_twins_show_the_same_public_events(key):
    t = TWINS[key]
    a, b = play(t, t.a), play(t, t.b)
    assert public(a.events) == public(b.events)
    assert len(t.a.actions) - t.moment_a >= 4 and len(t.b.actions) - t.moment_b >= 4
    # every tile the scripts draw is named, the same in both runs
    common = 0
    for x, y in zip(named_draws(t.a), named_draws(t.b)):
        if x != y:
            break
        common += 1
    assert front_draws(a) <= common and front_draws(b) <= common


@pytest.mark.parametrize("key", sorted(TWINS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_twins_show_the_same_public_view(key):
    t = TWINS[key]
    a, b = play(t, t.a), play(t, t.b)
    phase = not in_window(a) and not in_window(b)
    assert public_view(a, phase=phase) == public_view(b, phase=phase)


@pytest.mark.parametrize("game", GAMES)
def test_claim_pass_hidden_seat_passes_in_a_and_has_no_window_in_b(game):
    t = TWINS[(game, "claim_pass")]
    h = t.hidden_seat
    pass_line = f"{h} pass"
    assert t.a.actions[t.moment_a + 1] == pass_line
    assert t.a.actions.count(pass_line) == 1 and pass_line not in t.b.actions
    # both runs agree up to the twin moment and after the pass
    assert t.a.actions[:t.moment_a + 1] == t.b.actions[:t.moment_b + 1]
    assert t.a.actions[t.moment_a + 2:] == t.b.actions[t.moment_b + 1:]

    seen = {}

    def check_a(i, hand):
        if i == t.moment_a:
            legal = hand.legal_actions(h)
            seen["a"] = [str(x) for x in legal]
            assert in_window(hand) and h in hand.pending_seats()
            assert Action(h, "pass") in legal and any(x.type != "pass" for x in legal)

    def check_b(i, hand):
        if i == t.moment_b:
            seen["b"] = True
            assert Action(h, "pass") not in hand.legal_actions(h)
            if in_window(hand):  # other seats decide: the hidden seat has nothing to do
                assert h not in hand.pending_seats() and hand.legal_actions(h) == []

    play(t, t.a, check_a)
    play(t, t.b, check_b)
    assert seen.get("a") and seen.get("b")


def test_fake_ting_is_fake_in_a_and_real_in_b():
    t = TWINS[("jinhu", "fake_ting")]
    s = t.hidden_seat
    assert t.a.actions[t.moment_a] == f"{s} fake_ting"
    discard = Action.parse(t.a.actions[t.moment_a + 1])
    assert discard.seat == s and discard.type == "discard"
    assert Action.parse(t.b.actions[t.moment_b]) == Action(s, "ting", discard.kind)

    def check_a(i, hand):
        if i == t.moment_a - 1:  # before the 假听: a real 听 with that discard is not possible
            assert Action(s, "fake_ting") in hand.legal_actions(s)
            assert Action(s, "ting", discard.kind) not in hand.legal_actions(s)

    a, b = play(t, t.a, check_a), play(t, t.b)
    assert a.fake[s] and a.ting[s]
    assert not b.fake[s] and b.ting[s] and b.waits(s)
    assert a.view(None)["seats"][s]["ting"] is True
    assert b.view(None)["seats"][s]["ting"] is True
    for hand in (a, b):
        assert not any(x.type == "fake_ting" for x in hand.legal_actions(s))


def frames(t: Twin, run: Run) -> list:
    """The hand's public frame (``Hand.public_frame``: view and public events) after each action."""
    out = []

    def keep(i, hand):
        view, n = hand.public_frame()
        out.append((view, public(hand.events[:n])))

    play(t, run, keep)
    return out


@pytest.mark.parametrize("key", sorted(TWINS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_twins_show_the_same_public_frame_at_every_step(key):
    """The public frame (``engine/frames.py``) is the same in both runs at the twin moment and
    at every step after it: a claim window, its pass and what followed the discard by itself
    in run B show nothing of their own (for 假听, the frame after 假听 is the one before it)."""
    t = TWINS[key]
    a, b = frames(t, t.a), frames(t, t.b)
    if t.kind == "claim_pass":
        assert a[t.moment_a] == b[t.moment_b]
        assert a[t.moment_a + 1] == a[t.moment_a]  # the pass
        assert a[:t.moment_a + 1] + a[t.moment_a + 2:] == b
    else:  # 假听 (no event of its own) and then its discard, against a real 听 with that discard
        assert a[t.moment_a] == a[t.moment_a - 1]
        assert a[:t.moment_a] + a[t.moment_a + 1:] == b
    # the frame never shows a claim window: no claim phase, nothing a window is open on
    for view, _ in a + b:
        assert view["phase"] not in CLAIM_PHASES and view.get("last_discard") is None and view.get("rob") is None
