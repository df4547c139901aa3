"""Formats: text transcripts, chat JSON and JSONL all read into the same `Message`s."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from tota_vault.errors import ValidationError
from tota_vault.extract.formats import parse_conversation
from tota_vault.extract.messages import Message

MAY8 = datetime(2023, 5, 8)
MAY8_1356 = datetime(2023, 5, 8, 13, 56)


def rows(messages: list[Message]) -> list[tuple[Any, ...]]:
    """Messages as plain tuples, so a table compares every field at once."""
    return [(m.role, m.name, m.id, m.timestamp, m.content) for m in messages]


def local(value: datetime) -> datetime:
    """An aware time as the naive local time `parse_conversation` gives (tests run in any TZ)."""
    return value.astimezone().replace(tzinfo=None)


# --- text ------------------------------------------------------------------------------------

TEXT_CASES = [
    pytest.param(
        "User: I moved to Lisbon.\nAssistant: Nice!\n",
        [("user", None, "1", None, "I moved to Lisbon."), ("assistant", None, "2", None, "Nice!")],
        id="user-assistant",
    ),
    pytest.param(
        "User: first line\nsecond line\n\n  indented third\nAssistant: one\n\n\nUser: two\n",
        [
            ("user", None, "1", None, "first line\nsecond line\n\n  indented third"),
            ("assistant", None, "2", None, "one"),
            ("user", None, "3", None, "two"),
        ],
        id="multi-line-and-blank-lines",
    ),
    pytest.param(
        "Human: a\nAI: b\nMe: c\nBot: d\nyou: e\nTOTA: f\nChatGPT: g\nclaude: h\nSystem: i\n",
        [
            ("user", None, "1", None, "a"),
            ("assistant", None, "2", None, "b"),
            ("user", None, "3", None, "c"),
            ("assistant", None, "4", None, "d"),
            ("user", None, "5", None, "e"),
            ("assistant", None, "6", None, "f"),
            ("assistant", None, "7", None, "g"),
            ("assistant", None, "8", None, "h"),
            ("system", None, "9", None, "i"),
        ],
        id="role-words-any-case",
    ),
    pytest.param(
        "Caroline: I went to a support group yesterday.\nMelanie: How was it?\nCaroline: Good.\n",
        [
            ("user", "Caroline", "1", None, "I went to a support group yesterday."),
            ("user", "Melanie", "2", None, "How was it?"),
            ("user", "Caroline", "3", None, "Good."),
        ],
        id="named-speakers",
    ),
    pytest.param(
        "Mary-Jane: hi\nO'Neil: hey\nJosé Luis: hola\nLudwig van Beethoven: guten Tag\n",
        [
            ("user", "Mary-Jane", "1", None, "hi"),
            ("user", "O'Neil", "2", None, "hey"),
            ("user", "José Luis", "3", None, "hola"),
            ("user", "Ludwig van Beethoven", "4", None, "guten Tag"),
        ],
        id="names-with-hyphens-apostrophes-accents-particles",
    ),
    pytest.param(
        "User: the logs\nAssistant: Here is what happened.\nNote: the build failed\nWarning: disk full\n",
        [
            ("user", None, "1", None, "the logs"),
            (
                "assistant",
                None,
                "2",
                None,
                "Here is what happened.\nNote: the build failed\nWarning: disk full",
            ),
        ],
        id="label-lines-stay-in-the-message",
    ),
    pytest.param(
        "User: hi\nAssistant: Sure.\nMost people: say no\n",
        [
            ("user", None, "1", None, "hi"),
            ("assistant", None, "2", None, "Sure.\nMost people: say no"),
        ],
        id="lowercase-word-is-no-name",
    ),
    pytest.param(
        "User: hi\nAssistant: Ask them.\nBob: hello\n\nBob: hello again\n",
        [
            ("user", None, "1", None, "hi"),
            ("assistant", None, "2", None, "Ask them.\nBob: hello"),
            ("user", "Bob", "3", None, "hello again"),
        ],
        id="new-name-mid-reply-continues-but-after-blank-line-starts",
    ),
    pytest.param(
        "Assistant: Run this:\n```\nUser: root\nAssistant: ok\n```\nUser: thanks\n",
        [
            ("assistant", None, "1", None, "Run this:\n```\nUser: root\nAssistant: ok\n```"),
            ("user", None, "2", None, "thanks"),
        ],
        id="code-fence-holds-speaker-lines",
    ),
    pytest.param(
        "User: see https://example.com and 12:30\n  Assistant: quoted\nUser:tight\n",
        [
            (
                "user",
                None,
                "1",
                None,
                "see https://example.com and 12:30\n  Assistant: quoted\nUser:tight",
            )
        ],
        id="indented-or-unspaced-colon-is-no-speaker",
    ),
    pytest.param(
        "Assistant:\nline one\nline two\n",
        [("assistant", None, "1", None, "line one\nline two")],
        id="content-starting-on-next-line",
    ),
    pytest.param(
        "\ufeffUser: hi\r\nAssistant: yo\r\n",
        [("user", None, "1", None, "hi"), ("assistant", None, "2", None, "yo")],
        id="bom-and-crlf",
    ),
]


@pytest.mark.parametrize(("text", "expected"), TEXT_CASES)
def test_text_transcript(text: str, expected: list[tuple[Any, ...]]) -> None:
    assert rows(parse_conversation(text, "text")) == expected


TIMESTAMP_CASES = [
    pytest.param("[2023-05-08 13:56] User: hi", MAY8_1356, id="bracketed-date-time"),
    pytest.param("[2023-05-08] User: hi", MAY8, id="bracketed-date"),
    pytest.param("2023-05-08T13:56:00 User: hi", MAY8_1356, id="bare-iso"),
    pytest.param("[2023-05-08T13:56:00] Caroline: hi", MAY8_1356, id="bracketed-iso-new-name"),
    pytest.param("[8 May 2023] User: hi", MAY8, id="bracketed-day-month-year"),
    pytest.param("--- 8 May 2023 ---\nUser: hi", MAY8, id="header-day-month-year"),
    pytest.param("--- 2023-05-08 ---\nUser: hi", MAY8, id="header-iso"),
    pytest.param("=== May 8, 2023 ===\nUser: hi", MAY8, id="header-month-day-year"),
    pytest.param("Date: 2023-05-08\nUser: hi", MAY8, id="date-line-iso"),
    pytest.param("Date: May 8, 2023\nUser: hi", MAY8, id="date-line-month-day-year"),
    pytest.param("DATE: 8th May, 2023\nUser: hi", MAY8, id="date-line-ordinal"),
    pytest.param("--- 1:56 pm on 8 May, 2023 ---\nUser: hi", MAY8_1356, id="header-locomo"),
    pytest.param("Date: 1:56 pm on 8 May, 2023\nUser: hi", MAY8_1356, id="date-line-locomo"),
    pytest.param("Date: 12:05 am on 8 May, 2023\nUser: hi", datetime(2023, 5, 8, 0, 5), id="midnight"),
    pytest.param("--- Monday, 8 May 2023 ---\nUser: hi", MAY8, id="header-with-weekday"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), TIMESTAMP_CASES)
def test_text_timestamps(text: str, expected: datetime) -> None:
    (message,) = parse_conversation(text, "text")
    assert (message.timestamp, message.content) == (expected, "hi")


def test_text_zoned_timestamp_becomes_local() -> None:
    (message,) = parse_conversation("2023-05-08T13:56:00Z User: hi", "text")
    assert message.timestamp == local(datetime(2023, 5, 8, 13, 56, tzinfo=UTC))


def test_text_header_dates_following_messages_until_the_next() -> None:
    text = (
        "--- 1:56 pm on 8 May, 2023 ---\n"
        "Caroline: hi\n"
        "Melanie: hey\n"
        "\n"
        "--- 9 May 2023 ---\n"
        "[2023-05-09 08:30] Caroline: morning\n"
        "Melanie: morning!\n"
    )
    assert [(m.speaker, m.timestamp) for m in parse_conversation(text)] == [
        ("Caroline", MAY8_1356),
        ("Melanie", MAY8_1356),
        ("Caroline", datetime(2023, 5, 9, 8, 30)),
        ("Melanie", datetime(2023, 5, 9, 8, 30)),
    ]


def test_text_date_line_inside_a_message_is_content() -> None:
    (message,) = parse_conversation("User: the deadline\nDate: 2023-05-08\n", "text")
    assert (message.content, message.timestamp) == ("the deadline\nDate: 2023-05-08", None)


def test_text_footnote_bracket_is_not_a_timestamp() -> None:
    messages = parse_conversation("User: see the source\n[1] Assistant: cited\n", "text")
    assert rows(messages) == [("user", None, "1", None, "see the source\n[1] Assistant: cited")]


# --- json ------------------------------------------------------------------------------------

OPENAI_LIST = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "I'm vegetarian."},
    {"role": "assistant", "content": "Noted."},
]

JSON_CASES = [
    pytest.param(
        OPENAI_LIST,
        [
            ("system", None, "1", None, "Be brief."),
            ("user", None, "2", None, "I'm vegetarian."),
            ("assistant", None, "3", None, "Noted."),
        ],
        id="openai-list",
    ),
    pytest.param(
        {"model": "gpt-4o", "messages": OPENAI_LIST[1:]},
        [("user", None, "1", None, "I'm vegetarian."), ("assistant", None, "2", None, "Noted.")],
        id="messages-object",
    ),
    pytest.param(
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Look at this"},
                    {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
                    {"type": "text", "text": "my cat Miso"},
                ],
            },
            {"role": "assistant", "content": [{"type": "output_text", "text": "Cute."}]},
            {"role": "assistant", "content": [{"type": "text", "text": {"value": "Nested."}}]},
            {"role": "assistant", "content": ["plain", "strings"]},
        ],
        [
            ("user", None, "1", None, "Look at this\nmy cat Miso"),
            ("assistant", None, "2", None, "Cute."),
            ("assistant", None, "3", None, "Nested."),
            ("assistant", None, "4", None, "plain\nstrings"),
        ],
        id="content-parts",
    ),
    pytest.param(
        [
            {"role": "human", "content": "a", "id": 42},
            {"role": "AI", "content": "b", "id": "msg_x"},
            {"role": "bot", "content": "c"},
            {"role": "model", "content": "d", "id": None},
            {"role": "tool", "content": "e", "id": ""},
            {"role": "function", "content": "f", "name": "get_weather"},
            {"role": "developer", "content": "g"},
            {"role": "assistant", "content": None, "tool_calls": []},
        ],
        [
            ("user", None, "42", None, "a"),
            ("assistant", None, "msg_x", None, "b"),
            ("assistant", None, "3", None, "c"),
            ("assistant", None, "4", None, "d"),
            ("tool", None, "5", None, "e"),
            ("tool", "get_weather", "6", None, "f"),
            ("system", None, "7", None, "g"),
            ("assistant", None, "8", None, ""),
        ],
        id="roles-ids-names",
    ),
    pytest.param(
        [
            {"role": "user", "name": "Caroline", "content": "hi"},
            {"role": "user", "name": 7, "content": "x"},
        ],
        [("user", "Caroline", "1", None, "hi"), ("user", "7", "2", None, "x")],
        id="names",
    ),
]


@pytest.mark.parametrize(("data", "expected"), JSON_CASES)
def test_json(data: Any, expected: list[tuple[Any, ...]]) -> None:
    assert rows(parse_conversation(json.dumps(data), "json")) == expected


JSON_TIME_CASES = [
    pytest.param({"timestamp": 1683553000}, datetime.fromtimestamp(1683553000), id="epoch-int"),
    pytest.param({"timestamp": 1683553000.75}, datetime.fromtimestamp(1683553000), id="epoch-float"),
    pytest.param({"timestamp": "1683553000"}, datetime.fromtimestamp(1683553000), id="epoch-string"),
    pytest.param({"timestamp": "2023-05-08T13:56:00"}, MAY8_1356, id="iso"),
    pytest.param({"timestamp": "2023-05-08 13:56"}, MAY8_1356, id="space-minutes"),
    pytest.param({"timestamp": "2023-05-08"}, MAY8, id="date-only"),
    pytest.param(
        {"timestamp": "2023-05-08T13:56:00Z"},
        local(datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        id="iso-utc",
    ),
    pytest.param(
        {"timestamp": "2023-05-08T13:56:00+02:00"},
        local(datetime.fromisoformat("2023-05-08T13:56:00+02:00")),
        id="iso-offset",
    ),
    pytest.param({"created_at": "2023-05-08T13:56:00"}, MAY8_1356, id="created_at"),
    pytest.param({"date": "8 May 2023"}, MAY8, id="date-key-human-form"),
    pytest.param({"timestamp": None, "date": "2023-05-08"}, MAY8, id="null-falls-through"),
    pytest.param({}, None, id="none"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "expected"), JSON_TIME_CASES)
def test_json_timestamps(fields: dict[str, Any], expected: datetime | None) -> None:
    data = [{"role": "user", "content": "hi", **fields}]
    (message,) = parse_conversation(json.dumps(data), "json")
    assert message.timestamp == expected


# --- jsonl -----------------------------------------------------------------------------------


def test_jsonl() -> None:
    text = (
        '{"role": "user", "content": "I run every morning.", "timestamp": "2023-05-08 13:56"}\n'
        "\n"
        '{"role": "assistant", "content": [{"type": "text", "text": "Great."}], "id": 9}\n'
        "   \n"
        '{"role": "user", "content": "Thanks", "name": "Caroline"}\n'
    )
    assert rows(parse_conversation(text, "jsonl")) == [
        ("user", None, "1", MAY8_1356, "I run every morning."),
        ("assistant", None, "9", None, "Great."),
        ("user", "Caroline", "3", None, "Thanks"),
    ]


# --- auto ------------------------------------------------------------------------------------

AUTO_CASES = [
    pytest.param("User: hi\nAssistant: hello", ["user", "assistant"], id="text"),
    pytest.param("[2023-05-08 13:56] User: hi\nAssistant: hello", ["user", "assistant"], id="text-with-bracket"),
    pytest.param("{not json} User: hi", None, id="text-starting-with-brace-is-still-an-error"),
    pytest.param(json.dumps(OPENAI_LIST), ["system", "user", "assistant"], id="json-list"),
    pytest.param(json.dumps(OPENAI_LIST, indent=2), ["system", "user", "assistant"], id="json-pretty"),
    pytest.param(json.dumps({"messages": OPENAI_LIST}), ["system", "user", "assistant"], id="json-object"),
    pytest.param("\n".join(json.dumps(m) for m in OPENAI_LIST), ["system", "user", "assistant"], id="jsonl"),
    pytest.param(json.dumps(OPENAI_LIST[1]), ["user"], id="jsonl-one-line"),
    pytest.param("  \n" + json.dumps(OPENAI_LIST) + "\n\n", ["system", "user", "assistant"], id="json-padded"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "roles"), AUTO_CASES)
def test_auto_detects_the_format(text: str, roles: list[str] | None) -> None:
    if roles is None:
        with pytest.raises(ValidationError):
            parse_conversation(text)
        return
    assert [m.role for m in parse_conversation(text)] == roles
    assert [m.role for m in parse_conversation(text, "auto")] == roles


# --- errors ----------------------------------------------------------------------------------

ERROR_CASES = [
    # empty input, in every format
    pytest.param("", "auto", "chat.txt: no messages", id="empty"),
    pytest.param(" \n\n\t\n", "text", "chat.txt: no messages", id="blank-text"),
    pytest.param("--- 8 May 2023 ---\n", "text", "chat.txt: no messages", id="only-a-header"),
    pytest.param("[]", "json", "chat.txt: no messages", id="empty-json-list"),
    pytest.param('{"messages": []}', "auto", "chat.txt: no messages", id="empty-messages"),
    pytest.param("\n\n", "jsonl", "chat.txt: no messages", id="empty-jsonl"),
    # text
    pytest.param("hello there\nUser: hi", "text", "chat.txt: line 1: expected 'Speaker: text'", id="text-before-speaker"),
    pytest.param("\n\nNote: hi", "text", "chat.txt: line 3: expected 'Speaker: text'", id="label-is-no-speaker"),
    pytest.param("42", "auto", "chat.txt: line 1: expected 'Speaker: text'", id="auto-scalar-reads-as-text"),
    pytest.param("User: a\n[2023-13-45] User: b", "text", "chat.txt: line 2: '2023-13-45' is not a real date", id="bad-stamp"),
    pytest.param("--- 31 February 2023 ---\nUser: a", "text", "chat.txt: line 1: '31 February 2023' is not a real date", id="bad-header"),
    pytest.param("Date: 13:70 on 8 May 2023\nUser: a", "text", "chat.txt: line 1: '13:70 on 8 May 2023' is not a real time", id="bad-header-time"),
    # json
    pytest.param("[1, 2", "json", "chat.txt: line 1 column 6: not JSON (Expecting ',' delimiter)", id="invalid-json"),
    pytest.param('[{"role": "user",\n  "content": }]', "auto", "chat.txt: line 2 column 14: not JSON (Expecting value)", id="auto-invalid-json"),
    pytest.param("42", "json", "chat.txt: expected a list of messages or an object with a \"messages\" list, got a number", id="json-scalar"),
    pytest.param('"hi"', "json", "chat.txt: expected a list of messages or an object with a \"messages\" list, got a string", id="json-string"),
    pytest.param('{"role": "user",\n"content": "x"}', "auto", "chat.txt: expected a list of messages or an object with a \"messages\" list, got an object", id="json-object-without-messages"),
    pytest.param('{"messages": "hi"}', "json", "chat.txt: \"messages\" is a string (expected a list of messages)", id="messages-not-a-list"),
    pytest.param('[{"role": "user"}, {"role": "user"}, {"role": "robot"}]', "json", "chat.txt: message 3: unknown role 'robot' (expected user, assistant, system, tool)", id="unknown-role"),
    pytest.param('[{"content": "hi"}]', "json", "chat.txt: message 1: no role", id="no-role"),
    pytest.param('[{"role": 1}]', "json", "chat.txt: message 1: role is a number (expected text)", id="role-not-text"),
    pytest.param('[{"role": "user"}, "hi"]', "json", "chat.txt: message 2: expected a message object, got a string", id="message-not-object"),
    pytest.param('[{"role": "user", "content": {"text": "x"}}]', "json", "chat.txt: message 1: content is an object (expected text or a list of parts)", id="content-object"),
    pytest.param('[{"role": "user", "content": [{"type": "text"}]}]', "json", "chat.txt: message 1: content part 1 has no text", id="text-part-without-text"),
    pytest.param('[{"role": "user", "content": [3]}]', "json", "chat.txt: message 1: content part 1 is a number (expected an object)", id="part-not-object"),
    pytest.param('[{"role": "user", "id": [1]}]', "json", "chat.txt: message 1: id is a list (expected text or a number)", id="id-list"),
    pytest.param('[{"role": "user", "timestamp": "yesterday"}]', "json", "chat.txt: message 1: timestamp 'yesterday' is not a date", id="timestamp-text"),
    pytest.param('[{"role": "user", "created_at": "2023-02-30"}]', "json", "chat.txt: message 1: '2023-02-30' is not a real date", id="timestamp-not-real"),
    pytest.param('[{"role": "user", "timestamp": 1e20}]', "json", "chat.txt: message 1: timestamp 1e+20 is out of range (expected epoch seconds)", id="timestamp-out-of-range"),
    pytest.param('[{"role": "user", "date": true}]', "json", "chat.txt: message 1: date is a boolean, not a date", id="timestamp-bool"),
    pytest.param("[" * 100_000, "auto", "chat.txt: not JSON (nested too deeply)", id="json-too-deep"),
    # jsonl
    pytest.param('{"role": "user"}\n\n{"role": "user"\n', "jsonl", "chat.txt: line 3: not JSON (Expecting ',' delimiter)", id="jsonl-bad-line"),
    pytest.param('{"role": "user"}\n[1]\n', "jsonl", "chat.txt: line 2: expected a JSON object, got a list", id="jsonl-list-line"),
    pytest.param('{"role": "user"}\n"hi"\n', "auto", "chat.txt: line 2: expected a JSON object, got a string", id="auto-jsonl-string-line"),
    pytest.param('{"role": "user"}\n{"role": "user"}\n{bad\n', "auto", "chat.txt: line 3: not JSON (Expecting property name enclosed in double quotes)", id="auto-jsonl-bad-line"),
    pytest.param('\n{"role": "user"}\n{"role": "robot"}', "jsonl", "chat.txt: line 3: unknown role 'robot' (expected user, assistant, system, tool)", id="jsonl-unknown-role"),
    # the format itself
    pytest.param("User: hi", "yaml", "chat.txt: unknown format 'yaml' (expected one of: auto, text, json, jsonl, chatgpt, claude-ai)", id="unknown-format"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "fmt", "message"), ERROR_CASES)
def test_errors_name_source_and_position(text: str, fmt: str, message: str) -> None:
    with pytest.raises(ValidationError, match=f"^{re.escape(message)}$") as caught:
        parse_conversation(text, fmt, source="chat.txt")
    assert "\n" not in str(caught.value)


def test_default_source_is_named_in_errors() -> None:
    with pytest.raises(ValidationError, match=r"^<input>: no messages$"):
        parse_conversation("")


def test_every_message_has_an_id_and_a_role_tota_knows() -> None:
    text = "\n".join(json.dumps(m) for m in OPENAI_LIST)
    for fmt, body in [
        ("jsonl", text),
        ("json", json.dumps(OPENAI_LIST)),
        ("text", "User: a\nBot: b"),
    ]:
        for message in parse_conversation(body, fmt):
            assert message.id
            assert message.role in {"user", "assistant", "system", "tool"}
