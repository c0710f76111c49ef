"""Matches and their final standings (大结算): what a table's settled hands add up to per
player, worked out from the stored settlements (never from the seats: a seat may change hands
between hands), kept with the match and read back for ``/mj history`` and the replays.

A player is a user (``user_id``); an AI seat is its seat name (``AI 1``).  Errors for users
are :class:`service.table.ServiceError` with a catalogue code (``unknown_match``).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

from store import MatchRecord, Store

from .table import ServiceError


def player_key(settlement: Any) -> str:
    """Who a settlement row belongs to: ``"u<user id>"`` for a human, ``"ai:<seat name>"`` for
    an AI seat."""
    if settlement.user_id is not None and not settlement.is_ai:
        return f"u{settlement.user_id}"
    return f"ai:{settlement.name}"


def standings(hands: Iterable[Any], *, hands_planned: int = 0) -> dict:
    """The final standings of a match from its settled hands (``HandRecord``s with their
    settlements, in the order they were dealt).

    :returns: ``{"hands_planned": int, "hands": [{"hand_id", "no", "winners": [names],
        "points": {player key: points}}], "players": [{"key", "user_id", "name", "is_ai",
        "rank", "total", "hands", "wins", "self_drawn", "deal_ins", "best", "paid"}]}`` —
        players best first (total, then wins, then who sat first); ``rank`` is shared by equal
        totals (1, 1, 3); ``best`` is the player's won hand with the most points
        (``{"hand_id", "no", "points", "fan"}``, the first of equals; ``None`` without a win);
        ``paid`` the most the player paid in one hand (``{"hand_id", "no", "points"}`` with
        ``points`` > 0; ``None`` when they never paid).  ``no`` counts the match's hands from 1.
    """
    players: dict[str, dict] = {}
    lines = []
    for no, h in enumerate(hands, 1):
        winners: list = []
        points: dict = {}
        for s in sorted(h.settlements, key=lambda x: x.seat):
            k = player_key(s)
            p = players.setdefault(k, {"key": k, "user_id": None if s.is_ai else s.user_id, "name": s.name,
                                       "is_ai": bool(s.is_ai), "total": 0, "hands": 0, "wins": 0,
                                       "self_drawn": 0, "deal_ins": 0, "best": None, "paid": None})
            p["name"] = s.name  # the latest name
            p["total"] += s.points
            p["hands"] += 1
            points[k] = points.get(k, 0) + s.points
            if s.is_winner:
                winners.append(s.name)
                p["wins"] += 1
                p["self_drawn"] += bool(s.self_drawn)
                if p["best"] is None or s.points > p["best"]["points"]:
                    p["best"] = {"hand_id": h.id, "no": no, "points": s.points, "fan": s.fan}
            p["deal_ins"] += bool(s.dealt_in)
            if s.points < 0 and (p["paid"] is None or -s.points > p["paid"]["points"]):
                p["paid"] = {"hand_id": h.id, "no": no, "points": -s.points}
        lines.append({"hand_id": h.id, "no": no, "winners": winners, "points": points})
    order = list(players)
    ranked = sorted(players.values(), key=lambda p: (-p["total"], -p["wins"], order.index(p["key"])))
    for p in ranked:
        p["rank"] = 1 + sum(1 for q in ranked if q["total"] > p["total"])
    return {"hands_planned": int(hands_planned), "hands": lines, "players": ranked}


class MatchRecords:
    """The ended matches of every server and their final standings, read through the store."""

    def __init__(self, store: Store):
        self.store = store

    async def standings_of(self, match: Any) -> dict:
        """A match's standings (``MatchRecord``): the stored ones, else worked out from the
        table's settled hands and stored (so computing them twice gives the same)."""
        if match.standings is not None:
            return dict(match.standings)
        data = standings(await self.store.match_hands(match.table_id), hands_planned=match.hands_planned)
        await self.store.set_match_standings(match.id, data)
        return data

    async def match(self, guild_id: Optional[int], match_id: int) -> tuple[Any, dict]:
        """``(MatchRecord, standings)`` of a match of this server (``guild_id`` ``None``: any);
        ``unknown_match`` for another server's or none."""
        try:
            m = await self.store.get_match(match_id)
        except LookupError:
            raise ServiceError("unknown_match", match=match_id) from None
        if guild_id is not None and m.guild_id != guild_id:
            raise ServiceError("unknown_match", match=match_id)
        return m, await self.standings_of(m)

    async def match_lang(self, match: Any) -> str:
        """The language of the match's table (its public messages)."""
        return (await self.store.get_table(match.table_id)).lang

    async def unposted(self, owns: Optional[Callable[[int], bool]] = None) -> list[MatchRecord]:
        """Ended matches whose standings message is not posted yet (``owns(guild_id)``: only
        this process's servers)."""
        return [m for m in await self.store.unposted_matches() if owns is None or owns(m.guild_id)]

    async def posted(self, match_id: int, message_id: int) -> None:
        """Remember the message that showed a match's standings (it is not posted again)."""
        await self.store.set_match_message(match_id, message_id)

    async def server_matches(self, guild_id: int, limit: int = 25) -> list[tuple[Any, dict]]:
        """A server's latest ended matches, newest first: ``[(MatchRecord, standings)]`` (what
        ``/mj standings`` offers)."""
        return [(m, await self.standings_of(m)) for m in await self.store.guild_matches(guild_id, limit=limit)]

    async def player_matches(self, guild_id: int, user_id: int, variant: Optional[str] = None,
                             limit: int = 5) -> list[tuple[Any, dict]]:
        """A player's latest ended matches in a server, newest first: ``[(MatchRecord, standings)]``."""
        out = []
        for m in await self.store.player_matches(guild_id, user_id, limit=limit, variant=variant):
            out.append((m, await self.standings_of(m)))
        return out


def player_line(data: dict, user_id: int) -> Optional[dict]:
    """The standings line of a user (``None`` when they did not play the match)."""
    return next((p for p in data.get("players", []) if p.get("user_id") == user_id and not p.get("is_ai")), None)


__all__ = ["standings", "player_key", "player_line", "MatchRecords"]
