"""What a group of memories is about: the names its statements mention, and the title a
reflection takes from them. Pure functions over statements; reflect.py groups and writes.

A name is a run of capitalised words inside a sentence ("Ferrovia Labs", "Lisbon"): the first
word of a sentence or of a quote is capitalised by grammar, so it is not one, and neither is a
month or a weekday. A title is derived, by the same method in every vault, from the names and
content words the members share (`derive_title`; docs/recall.md says how).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .text import CUE_WORDS, REFLECTION_STOP, STOPWORDS, WORD_RE, stem
from .topics import TOPIC_TAG, topics_of_word

__all__ = ["derive_title", "named_entities", "written_as"]

#: Month and day names, and adverb and past forms, name no area of a life ("august",
#: "decided", "really"); nor do the words tota frames a quoted answer with.
_NOT_A_TERM = re.compile(
    r"^(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|asked|replying|"
    r".*(?:ed|ly))$"
)
#: A content word: letters (and inner hyphens), four or more.
_CONTENT_WORD = re.compile(r"[a-zà-ÿ][a-zà-ÿ'-]{3,}")
#: What ends a sentence or opens a quote: the word after it is capitalised by grammar, not
#: because it is a name.
_BREAKS = frozenset('.!?:;"“”()[]')
#: Capitalised words (a letter, then the characters of `text.WORD_RE`) in a run of spaces.
_CAPITALISED_RUN = re.compile(r"[A-ZÀ-ÖØ-Þ][\w'’+-]*(?:[ \t]+[A-ZÀ-ÖØ-Þ][\w'’+-]*)*")
#: The same, captured: `split` gives the text between the runs beside each run.
_CAPITALISED_SPLIT = re.compile(f"({_CAPITALISED_RUN.pattern})")


def named_entities(text: str, subject: str = "user") -> list[tuple[str, str]]:
    """The names a statement mentions, as (folded, as written): runs of capitalised words
    inside a sentence ("Ferrovia Labs", "Lisbon"), not the first word of a sentence or quote
    (capitalised by grammar), not the subject's own name, not a date word. Pure."""
    return list(_named(text, subject))


def written_as(name: str, subject: str, texts: Iterable[str]) -> str | None:
    """How `texts` most often write the name folded as `name` ("Ferrovia Labs" for "ferrovia
    labs"; the first in sort order among equals), None when none names it. Pure."""
    written: dict[str, int] = {}
    for text in texts:
        for folded, surface in _named(text, subject):
            if folded == name:
                written[surface] = written.get(surface, 0) + 1
    return min(written, key=lambda s: (-written[s], s)) if written else None


@functools.lru_cache(maxsize=1 << 10)
def _named(text: str, subject: str) -> tuple[tuple[str, str], ...]:
    """`named_entities`, cached for the last statements read: `tota reflect` reads a name
    group's members' names to group them, to show the name and to title the group."""
    found: list[tuple[str, str]] = []
    # Only the capitalised runs are looked at: most of a statement is lower case. One `split`
    # gives each run (odd places) after the text before it (even places), so whether it opens
    # a sentence is read from that text alone, with no slice of the statement for each run.
    parts = _CAPITALISED_SPLIT.split(text)
    for at in range(1, len(parts), 2):
        run = parts[at]
        if not _opens(parts[at - 1], at == 1):
            found += _run_names(run, False, subject)
        elif " " in run or "\t" in run:  # a sentence's first word alone names nothing
            found += _run_names(run, True, subject)
    return tuple(found)


@functools.lru_cache(maxsize=1 << 13)
def _run_names(run: str, opens: bool, subject: str) -> tuple[tuple[str, str], ...]:
    """The names in one run of capitalised words (without its first word when it `opens` a
    sentence), as `named_entities` gives them. Cached: a vault's names recur."""
    own = {part.lower() for part in subject.split()}
    words = run.split()
    if opens:
        words = words[1:]
    found: list[tuple[str, str]] = []
    kept: list[str] = []
    for raw in words:
        word = _possessive(raw).strip("'’-")
        lower = word.lower()
        if word and lower not in STOPWORDS and lower not in own and not _NOT_A_TERM.match(lower):
            kept.append(word)
            continue
        if kept:
            found.append((" ".join(kept).lower(), " ".join(kept)))
        kept = []
    if kept:
        found.append((" ".join(kept).lower(), " ".join(kept)))
    return tuple(found)


def _opens(between: str, first: bool) -> bool:
    """Whether a capitalised run opens a sentence, a quote or an aside (after " - "), from
    the text `between` it and the run before it (the `first` run: the text before it).

    Only whitespace between two runs: the one before ends in a word's character, never a
    break. A dash alone between them follows that word's character, never a space."""
    before = between.rstrip()
    if not before:
        return first
    last = before[-1]
    return last in _BREAKS or (last in "-–—" and before[-2:-1] == " ")


def _possessive(word: str) -> str:
    return word[:-2] if word.endswith(("'s", "’s")) else word


@functools.lru_cache(maxsize=1 << 16)
def _fold(word: str) -> str:
    """One key for a word's forms: "runs", "running" and "run" meet; so do "bake" and
    "baking". For counting only; a title shows a form the members wrote. Pure."""
    base = stem(word, forms=True)
    if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "aeiousl":
        base = base[:-1]  # running -> runn -> run
    if len(base) > 4 and base.endswith("e"):
        base = base[:-1]  # bake -> bak, as baking -> bak
    return base


@dataclass(slots=True, init=False)
class _Term:
    """A word or name the members share: who carries it, how they write it (each form and
    how often), and what follows it in each statement (to tell a phrase, "mental health",
    from two words).

    Its own `__init__`: the dataclass's, with a default factory for three fields, cost twice
    as much, and titling makes one for each word of a group (131,000 at 100k notes)."""

    carriers: set[str]
    forms: dict[str, int]
    is_name: bool
    in_topic: bool
    next_words: set[tuple[str, str]]  # (path, fold after it)

    def __init__(self, *, is_name: bool = False) -> None:
        self.carriers = set()
        self.forms = {}
        self.is_name = is_name
        self.in_topic = False
        self.next_words = set()


@functools.lru_cache(maxsize=1 << 16)
def _token(raw: str) -> tuple[str, bool, str | None] | None:
    """A `WORD_RE` match as `_terms` reads it: lower case with possessives dropped
    ("Melanie's" -> "melanie"), whether it was capitalised, and its fold if it is a content
    word (None otherwise); None for a match of only apostrophes and hyphens. Cached: a vault's
    statements share a small vocabulary, and titling reads each member's every word."""
    word = raw.replace("’", "'").strip("'-")
    if not word:
        return None
    lower = _possessive(word.lower())
    content = (
        _CONTENT_WORD.fullmatch(lower)
        and lower not in STOPWORDS
        and lower not in REFLECTION_STOP
        and lower not in CUE_WORDS
        and not _NOT_A_TERM.match(lower)
    )
    return lower, word[:1].isupper(), _fold(lower) if content else None


@functools.lru_cache(maxsize=1 << 10)
def _tokens(text: str) -> tuple[tuple[str, bool, str | None], ...]:
    """A statement's `_token`s in order, the matches of only apostrophes and hyphens left
    out: read in one call (`map`), not a call per word, as titling reads every member's
    every word (issue #15). Cached for the last statements read: a member of a slot's
    reflection is titled again in its topic's, a subject's reflections one after another."""
    return tuple(filter(None, map(_token, WORD_RE.findall(text))))


def _terms(subject: str, topic: str | None, texts: Mapping[str, str]) -> dict[str, _Term]:
    """The names and content words two or more of the members' statements share, by fold,
    with who has them.

    A name is a capitalised run inside a sentence (`named_entities`); the same word at the
    start of another sentence counts for it too, and a word some member writes in lower case
    is not a name ("Seeing"), but a word."""
    own = {part.lower() for part in subject.split()}
    names = {path: _named(text, subject) for path, text in texts.items()}
    single = {folded for found in names.values() for folded, _ in found if " " not in folded}
    terms: dict[str, _Term] = {}
    lower_case: set[str] = set()
    for path, found in names.items():
        for folded, surface in found:
            term = terms.get("name:" + folded)
            if term is None:
                term = terms["name:" + folded] = _Term(is_name=True)
            term.carriers.add(path)
            term.forms[surface] = term.forms.get(surface, 0) + 1
    for path, text in texts.items():
        in_names = {part for folded, _ in names[path] for part in folded.split()}
        not_terms = own | in_names
        opening = single - in_names  # another member's one-word names: one look-up a word
        previous: _Term | None = None
        for word, capitalised, fold in _tokens(text):
            if opening and word in opening:
                if capitalised:  # a name at the start of a sentence
                    terms["name:" + word].carriers.add(path)
                    continue
                lower_case.add(word)
            if fold is None or word in not_terms:
                previous = None
                continue
            term = terms.get(fold)
            if term is None:
                term = terms[fold] = _Term()
            term.carriers.add(path)
            forms = term.forms
            forms[word] = forms.get(word, 0) + 1
            if previous is not None:
                previous.next_words.add((path, fold))
            previous = term
    for word in lower_case:
        terms.pop("name:" + word, None)
    shared = {fold: term for fold, term in terms.items() if len(term.carriers) >= 2}
    if topic is not None:  # a word of the topic: one of its forms the members wrote is
        for term in shared.values():
            if not term.is_name:
                term.in_topic = any(topic in topics_of_word(form) for form in term.forms)
    return shared


def _shown(term: _Term, *, head: bool) -> str:
    """How a term is written in a title: a name as the members write it; a word in its most
    used form, or its -ing form at the head when a member uses one (it names an activity)."""
    forms = sorted(term.forms, key=lambda f: (-term.forms[f], f))
    if head and not term.is_name:
        gerunds = [f for f in forms if f.endswith("ing")]
        forms = gerunds or forms
    return forms[0]


def _phrase(first: _Term, second: _Term, second_fold: str) -> bool:
    """Whether `second` follows `first` in every statement that has both (two or more): the
    two are one phrase ("mental health"), not two themes."""
    both = first.carriers & second.carriers
    return len(both) >= 2 and all((p, second_fold) in first.next_words for p in both)


def derive_title(subject: str, theme: str, label: str, texts: Mapping[str, str]) -> str:
    """The title of a new reflection about `subject`'s `theme` (`label` as a reader sees it),
    derived from its members' statements (`texts`, by path), not from a list of titles.

    The terms are the names and content words of the members' statements, counted when two
    members carry them. The head is the specific term most members carry: in a topic group a
    word of the topic ("Running" for sport), in a name group a name; with none, the theme
    itself ("Food"). A term that could be the second (below) and that follows the head, or
    that the head follows, in every statement that has both joins it as one phrase ("Mental
    health"). The second is the next
    name or topic word ("and Lisbon"), else a plain word that at least three members and a
    third of them carry (a plain word is more often a verb, "appreciate", than an area of a
    life). Another person's reflection is named for them ("Caroline's painting and LGBTQ").
    Pure."""
    topic = theme.removeprefix(TOPIC_TAG) if theme.startswith(TOPIC_TAG) else None
    terms = _terms(subject, topic, texts)

    def rank(fold: str) -> tuple[int, int, int, int, str]:
        term = terms[fold]
        written = _shown(term, head=False)
        return (-len(term.carriers), -term.in_topic, -term.is_name, -len(written), written)

    ranked = sorted(terms, key=rank)
    specific = [f for f in ranked if terms[f].is_name or terms[f].in_topic]
    floor = max(3, -(-len(texts) // 3))
    plain = [f for f in ranked if f not in specific and len(terms[f].carriers) >= floor]
    preferred = [f for f in specific if (terms[f].in_topic if topic else terms[f].is_name)]
    leading = preferred or specific
    head = leading[0] if leading else None
    if head is None:
        title = label
    else:
        title = _shown(terms[head], head=True)
        # Any shared word but a statement's opening one (its verb: "Plays guitar") may join
        # the head as one phrase ("Gluten intolerance", "Picture book"): the head's own name,
        # not a second theme.
        openers = {toks[0][2] for toks in map(_tokens, texts.values()) if toks}
        others = [
            f for f in ranked if f != head and (f in specific or f in plain or f not in openers)
        ]
        partner = next((f for f in others if _phrase(terms[f], terms[head], head)), None)
        if partner is not None:
            title = f"{_shown(terms[partner], head=False)} {title}"
        else:
            partner = next((f for f in others if _phrase(terms[head], terms[f], f)), None)
            if partner is not None:
                title = f"{title} {_shown(terms[partner], head=False)}"
        second = [f for f in specific + plain if f not in (head, partner)]
        if second:
            title = f"{title} and {_shown(terms[second[0]], head=False)}"
    if subject == "user":
        return title[:1].upper() + title[1:]
    owner = subject + ("'" if subject.endswith("s") else "'s")
    return f"{owner} {title}"
