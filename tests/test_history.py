"""The History section: found as a Markdown reader finds it, appended to without moving a byte."""

from __future__ import annotations

from datetime import datetime

import pytest

from tota_vault.history import (
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
]


@pytest.mark.parametrize(("text", "span"), SPAN_CASES)
def test_history_span(text: str, span: tuple[int, int] | None) -> None:
    assert history_span(text) == span


def test_append_creates_a_section_outside_a_code_block() -> None:
    text = "Keeps notes like this:\n\n```\n## History\n- example\n```\n"
    out = append_history(text, "entry")
    assert out == text + "\n## History\n- entry\n"


def test_append_adds_to_the_section_and_keeps_what_follows() -> None:
    text = "Text.\r\n\r\n## History\r\n- old\r\n\r\n## Notes\r\nmine\r\n"
    out = append_history(text, "new")
    assert out == "Text.\r\n\r\n## History\r\n- old\r\n- new\r\n\r\n## Notes\r\nmine\r\n"


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
