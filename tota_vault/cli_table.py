"""The table `tota search` prints: padded columns, word-wrapped cells, four text styles.

Part of the command line (with cli.py and cli_fast.py). Hand-written rather than drawn with
rich, which the interactive menu keeps using: `tota search` runs as a process from editors,
scripts and assistants, and importing rich's console and table costs more than the whole rest
of the search (docs/benchmarks.md, `bench.startup`: ~100 ms of a ~200 ms process). What the
table needs is small (each column as wide as its widest line, the wrapping columns narrowed to
fit the terminal, words wrapped and over-long words folded, bold/dim/reverse/red when the
output is a colour terminal), so it is written here in plain Python over `unicodedata`.

A cell is a list of lines and a line a list of `(text, style)` spans; each line wraps on its
own. Text from notes is made safe to print: control characters and the bidirectional
overrides that would let a note rewrite or reorder the person's terminal are shown escaped.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TextIO

__all__ = ["Column", "Line", "Span", "cell_width", "colour_for", "draw", "printable", "wrap"]

#: One run of text and its style: "", "bold", "dim", "reverse" or "red".
Span = tuple[str, str]
#: One line of a cell.
Line = list[Span]

#: Select Graphic Rendition codes of the styles a table uses.
_SGR = {"bold": "1", "dim": "2", "reverse": "7", "red": "31"}
#: Space between two columns (rich's default padding of one on each side, kept so the table
#: looks as it did).
_GAP = "  "
#: A column that folds words is not narrowed below this, however narrow the terminal.
_MIN_WRAP = 8
#: Explicit bidirectional embeddings, overrides and isolates: printed as they are, they
#: reorder what follows on the terminal line (the "trojan source" trick).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class Column:
    """A column's header, its alignment, and how it may narrow to fit the terminal: not at
    all, down to its longest word (`wraps`), or further, folding words (`folds`)."""

    header: str
    justify: Literal["left", "right"] = "left"
    wraps: bool = False
    folds: bool = False


def printable(text: str) -> str:
    """`text` with control characters, line separators and bidi overrides escaped
    (`\\x1b`, `\\u202e`), so printing a note's words cannot move the cursor, clear the
    screen or reorder the line."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch == " " or (ch.isprintable() and ch not in _BIDI):
            out.append(ch)
        elif unicodedata.category(ch) == "Zs":
            out.append(" ")  # a no-break or other space: a space
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return "".join(out)


def _char_width(ch: str) -> int:
    """Terminal cells one printable character takes: 0 for combining marks and format
    characters, 2 for East Asian wide and full-width ones (most emoji), else 1."""
    if ch < "\u0300":
        return 1  # ASCII and Latin-1
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cell_width(text: str) -> int:
    """Terminal cells `text` takes (see `_char_width`)."""
    if text.isascii():
        return len(text)
    return sum(_char_width(ch) for ch in text)


def wrap(line: Line, width: int) -> list[Line]:
    """One line of spans broken into lines of at most `width` cells: at spaces, with a word
    longer than the width folded; the spaces a break falls on are dropped."""
    chars = [(ch, style) for text, style in line for ch in text]
    words: list[list[tuple[str, str]]] = []
    for item in chars:  # alternating runs of spaces and of other characters
        if words and (words[-1][0][0] == " ") == (item[0] == " "):
            words[-1].append(item)
        else:
            words.append([item])
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    full = False  # spaces reached the width: the next word starts a line
    for word in words:
        size = sum(_char_width(ch) for ch, _ in word)
        if word[0][0] == " ":
            if used and used + size < width:
                lines[-1].extend(word)
                used += size
            else:
                full = bool(used)
            continue
        if used and (full or used + size > width):
            lines.append([])
            used, full = 0, False
        for item in word:  # fits, or is folded where it does not
            step = _char_width(item[0])
            if used + step > width and used:
                lines.append([])
                used = 0
            lines[-1].append(item)
            used += step
    return [_spans(chars) for chars in lines]


def _spans(chars: list[tuple[str, str]]) -> Line:
    """Characters and their styles as runs of one style each, trailing spaces dropped."""
    while chars and chars[-1][0] == " ":
        chars.pop()
    spans: Line = []
    for ch, style in chars:
        if spans and spans[-1][1] == style:
            spans[-1] = (spans[-1][0] + ch, style)
        else:
            spans.append((ch, style))
    return spans


def _line_width(line: Line) -> int:
    return sum(cell_width(text) for text, _ in line)


def _widths(
    columns: Sequence[Column], rows: Sequence[Sequence[list[Line]]], width: int
) -> list[int]:
    """Each column's width: its widest line, then the columns that may wrap narrowed, widest
    first, until the table fits `width` cells or each is at its narrowest (its longest word,
    or `_MIN_WRAP` cells for one that folds words)."""
    widths = [cell_width(column.header) for column in columns]
    narrowest = list(widths)
    for row in rows:
        for i, cell in enumerate(row):
            for line in cell:
                widths[i] = max(widths[i], _line_width(line))
                if not columns[i].folds:
                    words = "".join(text for text, _ in line).split()
                    narrowest[i] = max([narrowest[i], *map(cell_width, words)])
    for i, column in enumerate(columns):
        if column.folds:
            narrowest[i] = max(narrowest[i], min(widths[i], _MIN_WRAP))
        elif not column.wraps:
            narrowest[i] = widths[i]
    excess = sum(widths) + len(_GAP) * (len(columns) - 1) - width
    while excess > 0:
        narrowable = [i for i in range(len(columns)) if widths[i] > narrowest[i]]
        if not narrowable:
            break
        widest = max(narrowable, key=lambda i: widths[i])
        floor = max([narrowest[widest], *(widths[i] for i in narrowable if i != widest)])
        step = min(excess, widths[widest] - floor) or 1
        widths[widest] -= step
        excess -= step
    return widths


def _paint(line: Line, colour: bool) -> str:
    if not colour:
        return "".join(text for text, _ in line)
    return "".join(
        f"\x1b[{_SGR[style]}m{text}\x1b[0m" if style in _SGR else text for text, style in line
    )


def draw(
    columns: Sequence[Column],
    rows: Sequence[Sequence[list[Line]]],
    *,
    width: int,
    colour: bool,
) -> str:
    """The table as text: a bold header line, then each row's cells side by side, every
    line wrapped to its column's width; no trailing spaces. Every span's text is shown
    `printable`."""
    rows = [[[[(printable(text), style) for text, style in line] for line in cell] for cell in row]
            for row in rows]  # fmt: skip
    widths = _widths(columns, rows, width)
    header: list[list[Line]] = [[[(column.header, "bold")]] for column in columns]
    out = []
    for row in (header, *rows):
        cells = [
            [piece for line in cell for piece in wrap(line, widths[i])]
            for i, cell in enumerate(row)
        ]
        for n in range(max(len(cell) for cell in cells)):
            parts = []
            for i, cell in enumerate(cells):
                line = cell[n] if n < len(cell) else []
                pad = " " * (widths[i] - _line_width(line))
                text = _paint(line, colour)
                parts.append(pad + text if columns[i].justify == "right" else text + pad)
            out.append(_GAP.join(parts).rstrip(" ") + "\n")
    return "".join(out)


def colour_for(stream: TextIO) -> bool:
    """Whether to style text written to `stream`: a terminal, unless NO_COLOR is set or
    TERM is "dumb"; FORCE_COLOR turns it on anywhere (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        return False
    # The Windows console understands these codes in Windows Terminal; elsewhere, plain.
    return terminal and (sys.platform != "win32" or "WT_SESSION" in os.environ)
