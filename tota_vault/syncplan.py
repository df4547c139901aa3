"""What a sync decides, as pure functions over plain data: no files, no SQL.

`reconcile` (sync.py) reads the vault and the index, asks these functions what to do, and
applies their answers to the index. Each step narrows the work for the next:

1. `plan_scan`: stat alone. Same size and mtime as indexed is unchanged; the rest is read.
2. `plan_batch`: for a batch of the paths read, their content hashes (or why they could not be
   read) against the index: unchanged bytes (a touch), bytes moved from a vanished path,
   bytes to parse, notes to look at again later, and notes that cannot be read.
3. `match_moves`: for the notes parsed, a new path holding a vanished path's memory id is that
   note moved (and edited).

Tested with plain data (tests/test_sync.py, and the convergence property in
tests/test_properties.py, which applies these decisions to plain data the way `reconcile`
applies them to the index).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .files import FileStat
from .index import IndexedFile, IndexedStat

__all__ = [
    "BatchPlan",
    "ReadPlan",
    "ScanPlan",
    "match_moves",
    "plan_batch",
    "plan_reads",
    "plan_scan",
    "stub_hash",
    "vanished_by_hash",
    "vanished_ids",
]

#: What the stat pass compares: a size and an mtime (ns) first, whatever follows. The walk
#: and the index give plain (size, mtime_ns) tuples (a no-change sync of 100k notes builds 200k
#: of them); tests and doctor pass `FileStat`, `IndexedStat` or `IndexedFile`.
Stamped = tuple[int, int] | FileStat | IndexedStat | IndexedFile

#: The "hash" of an index row that holds no note text, only why the file cannot be read.
STUB_PREFIX = "unreadable:"


@dataclass(frozen=True)
class ScanPlan:
    """What a stat pass decided: which paths need reading and which vanished."""

    unchanged: tuple[str, ...]
    to_read: tuple[str, ...]
    vanished: tuple[str, ...]


@dataclass(frozen=True)
class ReadPlan:
    """What hashing decided for the paths that were read."""

    touches: tuple[str, ...]  # same bytes as indexed: update size/mtime only
    moves: tuple[tuple[str, str], ...]  # (vanished path, new path) with identical bytes
    to_parse: tuple[str, ...]  # new or changed bytes


@dataclass(frozen=True)
class BatchPlan:
    """What a batch of read paths needs, before any is parsed."""

    reads: ReadPlan
    #: (path, when to look again): a note caught empty mid-save; its row stays as it was.
    deferred: tuple[tuple[str, float], ...] = ()
    #: (path, reason): read before, not now (chmod 000): the row keeps its last good text.
    unreadable: tuple[tuple[str, str], ...] = ()
    #: (path, reason): cannot be read and no text is indexed: a row that only names why.
    stubs: tuple[tuple[str, str], ...] = ()
    #: Paths whose stub row already names the same reason: nothing to write.
    unchanged: int = 0


def plan_scan(snapshot: Mapping[str, Stamped], indexed: Mapping[str, Stamped]) -> ScanPlan:
    """Decide from stat alone: same size and mtime as indexed means unchanged."""
    unchanged: list[str] = []
    to_read: list[str] = []
    get = indexed.get
    matched = 0  # indexed paths the walk found: when all were, none vanished
    for path, st in snapshot.items():
        known = get(path)
        if known is None:
            to_read.append(path)
            continue
        matched += 1
        # Plain tuples compare whole, in C; the named ones by their first two fields.
        if known == st or (known[0] == st[0] and known[1] == st[1]):
            unchanged.append(path)
        else:
            to_read.append(path)
    vanished = [] if matched == len(indexed) else [p for p in indexed if p not in snapshot]
    # Unchanged paths are only counted: sorting 100k of them would be a no-change sync's
    # biggest cost after the stat pass.
    return ScanPlan(tuple(unchanged), tuple(sorted(to_read)), tuple(sorted(vanished)))


def vanished_by_hash(
    vanished: Iterable[str], indexed: Mapping[str, IndexedFile]
) -> dict[str, list[str]]:
    """hash -> the vanished paths that held those bytes, for `plan_reads` to claim as moves."""
    by_hash: dict[str, list[str]] = {}
    for path in vanished:
        by_hash.setdefault(indexed[path].hash, []).append(path)
    return by_hash


def vanished_ids(vanished: Iterable[str], indexed: Mapping[str, IndexedFile]) -> dict[str, str]:
    """path -> memory id of the vanished paths that held a memory, for `match_moves`."""
    return {p: memory_id for p in vanished if (memory_id := indexed[p].memory_id)}


def plan_reads(
    read: Mapping[str, str],
    indexed: Mapping[str, IndexedFile],
    vanished_by_hash: dict[str, list[str]],
) -> ReadPlan:
    """Decide from content hashes: unchanged bytes, moved bytes, or bytes to parse.

    `read` maps each path read to its hash. `vanished_by_hash` (hash -> vanished paths) is
    consumed as moves are claimed, so each vanished note moves at most once.
    """
    touches: list[str] = []
    moves: list[tuple[str, str]] = []
    to_parse: list[str] = []
    for path, digest in read.items():
        known = indexed.get(path)
        if known is not None and known.hash == digest:
            touches.append(path)
        elif known is None and vanished_by_hash.get(digest):
            moves.append((vanished_by_hash[digest].pop(0), path))
        else:
            to_parse.append(path)
    return ReadPlan(tuple(touches), tuple(moves), tuple(to_parse))


def stub_hash(reason: str) -> str:
    """The "hash" of a stub row: its reason, so a sync writes it again only when that changes."""
    return STUB_PREFIX + reason


def settling(st: FileStat, known: IndexedFile | None, *, quiet: float, now: float) -> bool:
    """True for a note caught empty mid-save (truncate, then write) that had text: keep the
    old row and look again once the file has been quiet, rather than drop it from search."""
    return (
        quiet > 0
        and st.size == 0
        and known is not None
        and known.size > 0
        and now - st.mtime_ns / 1e9 < quiet
    )


def plan_batch(
    batch: Iterable[str],
    snapshot: Mapping[str, FileStat],
    indexed: Mapping[str, IndexedFile],
    hashes: Mapping[str, str],
    failures: Mapping[str, str],
    vanished_by_hash: dict[str, list[str]],
    *,
    quiet: float = 0.0,
    now: float = 0.0,
) -> BatchPlan:
    """Decide what a batch of read paths needs, from their stat, hash or read failure.

    `hashes` holds the content hash of each path read, `failures` why a path could not be
    read (its stat's error is in `snapshot`). `vanished_by_hash` is consumed as moves are
    claimed (see `plan_reads`). A note caught empty mid-save within `quiet` seconds of `now`
    is looked at again later, whatever its read gave.
    """
    deferred: list[tuple[str, float]] = []
    unreadable: list[tuple[str, str]] = []
    stubs: list[tuple[str, str]] = []
    unchanged = 0
    read: dict[str, str] = {}
    for path in batch:
        st = snapshot[path]
        known = indexed.get(path)
        if settling(st, known, quiet=quiet, now=now):
            deferred.append((path, st.mtime_ns / 1e9 + quiet))
            continue
        if path in hashes:
            read[path] = hashes[path]
            continue
        reason = st.error
        if reason is None:  # the stat was fine, the read was not
            reason = failures[path]
            if known is not None and not known.hash.startswith(STUB_PREFIX):
                unreadable.append((path, reason))  # keeps its last good row
                continue
        # A link that leads outside the vault lands here too: its row loses any text.
        if known is not None and known.hash == stub_hash(reason):
            unchanged += 1
        else:
            stubs.append((path, reason))
    reads = plan_reads(read, indexed, vanished_by_hash)
    return BatchPlan(reads, tuple(deferred), tuple(unreadable), tuple(stubs), unchanged)


def match_moves(
    new_ids: Mapping[str, str], vanished_ids: Mapping[str, str]
) -> list[tuple[str, str]]:
    """Pair new paths with vanished paths that held the same memory id: moved and edited."""
    by_id: dict[str, str] = {}
    for path, memory_id in sorted(vanished_ids.items()):
        by_id.setdefault(memory_id, path)
    moves = []
    for path, memory_id in sorted(new_ids.items()):
        old = by_id.pop(memory_id, None)
        if old is not None:
            moves.append((old, path))
    return moves
