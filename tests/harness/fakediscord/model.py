"""The fake Discord's records: constants of the API, errors of the harness, and the users, messages, interactions and calls it keeps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional

import discord


if TYPE_CHECKING:
    from .core import FakeDiscord

API_BASE = "https://discord.com/api/v10"
CDN_BASE = "https://cdn.discordapp.com"
#: Discord's upload limit of a file without server boosts (sent as an interaction's
#: ``attachment_size_limit``; a message with a larger file is answered 413 code 40005)
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
#: most files one message may carry (more: 400 code 50035)
MAX_ATTACHMENTS = 10

#: Interaction types (Discord API): 2 application command, 3 component, 4 autocomplete, 5 modal submit.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
#: Interaction callback types.
CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 1, 4, 5, 6, 7, 8, 9
#: Message flags.
EPHEMERAL, LOADING = 64, 128

_EVERYONE_PERMS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True,
    attach_files=True, add_reactions=True, use_application_commands=True, use_external_emojis=True,
)
_BOT_PERMS = discord.Permissions(_EVERYONE_PERMS.value | discord.Permissions(manage_messages=True).value)


class HarnessError(AssertionError):
    """A test asked for something a Discord client could not do (unknown command,
    a click on a button that is not on the message, a required option missing...)."""


class BotHandlingError(AssertionError):
    """The bot logged an exception, called an unknown route, or never acknowledged
    the interaction while handling it (raised by ``slash``/``click``/... when ``strict``)."""


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass
class RecordedFile:
    """One uploaded file: ``name`` as sent, ``data`` the bytes, ``content_type``."""

    name: str
    data: bytes
    content_type: Optional[str] = None


@dataclass
class RecordedCall:
    """One REST request the bot made.

    ``route`` is the template (``"/channels/{channel_id}/messages"``), ``path`` the
    concrete path without query, ``params`` the query parameters, ``json`` the JSON
    body (for multipart uploads: the decoded ``payload_json``), ``files`` the uploads.
    ``via`` is ``"bot"`` (bot-token REST through ``HTTPClient``), ``"webhook"``
    (interaction-token calls through the webhook adapter) or ``"cdn"``.
    ``status``/``response`` are what the fake answered; ``injected`` marks an
    error injected by :meth:`FakeDiscord.fail_next`; ``interaction_id`` links
    interaction-token calls to their interaction; ``bucket`` names the rate-limit bucket
    the call was counted in (with ``rate_limits``; ``"global"`` for a global 429); ``at``
    is when the fake handled it (the loop's time, after the call's latency).
    """

    method: str
    path: str
    route: str
    params: Dict[str, Any]
    json: Any
    files: List[RecordedFile]
    via: str
    status: int = 0
    response: Any = None
    injected: bool = False
    interaction_id: Optional[int] = None
    bucket: Optional[str] = None
    #: the event loop's time when the fake handled the call (after its ``latency``)
    at: float = 0.0

    @property
    def key(self) -> str:
        """``"METHOD route"``, e.g. ``"POST /channels/{channel_id}/messages"``."""
        return f"{self.method} {self.route}"


@dataclass
class FakeEmoji:
    """An emoji of the application (``FakeDiscord.app_emojis``): ``data`` the decoded bytes of
    the image uploaded, ``content_type`` their format (``image/png``, ``image/jpeg``,
    ``image/gif`` or ``image/webp``), ``animated`` true for a GIF."""

    id: int
    name: str
    data: bytes
    animated: bool = False
    content_type: str = "image/png"

    def payload(self, user: Dict[str, Any]) -> Dict[str, Any]:
        """The emoji object Discord answers (``user``: who uploaded it, the bot's user object)."""
        return {"id": str(self.id), "name": self.name, "roles": [], "require_colons": True, "managed": False,
                "animated": self.animated, "available": True, "user": user}


@dataclass
class FakeUser:
    """A Discord user the tests act as.  ``admin`` gives Administrator and Manage Guild
    in guild interactions; ``dms_open=False`` makes DMs to the user fail (403, 50007)."""

    id: int
    name: str
    locale: str = "en-US"
    dms_open: bool = True
    admin: bool = False
    roles: List[int] = field(default_factory=list)
    dm_channel_id: Optional[int] = None

    def payload(self) -> Dict[str, Any]:
        """The Discord user object."""
        return {
            "id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
            "avatar": None, "public_flags": 0, "bot": False,
        }

    def permissions(self) -> int:
        return discord.Permissions.all().value if self.admin else _EVERYONE_PERMS.value

    def member_payload(self) -> Dict[str, Any]:
        """A guild member object (as sent in an interaction: with ``permissions``)."""
        return {
            "user": self.payload(), "roles": [str(r) for r in self.roles], "nick": None, "avatar": None,
            "joined_at": "2024-01-01T00:00:00+00:00", "premium_since": None, "deaf": False, "mute": False,
            "flags": 0, "pending": False, "communication_disabled_until": None,
            "permissions": str(self.permissions()),
        }


class FakeMessage:
    """A message as the fake Discord stores it (current state; ``history`` keeps the
    earlier versions).  ``data`` is the Discord message object the bot got back."""

    def __init__(self, data: Dict[str, Any], *, recipient_id: Optional[int], interaction_id: Optional[int],
                 files: Dict[str, RecordedFile]):
        self.data = data
        self.recipient_id = recipient_id  #: DM recipient, or the only user who sees an ephemeral message
        self.interaction_id = interaction_id
        self.files = files  #: attachment id -> bytes
        self.history: List[Dict[str, Any]] = []
        self.deleted = False

    id = property(lambda self: int(self.data["id"]))
    channel_id = property(lambda self: int(self.data["channel_id"]))
    content = property(lambda self: self.data.get("content", ""))

    @property
    def text(self) -> str:
        """What the message reads as text: its content, then (Components V2) its text
        displays in order, one per line."""
        texts = [c.get("content") or "" for c in self.walk_components() if c.get("type") == 10]
        return "\n".join(x for x in [self.content] + texts if x)
    embeds = property(lambda self: self.data.get("embeds", []))
    components = property(lambda self: self.data.get("components", []))
    flags = property(lambda self: int(self.data.get("flags", 0)))
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))
    loading = property(lambda self: bool(self.flags & LOADING))
    edits = property(lambda self: len(self.history))

    @property
    def attachments(self) -> List[RecordedFile]:
        """The files currently attached, with their bytes."""
        return [self.files[a["id"]] for a in self.data.get("attachments", []) if a["id"] in self.files]

    @property
    def descriptions(self) -> Dict[str, Optional[str]]:
        """File name -> the description (alt text) of each image the message shows: its
        attachments' and, in a Components V2 message, its media items' (``None``: none)."""
        out: Dict[str, Optional[str]] = {a["filename"]: a.get("description") for a in self.data.get("attachments", [])}
        for c in self.walk_components():
            for item in [c] + list(c.get("items") or []):
                url = ((item.get("media") or {}).get("url") or "") if isinstance(item, dict) else ""
                if url.startswith("attachment://"):
                    name = url[len("attachment://"):]
                    out[name] = item.get("description") or out.get(name)
        return out

    def walk_components(self) -> List[Dict[str, Any]]:
        """Every component (rows and containers flattened), in order."""
        out: List[Dict[str, Any]] = []

        def walk(items):
            for c in items:
                out.append(c)
                walk(c.get("components", []))
                if isinstance(c.get("accessory"), dict):
                    out.append(c["accessory"])

        walk(self.components)
        return out

    @property
    def custom_ids(self) -> List[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def component(self, custom_id: Optional[str] = None, *, label: Optional[str] = None) -> Dict[str, Any]:
        """The component with this custom_id (or this button label); HarnessError if absent."""
        for c in self.walk_components():
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        raise HarnessError(f"message {self.id} has no component {custom_id or label!r}; has {self.custom_ids}")

    def __repr__(self) -> str:
        return f"<FakeMessage id={self.id} channel={self.channel_id} flags={self.flags} content={self.content[:40]!r}>"


@dataclass
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: Optional[int]
    payload: Dict[str, Any]
    message_id: Optional[int] = None  #: the message a component was on
    response_type: Optional[int] = None
    response_data: Any = None
    original_message_id: Optional[int] = None
    expired: bool = False
    followup_ids: List[int] = field(default_factory=list)
    created_at: float = 0.0  #: loop time when Discord sent it (the 3-second rule counts from here)
    late: bool = False  #: its callback came after the deadline (answered 404 10062)


@dataclass
class InteractionResult:
    """What one interaction led to.  ``calls`` are all REST calls made while it was
    handled (until the bot settled); ``response_type`` the callback type (4 message,
    5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal, ``None``: never
    acknowledged); ``message`` the original response (for 6/7: the clicked message);
    ``followups`` the followup messages; ``choices`` the autocomplete choices;
    ``errors`` exceptions the bot logged."""

    interaction: FakeInteraction
    calls: List[RecordedCall]
    errors: List[BaseException]
    harness: "FakeDiscord"

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def response_type(self) -> Optional[int]:
        return self.interaction.response_type

    @property
    def message(self) -> Optional[FakeMessage]:
        mid = self.interaction.original_message_id
        return self.harness.messages.get(mid) if mid is not None else None

    @property
    def followups(self) -> List[FakeMessage]:
        return [self.harness.messages[m] for m in self.interaction.followup_ids]

    @property
    def all_messages(self) -> List[FakeMessage]:
        """Original response (if it created one) followed by the followups."""
        first = [self.message] if self.response_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and self.message else []
        return first + self.followups

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def content(self) -> Optional[str]:
        return self.message.content if self.message else None

    @property
    def text(self) -> Optional[str]:
        """What the answer reads as text (``FakeMessage.text``)."""
        return self.message.text if self.message else None

    @property
    def choices(self) -> List[Dict[str, Any]]:
        if self.response_type != CB_AUTOCOMPLETE:
            raise HarnessError(f"interaction answered with type {self.response_type}, not autocomplete")
        return list((self.interaction.response_data or {}).get("choices", []))


# ---------------------------------------------------------------------------
# aiohttp stand-ins
# ---------------------------------------------------------------------------

__all__ = ["API_BASE", "CDN_BASE", "MAX_ATTACHMENT_BYTES", "MAX_ATTACHMENTS", "APPLICATION_COMMAND", "MESSAGE_COMPONENT", "AUTOCOMPLETE", "MODAL_SUBMIT", "CB_PONG", "CB_MESSAGE", "CB_DEFERRED_MESSAGE", "CB_DEFERRED_UPDATE", "CB_UPDATE", "CB_AUTOCOMPLETE", "CB_MODAL", "EPHEMERAL", "LOADING", "_EVERYONE_PERMS", "_BOT_PERMS", "HarnessError", "BotHandlingError", "RecordedFile", "RecordedCall", "FakeEmoji", "FakeUser", "FakeMessage", "FakeInteraction", "InteractionResult"]
