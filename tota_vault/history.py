"""The `## History` section of a note: what a memory replaced, or what it was kept over.

Invariant 5: supersede, don't delete. When a conflict is resolved the losing value is written
into the winner's History with its confidence, evidence and date, so a person can always see
what tota believed before and why it changed its mind.
"""

from __future__ import annotations

import re
from datetime import datetime

from .model import format_date

__all__ = ["append_history", "kept_entry", "replaced_entry"]

_HISTORY = re.compile(r"^##[ \t]+History[ \t]*$", re.MULTILINE)
_NEXT_HEADING = re.compile(r"^#{1,2}[ \t]+\S", re.MULTILINE)


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


def append_history(text: str, entry: str) -> str:
    """Add one entry to a note's History section, creating the section at the end if needed.

    Only lines are added: every existing byte of the note stays where it was, so appending to
    a person's note is as safe as a frontmatter patch. The file's line ending style is kept.
    """
    newline = "\r\n" if "\r\n" in text else "\n"
    lf = text.replace("\r\n", "\n")
    line = f"- {entry}\n"
    match = _HISTORY.search(lf)
    if match is None:
        body = lf if lf.endswith("\n") else lf + "\n"
        out = body + "\n## History\n" + line
    else:
        following = _NEXT_HEADING.search(lf, match.end())
        end = following.start() if following else len(lf)
        section = lf[:end].rstrip("\n") + "\n"
        out = section + line + ("\n" + lf[end:] if following else "")
    return out.replace("\n", newline) if newline == "\r\n" else out
