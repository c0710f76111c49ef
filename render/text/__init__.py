"""Every word users see, in one home: events, prompts, results, errors, labels — for Discord,
the local table and the images, in Simplified Chinese (zh-CN), Traditional Chinese (zh-TW) and
English.  The words themselves are in the message catalogues ``data/i18n/*.json`` (a game's
own words in ``data/i18n/<game>.<lang>.json``); the modules here put them together.
"""

from .catalogue import LANGUAGES, error_text, lang_of, quote, t, tile_label, tv
from .results import how_text, result_lines

__all__ = ["LANGUAGES", "error_text", "lang_of", "quote", "t", "tile_label", "tv", "how_text", "result_lines"]
