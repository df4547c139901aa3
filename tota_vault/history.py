"""The `## History` section of a note: what a memory replaced, or what it was kept over.

Invariant 5: supersede, don't delete. When a conflict is resolved the losing value is written
into the winner's History with its confidence, evidence and date, so a person can always see
what tota believed before and why it changed its mind.

History is prose for a person. What code reads back lives in frontmatter: a memory kept over a
contradiction lists the contradicting message in `kept_over_sources` beside its History line,
so observing that message again is a no-op whatever a person does to the prose. Notes written
before that key existed are still read from their `kept over ... source X` lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .model import format_date

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = [
    "KEPT_OVER_KEY",
    "append_history",
    "history_span",
    "kept_entry",
    "kept_over",
    "kept_over_list",
    "replaced_entry",
]

#: The frontmatter key listing the messages (`<conversation>#<message>`) whose contradicting
#: statement this memory was kept over: they must not be learned from again.
KEPT_OVER_KEY = "kept_over_sources"

_HISTORY = re.compile(r"^[ \t]*##[ \t]+History(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
#: The next level-1 or level-2 ATX heading (an empty one, `#` alone, counts).
_NEXT_HEADING = re.compile(r"^#{1,2}(?:[ \t]|$)", re.MULTILINE)
#: Only a block that starts a line can hide a line that looks like a heading: a code fence
#: (```, ~~~) or an HTML block (<), at the start of a line or after the markers of the block
#: quotes and list items it sits in. Without such a line the regexes above read the body
#: exactly as a Markdown parser would, and most notes never pay for a parse. A `<` or a fence
#: inside a line hides nothing: tota's own History lines hold one ("confidence 0.60 < 0.82"),
#: and reading them as a reason to parse made a note's every merge parse its whole History,
#: so learning slowed with the square of the times a fact was restated.
#: Two other kinds of line make the regexes unsure, so they also send the body to the parser:
#: an indented `#` (a heading, or a list item's text, depending on what is above it) and a
#: line of `=` or `-` alone (it can turn the paragraph above it into a heading).
#: A line as markdown-it counts them (CRLF, CR or LF ends one; `str.splitlines` would also
#: end one at U+2028 or a form feed, and the offsets of the lines after it would be off).
_MARKDOWN_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_HIDING_LINE = re.compile(
    r"^(?:[ \t>*+\-\d.)]*(?:```|~~~|<)|[ \t]+#|[ \t]*(?:=+|-+)[ \t]*$)", re.MULTILINE
)


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # Imported on the first body that needs a parse: most never do, and a search never does.
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def history_span(text: str) -> tuple[int, int] | None:
    """Where a body's `## History` section is, as (start, end) offsets into `text` (LF line
    endings): from its heading line to the next level-1 or level-2 heading, or the end.

    A `## History` line inside a fenced code block, an HTML block or a block quote is a
    person's text, not the section: the body is read with a CommonMark parser whenever it
    holds anything that could hide a heading that way.
    """
    match = _HISTORY.search(text)
    if match is None:
        return None
    if _HIDING_LINE.search(text) is None:
        following = _NEXT_HEADING.search(text, match.end())
        return match.start(), following.start() if following else len(text)
    return _parsed_span(text)


def _parsed_span(text: str) -> tuple[int, int] | None:
    tokens = _markdown().parse(text)
    starts = [0]  # the offset of each line's first character, as markdown-it counts lines
    for piece in _MARKDOWN_LINE.findall(text):
        starts.append(starts[-1] + len(piece))
    start: int | None = None
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.level != 0 or token.tag not in ("h1", "h2"):
            continue
        row = token.map[0] if token.map else 0
        if start is not None:
            return start, starts[row]
        title = tokens[i + 1].content.strip() if i + 1 < len(tokens) else ""
        if token.tag == "h2" and token.markup == "##" and title == "History":
            start = starts[row]
    return (start, len(text)) if start is not None else None


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return '"' + (flat if len(flat) <= 160 else flat[:157] + "...").replace('"', "'") + '"'


def replaced_entry(
    at: datetime,
    old_text: str,
    old_confidence: float,
    new_confidence: float,
    evidence: str,
    old_date: datetime | None = None,
) -> str:
    """`<date> replaced "<old>" (confidence 0.60 < 0.82, evidence direct[, from <date>])`."""
    relation = "<" if old_confidence < new_confidence else "="
    since = f", from {format_date(old_date)}" if old_date else ""
    return (
        f"{format_date(at)} replaced {_quote(old_text)} (confidence {old_confidence:.2f} "
        f"{relation} {new_confidence:.2f}, evidence {evidence}{since})"
    )


def kept_entry(
    at: datetime, new_text: str, new_confidence: float, kept_confidence: float, source: str
) -> str:
    """`<date> kept over "<candidate>" (confidence 0.60 < 0.82, source chat#4)`: a
    contradiction that lost. The source makes observing that message again a no-op."""
    return (
        f"{format_date(at)} kept over {_quote(new_text)} (confidence {new_confidence:.2f} < "
        f"{kept_confidence:.2f}, source {source})"
    )


#: A `kept_entry` line as written before `KEPT_OVER_KEY` existed: its source is read back
#: from the prose (`_quote` turns any `"` in the statement into `'`, so the quote ends at the
#: first `"`).
_KEPT_LINE = re.compile(r'\bkept over "[^"]*" \(confidence [^,]*, source ([^\s),]+)\)')


def _as_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and str(v).strip()]
    if value is None or not str(value).strip():
        return []
    return [str(value)]


def kept_over(value: Any, history: Iterable[str]) -> list[str]:
    """The messages a memory was kept over: its `kept_over_sources` frontmatter value, then
    the sources its History's older `kept over` lines name, without repeats. Pure."""
    found = dict.fromkeys(_as_list(value))
    for entry in history:
        found.update(dict.fromkeys(_KEPT_LINE.findall(entry)))
    return list(found)


def kept_over_list(value: Any, source: str) -> list[str]:
    """A note's `kept_over_sources` value (as read, any shape) with `source` added. Pure."""
    listed = _as_list(value)
    return listed if source in listed else [*listed, source]


def append_history(text: str, entry: str, *, body_start: int = 0) -> str:
    """Add one entry to a note's History section, creating the section at the end if needed.

    Only lines are added: every existing byte of the note stays where it was, so appending to
    a person's note is as safe as a frontmatter patch. The file's line ending style is kept.
    The section is looked for after `body_start` (where the note's frontmatter ends): a YAML
    comment `## History` is not the section, and the frontmatter's `---` lines would send
    every body to the Markdown parser.
    """
    newline = "\r\n" if "\r\n" in text else "\n"
    head, text = text[:body_start], text[body_start:]
    lf = text.replace("\r\n", "\n")
    line = f"- {entry}\n"
    span = history_span(lf)
    if span is None:
        body = lf if (head + lf).endswith("\n") else lf + "\n"
        out = body + "\n## History\n" + line
    else:
        end = span[1]
        section = lf[:end].rstrip("\n") + "\n"
        out = section + line + ("\n" + lf[end:] if end < len(lf) else "")
    return head + (out.replace("\n", newline) if newline == "\r\n" else out)
