"""Reflections: one note that consolidates a group of related memories.

Grouping (`plan_reflections`) is a pure function over index rows. Within one subject, two
memories are related when they fill the same slot (`key`), when they share a topic (a
`topic/<name>` tag, see topics.py: "Took a trip to Rome" and "Visited Paris" are both
`topic/travel`), or, for memories with neither, when they share a distinctive word: one that
several of the subject's memories use, but not so many that it says nothing (a word in half of
them is noise). A memory with two topics is in both topics' reflections; otherwise each memory
joins at most one group (the group of its rarest qualifying word), and a run is deterministic.

A topic reflection is what answers a question about a whole area of a person's life ("What
has Joanna written?", "Which cities has Jon visited?") whose answers were said in different
conversations in different words; on LoCoMo it is most of what lifts multi-hop recall
(docs/quality.md).

A reflection is a memory of type `reflection`, evidence `system`: a short summary, then a
`## Members` section with a `[[wikilink]]` to each member, and the union of the members'
sources. Its `key` (`reflection/<subject>/<theme>`) is its identity: running `tota reflect`
again finds it and updates it when its members changed, and otherwise leaves it alone. A
reflection a person edited (its seal broken) is never rewritten.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .model import Evidence, Memory, MemoryType, Status, new_id, parse_date
from .text import REFLECTION_STOP, STOPWORDS, tokens
from .topics import TOPIC_TAG

__all__ = ["Group", "ReflectReport", "plan_reflections", "reflection_text"]

MIN_MEMBERS = 3
#: A reflection links at most this many members (the most confident): it is recalled as one
#: memory, and its sources are the context an assistant pays for.
MAX_MEMBERS = 16
#: A word in more than this share of a subject's memories describes the subject, not a theme.
MAX_SHARE = 0.2
#: A theme is a word of letters, four or more: numbers and short words name no area of a life.
_THEME_WORD = re.compile(r"[a-zà-ÿ][a-zà-ÿ'-]{3,}")


@dataclass(frozen=True)
class Group:
    """Related memories of one subject, and the word or slot that relates them."""

    subject: str
    theme: str
    members: tuple[dict[str, Any], ...]

    @property
    def label(self) -> str:
        """The theme as a reader sees it: a word, or the last part of a key."""
        return self.theme.rsplit("/", 1)[-1]

    @property
    def key(self) -> str:
        """The reflection's identity across runs."""
        slug = re.sub(r"[^a-z0-9]+", "-", self.theme.lower()).strip("-")
        subject = re.sub(r"[^a-z0-9]+", "-", self.subject.lower()).strip("-")
        return f"reflection/{subject}/{slug}"


@dataclass
class ReflectReport:
    """What `tota reflect` did."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    left_alone: list[str] = field(default_factory=list)  # edited by a person: not rewritten
    dry_run: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (`tota reflect --json`)."""
        return {
            "dry_run": self.dry_run,
            "created": self.created,
            "updated": self.updated,
            "unchanged": len(self.unchanged),
            "left_alone": self.left_alone,
        }


#: Dates and verb or adverb forms make poor themes ("august", "decided", "really").
_NOT_A_THEME = re.compile(
    r"^(?:january|february|march|april|june|july|august|september|october|november|"
    r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|.*(?:ed|ing|ly))$"
)


def _words(text: str) -> set[str]:
    return {
        w
        for w in tokens(text)
        if _THEME_WORD.fullmatch(w)
        and w not in STOPWORDS
        and w not in REFLECTION_STOP
        and not _NOT_A_THEME.match(w)
    }


def plan_reflections(
    rows: Sequence[dict[str, Any]],
    *,
    min_members: int = MIN_MEMBERS,
    max_members: int = MAX_MEMBERS,
) -> list[Group]:
    """Group related active memories (see the module docstring). Pure and deterministic."""
    by_subject = _active_by_subject(rows)
    groups: list[Group] = []
    for subject in sorted(by_subject):
        members = sorted(by_subject[subject], key=lambda r: r["path"])
        groups.extend(_subject_groups(subject, members, min_members, max_members))
    return groups


def _active_by_subject(rows: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Active memories that are not reflections themselves, by whom they are about."""
    by_subject: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row.get("type") == MemoryType.REFLECTION.value or row.get("status") != "active":
            continue
        by_subject.setdefault(row.get("subject") or "user", []).append(row)
    return by_subject


def _subject_groups(
    subject: str, members: list[dict[str, Any]], min_members: int, max_members: int
) -> list[Group]:
    """One subject's groups: by key, then by topic tag, then by a shared rare word.

    Each pass sees only the memories no earlier pass grouped, so a memory joins one group.
    """
    namers: tuple[Callable[[dict[str, Any]], list[str]], ...] = (
        # The whole key is the theme: "goal/arabic" and the word "arabic" are two
        # different groups, and must never share a reflection.
        lambda row: [row["key"]] if row.get("key") else [],
        _topic_tags,
        _word_namer(members, min_members, max_members),
    )
    groups: list[Group] = []
    taken: set[str] = set()
    for theme_of in namers:
        buckets = _bucket([r for r in members if r["path"] not in taken], theme_of)
        for theme in sorted(buckets):
            if len(buckets[theme]) >= min_members:
                groups.append(_group(subject, theme, buckets[theme], max_members))
                taken.update(r["path"] for r in buckets[theme])
    return groups


def _bucket(
    rows: list[dict[str, Any]], theme_of: Callable[[dict[str, Any]], list[str]]
) -> dict[str, list[dict[str, Any]]]:
    """Rows by each theme `theme_of` names for them, in the rows' order."""
    buckets: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        for theme in theme_of(row):
            buckets.setdefault(theme, []).append(row)
    return buckets


def _word_namer(
    members: list[dict[str, Any]], min_members: int, max_members: int
) -> Callable[[dict[str, Any]], list[str]]:
    """Name a memory by its rarest word shared by enough (but not too many) of `members`."""
    words = {r["path"]: _words(f"{r.get('title', '')} {r.get('text', '')}") for r in members}
    df = Counter(w for ws in words.values() for w in ws)
    ceiling = max(max_members, int(len(members) * MAX_SHARE))

    def name(row: dict[str, Any]) -> list[str]:
        candidates = [w for w in words[row["path"]] if min_members <= df[w] <= ceiling]
        if not candidates:
            return []
        return [min(candidates, key=lambda w: (df[w], -len(w), w))]  # rarest, then most specific

    return name


def _topic_tags(row: dict[str, Any]) -> list[str]:
    tags = row.get("tags") or ""
    tags = tags.split() if isinstance(tags, str) else [str(t) for t in tags]
    return sorted({t for t in tags if t.startswith(TOPIC_TAG)})


def _group(subject: str, theme: str, rows: list[dict[str, Any]], limit: int) -> Group:
    ranked = sorted(rows, key=lambda r: (-(r.get("confidence") or 0.0), r["path"]))[:limit]
    return Group(subject, theme, tuple(sorted(ranked, key=lambda r: r["path"])))


def _when(row: dict[str, Any]) -> datetime | None:
    try:
        return parse_date(row["created"]) if row.get("created") else None
    except ValueError:
        return None


def reflection_text(group: Group) -> str:
    """The body of a reflection: a short summary, then its members as wikilinks."""
    label = "the user" if group.subject == "user" else group.subject
    dates = sorted(d for d in (_when(r) for r in group.members) if d is not None)
    span = ""
    if dates:
        first, last = dates[0], dates[-1]
        span = (
            f", from {first:%d %B %Y}"
            + (f" to {last:%d %B %Y}" if last.date() != first.date() else "")
        ).replace(" 0", " ")
    types = Counter(r.get("type") for r in group.members)
    kinds = ", ".join(f"{n} {t}" for t, n in sorted(types.items(), key=lambda i: (-i[1], i[0])))
    highlights = [str(r.get("text") or "").split("\n")[0].strip() for r in group.members[:3]]
    summary = (
        f"{len(group.members)} memories of {label} about “{group.label}”{span} ({kinds}). "
        + " ".join(h if h.endswith((".", "!", "?")) else h + "." for h in highlights if h)
    )
    links = "\n".join(f"- [[{r['title']}]]" for r in group.members)
    return f"{summary}\n\n## Members\n{links}"


def reflection_memory(group: Group, at: datetime, *, memory_id: str | None = None,
                      created: datetime | None = None) -> Memory:  # fmt: skip
    """The reflection note for a group, as tota writes it."""
    sources: list[str] = []
    for row in group.members:
        for source in row.get("sources") or ():
            if source not in sources:
                sources.append(source)
    confidence = sum((r.get("confidence") or 0.0) for r in group.members) / len(group.members)
    stamp = at.replace(microsecond=0)
    return Memory(
        id=memory_id or new_id(),
        type=MemoryType.REFLECTION,
        text=reflection_text(group),
        confidence=round(confidence, 2),
        importance=0.6,
        durability=0.8,
        evidence=Evidence.SYSTEM,
        status=Status.ACTIVE,
        created=created or stamp,
        updated=stamp,
        confirmed=stamp,
        confirmations=len(group.members),
        key=group.key,
        subject=group.subject,
        sources=tuple(sources),
        tags=("tota/reflection", *((group.theme,) if group.theme.startswith(TOPIC_TAG) else ())),
    )
