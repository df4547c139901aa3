"""Recall before responding: the memories most relevant to a message, ranked and explained.

Query: the message's words, minus stopwords and the prepositions they leave
(`QUERY_PREPOSITIONS`), each quoted (any text is a valid query), ORed so a memory that shares
some of the words can still be found. Names (capitalised words inside a
sentence) and rare, long words weigh more when ranking. The topics of the message's words
(topics.py) are searched among tags too, so "Which cities has Jon visited?" finds memories
tagged `topic/travel` that never say "city". Some words are also searched as others
(`text.query_alternates`): a hyphenated word as its parts ("art-related": "art", "related"),
a "-ship" noun as its person ("mentorship": "mentor"), a kinship word of forms as the words
talk says it with ("siblings": "sister", "brother"); a memory holding one covers the word.
bm25 scores every match of its query, so the query's cost is bounded whatever the vault's
size (`plan_match`): words in thousands of notes are left to the coverage score, and the rare
ones kept while their matches sum under `SCORED_MATCHES`; a message of common words only has
its newest `NEWEST_SCORED` matches scored.

Ranking (`rank`, a pure function; the constants are the contract, documented in
docs/recall.md):

    score = 0.50 * relevance      bm25 (title 10, body 1, tags 6, aliases 6), scaled to 0..1
                                  by the best candidate of this query
          + 0.20 * coverage       the weighted share of the query's terms the memory contains
          + 0.15 * effective confidence   (decay.effective_confidence)
          + 0.10 * importance
          + 0.05 * recency        0.5 ^ (days since updated / 365)
          + 0.10 if the message names the memory's subject (a capitalised name)
          + 0.05 if the memory shares a topic with the message

A memory found by its topic alone has relevance 0. Memories whose every source is already cited
by a better-ranked one move down the list, so the top results cover more of what the person
said, and so do reflections after the first; a reflection's best member that answers the
message in its own words (`MEMBER_ANSWERS`) is placed right before it instead. In a list fused
with turns a reflection's other members keep their places (`members_stay`): the fusion cuts
it to the members that fit its budget and moves the repeats of what it then cites. A
reflection cites, for the message, the sources of its members among the candidates, those
holding more of the message's words first, then the best-ranked (the fusion's context budget
may cut it to the first of them: fusion.py). Superseded and archived memories are left out
unless asked for. `context_block` turns the results into Markdown an assistant can put in
its prompt, grouped by type, each line with its confidence, evidence and date, cut to a token
budget.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from .decay import effective_confidence
from .index import Index
from .model import MemoryType, parse_date
from .rows import MemoryRow, ScoredRow
from .text import (
    STOPWORDS,
    WORD_RE,
    StemFinder,
    fts_any,
    fts_quote,
    query_alternates,
    rarest_within,
    stem,
)
from .topics import TOPIC_TAG, topics_of_words

__all__ = [
    "COMMON_MATCHES",
    "NEWEST_SCORED",
    "QUERY_PREPOSITIONS",
    "SCORED_MATCHES",
    "MemoryQuery",
    "QueryPlan",
    "Recalled",
    "about_the_person",
    "as_recalled",
    "build_query",
    "context_block",
    "estimate_tokens",
    "plan_match",
    "profile",
    "quote_line",
    "rank",
    "recall",
    "turns_later",
]

W_RELEVANCE, W_COVERAGE, W_CONFIDENCE, W_IMPORTANCE, W_RECENCY = 0.50, 0.20, 0.15, 0.10, 0.05
#: A bonus when the message names the person the memory is about (its `subject`): in a chat
#: between people, "What did Caroline research?" is about Caroline's memories, not about
#: Melanie's that merely mention her.
W_SUBJECT = 0.10
#: A bonus when the memory shares a topic with the message (topics.py): small, a tie-breaker
#: among memories the words match about as well, and what ranks a topic reflection.
W_TOPIC = 0.05
#: At most this many reflections in the top results: one gives the overview of an area of the
#: person's life; more would spend the context on summaries of summaries.
MAX_REFLECTIONS = 1
#: The share of a question's weighted words a memory must hold to count as answering it in
#: its own words: the best such member of a reflection goes right before it, instead of moving
#: down because the reflection cites all of its sources (the reflection only links it).
#: Tuned on LoCoMo conv-26/30/41, checked on conv-42/43 (docs/quality.md): lower values cost
#: multi-hop all@10 there; the README's knee example needs at most 0.77.
MEMBER_ANSWERS = 0.75
NAME_WEIGHT, RARE_WEIGHT = 2.0, 1.5
#: Prepositions `STOPWORDS` does not hold (it keeps the commonest): words of grammar, a closed
#: class of English, that say how a question relates its words, not which memory is meant
#: ("What offer does Gina make to Jon regarding social media?", "according to John"). Long
#: as many are, they weighed as rare words and matched whatever said them. Words that are
#: prepositions and content alike ("past", "save", "near", "following") are not here. Recall's
#: query only: the stopwords reflection and the extractor use are unchanged.
QUERY_PREPOSITIONS = frozenset(
    "according across along alongside amid amidst among amongst atop behind beneath beside "
    "besides beyond concerning despite except excluding including notwithstanding onto "
    "regarding throughout toward towards underneath unlike upon versus via within without".split()
)
#: How many full-text matches are re-ranked: enough that confidence and recency can lift a
#: slightly weaker text match into the top results, few enough to stay well under 20 ms.
CANDIDATES = 60
RECENCY_HALF_LIFE_DAYS = 365.0


@dataclass(frozen=True)
class QueryPlan:
    """The terms of a message worth searching for, their weights, and the MATCH expression."""

    terms: tuple[str, ...]
    weights: dict[str, float] = field(default_factory=dict)
    topics: tuple[str, ...] = ()
    #: The message asks about the person's own life (`about_the_person`): what they said
    #: answers it, not what an assistant replied (fusion.fuse ranks those turns after).
    personal: bool = False
    #: Other words a memory may say a term with (`text.query_alternates`: a hyphenated
    #: word's parts, a "-ship" noun's person, a kinship word's members): searched beside the
    #: terms, and a memory that holds one covers the term.
    alternates: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def covering_stems(self) -> dict[str, str]:
        """Each stem (`stem(word, forms=True)`) that covers a term, and the term: the terms'
        own, then their alternates' (a term's own stem wins over another's alternate)."""
        stems = {stem(t, forms=True): t for t in self.terms}
        for term, alternates in self.alternates.items():
            for alternate in alternates:
                stems.setdefault(stem(alternate, forms=True), term)
        return stems

    @property
    def searched(self) -> tuple[str, ...]:
        """What the full-text queries look for: the terms, weightiest first, then the
        alternates that are not terms themselves."""
        extra = (a for term in self.terms for a in self.alternates.get(term, ()))
        return tuple(dict.fromkeys((*self.terms, *extra)))

    @property
    def match(self) -> str:
        """An FTS5 expression: every searched word quoted, ORed."""
        return fts_any(self.searched)

    @property
    def topic_match(self) -> str:
        """The message's topics as an FTS5 expression over tags only ("" when it has none)."""
        if not self.topics:
            return ""
        return "tags : (" + fts_any(self.topics) + ")"


def build_query(message: str) -> QueryPlan:
    """Turn a message into search terms: stopwords out, names and rare words weighted."""
    weights: dict[str, float] = {}
    for sentence in re.split(r"(?<=[.!?])\s+|\n", message):
        for i, match in enumerate(WORD_RE.finditer(sentence)):
            raw = match.group(0).strip("'’-")
            word = raw.lower()
            if (
                len(word) < 2
                or word in STOPWORDS
                or word.replace("'s", "") in STOPWORDS
                or word in QUERY_PREPOSITIONS
            ):
                continue
            word = word.removesuffix("'s").removesuffix("’s")
            weight = 1.0
            if raw[:1].isupper() and i > 0:
                weight = NAME_WEIGHT
            elif len(word) >= 7 or any(c.isdigit() for c in word):
                weight = RARE_WEIGHT
            weights[word] = max(weights.get(word, 0.0), weight)
    terms = tuple(sorted(weights, key=lambda w: (-weights[w], w)))
    alternates = {t: alts for t in terms if (alts := query_alternates(t))}
    return QueryPlan(terms, weights, topics_of_words(terms), about_the_person(message), alternates)


#: The person speaking of themselves: "How many charity events did I attend?"
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself)\b", re.IGNORECASE)
#: A request put to the assistant ("Can you remind me ...", "Do you have ..."): a way of
#: asking, not a question about what the assistant said or did.
_REQUEST = re.compile(r"\b(?:can|could|would|will|do)\s+you\b", re.IGNORECASE)
#: Words that bring the assistant into what is asked about ("what you recommended", "our
#: previous conversation", "the songs we wrote").
_ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|we|us|our|ours)\b", re.IGNORECASE)


def about_the_person(message: str) -> bool:
    """Whether a message asks about the person's own life: it speaks in the first person and
    names no one else who took part ("you" outside a request such as "can you", "we", "our").

    Such a question is answered by what the person said; the assistant's replies repeat
    their words ("Congratulations on completing the Run for the Cure!") and, ranked beside
    them, crowd out the other sessions' turns. A message that also says "you did" or "our
    conversation" is not one: there the assistant's words may be the answer. Pure.
    """
    if not _FIRST_PERSON.search(message):
        return False
    return not _ADDRESSED.search(_REQUEST.sub(" ", message))


def turns_later(
    plan: QueryPlan, roles: Sequence[str], speakers: Sequence[str | None]
) -> list[bool]:
    """For each ranked turn (its role and speaker), whether it ranks after the others in the
    turn list fused with the memories (`fusion.fuse(later=...)`). Pure.

    Two cases of one rule, whose words answer: for a question about the person's own life
    (`QueryPlan.personal`) the assistant's replies go after the person's turns; for a
    question that names a speaker of the turns ("Where has Melanie camped?", named as recall
    names a memory's subject: a capitalised name), the turns of the speakers it does not
    name go after the named one's. In a chat between two people bm25 ranks the other's
    questions about it ("What do you love most about camping with your fam?") beside the
    named person's answers, holding the same words; they stay in the list, after them, as
    the question's reading may be wrong (docs/quality.md, "The named speaker's words
    first"). A question naming every speaker, or none, keeps bm25's order.

    Callers pass, for an echo (a turn found only through the turn before's words), the role
    and speaker of that turn (`TurnHit.matched_role`): the words the question matched are
    theirs, so the person's "Great, noted." after an assistant's reply ranks with the
    assistant's turns, not before the reply it was found by (docs/quality.md, "An echo ranks
    as the words it was found by").
    """
    spoken = [(speaker or "").lower() for speaker in speakers]
    named = {s for s in spoken if s and plan.weights.get(s) == NAME_WEIGHT}
    return [
        (plan.personal and role == "assistant") or (bool(named) and speaker not in named)
        for role, speaker in zip(roles, spoken, strict=True)
    ]


@dataclass(frozen=True)
class Recalled:
    """One recalled memory: what it says, how sure tota is, and why it ranked."""

    id: str | None
    type: str | None
    text: str
    subject: str | None
    sources: tuple[str, ...]
    confidence: float | None
    effective_confidence: float | None
    evidence: str | None
    updated: str | None
    path: str
    title: str
    status: str | None
    score: float
    matched: tuple[str, ...]
    #: "memory", or "turn": the words of one message of a past conversation, quoted as said
    #: (turns.py), not something tota learned. A turn has no id, type, confidence or path;
    #: its `subject` is the speaker, `updated` when it was said, `sources` the message.
    kind: str = "memory"
    #: A turn's role (user or assistant); None for a memory.
    role: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (`tota recall --json`)."""
        out = dict(self.__dict__)
        out["sources"] = list(self.sources)
        out["matched"] = list(self.matched)
        return out


def _days(since: str | None, now: datetime) -> float:
    if not since:
        return 0.0
    try:
        return max(0.0, (now - parse_date(since)).total_seconds() / 86400.0)
    except ValueError:
        return 0.0


class _Scored(NamedTuple):
    """A candidate's score and what the ordering needs of it, before it is a `Recalled`."""

    score: float
    path: str
    type: str | None
    sources: tuple[str, ...]
    #: The candidate's position in `rank`'s rows.
    at: int
    matched: tuple[str, ...]
    effective: float | None
    #: The weighted share of the query's terms it holds (what `_diversify` weighs).
    coverage: float = 0.0


def rank(
    rows: Sequence[ScoredRow],
    plan: QueryPlan,
    now: datetime,
    *,
    limit: int | None = None,
    cite_members: bool = True,
    members_stay: bool = False,
) -> list[Recalled]:
    """Score full-text candidates (each row with its bm25) by the documented formula, best
    first; the first `limit` of them (all by default: the order is the same either way, only
    fewer results are made). With `cite_members` a reflection cites, for this message, the
    sources of its members among the candidates (`_member_citations`). With `members_stay` a
    reflection's members keep their places instead of moving down as repeats of what it
    cites (`_diversify`): for a list that is fused with turns, where the context budget may
    cut the reflection to a few of its members and the fusion moves the repeats of what it
    then cites (fusion.fuse). Pure."""
    if not rows:
        return []
    scored = _scored(rows, plan, now)
    scored.sort(key=lambda s: (-s.score, s.path))
    ordered = _diversify(scored, members_stay=members_stay)
    # Only the results asked for are made: recall ranks 60 to 120 candidates for 10 to 20.
    top = ordered[:limit]
    if cite_members and any(s.type == "reflection" for s in top):
        # Members holding more of the message's words are cited first; a stable sort keeps
        # those alike in their rank order.
        citing = sorted(scored, key=lambda s: -s.coverage)
        top = [_member_citations(s, citing) if s.type == "reflection" else s for s in top]
    return [_recalled(rows[s.at][0], s) for s in top]


def _member_citations(reflection: _Scored, candidates: Sequence[_Scored]) -> _Scored:
    """A reflection as it answers this message: citing the sources of its members that are
    candidates too (they hold the message's words or topic), those holding more of the
    message's weighted words first and, among those alike, the best-ranked first; not the
    sources of all of its up to 16 members. `candidates` come in that order (`rank` sorts
    them).

    A reflection is one line in a context block; what it stands for is the members the
    message reached, and citing every member's message spent the context budget
    (`fusion.MAX_TURNS`) on the ones it did not. The budget cuts a reflection to the first
    of its sources that fit (about three at the top), so the first are the members that say
    most of what was asked: by rank alone, members that bm25 ranked higher on fewer of the
    question's words came first (docs/quality.md, "The better of two places"). A member is
    a memory whose every source the reflection cites (as `_diversify` tells them). A
    reflection none of whose members is a candidate (found by its title alone) keeps all of
    its sources.
    """
    own = set(reflection.sources)
    cites: dict[str, None] = {}
    for member in candidates:
        if member.type != "reflection" and member.sources and own.issuperset(member.sources):
            cites.update(dict.fromkeys(member.sources))
    if not cites:
        return reflection
    return reflection._replace(sources=tuple(cites))


def _scored(rows: Sequence[ScoredRow], plan: QueryPlan, now: datetime) -> list[_Scored]:
    """Each row's score by the documented formula, in the rows' order. Pure."""
    best = max(-score for _row, score in rows) or 1.0
    total_weight = sum(plan.weights.values()) or 1.0
    stems = plan.covering_stems()
    # Only the query is stemmed whole; a candidate's words are stemmed only where one starts
    # like a query stem (`StemFinder`): stemming every candidate's whole text was 86% of a
    # recall's time at 100k memories.
    finder = StemFinder(stems)
    # A possessive in a memory ("Caroline's book") does not cover the word: it mostly names
    # someone else's memory that mentions the person asked about. Counting it, as FTS5 does,
    # measured 0.004 lower all@5 and 0.001 lower all@10 and any@10 on LoCoMo.
    scored: list[_Scored] = []
    for at, (row, bm25) in enumerate(rows):
        relevance = max(0.0, -bm25) / best
        haystack = " ".join((row.title, row.text, row.tags, row.aliases))
        # Without query terms (`as_recalled`: profile, recent, stale) there is nothing to cover.
        matched = tuple(sorted({stems[s] for s in finder.find(haystack)})) if stems else ()
        coverage = sum([plan.weights[t] for t in matched]) / total_weight
        shared: tuple[str, ...] = ()
        if plan.topics:
            tags = row.tags.split()
            shared = tuple(t for t in plan.topics if TOPIC_TAG + t in tags)
            matched += tuple(TOPIC_TAG + t for t in shared)
        confidence = row.confidence
        effective = None
        if confidence is not None:
            confirmed = row.confirmed or row.updated
            try:
                when = parse_date(confirmed) if confirmed else now
            except ValueError:
                when = now
            effective = effective_confidence(confidence, row.durability or 0.8, when, now)
        importance = 0.5 if row.importance is None else float(row.importance)
        recency = 0.5 ** (_days(row.updated, now) / RECENCY_HALF_LIFE_DAYS)
        subject = (row.subject or "").lower()
        named = subject in plan.weights and plan.weights[subject] == NAME_WEIGHT
        score = (
            (W_SUBJECT if named else 0.0)
            + (W_TOPIC if shared else 0.0)
            + W_RELEVANCE * relevance
            + W_COVERAGE * coverage
            + W_CONFIDENCE * (effective if effective is not None else 0.5)
            + W_IMPORTANCE * importance
            + W_RECENCY * recency
        )
        scored.append(
            _Scored(
                round(score, 4), row.path, row.type, row.sources, at, matched, effective, coverage
            )
        )
    return scored


def _recalled(row: MemoryRow, scored: _Scored) -> Recalled:
    effective = scored.effective
    return Recalled(
        id=row.memory_id,
        type=row.type,
        text=row.text,
        subject=row.subject,
        sources=scored.sources,
        confidence=row.confidence,
        effective_confidence=None if effective is None else round(effective, 3),
        evidence=row.evidence,
        updated=row.updated,
        path=row.path,
        title=row.title,
        status=row.status,
        score=scored.score,
        matched=scored.matched,
    )  # fmt: skip


def _diversify(ranked: list[_Scored], *, members_stay: bool = False) -> list[_Scored]:
    """Move a memory whose every source is already cited by a better one after the others.

    Several memories learned from one message say related things; the top of the list is
    worth more spent on what else the person said. A reflection cites its members' sources
    without saying what they say: its best-ranked member that holds at least `MEMBER_ANSWERS`
    of the question's weighted words answers it in its own words, and goes right before the
    reflection (one member: more would spend the top of the list on one area's details).

    With `members_stay` a reflection's sources do not count as cited, so its other members
    keep their places: the fusion's budget cuts a reflection to the members that fit (often
    three of sixteen), and a member moved down here for what the cut reflection no longer
    cites fell out of the top with it (LongMemEval's multi-session questions, whose answers
    are one member in each of several sessions: docs/quality.md).
    """
    cited: set[str] = set()
    placed: set[int] = set()
    first: list[_Scored] = []
    later: list[_Scored] = []
    reflections = 0

    def answers(result: _Scored) -> bool:
        return result.type != "reflection" and result.coverage >= MEMBER_ANSWERS

    for i, result in enumerate(ranked):
        if i in placed:
            continue
        if result.type == "reflection":
            reflections += 1
            if reflections > MAX_REFLECTIONS:
                later.append(result)
                continue
            members = set(result.sources)
            for j in range(i + 1, len(ranked)):
                member = ranked[j]
                sources = set(member.sources)
                if j in placed or not sources or not sources <= members or not answers(member):
                    continue
                placed.add(j)
                if sources <= cited:
                    later.append(member)
                else:
                    first.append(member)
                    cited.update(sources)
                break
        sources = set(result.sources)
        if sources and sources <= cited:
            later.append(result)
        else:
            first.append(result)
            if not (members_stay and result.type == "reflection"):
                cited.update(sources)
    return first + later


#: A term matching at least this many notes is common: when the message has rarer terms, the
#: common ones are left out of the full-text query (they still count in the coverage score).
#: bm25 would give them little weight anyway, but scoring their thousands of matches is most of
#: a slow query's time. Counting stops at the cap, so the check costs little.
COMMON_MATCHES = 2000
#: The bound on bm25's work for one message, as `turns.SCORED_MATCHES` bounds the turn query:
#: bm25 scores every match of its query before it returns the best (about 3 to 7 µs a match
#: on this machine: a message whose only word is in 9,214 of 100k notes took 30 to 65 ms).
#: The rare terms ORed are kept, rarest first, while their matches sum under it: a message
#: is cut only when they reach it (LoCoMo's rankings, of vaults of 300 to 600 memories, are
#: the same with it and without: docs/benchmarks.md). 1,000 measured worse at 100k (the note
#: a bench message was drawn from in the top ten for 36 of 200 messages, against 38 before
#: the bound and 39 with it).
SCORED_MATCHES = 2000
#: How many of its newest matches bm25 scores for a message of common words only (each in
#: `COMMON_MATCHES` notes or more, so never in a smaller vault), whose query can still match
#: thousands. Such a message has no word that tells memories apart: of bench.recall's 200
#: messages at 100k, 65 are of common words only, and for none of them is the note it was
#: drawn from in the top ten, unbounded or with 2,000 or 500 scored. 500 costs a quarter of
#: 2,000 (its slowest message, 17.3 ms of CPU for the query, 5.4 ms), and the newest
#: memories are the likeliest meant by a vague one.
NEWEST_SCORED = 500


class MemoryQuery(NamedTuple):
    """How one message's memories are searched (`plan_match`)."""

    #: The FTS5 MATCH expression.
    match: str
    #: The most matches bm25 scores, the newest ones (None: every match): a message of
    #: common words only, whose query can still match thousands of notes.
    scored: int | None = None


def plan_match(
    terms: Sequence[str],
    matches: Callable[[str, int], int],
    *,
    common: int = COMMON_MATCHES,
    scored: int = SCORED_MATCHES,
    newest: int = NEWEST_SCORED,
) -> MemoryQuery:
    """The full-text query for a message's terms (weightiest first, as `build_query` orders
    them), its cost bounded whatever the vault's size. Pure but for `matches`.

    `matches(expression, cap)` counts the notes an FTS5 expression matches, up to `cap`.
    A term no note holds is left out, as the turn query leaves it (`turns.plan_query`).
    Rare terms (fewer than `common` notes) are ORed, rarest first while their matches sum
    under `scored` (bm25 reads and scores fewer than that), and the others left to the
    coverage score. When every term is common, notes must hold all of them (an AND is a cheap
    intersection of posting lists), or failing that the two weightiest; and if that still
    matches thousands, only the titles are searched; bm25 then scores the newest `newest`
    matches only.
    """
    counts = {term: matches(fts_quote(term), common) for term in terms}
    # A term no note holds finds nothing: counted as rare it would leave the common terms out
    # and the query empty ("I was thinking about Tanaka" is not "thinking" alone either).
    terms = [term for term in terms if counts[term] > 0] or list(terms)
    rare = [term for term in terms if counts[term] < common]
    if rare:
        return MemoryQuery(fts_any(rarest_within(rare, counts, scored)))
    every = " AND ".join(map(fts_quote, terms))
    if len(terms) > 1 and not matches(every, 1):
        every = " AND ".join(map(fts_quote, terms[:2]))
    if matches(every, common) >= common and matches(f"title : ({every})", 1):
        # Still thousands of notes (a message of common words): the ones whose title, their
        # statement, says it are the ones worth ranking.
        every = f"title : ({every})"
    return MemoryQuery(every, newest)


def recall(
    index: Index,
    message: str,
    *,
    limit: int = 10,
    type: str | None = None,
    include_archived: bool = False,
    now: datetime | None = None,
    plan: QueryPlan | None = None,
    cite_members: bool = True,
    members_stay: bool = False,
) -> list[Recalled]:
    """The `limit` memories most relevant to `message`, best first (`plan`: its
    `build_query`, when the caller already has it; `cite_members`, `members_stay`: see
    `rank`)."""
    if plan is None:
        plan = build_query(message)
    if not plan.terms:
        return []
    wanted = max(CANDIDATES, limit)
    query = plan_match(
        plan.searched, index.count_matches,
        common=COMMON_MATCHES, scored=SCORED_MATCHES, newest=NEWEST_SCORED,
    )  # fmt: skip
    rows = index.recall_candidates(
        query.match, type=type, include_archived=include_archived, limit=wanted,
        scored=query.scored,
    )  # fmt: skip
    if plan.topic_match:
        # Memories that share a topic but no word: candidates too, with no text relevance, so
        # they rank on coverage, subject, topic and the rest, below any good word match.
        seen = {row.path for row, _score in rows}
        for row, score in index.recall_candidates(
            plan.topic_match, type=type, include_archived=include_archived, limit=wanted,
            by_topic=True,
        ):  # fmt: skip
            if row.path not in seen:
                rows.append((row, score))
    return rank(
        rows, plan, now or datetime.now(), limit=limit, cite_members=cite_members,
        members_stay=members_stay,
    )  # fmt: skip


def as_recalled(rows: Iterable[MemoryRow], now: datetime | None = None) -> list[Recalled]:
    """Index rows as `Recalled` memories (effective confidence included), in their order.

    For lists that are not answers to a message: the profile, recent memories, stale ones.
    """
    plain = [(row, -1.0) for row in rows]
    if not plain:
        return []
    # Scored as `rank` scores them, but neither sorted nor diversified: the order is theirs.
    scored = _scored(plain, QueryPlan(()), now or datetime.now())
    return [_recalled(plain[s.at][0], s) for s in scored]


def profile(index: Index, *, limit: int = 20, now: datetime | None = None) -> list[Recalled]:
    """Durable, important identity, preference and constraint memories, and relationship
    memories about health (a child's allergy), most important first."""
    return as_recalled(index.profile_rows(limit), now)


def estimate_tokens(text: str) -> int:
    """A model-agnostic token estimate: about four characters a token, as most tokenizers."""
    return max(1, math.ceil(len(text) / 4))


def context_block(
    results: Iterable[Recalled],
    *,
    budget: int | None = None,
    heading: str = "Memories",
    ids: Mapping[str, str] | None = None,
) -> str:
    """Markdown for a prompt: grouped by type, one line a memory, cut to `budget` tokens.

    Memories are taken best first until the next would pass the budget; the groups follow the
    order of the memory types (identity first), each keeping its members' rank order. With
    `ids` (full id -> short id, `Vault.short_ids`) each line names its memory's short id, so a
    person can confirm, archive or forget it.
    """
    lines_by_type: dict[str, list[str]] = {}
    used = estimate_tokens(f"## {heading}\n")
    for result in results:
        date = (result.updated or "")[:10]
        if result.kind == "turn":
            group, line = TURNS_HEADING, quote_line(result)
        else:
            conf = result.effective_confidence if result.effective_confidence is not None else 0.0
            # One line a memory: a reflection's Members list and any later section stay out.
            text = " ".join(result.text.split("\n\n", 1)[0].split())
            named = (
                f", id {ids[result.id]}"
                if ids and result.id is not None and result.id in ids
                else ""
            )
            line = f"- {text} (confidence {conf:.2f}, {result.evidence}, {date}{named})"
            group = result.type or "note"
        header = "" if group in lines_by_type else f"\n### {group}\n"
        cost = estimate_tokens(line + "\n" + header)
        if budget is not None and used + cost > budget:
            break
        used += cost
        lines_by_type.setdefault(group, []).append(line)
    if not lines_by_type:
        return ""
    parts = [f"## {heading}"]
    # Memory types in their order, what was said after them: quotes are evidence, not facts.
    order = [t.value for t in MemoryType] + ["note", TURNS_HEADING]
    for mtype in sorted(lines_by_type, key=lambda t: order.index(t) if t in order else 99):
        parts.append(f"\n### {mtype}")
        parts.extend(lines_by_type[mtype])
    return "\n".join(parts) + "\n"


#: The group of a context block that quotes past conversations' turns (never memories).
TURNS_HEADING = "said in past conversations"
#: A quoted turn is cut to this many characters in a context block (a pasted page is not a
#: quote an assistant needs whole; the source says where the rest is).
QUOTE_CHARS = 400


def quote_line(result: Recalled) -> str:
    """One turn as a context line: who said it, their words in quotes, when, and where.

    Quoted, never restated: the assistant reads what was said, not something tota learned.
    """
    text = " ".join(result.text.split())
    if len(text) > QUOTE_CHARS:
        text = text[: QUOTE_CHARS - 1].rstrip() + "…"
    date = (result.updated or "")[:10]
    when = f"{date}, " if date else ""
    source = result.sources[0] if result.sources else ""
    return f'- {result.subject or result.role or "someone"} said: "{text}" ({when}{source})'
