"""Decay and confirmation: how much tota still trusts a memory, computed when read.

Files never churn for decay: the note keeps the confidence it was stored with and the date it
was last `confirmed`; the effective confidence is derived at read time:

    half-life (days)      = 30 + 700 * durability^2
    effective confidence  = confidence * 0.5 ^ (days since confirmed / half-life)

So a durable fact (durability 0.95, half-life ~660 days) keeps most of its weight for years,
while a passing episode (durability 0.5, ~205 days) halves in about seven months. A
confirmation (a merge, `tota confirm`, a hand edit) raises the stored confidence and resets
`confirmed`, restarting the clock. `tota decay --apply` archives memories whose effective
confidence fell under `ARCHIVE_FLOOR` (status `archived`: kept on disk, not recalled unless
asked); nothing is ever deleted by decay.

Finding the stale memories streams the index (issue #15): one row of five columns at a time
(`Index.decay_rows`), one pure decision per row (`effective_of`, `is_stale`), keeping only the
stale memories' paths (`stale_paths`). Their whole rows are read afterwards `ARCHIVE_BATCH` at a
time (`read_stale`), so a listing can be shown as it is read (`Vault.decay_each`) rather than
held whole. Archiving them patches their notes in batches of `ARCHIVE_BATCH` (one index
transaction and one folder fsync each), never the whole vault in one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .model import Status, parse_date

if TYPE_CHECKING:
    from .index import Index
    from .recall import Recalled
    from .rows import MemoryRow
    from .store import MemoryStore

__all__ = [
    "ARCHIVE_FLOOR",
    "archive_stale",
    "effective_confidence",
    "effective_of",
    "find_stale",
    "half_life_days",
    "is_stale",
    "read_stale",
    "stale_paths",
]

#: Below this effective confidence a memory is stale: `tota decay --apply` archives it.
ARCHIVE_FLOOR = 0.3
#: A memory whose note has no durability decays as a fact of middling durability (as recall
#: ranks it).
DEFAULT_DURABILITY = 0.8
#: Notes archived per batch: one index transaction and one fsync per folder for each.
ARCHIVE_BATCH = 500
BASE_HALF_LIFE = 30.0
DURABLE_HALF_LIFE = 700.0


def half_life_days(durability: float) -> float:
    """Days for a memory's effective confidence to halve without confirmation."""
    return BASE_HALF_LIFE + DURABLE_HALF_LIFE * max(0.0, min(1.0, durability)) ** 2


def effective_confidence(
    confidence: float, durability: float, confirmed: datetime, now: datetime
) -> float:
    """The confidence a memory has today (see the module docstring)."""
    days = max(0.0, (now - confirmed).total_seconds() / 86400.0)
    return confidence * 0.5 ** (days / half_life_days(durability))


def effective_of(
    confidence: float | None,
    durability: float | None,
    confirmed: str | None,
    updated: str | None,
    now: datetime,
) -> float | None:
    """A memory's effective confidence from its index columns, as recall shows it (3 places);
    None when it has no confidence. The clock runs from `confirmed`, else `updated`; a date
    that cannot be read counts as now (no decay rather than a guess). Pure."""
    if confidence is None:
        return None
    stamp = confirmed or updated
    try:
        when = parse_date(stamp) if stamp else now
    except ValueError:
        when = now
    value = effective_confidence(confidence, durability or DEFAULT_DURABILITY, when, now)
    return round(value, 3)


def is_stale(effective: float | None) -> bool:
    """Whether a memory with this effective confidence is stale (none counts as 0). Pure."""
    return (effective or 0.0) < ARCHIVE_FLOOR


def stale_paths(index: Index, now: datetime) -> list[str]:
    """The paths of the active memories whose effective confidence fell under
    `ARCHIVE_FLOOR`, least first (ties by path).

    Streams five columns of every active memory and keeps only the stale ones' paths (and,
    until they are sorted, their effective confidence): never a statement or a whole row.
    """
    found = []
    for path, confidence, durability, confirmed, updated in index.decay_rows():
        effective = effective_of(confidence, durability, confirmed, updated, now)
        if is_stale(effective):
            found.append((effective or 0.0, path))
    found.sort()
    return [path for _effective, path in found]


def read_stale(index: Index, paths: Sequence[str], now: datetime) -> list[Recalled]:
    """These memories' whole rows, shown as recall shows memories, in the order of `paths`
    (a path no longer in the index is left out). One read: give it a chunk (`ARCHIVE_BATCH`)."""
    from .index import SHOWN_COLUMNS
    from .recall import as_recalled

    order = {path: i for i, path in enumerate(paths)}
    found = as_recalled(index.rows_at(paths, columns=SHOWN_COLUMNS), now)
    return sorted(found, key=lambda r: order[r.path])


def find_stale(index: Index, now: datetime) -> list[Recalled]:
    """Active memories whose effective confidence fell under `ARCHIVE_FLOOR`, least first,
    in one list (`stale_paths`, then `read_stale` a chunk at a time). A listing of a large
    vault streams them instead (`Vault.decay_each`): each holds its statement and sources."""
    found: list[Recalled] = []
    for chunk in _chunks(stale_paths(index, now), ARCHIVE_BATCH):
        found += read_stale(index, chunk, now)
    return found


def archive_stale(store: MemoryStore, paths: Sequence[str], at: datetime) -> None:
    """Archive these memories (status `archived`, `updated` at `at`), `ARCHIVE_BATCH` notes
    per batch. Nothing is deleted; a note is only patched."""
    stamp = at.replace(microsecond=0)

    def archived(_row: MemoryRow) -> dict[str, Any]:
        return {"status": Status.ARCHIVED.value, "updated": stamp}

    for chunk in _chunks(list(paths), ARCHIVE_BATCH):
        with store.batch():
            for path in chunk:
                store.edit(path, archived)


def _chunks(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    """`items` in consecutive slices of at most `size` (the last may be shorter)."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
