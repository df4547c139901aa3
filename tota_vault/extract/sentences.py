"""From a message to the sentences and clauses the rules read.

Code, block quotes and quoted speech are removed first (a quoted title is kept: 'a show called
"The Wheel of Time"'); the text is split at sentence ends, but never after an abbreviation or
an initial ("Prof. Lindqvist", "F. Scott Fitzgerald"); a sentence is cut where a new
first-person clause starts ("My name is Sam and I live in Porto"); and the residue a spoken
sentence carries (a greeting, a verdict on the last turn, filler words) is dropped.
"""

from __future__ import annotations

import re

from ..text import ABBREVIATION_END, STOPWORDS, stem
from .cues import CUES
from .dates import says_when
from .slots import split_appositive, split_slots

#: Code is never a statement about the person: fenced blocks, inline code, indented blocks.
_FENCED = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_INDENTED = re.compile(r"^(?: {4}|\t).*$", re.M)
#: Quoted words are someone's words, not the speaker's statement; block quotes too.
QUOTED = re.compile(r"\"[^\"\n]{3,}\"|“[^”\n]{3,}”|«[^»\n]{3,}»")
_BLOCKQUOTE = re.compile(r"^\s*>.*$", re.M)
#: A new first-person clause inside a sentence: ", and I", "; I", " but my".
_CLAUSE = re.compile(
    r"(?:,|;)?\s+(?:and|but|while|plus)\s+(?:(?=(?:I|I'm|I've|my|My)\b)|"
    # the family's or team's clause: "We live in Halifax and our kids go to school there",
    # "I love hiking and we go every weekend"
    r"(?P<we>)(?=(?:we|We|we're|We're|we've|We've|our|Our)\b))|;\s+(?=I\b)|"
    # a named person as the subject of a clause of their own: "..., and Ana is allergic to nuts"
    r"(?:,)?\s+and\s+(?=[A-Z][a-z]+ (?:is|has|was|loves|likes|hates|can't|doesn't|needs)\b)|"
    # two statements joined by a comma alone: "I like to go to the movies, I love new films"
    r"(?P<comma>,\s+)(?=(?:I|I'm|I've|I'd|I'll|my|My)\s)"
)
#: "my" after "and": a clause of its own only when a verb follows the thing it names ("and
#: my sister is a nurse", "and my wife works at Equinor", "and my kids loved it"), not a
#: list of companions or things ("with my mom and my sister", "my husband and my two cats").
_MY = re.compile(r"[Mm]y\b|[Oo]ur\b")
_MY_CLAUSE = re.compile(
    r"(?:[Mm]y|[Oo]ur) (?:[\w'-]+ ){1,3}?"
    r"(?:is|are|was|were|has|have|had|will|would|can|could|does|did|"
    r"doesn't|don't|didn't|isn't|aren't|wasn't|won't|can't|just|also|still|never|always|"
    # the common verbs of a plural subject in the present ("our kids go to school there")
    r"go|live|love|like|work|play|want|need|get|come|stay|attend|study|eat|take|visit|"
    r"[a-z]+(?:s|ed))\b(?! *[.,;!?]*$)"
)
#: A sentence of fewer words is too short to be a statement by the weak rule alone
#: (`chatter.is_small_talk`), so a clause that short is not cut out of its sentence.
SHORT_WORDS = 5
#: A clause that opens with the speaker as its subject: after it, a comma can end a statement.
_FIRST_PERSON_HEAD = re.compile(r"^\s*(?:I|I'm|I've|I'd|I'll|My)\s")
#: A request to the listener, a verb in the imperative ("Keep it under 30 minutes per meal",
#: "Please make it vegetarian"): the speaker's clause after its comma is a statement apart
#: ("..., I cook every night after work"), and the request itself is none about them.
REQUEST_HEAD = re.compile(
    r"^\s*(?:please\s+)?(?:keep|make|give|show|send|use|add|avoid|include|suggest|find|list|"
    r"recommend|limit|stick to|write|plan|put)\s+(?:it|them|me|this|that|the|a|an|some|"
    r"everything)\b",
    re.I,
)
#: Words that open a spoken sentence and carry nothing: "Actually, I live in Lisbon".
FILLER = re.compile(
    r"^(?:(?:actually|well|so|oh|anyway|anyways|btw|by the way|also|and|but|yeah|yes|um|uh|"
    r"you know|honestly|basically|okay|ok|fyi|plus|"
    # a turn back to what was said before: "Speaking of which, I can now lift ..."
    r"speaking of (?:which|that)|on that note|that reminds me|"
    # a note to the listener that a fact follows: "Just so you know, I prefer Neovim"
    r"(?:just )?so you know|just to let you know|for the record|for your information|"
    r"heads up)\b[,!:]?\s*|"
    # a discourse marker in the first person: "I have to say, ...", "I must admit (that) it
    # ..."; before a clause of its own (a subject after it), not "I have to say goodbye"
    r"I (?:have to|must|gotta|got to|need to) (?:say|admit|confess)(?:,\s*|\s*$|"
    r"(?: that)?\s+(?=(?:I|it|this|that|we|they|he|she|the|my|our)\s+\w))|"
    # an answer's "no" before the statement that says it: "No, I haven't read them yet",
    # "Nope, never been on a sports team" (only with its comma: "No one knows" is a subject)
    r"(?:no|nope|nah),\s+(?=\S)|"
    # news announced to the listener before it is told: "Gina, you won't believe it - I got
    # mentored by ...", "Guess what? I got the job"
    r"(?:[A-Z][\w'-]+,\s+)?(?:you won't believe (?:it|this|what happened)|guess what)"
    r"\s*[-–—,!:.?]*\s+(?=\S)|"
    # "Big news, I moved to Madrid", "Good news: we got the flat" (not "Big news is coming")
    r"(?:(?:some|big|good|great|exciting|happy|bad|sad) )+news\s*[-–—,!:.]+\s+(?=\S))+",
    re.I,
)
#: A greeting before a statement is residue: "Hi, I'm planning a trip" is "I'm planning a trip".
GREETING = re.compile(
    r"^(?:hi|hey|hello|hiya|heya|good (?:morning|afternoon|evening))"
    r"(?: so much| a lot)?(?: there| all| everyone| [A-Z][\w'-]+)?[,!.]*\s+(?=\S)",
    re.I,
)
#: The talk's last meeting: "since we last talked", "since we spoke last".
SINCE_LAST_TALK = (
    r"since (?:we|I|you and I) (?:last )?(?:talked|spoke|spoken|chatted|chat|caught up|"
    r"saw each other)(?: last)?"
)
#: Catching up before a statement is residue: "Since we last spoke, I went to that community
#: meeting", "A lot's happened since we last chatted - I joined a new group", "Haven't talked
#: to you in a bit but wanted to let you know I read this book" say "I went", "I joined",
#: "I read"; the opener is about the conversation, not the speaker.
CATCH_UP = re.compile(
    r"^(?:(?:so|well|anyway),?\s+)?(?:"
    rf"{SINCE_LAST_TALK},?\s+|"
    r"(?:(?:a lot|lots|so much|much|a bunch|(?:some |a few )?(?:big|cool|pretty cool|"
    r"interesting|exciting|crazy|wild) (?:things|stuff)|quite a (?:week|few days)|things)"
    r"(?:(?:'s| has| have)?(?: been)? (?:happened|happening|going on|great))?(?: with me)?\s+)?"
    rf"{SINCE_LAST_TALK}\s*[-\u2013\u2014:;,]\s+|"
    r"(?:(?:a lot|lots|so much|much|(?:some |a few )?(?:big|cool|interesting|exciting|crazy) "
    r"(?:things|stuff))(?:'s| has| have)?(?: been)? (?:happened|happening|going on)"
    r"(?: with me)?\s*[-\u2013\u2014:;]\s+)|"
    r"(?:I )?(?:haven't|have not) (?:talked|spoken|chatted)(?: to you)? in (?:a while|a bit|"
    r"ages|forever|a few days|a (?:week|month)|a couple (?:of )?(?:days|weeks))"
    r"(?:,|\s+but|\s+and)*\s+(?:(?:I )?wanted to (?:let you know|tell you|share|say)"
    r"(?: that)?\s+)?|"
    r"(?:it's been a while|long time no (?:talk|see|chat))\s*[-\u2013\u2014,!.:;]\s*"
    r")(?=\S)",
    re.I,
)
#: The words every `CATCH_UP` opener has: it is read only where one of them is.
_CATCH_UP_WORDS = re.compile(r"since|talk|spok|chat|while|long time|happen|going on", re.I)
#: A label that opens a message is residue, like a greeting: "Update: my deadline moved",
#: "Change of plans: we decided to stay", "A bit of background: I work nights". One to four
#: words before a colon, none of them a pronoun, a possessive or an auxiliary (a label has no
#: verb or subject of its own: "I love two things: ..." and "My favourites: ..." are
#: statements), nor a time ("Tomorrow:"), and a clause after it.
LABEL = re.compile(
    r"^(?!(?:[\w'-]+ ){0,3}(?:I|I'm|I've|I'd|I'll|me|my|we|we're|our|you|your|he|she|it|"
    r"they|his|her|their|this|that|these|those|here|there|is|are|was|were|am|be|been|has|"
    r"have|had|do|does|did|will|would|can|could|should|must|may|might|"
    # a time is no label but part of the fact: "Tomorrow: I fly to Rome", "Monday: ..."
    r"today|tonight|tomorrow|yesterday|next|last|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\b)"
    r"[A-Z][\w'-]*(?: [\w'-]+){0,3}:\s+(?=[A-Za-z])",
    re.I,
)
#: A tag question after a statement asks only for agreement: "I started my own clothing store
#: last month, pretty cool, huh?" states a fact, and "huh?" is residue. The tags are a closed
#: class: an interjection, or an auxiliary with "not" and a pronoun ("isn't it?").
TAG_QUESTION = re.compile(
    r"(?:,|\s[-–—])\s*(?:huh|right|eh|yeah|no|ok|okay|you know|don't you think|wouldn't you say|"
    r"(?:isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't|won't|wouldn't|can't|"
    r"couldn't)\s+(?:it|they|he|she|you|we|I|there|that))\s*\?+\s*$",
    re.I,
)
#: A sentence that is a question by its first word (a tag after it leaves it one); not a
#: contraction: "Can't wait" asks nothing.
QUESTION_START = re.compile(
    r"^(?:what|how|why|when|where|who|whom|whose|which|do|does|did|are|is|was|were|can|could|"
    r"would|should|shall|will|any|anything|wanna)\b(?!')|"
    # "Have you ...?", not "Have fun!" or "Have a great day": a subject after "have"
    r"^(?:have|has)\s+(?:you|u|ya|we|they|he|she|it|I|there|anyone|anybody|everyone|"
    r"someone|somebody|your|his|her|their|our|any)\b",
    re.I,
)


#: A plan called off with an imperative to no one ("Scratch the marathon, I hurt my ankle",
#: "Nix my Spanish class"): what the speaker gave up, said as the speaker's own clause so it
#: stands apart from the reason beside it and reads as a drop ("Gave up the marathon.").
CALLED_OFF = re.compile(
    r"^(?:(?:so|ok|okay|well|actually|oh),?\s+)*(?:scratch|nix|forget about|cancel)\s+"
    r"(?P<what>(?:the|my|our)\s+[\w'-]+(?: [\w'-]+){0,3}?)(?:\s+(?:plan|idea))?"
    r"(?=\s*(?:[,;.!]|[-–—]|$))",
    re.I,
)


#: A standing request to the assistant about the person's own time: "Please don't schedule
#: anything for me on Wednesday afternoons", "Never book meetings before 10am", "Don't call me
#: before 9". A constraint of theirs, read as "I ask not to ..." (a statement of the speaker's,
#: as the others are). Only verbs of arranging someone's days, with what they arrange: "Don't
#: give up!" (a cheer) or "Don't forget the milk" (an errand of the moment) are none.
STANDING_REQUEST = re.compile(
    r"^(?:please\s+)?(?P<neg>don't|do not|never)(?: ever)?\s+(?P<rest>(?:schedule|book|plan|"
    r"set up|put|call|text|email|message|wake)\s+(?:anything|any|meetings?|calls?|me|my|"
    r"appointments?|events?)\b.*)",
    re.I,
)

#: A standing request after a clause of the speaker's own: "I sleep from 9am to 3pm after a
#: night shift, so please never schedule calls for me before 3pm" is a fact and a request,
#: each a statement (the request read as `STANDING_REQUEST` reads one said alone).
_REQUEST_AFTER = re.compile(
    r"(?:[,;]|\s[-–—])\s*(?:(?:and|so|but)\s+)?(?="
    + STANDING_REQUEST.pattern[1:]
    + ")|"
    # or a request of the moment after "so" or "please": "I use Neovim for everything, so
    # please give me commands", "we can't ship GPL code, so keep that in mind" (apart, the
    # request is none of their facts). Not after "and": "..., and make the pasta from
    # scratch" is the speaker's own second predicate.
    + r"(?:[,;]|\s[-–—])\s*(?=(?:so\s+)?please\s|so\s)(?:so\s+)?(?="
    + REQUEST_HEAD.pattern.removeprefix(r"^\s*")
    + ")",
    re.I,
)


#: A consequence after a comma: "Tom doesn't eat raw fish, so sushi dinners are out for
#: him", "We live in Ghent, so we'd fly from Brussels". What follows "so" is a clause of its
#: own, read apart (a request there is none of the speaker's facts; a fact there is one of
#: its own; a reference there is skipped or kept with its antecedent), and the statement
#: before it stands alone. Not "so far", "so much", "so that" and the like, which are no
#: clause.
_CONSEQUENCE = re.compile(
    r",\s+so\s+(?!(?:far|much|many|long|to|that|as|too|on|what|yeah|yes|no|sorry|good|"
    r"glad|happy|cool|great|fun|nice|excited|proud|lucky|sad|sure|true|"
    # an imperative after it is a request (`_REQUEST_AFTER` cuts the standing ones) or a cheer
    r"don't|do not|please|never|let's|let)\b)(?=[\w'])",
    re.I,
)


def _consequences_apart(part: str) -> list[str]:
    """A sentence "X, so Y" as the two clauses, when each would be read as a statement alone
    (`_stands_alone`: long enough for the weak rule, or a typed cue: "I'm vegan"); any other as
    it is."""
    match = _CONSEQUENCE.search(part)
    if match is None:
        return [part]
    before, after = part[: match.start()], part[match.end() :]
    if not (_stands_alone(before) and _stands_alone(after)):
        return [part]  # "I work nights, so I sleep until noon": each half too short alone
    if says_when(before) and not says_when(after):
        return [part]  # "I was bored yesterday, so I took the turtles out": when is the walk
    if _leans_back(before, after):
        return [part]  # "It's a bit tight, so I'm getting rid of it": what "it" is, is before
    return [before, *_consequences_apart(after)]


#: A pronoun that points back to a thing or people said before: in the clause after "so" it
#: is most often what the clause before named ("I love my bike, so I ride it every day").
_BACK = re.compile(r"\b(?:it|its|they|them|their|this|that|these|those|there)\b", re.I)
#: A person's pronoun, which the clause before may name outright ("Tom doesn't eat raw fish,
#: so sushi dinners are out for him").
_PERSON_BACK = re.compile(r"\b(?:he|him|his|she|her)\b", re.I)
#: A subordinate clause in the clause after "so": a pronoun after it stands for what it says
#: ("so when I cook for the lab party it'll be a veggie curry").
_SUBORDINATE = re.compile(r"^(?:when|whenever|if|once|after|before)\b", re.I)


#: Capitalised words that open a clause and name nobody.
_NOT_NAMES = frozenset(
    "I My Our We The It Its This That They He She So And But Also Then Now Well Yes No Oh".split()
)


def _leans_back(before: str, after: str) -> bool:
    """Whether the clause after "so" refers to the one before by a pronoun, so that cut apart
    it would be a reference to something not said (kept whole, it is read as one sentence)."""
    if _PERSON_BACK.search(after):
        names = set(re.findall(r"\b[A-Z][a-z'-]+\b", before)) - _NOT_NAMES
        if not names:
            return True
    return _BACK.search(after) is not None and not _SUBORDINATE.match(after)


#: Surprise before a statement of the speaker's own ("Wow, I love hiking"): residue in a
#: statement, kept in a quote of what was said.
_SURPRISE = re.compile(r"^(?:wow|whoa|woah)\b[,!.]*\s+(?=\S)", re.I)


def _requests_apart(part: str) -> list[str]:
    """A sentence whose later clause is a standing request, as the two; any other as it is.

    Only after a clause of the speaker's own ("I sleep from 9am to 3pm after a night shift,
    so please never schedule calls before 3pm"): "Before 9am, please never call me" keeps its
    condition, and "I told my boss, please never call me after 6pm" is a request to the boss
    (a code review found both made into a standing request to the assistant)."""
    match = _REQUEST_AFTER.search(part)
    if match is None:
        return [part]
    before = FILLER.sub("", part[: match.start()].strip(), count=1)  # "By the way, we ..."
    if not _OWN_CLAUSE.match(before) or _TOLD.search(before):
        return [part]
    return [part[: match.start()], part[match.end() :]]


#: A clause of the speaker's own: "I" or "we" and a word after it ("I work night shifts").
_OWN_CLAUSE = re.compile(
    r"(?:(?:so|and|but|also|well|honestly),?\s+)?(?:I|we)(?:'m|'ve|'d)?\s+\w", re.I
)
#: A clause that reports what was said to someone: the request after it is theirs.
_TOLD = re.compile(
    r"\b(?:told|tell|telling|asked|ask|asking|said|say|says|wrote|write|texted|emailed)\b",
    re.I,
)


def _as_asked(match: re.Match[str]) -> str:
    never = match.group("neg").lower() == "never"
    return f"I ask {'never' if never else 'not'} to {match.group('rest')}"


#: Many of a kind liked, then the favourite among them: "I like a lot of different bands, but
#: my favorite is The Clash", "There are so many great climbing spots in Colorado, but my
#: favorite is Red Rock Canyon", "I love pizza of all kinds, but my favorite is pepperoni".
#: The first half only concedes, and the second leaves out its kind: cut apart they were
#: "Sam likes a lot of different bands." and "Sam's favorite is The Clash." (favourite what?).
_MANY = (
    r"(?:(?:so |really )?(?:a lot|lots|tons|plenty) of|all (?:kinds|sorts|types) of|"
    r"a (?:wide |huge |big )?variety of|(?:so |too )?many)"
    r"(?: different| great| good| amazing| favou?rite)*"
    r"(?: (?:different )?(?:kinds|types|sorts|genres|styles) of)?"
)
_KIND = r"(?P<%s>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?)"
_PLACE = r"(?P<%s> (?:in|from|on|at|about|around) [\w' -]{2,40}?)?"
#: The concession itself: many of a kind the speaker likes, has or does.
_CONCESSION = (
    r"\b(?:(?P<head>I(?:'ve| have)? (?:really |also |just |still )?"
    r"(?P<verb>like|love|enjoy|adore|have|listen to|read|watch|play|produce|stream|grow|cook|"
    r"make|bake|eat|collect|do|know|draw|paint|write|sing)"
    r"(?: to (?P<inf>[a-z]+(?: to)?)| (?P<ing>[a-z]+ing(?: to)?))?)"
    rf" {_MANY} {_KIND % 'kind'}{_PLACE % 'place'}|"
    rf"There (?:are|were) {_MANY} {_KIND % 'there'}{_PLACE % 'there_place'}|"
    r"(?P<mass_head>I (?:really )?(?:like|love|enjoy|adore)) (?P<mass>[a-z][\w'-]*) of all "
    r"(?:kinds|sorts|types))"
)
FAVORITE_OF_MANY = re.compile(
    _CONCESSION + r",? but (?:I think |I'd say |I guess |I'd have to say )?"
    r"(?:(?P<some>some|one|a few|two|three) of )?my (?P<all>all-time |absolute )?favou?rite"
    r"(?P<plural>s)?(?: ones?)?(?P<be> (?:is|are|would be|has to be|have to be)\b)",
    re.I,
)
#: The verbs that say which favourite by themselves: a favourite band is one listened to, a
#: favourite game one played. Any other is kept: "my favorite music to produce".
_PLAIN_VERBS = frozenset("like love enjoy adore have listen to read watch play eat do".split())
#: A kind that is no noun of its own: "a lot of different things", "all kinds of stuff".
_VAGUE_KINDS = frozenset({"things", "stuff", "ones"})


def _singular(word: str) -> str:
    """A plural noun as its singular ("bands" -> "band", "memories" -> "memory", "movies" ->
    "movie"); a mass noun ("music", "food") as it is: `text.stem`, the word's own letters
    kept as written where the stem is a start of it."""
    singular = stem(word)
    return word[: len(singular)] if word.lower().startswith(singular) else singular


#: Many of a kind conceded, then which of them the speaker means, said some other way than
#: "my favorite is": "I like all kinds of books, but I especially like thrillers", "I like a lot
#: of different kinds of music, but I'm mostly into electronic music", "..., but my favorite
#: artist is Travis Scott". Cut apart, the first half was a memory of its own that says nothing
#: ("Sam likes all kinds of books.": none of 94 such matched a persona line of SPC's rows
#: 200-349, 450-499 and 950-999) and the second one without its kind ("Sam especially likes
#: thrillers and mysteries.").
WHICH_OF_MANY = re.compile(
    _CONCESSION + r",? but (?:"
    r"(?P<clause>I(?:'m| am)? (?P<adverb>especially|particularly|really|mostly|mainly|primarily) "
    r"(?P<which_verb>like|love|enjoy|adore|prefer|listen to|read|watch|play|produce|stream|"
    r"grow|cook|make|bake|eat|collect|do|draw|paint|write|sing|into|interested in|drawn to) "
    # a which of its own kind: no infinitive or gerund ("but I really like spending time
    # alone" is a contrast), no pronoun or possessive ("but I really enjoy it", "my job")
    r"(?P<which>(?!(?:to|the ones?|them|those|these|it|that|this|you|him|her|my|your|his|"
    r"their|our)\b|[a-z]+ing\b)[^;]+?)(?: the most| most of all| the best)?)|"
    r"(?:I think |I'd say )?(?P<own>my (?:favou?rite|biggest|main) [a-z]+"
    r"(?: of all time| right now)? (?:is|are)\b.*))"
    r"\s*(?P<end>[.!]?)$",
    re.I,
)
#: The verbs of a concession that says nothing but liking: its which can stand alone.
_LIKING = frozenset({"like", "love", "enjoy", "adore"})
#: The verbs a which may say after a concession of liking: "I like a lot of music, but I mostly
#: listen to rock" is which music; "I like a lot of sports, but I mostly make ..." is no which.
_WHICH_AFTER_LIKING = _LIKING | frozenset(
    ("prefer", "into", "interested in", "drawn to", "listen to", "read", "watch", "play")
)
#: Which one is to the speaker's taste, after a concession of making or doing: "I produce a
#: variety of music, but I'm mostly into hip-hop". Not after having or knowing ("I have lots
#: of cats, but I'm mostly into dogs" is a contrast).
_TASTES = frozenset({"into", "interested in", "drawn to"})
_NOT_TASTES = frozenset({"have", "know", "do", "make"})
#: The adverb a which is said with: "really" likes one the most, as "especially" does.
_WHICH_ADVERB = {"mostly": "mostly", "mainly": "mostly", "primarily": "mostly"}


def which_of_many(sentence: str) -> str:
    """Many of a kind conceded and then which of them, as one fact with its kind: "I like all
    kinds of books, but I especially like thrillers" is "I like books, especially thrillers";
    "I produce a variety of music, but I mostly produce hip hop" is "I produce music, mostly
    hip hop"; "I like a lot of music, but my favorite artist is Travis Scott" is "My favorite
    artist is Travis Scott" (its kind said already). A sentence without the shape as it is."""
    match = WHICH_OF_MANY.search(sentence) if " but " in sentence else None
    if match is None:
        return sentence
    before = sentence[: match.start()]
    end = match.group("end")
    if match.group("own"):
        own = match.group("own")
        return before + own[0].upper() + own[1:] + end
    head = match.group("head") or match.group("mass_head")
    kind = match.group("kind") or match.group("mass")
    if head is None or kind is None:  # "There are so many great spots, but I mostly ...": whose?
        return sentence
    # the which is of the concession's kind only when it says the concession's own verb, or
    # likes among what is liked: "I have a lot of friends, but I really do miss my family" and
    # "I have lots of cats, but I mostly like dogs" are a contrast, two statements
    verb = (match.group("verb") or "like").lower()  # "I love pizza of all kinds": liking
    conceded = (match.group("inf") or match.group("ing") or verb).removesuffix(" to")
    said = match.group("which_verb").lower()
    if not (
        said.removesuffix(" to") == conceded.lower().removesuffix("ing")
        or (verb in _LIKING and said in _WHICH_AFTER_LIKING)
        or (verb not in _NOT_TASTES and said in _TASTES)
    ):
        return sentence
    adverb = _WHICH_ADVERB.get(match.group("adverb").lower(), "especially")
    kind = "" if kind.split()[-1].lower() in _VAGUE_KINDS else f" {kind}"
    if not kind and not match.group("inf") and not match.group("ing"):
        if verb not in _LIKING:
            return sentence  # "I read a lot of things, but I mostly read at night"
        # "I like a lot of different things, but I especially like ...": the which alone
        return before + sentence[match.start("clause") :]
    place = match.group("place") or ""
    return f"{before}{head}{kind}{place}, {adverb} {match.group('which')}{end}"


def favorite_of_many(sentence: str) -> str:
    """A favourite among many said with its kind: "I like a lot of different bands, but my
    favorites are The Cure and The Smiths" is "My favorite bands are The Cure and The Smiths",
    one fact with its slot (`cues`' favorite key); a sentence without the shape as it is."""
    match = FAVORITE_OF_MANY.search(sentence) if " but " in sentence else None
    if match is None:
        return which_of_many(sentence)
    kind = match.group("kind") or match.group("there") or match.group("mass")
    words = kind.split()
    verb = (match.group("inf") or match.group("verb") or "").lower()
    if words[-1].lower() in _VAGUE_KINDS:
        if not verb or verb in ("like", "love", "enjoy", "adore", "have"):
            return sentence  # "I have a lot of things, but my favorite is ...": no kind said
        words[-1] = "thing"
        verb = verb or "do"
    # "some of my favorites are", "my favorites are", "my favorite are roses": the kind's plural
    plural = match.group("some") is not None or match.group("be").strip() == "are"
    if not plural:
        words[-1] = _singular(words[-1])
    named = " ".join(words)
    if (verb and verb not in _PLAIN_VERBS) or words[-1] == "thing":
        named = f"{named} to {verb}"  # "my favorite music to produce", "thing to do"
    place = match.group("place") or match.group("there_place") or ""
    some = f"{match.group('some')} of " if match.group("some") else ""
    favourite = f"{some}my {match.group('all') or ''}favorite {named}{place}{match.group('be')}"
    return sentence[: match.start()] + favourite + sentence[match.end() :]


def without_tag(clause: str) -> str:
    """A statement with its tag question cut off ("I love Lisbon, don't you think?" is "I
    love Lisbon"); a question ("Is it far, right?") is left a question."""
    if "?" not in clause or QUESTION_START.match(clause):
        return clause
    return TAG_QUESTION.sub("", clause)


#: A verdict on the last turn before a statement is residue too: "That's cool, I like jazz".
VERDICT = re.compile(
    r"^(?:that's|that is|that sounds|sounds|it's|how|what a|oh)\s+(?:so |really |very |pretty )?"
    r"(?:cool|great|awesome|nice|amazing|interesting|funny|sweet|wonderful|fun|good|neat|"
    r"fantastic|lovely|exciting|too bad|sad|terrible|a shame|crazy|wild|impressive)"
    r"(?: to hear)?[,!]+\s+(?=\S)",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=[A-Z0-9\"'(])|\n+")


#: Curly single quotes, as macOS and iOS type an apostrophe ("I’m"), read as the straight one:
#: every rule that reads a word ("I'm", "don't", "Ana's") is written with "'".
_CURLY_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


#: A request to work on a text the message itself brings: "Here's another personal statement
#: ... Can you highlight why it worked?", "Please turn this entire article into a bulleted
#: list", "Can you proofread the following?".
_WORK_ON_TEXT = re.compile(
    r"\b(?:summari[sz]e|rewrite|re-?word|paraphrase|proofread|translate|shorten|condense|"
    r"polish|critique|highlight|analy[sz]e|improve|edit|check|review|format|convert)\b[^.?!]*"
    r"\b(?:this|it|the following|these|below|above)\b|"
    r"\b(?:turn|make) (?:this|it|the following|these)\b|"
    r"\bhere(?:'s| is| are) (?:a |an |my |the |another |some )?(?:[\w-]+ ){0,3}(?:article|essay|"
    r"statement|text|e-?mail|letter|story|poem|draft|paragraph|passage|document|transcript|post|"
    r"report|speech|script|lyrics|summary|abstract|description|bio|notes|chapter)s?\b|"
    r"\bthe following\b",
    re.I,
)
#: The least a message must hold after the request for it to be a pasted text, not a word
#: or two of the person's own.
PASTED_CHARS = 300


def without_pasted(text: str) -> str:
    """A message that asks to work on a text it brings, without that text: the lines up to
    the request (its first two lines at most) and a short last paragraph (a question after
    the text) are the person's words; what lies between is someone else's, an article, an
    essay, a letter, whose "I" is not the person's ("12 is the number of my idol, Tom Brady"
    in a college essay pasted for feedback). Any other message as it is."""
    if "\n" not in text:
        return text
    lines = text.strip().split("\n")
    asked = next((n for n, line in enumerate(lines[:2]) if _WORK_ON_TEXT.search(line)), None)
    if asked is None:
        return text
    pasted = "\n".join(lines[asked + 1 :])
    if len(pasted.strip()) < PASTED_CHARS:
        return text
    kept = lines[: asked + 1]
    last = re.split(r"\n\s*\n", pasted.strip())[-1]
    if len(last) < PASTED_CHARS and "?" in last and last.strip() != pasted.strip():
        kept.append(last)
    return "\n\n".join(kept)


def clean(content: str) -> str:
    """The text of a message the rules read: apostrophes straightened, and code, block quotes,
    a pasted text (`without_pasted`) and quoted speech removed (a quoted title kept).
    Everything the rules match, the message's sentences and the turn it replies to, passes
    through here."""
    text = without_pasted(content.translate(_CURLY_APOSTROPHES))
    text = _FENCED.sub(" ", text)
    text = _INLINE_CODE.sub(" ", text)
    text = _INDENTED.sub(" ", text)
    text = _BLOCKQUOTE.sub(" ", text)
    return QUOTED.sub(_unless_title, text)


#: A quoted span that speaks (a pronoun, or a sentence's end) is someone's words.
_SPEECH = re.compile(r"\b(?:I|I'm|I've|I'd|me|my|we|our|you|your)\b|[.!?,;]\W*$", re.I)
#: A quoted span of at most this many words that does not speak is a name or a title.
TITLE_WORDS = 8

#: Where quoted speech was removed: a sentence that held it is someone else's words as a whole
#: (removing the words alone would cut it: 'My favorite quote is "..."' -> "... is .").
QUOTED_MARK = "“…”"
#: A verb that introduces speech: the quoted words after it are said, not a title.
_SPEECH_VERB = re.compile(
    r"(?:\b(?:said|says|say|told|tell|asked|asks|wrote|writes|replied|replies|yelled|shouted|"
    r"texted|goes|like)|:)\s*$",
    re.I,
)


def _title_cased(words: str) -> bool:
    """Most words capitalised, as a title is: "Who Moved My Cheese?", "Eat, Pray, Love"."""
    tokens = re.findall(r"[A-Za-z][\w']*", words)
    return bool(tokens) and sum(t[0].isupper() for t in tokens) >= 0.6 * len(tokens)


def _unless_title(match: re.Match[str]) -> str:
    """Remove quoted words, but keep a quoted title: 'a show called "The Wheel of Time"' is a
    fact about the show, and the statement would read "a show called ." without it. A span
    that speaks is a title too when it is title-cased and no speech verb introduces it
    ('I love "Who Moved My Cheese?"')."""
    inner = match.group(0)[1:-1]
    if len(inner.split()) <= TITLE_WORDS:
        introduced = _SPEECH_VERB.search(match.string[: match.start()])
        if not _SPEECH.search(inner) or (not introduced and _title_cased(inner)):
            return match.group(0)
    return f" {QUOTED_MARK} "


#: Initials run together, "J.K.", "R.R.": a name goes on after them ("J.K. Rowling") unless
#: the next word opens a sentence of its own ("I moved to the U.S. It was hard").
_INITIALS_END = re.compile(r"(?<![\w.])(?:[A-Z]\.){2,}$")


def _initials_go_on(part: str, piece: str) -> bool:
    """Whether `part` ends in initials ("J.K.") that the name in `piece` goes on from."""
    if not _INITIALS_END.search(part):
        return False
    word = re.match(r"[\w']+", piece)
    return word is not None and word.group().lower() not in STOPWORDS


def split_sentences(text: str) -> list[str]:
    """Split at sentence ends, but rejoin a piece cut after an abbreviation or an initial."""
    parts: list[str] = []
    for piece in _SENTENCE_END.split(text):
        last = parts[-1].rstrip() if parts and not parts[-1].endswith("\n") else ""
        if last and (
            ABBREVIATION_END.search(last) or (last[-3:-2] == "." and _initials_go_on(last, piece))
        ):
            parts[-1] = f"{parts[-1].rstrip()} {piece}"
        else:
            parts.append(piece)
    return parts


#: A statement, a dash, then a question to the listener: "I finished another pottery project -
#: want to see a pic?" is a fact and a question.
_DASH_QUESTION = re.compile(r"^(?P<head>[^?]+?)\s+[-–—]\s+(?P<tail>[^-–—?]+\?+)\s*$")


def _questions_apart(part: str) -> list[str]:
    """A sentence whose question follows a statement after a dash, as the two; any other
    sentence as it is."""
    match = _DASH_QUESTION.match(part) if "?" in part else None
    if match is None or QUESTION_START.match(match.group("head").strip()):
        return [part]
    return [match.group("head"), match.group("tail")]


def _stands_alone(clause: str) -> bool:
    """Whether a "we" clause cut from its sentence would still be read as a statement: long
    enough for the weak rule, or a typed cue ("we saw a bear")."""
    if len(re.findall(r"[\w']+", clause)) >= SHORT_WORDS:
        return True
    return any(cue.pattern.search(clause) for cue in CUES)


def statements(text: str) -> list[str]:
    """Sentences, and within them the clauses that start a new first-person statement:
    "My name is Sam and I live in Porto" is two facts with two conflict slots."""
    out = []
    text = LABEL.sub("", text.lstrip(), count=1)
    wholes = (piece for whole in split_sentences(text) for piece in _questions_apart(whole))
    requests = (piece for whole in wholes for piece in _requests_apart(whole))
    for part in (piece for whole in requests for piece in _consequences_apart(whole)):
        if not part or not part.strip():
            continue
        # a label after the message's first sentence: "Hi! A bit of background: I work ..."
        part = LABEL.sub("", part.lstrip(), count=1)
        part = CALLED_OFF.sub(lambda m: f"I gave up {m.group('what')}", part, count=1)
        # "And I left Ferrovia Labs, I now work at Renfe": the opener is no part of the first
        # clause, which starts with "I" like the next (and splits from it)
        part = FILLER.sub("", part, count=1)
        part = STANDING_REQUEST.sub(_as_asked, part, count=1)
        part = favorite_of_many(part)
        clauses: list[str] = []
        begin = 0
        for boundary in _CLAUSE.finditer(part):
            head = part[begin : boundary.start()]
            if re.fullmatch(
                r"(?:[^,;]*,)?\s*(?:(?:[Mm]y|[Oo]ur)(?: [\w'-]+){1,2}|[A-Z][a-z'-]+)\s*", head
            ):
                # "My husband and I went hiking", "Speaking of trips, my wife and I just left
                # for Rome": a subject, not a fact of its own
                continue
            if (
                boundary.group("comma")
                and not _FIRST_PERSON_HEAD.match(head)
                and not REQUEST_HEAD.match(head)
            ):
                continue  # "When I was young, I lived in Rome": one statement
            if _MY.match(part, boundary.end()) and not _MY_CLAUSE.match(part, boundary.end()):
                # "... with my mom and my sister last weekend": a second companion, not a
                # clause ("The user's sister last weekend." was a memory of its own)
                continue
            if boundary.group("we") is not None and not _stands_alone(part[boundary.end() :]):
                continue  # "Our team uses Rust and we deploy on Fridays": too short to stand
            clauses.append(head)
            begin = boundary.end()
        clauses.append(part[begin:])
        for clause in clauses:
            clause = re.sub(r"\s+", " ", clause).strip(" -–—*•,;")
            clause = GREETING.sub("", without_tag(clause))
            if _CATCH_UP_WORDS.search(clause):
                clause = CATCH_UP.sub("", clause)
            clause = FILLER.sub("", VERDICT.sub("", clause))
            clause = _SURPRISE.sub("", clause)  # "Wow, I never knew ...": not a quote's
            for piece in without_secrets(clause):
                for fact in (f for a in split_appositive(piece) for f in split_slots(a)):
                    if re.search(r"\w", fact):  # "Yes." leaves "." once "Yes" is read off
                        out.append(fact[0].upper() + fact[1:])
    return out


#: Where `secrets.redact` removed a secret.
_REDACTION = re.compile(r"\[REDACTED [a-z_]+\]")
#: Where a clause of a sentence ends: a comma, a semicolon, a dash, a conjunction.
_CLAUSE_BREAK = re.compile(
    r"(?:\s*[,;]\s+|\s+[-–—]\s+)(?:(?:and|but|so|because|while|though|although|plus)\s+)?|"
    r"\s+(?:and|but|so|because|while|though|although|plus)\s+"
)


def without_secrets(clause: str) -> list[str]:
    """A clause that holds a redacted secret, cut so the secret's own clause stands apart.

    "I moved to Leeds last year; my wifi password is [REDACTED password]" is a fact and a
    secret: the fact is learned alone and the secret's clause (skipped as a secret) never
    leaves a redaction marker in a statement. Clauses without a secret are kept together as
    they were said ("I live in Leeds, UK").
    """
    if not _REDACTION.search(clause):
        return [clause] if clause else []
    pieces = _CLAUSE_BREAK.split(clause)
    breaks = [m.group(0) for m in _CLAUSE_BREAK.finditer(clause)]
    runs: list[tuple[bool, str]] = []
    for index, piece in enumerate(pieces):
        secret = bool(_REDACTION.search(piece))
        if runs and runs[-1][0] == secret:
            runs[-1] = (secret, runs[-1][1] + breaks[index - 1] + piece)
        else:
            runs.append((secret, piece))
    return [text.strip(" ,;") for _secret, text in runs if text.strip(" ,;.!")]


#: A closing discourse marker: "We live in Halifax, by the way", "I would love to, honestly".
CLOSING = re.compile(
    r",\s+(?:by the way|btw|though|lol|haha|anyway|honestly|really|actually)(?=\s*[.!]*$)", re.I
)
