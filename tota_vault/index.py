"""The SQLite index: a cache of the vault for search, recall and change detection.

One row per note file (`notes`), with the structured fields tota filters and ranks by, and an
external-content FTS5 table over title, statement, body, tags and aliases kept by triggers.
Nothing here is the truth: `PRAGMA user_version` names the schema, and any mismatch drops the
tables so the next sync rebuilds them from the files.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import IndexCorruptError, IndexError_, IndexReadOnlyError, QueryError, first_line
from .files import Fingerprint, make_dirs
from .model import SOURCES_COUNT_KEY, Memory, format_date, source_total
from .rows import MemoryRow, ScoredRow, decode_list, memory_rows, row_maker
from .text import fts_any, fts_quote
from .text import fts_phrase_query as fts_query
from .turns import TURNS_DROP, TURNS_SCHEMA, TurnStore

if TYPE_CHECKING:
    # The note parser (and PyYAML behind it) is not needed to read the index: a search
    # process never loads it (tests/test_startup.py).
    from .notes import ParsedNote

__all__ = [
    "SCHEMA_VERSION",
    "Hit",
    "Index",
    "IndexedFile",
    "IndexedStat",
    "NoteRecord",
    "PATCHABLE_COLUMNS",
    "fault_kind",
    "fts_query",
    "index_error",
    "mentioning_match",
    "record_from_note",
    "similar_match",
]

#: Bump on any schema change: the index is a cache, so a new version rebuilds from the files.
SCHEMA_VERSION = 15  # 15: the conversation turns (turns.py)

SCHEMA = """
-- An explicit INTEGER PRIMARY KEY: external-content FTS is keyed by rowid, and implicit rowids
-- are not stable across VACUUM.
CREATE TABLE notes (
    id            INTEGER PRIMARY KEY,
    path          TEXT NOT NULL UNIQUE,      -- vault-relative, '/' separated
    size          INTEGER NOT NULL,
    mtime_ns      INTEGER NOT NULL,
    hash          TEXT NOT NULL,             -- 'sha256:<hex>' of the file's bytes
    memory_id     TEXT,                      -- frontmatter id; NULL for plain or invalid notes
    type          TEXT,
    title         TEXT NOT NULL,             -- the file name without .md
    text          TEXT NOT NULL DEFAULT '',  -- the statement: body without its History
    body          TEXT NOT NULL DEFAULT '',
    tags          TEXT NOT NULL DEFAULT '',  -- space separated, for FTS
    aliases       TEXT NOT NULL DEFAULT '',
    confidence    REAL,
    importance    REAL,
    durability    REAL,
    evidence      TEXT,
    status        TEXT,
    created       TEXT,
    updated       TEXT,
    confirmed     TEXT,
    confirmations INTEGER,
    key           TEXT,
    subject       TEXT,
    sources       TEXT NOT NULL DEFAULT '[]', -- JSON list
    observed      TEXT NOT NULL DEFAULT '[]', -- JSON: sources + messages its History names
    sources_count INTEGER,                    -- every source it has had (model.source_total)
    error         TEXT                        -- why the note is not a valid memory; NULL if it is
);

CREATE VIRTUAL TABLE notes_fts USING fts5(
    title, text, body, tags, aliases,
    content='notes', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'  -- overlay.py's twin tokenizes alike
);

-- `rank` is bm25 with the same column weights as BM25 below, so `ORDER BY rank LIMIT n`,
-- FTS5's fast path, ranks as search does.
INSERT INTO notes_fts(notes_fts, rank) VALUES ('rank', 'bm25(10.0, 0.0, 1.0, 6.0, 6.0)');

-- The trigger trio. Deletes and updates must hand FTS5 the old values: a rowid-only 'delete'
-- leaves the old tokens behind without any error.
CREATE TABLE bulk_load (active INTEGER);
CREATE TRIGGER notes_ai AFTER INSERT ON notes WHEN NOT EXISTS (SELECT 1 FROM bulk_load) BEGIN
    INSERT INTO notes_fts(rowid, title, text, body, tags, aliases)
    VALUES (new.id, new.title, new.text, new.body, new.tags, new.aliases);
END;
CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, text, body, tags, aliases)
    VALUES ('delete', old.id, old.title, old.text, old.body, old.tags, old.aliases);
END;
-- Only when the text changed: a merge rewrites a row's frontmatter columns, and re-indexing
-- an unchanged body would cost an FTS delete and insert for nothing.
CREATE TRIGGER notes_au AFTER UPDATE OF title, text, body, tags, aliases ON notes
WHEN old.title IS NOT new.title OR old.text IS NOT new.text OR old.body IS NOT new.body
  OR old.tags IS NOT new.tags OR old.aliases IS NOT new.aliases
BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, text, body, tags, aliases)
    VALUES ('delete', old.id, old.title, old.text, old.body, old.tags, old.aliases);
    INSERT INTO notes_fts(rowid, title, text, body, tags, aliases)
    VALUES (new.id, new.title, new.text, new.body, new.tags, new.aliases);
END;

-- Which messages a memory has consumed (its sources, and contradictions its History names),
-- one row each, kept from the JSON list by triggers:
-- observing the same message twice must find it in O(log n), not by scanning every note.
CREATE TABLE sources (note_id INTEGER NOT NULL, source TEXT NOT NULL);
CREATE TRIGGER sources_ai AFTER INSERT ON notes BEGIN
    INSERT INTO sources (note_id, source) SELECT new.id, value FROM json_each(new.observed);
END;
-- Only the difference: a fact confirmed a thousand times must not rewrite a thousand rows.
CREATE TRIGGER sources_au AFTER UPDATE OF observed ON notes
WHEN old.observed IS NOT new.observed BEGIN
    DELETE FROM sources WHERE note_id = old.id
        AND source NOT IN (SELECT value FROM json_each(new.observed));
    INSERT INTO sources (note_id, source) SELECT new.id, value FROM json_each(new.observed)
        WHERE value NOT IN (SELECT value FROM json_each(old.observed));
END;
CREATE TRIGGER sources_ad AFTER DELETE ON notes BEGIN
    DELETE FROM sources WHERE note_id = old.id;
END;

-- The sources the cap left out of notes, as `<vault>/.tota-sources/<memory id>` lists them
-- (capped.py): still observed, and tombstoned when their memory is forgotten. By memory id,
-- as the files are named, so a note that moves or is re-parsed keeps them.
CREATE TABLE capped_sources (
    memory_id TEXT NOT NULL,
    source    TEXT NOT NULL,
    PRIMARY KEY (memory_id, source)
) WITHOUT ROWID;
-- The size and mtime of each of those files as read: a file is read again only when they change.
CREATE TABLE capped_files (memory_id TEXT PRIMARY KEY, stamp TEXT NOT NULL) WITHOUT ROWID;

-- Local state that is not in the files (when the last sync ran, ...).
CREATE TABLE state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

#: Secondary indexes. Created at every open if missing, and dropped during a cold bulk load:
#: filled in random key order, they cost more than the rows themselves at 100k notes; built
#: once at the end, they cost a sort. A crash mid-load leaves them to the next open.
SECONDARY_INDEXES = {
    # Not UNIQUE: a copied note repeats an id, and doctor must find both copies.
    "notes_memory_id": "ON notes(memory_id)",
    "notes_type_status": "ON notes(type, status)",
    "notes_key": "ON notes(key, subject, updated) WHERE key IS NOT NULL",
    "notes_title": "ON notes(title COLLATE NOCASE)",
    "notes_updated": "ON notes(updated)",
    "sources_source": "ON sources(source)",
    "sources_note": "ON sources(note_id)",
    "capped_sources_source": "ON capped_sources(source)",
    # Every sync asks for the invalid notes (`invalid`): a handful, not a scan of 100k rows.
    "notes_invalid": "ON notes(path) WHERE error IS NOT NULL",
}

DROP_ALL = """
DROP TRIGGER IF EXISTS sources_ai;
DROP TRIGGER IF EXISTS sources_au;
DROP TRIGGER IF EXISTS sources_ad;
DROP TABLE IF EXISTS sources;
DROP TABLE IF EXISTS capped_sources;
DROP TABLE IF EXISTS capped_files;
DROP TRIGGER IF EXISTS notes_ai;
DROP TRIGGER IF EXISTS notes_ad;
DROP TRIGGER IF EXISTS notes_au;
DROP TABLE IF EXISTS notes_fts;
DROP TABLE IF EXISTS notes;
DROP TABLE IF EXISTS state;
DROP TABLE IF EXISTS bulk_load;
"""

NOTE_COLUMNS = (
    "path", "size", "mtime_ns", "hash", "memory_id", "type", "title", "text", "body", "tags",
    "aliases", "confidence", "importance", "durability", "evidence", "status", "created",
    "updated", "confirmed", "confirmations", "key", "subject", "sources", "observed",
    "sources_count", "error",
)  # fmt: skip

#: The columns read back as text (a damaged byte in any of them fails the read).
TEXT_COLUMNS = tuple(
    c for c in NOTE_COLUMNS if c not in ("size", "mtime_ns", "confidence", "importance",
                                        "durability", "confirmations", "sources_count")
)  # fmt: skip
#: Upsert by path keeps the row id, so the FTS row is updated in place by the trigger.
UPSERT_NOTE = (
    f"INSERT INTO notes ({', '.join(NOTE_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in NOTE_COLUMNS)}) "
    "ON CONFLICT(path) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in NOTE_COLUMNS if c != "path")
)
#: While `bulk_load` has a row, new notes skip the per-row FTS trigger, and a bulk load indexes
#: the text of the rows it just inserted in one statement: about five times faster on SQLite
#: 3.40, whose FTS5 flushes its pending terms at every trigger's savepoint.
BULK_FTS = (
    "INSERT INTO notes_fts (rowid, title, text, body, tags, aliases) "
    "SELECT id, title, text, body, tags, aliases FROM notes WHERE id > ?"
)
#: Frontmatter keys whose patch `Index.update_row` applies to a row without a re-parse.
PATCHABLE_COLUMNS = frozenset(
    {"confidence", "confirmations", "confirmed", "updated", "sources", "status", "evidence",
     SOURCES_COUNT_KEY}
)  # fmt: skip
#: What `update_row` needs of a row to patch its sources as a parse would set them.
PATCH_SOURCES_ROW = "SELECT observed, sources, sources_count FROM notes WHERE path = ?"
#: Whether a message was consumed by a memory: listed in a note (or named by its History),
#: or left out of a note's list by the cap. A capped-out source counts only while its memory
#: has a note, as a listed one does (a note deleted by hand takes its sources with it).
OBSERVED = """
SELECT EXISTS (SELECT 1 FROM sources WHERE source = :source)
    OR EXISTS (SELECT 1 FROM capped_sources AS c JOIN notes AS n ON n.memory_id = c.memory_id
               WHERE c.source = :source)
"""
LISTED_SOURCES = "SELECT sources FROM notes WHERE path = ?"
CAPPED_OF = "SELECT source FROM capped_sources WHERE memory_id = ? ORDER BY source"
#: Every capped-out source of a memory that has a note (what `clear` tombstones).
CAPPED_OF_MEMORIES = """
SELECT c.source FROM capped_sources AS c
WHERE EXISTS (SELECT 1 FROM notes AS n WHERE n.memory_id = c.memory_id AND n.error IS NULL)
"""
ADD_CAPPED = "INSERT OR IGNORE INTO capped_sources (memory_id, source) VALUES (?, ?)"
DROP_CAPPED = "DELETE FROM capped_sources WHERE memory_id = ?"
SET_CAPPED_FILE = "INSERT OR REPLACE INTO capped_files (memory_id, stamp) VALUES (?, ?)"
DROP_CAPPED_FILE = "DELETE FROM capped_files WHERE memory_id = ?"
#: The name in `state` of the mtime of `.tota-sources/` when the tables last matched it.
CAPPED_STATE = "capped_sources_folder"
SET_STATE = "INSERT OR REPLACE INTO state (name, value) VALUES (?, ?)"
#: A move keeps the row (and so the memory's id and its FTS row); only the path and title change.
MOVE_NOTE = "UPDATE notes SET path = ?, title = ? WHERE path = ?"
#: `touch` and other stat-only changes: the content hash matched, so only size/mtime move.
TOUCH_NOTE = "UPDATE notes SET size = ?, mtime_ns = ? WHERE path = ?"
DELETE_NOTE = "DELETE FROM notes WHERE path = ?"
SYNC_ROWS = "SELECT path, size, mtime_ns, hash, memory_id FROM notes"
#: doctor's check. Not `quick_check`: it does not compare an index with its table, so a path
#: index with damaged bytes passes it, and every later upsert by path adds a second row.
#: `integrity_check` costs 3-5x more (0.03 s at 10k notes, 0.7 s at 100k; docs/benchmarks.md);
#: its first 10 findings are plenty to say the index is damaged.
INTEGRITY_CHECK = "PRAGMA integrity_check(10)"
#: A path held by two rows can only come from a damaged path index (it is UNIQUE). NOT
#: INDEXED: asking that index itself would not see what it lost.
REPEATED_PATHS = (
    "SELECT path FROM notes NOT INDEXED GROUP BY path HAVING count(*) > 1 ORDER BY path LIMIT 5"
)
#: A scan of the table itself, not of an index covering these three columns: that would halve
#: the read at 100k notes, but this scan is also what makes a sync notice a damaged table
#: (and rebuild it, tests/test_faults.py) when nothing changed.
STAT_ROWS = "SELECT path, size, mtime_ns FROM notes"

#: bm25 column weights (title, text, body, tags, aliases). The statement (`text`) is also in
#: the body, so its own column adds nothing to ranking (a weight of 4 measured slightly worse
#: on LoCoMo); it is there for the merge look-up, which must ignore the quoted message. A word
#: in the title or a tag says more
#: about what a note is than the same word deep in its body. Scores are negative-better.
BM25 = "bm25(notes_fts, 10.0, 0.0, 1.0, 6.0, 6.0)"
#: Snippet markers are control characters no note contains, so callers can style or escape the
#: text around them safely (rich markup would eat `[` and `]`).
MARK_START, MARK_END = "\x02", "\x03"
#: Best first; at a score equal to the four places `Hit.to_dict` shows (a word in every note
#: scores ~0 in all), an active memory before a superseded or archived one.
SEARCH = f"""
SELECT n.*, {BM25} AS score,
       snippet(notes_fts, 2, '{MARK_START}', '{MARK_END}', '…', 12) AS snippet
FROM notes_fts JOIN notes AS n ON n.id = notes_fts.rowid
WHERE notes_fts MATCH :query
  AND (:type IS NULL OR n.type = :type)
  AND (:include_archived OR n.status IS NULL OR n.status != 'archived')
ORDER BY round(score, 4), n.status IN ('superseded', 'archived'), score
LIMIT :limit
"""


#: How many of the look-up's first three words a statement holds, most first (`similar_words`
#: gives :w1-:w3); `overlay.py` orders a dry run's imagined memories by the same.
SIMILAR_ORDER = (
    "(instr(lower({text}), :w1) > 0) + (instr(lower({text}), :w2) > 0)"
    " + (instr(lower({text}), :w3) > 0) DESC"
)

#: Merge candidates: the best text matches among active memories of one type and subject.
#: The pairs of words keep the matches few, and the candidates are judged by rapidfuzz, not
#: by bm25: the inner query takes the newest 50 matches in rowid order (a posting-list walk,
#: no scoring) before any row of `notes` is read. Of those, a statement that holds more of the
#: three words comes first, then the newest: ten alike notes ("...'s friend Ana lives in Rome",
#: "... in Oslo", ...) must not push out of the first 8 the one a candidate repeats word for
#: word (`instr` over at most 50 rows; SQLite's `lower` folds ASCII only, enough for an order).
SIMILAR = (
    """
SELECT n.id, n.path, n.title, n.text, n.type, n.subject, n.key, n.confidence, n.updated,
       n.memory_id, n.status
FROM (
    SELECT rowid FROM notes_fts WHERE notes_fts MATCH :query ORDER BY rowid DESC LIMIT :window
) AS f JOIN notes AS n ON n.id = f.rowid
WHERE n.type = :type AND n.subject = :subject AND n.status = 'active' AND n.error IS NULL
ORDER BY """
    + SIMILAR_ORDER.format(text="n.text")
    + """, n.id DESC
LIMIT :limit
"""
)

#: A change of mind's look-up (`Index.mentioning`): like SIMILAR, statements only and the
#: newest matches first, but any type of memory of the subject (a plan dropped is a decision
#: over a goal).
MENTIONING = """
SELECT n.id, n.path, n.title, n.text, n.type, n.subject, n.key, n.confidence, n.updated,
       n.memory_id, n.status
FROM (
    SELECT rowid FROM notes_fts WHERE notes_fts MATCH :query ORDER BY rowid DESC LIMIT :window
) AS f JOIN notes AS n ON n.id = f.rowid
WHERE n.subject = :subject AND n.status = 'active' AND n.error IS NULL AND n.type != 'reflection'
ORDER BY n.id DESC
LIMIT :limit
"""


#: How many memories each look-up of the learning pipeline returns (the overlay of a dry run
#: returns as many: overlay.py).
SIMILAR_LIMIT = 8
MENTIONING_LIMIT = 12
BY_KEY_LIMIT = 3
#: The newest FTS5 matches a look-up filters by type and subject (`SIMILAR`, `MENTIONING`).
SIMILAR_WINDOW = 50
MENTIONING_WINDOW = 200


def similar_match(words: Sequence[str]) -> str | None:
    """The FTS5 query of the merge step's look-up (`Index.similar`): any two of the first
    three `words`, in statements only (the body also quotes the whole message, whose words
    would match a hundred times more notes for nothing); None without words."""
    terms = [fts_quote(w) for w in words if w][:3]
    if not terms:
        return None
    if len(terms) == 1:
        return f"text : ({terms[0]})"
    return "text : (" + " OR ".join(f"({a} AND {b})" for a, b in combinations(terms, 2)) + ")"


def similar_words(words: Sequence[str]) -> dict[str, str]:
    """The parameters of `SIMILAR_ORDER`: the look-up's first three words, lowercased (a word
    no statement holds, NUL, where there are fewer)."""
    first = [w.lower() for w in words if w][:3]
    return dict(zip(("w1", "w2", "w3"), [*first, "\x00", "\x00", "\x00"], strict=False))


def _any_in(column: str, phrases: Iterable[str]) -> str | None:
    """The FTS5 query for a note whose `column` holds one of `phrases`; None when none has a
    letter or digit (no token to match)."""
    kept = sorted({p for p in phrases if any(c.isalnum() for c in p)})
    return f"{column} : ({fts_any(kept)})" if kept else None


def mentioning_match(words: Sequence[str]) -> str | None:
    """The FTS5 query of a change of mind's look-up (`Index.mentioning`): any of `words`, in
    statements only; None without words."""
    terms = [w for w in words if w]
    return f"text : ({fts_any(terms)})" if terms else None


class IndexedStat(NamedTuple):
    """What the stat pass of a sync compares: a file's size and mtime as indexed."""

    size: int
    mtime_ns: int


class IndexedFile(NamedTuple):
    """What the index remembers of a file, to tell whether it changed (a tuple: a no-change
    sync builds one per note, 100k of them)."""

    size: int
    mtime_ns: int
    hash: str
    memory_id: str | None


@dataclass(frozen=True)
class NoteRecord:
    """One row of `notes`, ready to write."""

    values: tuple[Any, ...]

    @property
    def path(self) -> str:
        return self.values[0]


@dataclass(frozen=True)
class Hit:
    """One search result: the note's row and its rank."""

    row: MemoryRow
    score: float
    snippet: str

    @property
    def path(self) -> str:
        return self.row.path

    @property
    def memory_id(self) -> str | None:
        return self.row.memory_id

    def snippet_parts(self) -> list[tuple[str, bool]]:
        """The snippet as (text, matched) pieces, for output that styles matches."""
        parts: list[tuple[str, bool]] = []
        for i, chunk in enumerate(self.snippet.split(MARK_START)):
            if i == 0:
                parts.append((chunk, False))
                continue
            matched, _, rest = chunk.partition(MARK_END)
            parts.append((matched, True))
            if rest:
                parts.append((rest, False))
        return [(text, flag) for text, flag in parts if text]

    def plain_snippet(self, start: str = "", end: str = "") -> str:
        """The snippet with matches wrapped in `start`/`end` (nothing by default)."""
        return self.snippet.replace(MARK_START, start).replace(MARK_END, end)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view, as `--json` prints it."""
        row = self.row
        return {
            "id": row.memory_id,
            "path": row.path,
            "title": row.title,
            "type": row.type,
            "text": row.text,
            "confidence": row.confidence,
            "evidence": row.evidence,
            "status": row.status,
            "updated": row.updated,
            "score": round(-self.score, 4),
            "snippet": self.plain_snippet("**", "**"),
            "error": row.error,
        }


def record_from_note(note: ParsedNote, fingerprint: Fingerprint) -> NoteRecord:
    """Turn a parsed note and its file's fingerprint into a row of `notes`."""
    memory = note.memory
    if memory is None:
        tags = note.fields.get("tags")
        tag_text = " ".join(map(str, tags)) if isinstance(tags, list) else str(tags or "")
        values: tuple[Any, ...] = (
            note.path, fingerprint.size, fingerprint.mtime_ns, fingerprint.hash,
            str(note.fields["id"]) if isinstance(note.fields.get("id"), str) else None,
            note.fields.get("type") if isinstance(note.fields.get("type"), str) else None,
            note.title, note.body.strip(), note.body, tag_text, "",
            None, None, None, None, None, None, None, None, None, None, None,
            "[]", "[]", None, note.error,
        )  # fmt: skip
        return NoteRecord(values)
    values = (
        note.path, fingerprint.size, fingerprint.mtime_ns, fingerprint.hash,
        memory.id or None, memory.type.value, note.title, memory.text, note.body,
        " ".join(memory.tags), " ".join(memory.aliases),
        memory.confidence, memory.importance, memory.durability, memory.evidence.value,
        memory.status.value, format_date(memory.created), format_date(memory.updated),
        format_date(memory.confirmed), memory.confirmations, memory.key, memory.subject,
        json.dumps(list(memory.sources), ensure_ascii=False),
        json.dumps(_observed(memory.sources, _kept_over(memory)), ensure_ascii=False),
        source_total(memory), None,
    )  # fmt: skip
    return NoteRecord(values)


def _kept_over(memory: Memory) -> list[str]:
    from .history import KEPT_OVER_KEY, kept_over

    return kept_over(memory.extra.get(KEPT_OVER_KEY), memory.history)


def _observed(sources: Iterable[str], kept: Iterable[str]) -> list[str]:
    """A memory's sources plus the messages it was kept over (`history.kept_over`): every
    message that must not be learned from twice."""
    seen = dict.fromkeys(sources)  # ordered and O(1) membership: lists grow to thousands
    seen.update(dict.fromkeys(kept))
    return list(seen)


#: SQLite result codes (primary code in the low byte) that name what went wrong with the file.
SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT = 3, 8, 10, 11
SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 13, 14, 26
#: The file was deleted or replaced since it was opened (`tota watch` while someone deletes
#: `.tota/`): every write fails with this until the index is opened again.
SQLITE_READONLY_DBMOVED = 1032


def fault_kind(exc: BaseException) -> str | None:
    """What an error raised by an index query says about the index file.

    "corrupt" (damaged bytes, not a database, text that is not UTF-8), "moved" (deleted or
    replaced under an open connection), "readonly", "cantopen", "full", "io"; None when it
    says nothing about the file (a bad query, a lock held too long).
    """
    if isinstance(exc, UnicodeDecodeError):
        return "corrupt"  # only SQLite's text reaches here undecoded; see `Index.undecodable`
    if not isinstance(exc, sqlite3.DatabaseError):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    message = str(exc).lower()
    if code == SQLITE_READONLY_DBMOVED:
        return "moved"
    if primary in (SQLITE_CORRUPT, SQLITE_NOTADB) or "malformed" in message:
        return "corrupt"
    # Python's sqlite3 words a column that is not UTF-8 this way (an OperationalError).
    if "not a database" in message or "could not decode to utf-8" in message:
        return "corrupt"
    if primary == SQLITE_READONLY or "readonly database" in message:
        return "readonly"
    if primary in (SQLITE_CANTOPEN, SQLITE_PERM) or "unable to open" in message:
        return "cantopen"
    if primary == SQLITE_FULL or "disk is full" in message:
        return "full"
    if primary == SQLITE_IOERR or "disk i/o error" in message:
        return "io"
    return None


def index_error(exc: BaseException, path: Path, *, kind: str | None = None) -> IndexError_:
    """One line for a failed index operation: what is wrong with which file, what to do."""
    kind = kind or fault_kind(exc)
    reason = first_line(exc)
    error: IndexError_
    if kind == "corrupt":
        error = IndexCorruptError(
            f"{path}: the index is damaged ({reason}); run `tota reindex` to rebuild it from "
            "the notes"
        )
    elif kind in ("readonly", "cantopen"):
        error = IndexReadOnlyError(
            f"{path}: the index cannot be written ({reason}); make it and its folder writable "
            f"(chmod u+w {path} {path.parent}), or delete {path.parent} to rebuild it"
        )
    elif kind == "full":
        error = IndexError_(f"{path}: the disk is full ({reason}); free some space and retry")
    elif kind == "moved":
        error = IndexError_(f"{path}: the index was deleted or replaced while in use; retry")
    else:
        error = IndexError_(f"{path}: the index failed ({reason})")
    error.reason = reason  # type: ignore[attr-defined]
    return error


def _make_private(path: Path) -> None:
    """Create the index file 0600 before SQLite does (SQLite gives its -wal and -shm files the
    database's mode), and take group and world access off existing ones.

    A -wal or -shm left read-only (by a run against a read-only index) would keep every later
    command failing; when the index itself is writable they are made writable again.
    """
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    try:
        db_mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return  # cannot be created or seen: connecting says why
    for suffix in ("", "-wal", "-shm"):
        name = f"{path}{suffix}"
        try:
            mode = stat.S_IMODE(os.stat(name).st_mode)
        except OSError:
            continue
        wanted = mode & 0o700
        if suffix and db_mode & 0o200:
            wanted |= 0o600
        if wanted != mode:
            with contextlib.suppress(OSError):  # not ours to change: opening says what fails
                os.chmod(name, wanted)


def _connect(path: Path) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN IMMEDIATE ourselves; Python's implicit BEGIN is
    # deferred, and a deferred read-then-write fails at once with "database is locked" when
    # another connection committed meanwhile (busy_timeout does not apply to that upgrade).
    conn = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=True)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    # 32 MB of page cache: index pages stay in memory through a 100k-note load.
    conn.execute("PRAGMA cache_size=-32768")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """Open an index that cannot be written, for reading only: no WAL set-up, nothing created.

    `mode=ro` first; a WAL index whose folder is read-only has no -shm to share and cannot
    make one, so then `immutable=1` (no locks, no WAL): nobody can write it either, so
    nothing changes under the reader.
    """
    uri = Path(os.path.abspath(path)).as_uri()
    last: sqlite3.Error | None = None
    for options in ("mode=ro", "mode=ro&immutable=1"):
        conn = sqlite3.connect(f"{uri}?{options}", uri=True, timeout=10.0, isolation_level=None)
        try:
            conn.execute("PRAGMA user_version").fetchone()
        except sqlite3.Error as exc:
            conn.close()
            last = exc
            continue
        conn.row_factory = sqlite3.Row
        return conn
    assert last is not None
    raise last


class Index:
    """The index of one vault. Not thread-safe: one connection per thread, one writer thread."""

    def __init__(self, conn: sqlite3.Connection, path: Path, *, rebuilt: bool) -> None:
        self._conn = conn
        self.path = path
        #: True when opening found no index or an old schema and made a fresh, empty one.
        self.rebuilt = rebuilt
        #: True during a cold bulk load (see `begin_bulk_load`).
        self.bulk = False
        self._batch_depth = 0
        #: True when opened by `open_read_only`: any write fails (SQLite says "readonly").
        self.read_only = False
        #: Why it could not be opened for writing: the line `refuse_if_read_only` raises.
        self.read_only_reason: str | None = None

    @classmethod
    def open(cls, path: Path) -> Index:
        """Open (or create) the index at `path`; a schema mismatch starts it over empty."""
        make_dirs(path.parent)
        _make_private(path)
        conn: sqlite3.Connection | None = None
        try:
            conn = _connect(path)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            rebuilt = version != SCHEMA_VERSION
            if rebuilt:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(DROP_ALL + TURNS_DROP + SCHEMA + TURNS_SCHEMA):
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            index = cls(conn, path, rebuilt=rebuilt)
            index.ensure_indexes()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            raise index_error(exc, path) from None
        return index

    @classmethod
    def open_read_only(cls, path: Path, *, reason: str | None = None) -> Index:
        """Open an existing index that cannot be written (a read-only vault), to read it as
        last synced; `reason` is why it could not be opened for writing. Raises
        `IndexReadOnlyError` when there is none to read, or when it is of another schema (a
        rebuild would need to write it)."""
        try:
            conn = _connect_read_only(path)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise index_error(exc, path) from None
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            conn.close()
            raise IndexReadOnlyError(
                f"{path}: the index is of another tota version and cannot be rebuilt "
                f"(read-only); make it and its folder writable (chmod u+w {path} "
                f"{path.parent})"
            )
        index = cls(conn, path, rebuilt=False)
        index.read_only = True
        index.read_only_reason = reason
        return index

    def refuse_if_read_only(self) -> None:
        """Raise `IndexReadOnlyError` (why it was opened read-only) when this index cannot
        record a write: called before a note is written or patched, so that none is written
        that the index cannot hold (a search, a recall and a repeat check would not see it)."""
        if self.read_only:
            raise IndexReadOnlyError(self.read_only_reason or f"{self.path}: read-only")

    def ensure_indexes(self) -> None:
        """Create any missing secondary index; end a bulk load a crash left open."""
        with self.write() as conn:
            for name, spec in SECONDARY_INDEXES.items():
                conn.execute(f"CREATE INDEX IF NOT EXISTS {name} {spec}")
            if conn.execute("SELECT 1 FROM bulk_load").fetchone() is not None:
                conn.execute("DELETE FROM bulk_load")
                conn.execute("INSERT INTO notes_fts(notes_fts) VALUES ('rebuild')")

    def begin_bulk_load(self) -> None:
        """Prepare an empty index for a cold load: no secondary indexes, no per-row FTS."""
        with self.write() as conn:
            for name in SECONDARY_INDEXES:
                conn.execute(f"DROP INDEX IF EXISTS {name}")
            conn.execute("INSERT INTO bulk_load (active) VALUES (1)")
        self.bulk = True

    def end_bulk_load(self) -> None:
        """Finish a cold load: rebuild the secondary indexes, back to per-row triggers."""
        self.bulk = False
        with self.write() as conn:
            conn.execute("DELETE FROM bulk_load")
        self.ensure_indexes()

    def close(self) -> None:
        """Checkpoint the WAL into the database file and close."""
        # Another connection is reading (or the file is damaged): later, or never.
        with contextlib.suppress(sqlite3.DatabaseError):
            self.checkpoint()
        self._conn.close()

    @property
    def in_batch(self) -> bool:
        """Whether a `batch()` transaction is open on this index."""
        return self._batch_depth > 0

    def abandon(self) -> None:
        """Close without trusting the file: no checkpoint into an index that may be damaged
        or deleted under this connection."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken with BEGIN IMMEDIATE so it never fails half-way.

        Inside `batch()` it joins the batch's transaction instead.
        """
        if self._batch_depth:
            yield self._conn
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for many writes (a whole `observe` call): one commit, not one per
        note. The files are the truth: if the batch fails, its rows roll back and the next
        sync reads the notes it wrote."""
        if self._batch_depth:
            self._batch_depth += 1
            try:
                yield
            finally:
                self._batch_depth -= 1
            return
        self._conn.execute("BEGIN IMMEDIATE")
        self._batch_depth = 1
        try:
            yield
        except BaseException:
            self._batch_depth = 0
            self._conn.execute("ROLLBACK")
            raise
        self._batch_depth = 0
        self._conn.execute("COMMIT")

    # --- sync ------------------------------------------------------------------------------

    def _rows(self, sql: str, paths: Iterable[str] | None) -> list[tuple[Any, ...]]:
        """`sql`'s rows, for every note or just `paths`, as plain tuples (sqlite3.Row costs a
        third more at 100k rows)."""
        cursor = self._conn.cursor()
        cursor.row_factory = None
        if paths is None:
            return cursor.execute(sql).fetchall()
        wanted = list(paths)
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(wanted), 500):  # stay under SQLite's variable limit
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows += cursor.execute(f"{sql} WHERE path IN ({marks})", chunk).fetchall()
        return rows

    def stats(self, paths: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
        """Size and mtime of every indexed path (or just `paths`): all a no-change sync reads.

        Plain tuples, compared whole with the walk's (see `files.Snapshot`): an `IndexedStat`
        a row costs as much as reading the rows."""
        return {path: (size, mtime_ns) for path, size, mtime_ns in self._rows(STAT_ROWS, paths)}

    def files(self, paths: Iterable[str] | None = None) -> dict[str, IndexedFile]:
        """Every indexed path (or just `paths`) and what is known of its file."""
        rows = self._rows(SYNC_ROWS, paths)
        make = IndexedFile._make
        return {row[0]: make(row[1:]) for row in rows}

    def apply(
        self,
        *,
        upserts: Sequence[NoteRecord] = (),
        moves: Sequence[tuple[str, str, str]] = (),
        touches: Sequence[tuple[str, int, int]] = (),
        deletes: Iterable[str] = (),
    ) -> None:
        """Write one batch of changes in one transaction.

        `moves` are (old path, new path, new title); `touches` (path, size, mtime_ns).
        """
        with self.write() as conn:
            if moves:
                # Two phases, so a rename chain (a -> b while b -> c) never collides on path.
                for old, _new, _title in moves:
                    conn.execute(MOVE_NOTE, ("\x00moving\x00" + old, "", old))
                for old, new, title in moves:
                    conn.execute(DELETE_NOTE, (new,))
                    conn.execute(MOVE_NOTE, (new, title, "\x00moving\x00" + old))
            if touches:
                conn.executemany(TOUCH_NOTE, [(s, m, p) for p, s, m in touches])
            if upserts:
                if self.bulk:
                    before = conn.execute("SELECT coalesce(max(id), 0) FROM notes").fetchone()[0]
                    conn.executemany(UPSERT_NOTE, [r.values for r in upserts])
                    conn.execute(BULK_FTS, (before,))
                else:
                    conn.executemany(UPSERT_NOTE, [r.values for r in upserts])
            conn.executemany(DELETE_NOTE, [(p,) for p in deletes])

    def update_row(self, path: str, changes: dict[str, Any], fingerprint: Fingerprint) -> None:
        """Apply a frontmatter patch of `PATCHABLE_COLUMNS` to a row, as a parse would.

        Values are stored as the note renders and reads them (scores rounded to 4 places,
        dates in the note's form); `observed` gains the new sources. A test holds this to the
        row a full re-parse gives.
        """
        values: dict[str, Any] = {
            "size": fingerprint.size,
            "mtime_ns": fingerprint.mtime_ns,
            "hash": fingerprint.hash,
        }
        for name, value in changes.items():
            if name == "sources":
                values["sources"] = json.dumps([str(v) for v in value], ensure_ascii=False)
            elif name == "confidence":
                values[name] = round(float(value), 4)
            elif name in ("confirmations", SOURCES_COUNT_KEY):
                values[name] = int(value)
            elif name in ("updated", "confirmed"):
                values[name] = value if isinstance(value, str) else format_date(value)
            else:
                values[name] = str(value)
        with self.write() as conn:
            if "sources" in changes:
                row = conn.execute(PATCH_SOURCES_ROW, (path,)).fetchone()
                new = [str(v) for v in changes["sources"]]
                # A source the cap took out of the list leaves `observed` as a parse would
                # drop it (it is kept in `capped_sources`); the History's sources stay.
                left = set(decode_list(row[1]) if row else ()) - set(new)
                observed = {s: None for s in (decode_list(row[0]) if row else ()) if s not in left}
                observed.update(dict.fromkeys(new))
                values["observed"] = json.dumps(list(observed), ensure_ascii=False)
                if SOURCES_COUNT_KEY not in changes:
                    # The list alone changed: its count, unless the note's own was larger.
                    values[SOURCES_COUNT_KEY] = max(len(new), int((row[2] if row else 0) or 0))
            sets = ", ".join(f"{name} = :{name}" for name in values)
            conn.execute(f"UPDATE notes SET {sets} WHERE path = :path", {**values, "path": path})

    def optimize(self) -> None:
        """Merge FTS5 segments after a large sync (cheap later searches)."""
        with self.write() as conn:
            conn.execute("INSERT INTO notes_fts(notes_fts) VALUES ('optimize')")

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file and empty it (a file's size, read
        after this, is the index's size)."""
        self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def vacuum(self) -> None:
        """Rewrite the database file without its free pages (after a large delete)."""
        self._conn.execute("VACUUM")

    def set_state(self, name: str, value: str) -> None:
        """Record a piece of local state (e.g. when the last sync ran)."""
        with self.write() as conn:
            conn.execute("INSERT OR REPLACE INTO state (name, value) VALUES (?, ?)", (name, value))

    def get_state(self, name: str) -> str | None:
        """Read a piece of local state, or None."""
        row = self._conn.execute("SELECT value FROM state WHERE name = ?", (name,)).fetchone()
        return None if row is None else row[0]

    # --- reads -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        type: str | None = None,
        limit: int = 20,
        raw: bool = False,
        include_archived: bool = True,
    ) -> list[Hit]:
        """Full-text search; `raw=True` passes FTS5 query syntax through unchanged."""
        match = query if raw else fts_query(query)
        params = {
            "query": match,
            "type": type,
            "limit": limit,
            "include_archived": include_archived,
        }
        try:
            rows = self._conn.execute(SEARCH, params).fetchall()
        except sqlite3.OperationalError as exc:
            if fault_kind(exc) is not None:
                raise  # the file, not the query: the vault recovers or says so
            message = str(exc)
            hint = "" if not raw else "; drop --raw to search for the words as typed"
            raise QueryError(f"cannot search for {query!r}: {message}{hint}") from None
        return [Hit(MemoryRow.from_sqlite(r), r["score"], r["snippet"] or "") for r in rows]

    def get(self, *, memory_id: str | None = None, path: str | None = None) -> list[MemoryRow]:
        """The rows with this memory id, or at this path."""
        if memory_id is not None:
            return memory_rows(self._conn.execute(ROWS_WITH_ID, (memory_id,)))
        return memory_rows(self._conn.execute(ROW_AT, (path,)))

    def ids_with_prefix(self, prefix: str, *, limit: int = 2) -> list[tuple[str, str]]:
        """(memory id, path) of the notes whose id starts with `prefix` (ids are upper-case
        ULIDs, so the prefix is compared upper-cased). `limit` 2 is enough to tell unique."""
        upper = prefix.upper()
        # A range on the id index instead of LIKE: LIKE's escaping and case rules are not
        # wanted here, and the range uses the index on memory_id.
        rows = self._conn.execute(
            "SELECT memory_id, path FROM notes WHERE memory_id >= ? AND memory_id < ? "
            "ORDER BY memory_id LIMIT ?",
            (upper, upper + "\U0010ffff", limit),
        )
        return [(r[0], r[1]) for r in rows]

    def by_source(self, source: str) -> list[MemoryRow]:
        """Notes that cite this source (`<conversation>#<message>`)."""
        return memory_rows(self._conn.execute(BY_SOURCE, (source,)))

    def observed(self, source: str) -> bool:
        """Whether a memory has consumed this message (`<conversation>#<message>`): in its
        note's list, its History, or left out of the list by the cap (`capped.py`)."""
        return bool(self._conn.execute(OBSERVED, {"source": source}).fetchone()[0])

    def listed_sources(self, path: str) -> list[str]:
        """The sources the note at `path` listed when it was last indexed."""
        row = self._conn.execute(LISTED_SOURCES, (path,)).fetchone()
        return list(decode_list(row[0])) if row else []

    def capped_sources(self, memory_id: str | None = None) -> list[str]:
        """The sources the cap left out of a memory's note; without an id, those of every
        memory that has a valid note."""
        if memory_id is None:
            return [r[0] for r in self._conn.execute(CAPPED_OF_MEMORIES)]
        return [r[0] for r in self._conn.execute(CAPPED_OF, (memory_id,))]

    def capped_stamp(self) -> str | None:
        """The stamp of `.tota-sources/` when the capped tables last matched it (None: never)."""
        return self.get_state(CAPPED_STATE)

    def set_capped_stamp(self, stamp: str) -> None:
        """Record that the capped tables match `.tota-sources/` as it is at `stamp`."""
        with self.write() as conn:
            conn.execute(SET_STATE, (CAPPED_STATE, stamp))

    def capped_file_stamps(self) -> dict[str, str]:
        """Each `.tota-sources/<memory id>` file the tables hold, and its stamp as read."""
        return dict(self._conn.execute("SELECT memory_id, stamp FROM capped_files"))

    def load_capped_file(self, memory_id: str, sources: Sequence[str], stamp: str | None) -> None:
        """Replace a memory's capped-out sources with a file's whole list, read at `stamp`
        (None: the file is gone, and so are they)."""
        with self.write() as conn:
            conn.execute(DROP_CAPPED, (memory_id,))
            if stamp is None:
                conn.execute(DROP_CAPPED_FILE, (memory_id,))
                return
            conn.executemany(ADD_CAPPED, [(memory_id, s) for s in sources])
            conn.execute(SET_CAPPED_FILE, (memory_id, stamp))

    def add_capped_sources(self, memory_id: str, sources: Sequence[str], stamp: str) -> None:
        """Add the sources tota just appended to a memory's file, which now has `stamp`."""
        with self.write() as conn:
            conn.executemany(ADD_CAPPED, [(memory_id, s) for s in sources])
            conn.execute(SET_CAPPED_FILE, (memory_id, stamp))

    def by_key(self, key: str, subject: str) -> list[MemoryRow]:
        """Active memories that fill this slot for this subject, newest first (the conflict
        look-up; conflicts leave one active value, so a few rows are all there is to see)."""
        return memory_rows(self._conn.execute(BY_KEY, (key, subject)))

    def similar(
        self, words: list[str], *, type: str, subject: str, limit: int = SIMILAR_LIMIT
    ) -> list[MemoryRow]:
        """Active memories of a type and subject that share words with a statement.

        The merge step's candidate look-up: FTS5 narrows 100k notes to a handful, which are
        then compared with rapidfuzz; nothing ever compares all pairs. `words` come rarest
        first (longest, as a proxy); a near-duplicate shares most of its words, so it holds at
        least two of the first three: the query asks for any such pair, which a common word
        alone never satisfies.
        """
        query = similar_match(words)
        if query is None:
            return []
        params = {"type": type, "subject": subject, "limit": limit, "query": query,
                  "window": SIMILAR_WINDOW, **similar_words(words)}  # fmt: skip
        return memory_rows(self._conn.execute(SIMILAR, params))

    def title_taken(self, title: str) -> bool:
        """True when some note already has this title (Obsidian resolves links by name)."""
        return self.path_titled(title) is not None

    def path_titled(self, title: str) -> str | None:
        """The path of a note with this title (case-insensitive, as Obsidian links), or None."""
        row = self._conn.execute(FIRST_TITLED, (title,)).fetchone()
        return None if row is None else str(row[0])

    def invalid(self) -> list[tuple[str, str]]:
        """(path, reason) of every note that is not a valid memory."""
        return list(
            self._conn.execute(
                "SELECT path, error FROM notes WHERE error IS NOT NULL ORDER BY path"
            )
        )

    def duplicate_ids(self) -> dict[str, list[str]]:
        """Memory ids held by more than one note (a copied file), with their paths."""
        rows = self._conn.execute(
            "SELECT memory_id, path FROM notes WHERE memory_id IN "
            "(SELECT memory_id FROM notes WHERE memory_id IS NOT NULL "
            " GROUP BY memory_id HAVING count(*) > 1) ORDER BY memory_id, path"
        )
        out: dict[str, list[str]] = {}
        for memory_id, path in rows:
            out.setdefault(memory_id, []).append(path)
        return out

    def counts(self) -> dict[str, Any]:
        """Totals for status displays: notes, memories by type and evidence, invalid notes."""
        total = self._conn.execute("SELECT count(*) FROM notes").fetchone()[0]
        # Every memory by type (as ever), and apart by status: a superseded or archived one
        # is no memory recall uses, and a count that mixes them in says more than is known.
        by_type: dict[str, int] = {}
        by_type_status: dict[str, dict[str, int]] = {}
        by_status: dict[str, int] = {}
        for mtype, status, count in self._conn.execute(COUNT_BY_TYPE_AND_STATUS):
            status = status or "active"
            by_type[mtype] = by_type.get(mtype, 0) + count
            statuses = by_type_status.setdefault(mtype, {})
            statuses[status] = statuses.get(status, 0) + count
            by_status[status] = by_status.get(status, 0) + count
        by_evidence = dict(
            self._conn.execute(
                "SELECT evidence, count(*) FROM notes WHERE error IS NULL AND evidence IS NOT NULL "
                "GROUP BY evidence ORDER BY evidence"
            ).fetchall()
        )
        invalid = self._conn.execute(
            "SELECT count(*) FROM notes WHERE error IS NOT NULL"
        ).fetchone()
        return {
            "notes": total,
            "memories": sum(by_type.values()),
            "active": by_status.get("active", 0),
            "by_status": dict(sorted(by_status.items(), key=lambda kv: _status_order(kv[0]))),
            "by_type": by_type,
            "by_type_status": by_type_status,
            "by_evidence": by_evidence,
            "invalid": invalid[0],
        }

    def integrity_problems(self) -> list[str]:
        """Run SQLite's and FTS5's integrity checks and look for text that is not UTF-8;
        return what they report (empty if fine)."""
        problems = []
        try:
            rows = [r[0] for r in self._conn.execute(INTEGRITY_CHECK).fetchall()]
        except sqlite3.DatabaseError as exc:
            rows = [str(exc)]
        if rows != ["ok"]:
            problems.append(f"SQLite integrity_check: {'; '.join(rows)}")
        try:
            repeated = [r[0] for r in self._conn.execute(REPEATED_PATHS)]
        except sqlite3.DatabaseError as exc:
            repeated = []
            problems.append(f"cannot read the notes table ({exc})")
        if repeated:
            problems.append(
                f"{len(repeated)} path(s) indexed more than once, e.g. {repeated[0]} "
                "(a damaged path index)"
            )
        try:
            self._conn.execute("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
        except sqlite3.DatabaseError as exc:
            # FTS5 runs its check as a write: a read-only index cannot run it, and is not
            # damaged for that.
            if fault_kind(exc) not in ("readonly", "cantopen"):
                problems.append(f"FTS5 integrity-check: {exc}")
        bad_text = self.undecodable()
        if bad_text:
            problems.append(bad_text)
        return problems

    def undecodable(self) -> str | None:
        """Name the first row whose text is not UTF-8, or None.

        tota only ever stores Python strings, which SQLite keeps as valid UTF-8: text that does
        not decode was damaged on disk, and `quick_check` cannot see it (the record is sound).
        """
        previous = self._conn.text_factory
        self._conn.text_factory = bytes
        try:
            for row in self._conn.execute(f"SELECT id, {', '.join(TEXT_COLUMNS)} FROM notes"):
                for name, value in zip(TEXT_COLUMNS, row[1:], strict=True):
                    if isinstance(value, bytes):
                        try:
                            value.decode("utf-8")
                        except UnicodeDecodeError:
                            return f"row {row[0]}: {name} is not UTF-8 text (damaged bytes)"
        except sqlite3.DatabaseError as exc:
            return f"cannot read the notes table ({exc})"
        finally:
            self._conn.text_factory = previous
        return None

    def mentioning(
        self, words: list[str], *, subject: str, limit: int = MENTIONING_LIMIT
    ) -> list[MemoryRow]:
        """Active memories of a subject, of any type, whose statement holds any of `words`,
        newest first: what a change of mind may replace ("Mostly works from the café now"
        over "Works from the library most days", a decision over a goal). Asked only for a
        statement that says something changed, so it may cast a wider net than `similar`."""
        query = mentioning_match(words)
        if query is None:
            return []
        params = {"query": query, "subject": subject, "limit": limit, "window": MENTIONING_WINDOW}
        return memory_rows(self._conn.execute(MENTIONING, params))

    # --- maintenance reads (decay, reflect): streamed, only the columns a decision needs ----

    def decay_rows(
        self,
    ) -> Iterator[tuple[str, float | None, float | None, str | None, str | None]]:
        """(path, confidence, durability, confirmed, updated) of every active memory, one row
        at a time from the cursor: `tota decay` decides per row and keeps only the stale."""
        cursor = self._conn.cursor()
        cursor.row_factory = None
        yield from cursor.execute(DECAY_ROWS)

    def reflect_rows(self) -> Iterator[tuple[Any, ...]]:
        """The active memories reflections are planned from, one row at a time (columns
        `REFLECT_COLUMNS`)."""
        cursor = self._conn.cursor()
        cursor.row_factory = None
        return cursor.execute(REFLECT_ROWS)  # the cursor itself: no generator frame a row

    def reflection_rows(self) -> list[MemoryRow]:
        """Every active reflection note (tota's and a person's), with its body for its links."""
        return memory_rows(self._conn.execute(REFLECTIONS))

    def tota_reflection_rows(self) -> list[MemoryRow]:
        """tota's own active reflections (a `reflection/...` key), whole but for History."""
        return self._plain_rows(TOTA_REFLECTIONS)

    def person_reflection_links(self) -> list[MemoryRow]:
        """Path, subject, key and body of every other active reflection (a person's): what
        `reflect.covers_of` reads of them."""
        return self._plain_rows(PERSON_REFLECTION_LINKS)

    def _plain_rows(self, sql: str) -> list[MemoryRow]:
        """A statement's rows read as plain tuples and made into rows by one plan."""
        cursor = self._conn.cursor()
        cursor.row_factory = None
        rows = cursor.execute(sql).fetchall()
        return list(map(row_maker(cursor), rows)) if rows else []

    def reflection_by_key(self, key: str, subject: str) -> MemoryRow | None:
        """tota's reflection with this identity (`reflect.Group.key`), or None."""
        row = self._conn.execute(REFLECTION_BY_KEY, (key, subject)).fetchone()
        return None if row is None else MemoryRow.from_sqlite(row)

    def paths_titled(self, titles: Iterable[str]) -> list[str]:
        """The paths of the notes with these titles (case-insensitive, as Obsidian links)."""
        out: list[str] = []
        for title in sorted(set(titles)):
            out += [r[0] for r in self._conn.execute(PATHS_TITLED, (title,))]
        return out

    def person_reflections(
        self, subject: str, *, linking: Iterable[str] | None = None
    ) -> list[MemoryRow]:
        """A subject's active reflections that are not tota's (their links may cover a group).

        With `linking` (titles), only those whose body holds the words of one of them, a
        superset of the reflections that link one (a link's text is its title): what checking
        one group needs, found through the FTS index instead of reading every reflection (a
        vault may hold thousands, and observe checks a group each time a topic is due)."""
        titles = sorted(set(linking)) if linking is not None else None
        if titles and all(any(c.isalnum() for c in t) for t in titles):
            query = f"body : ({fts_any(titles)})"
            return memory_rows(self._conn.execute(PERSON_REFLECTIONS_LINKING, (query, subject)))
        return memory_rows(self._conn.execute(PERSON_REFLECTIONS, (subject,)))

    def naming(self, names: Iterable[str], *, subject: str) -> list[str]:
        """The statements of `subject`'s relationship memories that hold one of `names`."""
        query = _any_in("text", names)
        if query is None:
            return []
        return [text for (text,) in self._conn.execute(NAMING, (query, subject))]

    def reflections_linking(self, titles: Iterable[str]) -> list[MemoryRow]:
        """The active reflections whose body holds the words of one of `titles` (a superset of
        those that link one: the caller checks the links); none for titles without a word."""
        query = _any_in("body", titles)
        return (
            [] if query is None else memory_rows(self._conn.execute(REFLECTIONS_LINKING, (query,)))
        )

    def rows_at(self, paths: Sequence[str], *, columns: str = "*") -> list[MemoryRow]:
        """The rows of these paths (`columns`, by default all), in no particular order."""
        out: list[MemoryRow] = []
        cursor = self._conn.cursor()
        cursor.row_factory = None  # plain tuples, made into rows by one plan (decay reads 50k)
        for start in range(0, len(paths), 500):  # stay under SQLite's variable limit
            chunk = list(paths[start : start + 500])
            marks = ", ".join("?" for _ in chunk)
            rows = cursor.execute(ROWS_AT.format(columns=columns, marks=marks), chunk).fetchall()
            if rows:
                make = row_maker(cursor)
                out += map(make, rows)
        return out

    # --- recall and the manager's lists -------------------------------------------------

    def count_matches(self, expression: str, cap: int) -> int:
        """How many notes an FTS5 expression matches, counted only up to `cap` (cheap)."""
        return int(self._conn.execute(COUNT_UP_TO, (expression, cap)).fetchone()[0])

    def recall_candidates(
        self,
        match: str,
        *,
        type: str | None,
        include_archived: bool,
        limit: int,
        by_topic: bool = False,
        scored: int | None = None,
    ) -> list[ScoredRow]:
        """Memories an FTS5 expression matches, with bm25 (negative-better), best first; with
        `by_topic` the newest matches, unscored (0.0: see `RECALL_BY_TOPIC`). With `scored`,
        the best of the newest `scored` matches only (`RECALL_NEWEST`): bm25 scores every
        match it is given, so a query of common words costs what it matches."""
        params = {
            "query": match, "type": type, "include_archived": include_archived,
            "limit": limit, "fetch": 2 * limit, "scored": scored,
        }  # fmt: skip
        sql = RECALL_BY_TOPIC if by_topic else RECALL if scored is None else RECALL_NEWEST
        cursor = self._conn.cursor()
        cursor.row_factory = None  # plain tuples; the plan reads them by position
        rows = cursor.execute(sql, params).fetchall()
        if not rows:
            return []
        make = row_maker(cursor)
        return [(make(r), float(r[-1])) for r in rows]

    def profile_rows(self, limit: int) -> list[MemoryRow]:
        """Durable, important identity, preference and constraint memories, and the health of
        the people the person tells of (`PROFILE`)."""
        return memory_rows(self._conn.execute(PROFILE, {"limit": limit}))

    def recent_rows(self, limit: int, offset: int = 0) -> list[MemoryRow]:
        """Active memories, the most recently changed first (`RECENT`)."""
        return memory_rows(self._conn.execute(RECENT, {"limit": limit, "offset": offset}))

    def memory_files(self) -> list[MemoryRow]:
        """Path, hash and sources of every note that is a memory: what Clear All deletes."""
        return memory_rows(self._conn.execute(MEMORY_FILES))

    def id_neighbours(self, memory_id: str) -> tuple[str | None, str | None]:
        """The ids just before and just after `memory_id` in sorted order (see `ID_BEFORE`)."""
        before = self._conn.execute(ID_BEFORE, (memory_id,)).fetchone()[0]
        after = self._conn.execute(ID_AFTER, (memory_id,)).fetchone()[0]
        return before, after

    def note_texts(self) -> Iterator[MemoryRow]:
        """Path, title, body and sources of every note, in path order, one at a time."""
        for row in self._conn.execute(NOTE_TEXTS):
            yield MemoryRow.from_sqlite(row)

    def journal_mode(self) -> str:
        """SQLite's journal mode for this index (`wal` unless opened read-only elsewhere)."""
        return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0])

    def turns(self) -> TurnStore:
        """The conversation turns kept beside the notes (turns.py), on this connection and in
        this index's write transactions (so inside `batch()`, in the batch's)."""
        return TurnStore(self._conn, self.write)


def _statements(script: str) -> list[str]:
    """Split a schema script into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    current: list[str] = []
    for line in script.splitlines():
        stripped = line.strip()
        if stripped.startswith("--") or not stripped:
            continue
        current.append(line)
        joined = "\n".join(current)
        if stripped.endswith(";") and sqlite3.complete_statement(joined):
            statements.append(joined)
            current = []
    return statements


# --- maintenance reads (decay, reflect) --------------------------------------------------------

#: Rows by path, a chunk at a time (`columns` and `marks` filled in by `Index.rows_at`).
ROWS_AT = "SELECT {columns} FROM notes WHERE path IN ({marks})"
#: What `tota decay` shows of a stale memory (recall.Recalled): no body, no History.
SHOWN_COLUMNS = (
    "path, memory_id, type, title, text, subject, sources, confidence, importance, durability, "
    "evidence, status, updated, confirmed, tags"
)
#: `tota decay`: what the effective confidence needs, of every active memory, and nothing else
#: (no text: deciding must not cost a parse or a stem of any note; issue #15).
DECAY_ROWS = """
SELECT path, confidence, durability, confirmed, updated FROM notes
WHERE error IS NULL AND type IS NOT NULL AND status = 'active'
"""
#: What a reflection plan needs of a memory: who it is about, its slot, its tags and its
#: statement (a person's note may have no topic tags: its topics come from the statement).
REFLECT_COLUMNS = ("path", "subject", "key", "type", "confidence", "tags", "text")
#: Reflections are left out here, not by `reflect.member_of`: never members, and a vault holds
#: thousands, each read with its statement for nothing (issue #15).
REFLECT_ROWS = f"""
SELECT {", ".join(REFLECT_COLUMNS)} FROM notes
WHERE error IS NULL AND type IS NOT NULL AND type != 'reflection' AND status = 'active'
"""
#: What a reflection reads of each member it links (`reflect.reflection_memory`): no body,
#: no History.
GROUP_COLUMNS = "path, title, text, type, created, confidence, sources"
#: What titling a new reflection reads of each member (a dry run writes nothing more).
STATEMENT_COLUMNS = "path, title, text"
#: Reflections already written: tota's (found again by key) and a person's (which may cover a
#: group: their links are in the body).
REFLECTIONS = """
SELECT path, title, text, body, subject, key, confidence, evidence, sources, created, updated,
       memory_id
FROM notes WHERE error IS NULL AND type = 'reflection' AND status = 'active' ORDER BY path
"""
#: `tota reflect` reads the two kinds apart: tota's own whole (a plan is compared with it),
#: and of a person's only what a cover needs, the links in its body (a vault may hold
#: thousands; issue #15). tota's key starts `reflection/`, as `reflect.covers_of` reads it
#: (case and all: `substr`, not `LIKE`).
TOTA_REFLECTIONS = """
SELECT path, title, text, body, subject, key, confidence, evidence, sources, created, updated,
       memory_id
FROM notes WHERE error IS NULL AND type = 'reflection' AND status = 'active'
  AND substr(key, 1, 11) = 'reflection/'
ORDER BY path
"""
PERSON_REFLECTION_LINKS = """
SELECT path, subject, key, body
FROM notes WHERE error IS NULL AND type = 'reflection' AND status = 'active'
  AND (key IS NULL OR substr(key, 1, 11) != 'reflection/')
ORDER BY path
"""
REFLECTION_BY_KEY = """
SELECT path, title, text, body, subject, key, confidence, evidence, sources, created, updated,
       memory_id
FROM notes WHERE key = ? AND subject = ? AND type = 'reflection' AND status = 'active'
  AND error IS NULL
ORDER BY path LIMIT 1
"""
#: Notes by title, as a `[[link]]` finds them (the title index is NOCASE).
PATHS_TITLED = "SELECT path FROM notes WHERE title = ? COLLATE NOCASE"
#: A subject's reflections that tota did not write (no `reflection/...` key of its own).
PERSON_REFLECTIONS = """
SELECT path, title, body, subject, key FROM notes
WHERE type = 'reflection' AND status = 'active' AND error IS NULL
  AND coalesce(subject, 'user') = ? AND coalesce(key, '') NOT LIKE 'reflection/%'
"""
#: The same, of the reflections whose body holds one of some titles' words (a title without a
#: letter or digit has no FTS token, so `person_reflections` reads them all then). The FTS
#: match runs first, in its own subquery: joined plainly, SQLite's planner walks the
#: reflections by `notes_type_status` and runs the match once per row (3.5 s at 100k notes).
PERSON_REFLECTIONS_LINKING = """
SELECT n.path, n.title, n.body, n.subject, n.key
FROM (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?) AS f CROSS JOIN notes AS n
  ON n.id = f.rowid
WHERE n.type = 'reflection' AND n.status = 'active' AND n.error IS NULL
  AND coalesce(n.subject, 'user') = ? AND coalesce(n.key, '') NOT LIKE 'reflection/%'
"""

#: Every active reflection, tota's or a person's, whose body holds the words of one of some
#: titles (`Index.reflections_linking`: a superset of those that link one), the FTS match
#: first in its own subquery as above.
REFLECTIONS_LINKING = """
SELECT n.*
FROM (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?) AS f CROSS JOIN notes AS n
  ON n.id = f.rowid
WHERE n.type = 'reflection' AND n.status = 'active' AND n.error IS NULL
ORDER BY n.path
"""

#: The statements of a subject's relationship memories that hold one of some names (newest
#: 200 matches): the people a person named in an earlier turn ("The user's son Theo is 6."),
#: for a later "Theo is allergic to peanuts" (`Index.naming`).
NAMING = """
SELECT n.text
FROM (
    SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rowid DESC LIMIT 200
) AS f CROSS JOIN notes AS n ON n.id = f.rowid
WHERE n.type = 'relationship' AND n.status = 'active' AND n.error IS NULL AND n.subject = ?
"""


# --- reads by id, path, source and key ----------------------------------------------------

ROWS_WITH_ID = "SELECT * FROM notes WHERE memory_id = ? ORDER BY path"
ROW_AT = "SELECT * FROM notes WHERE path = ?"
#: Through the sources table (one row per cited message), not a scan of every JSON list.
BY_SOURCE = "SELECT n.* FROM sources AS s JOIN notes AS n ON n.id = s.note_id WHERE s.source = ?"
#: The conflict look-up: conflicts leave one active value a slot, so three rows are plenty.
BY_KEY = """
SELECT * FROM notes WHERE key = ? AND subject = ? AND status = 'active' AND error IS NULL
ORDER BY updated DESC LIMIT 3  -- BY_KEY_LIMIT
"""
#: The title index is NOCASE, as Obsidian resolves a `[[link]]`.
FIRST_TITLED = "SELECT path FROM notes WHERE title = ? COLLATE NOCASE LIMIT 1"

# --- recall ---------------------------------------------------------------------------------

#: What recall reads of a candidate: what its ranking and its result (`recall.Recalled`) need,
#: and no more. Not the body (the statement again, and its History) or the hashes: fifty or
#: more candidates are read for every message, and no result shows those columns.
RECALL_COLUMNS = (
    "n.path, n.memory_id, n.type, n.title, n.text, n.tags, n.aliases, n.subject, n.sources, "
    "n.confidence, n.importance, n.durability, n.evidence, n.status, n.updated, n.confirmed"
)
#: What a recall may return, of a `notes` row named `{n}`: a memory (not a plain or invalid
#: note), of the type asked for, active unless archived ones are asked for.
RECALLABLE = (
    "{n}.error IS NULL AND {n}.type IS NOT NULL AND (:type IS NULL OR {n}.type = :type) "
    "AND ({n}.status = 'active' OR :include_archived)"
)
#: Recall candidates: full-text matches among memories (not plain or invalid notes), with the
#: statuses asked for.
#: FTS5 ranks its own matches first (bm25 with the index's column weights), and only the best
#: are joined to `notes` and filtered. Twice the candidates are fetched so that filtered-out
#: rows (archived, other types) rarely starve the list. bm25 is named in the select list and
#: ordered by, not read as `rank`: the same scores in the same order, at about three quarters
#: of the CPU time (the inner query for 10 of bench.recall's messages at 100k: 49.3 ms,
#: against 64.5 ms by `ORDER BY rank`).
RECALL = f"""
SELECT {RECALL_COLUMNS}, f.score AS score FROM (
    SELECT rowid, {BM25} AS score FROM notes_fts WHERE notes_fts MATCH :query
    ORDER BY score LIMIT :fetch
) AS f JOIN notes AS n ON n.id = f.rowid
WHERE {RECALLABLE.format(n="n")}
ORDER BY f.score
LIMIT :limit
"""
#: RECALL with bm25's work bounded (`recall.plan_match`, a message of common words only): only
#: the newest `:scored` memories the recall may return (of the type asked for, active unless
#: archived ones are asked for) are scored: those from the rowid of the `:scored`-th newest
#: such match up. FTS5 takes the rowid bound as a range on its posting lists, and the filters
#: are applied before bm25 is computed (FTS5 first, by CROSS JOIN), so no other row gets a
#: score; bm25's values are as in RECALL. The bound is found by walking the posting list
#: newest first, unscored. Counted over every match, a typed recall found none of its type
#: among the newest 500 and came back empty; filtered after a fixed fetch, it came back short.
#: "Newest" is the order tota indexed them (as it learned them, or as a first sync read
#: them), as for the topic candidates below.
RECALL_NEWEST = f"""
SELECT {RECALL_COLUMNS}, {BM25} AS score
FROM notes_fts CROSS JOIN notes AS n ON n.id = notes_fts.rowid
WHERE notes_fts MATCH :query
  AND notes_fts.rowid >= coalesce((
      SELECT b.rowid FROM notes_fts AS b CROSS JOIN notes AS m ON m.id = b.rowid
      WHERE b.notes_fts MATCH :query AND {RECALLABLE.format(n="m")}
      ORDER BY b.rowid DESC LIMIT 1 OFFSET :scored - 1
  ), 0)
  AND {RECALLABLE.format(n="n")}
ORDER BY score
LIMIT :limit
"""
#: Candidates by topic alone: they get no text relevance, so bm25 order is not needed, and
#: FTS5 walks its posting list newest first (`ORDER BY rowid DESC`) instead of scoring every
#: match: a topic can tag tens of thousands of memories in a large vault (p95 31.6 ms at 100k
#: when ranked by bm25, docs/benchmarks.md). The newest memories of the topic are the ones kept.
RECALL_BY_TOPIC = f"""
SELECT {RECALL_COLUMNS}, 0.0 AS score FROM (
    SELECT rowid FROM notes_fts WHERE notes_fts MATCH :query ORDER BY rowid DESC LIMIT :fetch
) AS f JOIN notes AS n ON n.id = f.rowid
WHERE {RECALLABLE.format(n="n")}
LIMIT :limit
"""
#: How many notes a term matches, counted only up to a cap (a cheap walk of its posting list).
COUNT_UP_TO = "SELECT count(*) FROM (SELECT 1 FROM notes_fts WHERE notes_fts MATCH ? LIMIT ?)"
#: `Index.counts`: valid memories by type and status, types in order.
COUNT_BY_TYPE_AND_STATUS = """
SELECT type, status, count(*) FROM notes WHERE error IS NULL AND type IS NOT NULL
GROUP BY type, status ORDER BY type, status
"""


def _status_order(status: str) -> tuple[int, str]:
    """Active first, then superseded, archived, and any other status by name."""
    known = ("active", "superseded", "archived")
    return (known.index(status), "") if status in known else (len(known), status)


#: The profile: durable, important facts an assistant should always know. The health of the
#: people the person tells of is one ("The user's daughter Ivy is allergic to shellfish": a
#: relationship memory, tagged `topic/health` by tota or `health` by the person): what an
#: assistant plans a dinner around.
PROFILE = """
SELECT * FROM notes
WHERE error IS NULL AND status = 'active'
  AND (type IN ('identity', 'preference', 'constraint')
       OR (type = 'relationship' AND (' ' || tags || ' ' LIKE '% topic/health %'
                                      OR ' ' || tags || ' ' LIKE '% topic/health/%'
                                      OR ' ' || tags || ' ' LIKE '% health %')))
  AND durability >= 0.7 AND importance >= 0.5
ORDER BY importance * confidence DESC, updated DESC
LIMIT :limit
"""

# --- the manager and doctor -------------------------------------------------------------

#: The last memories, newest change first: what the person has just taught tota.
RECENT = """
SELECT * FROM notes
WHERE error IS NULL AND memory_id IS NOT NULL AND status = 'active'
ORDER BY updated DESC, created DESC, path
LIMIT :limit OFFSET :offset
"""
#: Every note that is a memory (valid, with an id): what Clear All deletes, and nothing else.
MEMORY_FILES = "SELECT path, hash, sources FROM notes WHERE memory_id IS NOT NULL AND error IS NULL"
#: The ids just before and just after one id in sorted order, through the index on memory_id
#: (two O(log n) seeks). A prefix is unique once it is longer than what the id shares with
#: either neighbour, so these two decide an id's shortest unique prefix at any vault size.
ID_BEFORE = "SELECT max(memory_id) FROM notes WHERE memory_id < ?"
ID_AFTER = "SELECT min(memory_id) FROM notes WHERE memory_id > ?"
#: doctor's scan for stored secrets: read from the index, not the files, as it is what recall
#: serves. Path order, for a stable report.
NOTE_TEXTS = "SELECT path, title, body, sources FROM notes ORDER BY path"
