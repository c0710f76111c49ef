"""Errors raised by the engine.

Every refusal of an action is an :class:`IllegalAction`: it carries a stable
``code`` (a key of the message catalogues in ``data/i18n``), the ``rule`` it
comes from (a rule-file section) and ``params`` for the message, so a front end
can show a clear, localized reason and the state stays unchanged.
"""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that the rules do not allow now.

    :ivar code: stable message key, e.g. ``"not_your_turn"``, ``"tile_not_in_hand"``,
        ``"fan_below_minimum"``.
    :ivar rule: where the rule is written, e.g. ``"two_player.md §Minimum to win"``.
    :ivar params: values for the message (``{"tile": "5m"}``).
    """

    def __init__(self, code: str, rule: str = "", **params: Any):
        self.code = code
        self.rule = rule
        self.params = params
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(f"{code}" + (f" ({detail})" if detail else "") + (f" [{rule}]" if rule else ""))


class OptionError(ValueError):
    """A table option that does not exist or has a value outside its allowed values."""

    def __init__(self, code: str, **params: Any):
        self.code = code
        self.params = params
        super().__init__(code + (" " + repr(params) if params else ""))
