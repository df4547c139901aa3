"""The History section: found as a Markdown reader finds it, appended to without moving a byte."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tota_vault.history import (
    _HIDING_LINE,
    _parsed_span,
    append_history,
    history_span,
    kept_entry,
    kept_over,
    kept_over_list,
    replaced_entry,
)

SPAN_CASES = [
    ("Text.\n", None),
    ("Text.\n\n## History\n- a\n", (7, 22)),
    ("Text.\n## History\n- a\n## Next\n", (6, 21)),
    ("```\n## History\n```\n", None),
    ("> ## History\n", None),
    ("<!--\n## History\n-->\n", None),
    ("```\n## History\n```\n## History\n- a\n", (19, 34)),
    ("Text.\n## History ##\n- a\n", (6, 24)),  # a closing sequence is still the heading
    ("Text.\n## History\n- a\n#\nmore\n", (6, 21)),  # an empty heading ends it
    ("- a\n   ## History\n", None),  # indented under a list item: the item's text
    ("Text.\n## History\n- a\n\nNext\n===\n", (6, 22)),  # a setext heading ends it
    # U+2028 and a form feed end no line for a Markdown reader: the offsets after them hold.
    ("Line\u2028more\x0c.\n```\nx\n```\n## History\n- a\n", (22, 37)),
]

#: tota's own History lines: a "<" inside a line ("0.60 < 0.82") hides nothing.
OWN_HISTORY = (
    "Likes tea.\n\n## History\n"
    '- 2026-01-02T00:00:00 kept over "Likes coffee" (confidence 0.60 < 0.82, source c#4)\n'
)


@pytest.mark.parametrize(("text", "span"), SPAN_CASES)
def test_history_span(text: str, span: tuple[int, int] | None) -> None:
    assert history_span(text) == span
    assert _parsed_span(text) == span  # the fast path and the parser agree on the table


def test_own_history_lines_need_no_parse() -> None:
    # A merge reads the note's History each time; a parse of it for every "<" it holds made
    # a fact restated n times cost n^2 (bench.dryrun's 12,000-message chat).
    assert _HIDING_LINE.search(OWN_HISTORY) is None
    assert history_span(OWN_HISTORY) == (12, len(OWN_HISTORY))


#: Lines that make Markdown hard to read by line: fences, HTML, quotes, list items, headings
#: of every level and shape, setext underlines, indented headings, and tota's own History.
PIECES = [
    "## History",
    "## History ##",
    "# Title",
    "#",
    "## Next",
    "### Deeper",
    "   ## History",
    "```",
    "~~~",
    "<div>",
    "<!--",
    "-->",
    "> ## History",
    "> quote",
    "- item",
    "  - nested",
    "1. first",
    "- ```",
    "   ```",
    "===",
    "---",
    "-",
    "text",
    "Text with < and ``` inside",
    '- 2026-01-02T00:00:00 kept over "x" (confidence 0.60 < 0.82, source c#4)',
    "",
    "    ## History",
    "\t## History",
    "##\tHistory",
    "*",
    "+ ~~~",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_history_span_reads_as_commonmark(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    assert history_span(text) == _parsed_span(text)


def test_append_creates_a_section_outside_a_code_block() -> None:
    text = "Keeps notes like this:\n\n```\n## History\n- example\n```\n"
    out = append_history(text, "entry")
    assert out == text + "\n## History\n- entry\n"


def test_append_adds_to_the_section_and_keeps_what_follows() -> None:
    text = "Text.\r\n\r\n## History\r\n- old\r\n\r\n## Notes\r\nmine\r\n"
    out = append_history(text, "new")
    assert out == "Text.\r\n\r\n## History\r\n- old\r\n- new\r\n\r\n## Notes\r\nmine\r\n"


NOTE = "---\nid: a1\n## History: a YAML comment, not the section\n---\nLikes tea.\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (NOTE, NOTE + "\n## History\n- entry\n"),
        ("---\nid: a1\n---\n", "---\nid: a1\n---\n\n## History\n- entry\n"),
        ("---\nid: a1\n---", "---\nid: a1\n---\n\n## History\n- entry\n"),
        (
            "---\r\nid: a1\r\n---\r\nTea.\r\n\r\n## History\r\n- old\r\n",
            "---\r\nid: a1\r\n---\r\nTea.\r\n\r\n## History\r\n- old\r\n- entry\r\n",
        ),
    ],
)
def test_append_after_the_frontmatter(text: str, expected: str) -> None:
    from tota_vault.notes import locate_frontmatter

    located = locate_frontmatter(text)
    assert located is not None
    assert append_history(text, "entry", body_start=located[2]) == expected


KEPT = kept_entry(datetime(2026, 1, 2), 'Lives in "Madrid" (source x#9)', 0.6, 0.9, "c2#4")
REPLACED = replaced_entry(datetime(2026, 1, 2), "Lives in Porto", 0.6, 0.9, "direct")


@pytest.mark.parametrize(
    ("value", "history", "expected"),
    [
        (None, (), []),
        (["c2#4"], (), ["c2#4"]),
        ("c2#4", (), ["c2#4"]),  # a person wrote one value, not a list
        (["c2#4", None, " "], (), ["c2#4"]),
        (None, (KEPT,), ["c2#4"]),  # a note written before the key: read from the prose
        (["c1#1"], (KEPT, KEPT), ["c1#1", "c2#4"]),
        (["c2#4"], (KEPT,), ["c2#4"]),
        (None, (REPLACED,), []),  # a replaced line names no message
        (None, ("2026-01-02T00:00:00 a person's note about source code",), []),
    ],
)
def test_kept_over(value, history, expected) -> None:
    assert kept_over(value, history) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, ["c2#4"]),
        (["c1#1"], ["c1#1", "c2#4"]),
        (["c2#4"], ["c2#4"]),
        ("c1#1", ["c1#1", "c2#4"]),
    ],
)
def test_kept_over_list_adds_once(value, expected) -> None:
    assert kept_over_list(value, "c2#4") == expected
