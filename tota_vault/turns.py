"""The conversation beside the memories: every turn of every conversation, kept in the index.

A memory is what tota learned; a turn is what was said. Both roles are kept (a person's
`user` messages and the assistant's replies), each once, in a second FTS5 table of the same
SQLite index, so recall can quote what nobody turned into a memory: "what did you recommend
for my knee?" is answered by the assistant's own words. A turn is never a note (the vault
stays a set of memories) and never leaves this machine: the index is not committed.

What is kept is what the pipeline read: the message after `pipeline.clean_message` (control
characters out, every secret redacted, cut at `MAX_MESSAGE_CHARS`), so a key pasted into a
chat is no more kept here than in a note. Pause stops it (`Vault.observe` stores nothing),
`[recall] turns = false` in tota.toml turns it off, `tota overview` counts it, and `tota
clear` and forgetting a memory (`manage.forget_conversations`) delete it.

The SQL lives here, beside its reason; `Index.turns()` hands this module the index's
connection and its write transaction. Like the rest of the index, the tables are dropped and
made again when the schema version changes (`index.SCHEMA_VERSION`). Turns are not in the
notes: a `tota reindex` (which rebuilds the index from the notes) copies them over from the
index it replaces (`TurnStore.carry_over`), and says how many it could not; an index rebuilt
because it was damaged starts them empty.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .model import format_date
from .text import REFLECTION_STOP, STOPWORDS, fts_any, fts_quote, rarest_within, stem, tokens

if TYPE_CHECKING:
    from .extract.messages import Message

__all__ = [
    "CONTEXT_CHARS",
    "CarriedTurns",
    "KEPT_ROLES",
    "NO_WEIGHT",
    "TURNS_DROP",
    "TURNS_SCHEMA",
    "TurnHit",
    "TurnQuery",
    "TurnRecord",
    "TurnStore",
    "repeats",
    "plan_query",
    "split_source",
    "turn_records",
]

#: The roles whose messages are the conversation. `system` prompts and `tool` output are
#: the assistant's plumbing, not something anyone said.
KEPT_ROLES = frozenset({"user", "assistant"})

TURNS_SCHEMA = """
-- One row per message. (conversation, message) is the turn's source, as memories cite it
-- (`<conversation>#<message>`): UNIQUE so observing a conversation again keeps nothing twice,
-- and so forgetting a source finds its turn in O(log n).
CREATE TABLE turns (
    id           INTEGER PRIMARY KEY,   -- explicit: external-content FTS is keyed by rowid
    conversation TEXT NOT NULL,
    message      TEXT NOT NULL,
    role         TEXT NOT NULL,         -- user or assistant
    speaker      TEXT NOT NULL,         -- the name when there is one, else the role
    at           TEXT,                  -- when it was said, as notes write dates; NULL unknown
    text         TEXT NOT NULL,         -- redacted, as the pipeline read it
    context      TEXT NOT NULL DEFAULT '', -- the start of the turn before it (CONTEXT_CHARS)
    UNIQUE (conversation, message)
);

-- The speaker is searchable beside the words: "what did Caroline say about ..." names her.
-- So is the turn before (`context`), at half weight: a question's words are often those of
-- the message a turn answered ("What are you researching?" / "Adoption agencies"), and the
-- answer is the turn to find. It is searched, never quoted, and the turn cites itself only.
CREATE VIRTUAL TABLE turns_fts USING fts5(
    text, speaker, context,
    content='turns', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO turns_fts(turns_fts, rank) VALUES ('rank', 'bm25(1.0, 1.0, 0.5)');

-- Deletes hand FTS5 the old values: a rowid-only 'delete' leaves the old tokens behind.
-- Turns are never updated (a message observed again is ignored), so no update trigger.
CREATE TRIGGER turns_ai AFTER INSERT ON turns BEGIN
    INSERT INTO turns_fts(rowid, text, speaker, context)
    VALUES (new.id, new.text, new.speaker, new.context);
END;
CREATE TRIGGER turns_ad AFTER DELETE ON turns BEGIN
    INSERT INTO turns_fts(turns_fts, rowid, text, speaker, context)
    VALUES ('delete', old.id, old.text, old.speaker, old.context);
END;
"""

TURNS_DROP = """
DROP TRIGGER IF EXISTS turns_ai;
DROP TRIGGER IF EXISTS turns_ad;
DROP TABLE IF EXISTS turns_fts;
DROP TABLE IF EXISTS turns;
"""

#: A message observed again keeps its first row (and its rowid): nothing to re-index.
ADD_TURN = (
    "INSERT OR IGNORE INTO turns (conversation, message, role, speaker, at, text, context) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
#: The last turn kept of a conversation: the context of the next one observed (a hook hands
#: over a conversation a few messages at a time).
LAST_TEXT = "SELECT text FROM turns WHERE conversation = ? ORDER BY id DESC LIMIT 1"
#: How much of the turn before is kept as a turn's context: the question it answers, not a
#: page of it (the memory side found 120 to 600 characters of the message answered alike).
CONTEXT_CHARS = 300
#: The best `limit` turns for a query of rare terms (`plan_query`): FTS5 ranks its own
#: matches (`ORDER BY rank`, its fast path) before any row of `turns` is read.
#: `own` is bm25 with the context's weight at 0: zero when the turn matched through the turn
#: before it only (an "echo": the reply "Noted." found by the words of "I'm allergic to
#: peanuts"). An echo names that turn (`echo_of`, its message id), so recall can drop it when
#: a memory learned from that turn is ranked: the query's words were the memory's, and
#: with that turn's role and speaker (`echo_role`, `echo_speaker`): whose words matched, as
#: the rule that ranks a speaker's turns after the others reads them (`TurnHit.matched_role`).
#: The look-up runs for echoes only, at most `limit` rows, through the (conversation, message)
#: index.
SEARCH_TURNS = """
SELECT t.conversation, t.message, t.role, t.speaker, t.at, t.text, f.rank AS score,
       p.message AS echo_of, p.role AS echo_role, p.speaker AS echo_speaker
FROM (
    SELECT rowid, rank, bm25(turns_fts, 1.0, 1.0, 0.0) AS own
    FROM turns_fts WHERE turns_fts MATCH :query ORDER BY rank LIMIT :limit
) AS f JOIN turns AS t ON t.id = f.rowid
LEFT JOIN turns AS p ON f.own = 0 AND p.id = (
    SELECT b.id FROM turns AS b
    WHERE b.conversation = t.conversation AND b.id < t.id ORDER BY b.id DESC LIMIT 1
)
ORDER BY f.rank
"""
#: The least bm25 weight (as a magnitude) of a turn `search` returns from a ranked query
#: beside turns that weigh more. FTS5 gives a term matched in half the turns or more (their
#: words, speaker or the turn before's) an IDF of 1e-6, its floor (`fts5_aux.c`), so a turn
#: matching only such words scores about 1e-6 for each: bm25 found nothing of the question
#: in it. In a chat between two people that is a turn matched by the speaker's name alone
#: ("Which cities has Jon visited?": after the two turns saying "visited", eight of Jon's,
#: ordered by little but their length), and listed, each took a place of the fused top from
#: a memory recall had ranked (docs/quality.md, "Turns bm25 found nothing in"). When no turn
#: weighs more (a store of three turns, where a word in two of them floors), all are kept.
#: A hundred times the floor: a dozen such words together stay under it, and a turn saying
#: once a word of 45% of the turns scores about 0.2 (its IDF, log(0.55 / 0.45)).
NO_WEIGHT = 1e-4
#: The newest `limit` turns for a query of common terms (`plan_query`), unscored: FTS5 walks
#: its posting list newest first (`ORDER BY rowid DESC`, as recall.RECALL_BY_TOPIC does for
#: notes) and stops after `limit` rows. No bm25 here, not even one call: before scoring its
#: first row, bm25 counts every match of each term of the query (its IDF), and a common term
#: of a million turns has a quarter of a million: ranking the newest 200 matches of "plan" by
#: bm25 took 21.7 ms, walking them unscored 0.19 ms. The query names the turn's own columns
#: (`OWN_WORDS`), so no row is an echo.
SEARCH_NEWEST = """
SELECT t.conversation, t.message, t.role, t.speaker, t.at, t.text, 0.0 AS score,
       NULL AS echo_of
FROM (
    SELECT rowid FROM turns_fts WHERE turns_fts MATCH :query ORDER BY rowid DESC LIMIT :limit
) AS f JOIN turns AS t ON t.id = f.rowid
ORDER BY t.id DESC
"""
#: How many turns a term matches, counted only up to a cap (a cheap walk of its posting list).
COUNT_UP_TO = "SELECT count(*) FROM (SELECT 1 FROM turns_fts WHERE turns_fts MATCH ? LIMIT ?)"
#: A term in this many turns or more is common: left out of the query when the message has
#: rarer terms (bm25 gives it little weight anyway), and a message of common terms only is
#: not scored at all (`SEARCH_NEWEST`). bm25 reads every match of each term of its query
#: before it scores one (its IDF): at a million turns "plan" alone is in 270,000.
COMMON_MATCHES = 1000
#: The bound on bm25's work for one query: the rare terms ORed are kept, rarest first, while
#: their matches sum under it. bm25's reading (every match of each term) and its scoring
#: (every match of the query) are both at most that sum. Scoring costs about 5 to 10 µs a
#: match on this machine (a term in 1,940 of a million turns took 13 to 25 ms alone).
#: LoCoMo's conversations (up to 680 turns) reach a sum of 1,453 and a term at most 550
#: turns: no question there is cut by either constant (docs/benchmarks.md).
SCORED_MATCHES = 2000
#: Where a turn's own words are: a message of common words is searched there only. In a
#: store where each of its words is said thousands of times, the turns that say them
#: themselves are the ones worth quoting, not the replies to them (as recall's notes fall
#: back to their titles); and without bm25 an echo could not be told from its own words.
OWN_WORDS = "{text speaker}"
#: Which of these sources a memory decided against: the message of a memory that was
#: superseded (or archived, unless archived memories are asked for), or one a memory was
#: kept over (a contradiction it won: in its History, not its sources). Recall does not quote
#: those words, as it does not recall those memories: "I live in Porto" is not brought back
#: beside the memory that says Lisbon now.
SETTLED = """
SELECT DISTINCT s.source FROM sources AS s JOIN notes AS n ON n.id = s.note_id
WHERE s.source IN (SELECT value FROM json_each(:sources))
  AND (n.status = 'superseded' OR (n.status = 'archived' AND NOT :include_archived)
       OR NOT EXISTS (SELECT 1 FROM json_each(n.sources) WHERE value = s.source))
"""
FORGET_TURN = "DELETE FROM turns WHERE conversation = ? AND message = ?"
#: The assistant's turns of one conversation (`TurnStore.replies_repeating`).
ASSISTANT_TURNS = "SELECT message, text FROM turns WHERE conversation = ? AND role = 'assistant'"
#: The turn after a forgotten one keeps the start of the forgotten words as its `context`: it
#: is read (searchable text) and re-indexed without it, so the forgotten words are gone from
#: the index, not only their turn. Turns have no update trigger (they never change otherwise):
#: the FTS row is deleted with its old values and inserted again by hand.
NEXT_TURN = """
SELECT n.id, n.text, n.speaker, n.context FROM turns AS n
WHERE n.conversation = :conversation
  AND n.id > (SELECT t.id FROM turns AS t WHERE t.conversation = :conversation
              AND t.message = :message)
ORDER BY n.id LIMIT 1
"""
FTS_DELETE_TURN = (
    "INSERT INTO turns_fts(turns_fts, rowid, text, speaker, context) VALUES ('delete', ?, ?, ?, ?)"
)
FTS_ADD_TURN = "INSERT INTO turns_fts(rowid, text, speaker, context) VALUES (?, ?, ?, '')"
CLEAR_CONTEXT = "UPDATE turns SET context = '' WHERE id = ?"
FORGET_CONVERSATION = "DELETE FROM turns WHERE conversation = ?"
CLEAR_TURNS = "DELETE FROM turns"
#: `DELETE FROM turns` leaves FTS5's segments to the delete markers; 'delete-all' empties it.
CLEAR_FTS = "INSERT INTO turns_fts(turns_fts) VALUES ('delete-all')"
#: Many small segments slow every query; one merge after a bulk load is cheap.
OPTIMIZE_FTS = "INSERT INTO turns_fts(turns_fts) VALUES ('optimize')"
COUNT_TURNS = "SELECT count(*) FROM turns"
#: `carry_over`: an index file from before a rebuild, attached beside this one. Its turns are
#: copied only when its schema is this one's (`user_version`) and its turns table and that
#: table's indexes pass `integrity_check`: a damaged old file loses its turns, never this one.
ATTACH_OLD = "ATTACH DATABASE ? AS old"
OLD_VERSION = "PRAGMA old.user_version"
OLD_HAS_TURNS = "SELECT count(*) FROM old.sqlite_master WHERE type = 'table' AND name = 'turns'"
CHECK_OLD_TURNS = "PRAGMA old.integrity_check(turns)"
COUNT_OLD_TURNS = "SELECT count(*) FROM old.turns"
#: In the order they were kept (their ids are new): a turn's context and `LAST_TEXT` read
#: that order. Through `turns_ai`, so each is searchable again.
COPY_OLD_TURNS = """
INSERT OR IGNORE INTO turns (conversation, message, role, speaker, at, text, context)
SELECT conversation, message, role, speaker, at, text, context FROM old.turns ORDER BY id
"""
DETACH_OLD = "DETACH DATABASE old"
#: Through the UNIQUE index, which is ordered by conversation: no scan of the text.
COUNT_CONVERSATIONS = "SELECT count(DISTINCT conversation) FROM turns"


class TurnRecord(NamedTuple):
    """One turn, ready to store: the columns of `turns` in order."""

    conversation: str
    message: str
    role: str
    speaker: str
    at: str | None
    text: str
    context: str = ""


class CarriedTurns(NamedTuple):
    """What `TurnStore.carry_over` copied: `kept` turns of the `found` the old index held
    (None when it could not be read), and why none were, when none were ("" otherwise)."""

    kept: int
    found: int | None
    reason: str

    @property
    def dropped(self) -> int | None:
        """The old index's turns that were not copied (None: not known, it was unreadable)."""
        return None if self.found is None else self.found - self.kept


@dataclass(frozen=True)
class TurnHit:
    """A turn found for a query, with bm25's score (negative-better, as FTS5 gives it)."""

    conversation: str
    message: str
    role: str
    speaker: str
    at: str | None
    text: str
    score: float
    #: The message id of the turn before, when this turn matched through its context only.
    echo_of: str | None = None
    #: That turn's role and speaker, for an echo: whose words the query matched.
    echo_role: str | None = None
    echo_speaker: str | None = None

    @property
    def source(self) -> str:
        """`<conversation>#<message>`, as a memory cites the same message."""
        return f"{self.conversation}#{self.message}"

    @property
    def matched_role(self) -> str:
        """The role of the words the query matched: the turn before's for an echo ("Great,
        noted." found by the assistant's reply it follows), else this turn's own."""
        return self.echo_role if self.echo_role is not None else self.role

    @property
    def matched_speaker(self) -> str:
        """The speaker of the words the query matched: the turn before's for an echo."""
        return self.echo_speaker if self.echo_speaker is not None else self.speaker

    @property
    def echo_source(self) -> str | None:
        """The source of the turn whose words matched in this one's stead, for an echo."""
        return None if self.echo_of is None else f"{self.conversation}#{self.echo_of}"


def turn_records(
    conversation_id: str, messages: Iterable[Message], *, previous: str = ""
) -> list[TurnRecord]:
    """The turns to keep of a conversation's messages, each with the start of the turn
    before it as its context (`previous`: the last turn kept before these). Pure.

    `messages` must be as the pipeline cleaned them (`pipeline.clean_message`: secrets
    redacted); only `KEPT_ROLES` are kept, and a message with no words is not a turn.
    """
    out = []
    for message in messages:
        text = message.content.strip()
        if message.role not in KEPT_ROLES or not text:
            continue
        at = format_date(message.timestamp) if message.timestamp is not None else None
        out.append(
            TurnRecord(
                conversation_id,
                message.id,
                message.role,
                message.speaker,
                at,
                text,
                previous[:CONTEXT_CHARS],
            )  # fmt: skip
        )
        previous = text
    return out


def split_source(source: str) -> tuple[str, str] | None:
    """`<conversation>#<message>` as its two parts (the last `#` splits), or None. Pure."""
    conversation, sep, message = source.rpartition("#")
    if not sep or not conversation or not message:
        return None
    return conversation, message


class TurnQuery(NamedTuple):
    """How one message's turns are searched (`plan_query`)."""

    #: The FTS5 MATCH expression ("" when there is nothing to search for).
    match: str
    #: True: bm25 ranks every match (`SEARCH_TURNS`), the query's terms being rare. False:
    #: the newest matches are read unscored (`SEARCH_NEWEST`), its every term being common.
    ranked: bool = True


def plan_query(
    terms: Sequence[str],
    matches: Callable[[str, int], int],
    *,
    common: int = COMMON_MATCHES,
    scored: int = SCORED_MATCHES,
) -> TurnQuery:
    """The turn query for a message's terms (weightiest first, as `recall.build_query`
    orders them), its cost bounded whatever the store's size. Pure but for `matches`.

    `matches(expression, cap)` counts the turns an FTS5 expression matches, up to `cap`.
    A term no turn holds is left out: it finds nothing, and counted as rare it would have
    the common terms left out too ("I was thinking about Ana Tanaka" is not "thinking"
    alone). A term in `common` turns or more is common. The rare terms are ORed, rarest
    first while their matches sum under `scored`, then in the message's order (bm25 reads
    and scores fewer than `scored` matches). When every term found is common, the newest
    turns are read unscored: those saying every term in their own words (`OWN_WORDS`), or
    failing that the two weightiest, or failing that the weightiest.
    """
    counts = {t: matches(fts_quote(t), common) for t in terms}
    terms = [t for t in terms if counts[t] > 0]
    if not terms:
        return TurnQuery("")
    rare = [t for t in terms if counts[t] < common]
    if rare:
        return TurnQuery(fts_any(rarest_within(rare, counts, scored)))
    tried: list[str] = []
    for group in (terms, terms[:2], terms[:1]):
        expression = f"{OWN_WORDS} : (" + " AND ".join(map(fts_quote, group)) + ")"
        if expression in tried:
            continue
        tried.append(expression)
        if matches(expression, 1):
            break
    return TurnQuery(tried[-1], ranked=False)


#: Words a reply shares with anything: "Have a great day!" says nothing of "Works four days
#: a week" (beside the stopwords and the words of feelings and time spans, `REFLECTION_STOP`).
_GENERIC = REFLECTION_STOP | frozenset(
    "day days work works worked working need needs sure let thing things way today tomorrow "
    "tonight morning evening night thanks thank help right well much many lot".split()
)


def repeats(reply: str, said: str) -> bool:
    """Whether `reply` says again a word of the statement `said` that is its own (stemmed;
    not a stopword or a word every reply may hold, `_GENERIC`): "Noted: no dairy." repeats
    "Is lactose intolerant, so no dairy suggestions"; "Noted, I will remember that." and
    "Have a great day!" repeat nothing of "Works at Northwind four days a week". Pure."""

    def own(text: str) -> set[str]:
        return {
            stem(w) for w in tokens(text)
            if len(w) > 2 and w not in STOPWORDS and w not in _GENERIC and not w.isdigit()
        }  # fmt: skip

    return bool(own(reply) & own(said))


class TurnStore:
    """The turns table of one index. Made by `Index.turns()`; holds no state of its own."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        write: Callable[[], AbstractContextManager[sqlite3.Connection]],
    ) -> None:
        self._conn = conn
        self._write = write

    def add(self, records: Sequence[TurnRecord]) -> int:
        """Keep these turns (a turn already kept stays as it is); return how many were new."""
        if not records:
            return 0
        with self._write() as conn:
            # rowcount sums the rows each statement changed itself (not its triggers').
            return max(0, conn.executemany(ADD_TURN, records).rowcount)

    def last_text(self, conversation_id: str) -> str:
        """The words of the last turn kept of a conversation ("" when none is)."""
        row = self._conn.execute(LAST_TEXT, (conversation_id,)).fetchone()
        return "" if row is None else str(row[0])

    def search(self, terms: Sequence[str], *, limit: int) -> list[TurnHit]:
        """The `limit` turns that best match `terms` (weightiest first), best first: by bm25
        over the rare terms, or the newest saying the common ones (`plan_query`)."""
        return self.run(self.plan(terms), limit=limit)

    def plan(
        self,
        terms: Sequence[str],
        *,
        common: int = COMMON_MATCHES,
        scored: int = SCORED_MATCHES,
    ) -> TurnQuery:
        """The query `search` runs for `terms`, planned on this store's counts (`plan_query`;
        the bounds are there for tests, which cannot make thousands of turns cheaply)."""
        return plan_query(terms, self._matches, common=common, scored=scored)

    def run(self, query: TurnQuery, *, limit: int) -> list[TurnHit]:
        """The `limit` turns a planned query finds, best (or, unranked, newest) first. Of a
        ranked query, the turns bm25 weighs under `NO_WEIGHT` (the end of its order) are left
        out, not replaced, when some turn weighs more."""
        if not query.match:
            return []
        sql = SEARCH_TURNS if query.ranked else SEARCH_NEWEST
        rows = self._conn.execute(sql, {"query": query.match, "limit": limit})
        hits = [TurnHit(*row) for row in rows]
        if not query.ranked:
            return hits
        return [h for h in hits if -h.score >= NO_WEIGHT] or hits

    def settled(self, sources: Sequence[str], *, include_archived: bool = False) -> set[str]:
        """The sources among these whose words a memory decided against (see `SETTLED`)."""
        if not sources:
            return set()
        params = {"sources": json.dumps(list(sources)), "include_archived": include_archived}
        return {row[0] for row in self._conn.execute(SETTLED, params)}

    def _matches(self, expression: str, cap: int) -> int:
        return int(self._conn.execute(COUNT_UP_TO, (expression, cap)).fetchone()[0])

    def forget(self, sources: Iterable[str]) -> int:
        """Delete the turns these sources name (`<conversation>#<message>`); return how many."""
        pairs = [p for p in map(split_source, sources) if p is not None]
        if not pairs:
            return 0
        with self._write() as conn:
            for conversation, message in pairs:
                after = conn.execute(
                    NEXT_TURN, {"conversation": conversation, "message": message}
                ).fetchone()
                if after is not None and after[3]:
                    rowid, text, speaker, context = after
                    conn.execute(FTS_DELETE_TURN, (rowid, text, speaker, context))
                    conn.execute(CLEAR_CONTEXT, (rowid,))
                    conn.execute(FTS_ADD_TURN, (rowid, text, speaker))
            return max(0, conn.executemany(FORGET_TURN, pairs).rowcount)

    def replies_repeating(self, sources: Iterable[str], statement: str) -> list[str]:
        """The sources of the assistant's turns, in the conversations of `sources`, that say a
        word of the forgotten `statement` again ("Noted: no dairy.", "I'll plan something
        dairy-free" after "Is lactose intolerant, so no dairy suggestions"), for
        `Vault.forget` to forget with it: they would quote the forgotten fact back. A turn
        that repeats none of the statement's own words ("Noted, I will remember that."; one
        about another fact of the same message) stays. (Every assistant turn of the
        conversation, not only the reply after: that message's own turn may be gone already,
        forgotten with another memory of it.)"""
        found: list[str] = []
        for conversation in dict.fromkeys(c for c, _m in filter(None, map(split_source, sources))):
            for message, text in self._conn.execute(ASSISTANT_TURNS, (conversation,)):
                if repeats(text, statement):
                    found.append(f"{conversation}#{message}")
        return found

    def forget_conversation(self, conversation_id: str) -> int:
        """Delete every turn of one conversation; return how many."""
        with self._write() as conn:
            return max(0, conn.execute(FORGET_CONVERSATION, (conversation_id,)).rowcount)

    def clear(self) -> int:
        """Delete every turn; return how many there were."""
        with self._write() as conn:
            count = int(conn.execute(COUNT_TURNS).fetchone()[0])
            conn.execute(CLEAR_TURNS)
            conn.execute(CLEAR_FTS)
        return count

    def optimize(self) -> None:
        """Merge the turns' FTS5 segments into one (after keeping many turns at once)."""
        with self._write() as conn:
            conn.execute(OPTIMIZE_FTS)

    def carry_over(self, old_index: str, *, schema_version: int) -> CarriedTurns:
        """Copy every turn of another index file (this one's before a rebuild) into this
        store, which should be empty. Turns live only in the index: `tota reindex` builds the
        notes' tables again from the files, and without this would start the turns empty.

        Nothing is copied (and `reason` says why) unless the old file opens, has this
        `schema_version` and a turns table that passes `integrity_check`; the copy is one
        transaction, so a read that fails half-way copies nothing.
        """
        try:
            self._conn.execute(ATTACH_OLD, (old_index,))
        except sqlite3.DatabaseError as exc:
            return CarriedTurns(0, None, f"it cannot be opened ({exc})")
        try:
            version = int(self._conn.execute(OLD_VERSION).fetchone()[0])
            if version != schema_version:
                return CarriedTurns(
                    0, None, f"its schema is version {version}, not {schema_version}"
                )
            if not self._conn.execute(OLD_HAS_TURNS).fetchone()[0]:
                return CarriedTurns(0, 0, "")
            problems = [r[0] for r in self._conn.execute(CHECK_OLD_TURNS)]
            if problems != ["ok"]:
                return CarriedTurns(0, None, f"its turns are damaged ({problems[0]})")
            with self._write() as conn:
                found = int(conn.execute(COUNT_OLD_TURNS).fetchone()[0])
                kept = max(0, conn.execute(COPY_OLD_TURNS).rowcount)
            if kept:
                self.optimize()
            return CarriedTurns(kept, found, "")
        except sqlite3.DatabaseError as exc:
            return CarriedTurns(0, None, f"it cannot be read ({exc})")
        finally:
            self._conn.execute(DETACH_OLD)

    def counts(self) -> dict[str, int]:
        """How many turns are kept, of how many conversations."""
        return {
            "turns": int(self._conn.execute(COUNT_TURNS).fetchone()[0]),
            "conversations": int(self._conn.execute(COUNT_CONVERSATIONS).fetchone()[0]),
        }

    def __iter__(self) -> Iterator[TurnRecord]:
        """Every kept turn, in the order kept (for tests and a person's export)."""
        rows = self._conn.execute(
            "SELECT conversation, message, role, speaker, at, text, context FROM turns ORDER BY id"
        )
        return (TurnRecord(*row) for row in rows)
