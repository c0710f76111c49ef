"""Interactions the fake Discord sends to the bot: slash commands, autocomplete, button clicks, select menus and modals."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import discord
from discord import app_commands

from .modals import submission
from .model import *  # noqa: F401,F403
from .transport import *  # noqa: F401,F403


class InboundMixin:
    """Building and dispatching interactions (part of :class:`FakeDiscord`)."""

    # -- inbound: interactions ------------------------------------------
    def _base_payload(self, user: FakeUser, itype: int, data: Dict[str, Any], *, channel_id: Optional[int],
                      guild_id: Optional[int], locale: Optional[str], dm: bool) -> Tuple[FakeInteraction, Dict[str, Any]]:
        iid = self.next_id()
        token = f"itoken-{iid}"
        payload: Dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": itype, "data": data, "token": token,
            "version": 1, "locale": locale or user.locale, "entitlements": [], "entitlement_sku_ids": [],
            "attachment_size_limit": MAX_ATTACHMENT_BYTES, "app_permissions": str(_BOT_PERMS.value),
        }
        if dm:
            ch = self._dm_channel(user)
            cid = int(ch["id"])
            payload.update(channel=dict(ch), channel_id=ch["id"], user=user.payload(), context=1,
                           authorizing_integration_owners={"0": "0"})
            gid = None
        else:
            gid = guild_id or self.guild_id
            cid = channel_id or self.channel_id
            ch = self.channels.get(cid)
            if ch is None or ch.get("guild_id") != str(gid):
                raise HarnessError(f"channel {cid} is not a text channel of guild {gid}; use add_channel()")
            payload["app_permissions"] = str(self.bot_permissions.get(cid, _BOT_PERMS).value)
            payload.update(guild_id=str(gid), channel=dict(ch, permissions=str(user.permissions())),
                           channel_id=str(cid), member=user.member_payload(), guild_locale=self.guild_locale_of(gid),
                           guild={"id": str(gid), "locale": self.guild_locale_of(gid),
                                  "features": list(self.guilds.get(gid, {}).get("features", []))}, context=0,
                           authorizing_integration_owners={"0": str(gid)})
        inter = FakeInteraction(id=iid, token=token, type=itype, user=user, channel_id=cid, guild_id=gid,
                                payload=payload, created_at=asyncio.get_running_loop().time())
        self.interactions[iid] = inter
        self._by_token[token] = inter
        return inter, payload

    async def _dispatch(self, inter: FakeInteraction, *, check: Optional[bool], wait: str = "settled") -> InteractionResult:
        n_calls, n_err, n_unhandled = len(self.calls), len(self._capture.errors), len(self.unhandled)
        self.bot._connection.parse_interaction_create(inter.payload)  # type: ignore[arg-type]
        if wait == "answered":
            await self.answered(inter)
        else:
            await self._wait_idle()
        result = InteractionResult(inter, self.calls[n_calls:], self._capture.errors[n_err:], self)
        if self.strict if check is None else check:
            problems = [f"{type(e).__name__}: {e}" for e in result.errors
                        if not any(text in str(e) for text in self.tolerated)]
            problems += [f"unknown route {c.method} {c.path}" for c in self.unhandled[n_unhandled:]]
            problems += self._rate_limit_problems()
            if inter.late:
                problems.append(f"the first response came after {self.ack_deadline} s (404 10062)")
            elif inter.response_type is None:
                problems.append("the interaction was never acknowledged")
            if problems:
                raise BotHandlingError("; ".join(problems)) from (result.errors[0] if result.errors else None)
        return result

    async def answered(self, inter: FakeInteraction, timeout: float = 30.0) -> None:
        """Wait until ``inter`` got its first response (or was refused as late), without
        waiting for the rest of what the bot does (fan-out to other players)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while inter.response_type is None and not inter.late:
            if loop.time() > deadline:
                raise TimeoutError(f"interaction {inter.id} was not answered within {timeout} s")
            await asyncio.sleep(0.002)

    def _find_command(self, command: str, guild_id: Optional[int]):
        parts = command.split()
        tree = self.bot.tree  # type: ignore[attr-defined]
        root, cmd_guild = None, None
        if guild_id is not None:
            root = tree.get_command(parts[0], guild=discord.Object(guild_id))
            cmd_guild = guild_id if root is not None else None
        if root is None:
            root = tree.get_command(parts[0])
        if root is None:
            raise HarnessError(f"no slash command {parts[0]!r}")
        chain, cmd = [], root
        for p in parts[1:]:
            if not isinstance(cmd, app_commands.Group):
                raise HarnessError(f"{cmd.qualified_name!r} has no subcommands")
            nxt = cmd.get_command(p)
            if nxt is None:
                raise HarnessError(f"no subcommand {p!r} in {cmd.qualified_name!r}")
            chain.append(nxt)
            cmd = nxt
        if isinstance(cmd, app_commands.Group):
            raise HarnessError(f"{command!r} is a group; name a subcommand")
        return root, chain, cmd, cmd_guild

    def _option_value(self, param: Any, value: Any, resolved: Dict[str, Dict[str, Any]], guild: bool) -> Any:
        t = param.type
        if isinstance(value, app_commands.Choice):
            value = value.value
        T = discord.AppCommandOptionType
        if t is T.string:
            return str(value)
        if t is T.integer:
            return int(value)
        if t is T.number:
            return float(value)
        if t is T.boolean:
            return bool(value)
        if t in (T.user, T.mentionable):
            u = value if isinstance(value, FakeUser) else self.users[int(value)]
            resolved.setdefault("users", {})[str(u.id)] = u.payload()
            if guild:
                m = u.member_payload()
                m.pop("user")
                resolved.setdefault("members", {})[str(u.id)] = m
            return str(u.id)
        if t is T.channel:
            cid = int(value)
            ch = self.channels[cid]
            resolved.setdefault("channels", {})[str(cid)] = {
                "id": str(cid), "name": ch.get("name", ""), "type": ch["type"], "permissions": str(_EVERYONE_PERMS.value)}
            return str(cid)
        if t is T.attachment:  # a file the user attached: ``RecordedFile`` (or ``(name, bytes)``)
            f = value if isinstance(value, RecordedFile) else RecordedFile(value[0], bytes(value[1]))
            if len(f.data) > MAX_ATTACHMENT_BYTES:
                raise HarnessError(f"Discord does not take a file of {len(f.data)} bytes (at most {MAX_ATTACHMENT_BYTES})")
            aid = str(self.next_id())
            self.uploads[aid] = f
            url = f"{CDN_BASE}/ephemeral-attachments/{self.channel_id}/{aid}/{f.name}"
            resolved.setdefault("attachments", {})[aid] = {
                "id": aid, "filename": f.name, "size": len(f.data), "url": url, "proxy_url": url,
                "content_type": f.content_type or "application/octet-stream", "ephemeral": True}
            return aid
        raise HarnessError(f"option type {t} not supported by the harness")

    def _build_options(self, cmd: Any, options: Dict[str, Any], resolved: Dict[str, Any], guild: bool,
                       focused: Optional[str]) -> List[Dict[str, Any]]:
        by_name = {}
        for p in cmd.parameters:
            by_name[p.display_name] = p
            by_name[p.name] = p
        out: List[Dict[str, Any]] = []
        seen = set()
        for key, value in options.items():
            p = by_name.get(key)
            if p is None:
                raise HarnessError(f"/{cmd.qualified_name} has no option {key!r}; has {[q.display_name for q in cmd.parameters]}")
            seen.add(p.display_name)
            if focused is not None and focused in (p.name, p.display_name):
                # Discord sends what the user typed so far, always as a string.
                out.append({"name": p.display_name, "type": p.type.value, "value": str(value), "focused": True})
                continue
            v = self._option_value(p, value, resolved, guild)
            if p.choices and v not in [c.value for c in p.choices]:
                raise HarnessError(f"{v!r} is not a choice of {p.display_name!r}: {[c.value for c in p.choices]}")
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if p.min_value is not None and v < p.min_value or p.max_value is not None and v > p.max_value:
                    raise HarnessError(f"{v!r} out of range for {p.display_name!r}")
            out.append({"name": p.display_name, "type": p.type.value, "value": v})
        if focused is None:
            missing = [p.display_name for p in cmd.parameters if p.required and p.display_name not in seen]
            if missing:
                raise HarnessError(f"/{cmd.qualified_name} needs options {missing}")
        return out

    def _command_payload(self, command: str, options: Optional[Dict[str, Any]], guild_id: Optional[int],
                         focused: Optional[str]) -> Dict[str, Any]:
        root, chain, cmd, cmd_guild = self._find_command(command, guild_id)
        resolved: Dict[str, Any] = {}
        opts = self._build_options(cmd, dict(options or {}), resolved, guild_id is not None, focused)
        for sub in reversed(chain):
            opts = [{"name": sub.name, "type": 2 if isinstance(sub, app_commands.Group) else 1, "options": opts}]
        key = (root.name, cmd_guild)
        if key not in self.command_ids:
            self.command_ids[key] = self.next_id()
        data: Dict[str, Any] = {"id": str(self.command_ids[key]), "name": root.name, "type": 1, "options": opts}
        if cmd_guild is not None:
            data["guild_id"] = str(cmd_guild)
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user: FakeUser, command: str, options: Optional[Dict[str, Any]] = None, *,
                    guild_id: Optional[int] = None, channel_id: Optional[int] = None, in_dm: bool = False,
                    locale: Optional[str] = None, check: Optional[bool] = None,
                    wait: str = "settled") -> InteractionResult:
        """Run a slash command as ``user``: ``command`` is the full name with subcommand
        groups (``"mj table create"``), ``options`` maps option names (Discord or Python
        names) to values (``FakeUser``/ids for user options, a ``RecordedFile`` for an
        attachment option — the bot downloads it from the fake CDN —, ``Choice`` or raw values).
        ``wait="answered"`` returns once the interaction got its first response (a user
        typing the next command right away), ``"settled"`` once the bot is idle."""
        gid = None if in_dm else (guild_id or self.guild_id)
        data = self._command_payload(command, options, gid, None)
        inter, _ = self._base_payload(user, APPLICATION_COMMAND, data, channel_id=channel_id, guild_id=gid,
                                      locale=locale, dm=in_dm)
        return await self._dispatch(inter, check=check, wait=wait)

    async def stale_slash(self, user: FakeUser, command: str, *, check: Optional[bool] = None) -> InteractionResult:
        """A command the bot does not have (any more), as a Discord client whose command list
        predates the bot's last sync sends it: ``command`` is the full name (``"mj oldname"``),
        sent with the id of a command Discord once had and no options."""
        *groups, last = command.split()
        opts: List[Dict[str, Any]] = []
        if groups:
            opts = [{"name": last, "type": 1, "options": []}]
            for name in reversed(groups[1:]):
                opts = [{"name": name, "type": 2, "options": opts}]
        data = {"id": str(self.next_id()), "name": groups[0] if groups else last, "type": 1, "options": opts,
                "guild_id": str(self.guild_id)}
        inter, _ = self._base_payload(user, APPLICATION_COMMAND, data, channel_id=None, guild_id=self.guild_id,
                                      locale=None, dm=False)
        return await self._dispatch(inter, check=check)

    async def autocomplete(self, user: FakeUser, command: str, options: Optional[Dict[str, Any]], focused: str, *,
                           guild_id: Optional[int] = None, channel_id: Optional[int] = None, in_dm: bool = False,
                           locale: Optional[str] = None, check: Optional[bool] = None) -> List[Dict[str, Any]]:
        """Ask for autocomplete of option ``focused`` (its typed text is ``options[focused]``,
        default ``""``); returns the choices (``[{"name": ..., "value": ...}]``)."""
        opts = dict(options or {})
        opts.setdefault(focused, "")
        gid = None if in_dm else (guild_id or self.guild_id)
        data = self._command_payload(command, opts, gid, focused)
        inter, _ = self._base_payload(user, AUTOCOMPLETE, data, channel_id=channel_id, guild_id=gid,
                                      locale=locale, dm=in_dm)
        return (await self._dispatch(inter, check=check)).choices

    def _component_interaction(self, user: FakeUser, message: Union[FakeMessage, int], custom_id: str,
                               extra: Dict[str, Any], locale: Optional[str], expect_type: Sequence[int]):
        msg = message if isinstance(message, FakeMessage) else self.messages[int(message)]
        if msg.deleted:
            raise HarnessError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.recipient_id != user.id:
            raise HarnessError(f"{user.name} cannot see ephemeral message {msg.id}")
        dm_owner = self._dm_owner.get(msg.channel_id)
        if dm_owner is not None and dm_owner != user.id:
            raise HarnessError(f"{user.name} cannot see DM message {msg.id}")
        comp = msg.component(custom_id)
        if comp.get("type") not in expect_type:
            raise HarnessError(f"component {custom_id!r} has type {comp.get('type')}, expected {expect_type}")
        if comp.get("disabled"):
            raise HarnessError(f"component {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": comp["type"], **extra}
        if dm_owner is not None:
            inter, payload = self._base_payload(user, MESSAGE_COMPONENT, data, channel_id=None, guild_id=None,
                                                locale=locale, dm=True)
        else:
            gid = int(self.channels[msg.channel_id]["guild_id"])
            inter, payload = self._base_payload(user, MESSAGE_COMPONENT, data, channel_id=msg.channel_id,
                                                guild_id=gid, locale=locale, dm=False)
        payload["message"] = json.loads(json.dumps(msg.data))
        inter.message_id = msg.id
        return inter, comp

    async def click(self, user: FakeUser, message: Union[FakeMessage, int], custom_id: str, *,
                    locale: Optional[str] = None, check: Optional[bool] = None,
                    wait: str = "settled") -> InteractionResult:
        """Press button ``custom_id`` on a message the bot sent (public, DM or ephemeral);
        ``wait`` as for :meth:`slash`."""
        inter, _ = self._component_interaction(user, message, custom_id, {}, locale, (2,))
        return await self._dispatch(inter, check=check, wait=wait)

    async def post(self, user: Optional[FakeUser], content: str = "…", *, channel_id: Optional[int] = None,
                   settle: bool = True) -> FakeMessage:
        """``user`` (``None``: the bot itself) posts a message in a guild text channel
        (default: the main one): it is stored, then the bot gets the gateway's MESSAGE_CREATE
        (as Discord sends it to a bot without the message-content intent: empty ``content``,
        ``embeds``, ``attachments`` and ``components``) — only when the bot's intents include
        guild messages, as Discord does."""
        cid = channel_id or self.channel_id
        ch = self.channels.get(cid)
        if ch is None or "guild_id" not in ch:
            raise HarnessError(f"channel {cid} is not a guild text channel; use add_channel()")
        try:
            msg = self._create_message(cid, {"content": content}, [])
        except _ApiError as e:
            raise HarnessError(f"Discord would refuse that message: {e.message} {e.errors}") from None
        if user is not None:
            msg.data["author"] = user.payload()
        if not self.bot.intents.guild_messages:
            return msg
        event = dict(msg.data, content="", embeds=[], attachments=[], components=[])
        if user is not None:
            member = user.member_payload()
            member.pop("user")
            member.pop("permissions")
            event["member"] = member
        self.bot._connection.parse_message_create(event)
        if settle:
            await self.settle()
        return msg

    def plant_message(self, custom_ids: Sequence[str], *, user: Optional[FakeUser] = None,
                      channel_id: Optional[int] = None, select_values: Optional[Sequence[str]] = None,
                      content: str = "…") -> FakeMessage:
        """Store a message from the bot that carries components with ``custom_ids`` — ids
        the bot may never have drawn (a tampered client, or a message of an older bot
        version) — in ``user``'s DM (default) or the guild channel ``channel_id``, so a test
        can :meth:`click` (or, with ``select_values``, :meth:`select`) them.  Each id is a
        button, or a string select offering ``select_values``; at most 5 per message."""
        if len(custom_ids) > 5:
            raise HarnessError("plant at most 5 components per message")
        if channel_id is None:
            if user is None:
                raise HarnessError("plant_message needs a user (DM) or a channel_id")
            channel_id = int(self._dm_channel(user)["id"])
        rows = []
        for cid in custom_ids:
            if select_values is not None:
                comp = {"type": 3, "custom_id": cid, "min_values": 1, "max_values": 1,
                        "options": [{"label": v[:100] or "-", "value": v} for v in select_values]}
            else:
                comp = {"type": 2, "style": 2, "label": "?", "custom_id": cid}
            rows.append({"type": 1, "components": [comp]})
        try:
            return self._create_message(channel_id, {"content": content, "components": rows}, [])
        except _ApiError as e:
            raise HarnessError(f"Discord would refuse that message: {e.message} {e.errors}") from None

    async def select(self, user: FakeUser, message: Union[FakeMessage, int], custom_id: str, values: List[str], *,
                     locale: Optional[str] = None, check: Optional[bool] = None,
                     wait: str = "settled") -> InteractionResult:
        """Choose ``values`` in select menu ``custom_id`` (string selects: checked against
        the options and min/max_values)."""
        msg = message if isinstance(message, FakeMessage) else self.messages[int(message)]
        comp = msg.component(custom_id)
        if comp.get("type") == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"{bad} not among the options {allowed}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise HarnessError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        extra: Dict[str, Any] = {"values": [str(v) for v in values]}
        if comp.get("type") == 5:
            extra["resolved"] = {"users": {str(v): self.users[int(v)].payload() for v in values}}
        inter, _ = self._component_interaction(user, msg, custom_id, extra, locale, (3, 5, 6, 7, 8))
        return await self._dispatch(inter, check=check, wait=wait)

    async def submit_modal(self, user: FakeUser, opened_by: InteractionResult, values: Dict[str, Any], *,
                           check: Optional[bool] = None) -> InteractionResult:
        """Submit the modal that ``opened_by`` answered with (callback type 9) as Discord sends
        it (``fakediscord.modals.submission``): ``values`` maps an input's custom_id to what
        the user typed (text input), picked (a radio group's value; a checkbox group's or a
        select's list of values) or ticked (a checkbox's bool); an input not named is
        submitted as the modal showed it (its prefilled text, its default options)."""
        if opened_by.response_type != CB_MODAL:
            raise HarnessError("that interaction did not open a modal")
        modal = opened_by.interaction.response_data
        data = submission(modal, values)
        src = opened_by.interaction
        inter, payload = self._base_payload(user, MODAL_SUBMIT, data, channel_id=src.channel_id if src.guild_id else None,
                                            guild_id=src.guild_id, locale=src.payload.get("locale"),
                                            dm=src.guild_id is None)
        if src.message_id is not None:
            payload["message"] = json.loads(json.dumps(self.messages[src.message_id].data))
            inter.message_id = src.message_id
        return await self._dispatch(inter, check=check)
