"""Notes: parse (strings stay strings), render (same memory, same bytes), surgical patch, titles."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from tota_vault.errors import InvalidNoteError
from tota_vault.model import FIELD_ORDER, Evidence, Memory, MemoryType, Status
from tota_vault.notes import (
    MAX_TITLE_BYTES,
    REMOVE,
    parse_note,
    patch_frontmatter,
    render_note,
    split_body,
    title_from_text,
    unique_title,
)

WHEN = datetime(2026, 11, 29, 11, 43)
ULID = "01JDX3M7Q9T8ZK4W5N6P2R1S0V"


def note(frontmatter: str, body: str = "Prefers Neovim.\n") -> bytes:
    return f"---\n{frontmatter}---\n{body}".encode()


# --- parse_note ------------------------------------------------------------------------------

STRINGS_STAY_STRINGS = [
    ("id: 0123\n", "id", "0123"),
    ("reply: no\n", "reply", "no"),
    ("country: NO\n", "country", "NO"),
    ("flag: yes\n", "flag", "yes"),
    ("switch: on\n", "switch", "on"),
    ("version: 1.10\n", "version", "1.10"),
    ("hex: 0x1F\n", "hex", "0x1F"),
    ("big: 1_000\n", "big", "1_000"),
    ("nothing: ~\n", "nothing", "~"),
    ("created: 2024-01-15\n", "created", "2024-01-15"),
    ("updated: 2024-01-15T14:30:00\n", "updated", "2024-01-15T14:30:00"),
    ("due: 2024-01-15 14:30\n", "due", "2024-01-15 14:30"),
    ("quoted: '0123'\n", "quoted", "0123"),
    ('link: "[[Episode IV]]"\n', "link", "[[Episode IV]]"),
    ("tags: [a, b]\n", "tags", ["a", "b"]),
    ("tags:\n  - 1984\n  - no\n", "tags", ["1984", "no"]),
]


@pytest.mark.parametrize(
    ("frontmatter", "name", "expected"),
    STRINGS_STAY_STRINGS,
    ids=[
        row[0].split(":")[0] + "=" + row[0].split(":", 1)[1].strip() for row in STRINGS_STAY_STRINGS
    ],
)
def test_parse_keeps_scalars_as_written(frontmatter: str, name: str, expected: object) -> None:
    parsed = parse_note(note("type: preference\n" + frontmatter), "preference/x.md")
    assert parsed.fields[name] == expected
    assert parsed.has_frontmatter


def test_parse_string_fields_reach_the_memory_unchanged() -> None:
    parsed = parse_note(
        note("id: 0123\ntype: preference\nkey: no\nsubject: 1.10\ncreated: 2024-01-15\n"),
        "preference/x.md",
    )
    assert parsed.error is None
    memory = parsed.memory
    assert memory is not None
    assert (memory.id, memory.key, memory.subject) == ("0123", "no", "1.10")
    assert memory.created == datetime(2024, 1, 15)
    assert parsed.fields["created"] == "2024-01-15"  # the written form, not a date object


VALID = f"id: {ULID}\ntype: goal\nconfidence: 0.8\ntags: [a, b]\n"

# fmt: off
PARSE_CASES = [
    # (data, path, expected type or None, error substring or None, has_frontmatter, text)
    pytest.param(note(VALID), "goal/x.md", "goal", None, True, "Prefers Neovim.", id="plain-lf"),
    pytest.param(
        b"\xef\xbb\xbf" + note(VALID), "goal/x.md", "goal", None, True, "Prefers Neovim.",
        id="utf8-bom",
    ),
    pytest.param(
        note(VALID).replace(b"\n", b"\r\n"), "goal/x.md", "goal", None, True, "Prefers Neovim.",
        id="crlf",
    ),
    pytest.param(
        b"\xef\xbb\xbf" + note(VALID).replace(b"\n", b"\r\n"), "goal/x.md", "goal", None, True,
        "Prefers Neovim.", id="bom-and-crlf",
    ),
    pytest.param(
        b"Just my own words.\n", "habit/x.md", "habit", None, False, "Just my own words.",
        id="no-frontmatter-in-type-folder",
    ),
    pytest.param(
        note("confidence: 0.9\n"), "decision/x.md", "decision", None, True, "Prefers Neovim.",
        id="type-from-folder",
    ),
    pytest.param(
        note("type: goal\n"), "habit/x.md", "goal", None, True, "Prefers Neovim.",
        id="frontmatter-type-beats-folder",
    ),
    pytest.param(
        note("type: goal\n"), "elsewhere/deep/x.md", "goal", None, True, "Prefers Neovim.",
        id="type-outside-type-folder",
    ),
    pytest.param(b"# Read me\n", "README.md", None, None, False, None, id="plain-root-note"),
    pytest.param(
        note("aliases: [me]\n"), "Daily.md", None, None, True, None, id="root-note-no-type"
    ),
    pytest.param(
        b"---\ntype: goal\nconfidence: 0.8\nRun a marathon.\n", "goal/x.md", None,
        "never closed", False, None, id="frontmatter-never-closed",
    ),
    pytest.param(
        note(VALID)[4:], "goal/x.md", None, "no opening --- (the --- at line 5 closes it)", False,
        None, id="opening-fence-deleted",
    ),
    pytest.param(
        b"type: goal\ntags:\n  - run\n# said\n\n---\nRun a marathon.\n", "goal/x.md", None,
        "no opening ---", False, None, id="opening-fence-deleted-lists-and-comments",
    ),
    pytest.param(
        f"id: {ULID}\ntype: habit\nlast reviewed: 2026-11-01\n---\nSwims.\n".encode(),
        "habit/x.md", None, "no opening --- (the --- at line 4 closes it)", False, None,
        id="opening-fence-deleted-key-with-a-space",
    ),
    pytest.param(
        b"status: training\n# Marathon\n- 3 runs a week\n---\nRace day is April 12.\n",
        "goal/x.md", "goal", None, False,
        "status: training\n# Marathon\n- 3 runs a week\n---\nRace day is April 12.",
        id="a heading and a list before a rule are a body",
    ),
    pytest.param(
        b"Note: call Ana.\n\n---\nMore words.\n", "habit/x.md", "habit", None, False,
        "Note: call Ana.\n\n---\nMore words.", id="property-like-first-line-not-tota-key",
    ),
    pytest.param(
        b"type: goal\nRun a marathon.\n---\nMore.\n", "goal/x.md", "goal", None, False,
        "type: goal\nRun a marathon.\n---\nMore.", id="prose-before-rule-is-a-body",
    ),
    pytest.param(b"\n\n  \n", "goal/x.md", None, "no statement", False, None, id="blank-file"),
    pytest.param(b"---\n---\n", "goal/x.md", None, "no statement", True, None, id="no-body"),
    pytest.param(
        b"---\ntype: goal\n---\n<!-- todo -->\n", "goal/x.md", None, "no statement", True, None,
        id="a comment only",
    ),
    pytest.param(
        note("type: goal\n", ""), "Inbox.md", None, "no statement", True, None,
        id="properties-and-nothing-else",
    ),
    pytest.param(
        note(VALID, "\n## History\n- 2026-11-29: created\n"), "goal/x.md", None, "no statement",
        True, None, id="history-and-no-statement",
    ),
    pytest.param(
        note("type: food\n"), "goal/x.md", None, "unknown type", True, None, id="unknown-type"
    ),
    pytest.param(
        note(f"id: {ULID}\n"), "Inbox.md", None, "no type", True, None, id="id-without-type"
    ),
    pytest.param(
        note("key: [unclosed\n"), "goal/x.md", None, "invalid YAML", True, None,
        id="invalid-yaml",
    ),
    pytest.param(
        note("type: goal\ntype: habit\n"), "goal/x.md", None, "duplicate", True, None,
        id="duplicate-key",
    ),
]
# fmt: on


@pytest.mark.parametrize(("data", "path", "mtype", "error", "has_frontmatter", "text"), PARSE_CASES)
def test_parse_note(
    data: bytes,
    path: str,
    mtype: str | None,
    error: str | None,
    has_frontmatter: bool,
    text: str | None,
) -> None:
    parsed = parse_note(data, path)
    assert parsed.has_frontmatter is has_frontmatter
    if error is None:
        assert parsed.error is None
    else:
        assert parsed.error is not None and error in parsed.error
        assert parsed.memory is None
    if mtype is None:
        assert parsed.memory is None
    else:
        assert parsed.memory is not None
        assert parsed.memory.type.value == mtype
        assert parsed.memory.text == text
    assert "\r" not in parsed.body
    assert "\ufeff" not in parsed.body


def test_parse_crlf_and_bom_read_like_lf() -> None:
    plain = parse_note(note(VALID), "goal/x.md")
    for variant in (
        note(VALID).replace(b"\n", b"\r\n"),
        b"\xef\xbb\xbf" + note(VALID),
        b"\xef\xbb\xbf" + note(VALID).replace(b"\n", b"\r\n"),
    ):
        other = parse_note(variant, "goal/x.md")
        assert other.fields == plain.fields
        assert other.body == plain.body
        assert other.memory == plain.memory


def test_parse_flow_list_tags() -> None:
    parsed = parse_note(note(VALID), "goal/x.md")
    assert parsed.fields["tags"] == ["a", "b"]
    assert parsed.memory is not None and parsed.memory.tags == ("a", "b")


def test_parse_note_without_id_is_manual_and_needs_one() -> None:
    parsed = parse_note(b"Drinks oolong.\n", "preference/Oolong.md")
    assert parsed.memory is not None
    assert parsed.memory.evidence is Evidence.MANUAL
    assert parsed.memory.id == ""
    assert parsed.needs_id
    assert parsed.title == "Oolong"


def test_parse_never_closed_keeps_all_text() -> None:
    data = b"---\ntype: goal\nRun a marathon in spring.\n"
    parsed = parse_note(data, "goal/x.md")
    assert "marathon" in parsed.body
    assert parsed.memory is None


def test_parse_history_is_split_from_the_statement() -> None:
    body = 'Prefers Neovim.\n\n## History\n- 2026-11-20T09:10:00 replaced "VS Code"\n- second\n'
    parsed = parse_note(note(VALID, body), "goal/x.md")
    assert parsed.memory is not None
    assert parsed.memory.text == "Prefers Neovim."
    assert parsed.memory.history == ('2026-11-20T09:10:00 replaced "VS Code"', "second")
    assert parsed.body == body


SPLIT_CASES = [
    ("Just text.\n", "Just text.", ()),
    ("Text.\n\n## History\n- a\n- b\n", "Text.", ("a", "b")),
    ("Text.\n## History\n* star item\n", "Text.", ("star item",)),
    ("## History\n- only\n", "", ("only",)),
    ("Text.\n## History\n- a\n## Notes\nMore words.\n", "Text.\n\n## Notes\nMore words.", ("a",)),
    ("Text.\n### History\n- a\n", "Text.\n### History\n- a", ()),
    ("Text.\n## Historyish\n- a\n", "Text.\n## Historyish\n- a", ()),
    ("Text.\n\n## History\n\nnot a bullet\n- kept\n", "Text.", ("kept",)),
    # A person's code block or HTML that shows a History heading is text, not the section.
    ("Text.\n```\n## History\n- a\n```\n", "Text.\n```\n## History\n- a\n```", ()),
    (
        "Text.\n~~~md\n## History\n~~~\n\n## History\n- real\n",
        "Text.\n~~~md\n## History\n~~~",
        ("real",),
    ),
    ("Text.\n<div>\n## History\n- a\n</div>\n", "Text.\n<div>\n## History\n- a\n</div>", ()),
    (
        "Text.\n## History\n- a\n```\n# not a heading\n```\n## Notes\nx\n",
        "Text.\n\n## Notes\nx",
        ("a",),
    ),
]


@pytest.mark.parametrize(
    ("body", "statement", "history"),
    SPLIT_CASES,
    ids=[
        "none",
        "two",
        "star",
        "only-history",
        "section-after",
        "h3",
        "other-heading",
        "prose",
        "fenced",
        "tilde-fence-then-real",
        "html-block",
        "fence-inside-section",
    ],
)
def test_split_body(body: str, statement: str, history: tuple[str, ...]) -> None:
    assert split_body(body) == (statement, history)


# --- render_note -----------------------------------------------------------------------------


def full_memory(**changes: object) -> Memory:
    memory = Memory(
        id=ULID,
        type=MemoryType.PREFERENCE,
        text="Prefers Neovim over VS Code for editing.",
        confidence=0.82,
        importance=0.6,
        durability=0.9,
        evidence=Evidence.DIRECT,
        status=Status.ACTIVE,
        created=WHEN,
        updated=WHEN,
        confirmed=WHEN,
        confirmations=1,
        key="preference/editor",
        subject="user",
        sources=("chat-2026-11-29#12",),
        tags=("tota/preference",),
        history=('2026-11-20T09:10:00 replaced "Prefers VS Code" (confidence 0.60 < 0.82)',),
    )
    return memory.with_changes(**changes)


EXPECTED_FULL = """\
---
id: 01JDX3M7Q9T8ZK4W5N6P2R1S0V
type: preference
confidence: 0.82
importance: 0.6
durability: 0.9
evidence: direct
status: active
created: 2026-11-29T11:43:00
updated: 2026-11-29T11:43:00
confirmed: 2026-11-29T11:43:00
confirmations: 1
key: preference/editor
subject: user
sources:
  - chat-2026-11-29#12
tags:
  - tota/preference
---
Prefers Neovim over VS Code for editing.

## History
- 2026-11-20T09:10:00 replaced "Prefers VS Code" (confidence 0.60 < 0.82)
"""


def test_render_matches_the_documented_note() -> None:
    assert render_note(full_memory()) == EXPECTED_FULL


def test_render_is_deterministic() -> None:
    first = render_note(full_memory()).encode()
    assert render_note(full_memory()).encode() == first
    assert render_note(full_memory(extra={})).encode() == first


def frontmatter_keys(text: str) -> list[str]:
    block = text.split("---\n")[1]
    return [m.group(1) for m in re.finditer(r"^([A-Za-z_]\w*):", block, re.MULTILINE)]


def test_render_key_order_is_fixed_and_unknown_keys_follow() -> None:
    memory = full_memory(aliases=("editor",), extra={"zeta": "z", "alpha": "a"})
    keys = frontmatter_keys(render_note(memory))
    assert keys == [*FIELD_ORDER, "zeta", "alpha"]


def test_render_leaves_out_empty_optional_fields() -> None:
    keys = frontmatter_keys(render_note(full_memory(key=None, aliases=())))
    assert "key" not in keys and "aliases" not in keys


def test_render_dates_use_obsidian_form() -> None:
    text = render_note(full_memory(created=datetime(2026, 1, 2, 3, 4, 5)))
    assert "\ncreated: 2026-01-02T03:04:05\n" in text
    for line in text.splitlines():
        if line.startswith(("created:", "updated:", "confirmed:")):
            assert re.fullmatch(r"\w+: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", line)


@pytest.mark.parametrize(
    "text",
    ["One line.", "  padded  \n\n\n", "Two\nlines.", "Ends with newline.\n"],
    ids=["one-line", "padded", "two-lines", "own-newline"],
)
def test_render_ends_with_exactly_one_newline(text: str) -> None:
    for history in ((), ("an entry",)):
        rendered = render_note(full_memory(text=text, history=history))
        assert rendered.endswith("\n") and not rendered.endswith("\n\n")
        assert "\r" not in rendered


COERCIBLE = [
    "no", "No", "NO", "yes", "on", "off", "true", "False", "null", "~", "0123", "1.10", "1e3",
    "0x1F", "0o17", "1_000", ".inf", "-.5", "+1", "2024-01-15", "2024-01-15T14:30:00", "12:30",
    "", " leading space", "trailing space ", "a: b", "x #y", "#tag", "[[Link]]", "{{title}}",
    "<% tp.file.title %>", "- dash", "? q", "@at", "`tick`", "!tag", "&anchor", "*alias",
    "%percent", "|", ">", "'single'", '"double"', "multi\nline", "tab\there", "café", "🎉 party",
    "back\\slash", "x\uffff", "C:\\users\\ana\ufffe", "0b101", "0B11", "0X1f", "1e5", "01JDX3M7Q9T8ZK4W5N6P2R1S0V", "9am", "0xZZ",
]  # fmt: skip


@pytest.mark.parametrize("value", COERCIBLE, ids=[repr(v) for v in COERCIBLE])
def test_render_quotes_what_yaml_would_coerce(value: str) -> None:
    subject = value if value and value == value.strip() else "user"  # the model strips text
    memory = full_memory(extra={"note": value}, subject=subject)
    text = render_note(memory)
    parsed = parse_note(text.encode(), "preference/x.md")
    assert parsed.error is None
    assert parsed.fields["note"] == value
    # Any YAML 1.1 reader (python-frontmatter, Obsidian's) gets the same string back.
    assert yaml.safe_load(text.split("---\n")[1])["note"] == value
    assert parsed.memory == memory


@pytest.mark.parametrize("value", ["no", "0123", "1.10", "true", "null", "2024-01-15"])
def test_render_quotes_coercible_strings_visibly(value: str) -> None:
    text = render_note(full_memory(extra={"note": value}))
    assert f'\nnote: "{value}"\n' in text


ODD_KEYS = [
    "#todo", "a: b", "- dash", "? q", "[x]", "&a", "*a", "%p", "@a", "!t", "|", '"q"', "no",
    "0123", "true", "", " padded", "{{title}}", "two\nlines", "my key", "a#b", "série",
]  # fmt: skip


@pytest.mark.parametrize("name", ODD_KEYS, ids=[repr(k) for k in ODD_KEYS])
def test_render_keeps_odd_property_names(name: str) -> None:
    # A person's note may quote any property name; re-rendering it must not turn the name
    # into a comment, an alias or invalid YAML.
    memory = full_memory(extra={name: "v", f"list {name}": ["a", "b"], f"empty {name}": []})
    text = render_note(memory)
    parsed = parse_note(text.encode(), "preference/x.md")
    assert parsed.error is None
    assert parsed.memory == memory
    loaded = yaml.safe_load(text.split("---\n")[1])
    assert loaded[name] == "v" and loaded[f"list {name}"] == ["a", "b"]


PLAIN_OK = ["preference/editor", "user", "chat-2026-11-29#12", "tota/preference", "Plain words"]


@pytest.mark.parametrize("value", PLAIN_OK)
def test_render_leaves_safe_strings_unquoted(value: str) -> None:
    assert f"\nnote: {value}\n" in render_note(full_memory(extra={"note": value}))


ROUND_TRIP = {
    "full": full_memory(),
    "minimal": Memory(
        id=ULID,
        type=MemoryType.GOAL,
        text="Run a marathon.",
        created=WHEN,
        updated=WHEN,
        confirmed=WHEN,
    ),
    "every-field": full_memory(
        evidence=Evidence.INFERRED,
        status=Status.SUPERSEDED,
        confidence=0.0,
        importance=1.0,
        durability=0.1234,
        confirmations=0,
        subject="Ana",
        sources=("a#1", "b#2"),
        tags=("x", "y/z"),
        aliases=("Vim fan", "no"),
        history=("one", "two"),
        extra={"publish": "true", "cssclasses": ["wide"], "link": "[[Other note]]"},
    ),
    "multiline-text": full_memory(text="First line.\n\nSecond paragraph with `code`."),
    "unicode": full_memory(text="Mora em São Paulo; café ☕ todos os dias.", subject="João"),
    "coercible": full_memory(key="no", subject="0123", tags=("1.10", "yes"), id="0123"),
}


@pytest.mark.parametrize("memory", list(ROUND_TRIP.values()), ids=list(ROUND_TRIP))
def test_render_then_parse_gives_the_same_memory(memory: Memory) -> None:
    text = render_note(memory)
    parsed = parse_note(text.encode(), f"{memory.type.value}/x.md")
    assert parsed.error is None
    assert parsed.memory == memory
    assert render_note(parsed.memory) == text


# --- patch_frontmatter -----------------------------------------------------------------------

HAND = """\
---
# my own comment
title: "Quoted Title"   # trailing comment
id: '0123'
tags: [a, b]
reply: no

link: "[[X]]"
---
Body  with   spacing
* and a list


"""

# fmt: off
PATCHES = [
    pytest.param(
        HAND, {"reply": "yes"}, HAND.replace("reply: no\n", 'reply: "yes"\n'), id="change-one"
    ),
    pytest.param(
        HAND, {"evidence": "manual"},
        HAND.replace('link: "[[X]]"\n', 'link: "[[X]]"\nevidence: manual\n'), id="add-key",
    ),
    pytest.param(
        HAND, {"id": "01NEW"}, HAND.replace("id: '0123'\n", "id: 01NEW\n"), id="replace-id"
    ),
    pytest.param(HAND, {"reply": REMOVE}, HAND.replace("reply: no\n", ""), id="remove-key"),
    pytest.param(
        HAND, {"tags": ["c", "d"]}, HAND.replace("tags: [a, b]\n", "tags:\n  - c\n  - d\n"),
        id="flow-list-replaced",
    ),
    pytest.param(
        HAND, {"missing": REMOVE}, HAND, id="remove-missing-key"
    ),
    pytest.param(
        HAND.replace("\n", "\r\n"), {"evidence": "manual"},
        HAND.replace('link: "[[X]]"\n', 'link: "[[X]]"\nevidence: manual\n').replace("\n", "\r\n"),
        id="crlf",
    ),
    pytest.param(
        "\ufeff" + HAND, {"reply": "yes"}, "\ufeff" + HAND.replace("reply: no\n", 'reply: "yes"\n'),
        id="bom",
    ),
    pytest.param(
        "---\ntype: goal\n---\nRun.\n", {"id": "01NEW"}, "---\nid: 01NEW\ntype: goal\n---\nRun.\n",
        id="new-id-goes-first",
    ),
    pytest.param(
        "---\ntype: goal\nsources:\n- a\n-   b\nz: 1\n---\nRun.", {"sources": ["c"]},
        "---\ntype: goal\nsources:\n  - c\nz: 1\n---\nRun.", id="block-list-replaced",
    ),
    pytest.param(
        "---\ntype: goal\nlast: 1\n---\nRun.", {"last": REMOVE}, "---\ntype: goal\n---\nRun.",
        id="remove-last-key",
    ),
    pytest.param(
        "My own words,\n  indented   oddly\t\n\n\n", {"id": "01NEW", "evidence": "manual"},
        "---\nid: 01NEW\nevidence: manual\n---\nMy own words,\n  indented   oddly\t\n\n\n",
        id="no-frontmatter",
    ),
    pytest.param(
        "Line one\r\nLine two", {"id": "01NEW"}, "---\r\nid: 01NEW\r\n---\r\nLine one\r\nLine two",
        id="no-frontmatter-crlf",
    ),
    pytest.param(
        "\ufeffWords.\n", {"id": "01NEW"}, "\ufeff---\nid: 01NEW\n---\nWords.\n",
        id="no-frontmatter-bom",
    ),
    # A person's comment on a line tota patches stays (a user-style review: `tota confirm` and
    # a sync dropped "# my guess").
    pytest.param(
        HAND, {"title": "New"}, HAND.replace('"Quoted Title"   #', 'New   #'),
        id="trailing-comment-kept",
    ),
    pytest.param(
        "\ufeff---\r\nconfidence: 0.7 # my guess\r\n---\r\nTea.\r\n", {"confidence": 0.83},
        "\ufeff---\r\nconfidence: 0.83 # my guess\r\n---\r\nTea.\r\n", id="comment-crlf-bom",
    ),
    pytest.param(
        '---\nname: "a # b"\n---\n', {"name": "c"}, "---\nname: c\n---\n",
        id="hash-inside-quotes-is-no-comment",
    ),
    pytest.param("---\nx: a#b\n---\n", {"x": "c"}, "---\nx: c\n---\n", id="glued-hash"),
    pytest.param(
        "---\ntags: [a] # mine\n---\n", {"tags": ["b", "c"]}, "---\ntags:\n  - b\n  - c\n---\n",
        id="comment-of-a-line-that-becomes-a-block",
    ),
]
# fmt: on


@pytest.mark.parametrize(("original", "changes", "expected"), PATCHES)
def test_patch_frontmatter_is_surgical(
    original: str, changes: dict[str, object], expected: str
) -> None:
    patched = patch_frontmatter(original, changes)
    assert patched.encode() == expected.encode()


def test_patch_keeps_every_byte_outside_the_changed_lines() -> None:
    patched = patch_frontmatter(HAND, {"reply": "maybe"})
    before, after = HAND.split("reply: no\n")
    assert patched.startswith(before)
    assert patched.endswith(after)
    assert patched == before + "reply: maybe\n" + after


def test_patch_reads_back_as_written() -> None:
    patched = patch_frontmatter(HAND, {"reply": "no", "evidence": "manual", "tags": ["0123"]})
    fields = parse_note(patched.encode(), "x.md").fields
    assert fields["reply"] == "no"
    assert fields["tags"] == ["0123"]
    assert fields["title"] == "Quoted Title"
    assert fields["id"] == "0123"


def test_patch_refuses_when_it_would_change_another_key() -> None:
    # A blank line inside a block scalar ends the key's span as the patcher sees it; replacing
    # `notes` would orphan its second paragraph. The read-back check must refuse.
    original = "---\nnotes: |\n  line one\n\n  line two\nstatus: active\n---\nBody\n"
    with pytest.raises(InvalidNoteError):
        patch_frontmatter(original, {"notes": "short"})


# --- titles ----------------------------------------------------------------------------------

TITLES = [
    ("Prefers Neovim over VS Code.", "Prefers Neovim over VS Code"),
    ('a\\b/c:d*e?f"g<h>i|j#k^l[m]n', "a b c de f g h i j k l m n"),
    ("[[Link]] and #tag", "Link and tag"),
    (".hidden thought", "hidden thought"),
    ("...", "Untitled"),
    ("", "Untitled"),
    ("   \n  ", "Untitled"),
    ("CON", "CON note"),
    ("con", "con note"),
    ("Con.", "Con note"),
    ("COM1", "COM1 note"),
    ("LPT9", "LPT9 note"),
    ("NUL.txt", "NUL note.txt"),
    ("Conference talk", "Conference talk"),
    ("First sentence. Second one.", "First sentence"),
    ("Line one\nLine two", "Line one"),
    ("**Bold** and `code`", "Bold and code"),
    ("tabs\tand\x00controls", "tabs and controls"),
    # A user-style review: "relationship/The user's advisor is Prof.md", cut at "Prof."
    ("The user's advisor is Prof. Lindqvist.", "The user's advisor is Prof. Lindqvist"),
    ("Sees Dr. Okafor on Mondays. Likes tea.", "Sees Dr. Okafor on Mondays"),
    ("Rereads F. Scott Fitzgerald every summer.", "Rereads F. Scott Fitzgerald every summer"),
    ("So do I. Then more.", "So do I"),
    # A user-style review: "...have two kids, Leo.md" named one child of two
    (
        "The user's husband Omar is a teacher and the user and others have two kids, Leo and Mia.",
        "The user's husband Omar is a teacher and the user and others have two kids",
    ),
    (
        "Packs a tent, a stove, a headlamp, two water filters, a first aid kit and a map for hikes.",
        "Packs a tent, a stove, a headlamp, two water filters, a first aid kit and a map",
    ),  # the list is whole: only "for hikes" is cut
    (
        "Has visited Lisbon, Porto, Madrid, Seville, Granada, Valencia, Bilbao and Barcelona too.",
        "Has visited Lisbon, Porto, Madrid, Seville, Granada, Valencia",
    ),
]


@pytest.mark.parametrize(("text", "expected"), TITLES, ids=[t or "empty" for t, _ in TITLES])
def test_title_from_text(text: str, expected: str) -> None:
    assert title_from_text(text) == expected


FORBIDDEN = set('\\/:*?"<>|#^[]')


@pytest.mark.parametrize(
    "text",
    ["word " * 60, "x" * 300, "a " * 200, "Short words then averyveryveryverylongword" * 5],
    ids=["many-words", "one-long-word", "tiny-words", "mixed"],
)
def test_title_length_limit_cuts_at_a_word(text: str) -> None:
    title = title_from_text(text, limit=80)
    assert 0 < len(title) <= 80
    assert not title.endswith((" ", "."))
    if " " in text.strip()[:81]:
        assert text.startswith(title)
        assert text[len(title)] in " \n"  # cut at a word boundary, not mid-word


@pytest.mark.parametrize("limit", [10, 40, 100])
def test_title_respects_any_limit(limit: int) -> None:
    title = title_from_text("The quick brown fox jumps over the lazy dog " * 10, limit=limit)
    assert len(title) <= limit


@pytest.mark.parametrize(
    "text", ['C:\\Users\\me "quoted" <tag>', "#1984 [x] ^block | pipe", ".env: secret?"]
)
def test_title_has_no_forbidden_characters(text: str) -> None:
    title = title_from_text(text)
    assert not FORBIDDEN & set(title)
    assert not title.startswith(".")


UNIQUE = [
    (set(), "Tea"),
    ({"Tea"}, "Tea 2"),
    ({"Tea", "Tea 2"}, "Tea 3"),
    ({"Tea", "Tea 3"}, "Tea 2"),
    ({"Tea 2"}, "Tea"),
]


@pytest.mark.parametrize(
    ("taken", "expected"), UNIQUE, ids=["free", "second", "third", "gap", "only-2-taken"]
)
def test_unique_title(taken: set[str], expected: str) -> None:
    assert unique_title("Tea", taken.__contains__) == expected


# --- the flat-frontmatter fast path agrees with the YAML loader ------------------------------

FLAT_CASES = [
    "a: 1\nb: no\nc: 0123\nd: 1.10\n",
    'a: "x\\ny"\nb: "sha256:abc"\nc: "[[Link]]"\n',
    "a:\n  - 1\n  - two\nb:\n- x\n- y\n",
    "a:\nb: []\nc: ~\nd: null\n",
    "created: 2026-01-01T10:00:00\nsources:\n  - chat-1#3\n",
    "a: trailing spaces   \nb: c#1\nc: a:b\n",
    # these need the YAML loader; the fast path must step aside, not guess
    "tags: [a, b]\n",
    "a: x # comment\n",
    "# comment\na: 1\n",
    "a: 'single'\n",
    'a: "\\ud83d\\ude00"\n',
    "a:\n  b: nested\n",
    "a: 1\na: 2\n",
    "a: &x 1\nb: *x\n",
    "a: |\n  block\n",
    "a:\n\n  - x\n",
    "a: multi\n  line\n",
]


@pytest.mark.parametrize("fm", FLAT_CASES)
def test_simple_fields_agree_with_yaml(fm: str):
    from tota_vault.notes import _simple_fields, _StringLoader

    fast = _simple_fields(fm)
    if fast is None:
        return  # the YAML loader reads it (and reports what is wrong with it)
    assert fast == (yaml.load(fm, Loader=_StringLoader) or {})


def test_simple_fields_read_every_sample_note_like_yaml():
    from tota_vault.notes import _simple_fields, _StringLoader

    root = Path(__file__).resolve().parent.parent / "sample-vault"
    notes = sorted(root.rglob("*.md"))
    fast_count = 0
    for path in notes:
        fm = path.read_text("utf-8").split("---\n")[1]
        fast = _simple_fields(fm)
        if fast is not None:
            fast_count += 1
            assert fast == yaml.load(fm, Loader=_StringLoader), path
    assert fast_count >= len(notes) - 2  # only the hand-written flow-list note falls back


@pytest.mark.parametrize(
    "text",
    [
        "我" * 77 + "。",  # no space: cut by bytes
        "我喜欢 " * 30,  # cut at a word
        "😀" * 70,
        "é" * 90,
    ],
)
def test_a_title_fits_a_file_name_in_bytes(text: str, tmp_path: Path):
    """A title of wide characters stays within a file name's bytes, with room for tota's
    temp file beside it: the note can be written (255 bytes a name)."""
    title = title_from_text(text)
    assert 0 < len(title.encode("utf-8")) <= MAX_TITLE_BYTES
    from tota_vault.files import atomic_write

    atomic_write(tmp_path / f"{title} 99.md", b"x", expected=None)


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_patch_keeps_a_value_that_holds_another_line_break(brk: str, newline: str):
    """str.splitlines also breaks at U+2028, U+2029 and NEL: a patch counted by LF lines
    must not land inside a quoted value that holds one (the note stays valid YAML)."""
    import yaml

    fm = f'where: "Main St{brk}Apt 4"{newline}confidence: 0.7{newline}'
    text = f"---{newline}{fm}---{newline}Lives on Main St.{newline}"
    patched = patch_frontmatter(text, {"confidence": 0.9, "digest": "sha256:abc"})
    before = yaml.safe_load(text.split("---")[1])  # YAML folds a NEL or U+2028 as it likes
    assert yaml.safe_load(patched.split("---")[1]) == {**before, "confidence": 0.9,
                                                        "digest": "sha256:abc"}  # fmt: skip
    assert patched.endswith(f"---{newline}Lives on Main St.{newline}")
