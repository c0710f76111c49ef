"""Phases of the draw/discard hand (``MahjongHand.phase``, ``view["phase"]``)."""

DISCARD_PHASE, CLAIM_PHASE, ROB_PHASE, OVER = "discard", "claim", "rob", "over"
