"""Seeded randomness: every random choice of a hand comes from here.

A hand is fully determined by ``(variant, options, seed, actions)``.  The seed of
hand *n* of a table is derived from the table seed by hashing, so a table's
hands are independent and reproducible (and the seed can be committed to by its
hash before the hand and revealed after it).
"""

from __future__ import annotations

import hashlib
import random


def hand_seed(table_seed: int, hand_no: int) -> int:
    """The 63-bit seed (fits a signed 64-bit column) of hand ``hand_no`` (0-based) of a
    table seeded ``table_seed``."""
    digest = hashlib.sha256(f"{table_seed}:{hand_no}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def dealer_draw_seed(table_seed: int, hand_no: int) -> int:
    """The 63-bit seed of the dealer drawn again before hand ``hand_no`` of a table (the
    seated players changed), apart from the hand's own seed."""
    digest = hashlib.sha256(f"{table_seed}:{hand_no}:dealer".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def make_rng(seed: int) -> random.Random:
    """A private :class:`random.Random` seeded with ``seed`` (never the global one)."""
    return random.Random(seed)


def seed_commitment(seed: int) -> str:
    """The hex SHA-256 of a seed, shown before a hand to prove the wall was fixed."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
