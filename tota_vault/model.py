"""Memory and its enums, field rules and validation: plain data, no I/O.

A memory is what one note holds. `memory_from_fields` turns the frontmatter of a note (as the
note layer reads it: every scalar a string, so `0123` and `no` keep their spelling) into a
`Memory`, or raises `InvalidNoteError` with one reason a person can act on.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from .errors import InvalidNoteError, ValidationError

_E = TypeVar("_E", bound=StrEnum)

__all__ = [
    "DATE_FORMAT",
    "FIELD_ORDER",
    "ISO_DATE_PATTERN",
    "MANUAL_CONFIDENCE",
    "Evidence",
    "Memory",
    "MemoryType",
    "SOURCES_COUNT_KEY",
    "Status",
    "cap_sources",
    "format_date",
    "memory_from_fields",
    "new_id",
    "parse_date",
    "source_total",
    "validate_score",
]


class MemoryType(StrEnum):
    """The ten kinds of memory; each has a folder of the same name in the vault."""

    IDENTITY = "identity"
    PREFERENCE = "preference"
    GOAL = "goal"
    PROJECT = "project"
    HABIT = "habit"
    DECISION = "decision"
    CONSTRAINT = "constraint"
    RELATIONSHIP = "relationship"
    EPISODE = "episode"
    REFLECTION = "reflection"


class Evidence(StrEnum):
    """How a memory was learned."""

    DIRECT = "direct"  # the person stated it
    INFERRED = "inferred"  # concluded from the conversation's context
    MANUAL = "manual"  # a person wrote or edited the note
    SYSTEM = "system"  # set by a program (a scheduled task, an API caller, a reflection)


class Status(StrEnum):
    """Whether a memory takes part in recall."""

    ACTIVE = "active"
    ARCHIVED = "archived"  # decayed or retired: kept on disk, not recalled unless asked
    SUPERSEDED = "superseded"  # lost a conflict; the winner's History names it


#: Obsidian's "Date & time" property form. Seconds, no zone: notes read like a diary.
DATE_FORMAT = "%Y-%m-%dT%H:%M:%S"

#: The key order of the notes tota renders; unknown keys follow in their own order.
FIELD_ORDER = (
    "id",
    "type",
    "confidence",
    "importance",
    "durability",
    "evidence",
    "status",
    "created",
    "updated",
    "confirmed",
    "confirmations",
    "key",
    "subject",
    "sources",
    "tags",
    "aliases",
)

SCORE_FIELDS = ("confidence", "importance", "durability")
DATE_FIELDS = ("created", "updated", "confirmed")
LIST_FIELDS = ("sources", "tags", "aliases")

#: Defaults for a note a person wrote without scores: their own words are the strongest
#: evidence tota has, so a hand-written memory starts near the top of the confidence scale.
MANUAL_DEFAULTS = {"confidence": 0.95, "importance": 0.5, "durability": 0.8}
#: The confidence of a person's own word: a note they wrote, a memory they added or edited.
MANUAL_CONFIDENCE = MANUAL_DEFAULTS["confidence"]

#: An ISO date or date-time as `parse_date` reads it (`2026-11-29`, `2026-11-29T11:43`,
#: `2026-11-29 11:43:00.5`, with an optional `Z` or offset); no anchors and no groups, so
#: other patterns (a transcript's timestamped speaker line) embed it.
ISO_DATE_PATTERN = (
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?"
)
_DATE_RE = re.compile(rf"^{ISO_DATE_PATTERN}$")
#: How tota writes a date (`format_date`): to the second, no zone.
_STAMP_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


@dataclass(frozen=True)
class Memory:
    """One memory: the fields of its note's frontmatter plus the text of its body.

    `text` is the statement (the body without its `## History` section); `history` holds the
    lines of that section, oldest first. `extra` keeps frontmatter keys tota does not know, in
    their order, so no write ever drops them.
    """

    id: str
    type: MemoryType
    text: str
    confidence: float = 0.7
    importance: float = 0.5
    durability: float = 0.8
    evidence: Evidence = Evidence.SYSTEM
    status: Status = Status.ACTIVE
    created: datetime = field(default_factory=lambda: now())
    updated: datetime = field(default_factory=lambda: now())
    confirmed: datetime = field(default_factory=lambda: now())
    confirmations: int = 1
    key: str | None = None
    subject: str = "user"
    sources: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    history: tuple[str, ...] = ()
    quote: str = ""  # the person's own words it was learned from, shown as a block quote
    extra: dict[str, Any] = field(default_factory=dict)

    def with_changes(self, **changes: Any) -> Memory:
        """Return a copy with some fields replaced (memories are immutable values)."""
        return replace(self, **changes)

    def fields(self) -> dict[str, Any]:
        """The frontmatter this memory renders to, in `FIELD_ORDER`, then unknown keys.

        Values are Python values (floats, ints, datetimes, lists); empty optional fields are
        left out so a note never carries `key: null`.
        """
        out: dict[str, Any] = {
            "id": self.id,
            "type": self.type.value,
            "confidence": self.confidence,
            "importance": self.importance,
            "durability": self.durability,
            "evidence": self.evidence.value,
            "status": self.status.value,
            "created": self.created,
            "updated": self.updated,
            "confirmed": self.confirmed,
            "confirmations": self.confirmations,
        }
        if self.key:
            out["key"] = self.key
        out["subject"] = self.subject
        out["sources"] = list(self.sources)
        out["tags"] = list(self.tags)
        if self.aliases:
            out["aliases"] = list(self.aliases)
        for name, value in self.extra.items():
            out.setdefault(name, value)
        return out


#: How many of a memory's sources its note lists: the first ones (where it was learned) and
#: the latest ones (what confirmed it lately). A fact confirmed thousands of times would
#: otherwise grow its note, its diffs and its merges without bound.
SOURCES_FIRST = 5
SOURCES_LATEST = 20
#: The property that counts every source once the list is capped.
SOURCES_COUNT_KEY = "sources_count"


def cap_sources(sources: Sequence[str], total: int | None = None) -> tuple[list[str], int | None]:
    """Cap a sources list: the first `SOURCES_FIRST` and the latest `SOURCES_LATEST` entries.

    `total` is how many sources the memory has had (default: the list's length). Returns the
    list to write and the count to write as `sources_count`, or None when nothing is left out
    (the list is then the whole story and needs no count).
    """
    items = list(sources)
    count = max(total if total is not None else len(items), len(items))
    if len(items) > SOURCES_FIRST + SOURCES_LATEST:
        items = items[:SOURCES_FIRST] + items[-SOURCES_LATEST:]
    return items, (count if count > len(items) else None)


def source_total(memory: Memory) -> int:
    """How many sources a memory has had: its `sources_count` once its list is capped, else
    the length of its list (never less than the list: a count a person lowered by hand, or
    one that is not a whole number, does not hide listed sources)."""
    raw = str(memory.extra.get(SOURCES_COUNT_KEY) or "").strip()
    listed = len(memory.sources)
    return max(int(raw), listed) if raw.isdigit() else listed


def now() -> datetime:
    """The current local time to the second, as notes store it."""
    return datetime.now().replace(microsecond=0)


def format_date(value: datetime) -> str:
    """Render a date the way every note stores it: `YYYY-MM-DDTHH:MM:SS`."""
    # isoformat, not strftime: glibc's %Y does not zero-pad years before 1000 (and strftime is
    # several times slower); seconds only, and no zone, as notes store them.
    return value.replace(microsecond=0, tzinfo=None).isoformat(timespec="seconds")


def parse_date(value: Any, *, name: str = "date") -> datetime:
    """Read a date written by tota, Obsidian or a person; raise `ValueError` naming the value.

    Accepts `2026-11-29`, `2026-11-29T11:43`, `2026-11-29 11:43:00`, and ISO forms with `Z` or
    an offset (converted to local time, then dropped, as notes carry no zone).
    """
    if isinstance(value, datetime):
        return value.replace(microsecond=0, tzinfo=None)
    if type(value) is str and _STAMP_RE.fullmatch(value):
        # The form every note and index row holds, read directly: decay reads 100k of them
        # (a third of its decision's time went to the general path below).
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass  # "2026-02-30T...": the general path says why
    text = str(value).strip().strip("\"'")
    match = _DATE_RE.match(text)
    if not match:
        raise ValueError(f"{name} {text!r} is not a date (expected YYYY-MM-DDTHH:MM:SS)")
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T", 1))
    except ValueError:
        raise ValueError(f"{name} {text!r} is not a real date") from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone().replace(tzinfo=None)
    return parsed.replace(microsecond=0)


def validate_score(value: Any, *, name: str) -> float:
    """Return a score as a float in [0, 1], or raise `ValueError` naming the field and value."""
    if isinstance(value, bool):
        raise ValueError(f"{name} {value!r} is not a number")
    try:
        number = float(str(value).strip().strip("\"'"))
    except ValueError:
        raise ValueError(f"{name} {value!r} is not a number") from None
    if not 0.0 <= number <= 1.0:  # also rejects NaN
        raise ValueError(f"{name} {number:g} is out of [0, 1]")
    return number


def new_id(at: float | None = None) -> str:
    """Return a new ULID: 48 bits of milliseconds then 80 random bits, in Crockford base32.

    Sortable by creation time and unique without coordination, so two machines that learn at
    once never give two memories the same id.
    """
    millis = int((time.time() if at is None else at) * 1000)
    value = (millis << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def _as_list(value: Any, *, name: str) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, list | tuple):
        items = []
        for item in value:
            if isinstance(item, dict | list):
                raise ValueError(f"{name} holds a nested value; expected a list of strings")
            if item is None or str(item).strip() == "":
                continue
            items.append(str(item).strip())
        return tuple(items)
    if isinstance(value, dict):
        raise ValueError(f"{name} is a mapping; expected a list of strings")
    return (str(value).strip(),)


def _as_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, dict | list):
        raise ValueError("expected text")
    text = str(value).strip()
    return text or None


def _enum_value(
    raw: str | None, enum: type[_E], name: str, default: _E | None, path: str | None
) -> _E:
    """Parse a case-insensitive enum field, naming the allowed values when it is unknown."""
    if raw is None and default is not None:
        return default
    try:
        return enum(str(raw).lower())
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise InvalidNoteError(
            f"unknown {name} {raw!r} (expected one of: {allowed})", path=path
        ) from None


def _score_value(value: Any, name: str) -> float:
    """A score field: blank means the manual default, else a validated number in 0..1."""
    if value is None or value == "":
        return MANUAL_DEFAULTS[name]
    return validate_score(value, name=name)


def _confirmations_value(value: Any, path: str | None) -> int:
    """The confirmations count: blank means 1; anything else a non-negative whole number."""
    if value in (None, ""):
        return 1
    try:
        confirmations = int(str(value).strip())
    except ValueError:
        raise InvalidNoteError(
            f"confirmations {value!r} is not a whole number", path=path
        ) from None
    if confirmations < 0:
        raise InvalidNoteError(f"confirmations {confirmations} is negative", path=path)
    return confirmations


def _memory_type(
    fields: dict[str, Any], default_type: MemoryType | None, path: str | None
) -> MemoryType:
    """The note's type: its `type` field, else the type folder it sits in."""
    try:
        raw_type = _as_text(fields.get("type"))
    except ValueError:
        raise InvalidNoteError("type is not text", path=path) from None
    if raw_type is None:
        if default_type is None:
            raise InvalidNoteError("no type (and the note is not in a type folder)", path=path)
        return default_type
    return _enum_value(raw_type, MemoryType, "type", default_type, path)


# Fields read as plain text, all checked before any is interpreted so a list in one of
# them is reported as such whatever else is wrong.
_TEXT_FIELDS = ("id", "evidence", "status", "key", "subject")


def memory_from_fields(
    fields: dict[str, Any],
    text: str,
    *,
    history: tuple[str, ...] = (),
    quote: str = "",
    default_type: MemoryType | None = None,
    fallback_time: datetime | None = None,
    path: str | None = None,
) -> Memory:
    """Build a `Memory` from a note's frontmatter and statement, or raise `InvalidNoteError`.

    A note without `id` is a person's own note: it becomes a memory with evidence `manual`,
    its id left empty for the caller to assign (by a surgical patch, never a rewrite). The
    type comes from `type`, else from `default_type` (the folder the note sits in).
    """
    mtype = _memory_type(fields, default_type, path)
    try:
        texts = {name: _as_text(fields.get(name)) for name in _TEXT_FIELDS}
    except ValueError as exc:
        raise InvalidNoteError(f"a text field holds a list or mapping ({exc})", path=path) from None
    memory_id = texts["id"] or ""
    default_evidence = Evidence.MANUAL if not memory_id else Evidence.SYSTEM
    evidence = _enum_value(texts["evidence"], Evidence, "evidence", default_evidence, path)
    status = _enum_value(texts["status"], Status, "status", Status.ACTIVE, path)

    fallback = fallback_time or now()
    values: dict[str, Any] = {}
    # One converter per field, in frontmatter order; a date left blank falls back to
    # `created` (itself falling back to the note's time), which is why order matters.
    converters: list[tuple[str, Any]] = [
        *((name, _score_value) for name in SCORE_FIELDS),
        *((name, lambda v, n: parse_date(v, name=n)) for name in DATE_FIELDS),
        ("confirmations", lambda v, _n: _confirmations_value(v, path)),
        *((name, lambda v, n: _as_list(v, name=n)) for name in LIST_FIELDS),
    ]
    for name, convert in converters:
        value = fields.get(name)
        if name in DATE_FIELDS and (value is None or value == ""):
            values[name] = values.get("created", fallback)
            continue
        try:
            values[name] = convert(value, name)
        except ValueError as exc:
            raise InvalidNoteError(str(exc), path=path) from None

    extra = {k: v for k, v in fields.items() if k not in FIELD_ORDER}
    return Memory(
        id=memory_id,
        type=mtype,
        text=text,
        evidence=evidence,
        status=status,
        key=texts["key"],
        subject=texts["subject"] or "user",
        history=history,
        quote=quote,
        extra=extra,
        **values,
    )


def check_memory(memory: Memory) -> None:
    """Raise `ValidationError` when a memory built by a program breaks a field rule."""
    for name in SCORE_FIELDS:
        try:
            validate_score(getattr(memory, name), name=name)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
    if not memory.text.strip():
        raise ValidationError("a memory needs some text")
    if memory.confirmations < 0:
        raise ValidationError(f"confirmations {memory.confirmations} is negative")
