"""Scores for a candidate memory, and the merge rules: pure functions over plain data.

Every number here is in `docs/learning.md`, which is the contract; change both together.

Confidence (how sure tota is that the statement is true of its subject):

    confidence = strength of the cue                  (0.6 weak .. 0.9 explicit; see rules.CUES),
                 at least 0.9 for a plan or state given up outright (unhedged, as the
                 statement's own verb: "Quit their job at ...", `conflicts.gives_up`)
                 - 0.15 if the wording hedges         ("maybe", "I think", "kind of")
                 + 0.05 if it is emphatic             ("always", "never", "must", "!")
                 - 0.10 if the evidence is inferred   (a "we" statement, not "I"; not
                                                       for the home, `HOUSEHOLD_SLOTS`)
    clamped to [0.05, 0.99]; stored only at >= the vault's threshold (0.55 by default).

Importance (how much it matters when recalling) and durability (how long it stays true)
start from the type's row in `TYPE_SCORES`; emphasis adds 0.1 importance; a temporary
statement ("right now", "this week") loses 0.3 durability.

Merging a confirmation into a memory raises its confidence by noisy-or, damped so repetition
alone never reaches certainty: c' = c + (1 - c) * 0.5 * c_new, at most 0.99.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model import Evidence, MemoryType

if TYPE_CHECKING:
    # Only a type here: config reads this module's thresholds, and `tota search` reads config,
    # so neither the extractors nor rapidfuzz (imported where similarity needs it) load for
    # a read (bench.startup).
    from .extract.base import Candidate

__all__ = [
    "DEFAULT_MIN_CONFIDENCE",
    "MERGE_THRESHOLD",
    "TYPE_SCORES",
    "Scores",
    "confirm_confidence",
    "facts_differ",
    "facts_in",
    "score",
    "slot_value",
    "similarity",
]

#: The product's promise: candidates below this confidence are not stored.
DEFAULT_MIN_CONFIDENCE = 0.55
#: Near-duplicates at or above this similarity (0..100) merge instead of being stored twice.
MERGE_THRESHOLD = 74.0

#: The strength of a plan or state given up outright (not hedged), whichever cue read it: the
#: drop cue's ("I'm no longer vegetarian", `extract.cues`). "I quit my job at Northwind" (an
#: episode's cue, 0.70) and "I don't like sushi anymore" (a liking's, 0.75) end a fact as
#: outright; below the statement they end (0.85, 0.80), the seed's rule would keep the old
#: value for good.
DROP_STRENGTH = 0.9
#: Slots a "we" statement fills for the speaker as surely as an "I" statement: a household's
#: home is the speaker's ("We moved to York" moves them as "I moved to York" would), so
#: nothing about the speaker is inferred and the penalty below does not apply.
HOUSEHOLD_SLOTS = frozenset({"identity/location"})
HEDGE_PENALTY = 0.15
EMPHASIS_BONUS = 0.05
INFERRED_PENALTY = 0.10
MERGE_DAMPING = 0.5
MAX_CONFIDENCE = 0.99

#: (importance, durability) by type: who a person is and what they cannot do matter most and
#: last longest; a single episode matters less and its relevance fades first.
TYPE_SCORES: dict[MemoryType, tuple[float, float]] = {
    MemoryType.IDENTITY: (0.8, 0.95),
    MemoryType.CONSTRAINT: (0.8, 0.9),
    MemoryType.RELATIONSHIP: (0.7, 0.85),
    MemoryType.GOAL: (0.7, 0.6),
    MemoryType.PROJECT: (0.6, 0.6),
    MemoryType.DECISION: (0.6, 0.75),
    MemoryType.PREFERENCE: (0.5, 0.8),
    MemoryType.HABIT: (0.5, 0.7),
    MemoryType.EPISODE: (0.4, 0.5),
    MemoryType.REFLECTION: (0.6, 0.8),
}

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_MONTHS = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)\b",
    re.I,
)


@dataclass(frozen=True)
class Scores:
    """The three scores of a candidate."""

    confidence: float
    importance: float
    durability: float


def _clamp(value: float, low: float = 0.05, high: float = MAX_CONFIDENCE) -> float:
    return round(min(high, max(low, value)), 2)


def score(candidate: Candidate) -> Scores:
    """Score a candidate by the documented rules (module docstring, docs/learning.md)."""
    confidence = candidate.strength
    if confidence < DROP_STRENGTH and not candidate.hedged and _gives_up(candidate.text):
        confidence = DROP_STRENGTH
    if candidate.hedged:
        confidence -= HEDGE_PENALTY
    if candidate.emphatic:
        confidence += EMPHASIS_BONUS
    if candidate.evidence is Evidence.INFERRED and candidate.key not in HOUSEHOLD_SLOTS:
        confidence -= INFERRED_PENALTY
    importance, durability = TYPE_SCORES[candidate.type]
    if candidate.emphatic:
        importance += 0.1
    if candidate.temporary:
        durability -= 0.3
    return Scores(_clamp(confidence), _clamp(importance, high=1.0), _clamp(durability, high=1.0))


def _gives_up(text: str) -> bool:
    from .conflicts import gives_up  # conflicts reads this module's facts_differ

    return gives_up(text)


def confirm_confidence(current: float, new: float) -> float:
    """A memory's confidence after another statement of it with confidence `new`."""
    return _clamp(current + (1.0 - current) * MERGE_DAMPING * new)


def similarity(a: str, b: str) -> float:
    """How alike two statements are, 0..100: word order and case do not matter.

    `token_sort_ratio` with rapidfuzz's default processing. Not `token_set_ratio`,
    `partial_ratio` or `WRatio`: those call a statement that contains another a duplicate,
    and "Likes tea" would swallow "Likes tea but hates coffee".
    """
    from rapidfuzz import fuzz, utils

    return fuzz.token_sort_ratio(a, b, processor=utils.default_process)


_NUMBER_WORDS = {
    "once": "1", "one": "1", "twice": "2", "two": "2", "thrice": "3", "three": "3", "four": "4",
    "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
    "eleven": "11", "twelve": "12", "dozen": "12", "twenty": "20", "hundred": "100",
}  # fmt: skip
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")


def facts_in(text: str) -> set[str]:
    """The numbers (digits or words: "twice" is 2) and month or weekday names of a statement,
    as `facts_differ` compares them. Pure."""
    lowered = text.lower()
    numbers = set(_NUMBER.findall(lowered)) | {
        _NUMBER_WORDS[w] for w in _NUMBER_WORD.findall(lowered)
    }
    return numbers | {m.lower()[:3] for m in _MONTHS.findall(lowered)}


#: What fills a slot, read back from a memory's text: the value two statements of one key must
#: share to be the same fact ("Lives in Porto" and "Is based in Porto" are; "... Berlin" and
#: "... Dublin" are not, though 87% alike).
_SLOT_VALUE = {
    "identity/name": re.compile(r"\b(?:name is|called|call (?:me|her|him|them))\s+([\w'-]+)", re.I),
    "identity/location": re.compile(
        r"\b(?:lives?|living|based|moved|moving)\s+(?:in|to)\s+(.+)", re.I
    ),
    "identity/origin": re.compile(r"\b(?:from|grew up in|born in)\s+(.+)", re.I),
    # "Works at Contoso", "Joined Contoso (in March, as a designer)": the name, not when or how
    "identity/employer": re.compile(
        r"\b(?:(?:works?|working|joined|started)\b.*?\b(?:at|for)|joined)\s+"
        r"(.+?)(?=\s+(?:as|in|on|since|last|this|from|until|back)\b|[.,;!?]|$)",
        re.I,
    ),
    "identity/age": re.compile(r"\b(\d{1,3})\b"),
}
_FAVORITE_VALUE = re.compile(r"\bfavou?rite\b.*?\b(?:is|are|was|has to be)\s+(.+)", re.I)
_VALUE_NOISE = re.compile(r"\b(?:now|these days|currently|again|still|too|as well)\b|[^\w\s'-]")


def slot_value(key: str, text: str) -> str | None:
    """The value a keyed memory gives its slot, normalised; None when it cannot be read."""
    pattern = _FAVORITE_VALUE if key.startswith("preference/favorite") else _SLOT_VALUE.get(key)
    if pattern is None:
        return None
    match = pattern.search(text)
    if match is None:
        return None
    words = _VALUE_NOISE.sub(" ", match.group(1).lower()).split()
    return " ".join(words[:4]) or None


def facts_differ(a: str, b: str) -> bool:
    """True when two statements name different numbers or dates: never merge those.

    "Ran 5 km" and "Ran 50 km" are 90% alike and different facts; so are the same trip on
    two dates. The guard compares the sets of numbers and month or weekday names.
    """
    return facts_in(a) != facts_in(b)
