"""Topics: the broad areas of a life a memory belongs to, from a small fixed lexicon.

A question is often asked in a topic's words while the memories that answer it use others:
"Which cities has Jon visited?" is answered by "Took a short trip to Rome" and "Has been to
Paris"; "What recipes has Joanna made?" by "Made dairy-free chocolate cupcakes". Full-text search
cannot link them. tota gives each memory it writes a `topic/<name>` tag for every topic its
statement's words belong to (`topics_of`), and recall adds the topics of a message's words to its
query, matched against tags only, so a memory tagged `topic/travel` is found for "cities" or
"visited" (docs/recall.md). A person can browse the tags in Obsidian and add or remove them;
recall reads the tags, whoever wrote them.

The lexicon is everyday English for the areas a personal assistant hears about, about thirty
words each; a word may belong to two topics ("novel": books and writing). Words are matched
with plurals folded, so "recipe" and "recipes", "city" and "cities" are one word. It is
deliberately small and broad: a missing word costs a link, a wrong one costs precision.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from itertools import chain

from .text import WORD_RE, stem, token_of

#: `stem` is text.stem (plural folding), named here too: the lexicon is built on it.
__all__ = [
    "TOPIC_TAG",
    "TOPICS",
    "stem",
    "topics_of",
    "topics_of_word",
    "topics_of_words",
    "with_topics",
]

#: The tag prefix: `topic/travel` is a nested tag in Obsidian.
TOPIC_TAG = "topic/"

TOPICS: dict[str, str] = {
    "food": """food cook cooking cooked cooks chef recipe bake baking baked baker cake cupcake
        cookie bread dessert desserts meal dinner lunch breakfast brunch dish soup salad pasta
        pizza chocolate icecream ice-cream restaurant kitchen snack tart pie flavor flavour
        vegan vegetarian sushi taco burger coffee tea wine beer cuisine grill bbq barbecue""",
    "travel": """travel traveling travelling traveled travelled trip trips vacation holiday
        journey flight flew airport abroad tour touring tourist sightseeing city cities country
        countries visit visited visiting passport hotel road-trip roadtrip overseas destination
        explore exploring backpacking cruise train""",
    "books": """book books novel novels read reading reader author authors library chapter
        literature fiction nonfiction non-fiction memoir biography poem poems poetry bookstore
        kindle audiobook""",
    "writing": """write writing wrote writer written screenplay script scripts blog blogging
        journal journaling essay article draft drafts publish published story stories poem
        poems novel manuscript""",
    "screen": """movie movies film films tv television show shows series episode episodes
        watch watched watching netflix cinema documentary actor actress anime sitcom streaming
        trailer""",
    "music": """music song songs sing singing singer guitar piano violin drums drum band
        concert concerts album albums playlist instrument musician dj rap jazz rock
        classical orchestra choir melody lyrics""",
    "art": """art arts artist artwork paint painting paintings painted draw drawing drawings
        sketch sketching pottery ceramics sculpture gallery museum canvas craft crafts
        crafting photography photo photos mural watercolor""",
    "sport": """sport sports gym workout workouts exercise exercising fitness run running
        runner marathon triathlon yoga basketball football soccer tennis baseball volleyball
        hockey golf swim swimming swimmer cycling bike biking team league
        tournament championship surf surfing skate skating ski skiing climbing""",
    "outdoors": """outdoors outdoor nature camping camp hike hiking hiked trail trails
        mountain mountains forest lake beach river park parks garden gardening fishing
        kayaking picnic""",
    "games": """game games gaming gamer videogame video-game console tournament esports chess
        board-game puzzle puzzles""",
    "pets": """pet pets dog dogs puppy puppies cat cats kitten kittens turtle turtles bird
        birds horse horses fish hamster rabbit animal animals vet""",
    "family": """family families kid kids child children son sons daughter daughters mom
        mother dad father parent parents sister sisters brother brothers husband wife
        grandma grandmother grandpa grandfather grandparents baby babies aunt uncle cousin
        adoption adopt""",
    "relationships": """friend friends friendship partner boyfriend girlfriend dating date
        relationship wedding married marriage engaged fiance fiancee breakup divorce""",
    "work": """job jobs work working career boss office colleague colleagues coworker
        promotion interview company business startup client clients hired salary manager
        project projects""",
    "learning": """school class classes course courses study studying studied degree college
        university exam exams teacher student students lesson lessons learn learning
        workshop certificate research""",
    "health": """health healthy doctor hospital injury injured hurt sick illness therapy
        therapist medication medicine diet sleep mental anxiety stress
        surgery recovery recover pain allergy allergic diabetes diabetic asthma celiac
        coeliac diagnosed diagnosis disease migraine epilepsy intolerant intolerance""",
    "community": """volunteer volunteering volunteered charity donate donated donation
        donations fundraiser fundraising shelter nonprofit non-profit community cause
        activism activist campaign protest advocacy""",
    "home": """house home apartment move moved moving rent renting renovate renovation
        furniture neighborhood neighbour neighbor roommate""",
    "money": """money budget save saving savings invest investing investment loan debt
        pay paid bills expensive cheap income""",
    "faith": """faith church religion religious pray prayer spiritual spirituality temple
        mosque meditation""",
    "celebrations": """birthday party parties celebrate celebrated celebration anniversary
        festival holiday holidays christmas thanksgiving halloween new-year graduation""",
}


def _build(topics: dict[str, str]) -> dict[str, tuple[str, ...]]:
    by_stem: dict[str, list[str]] = {}
    for topic, words in topics.items():
        for word in words.split():
            names = by_stem.setdefault(stem(word), [])
            if topic not in names:
                names.append(topic)
    return {key: tuple(value) for key, value in by_stem.items()}


_BY_STEM = _build(TOPICS)


@functools.lru_cache(maxsize=1 << 16)
def topics_of_word(word: str) -> tuple[str, ...]:
    """One word's topics, in the lexicon's order. Cached: a vault's statements share a small
    vocabulary, so reading the topics of 100k of them (`tota reflect`) stems each distinct
    word once."""
    return _BY_STEM.get(stem(word), ())


def topics_of_words(words: Iterable[str]) -> tuple[str, ...]:
    """The topics any of `words` belongs to, in the lexicon's order. Pure."""
    found: set[str] = set()
    for word in words:
        found.update(topics_of_word(word))
    return tuple(t for t in TOPICS if t in found)


#: A verb of a topic used in another sense, read by what follows it: a date or an appointment
#: moved is no move of home ("My deadline moved to 14 February", "moved my dentist appointment
#: to May"), and a thing that is run is no running ("runs a bakery", "run the suite with
#: pytest") unless it is a race ("ran a marathon", "run a 5k").
_MONTH_NAMES = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\b"
)
_OTHER_SENSE = re.compile(
    r"\b(?:move|moves|moved|moving)\b(?=\s+(?:(?:up|back|forward|it|them)\s+)?(?:to|until|from)\s+"
    # a day, not a place with a number or a month's name in it ("221B Baker Street", "the
    # 14th floor", "May Street")
    r"(?:(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b(?!\s+(?:floor|flat|apartment|street|avenue|road|"
    r"arrondissement|district|(?-i:(?!" + _MONTH_NAMES + r")[A-Z])))|next\b|tomorrow\b|"
    r"(?-i:(?:[A-Z][a-z]+day|" + _MONTH_NAMES + r")(?!\s+[A-Z]))))|"
    r"\b(?:move|moves|moved|moving)\s+(?:my|our|the|their|his|her|a|an)\s+(?:[\w-]+\s+)?"
    r"(?:deadline|appointment|meeting|call|flight|exam|interview|launch|release|date|session|"
    r"class|lesson|booking|reservation|shift)s?\b|"
    r"\b(?P<keep>deadline|appointment|meeting|launch|release|exam|interview|flight|date|call)"
    r"\s+(?:was\s+|got\s+|has\s+been\s+|is\s+)?(?:moved|moving)\b|"
    # code written is no writing: "written in Go", "decided to write Negativo in Go",
    # "writes unit tests"
    r"\b(?:write|writes|wrote|written|writing)\b(?=\s+(?:[\w.-]+\s+){0,3}?in\s+(?-i:Go|Rust|"
    r"Python|Java|Kotlin|Swift|Ruby|Scala|Haskell|Elixir|Erlang|Clojure|PHP|Perl|Lua|Zig|Julia|"
    r"TypeScript|JavaScript|SQL|C|C\+\+|C#|R)\b)|"
    r"\b(?:write|writes|wrote|written|writing)\s+(?:(?:the|a|an|some|more|my|our|their|unit|"
    r"integration|end-to-end)\s+)?(?:code|tests?|scripts?|functions?|programs?|software|apps?|"
    r"queries|sql|migrations?|bash|shell)\b|"
    r"\b(?:run|runs|ran|running)\s+(?=(?:a|an|the|my|our|their|his|her|this|that|some|all|"
    r"its|tests?|errands|late|out of|into)\b(?!\s+(?:lot|bit|little|few|couple)\b)"
    r"(?!\s+(?:[\w-]+\s+)?(?:marathon|half-marathon|race|"
    r"5k|10k|half|mile|miles|km|lap|laps|trail|ultra|triathlon)s?\b))",
    re.I,
)


#: The letters every verb `_OTHER_SENSE` reads begins with (move, run/ran, write/wrote).
_OTHER_SENSE_STEMS = ("mov", "run", "ran", "writ", "wrot")


def topics_of(text: str) -> tuple[str, ...]:
    """The topics of a statement: "Took a trip to Rome" -> ("travel",). Pure."""
    lower = text.lower()
    # The verbs `_OTHER_SENSE` reads are rare: the cheap look for their letters first spares
    # most statements its scan (`tota reflect` reads the topics of every untagged statement).
    if any(stem in lower for stem in _OTHER_SENSE_STEMS) and _OTHER_SENSE.search(text):
        text = _OTHER_SENSE.sub(lambda m: f" {m['keep'] or ''} ", text)
    found = set(chain.from_iterable(map(_topics_of_match, set(WORD_RE.findall(text)))))
    return tuple(t for t in TOPICS if t in found) if found else ()


@functools.lru_cache(maxsize=1 << 16)
def _topics_of_match(match: str) -> tuple[str, ...]:
    """The topics of one `WORD_RE` match, read as `text.tokens` reads it. Cached by the match
    as written: `tota reflect` reads the topics of every untagged statement of a vault."""
    word = token_of(match)
    return topics_of_word(word) if word else ()


def with_topics(tags: Sequence[str], text: str) -> tuple[str, ...]:
    """`tags`, then a `topic/<name>` tag for each topic of `text` not already among them."""
    out = list(dict.fromkeys(tags))
    out += [TOPIC_TAG + t for t in topics_of(text) if TOPIC_TAG + t not in out]
    return tuple(out)
