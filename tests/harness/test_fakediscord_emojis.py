"""Tests of the fake Discord's application emojis (``fakediscord/emojis.py``) and of its checks
of action rows, buttons, selects and their emojis wherever they sit (``fakediscord/components.py``),
with the demo bot of ``test_fakediscord.py``."""

from __future__ import annotations

from typing import List

import discord
import pytest

try:  # tests/ on sys.path (pytest's default rootdir-relative import)
    from fakediscord import EPHEMERAL, FakeDiscord, HarnessError
    from test_fakediscord import DemoBot, _raw, fd  # noqa: F401  (fd: the fixture)
except ImportError:  # tests imported as a package
    from tests.harness.fakediscord import EPHEMERAL, FakeDiscord, HarnessError
    from tests.harness.test_fakediscord import DemoBot, _raw, fd  # noqa: F401

# ---------------------------------------------------------------------------------------------
# Application emojis (fakediscord/emojis.py)
# ---------------------------------------------------------------------------------------------
EMOJIS_ROUTE = "POST /applications/{application_id}/emojis"
PNG_IMG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24
JPEG_IMG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 16
GIF_IMG = b"GIF89a" + b"\x00" * 24
WEBP_IMG = b"RIFF\x14\x00\x00\x00WEBPVP8 " + b"\x00" * 16


def _data_uri(data: bytes, mime: str = "image/png") -> str:
    import base64

    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def _error_codes(errors, path=()) -> List[tuple]:
    """``(dotted path, code, message)`` of each error of a Discord error body's ``errors``."""
    out = []
    for key, value in (errors or {}).items():
        if key == "_errors":
            out += [(".".join(path), e["code"], e["message"]) for e in value]
        elif isinstance(value, dict):
            out += _error_codes(value, path + (key,))
        else:
            out.append((".".join(path + (key,)), "", str(value)))
    return out


async def _upload_raw(harness: FakeDiscord, name, image):
    r = await _raw(harness, "POST", f"/applications/{harness.app_id}/emojis", {"name": name, "image": image})
    return r.status, await r.json()


@pytest.mark.asyncio
async def test_create_application_emoji_keeps_the_image(fd: FakeDiscord) -> None:
    emoji = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    assert emoji.is_application_owned() and emoji.name == "tile_1m" and not emoji.animated
    assert emoji.user is not None and emoji.user.id == fd.bot_user_id and emoji.require_colons
    assert set(fd.app_emojis) == {emoji.id} and fd.emoji_image(emoji.id) == PNG_IMG
    assert fd.app_emojis[emoji.id].content_type == "image/png"
    (call,) = fd.calls_to(EMOJIS_ROUTE)
    assert call.status == 201 and call.json["image"].startswith("data:image/png;base64,")
    assert await emoji.read() == PNG_IMG  # the CDN serves it
    gif = await fd.bot.create_application_emoji(name="spin", image=GIF_IMG)
    assert gif.animated and fd.app_emoji("spin").data == GIF_IMG
    with pytest.raises(HarnessError):
        fd.emoji_image(12345)


@pytest.mark.asyncio
async def test_fetch_application_emojis_lists_them_oldest_first(fd: FakeDiscord) -> None:
    assert await fd.bot.fetch_application_emojis() == []
    a = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    b = await fd.bot.create_application_emoji(name="tile_2m", image=WEBP_IMG)
    listed = await fd.bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(a.id, "tile_1m"), (b.id, "tile_2m")]
    assert all(e.is_application_owned() for e in listed)
    assert fd.calls_to("GET /applications/{application_id}/emojis")[-1].response["items"][1]["name"] == "tile_2m"


@pytest.mark.asyncio
async def test_fetch_application_emoji_by_id_and_unknown_is_10014(fd: FakeDiscord) -> None:
    made = await fd.bot.create_application_emoji(name="tile_1m", image=JPEG_IMG)
    got = await fd.bot.fetch_application_emoji(made.id)
    assert (got.id, got.name, got.animated) == (made.id, "tile_1m", False)
    with pytest.raises(discord.NotFound) as err:
        await fd.bot.fetch_application_emoji(made.id + 1)
    assert err.value.code == 10014 and "Unknown Emoji" in str(err.value)


@pytest.mark.asyncio
async def test_emoji_edit_renames_under_the_name_rules(fd: FakeDiscord) -> None:
    a = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    await fd.bot.create_application_emoji(name="tile_2m", image=PNG_IMG)
    renamed = await a.edit(name="man_1")
    assert renamed.id == a.id and renamed.name == "man_1" and fd.app_emojis[a.id].name == "man_1"
    assert fd.calls_to("PATCH /applications/{application_id}/emojis/{emoji_id}")[-1].json == {"name": "man_1"}
    assert (await renamed.edit(name="man_1")).name == "man_1"  # its own name is no clash
    with pytest.raises(discord.HTTPException) as err:
        await renamed.edit(name="tile_2m")
    assert err.value.status == 400 and err.value.code == 50035
    assert [c for _, c, _ in _error_codes(fd.calls[-1].response["errors"])] == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    with pytest.raises(discord.HTTPException):
        await renamed.edit(name="x")
    assert fd.app_emojis[a.id].name == "man_1"


@pytest.mark.asyncio
async def test_emoji_delete_uses_the_application_route(fd: FakeDiscord) -> None:
    a = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    await a.delete()
    (call,) = fd.calls_to("DELETE /applications/{application_id}/emojis/{emoji_id}")
    assert call.status == 204 and call.path == f"/applications/{fd.app_id}/emojis/{a.id}"
    assert fd.app_emojis == {} and await fd.bot.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound) as err:
        await a.delete()
    assert err.value.code == 10014


class EmojiBot(DemoBot):
    """Uploads the emojis it lacks at start, as a bot with application emojis would."""

    IMAGES = {"tile_1m": PNG_IMG, "tile_east": GIF_IMG}

    async def setup_hook(self) -> None:
        await super().setup_hook()
        have = {e.name: e for e in await self.fetch_application_emojis()}
        self.tile_emojis = {}
        for name, image in self.IMAGES.items():
            self.tile_emojis[name] = have.get(name) or await self.create_application_emoji(name=name, image=image)


@pytest.mark.asyncio
async def test_emojis_belong_to_the_application_and_survive_a_restart() -> None:
    harness = FakeDiscord(EmojiBot())
    await harness.start()
    try:
        first = {n: e.id for n, e in harness.bot.tile_emojis.items()}
        assert len(harness.calls_to(EMOJIS_ROUTE)) == 2
        await harness.restart(EmojiBot())
        assert {n: e.id for n, e in harness.bot.tile_emojis.items()} == first
        assert len(harness.calls_to(EMOJIS_ROUTE)) == 2  # the second start made no POST
        assert len(harness.calls_to("GET /applications/{application_id}/emojis")) == 2
        assert harness.emoji_image(first["tile_east"]) == GIF_IMG and harness.app_emojis[first["tile_east"]].animated
        # an emoji the application already had (uploaded by hand): nothing uploaded for it
        harness.app_emojis.clear()
        pre = harness.add_app_emoji("tile_1m", PNG_IMG)
        await harness.restart(EmojiBot())
        assert harness.bot.tile_emojis["tile_1m"].id == pre.id and len(harness.calls_to(EMOJIS_ROUTE)) == 3
        with pytest.raises(HarnessError):
            harness.add_app_emoji("tile_1m", PNG_IMG)  # the name is taken
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_emoji_names_are_2_to_32_word_characters_and_unique(fd: FakeDiscord) -> None:
    for bad, code in [("a", "BASE_TYPE_BAD_LENGTH"), ("x" * 33, "BASE_TYPE_BAD_LENGTH"),
                      ("tile-1m", "STRING_TYPE_REGEX"), ("tile 1m", "STRING_TYPE_REGEX"), ("牌", "BASE_TYPE_BAD_LENGTH")]:
        with pytest.raises(discord.HTTPException) as err:
            await fd.bot.create_application_emoji(name=bad, image=PNG_IMG)
        assert err.value.status == 400 and err.value.code == 50035 and "In name:" in str(err.value), bad
        assert [(p, c) for p, c, _ in _error_codes(fd.calls[-1].response["errors"])] == [("name", code)], bad
    await fd.bot.create_application_emoji(name="ab", image=PNG_IMG)
    await fd.bot.create_application_emoji(name="Z" * 32, image=PNG_IMG)
    with pytest.raises(discord.HTTPException) as err:
        await fd.bot.create_application_emoji(name="ab", image=JPEG_IMG)
    assert err.value.code == 50035 and "Emoji name already taken" in str(err.value)
    assert _error_codes(fd.calls[-1].response["errors"])[0][1] == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    assert sorted(e.name for e in fd.app_emojis.values()) == ["Z" * 32, "ab"]


@pytest.mark.asyncio
async def test_emoji_images_at_most_256_kib(fd: FakeDiscord) -> None:
    limit = 262_144
    ok = PNG_IMG + b"\x00" * (limit - len(PNG_IMG))
    assert len(ok) == limit
    made = await fd.bot.create_application_emoji(name="big", image=ok)
    assert fd.emoji_image(made.id) == ok
    with pytest.raises(discord.HTTPException) as err:
        await fd.bot.create_application_emoji(name="too_big", image=ok + b"\x00")
    assert err.value.status == 400 and err.value.code == 50035 and "256.0 kb" in str(err.value)
    assert [(p, c) for p, c, _ in _error_codes(fd.calls[-1].response["errors"])] == [("image", "BINARY_TYPE_MAX_SIZE")]
    assert list(fd.app_emojis) == [made.id]


@pytest.mark.asyncio
async def test_emoji_images_are_png_jpeg_gif_or_webp_and_what_they_say(fd: FakeDiscord) -> None:
    for mime, data in [("image/png", PNG_IMG), ("image/jpeg", JPEG_IMG), ("image/gif", GIF_IMG), ("image/webp", WEBP_IMG)]:
        status, body = await _upload_raw(fd, "e_" + mime[6:], _data_uri(data, mime))
        assert status == 201 and body["animated"] is (mime == "image/gif"), mime
    for uri in [_data_uri(JPEG_IMG, "image/png"),  # the bytes are not the format declared
                _data_uri(b"not an image at all", "image/png"),
                _data_uri(b"BM" + b"\x00" * 30, "image/bmp"),  # a format Discord does not take
                "https://example.com/tile.png",  # not a data URI
                "data:image/png;base64,@@@@"]:  # not base64
        status, body = await _upload_raw(fd, "bad", uri)
        assert (status, body["code"]) == (400, 50035), uri
        assert [(p, c) for p, c, _ in _error_codes(body["errors"])] == [("image", "IMAGE_INVALID")], uri
    status, body = await _upload_raw(fd, "no_image", None)
    assert status == 400 and _error_codes(body["errors"])[0][:2] == ("image", "BASE_TYPE_REQUIRED")
    assert len(fd.app_emojis) == 4


@pytest.mark.asyncio
async def test_an_application_has_at_most_2000_emojis() -> None:
    assert FakeDiscord(DemoBot()).max_app_emojis == 2000
    harness = FakeDiscord(DemoBot(), max_app_emojis=3)
    await harness.start()
    try:
        for i in range(3):
            await harness.bot.create_application_emoji(name=f"e_{i}", image=PNG_IMG)
        with pytest.raises(discord.HTTPException) as err:
            await harness.bot.create_application_emoji(name="e_3", image=PNG_IMG)
        assert err.value.status == 400 and err.value.code == 30008
        assert "Maximum number of emojis reached" in str(err.value) and len(harness.app_emojis) == 3
        await harness.bot.fetch_application_emojis()
        await (await harness.bot.fetch_application_emoji(next(iter(harness.app_emojis)))).delete()
        await harness.bot.create_application_emoji(name="e_3", image=PNG_IMG)  # room again
        # a test refuses every upload by lowering the limit to what the application has
        harness.max_app_emojis = len(harness.app_emojis)
        with pytest.raises(discord.HTTPException):
            await harness.bot.create_application_emoji(name="e_4", image=PNG_IMG)
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_an_injected_429_on_the_emoji_route_is_retried(fd: FakeDiscord) -> None:
    fd.fail_next(429, route=EMOJIS_ROUTE, retry_after=0.5)
    made = await fd.bot.create_application_emoji(name="tile_1m", image=PNG_IMG)
    assert [(c.status, c.injected) for c in fd.calls_to(EMOJIS_ROUTE)] == [(429, True), (201, False)]
    assert list(fd.app_emojis) == [made.id]
    fd.fail_next(500, route=EMOJIS_ROUTE, times=5)  # discord.py gives up after 5 tries
    with pytest.raises(discord.DiscordServerError):
        await fd.bot.create_application_emoji(name="tile_2m", image=PNG_IMG)
    assert list(fd.app_emojis) == [made.id]


@pytest.mark.asyncio
async def test_emoji_uploads_have_a_bucket_of_5_per_5_seconds() -> None:
    now = [0.0]
    harness = FakeDiscord(DemoBot(), rate_limits=True, rate_clock=lambda: now[0])
    assert harness.rate_limit_table[EMOJIS_ROUTE] == (5, 5.0)
    await harness.start()
    try:
        for i in range(5):
            r = await _raw(harness, "POST", f"/applications/{harness.app_id}/emojis",
                           {"name": f"e_{i}", "image": _data_uri(PNG_IMG)})
            assert r.status == 201 and r.headers["X-RateLimit-Remaining"] == str(4 - i)
        r = await _raw(harness, "POST", f"/applications/{harness.app_id}/emojis",
                       {"name": "e_5", "image": _data_uri(PNG_IMG)})
        assert r.status == 429 and (await r.json())["retry_after"] == 5.0 and len(harness.app_emojis) == 5
        assert harness.rate_limit_counts == {EMOJIS_ROUTE: 1}
        harness.allow_rate_limits = True
        assert (await _raw(harness, "GET", f"/applications/{harness.app_id}/emojis")).status == 200  # another bucket
    finally:
        await harness.close()


@pytest.mark.asyncio
async def test_discord_py_holds_emoji_uploads_for_their_bucket() -> None:
    """Real sleeps: 5 uploads in a row, 2 per 0.05 s allowed: discord.py reads the headers and
    waits for each window; no 429."""
    harness = FakeDiscord(DemoBot(), fast_retries=False, rate_limit_table={EMOJIS_ROUTE: (2, 0.05)})
    await harness.start()
    try:
        for i in range(5):
            await harness.bot.create_application_emoji(name=f"e_{i}", image=PNG_IMG)
        assert len(harness.app_emojis) == 5 and harness.rate_limited == []
        assert harness.exhausted_counts == {EMOJIS_ROUTE: 2}
        await harness.settle()
    finally:
        await harness.close()


# ---------------------------------------------------------------------------------------------
# Components: action rows, buttons, selects and their emojis, wherever they sit
# ---------------------------------------------------------------------------------------------
V2_FLAG = 1 << 15


def _component_refusal(components, *, v2: bool = True, emojis=()):
    """``[(path, code, message)]`` Discord answers for a message with ``components`` (in a V2
    message: inside a Container), or ``[]``."""
    from fakediscord.rest import RestMixin
    from fakediscord.transport import _ApiError

    if v2:
        payload = {"flags": V2_FLAG, "components": [{"type": 17, "components": [{"type": 10, "content": "t"}, *components]}]}
    else:
        payload = {"content": "t", "components": components}
    try:
        RestMixin._validate(payload, creating=True, files=[], emojis=emojis)
    except _ApiError as e:
        assert (e.status, e.code) == (400, 50035)
        return _error_codes(e.errors)
    return []


def _button(cid="b", **kw):
    return {"type": 2, "style": 1, "label": "x", "custom_id": cid, **kw}


def _row(*items):
    return {"type": 1, "components": list(items)}


def _string_select(n=3, **kw):
    return {"type": 3, "custom_id": "s", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)], **kw}


APP_EMOJI = 777


#: (what the rule refuses, components, v2, the refused field's path within the component, code, text)
COMPONENT_RULES = [
    ("empty row", [_row()], True, "components", "BASE_TYPE_BAD_LENGTH", "this one is empty"),
    ("six buttons", [_row(*(_button(f"b{i}") for i in range(6)))], True, "components",
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "at most 5 buttons; this one holds 6"),
    ("select beside a button", [_row(_string_select(), _button())], True, "components",
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "that select menu and nothing else"),
    ("two selects", [_row(_string_select(), {"type": 5, "custom_id": "u"})], False, "components",
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "that select menu and nothing else"),
    ("text input in a message", [_row({"type": 4, "custom_id": "t", "style": 1, "label": "x"})], True, "components",
     "UNION_TYPE_CHOICES", "not a component of type 4"),
    ("select outside a row", [_string_select()], True, "", "COMPONENT_INVALID_POSITION", "sits in an action row"),
    ("no options", [_row(_string_select(0))], True, "components.0.options", "BASE_TYPE_BAD_LENGTH", "has 0 options"),
    ("26 options", [_row(_string_select(26, max_values=1))], False, "components.0.options", "BASE_TYPE_BAD_LENGTH",
     "has 26 options"),
    ("option label over 100", [_row(dict(_string_select(1), options=[{"label": "l" * 101, "value": "v"}]))], True,
     "components.0.options.0.label", "BASE_TYPE_MAX_LENGTH", "label of 101 characters"),
    ("option value over 100", [_row(dict(_string_select(1), options=[{"label": "l", "value": "v" * 101}]))], True,
     "components.0.options.0.value", "BASE_TYPE_MAX_LENGTH", "value of 101 characters"),
    ("duplicate option values", [_row(dict(_string_select(1), options=[{"label": "a", "value": "v"},
                                                                       {"label": "b", "value": "v"}]))], True,
     "components.0.options.1.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "appears twice"),
    ("placeholder over 150", [_row(_string_select(placeholder="p" * 151))], True, "components.0.placeholder",
     "BASE_TYPE_MAX_LENGTH", "placeholder of 151 characters"),
    ("min over max", [_row(_string_select(min_values=3, max_values=2))], True, "components.0.min_values",
     "SELECT_COMPONENT_MIN_GREATER_THAN_MAX", "min_values 3 is more than max_values 2"),
    ("max values over 25", [_row({"type": 6, "custom_id": "r", "max_values": 26})], True, "components.0.max_values",
     "NUMBER_TYPE_MAX", "max_values 26 is not 1 to 25"),
    ("max values over the options", [_row(_string_select(2, max_values=3))], True, "components.0.max_values",
     "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS", "max_values 3 is more than its 2 options"),
    ("select without custom_id", [_row({"type": 7, "custom_id": ""})], True, "components.0.custom_id",
     "BASE_TYPE_REQUIRED", "needs a custom_id"),
    ("button style 7", [_row(_button(style=7))], True, "components.0.style", "BASE_TYPE_CHOICES",
     "style 7 is not a button style"),
    ("button label over 80", [_row(_button(label="l" * 81))], False, "components.0.label", "BASE_TYPE_MAX_LENGTH",
     "label of 81 characters"),
    ("button without label or emoji", [_row(_button(label=None))], True, "components.0",
     "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "needs a label or an emoji"),
    ("button without custom_id", [_row({"type": 2, "style": 2, "label": "x"})], True, "components.0.custom_id",
     "BASE_TYPE_REQUIRED", "secondary button (style 2) needs a custom_id"),
    ("link button with custom_id", [_row(_button(style=5, url="https://example.com"))], True,
     "components.0.custom_id", "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID", "cannot have a custom_id"),
    ("link button without url", [_row({"type": 2, "style": 5, "label": "x"})], True, "components.0.url",
     "BASE_TYPE_REQUIRED", "needs a url"),
    ("url on a non-link button", [_row(_button(url="https://example.com"))], True, "components.0.url",
     "BUTTON_COMPONENT_URL_NOT_LINK", "only a link button"),
    ("premium button without sku", [_row({"type": 2, "style": 6})], True, "components.0.sku_id",
     "BASE_TYPE_REQUIRED", "needs a sku_id"),
    ("premium button with a label", [_row({"type": 2, "style": 6, "sku_id": "1", "label": "buy"})], True,
     "components.0.label", "BUTTON_COMPONENT_PREMIUM_FIELD", "has no label"),
    ("unknown custom emoji", [_row(_button(emoji={"id": "999", "name": "ghost"}))], True, "components.0.emoji.id",
     "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("unknown custom emoji in an option", [_row(dict(_string_select(1), options=[
        {"label": "a", "value": "v", "emoji": {"id": "999", "name": "ghost"}}]))], False,
     "components.0.options.0.emoji.id", "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("emoji name that is not an emoji", [_row(_button(emoji={"name": "mahjong"}))], True, "components.0.emoji.name",
     "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("a mahjong tile that is no emoji", [_row(_button(emoji={"name": "\U0001F007"}))], False,
     "components.0.emoji.name", "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"),
    ("six rows in a classic message", [_row(_button(f"b{i}")) for i in range(6)], False, None,
     "BASE_TYPE_MAX_LENGTH", "at most 5 action rows"),
    ("section accessory button without custom_id", [{"type": 9, "components": [{"type": 10, "content": "x"}],
                                                     "accessory": {"type": 2, "style": 1, "label": "x"}}], True,
     "accessory.custom_id", "BASE_TYPE_REQUIRED", "needs a custom_id"),
]


@pytest.mark.parametrize("rule,components,v2,field,code,text", COMPONENT_RULES, ids=[r[0] for r in COMPONENT_RULES])
def test_each_component_rule_is_enforced(rule, components, v2, field, code, text) -> None:
    errors = _component_refusal(components, v2=v2, emojis={APP_EMOJI})
    assert len(errors) == 1, errors
    path, got_code, message = errors[0]
    if field is None:
        where = "components"
    else:  # the first component after the text display of the container, or the first row
        where = ("components.0.components.1" if v2 else "components.0") + (f".{field}" if field else "")
    assert (path, got_code) == (where, code) and text in message, errors[0]


def test_valid_components_pass_in_classic_and_v2_messages() -> None:
    rows = [
        _row(*(_button(f"b{i}", label=None, emoji={"id": str(APP_EMOJI), "name": "tile"}) for i in range(5))),
        _row(_button("u", emoji={"name": "🀄"}), _button("k", label=None, emoji={"name": "1\ufe0f\u20e3"}),
             _button("f", label=None, emoji={"id": None, "name": "👍🏽"}),
             {"type": 2, "style": 5, "label": "rules", "url": "https://example.com"},
             {"type": 2, "style": 6, "sku_id": "123"}),
        _row(dict(_string_select(25, min_values=0, max_values=25, placeholder="p" * 150),
                  options=[{"label": "l" * 100, "value": f"{i:03}" + "v" * 97, "description": "d" * 100,
                            "emoji": {"name": "🇯🇵"} if i % 2 else {"id": APP_EMOJI, "name": "tile"}}
                           for i in range(25)])),
        _row({"type": 5, "custom_id": "users", "min_values": 1, "max_values": 4}),
        _row(_button("long", label="l" * 80)),
    ]
    assert _component_refusal(rows, v2=False, emojis={APP_EMOJI}) == []
    section = {"type": 9, "components": [{"type": 10, "content": "x"}],
               "accessory": _button("acc", label=None, emoji={"id": str(APP_EMOJI), "name": "tile"})}
    assert _component_refusal(rows + [section], v2=True, emojis={APP_EMOJI}) == []
    # without the application's emoji, each of its uses is refused (5 buttons, 13 options, 1 accessory)
    refused = _component_refusal(rows + [section], v2=True, emojis=())
    assert len(refused) == 5 + 13 + 1 and {c for _, c, _ in refused} == {"BUTTON_COMPONENT_INVALID_EMOJI"}


def test_what_counts_as_a_unicode_emoji() -> None:
    from fakediscord import is_unicode_emoji

    for yes in ["🀄", "🃏", "👍", "👍🏽", "👨\u200d👩\u200d👧", "🇯🇵", "1\ufe0f\u20e3", "#\u20e3", "❤\ufe0f", "©", "✅"]:
        assert is_unicode_emoji(yes), yes
    for no in ["", "a", "mahjong", ":mahjong:", "<:tile:123>", "\U0001F007", "\U0001F02B", "中", "1", None, 5]:
        assert not is_unicode_emoji(no), no


#: every way a message's components reach Discord: (name, how)
MESSAGE_PATHS = ["channel send", "channel edit", "callback 4 (ephemeral)", "callback 7", "followup filling a defer",
                 "followup", "webhook edit of @original"]


@pytest.mark.asyncio
@pytest.mark.parametrize("v2", [False, True], ids=["classic", "v2"])
@pytest.mark.parametrize("way", MESSAGE_PATHS)
async def test_components_are_checked_on_every_path(fd: FakeDiscord, way: str, v2: bool) -> None:
    from fakediscord import APPLICATION_COMMAND

    emoji = fd.add_app_emoji("tile_1m", PNG_IMG)

    def body(emoji_id):
        row = _row(_button("b", emoji={"id": str(emoji_id), "name": "tile_1m"}))
        if v2:
            return {"flags": V2_FLAG, "components": [{"type": 17, "components": [{"type": 10, "content": "t"}, row]}]}
        return {"content": "t", "components": [row]}

    alice = fd.user(101, "alice", plain=True)
    cid = fd.channel_id
    posted = fd._create_message(cid, dict(body(emoji.id), flags=V2_FLAG) if v2 else body(emoji.id), [])

    async def send(emoji_id):
        data = body(emoji_id)
        if way == "channel send":
            return await _raw(fd, "POST", f"/channels/{cid}/messages", data)
        if way == "channel edit":
            return await _raw(fd, "PATCH", f"/channels/{cid}/messages/{posted.id}", data)
        if way == "callback 7":
            inter, _ = fd._component_interaction(alice, posted, "b", {}, None, (2,))
            return await _raw(fd, "POST", f"/interactions/{inter.id}/{inter.token}/callback",
                              {"type": 7, "data": data}, bot=False)
        inter, _ = fd._base_payload(alice, APPLICATION_COMMAND, {"id": "1", "name": "x", "type": 1},
                                    channel_id=None, guild_id=None, locale=None, dm=False)
        callback = f"/interactions/{inter.id}/{inter.token}/callback"
        hook = f"/webhooks/{fd.app_id}/{inter.token}"
        if way == "callback 4 (ephemeral)":
            data["flags"] = data.get("flags", 0) | EPHEMERAL
            return await _raw(fd, "POST", callback, {"type": 4, "data": data}, bot=False)
        if way == "followup filling a defer":
            assert (await _raw(fd, "POST", callback, {"type": 5, "data": {"flags": EPHEMERAL}}, bot=False)).status == 200
            return await _raw(fd, "POST", hook, data, bot=False)
        first = body(emoji.id)
        assert (await _raw(fd, "POST", callback, {"type": 4, "data": first}, bot=False)).status == 200
        if way == "followup":
            return await _raw(fd, "POST", hook, data, bot=False)
        return await _raw(fd, "PATCH", f"{hook}/messages/@original", data, bot=False)

    ok = await send(emoji.id)
    assert ok.status == 200, await ok.json()
    bad = await send(999)
    answer = await bad.json()
    assert (bad.status, answer["code"]) == (400, 50035)
    ((path, code, message),) = _error_codes(answer["errors"])
    assert path.endswith("components.0.emoji.id") and code == "BUTTON_COMPONENT_INVALID_EMOJI"
    assert message.startswith("Invalid emoji")


class Board(discord.ui.LayoutView):
    """A Components V2 board: a container with a text display and 5 rows of 5 emoji buttons."""

    def __init__(self, emojis: List[discord.Emoji]) -> None:
        super().__init__(timeout=None)
        rows = [discord.ui.ActionRow(*(discord.ui.Button(emoji=emojis[5 * r + c], custom_id=f"demo:tile:{r}{c}",
                                                         style=discord.ButtonStyle.secondary) for c in range(5)))
                for r in range(5)]
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("Pick a tile"), *rows))


@pytest.mark.asyncio
async def test_a_v2_board_of_25_application_emoji_buttons_is_accepted(fd: FakeDiscord) -> None:
    emojis = [await fd.bot.create_application_emoji(name=f"tile_{i}", image=PNG_IMG) for i in range(25)]
    channel = fd.bot.get_channel(fd.channel_id)
    sent = await channel.send(view=Board(emojis))
    stored = fd.message(sent.id)
    assert stored.flags & V2_FLAG
    buttons = [c for c in stored.walk_components() if c.get("type") == 2]
    assert len(buttons) == 25 and [int(b["emoji"]["id"]) for b in buttons] == [e.id for e in emojis]
    assert all("label" not in b for b in buttons)
    # the emojis are the application's: one deleted, the same board is refused
    await emojis[7].delete()
    with pytest.raises(discord.HTTPException) as err:
        await sent.edit(view=Board(emojis))
    assert err.value.status == 400 and err.value.code == 50035 and "Invalid emoji" in str(err.value)
    assert "components.0.components.2.components.2.emoji.id" in str(err.value)
    assert stored.edits == 0
