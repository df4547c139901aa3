"""The sources the cap leaves out of notes: `<vault>/.tota-sources/`, and its copy in the index.

A note lists at most the first and the latest of its memory's sources (`model.cap_sources`),
so that a fact confirmed thousands of times keeps a small note, diff and merge. The messages
the cap drops still happened: they must stay "already observed" (reading an old transcript
or an export again changes nothing) and be tombstoned when the memory is forgotten (it is not
learned back from them). The index alone cannot keep them (it is a cache: `tota reindex`, a
fresh clone or another device would lose them), so they live in the vault: one append-only
file per capped memory, `.tota-sources/<memory id>`, one source a line (see `linefile.py`),
written only for the sources a cap drops, before the note that drops them is written.

One file per memory, not one for the vault: an append is an atomic rewrite of its file (as
every write of tota's), so its cost grows with that memory's dropped sources, not with every
capped memory's (bench.capped).

The index holds a copy (tables `capped_sources`, `capped_files`) so that the observed check
is one look-up, never a read of a file: tota records its own appends in the index as it
writes them, and a file is read whole only when it changed some other way (a `git pull`, a
person's edit, a rebuilt index). `observe` notices that by the folder's mtime (one `stat`;
every write of tota's and git's replaces or creates a file, which changes it), a full sync by
each file's size and mtime (which also sees an edit made in place).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from .errors import NoteError
from .files import Fingerprint, make_dirs
from .linefile import append_lines, read_lines
from .model import Memory, source_total

__all__ = [
    "CAPPED_DIR",
    "CappedStore",
    "add_capped",
    "left_out",
    "read_capped",
    "recordable",
    "refresh_index",
]

#: The folder, vault-relative. A dot-folder: Obsidian hides it and sync skips it.
CAPPED_DIR = ".tota-sources"
HEADER = (
    "# tota: sources this memory's note no longer lists (a note lists its first and latest).\n"
    "# One <conversation>#<message> a line; tota reads them as already observed.\n"
)
#: The stamp of a vault without the folder.
ABSENT = "absent"
#: Memory ids that can name a file on every system (tota's ULIDs always do). A note whose id a
#: person wrote otherwise is never capped: its list keeps every source.
_NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,99}")


class CappedStore(Protocol):
    """What this module needs of the index (`Index` provides it)."""

    def batch(self) -> AbstractContextManager[None]: ...

    def capped_stamp(self) -> str | None: ...

    def set_capped_stamp(self, stamp: str) -> None: ...

    def capped_file_stamps(self) -> dict[str, str]: ...

    def load_capped_file(
        self, memory_id: str, sources: Sequence[str], stamp: str | None
    ) -> None: ...

    def add_capped_sources(self, memory_id: str, sources: Sequence[str], stamp: str) -> None: ...


def recordable(memory_id: str | None) -> bool:
    """Whether a memory's capped-out sources can be recorded (its id can name a file)."""
    return bool(memory_id) and _NAME.fullmatch(memory_id or "") is not None


def _stamp(size: int, mtime_ns: int) -> str:
    return f"{size} {mtime_ns}"


def _file_stamp(fingerprint: Fingerprint | None) -> str | None:
    return None if fingerprint is None else _stamp(fingerprint.size, fingerprint.mtime_ns)


def _folder_stamp(folder: Path) -> str:
    try:
        return str(os.stat(folder).st_mtime_ns)
    except FileNotFoundError:
        return ABSENT


def read_capped(root: Path) -> dict[str, list[str]]:
    """Every memory's capped-out sources, as the files list them (memory id -> sources)."""
    folder = root / CAPPED_DIR
    if not folder.is_dir():
        return {}
    return {
        entry.name: read_lines(Path(entry.path))[0]
        for entry in sorted(os.scandir(folder), key=lambda e: e.name)
        if _NAME.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)
    }


def add_capped(root: Path, index: CappedStore, memory_id: str, sources: Iterable[str]) -> list[str]:
    """Record sources a cap drops from `memory_id`'s note: in its file, then in the index.

    Returns the sources that were new to the file. Call it before writing the note that
    drops them: a crash in between leaves a line about a source the note still lists, which
    says nothing false.
    """
    wanted = [s for s in sources if s.strip()]
    if not wanted or not recordable(memory_id):
        return []
    folder = root / CAPPED_DIR
    make_dirs(folder)
    folder_before = _folder_stamp(folder)
    done = append_lines(folder / memory_id, wanted, header=HEADER)
    if not done.new or done.after is None:
        return []
    with index.batch():
        if index.capped_file_stamps().get(memory_id) != _file_stamp(done.before):
            # The file changed since the index last read it (a pull): read it whole once.
            lines, fingerprint = read_lines(folder / memory_id)
            index.load_capped_file(memory_id, lines, _file_stamp(fingerprint))
        else:
            after = _stamp(done.after.size, done.after.mtime_ns)
            index.add_capped_sources(memory_id, done.new, after)
        if index.capped_stamp() == folder_before:
            # Only this write changed the folder: the index is still up to date with it.
            index.set_capped_stamp(_folder_stamp(folder))
    return done.new


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


def refresh_index(root: Path, index: CappedStore, *, full: bool = False) -> list[tuple[str, str]]:
    """Bring the index's copy of `.tota-sources/` up to date; return the files that could not
    be read, as (vault-relative path, reason), which stay unread until they can be.

    Without `full`, one `stat` of the folder when nothing was added, replaced or removed in
    it; with `full` (a full sync), one `stat` per file, which also sees an edit in place.
    """
    folder = root / CAPPED_DIR
    folder_now = _folder_stamp(folder)
    if not full and index.capped_stamp() == folder_now:
        return []
    on_disk: dict[str, str] = {}
    if folder_now != ABSENT:
        for entry in os.scandir(folder):
            if _NAME.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                st = entry.stat(follow_symlinks=False)
                on_disk[entry.name] = _stamp(st.st_size, st.st_mtime_ns)
    problems: list[tuple[str, str]] = []
    with index.batch():
        known = index.capped_file_stamps()
        for memory_id in sorted(on_disk):
            if known.get(memory_id) == on_disk[memory_id]:
                continue
            try:
                lines, fingerprint = read_lines(folder / memory_id)
            except NoteError as exc:  # named, and tried again next time
                reason = str(exc).split(": ", 1)[-1]
                problems.append((f"{CAPPED_DIR}/{memory_id}", reason))
                continue
            index.load_capped_file(memory_id, lines, _file_stamp(fingerprint))
        for memory_id in sorted(known.keys() - on_disk.keys()):
            index.load_capped_file(memory_id, [], None)  # deleted: learnable again
        if not problems:
            index.set_capped_stamp(folder_now)
    return problems
