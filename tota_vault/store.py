"""The store seam: what the features that write memories need of a vault, and nothing more.

The pipeline, reflect and decay do their reads through the index (typed `MemoryRow`s) and
their writes through a `MemoryStore`: write a new note, patch one, many writes as one batch.
`writer.NoteWriter` is the one implementation (a `Vault` hands its own to the features); the
features name this protocol, never `Vault`, so each can be driven by a test's own store and
none reaches into the vault's internals.

Every write a store makes keeps the vault's promises (invariant 2 of the design): atomic, refused
over a newer hand edit, a person's note patched surgically, the index told at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .files import Fingerprint
from .model import Memory
from .rows import MemoryRow

if TYPE_CHECKING:
    from .extract.messages import Message
    from .index import Index

__all__ = ["LearningStore", "MemoryStore", "Patcher", "StoredMemory"]

#: A frontmatter patch computed from a note's index row as it stands when the write happens
#: (after any hand edit the index had not seen): field name -> new value.
Patcher = Callable[[MemoryRow], dict[str, Any]]


@dataclass(frozen=True)
class StoredMemory:
    """A memory together with where its note lives."""

    memory: Memory
    path: str  # vault-relative
    fingerprint: Fingerprint


class MemoryStore(Protocol):
    """Write new notes, patch existing ones, batch many writes; read through `index`."""

    root: Path

    @property
    def index(self) -> Index:
        """The open index (the read side)."""
        ...

    def write_new(self, memory: Memory, *, title: str | None = None) -> StoredMemory:
        """Write a new memory's note (under a unique title) and index it."""
        ...

    def edit(self, rel: str, changes: Patcher, *, history: str | None = None) -> None:
        """Patch one note's frontmatter as tota does (and optionally add one History line)."""
        ...

    def write_over(self, rel: str, memory: Memory, expected: Fingerprint) -> Fingerprint:
        """Write a memory's note again over the one read as `expected` (refused if it changed
        since) and index it; return the new file's fingerprint."""
        ...

    def delete(self, rel: str, expected: Fingerprint) -> None:
        """Delete a note tota wrote and read as `expected` (refused if it changed since)."""
        ...

    def batch(self) -> AbstractContextManager[None]:
        """Many writes as one index transaction (folders fsynced once at its end)."""
        ...


class LearningStore(MemoryStore, Protocol):
    """What learning from a conversation needs beyond writes: the turns it keeps, the
    messages a person forgot, and the sources a long-confirmed memory no longer lists."""

    def keep_turns(self, conversation_id: str, messages: Sequence[Message]) -> int:
        """Keep a conversation's turns in the index for recall to quote."""
        ...

    def forgotten_sources(self) -> frozenset[str]:
        """The messages behind memories a person forgot (never learned again)."""
        ...

    def refresh_capped_sources(self) -> None:
        """Bring the index's capped-out sources up to date with the vault's files."""
        ...

    def can_cap_sources(self, memory_id: str | None) -> bool:
        """Whether a memory's capped-out sources can be recorded (its id names a file)."""
        ...

    def record_capped_sources(self, memory_id: str, sources: Sequence[str]) -> None:
        """Record sources a note is about to stop listing (they stay observed)."""
        ...
