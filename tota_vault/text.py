"""Text knowledge, in one place: stopwords, the tokeniser, the stemmer and FTS5 quoting.

Recall's query, the merge step's candidate look-up, reflection themes and topics all read
words out of statements and messages; they must agree on what a word is, which words carry
no meaning, and when two forms are one word, or a memory is found by one path and missed by
another. Each stopword set below says who uses it and why it differs from the general list.

FTS5 quoting: any text a person or a statement supplies is quoted before it reaches `MATCH`,
so `C++`, `foo-bar`, `"unbalanced`, `NOT` and `title:x` are words to look for, never query
syntax (`fts_quote` for one term, `fts_phrase_query` for a search box's text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from .errors import QueryError

__all__ = [
    "ABBREVIATION_END",
    "CUE_WORDS",
    "NOT_A_STOP",
    "FUNCTION_WORDS",
    "HTML_COMMENT",
    "KIN_MEMBERS",
    "REFLECTION_STOP",
    "STOPWORDS",
    "WORD_RE",
    "StemFinder",
    "fts_any",
    "fts_phrase_query",
    "first_sentence",
    "said_alike",
    "fts_quote",
    "query_alternates",
    "rarest_within",
    "stem",
    "token_of",
    "tokens",
]

#: A period that ends an abbreviation or an initial ends no sentence: "Dr. Okafor",
#: "Prof. Lindqvist", "F. Scott Fitzgerald", "e.g. Rust". Titles and Latin abbreviations are a
#: closed class of English; an initial is one capital letter after a space.
ABBREVIATION_END = re.compile(
    r"(?:\b(?:Dr|Prof|Mr|Mrs|Ms|Mx|St|Sr|Jr|Mt|Ft|Gen|Col|Capt|Lt|Sgt|Rev|Hon|vs|etc|approx|"
    r"e\.g|i\.e|cf|Inc|Ltd|Co)|(?<![\w.])[A-HJ-Z])\.$"  # "I." ends "So do I."
)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n")
#: A person's comment in a note ("<!-- mine -->"): a note to self, no words of the statement.
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)

#: After "stopped" or "quit": a stop on the way, not a thing given up ("stopped by the bakery",
#: "stopped at a café", "stopped on the way home"). A regular-expression lookahead, shared by
#: the extractor's drop cue and a change of mind's drop (`conflicts`).
NOT_A_STOP = r"(?! (?:by|at|in|into|off|over|for|to|on the way)\b)"


def said_alike(statement: str, other: str) -> bool:
    """Whether two statements are the same words, case, spacing and a final stop aside: "I
    like tea." and "i like  tea" are; how `tota add` finds a memory already there and how a
    memory is named by its whole statement."""

    def plain(words: str) -> str:
        return " ".join(words.split()).rstrip(".!").casefold()

    return plain(statement) == plain(other)


def first_sentence(text: str) -> str:
    """`text` up to its first sentence end or line break; a period after an abbreviation or
    an initial ends no sentence ("The user's advisor is Prof. Lindqvist.")."""
    for match in _SENTENCE_BREAK.finditer(text):
        if "\n" in match.group() or not ABBREVIATION_END.search(text, 0, match.start()):
            return text[: match.start()]
    return text


#: The words of grammar: articles, pronouns, auxiliaries, the commonest prepositions. The merge
#: step's candidate look-up leaves out only these: a near-duplicate shares its other words,
#: filler included ("Jon is gonna make it"), and a short statement stripped of them has too
#: few words left to find its duplicate (with `STOPWORDS` instead, LoCoMo's conversations
#: keep 5 more duplicates of 2507 memories).
FUNCTION_WORDS = frozenset(
    "a an the and or but if then of to in on at for with by from as is are was were be been "
    "being has have had do does did it its it's this that these those their they them there "
    "he she his her him i me my we our us you your so very really just also too not no yes "
    "would will can could should about into over after before up down out off than more most "
    "some any all each other such only own same user".split()
)

#: Words that say nothing about which memory is meant: the function words, their contractions
#: and question words, the filler of chat ("thing", "okay"), and the words people use to ask
#: an assistant to remember or recall ("remind", "remember", "tota"). Recall leaves them out
#: of its query, and reflection out of its themes.
STOPWORDS = FUNCTION_WORDS | frozenset(
    """above again against am aren't because below between both can't cannot couldn't didn't
    doesn't doing don't during few further hadn't hasn't haven't having he'd he'll he's here
    here's hers herself himself how how's i'd i'll i'm i've isn't itself let's mustn't myself
    nor once ought ours ourselves shan't she'd she'll she's shouldn't that's theirs themselves
    there's they'd they'll they're they've through under until wasn't we'd we'll we're we've
    weren't what what's when when's where where's which while who who's whom why why's won't
    wouldn't you'd you'll you're you've yours yourself yourselves like get got thing things
    something anything know think tell said say much many well still even ever kind sort lot
    lots way ways go going went make made want wants please remind recall remember tota hey
    hi hello thanks thank ok okay yeah help around""".split()
)

#: The verbs the rule extractor opens statements with: every preference "prefers" or "likes",
#: every habit "usually" does something. They say which kind of memory it is, not which
#: memory, and as merge look-up terms they would match a large share of the vault. (Recall
#: keeps them: in a question, "Where does Jon work?", they are the point.)
CUE_WORDS = frozenset(
    "prefers likes loves enjoys hates dislikes wants hopes plans aims intends planning hoping "
    "trying saving going works working lives living based moved decided chose switched "
    "usually always often never regularly every called name favorite favourite said others "
    "went ran made took got started finished".split()
)

#: Words a reflection must not be themed on, beyond `STOPWORDS`: feelings, praise and time
#: spans are in memories of every area of a life ("felt great last week"), so a group they
#: formed would gather unrelated memories. (Recall keeps them: "How did Jon feel?")
REFLECTION_STOP = frozenset(
    "user others their them they have been being with from that this will would about "
    "after before really feels feel felt things something lately today week weeks month "
    "year years time times great good nice love loves loved like likes liked".split()
)

#: A word: a letter or digit, then letters, digits, apostrophes (straight or curly), `+` and
#: hyphens, so "C++", "e-mail", "Jon's" and "2023" are each one word.
WORD_RE = re.compile(r"[A-Za-zÀ-ÿ0-9][\w'’+-]*")


def tokens(text: str) -> list[str]:
    """The words of `text`, lower-cased, curly apostrophes straightened, and without the
    apostrophes and hyphens that only edge them ("'cause", "well-"). Pure."""
    return [word for word in map(token_of, WORD_RE.findall(text)) if word]


#: A kinship word of forms and questions and the words talk says it with: people say "my
#: sister" and "my husband", rarely "my sibling" or "my spouse", so a question asked with the
#: general word ("How many siblings do I have?") shares no word with what was said ("I have
#: three sisters"). Kinship terms are a closed class of English; the words people do say of
#: their own family ("kids", "children", "parents") are not keys: they are said, and reading
#: them as "son" or "daughter" too pulled in other memories (LoCoMo tune, docs/quality.md).
#: Each key is listed as `stem` folds it. Recall's query reads it (`query_alternates`).
KIN_MEMBERS: dict[str, tuple[str, ...]] = {
    "sibling": ("brother", "sister"),
    "spouse": ("husband", "wife"),
    "grandparent": ("grandmother", "grandfather", "grandma", "grandpa"),
    "grandchild": ("grandson", "granddaughter"),
    "grandchildren": ("grandson", "granddaughter"),
}


def query_alternates(word: str) -> tuple[str, ...]:
    """Other words a memory may say a query word with: the parts of a hyphenated word
    ("art-related": "art", "related"; FTS5 would search the whole as the phrase "art related",
    which "street art" does not hold), the person a "-ship" noun is made of ("mentorship":
    "mentor", as "I got mentored" is said; FTS5's porter stemmer keeps "-ship", and a stem of
    four letters or fewer is left alone: "hardship", "worship", "township"), and the members
    of a kinship word (`KIN_MEMBERS`). Empty for most words. Query side only: what is stored
    is never rewritten. Pure."""
    word = word.lower()
    if "-" in word.strip("-"):
        return tuple(
            dict.fromkeys(
                part for part in word.split("-") if len(part) >= 2 and part not in STOPWORDS
            )
        )
    if word.endswith("ship") and len(word) - 4 >= 5:
        return (word[:-4],)
    return KIN_MEMBERS.get(stem(word), ())


#: Words in "-s" the plural rules would cut wrong: third-person forms ("goes" is no "goe")
#: and nouns whose "-s" is their own ("news", "series").
_IRREGULAR_S = {
    "goes": "go", "does": "do", "news": "news", "series": "series", "species": "species",
}  # fmt: skip
#: Nouns whose singular ends in "-ie": "movies" is "movie", not "movy" as "stories" is "story".
_IE_NOUNS = frozenset(
    "movie cookie pie tie zombie smoothie selfie brownie rookie calorie hoodie veggie goalie "
    "indie auntie newbie genie".split()
)

#: Word-form endings `stem(forms=True)` strips after folding the plural, longest first.
_FORM_SUFFIXES = ("ingly", "edly", "ing", "er", "ed")


def stem(word: str, *, forms: bool = False) -> str:
    """Fold a word's plural and possessive: "cities" and "city", "recipes" and "recipe",
    "dishes" and "dish", "Sam's" and "sam" meet. Pure.

    Verb forms are left alone by default ("painting" stays): the topic lexicon lists them,
    which is more predictable than stripping them. `forms=True` also strips them ("painted",
    "painting", "painter" and "paint" meet), as recall does when it explains which of a
    question's words a memory holds: FTS5's porter stemmer matched those forms, so coverage
    must count them (without it LoCoMo all@10 drops 0.004, docs/quality.md).
    """
    word = word.lower().replace("’", "'").removesuffix("'s")
    if word in _IRREGULAR_S:
        word = _IRREGULAR_S[word]
    elif len(word) > 4 and word.endswith("ies"):
        word = word[:-1] if word[:-1] in _IE_NOUNS else word[:-3] + "y"
    elif word.endswith(("sses", "xes", "zzes", "ches", "shes")):
        word = word[:-2]  # "classes", "boxes", "quizzes", "dishes": the "e" is the plural's
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]  # "uses", "houses", "sizes": the "e" is the word's own
    if forms:
        if len(word) > 5 and word.endswith("ied"):
            return word[:-3] + "y"
        for suffix in _FORM_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                return word[: -len(suffix)]
    return word


def fts_quote(term: str) -> str:
    """One term as an FTS5 string: double quotes around it, inner quotes doubled. Whatever
    the term holds (`C++`, `NOT`, `title:x`, `"`), it is searched for as text. Pure."""
    return '"' + term.replace('"', '""') + '"'


def rarest_within(rare: Sequence[str], counts: Mapping[str, int], bound: int) -> list[str]:
    """The rare terms a bounded full-text query keeps: rarest first while their matches
    (`counts`) sum under `bound`, the rarest always; returned in their own order (the
    message's). How recall's and the turn query's bm25 work stays bounded. Pure."""
    kept: set[str] = set()
    total = 0
    for term in sorted(rare, key=lambda t: counts[t]):  # stable: ties in message order
        if kept and total + counts[term] >= bound:
            break
        kept.add(term)
        total += counts[term]
    return [t for t in rare if t in kept]


def fts_any(terms: Iterable[str]) -> str:
    """Terms quoted and ORed: a note holding any of them matches. Pure."""
    return " OR ".join(map(fts_quote, terms))


def fts_phrase_query(text: str) -> str:
    """Quote a person's search text for FTS5 MATCH so any text is a valid query.

    Every whitespace-separated word (or `"quoted phrase"`) becomes a quoted string, so `C++`,
    `foo-bar`, `NOT`, `title:x` and a lone `"` are searched for as words. A trailing `*` stays a
    prefix search. The words are ANDed, as a search box does. Raises `QueryError` when there
    is nothing to search for.
    """
    if text.count('"') % 2:
        text += '"'
    parts: list[str] = []
    current = ""
    in_phrase = False
    for char in text:
        if char == '"':
            if in_phrase:
                parts.append('"' + current + '"' if current.strip() else "")
                current = ""
            elif current:
                parts.append(current)
                current = ""
            in_phrase = not in_phrase
        elif char.isspace() and not in_phrase:
            if current:
                parts.append(current)
            current = ""
        else:
            current += char
    if current:
        parts.append(current)
    quoted = []
    for part in parts:
        if not part:
            continue
        if part.startswith('"') and part.endswith('"') and len(part) >= 2:
            quoted.append(fts_quote(part[1:-1]))
            continue
        prefix = part.endswith("*") and len(part.rstrip("*")) > 0
        word = part.rstrip("*") if prefix else part
        quoted.append(fts_quote(word) + ("*" if prefix else ""))
    if not quoted:
        raise QueryError(f"nothing to search for in {text!r}")
    return " ".join(quoted)


#: Characters `WORD_RE` starts a word with that cannot continue one ("×", "÷" are in À-ÿ but
#: are not word characters): a word holding one starts there.
_STARTS_ONLY = frozenset("×÷")
#: The characters `WORD_RE` starts a word with (`[A-Za-zÀ-ÿ0-9]`), as a set: one look-up a
#: character rather than a regex match (recall asks several for every candidate).
_START_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    + "".join(map(chr, range(ord("À"), ord("ÿ") + 1)))
)


def _continues(char: str) -> bool:
    """Whether `WORD_RE` continues a word with this character (`[\\w'’+-]`: Python's `\\w`
    is `str.isalnum()` and the underscore)."""
    return char.isalnum() or char in "_'’+-"


def token_of(word: str) -> str | None:
    """A `WORD_RE` match as `tokens` gives it: lower-cased, curly apostrophes straightened,
    edging apostrophes and hyphens stripped (None when nothing else is left)."""
    return word.lower().replace("’", "'").strip("'-") or None


@lru_cache(maxsize=4096)
def _form(word: str) -> str:
    """`stem(word, forms=True)`, remembered: recall stems the same few words of its
    candidates for every message."""
    return stem(word, forms=True)


class StemFinder:
    """Which of a few stems (`stem(word, forms=True)`) a text holds as words, without stemming
    every word of the text. Pure.

    Recall asks this of every candidate memory: stemming each one's whole text word by word
    was 86% of a recall's time at 100k memories (issue #15). A word whose stem is `s` starts
    with `s` (or with `s` less its final "y": "cities" -> "city"), since stemming only cuts
    endings, so a search for those prefixes finds the few words worth stemming.
    The answer is exactly `{stem(w, forms=True) for w in tokens(text) if not w.endswith("'s")}`
    restricted to the stems asked for (a possessive names someone else's memory, see recall).
    """

    def __init__(self, stems: Iterable[str]) -> None:
        self.stems = frozenset(s for s in stems if s)
        prefixes = {s[:-1] if s.endswith("y") and len(s) > 1 else s for s in self.stems}
        self._prefixes = tuple(sorted(prefixes))

    def find(self, text: str) -> set[str]:
        """The stems asked for that some word of `text` has."""
        if not self._prefixes:
            return set()
        low = text.lower().replace("’", "'")  # as `stem` reads a word
        if len(low) != len(text):
            # Lower-casing changed the length ("İ"): positions no longer line up, so take
            # the slow, plain way for this rare text.
            return self._every_word(text)
        found: set[str] = set()
        # `str.find` for each prefix, not one regex alternation: a few substring searches
        # cost a fraction of matching every alternative at every position of the text. Every
        # occurrence is tried (overlapping ones too); only a word's start counts.
        for prefix in self._prefixes:
            at = low.find(prefix)
            while at >= 0:
                stemmed = self._stem_at(text, at)
                if stemmed is not None:
                    found.add(stemmed)
                at = low.find(prefix, at + 1)
        return found

    def _stem_at(self, text: str, at: int) -> str | None:
        """The stem of the word starting at `at`, when one does and it is asked for."""
        word = self._word_at(text, at)
        if word is None or word.endswith("'s"):
            return None
        stemmed = _form(word)
        return stemmed if stemmed in self.stems else None

    def _every_word(self, text: str) -> set[str]:
        present = {stem(w, forms=True) for w in tokens(text) if not w.endswith("'s")}
        return present & self.stems

    @staticmethod
    def _word_at(text: str, at: int) -> str | None:
        """The word (as `tokens` gives it) that `WORD_RE` starts at `at` in `text`, or None
        when no word starts there (the position is inside one)."""
        # Back to where the scanner is surely between words: before a run of characters that
        # continue a word (and a start-only character right before that run, which begins a
        # word that runs on through it).
        # A hit inside a word ("bed" in "embedded"): after a character a word starts with,
        # a character that continues one is inside that word, so no word starts there.
        before = text[at - 1] if at else " "
        if before in _START_CHARS and _continues(text[at]):
            return None
        start = at
        while start > 0 and _continues(text[start - 1]):
            start -= 1
        if start > 0 and text[start - 1] in _STARTS_ONLY:
            start -= 1
        if start == at:
            # Between words (the usual hit: the word itself): a word starts here or nowhere.
            found = WORD_RE.match(text, at)
            return None if found is None else token_of(found.group(0))
        for match in WORD_RE.finditer(text, start):
            if match.start() == at:
                return token_of(match.group(0))
            if match.start() > at:
                return None
        return None
