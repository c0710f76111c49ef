"""Discord's rules for a modal (interaction callback type 9), as the fake Discord checks them, and
the submission Discord sends back (interaction type 5) from what a user filled in.

A modal (``{"custom_id", "title", "components"}``):

* a ``custom_id`` of 1 to 100 characters and a ``title`` of 1 to 45;
* 1 to 5 top-level components, each a Label (type 18), a Text Display (type 10) or, in the
  older form, an action row (type 1) holding one text input;
* a Label: ``label`` 1 to 45 characters, ``description`` at most 100, and one ``component``:
  a text input (4), a select (3, 5–8), a file upload (19), a radio group (21), a checkbox
  group (22) or a checkbox (23);
* a text input: ``style`` 1 or 2, ``value`` at most 4000 characters, ``placeholder`` at most
  100 (its own ``label``, when it has one, at most 45);
* a string select inside a Label: 1 to 25 options (``value``/``label`` at most 100);
* a radio group: 2 to 10 options; a checkbox group: 1 to 10 options; each option a ``value``
  and a ``label`` of at most 100 characters, a ``description`` of at most 100, values distinct;
  at most one radio option is ``default``.

Only the first answer of an interaction may be a modal (a deferred or answered interaction is
refused with 40060 "already acknowledged" by the callback route itself), and an interaction
that is itself a modal's submission cannot open another modal (400 50035).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .components import SELECTS, put_error
from .model import HarnessError

LABEL, TEXT_DISPLAY, ACTION_ROW, TEXT_INPUT = 18, 10, 1, 4
FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 19, 21, 22, 23
MAX_TOP = 5  # top-level components of a modal
MAX_TITLE = 45
MAX_LABEL = 45  # a Label's text
MAX_DESCRIPTION = 100  # a Label's description
MAX_RADIO = (2, 10)
MAX_CHECKBOXES = (1, 10)
MAX_INPUT_VALUE = 4000
MAX_INPUT_PLACEHOLDER = 100
MAX_OPTION_TEXT = 100
IN_LABEL = {TEXT_INPUT, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX, *SELECTS}


def modal_errors(modal: Dict[str, Any]) -> Dict[str, Any]:
    """The errors Discord answers for ``modal`` (a callback's ``data``); ``{}`` when it keeps
    the rules of the module docstring (Discord's nested error shape, ``components.put_error``)."""
    errors: Dict[str, Any] = {}
    cid, title = modal.get("custom_id"), modal.get("title")
    if not cid or len(str(cid)) > 100:
        put_error(errors, ("custom_id",), "BASE_TYPE_BAD_LENGTH", "A modal needs a custom_id of 1 to 100 characters")
    if not title or len(str(title)) > MAX_TITLE:
        put_error(errors, ("title",), "BASE_TYPE_BAD_LENGTH",
                  f"Must be between 1 and {MAX_TITLE} in length: the modal's title {title!r}")
    top = modal.get("components") or []
    if not 1 <= len(top) <= MAX_TOP:
        put_error(errors, ("components",), "BASE_TYPE_BAD_LENGTH",
                  f"Must be between 1 and {MAX_TOP} in length: a modal has 1 to {MAX_TOP} top-level "
                  f"components, this one has {len(top)}")
    for i, c in enumerate(top):
        path = ("components", str(i))
        t = c.get("type") if isinstance(c, dict) else None
        if t == LABEL:
            _label(c, path, errors)
        elif t == ACTION_ROW:
            inner = c.get("components") or []
            if len(inner) != 1 or inner[0].get("type") != TEXT_INPUT:
                put_error(errors, path, "UNION_TYPE_CHOICES", "An action row of a modal holds one text input")
            else:
                _text_input(inner[0], path + ("components", "0"), errors, labelled=False)
        elif t != TEXT_DISPLAY:
            put_error(errors, path, "UNION_TYPE_CHOICES",
                      f"A modal's top-level component is a Label, a Text Display or an action row, not type {t}")
    return errors


def _label(c: Dict[str, Any], path: tuple, errors: Dict[str, Any]) -> None:
    text, desc = c.get("label"), c.get("description")
    if not text or len(str(text)) > MAX_LABEL:
        put_error(errors, path + ("label",), "BASE_TYPE_BAD_LENGTH",
                  f"Must be between 1 and {MAX_LABEL} in length: a Label's text {text!r}")
    if desc is not None and len(str(desc)) > MAX_DESCRIPTION:
        put_error(errors, path + ("description",), "BASE_TYPE_MAX_LENGTH",
                  f"Must be {MAX_DESCRIPTION} or fewer in length: a Label's description of {len(str(desc))} characters")
    inner = c.get("component")
    t = inner.get("type") if isinstance(inner, dict) else None
    if t not in IN_LABEL:
        put_error(errors, path + ("component",), "UNION_TYPE_CHOICES", f"A Label cannot hold a component of type {t}")
        return
    ipath = path + ("component",)
    if not inner.get("custom_id"):
        put_error(errors, ipath + ("custom_id",), "BASE_TYPE_REQUIRED", "A Label's component needs a custom_id")
    if t == TEXT_INPUT:
        _text_input(inner, ipath, errors, labelled=True)
    elif t == RADIO_GROUP:
        _options(inner, ipath, errors, MAX_RADIO, "radio group")
        if sum(1 for o in inner.get("options") or [] if o.get("default")) > 1:
            put_error(errors, ipath + ("options",), "RADIO_GROUP_MULTIPLE_DEFAULTS",
                      "A radio group has at most one default option")
    elif t == CHECKBOX_GROUP:
        _options(inner, ipath, errors, MAX_CHECKBOXES, "checkbox group")
    elif t == 3:
        _options(inner, ipath, errors, (1, 25), "string select")


def _text_input(c: Dict[str, Any], path: tuple, errors: Dict[str, Any], *, labelled: bool) -> None:
    if c.get("style") not in (1, 2):
        put_error(errors, path + ("style",), "BASE_TYPE_CHOICES", f"A text input's style is 1 or 2, not {c.get('style')!r}")
    own = c.get("label")
    if not labelled and not own:
        put_error(errors, path + ("label",), "BASE_TYPE_REQUIRED", "A text input outside a Label needs a label")
    if own is not None and len(str(own)) > MAX_LABEL:
        put_error(errors, path + ("label",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_LABEL} or fewer in length")
    for key, most in (("value", MAX_INPUT_VALUE), ("placeholder", MAX_INPUT_PLACEHOLDER)):
        if c.get(key) is not None and len(str(c[key])) > most:
            put_error(errors, path + (key,), "BASE_TYPE_MAX_LENGTH",
                      f"Must be {most} or fewer in length: a text input's {key} of {len(str(c[key]))} characters")


def _options(c: Dict[str, Any], path: tuple, errors: Dict[str, Any], bounds: tuple, kind: str) -> None:
    options = c.get("options") or []
    lo, hi = bounds
    if not lo <= len(options) <= hi:
        put_error(errors, path + ("options",), "BASE_TYPE_BAD_LENGTH",
                  f"Must be between {lo} and {hi} in length: a {kind} {c.get('custom_id')!r} has {len(options)} options")
    seen = set()
    for k, o in enumerate(options):
        for key, required in (("label", True), ("value", True), ("description", False)):
            v = o.get(key)
            if v in (None, ""):
                if required:
                    put_error(errors, path + ("options", str(k), key), "BASE_TYPE_REQUIRED", f"a {kind} option needs a {key}")
            elif len(str(v)) > MAX_OPTION_TEXT:
                put_error(errors, path + ("options", str(k), key), "BASE_TYPE_MAX_LENGTH",
                          f"Must be {MAX_OPTION_TEXT} or fewer in length")
        if o.get("value") in seen:
            put_error(errors, path + ("options", str(k), "value"), "COMPONENT_OPTION_VALUE_DUPLICATED",
                      f"a {kind}'s value {o.get('value')!r} appears twice")
        seen.add(o.get("value"))


def modal_inputs(modal: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The inputs of a modal the bot sent (each a component dict with a custom_id), in order."""
    out = []
    for c in modal.get("components") or []:
        if c.get("type") == LABEL and isinstance(c.get("component"), dict):
            out.append(c["component"])
        elif c.get("type") == ACTION_ROW:
            out.extend(x for x in c.get("components") or [] if "custom_id" in x)
    return out


def _submitted(c: Dict[str, Any], given: Any, filled: bool) -> Dict[str, Any]:
    """What Discord sends for one input: the user's ``given`` answer when ``filled``, else what
    the modal showed (a text input's ``value``, the ``default`` options)."""
    t, cid = c["type"], c["custom_id"]
    out: Dict[str, Any] = {"type": t, "custom_id": cid}
    if c.get("id") is not None:
        out["id"] = c["id"]
    allowed = [o.get("value") for o in c.get("options") or []]
    defaults = [o.get("value") for o in c.get("options") or [] if o.get("default")]
    if t == TEXT_INPUT:
        out["value"] = str(given) if filled else str(c.get("value") or "")
    elif t == RADIO_GROUP:
        value = given if filled else (defaults[0] if defaults else None)
        if value is not None and value not in allowed:
            raise HarnessError(f"{value!r} is not an option of radio group {cid!r}: {allowed}")
        out["value"] = value
    elif t in (CHECKBOX_GROUP, 3):
        values = list(given) if filled else defaults
        bad = [v for v in values if v not in allowed]
        if bad:
            raise HarnessError(f"{bad} are not options of {cid!r}: {allowed}")
        lo, hi = c.get("min_values", 1 if t == 3 else 0), c.get("max_values", 1 if t == 3 else len(allowed))
        if not (lo or 0) <= len(values) <= (hi if hi is not None else len(allowed)):
            raise HarnessError(f"{cid!r} takes {lo}..{hi} values, got {len(values)}")
        out["values"] = values
    elif t == CHECKBOX:
        out["value"] = bool(given) if filled else bool(c.get("default"))
    elif t in SELECTS:
        out["values"] = [str(v) for v in (given if filled else [])]
    if c.get("required", True) and t in (TEXT_INPUT, RADIO_GROUP) and out.get("value") in (None, ""):
        raise HarnessError(f"{cid!r} is required: Discord's client does not submit the modal without it")
    return out


def submission(modal: Dict[str, Any], values: Dict[str, Any]) -> Dict[str, Any]:
    """The ``data`` of the modal-submit interaction for ``modal`` filled with ``values``
    (custom_id → text for a text input, a value for a radio group, a list of values for a
    checkbox group or a select, a bool for a checkbox; an input not named keeps what the
    modal showed).  HarnessError for a value the modal does not offer or an unknown id."""
    known = {c["custom_id"] for c in modal_inputs(modal)}
    unknown = set(values) - known
    if unknown:
        raise HarnessError(f"the modal has no inputs {sorted(unknown)}; has {sorted(known)}")
    rows: List[Dict[str, Any]] = []
    for c in modal.get("components") or []:
        if c.get("type") == LABEL:
            inner = c["component"]
            out: Dict[str, Any] = {"type": LABEL, "component": _submitted(inner, values.get(inner["custom_id"]),
                                                                           inner["custom_id"] in values)}
            if c.get("id") is not None:
                out["id"] = c["id"]
            rows.append(out)
        elif c.get("type") == ACTION_ROW:
            rows.append({"type": ACTION_ROW, "components": [
                _submitted(x, values.get(x["custom_id"]), x["custom_id"] in values)
                for x in c.get("components") or [] if "custom_id" in x]})
        elif c.get("type") == TEXT_DISPLAY:
            rows.append({"type": TEXT_DISPLAY, **({"id": c["id"]} if c.get("id") is not None else {})})
    return {"custom_id": modal["custom_id"], "components": rows}


def first_modal_problem(modal: Dict[str, Any]) -> Optional[str]:
    """The first of :func:`modal_errors`' messages (``None``: the modal keeps the rules)."""
    def first(node: Any) -> Optional[str]:
        if isinstance(node, dict):
            if node.get("_errors"):
                return node["_errors"][0]["message"]
            for v in node.values():
                found = first(v)
                if found:
                    return found
        return None
    return first(modal_errors(modal))


__all__ = ["modal_errors", "modal_inputs", "submission", "first_modal_problem"]
