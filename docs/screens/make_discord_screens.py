"""Draw the Discord screens in this folder: for every game, one player's panel (a DM) and the table
message, as Discord's dark theme shows them, from what the bot sent through the fake Discord.

    python docs/screens/make_discord_screens.py        # every game
    python docs/screens/make_discord_screens.py zipai  # one game

Each game is played by two humans (the rest AI seats) from table seed 3 until, after at least
eight moves, a human must discard (or, after twelve, decide anything); the panel of that player and the table message are then
written as HTML (the message's components and embed, the tiles' emoji pictures the fake keeps,
the table image) and photographed with a headless Chromium (``apt install chromium``) into
``<game>-panel.png`` and ``<game>-table.png``.  The HTML imitates Discord's layout only as far
as a reader needs to see what a player sees; it is not Discord's own rendering.
"""

from __future__ import annotations

import asyncio
import base64
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "harness")]

STYLE = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
CSS = """
body { background: #313338; color: #dbdee1; font: 15px/1.375 "Noto Sans", "Noto Sans CJK SC", sans-serif;
       margin: 0; padding: 16px; width: 620px; }
.author { font-weight: 600; color: #f2f3f5; margin-bottom: 4px; } .author span { background: #5865f2; color: #fff;
       font-size: 10px; padding: 1px 4px; border-radius: 3px; margin-left: 4px; vertical-align: middle; }
.box { background: #2b2d31; border-left: 4px solid var(--accent); border-radius: 8px; padding: 12px 14px; }
.text { white-space: pre-wrap; margin: 0 0 8px 0; } .text b { color: #f2f3f5; } .text blockquote { border-left: 4px solid #4e5058;
       margin: 0; padding-left: 8px; }
img.emoji { width: 22px; height: 22px; vertical-align: -6px; object-fit: contain; }
.row { display: flex; gap: 8px; margin-top: 8px; flex-wrap: nowrap; }
.btn { min-width: 40px; height: 32px; border-radius: 3px; color: #fff; display: inline-flex; align-items: center;
       justify-content: center; padding: 0 12px; font-size: 14px; font-weight: 500; gap: 4px; }
.btn.off { opacity: .5; } .btn img { width: 22px; height: 22px; object-fit: contain; }
.select { background: #1e1f22; border-radius: 4px; height: 40px; flex: 1; display: flex; align-items: center;
       padding: 0 12px; color: #949ba4; }
.embed { background: #2b2d31; border-left: 4px solid var(--accent); border-radius: 4px; padding: 10px 16px 16px; }
.embed h3 { margin: 4px 0 8px; color: #f2f3f5; font-size: 16px; } .embed img.big { max-width: 100%; border-radius: 4px;
       margin-top: 12px; }
"""


def _mark(text: str, emoji_src) -> str:
    """Discord's markup of ``text`` as HTML: bold, quotes, timestamps, channel mentions,
    custom emojis (``emoji_src(id)`` → a data URI)."""
    out = []
    for line in text.split("\n"):
        quote = line.startswith("> ")
        line = html.escape(line[2:] if quote else line)
        line = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", line)
        line = re.sub(r"\\(.)", r"\1", line)
        line = re.sub(r"&lt;t:\d+:R&gt;", "in 30 seconds", line)
        line = re.sub(r"&lt;#\d+&gt;", "<span style='color:#c9cdfb'>#mahjong</span>", line)
        line = re.sub(r"&lt;:(\w+):(\d+)&gt;", lambda m: f"<img class=emoji alt='{m[1]}' src='{emoji_src(m[2])}'>",
                      line)
        out.append(f"<blockquote>{line}</blockquote>" if quote else line + "\n")
    return "".join(out).rstrip("\n")


def _components(components: list, emoji_src) -> str:
    out = []
    for c in components:
        t = c.get("type")
        if t == 17:
            accent = "#%06x" % int(c.get("accent_color") or 0x4e5058)
            out.append(f"<div class=box style='--accent:{accent}'>{_components(c.get('components') or [], emoji_src)}"
                       "</div>")
        elif t == 10:
            out.append(f"<div class=text>{_mark(c.get('content') or '', emoji_src)}</div>")
        elif t == 1:
            out.append(f"<div class=row>{_components(c.get('components') or [], emoji_src)}</div>")
        elif t == 2:
            e = c.get("emoji") or {}
            pic = f"<img src='{emoji_src(e['id'])}' alt='{e.get('name')}'>" if e.get("id") else ""
            label = html.escape(c.get("label") or "")
            off = " off" if c.get("disabled") else ""
            out.append(f"<span class='btn{off}' style='background:{STYLE.get(c.get('style'), '#4e5058')}'>{pic}{label}"
                       "</span>")
        elif t == 3:
            out.append(f"<div class=select>{html.escape(c.get('placeholder') or '')} ▾</div>")
    return "".join(out)


def _page(body: str) -> str:
    return (f"<!doctype html><meta charset=utf-8><style>{CSS}</style>"
            f"<div class=author>Mahjong<span>APP</span></div>{body}")


def _shoot(page: str, out: Path, chromium: str) -> None:
    from PIL import Image, ImageChops

    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "page.html"
        src.write_text(page, encoding="utf-8")
        shot = Path(d) / "shot.png"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--screenshot={shot}", "--window-size=652,1600", src.as_uri()],
                       check=True, capture_output=True)
        img = Image.open(shot).convert("RGB")
        bg = Image.new("RGB", img.size, (0x31, 0x33, 0x38))
        box = ImageChops.difference(img, bg).getbbox()
        if box:
            img = img.crop((0, 0, img.width, min(img.height, box[3] + 16)))
        img.save(out, optimize=True)


async def _one(game: str, chromium: str) -> None:
    from discord_play import press, timeout_policy
    from panel_checks import emoji_bot, panels_of, two_humans

    with tempfile.TemporaryDirectory() as d:
        bot, fd = await emoji_bot(f"sqlite:///{d}/screens.db")
        table, by_seat = await two_humans(fd, bot, game, 3, names=("Ann", "Bo"), plain=True)
        moves = 0
        while not table.hand.is_over():
            seat = next(s for s in table.hand.pending_seats() if s in by_seat)
            legal = {a.type for a in table.hand.legal_actions(seat)}
            if moves >= 8 and ("discard" in legal or moves >= 12):
                break
            await press(fd, by_seat[seat], timeout_policy(table.hand, seat))
            await fd.settle()
            moves += 1
        (panel,) = panels_of(fd, by_seat[seat])

        def emoji_src(emoji_id) -> str:
            return "data:image/png;base64," + base64.b64encode(fd.emoji_image(int(emoji_id))).decode()

        _shoot(_page(_components(panel.components, emoji_src)), HERE / f"{game}-panel.png", chromium)
        public = next(m for m in sorted(fd.messages_in(fd.channel_id), key=lambda m: -m.id) if m.data["attachments"])
        e = public.embeds[0]
        image = "data:image/png;base64," + base64.b64encode(public.attachments[0].data).decode()
        buttons = _components(public.components, emoji_src)
        body = (f"<div class=embed style='--accent:#1f8b4c'><h3>{_mark(e.get('title') or '', emoji_src)}</h3>"
                f"<div class=text>{_mark(e.get('description') or '', emoji_src)}</div>"
                f"<img class=big src='{image}'></div>{buttons}")
        _shoot(_page(body), HERE / f"{game}-table.png", chromium)
        await fd.close()
    print(f"{game}: {HERE / f'{game}-panel.png'}, {HERE / f'{game}-table.png'}")


def main() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("make_discord_screens.py needs Chromium (apt install chromium)")
    from engine.variants import all_variants

    games = sys.argv[1:] or [v.id for v in all_variants()]
    for game in games:
        asyncio.run(_one(game, chromium))


if __name__ == "__main__":
    main()
