"""A note's row in the index, typed: what every feature reads of the index.

The index (index.py) owns the SQL; what its reads hand back is a `MemoryRow`, with the JSON
columns decoded once, here, and every other column as SQLite stores it. Features (the
pipeline's merge and conflict look-ups, `Vault.edit`'s patch functions, reflect, recall,
manage, the CLI) read attributes, never column names in strings, so a renamed column is a
type error, not a `KeyError` at a person's prompt.

A read may select only the columns it needs (the merge look-up reads eleven of twenty-six);
the others keep their defaults (None, "" or ()), so a partial row is still a `MemoryRow`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["MemoryRow", "ScoredRow", "decode_list", "memory_rows"]


@dataclass(frozen=True, slots=True)
class MemoryRow:
    """One row of `notes`: a note file as last indexed (a memory, a plain note, or an invalid
    one with its `error`). Frozen: a dry run's overlay makes new rows with `replace`."""

    path: str
    #: SQLite's row id (the FTS5 rowid); 0 when not selected.
    rowid: int = 0
    size: int = 0
    mtime_ns: int = 0
    hash: str = ""
    memory_id: str | None = None
    type: str | None = None
    title: str = ""
    #: The statement: the body without its History.
    text: str = ""
    body: str = ""
    #: Space separated, as FTS5 reads them.
    tags: str = ""
    aliases: str = ""
    confidence: float | None = None
    importance: float | None = None
    durability: float | None = None
    evidence: str | None = None
    status: str | None = None
    created: str | None = None
    updated: str | None = None
    confirmed: str | None = None
    confirmations: int | None = None
    key: str | None = None
    subject: str | None = None
    sources: tuple[str, ...] = ()
    #: The sources plus the messages a contradiction it won was kept over (never learned twice).
    observed: tuple[str, ...] = ()
    sources_count: int | None = None
    error: str | None = None

    @classmethod
    def from_sqlite(cls, row: sqlite3.Row) -> MemoryRow:
        """A row as SQLite returned it (`sqlite3.Row`), whatever columns were selected;
        columns that are not `notes` columns (a score, a snippet) are left to the caller."""
        values: dict[str, Any] = {}
        for name in row.keys():  # noqa: SIM118 - sqlite3.Row iterates values, not names
            field = _COLUMN_FIELDS.get(name)
            if field is None:
                continue
            value = row[name]
            if field in _LISTS:
                value = decode_list(value)
            elif value is None and field in _NOT_NULL:
                continue  # keep the default: a LEFT JOIN or a plain note left it empty
            values[field] = value
        return cls(**values)

    def __getitem__(self, column: str) -> Any:
        """`row["title"]`, as rows read when they were dicts: deprecated, read
        `row.title`. Kept so a program written against `Hit.row` keeps working meanwhile."""
        import warnings

        name = _COLUMN_FIELDS.get(column)
        if name is None:
            raise KeyError(column)
        warnings.warn(
            f"row[{column!r}] is deprecated; read row.{name} (MemoryRow)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(self, name)

    @property
    def is_memory(self) -> bool:
        """A valid memory (not a plain note, not an invalid one)."""
        return self.error is None and self.type is not None


#: Column names to field names: `id` is the row id (`id` would shadow the memory's id).
_COLUMN_FIELDS = {f.name: f.name for f in fields(MemoryRow) if f.name != "rowid"} | {"id": "rowid"}
_LISTS = frozenset({"sources", "observed"})
_NOT_NULL = frozenset({"path", "rowid", "size", "mtime_ns", "hash", "title", "text", "body",
                       "tags", "aliases"})  # fmt: skip


def decode_list(value: object) -> tuple[str, ...]:
    """A JSON list column as a tuple of strings; anything else (damaged, NULL) is empty.

    The one place the index's JSON columns are decoded."""
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value)
    if not isinstance(value, str) or not value:
        return ()
    try:
        loaded = json.loads(value)
    except ValueError:
        return ()
    return tuple(str(v) for v in loaded) if isinstance(loaded, list) else ()


def memory_rows(rows: Iterable[sqlite3.Row]) -> list[MemoryRow]:
    """Every row of a cursor as a `MemoryRow`."""
    return [MemoryRow.from_sqlite(r) for r in rows]


#: A candidate and its bm25 score (negative-better, as FTS5 gives it).
ScoredRow = tuple[MemoryRow, float]
