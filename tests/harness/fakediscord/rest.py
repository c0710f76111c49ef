"""The fake Discord's REST API: the route table, request handling and the message store."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any, Container, Dict, List, Optional, Sequence, Tuple

import aiohttp

from .components import component_errors, put_error
from .mentions import ping_problems, raw_name_problems
from .model import *  # noqa: F401,F403
from .transport import *  # noqa: F401,F403

#: the bytes a message's uploads may total on a server without boosts (10 MiB, as the
#: interaction's ``attachment_size_limit`` says: ``inbound.py``)
ATTACHMENT_LIMIT = 10 * 1024 * 1024


class RestMixin:
    """Routing REST calls and keeping messages (part of :class:`FakeDiscord`)."""

    # -- outbound: REST --------------------------------------------------
    def _route_table(self):
        return [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._h_callback),
            ("POST", "/webhooks/{application_id}/{token}", self._h_followup),
            ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_wh_get),
            ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_wh_edit),
            ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", self._h_wh_delete),
            ("POST", "/channels/{channel_id}/messages", self._h_create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._h_get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._h_edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._h_delete_message),
            ("POST", "/channels/{channel_id}/typing", lambda call, **kw: (204, None)),
            ("GET", "/channels/{channel_id}", self._h_get_channel),
            ("POST", "/users/@me/channels", self._h_create_dm),
            ("GET", "/users/@me", lambda call, **kw: (200, self._bot_user_payload())),
            ("GET", "/users/{user_id}", self._h_get_user),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._h_get_member),
            ("PUT", "/applications/{application_id}/commands", self._h_sync),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._h_sync),
            ("GET", "/applications/{application_id}/commands", lambda call, **kw: (200, [])),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", lambda call, **kw: (200, [])),
            *self._emoji_routes(),  # emojis.py
        ]

    @staticmethod
    def _decode_body(data: Any) -> Tuple[Any, List[RecordedFile]]:
        if data is None:
            return None, []
        if isinstance(data, (str, bytes)):
            return (json.loads(data) if data else None), []
        if isinstance(data, aiohttp.FormData):
            body, files = None, []
            for type_options, headers, value in data._fields:
                name = type_options["name"]
                if name == "payload_json":
                    body = json.loads(value)
                    continue
                raw = value.read() if hasattr(value, "read") else bytes(value)
                files.append(RecordedFile(type_options.get("filename", name), raw,
                                          headers.get("Content-Type") if headers else None))
            return body, files
        raise TypeError(f"unexpected request body {type(data)!r}")

    async def _handle_request(self, method: str, url: str, *, data: Any = None, headers: Optional[Dict[str, str]] = None,
                              params: Optional[Dict[str, Any]] = None, **_: Any) -> FakeResponse:
        await asyncio.sleep(0)  # a real request always yields to the loop
        headers = headers or {}
        if self.latency:
            delay = self.latency(RecordedCall(method, url, url, {}, None, [], "")) if callable(self.latency) \
                else self.latency
            await asyncio.sleep(delay)
        if url.startswith(CDN_BASE):
            call = RecordedCall("GET", url[len(CDN_BASE):], "cdn", {}, None, [], "cdn")
            self.calls.append(call)
            if url[len(CDN_BASE):].startswith("/emojis/"):
                image = self._cdn_emoji(url[len(CDN_BASE):])
                call.status = 200 if image is not None else 404
                return FakeResponse(200, None, raw=image) if image is not None else \
                    FakeResponse(404, {"message": "Not Found", "code": 0})
            aid = url[len(CDN_BASE):].split("/")[3] if url.count("/") >= 6 else ""
            if aid in self.uploads:
                call.status = 200
                return FakeResponse(200, None, raw=self.uploads[aid].data)
            for m in self.messages.values():
                if aid in m.files:
                    call.status = 200
                    return FakeResponse(200, None, raw=m.files[aid].data)
            call.status = 404
            return FakeResponse(404, {"message": "Not Found", "code": 0})
        path = url[len(API_BASE):] if url.startswith(API_BASE) else url
        path = path.split("?", 1)[0]
        body, files = self._decode_body(data)
        via = "bot" if "Authorization" in headers else "webhook"
        call = RecordedCall(method, path, path, dict(params or {}), body, files, via)
        call.at = asyncio.get_running_loop().time()
        handler, match = None, {}
        for m, template, rx, h in self._routes:
            mt = rx.match(path)
            if m == method and mt:
                call.route, handler, match = template, h, mt.groupdict()
                break
        if "token" in match and match["token"] in self._by_token:
            call.interaction_id = self._by_token[match["token"]].id
        self.calls.append(call)
        for f in self._failures:
            if f.times > 0 and f.match(call):
                f.times -= 1
                if f.times == 0:
                    self._failures.remove(f)
                call.status, call.response, call.injected = f.status, f.body, True
                return FakeResponse(f.status, f.body)
        rl_headers: Dict[str, str] = {}
        if handler is not None and self.rate_limits:
            refusal, rl_headers = self._rate_limit(call, match)
            if refusal is not None:
                call.status, call.response = 429, refusal
                self.rate_limited.append(call)
                return FakeResponse(429, refusal, rl_headers)
        if handler is None:
            self.unhandled.append(call)
            status, resp = 404, {"message": "404: Not Found", "code": 0}
        else:
            try:
                status, resp = handler(call, **match)
            except _ApiError as e:
                status, resp = e.status, {"message": e.message, "code": e.code, **({"errors": e.errors} if e.errors else {})}
        call.status, call.response = status, resp
        return FakeResponse(status, resp, rl_headers)

    # -- message store ---------------------------------------------------
    def _attachments(self, channel_id: int, payload: Dict[str, Any], files: List[RecordedFile],
                     old: Optional[FakeMessage]) -> Tuple[List[Dict[str, Any]], Dict[str, RecordedFile]]:
        store: Dict[str, RecordedFile] = dict(old.files) if old else {}
        old_list = old.data.get("attachments", []) if old else []
        if "attachments" not in payload:
            keep = list(old_list)
            new_specs = [{"id": i, "filename": f.name} for i, f in enumerate(files)]
        else:
            keep, new_specs = [], []
            old_ids = {a["id"]: a for a in old_list}
            for spec in payload["attachments"]:
                sid = str(spec.get("id"))
                if sid in old_ids:
                    keep.append(old_ids[sid])
                else:
                    new_specs.append(spec)
        out = list(keep)
        if len(out) + len(new_specs) > MAX_ATTACHMENTS:
            raise _ApiError(400, 50035, "Invalid Form Body", {"attachments": {
                "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {MAX_ATTACHMENTS} or fewer in length."}]}})
        for f in files:
            if len(f.data) > MAX_ATTACHMENT_BYTES:
                raise _ApiError(413, 40005, "Request entity too large")
        for spec in new_specs:
            idx = int(spec.get("id", 0))
            if idx >= len(files):
                raise _ApiError(400, 50035, "Invalid Form Body", {"attachments": "unknown file index"})
            description = spec.get("description")
            if description is not None and len(description) > MAX_DESCRIPTION:
                raise _ApiError(400, 50035, "Invalid Form Body", {"attachments": {
                    "description": f"{len(description)} characters; at most {MAX_DESCRIPTION}"}})
            f = files[idx]
            aid = str(self.next_id())
            fname = spec.get("filename") or f.name
            store[aid] = RecordedFile(fname, f.data, f.content_type)
            out.append({"id": aid, "filename": fname, "size": len(f.data),
                        "url": f"{CDN_BASE}/attachments/{channel_id}/{aid}/{fname}",
                        "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{aid}/{fname}",
                        "content_type": _guess_type(fname),
                        **({"description": description} if description is not None else {})})
        return out, store

    @staticmethod
    def _echo_components(components: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        counter = itertools.count(1)
        seen: set = set()

        def walk(items):
            out = []
            for c in items:
                c = dict(c)
                c.setdefault("id", next(counter))
                if "custom_id" in c:
                    if c["custom_id"] in seen:
                        raise _ApiError(400, 50035, "Invalid Form Body",
                                        {"components": f"duplicate custom_id {c['custom_id']!r}"})
                    if len(c["custom_id"]) > 100:
                        raise _ApiError(400, 50035, "Invalid Form Body", {"components": "custom_id over 100 characters"})
                    seen.add(c["custom_id"])
                if "components" in c:
                    c["components"] = walk(c["components"])
                if isinstance(c.get("accessory"), dict):
                    c["accessory"] = walk([c["accessory"]])[0]
                out.append(c)
            return out

        return walk(components)

    def _check_text(self, payload: Dict[str, Any]) -> None:
        """Note what ``payload`` would ping unnamed, and the names it shows as markup
        (``mentions.py``); reported at the next check as the bot's fault."""
        self.text_problems.extend(ping_problems(payload))
        self.text_problems.extend(raw_name_problems(payload, (u.name for u in self.users.values())))

    @staticmethod
    def _validate(payload: Dict[str, Any], *, creating: bool, files: Sequence[RecordedFile],
                  emojis: Container[int] = ()) -> None:
        """Refuse (400) what Discord refuses in a message body (413: uploads over
        :data:`ATTACHMENT_LIMIT` together): too long a content, too many or
        too large embeds, components that break Discord's rules wherever they sit
        (``components.py``: the same check for classic and Components V2 messages), V2's own
        limits (:func:`_v2_errors`); ``emojis``: the ids of the application's emojis (a custom
        emoji in a component must be one of them)."""
        if sum(len(f.data) for f in files) > ATTACHMENT_LIMIT:
            # Discord: 413, "Request entity too large" — the uploads of one message together
            raise _ApiError(413, 40005, "Request entity too large")
        errors: Dict[str, Any] = {}
        content = payload.get("content")
        if content is not None and len(content) > 2000:
            put_error(errors, ("content",), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            put_error(errors, ("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        for e in embeds:
            if len(e.get("description") or "") > 4096 or len(e.get("title") or "") > 256 or len(e.get("fields", [])) > 25:
                put_error(errors, ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size.")
        comps = payload.get("components") or []
        v2 = bool(int(payload.get("flags") or 0) & V2)
        _merge(errors, component_errors(comps, v2=v2, emojis=emojis))
        if v2:
            _merge(errors, _v2_errors(payload, comps, files))
        if errors:
            raise _ApiError(400, 50035, "Invalid Form Body", errors)
        if creating and not (content or embeds or comps or files or payload.get("sticker_ids") or payload.get("poll")):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _create_message(self, channel_id: int, payload: Dict[str, Any], files: List[RecordedFile], *,
                        interaction: Optional[FakeInteraction] = None, loading: bool = False) -> FakeMessage:
        payload = payload or {}
        if not loading:
            self._validate(payload, creating=True, files=files, emojis=self.app_emojis)
            self._check_text(payload)
        mid = self.next_id()
        flags = int(payload.get("flags") or 0) & (EPHEMERAL | 4 | 4096 | (1 << 15))
        if loading:
            flags |= LOADING
        attachments, store = self._attachments(channel_id, payload, files, None)
        ch = self.channels.get(channel_id, {})
        data: Dict[str, Any] = {
            "id": str(mid), "channel_id": str(channel_id), "type": 0, "content": payload.get("content") or "",
            "author": self._bot_user_payload(), "timestamp": _now(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": attachments,
            "embeds": list(payload.get("embeds") or []), "pinned": False, "flags": flags,
            "components": self._echo_components(payload.get("components") or []),
        }
        if "guild_id" in ch:
            data["guild_id"] = ch["guild_id"]
        if "poll" in payload:
            data["poll"] = payload["poll"]
        recipient = self._dm_owner.get(channel_id)
        if interaction is not None:
            data["type"] = 20 if interaction.type == APPLICATION_COMMAND else 0
            data["webhook_id"] = str(self.app_id)
            data["application_id"] = str(self.app_id)
            data["interaction_metadata"] = {"id": str(interaction.id), "type": interaction.type,
                                            "user": interaction.user.payload(),
                                            "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"]}
            if flags & EPHEMERAL:
                recipient = interaction.user.id
        if "message_reference" in payload:
            data["message_reference"] = payload["message_reference"]
            data["type"] = 19
        msg = FakeMessage(data, recipient_id=recipient, interaction_id=interaction.id if interaction else None, files=store)
        self.messages[mid] = msg
        if channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(mid)
        return msg

    def _edit_message(self, msg: FakeMessage, payload: Dict[str, Any], files: List[RecordedFile]) -> FakeMessage:
        payload = payload or {}
        was_v2 = bool(int(msg.data.get("flags") or 0) & V2)
        if "flags" in payload and payload["flags"] is not None and bool(int(payload["flags"]) & V2) != was_v2 \
                and not (msg.loading and not was_v2):  # a deferred message is filled as V2 once
            # Discord: a message keeps its format (Components V2 or not) for life
            raise _ApiError(400, 50035, "Invalid Form Body", {"flags": "IS_COMPONENTS_V2 cannot change"})
        if was_v2 and ("flags" not in payload or payload["flags"] is None):
            payload = dict(payload, flags=V2)  # an edit of a V2 message is checked by V2's rules
        self._validate(payload, creating=False, files=files, emojis=self.app_emojis)
        self._check_text(payload)
        new = json.loads(json.dumps(msg.data))
        msg.history.append(msg.data)
        for key in ("content", "embeds"):
            if key in payload:
                new[key] = payload[key] if payload[key] is not None else ("" if key == "content" else [])
        if "components" in payload:
            new["components"] = self._echo_components(payload["components"] or [])
        if "poll" in payload:
            new["poll"] = payload["poll"]
        if "flags" in payload and payload["flags"] is not None:
            keep = int(new.get("flags", 0)) & (EPHEMERAL | (1 << 15))
            new["flags"] = keep | (int(payload["flags"]) & (4 | (1 << 15)))
        was_loading = bool(int(new.get("flags", 0)) & LOADING)
        new["flags"] = int(new.get("flags", 0)) & ~LOADING
        attachments, store = self._attachments(msg.channel_id, payload, files, msg)
        new["attachments"] = attachments
        msg.files = store
        if not (new.get("content") or new.get("embeds") or new.get("components") or new.get("attachments")):
            msg.history.pop()
            raise _ApiError(400, 50006, "Cannot send an empty message")
        if not was_loading:  # filling a deferred response is not an edit
            new["edited_timestamp"] = _now()
        msg.data = new
        return msg


#: the longest description (alt text) of an attachment or a V2 media item this fake takes
MAX_DESCRIPTION = 256
#: the message flag of Components V2 (``IS_COMPONENTS_V2``)
V2 = 1 << 15
#: V2 component types that show an attachment: thumbnail, media gallery, file
_MEDIA_TYPES = {11, 12, 13}


def _v2_errors(payload: Dict[str, Any], comps: List[Dict[str, Any]], files: Sequence[RecordedFile]) -> Dict[str, Any]:
    """What Discord refuses in a Components V2 message: ``content``, ``embeds``, a poll or
    stickers beside the components; more than 40 components (nested ones counted); more than
    4,000 characters of text in text displays; an uploaded file no media component shows; a
    media item's description over :data:`MAX_DESCRIPTION` characters.  (Action rows, buttons and
    selects, wherever they sit, are checked by ``components.component_errors``.)"""
    errors: Dict[str, Any] = {}
    for key in ("content", "embeds", "poll", "sticker_ids"):
        if payload.get(key):
            put_error(errors, (key,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                      f"{key} cannot be used with IS_COMPONENTS_V2")
    count, text, shown = 0, 0, set()

    def walk(items) -> None:
        nonlocal count, text
        for c in items or []:
            count += 1
            if c.get("type") == 10:
                text += len(c.get("content") or "")
            if c.get("type") in _MEDIA_TYPES:
                for item in [c] + list(c.get("items") or []):
                    if len(item.get("description") or "") > MAX_DESCRIPTION:
                        put_error(errors, ("components",), "BASE_TYPE_MAX_LENGTH",
                                  f"a media description over {MAX_DESCRIPTION} characters")
                for ref in [c.get("media"), c.get("file")] + [i.get("media") for i in c.get("items") or []]:
                    url = (ref or {}).get("url") or ""
                    if url.startswith("attachment://"):
                        shown.add(url[len("attachment://"):])
            walk(c.get("components"))
            if isinstance(c.get("accessory"), dict):
                walk([c["accessory"]])

    walk(comps)
    if count > 40:
        put_error(errors, ("components",), "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                  f"{count} components; at most 40 in a message")
    if text > 4000:
        put_error(errors, ("components",), "COMPONENT_MAX_TOTAL_TEXT_LENGTH_EXCEEDED",
                  f"{text} characters of text; at most 4000 in a message")
    for f in files:
        if f.name not in shown:
            put_error(errors, ("attachments",), "MESSAGE_ATTACHMENT_NOT_SHOWN",
                      f"{f.name} is not shown by a media component")
    return errors


def _merge(into: Dict[str, Any], errors: Dict[str, Any]) -> None:
    """Add the nested errors ``errors`` to ``into`` (both in Discord's shape)."""
    for key, value in errors.items():
        if key == "_errors":
            into.setdefault("_errors", []).extend(value)
        elif isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        elif key in into:
            if not isinstance(into[key], dict):
                into[key] = {"_errors": [{"code": "", "message": str(into[key])}]}
            _merge(into[key], value if isinstance(value, dict) else {"_errors": [{"code": "", "message": str(value)}]})
        else:
            into[key] = value
