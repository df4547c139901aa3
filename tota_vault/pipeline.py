"""From a conversation to notes: extract -> score -> merge or resolve conflicts -> store.

`decide` is the whole policy, a pure function over plain data: given a scored candidate and
what the index knows (does a memory already cite this message, which active memories are
alike, which fill the same slot), it returns one `Decision`. `Learner.observe` does the I/O
around it: the index look-ups before, the note writes after, each through the note layer
(atomic, a person's note only by surgical patch).

    create     a new note
    merge      a near-duplicate (>= 74% alike, same type and subject, and nothing that makes
               them two facts: the same names, numbers and dates, no thing put in another's
               place, see `conflicts.differ`) exists: it gains a confirmation, confidence and
               the source
    supersede  an active memory fills the same slot with another value, or the candidate
               says it changed its mind about one (a date moved, a plan dropped, a place,
               tool or habit switched: `conflicts.replaces`), and the candidate is more
               confident (or as confident and newer): a new note, whose History names the
               old value; the old note is marked `superseded`, never deleted
    keep       the existing value is more confident: it stays, and its History notes the
               contradiction
    skip       below the confidence threshold, or this message was already observed, or a
               memory learned from it was forgotten (its tombstone, see forgotten.py)

The guard runs on every way in: messages are cleaned as they enter (`sanitize.clean_text`)
and their secrets redacted (`clean_message`), before any extractor reads them; and each
candidate, whatever extractor made it, passes `guard` before anything is decided:
its statement and quote cleaned, any secret redacted (the candidate skipped when the secret
is all it says), and its statement capped. The report counts secrets by kind, never a value.
Ids are not text to redact but names to keep: a conversation id, message id or speaker name
that holds a secret is refused whole (`refuse_secret_ids`), as `remember` refuses a source.
A message longer than `MAX_MESSAGE_CHARS` is cut there (a pasted log or dump is not a memory,
and scanning megabytes would hold up every face of the vault), and the report says so.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, Literal

from .config import ExtractSettings
from .conflicts import adds, change_kind, differ, holds_whole, replaces, search_words
from .errors import (
    InvalidNoteError,
    NoteChangedError,
    NoteHeldError,
    SecretError,
    TotaError,
    ValidationError,
    first_line,
)
from .extract.base import Candidate, Extractor, Skip
from .extract.messages import NOT_IN_AN_ID, Message
from .extract.secrets import describe, find_secrets, is_only_secret, redact
from .files import read_file
from .history import KEPT_OVER_KEY, kept_entry, kept_over_list, replaced_entry
from .index import BY_KEY_LIMIT, MENTIONING_LIMIT, SIMILAR_LIMIT, Index
from .model import SOURCES_COUNT_KEY, Memory, Status, cap_sources, new_id, now, parse_date
from .notes import parse_note, statement_problem, title_from_text, title_of, unique_title
from .overlay import Overlay
from .rows import MemoryRow
from .sanitize import MAX_STATEMENT_CHARS, cap_statement, clean_text, shorten
from .scoring import (
    DEFAULT_MIN_CONFIDENCE,
    MERGE_THRESHOLD,
    Scores,
    confirm_confidence,
    score,
    similarity,
    slot_value,
)
from .store import LearningStore, StoredMemory
from .text import CUE_WORDS, FUNCTION_WORDS, STOPWORDS, tokens
from .topics import with_topics

__all__ = [
    "Decision",
    "Guarded",
    "Learner",
    "ObserveReport",
    "Outcome",
    "check_conversation_id",
    "choose_extractor",
    "clean_message",
    "decide",
    "guard",
    "query_words",
    "refuse_secret_ids",
]

#: The longest message the pipeline reads, in characters; the rest is dropped, with a note in
#: the report. A person's message is rarely over a few thousand; past this it is a paste.
MAX_MESSAGE_CHARS = 20_000
#: How far back from the cap a message is cut at a space instead, so no word (or token, half
#: of which would no longer look like a key) is split.
_CUT_LOOKBACK = 200

Action = Literal["create", "merge", "supersede", "keep", "skip"]


@dataclass(frozen=True)
class Decision:
    """What to do with one candidate; `target` is the existing memory's index row."""

    action: Action
    reason: str
    target: MemoryRow | None = None


def _tags(candidate: Candidate) -> tuple[str, ...]:
    """A new memory's tags: its type, the extractor's, then the topics of its statement."""
    return with_topics((f"tota/{candidate.type.value}", *candidate.tags), candidate.text)


def _row_confidence(row: MemoryRow) -> float:
    return float(row.confidence or 0.0)


def decide(
    candidate: Candidate,
    scores: Scores,
    *,
    min_confidence: float,
    already_observed: bool,
    similar: Sequence[MemoryRow],
    same_key: Sequence[MemoryRow],
    threshold: float = MERGE_THRESHOLD,
    forgotten: bool = False,
    earlier: Sequence[MemoryRow] = (),
    learned: Collection[str] = (),
) -> Decision:
    """The storage policy for one candidate (see the module docstring). Pure.

    `learned` are the notes this candidate's message was already learned into by this run: a
    message that says one thing three times ("I love jazz. I love jazz.") confirms it once.

    `earlier` are the subject's active memories a change of mind may replace (any type; looked
    up only when the candidate says something changed, `conflicts.change_kind`).

    A candidate alike to a memory but saying more ("... allergic to peanuts and shellfish"
    after "... allergic to peanuts", `conflicts.adds`) is neither merged (what it adds would
    be lost) nor resolved as a conflict (both are true: the seed's rule picks between two
    values of one slot, and here nothing is contradicted): it is another memory.
    """
    if forgotten:
        return Decision("skip", "a memory learned from this message was forgotten")
    if already_observed:
        return Decision("skip", "this message was already observed")
    if scores.confidence < min_confidence:
        return Decision("skip", f"confidence {scores.confidence:.2f} < {min_confidence:.2f}")
    if candidate.key and same_key:
        current = same_key[0]
        if _same_value(candidate.key, candidate.text, current.text, threshold):
            return _merge_into(current, f"the same {candidate.key}", learned)
        return _resolve(candidate, scores, current, "")
    changes = [
        (row, change)
        for row in earlier
        if not (row.key and row.key == candidate.key)  # a slot's values are compared above
        and (change := replaces(candidate.text, row.text, subject=candidate.subject)) is not None
    ]
    exact = [(row, change) for row, change in changes if not change.loose]
    # A loose reading ("The appointment moved to Friday" over "The dentist appointment is on
    # Monday") holds only when it fits one memory: with a vet appointment too, it is neither.
    if exact or len(changes) == 1:
        row, change = (exact or changes)[0]
        return _resolve(candidate, scores, row, f"{change.reason}: ")
    best: tuple[float, MemoryRow] | None = None
    more: str | None = None
    for row in similar:
        if candidate.key and row.key == candidate.key:
            continue  # a slot's values are compared above, never by text alone
        alike = similarity(candidate.text, row.text)
        difference = differ(candidate.text, row.text) if alike >= threshold else "unlike"
        first = row.text.split("\n\n", 1)[0]
        if difference is not None and first != row.text:
            # A person's note of several paragraphs ("Likes green tea in the afternoon." and a
            # list of their own below it) states its fact first: the candidate that restates
            # that paragraph is a duplicate of the note, whatever the person added below it.
            alike = max(alike, similarity(candidate.text, first))
            if alike >= threshold and differ(candidate.text, first) is None:
                difference = None
        if difference is not None and alike >= threshold and holds_whole(row.text, candidate.text):
            # The memory says all the candidate says, and more (a person added ", at 6:30" to
            # it, or it was learned fuller): merged, nothing is lost; created, it was a second,
            # poorer copy of it.
            difference = None
        if difference is None:
            if best is None or alike > best[0]:
                best = (alike, row)
        elif alike >= threshold and more is None:
            more = adds(candidate.text, row.text)
    if best is not None:
        return _merge_into(best[1], f"{best[0]:.0f}% alike", learned)
    if more is not None:
        # Not a duplicate (a merge would lose what it adds) and not a contradiction (both
        # are true, so neither loses by the conflict rule): another memory.
        return Decision("create", f"says more ({more}) than an alike memory")
    return Decision("create", "new")


def _merge_into(row: MemoryRow, why: str, learned: Collection[str]) -> Decision:
    """A merge into `row`, unless this message was learned into it already in this run."""
    if row.path in learned:
        return Decision("skip", "said again in the same message", row)
    return Decision("merge", why, row)


def _resolve(candidate: Candidate, scores: Scores, current: MemoryRow, why: str) -> Decision:
    """The seed's rule for a conflict: the higher confidence wins; a tie goes to the newer."""
    old = _row_confidence(current)
    if scores.confidence > old:
        return Decision(
            "supersede", f"{why}confidence {scores.confidence:.2f} > {old:.2f}", current
        )
    if scores.confidence == old and _is_newer(candidate, current):
        return Decision("supersede", f"{why}confidence {old:.2f} tie, newer wins", current)
    return Decision(
        "keep", f"{why}existing confidence {old:.2f} >= {scores.confidence:.2f}", current
    )


def _same_value(key: str, text: str, other: str, threshold: float) -> bool:
    """Whether two statements of one slot give it the same value ("Lives in Porto" and "Is
    based in Porto" do; "Lives in Berlin" and "Lives in Dublin", 87% alike, do not)."""
    mine, theirs = slot_value(key, text), slot_value(key, other)
    if mine is not None and theirs is not None:
        return mine == theirs
    return similarity(text, other) >= threshold and differ(text, other) is None


def _is_newer(candidate: Candidate, row: MemoryRow) -> bool:
    if candidate.timestamp is None or not row.updated:
        return True  # stated now: newer than anything stored
    try:
        return candidate.timestamp >= parse_date(row.updated)
    except ValueError:
        return True


#: A capitalised word: where a name the person gave before may stand ("Theo is allergic to
#: peanuts", "Actually Biscuit is a basset hound"); `references.people_named_in` reads who.
_CAPITALISED = re.compile(r"\b([A-Z][\w'-]+)")
#: Capitalised, and never a name someone gave.
_THE_SPEAKER = frozenset({"I", "I'm", "I've", "I'll", "I'd"})


def _named_before(messages: Sequence[Message], lookups: _Lookups) -> dict[str, dict[str, str]]:
    """The people each speaker of `messages` named in earlier turns and names here (speaker ->
    {"Theo": "son"}), from their relationship memories: one look-up a speaker, none when no
    capitalised word but "I" and the function words is said."""
    from .extract.references import people_named_in

    named: dict[str, set[str]] = {}
    for message in messages:
        if message.role != "user":
            continue
        names = {
            w
            for w in _CAPITALISED.findall(message.content)
            if w.lower() not in STOPWORDS and w not in _THE_SPEAKER
        }
        if names:
            named.setdefault(message.name or "user", set()).update(names)
    known: dict[str, dict[str, str]] = {}
    for subject, names in named.items():
        owner = "The user" if subject == "user" else subject
        found = people_named_in(lookups.naming(sorted(names), subject=subject), owner)
        if found:
            known[subject] = found
    return known


def _takes_known_people(extract: Callable[..., Any]) -> bool:
    """Whether an extractor's `extract` reads `known_people` (the rules do; one written to
    the bare protocol need not)."""
    function = getattr(extract, "__func__", None)  # a method: its function, one per class
    if function is None:
        return "known_people" in inspect.signature(extract).parameters
    return _function_takes_known_people(function)


@lru_cache(maxsize=64)
def _function_takes_known_people(function: Callable[..., Any]) -> bool:
    # A signature costs a quarter of a short `observe` call's own work (a hook calls it after
    # every reply with a new Learner): read once a class.
    return "known_people" in inspect.signature(function).parameters


def choose_extractor(settings: ExtractSettings) -> Extractor:
    """The extractor tota.toml's `[extract] backend` names: the rules unless it says "llm".

    The LLM extractor's module (and its HTTP client) is imported only when chosen.
    """
    if settings.backend == "llm":
        from .extract.llm import LLMExtractor

        return LLMExtractor(settings)
    from .extract.rules import RuleExtractor

    return RuleExtractor()


def query_words(text: str, *, subject: str = "user") -> list[str]:
    """The words of a statement worth searching for: no stopwords, cue verbs or the subject's
    own name (every memory about Caroline names her), longest first (a long word is usually
    a rarer one)."""
    name = subject.lower()
    words = {
        w
        for w in tokens(text)
        if len(w) >= 3
        and w not in FUNCTION_WORDS
        and w not in CUE_WORDS
        and w.removesuffix("'s") != name
    }
    return sorted(words, key=lambda w: (-len(w), w))


def clean_message(message: Message) -> tuple[Message, tuple[str, ...]]:
    """A message as it enters the pipeline, and the kinds of secret it held.

    Its text is cut to `MAX_MESSAGE_CHARS` (at a space when there is one near), its text and
    name are cleaned (`clean_text`) and every secret in its text is redacted, before any
    extractor reads it: an extractor that calls a model over the network, or anything that
    keeps the conversation, never sees a secret either.
    """
    content = clean_text(_cap_message(message.content))
    name = clean_text(message.name) if message.name is not None else None
    found = find_secrets(content)
    if found:
        content = redact(content, found)
    if content is message.content and name is message.name:
        return message, ()
    return replace(message, content=content, name=name), tuple(s.kind for s in found)


def _cap_message(content: str) -> str:
    if len(content) <= MAX_MESSAGE_CHARS:
        return content
    space = content.rfind(" ", MAX_MESSAGE_CHARS - _CUT_LOOKBACK, MAX_MESSAGE_CHARS + 1)
    return content[: space if space > 0 else MAX_MESSAGE_CHARS]


def check_conversation_id(conversation_id: str) -> None:
    """Raise `ValidationError` for a conversation id a source cannot hold: every memory's
    source is `<conversation>#<message id>`, so a "#" in the id would read as two ids, and an
    empty one or one with a line break is no name. Pure."""
    if not conversation_id.strip():
        raise ValidationError("the conversation id is empty")
    if NOT_IN_AN_ID.search(conversation_id):
        what = "a #" if "#" in conversation_id else "a line break"
        raise ValidationError(
            f"conversation id {conversation_id!r} holds {what}; sources read "
            "<conversation>#<message id>: choose an id without it"
        )


def refuse_secret_ids(
    conversation_id: str | None, messages: Sequence[Message], *, first_position: int = 1
) -> None:
    """Raise `SecretError` when the conversation id or a message's id or name holds a secret.

    Ids end up whole in every note's `sources:` and in the index, so a secret there cannot be
    redacted away; the error names the field ("the conversation id holds a GitHub token"),
    never the value. A random-looking token alone is no reason: ids are random by design.
    `conversation_id` None checks the messages only (a later step of one conversation); a
    speaker's name is scanned once, however many messages carry it.
    """
    fields = [] if conversation_id is None else [("the conversation id", conversation_id)]
    names: set[str] = set()
    for position, message in enumerate(messages, first_position):
        fields.append((f"the id of message {position}", message.id))
        if message.name is not None and message.name not in names:
            names.add(message.name)
            fields.append((f"the name of message {position}", message.name))
    for where, value in fields:
        for secret in find_secrets(value):
            if secret.kind != "random_token":
                raise SecretError(secret.kind, name=describe(secret.kind), where=where)


@dataclass(frozen=True)
class Guarded:
    """A candidate after `guard`: safe to store, or the reason it is skipped."""

    candidate: Candidate
    secrets: tuple[str, ...] = ()  # the kinds found in its statement, one per secret
    skip: str | None = None


def guard(candidate: Candidate, quote: tuple[str, tuple[str, ...]] | None = None) -> Guarded:
    """Make one candidate storable, from any extractor. Pure.

    Its text fields are cleaned; secrets in its statement are redacted, and a statement that
    says nothing but the secret ("The wifi password is [REDACTED password]") is skipped; secrets
    in its quote are redacted; a statement over `MAX_STATEMENT_CHARS` is skipped (cut, it
    would say something else); a statement the note format would read back
    differently (`notes.statement_problem`) is skipped. `quote` is
    `guard_quote(candidate.quote)` when the caller has it (every candidate of a message shares
    one quote: it is scanned once).
    """
    text = clean_text(candidate.text).strip()
    kinds: list[str] = []
    found = find_secrets(text)
    skip = None
    if found:
        kinds.extend(s.kind for s in found)
        text = redact(text, found)
        if is_only_secret(text):
            skip = f"contains a secret ({found[0].kind})"
    if quote is None:
        quote = guard_quote(candidate.quote)
    if len(text) > MAX_STATEMENT_CHARS:
        # Cut, a statement keeps its start and loses what it was about ("Prefers really really
        # ... " without "short functions"): no fact at all beats a wrong one. The message
        # itself stays quoted among the conversation's turns.
        skip = skip or (
            f"too long to be one fact ({len(text):,} characters; a memory holds at most "
            f"{MAX_STATEMENT_CHARS:,})"
        )
        text = shorten(text)  # the report shows its beginning
    else:
        problem = statement_problem(text)
        if problem is not None:
            skip = skip or f"cannot be stored as written: {problem}"
    cleaned = replace(
        candidate,
        text=text,
        quote=quote[0],
        subject=clean_text(candidate.subject),
        key=clean_text(candidate.key) if candidate.key else candidate.key,
        tags=tuple(clean_text(t) for t in candidate.tags),
    )
    return Guarded(cleaned, tuple(kinds), skip)


def guard_quote(quote: str) -> tuple[str, tuple[str, ...]]:
    """A candidate's quote cleaned, redacted and capped, with the kinds of secret it held."""
    quote = clean_text(quote)
    found = find_secrets(quote)
    if found:
        quote = redact(quote, found)
    capped = cap_statement(quote)
    return (shorten(quote, MAX_STATEMENT_CHARS) if capped is None else capped), tuple(
        s.kind for s in found
    )


@dataclass(frozen=True)
class Outcome:
    """What happened to one candidate, for the report."""

    action: Action
    type: str
    text: str
    source: str
    reason: str
    path: str | None = None
    confidence: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class ObserveReport:
    """What one `observe` call did: per candidate, and per sentence the extractor skipped."""

    conversation_id: str
    paused: bool = False
    dry_run: bool = False
    #: How many messages were read.
    messages: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    #: Secrets found and kept out of the vault, by kind (redacted, or their sentence skipped).
    secrets: Counter[str] = field(default_factory=Counter)
    #: Lines about the run as a whole, from the extractor (the LLM's fallbacks to the rules,
    #: an endpoint off this machine): shown after the counts, and under "notes" in JSON.
    notes: list[str] = field(default_factory=list)
    #: The reflections this call wrote or rewrote after learning (a topic that gained enough
    #: new memories, `reflect.note_new_members`); a dry run predicts none.
    reflections: list[str] = field(default_factory=list)

    def count(self, action: Action) -> int:
        """How many candidates ended in `action`."""
        return sum(1 for o in self.outcomes if o.action == action)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (`tota extract --json`)."""
        actions: tuple[Action, ...] = ("create", "merge", "supersede", "keep", "skip")
        return {
            "conversation_id": self.conversation_id,
            "paused": self.paused,
            "dry_run": self.dry_run,
            "messages": self.messages,
            "counts": {a: self.count(a) for a in actions},
            "secrets": dict(sorted(self.secrets.items())),
            "outcomes": [o.to_dict() for o in self.outcomes],
            "skipped_sentences": [s.__dict__ for s in self.skipped],
            "notes": list(self.notes),
            "reflections": list(self.reflections),
        }


#: How many messages one step of a conversation learns at a time. Each step is one index
#: transaction, committed as it ends: an interrupted run leaves every note it wrote indexed
#: but the current step's (which the batch's own failure path indexes, see `Vault.batch`),
#: and a long transcript holds one step in memory, never all of it.
CHUNK_MESSAGES = 200

#: Told how many messages were learned so far, after each step (`tota extract`'s progress).
Progress = Callable[[int], None]


class _DryRun:
    """What a dry run would have written so far, so that later candidates are decided against
    it as a real run decides against the notes it wrote (a merge within the conversation, a
    slot superseded twice): rows by path, the paths superseded, the sources cited, the titles
    taken."""

    def __init__(self) -> None:
        self.rows: dict[str, MemoryRow] = {}
        self.overlay = Overlay()  # the rows' statements, searchable as the index is
        self.superseded: set[str] = set()
        self.sources: set[str] = set()
        self.titles: set[str] = set()

    def put(self, row: MemoryRow) -> None:
        self.rows[row.path] = row
        self.overlay.put(row.path, row.text or "", row.type or "", row.subject or "", row.key)

    def drop(self, path: str) -> None:
        self.superseded.add(path)
        self.rows.pop(path, None)
        self.overlay.drop(path)


class _Lookups:
    """The index look-ups the pipeline makes, seen through a dry run's overlay when there is
    one (the overlay's rows first: they are the newest)."""

    def __init__(self, index: Index, dry: _DryRun | None) -> None:
        self.index = index
        self.dry = dry

    def _with(
        self, dry: _DryRun, paths: list[str], rows: list[MemoryRow], limit: int
    ) -> list[MemoryRow]:
        """The imagined rows the overlay found (the newest), then the index's rows the run did
        not change, to the index's own limit."""
        mine = [dry.rows[path] for path in paths]
        rest = [r for r in rows if r.path not in dry.rows and r.path not in dry.superseded]
        return (mine + rest)[:limit]

    def observed(self, source: str) -> bool:
        return self.index.observed(source) or (self.dry is not None and source in self.dry.sources)

    def similar(self, words: list[str], *, type: str, subject: str) -> list[MemoryRow]:
        rows = self.index.similar(words, type=type, subject=subject)
        if self.dry is None:
            return rows
        paths = self.dry.overlay.similar(words, type=type, subject=subject)
        return self._with(self.dry, paths, rows, SIMILAR_LIMIT)

    def by_key(self, key: str, subject: str) -> list[MemoryRow]:
        rows = self.index.by_key(key, subject)
        if self.dry is None:
            return rows
        return self._with(self.dry, self.dry.overlay.by_key(key, subject), rows, BY_KEY_LIMIT)

    def naming(self, names: list[str], *, subject: str) -> list[str]:
        texts = self.index.naming(names, subject=subject)
        if self.dry is None:
            return texts
        imagined = [
            r.text
            for r in self.dry.rows.values()
            if r.type == "relationship" and r.subject == subject and any(n in r.text for n in names)
        ]
        return [*imagined, *texts]

    def mentioning(self, words: list[str], *, subject: str) -> list[MemoryRow]:
        rows = self.index.mentioning(words, subject=subject)
        if self.dry is None:
            return rows
        paths = self.dry.overlay.mentioning(words, subject=subject)
        return self._with(self.dry, paths, rows, MENTIONING_LIMIT)


class Learner:
    """Runs the pipeline for one vault (used through `Vault.observe`)."""

    def __init__(
        self,
        vault: LearningStore,
        *,
        extractor: Extractor | None = None,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        threshold: float = MERGE_THRESHOLD,
    ) -> None:
        from .extract.rules import RuleExtractor

        self.vault = vault
        self.extractor = extractor or RuleExtractor()
        self.min_confidence = min_confidence
        self.threshold = threshold
        #: The notes the current `observe` call superseded (vault paths).
        self._superseded: set[str] = set()
        #: Whether the extractor reads the people named in earlier turns (the rules do; an
        #: extractor written to the bare protocol need not).
        self._takes_people = _takes_known_people(self.extractor.extract)

    def observe(
        self,
        messages: Iterable[Message],
        *,
        conversation_id: str,
        at: datetime | None = None,
        dry_run: bool = False,
        progress: Progress | None = None,
        chunk: int = CHUNK_MESSAGES,
        guard: Callable[[Callable[[], Message | None]], Message | None] | None = None,
    ) -> ObserveReport:
        """Learn from messages: every candidate gets one outcome in the report.

        `messages` may be any iterable (a generator over a long transcript): they are learned
        `chunk` at a time, each step one index transaction, and `progress` is told the count
        after each. The extractor of a step also sees the last message of the step before (a
        reply's question), whose own candidates were learned with that step. A note that
        changed on disk while it was being learned is skipped and reported; the rest is
        learned. A dry run decides every candidate as a real run would, against what the run
        would have written before it (merges within the conversation included).

        Raises `SecretError` before a step is read when an id or a name in it holds a secret
        (`refuse_secret_ids`): for a list of up to `chunk` messages, before anything is read.
        `guard` runs each step (`Vault` passes its index-fault recovery, which may run a step
        a second time: the report is then rolled back to where the step began).
        """
        refuse_secret_ids(conversation_id, [])  # first: the id's own error quotes it
        check_conversation_id(conversation_id)
        self._superseded = set()
        report = ObserveReport(conversation_id, dry_run=dry_run)
        dry = _DryRun() if dry_run else None
        context: Message | None = None
        done = 0
        batch: list[Message] = []

        def step(batch: list[Message], context: Message | None, done: int) -> Message | None:
            marks = (len(report.outcomes), len(report.skipped), len(report.notes))
            secrets = Counter(report.secrets)

            def attempt() -> Message | None:
                del report.outcomes[marks[0] :], report.skipped[marks[1] :]
                del report.notes[marks[2] :]
                report.secrets = Counter(secrets)
                return self._step(batch, context, done, conversation_id, at, report, dry)

            return guard(attempt) if guard is not None else attempt()

        for message in messages:
            batch.append(message)
            if len(batch) >= chunk:
                context = step(batch, context, done)
                done += len(batch)
                batch = []
                if progress is not None:
                    progress(done)
        if batch or not done:
            step(batch, context, done)
            done += len(batch)
            if progress is not None:
                progress(done)
        report.messages = done
        if not dry_run:
            # Reflections come by themselves: a topic that gained enough new memories is
            # reflected on again (reflect.note_new_members; cheap when none did).
            from .reflect import drop_members, note_new_members

            new = [o.path for o in report.outcomes if o.action in ("create", "supersede")]
            # A superseded value leaves the reflections that link it at once: a reflection
            # saying "Is vegetarian." beside "Is no longer vegetarian." misleads.
            old = [title_of(p) for p in sorted(self._superseded)]

            def reflect_new() -> None:
                dropped = drop_members(self.vault, old, now=at)
                done = note_new_members(self.vault, [p for p in new if p], now=at)
                report.reflections = list(
                    dict.fromkeys([*dropped.updated, *done.created, *done.updated])
                )

            try:
                # Through the guard, as each step: an index fault is repaired (and the
                # reflection tried again) or said in one line, never a traceback.
                if guard is not None:
                    guard(reflect_new)
                else:
                    reflect_new()
            except TotaError as exc:  # what was learned stays learned; `tota reflect` retries
                report.notes.append(f"reflections not updated: {exc}")
        return report

    def _step(
        self,
        messages: list[Message],
        context: Message | None,
        done: int,
        conversation_id: str,
        at: datetime | None,
        report: ObserveReport,
        dry: _DryRun | None,
    ) -> Message | None:
        """Learn one step of messages; return its last message (the next step's context)."""
        refuse_secret_ids(None, messages, first_position=done + 1)
        cleaned = []
        for message in messages:
            if len(message.content) > MAX_MESSAGE_CHARS:
                report.notes.append(
                    f"message {message.id} is {len(message.content):,} characters: only its "
                    f"first {MAX_MESSAGE_CHARS:,} were read"
                )
            message, kinds = clean_message(message)
            report.secrets.update(kinds)
            cleaned.append(message)
        if not cleaned:
            return context
        # The previous step's last message is context only: its candidates were learned then.
        ids = {m.id for m in cleaned}
        before = [context] if context is not None and context.id not in ids else []
        extra: dict[str, Any] = {}
        if self._takes_people:
            extra["known_people"] = _named_before(cleaned, _Lookups(self.vault.index, dry))
        candidates, skipped = self.extractor.extract(
            [*before, *cleaned], conversation_id=conversation_id, **extra
        )
        if before:
            candidates = [c for c in candidates if c.source != before[0].id]
            skipped = [s for s in skipped if s.source != before[0].id]
        for skip in skipped:
            if skip.secret:
                report.secrets[skip.secret] += 1
            # A report line, not an archive: a 1 MB sentence is shown by its beginning.
            report.skipped.append(replace(skip, text=shorten(skip.text)))
        # An extractor may say something about the run as a whole (see `ObserveReport.notes`).
        for note in getattr(self.extractor, "notes", ()):
            if note not in report.notes:
                report.notes.append(note)
        with self.vault.batch():
            if dry is None:
                # The conversation itself, as read (redacted), beside what is learned from it.
                self.vault.keep_turns(conversation_id, cleaned)
            self._observe(candidates, report, conversation_id, at, dry)
        return cleaned[-1]

    def _observe(
        self,
        candidates: list[Candidate],
        report: ObserveReport,
        conversation_id: str,
        at: datetime | None,
        dry: _DryRun | None,
    ) -> None:
        lookups = _Lookups(self.vault.index, dry)
        forgotten = self.vault.forgotten_sources()
        self.vault.refresh_capped_sources()  # one stat unless `.tota-sources` changed
        observed: dict[str, bool] = {}
        learned: dict[str, set[str]] = {}  # source -> the notes this step learned it into
        quotes: dict[str, tuple[str, tuple[str, ...]]] = {}
        for raw in candidates:
            if raw.quote not in quotes:
                quotes[raw.quote] = guard_quote(raw.quote)
                report.secrets.update(quotes[raw.quote][1])  # once per message, not per candidate
            guarded = guard(raw, quotes[raw.quote])
            candidate = guarded.candidate
            report.secrets.update(guarded.secrets)
            source = f"{conversation_id}#{candidate.source}"
            if guarded.skip is not None:
                report.outcomes.append(
                    Outcome("skip", candidate.type.value, candidate.text, source, guarded.skip)
                )
                continue
            if source not in observed:
                observed[source] = source in forgotten or lookups.observed(source)
            scores = score(candidate)
            decision = self._decide(
                candidate, scores, lookups, already_observed=observed[source],
                forgotten=source in forgotten, learned=learned.get(source, ()),
            )  # fmt: skip
            when = at or candidate.timestamp or now()
            path = decision.target.path if decision.target is not None else None
            if decision.action != "skip":
                try:
                    if dry is None:
                        path = self._apply(candidate, scores, decision, source, when)
                    else:
                        path = self._imagine(candidate, scores, decision, source, when, dry)
                except (NoteChangedError, InvalidNoteError) as exc:
                    # A person's edit landed while tota was writing: their note wins, this
                    # candidate waits for the next run; the rest of the conversation goes on.
                    reason = f"{first_line(exc)} (skipped; learn it again to retry)"
                    what = "held by an editor" if isinstance(exc, NoteHeldError) else "changed"
                    report.notes.append(f"note {what} while learning, skipped: {reason}")
                    decision = Decision("skip", reason, decision.target)
            if decision.action != "skip" and path is not None:
                learned.setdefault(source, set()).add(path)
            report.outcomes.append(
                Outcome(
                    decision.action,
                    candidate.type.value,
                    candidate.text,
                    source,
                    decision.reason,
                    path,
                    scores.confidence,
                )  # fmt: skip
            )

    def _decide(
        self,
        candidate: Candidate,
        scores: Scores,
        lookups: _Lookups,
        *,
        already_observed: bool,
        forgotten: bool,
        learned: Collection[str] = (),
    ) -> Decision:
        """`decide`, with the index look-ups it needs (and only those)."""
        # `decide` skips a repeated message or a weak candidate before comparing it with
        # anything: those need no look-up (a fifth of a real conversation's candidates).
        compared = not already_observed and scores.confidence >= self.min_confidence
        similar, same_key, earlier = [], [], []
        if compared:
            subject = candidate.subject
            similar = lookups.similar(
                query_words(candidate.text, subject=subject),
                type=candidate.type.value,
                subject=subject,
            )
            if candidate.key:
                same_key = lookups.by_key(candidate.key, subject)
            if change_kind(candidate.text) is not None:
                earlier = lookups.mentioning(search_words(candidate.text), subject=subject)
        return decide(
            candidate, scores, min_confidence=self.min_confidence,
            already_observed=already_observed, similar=similar, same_key=same_key,
            threshold=self.threshold, forgotten=forgotten, earlier=earlier, learned=learned,
        )  # fmt: skip

    def _imagine(
        self,
        candidate: Candidate,
        scores: Scores,
        decision: Decision,
        source: str,
        when: datetime,
        dry: _DryRun,
    ) -> str:
        """A dry run's `_apply`: what the notes would become, kept in the overlay only."""
        dry.sources.add(source)
        target = decision.target
        if decision.action == "merge" and target is not None:
            row = target._replace(
                confidence=confirm_confidence(_row_confidence(target), scores.confidence)
            )
            dry.put(row)
            return row.path
        if decision.action == "keep" and target is not None:
            return target.path
        if decision.action == "supersede" and target is not None:
            dry.drop(target.path)
        folder = candidate.type.value
        root = self.vault.root

        def taken(title: str) -> bool:
            return (
                title.lower() in dry.titles
                or (root / folder / f"{title}.md").exists()
                or self.vault.index.title_taken(title)
            )

        title = unique_title(title_from_text(candidate.text), taken)
        dry.titles.add(title.lower())
        path = f"{folder}/{title}.md"
        dry.put(MemoryRow(
            path=path, text=candidate.text, type=folder, subject=candidate.subject,
            key=candidate.key, confidence=scores.confidence,
            updated=when.replace(microsecond=0).isoformat(), memory_id=None,
            status=Status.ACTIVE.value,
        ))  # fmt: skip
        return path

    # --- writes ----------------------------------------------------------------------------

    def _apply(
        self, candidate: Candidate, scores: Scores, decision: Decision, source: str, when: datetime
    ) -> str | None:
        target = decision.target
        if decision.action == "create":
            return self._create(candidate, scores, source, when).path
        assert target is not None
        if decision.action == "merge":
            return self._merge(target, scores, source, when)
        if decision.action == "keep":
            entry = kept_entry(
                when, candidate.text, scores.confidence, _row_confidence(target), source
            )
            self.vault.edit(target.path, lambda row: self._kept_over(row, source), history=entry)
            return target.path
        # supersede: the new value wins; the old note stays, marked, and named in History.
        old_date = parse_date(target.updated) if target.updated else None
        entry = replaced_entry(
            when, target.text, _row_confidence(target), scores.confidence,
            candidate.evidence.value, old_date,
        )  # fmt: skip
        # The old note first: when a person is editing it right now, nothing is written.
        self.vault.edit(
            target.path, lambda row: {"status": Status.SUPERSEDED.value, "updated": when}
        )
        self._superseded.add(target.path)
        stored = self._create(candidate, scores, source, when, history=(entry,))
        return stored.path

    def _create(
        self,
        candidate: Candidate,
        scores: Scores,
        source: str,
        when: datetime,
        history: tuple[str, ...] = (),
    ) -> StoredMemory:
        stamp = when.replace(microsecond=0)
        memory = Memory(
            id=new_id(),
            type=candidate.type,
            text=candidate.text,
            confidence=scores.confidence,
            importance=scores.importance,
            durability=scores.durability,
            evidence=candidate.evidence,
            created=stamp,
            updated=stamp,
            confirmed=stamp,
            key=candidate.key,
            subject=candidate.subject,
            sources=(source,),
            tags=_tags(candidate),
            history=history,
            quote=candidate.quote,
        )
        return self.vault.write_new(memory)

    def _merge(self, target: MemoryRow, scores: Scores, source: str, when: datetime) -> str:
        def changes(row: MemoryRow) -> dict[str, Any]:
            # From the row as it is after any pending hand edit was recorded, so a person's
            # own confidence is what the confirmation builds on.
            listed = list(row.sources)
            patch: dict[str, Any] = {
                "confidence": confirm_confidence(_row_confidence(row), scores.confidence),
                "confirmations": int(row.confirmations or 1) + 1,
                "confirmed": when.replace(microsecond=0),
                "sources": listed,
            }
            if source in listed:
                return patch
            total = max(int(row.sources_count or 0), len(listed)) + 1
            memory_id = row.memory_id
            if memory_id is None or not self.vault.can_cap_sources(memory_id):
                # An id that cannot name the file the dropped ones go to: list them all.
                patch["sources"] = [*listed, source]
                return patch
            kept, count = cap_sources([*listed, source], total)
            patch["sources"] = kept
            if count is not None:
                patch[SOURCES_COUNT_KEY] = count
                # The sources the cap leaves out are recorded in the vault before the note
                # stops listing them, so they stay observed (and forgettable) everywhere.
                left = set(kept)
                dropped = [s for s in listed if s not in left]
                self.vault.record_capped_sources(memory_id, dropped)
            return patch

        self.vault.edit(target.path, changes)
        return target.path

    def _kept_over(self, row: MemoryRow, source: str) -> dict[str, Any]:
        """The note's `kept_over_sources` with this message added: what de-duplication reads
        back (the History line beside it is for a person)."""
        data, _ = read_file(self.vault.root / row.path)
        listed = parse_note(data, row.path).fields.get(KEPT_OVER_KEY)
        return {KEPT_OVER_KEY: kept_over_list(listed, source)}
