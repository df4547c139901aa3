"""Reflections: one note that consolidates an area of a person's life from their memories.

Grouping (`plan_groups`) is a pure function over light rows (`Member`). Within one subject,
memories are grouped

1. by slot (`key`): memories that fill the same slot;
2. by topic: the areas of a life (`topic/<name>` tags, topics.py: "Took a trip to Rome" and
   "Visited Paris" are both `topic/travel`). A note without topic tags (a person's, or one an
   older tota wrote) gets its topics from its statement. A memory with two topics is in both
   topics' reflections;
3. by name, for memories no slot or topic grouped: memories that name the same person, place,
   project or thing (a capitalised name inside a sentence, "Negativo", "Ferrovia Labs"), when
   several of the subject's memories name it but not so many that it says nothing.

A word that merely recurs ("every", "makes", "legacy") never forms a group: a reflection is
about an area of a life, and its title says which. The title (`reflection_title`) is derived
from the members: the topic's own word that most members use ("running" for sport), then the
name or word most members share ("Lisbon"): "Running and Lisbon". A topic reflection is what
answers a question about a whole area of a life ("What has Joanna written?", "Which cities has
Jon visited?") whose answers were said in different conversations in different words; on
LoCoMo it is most of what lifts multi-hop recall (docs/quality.md).

A reflection is a memory of type `reflection`, evidence `system`: a short summary, then a
`## Members` section with a `[[wikilink]]` to each member, and the union of the members'
sources. Its `key` (`reflection/<subject>/<theme>`) is its identity: running `tota reflect`
again finds it and updates it when its members changed, and otherwise changes no byte. A
reflection a person edited (its seal broken, or the edit recorded as evidence `manual`) is
never rewritten, and a group that a person's own reflection already covers (it links at least
half of the members) gets none of tota's.

Reflections come by themselves too: after `observe`, each new memory joins its subject's
topics' pending lists (`note_new_members`, one value in the index's state table), and a topic
that gained `AUTO_NEW_MEMBERS` is reflected on again from its reflection's members and the
new memories alone, so the cost does not grow with the vault; a reflection that links many
waits until its topic gained half as many as it links (`AUTO_GROWTH`). `tota reflect` reads
the whole vault one row at a time (a few columns: issue #15), then only the members it keeps: their
titles and statements, and the rest of their rows only for a reflection it writes or compares.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain, starmap
from operator import attrgetter
from sys import intern
from typing import TYPE_CHECKING, Any, NamedTuple

from .files import read_file
from .index import GROUP_COLUMNS, STATEMENT_COLUMNS
from .model import Evidence, Memory, MemoryType, Status, new_id, parse_date
from .rows import MemoryRow
from .themes import derive_title, named_entities, written_as
from .topics import TOPIC_TAG, topics_of

if TYPE_CHECKING:
    from .index import Index
    from .store import MemoryStore

__all__ = [
    "Group",
    "Member",
    "ReflectReport",
    "member_of",
    "plan_groups",
    "plan_reflections",
    "reflection_key",
    "reflection_text",
    "reflection_title",
]

MIN_MEMBERS = 3
#: A reflection links at most this many members (the most confident): it is recalled as one
#: memory, and its sources are the context an assistant pays for.
MAX_MEMBERS = 16
#: A name in more than this share of a subject's memories describes the subject, not an area.
MAX_SHARE = 0.2
#: New memories of a topic that make tota reflect on it again by itself (after `observe`).
AUTO_NEW_MEMBERS = 3
#: ...or, for a reflection that already links more, this share of what it links: a rewrite
#: reads every member again, so a fixed step would rewrite a reflection of 16 for every third
#: new memory of its topic (in a long conversation, one observe call in three); a step that
#: grows with the reflection rewrites it as often as its contents change by that share.
AUTO_GROWTH = 0.5
#: Where the new members of each topic wait (the index's `state` table; local, like the index:
#: a rebuilt index forgets them, and the next `tota reflect` reads everything anyway).
PENDING_STATE = "reflect-pending"


class Member(NamedTuple):
    """What grouping needs of one memory: a path, whom it is about, its slot and topics, and
    (for a memory with no topic) the names it mentions, folded to lower case.

    A `NamedTuple`: `tota reflect` makes one per memory of the vault, and a frozen dataclass
    costs several times as much to make (issue #15)."""

    path: str
    subject: str
    confidence: float
    key: str | None
    topics: tuple[str, ...]
    names: tuple[str, ...] = ()


#: `Member(*fields)` without its Python-level `__new__` (every field given): `member_of` makes
#: one for each memory of the vault (issue #15).
_member: Callable[[tuple[Any, ...]], Member] = functools.partial(tuple.__new__, Member)


@dataclass(frozen=True)
class Plan:
    """A planned reflection: its subject, its theme and its members' paths."""

    subject: str
    theme: str
    paths: tuple[str, ...]

    @property
    def identity(self) -> tuple[str, str]:
        """Its reflection's key and subject (as `Group.identity`)."""
        return reflection_key(self.subject, self.theme), self.subject


@dataclass(frozen=True)
class Group:
    """Related memories of one subject, and the slot, topic or name that relates them."""

    subject: str
    theme: str
    members: tuple[MemoryRow, ...]
    display: str = ""

    @property
    def label(self) -> str:
        """The theme as a reader sees it: a topic, a name, or the last part of a key."""
        return self.display or self.theme.rsplit("/", 1)[-1]

    @property
    def key(self) -> str:
        """The reflection's identity across runs."""
        return reflection_key(self.subject, self.theme)

    @property
    def identity(self) -> tuple[str, str]:
        """Its key and subject: what finds tota's reflection of the group again."""
        return self.key, self.subject


#: Signs that tell names apart ("C", "C++", "C#", "F#"): spelled out in a key's slug, which
#: otherwise drops them, so two themes never share one key (two groups writing one reflection
#: in turn made `tota reflect` change something on every run).
_NAME_SIGNS = {"+": " plus ", "#": " sharp ", "&": " and "}
_NAME_SIGNS_RE = re.compile("[+#&]")


def reflection_key(subject: str, theme: str) -> str:
    """`reflection/<subject>/<theme>`, both as slugs (`+`, `#`, `&` spelled out). Pure."""
    spelled = _NAME_SIGNS_RE.sub(lambda m: _NAME_SIGNS[m.group(0)], theme.lower())
    slug = re.sub(r"[^a-z0-9]+", "-", spelled).strip("-")
    who = re.sub(r"[^a-z0-9]+", "-", subject.lower()).strip("-")
    return f"reflection/{who}/{slug}"


@dataclass
class ReflectReport:
    """What `tota reflect` did."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    #: Written or edited by a person: a reflection tota would have rewritten, or a person's
    #: own that covers a group tota would have written. Never touched.
    left_alone: list[str] = field(default_factory=list)
    #: tota's reflections deleted: left with too few members after a forget (`drop_members`).
    deleted: list[str] = field(default_factory=list)
    dry_run: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (`tota reflect --json`)."""
        return {
            "dry_run": self.dry_run,
            "created": self.created,
            "updated": self.updated,
            "unchanged": len(self.unchanged),
            "left_alone": self.left_alone,
            "deleted": self.deleted,
        }


# --- reading a memory ------------------------------------------------------------------------


#: `MemoryType.REFLECTION.value`, read once: `member_of` compares it for every memory.
_REFLECTION = MemoryType.REFLECTION.value


def member_of(
    path: str,
    subject: str | None,
    key: str | None,
    type: str | None,
    confidence: float | None,
    tags: str | Sequence[str] | None,
    text: str | None,
) -> Member | None:
    """A memory as grouping sees it (None for a reflection: never a member). Pure.

    Topics come from its `topic/` tags; a note without any (a person wrote it, or a tota
    older than topics) gets them from its statement. Names are read only for a memory without
    topics."""
    if type == _REFLECTION:
        return None
    if isinstance(tags, str):  # the index's column, space separated
        topics = _column_topics(tags) if TOPIC_TAG in tags else ()
    else:
        topics = _topic_tags([str(t) for t in tags or ()])
    # Whom, the slot and the topics repeat across a vault's memories: one copy of each is
    # kept (`tota reflect` holds a Member of every memory; issue #15's memory target).
    who = intern(subject or "user")
    slot = intern(key) if key else None
    if topics:
        return _member((path, who, float(confidence or 0.0), slot, _shared(topics), ()))
    topics = _shared(tuple(TOPIC_TAG + t for t in topics_of(text or "")))
    names: tuple[str, ...] = ()
    if not topics:
        names = tuple(sorted({folded for folded, _ in named_entities(text or "", who)}))
    return _member((path, who, float(confidence or 0.0), slot, topics, names))


@functools.lru_cache(maxsize=1 << 12)
def _shared(topics: tuple[str, ...]) -> tuple[str, ...]:
    """The first of equal topic tuples: the one copy members share."""
    return topics


#: A `topic/` tag in the index's space-separated column: one that starts a tag (`str.split`'s
#: whitespace is `\s`'s), found as the literal first and then not after a non-space (so `re`
#: scans for the literal, where a look-behind first is tried at every character).
_COLUMN_TOPIC = re.compile(re.escape(TOPIC_TAG) + r"(?<!\S" + re.escape(TOPIC_TAG) + r")\S*")


def _column_topics(tags: str) -> tuple[str, ...]:
    """`_topic_tags` of the index's tags column, found by one regex: `tota reflect` reads the
    tags of every memory of the vault."""
    found = _COLUMN_TOPIC.findall(tags)
    return tuple(found) if len(found) < 2 else tuple(sorted(set(found)))


def _topic_tags(tags: list[str]) -> tuple[str, ...]:
    """The `topic/` tags among `tags`, sorted, each once."""
    found = [t for t in tags if t.startswith(TOPIC_TAG)]
    return tuple(found) if len(found) < 2 else tuple(sorted(set(found)))


#: The columns `_member_of_row` reads: a new memory's row without its body (the quoted
#: message, often the longest column) or its JSON lists, read after every `observe`.
_MEMBER_COLUMNS = "path, subject, key, type, confidence, tags, text, status, error"


def _member_of_row(row: MemoryRow) -> Member | None:
    # A plain or invalid note has no status (NULL): never a member, as a reflection is not.
    if row.status != Status.ACTIVE.value or not row.is_memory:
        return None
    return member_of(
        row.path, row.subject, row.key, row.type,
        row.confidence, row.tags, row.text,
    )  # fmt: skip


# --- grouping (pure) -------------------------------------------------------------------------


def plan_groups(
    members: Iterable[Member],
    *,
    min_members: int = MIN_MEMBERS,
    max_members: int = MAX_MEMBERS,
) -> list[Plan]:
    """Group memories by slot, topic and name (see the module docstring). Pure and
    deterministic: the same members in any order give the same plans."""
    by_subject: dict[str, list[Member]] = {}
    for member in members:
        by_subject.setdefault(member.subject, []).append(member)
    plans: list[Plan] = []
    for subject in sorted(by_subject):
        plans.extend(_subject_plans(subject, by_subject[subject], min_members, max_members))
    return plans


def _subject_plans(
    subject: str, members: list[Member], min_members: int, max_members: int
) -> list[Plan]:
    plans: list[Plan] = []
    taken: set[str] = set()
    # Slots, then topics: each over every memory (a memory in its slot's reflection is in its
    # topics' too). The whole key is the theme: "goal/arabic" and the name "Arabic" are two
    # different groups, and never share a reflection.
    slots: dict[str, list[Member]] = {}
    topics: dict[str, list[Member]] = {}
    for member in members:  # one pass: a subject may have tens of thousands
        if member.key:
            slots.setdefault(member.key, []).append(member)
        for topic in member.topics:
            topics.setdefault(topic, []).append(member)
    for buckets in (slots, topics):
        for theme in sorted(buckets):
            if len(buckets[theme]) >= min_members:
                plans.append(Plan(subject, theme, _top(buckets[theme], max_members)))
                taken.update(map(_PATH, buckets[theme]))
    rest = [m for m in members if m.names and m.path not in taken]
    ceiling = max(max_members, int(len(members) * MAX_SHARE))
    df = Counter(chain.from_iterable(m.names for m in rest))

    def by_name(member: Member) -> tuple[str, ...]:
        shared = [n for n in member.names if min_members <= df[n] <= ceiling]
        # The rarest name that qualifies, then the longest: each memory joins one group.
        return (min(shared, key=lambda n: (df[n], -len(n), n)),) if shared else ()

    buckets = _bucket(rest, by_name)
    for theme in sorted(buckets):
        if len(buckets[theme]) >= min_members:
            plans.append(Plan(subject, theme, _top(buckets[theme], max_members)))
    return plans


def _bucket(
    members: Iterable[Member], theme_of: Callable[[Member], Iterable[str]]
) -> dict[str, list[Member]]:
    buckets: dict[str, list[Member]] = {}
    for member in members:
        for theme in theme_of(member):
            buckets.setdefault(theme, []).append(member)
    return buckets


_PATH = attrgetter("path")
_CONFIDENCE = attrgetter("confidence")


def _top(members: list[Member], limit: int) -> tuple[str, ...]:
    """The `limit` most confident members' paths (the first paths among equals), in path
    order. Two sorts in C, by path and then (stably) by confidence, most first: a topic's
    bucket holds hundreds of members, and a key made in Python for each cost more."""
    if len(members) > limit:
        members = sorted(sorted(members, key=_PATH), key=_CONFIDENCE, reverse=True)[:limit]
    return tuple(sorted(map(_PATH, members)))


def plan_reflections(
    rows: Sequence[MemoryRow],
    *,
    min_members: int = MIN_MEMBERS,
    max_members: int = MAX_MEMBERS,
) -> list[Group]:
    """Group whole index rows of active memories: `plan_groups` over them. Pure."""
    by_path = {row.path: row for row in rows}
    members = [m for m in map(_member_of_row, rows) if m is not None]
    plans = plan_groups(members, min_members=min_members, max_members=max_members)
    return [_with_display(_group(plan, by_path)) for plan in plans]


def _group(plan: Plan, rows: Mapping[str, MemoryRow]) -> Group:
    members = tuple(rows[p] for p in plan.paths if p in rows)
    return Group(plan.subject, plan.theme, members)


def _with_display(group: Group) -> Group:
    """A name group shows its name as the members write it ("Ferrovia Labs")."""
    if group.theme.startswith(TOPIC_TAG) or "/" in group.theme:
        return group
    display = written_as(group.theme, group.subject, (row.text for row in group.members))
    if display is None:
        return group
    return Group(group.subject, group.theme, group.members, display)


# --- what a reflection says ------------------------------------------------------------------


def _when(row: MemoryRow) -> datetime | None:
    try:
        return parse_date(row.created) if row.created else None
    except ValueError:
        return None


def reflection_title(group: Group) -> str:
    """The title of a new reflection, derived from its members' statements (themes.py)."""
    texts = {r.path: r.text for r in group.members}
    return derive_title(group.subject, group.theme, group.label, texts)


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
    types = Counter(r.type for r in group.members)
    kinds = ", ".join(f"{n} {t}" for t, n in sorted(types.items(), key=lambda i: (-i[1], i[0])))
    highlights = [r.text.split("\n")[0].strip() for r in group.members[:3]]
    summary = (
        f"{len(group.members)} memories of {label} about “{group.label}”{span} ({kinds}). "
        + " ".join(h if h.endswith((".", "!", "?")) else h + "." for h in highlights if h)
    )
    links = "\n".join(f"- [[{r.title}]]" for r in group.members)
    return f"{summary}\n\n## Members\n{links}"


def reflection_memory(group: Group, at: datetime, *, memory_id: str | None = None,
                      created: datetime | None = None) -> Memory:  # fmt: skip
    """The reflection note for a group, as tota writes it."""
    sources: list[str] = []
    for row in group.members:
        for source in row.sources:
            if source not in sources:
                sources.append(source)
    confidence = sum((r.confidence or 0.0) for r in group.members) / len(group.members)
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


_LINK = re.compile(r"\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]")


def linked_titles(body: str, *, fold: bool = True) -> set[str]:
    """The note titles a body links to (`[[Title]]`, `[[Title|shown]]`), case-folded unless
    `fold` is False. Pure."""
    titles = {title.strip() for title in _LINK.findall(body)}  # its one group: the title
    return {t.casefold() for t in titles} if fold else titles


#: (subject, a linked title folded) -> the paths of the person's reflections that link it.
Covers = dict[tuple[str, str], list[str]]


def covers_of(reflections: Iterable[MemoryRow]) -> Covers:
    """Which titles each person's reflection (not tota's) links, by subject: built once, so
    checking thousands of groups against thousands of reflections costs their links. Pure."""
    covers: Covers = {}
    for row in reflections:
        if (row.key or "").startswith("reflection/"):
            continue  # tota's own: found again by key, not a cover
        subject = row.subject or "user"
        for title in sorted(linked_titles(row.body)):
            covers.setdefault((subject, title), []).append(row.path)
    return covers


def covered_by(group: Group, covers: Covers) -> str | None:
    """The path of a person's reflection that already covers the group: about the same
    subject, linking at least half of its members (the first such, by path). Pure."""
    titles = {r.title.casefold() for r in group.members}
    hits = Counter(path for t in titles for path in covers.get((group.subject, t), ()))
    enough = sorted(path for path, n in hits.items() if 2 * n >= len(titles))
    return enough[0] if enough else None


def cover_probe(group: Group) -> list[str]:
    """Titles of the group enough to find every reflection that may cover it: those of any
    `floor(n/2) + 1` of its `n` titles as `covered_by` counts them (folded). A cover links
    at least half of those, so it misses at most `floor(n/2)` and links one of these
    (pigeonhole); `covered_by` then counts each found reflection's own links, so the answer
    is the one all `n` would give. Every spelling of a chosen title is asked for (FTS5 does
    not fold "ß" as `casefold` does). Each title is an FTS5 phrase over every note's body,
    about a millisecond at 100k notes: the fewest words first, the cheapest phrases. Pure."""
    spellings: dict[str, set[str]] = {}
    for member in group.members:
        spellings.setdefault(member.title.casefold(), set()).add(member.title)
    chosen = sorted(spellings, key=lambda t: (len(t.split()), t))[: len(spellings) // 2 + 1]
    return sorted(title for folded in chosen for title in spellings[folded])


# --- writing ---------------------------------------------------------------------------------


def reflect(
    store: MemoryStore, *, dry_run: bool = False, now: datetime | None = None
) -> ReflectReport:
    """Write or update one reflection per group of the whole vault (`tota reflect`).

    Reads the index one row at a time (`Index.reflect_rows`), then the rows of the members
    it keeps only (`_member_rows`). Running it twice changes nothing."""
    # A Member is a non-empty tuple: `filter(None, ...)` drops only the reflections' None.
    plans = plan_groups(filter(None, starmap(member_of, store.index.reflect_rows())))
    return _write_plans(store, plans, dry_run=dry_run, at=now or datetime.now())


def pending_topics(
    pending: Mapping[tuple[str, str], Sequence[str]],
    new: Iterable[tuple[str, str, str]],
    threshold: int,
) -> tuple[dict[tuple[str, str], list[str]], dict[tuple[str, str], list[str]]]:
    """Add each new memory (subject, topic, path) to its pair's pending list; return the lists
    to keep and those that reached `threshold` (taken out: their pair starts again). Pure."""
    kept = {pair: list(paths) for pair, paths in pending.items()}
    for subject, topic, path in new:
        paths = kept.setdefault((subject, topic), [])
        if path not in paths:
            paths.append(path)
    due = {pair: paths for pair, paths in kept.items() if len(paths) >= threshold}
    for pair in due:
        del kept[pair]
    return kept, dict(sorted(due.items()))


def members_needed(linked: int) -> int:
    """How many new members make a topic whose reflection links `linked` due again. Pure."""
    return max(AUTO_NEW_MEMBERS, int(linked * AUTO_GROWTH))


def ready_topics(
    due: Mapping[tuple[str, str], Sequence[str]], linked: Mapping[tuple[str, str], int]
) -> tuple[dict[tuple[str, str], list[str]], dict[tuple[str, str], list[str]]]:
    """Of the topics `pending_topics` found due, those whose reflection already links
    `linked[pair]` members wait for `members_needed` of them: return (still waiting, ready).
    A topic with no reflection yet is ready. Pure."""
    waiting: dict[tuple[str, str], list[str]] = {}
    ready: dict[tuple[str, str], list[str]] = {}
    for pair, paths in due.items():
        enough = len(paths) >= members_needed(linked.get(pair, 0))
        (ready if enough else waiting)[pair] = list(paths)
    return waiting, ready


def _read_pending(
    raw: str | None,
) -> tuple[dict[tuple[str, str], list[str]], dict[tuple[str, str], int]]:
    """The pending lists as stored (`[subject, topic, paths]`, and the members a waiting
    topic needs as a fourth item), and those needs."""
    stored: dict[tuple[str, str], list[str]] = {}
    needs: dict[tuple[str, str], int] = {}
    try:
        for item in json.loads(raw) if raw else []:
            stored[item[0], item[1]] = list(item[2])
            if len(item) > 3:
                needs[item[0], item[1]] = int(item[3])
    except (ValueError, TypeError, IndexError, KeyError):
        return {}, {}  # a damaged list is only a delay, never an error
    return stored, needs


def note_new_members(
    store: MemoryStore, paths: Iterable[str], *, now: datetime | None = None
) -> ReflectReport:
    """After `observe`: add the new memories at `paths` to their topics' pending lists, and
    reflect on each topic that gained `AUTO_NEW_MEMBERS` since tota last did (or, when its
    reflection links more, `AUTO_GROWTH` of what it links: `ready_topics`).

    Costs the same at 100k notes as at 100: it reads the new memories, one state value, and
    for a topic that is due only its reflection, its members (by title) and the new ones, never
    the rest of the vault. A memory that fell out of a reflection's top members earlier and
    has since been confirmed upwards waits for the next `tota reflect`, which reads all."""
    index = store.index
    new: list[tuple[str, str, str]] = []
    for row in index.rows_at(list(dict.fromkeys(paths)), columns=_MEMBER_COLUMNS):
        member = _member_of_row(row)
        if member is not None:
            new += [(member.subject, topic, member.path) for topic in member.topics]
    if not new:
        return ReflectReport()
    stored, needs = _read_pending(index.get_state(PENDING_STATE))
    kept, due = pending_topics(stored, new, AUTO_NEW_MEMBERS)
    # A topic found waiting is looked at again only once it has the members it waits for.
    for pair in [pair for pair, fresh in due.items() if len(fresh) < needs.get(pair, 0)]:
        kept[pair] = due.pop(pair)
    currents = {pair: index.reflection_by_key(reflection_key(*pair), pair[0]) for pair in due}
    linked = {
        pair: len(linked_titles(row.body, fold=False))
        for pair, row in currents.items()
        if row is not None
    }
    waiting, due = ready_topics(due, linked)
    kept.update(waiting)
    needs.update((pair, members_needed(linked[pair])) for pair in waiting)
    value = json.dumps(
        sorted(
            [s, t, p, *([needs[s, t]] if (s, t) in needs else [])] for (s, t), p in kept.items()
        ),
        ensure_ascii=False,
    )
    report = ReflectReport()
    at = now or datetime.now()
    # One transaction: the pending lists and the reflections they made due commit together.
    with store.batch():
        index.set_state(PENDING_STATE, value)
        for (subject, tag), fresh in due.items():
            _reflect_topic(store, subject, tag, fresh, currents[subject, tag], report, at=at)
    return report


def drop_members(
    store: MemoryStore, titles: Iterable[str], *, now: datetime | None = None
) -> ReflectReport:
    """After memories were forgotten or superseded (their `titles`): each reflection of tota's
    that links one is written again from the members it still has, so their words leave it (a
    forgotten memory's words leave the vault); one left with too few members to be a group is
    deleted (`deleted`: it is made of its members, and made again when they are enough). A
    person's reflection, or one of tota's a person edited, is never written: it is listed in
    `left_alone`, for the person to edit."""
    from .seal import SealState, seal_state

    gone = {t.casefold() for t in titles}
    report = ReflectReport()
    if not gone:
        return report
    index = store.index
    at = now or datetime.now()
    with store.batch():
        for row in index.reflections_linking(titles):
            linked = linked_titles(row.body, fold=False)
            if not gone & {t.casefold() for t in linked}:
                continue  # the words, not the link
            if not (row.key or "").startswith("reflection/"):
                report.left_alone.append(row.path)  # a person's own reflection
                continue
            subject = row.subject or "user"
            kept = [t for t in linked if t.casefold() not in gone]
            rows = {r.path: r for r in index.rows_at(index.paths_titled(kept))}
            members = [m for m in map(_member_of_row, rows.values()) if m is not None]
            plans = plan_groups(m for m in members if m.subject == subject)
            plan = next((p for p in plans if p.identity == (row.key, subject)), None)
            if plan is not None:  # `_update` leaves a hand edit alone itself
                _update(store, _with_display(_group(plan, rows)), row, report, dry_run=False, at=at)
                continue
            data, fingerprint = read_file(store.root / row.path)
            edited = seal_state(data.decode("utf-8", "replace")) is not SealState.SEALED
            if edited or row.evidence != Evidence.SYSTEM.value:
                report.left_alone.append(row.path)
            else:
                store.delete(row.path, fingerprint)
                report.deleted.append(row.path)
    return report


def _reflect_topic(
    store: MemoryStore,
    subject: str,
    tag: str,
    fresh: Sequence[str],
    current: MemoryRow | None,
    report: ReflectReport,
    *,
    at: datetime,
) -> None:
    """One subject's topic again, from its reflection (`current`, if it has one) and the new
    memories."""
    index = store.index
    paths = set(fresh)
    if current is not None:
        paths.update(index.paths_titled(linked_titles(current.body, fold=False)))
    rows = {r.path: r for r in index.rows_at(sorted(paths))}
    members = [m for m in map(_member_of_row, rows.values()) if m is not None]
    mine = [m for m in members if m.subject == subject and tag in m.topics]
    for plan in plan_groups(mine):
        if plan.theme != tag:
            continue
        group = _with_display(_group(plan, rows))
        if current is not None:
            _update(store, group, current, report, dry_run=False, at=at)
        else:
            covers = covers_of(index.person_reflections(subject, linking=cover_probe(group)))
            _create(store, group, covers, report, dry_run=False, at=at)


def _write_plans(
    store: MemoryStore, plans: Sequence[Plan], *, dry_run: bool, at: datetime
) -> ReflectReport:
    report = ReflectReport(dry_run=dry_run)
    if not plans:
        return report
    index = store.index
    covers = covers_of(index.person_reflection_links())
    existing: dict[tuple[str | None, str], MemoryRow] = {
        (r.key, r.subject or "user"): r for r in index.tota_reflection_rows()
    }
    with store.batch():
        for chunk in _chunks(plans, 200):
            rows = _member_rows(index, chunk, lambda p: dry_run and p.identity not in existing)
            for plan in chunk:
                group = _with_display(_group(plan, rows))
                if len(group.members) < MIN_MEMBERS:
                    continue  # a member vanished between the two reads
                current = existing.get(group.identity)
                if current is None:
                    _create(store, group, covers, report, dry_run=dry_run, at=at)
                else:
                    _update(store, group, current, report, dry_run=dry_run, at=at)
    report.left_alone = list(dict.fromkeys(report.left_alone))
    return report


def _member_rows(
    index: Index, plans: Sequence[Plan], statements_only: Callable[[Plan], bool]
) -> dict[str, MemoryRow]:
    """The rows of the plans' members, by path: whole (sources, dates, kinds) for a plan that
    is written or compared, only titles and statements for one that is not (a dry run's new
    reflection needs no more to be titled)."""
    whole = {p for plan in plans if not statements_only(plan) for p in plan.paths}
    rest = {p for plan in plans for p in plan.paths} - whole
    rows = {r.path: r for r in index.rows_at(sorted(whole), columns=GROUP_COLUMNS)}
    rows.update((r.path, r) for r in index.rows_at(sorted(rest), columns=STATEMENT_COLUMNS))
    return rows


def _create(
    store: MemoryStore,
    group: Group,
    covers: Covers,
    report: ReflectReport,
    *,
    dry_run: bool,
    at: datetime,
) -> None:
    cover = covered_by(group, covers)
    if cover is not None:
        report.left_alone.append(cover)
        return
    title = reflection_title(group)
    if dry_run:
        report.created.append(f"(new) {MemoryType.REFLECTION.value}/{title}.md")
        return
    stored = store.write_new(reflection_memory(group, at), title=title)
    report.created.append(stored.path)


def _update(
    store: MemoryStore,
    group: Group,
    current: MemoryRow,
    report: ReflectReport,
    *,
    dry_run: bool,
    at: datetime,
) -> None:
    # Imported here: the seal reads notes through frontmatter and YAML, which a dry run
    # that finds no reflection of tota's to compare never needs (issue #15).
    from .seal import SealState, seal_state

    created = parse_date(current.created) if current.created else None
    memory = reflection_memory(group, at, memory_id=current.memory_id, created=created)
    same = (
        memory.text == current.text
        and list(memory.sources) == list(current.sources or [])
        and memory.confidence == current.confidence
    )
    if same:
        report.unchanged.append(current.path)
        return
    data, fingerprint = read_file(store.root / current.path)
    edited = seal_state(data.decode("utf-8", errors="replace")) is not SealState.SEALED
    # A person's edit that tota has recorded is sealed again, with evidence `manual`.
    if edited or current.evidence != Evidence.SYSTEM.value:
        report.left_alone.append(current.path)
        return
    if not dry_run:
        store.write_over(current.path, memory, fingerprint)
    report.updated.append(current.path)


def _chunks(items: Sequence[Plan], size: int) -> Iterator[Sequence[Plan]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
