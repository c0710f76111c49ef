"""Game records to share (``service.record_exchange``; words: ``render.text.record_file``),
declared as ``/mj record export`` and ``/mj record import`` in ``cogs/commands.py``.

* export — a finished hand (``hand:``) or an ended match (``match:``) of this server as two
  files, privately: the record (``.json``, ``docs/records.md``) and the same as text
  (``.txt``, in the asker's language);
* import — a record file (an attachment) read as untrusted, replayed action by action and
  compared with its stored result, then kept here to replay (counted nowhere); the answer,
  private, says what was verified, or why the file was refused.
"""

from __future__ import annotations

import io
import logging

import discord

from render.text import record_file as words
from render.text import t
from service.record_file import MAX_BYTES, RecordRefused
from service.tables import ServiceError

from .common import reply, reply_error, user_lang, within
from .markup import shown

log = logging.getLogger(__name__)

#: most characters of a text taken from a file that a refusal echoes
ECHO_LIMIT = 300


def _echoed(params: dict) -> dict:
    """A refusal's facts as a message shows them: what came from the file, escaped and cut."""
    return {k: shown(v[:ECHO_LIMIT]) if isinstance(v, str) else v for k, v in params.items()}


async def export(bot, interaction: discord.Interaction, hand: int | None, match: int | None) -> None:
    """``/mj record export``: exactly one of ``hand`` and ``match``; the files privately, or a
    private refusal (another server's or an unfinished hand, a record that would not import,
    files over the interaction's ``filesize_limit``)."""
    lang = user_lang(interaction)
    if (hand is None) == (match is None):
        return await reply(interaction, t("record.need_one", lang))
    exchange = bot.record_exchange
    try:
        work = exchange.export_hand(interaction.guild_id, hand) if hand is not None else \
            exchange.export_match(interaction.guild_id, match)
        ex = await within(interaction, work)
    except ServiceError as e:
        return await reply_error(interaction, e)
    except RecordRefused as e:
        return await reply(interaction, words.refused(e.code, _echoed(e.params), lang, exporting=True))
    text = words.text_record(ex.checked, lang).encode("utf-8")
    limit = interaction.filesize_limit
    if max(len(ex.raw), len(text)) > limit:
        return await reply(interaction, t("record.too_large", lang, size=max(len(ex.raw), len(text)),
                                                limit=limit))
    files = [discord.File(io.BytesIO(ex.raw), filename=f"{ex.name}.json"),
             discord.File(io.BytesIO(text), filename=f"{ex.name}.txt")]
    await reply(interaction, words.exported(ex.data, lang), files=files)


async def import_(bot, interaction: discord.Interaction, file: discord.Attachment) -> None:
    """``/mj record import``: the attachment read (not at all past ``MAX_BYTES``), checked and
    stored as imported hands; privately, what was verified or the first problem."""
    lang = user_lang(interaction)
    if file.size > MAX_BYTES:  # not downloaded at all
        return await reply(interaction, words.refused("too_big", {"size": file.size, "limit": MAX_BYTES}, lang))

    async def work():
        raw = await file.read()
        return await bot.record_exchange.import_file(interaction.guild_id, interaction.channel_id,
                                                     interaction.user.id, lang, raw)

    try:
        done = await within(interaction, work())
    except RecordRefused as e:
        return await reply(interaction, words.refused(e.code, _echoed(e.params), lang))
    except discord.HTTPException as e:
        log.warning("could not read an imported record: %s", e)
        return await reply(interaction, t("record.download_failed", lang))
    text = words.imported(done.checked, done.hand_ids, lang, shown)
    await reply(interaction, text[:2000])
