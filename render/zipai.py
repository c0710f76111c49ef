"""字牌 specifics of the table and hand images (``docs/rules/zipai.md``).

The generic renderers draw 字牌 views once :func:`adapt` has reshaped them: the cards are
long narrow paper cards (``render.tiles.card_drawers``, small and big cards on different
paper and ink), the face-down cards of 偎/提 come as ``None`` in other seats' views and are
drawn as backs, the shown card (the dealer's 15th, a stock card shown 示众, or a discard)
sits in the centre with its own label, and a winning card is marked with its 胡息.
"""

from __future__ import annotations

from .common import label

#: where the shown card came from (``view["shown"]["from"]``) → its label's catalogue key
_SHOWN = {"deal": "paper_shown_deal", "stock": "paper_shown_stock", "discard": "paper_shown_discard"}


def adapt(view: dict) -> dict:
    """A copy of a 字牌 view laid out for the generic table/hand renderers.

    Every group's face-down cards are already ``None`` for other seats (the engine hides them);
    here groups are marked not concealed so the renderer draws exactly the cards it is given,
    and no card is marked as taken: players lay a group as one column of upright cards
    (``render.common.meld_group`` draws it so), the taken card of a 吃/碰/跑 among them.
    ``last_discard`` points at the shown card so the centre shows it.
    """
    v = dict(view)
    seats = []
    for sv in view.get("seats") or []:
        s = dict(sv)
        melds = []
        for m in sv.get("melds") or []:
            m = dict(m)
            m["claimed_index"] = None
            m["concealed"] = False
            melds.append(m)
        s["melds"] = melds
        seats.append(s)
    v["seats"] = seats
    shown = view.get("shown")
    if shown and view.get("phase") not in ("over", "piao"):
        v["last_discard"] = {"seat": shown.get("seat"), "tile": shown.get("card")}
    return v


def shown_label(view: dict) -> str:
    """The centre label of the shown card: 庄家亮张 / 示众 / 打出."""
    src = (view.get("shown") or {}).get("from", "stock")
    return label(view, _SHOWN.get(src, _SHOWN["stock"]))


def wait_label(view: dict, wait: dict) -> str:
    """The text under a winning card: its 胡息 (``12息`` / ``12 hu xi``)."""
    return label(view, "paper_huxi", n=wait.get("huxi", 0))


def blank_hand_image(view: dict):
    """The hand image when the seat holds no card to show: during 飘 (cards are not looked at
    before declaring) or with every card on the table.  Returns an RGB ``PIL.Image``."""
    from .canvas import Layer
    from .common import FELT, GOLD

    text = label(view, "paper_piao_first" if view.get("phase") == "piao" else "paper_no_cards")
    layer = Layer(520, 80)
    layer.text((260, 40), text, 22, fill=GOLD, bold=True, anchor="mm")
    return layer.render(FELT)
