"""Scores, statistics, history, replays and the fairness check — all read from the stored
settlements and action logs.

* ``/score [player] [variant]`` — cumulative points and statistics in this server;
* ``/leaderboard [variant] [period]`` — all time, this month or this week;
* ``/history [player]`` — the last hands with result and points;
* ``/replay <hand>`` — step through a finished hand, every hand face up (◀ ▶ ⏮ ⏭);
* ``/verify <hand>`` — the seed revealed, its SHA-256 (the commitment shown at the deal), the
  wall rebuilt from it and the stored actions replayed to the stored result.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone

import discord
from discord import app_commands
from discord.ext import commands

from engine.actions import Action
from engine.rng import seed_commitment
from engine.tiles import kind_of, kinds_str
from engine.variants import all_variants, find_variant
from render.text import describe_event, game_name, lang_of, t
from service.tables import ServiceError

from . import ui
from .common import reply, reply_error, user_lang

VARIANT_CHOICES = [app_commands.Choice(name=f"{v.name_zh} {v.name_en}", value=v.id) for v in all_variants()]
PERIODS = ("all", "month", "week")
REPLAY_ID = r"mjr:(?P<hand>\d+):(?P<step>\d+):(?P<pos>\d)"
REPLAY_LABELS = ("⏮", "◀", "▶", "⏭")


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """Start of ``"month"`` / ``"week"`` (Monday) in UTC, ``None`` for all time."""
    now = now or datetime.now(timezone.utc)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "month":
        return day.replace(day=1)
    if period == "week":
        return day - timedelta(days=day.weekday())
    return None


def rebuild(record, upto: int | None = None):
    """The hand of a stored record after its first ``upto`` actions (all when ``None``)."""
    info = find_variant(record.variant)
    context = dict(getattr(record, "context", None) or {})
    hand = info.new_hand(record.options, record.seed, record.dealer, len(record.seats), context)
    for line in record.actions[:upto]:
        hand.apply(Action.parse(line))
    return hand


def wall_digest(hand) -> tuple[int, str]:
    """Number of tiles and SHA-256 of the wall order a hand was dealt from."""
    wall = getattr(hand, "wall", None) or getattr(hand, "stock", None) or []
    text = kinds_str(kind_of(x) for x in wall)
    return len(wall), hashlib.sha256(text.encode()).hexdigest()


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=REPLAY_ID):
    """A step button of a replay: ``mjr:<hand id>:<step>:<position 0-3>`` (⏮ ◀ ▶ ⏭)."""

    def __init__(self, hand_id: int, step: int, pos: int, disabled: bool = False):
        super().__init__(discord.ui.Button(label=REPLAY_LABELS[pos], style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"mjr:{hand_id}:{step}:{pos}"))
        self.hand_id, self.step = hand_id, step

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["hand"]), int(match["step"]), int(match["pos"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.get_cog("Records").show_replay(interaction, self.hand_id, self.step, edit=True)


class Records(commands.Cog):
    """Score look-ups, history, replays, verification."""

    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="score", description="Cumulative score and statistics in this server")
    @app_commands.describe(player="Whose score (default: yours)", variant="Only this game")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def score(self, interaction: discord.Interaction, player: discord.User | None = None,
                    variant: str | None = None) -> None:
        lang = user_lang(interaction)
        who = player or interaction.user
        st = await self.bot.store.stats(interaction.guild_id, who.id, variant)
        if st.hands == 0:
            return await reply(interaction, t("ui.score_none", lang, name=who.display_name))
        text = t("ui.score_line", lang, name=who.display_name, points=f"{st.points:+d}", hands=st.hands,
                 wins=st.wins, self_drawn=st.self_drawn, deal_ins=st.deal_ins)
        text += "\n" + t("ui.score_stats", lang, average=f"{st.average_points:+.1f}", best=f"{st.best_points:+d}",
                         hand=st.best_hand_id, fan=st.best_fan if st.best_fan is not None else "—")
        await reply(interaction, text)

    @app_commands.command(name="leaderboard", description="Top players of this server")
    @app_commands.describe(variant="Only this game", period="All time, this month or this week")
    @app_commands.choices(variant=VARIANT_CHOICES,
                          period=[app_commands.Choice(name=p, value=p) for p in PERIODS])
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, variant: str | None = None,
                          period: str = "all") -> None:
        lang = user_lang(interaction)
        lines = await self.bot.store.leaderboard(interaction.guild_id, variant, limit=10, since=period_start(period))
        if not lines:
            return await reply(interaction, t("ui.leaderboard_empty", lang), ephemeral=False)
        scope = game_name(variant, lang) if variant else t("ui.all_games", lang)
        scope += " · " + t(f"ui.period_{period}", lang)
        body = "\n".join(f"{i + 1}. **{ln.name}** {ln.points:+d} ({ln.wins}/{ln.hands})" for i, ln in enumerate(lines))
        embed = discord.Embed(title=t("ui.leaderboard_title", lang, scope=scope), description=body,
                              colour=discord.Colour.gold())
        await reply(interaction, embed=embed, ephemeral=False)

    @app_commands.command(name="history", description="Your last hands (or a player's)")
    @app_commands.describe(player="Whose hands (default: yours)", variant="Only this game")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None,
                      variant: str | None = None) -> None:
        lang = user_lang(interaction)
        who = player or interaction.user
        lines = await self.bot.store.history(interaction.guild_id, who.id, limit=10, variant=variant)
        if not lines:
            return await reply(interaction, t("ui.score_none", lang, name=who.display_name))
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
            out.append(f"`#{h.hand_id}` {when} {game_name(h.variant, lang)} — {res} **{h.points:+d}**")
        embed = discord.Embed(title=t("ui.history_title", lang, name=who.display_name), description="\n".join(out))
        await reply(interaction, embed=embed)

    # ------------------------------------------------------------------ replay
    async def _hand_ac(self, interaction: discord.Interaction, current: str):
        hands = await self.bot.store.finished_hands(interaction.guild_id, limit=25)
        lang = user_lang(interaction)
        out = []
        for h in hands:
            label = f"#{h.id} {game_name(h.variant, lang)} · " + ", ".join(s.get("name", "?") for s in h.seats)
            if current in str(h.id) or current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=h.id))
        return out[:25]

    async def _finished(self, interaction: discord.Interaction, hand_id: int):
        try:
            record = await self.bot.store.get_hand(hand_id)
        except LookupError:
            raise ServiceError("unknown_hand", hand=hand_id) from None
        table = await self.bot.store.get_table(record.table_id)
        if table.guild_id != interaction.guild_id:
            raise ServiceError("unknown_hand", hand=hand_id)
        if record.status != "done":
            raise ServiceError("hand_not_finished", hand=hand_id)
        return record

    @app_commands.command(name="replay", description="Step through a finished hand, every hand face up")
    @app_commands.describe(hand="The hand number (see /history)")
    @app_commands.autocomplete(hand=_hand_ac)
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, hand: int) -> None:
        await self.show_replay(interaction, hand, 0, edit=False)

    async def show_replay(self, interaction: discord.Interaction, hand_id: int, step: int, edit: bool) -> None:
        lang = user_lang(interaction)
        try:
            record = await self._finished(interaction, hand_id)
        except ServiceError as e:
            return await reply_error(interaction, e)
        total = len(record.actions)
        step = max(0, min(step, total))
        hand = rebuild(record, step)
        view = hand.view(None, reveal=True)
        names = [s.get("name", "?") for s in record.seats]
        for sv in view["seats"]:
            sv["name"] = names[sv["seat"]]
        view["lang"] = "zh" if lang_of(lang).startswith("zh") else "en"
        last = hand.events[-6:] if step else hand.events
        view["log"] = [x for x in (describe_event(e.to_json(), names, lang, record.variant) for e in last) if x]
        if view.get("result") and view["result"].get("fans"):
            i = 0 if view["lang"] == "zh" else 1
            view["result"] = dict(view["result"], fans=[[f[i], f[2] * f[3]] for f in view["result"]["fans"]])
        file = await ui.table_image(view)
        buttons = discord.ui.View(timeout=None)
        for pos, target in enumerate((0, step - 1, step + 1, total)):
            buttons.add_item(ReplayButton(hand_id, max(0, min(total, target)), pos,
                                          disabled=(target < 0 or target > total or target == step)))
        content = t("ui.replay_caption", lang, hand=hand_id, step=step, total=total,
                    game=game_name(record.variant, lang))
        if edit:
            await interaction.response.edit_message(content=content, attachments=[file], view=buttons)
        else:
            await reply(interaction, content, ephemeral=False, file=file, view=buttons)

    @app_commands.command(name="verify", description="Reveal a finished hand's seed and rebuild its wall")
    @app_commands.describe(hand="The hand number (see /history)")
    @app_commands.autocomplete(hand=_hand_ac)
    @app_commands.guild_only()
    async def verify(self, interaction: discord.Interaction, hand: int) -> None:
        lang = user_lang(interaction)
        try:
            record = await self._finished(interaction, hand)
        except ServiceError as e:
            return await reply_error(interaction, e)
        dealt = rebuild(record, 0)
        n, digest = wall_digest(dealt)
        final = rebuild(record)
        same = final.result is not None and list(final.result["points"]) == list((record.result or {}).get("points", []))
        text = t("ui.verify_text", lang, hand=hand, seed=record.seed, commitment=seed_commitment(record.seed),
                 tiles=n, wall=digest[:16], actions=len(record.actions),
                 outcome=t("ui.verify_ok" if same else "ui.verify_bad", lang))
        await reply(interaction, text, ephemeral=False)


async def setup(bot) -> None:
    await bot.add_cog(Records(bot))
