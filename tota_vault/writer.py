"""Writing notes as tota does: new notes, surgical patches, batches, each indexed at once.

`NoteWriter` is the vault's one `store.LearningStore`: the pipeline, reflect and decay write
through it and nothing else. Every write keeps the vault's promises (invariant 2 of the
design): atomic (temp file, fsync, rename), refused if the file changed since it was read, a
note a person touched patched line by line, never rewritten; and the index told at once, so a
search right after a write finds it. The file is the truth: a write whose index update fails
says so in one line and never leaves the note unindexed without a word.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import InvalidNoteError, NoteChangedError, NoteHeldError, TotaError, WriteError
from .index import Index, index_error
from .keeper import RECOVERABLE, IndexKeeper

if TYPE_CHECKING:
    from .extract.messages import Message
    from .files import Fingerprint
    from .model import Memory
    from .store import Patcher, StoredMemory

__all__ = ["NoteWriter"]


class NoteWriter:
    """Writes one vault's notes and keeps its index in step (see the module docstring)."""

    def __init__(self, root: Path, keeper: IndexKeeper, notice: Callable[[str], None]) -> None:
        self.root = root
        self._keeper = keeper
        self._notice = notice
        #: Folders written during `batch()`, fsynced once when it ends.
        self._unsynced: set[Path] | None = None
        #: Notes written during `batch()` (vault-relative), indexed again if it fails.
        self._batch_written: list[str] = []

    @property
    def index(self) -> Index:
        """The vault's open index (no I/O: the vault opens it before it writes)."""
        return self._keeper.opened()

    @property
    def in_batch(self) -> bool:
        """Whether a `batch()` is open: its writes cannot be run again after a fault."""
        return self._unsynced is not None

    # --- writes ----------------------------------------------------------------------------

    def write_new(self, memory: Memory, *, title: str | None = None) -> StoredMemory:
        """Write a new memory's note under `<type>/<Title>.md` and index it.

        The title (file name) comes from `title` or the memory's text, made safe and unique.
        """
        from .notes import title_from_text, unique_title
        from .store import StoredMemory

        folder = os.path.join(self.root, memory.type.value)  # made by the write if missing

        def taken(title: str) -> bool:
            return os.path.exists(os.path.join(folder, f"{title}.md")) or self.index.title_taken(
                title
            )

        title = unique_title(title_from_text(title or memory.text), taken)
        rel = f"{memory.type.value}/{title}.md"
        return StoredMemory(memory, rel, self._write_memory(rel, memory, None))

    def write_over(self, rel: str, memory: Memory, expected: Fingerprint) -> Fingerprint:
        """Write `memory`'s note at `rel` again, whole, over the file tota read as `expected`
        (a reflection whose members changed): atomically, refused over a newer edit
        (`NoteChangedError`), the folder's fsync left to the end of a batch, indexed at once."""
        return self._write_memory(rel, memory, expected)

    def _write_memory(self, rel: str, memory: Memory, expected: Fingerprint | None) -> Fingerprint:
        """`memory` rendered and sealed, written at `rel` (`_write`) and indexed from itself."""
        from .seal import render_sealed

        data = render_sealed(memory).encode("utf-8")
        written = self._write(rel, data, expected)
        self.index_written(rel, data, written, memory=memory)
        return written

    def delete(self, rel: str, expected: Fingerprint) -> None:
        """Delete a note of tota's own (a reflection left with too few members) that is still
        what tota read as `expected`, else raise `NoteChangedError` and keep it; drop its row."""
        from .files import unchanged

        path = self.root / rel
        self.index.refuse_if_read_only()
        if path.is_symlink() or not unchanged(path, expected):
            raise NoteChangedError(
                f"{path}: changed on disk since tota read it; not deleted", path=path
            )
        try:
            path.unlink()
        except OSError as exc:
            raise WriteError(f"{path}: cannot delete ({exc.strerror or exc})", path=path) from None
        if self._unsynced is not None:
            self._unsynced.add(path.parent)
        else:
            from .files import fsync_folder

            fsync_folder(path.parent)
        self.index_deleted(rel)

    def edit(self, rel: str, changes: Patcher, *, history: str | None = None) -> None:
        """Change a note as tota does: a surgical frontmatter patch (and optionally one History
        entry), resealed, written atomically, indexed at once.

        A person's edit that the index has not seen yet is recorded first, and `changes` is
        computed from the note's index row as it stands after that, never from a stale row.
        """
        from .files import read_file
        from .history import append_history
        from .index import PATCHABLE_COLUMNS
        from .notes import locate_frontmatter, patch_frontmatter, text_problem
        from .seal import SealState, seal, seal_state

        data, fingerprint = read_file(self.root / rel)
        rows = self.index.get(path=rel)
        if not rows or rows[0].hash != fingerprint.hash:
            self._sync([rel])
            data, fingerprint = read_file(self.root / rel)
            rows = self.index.get(path=rel)
        problem = text_problem(data)  # a note a person saved in another encoding, say
        if problem is not None:
            raise InvalidNoteError(f"{problem}; tota changes only UTF-8 text notes", path=rel)
        text = data.decode("utf-8")
        patch = changes(rows[0]) if rows else {}
        known = False
        if patch:
            # A note exactly as tota wrote it has tota's own, known layout: the read-back
            # check is for notes a person wrote or edited.
            known = seal_state(text) is SealState.SEALED
            text = patch_frontmatter(text, patch, verify=not known)
        if history:
            located = locate_frontmatter(text)
            text = append_history(text, history, body_start=located[2] if located else 0)
        new = seal(text).encode("utf-8")
        written = self._write(rel, new, fingerprint)
        if rows and known and not history and set(patch) <= PATCHABLE_COLUMNS:
            # Only frontmatter scalars and sources changed in a note of tota's own layout: the
            # row takes the same values a parse would give, without parsing the note again.
            self._index_after_write(rel, lambda: self.index.update_row(rel, patch, written))
        else:
            self.index_written(rel, new, written)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Many writes as one: one index transaction, and each folder fsynced once at the end.

        Every note is still written atomically and refused over a newer edit; only the
        durability of the renames waits for the end of the batch.
        """
        from .files import fsync_folder

        if self._unsynced is not None:
            yield
            return
        self._unsynced = set()
        self._batch_written = []
        try:
            with self.index.batch():
                yield
        except BaseException:
            # The batch's rows rolled back, but the notes it wrote are on disk (the truth):
            # index them now, and never leave one written and unindexed without saying so.
            self._index_after_failed_batch(self._batch_written)
            raise
        finally:
            folders, self._unsynced = self._unsynced, None
            for folder in sorted(folders):
                fsync_folder(folder)

    def index_written(
        self, rel: str, data: bytes, fingerprint: Fingerprint, *, memory: Memory | None = None
    ) -> None:
        """Tell the index at once about a note tota just wrote (no need to read it back).

        `memory`, when `data` is its rendering (`seal.render_sealed`), spares parsing the
        bytes again: the row is built from it directly when it reads back as itself
        (`notes.reads_back`), which is what a parse would give. The watcher will see the same
        write later and find nothing to do: the bytes hash the same as the row.
        """
        from .index import record_from_note
        from .notes import ParsedNote, parse_note, reads_back, render_body, title_of

        if memory is not None and reads_back(memory):
            title = title_of(rel)
            body = render_body(memory.text, memory.history, memory.quote)
            note = ParsedNote(rel, title, {}, body, memory, None, True)
        else:
            note = parse_note(data, rel)
        self._index_after_write(
            rel, lambda: self.index.apply(upserts=[record_from_note(note, fingerprint)])
        )

    def index_deleted(self, rel: str) -> None:
        """Tell the index at once that tota deleted the note at `rel`."""
        self._index_after_write(rel, lambda: self.index.apply(deletes=[rel]))

    def _write(self, rel: str, data: bytes, expected: Fingerprint | None) -> Fingerprint:
        """`atomic_write` of the note at `rel` (vault-relative, as the index names it),
        deferring the folder's fsync inside a batch."""
        from .files import atomic_write

        path = self.root / rel
        # Refused before anything is written when the index was opened read-only (a read-only
        # `.tota`). A read-only index file in a writable folder opens for writing and fails at
        # the write: the note is then written and the error says so.
        self.index.refuse_if_read_only()
        if expected is not None:  # over a note a person may have open (a new one is not)
            from .files import HELD_BY_EDITOR, HELD_HINT, held_by_editor

            if held_by_editor(path):
                raise NoteHeldError(
                    f"{path}: {HELD_BY_EDITOR}; not written: {HELD_HINT}", path=path
                )
        if self._unsynced is None:
            return atomic_write(path, data, expected=expected)
        self._unsynced.add(path.parent)
        written = atomic_write(path, data, expected=expected, sync_folder=False)
        self._batch_written.append(rel)
        return written

    def _sync(self, paths: list[str]) -> None:
        """Record these notes as they are on disk (a person's edit the index has not seen)."""
        from .sync import reconcile

        reconcile(
            self.root, self.index, paths=paths, follow_external=self._keeper.follow_external()
        )

    def _index_after_failed_batch(self, written: list[str]) -> None:
        if not written:
            return
        names = ", ".join(written)
        try:
            self._sync(written)
        except (TotaError, sqlite3.Error, OSError, UnicodeDecodeError) as exc:
            self._notice(
                f"written before the error but not indexed: {names} ({exc}); run `tota sync`"
            )
        else:
            self._notice(f"written and indexed before the error: {names}")

    def _index_after_write(self, rel: str, work: Callable[[], None]) -> None:
        """Record in the index a change already made to a note's file.

        The file is the truth and is already written, so this never fails silently: a damaged
        or vanished index is rebuilt from the notes (which holds the new file), and any other
        fault raises one line that says the note was written but not indexed.
        """
        try:
            work()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            kind = self._keeper.fault(exc)
            in_batch = self._keeper.in_batch()
            if kind is None and isinstance(exc, UnicodeDecodeError):
                raise
            if kind in RECOVERABLE and not in_batch:
                self._keeper.recover(kind, exc)
                return
            if kind in RECOVERABLE:
                raise  # the guarded call around the batch rebuilds and runs it again
            error = index_error(exc, self._keeper.path, kind=kind)
            raise type(error)(
                f"{rel} was written, but the index could not record it: {error}; then run "
                "`tota sync`"
            ) from None

    # --- what learning needs beyond writes (store.LearningStore) ---------------------------

    def keep_turns(self, conversation_id: str, messages: Sequence[Message]) -> int:
        """Keep a conversation's turns in the index for recall to quote (turns.py); return
        how many were new. `messages` must be as `pipeline.clean_message` made them (secrets
        redacted): the pipeline calls this with the messages it read, in the transaction of
        the memories it learns from them. Nothing while `[recall] turns = false`, and never a
        forgotten message (a hook that reads the whole conversation again must not bring back
        the words of a memory the person forgot)."""
        from .config import load_config
        from .turns import turn_records

        if not load_config(self.root).turns:
            return 0
        forgotten = self.forgotten_sources()
        store = self.index.turns()
        previous = store.last_text(conversation_id)
        records = [
            r
            for r in turn_records(conversation_id, messages, previous=previous)
            if f"{r.conversation}#{r.message}" not in forgotten
        ]
        return store.add(records)

    def forgotten_sources(self) -> frozenset[str]:
        """The messages (`<conversation>#<message>`) of forgotten memories: never learned again."""
        from .forgotten import read_forgotten

        return read_forgotten(self.root)

    def record_capped_sources(self, memory_id: str, sources: Sequence[str]) -> None:
        """Record sources a cap is about to drop from a memory's note (`capped.py`), in the
        vault's `.tota-sources` and in the index, so they stay observed and forgettable."""
        from .capped import add_capped

        add_capped(self.root, self.index, memory_id, sources)

    def refresh_capped_sources(self) -> None:
        """Bring the index's copy of `.tota-sources/` up to date (one stat if it is); a file
        that cannot be read raises `InvalidNoteError` naming it (learning waits for it)."""
        from .capped import refresh_index

        problems = refresh_index(self.root, self.index)
        if problems:
            path, reason = problems[0]
            raise InvalidNoteError(reason, path=path)

    @staticmethod
    def can_cap_sources(memory_id: str | None) -> bool:
        """Whether a memory's note may cap its sources: its capped-out ones can be recorded."""
        from .capped import recordable

        return recordable(memory_id)
