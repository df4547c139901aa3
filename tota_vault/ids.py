"""Memory ids as people type them: the shortest prefix that names one memory.

A memory's id is a ULID (26 characters); displays show a prefix, and every command that takes
an id accepts any prefix of at least `MIN_ID_PREFIX` characters that matches one memory. Its
own module, read from the index alone: `tota search` prints short ids and must not load the
manager's modules to do it (tests/test_startup.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .index import Index

__all__ = ["MIN_ID_PREFIX", "short_ids"]

#: The shortest id prefix accepted where an id is. A ULID starts with its time (10 characters),
#: so memories learned in the same second share their first 8 or 9: a prefix that matches
#: more than one memory is refused, never guessed.
MIN_ID_PREFIX = 6


def short_ids(index: Index, ids: Iterable[str]) -> dict[str, str]:
    """The shortest unambiguous prefix (at least `MIN_ID_PREFIX` characters) of each id.

    Like git's abbreviated hashes: ULIDs start with their time, so memories made in the same
    second share 8 or 9 characters and a fixed length would be ambiguous. Each id's prefix is
    decided by its two neighbours in sorted order among every id in the index, so a page of
    ids costs two index seeks per id, at any vault size. An id the index does not know is
    made unique against the ids it does know.
    """
    out: dict[str, str] = {}
    for memory_id in ids:
        if not memory_id or memory_id in out:
            continue
        shared = 0
        for neighbour in index.id_neighbours(memory_id):
            if neighbour:
                shared = max(shared, len(os.path.commonprefix([memory_id, neighbour])))
        out[memory_id] = memory_id[: max(MIN_ID_PREFIX, shared + 1)]
    return out
