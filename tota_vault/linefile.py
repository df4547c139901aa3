"""Append-only line files in the vault: `.tota-forgotten` and `.tota-sources/<memory id>`.

Both hold one entry a line, only ever grow, and travel with the vault (git, Syncthing, a
backup), so that a rebuilt index or another device knows them. Growing only is what makes them
merge without a conflict: `merge=union` in `.gitattributes` keeps both sides' lines.

A line that starts with `# ` (or is a lone `#`) is a comment; blank lines are ignored. The file
is never rewritten: an append keeps every byte already there (a person's comment, a missing
final newline gets one), and is written atomically and refused, as every write of tota's, if
the file changed since it was read. Since an append only adds lines, a refused append is simply
read and tried again: two processes that append at once both get their lines in.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import InvalidNoteError, NoteChangedError
from .files import Fingerprint, atomic_write, read_file

__all__ = ["Appended", "append_lines", "parse_lines", "read_lines"]

#: How many times an append is read and tried again when another process appended first.
RETRIES = 5


@dataclass(frozen=True)
class Appended:
    """What an append did: the lines that were new, and the file's fingerprint before and
    after (None for no file). Nothing new: nothing was written, and `after` is `before`."""

    new: list[str]
    before: Fingerprint | None
    after: Fingerprint | None


def parse_lines(text: str) -> list[str]:
    """The entries of a line file, in file order, without comments, blanks or outer spaces."""
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.startswith("# ") and line.strip() != "#"
    ]


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidNoteError(f"not UTF-8 text (byte at offset {exc.start})", path=path) from None


def read_lines(path: Path) -> tuple[list[str], Fingerprint | None]:
    """The entries of the file at `path` and the fingerprint they were read at.

    No file is no entries (fingerprint None); a file that is not UTF-8 text raises
    `InvalidNoteError` naming it.
    """
    if not os.path.lexists(path):
        return [], None
    data, fingerprint = read_file(path)
    return parse_lines(_decode(data, path)), fingerprint


def append_lines(path: Path, lines: Iterable[str], *, header: str) -> Appended:
    """Append the `lines` the file does not hold yet, in the order given.

    `header` (comment lines) starts a file created here.
    """
    wanted = list(dict.fromkeys(line.strip() for line in lines if line.strip()))
    for attempt in range(RETRIES):
        fingerprint = None
        text = header
        if os.path.lexists(path):
            data, fingerprint = read_file(path)
            text = _decode(data, path)
        have = set(parse_lines(text))
        new = [line for line in wanted if line not in have]
        if not new:
            return Appended([], fingerprint, fingerprint)
        if text and not text.endswith("\n"):
            text += "\n"
        text += "".join(f"{line}\n" for line in new)
        try:
            after = atomic_write(path, text.encode("utf-8"), expected=fingerprint)
            return Appended(new, fingerprint, after)
        except NoteChangedError:
            if attempt == RETRIES - 1:
                raise
    raise AssertionError("unreachable")  # the loop returns or raises
