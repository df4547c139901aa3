"""Tombstones: the messages whose memories a person deleted, so tota does not learn them again.

The pipeline skips a message the index says a memory already cites (`<conversation>#<msg>`).
Once a memory is forgotten its note and row are gone, so without a tombstone the next time
the same conversation is observed (an assistant hook re-reads the whole transcript after
every reply) the memory would come straight back.

Where the tombstones live is a choice with a trade-off:

* `<vault>/.tota-forgotten` (what tota does): a small text file in the vault itself, so it
  survives `tota reindex` and a deleted `.tota/`, and travels with the vault through git,
  Syncthing or a backup. A memory forgotten on the laptop is not learned again on the desktop
  from the same conversation. The cost: the file is versioned, so `git log` shows which
  message ids were forgotten and when (never their text: only ids are written).
* `<vault>/.tota/forgotten` (local state) would keep even the ids out of git, but another
  device would learn the memory again, and the person would have to forget it once per device.

One source a line, appended (the file is never rewritten, so a line or comment a person added
stays as it is, and two devices that each forgot something merge line by line:
`.tota-forgotten merge=union` in the vault's `.gitattributes` lets git do it without a
conflict). Lines that start with `# ` are comments. Deleting a line lets tota learn from that
message again.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .linefile import append_lines, read_lines

if TYPE_CHECKING:
    from .index import Index

__all__ = ["FORGOTTEN_FILE", "add_forgotten", "forget_tombstoned", "read_forgotten"]

#: The tombstone file, vault-relative. A dot-file: Obsidian hides it and sync skips it.
FORGOTTEN_FILE = ".tota-forgotten"
HEADER = (
    "# tota: messages whose memories were forgotten; tota does not learn from them again.\n"
    "# One <conversation>#<message> a line. Delete a line to let tota learn from it again.\n"
)


def read_forgotten(root: Path) -> frozenset[str]:
    """The sources tota must not learn from again (empty when nothing was forgotten)."""
    return frozenset(read_lines(root / FORGOTTEN_FILE)[0])


def add_forgotten(root: Path, sources: Iterable[str]) -> int:
    """Append the sources not yet in the tombstone file (sorted); return how many were new.

    Every byte already there is kept. The write is atomic and refused (as every write of
    tota's) if the file changed since it was read, so a line added elsewhere is never dropped
    (see `linefile.append_lines`).
    """
    done = append_lines(root / FORGOTTEN_FILE, sorted({s.strip() for s in sources}), header=HEADER)
    return len(done.new)


#: The index's state key for the tombstone file as it was when its turns were last removed.
_TOMBSTONES_APPLIED = "forgotten_applied"


def forget_tombstoned(root: Path, index: Index, *, force: bool = False) -> int:
    """Remove the turns the tombstone file names, when the file changed since this index last
    did (or always, with `force`); return how many turns went.

    A memory forgotten on another device reaches this one as a changed tombstone file (git,
    Syncthing) and a deleted note, but its words were kept here too, as turns, which recall
    would go on quoting; sync calls this after it reconciles, and reindex after it carries the
    turns over. One stat when nothing changed (here, not in `manage`: a sync imports no more
    than this module for it)."""
    try:
        info = (root / FORGOTTEN_FILE).stat()
    except OSError:
        return 0
    stamp = f"{info.st_size}:{info.st_mtime_ns}"
    if not force and index.get_state(_TOMBSTONES_APPLIED) == stamp:
        return 0
    removed = index.turns().forget(read_forgotten(root))
    index.set_state(_TOMBSTONES_APPLIED, stamp)
    return removed
