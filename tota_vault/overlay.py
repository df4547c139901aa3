"""A dry run's imagined memories, searchable as the index searches the notes it would write.

`tota extract --dry-run` must predict what a real run does, merges within the conversation
included, so each candidate is decided against the memories the run imagined so far as well
as the index. Scanning every imagined memory for each look-up made a long transcript's dry
run quadratic (160 s of CPU for 12k messages, whose real run took 26 s); here they sit in an
in-memory FTS5 table with the index's own tokenizer, and a look-up asks it the same FTS5
query the index is asked (`index.similar_match`, `index.mentioning_match`), so an imagined
memory is found exactly when the written note would match.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from .index import (
    BY_KEY_LIMIT,
    MENTIONING_LIMIT,
    MENTIONING_WINDOW,
    SIMILAR_LIMIT,
    SIMILAR_ORDER,
    SIMILAR_WINDOW,
    mentioning_match,
    similar_match,
    similar_words,
)

__all__ = ["Overlay"]

#: The imagined statements. The tokenizer is the index's (`index.SCHEMA`'s notes_fts), so a
#: query matches here what it would match there; the other columns only filter.
OVERLAY_SCHEMA = """
CREATE VIRTUAL TABLE imagined USING fts5(
    text, path UNINDEXED, type UNINDEXED, subject UNINDEXED,
    tokenize='porter unicode61 remove_diacritics 2'
)
"""
#: A row keeps its rowid when it changes (a merge, as the index updates a note's row in place),
#: so "newest first" orders as the index does.
INSERT = "INSERT INTO imagined(rowid, text, path, type, subject) VALUES (?, ?, ?, ?, ?)"
UPDATE = "UPDATE imagined SET text = ?, type = ?, subject = ? WHERE rowid = ?"
DELETE = "DELETE FROM imagined WHERE rowid = ?"
#: `Index.similar`'s question: among the newest FTS5 matches, statements of one type and
#: subject, newest first, as many as the index returns.
SIMILAR = (
    """
SELECT path FROM (
    SELECT rowid, path, type, subject, text FROM imagined WHERE imagined MATCH :query
    ORDER BY rowid DESC LIMIT :window
) WHERE type = :type AND subject = :subject
ORDER BY """
    + SIMILAR_ORDER.format(text="text")
    + """, rowid DESC LIMIT :limit
"""
)
#: `Index.mentioning`'s: statements of a subject, of any type but reflections.
MENTIONING = """
SELECT path FROM (
    SELECT rowid, path, type, subject FROM imagined WHERE imagined MATCH :query
    ORDER BY rowid DESC LIMIT :window
) WHERE subject = :subject AND type != 'reflection'
ORDER BY rowid DESC LIMIT :limit
"""


class Overlay:
    """The statements a dry run imagined, by path: put, drop, and the index's look-ups.

    Returns paths only; the caller keeps the rows. Each look-up returns as many as the
    index's would; the imagined memories are newer than every note indexed, so the caller
    puts them first and fills up with the index's own rows to the same limit. (The one
    difference left: the index looks at its newest matches without the imagined ones, so
    where more than a window of them match, it may see a few older notes a real run would
    not.)
    """

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:")
        self._conn.execute(OVERLAY_SCHEMA)
        self._rowids: dict[str, int] = {}
        self._next = 1
        self._slot_of: dict[str, tuple[str, str]] = {}
        self._slots: dict[tuple[str, str], dict[str, None]] = {}

    def put(self, path: str, text: str, type: str, subject: str, key: str | None) -> None:
        """Imagine the memory at `path` (a new one, or a change to one imagined before)."""
        rowid = self._rowids.get(path)
        if rowid is None:
            rowid = self._rowids[path] = self._next
            self._next += 1
            self._conn.execute(INSERT, (rowid, text, path, type, subject))
        else:
            self._conn.execute(UPDATE, (text, type, subject, rowid))
        self._unslot(path)
        if key:
            self._slot_of[path] = (key, subject)
            self._slots.setdefault((key, subject), {})[path] = None

    def drop(self, path: str) -> None:
        """Forget the memory at `path` (superseded)."""
        rowid = self._rowids.pop(path, None)
        if rowid is not None:
            self._conn.execute(DELETE, (rowid,))
        self._unslot(path)

    def _unslot(self, path: str) -> None:
        slot = self._slot_of.pop(path, None)
        if slot is not None:
            self._slots[slot].pop(path, None)

    def similar(self, words: Sequence[str], *, type: str, subject: str) -> list[str]:
        """Imagined memories `Index.similar` would find, in its order."""
        query = similar_match(words)
        if query is None:
            return []
        params = {"query": query, "type": type, "subject": subject, "window": SIMILAR_WINDOW,
                  "limit": SIMILAR_LIMIT, **similar_words(words)}  # fmt: skip
        return [path for (path,) in self._conn.execute(SIMILAR, params)]

    def mentioning(self, words: Sequence[str], *, subject: str) -> list[str]:
        """Imagined memories `Index.mentioning` would find, newest first."""
        query = mentioning_match(words)
        if query is None:
            return []
        params = {"query": query, "subject": subject, "window": MENTIONING_WINDOW,
                  "limit": MENTIONING_LIMIT}  # fmt: skip
        return [path for (path,) in self._conn.execute(MENTIONING, params)]

    def by_key(self, key: str, subject: str) -> list[str]:
        """Imagined memories of a slot, newest first."""
        paths = self._slots.get((key, subject), {})
        return sorted(paths, key=self._rowids.__getitem__, reverse=True)[:BY_KEY_LIMIT]

    def close(self) -> None:
        self._conn.close()
