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

__all__ = ["Candidate", "Extractor", "Skip", "dropped_sentences", "role_message"]


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


def role_message(role: str) -> str:
    """The reason an extractor skips a message no person wrote ("assistant message"): it is
    no sentence of theirs left out, and `dropped_sentences` does not count it."""
    return f"{role} message"


_ROLE_MESSAGES = frozenset(role_message(r) for r in ("assistant", "system", "tool"))


def dropped_sentences(skipped: Sequence[Skip]) -> int:
    """How many of a person's sentences an extractor chose not to propose (a question, small
    talk, a reference to something not said, a secret): what a summary counts as skipped
    beside the candidates the pipeline skipped, so a message whose only sentence was dropped
    does not read as "0 skipped"."""
    return sum(1 for skip in skipped if skip.reason not in _ROLE_MESSAGES)


@runtime_checkable
class Extractor(Protocol):
    """Anything that turns messages into candidate memories."""

    name: str

    def extract(
        self, messages: Sequence[Message], *, conversation_id: str
    ) -> tuple[list[Candidate], list[Skip]]:
        """Propose candidates (and say what was skipped and why)."""
        ...
