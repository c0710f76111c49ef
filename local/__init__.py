"""The local table: the bot's games in the terminal, through the same table service as the
Discord bot, with no Discord (``python bot.py`` without a token)."""

from .table import play, run_local

__all__ = ["play", "run_local"]
