"""The local table: play in the terminal through the same table service as the bot.

You sit at seat 0 against AI seats (or, with ``--auto``, your seat plays itself).
Every change writes the public table image to ``<out>/table.png``, your hand to
``<out>/hand.png``, and each finished hand to ``<out>/hand-<n>-result.png``.

Commands at the prompt: a tile (``5m``, ``五万``) discards it; ``ting 5m``;
``chow 3m`` (the chow starting at 3m); ``pung``; ``kong`` / ``kong 7z``; ``hu``;
``double``; ``pass``; ``hint``; ``quit``.  End of input (Ctrl-D) leaves like ``quit``;
Ctrl-C leaves too, with exit code 130.

The prompt reads in the main thread (:func:`read_line`): the table has nothing else to do
while it waits for you (the AI seats move inside each action), and there Ctrl-C can
interrupt the read.  A read in a worker thread (``asyncio.to_thread``) cannot be
interrupted, so Ctrl-C used to leave the process waiting for that thread.
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import os
import secrets
import select
import signal
import sys
import tempfile
import threading
from pathlib import Path

from engine.errors import IllegalAction
from engine.tiles import TileParseError, kind_name, parse_kind
from engine.variants import find_variant
from render.hand import render_hand
from render.table import render_table
from cogs.ui import describe_event
from service.i18n import error_text, t, tile_label
from service.results import result_lines
from store import Store
from service.tables import HIDDEN_EVENTS, ServiceError, TableService

CHANNEL, GUILD, ME = 1, 1, 1
VERBS = {"d": "discard", "discard": "discard", "ting": "ting", "chow": "chow", "pung": "pung", "kong": "kong",
         "hu": "hu", "double": "double", "pass": "pass", "p": "pass"}
#: the Chinese words players type, and the actions they may mean (the first the game offers now)
CHINESE_VERBS = {"打": ("discard",), "出": ("discard",), "听": ("ting",), "报听": ("ting",), "吃": ("chow", "chi"),
                 "碰": ("pung", "peng"), "杠": ("kong",), "胡": ("hu",), "和": ("hu",), "加倍": ("double",),
                 "过": ("pass",), "堆": ("dui",), "留": ("keep",)}


HELP = {
    "zh": "出牌：输入牌名（5m、7z、五万、白板）；ting 5m 报听；chow 3m 吃（3m 起的顺子）；pung 碰；"
          "kong / kong 7z 杠；hu 胡；double 加倍；pass 过；hint 听牌提示；quit 退出。"
          "其他玩法的操作按提示中列出的名字输入（如 dui、keep、peng）。",
    "en": "Discard: type a tile (5m, 7z, 五万, 白板); ting 5m declares ready; chow 3m (the chow from 3m); "
          "pung; kong / kong 7z; hu; double; pass; hint; quit. Other games' actions: type the name the "
          "prompt lists (e.g. dui, keep, peng).",
}


GOODBYE = {"zh": "再见。", "en": "Goodbye."}

_BUILTIN_INPUT = builtins.input
#: read end of the signal wake-up pipe while :func:`play` runs (POSIX), else ``None``
_wakeup_r: int | None = None


def _stdin_fd() -> int | None:
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # replaced by a test runner, closed …
        return None


def read_line(prompt: str = "> ") -> str:
    """``input(prompt)`` that Ctrl-C always interrupts (``KeyboardInterrupt``); ``EOFError``
    at the end of input.

    The kernel hands SIGINT to any thread of the process (the SQLite driver runs one); only
    when it lands on the main thread does a blocked read return to run the handler.  So the
    main thread first waits in ``select()`` on stdin and on the signal wake-up pipe, which
    is written whichever thread got the signal; the handler then raises right here.  A
    replaced ``input`` (tests) or a stdin without a file descriptor is read as it is."""
    fd = _stdin_fd()
    if _wakeup_r is None or fd is None or builtins.input is not _BUILTIN_INPUT:
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    while True:
        ready, _, _ = select.select([fd, _wakeup_r], [], [])
        if _wakeup_r in ready:
            try:
                os.read(_wakeup_r, 512)  # another signal than Ctrl-C: keep waiting
            except BlockingIOError:
                pass
        if fd in ready:
            return input()


def _names(tiles: list[str], lang: str) -> str:
    return " ".join(kind_name(parse_kind(x), "zh") if lang == "zh" else x for x in tiles)


def settlement_text(result: dict, names: list[str], lang: str, variant: str | None = None) -> str:
    """The settlement of a hand as plain text lines: every winner and how they won, the fans,
    the summary and multipliers, who is liable, the points (``service.results``, the same
    words as on Discord)."""
    lines = result_lines(result, names, lang, variant, markdown=False)
    return "\n".join(lines[:1] + ["    " + x for x in lines[1:]])


class StartupError(Exception):
    """The local table cannot open; the message is already in the table's language."""


def _players_text(info, lang: str) -> str:
    lo, hi = info.min_players, info.max_players
    n = str(lo) if lo == hi else f"{lo}–{hi}"
    return f"{info.name_zh}需要 {n} 名玩家。" if lang == "zh" else f"{info.name_en} is played by {n} players."


async def _open_table(service: TableService, args, lang: str):
    """Create the local table with you seated and the AI seats added.  Raises
    :class:`StartupError` with a localized message (unknown game, bad option, seat count)."""
    try:
        info = find_variant(args.variant)
    except KeyError:
        info = None
    try:
        # a --db kept from an earlier local game may hold its table, unfinished: end it (its
        # finished hands and scores stay) so this game can open
        await service.load()
        if CHANNEL in service.tables:
            await service.end(CHANNEL, ME, is_admin=True)
        table = await service.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=ME,
                                           name="你" if lang == "zh" else "Player",
                                           variant=args.variant, options=dict(args.option), lang=lang)
        seats = args.players or table.variant.max_players
        if not table.variant.min_players <= seats <= table.variant.max_players:
            raise StartupError(_players_text(table.variant, lang))
        while len(table.seats) < seats:
            await service.add_ai(CHANNEL, ME)
    except ServiceError as e:
        raise StartupError(error_text(e.code, lang, e.params, info.id if info else None)) from None
    if args.auto:
        table.seats[0].is_ai = True  # --auto: the AI plays your seat too
    return table


def play(args) -> int:
    """Run the local table (``python bot.py`` without a token); returns the exit code:
    0, 2 when it cannot open, 130 when Ctrl-C ended it.

    Ctrl-C raises ``KeyboardInterrupt`` where the program is (at the prompt: in
    ``input()``) instead of asyncio's default of cancelling the main task, which a
    blocking read would not notice; a second Ctrl-C during the clean-up is ignored."""
    global _wakeup_r
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, _interrupt) if main_thread else None
    pipe = previous_wakeup = None
    if main_thread and os.name == "posix":
        pipe = os.pipe()
        for end in pipe:
            os.set_blocking(end, False)
        previous_wakeup = signal.set_wakeup_fd(pipe[1], warn_on_full_buffer=False)
        _wakeup_r = pipe[0]
    try:
        return asyncio.run(run_local(args))
    except KeyboardInterrupt:  # pressed while the table was busy, outside the prompt
        print("\n" + GOODBYE[args.lang])
        return 130
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
        if pipe is not None:
            signal.set_wakeup_fd(previous_wakeup)
            _wakeup_r = None
            for end in pipe:
                os.close(end)


def _interrupt(signum, frame):
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # one Ctrl-C ends the game; the clean-up runs undisturbed
    raise KeyboardInterrupt


def _error(text: str, lang: str) -> None:
    """A start-up error: one line on stderr."""
    print(("错误：" if lang == "zh" else "error: ") + text, file=sys.stderr)


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
        _error((f"无法把图片写到 {out}：" if lang == "zh" else f"cannot write the images to {out}: ") + _reason(e),
               lang)
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
            _error((f"无法打开数据库 {_shown_url(url)}：" if lang == "zh" else
                    f"cannot open the database {_shown_url(url)}: ") + _reason(e), lang)
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
    service = TableService(store, seed_source=lambda: seed)
    try:
        table = await _open_table(service, args, lang)
    except StartupError as e:
        _error(str(e), lang)
        return 2
    print(f"{table.variant.name_zh} {table.variant.name_en} — seed {seed}, images in {out}/")
    shown = 0

    async def on_update(tb, update):
        nonlocal shown
        view = tb.public_view(lang)
        (out / "table.png").write_bytes(render_table(view))
        if tb.hand is not None and not args.auto:
            hv = tb.view(0, lang)
            (out / "hand.png").write_bytes(render_hand(hv))
        notes = list(update.notices.get(0, [])) if update.actor == 0 else []
        for ev in update.events:
            if ev.get("type") in HIDDEN_EVENTS:
                continue  # a pass tells what the AI seats could have done
            line = describe_event(ev, tb.names(), lang, tb.variant.id)
            if line and not args.auto:
                print("  " + line)
            if notes and ev.get("type") == "discard" and ev.get("seat") == 0 and ev.get("tile"):
                for key in notes:  # what you must know of your own move, right after it
                    print("  " + t(key, lang, tile=tile_label(ev["tile"], lang)))
                notes = []
        for key in notes:
            print("  " + t(key, lang, tile="?"))
        shown += 1

    service.listeners.append(on_update)
    await service.start(CHANNEL, ME)
    played = 0
    left = interrupted = False  # you left before the last hand (quit, end of input, Ctrl-C)
    try:
        while True:
            hand = table.hand
            if hand.is_over():
                played += 1
                result = table.last_result
                view = table.view(None, lang)
                (out / f"hand-{played}-result.png").write_bytes(render_table(view))
                print(f"\n== {t('ui.hand_over_title', lang, no=played)} ==")
                print(settlement_text(result, table.names(), lang, table.variant.id))
                if played >= args.hands:
                    break
                await service.next_hand(CHANNEL, ME)
                continue
            if 0 not in hand.pending_seats():
                raise RuntimeError("the local table is waiting for nobody")  # AI seats always move at once
            if not await _human_turn(service, table, lang):
                left = True
                break
    except KeyboardInterrupt:
        print()
        left = interrupted = True
    scores = table.scores()
    print("\n== " + ("总分" if lang == "zh" else "Totals") + " ==")
    for name, pts in zip(table.names(), scores):
        print(f"  {name}: {pts:+d}")
    if left:
        print(GOODBYE[lang])
    return 130 if interrupted else 0


async def _human_turn(service: TableService, table, lang: str) -> bool:
    """One prompt: show your hand, read a command and apply it.  Returns ``False`` when you
    leave (``quit``, end of input); Ctrl-C raises ``KeyboardInterrupt``."""
    view = table.view(0)
    me = view["me"]
    hand = table.hand
    print()
    print(("手牌: " if lang == "zh" else "Hand: ") + _names(me["hand"], lang) +
          (f"  + {_names([me['drawn']], lang)}" if me["drawn"] else ""))
    if me["waits"]:
        print(("听: " if lang == "zh" else "Waits: ") + ", ".join(f"{w['tile']}({w.get('fan', '?')})" for w in me["waits"]))
    if hand.phase != "discard" and hand.last_discard:
        print(("可以操作: " if lang == "zh" else "You may: ") + ", ".join(a.split(" ", 1)[1] for a in me["legal"]))
    else:
        extra = sorted({a.split()[1] for a in me["legal"]} - {"discard"})
        print(("出牌" if lang == "zh" else "Discard a tile") + (f"  ({', '.join(extra)})" if extra else ""))
    try:
        line = read_line("> ").strip()
    except EOFError:
        print()
        return False
    if line in ("quit", "q", "exit"):
        return False
    if line == "hint":
        hints = me.get("hint") or []
        if not hints:
            print("  " + ("没有能听牌的打法。" if lang == "zh" else "No discard leaves a ready hand yet."))
        for h in hints:
            print(f"  {h['discard']}: " + ", ".join(
                f"{w['tile']} {w.get('fan', '?')}{'番' if lang == 'zh' else ' fan'} ({w.get('left', '?')})"
                for w in h["waits"]))
        return True
    if line in ("help", "?", "帮助"):
        print("  " + HELP[lang])
        return True
    words = line.split()
    if not words:
        return True
    verb = VERBS.get(words[0].lower())
    tile = words[1] if len(words) > 1 else None
    own = {a.split()[1] for a in me["legal"]}
    if verb is None and words[0] in CHINESE_VERBS:
        meant = CHINESE_VERBS[words[0]]
        verb = next((v for v in meant if v in own), meant[0])
    if verb is None and words[0].lower() in own:
        verb = words[0].lower()  # a game's own action (dui, keep, peng, chi_…)
    if verb is None:
        verb, tile = "discard", words[0]
    try:
        kind = parse_kind(tile) if tile else None
        await service.act(CHANNEL, ME, verb, kind)  # its notices are printed with its events
    except TileParseError:
        print("  " + error_text("unknown_tile", lang, {"tile": tile}, table.variant.id)
              + ("  (help)" if lang == "en" else "（输入 help 查看操作）"))
    except (ServiceError, IllegalAction) as e:
        # the game's own catalogue first: codes only that game has (金湖 wait_not_allowed …)
        print("  " + error_text(e.code, lang, e.params, table.variant.id))
    return True
