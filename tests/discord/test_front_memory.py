"""What the fan-out keeps of the messages it sent (``cogs/memory.py``), as stored and read back."""

from __future__ import annotations

from cogs.memory import NoticeMemo, PanelMemo, SeatMemory, TableMemory


def test_the_memory_reads_back_as_it_was_stored():
    memo = SeatMemory(user_id=7, panel=PanelMemo(3, 40, 41, version=5, picture=4, png="ab"),
                      notice=NoticeMemo(3, 2, 40, 42, deadline=1000), stale=((40, 39),), told=3, prompted=(3, 2))
    stored = TableMemory({1: memo}).to_json()
    assert stored["v"] == 3
    assert TableMemory.from_json(stored).seat(1) == memo


def test_a_decision_prompted_under_the_earlier_numbering_is_forgotten():
    """Memory of format 2 numbered decisions by the hand's actions: its "decision prompted" may
    equal a number the seat's own count reaches later, which would silence that prompt, so it
    is forgotten (the current decision is prompted again); its panel and notice are kept."""
    v2 = {"v": 2, "seats": {"1": {"user_id": 7, "panel": {"hand_id": 3, "channel_id": 40, "message_id": 41},
                                  "notice": {"hand_id": 3, "decision": 17, "channel_id": 40, "message_id": 42},
                                  "stale": [], "told": None, "prompted": [3, 17]}}}
    seat = TableMemory.from_json(v2).seat(1)
    assert seat.prompted is None
    assert seat.panel == PanelMemo(3, 40, 41) and seat.notice.message_id == 42
    legacy = {"seats": {"1": {"user": 7, "panel": {"hand": 3, "channel": 40, "message": 41},
                              "notice": {"hand": 3, "decision": 17, "channel": 40, "message": 42}}}}
    seat = TableMemory.from_json(legacy).seat(1)
    assert seat.prompted is None and seat.panel == PanelMemo(3, 40, 41) and seat.user_id == 7
