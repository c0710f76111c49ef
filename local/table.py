"""The local table: play in the terminal through the same table service as the bot.

You sit at seat 0 against AI seats (or, with ``--auto``, your seat plays itself).
Every change writes the public table image to ``<out>/table.png``, your hand to
``<out>/hand.png``, and each finished hand to ``<out>/hand-<n>-result.png``.

Commands at the prompt: a tile (``5m``, ``五万``) discards it; ``ting 5m``;
``chow 3m`` (the chow starting at 3m); ``pung``; ``kong`` / ``kong 7z``; ``hu``;
``double``; ``pass``; ``hint``; ``quit``.  End of input (Ctrl-D) leaves like ``quit``;
Ctrl-C leaves too, with exit code 130.  Every word it prints comes from ``render.text``
(``render/text/local.py``), in ``--lang`` (``zh``, ``zh-TW`` or ``en``).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import secrets
import sys
import tempfile
from pathlib import Path

from engine.ai_levels import new_seat_level
from engine.errors import IllegalAction
from engine.facts import GameFacts
from engine.variants import find_variant
from render.hand import render_hand
from render.table import render_table
from render.text import describe_event, error_text
from render.text import local as words
from render.text import typed
from render.text.events import with_log as drawable
from service.snapshot import Change
from service.tables import ServiceError, TableService
from store import Store

from .prompt import interruptible, read_line

CHANNEL, GUILD, ME = 1, 1, 1
CHINESE_VERBS = words.CHINESE_VERBS


def settlement_text(result: dict, names: list[str], lang: str, game: GameFacts | None = None) -> str:
    """The settlement of a hand as plain text (see ``render.text.local.settlement``)."""
    return words.settlement(result, names, lang, game)


class StartupError(Exception):
    """The local table cannot open; the message is already in the table's language."""


def your_name(args, lang: str) -> str:
    """Your name at the table: ``--name``, else your login name when you play at a terminal,
    else the catalogue's word for you (a piped or ``--auto`` game prints the same anywhere)."""
    name = (getattr(args, "name", None) or "").strip()
    if name:
        return name[:32]
    if sys.stdin.isatty() and not getattr(args, "auto", False):
        with contextlib.suppress(Exception):
            login = getpass.getuser().strip()
            if login and login != "root":
                return login[:32]
    return words.you(lang)


async def _open_table(service: TableService, args, lang: str):
    """Create the local table with you seated and the AI seats added (at ``args.ai_level``,
    default strong); returns its snapshot.  Raises :class:`StartupError` with a localized
    message (unknown game, bad option, seat count)."""
    try:
        info = find_variant(args.variant)
    except KeyError:
        info = None
    try:
        # a --db kept from an earlier local game may hold its table, unfinished: end it (its
        # finished hands and scores stay) so this game can open
        await service.load()
        if service.is_open(CHANNEL):
            await service.end(CHANNEL, ME, is_admin=True)
        options = dict(args.option)
        if args.hands <= 100:  # the local game is a match of --hands hands (option match_hands)
            options["match_hands"] = args.hands
        # (nothing listens yet: each snapshot is read from the service)
        await service.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=ME, name=your_name(args, lang),
                                   variant=args.variant, options=options, lang=lang)
        game = service.snapshot(CHANNEL).game
        seats = args.players or game.max_players
        if not game.min_players <= seats <= game.max_players:
            raise StartupError(words.players(game, lang))
        level = getattr(args, "ai_level", None) or new_seat_level([info])
        for _ in range(seats - 1):
            await service.add_ai(CHANNEL, ME, level)
        if args.auto:  # --auto: the AI plays your seat too, at the same level
            await service.let_ai_play(CHANNEL, ME, level)
    except ServiceError as e:
        raise StartupError(error_text(e.code, lang, e.params, info.facts if info else None)) from None
    return service.snapshot(CHANNEL)


def play(args) -> int:
    """Run the local table (``python bot.py`` without a token); returns the exit code:
    0, 2 when it cannot open, 130 when Ctrl-C ended it."""
    with interruptible():
        try:
            return asyncio.run(run_local(args))
        except KeyboardInterrupt:  # pressed while the table was busy, outside the prompt
            print("\n" + words.goodbye(args.lang))
            return 130


def _error(text: str, lang: str) -> None:
    """A start-up error: one line on stderr."""
    print(words.error(text, lang), file=sys.stderr)


def _reason(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else type(e).__name__


def _shown_url(url: str) -> str:
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


async def run_local(args) -> int:
    """Play ``args.hands`` hands at a local table; returns the process exit code
    (``args.option``: ``(key, value)`` pairs, see ``bot.table_option``)."""
    lang = args.lang
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _error(words.cannot_write_images(out, _reason(e), lang), lang)
        return 2
    tmp = None
    url = args.db
    if url is None:
        tmp = tempfile.TemporaryDirectory()
        url = f"sqlite:///{tmp.name}/local.db"
    try:
        store = None
        try:
            store = Store(url)
            await store.init()
        except Exception as e:  # a bad URL, a server that does not answer, a foreign schema …
            _error(words.cannot_open_db(_shown_url(url), _reason(e), lang), lang)
            if store is not None:
                with contextlib.suppress(Exception):
                    await store.close()
            return 2
        try:
            return await _play(store, args, lang, out)
        finally:
            await store.close()
    finally:
        if tmp is not None:
            tmp.cleanup()


async def _play(store: Store, args, lang: str, out: Path) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    service = TableService(store, seed_source=lambda: seed, vocabulary=typed)
    try:
        snap = await _open_table(service, args, lang)
    except StartupError as e:
        _error(str(e), lang)
        return 2
    print(words.opening(snap.game, seed, out, lang))

    latest = {"snap": snap}

    async def on_change(change: Change) -> None:
        snap = latest["snap"] = change.snapshot
        pub = drawable(snap.public.view, snap.public.names, lang, snap.game)
        (out / "table.png").write_bytes(render_table(pub))
        part = snap.parts[0]
        if part is not None and part.dealt and snap.hand_id is not None and not args.auto:
            (out / "hand.png").write_bytes(render_hand(dict(part.view)))
        notes = list(change.notices.get(0, ())) if change.actor == 0 else []
        names = list(snap.public.names)
        for ev in change.events:
            line = describe_event(ev, names, lang, snap.game)
            if line and not args.auto:
                print("  " + line)
            if notes and ev.get("type") == "discard" and ev.get("seat") == 0 and ev.get("tile"):
                for key in notes:  # what you must know of your own move, right after it
                    print("  " + words.notice(key, ev["tile"], lang))
                notes = []
        for key in notes:
            print("  " + words.notice(key, None, lang))

    service.listeners.append(on_change)
    await service.start(CHANNEL, ME)
    played = 0
    left = interrupted = False  # you left before the last hand (quit, end of input, Ctrl-C)
    try:
        while True:
            snap = latest["snap"]
            if snap.public.next_hand or snap.closed:
                played += 1
                result = snap.public.result
                (out / f"hand-{played}-result.png").write_bytes(
                    render_table(drawable(snap.public.view, snap.public.names, lang, snap.game)))
                print(f"\n== {words.hand_over(played, lang)} ==")
                print(settlement_text(result, list(snap.public.names), lang, snap.game))
                for line in words.winning_hands(snap.public.view, result, list(snap.public.names), lang):
                    print("  " + line)
                if played >= args.hands or snap.closed:
                    break
                if not args.auto and not _wait_for_next(lang):  # read the result first
                    left = True
                    break
                await service.next_hand(CHANNEL, ME)
                continue
            part = snap.parts[0]
            if part is None or part.decision is None:  # you sit at seat 0
                raise RuntimeError("the local table is waiting for nobody")  # AI seats always move at once
            if not await _human_turn(service, snap, lang):
                left = True
                break
    except KeyboardInterrupt:
        print()
        left = interrupted = True
    print(f"\n== {words.totals(lang)} ==")
    for s in latest["snap"].public.view.get("seats") or ():
        print(f"  {s.get('name')}: {int(s.get('score') or 0):+d}")
    if left:
        print(words.goodbye(lang))
    return 130 if interrupted else 0


def _wait_for_next(lang: str) -> bool:
    """After a hand's result: Enter deals the next hand; ``quit`` or end of input leaves
    (``False``)."""
    try:
        line = read_line(words.next_hand_prompt(lang)).strip()
    except EOFError:
        print()
        return False
    return line not in words.QUIT_WORDS


async def _human_turn(service: TableService, snap, lang: str) -> bool:
    """One prompt: show your hand, read a command and apply it (read by the table service,
    ``service/interpret.py``).  Returns ``False`` when you leave (``quit``, end of input);
    Ctrl-C raises ``KeyboardInterrupt``."""
    part = snap.parts[0]
    view = dict(part.view)
    print()
    for line in words.table_lines(view, snap.game, lang):
        print(line)
    for line in words.hand_lines(view, snap.game, lang):
        print(line)
    try:
        line = read_line("> ").strip()
    except EOFError:
        print()
        return False
    if line in words.QUIT_WORDS:
        return False
    if line == "hint":
        for text in words.hint_lines(part.me, lang, snap.game):
            print("  " + text)
        return True
    if line in words.HELP_WORDS:
        for text in words.help_lines(view, snap.game, lang):
            print("  " + text)
        return True
    if not line.split():
        return True
    try:
        await service.act_typed(CHANNEL, ME, line)  # its notices are printed with its events
    except (ServiceError, IllegalAction) as e:
        hint = words.unknown_tile_hint(lang) if e.code == "unknown_tile" else ""
        print("  " + error_text(e.code, lang, e.params, snap.game) + hint)
    return True
