"""When two statements are one fact, two facts, or a change of mind: pure functions over text.

The merge step joins near-duplicates (>= 74% alike by `scoring.similarity`), but similar
wording is not the same fact: "Went to Seville for a conference" and "Went to Lyon for a
conference" are 80% alike and two trips. `differ` names what tells two statements apart (a
name, a number or date, or a thing put in another's place); a merge never joins those.

A change of mind is a new statement that replaces an old one without sharing a slot key:
"The user's launch got pushed to the 30th" (a deadline moved), "Has decided not to apply for
the Zurich job after all" (a plan dropped), "Mostly works from the café now" (a place, tool or
habit switched). `replaces` says whether a new statement replaces an old one, and how. It asks
for the new statement's own word for the change (pushed, no longer, now, instead, ...): without
one, two statements that differ in a value are two facts (two trips, two books), never a
conflict. The pipeline then applies the seed's rule (higher confidence wins, a tie goes to
the newer, the old value noted in History).

The same statements come back many times in a conversation (a fact confirmed, a candidate
compared with its look-up's rows): their words are read once (a bounded cache).

Words are compared as "content words": lower-cased, plural and verb forms folded
(`text.stem(forms=True)`), without grammar, filler ("really", "mostly", "these days") or the
change's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Literal

from .extract.dates import RESOLVED_DATE
from .scoring import facts_differ, facts_in
from .text import FUNCTION_WORDS, HTML_COMMENT, NOT_A_STOP, WORD_RE, stem, token_of, tokens

__all__ = [
    "Change",
    "adds",
    "change_kind",
    "content_words",
    "differ",
    "gives_up",
    "holds_whole",
    "names",
    "negated",
    "replaces",
    "search_words",
]

ChangeKind = Literal["drop", "reschedule", "switch"]

#: Phrases that say how often or how sure, never which fact: removed before words are compared.
_FILLER_PHRASES = re.compile(
    r"\b(?:these days|most days|most of the time|at the moment|for now|from now on|right now|"
    r"any ?more|after all|all the time|most mornings|most evenings|nowadays|these weeks)\b",
    re.I,
)
#: The frame tota puts around words it keeps as said ("The user said: The budget is now
#: 18000 euros."): who said it, not what was said.
_SAID_FRAME = re.compile(r"^(?:The user|[A-Z][\w'-]*(?: [A-Z][\w'-]*)?) said:\s*")
#: A statement said in the negative: "Is not vegetarian" is the opposite of "Is vegetarian",
#: though the two have the same content words.
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|nothing|none|nobody|nowhere|neither|nor)\b|n't\b", re.I
)
#: Single words of the same kind.
FILLER = frozenset(
    "really mostly mainly generally typically usually actually currently now still just "
    "pretty quite definitely honestly again lately recently instead also even already "
    "totally absolutely sometimes often always anyway".split()
)
#: Words of one sense for a change of mind: "Doesn't like sushi anymore" gives up "Loves
#: sushi", "Quit their job at Northwind" ends "Works at Northwind" (normal forms, `_normal`).
_SAME_SENSE = {"lik": "lov", "enjoy": "lov", "ador": "lov", "job": "work"}

#: "No more ..." as a thing of the past ("No more night shifts for me"), not a limit ("No more
#: than two coffees a day").
_NO_MORE = r"no more\b(?! than\b)"
#: A plan dropped: "decided not to", "no longer", "gave up on", "called off", "... after all".
_DROP = re.compile(
    r"\b(?:(?:decided|chosen|chose|decide|deciding) (?:not to|against)|no longer|"
    r"(?:not|never) (?:going|planning) to|(?:won't|will not|not)\b.*\bafter all|gave up|"
    r"given up|giving up|(?:stopped|quit)" + NOT_A_STOP + "|"
    r"cancell?ed|called off|dropped" + NOT_A_STOP + "|abandoned|"
    r"changed (?:my|our|his|her|their) mind)\b|"
    # "No more night shifts for me, ...": said first, a thing of the past
    r"(?:^|[,;:]\s*)" + _NO_MORE + "|"
    # "Is not vegetarian anymore", "Doesn't drink coffee any more"
    r"(?:\bnot|n't)(?:\s+[\w'-]+){1,4}?\s+any ?more\b",
    re.I,
)
#: A drop cue said in the negative is the opposite of a drop: "won't quit", "never gave up",
#: "instead of giving up".
_NEGATED = re.compile(
    r"\b(?:won't|will not|would not|wouldn't|never|not|don't|didn't|can't|couldn't|instead of)"
    r"(?:\s+\w+)?\s*$",
    re.I,
)
#: A date moved: "pushed to the 30th", "postponed until May", "moved back to June 3".
_RESCHEDULE = re.compile(
    r"\b(?:pushed|moved|postponed|delayed|rescheduled|brought forward|bumped|shifted|slipped|"
    r"changed)\b(?:\s+\w+){0,2}?\s+(?:to|until|till|back to|forward to)\b",
    re.I,
)
#: A place, tool or habit switched, or a plan replaced: "now", "switched to", "instead". (Not
#: a bare "changed": "it changed the game for me" changes no memory.)
_SWITCH = re.compile(
    r"\b(?:now|these days|nowadays|instead|switched to|switching to|changed to|moved over to|"
    r"from now on|any ?more|no longer)\b",
    re.I,
)
#: A birthday: "Emma just turned 6" changes the age "Emma is 5" gave (not "turned 3 chairs
#: into a table": a number of things).
_TURNED = re.compile(r"\bturned (?P<age>\d{1,3})(?: years? old)?\b(?!\s+(?!years\b)\w+s\b)", re.I)
#: An age as a statement gives it: "is 5", "is 34 years old", "a 5-year-old", "aged 40".
_AGE = re.compile(
    r"\b(?:is|was|are|'s|turns|turned|aged?) (?P<age>\d{1,3})(?: years? old)?\b(?!\s*[%\w])|"
    r"\b(?P<years>\d{1,3})[- ]years?[- ]old\b",
    re.I,
)
#: A correction that names the value it corrects: "Biscuit is a basset hound, not a beagle"
#: (the person's "actually" is filler, dropped from the statement): like "instead of", the
#: value after "not" is the one replaced.
_CORRECTED = re.compile(
    r",\s*not\s+(?!(?:yet|really|sure|quite|now|anymore|any more)\b)"
    r"([^,.;:!?]+?)\W*$",
    re.I,
)
#: A replacement that names what it replaces: "switched from VS Code to Neovim", "replaced
#: Trello with Linear", "traded my Honda for a Tesla" (the value replaced, as written).
_REPLACED_BY = re.compile(
    r"\b(?:(?:switched|moved|changed|migrated|converted|went|upgraded|downgraded) "
    r"(?:over |back )?from (?P<from>[^,.;:!?]+?) (?:over )?to\b|"
    r"replaced (?P<replaced>[^,.;:!?]+?) with\b|"
    r"(?:swapped|traded|ditched|exchanged) (?P<for>[^,.;:!?]+?) for\b)",
    re.I,
)
#: A determiner or possessive before a value: "my Honda" is the Honda "Drives a Honda" names.
_DETERMINER = re.compile(r"^(?:the|a|an|my|our|their|his|her|its)\s+", re.I)
#: How a statement says the person has or uses something, just before it: "Uses VS Code at
#: work", "Drives a Honda", "Has used Notion for their notes".
_HOLDING = (
    r"\b(?:uses?|using|used|prefers?|likes?|loves?|enjoys?|has|have|owns?|drives?|rides?|"
    r"plays?|takes?|relies on|runs?|goes to|works(?: at| on| with)?|lives in)\s+(?:the |a "
    r"|an |my |our |their |his |her )?"
)
#: A couple parted: "Got divorced in 2022 with Omar", "Broke up with Sam".
_ENDED = re.compile(r"\b(?:divorced|separated|broke up|split up)\b", re.I)
#: A couple, as a statement of being one says it: "Is married to Omar", "Is dating Sam".
_TOGETHER = re.compile(r"\b(?:married|engaged) to\b|\bdating\b|\bin a relationship with\b", re.I)
#: The longest statement (in content words and prepositions) read as a switch: a change of
#: mind is said in a few words; a long quote that happens to hold "now" is not one.
MAX_SWITCH_WORDS = 12
#: The words of the cues above and of plans: they say that something changed or is planned,
#: not what. Removed from both statements before their words are compared.
CHANGE_WORDS = frozenset(
    "decided decide deciding chosen chose choose against not no never longer going planning "
    "plan plans planned intend intends intending hoping hope hopes want wants thinking "
    "considering won't will gave given giving up stopped stop quit cancelled canceled called "
    "dropped abandoned changed change mind pushed moved postponed delayed rescheduled brought "
    "forward bumped shifted slipped back switched switching switch over later until till got "
    "gets been scheduled set due deadline".split()
)
#: Words that stand for the subject of a statement, on every statement of theirs.
_SUBJECT_WORDS = frozenset("user user's others they're they've they'll they'd".split())
#: An ordinal or number as people write dates ("the 30th", "1st"): its digits are the value.
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
#: Month and weekday names: values, like numbers (`scoring.facts_differ` compares them too).
_DATE_WORDS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
    "saturday sunday".split()
)
#: Prepositions kept in the word sequence `replaces` aligns: "works from X" and "works on X"
#: are not one frame. Not "to", which is as often the mark of an infinitive ("decided to").
_FRAME_PREPOSITIONS = frozenset("in on at for with from of by about into over".split())


#: Verb forms too short for `stem` to cut ("us" is no stem of "using"): "Stopped using
#: Trello" gives up "Uses Trello".
_SHORT_FORMS = {"used": "use", "using": "use", "aged": "age", "aging": "age"}


@lru_cache(maxsize=16384)
def _normal(word: str) -> str:
    ordinal = _ORDINAL.match(word)
    if ordinal:
        return ordinal.group(1)
    if word in _DATE_WORDS:
        return word  # a value as it is: "December" is no "decemb" (`_values` knows it)
    plain, word = stem(word), stem(word, forms=True)
    if word != plain and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "flsz":
        return word[:-1]  # a consonant doubled before the ending: "formatting" and "format"
    word = _SHORT_FORMS.get(word, word)
    # "move" and "moving" (-> "mov"), "live" and "living" meet.
    word = word[:-1] if len(word) > 3 and word.endswith("e") else word
    return _SAME_SENSE.get(word, word)


def _sequence(
    text: str, *, keep_prepositions: bool, subject: str = "user", join_names: bool = False
) -> list[str]:
    """The statement's content words in order (see the module docstring), without the
    subject's own name (every statement about Jon names Jon). With `join_names`, a run of
    names is one unit ("Uses VS Code for editing" -> use, "vs code", for, edit): a value
    said in two capitalised words is still one value."""
    return list(_sequence_of(text, keep_prepositions, subject, join_names))


# A candidate is compared with each of up to a dozen earlier memories, and an earlier memory
# with every candidate of its subject: each statement is read once, not once a pair.
@lru_cache(maxsize=4096)
def _sequence_of(
    text: str, keep_prepositions: bool, subject: str, join_names: bool
) -> tuple[str, ...]:
    text = _FILLER_PHRASES.sub(" ", HTML_COMMENT.sub(" ", _SAID_FRAME.sub("", text)))
    out: list[str] = []
    own = subject.lower()
    previous, in_name = 0, False
    for match in WORD_RE.finditer(text):
        gap = text[previous : match.start()]
        starts = previous == 0 or any(c in _SENTENCE_BREAKS for c in gap)
        previous = match.end()
        raw = match.group(0)
        word = token_of(raw) or ""
        is_name = join_names and not starts and raw[:1].isupper()
        if (
            not word
            or word in _SUBJECT_WORDS
            or word in FILLER
            or word in CHANGE_WORDS
            or word.endswith("n't")
        ):
            in_name = False
            continue
        if word.removesuffix("'s") == own:
            in_name = False
            continue
        if word in FUNCTION_WORDS and not (keep_prepositions and word in _FRAME_PREPOSITIONS):
            in_name = False
            continue
        if is_name and in_name and gap.strip() == "":
            out[-1] = f"{out[-1]} {_normal(word)}"
            continue
        out.append(_normal(word))
        in_name = is_name
    return tuple(out)


@lru_cache(maxsize=4096)
def content_words(text: str) -> frozenset[str]:
    """The content words of a statement, normalised (see the module docstring). Pure."""
    return frozenset(_sequence(text, keep_prepositions=False))


def search_words(text: str) -> list[str]:
    """The words to find what a change of mind replaces, as written: each whose normal form
    is a content word ("Mostly works from the café now" -> café, works). Sorted. Pure."""
    kept = content_words(text)
    words = {w for w in tokens(text) if len(w) >= 3 and _normal(w) in kept}
    return sorted(words)


def holds_whole(fuller: str, statement: str) -> bool:
    """Whether `fuller` says all that `statement` says, in the same order, and more: "Does a
    lesson on Duolingo every morning, at 6:30" holds "Does a lesson on Duolingo every
    morning"; "Flew from Paris to Tokyo in May" does not hold "Flew from Tokyo to Paris" (the
    same words, the other way round). A statement held whole merges into the fuller memory
    (`pipeline.decide`): nothing of it is lost. Pure."""
    if adds(fuller, statement) is None:
        return False
    words = iter(_sequence(fuller, keep_prepositions=True))
    return all(word in words for word in _sequence(statement, keep_prepositions=True))


@lru_cache(maxsize=4096)
def names(text: str) -> frozenset[str]:
    """The names in a statement: its capitalised words but the first of each sentence, line
    or clause after a colon ("Went to Lyon with Sam" -> lyon, sam). Lower-cased and stemmed,
    so "Sam's" is "sam". Pure."""
    out = set()
    previous = 0
    for match in WORD_RE.finditer(text):
        gap = text[previous : match.start()]
        starts = previous == 0 or any(c in _SENTENCE_BREAKS for c in gap)
        word = match.group(0)
        if not starts and word[:1].isupper() and word.lower() not in _SUBJECT_WORDS:
            out.add(stem(word))
        previous = match.end()
    return frozenset(out)


#: What ends a sentence or opens a new one, between two words.
_SENTENCE_BREAKS = frozenset('.!?\n:;"*#>()[]')


def differ(a: str, b: str) -> str | None:
    """What makes two statements two facts, or None when nothing does. Pure.

    A merge never joins statements that differ in a number or a date ("Ran 5 km" and "Ran
    50 km"), in a name (a place, person or thing: "Went to Seville" and "Went to Lyon"), or in
    a thing put in another's place ("Likes jazz records" and "Likes jazz festivals"), in what
    one says more ("... allergic to peanuts and shellfish" and "... allergic to peanuts": a
    merge would lose the shellfish, whichever of the two came first), or in saying the
    opposite ("Is not vegetarian", "Is vegetarian"). Filler ("Really loves hiking", "Loves
    hiking") or other forms of the same words ("Plans to visit", "Is planning to visit") is
    not a difference.
    """
    if facts_differ(a, b):
        return "another number or date"
    names_a, names_b = names(a), names(b)
    if names_a != names_b:
        only = sorted(names_a ^ names_b)
        return f"another name ({', '.join(only)})"
    if negated(a) != negated(b):
        return "the opposite (one says not)"
    if _reversed(a, b, "user"):
        return "the opposite (the two compared the other way round)"
    words_a, words_b = content_words(a), content_words(b)
    if words_a - words_b and words_b - words_a:
        return (
            f"another thing ({', '.join(sorted(words_a - words_b))} for "
            + ", ".join(sorted(words_b - words_a))
            + ")"
        )
    if words_a != words_b:
        return f"one says more ({', '.join(sorted(words_a ^ words_b))})"
    return None


def negated(text: str) -> bool:
    """Whether a statement is said in the negative ("not", "no longer", "never", "-n't").
    Pure."""
    return _NEGATION.search(HTML_COMMENT.sub(" ", text)) is not None


def adds(new: str, old: str) -> str | None:
    """What statement `new` says beyond `old` when it says all that `old` says, or None. Pure.

    "The user's son Leo is allergic to peanuts and shellfish" adds "shellfish" to "... allergic
    to peanuts"; "Visited Porto and Lisbon in 2023" adds "lisbon". Every content word, name,
    number and date of `old` is in `new`, both are said the same way (neither is the other's
    negation), and `new` has something more: a fuller statement of the same fact, which a
    merge would lose and a change of mind does not need a cue for (`pipeline.decide`).
    """
    if negated(new) != negated(old):
        return None
    words_new, words_old = content_words(new), content_words(old)
    names_new, names_old = names(new), names(old)
    facts_new, facts_old = facts_in(new), facts_in(old)
    if not (words_old <= words_new and names_old <= names_new and facts_old <= facts_new):
        return None
    more = (words_new - words_old) | (names_new - names_old) | (facts_new - facts_old)
    if not more:
        return None
    # As written ("shellfish", not its normal form): the words of `new` that stand for them.
    said = {w for w in tokens(new) if w in more or _normal(w) in more or stem(w) in more}
    return ", ".join(sorted(said or more))


@lru_cache(maxsize=4096)
def change_kind(text: str) -> ChangeKind | None:
    """How a statement says that something changed, or None when it does not. Pure.

    "drop" for a plan given up, "reschedule" for a date moved, "switch" for a place, tool,
    habit or plan replaced by another.
    """
    for match in _DROP.finditer(text):
        if not _NEGATED.search(text[: match.start()]):
            return "drop"
    for match in _ENDED.finditer(text):
        if not _NEGATED.search(text[: match.start()]):
            return "drop"
    if _RESCHEDULE.search(text):
        return "reschedule"
    for match in _REPLACED_BY.finditer(text):
        if not _NEGATED.search(text[: match.start()]):
            return "switch"
    if _SWITCH.search(text) or _TURNED.search(text) or _CORRECTED.search(text):
        return "switch"
    return None


#: What may stand before a drop that is a statement's own verb: its subject, auxiliaries and
#: the adverbs of when ("Has just quit their job", "The user and others cancelled the trip").
_BEFORE_OWN_VERB = frozenset(
    "the user user's and others has have had is was are were does do did has been just "
    "recently finally already now also actually really officially".split()
)


def gives_up(text: str) -> bool:
    """Whether a statement's own verb gives up a plan or state ("Quit their job at Northwind",
    "Doesn't like sushi anymore", "Got divorced in 2022 with Omar"), not a clause inside it
    ("Is looking for stamps from countries that no longer exist", "Sometimes feels like
    giving up"): a drop (`change_kind`) with nothing before it but the subject, an auxiliary
    or an adverb of when. Pure."""
    for match in (*_DROP.finditer(text), *_ENDED.finditer(text)):
        before = text[: match.start()]
        if _NEGATED.search(before):
            continue
        # "Doesn't", "Can't": the cue starts inside the word, whose stem is an auxiliary
        before = re.sub(r"\w+$", "", before)
        words = WORD_RE.findall(before)
        if all(
            w.lower() in _BEFORE_OWN_VERB or (i == 0 and w[:1].isupper())
            for i, w in enumerate(words)
        ):
            return True
    return False


#: The conclusion a statement of the person's own ends with, after its last ", so": "Started
#: eating fish again, so they're not vegetarian anymore". Only a last clause after "so" is
#: read alone: "Dropped the kids at school, and went running" or "Cancelled yoga this Friday,
#: because of the storm" give up nothing.
_SO_CLAUSE = re.compile(r",\s+so\s+(?P<clause>[^,;:]+?)[.!]*$", re.I)
#: What shows that the clause before the conclusion is about someone else, whose "they" the
#: conclusion may be ("The user's kids eat meat now, so they're not vegetarian anymore"): a
#: possessive, or a name.
_SOMEONE_ELSE = re.compile(r"'s\b|\b(?:their|his|her|its)\b|(?<!^)\b[A-Z][a-z]")


#: What "No more X" cannot end: X had, owned or counted ("Has two kids", "Owns a dog"): no
#: more of it is none added, not the end of what there is.
_HAVING = re.compile(
    r"\b(?:has|have|had|owns?|owned|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b",
    re.I,
)
_NO_MORE_CLAUSE = re.compile(r"(?P<clause>" + _NO_MORE + r"[^,;:.!?]+)[,;:]", re.I)


def _drop_clause(text: str, subject: str) -> str | None:
    """The clause that gives something up: an opening "No more ..." before a comma, or the
    conclusion of a statement of the person's own that ends with one (`_SO_CLAUSE`) and says
    nothing of anyone else before it; None otherwise."""
    opening = _NO_MORE_CLAUSE.match(text)
    if opening is not None:  # "No more night shifts for them, the new job is days only."
        return opening.group("clause")
    conclusion = _SO_CLAUSE.search(text)
    if conclusion is None or change_kind(conclusion.group("clause")) != "drop":
        return None
    before = text[: conclusion.start()]
    if subject != "user":
        before = before.removeprefix(subject).lstrip()
    if not before or _SOMEONE_ELSE.search(before):
        return None
    return conclusion.group("clause")


@dataclass(frozen=True)
class Change:
    """A new statement replacing an old one: how, and in words for the report."""

    kind: ChangeKind
    reason: str
    #: Found by a looser reading (a date moved of a thing named one word shorter): it holds
    #: only when no other memory fits as well (`pipeline.decide`).
    loose: bool = False


def _values(words: frozenset[str] | list[str]) -> set[str]:
    return {w for w in words if w.isdigit() or w in _DATE_WORDS}


def replaces(new: str, old: str, *, subject: str = "user") -> Change | None:
    """Whether statement `new` replaces statement `old` of the same `subject`, and how. Pure.

    * drop: `new` gives up what `old` planned ("Has decided not to apply for the Zurich job
      after all" over "Is planning to apply for the Zurich job"): `new`'s words, without the
      cue, are all `old`'s, and `old` is not itself a drop;
    * reschedule: `new` moves a date ("The user's launch got pushed to the 30th") of the same
      thing `old` dated ("The user's launch is scheduled for March 15"): the same words but
      the dates, and other dates;
    * switch: `new` puts one value in the place of another in the same frame ("Mostly works
      from the café now" over "Works from the library most days"; "Switched to Helix for
      editing" over "Uses Vim for editing"): aligned word by word, the two differ in exactly
      one run of words, and share at least one content word beside it (`_switch`); or `new`
      names the value it replaces ("Switched to ruff format instead of black"); or a number
      of the same measured thing changed ("The user's budget is now 5000 euros" over "...
      4000 euros for the whole trip", `_renumbered`).

    Without a cue of change in `new` (`change_kind`) nothing is replaced: "Went to Seville"
    does not replace "Went to Lyon".
    """
    kind = change_kind(new)
    if kind is None or _SAID_SEVERAL.search(old):
        return None
    if _replaced_named(new, old, subject):
        return Change("switch", "a change of mind")
    new_words, old_words = content_words(new), content_words(old)
    if not new_words & old_words:
        return None
    if kind == "drop":
        if _ENDED.search(new) and _TOGETHER.search(old):
            return _parted(new, old, subject)
        if change_kind(old) == "drop":
            return None
        # "Started eating fish again, so they're not vegetarian anymore": the clause that
        # gives something up is what gives up "Is vegetarian".
        said = new if new_words <= old_words else _drop_clause(new, subject)
        if said is None or not content_words(said) <= old_words:
            return None
        if not content_words(said) & old_words or not names(said) <= names(old):
            return None
        if re.match(r"\s*" + _NO_MORE, said, re.I) and _HAVING.search(old):
            return None  # "No more kids for us, two is enough" ends no "Has two kids"
        # "Quit their job at Northwind" ends a fact, not a plan: said so in the report.
        return Change("drop", "a plan given up" if _PLAN.search(old) else "no longer so")
    moved = (
        _moved(new, old, subject) or _aged(new, old, subject) or _moved_someone(new, old, subject)
    )
    if moved is not None:
        return moved
    if _reversed(new, old, subject):
        return Change("switch", "a preference reversed")
    new_values, old_values = _values(new_words), _values(old_words)
    # A date moved: said so ("pushed to"), or a new date with "now". (A number alone with
    # "now" is a measure, below: "Ran 10 km now" moves no date of "Ran 5 km on 7 May".)
    if kind == "reschedule" or (new_values & _DATE_WORDS and old_values):
        # Why it moved is no part of what moved: "... moved to 3 February because of the
        # strike". The new statement may name it shorter: "The proposal deadline" is the
        # "dissertation proposal" (one word fewer, `MAX_SHORTER_BY`).
        topic = content_words(_REASON.sub("", new)) - new_values
        was = old_words - old_values
        shorter = topic < was and len(was - topic) <= MAX_SHORTER_BY
        if topic and (topic == was or shorter) and facts_differ(new, old):
            return Change("reschedule", "a date moved", loose=topic != was)
        if kind == "reschedule":
            return None
    if new_values and old_values and _renumbered(new, old, subject):
        return Change("switch", "a number changed")
    return _switch(new, old, subject) or _head_switch(new, old, subject)


#: Where a statement's first clause ends: a comma before a clause or phrase of its own
#: ("Mostly works from home now, the library got too crowded", "Works from the library most
#: days, usually from 9 to 5").
_HEAD_END = re.compile(r",\s+")
#: What may follow an old statement's first clause and go with it when a switch replaces
#: the clause: when or how often it was so ("usually from 9 to 5", "most days", "on
#: weekdays"), no fact of its own (a name, a purpose, a second thing, a clause).
_TIME_TAIL = re.compile(
    r"(?:(?:usually|mostly|often|always|normally|typically|generally|mainly)\s+)?"
    r"(?:from|between|at|on|every|most|in the|during)\s+[\w: -]*?[\w]\W*",
    re.I,
)
#: The fewest content words a first clause needs to be compared alone.
_HEAD_WORDS = 2


def _head_switch(new: str, old: str, subject: str) -> Change | None:
    """A switch said in the two statements' first clauses, when what follows a comma in
    either is said beside the change, not part of it: "Mostly works from home now, the
    library got too crowded" over "Works from the university library most days, usually from
    9 to 5". The new first clause must carry the cue of change itself ("now"), so a change
    said of something after the comma ("..., the library is now crowded") replaces
    nothing."""
    new_head = _HEAD_END.split(new, maxsplit=1)[0]
    old_head, *old_tail = _HEAD_END.split(old, maxsplit=1)
    if old_tail and not _TIME_TAIL.fullmatch(old_tail[0].strip()):
        return None  # "Uses VS Code at work, and vim for quick edits": the tail is a fact too
    if (new_head, old_head) == (new, old) or change_kind(new_head) is None:
        return None
    if min(len(content_words(new_head)), len(content_words(old_head))) < _HEAD_WORDS:
        return None
    return _switch(new_head, old_head, subject)


#: A memory that keeps what was said in several sentences ('The user said: "We're planning a
#: trip to Japan in April. It's me, my husband Tom and our two kids."'): a change of mind
#: replaces one fact of it at most, and superseding it would take the others with it.
_SAID_SEVERAL = re.compile(r'\bsaid: "[^"]*?[.!?]\s+[^"]*?\w[^"]*"')
#: A reason given after a change: "... because of the strike", ", due to the rain".
_REASON = re.compile(r",?\s+\b(?:because|since|due to|owing to|thanks to)\b[^.;!?]*", re.I)
#: How many words fewer a moved date's statement may name its thing with: "the proposal
#: deadline" for "the dissertation proposal", never "the meeting" for "the team budget meeting".
MAX_SHORTER_BY = 1


#: When, said loosely ("next year", "this summer"): a switch compares what changed, not when
#: it was to happen. (A merge does compare it: "Went to Paris last year" and "... this year"
#: are two facts.)
_WHEN_PHRASES = re.compile(
    r"\b(?:next|this|last|every) (?:year|month|week|weekend|summer|winter|spring|fall|autumn|"
    r"morning|evening|night|day)s?\b",
    re.I,
)


#: "... instead of Y": the new statement names the value it replaces (up to a clause end).
_INSTEAD_OF = re.compile(r"\binstead of\s+([^,.;:!?]+)", re.I)
#: The most words (a run of names is one) a value may have when it is longer than the words
#: the two statements share: "Takes the train to work" -> "Cycles to work now" (take, train
#: beside work), "Uses VS Code for editing" -> "Switched to Neovim for editing" (use, VS Code
#: beside for, edit). A longer run beside a shorter frame is another statement ("Wishes they
#: weren't allergic" is not replaced by "Wishes they had a vacation lined up, but right now
#: their writing is consuming them").
MAX_VALUE_WORDS = 2


def _switch(new: str, old: str, subject: str) -> Change | None:
    """A switch. When `new` names what it replaces ("... instead of black"), `old` must hold
    that value, `new` another, and the two share a content word beside it. Otherwise, aligned
    word by word (prepositions kept, loose times left out, a run of names one unit), the two
    statements differ in exactly one run of words and share a content word beside it; and
    neither value (the run replaced, the run put in its place) is longer than the words they
    share, unless it is short (`MAX_VALUE_WORDS`)."""
    if change_kind(old) == "drop":
        return None
    # Why is no part of what was replaced: "... in May instead of April because of the
    # school holidays" replaces April, not the holidays.
    new = _REASON.sub("", new)
    instead = _INSTEAD_OF.search(new)
    corrected = None if instead is not None else _CORRECTED.search(new)
    named = instead or corrected
    if named is not None:
        rest = new[: named.start()] + new[named.end() :]
        change = _named_switch(rest, named, old, subject)
        return Change("switch", "a correction") if change and corrected else change
    a = _sequence(
        _WHEN_PHRASES.sub(" ", old), keep_prepositions=True, subject=subject, join_names=True
    )
    b = _sequence(
        _WHEN_PHRASES.sub(" ", new), keep_prepositions=True, subject=subject, join_names=True
    )
    if max(len(a), len(b)) > MAX_SWITCH_WORDS:
        return None
    ops = SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return None
    _tag, i1, i2, j1, j2 = changed[0]
    was, now = a[i1:i2], b[j1:j2]
    shared = [w for tag, k1, k2, _l1, _l2 in ops if tag == "equal" for w in a[k1:k2]]
    if not [w for w in shared if w not in _FRAME_PREPOSITIONS]:
        return None
    if max(len(was), len(now)) > max(len(shared), MAX_VALUE_WORDS):
        return None
    if was[0] in _FRAME_PREPOSITIONS and now[0] in _FRAME_PREPOSITIONS and was[0] != now[0]:
        return None  # "works from the café" and "works on a project": two frames
    return Change("switch", "a change of mind")


def _replaced_named(new: str, old: str, subject: str) -> bool:
    """Whether `new` replaces a value it names ("Switched from VS Code to Neovim", "Traded
    their Honda for a Tesla") that `old` says the same holder has or uses ("Uses VS Code at
    work", "Drives a Honda"). The verb of replacing says what was in use; the old statement
    must say it of that value, right before it ("Dislikes VS Code's telemetry" is not
    replaced), and of the same holder ("The user's sister Ana switched from VS Code ..." does
    not replace the user's own "Uses VS Code at work")."""
    for match in _REPLACED_BY.finditer(new):
        if _NEGATED.search(new[: match.start()]) or _PLAN.search(new[: match.start()]):
            continue  # "never switched from ...", "is thinking about ... switched"
        if _qualified(new[match.end() :], old, subject):
            continue  # "... to tea in the afternoons": coffee still has its place
        value = next(v for v in match.groups() if v is not None).strip()
        value = _DETERMINER.sub("", value)
        held = re.search(_HOLDING + re.escape(value) + r"\b", old, re.I) if value else None
        if held is None:
            continue
        if _holder(new[: match.start()], subject) == _holder(old[: held.start()], subject):
            return True
    return False


#: What opens a qualifier after the new value of a switch: "... to tea in the afternoons",
#: "... to Rust for the CLI tool", "... to cycling on rainy days".
_QUALIFIER = re.compile(
    r"\b(?:in|for|on|at|during|when|while|with|until|till|except|only|sometimes|"
    r"occasionally|temporarily)\b",
    re.I,
)


def _qualified(rest: str, old: str, subject: str) -> bool:
    """Whether the words after a switch's "to" (or "with", "for") limit it to a time, a use or
    someone ("to tea in the afternoons", "to Rust for the CLI tool", "to guitar lessons for
    Leo", "to Neovim for Rust only") that `old` does not name: such a switch leaves the old
    statement true elsewhere. A qualifier `old` shares ("to Neovim at work" over "Uses VS Code
    at work") or a loose time ("last month") limits nothing."""
    clause = re.split(r"[,.;:!?]", rest, maxsplit=1)[0]
    # "last week", or what it was resolved to ("in the week before 5 March 2026"): when the
    # switch happened, no use it is limited to
    clause = RESOLVED_DATE.sub(" ", _WHEN_PHRASES.sub(" ", clause))
    limit = _QUALIFIER.search(clause)
    if limit is None:
        return False
    if limit.group().lower() in ("only", "sometimes", "occasionally", "temporarily", "except"):
        return True
    said = set(_sequence(clause[limit.end() :], keep_prepositions=False, subject=subject))
    return not said <= set(_sequence(old, keep_prepositions=False, subject=subject))


def _holder(prefix: str, subject: str) -> frozenset[str]:
    """Who a statement's words before its verb name ("The user's sister Ana" -> sister, ana;
    "Has finally" -> nothing: the subject), without loose times and adverbs."""
    words = _sequence(_WHEN_PHRASES.sub(" ", prefix), keep_prepositions=False, subject=subject)
    return frozenset(w for w in words if not w.endswith("ly"))


def _named_switch(rest: str, instead: re.Match[str], old: str, subject: str) -> Change | None:
    """A switch that names what it replaces ("Switched to ruff format instead of black" over
    "Always uses black for formatting"): the old statement holds the value named after
    "instead of", the new one (`rest`, without that phrase) a value the old one lacks, and a
    content word beside the values is shared."""
    replaced = set(_sequence(instead.group(1), keep_prepositions=False, subject=subject))
    said_now = set(_sequence(rest, keep_prepositions=False, subject=subject))
    said_before = set(_sequence(old, keep_prepositions=False, subject=subject))
    if max(len(said_now), len(said_before)) > MAX_SWITCH_WORDS:
        return None
    if not replaced or not replaced <= said_before or not said_now - said_before:
        return None
    if not (said_now & said_before) - replaced and not _plan_renamed(rest, replaced, old):
        return None
    return Change("switch", "a change of mind")


#: The words of a plan: "planning a family trip to Japan", "hoping to visit Rome".
_PLAN = re.compile(
    r"\b(?:plan|plans|planning|planned|going to|gonna|want|wants|wanted|hoping|hopes to|"
    r"intend|intends|intending|thinking about|considering|looking forward to)\b",
    re.I,
)


def _plan_renamed(rest: str, replaced: set[str], old: str) -> bool:
    """Whether a decision puts one name in the place of the name a plan had ("Decided to go
    to Korea instead of Japan" over "Is planning a family trip to Japan"): the two share no
    word beside the names ("go" is no "trip"), but the value replaced is the old plan's
    name, and the new statement names another."""
    return bool(
        _PLAN.search(old)
        and replaced <= names(old)
        and names(rest) - names(old)
        and not _PLAN.search(rest)
    )


#: "Moved to Munich", "moved back to New York": a move to a named place.
_MOVED_TO = re.compile(
    r"\bmoved (?:back |away |over )?to (?P<place>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)"
)
#: Where someone lives, as a statement says it: "lives in Berlin", "is based in Leeds".
_LIVES_IN = re.compile(
    r"\b(?:lives|lived|is living|was living|is based|was based|resides|moved (?:back )?to)"
    r"(?: in)? (?P<place>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)"
)
#: The words of living somewhere, removed before the rest of two statements is compared.
_DWELLING_WORDS = frozenset({_normal(w) for w in "live lives lived living based resides".split()})
#: The words of a couple and of its parting, removed before the rest is compared.
_COUPLE_WORDS = frozenset(
    _normal(w) for w in "married engaged dating relationship divorced separated broke split".split()
)


def _moved(new: str, old: str, subject: str) -> Change | None:
    """A move of someone to another place ("The user's sister Ana moved to Munich" over
    "The user's sister Ana lives in Berlin"): the same person, by every other word, and
    another place. (The speaker's own home is a slot of its own, `identity/location`; this
    is a move of anyone else the speaker tells of.)"""
    went, lived = _MOVED_TO.search(new), _LIVES_IN.search(old)
    if went is None or lived is None:
        return None
    place_new = _sequence(went.group("place"), keep_prepositions=False, subject=subject)
    place_old = _sequence(lived.group("place"), keep_prepositions=False, subject=subject)
    if not place_new or set(place_new) & _DATE_WORDS or place_new == place_old:
        return None  # "moved to April 30" is a date, and the same place is no move
    who_new = content_words(new[: went.start()] + new[went.end() :])
    who_old = content_words(old[: lived.start()] + old[lived.end() :]) - _DWELLING_WORDS
    if not who_new or who_new != who_old:
        return None
    return Change("switch", "a move")


#: Someone moved to another place of one kind: "moved Leo to Sunflower daycare", "switched
#: Mia over to Hillcrest school" (a name, then a named place and the kind of place it is).
_MOVED_SOMEONE = re.compile(
    r"\b(?:moved|switched|transferred) (?P<who>[A-Z][\w'-]*) (?:over )?to (?:the )?"
    r"(?P<place>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*) (?P<kind>[a-z][\w-]*)"
)
#: Where someone goes, as a statement says it: "Leo goes to Little Stars daycare".
_GOES_TO = re.compile(
    r"\b(?P<who>[A-Z][\w'-]*) (?:goes to|attends|is at|is enrolled at|is enrolled in|"
    r"started at|is going to) (?:the )?(?P<place>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*) "
    r"(?P<kind>[a-z][\w-]*)"
)


def _moved_someone(new: str, old: str, subject: str) -> Change | None:
    """Someone the speaker names moved to another place of the same kind ("The user and
    others moved Leo to Sunflower daycare" over "The user's son Leo goes to Little Stars
    daycare"): the same name, the same kind of place, another place; not for a while ("...
    for the summer") and not as a plan."""
    went, goes = _MOVED_SOMEONE.search(new), _GOES_TO.search(old)
    if went is None or goes is None or went["who"] != goes["who"]:
        return None
    if _PLAN.search(new[: went.start()]) or _qualified(new[went.end() :], old, subject):
        return None
    if _normal(went["kind"].lower()) != _normal(goes["kind"].lower()):
        return None
    if went["place"].casefold() == goes["place"].casefold():
        return None  # the same place is no move
    return Change("switch", "a move")


def _rest(text: str, said: re.Match[str] | None, subject: str, words: frozenset[str]) -> set[str]:
    """A statement's content words without the phrase `said` matched, its numbers and dates,
    loose times ("last year") and `words`: who or what the statement is about."""
    if said is not None:
        text = text[: said.start()] + " " + text[said.end() :]
    kept = set(_sequence(_WHEN_PHRASES.sub(" ", text), keep_prepositions=False, subject=subject))
    return kept - _values(list(kept)) - words


def _aged(new: str, old: str, subject: str) -> Change | None:
    """A birthday ("The user's daughter Emma just turned 6" over "The user's daughter Emma is
    5"): another age of the same one, by every other word. (The speaker's own age is a slot
    of its own, `identity/age`; this is the age of anyone else they tell of.)"""
    turned, was = _TURNED.search(new), _AGE.search(old)
    if turned is None or was is None:
        return None
    if turned.group("age") == (was.group("age") or was.group("years")):
        return None
    who = _rest(new, turned, subject, frozenset())
    if not who or who != _rest(old, was, subject, frozenset()):
        return None
    return Change("switch", "an age changed")


def _parted(new: str, old: str, subject: str) -> Change | None:
    """A couple parted ("Got divorced in 2022 with Omar" over "Is married to Omar"): the
    same partner named, and no other word but the couple's (a divorce of Omar ends no
    "The user's sister Ana is married to Tom")."""
    partner = names(new) & names(old)
    if not partner or not names(new) <= names(old):
        return None
    if _rest(new, None, subject, _COUPLE_WORDS) != _rest(old, None, subject, _COUPLE_WORDS):
        return None
    return Change("drop", "a couple parted")


#: A preference said as a comparison: "Prefers tabs over spaces", "would rather X than Y".
_COMPARED = re.compile(
    r"\b(?:prefers?|preferred|rather|likes? \w+ better)\b(?P<a>.+?)\b(?:over|to|than|"
    r"rather than|instead of)\b(?P<b>.+?)\W*$",
    re.I,
)


def _reversed(new: str, old: str, subject: str) -> bool:
    """Whether two preferences compare the same two things the other way round ("Prefers
    spaces over tabs" and "Prefers tabs over spaces"): the same words, opposite facts."""
    a, b = _COMPARED.search(new), _COMPARED.search(old)
    if a is None or b is None:
        return False

    def words(match: re.Match[str], group: str) -> list[str]:
        return _sequence(match.group(group), keep_prepositions=False, subject=subject)

    first, second = words(a, "a"), words(a, "b")
    return bool(first and second and first != second) and (
        first == words(b, "b") and second == words(b, "a")
    )


def _renumbered(new: str, old: str, subject: str) -> bool:
    """The same measured thing with another number ("The user's budget is now 5000 euros" over
    "The user's budget is 4000 euros for the whole trip"): a number beside the same word (the
    unit after it, or the word before it) differs, the new statement's other words are all
    the old one's, with one besides the unit, and the old one holds no other number or date
    the new one lacks (a dated event is not a measure that changed)."""
    a = _sequence(old, keep_prepositions=False, subject=subject)
    b = _sequence(new, keep_prepositions=False, subject=subject)
    old_measures, new_measures = _measures(a), _measures(b)
    changed = {
        unit
        for unit, number in new_measures.items()
        if unit in old_measures and old_measures[unit] != number
    }
    if not changed:
        return False
    new_topic, old_topic = set(b) - _values(b), set(a) - _values(a)
    if not new_topic <= old_topic or not new_topic - changed:
        return False
    measured = {old_measures[unit] for unit in changed}
    return _values(a) - measured <= _values(b)


def _measures(words: list[str]) -> dict[str, str]:
    """Each number of a statement by the word it measures: the content word after it, or the
    one before it when none follows."""
    out = {}
    for i, word in enumerate(words):
        if not word.isdigit():
            continue
        if i + 1 < len(words) and not words[i + 1].isdigit():
            out[words[i + 1]] = word
        elif i > 0 and not words[i - 1].isdigit():
            out[words[i - 1]] = word
    return out
