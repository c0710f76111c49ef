"""The fake Discord's REST handlers: interaction callbacks, webhooks, messages, channels, DMs, users, members and command sync."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, Optional


from .model import *  # noqa: F401,F403
from .modals import modal_errors
from .rest import V2
from .transport import *  # noqa: F401,F403


class HandlersMixin:
    """One method per REST route (part of :class:`FakeDiscord`)."""

    # -- handlers ---------------------------------------------------------
    def _interaction_for_token(self, token: str) -> FakeInteraction:
        inter = self._by_token.get(token)
        if inter is None or inter.expired:
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        return inter

    def _h_callback(self, call: RecordedCall, interaction_id: str, token: str):
        inter = self.interactions.get(int(interaction_id))
        if inter is None or inter.token != token or inter.expired:
            raise _ApiError(404, 10062, "Unknown interaction")
        if inter.response_type is None and asyncio.get_running_loop().time() - inter.created_at > self.ack_deadline:
            inter.late = True
            self.late.append(inter)
            raise _ApiError(404, 10062, "Unknown interaction")
        if inter.response_type is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = call.json or {}
        cb, data = int(body.get("type", 0)), body.get("data") or {}
        resource: Dict[str, Any] = {"type": cb}
        is_component = inter.type in (MESSAGE_COMPONENT, MODAL_SUBMIT) and inter.message_id is not None
        if cb == CB_MESSAGE:
            msg = self._create_message(inter.channel_id, data, call.files, interaction=inter)
            inter.original_message_id = msg.id
            resource["message"] = msg.data
        elif cb == CB_DEFERRED_MESSAGE:
            msg = self._create_message(inter.channel_id, {"flags": data.get("flags", 0)}, [], interaction=inter,
                                       loading=True)
            inter.original_message_id = msg.id
            resource["message"] = msg.data
        elif cb in (CB_DEFERRED_UPDATE, CB_UPDATE):
            if not is_component:
                raise _ApiError(400, 40043, "Interaction has no message to update")
            inter.original_message_id = inter.message_id
            if cb == CB_UPDATE:
                msg = self._edit_message(self.messages[inter.message_id], data, call.files)
                resource["message"] = msg.data
        elif cb == CB_AUTOCOMPLETE:
            if inter.type != AUTOCOMPLETE:
                raise _ApiError(400, 50035, "Invalid Form Body", {"type": "not an autocomplete interaction"})
            if len(data.get("choices", [])) > 25:
                raise _ApiError(400, 50035, "Invalid Form Body", {"choices": "Must be 25 or fewer in length."})
        elif cb == CB_MODAL:
            if inter.type not in (APPLICATION_COMMAND, MESSAGE_COMPONENT):
                raise _ApiError(400, 50035, "Invalid Form Body",
                                {"type": "a modal answers a command or a component, not a modal's submission"})
            errors = modal_errors(data)
            if errors:
                raise _ApiError(400, 50035, "Invalid Form Body", {"data": errors})
        elif cb != CB_PONG:
            raise _ApiError(400, 50035, "Invalid Form Body", {"type": f"unsupported callback type {cb}"})
        inter.response_type, inter.response_data = cb, data
        msg = self.messages.get(inter.original_message_id) if inter.original_message_id else None
        interaction_obj: Dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        if msg is not None and cb in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE):
            interaction_obj.update(response_message_id=str(msg.id), response_message_loading=msg.loading,
                                   response_message_ephemeral=msg.ephemeral)
        return 200, {"interaction": interaction_obj, "resource": resource}

    def _h_followup(self, call: RecordedCall, application_id: str, token: str):
        inter = self._interaction_for_token(token)
        if inter.response_type is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        original = self.messages.get(inter.original_message_id) if inter.original_message_id else None
        if original is not None and original.loading and not original.deleted:
            # As Discord does: the first followup after a "thinking" defer fills the
            # loading message (keeping the defer's ephemeral choice) instead of
            # creating a second message.
            # Of the followup's flags only IS_COMPONENTS_V2 counts: a deferred message takes
            # that flag from the followup that fills it, never from the defer.
            body = dict(call.json or {})
            v2 = int(body.pop("flags", None) or 0) & V2
            if v2:
                body["flags"] = v2
            self._validate(body, creating=True, files=call.files, emojis=self.app_emojis)
            return 200, self._edit_message(original, body, call.files).data
        msg = self._create_message(inter.channel_id, call.json or {}, call.files, interaction=inter)
        inter.followup_ids.append(msg.id)
        return 200, msg.data

    def _wh_message(self, inter: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            if inter.original_message_id is None:
                raise _ApiError(404, 10008, "Unknown Message")
            msg = self.messages[inter.original_message_id]
        else:
            msg = self.messages.get(int(message_id))
            if msg is None or (msg.id not in inter.followup_ids and msg.id != inter.original_message_id):
                raise _ApiError(404, 10008, "Unknown Message")
        if msg.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    def _h_wh_get(self, call: RecordedCall, application_id: str, token: str, message_id: str):
        return 200, self._wh_message(self._interaction_for_token(token), message_id).data

    def _h_wh_edit(self, call: RecordedCall, application_id: str, token: str, message_id: str):
        msg = self._wh_message(self._interaction_for_token(token), message_id)
        return 200, self._edit_message(msg, call.json or {}, call.files).data

    def _h_wh_delete(self, call: RecordedCall, application_id: str, token: str, message_id: str):
        self._wh_message(self._interaction_for_token(token), message_id).deleted = True
        return 204, None

    def _channel(self, channel_id: str) -> Dict[str, Any]:
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return ch

    def _h_create_message(self, call: RecordedCall, channel_id: str):
        self._channel(channel_id)
        owner = self._dm_owner.get(int(channel_id))
        if owner is not None and not self.users[owner].dms_open:
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        return 200, self._create_message(int(channel_id), call.json or {}, call.files).data

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        msg = self.messages.get(int(message_id))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != int(channel_id):
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    def _h_get_message(self, call: RecordedCall, channel_id: str, message_id: str):
        return 200, self._channel_message(channel_id, message_id).data

    def _h_edit_message(self, call: RecordedCall, channel_id: str, message_id: str):
        msg = self._channel_message(channel_id, message_id)
        return 200, self._edit_message(msg, call.json or {}, call.files).data

    def _h_delete_message(self, call: RecordedCall, channel_id: str, message_id: str):
        self._channel_message(channel_id, message_id).deleted = True
        return 204, None

    def _h_get_channel(self, call: RecordedCall, channel_id: str):
        return 200, self._channel(channel_id)

    def _h_create_dm(self, call: RecordedCall):
        uid = int((call.json or {}).get("recipient_id", 0))
        if uid not in self.users:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return 200, self._dm_channel(self.users[uid])

    def _h_get_user(self, call: RecordedCall, user_id: str):
        u = self.users.get(int(user_id))
        if u is None:
            raise _ApiError(404, 10013, "Unknown User")
        return 200, u.payload()

    def _h_get_member(self, call: RecordedCall, guild_id: str, user_id: str):
        u = self.users.get(int(user_id))
        if u is None or int(guild_id) not in self.guilds:
            raise _ApiError(404, 10007, "Unknown Member")
        m = u.member_payload()
        m.pop("permissions")
        return 200, m

    def _h_sync(self, call: RecordedCall, application_id: str, guild_id: Optional[str] = None):
        out = []
        for cmd in call.json or []:
            key = (cmd["name"], int(guild_id) if guild_id else None)
            self.command_ids.setdefault(key, self.next_id())
            out.append({**cmd, "id": str(self.command_ids[key]), "application_id": str(self.app_id),
                        "version": str(self.next_id()), **({"guild_id": guild_id} if guild_id else {}),
                        "default_member_permissions": cmd.get("default_member_permissions"),
                        "options": cmd.get("options", []), "description": cmd.get("description", ""),
                        "type": cmd.get("type", 1)})
        return 200, out
