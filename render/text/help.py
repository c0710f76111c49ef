"""The words of ``/mj help`` and of the welcome a server gets when the bot joins it, and the
names of the Discord permissions the bot asks for (catalogue sections ``help`` and ``perm``)."""

from __future__ import annotations

from typing import Any, Iterable

from .catalogue import game_name, t
from .table_message import command_description


def permission_names(flags: Iterable[str], lang: str) -> str:
    """``["embed_links", "attach_files"]`` → ``"Embed Links, Attach Files"`` in ``lang`` (the
    names Discord's settings show)."""
    return t("perm.separator", lang).join(t(f"perm.{flag}", lang) for flag in flags)


def help_pages(games: Iterable[Any], commands: Iterable[tuple[str, str, str]], lang: str,
               version: str | None = None, licence: str = "MIT") -> list[tuple[str, str]]:
    """``[(title, text)]`` of ``/mj help``: what the bot does and a table in three steps, the
    games (``games``: ``VariantInfo``s, with their players), where the rules are, the bot's
    ``version`` and code ``licence`` (left out when ``version`` is ``None``), and every
    command (``commands``: ``(command path, catalogue key, English description)``, in the
    order the command tree gives them) with its description in ``lang``."""
    games = list(games)
    game_lines = "\n".join(
        t("help.game_line", lang, name=game_name(g, lang), id=g.id,
          players=(f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}–{g.max_players}"))
        for g in games)
    intro = "\n\n".join([
        t("help.about", lang),
        t("help.steps_title", lang) + "\n" + t("help.steps", lang),
        t("help.games_title", lang) + "\n" + game_lines,
        t("help.rules", lang, example=games[0].id if games else ""),
    ] + ([t("help.version", lang, version=version, licence=licence)] if version is not None else []))
    lines = [f"`/{path}` — {command_description(key, lang) or english}" for path, key, english in commands]
    return [(t("help.title", lang), intro), (t("help.commands_title", lang), "\n".join(lines))]


def welcome(lang: str) -> tuple[str, str]:
    """``(title, text)`` of the message a server gets when the bot joins it."""
    return t("help.welcome_title", lang), t("help.welcome", lang)


__all__ = ["permission_names", "help_pages", "welcome"]
