"""The application's emojis (Discord API v10), as the fake Discord keeps them.

Routes (``application_id``: the fake's ``app_id``; another id is answered 403 50001):

* ``GET /applications/{application_id}/emojis`` -> 200 ``{"items": [emoji, ...]}`` (oldest first);
* ``GET /applications/{application_id}/emojis/{emoji_id}`` -> 200 emoji, or 404 10014 "Unknown Emoji";
* ``POST /applications/{application_id}/emojis`` ``{"name", "image": "data:image/png;base64,..."}``
  -> 201 emoji;
* ``PATCH /applications/{application_id}/emojis/{emoji_id}`` ``{"name"}`` -> 200 the renamed emoji;
* ``DELETE /applications/{application_id}/emojis/{emoji_id}`` -> 204.

An emoji object is ``{"id", "name", "roles": [], "require_colons": true, "managed": false,
"animated", "available": true, "user": <the bot's user>}``.  What Discord refuses is refused
with 400, code 50035 "Invalid Form Body" and ``errors`` in Discord's nested shape: a name not
of 2 to 32 characters of ``[A-Za-z0-9_]``, or one another emoji of the application has
(``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``; names compare exactly); an image that is not a data
URI of PNG, JPEG, GIF or WEBP, whose bytes are not of the format it declares (magic bytes), or
whose decoded bytes are over :data:`MAX_EMOJI_BYTES` (256 KiB).  An application has at most
``FakeDiscord.max_app_emojis`` emojis (Discord: 2,000); one more is refused with 400, code
30008 "Maximum number of emojis reached".  A GIF is ``animated``.

The emojis belong to the application, not to the bot's process: they stay across
``FakeDiscord.restart``.  ``FakeDiscord.app_emojis`` maps id -> :class:`FakeEmoji` (with the
image's bytes), :meth:`EmojiMixin.emoji_image` gives an emoji's bytes, the CDN serves them
(``Emoji.read()``), and a custom emoji in a component must be one of them
(``components.py``).  Calls are recorded like every other (``fd.calls_to("POST
/applications/{application_id}/emojis")``); ``fail_next(..., route=...)`` refuses them, and
with ``rate_limits`` creating is limited (``ratelimit.py``).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Dict, Optional, Tuple

from .components import put_error
from .model import FakeEmoji, HarnessError, RecordedCall
from .transport import _ApiError

#: the largest image (decoded bytes) Discord takes for an emoji: 256 KiB
MAX_EMOJI_BYTES = 262_144
#: the most emojis an application has on Discord
MAX_APP_EMOJIS = 2000
EMOJIS = "/applications/{application_id}/emojis"
EMOJI = "/applications/{application_id}/emojis/{emoji_id}"
_NAME = re.compile(r"^[A-Za-z0-9_]*$")
_DATA_URI = re.compile(r"^data:(?P<mime>[^;,]*);base64,(?P<data>.*)$", re.S)
_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WEBP"}


def image_format(data: bytes) -> Optional[str]:
    """The content type ``data`` really has, from its magic bytes (``None``: none of PNG, JPEG,
    GIF, WEBP)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


class EmojiMixin:
    """The application's emojis (part of :class:`FakeDiscord`)."""

    def _emoji_routes(self):
        return [
            ("GET", EMOJIS, self._h_list_emojis),
            ("POST", EMOJIS, self._h_create_emoji),
            ("GET", EMOJI, self._h_get_emoji),
            ("PATCH", EMOJI, self._h_edit_emoji),
            ("DELETE", EMOJI, self._h_delete_emoji),
        ]

    # -- for tests -----------------------------------------------------------
    def emoji_image(self, emoji_id: int) -> bytes:
        """The bytes of the image of the application's emoji ``emoji_id``."""
        emoji = self.app_emojis.get(int(emoji_id))
        if emoji is None:
            raise HarnessError(f"the application has no emoji {emoji_id}; it has {sorted(self.app_emojis)}")
        return emoji.data

    def app_emoji(self, name: str) -> FakeEmoji:
        """The application's emoji called ``name``."""
        for emoji in self.app_emojis.values():
            if emoji.name == name:
                return emoji
        raise HarnessError(f"the application has no emoji {name!r}; it has {[e.name for e in self.app_emojis.values()]}")

    def add_app_emoji(self, name: str, image: bytes) -> FakeEmoji:
        """Give the application an emoji as if uploaded earlier (by an earlier run of the bot or
        in the developer portal), under the same rules as an upload; no call is recorded."""
        mime = image_format(image) or "image/png"
        uri = f"data:{mime};base64," + base64.b64encode(image).decode("ascii")
        try:
            return self._new_emoji({"name": name, "image": uri})
        except _ApiError as e:
            raise HarnessError(f"Discord would refuse that emoji: {e.message} {e.errors}") from None

    # -- rules -----------------------------------------------------------------
    def _check_app(self, application_id: str) -> None:
        if str(application_id) != str(self.app_id):
            raise _ApiError(403, 50001, "Missing Access")

    def _known_emoji(self, emoji_id: str) -> FakeEmoji:
        try:
            emoji = self.app_emojis.get(int(emoji_id))
        except ValueError:
            emoji = None
        if emoji is None:
            raise _ApiError(404, 10014, "Unknown Emoji")
        return emoji

    def _name_errors(self, name: Any, errors: Dict[str, Any], *, renaming: Optional[int] = None) -> None:
        if not isinstance(name, str):
            put_error(errors, ("name",), "BASE_TYPE_REQUIRED", "This field is required")
        elif not 2 <= len(name) <= 32:
            put_error(errors, ("name",), "BASE_TYPE_BAD_LENGTH",
                      f"Must be between 2 and 32 in length: {name!r} has {len(name)} characters.")
        elif not _NAME.match(name):
            put_error(errors, ("name",), "STRING_TYPE_REGEX",
                      f"String value did not match validation regex: {name!r} is not of letters, digits and _.")
        elif any(e.name == name and e.id != renaming for e in self.app_emojis.values()):
            put_error(errors, ("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                      f"Emoji name already taken: the application has an emoji called {name!r}.")

    @staticmethod
    def _image_errors(image: Any, errors: Dict[str, Any]) -> Tuple[str, bytes]:
        if not isinstance(image, str):
            put_error(errors, ("image",), "BASE_TYPE_REQUIRED", "This field is required")
            return "", b""
        m = _DATA_URI.match(image)
        if m is None or m["mime"] not in _FORMATS:
            put_error(errors, ("image",), "IMAGE_INVALID",
                      "Invalid image data: not a data URI of PNG, JPEG, GIF or WEBP (data:image/png;base64,...)")
            return "", b""
        try:
            data = base64.b64decode(m["data"], validate=True)
        except (binascii.Error, ValueError):
            put_error(errors, ("image",), "IMAGE_INVALID", "Invalid image data: not base64")
            return "", b""
        if len(data) > MAX_EMOJI_BYTES:
            put_error(errors, ("image",), "BINARY_TYPE_MAX_SIZE",
                      f"File cannot be larger than 256.0 kb: {len(data)} bytes, at most {MAX_EMOJI_BYTES}.")
        elif image_format(data) != m["mime"]:
            put_error(errors, ("image",), "IMAGE_INVALID",
                      f"Invalid image data: the bytes are not {_FORMATS[m['mime']]} as {m['mime']} says")
        return m["mime"], data

    def _new_emoji(self, body: Any) -> FakeEmoji:
        body = body if isinstance(body, dict) else {}
        errors: Dict[str, Any] = {}
        self._name_errors(body.get("name"), errors)
        mime, data = self._image_errors(body.get("image"), errors)
        if errors:
            raise _ApiError(400, 50035, "Invalid Form Body", errors)
        if len(self.app_emojis) >= self.max_app_emojis:
            raise _ApiError(400, 30008, f"Maximum number of emojis reached ({self.max_app_emojis})")
        emoji = FakeEmoji(id=self.next_id(), name=body["name"], data=data, animated=mime == "image/gif",
                          content_type=mime)
        self.app_emojis[emoji.id] = emoji
        return emoji

    # -- handlers --------------------------------------------------------------
    def _emoji_payload(self, emoji: FakeEmoji) -> Dict[str, Any]:
        return emoji.payload(self._bot_user_payload())

    def _h_list_emojis(self, call: RecordedCall, application_id: str):
        self._check_app(application_id)
        return 200, {"items": [self._emoji_payload(e) for e in self.app_emojis.values()]}

    def _h_get_emoji(self, call: RecordedCall, application_id: str, emoji_id: str):
        self._check_app(application_id)
        return 200, self._emoji_payload(self._known_emoji(emoji_id))

    def _h_create_emoji(self, call: RecordedCall, application_id: str):
        self._check_app(application_id)
        return 201, self._emoji_payload(self._new_emoji(call.json))

    def _h_edit_emoji(self, call: RecordedCall, application_id: str, emoji_id: str):
        self._check_app(application_id)
        emoji = self._known_emoji(emoji_id)
        body = call.json if isinstance(call.json, dict) else {}
        if "name" in body:
            errors: Dict[str, Any] = {}
            self._name_errors(body["name"], errors, renaming=emoji.id)
            if errors:
                raise _ApiError(400, 50035, "Invalid Form Body", errors)
            emoji.name = body["name"]
        return 200, self._emoji_payload(emoji)

    def _h_delete_emoji(self, call: RecordedCall, application_id: str, emoji_id: str):
        self._check_app(application_id)
        del self.app_emojis[self._known_emoji(emoji_id).id]
        return 204, None

    def _cdn_emoji(self, path: str) -> Optional[bytes]:
        """The bytes the CDN serves at ``/emojis/{id}.{ext}`` (``None``: no such emoji)."""
        stem = path.split("?", 1)[0].rsplit("/", 1)[-1].split(".", 1)[0]
        emoji = self.app_emojis.get(int(stem)) if stem.isdigit() else None
        return emoji.data if emoji is not None else None


__all__ = ["MAX_EMOJI_BYTES", "MAX_APP_EMOJIS", "EmojiMixin", "image_format"]
