"""A note's row in the index, typed: what every feature reads of the index.

The index (index.py) owns the SQL; what its reads hand back is a `MemoryRow`, with the JSON
columns decoded once, here, and every other column as SQLite stores it. Features (the
pipeline's merge and conflict look-ups, the writer's patch functions, reflect, recall, manage,
the CLI) read attributes, never column names in strings, so a renamed column is a type error,
not a `KeyError` at a person's prompt.

A read may select only the columns it needs (the merge look-up reads eleven of twenty-seven);
the others keep their defaults (None, "", 0 or ()), so a partial row is still a `MemoryRow`.

A `NamedTuple`, not a frozen dataclass: recall builds one per candidate and reflect one per
member, and a frozen dataclass sets each of 27 fields through `object.__setattr__`, several
times the cost; the fields are in the table's column order, so a `SELECT *` row is made whole
(`bench.recall` measures it against the dict rows were before).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

__all__ = ["MemoryRow", "ScoredRow", "decode_list", "memory_rows", "row_maker"]


class MemoryRow(NamedTuple):
    """One row of `notes`: a note file as last indexed (a memory, a plain note, or an invalid
    one with its `error`). Immutable: a dry run's overlay makes new rows with `_replace`."""

    #: SQLite's row id (the FTS5 rowid); 0 when not selected.
    rowid: int = 0
    path: str = ""
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
        return _plan(tuple(row.keys()))(row)

    def __getitem__(self, key: Any) -> Any:
        """`row["title"]`, as rows read when they were dicts: deprecated, read `row.title`.
        Kept so a program written against `Hit.row` keeps working meanwhile. An int or a
        slice indexes the tuple, as for any tuple."""
        if not isinstance(key, str):
            return tuple.__getitem__(self, key)
        import warnings

        name = _FIELD_OF.get(key)
        if name is None:
            raise KeyError(key)
        warnings.warn(
            f"row[{key!r}] is deprecated; read row.{name} (MemoryRow)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(self, name)

    @property
    def is_memory(self) -> bool:
        """A valid memory (not a plain note, not an invalid one)."""
        return self.error is None and self.type is not None


#: A candidate and its bm25 score (negative-better, as FTS5 gives it).
ScoredRow = tuple[MemoryRow, float]

#: Column names to field names: the table's `id` is the row id (`id` would read as the
#: memory's id, which is `memory_id`).
_FIELD_OF = {name: name for name in MemoryRow._fields if name != "rowid"} | {"id": "rowid"}
_LISTS = frozenset({"sources", "observed"})
#: Text and number columns the table declares NOT NULL: a NULL there (an outer join, a
#: computed column) keeps the field's default rather than breaking its type.
_NOT_NULL = frozenset({"rowid", "path", "size", "mtime_ns", "hash", "title", "text", "body",
                       "tags", "aliases"})  # fmt: skip
#: `SELECT *` from `notes`: its columns in the table's order, which is `MemoryRow`'s.
_TABLE = ("id", *MemoryRow._fields[1:])
_SOURCES_AT, _OBSERVED_AT = _TABLE.index("sources"), _TABLE.index("observed")


@lru_cache(maxsize=64)
def _plan(columns: tuple[str, ...]) -> Any:
    """How to make a `MemoryRow` from a row with these columns (one plan per SQL statement).

    A row that starts with every column of the table in order (`SELECT *`, `n.*`, maybe with
    a score after) is made whole, its two JSON columns decoded; any other is made from the
    columns it has, by name."""
    if columns[: len(_TABLE)] == _TABLE:
        width = len(_TABLE)

        def whole(row: Any) -> MemoryRow:
            values = list(row[:width])
            values[_SOURCES_AT] = decode_list(values[_SOURCES_AT])
            values[_OBSERVED_AT] = decode_list(values[_OBSERVED_AT])
            return MemoryRow._make(values)

        return whole
    # Positions decided once per plan: a row is a copy of the defaults with its columns put
    # in place (recall makes one per candidate; keywords and a dict cost twice as much).
    defaults = [MemoryRow._field_defaults[name] for name in MemoryRow._fields]
    at = {name: i for i, name in enumerate(MemoryRow._fields)}
    plain: list[tuple[int, int]] = []
    lists: list[tuple[int, int]] = []
    not_null: list[tuple[int, int]] = []
    for i, column in enumerate(columns):
        field = _FIELD_OF.get(column)
        if field is None:
            continue
        kind = lists if field in _LISTS else not_null if field in _NOT_NULL else plain
        kind.append((i, at[field]))

    def by_name(row: Any) -> MemoryRow:
        values = defaults.copy()
        for i, j in plain:
            values[j] = row[i]
        for i, j in not_null:
            value = row[i]
            if value is not None:
                values[j] = value
        for i, j in lists:
            values[j] = decode_list(row[i])
        return MemoryRow._make(values)

    return by_name


def decode_list(value: object) -> tuple[str, ...]:
    """A JSON list column as a tuple of strings; anything else (damaged, NULL) is empty.

    The one place the index's JSON columns are decoded."""
    if isinstance(value, (list, tuple)):
        return tuple(map(str, value))
    if not isinstance(value, str) or not value:
        return ()
    try:
        loaded = json.loads(value)
    except ValueError:
        return ()
    return tuple(map(str, loaded)) if isinstance(loaded, list) else ()


def row_maker(cursor: sqlite3.Cursor) -> Callable[[Sequence[Any]], MemoryRow]:
    """How to make a `MemoryRow` from a plain row of the cursor's last statement (its
    description, read once): for a read that makes many rows, without `sqlite3.Row`'s keys
    asked of each. Columns that are not `notes` columns (a score) are left to the caller."""
    make: Callable[[Sequence[Any]], MemoryRow] = _plan(tuple(d[0] for d in cursor.description))
    return make


def memory_rows(rows: Iterable[sqlite3.Row]) -> list[MemoryRow]:
    """Every row of a cursor as a `MemoryRow`."""
    out: list[MemoryRow] = []
    make = None
    for row in rows:
        if make is None:
            make = _plan(tuple(row.keys()))
        out.append(make(row))
    return out
