"""The life of one vault's index: opened when an operation asks for it (`get`, never as a
side effect of reading an attribute), filled when new, moved aside and rebuilt when damaged,
opened again when its file was deleted or replaced.

The index is a cache of the notes (invariant 1 of the design), so every fault of its file has
the same answer: keep a damaged copy for a look, build a new index from the notes, say so in one
line. `Vault` runs its methods through this (`vault._guarded`); the note writer records its
writes here (`writer.NoteWriter`). Nothing here decides what a memory is.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from .errors import (
    IndexCorruptError,
    IndexError_,
    IndexNotOpenError,
    IndexReadOnlyError,
    VaultError,
    first_line,
)
from .index import Index, fault_kind
from .paths import broken_index_copies, index_path

__all__ = ["RECOVERABLE", "IndexKeeper"]

#: What an index fault is called when tota recovers from it by itself.
RECOVERABLE = ("corrupt", "moved")


class IndexKeeper:
    """Holds one vault's open index and answers for its file's faults."""

    def __init__(self, root: Path, notice: Callable[[str], None]) -> None:
        self.root = root
        #: Where a repair is said, one line each (the vault's `on_notice`).
        self.notice = notice
        self._index: Index | None = None
        #: (device, inode) of the index file when it was opened: a new one means it was
        #: deleted or replaced (see `check`).
        self._index_id: tuple[int, int] | None = None
        #: The read-only notice is said once (see `_open_read_only`).
        self._said_read_only = False

    @property
    def path(self) -> Path:
        """Where the index lives (`<vault>/.tota/index.db`)."""
        return index_path(self.root)

    @property
    def current(self) -> Index | None:
        """The open index, or None when none is open (no I/O)."""
        return self._index

    def opened(self) -> Index:
        """The open index (no I/O); `IndexNotOpenError` when none is (`get` opens it)."""
        if self._index is None:
            raise IndexNotOpenError(
                f"the index of {self.root} is not open; call Vault.open_index() first"
            )
        return self._index

    def get(self, *, assign_ids: bool = True) -> Index:
        """The open index, opening it first if none is; a new, rebuilt or never completely
        filled index (a crash mid-sync) is filled from the notes before it is handed out.
        Without `assign_ids` the fill writes nothing into the notes (`reconcile`): `doctor`,
        which changes no note, leaves the ids and hand edits it finds to `tota sync`."""
        if self._index is not None:
            return self._index
        index = self.open()
        if index.get_state("last_sync") is None and not index.read_only:
            from .sync import reconcile

            reconcile(
                self.root, index, assign_ids=assign_ids, follow_external=self.follow_external()
            )
        index.rebuilt = False
        return index

    def open(self) -> Index:
        """Open the index as it is (no fill); one too damaged to open is moved aside and a new,
        empty one made."""
        if not self.root.is_dir():
            raise VaultError(f"{self.root}: no vault here; create one with `tota init`")
        try:
            index = Index.open(self.path)
        except IndexCorruptError as exc:
            self.move_aside(getattr(exc, "reason", str(exc)))
            index = Index.open(self.path)
        except IndexReadOnlyError as exc:
            index = self._open_read_only(exc)
        self._index = index
        self._index_id = _file_id(self.path)
        return index

    def _open_read_only(self, error: IndexReadOnlyError) -> Index:
        """A read-only vault can still be read: open its index as it was last synced (no
        sync, no repair), and say so once. Raise `error` when there is no index to read.
        Writes then fail with `error`'s line, naming the file and what to do."""
        try:
            index = Index.open_read_only(self.path, reason=str(error))
        except IndexError_:
            raise error from None
        if not self._said_read_only:
            self._said_read_only = True
            synced = index.get_state("last_sync") or "never"
            self.notice(
                f"the index {self.path} is read-only; showing it as last synced "
                f"({synced}), without the changes since"
            )
        return index

    def follow_external(self) -> bool:
        """tota.toml's `[sync] follow_external_links` (off: links leading outside are not read)."""
        from .config import load_config

        return load_config(self.root).follow_external_links

    def fault(self, exc: BaseException) -> str | None:
        """What an error says about the index file (see `index.fault_kind`); a
        UnicodeDecodeError counts only when the index really holds text that is not UTF-8."""
        kind = fault_kind(exc)
        if isinstance(exc, UnicodeDecodeError):
            damaged = self._index is not None and self._index.undecodable() is not None
            return kind if damaged else None
        return kind

    def in_batch(self) -> bool:
        """Whether the open index is inside a batch's transaction."""
        return self._index is not None and self._index.in_batch

    def recover(self, kind: str, exc: BaseException) -> None:
        """Put a working index in place of a damaged or vanished one, filled from the notes."""
        self.drop()
        if kind == "corrupt":
            self.move_aside(first_line(exc))
        else:
            self.notice(
                f"the index {self.path} was deleted or replaced while in use; "
                "opened it again and brought it up to date from the notes"
            )
        self.get()

    def repair(self, exc: BaseException) -> bool:
        """For a caller that met `exc` in a query of its own: if it says the index is
        damaged, move the index aside and rebuild it from the notes, and return True."""
        if self.fault(exc) != "corrupt":
            return False
        self.recover("corrupt", exc)
        return True

    def check(self) -> bool:
        """Reopen the index if its file was deleted or replaced since it was opened (someone
        removed `.tota/` while `tota watch` runs); True when it did. One stat."""
        if self._index is None or _file_id(self.path) == self._index_id:
            return False
        self.recover("moved", IndexError_("the index file was replaced"))
        return True

    def drop(self) -> None:
        """Forget the open index without trusting it (no checkpoint into a damaged file)."""
        if self._index is not None:
            self._index.abandon()
            self._index = None
            self._index_id = None

    def close(self) -> None:
        """Close the index (checkpointing its WAL)."""
        if self._index is not None:
            self._index.close()
            self._index = None

    def move_aside(self, reason: str) -> None:
        """Rename a damaged index (and its -wal, -shm) to `index.db.broken-<time>`, kept for a
        look, so the next open builds a new one from the notes. `reason` is SQLite's word."""
        self.drop()
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.broken-{stamp}")
        n = 2
        while target.exists():
            target = self.path.with_name(f"{self.path.name}.broken-{stamp}-{n}")
            n += 1
        if not self.path.exists():
            return  # already gone: the next open makes a new one
        try:
            os.replace(self.path, target)
            with contextlib.suppress(OSError):
                os.utime(target)  # its age (doctor says it) counts from now, not its last write
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.replace(f"{self.path}{suffix}", f"{target}{suffix}")
        except OSError as exc:
            raise IndexCorruptError(
                f"{self.path}: the index is damaged ({reason}) and cannot be moved aside "
                f"({exc.strerror or exc}); delete {self.path.parent} and run `tota reindex`"
            ) from None
        older = [p for p in broken_index_copies(self.root) if p != target]
        _delete_copies(older)
        self.notice(
            f"the index {self.path} was damaged ({reason}); moved it to {target.name} "
            "and rebuilt it from the notes"
        )

    def delete_broken_copies(self) -> list[Path]:
        """Delete the damaged indexes moved aside (`index.db.broken-*` and their -wal, -shm);
        return those deleted: a copy holds every memory's text."""
        return _delete_copies(broken_index_copies(self.root))


def _delete_copies(copies: list[Path]) -> list[Path]:
    """Delete these moved-aside indexes (one copy is kept for a look, never a pile: each is a
    full copy of every memory's text)."""
    deleted = []
    for copy in copies:
        try:
            for suffix in ("-wal", "-shm", ""):  # the main file last: doctor finds it
                with contextlib.suppress(FileNotFoundError):
                    os.remove(f"{copy}{suffix}")
        except OSError:
            continue  # not ours to delete (a read-only folder): doctor still names it
        deleted.append(copy)
    return deleted


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino
