"""Scores, statistics, history, replays and the fairness check (``service.records``; words:
``render.text.records``).

* ``/score [player] [variant]`` — cumulative points and statistics in this server;
* ``/leaderboard [variant] [period]`` — all time, this month or this week;
* ``/history [player]`` — the last hands with result and points;
* ``/replay <hand>`` — step through a finished hand, every hand face up (◀ ▶ ⏮ ⏭);
* ``/verify <hand>`` — the seed revealed, its SHA-256 (the commitment shown at the deal), the
  wall rebuilt from it and the stored actions replayed to the stored result.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.variants import all_variants
from render.text import lang_of
from render.text import records as words
from render.text.events import log_lines
from service.records import PERIODS
from service.tables import ServiceError

from . import ui
from .common import Guarded, reply, reply_error, user_lang

VARIANT_CHOICES = [app_commands.Choice(name=f"{v.name_zh} {v.name_en}", value=v.id) for v in all_variants()]
REPLAY_ID = r"mjr:(?P<hand>\d+):(?P<step>\d+):(?P<pos>\d)"
REPLAY_LABELS = ("⏮", "◀", "▶", "⏭")


class ReplayButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=REPLAY_ID):
    """A step button of a replay: ``mjr:<hand id>:<step>:<position 0-3>`` (⏮ ◀ ▶ ⏭)."""

    def __init__(self, hand_id: int, step: int, pos: int, disabled: bool = False):
        super().__init__(discord.ui.Button(label=REPLAY_LABELS[pos], style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"mjr:{hand_id}:{step}:{pos}"))
        self.hand_id, self.step = hand_id, step

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["hand"]), int(match["step"]), int(match["pos"]))

    async def run(self, interaction: discord.Interaction) -> None:
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
        st = await self.bot.records.stats(interaction.guild_id, who.id, variant)
        if st.hands == 0:
            return await reply(interaction, words.no_hands(who.display_name, lang))
        await reply(interaction, words.score(st, who.display_name, lang))

    @app_commands.command(name="leaderboard", description="Top players of this server")
    @app_commands.describe(variant="Only this game", period="All time, this month or this week")
    @app_commands.choices(variant=VARIANT_CHOICES,
                          period=[app_commands.Choice(name=p, value=p) for p in PERIODS])
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, variant: str | None = None,
                          period: str = "all") -> None:
        lang = user_lang(interaction)
        lines = await self.bot.records.leaderboard(interaction.guild_id, variant, period)
        if not lines:
            return await reply(interaction, words.leaderboard_empty(lang), ephemeral=False)
        title, body = words.leaderboard(lines, variant, period, lang)
        await reply(interaction, embed=discord.Embed(title=title, description=body, colour=discord.Colour.gold()),
                    ephemeral=False)

    @app_commands.command(name="history", description="Your last hands (or a player's)")
    @app_commands.describe(player="Whose hands (default: yours)", variant="Only this game")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None,
                      variant: str | None = None) -> None:
        lang = user_lang(interaction)
        who = player or interaction.user
        lines = await self.bot.records.history(interaction.guild_id, who.id, variant)
        if not lines:
            return await reply(interaction, words.no_hands(who.display_name, lang))
        title, body = words.history(lines, who.display_name, lang)
        await reply(interaction, embed=discord.Embed(title=title, description=body))

    # ------------------------------------------------------------------ replay
    async def _hand_ac(self, interaction: discord.Interaction, current: str):
        hands = await self.bot.records.finished_hands(interaction.guild_id)
        lang = user_lang(interaction)
        out = []
        for h in hands:
            label = words.hand_choice(h, lang)
            if current in str(h.id) or current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=h.id))
        return out[:25]

    @app_commands.command(name="replay", description="Step through a finished hand, every hand face up")
    @app_commands.describe(hand="The hand number (see /history)")
    @app_commands.autocomplete(hand=_hand_ac)
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, hand: int) -> None:
        await self.show_replay(interaction, hand, 0, edit=False)

    async def show_replay(self, interaction: discord.Interaction, hand_id: int, step: int, edit: bool) -> None:
        lang = user_lang(interaction)
        try:
            r = await self.bot.records.replay(interaction.guild_id, hand_id, step)
        except ServiceError as e:
            return await reply_error(interaction, e)
        view = dict(r.view, lang=lang_of(lang), log=log_lines(r.events, r.names, lang, r.variant))
        file = await ui.table_image(view)
        buttons = discord.ui.View(timeout=None)
        for pos, target in enumerate((0, r.step - 1, r.step + 1, r.total)):
            buttons.add_item(ReplayButton(hand_id, max(0, min(r.total, target)), pos,
                                          disabled=(target < 0 or target > r.total or target == r.step)))
        content = words.replay_caption(r, lang)
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
            v = await self.bot.records.verify(interaction.guild_id, hand)
        except ServiceError as e:
            return await reply_error(interaction, e)
        await reply(interaction, words.verification(v, lang), ephemeral=False)


async def setup(bot) -> None:
    await bot.add_cog(Records(bot))
