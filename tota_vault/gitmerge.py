"""Three-way merge of memory notes: what the git merge driver decides, as a pure function.

Two devices that learn from the same person touch the same notes: both confirm a preference,
both learn the same goal. Git's line merge turns each of those into a conflict, with markers
in the frontmatter that make the note unreadable until a person cleans it up. A memory note
is not free text, though; each field has a meaning, and so a rule:

    confirmations   the base plus both sides' increments (1 -> 2 on both sides is 3), less
                    the confirmations both sides took from the same message
    sources, tags,  united in a canonical order: what both kept from the base in the base's
    aliases,        order, then what either added, sorted; sources are capped after the union
    kept_over_      (`model.cap_sources`) and `sources_count` adds up like confirmations
    sources
    updated,        the later; `created` the earlier
    confirmed
    confidence,     the higher
    importance,
    durability
    id              the smaller (two clones that each gave a person's new note an id)
    type, status,   the winner's: the side with the higher confidence, a tie to the newer
    evidence, ...
    statement       merged line by line, as git merges text: edits to different paragraphs
                    both stay. When the same lines changed on both sides and both are tota's
                    own one-paragraph statements (sealed), the winner's, with the loser's
                    written into the History; a person's words are left between markers
    History         merged line by line; where both sides changed the same stretch, tota's
                    dated entries (`- <date> ...`) are united, each line as many times as the
                    side that has it most (the new ones sorted, which is by date), and a
                    person's other lines (blank ones too) keep their words and order, or are
                    left between markers when both sides changed them differently
    digest          sealed again when both sides were tota's own writes; otherwise left
                    broken, so the next sync sees the hand edit that came with the merge

A key that neither side changed keeps its bytes; a key only one side changed takes that
side's bytes. Nothing depends on which side is "ours": a rebase swaps the two, and the
canonical orders and tie-breaks above give the same note either way.

The merge never reads the clock: a date it writes (a History entry's) comes from the sides'
own `updated` or `created`, and an entry goes undated when neither side has one.

An add/add (no base: both devices created a note at the same path) of the same memory (same
type, subject and statement) becomes one note: the smaller id is kept and the other one named
in the History. Different memories under one path, an unknown key changed differently on both
sides, or the same lines after the History section changed on both: left as a conflict with
markers for a person (`clean` False). A file that is not a memory note, or a note without
frontmatter (nothing to merge by meaning), gives `text` None: the driver then runs git's own
text merge.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .history import KEPT_OVER_KEY, history_span, kept_over, replaced_entry
from .linemerge import Hunk, Lines, merge_lines, split_lines
from .model import (
    FIELD_ORDER,
    SOURCES_COUNT_KEY,
    Evidence,
    Memory,
    MemoryType,
    cap_sources,
    format_date,
    source_total,
)
from .notes import (
    key_spans,
    locate_frontmatter,
    parse_note,
    patch_frontmatter,
    render_fields,
    split_quote,
)
from .seal import DIGEST_KEY, SealState, seal, seal_state

__all__ = ["MergeResult", "merge_notes", "split_both_kept"]

_LATER = ("updated", "confirmed")
_EARLIER = ("created",)
_HIGHER = ("confidence", "importance", "durability")
_SETS = ("tags", "aliases", KEPT_OVER_KEY)
_WINNER_KEYS = ("type", "evidence", "status", "key", "subject")
#: History keeps a replaced statement on one line; a longer one would be cut (see
#: `history.replaced_entry`), so a statement conflict that would lose words is left to a person.
_MAX_REPLACED_CHARS = 160
_BOTH = object()  # both sides changed a value, differently
_TYPE_FOLDERS = frozenset(t.value for t in MemoryType)
#: What a note's missing dates read as. Only the order of versions depends on it (a version
#: without dates is the oldest); no date written by the merge ever comes from it, and never
#: from the clock: two clones merging the same versions at different times write the same bytes.
_NO_DATE = datetime(1970, 1, 1)
#: A History line as tota writes it: `- <ISO date> ...`. Only these are united across the
#: sides; any other line in the section is a person's text and is merged as text.
_ENTRY = re.compile(r"- \d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)? \S")
_HEADING = "## History\n"


@dataclass(frozen=True)
class MergeResult:
    """The outcome of merging three versions of one note.

    `text` is the merged note (None: not a memory note, merge it as text); `clean` is False
    when `text` holds conflict markers for a person to resolve; `decisions` says, one line
    each, what the merge decided beyond taking one side's unchanged bytes.
    """

    text: str | None
    clean: bool
    decisions: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Note:
    """One version of a note, cut into the pieces the merge works on (LF text, no BOM)."""

    text: str
    head: str  # from the start to the first frontmatter line ("---\n")
    lead: str  # frontmatter lines before the first key (comments, blank lines)
    blocks: dict[str, str]  # key -> its lines plus the comment/blank lines after it
    order: tuple[str, ...]
    fence: str  # the closing fence line
    body: str
    memory: Memory
    fields: dict[str, Any]
    state: SealState


@dataclass(frozen=True)
class _Body:
    pre: str  # the statement (and quote) before the History section, to its last character
    gap: str  # the newlines after it: its line end and the blank lines before the heading
    heading: str  # the `## History` line, "" when there is no section
    history: Lines  # the section's lines after the heading, blank ones and all
    post: str  # anything after the section (the next level-1/2 heading on)


def merge_notes(
    base: str | None,
    ours: str,
    theirs: str,
    *,
    path: str = "note.md",
    marker_size: int = 7,
) -> MergeResult:
    """Merge two versions of a memory note that share `base` (None or "" for an add/add).

    `path` is the note's vault-relative path (its type folder names the type of a note that
    has none in its frontmatter). Pure: no I/O, the same inputs always give the same result,
    and swapping `ours` and `theirs` gives the same clean result.
    """
    if ours == theirs:
        return MergeResult(ours, True, ("both sides are the same",))
    if base is not None and base == ours:
        return MergeResult(theirs, True, ("only theirs changed",))
    if base is not None and base == theirs:
        return MergeResult(ours, True, ("only ours changed",))
    newline = _style(base, ours, theirs, lambda t: "\r\n" in t, "\r\n", "\n")
    bom = _style(base, ours, theirs, lambda t: t.startswith("\ufeff"), "\ufeff", "")
    o = _read(ours, path)
    t = _read(theirs, path)
    if o is None or t is None:
        return MergeResult(None, False, ("not a memory note on both sides: merge as text",))
    if not o.fence or not t.fence:
        # No properties to merge by meaning: the whole note is a person's text.
        return MergeResult(None, False, ("a note without frontmatter: merge as text",))
    b = _read(base, path) if base else None
    if base and b is None:
        return MergeResult(None, False, ("the base is not a memory note: merge as text",))
    if b is None and not _same_memory(o.memory, t.memory):
        text = _whole_conflict(o.text, t.text, marker_size)
        note = (
            "two different memories were added at one path: both kept between markers "
            "(`tota git resolve` makes them two notes)"
        )
        return MergeResult(_finish(text, newline, bom), False, (note,))
    merger = _Merger(b, o, t, marker_size)
    text = merger.merge()
    if merger.conflicts:
        return MergeResult(_finish(text, newline, bom), False, tuple(merger.decisions))
    text = _reseal(text, o, t)
    check = parse_note(text.encode("utf-8"), _note_path(path))
    if check.memory is None or check.error is not None:
        reason = check.error or "not a memory"
        return MergeResult(None, False, (*merger.decisions, f"merged note did not parse: {reason}"))
    return MergeResult(_finish(text, newline, bom), True, tuple(merger.decisions))


# --- reading -----------------------------------------------------------------------------------


def _note_path(path: str) -> str:
    """The path from its type folder on, so a vault inside a larger repository still tells the
    note's type from its folder."""
    parts = path.replace("\\", "/").split("/")
    for i, part in enumerate(parts[:-1]):
        if part in _TYPE_FOLDERS:
            return "/".join(parts[i:])
    return parts[-1]


def _read(raw: str, path: str) -> _Note | None:
    text = raw.removeprefix("\ufeff").replace("\r\n", "\n")
    parsed = parse_note(text.encode("utf-8"), _note_path(path), fallback_time=_NO_DATE)
    if parsed.memory is None or parsed.error is not None:
        return None
    located = locate_frontmatter(text)
    if located is None:
        return _Note(text, "", "", {}, (), "", text, parsed.memory, {}, seal_state(text))
    yaml_start, yaml_end, body_start = located
    lines = text[yaml_start:yaml_end].splitlines(keepends=True)
    spans = sorted(key_spans(lines).items(), key=lambda item: item[1][0])
    blocks: dict[str, str] = {}
    for i, (name, (start, _end)) in enumerate(spans):
        stop = spans[i + 1][1][0] if i + 1 < len(spans) else len(lines)
        block = "".join(lines[start:stop])
        blocks[name] = block if block.endswith("\n") else block + "\n"
    lead = "".join(lines[: spans[0][1][0]]) if spans else "".join(lines)
    return _Note(
        text=text,
        head=text[:yaml_start],
        lead=lead,
        blocks=blocks,
        order=tuple(blocks),
        fence=text[yaml_end:body_start],
        body=text[body_start:],
        memory=parsed.memory,
        fields=parsed.fields,
        state=seal_state(text),
    )


def _split_body(body: str) -> _Body:
    """A body cut into the pieces merged apart; `_join_body` puts them back byte for byte."""
    span = history_span(body)
    start, end = span if span is not None else (len(body), len(body))
    before = body[:start]
    pre = before.rstrip("\n")
    section = body[start:end]
    heading, _, rest = section.partition("\n")
    heading += "\n" if heading else ""
    return _Body(pre, before[len(pre) :], heading, split_lines(rest), body[end:])


def _join_body(parts: _Body) -> str:
    if not parts.heading and not parts.history:
        return parts.pre + parts.gap + parts.post
    gap = parts.gap
    if not parts.heading:  # a section the merge adds starts after a blank line
        gap = "\n\n" if parts.pre else ""
    history = "".join(parts.history)
    return parts.pre + gap + (parts.heading or _HEADING) + history + parts.post


def _same_memory(a: Memory, b: Memory) -> bool:
    """Two notes created apart hold one memory: the same kind, about the same person, saying
    the same thing (whitespace and case aside)."""

    def said(m: Memory) -> str:
        return " ".join(m.text.split()).casefold()

    return a.type == b.type and a.subject == b.subject and said(a) == said(b)


# --- merging -----------------------------------------------------------------------------------


def _three_way(base: Any, ours: Any, theirs: Any) -> Any:
    """The one-sided answer, or `_BOTH` when both sides changed the value differently."""
    if ours == theirs:
        return ours
    if ours == base:
        return theirs
    if theirs == base:
        return ours
    return _BOTH


def _rank(note: _Note) -> tuple[Any, ...]:
    """The product's conflict rule: higher confidence wins, a tie goes to the newer; the
    rest only makes the choice total, so it never depends on which side is "ours"."""
    m = note.memory
    return (m.confidence, m.updated, m.confirmed, m.text, note.text)


def _union(base: Sequence[str] | None, ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """A three-way set merge: what both sides kept from the base, in the base's order, then
    what either added, sorted (no side's order is preferred)."""
    if base is None:
        common = [x for x in dict.fromkeys(ours) if x in set(theirs)]
        kept = common
        added = (set(ours) | set(theirs)) - set(common)
    else:
        kept = [x for x in dict.fromkeys(base) if x in set(ours) and x in set(theirs)]
        added = (set(ours) | set(theirs)) - set(base)
    return kept + sorted(added)


def _items(memory: Memory, name: str) -> Sequence[str]:
    """A list key's values: `tags` and `aliases` are fields, `kept_over_sources` an extra key."""
    return kept_over(memory.extra.get(name), ()) if name == KEPT_OVER_KEY else getattr(memory, name)


def _block(name: str, value: Any) -> str:
    return render_fields({name: value})


class _Merger:
    """One three-way merge (or an add/add of one memory when `base` is None)."""

    def __init__(self, base: _Note | None, ours: _Note, theirs: _Note, marker_size: int) -> None:
        self.base, self.ours, self.theirs = base, ours, theirs
        self.marker_size = marker_size
        self.winner, self.loser = (ours, theirs) if _rank(ours) >= _rank(theirs) else (theirs, ours)
        self.decisions: list[str] = []
        self.conflicts = 0

    # each side's value of one piece; the base's is None in an add/add

    def _b(self, name: str) -> str | None:
        return self.base.blocks.get(name) if self.base else None

    def merge(self) -> str:
        blocks = self._merge_blocks()
        body = self._merge_body()
        b, o, t = self.base, self.ours, self.theirs
        head = self._piece(b.head if b else None, o.head, t.head)
        lead = self._piece(b.lead if b else None, o.lead, t.lead)
        fence = self._piece(b.fence if b else None, o.fence, t.fence)
        order = self._order(blocks)
        return head + lead + "".join(blocks[k] for k in order) + (fence or "---\n") + body

    def _piece(self, base: str | None, ours: str, theirs: str) -> str:
        value = _three_way(base, ours, theirs)
        if value is _BOTH:
            return ours if self.winner is self.ours else theirs
        return value

    # --- frontmatter ---------------------------------------------------------------------------

    def _merge_blocks(self) -> dict[str, str]:
        o, t = self.ours, self.theirs
        names = dict.fromkeys([*(self.base.order if self.base else ()), *o.order, *t.order])
        names.pop(DIGEST_KEY, None)  # sealed (or not) at the end, over the merged text
        out: dict[str, str | None] = {}
        for name in names:
            if name in ("confirmations", SOURCES_COUNT_KEY, "sources"):
                continue
            base, ours, theirs = self._b(name), o.blocks.get(name), t.blocks.get(name)
            value = _three_way(base, ours, theirs)
            if value is _BOTH:
                value = self._rule(name, base, ours, theirs)
            out[name] = value
        out.update(self._merge_counts())
        return {k: v for k, v in out.items() if v is not None}

    def _rule(self, name: str, base: str | None, ours: str | None, theirs: str | None) -> str:
        if ours is None or theirs is None:
            kept = ours if ours is not None else theirs
            assert kept is not None
            self.decisions.append(f"{name}: changed on one side, deleted on the other: kept")
            return kept
        om, tm = self.ours.memory, self.theirs.memory
        if name == "id":
            self.decisions.append(f"id: kept the smaller of {om.id} and {tm.id}")
            return ours if om.id <= tm.id else theirs
        if name in _LATER or name in _EARLIER or name in _HIGHER:
            ov, tv = getattr(om, name), getattr(tm, name)
            if ov == tv:
                return min(ours, theirs)  # the same value spelled two ways
            pick_ours = (ov > tv) == (name not in _EARLIER)
            how = "earlier" if name in _EARLIER else ("higher" if name in _HIGHER else "later")
            self.decisions.append(f"{name}: the {how}")
            return ours if pick_ours else theirs
        if name in _SETS:
            base_items = _items(self.base.memory, name) if self.base else None
            merged = _union(base_items, _items(om, name), _items(tm, name))
            self.decisions.append(f"{name}: united")
            return _block(name, merged)
        if name in _WINNER_KEYS or self.base is None:
            self.decisions.append(f"{name}: the winner's (higher confidence, then newer)")
            return self.winner.blocks[name]
        self.decisions.append(f"{name}: changed differently on both sides: left for a person")
        return self._markers(ours, theirs)

    def _markers(self, ours: str, theirs: str) -> str:
        """One conflict, marked as git marks it, for a person to resolve."""
        self.conflicts += 1
        return _whole_conflict(ours, theirs, self.marker_size)

    def _merge_counts(self) -> dict[str, str | None]:
        """confirmations, sources and sources_count add up, so "both changed" is never "no
        conflict", even when both sides wrote the same number (1 -> 2 on both sides is 3)."""
        b, o, t = self.base, self.ours, self.theirs
        out: dict[str, Any] = {}
        for name in ("confirmations", "sources", SOURCES_COUNT_KEY):
            out[name] = _three_way(self._b(name), o.blocks.get(name), t.blocks.get(name))
        base_sources = b.memory.sources if b else ()
        new_o = set(o.memory.sources) - set(base_sources)
        new_t = set(t.memory.sources) - set(base_sources)
        overlap = len(new_o & new_t)  # one message seen on both devices counts once

        base, ours, theirs = (self._b("confirmations"), o.blocks.get("confirmations"),
                              t.blocks.get("confirmations"))  # fmt: skip
        if ours is not None and theirs is not None and base not in (ours, theirs):
            # A note without the property counts as confirmed once, as the model reads it.
            start = b.memory.confirmations if b else 0
            total = _additive(start, o.memory.confirmations, t.memory.confirmations, overlap)
            out["confirmations"] = _block("confirmations", total)
            self.decisions.append(f"confirmations: both sides' increments added ({total})")
        elif out["confirmations"] is _BOTH:
            out["confirmations"] = self._rule("confirmations", base, ours, theirs)

        if out["sources"] is _BOTH or out[SOURCES_COUNT_KEY] is _BOTH:
            united = _union(b.memory.sources if b else None, o.memory.sources, t.memory.sources)
            total = _additive(_count(b), _count(o), _count(t), overlap)
            total = max(total, len(united))
            kept, counted = cap_sources(united, total)
            out["sources"] = _block("sources", kept)
            out[SOURCES_COUNT_KEY] = (
                _block(SOURCES_COUNT_KEY, counted) if counted is not None else None
            )
            self.decisions.append(f"sources: united ({len(kept)} listed of {total})")
        return out

    def _order(self, blocks: dict[str, str]) -> list[str]:
        """The merged key order: the base's, then the keys the sides added (one side's own
        order when only one added any, else a canonical order)."""
        b, o, t = self.base, self.ours, self.theirs
        if b is not None:
            first = [k for k in b.order if k in blocks]
            added_o = [k for k in o.order if k in blocks and k not in b.blocks]
            added_t = [k for k in t.order if k in blocks and k not in b.blocks]
        else:
            first = [k for k in self.winner.order if k in blocks]
            added_o = added_t = [k for k in self.loser.order if k in blocks and k not in first]
        if not added_t or added_o == added_t:
            added = added_o
        elif not added_o:
            added = added_t
        else:
            rank = {name: i for i, name in enumerate(FIELD_ORDER)}
            added = sorted(set(added_o) | set(added_t), key=lambda k: (rank.get(k, 99), k))
        return first + added

    # --- body ----------------------------------------------------------------------------------

    def _merge_body(self) -> str:
        b, o, t = self.base, self.ours, self.theirs
        om, tm = o.memory, t.memory
        two_ids = om.id != tm.id and bool(om.id and tm.id) and (b is None or not b.memory.id)
        whole = _three_way(b.body if b else None, o.body, t.body)
        if whole is not _BOTH and not two_ids:
            return whole
        bp = _split_body(b.body) if b else None
        op, tp = _split_body(o.body), _split_body(t.body)
        extra: list[str] = []
        pre = self._merge_pre(bp.pre if bp else None, op.pre, tp.pre, extra)
        gap = _three_way(bp.gap if bp else None, op.gap, tp.gap)
        if gap is _BOTH:
            gap = max(op.gap, tp.gap, key=lambda g: (len(g), g))
        heading = _three_way(bp.heading if bp else None, op.heading, tp.heading)
        if heading is _BOTH:  # spelled differently, or removed on one side
            heading = max(op.heading, tp.heading)
        history = merge_lines(
            bp.history if bp else (),
            op.history,
            tp.history,
            resolve=_history_hunk,
            marker_size=self.marker_size,
        )
        if history.conflicts:
            self.decisions.append("History: a person's text changed on both sides: left for you")
            self.conflicts += history.conflicts
        if two_ids:
            keep, other = sorted((om, tm), key=lambda m: m.id)
            how = "learned" if b is None else "given an id"
            extra.append(
                f"merged {other.id}, the same memory {how} on another device (confidence "
                f"{other.confidence:.2f}, confirmations {other.confirmations})"
            )
            at = _latest(_explicit_date(o), _explicit_date(t))
            if at is not None:
                extra[-1] = f"{format_date(at)} {extra[-1]}"
            self.decisions.append(f"one memory under two ids: kept {keep.id}, merged {other.id}")
        post = _three_way(bp.post if bp else None, op.post, tp.post)
        if post is _BOTH:
            after = merge_lines(
                split_lines(bp.post) if bp else (),
                split_lines(op.post),
                split_lines(tp.post),
                marker_size=self.marker_size,
            )
            if after.conflicts:
                self.decisions.append("text after the History changed on both sides: left for you")
                self.conflicts += after.conflicts
            post = after.text
        lines = _with_entries(history.lines, extra)
        return _join_body(_Body(pre, gap, heading, lines, post))

    def _merge_pre(self, base: str | None, ours: str, theirs: str, extra: list[str]) -> str:
        """The statement: a one-sided edit taken, edits to different lines both kept (as git's
        text merge keeps them); the same lines changed on both sides of tota's own one-paragraph
        statements resolved by the product's rule (the loser into `extra`, for the History);
        anything else marked for a person."""
        choice = _three_way(base, ours, theirs)
        if choice is not _BOTH:
            return choice
        if _norm(ours) == _norm(theirs):
            return _pick_raw(base, ours, theirs)
        if base is not None and _norm(base) in (_norm(ours), _norm(theirs)):
            return theirs if _norm(ours) == _norm(base) else ours  # the other only re-spaced
        merged = merge_lines(
            split_lines(base or ""),
            split_lines(ours),
            split_lines(theirs),
            marker_size=self.marker_size,
        )
        text = merged.text.removesuffix("\n")  # its line end is in the gap
        if not merged.conflicts:
            self.decisions.append("statement: both sides' edits kept, merged line by line")
            return text
        if self._tota_statements():
            entry = self._statement_entry()
            if entry is not None:
                extra.extend([entry] if entry else [])
                return _split_body(self.winner.body).pre
        else:
            self.decisions.append("statement: the same lines changed on both sides: left for you")
        self.conflicts += merged.conflicts
        return text

    def _tota_statements(self) -> bool:
        """Both sides hold a statement exactly as tota wrote it (sealed), one paragraph each,
        learned rather than written by a person: only those are decided by confidence. A
        person's prose is never moved to History, and a sync seals a hand edit too (with
        evidence `manual`), so the seal alone does not say whose words these are."""

        def single(note: _Note) -> bool:
            said = _norm(split_quote(_split_body(note.body).pre)[0])
            return (
                note.state is SealState.SEALED
                and note.memory.evidence is not Evidence.MANUAL
                and "\n\n" not in said
            )

        return single(self.ours) and single(self.theirs)

    def _statement_entry(self) -> str | None:
        """The History line that keeps the losing statement (the product's conflict rule),
        dated from the sides' own dates, never the clock ("" when the words are the same)."""
        win, lose = self.winner.memory, self.loser.memory
        if _norm(split_quote(win.text)[0]) == _norm(split_quote(lose.text)[0]):
            self.decisions.append("statement: the same words; the winner's quote and layout")
            return ""
        lost = " ".join(lose.text.split())
        if len(lost) > _MAX_REPLACED_CHARS:
            self.decisions.append(
                "statement: changed on both sides and too long for History: left for a person"
            )
            return None
        self.decisions.append(
            f"statement: kept the one at confidence {win.confidence:.2f}; the other is in History"
        )
        lose_date = _explicit_date(self.loser)
        at = _latest(_explicit_date(self.winner), lose_date)
        evidence = lose.evidence.value
        entry = replaced_entry(
            at or _NO_DATE, lose.text, lose.confidence, win.confidence, evidence, lose_date
        )
        # Neither side says when it was written: the entry says what, without a made-up date.
        return entry if at is not None else entry.split(" ", 1)[1]


def _explicit_date(note: _Note) -> datetime | None:
    """When a version says it was last written (`updated`, else `created`); None when it
    has neither, rather than a date the parser would make up."""
    for name in ("updated", "created"):
        if note.fields.get(name) not in (None, ""):
            value = getattr(note.memory, name)
            return value if isinstance(value, datetime) else None
    return None


def _latest(*dates: datetime | None) -> datetime | None:
    known = [d for d in dates if d is not None]
    return max(known) if known else None


def _is_entry(line: str) -> bool:
    return _ENTRY.match(line) is not None


def _history_hunk(hunk: Hunk) -> Lines | None:
    """A stretch of History both sides changed: tota's dated entries are united (a line kept
    as many times as the side that has it most often), a person's other lines merged as text.

    The layout follows the side that changed the text (the base's when neither did); entries
    it lacks go after its last entry, sorted, which is by date. None (a conflict for a person)
    when both sides changed the text differently.
    """

    def text(lines: Lines) -> Lines:
        return tuple(line for line in lines if not _is_entry(line))

    said = _three_way(text(hunk.base), text(hunk.ours), text(hunk.theirs))
    if said is _BOTH:
        return None
    counts = Counter(filter(_is_entry, hunk.ours)) | Counter(filter(_is_entry, hunk.theirs))
    if said == text(hunk.base):
        layout = hunk.base
    elif text(hunk.ours) == text(hunk.theirs):
        layout = min(hunk.ours, hunk.theirs)  # the same text, entries placed differently
    else:
        layout = hunk.ours if text(hunk.ours) == said else hunk.theirs
    out: list[str] = []
    after = 0
    for line in layout:
        if _is_entry(line):
            if counts[line] <= 0:
                continue  # gone from both sides
            counts[line] -= 1
            after = len(out) + 1
        out.append(line)
    return (*out[:after], *sorted(counts.elements()), *out[after:])


def _with_entries(lines: Lines, entries: Sequence[str]) -> Lines:
    """`lines` (a History section) with the merge's own entries after its last entry."""
    new = [f"- {entry}\n" for entry in sorted(entries) if f"- {entry}\n" not in lines]
    if not new:
        return lines
    after = max((i + 1 for i, line in enumerate(lines) if _is_entry(line)), default=0)
    return (*lines[:after], *new, *lines[after:])


def _count(note: _Note | None) -> int:
    """How many sources a version has had: its `sources_count`, else the length of its list."""
    return 0 if note is None else source_total(note.memory)


def _additive(base: int, ours: int, theirs: int, overlap: int) -> int:
    """The base plus both sides' increments, less what both took from the same message."""
    if ours == base:
        return theirs
    if theirs == base:
        return ours
    return max(base + (ours - base) + (theirs - base) - overlap, ours, theirs)


def _pick_raw(base: str | None, ours: str, theirs: str) -> str:
    """Of two spellings of the same text, the changed one, else the smaller (deterministic)."""
    value = _three_way(base, ours, theirs)
    return min(ours, theirs) if value is _BOTH else value


def _norm(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().split("\n"))


# --- finishing ---------------------------------------------------------------------------------


def _reseal(text: str, ours: _Note, theirs: _Note) -> str:
    """Seal the merge when both sides were tota's own writes; keep it unsealed (a stale
    digest) when either side holds a hand edit no sync has recorded yet, so the next sync
    on either clone records it."""
    if ours.state is SealState.SEALED and theirs.state is SealState.SEALED:
        return seal(text)
    digests = [str(n.fields[DIGEST_KEY]) for n in (ours, theirs) if n.fields.get(DIGEST_KEY)]
    if not digests:
        return text
    return patch_frontmatter(text, {DIGEST_KEY: min(digests)}, verify=False)


def _whole_conflict(ours: str, theirs: str, size: int) -> str:
    """Both texts between conflict markers, as git writes them."""

    def line_end(text: str) -> str:
        return text if text.endswith("\n") or not text else text + "\n"

    return (
        f"{'<' * size} ours\n{line_end(ours)}{'=' * size}\n{line_end(theirs)}{'>' * size} theirs\n"
    )


def split_both_kept(text: str) -> tuple[str, str] | None:
    """The two notes of an add/add the driver kept whole between markers, or None.

    Only that exact shape (a marker line, a whole note, a separator, a whole note, a closing
    marker, nothing else) and only when both halves are memory notes: anything else is a
    person's conflict to resolve by hand.
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    crlf = "\r\n" in text
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    if len(lines) < 4 or lines[-1] != "":
        return None
    size = len(lines[0]) - len(lines[0].lstrip("<"))
    if size < 7 or lines[0][size:] not in ("", " ours") or not lines[-2].startswith(">" * size):
        return None
    middle = [i for i, line in enumerate(lines) if line == "=" * size]
    if len(middle) != 1:
        return None
    halves = ("\n".join(lines[1 : middle[0]]) + "\n", "\n".join(lines[middle[0] + 1 : -2]) + "\n")
    for half in halves:
        parsed = parse_note(half.encode("utf-8"), "check.md")
        if parsed.memory is None or parsed.error is not None or not parsed.memory.id:
            return None
    one, two = (bom + (h.replace("\n", "\r\n") if crlf else h) for h in halves)
    return one, two


def _style(base: str | None, ours: str, theirs: str, test: Any, yes: str, no: str) -> str:
    """A text style (CRLF, BOM) both sides agree on; when they differ, the base's."""
    if test(ours) == test(theirs):
        return yes if test(ours) else no
    return yes if base and test(base) else no


def _finish(text: str, newline: str, bom: str) -> str:
    return bom + (text.replace("\n", "\r\n") if newline == "\r\n" else text)
