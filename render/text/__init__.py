"""Every word users see, in one home: events, prompts, results, errors, labels — for Discord,
the local table and the images, in Simplified Chinese (zh-CN), Traditional Chinese (zh-TW) and
English.  The words themselves are in the message catalogues ``data/i18n/*.json`` (a game's
own words in its package, ``engine/variants/<game>/data/<game>.<lang>.json``); the modules here put them together.
"""

from . import events, prompts, table_message
from .catalogue import LANGUAGES, error_text, game_name, lang_of, pick, quote, short_tile, t, tile_label, tv
from .events import describe_event
from .results import how_text, result_lines

__all__ = ["LANGUAGES", "describe_event", "error_text", "events", "game_name", "how_text", "lang_of", "pick", "prompts",
           "quote", "result_lines", "short_tile", "t", "table_message", "tile_label", "tv"]
