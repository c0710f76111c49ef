"""A stand-in for Discord that drives a real discord.py 2.7 bot in tests.

The bot under test is a real :class:`discord.ext.commands.Bot` with its real
:class:`~discord.app_commands.CommandTree`, cogs and :class:`discord.ui.View`\\ s.
Only the network is replaced:

* inbound: :class:`FakeDiscord` builds ``INTERACTION_CREATE`` payloads shaped like
  Discord's and hands them to ``ConnectionState.parse_interaction_create`` (the
  same call the gateway makes), so the command tree, persistent views and
  ``DynamicItem`` templates dispatch exactly as in production;
* outbound: the ``aiohttp.ClientSession`` that discord.py keeps on its
  ``HTTPClient`` is swapped for :class:`FakeSession`.  That one object is used
  both by ``HTTPClient.request`` (bot-token REST calls) and by
  ``AsyncWebhookAdapter.request`` (interaction callbacks, followups and
  original-response edits, which travel with the interaction token), so one
  seam covers both while discord.py's own request code -- JSON/multipart
  encoding, 429 retries, 5xx back-off, mapping of 403/404 to
  :class:`discord.Forbidden`/:class:`discord.NotFound` -- still runs.

The fake REST API keeps messages, DM channels and interactions in memory and
answers like Discord: full message objects with ids, the bot as author,
components echoed back (with their numeric ``id``), attachments listed with a
CDN url; the callback endpoint answers ``{"interaction": ..., "resource": ...}``
as with ``with_response=true``; closed DMs give HTTP 403 code 50007; a second
acknowledgement gives 400 code 40060; message bodies are checked against
Discord's limits (2000 characters, 10 embeds, 5 rows of 5 buttons, 25 select
options, unique custom ids, 10 files of at most 10 MiB each — a larger one is answered 413
code 40005; the rules of action rows, buttons, selects and their emojis
wherever they sit, ``components.py``) and rejected with 400 code 50035 / 50006.  The
application's emojis (``emojis.py``) are kept with their images, across restarts.

Timing: ``latency`` (seconds, or a function of the :class:`RecordedCall`) delays every REST
call before the fake handles it, as a slow network or a busy Discord would; Discord's
3-second rule applies to the first response of an interaction (the callback): one that
arrives later than ``ack_deadline`` seconds after the interaction was created is answered
404 code 10062 (Unknown interaction), and the interaction is listed in :attr:`FakeDiscord.late`.

Rate limits (``rate_limits``, on by default when ``fast_retries`` is off): every route and
channel (guild, interaction token) has a bucket of Discord's size, the bot a global limit of
50 requests a second that interaction endpoints are exempt from; answers carry Discord's
``X-RateLimit-*`` headers, and a request over a limit is answered 429 as Discord does.  The
429s are kept in :attr:`FakeDiscord.rate_limited` and, with ``strict``, raised at the next
check unless ``allow_rate_limits``; see ``ratelimit.py`` for the limits and what discord.py
does with them.

Waiting for the bot: every task created on the loop after :meth:`FakeDiscord.start`
is tracked (through the loop's task factory).  :meth:`FakeDiscord.settle` returns
once each tracked task is finished or *parked*: sleeping for at least
``park_after`` seconds (turn timers, view time-outs) or waiting on an
``asyncio.Event``/``Queue``/``View.wait`` -- but never while discord.py holds it for a rate limit or a
retry, however long that wait.  Work handed to threads
(``asyncio.to_thread``, aiosqlite) counts as busy and is waited for.

Usage::

    fd = FakeDiscord(bot)
    await fd.start()                      # runs bot.setup_hook(): cogs, persistent views
    alice = fd.user(101, "alice")
    r = await fd.slash(alice, "demo post", {"start": 3})
    msg = fd.messages_in(fd.channel_id)[-1]
    r2 = await fd.click(alice, msg, msg.custom_ids[0])
    assert r2.response_type == 7          # UPDATE_MESSAGE
    await fd.close()
"""


from .core import FakeDiscord
from .components import is_unicode_emoji
from .emojis import MAX_APP_EMOJIS, MAX_EMOJI_BYTES
from .modals import first_modal_problem, modal_errors
from .mentions import MARKUP_NAME, as_shown, ping_problems
from .model import *  # noqa: F401,F403
from .model import __all__ as _model_all
from .transport import FakeSession

__all__ = ["FakeDiscord", "FakeSession", "MARKUP_NAME", "MAX_APP_EMOJIS", "MAX_EMOJI_BYTES", "is_unicode_emoji", "first_modal_problem", "modal_errors", "as_shown", "ping_problems", *_model_all]
