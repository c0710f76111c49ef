"""Table options: declared once per variant with type, default, allowed values
and a one-line description in both languages, and validated at table creation.

Source: each rule file lists its table options (e.g. ``two_player.md`` §Play,
"Timeouts (table options, defaults)" and §Settlement "base points").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError


@dataclass(frozen=True)
class Option:
    """One table option.

    :ivar name: key used in commands and storage (``"base_points"``).
    :ivar type: ``int``, ``bool`` or ``str``.
    :ivar default: value when not given.
    :ivar choices: allowed values (``None``: any value in ``min_value..max_value``).
    :ivar en / zh: one-line descriptions.
    :ivar score_only: ``True`` when the option changes only what a finished hand pays: under
        any of its values a stored hand (seed, dealer, context, action log) deals the same
        tiles, every stored action stays legal and the hand ends at the same action with the
        same winners, so the hand may be re-scored under another value (``/mj rescore``).
        ``False`` when it may change what is dealt, what is legal, or how or when the hand is
        played (a timeout's move, the AI of a seat on 托管).  ``None``: not yet classified —
        every registered game classifies each of its options (a test checks).  The moves of a
        stored hand stay as played: an AI that weighs its plans by the score (老三番's strong
        AI by ``style``) might have played otherwise under another value; a re-score says what
        the same moves pay.
    """

    name: str
    type: type
    default: Any
    en: str
    zh: str
    choices: tuple | None = None
    min_value: int | None = None
    max_value: int | None = None
    score_only: bool | None = None

    def coerce(self, value: Any) -> Any:
        """Convert a text or typed value to this option's type; raises :class:`OptionError`."""
        v = value
        try:
            if self.type is bool and isinstance(value, str):
                low = value.strip().lower()
                if low in ("1", "true", "yes", "on", "是", "开"):
                    v = True
                elif low in ("0", "false", "no", "off", "否", "关"):
                    v = False
                else:
                    raise ValueError(value)
            elif self.type is int:
                if isinstance(value, bool):
                    raise ValueError(value)
                v = int(value)
            elif self.type is str:
                v = str(value)
            elif not isinstance(value, self.type):
                raise ValueError(value)
        except (TypeError, ValueError, OverflowError):  # OverflowError: int(float("inf"))
            raise OptionError("option_bad_value", option=self.name, value=value, allowed=self.allowed()) from None
        if (self.choices is not None and v not in self.choices) or \
                (self.min_value is not None and v < self.min_value) or \
                (self.max_value is not None and v > self.max_value):
            raise OptionError("option_bad_value", option=self.name, value=value, allowed=self.allowed())
        return v

    def allowed(self) -> str:
        """The values the option takes, as the error of a bad value shows them: ``"9, 6, 3"``,
        ``"1–88"``, ``"on, off"``, ``">= 0"`` (language-neutral)."""
        if self.choices is not None:
            return ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
        if self.type is bool:
            return "on, off"
        if self.min_value is not None and self.max_value is not None:
            return f"{self.min_value}–{self.max_value}"
        if self.min_value is not None:
            return f">= {self.min_value}"
        if self.max_value is not None:
            return f"<= {self.max_value}"
        return "…"


def resolve_options(declared: tuple[Option, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with ``given``, every value checked.

    Raises :class:`OptionError` (``"option_unknown"`` or ``"option_bad_value"``).
    """
    by_name = {o.name: o for o in declared}
    out = {o.name: o.default for o in declared}
    for key, value in (given or {}).items():
        opt = by_name.get(key)
        if opt is None:
            raise OptionError("option_unknown", option=key, known=", ".join(by_name))
        out[key] = opt.coerce(value)
    return out


#: The table options every game inherits: the timeouts (``two_player.md`` §Timeouts) and the
#: length of a match, ``match_hands`` (0: open-ended; 1–100: the table closes with the final
#: standings once that many hands were settled).  None is score-only: a timeout makes a move
#: (and the third puts the seat on 托管), ``auto_play_ai`` chooses who plays a seat on 托管, and
#: ``match_hands`` when the match ends — how the table plays, never what a hand pays.
TIMEOUT_OPTIONS = (
    Option("ready_timeout", int, 15, "Seconds to get ready in the lobby", "准备阶段超时（秒）",
           min_value=5, max_value=600, score_only=False),
    Option("claim_timeout", int, 15, "Seconds to answer a claim prompt (吃 碰 杠 胡)",
           "吃碰杠胡操作超时（秒）", min_value=5, max_value=600, score_only=False),
    Option("discard_timeout", int, 15, "Seconds to discard", "出牌超时（秒）",
           min_value=5, max_value=600, score_only=False),
    Option("result_timeout", int, 30, "Seconds the result stays before the next hand",
           "结算页面停留（秒）", min_value=5, max_value=600, score_only=False),
    # not a timeout, but shared by every game the same way: the length of a match
    Option("match_hands", int, 0, "Hands in a match (0: until the table is ended)",
           "一场的局数（0：不限，直到结束牌桌）", min_value=0, max_value=100, score_only=False),
    # not a timeout, but what a seat on 托管 (the third timeout, or a player who left) plays:
    # on, the AI at the table's level (the strongest of its AI seats, strong without one);
    # off, the hand's timeout move (discard what was drawn, win when possible)
    Option("auto_play_ai", bool, False, "Auto-play (托管) is played by the AI at the table's level",
           "托管由电脑按本桌最强的电脑打", score_only=False),
)


def score_only_names(declared: tuple[Option, ...]) -> frozenset[str]:
    """The names of the options among ``declared`` that change only what a hand pays
    (:attr:`Option.score_only`)."""
    return frozenset(o.name for o in declared if o.score_only)


def unclassified(declared: tuple[Option, ...]) -> list[str]:
    """The names of the options among ``declared`` not yet said to be score-only or not
    (:attr:`Option.score_only` ``None``), in declaration order."""
    return [o.name for o in declared if o.score_only is None]
