"""The extractor protocol: what any extractor (rules, or an LLM later) hands the pipeline.

An extractor reads messages and proposes `Candidate`s; it decides nothing about storage.
Scoring, merging, conflicts and writing are the pipeline's, the same for every extractor, so a
new extractor plugs in by implementing one method:

    class MyExtractor:
        name = "my-extractor"

        def extract(self, messages, *, conversation_id):
            return [Candidate(...), ...]

The optional LLM extractor (`extract/llm.py`, chosen by `[extract] backend = "llm"` in
tota.toml) is one: it sends the messages with a prompt that asks for JSON objects with these
fields and maps each to a `Candidate`; nothing else in tota changes. An extractor may also
keep a `notes` list of lines about its last run (the LLM's fallbacks to the rules); the
pipeline copies them into the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol, runtime_checkable

from ..model import Evidence, MemoryType
from .messages import Message

__all__ = ["Candidate", "Extractor", "Skip"]


@dataclass(frozen=True)
class Candidate:
    """A proposed memory, before scoring.

    `text` is standalone: it names its subject ("Caroline adopted a dog") or, for the person
    tota serves, starts with the verb ("Prefers Neovim over VS Code."), and carries absolute
    dates. `strength` is how explicit the cue was (0..1), `hedged`/`emphatic` what the wording
    adds; the pipeline's scoring turns these into confidence, importance and durability.
    """

    type: MemoryType
    text: str
    subject: str
    source: str  # the message id within its conversation
    evidence: Evidence = Evidence.DIRECT
    key: str | None = None
    strength: float = 0.7
    hedged: bool = False
    emphatic: bool = False
    temporary: bool = False  # "right now", "this week": true for a while only
    cue: str = ""
    days: tuple[date, ...] = ()
    timestamp: datetime | None = None
    tags: tuple[str, ...] = field(default=())
    quote: str = ""  # the person's words it came from (secrets redacted), kept in the note


@dataclass(frozen=True)
class Skip:
    """A sentence an extractor looked at and chose not to propose, with the reason."""

    source: str
    text: str
    reason: str
    secret: str | None = None  # the kind, when what was skipped is a secret (never its value)


@runtime_checkable
class Extractor(Protocol):
    """Anything that turns messages into candidate memories."""

    name: str

    def extract(
        self, messages: Sequence[Message], *, conversation_id: str
    ) -> tuple[list[Candidate], list[Skip]]:
        """Propose candidates (and say what was skipped and why)."""
        ...
