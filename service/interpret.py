"""One reading of a typed move, for every front end: ``/act``, the play verbs (``/discard``,
``/pung`` …) and the local table's prompt.

:func:`interpret` turns what a player typed into a :class:`~service.snapshot.Move`, read
against the seat's part of the latest snapshot, or refuses it with a reason
(:class:`~service.table.ServiceError`, codes of the message catalogues):

1. a text that names one of the seat's legal moves — a button's words in any language, the
   game's term with its tiles or cards, a tile to discard — is that move (the words are the
   front ends': a :class:`Vocabulary`, ``render/text/typed.py``);
2. a shared verb with a tile that names no legal move now (``胡`` below the minimum, ``pung``
   out of turn, ``discard 9s`` not held) is still read as that move, so the engine's refusal
   says why it cannot be done;
3. a bare tile, or a word written like one (``9z``), is a discard of it (the engine says
   whether it can go; ``unknown_tile`` for no tile);
4. anything else: ``unknown_action`` with the legal moves' names, or ``ambiguous_action``.

A play verb (``verb``) narrows the reading to the moves that verb may mean: ``/pung`` is 字牌's
碰, ``/chow`` the only chow (``chow_choice`` when there are several).
"""

from __future__ import annotations

import re
from typing import Any, Optional, Protocol

from engine.errors import IllegalAction
from engine.facts import GameFacts
from engine.tiles import TileParseError, kind_str, parse_kind

from .snapshot import Move, SeatPart
from .table import ServiceError


class Vocabulary(Protocol):
    """The words of typed moves (``render/text/typed.py`` is one)."""

    def parse(self, text: str, view: Any, game: GameFacts, lang: str) -> Any:
        """The legal move ``text`` names (``.act``, ``.tile``); raises an error with ``code``
        (``unknown_action``, ``ambiguous_action``) and ``params`` otherwise."""

    def shared_verb(self, text: str) -> Optional[tuple[str, Optional[str]]]:
        """``(action, tile text)`` when ``text`` starts with a shared verb (``hu``, ``碰``)."""

    def verb_means(self, verb: str, act: str) -> bool:
        """Whether the typed verb may mean the game's action ``act``."""


#: the shared verbs whose move always names a tile (a discard, a 听 with its discard)
TILE_VERBS = ("discard", "ting")
#: a word written like a tile in notation (``5m``, ``9z``, ``10X``): typed as a tile to discard
_TILE_LIKE = re.compile(r"^\d{1,2}[a-zA-Z]$")


def _reads_as_tile(word: str) -> bool:
    try:
        parse_kind(word)
        return True
    except (TileParseError, ValueError):
        return False


def read_tile(text: Optional[str]) -> Optional[str]:
    """A typed tile in notation (``五万`` → ``5m``); ``None`` when blank; ``unknown_tile``
    (quoting what was typed) when it is no tile."""
    if text is None or text.strip() in ("", "-"):
        return None
    try:
        return kind_str(parse_kind(text.strip()))
    except (TileParseError, ValueError):
        raise ServiceError("unknown_tile", tile=text) from None


def _refusal(e: Optional[Exception]) -> ServiceError:
    return ServiceError(getattr(e, "code", "unknown_action"), **dict(getattr(e, "params", {}) or {}))


def _parse(vocab: Vocabulary, part: SeatPart, game: GameFacts, texts: list[str],
           verb: Optional[str] = None) -> Move:
    """The move the first of ``texts`` names among the legal moves (with ``verb``: only a move
    that verb may mean); the first text's refusal otherwise."""
    first: Optional[Exception] = None
    for text in texts:
        try:
            choice = vocab.parse(text, part.view, game, part.lang)
            if verb is not None and not vocab.verb_means(verb, choice.act):
                raise ServiceError("unknown_action", value=text, choices="")
            return Move(choice.act, choice.tile)
        except Exception as e:  # the vocabulary's refusal, or the one above
            if not hasattr(e, "code"):
                raise
            first = first or e
    raise _refusal(first)


def interpret(part: SeatPart, game: GameFacts, text: Optional[str], vocab: Vocabulary, *,
              verb: Optional[str] = None) -> Move:
    """The move a player means (see the module docstring).

    :param part: the seat's part of the latest snapshot.
    :param text: what was typed: the whole move (``verb`` ``None``), or the play verb's
        argument (a tile, a chow's tiles; ``None`` when left out).
    :param verb: the play verb used (``discard``, ``ting``, ``chow``, ``pung``, ``kong``,
        ``hu``, ``double``, ``pass``), or ``None`` for a typed move.
    :raises ServiceError: ``unknown_action``, ``ambiguous_action``, ``unknown_tile``,
        ``tile_missing``, ``tile_missing_for`` (a verb typed without the tile its moves
        need: ``ting`` for ``ting 5m``), ``chow_choice``.
    :raises IllegalAction: ``cannot_claim`` for a chow the seat cannot make.
    """
    acts = {m.type for m in part.moves}
    if verb is None:
        typed = (text or "").strip()
        try:
            return _parse(vocab, part, game, [typed])
        except ServiceError as e:
            if e.code != "unknown_action":
                raise
            shared = vocab.shared_verb(typed)
            if shared is not None:  # a shared verb that names no legal move now: the engine says why
                tile = read_tile(shared[1])
                named = [m.tile for m in part.moves if m.type == shared[0] and m.tile]
                held = list((part.view.get("me") or {}).get("hand") or [])
                if tile is None and shared[0] in TILE_VERBS and (named or held):  # ting alone: which tile
                    raise ServiceError("tile_missing_for", verb=typed.split()[0], example=(named or held)[0])
                return Move(shared[0], tile)
            words = typed.split()
            if len(words) == 1 and (_TILE_LIKE.match(words[0]) or _reads_as_tile(words[0])):
                # a bare tile (or what is written like one, 9z): the engine says if it can go
                return Move("discard", read_tile(words[0]))
            raise
    if verb == "chow" and text is None:
        chows = [m for m in part.moves if m.type == "chow"]
        if len(chows) > 1:
            raise ServiceError("chow_choice", choices=", ".join(m.tile or "" for m in chows))
        if chows:
            return chows[0]
        if not any(vocab.verb_means("chow", a) and a != "chow" for a in acts):
            raise IllegalAction("cannot_claim", claim="chow")
    if acts and verb not in acts:
        # the verb as the game's own word (/pung is 字牌's 碰); its argument may be a typed move
        try:
            return _parse(vocab, part, game, [f"{verb} {text or ''}"] + ([text] if text else []), verb=verb)
        except ServiceError as e:
            if e.code != "unknown_action":
                raise
    elif text:
        # a tile as its button names it (字牌's small 三) is read among the legal moves
        try:
            return _parse(vocab, part, game, [f"{verb} {text}"], verb=verb)
        except ServiceError as e:
            if e.code != "unknown_action":
                raise
    tile = read_tile(text)
    if verb == "discard" and tile is None:
        raise ServiceError("tile_missing")
    return Move(verb, tile)


__all__ = ["Vocabulary", "interpret", "read_tile"]
