"""An animated hand: the table image of each step of a replay as one frame of a GIF (Discord
clients play GIF attachments), move by move.

Each frame is the table image of a view (:func:`render.table.table_layout`, the image every
replay step and the live table show), scaled by :data:`SCALE`, set on a canvas as large as
the largest frame (the table grows as hands and ponds do; a frame is centred at the top on
the felt) and mapped onto the shared 256-colour palette (:func:`render.common.shared_palette`,
no dither): one global colour table for every frame.  Pillow's GIF writer with ``optimize``
then stores each frame as the rectangle that changed since the one before, so a move costs
about its own tiles' pixels.

Frame durations (:func:`duration`): a plain move :data:`MOVE_MS`, a claim or any other move
that is not a discard :data:`CLAIM_MS`, the deal :data:`DEAL_MS` and the result
:data:`RESULT_MS`.  ``bench/bench_animate.py`` prints frames, bytes and seconds of the
longest seeded hands of every game; the GIF of the longest stays far under the 10 MiB a
server without boosts accepts (:data:`LIMIT`, checked by ``tests/render/test_animate.py``).
"""

from __future__ import annotations

import io
from typing import Iterable, Optional, Sequence

from PIL import Image

from .common import FELT, shared_palette
from .table import table_layout

#: the attachment size limit of a server without boosts, bytes
LIMIT = 10 * 1024 * 1024
#: frames are drawn at the table image's size times this (720 px wide → 540 px): Discord shows
#: a GIF at most about 400–550 px wide in a channel, so the full size would only cost bytes
SCALE = 0.75
DEAL_MS, MOVE_MS, CLAIM_MS, RESULT_MS = 1500, 700, 1600, 6000


def duration(kind: str) -> int:
    """The milliseconds a frame of ``kind`` (``"deal"``, ``"move"``, ``"claim"``,
    ``"result"``) stays shown."""
    return {"deal": DEAL_MS, "claim": CLAIM_MS, "result": RESULT_MS}.get(kind, MOVE_MS)


def frame_image(view: dict, scale: float = SCALE) -> Image.Image:
    """The table image of ``view`` (RGB) scaled by ``scale``."""
    img = table_layout(view).root.render(FELT)
    if scale != 1:
        img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))),
                         Image.Resampling.LANCZOS)
    return img


def encode(images: Sequence[Image.Image], durations: Sequence[int], palette: Optional[Image.Image] = None) -> bytes:
    """The GIF (looping) of ``images`` (RGB, any sizes: each is set at the top centre of a
    felt canvas as large as the largest), frame ``i`` shown ``durations[i]`` ms.
    ``palette``: a ``P`` image whose palette every frame is mapped onto (default: the shared
    one).  Raises ``ValueError`` for no frames or a count of durations that differs."""
    if not images or len(images) != len(durations):
        raise ValueError("one duration per frame, at least one frame")
    pal = palette if palette is not None else shared_palette()
    w = max(im.width for im in images)
    h = max(im.height for im in images)
    frames = []
    for im in images:
        canvas = im
        if im.size != (w, h):
            canvas = Image.new("RGB", (w, h), FELT)
            canvas.paste(im, ((w - im.width) // 2, 0))
        frames.append(canvas.quantize(palette=pal, dither=Image.Dither.NONE) if pal is not None
                      else canvas.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=list(durations), loop=0,
                   optimize=True, disposal=1)
    return buf.getvalue()


def animate(views: Iterable[dict], kinds: Iterable[str], scale: float = SCALE) -> bytes:
    """The GIF of a hand: one frame per view (drawn by :func:`frame_image`), each shown as long
    as its kind says (:func:`duration`)."""
    images = [frame_image(v, scale) for v in views]
    return encode(images, [duration(k) for k in kinds])


__all__ = ["LIMIT", "SCALE", "DEAL_MS", "MOVE_MS", "CLAIM_MS", "RESULT_MS", "duration", "frame_image", "encode",
           "animate"]
