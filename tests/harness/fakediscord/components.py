"""Discord's rules for a message's interactive components, as the fake Discord checks them on
every message the bot creates or edits (channel messages, interaction responses of type 4 and
7, followups and edits by interaction token, ephemeral or not), wherever the components sit:
the rows of a classic message, or, in a Components V2 message, action rows at the top level
or inside a Container (type 17), and a Section's (type 9) button accessory.

* an action row (type 1) holds 1 to 5 buttons, or exactly one select menu (types 3, 5, 6, 7,
  8) and nothing else; a button sits in an action row or is a section's accessory, a select
  menu sits in an action row;
* a button (type 2): ``style`` 1 to 6; ``label`` at most 80 characters; a label or an emoji
  (or both), except a premium button (style 6), which has a ``sku_id`` and no custom_id, url,
  label or emoji; a link button (style 5) has a ``url`` and no ``custom_id``; the others a
  ``custom_id`` and no ``url``;
* a select menu: a ``custom_id``; ``placeholder`` at most 150 characters; ``min_values`` 0 to
  25, ``max_values`` 1 to 25, min <= max; a string select (type 3) 1 to 25 options (values
  distinct; max_values at most their number), each with a ``label`` and a ``value`` of at most
  100 characters, a ``description`` of at most 100; the other selects have no options;
* an ``emoji`` (of a button or a select option): ``{"name": "<a Unicode emoji>"}`` without an
  id, or ``{"id": "<snowflake>", ...}`` naming an application emoji the fake holds
  (``FakeDiscord.app_emojis``; the fake has no guild emojis, so any other id is refused).
  Whether a name is a Unicode emoji is decided from Unicode's emoji blocks (no emoji table
  ships here): letters, ``:name:`` text and the mahjong tiles other than 🀄 (U+1F004) are
  refused, as Discord refuses them;
* a classic message has at most 5 rows (Components V2's own limits: ``rest._v2_errors``).

A refusal is Discord's: HTTP 400, code 50035 "Invalid Form Body", with ``errors`` nested by
the refused field's path (``{"components": {"0": {"components": {"2": {"emoji": {"id":
{"_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji ..."}]}}}}}}}``,
shown by discord.py as ``In components.0.components.2.emoji.id: Invalid emoji ...``); each
message names the rule and the component.
"""

from __future__ import annotations

import re
from typing import Any, Container, Dict, List, Sequence, Tuple

ACTION_ROW, BUTTON, SECTION = 1, 2, 9
#: select menu types: string, user, role, mentionable, channel
SELECTS = {3: "string select", 5: "user select", 6: "role select", 7: "mentionable select", 8: "channel select"}
#: button styles: primary, secondary, success, danger, link, premium
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
LINK, PREMIUM = 5, 6
MAX_ROWS = 5  # rows of a classic message
MAX_BUTTONS = 5  # buttons of an action row
MAX_LABEL = 80  # characters of a button label
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100  # label, value and description of a select option
MAX_PLACEHOLDER = 150
MAX_VALUES = 25

Path = Tuple[str, ...]


def put_error(errors: Dict[str, Any], path: Sequence[str], code: str, message: str) -> None:
    """Add an error at ``path`` in Discord's nested shape (``{..: {"_errors": [{code, message}]}}``);
    a plain string already there (an older, flat error) is kept as one more ``_errors`` entry."""
    node = errors
    for key in path:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {} if child is None else {"_errors": [{"code": "", "message": str(child)}]}
        node = child
    node.setdefault("_errors", []).append({"code": code, "message": message})


def component_errors(components: Sequence[Any], *, v2: bool, emojis: Container[int] = ()) -> Dict[str, Any]:
    """The errors Discord answers for ``components`` (a message's ``components``): ``{}`` when
    they keep the rules of the module docstring.  ``v2``: the message has IS_COMPONENTS_V2;
    ``emojis``: the ids of the application's emojis."""
    errors: Dict[str, Any] = {}
    if not v2 and len(components) > MAX_ROWS:
        put_error(errors, ("components",), "BASE_TYPE_MAX_LENGTH",
                  f"Must be {MAX_ROWS} or fewer in length: a message without IS_COMPONENTS_V2 has at most "
                  f"{MAX_ROWS} action rows, this one has {len(components)}")

    def visit(c: Any, path: Path, slot: str) -> None:
        if not isinstance(c, dict):
            put_error(errors, path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            return
        t = c.get("type")
        if t == ACTION_ROW:
            _row(c, path, errors)
        elif t == BUTTON:
            if slot not in ("row", "accessory"):
                put_error(errors, path, "COMPONENT_INVALID_POSITION",
                          f"{_who(c)}: a button sits in an action row or is a section's accessory")
            _button(c, path, errors, emojis)
        elif t in SELECTS:
            if slot != "row":
                put_error(errors, path, "COMPONENT_INVALID_POSITION", f"{_who(c)}: a select menu sits in an action row")
            _select(c, path, errors, emojis)
        inner = "row" if t == ACTION_ROW else "other"
        for j, child in enumerate(c.get("components") or []):
            visit(child, path + ("components", str(j)), inner)
        if c.get("accessory") is not None:
            visit(c["accessory"], path + ("accessory",), "accessory" if t == SECTION else "other")

    for i, c in enumerate(components):
        visit(c, ("components", str(i)), "top")
    return errors


def _who(c: Dict[str, Any]) -> str:
    """How a message names a component: its kind and custom_id (or label, url)."""
    kind = "button" if c.get("type") == BUTTON else SELECTS.get(c.get("type"), f"component of type {c.get('type')}")
    for key in ("custom_id", "label", "url", "sku_id"):
        if c.get(key):
            return f"{kind} {c[key]!r}"
    return kind


def _row(row: Dict[str, Any], path: Path, errors: Dict[str, Any]) -> None:
    inner = row.get("components") or []
    kinds = [c.get("type") if isinstance(c, dict) else None for c in inner]
    if not inner:
        put_error(errors, path + ("components",), "BASE_TYPE_BAD_LENGTH",
                  "An action row holds 1 to 5 buttons or one select menu; this one is empty")
    elif any(k in SELECTS for k in kinds):
        if len(inner) != 1:
            put_error(errors, path + ("components",), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                      f"An action row with a select menu holds that select menu and nothing else; this one holds "
                      f"{len(inner)} components (types {kinds})")
    elif any(k != BUTTON for k in kinds):
        other = next(k for k in kinds if k != BUTTON)
        put_error(errors, path + ("components",), "UNION_TYPE_CHOICES",
                  f"An action row of a message holds buttons or one select menu, not a component of type {other}")
    elif len(inner) > MAX_BUTTONS:
        put_error(errors, path + ("components",), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                  f"An action row holds at most {MAX_BUTTONS} buttons; this one holds {len(inner)}")


def _button(b: Dict[str, Any], path: Path, errors: Dict[str, Any], emojis: Container[int]) -> None:
    who, style, label = _who(b), b.get("style"), b.get("label")
    if style not in BUTTON_STYLES:
        put_error(errors, path + ("style",), "BASE_TYPE_CHOICES",
                  f"{who}: style {style!r} is not a button style (1 to 6)")
    if label is not None and len(str(label)) > MAX_LABEL:
        put_error(errors, path + ("label",), "BASE_TYPE_MAX_LENGTH",
                  f"Must be {MAX_LABEL} or fewer in length: {who} has a label of {len(str(label))} characters")
    if style == PREMIUM:
        if not b.get("sku_id"):
            put_error(errors, path + ("sku_id",), "BASE_TYPE_REQUIRED", f"{who}: a premium button (style 6) needs a sku_id")
        for key in ("custom_id", "url", "label", "emoji"):
            if b.get(key) is not None:
                put_error(errors, path + (key,), "BUTTON_COMPONENT_PREMIUM_FIELD",
                          f"{who}: a premium button (style 6) has no {key}")
        return
    if not label and not b.get("emoji"):
        put_error(errors, path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                  f"{who}: a button needs a label or an emoji (or both)")
    if style == LINK:
        if not b.get("url"):
            put_error(errors, path + ("url",), "BASE_TYPE_REQUIRED", f"{who}: a link button (style 5) needs a url")
        if b.get("custom_id") is not None:
            put_error(errors, path + ("custom_id",), "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
                      f"{who}: a link button (style 5) cannot have a custom_id")
    elif style in BUTTON_STYLES:
        if not b.get("custom_id"):
            put_error(errors, path + ("custom_id",), "BASE_TYPE_REQUIRED",
                      f"{who}: a {BUTTON_STYLES[style]} button (style {style}) needs a custom_id")
        if b.get("url") is not None:
            put_error(errors, path + ("url",), "BUTTON_COMPONENT_URL_NOT_LINK",
                      f"{who}: only a link button (style 5) has a url")
    if b.get("emoji") is not None:
        _emoji(b["emoji"], path + ("emoji",), errors, emojis, who)


def _select(s: Dict[str, Any], path: Path, errors: Dict[str, Any], emojis: Container[int]) -> None:
    who, t = _who(s), s.get("type")
    if not s.get("custom_id"):
        put_error(errors, path + ("custom_id",), "BASE_TYPE_REQUIRED", f"{who}: a select menu needs a custom_id")
    placeholder = s.get("placeholder")
    if placeholder is not None and len(str(placeholder)) > MAX_PLACEHOLDER:
        put_error(errors, path + ("placeholder",), "BASE_TYPE_MAX_LENGTH",
                  f"Must be {MAX_PLACEHOLDER} or fewer in length: {who} has a placeholder of "
                  f"{len(str(placeholder))} characters")
    lo, hi = s.get("min_values", 1), s.get("max_values", 1)
    lo_ok = isinstance(lo, int) and not isinstance(lo, bool) and 0 <= lo <= MAX_VALUES
    hi_ok = isinstance(hi, int) and not isinstance(hi, bool) and 1 <= hi <= MAX_VALUES
    if not lo_ok:
        put_error(errors, path + ("min_values",), "NUMBER_TYPE_MAX",
                  f"{who}: min_values {lo!r} is not 0 to {MAX_VALUES}")
    if not hi_ok:
        put_error(errors, path + ("max_values",), "NUMBER_TYPE_MAX",
                  f"{who}: max_values {hi!r} is not 1 to {MAX_VALUES}")
    if lo_ok and hi_ok and lo > hi:
        put_error(errors, path + ("min_values",), "SELECT_COMPONENT_MIN_GREATER_THAN_MAX",
                  f"{who}: min_values {lo} is more than max_values {hi}")
    options = s.get("options")
    if t != 3:
        if options:
            put_error(errors, path + ("options",), "UNKNOWN_FIELD",
                      f"{who}: only a string select (type 3) has options")
        return
    options = options or []
    if not 1 <= len(options) <= MAX_OPTIONS:
        put_error(errors, path + ("options",), "BASE_TYPE_BAD_LENGTH",
                  f"Must be between 1 and {MAX_OPTIONS} in length: {who} has {len(options)} options")
    elif hi_ok and hi > len(options):
        put_error(errors, path + ("max_values",), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                  f"{who}: max_values {hi} is more than its {len(options)} options")
    seen: set = set()
    for k, o in enumerate(options):
        opath = path + ("options", str(k))
        if not isinstance(o, dict):
            put_error(errors, opath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        for key, required in (("label", True), ("value", True), ("description", False)):
            v = o.get(key)
            if v is None or v == "":
                if required:
                    put_error(errors, opath + (key,), "BASE_TYPE_REQUIRED", f"{who}: option {k} needs a {key}")
            elif len(str(v)) > MAX_OPTION_TEXT:
                put_error(errors, opath + (key,), "BASE_TYPE_MAX_LENGTH",
                          f"Must be {MAX_OPTION_TEXT} or fewer in length: {who}, option {k}: {key} of "
                          f"{len(str(v))} characters")
        if o.get("value") in seen:
            put_error(errors, opath + ("value",), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                      f"{who}: option value {o.get('value')!r} appears twice")
        seen.add(o.get("value"))
        if o.get("emoji") is not None:
            _emoji(o["emoji"], opath + ("emoji",), errors, emojis, f"{who}, option {k}")


def _emoji(e: Any, path: Path, errors: Dict[str, Any], emojis: Container[int], who: str) -> None:
    if not isinstance(e, dict):
        put_error(errors, path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    eid = e.get("id")
    if eid is not None:
        try:
            n = int(eid)
        except (TypeError, ValueError):
            put_error(errors, path + ("id",), "NUMBER_TYPE_COERCE", f'Value "{eid}" is not snowflake.')
            return
        if n not in emojis:
            put_error(errors, path + ("id",), "BUTTON_COMPONENT_INVALID_EMOJI",
                      f"Invalid emoji: {who}: {n} is not an emoji of this application")
    elif not is_unicode_emoji(e.get("name")):
        put_error(errors, path + ("name",), "BUTTON_COMPONENT_INVALID_EMOJI",
                  f"Invalid emoji: {who}: {e.get('name')!r} is not a Unicode emoji (a custom emoji needs its id)")


# -- Unicode emoji ---------------------------------------------------------------------------
#: code points (ranges) of emoji: Unicode's emoji blocks and the emoji of other blocks (an
#: approximation of emoji-data.txt: in Miscellaneous Symbols and Dingbats every character
#: counts; in the Mahjong, Domino and Playing Cards blocks only 🀄 U+1F004 and 🃏 U+1F0CF)
_EMOJI_RANGES: List[Tuple[int, int]] = [
    (0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122),
    (0x2139, 0x2139), (0x2194, 0x2199), (0x21A9, 0x21AA), (0x231A, 0x231B), (0x2328, 0x2328),
    (0x23CF, 0x23CF), (0x23E9, 0x23F3), (0x23F8, 0x23FA), (0x24C2, 0x24C2), (0x25AA, 0x25AB),
    (0x25B6, 0x25B6), (0x25C0, 0x25C0), (0x25FB, 0x25FE), (0x2600, 0x27BF), (0x2934, 0x2935),
    (0x2B05, 0x2B07), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55), (0x3030, 0x3030),
    (0x303D, 0x303D), (0x3297, 0x3297), (0x3299, 0x3299),
    (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF), (0x1F170, 0x1F171), (0x1F17E, 0x1F17F), (0x1F18E, 0x1F18E),
    (0x1F191, 0x1F19A), (0x1F1E6, 0x1F1FF), (0x1F201, 0x1F202), (0x1F21A, 0x1F21A), (0x1F22F, 0x1F22F),
    (0x1F232, 0x1F23A), (0x1F250, 0x1F251), (0x1F300, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F7E0, 0x1F7EB),
    (0x1F7F0, 0x1F7F0), (0x1F90C, 0x1F9FF), (0x1FA70, 0x1FAFF),
]
#: joiners and modifiers inside an emoji sequence: ZWJ, variation selectors, the keycap mark,
#: skin tones, tags
_EMOJI_PARTS: List[Tuple[int, int]] = [
    (0x200D, 0x200D), (0xFE0E, 0xFE0F), (0x20E3, 0x20E3), (0x1F3FB, 0x1F3FF), (0xE0020, 0xE007F),
]
_KEYCAP = re.compile("^[0-9#*]\uFE0F?\u20E3$")


def _in(cp: int, ranges: List[Tuple[int, int]]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_unicode_emoji(name: Any) -> bool:
    """Whether ``name`` is one Unicode emoji (a code point of the emoji blocks, or a sequence of
    them with joiners, variation selectors, skin tones or tags; or a keycap like ``1️⃣``)."""
    if not isinstance(name, str) or not name or len(name) > 32:
        return False
    if _KEYCAP.match(name):
        return True
    bases = 0
    for ch in name:
        cp = ord(ch)
        if _in(cp, _EMOJI_RANGES):
            bases += 1
        elif not _in(cp, _EMOJI_PARTS):
            return False
    return bases >= 1


__all__ = ["SELECTS", "BUTTON_STYLES", "put_error", "component_errors", "is_unicode_emoji"]
