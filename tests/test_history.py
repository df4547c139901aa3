"""The History section: found as a Markdown reader finds it, appended to without moving a byte."""

from __future__ import annotations

import pytest

from tota_vault.history import append_history, history_span

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
