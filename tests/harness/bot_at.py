"""Run ``bot.py`` (as ``python bot.py`` does, ``__main__``) with discord.py's REST API at the
base URL ``TEST_DISCORD_API`` (e.g. ``http://127.0.0.1:PORT/api/v10``, a local stub) and its
gateway at the same host's ``/gateway`` (``ws://127.0.0.1:PORT/gateway``): the
tests of how the bot starts and stops as a process (``tests/test_lifecycle_exits.py``) talk
to no real Discord.  Nothing else of the bot is changed.

    TEST_DISCORD_API=http://127.0.0.1:8999/api/v10 python tests/harness/bot_at.py
"""

import os
import runpy
import sys

import discord.gateway
import discord.http
import yarl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
api = os.environ["TEST_DISCORD_API"]
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(api.replace("http", "ws", 1).split("/api")[0] + "/gateway")
sys.path.insert(0, ROOT)
sys.argv[0] = os.path.join(ROOT, "bot.py")
runpy.run_path(sys.argv[0], run_name="__main__")
