"""The words of the records and settings commands: scores, a player's rates, the
leaderboard, history, replays, verification, a server's settings, and a game's rules."""

from __future__ import annotations

from typing import Any, Optional

from .catalogue import game_name, lang_of, pick, t, tv
from .results import count_title


def no_hands(name: str, lang: str) -> str:
    return t("ui.score_none", lang, name=name)


def score(st: Any, name: str, lang: str) -> str:
    """A player's totals and statistics (``PlayerStats``)."""
    text = t("ui.score_line", lang, name=name, points=f"{st.points:+d}", hands=st.hands, wins=st.wins,
             self_drawn=st.self_drawn, deal_ins=st.deal_ins)
    return text + "\n" + t("ui.score_stats", lang, average=f"{st.average_points:+.1f}", best=f"{st.best_points:+d}",
                           hand=st.best_hand_id, fan=st.best_fan if st.best_fan is not None else "—")


def _share(rate: Any, lang: str) -> str:
    """``25.0% (3/12)``, or ``— (0/0)`` with nothing to count."""
    shown = "—" if rate.value is None else f"{rate.value * 100:.1f}%"
    return t("rates.share", lang, value=shown, count=rate.count, of=rate.of)


def _mean(mean: Any) -> str:
    return "—" if mean.value is None else f"{mean.value:.1f}"


def rates(r: Any, name: str, game: Any, period: str, lang: str) -> tuple[str, str]:
    """``(title, body)`` of a player's rates in one game (``service.rates.PlayerRates``;
    ``game``: its facts): the per-hand rates with their counts, the average win and deal-in
    values in the game's points, its count per win where it keeps one, and the placement
    rates when units were counted (``docs/rates.md``)."""
    title = t("rates.title", lang, name=name, game=game_name(game, lang), period=t(f"ui.period_{period}", lang))
    lines = [t("rates.hands", lang, n=r.hands)]
    shares = [("wins", r.wins), ("deal_ins", r.deal_ins), ("self_drawn", r.self_drawn), ("calls", r.calls),
              ("draws", r.draws)]
    lines += [f"{t('rates.' + key, lang)} {_share(rate, lang)}" for key, rate in shares if rate is not None]
    lines.append(t("rates.values", lang, win=_mean(r.win_value), deal_in=_mean(r.deal_in_value)))
    if r.count_name is not None and r.count_per_win.value is not None:
        count = count_title({"count": {"name": r.count_name, "value": _mean(r.count_per_win)}}, lang, game)
        lines.append(t("rates.count_per_win", lang, count=count))
    p = r.placements
    if p.units:
        lines.append(t("rates.placements", lang, units=p.units, average=f"{p.average.value:.2f}",
                       first=_share(p.first, lang)))
        lines.append(" · ".join(t("rates.place", lang, place=i + 1, share=_share(d, lang))
                                for i, d in enumerate(p.distribution)))
    return title, "\n".join(lines)


def leaderboard_empty(lang: str) -> str:
    return t("ui.leaderboard_empty", lang)


def leaderboard(lines: list, game: Any, period: str, lang: str) -> tuple[str, str]:
    """``(title, body)`` of the leaderboard (``ScoreLine``s, best first) of one game (its
    facts) or of all (``None``)."""
    scope = game_name(game, lang) if game is not None else t("ui.all_games", lang)
    scope += " · " + t(f"ui.period_{period}", lang)
    body = "\n".join(f"{i + 1}. **{ln.name}** {ln.points:+d} ({ln.wins}/{ln.hands})" for i, ln in enumerate(lines))
    return t("ui.leaderboard_title", lang, scope=scope), body


def history(lines: list, name: str, lang: str, games: Any) -> tuple[str, str]:
    """``(title, body)`` of a player's last hands (``HistoryLine``s; ``games``: game id →
    facts)."""
    out = []
    for h in lines:
        if h.is_winner:
            res = t("ui.history_won", lang) + (" " + t("ui.result_selfdrawn", lang) if h.self_drawn else "")
        elif h.winner_name is None:
            res = t("ui.history_draw", lang)
        else:
            res = t("ui.history_lost", lang, name=h.winner_name) + (
                " · " + t("ui.history_dealt_in", lang) if h.dealt_in else "")
        when = h.ended_at.strftime("%Y-%m-%d") if h.ended_at else ""
        out.append(f"`#{h.hand_id}` {when} {game_name(games.get(h.variant), lang)} — {res} **{h.points:+d}**")
    return t("ui.history_title", lang, name=name), "\n".join(out)


def game_choice(info: Any, lang: str) -> str:
    """A game as offered by ``/mj table create``'s autocomplete: ``老三番 · laosanfan``
    (``info``: the game's ``VariantInfo``; the id is what the option takes)."""
    return f"{game_name(info, lang)} · {info.id}"


def option_choice(value: str, opt: Any, lang: str) -> str:
    """An option as offered by autocomplete: ``value — what it does`` (``opt``: an
    ``engine.options.Option``, its description in ``lang``)."""
    return f"{value} — {pick(opt.zh, opt.en, lang)}"


def hand_choice(record: Any, lang: str, games: Any) -> str:
    """How a finished hand is offered in a list: ``#12 二人麻将 · alice, bob`` (``games``: game
    id → facts)."""
    return f"#{record.id} {game_name(games.get(record.variant), lang)} · " + ", ".join(s.get("name", "?") for s in record.seats)


def replay_caption(r: Any, lang: str) -> str:
    """The caption of a replay step (``service.records.Replay``, with its game's facts)."""
    caption = t("ui.replay_caption", lang, hand=r.hand_id, step=r.step, total=r.total, game=game_name(r.game, lang))
    return t("record.imported_caption", lang, caption=caption) if getattr(r, "imported", False) else caption


def verification(v: Any, lang: str) -> str:
    """``/mj verify``'s text (``service.records.Verification``)."""
    text = t("ui.verify_text", lang, hand=v.hand_id, seed=v.seed, commitment=v.commitment, tiles=v.tiles,
             wall=v.wall_sha256[:16], actions=v.actions,
             outcome=t("ui.verify_ok" if v.same_result else "ui.verify_bad", lang))
    return imported_first_line(text, lang) if getattr(v, "imported", False) else text


def imported_first_line(text: str, lang: str) -> str:
    """``text`` with its first line marked as a hand imported from a record file."""
    first, sep, rest = text.partition("\n")
    return t("record.imported_caption", lang, caption=first) + sep + rest


def saved(lang: str) -> str:
    return t("ui.config_saved", lang)


def _fmt(opts: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(opts.items())) or "—"


def settings(cfg: Any, lang: str, server: Any = None) -> tuple[str, str]:
    """``(title, body)`` of a server's settings (``GuildConfig``, and its
    ``service.guilds.ServerSettings`` when given: the table language, the lobby's minutes,
    the reposting of the table message)."""
    lines = []
    if server is not None:
        language = (t("ui.config_language_auto", lang) if server.language == "auto"
                    else t(f"cmd.choice__{server.language}", lang))
        lines.append(t("ui.config_language", lang, language=language))
        lines.append(t("ui.config_lobby", lang, minutes=server.lobby_minutes))
        lines.append(t("ui.config_repost", lang, n=server.repost_after) if server.repost_after
                     else t("ui.config_repost_off", lang))
    for variant, opts in sorted(cfg.defaults.items()):
        if opts:
            lines.append(t("ui.config_default", lang, variant=variant, options=_fmt(opts)))
    for name, p in sorted(cfg.presets.items()):
        lines.append(t("ui.config_preset", lang, name=name, variant=p["variant"], options=_fmt(p["options"])))
    chans = ", ".join(f"<#{c}>" for c in cfg.channels) or t("ui.config_all_channels", lang)
    lines.append(t("ui.config_channels", lang, channels=chans))
    return t("ui.config_title", lang), "\n".join(lines)


def rules(info: Any, lang: str, page: int = 3800) -> list[tuple[str, str, Optional[tuple[str, str]]]]:
    """The pages of a game's rules: ``[(title, text, (field name, field text) or None)]`` —
    the summary with the table options first (and those that change only the score, which
    ``/mj rescore`` may change), then the fan/score table (``info.fan_table``:
    ``[(zh, en, value)]``)."""
    zh = lang_of(lang) != "en"
    summary = tv(info.facts, "rules.summary", lang)
    if summary.startswith("messages."):
        summary = ""
    opts = "\n".join(f"`{o.name}` = {str(o.default).lower() if o.type is bool else o.default} — {pick(o.zh, o.en, lang)}"
                     for o in info.options)
    score_only = [o.name for o in info.options if o.score_only]
    if score_only:  # the options /mj rescore may change
        opts += "\n" + t("rescore.rules_line", lang, options=", ".join(score_only))
    pages: list[tuple[str, str, Optional[tuple[str, str]]]] = [
        (game_name(info, lang), summary[:page], (t("ui.rules_options", lang), opts[:1024] or "—"))]
    rows = list(getattr(info, "fan_table", None) or [])
    lines = [f"{value:>3} · {pick(zh_name, en, lang) if zh else f'{en} {zh_name}'}" for zh_name, en, value in rows]
    chunk: list[str] = []
    for line in lines:
        if sum(len(x) + 1 for x in chunk) + len(line) > page:
            pages.append((t("ui.rules_fans", lang), "\n".join(chunk), None))
            chunk = []
        chunk.append(line)
    if chunk:
        pages.append((t("ui.rules_fans", lang), "\n".join(chunk), None))
    return pages[:10]
