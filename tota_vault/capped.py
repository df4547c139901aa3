"""The sources the cap leaves out of notes: `<vault>/.tota-sources`, and its copy in the index.

A note lists at most the first and the latest of its memory's sources (`model.cap_sources`),
so that a fact confirmed thousands of times keeps a small note, diff and merge. The messages
the cap drops still happened: they must stay "already observed" (reading an old transcript
or an export again changes nothing) and be tombstoned when the memory is forgotten (it is not
learned back from them). The index alone cannot keep them (it is a cache: `tota reindex`, a
fresh clone or another device would lose them), so they live in the vault, in one
append-only file of `<memory id> <source>` lines (see `linefile.py`), written only for the
sources a cap drops, before the note that drops them is written.

The index holds a copy (table `capped_sources`) so that the observed check is one look-up,
never a read of the file: tota records its own appends in the index as it writes them, and
the file is read whole only when it changed some other way (a `git pull`, a person's edit, a
rebuilt index), noticed by its size and mtime at every full sync and every `observe`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

from .files import Fingerprint
from .linefile import append_lines, read_lines
from .model import Memory, source_total

__all__ = ["CAPPED_FILE", "add_capped", "left_out", "read_capped", "refresh_index"]

#: The file, vault-relative. A dot-file: Obsidian hides it and sync skips it.
CAPPED_FILE = ".tota-sources"
HEADER = (
    "# tota: sources that memories' notes no longer list (a note lists its first and latest).\n"
    "# One <memory id> <conversation>#<message> a line; tota reads them as observed.\n"
)
#: The stamp of a vault without the file.
ABSENT = "absent"


class CappedStore(Protocol):
    """What this module needs of the index."""

    def capped_stamp(self) -> str | None: ...

    def replace_capped_sources(self, pairs: Iterable[tuple[str, str]], stamp: str) -> None: ...

    def add_capped_sources(self, pairs: Iterable[tuple[str, str]], stamp: str) -> None: ...


def _pair(line: str) -> tuple[str, str] | None:
    memory_id, _, source = line.partition(" ")
    source = source.strip()
    return (memory_id, source) if memory_id and source else None


def _stamp(size: int, mtime_ns: int) -> str:
    return f"{size} {mtime_ns}"


def _file_stamp(fingerprint: Fingerprint | None) -> str:
    return ABSENT if fingerprint is None else _stamp(fingerprint.size, fingerprint.mtime_ns)


def read_capped(root: Path) -> tuple[list[tuple[str, str]], str]:
    """Every (memory id, source) pair in the file, and the stamp of the file as read.

    A line without a space (no source) is not a pair and is ignored, like a comment, rather
    than stop every observation over one damaged line.
    """
    lines, fingerprint = read_lines(root / CAPPED_FILE)
    pairs = [p for p in map(_pair, lines) if p is not None]
    return pairs, _file_stamp(fingerprint)


def add_capped(root: Path, index: CappedStore, memory_id: str, sources: Iterable[str]) -> list[str]:
    """Record sources a cap drops from `memory_id`'s note: in the file, then in the index.

    Returns the sources that were new to the file. Call it before writing the note that
    drops them: a crash in between leaves a line about a source the note still lists, which
    says nothing false.
    """
    lines = [f"{memory_id} {s.strip()}" for s in sources if s.strip()]
    if not memory_id or not lines:
        return []
    done = append_lines(root / CAPPED_FILE, lines, header=HEADER)
    if not done.new or done.after is None:
        return []
    if index.capped_stamp() != _file_stamp(done.before):
        # The file had changed since the index last read it (a pull, another process):
        # read it whole once, rather than add only this process's lines.
        refresh_index(root, index)
    else:
        index.add_capped_sources(
            [p for p in map(_pair, done.new) if p is not None], _file_stamp(done.after)
        )
    return [line.partition(" ")[2] for line in done.new]


def left_out(before: Sequence[str], memory: Memory) -> list[str]:
    """The sources an earlier version of a capped note listed that this version does not.

    tota's own cap records what it drops before writing the note; a git merge (which unites
    both sides' lists and caps them again, inside git, where no other file may be written) or
    another program does not, so a sync records them when it sees the note change. Empty for
    a note that is not capped: a person may shorten a list on purpose.
    """
    if source_total(memory) <= len(memory.sources):
        return []
    listed = set(memory.sources)
    return [s for s in before if s not in listed]


def refresh_index(root: Path, index: CappedStore) -> bool:
    """Load the file into the index if it changed since the index last saw it (one `stat`
    when it did not); return whether it was loaded."""
    try:
        st = os.stat(root / CAPPED_FILE)
        now = _stamp(st.st_size, st.st_mtime_ns)
    except FileNotFoundError:
        now = ABSENT
    if index.capped_stamp() == now:
        return False
    pairs, stamp = read_capped(root)
    index.replace_capped_sources(pairs, stamp)
    return True
