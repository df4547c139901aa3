"""From a conversation to notes: extract -> score -> merge or resolve conflicts -> store.

`decide` is the whole policy, a pure function over plain data: given a scored candidate and
what the index knows (does a memory already cite this message, which active memories are
alike, which fill the same slot), it returns one `Decision`. `Learner.observe` does the I/O
around it: the index look-ups before, the note writes after, each through the note layer
(atomic, a person's note only by surgical patch).

    create     a new note
    merge      a near-duplicate (>= 74% alike, same type and subject, same numbers and dates)
               exists: it gains a confirmation, confidence and the source
    supersede  an active memory fills the same slot with another value and the candidate is
               more confident (or as confident and newer): a new note, whose History names the
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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from .config import ExtractSettings
from .errors import SecretError
from .extract.base import Candidate, Extractor, Skip
from .extract.messages import Message
from .extract.secrets import describe, find_secrets, is_only_secret, redact
from .files import read_file
from .history import KEPT_OVER_KEY, kept_entry, kept_over_list, replaced_entry
from .model import SOURCES_COUNT_KEY, Memory, Status, cap_sources, new_id, now, parse_date
from .notes import parse_note, statement_problem
from .sanitize import MAX_STATEMENT_CHARS, cap_statement, clean_text, shorten
from .scoring import (
    DEFAULT_MIN_CONFIDENCE,
    MERGE_THRESHOLD,
    Scores,
    confirm_confidence,
    facts_differ,
    score,
    similarity,
    slot_value,
)
from .text import CUE_WORDS, FUNCTION_WORDS, tokens
from .topics import with_topics

__all__ = [
    "Decision",
    "Guarded",
    "Learner",
    "ObserveReport",
    "Outcome",
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
    target: dict[str, Any] | None = None


def _tags(candidate: Candidate) -> tuple[str, ...]:
    """A new memory's tags: its type, the extractor's, then the topics of its statement."""
    return with_topics((f"tota/{candidate.type.value}", *candidate.tags), candidate.text)


def _row_confidence(row: dict[str, Any]) -> float:
    return float(row.get("confidence") or 0.0)


def decide(
    candidate: Candidate,
    scores: Scores,
    *,
    min_confidence: float,
    already_observed: bool,
    similar: Sequence[dict[str, Any]],
    same_key: Sequence[dict[str, Any]],
    threshold: float = MERGE_THRESHOLD,
    forgotten: bool = False,
) -> Decision:
    """The storage policy for one candidate (see the module docstring). Pure."""
    if forgotten:
        return Decision("skip", "a memory learned from this message was forgotten")
    if already_observed:
        return Decision("skip", "this message was already observed")
    if scores.confidence < min_confidence:
        return Decision("skip", f"confidence {scores.confidence:.2f} < {min_confidence:.2f}")
    if candidate.key and same_key:
        current = same_key[0]
        if _same_value(candidate.key, candidate.text, current["text"], threshold):
            return Decision("merge", f"the same {candidate.key}", current)
        old = _row_confidence(current)
        if scores.confidence > old:
            return Decision("supersede", f"confidence {scores.confidence:.2f} > {old:.2f}", current)
        if scores.confidence == old and _is_newer(candidate, current):
            return Decision("supersede", f"confidence {old:.2f} tie, newer wins", current)
        return Decision(
            "keep", f"existing confidence {old:.2f} >= {scores.confidence:.2f}", current
        )
    best: tuple[float, dict[str, Any]] | None = None
    for row in similar:
        if candidate.key and row.get("key") == candidate.key:
            continue  # a slot's values are compared above, never by text alone
        alike = similarity(candidate.text, row["text"])
        if alike < threshold or facts_differ(candidate.text, row["text"]):
            continue
        if best is None or alike > best[0]:
            best = (alike, row)
    if best is not None:
        return Decision("merge", f"{best[0]:.0f}% alike", best[1])
    return Decision("create", "new")


def _same_value(key: str, text: str, other: str, threshold: float) -> bool:
    """Whether two statements of one slot give it the same value ("Lives in Porto" and "Is
    based in Porto" do; "Lives in Berlin" and "Lives in Dublin", 87% alike, do not)."""
    mine, theirs = slot_value(key, text), slot_value(key, other)
    if mine is not None and theirs is not None:
        return mine == theirs
    return similarity(text, other) >= threshold and not facts_differ(text, other)


def _is_newer(candidate: Candidate, row: dict[str, Any]) -> bool:
    if candidate.timestamp is None or not row.get("updated"):
        return True  # stated now: newer than anything stored
    try:
        return candidate.timestamp >= parse_date(row["updated"])
    except ValueError:
        return True


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


def refuse_secret_ids(conversation_id: str, messages: Sequence[Message]) -> None:
    """Raise `SecretError` when the conversation id or a message's id or name holds a secret.

    Ids end up whole in every note's `sources:` and in the index, so a secret there cannot be
    redacted away; the error names the field ("the conversation id holds a GitHub token"),
    never the value. A random-looking token alone is no reason: ids are random by design.
    """
    fields = [("the conversation id", conversation_id)]
    for position, message in enumerate(messages, 1):
        fields.append((f"the id of message {position}", message.id))
        if message.name is not None:
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
    in its quote are redacted; a statement over `MAX_STATEMENT_CHARS` is cut at a word
    boundary, or skipped when it has none; a statement the note format would read back
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
    capped = cap_statement(text)
    if capped is None:
        skip = skip or f"too long ({len(text):,} characters, no word boundary to cut at)"
        text = shorten(text)  # the report shows its beginning
    else:
        text = capped
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
    outcomes: list[Outcome] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    #: Secrets found and kept out of the vault, by kind (redacted, or their sentence skipped).
    secrets: Counter[str] = field(default_factory=Counter)
    #: Lines about the run as a whole, from the extractor (the LLM's fallbacks to the rules,
    #: an endpoint off this machine): shown after the counts, and under "notes" in JSON.
    notes: list[str] = field(default_factory=list)

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
            "counts": {a: self.count(a) for a in actions},
            "secrets": dict(sorted(self.secrets.items())),
            "outcomes": [o.to_dict() for o in self.outcomes],
            "skipped_sentences": [s.__dict__ for s in self.skipped],
            "notes": list(self.notes),
        }


class Learner:
    """Runs the pipeline for one vault (used through `Vault.observe`)."""

    def __init__(
        self,
        vault: Any,
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

    def observe(
        self,
        messages: Sequence[Message],
        *,
        conversation_id: str,
        at: datetime | None = None,
        dry_run: bool = False,
    ) -> ObserveReport:
        """Learn from messages: every candidate gets one outcome in the report.

        Raises `SecretError` before anything is read when an id or a name holds a secret
        (`refuse_secret_ids`).
        """
        refuse_secret_ids(conversation_id, messages)
        report = ObserveReport(conversation_id, dry_run=dry_run)
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
        candidates, skipped = self.extractor.extract(cleaned, conversation_id=conversation_id)
        for skip in skipped:
            if skip.secret:
                report.secrets[skip.secret] += 1
            # A report line, not an archive: a 1 MB sentence is shown by its beginning.
            report.skipped.append(replace(skip, text=shorten(skip.text)))
        # An extractor may say something about the run as a whole (see `ObserveReport.notes`).
        report.notes.extend(getattr(self.extractor, "notes", ()))
        with self.vault.batch():
            if not dry_run:
                # The conversation itself, as read (redacted), beside what is learned from it.
                self.vault.keep_turns(conversation_id, cleaned)
            self._observe(candidates, report, conversation_id, at, dry_run)
        return report

    def _observe(
        self,
        candidates: list[Candidate],
        report: ObserveReport,
        conversation_id: str,
        at: datetime | None,
        dry_run: bool,
    ) -> None:
        index = self.vault.index
        forgotten = self.vault.forgotten_sources()
        self.vault.refresh_capped_sources()  # one stat unless `.tota-sources` changed
        observed: dict[str, bool] = {}
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
                observed[source] = source in forgotten or index.observed(source)
            scores = score(candidate)
            # `decide` skips a repeated message or a weak candidate before comparing it with
            # anything: those need no look-up (a fifth of a real conversation's candidates).
            compared = not observed[source] and scores.confidence >= self.min_confidence
            similar = (
                index.similar(
                    query_words(candidate.text, subject=candidate.subject),
                    type=candidate.type.value,
                    subject=candidate.subject,
                )
                if compared
                else []
            )
            same_key = (
                index.by_key(candidate.key, candidate.subject) if compared and candidate.key else []
            )
            decision = decide(
                candidate, scores, min_confidence=self.min_confidence,
                already_observed=observed[source], similar=similar, same_key=same_key,
                threshold=self.threshold, forgotten=source in forgotten,
            )  # fmt: skip
            when = at or candidate.timestamp or now()
            path = None
            if not dry_run and decision.action != "skip":
                path = self._apply(candidate, scores, decision, source, when)
            elif decision.target is not None:
                path = decision.target["path"]
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
            self.vault.edit(target["path"], lambda row: self._kept_over(row, source), history=entry)
            return target["path"]
        # supersede: the new value wins; the old note stays, marked, and named in History.
        old_date = parse_date(target["updated"]) if target.get("updated") else None
        entry = replaced_entry(
            when, target["text"], _row_confidence(target), scores.confidence,
            candidate.evidence.value, old_date,
        )  # fmt: skip
        stored = self._create(candidate, scores, source, when, history=(entry,))
        self.vault.edit(
            target["path"], lambda row: {"status": Status.SUPERSEDED.value, "updated": when}
        )
        return stored.path

    def _create(
        self,
        candidate: Candidate,
        scores: Scores,
        source: str,
        when: datetime,
        history: tuple[str, ...] = (),
    ) -> Any:
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

    def _merge(self, target: dict[str, Any], scores: Scores, source: str, when: datetime) -> str:
        def changes(row: dict[str, Any]) -> dict[str, Any]:
            # From the row as it is after any pending hand edit was recorded, so a person's
            # own confidence is what the confirmation builds on.
            listed = list(row.get("sources") or [])
            patch: dict[str, Any] = {
                "confidence": confirm_confidence(_row_confidence(row), scores.confidence),
                "confirmations": int(row.get("confirmations") or 1) + 1,
                "confirmed": when.replace(microsecond=0),
                "sources": listed,
            }
            if source in listed:
                return patch
            total = max(int(row.get(SOURCES_COUNT_KEY) or 0), len(listed)) + 1
            if not self.vault.can_cap_sources(row.get("memory_id")):
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
                self.vault.record_capped_sources(row["memory_id"], dropped)
            return patch

        self.vault.edit(target["path"], changes)
        return target["path"]

    def _kept_over(self, row: dict[str, Any], source: str) -> dict[str, Any]:
        """The note's `kept_over_sources` with this message added: what de-duplication reads
        back (the History line beside it is for a person)."""
        data, _ = read_file(self.vault.root / row["path"])
        listed = parse_note(data, row["path"]).fields.get(KEPT_OVER_KEY)
        return {KEPT_OVER_KEY: kept_over_list(listed, source)}
