"""What a statement refers to outside itself: the message it replies to, and the people
the speaker named.

A note quotes the message a statement came from and the one it answered (`message_quote`); a
reply that leans on the last turn ("I have two of them") takes its antecedent from there; the
people a speaker names as theirs ("my son Theo") let later sentences about them, and a "he" or
"she" after exactly one of them, be resolved.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import STOPWORDS
from .chatter import (
    DANGLING,
    DEICTIC_SUBJECT,
    DEMONSTRATIVE_END,
    SMALL_TALK,
    conversational,
)
from .cues import RELATIONS
from .dates import format_day
from .messages import Message
from .secrets import redact
from .sentences import FILLER, GREETING, QUOTED_MARK, VERDICT, clean, split_sentences

#: The quote kept in a note is cut here: it is provenance, not an archive of the chat.
MAX_QUOTE_CHARS = 600
#: The message a statement answers is kept before it, cut to its last words (where the
#: question usually is): "Where did you go?" is what gives "I went to Woodhaven" its meaning.
MAX_CONTEXT_CHARS = 240


def quote_message(content: str, message: Message) -> str:
    """The message as the note quotes it: whitespace collapsed, cut, with who and when."""
    text = " ".join(content.split())
    if len(text) > MAX_QUOTE_CHARS:
        text = text[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
    who = message.name or "the user"
    when = f", {format_day(message.timestamp)}" if message.timestamp else ""
    return f"{text} ({who}{when})"


def reply_context(previous: Message | None, message: Message, cleaned: str | None = None) -> str:
    """The message `message` replies to, as one quoted line: "Nate: Where did you go?".

    Only the message just before, and only when someone else said it (the assistant or another
    person): a person's own previous message is not what they were answering. `cleaned` is the
    previous message already cleaned and redacted, when the loop has it (scanning a message for
    secrets twice is most of what the context would cost).
    """
    if previous is None or previous.role not in ("user", "assistant"):
        return ""
    if previous.speaker == message.speaker:
        return ""
    if cleaned is None:
        cleaned = redact(clean(previous.content)).replace(QUOTED_MARK, " ")
    text = " ".join(cleaned.split())
    if not text:
        return ""
    if len(text) > MAX_CONTEXT_CHARS:
        text = "… " + text[-MAX_CONTEXT_CHARS:].split(" ", 1)[-1]
    return f"{previous.name or previous.role}: {text}"


#: A question longer than this is not quoted in a statement (the note's quote still has it).
MAX_QUESTION_CHARS = 160


def _plain(part: str) -> str:
    """A sentence without the greeting, verdict and filler that open it."""
    return FILLER.sub("", VERDICT.sub("", GREETING.sub("", part))).strip(" ,")


def _body(text: str) -> str:
    """`text` without the "Name: " that `reply_context` puts before a message."""
    return text.split(": ", 1)[-1] if ": " in text[:40] else text


#: An exclamation before a reaction: "Wow, it sounds amazing!", "Oh, that's brave!". Read
#: without it, the sentence is seen for what it is: a verdict that names nothing.
_INTERJECTION = re.compile(
    r"^(?:(?:wow|whoa|oh|ooh|aww|omg|yay|haha|lol|hmm|ah|cool|great|awesome|nice|sweet|"
    r"really|man|gosh)\b[,!.]*\s+)+",
    re.I,
)
#: A question that asks nothing of the speaker: a tag ("I know, right?", "Right?") or an echo
#: of a word just said ("Hope for what?"). A reply to it leans on the turn's other sentences.
_EMPTY_QUESTION = re.compile(
    r"^(?:(?:I know|you know|I mean|see),?\s+)?(?:right|huh|eh|yeah|no)\?$|"
    r"\b(?:for|about|like|with|of|to) what\?$",
    re.I,
)


#: A demonstrative before its noun ("That agency looks great!", "This book is great") names
#: the thing: it is no pronoun subject that dangles.
_DETERMINER_PHRASE = re.compile(
    r"(?:that|this|those|these)\s+(?!(?:is|was|are|were|has|had|have|sounds?|looks?|seems?|"
    r"must|would|will|can|could|really|so|just|totally|too|one|kind|sort)\b)[a-z][\w-]{2,}\s+"
    r"(?:is|was|are|were|looks?|sounds?|seems?|has|have)\b",
    re.I,
)
#: Thanks and politeness: what follows them is about the talk ("Thanks for talking to me").
_PLEASANTRY = re.compile(
    r"^(?:thanks|thank you|thx|no problem|no worries|you're welcome|my pleasure|"
    r"nice (?:talking|chatting|meeting)|good (?:talking|chatting))\b",
    re.I,
)
#: A clause of the speaker's own inside a pleasantry: "Thanks, I got it at a fair".
_OWN_CLAUSE = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|we|we're|our)\b", re.I)


def antecedent_of(context: str) -> str | None:
    """What a reply refers to: the last sentence of the message before that stands alone (the
    question it answers, "Do you have any pets?", or the statement it takes up), or None.

    A verdict or a pleasantry ("Wow, it sounds amazing!", "Thanks for talking to me.") and a
    tag question ("I know, right?") are no antecedent: a reply kept with one would not stand
    alone either."""
    if not context:
        return None
    parts = [p.strip() for p in split_sentences(context.split(": ", 1)[-1]) if p.strip()]
    if not parts:
        return None
    for part in reversed(parts):
        part = _plain(part)
        bare = _INTERJECTION.sub("", part)  # "Wow, nice bookshelf!" is "bookshelf!"
        if len(re.findall(r"[\w']+", bare)) < 3 or len(part) > MAX_QUESTION_CHARS:
            continue
        if (
            DEICTIC_SUBJECT.match(bare) and not _DETERMINER_PHRASE.match(bare)
        ) or DEMONSTRATIVE_END.search(part):
            continue  # "They're always amazing.": it dangles too, so it resolves nothing
        if _EMPTY_QUESTION.search(part) or (
            _PLEASANTRY.match(bare) and not _OWN_CLAUSE.search(bare)
        ):
            continue  # "I know, right?", "Thanks for talking to me.": nothing to lean on
        verdict = conversational(part)
        if part.endswith("?") and verdict == DANGLING:
            continue  # "How did you like it?": a question that leans on something itself
        if not part.endswith("?") and verdict is not None:
            # "I hope you enjoy it.": a reaction gives a reply no meaning, and "I've been
            # doing it for years" leans on something itself: the sentence before may not
            continue
        return part[0].upper() + part[1:]
    return None


def question_of(antecedent: str | None) -> str | None:
    """The antecedent when it asks something (of the speaker, who is answering it)."""
    if antecedent and antecedent.endswith("?"):
        return antecedent
    return None


def message_quote(message: Message, previous: Message | None) -> str:
    """The quote a note keeps for a statement of `message`: the message cleaned and redacted,
    with who and when, after the message it answered (`reply_context`). Any extractor can cite a
    message this way, so a note reads the same whichever extractor made it."""
    quote = quote_message(redact(clean(message.content)).replace(QUOTED_MARK, " "), message)
    context = reply_context(previous, message)
    return f"{context}\n\n{quote}" if context else quote


_PERSON_NAME = r"((?:(?:Dr|Prof|Mr|Mrs|Ms)\.? )?[A-Z][\w'-]+)"
#: How a person names someone of theirs: "my son Theo", "my advisor, Prof. Lindqvist", "my
#: manager is Dana", "Theo, my son", "Dana is my manager".
_NAMING = (
    re.compile(rf"\b(?:[Mm]y|[Oo]ur) (?:(?:little|older|younger|big|eldest|youngest|oldest|new) )?"
               rf"({RELATIONS}),? (?:is )?(?:called |named )?{_PERSON_NAME}"),
    re.compile(rf"\b{_PERSON_NAME},? (?:is )?(?:my|our) (?:(?:little|older|younger|big|new) )?"
               rf"({RELATIONS})\b"),
)  # fmt: skip


#: Kin a person says they have, then names: "We have two kids, Leo and Mia", "I have a
#: daughter named Mia", "we have a son, Leo".
_HAVE_NAMED = re.compile(
    r"\b(?:(?:I|we|We) have (?:a|an|one|two|three|four|five) |"
    # or said as whose they are, several of them: "me, my husband Tom and our two kids, Mia and
    # Leo" (a kin word of one, "my son Leo and Tom", names one: `_NAMING` reads it)
    r"(?:[Mm]y|[Oo]ur) (?:(?:two|three|four|five) )?(?=(?:kids|children|sons|daughters|twins|"
    r"boys|girls)(?:,| named| called)? [A-Z]\w+(?:, [A-Z]\w+)*,? and ))"
    r"(?:(?:little|young|grown) )?"
    r"(kids|children|sons|daughters|son|daughter|child|baby|twins|boys|girls)"
    r"(?:,| named| called)?\s+([A-Z][\w'-]+)((?:, [A-Z][\w'-]+)*,? and [A-Z][\w'-]+)?"
)
#: How a statement names one of several: "The user's child Mia".
_ONE_OF = {"kids": "child", "children": "child", "twins": "child", "boys": "son",
           "girls": "daughter", "sons": "son", "daughters": "daughter"}  # fmt: skip


def named_people(sentence: str) -> dict[str, str]:
    """The people a sentence names as the speaker's: {"Theo": "son"}, and {"Leo": "child",
    "Mia": "child"} for "We have two kids, Leo and Mia" (a household's children are the
    speaker's as much as "my son Theo" is)."""
    found: dict[str, str] = {}
    for index, pattern in enumerate(_NAMING):
        for match in pattern.finditer(sentence):
            relation, name = match.groups() if index == 0 else match.groups()[::-1]
            if name.split()[-1] not in ("I", "My", "The", "We") and relation.islower():
                found[name] = relation
    for match in _HAVE_NAMED.finditer(sentence):
        relation = _ONE_OF.get(match.group(1), match.group(1))
        for name in [match.group(2), *re.findall(r"[A-Z][\w'-]+", match.group(3) or "")]:
            found[name] = relation
    return found


#: A relationship memory as the extractor writes one: "The user's son Theo is 6.", "Caroline's
#: best friend Mel ..." (`rules._about_their_person`, and the naming sentence made third person).
_THEIRS_STATEMENT = re.compile(rf"^(.+?)'s ((?:[a-z][\w-]* ){{0,2}}[a-z][\w-]*),? {_PERSON_NAME}\b")


def people_named_in(statements: list[str], owner: str) -> dict[str, str]:
    """The people earlier memories name as `owner`'s ("The user", or a speaker's name), so a
    later turn's "Theo is allergic to peanuts" is about "the user's son Theo" though this turn
    never said who Theo is: {"Theo": "son"} from "The user's son Theo is 6.". Pure."""
    found: dict[str, str] = {}
    for text in statements:
        match = _THEIRS_STATEMENT.match(text)
        if match is None or match.group(1) != owner:
            continue
        relation, name = match.group(2), match.group(3)
        if re.fullmatch(RELATIONS, relation) and name.split()[-1] not in ("I", "My", "The", "We"):
            found.setdefault(name, relation)
    return found


#: A thing of the speaker's as a sentence's subject: "My migration deadline is March 14".
_OWN_SUBJECT = re.compile(
    r"^[Mm]y ((?:[a-z][\w-]* ){0,2}[a-z][\w-]*) (?:is|was|are|were|has|had|got|gets|will|"
    r"moved|changed)\b"
)


def owned_things(sentence: str) -> set[str]:
    """The things a sentence names as the speaker's, as its subject: {"migration deadline"}."""
    match = _OWN_SUBJECT.match(sentence)
    return {match.group(1).lower()} if match else set()


def resolve_owned(sentence: str, owned: set[str]) -> str:
    """A sentence about "the" thing the speaker said was theirs, as theirs: "The migration
    deadline moved to April 30." after "My migration deadline is March 14." is about their
    deadline ("My migration deadline moved to April 30."), not someone else's."""
    if not owned or not sentence.startswith("The "):
        return sentence
    head = sentence[4:].lower()
    for thing in owned:
        if head.startswith(thing) and not head[len(thing) : len(thing) + 1].isalnum():
            return f"My {sentence[4:]}"
    return sentence


_RELATIVE = re.compile(
    r"\b(?:[Mm]y|[Oo]ur) ((?:(?:little|older|younger|big|eldest|youngest|oldest|new|best) )?"
    rf"(?:{RELATIONS}))\b"
)
_HE_SHE = re.compile(r"^(?:He|She)(?='s\b|\s+(?:is|was|has|had|loves|likes|works|lives|\w+s)\b)")


def one_person(sentence: str, theirs: dict[str, str]) -> str | None:
    """The speaker's one person a sentence is about ("my sister", "Theo"), if exactly one.

    A household's person is the speaker's as "my" names them ("Our dog is 4" is about "my
    dog"), as `named_people` reads "our dog Biscuit"."""
    people = {f"my {m.group(1)}" for m in _RELATIVE.finditer(sentence)}
    if not people:
        people = {name for name in theirs if re.search(rf"\b{re.escape(name)}\b", sentence)}
    return people.pop() if len(people) == 1 else None


#: Words by which a message speaks of a person: a relation ("your son", "my brother") or a
#: third-person pronoun. A reply that has one may have changed who "he" or "she" is.
_SPEAKS_OF_SOMEONE = re.compile(rf"\b(?:{RELATIONS}|he|she|him|his|her|hers|he's|she's)\b", re.I)


def speaks_of_someone(text: str) -> bool:
    """Whether `text` speaks of a person, by a relation or a pronoun: after it, a speaker's
    "He is allergic to peanuts" may be about someone it named, so the person their own last
    message was about is no longer the one "he" stands for (`rules.RuleExtractor`)."""
    return _SPEAKS_OF_SOMEONE.search(text) is not None


#: People named in the plural: "they" and "them" can stand for them.
_PLURAL_PEOPLE = re.compile(
    r"\b(?:parents|kids|children|siblings|friends|grandparents|grandkids|grandchildren|"
    r"twins|in-laws)$"
)
#: The speaker doing something with people, "them" its object: "I visit them every other
#: weekend", "We call them on Sundays" (not "I loved them": that may be a thing they gave).
_WITH_THEM = re.compile(
    r"^(?:I|We)(?: \w+ly| still| also| usually| always| often)* (?:visit|see|call|phone|text|"
    r"miss|help|meet|take care of|look after|talk to|talk with|stay with|spend time with|"
    r"go see|drive|support)(?:ed|s)?\s+them\b"
)


#: Relation words of one gender, which "he" or "she" must not contradict.
_MALE = frozenset(
    "son sons brother brothers dad father husband boyfriend fiance uncle grandpa grandfather "
    "nephew grandson stepson stepdad stepfather man boy guy".split()
)
_FEMALE = frozenset(
    "daughter daughters sister sisters mom mum mother wife girlfriend fiancee aunt grandma "
    "grandmother niece granddaughter stepdaughter stepmom stepmum stepmother woman girl".split()
)


def resolve_person(sentence: str, person: str | None) -> str:
    """ "She works at Siemens." after "My sister lives in Berlin." is about "my sister": the
    pronoun is replaced when the sentence before named exactly one person of the speaker's.
    So is "them" after a verb of seeing or helping people ("I visit them every other weekend"
    after "My parents live in Chennai.")."""
    if person is not None and _PLURAL_PEOPLE.search(person):
        them = _WITH_THEM.match(sentence)
        if them is not None and len(re.findall(r"\bthem\b", sentence)) == 1:
            return sentence[: them.end() - len("them")] + person + sentence[them.end() :]
    if person is None or not _HE_SHE.match(sentence):
        return sentence
    # "She is very strict." after "My son started school" is about someone else: a pronoun
    # whose gender the person's relation word contradicts stands for no one named before.
    said = set(re.findall(r"[a-z]+", person.lower()))
    if (sentence[:2].lower() == "he" and said & _FEMALE) or (
        sentence[:3].lower() == "she" and said & _MALE
    ):
        return sentence
    name = person[0].upper() + person[1:]
    # "He's" is "he is" or "he has"; "my son's" would read as a possessive
    # ("He's always there for me" is "he is": "always" and "never" say "has" only before a
    # participle, "He's never been to Paris"; "He's obsessed", "She's married" are "is": an
    # -ed word after it is mostly an adjective, so only these participles say "has")
    sentence = re.sub(
        r"^(He|She)'s(?=(?: never| always| just| already)? (?:been|had|got|gotten|done|seen|"
        r"gone|lived|worked|moved|started|finished|visited|travell?ed|met|made|taken|given|"
        r"lost|won|left|become|come|known)\b"
        # after "never" or "always" an -ed word is a perfect ("He's always wanted a dog"),
        # but for the feelings said the same way ("He's always tired")
        r"| (?:never|always) (?!(?:tired|interested|married|scared|excited|bored|obsessed|"
        r"worried|surprised|amazed|confused|annoyed)\b)\w+ed\b)",
        r"\1 has",
        sentence,
    )
    sentence = re.sub(r"^(He|She)'s\b", r"\1 is", sentence)
    return _HE_SHE.sub(name, sentence, count=1)


#: What the last turn liked, did or asked about, as the object a reply's pronoun can stand
#: for: "I like all kinds of video games." / "Do you like hiking?" / "Have you ever tried
#: sushi?". A possessive in it ("my dog") is the other speaker's, so it is not taken.
_LIKED = re.compile(
    r"^(?:(?:do|did) you |have you (?:ever )?|are you |I(?:'m| am)? |we(?:'re| are)? )"
    r"(?:(?:\w+ly|really|also|just|ever|still|always|too) )*"
    r"(?P<verb>like|love|enjoy|adore|prefer|hate|dislike|play|played|watch|watched|read|"
    r"tried|try|eat|ate|cook|seen|heard of|into|a fan of|fans of|listen to|listened to)"
    # an amount is no part of the thing: "I play a lot of Call of Duty" / "I'm not good at it"
    r"\s+(?:(?:a lot|lots|plenty|a ton|tons|a bit|a little) of )?"
    r"(?P<object>(?:(?!(?:my|our|your|his|her|their|it|them|that|this|those|these)\b)"
    r"[\w'-]+(?:,? (?:and |or )?)?){1,8}?)"
    r"(?:,? (?:too|as well|either|though|anymore))?\s*[.!?]*$",
    re.I,
)
#: "My favorite food is papaya.": the favorite itself is what "it" stands for in a reply.
_FAVORITE = re.compile(
    r"^my (?:all-time )?favou?rite [\w ]{2,30}? (?:is|are) (?:probably |definitely )?"
    r"(?P<object>(?!(?:my|our|your|his|her|their)\b)[\w'-]+(?: [\w'-]+){0,5}?)\s*[.!]*$",
    re.I,
)
#: The reply's pronoun object, with what may follow it: "I love them too!", "I've never
#: tried it", "I like those too", "I like all of those things".
_REPLY_OBJECT = re.compile(
    # after "not", or a form of "be", "that" is a degree ("I'm not that good"), not a pronoun
    r"(?<=\w )(?<!\bnot )(?<!\bbe )(?<!\bis )(?<!\bam )(?<!\bare )(?<!\bwas )(?<!'m )"
    r"(?<!'s )(?:all of )?(?:it|them|(?:that|this|those|these)(?: [a-z]+)?)"
    r"(?=(?: (?:too|as well|either|a lot|so much|very much|sometimes|all|both|anymore|"
    r"before|though|yet|once|twice|again|so far|online|ever since|"
    # a phrase of time or frequency: "I've played it a few times", "I read it years ago"
    r"(?:a |one |two |three |a couple of |a few |many |several |so many )?(?:\w+ )?"
    r"(?:times|years|months|weeks|days)(?: ago| now)?))*\W*$)",
    re.I,
)
#: A quoted title ('reading "The Hobbit"') or a name of several capitalised words that
#: does not open the sentence ("My favourite game is The Witcher 3"): a noun phrase the
#: rules can see without a parser.
_TITLE = re.compile(
    r"“[^”]{2,60}”|\"[^\"]{2,60}\"|(?<=[a-z,] )(?!I\b)(?:The |A )?"
    # an article inside a title is lower case: "To Kill a Mockingbird", "A Man Called Ove"
    r"[A-Z][\w'-]+(?: (?:of|the|a|an|and|in|on|de|[A-Z0-9][\w'-]*))*(?: [A-Z0-9][\w'-]*)"
)
#: One capitalised word after a preposition or a verb of watching, reading or playing is a
#: name too: "good things about Bluey", "a show called Severance".
_ONE_NAME = re.compile(r"\b(?:about|of|called|watching|reading|playing) (?!I\b)([A-Z][\w'-]+)")


def _titles(text: str) -> list[str]:
    """The titles and names `_TITLE` and `_ONE_NAME` see in `text`, in order."""
    found = [
        (m.start(), m.group(0))
        for m in _TITLE.finditer(text)
        # "Red Rock Canyon" opens the sentence: "Rock Canyon" is not a name of its own
        if not re.search(r"\b[A-Z][\w'-]* $", text[: m.start()])
    ]
    found += [(m.start(1), m.group(1)) for m in _ONE_NAME.finditer(text)]
    return [name for _, name in sorted(found) if not any(name in o and name != o for _, o in found)]


#: A place the last turn named: "I'm from California", "Have you been to Lisbon?".
_PLACE = re.compile(
    r"\b(?:in|to|from|at|visit|visited|visiting) (?P<place>(?:the )?[A-Z][\w'-]+"
    r"(?: (?:[A-Z][\w'-]+|of|de|la))*)"
)
#: "there" after a verb of going or being, and the preposition the place takes after it.
_THERE = re.compile(
    r"\b(?:(?P<to>been|went|go|going|gone|moved|travel(?:l)?ed)|"
    r"(?P<in>live|lived|living|work|worked|working|stayed|grew up)|"
    r"(?P<bare>visit|visited|visiting)) there\b"
)


def _resolve_there(antecedent: str, sentence: str) -> str | None:
    """ "I've been there a few times." after "I'm from California." is "I've been to
    California a few times."."""
    there, place = _THERE.search(sentence), _PLACE.search(antecedent)
    if there is None or place is None:
        return None
    name = place.group("place")
    where = f"to {name}" if there.group("to") else f"in {name}" if there.group("in") else name
    return sentence[: there.end() - len("there")] + where + sentence[there.end() :]


def resolve_reference(antecedent: str | None, sentence: str) -> str | None:
    """A reply whose pronoun stands for what the last turn named, with that named instead:
    "I love them too!" after "I like all kinds of video games." is "I love all kinds of video
    games!", "I love it!" after "Do you like hiking?" is "I love hiking!", and "I've been
    there" after "I'm from California." is "I've been to California". None when the
    rules cannot tell what the pronoun stands for (the reply is then kept with its antecedent,
    or skipped)."""
    if not antecedent or _ALTERNATIVES.search(antecedent):
        return None  # none, or two things weighed ("Lisbon or Porto?"): which one, unknown
    placed = _resolve_there(antecedent, sentence)
    if placed is not None:
        return placed
    liked = _LIKED.match(antecedent.strip()) or _FAVORITE.match(antecedent.strip())
    if liked is None:
        titles = _titles(antecedent)
        if len(titles) != 1:
            return None  # none, or several: which one "it" is, the rules cannot tell
        return _replace_it(sentence, titles[0])
    pronoun = _REPLY_OBJECT.search(sentence)
    if pronoun is None:
        return None
    thing = liked.group("object").strip(" ,")
    if len(thing.split()) > 8 or not re.search(r"[a-z]", thing):
        return None
    if "," in thing and re.match(r"(?i)it\b", pronoun.group(0)):
        return None  # "Bake Off, Bluey, and Succession" is several things, and "it" one
    before = sentence[: pronoun.start()]
    verb = re.search(r"\b(?:like|love|enjoy|hate|prefer|adore)\s*$", before)
    start = pronoun.start()
    if thing.lower().startswith("to ") and verb is None:
        # "I like to do those things too" after "I like to go hiking, camping, and fishing":
        # "do" (or the last turn's own verb, "to read those") stands for what they do
        doing = re.search(rf"\bto (?:do|{re.escape(thing.split()[1])})\s+$", before, re.I)
        if len(thing.split()) < 2 or doing is None:
            return None  # "to play Minecraft" stands only after a verb of liking
        start = doing.start()
    resolved = sentence[:start] + thing + sentence[pronoun.end() :]
    # "too"/"as well" agreed with the last turn; the fact stands without it
    return re.sub(r",?\s+(?:too|as well)(?=\W*$)", "", resolved)


#: A short answer's noun phrase: "Neovim, always." is "Neovim", "Definitely Star Wars!"
#: "Star Wars". Adverbs of certainty and a closing adverb are not the thing named.
_ANSWER_NP = re.compile(
    r"^(?:(?:oh|well|definitely|probably|maybe|perhaps|honestly|mostly|usually|always|"
    r"absolutely|totally|hmm|um),? )*(?P<np>[\w'“”\"-]+(?: [\w'“”\"-]+){0,4}?)"
    r"(?:,? (?:always|definitely|probably|for sure|of course|mostly|usually|hands down|"
    r"no doubt|I think|I guess|I'd say))?\W*$",
    re.I,
)


#: A copula, an auxiliary or a verb of seeming: a phrase with one is a clause, not a noun
#: phrase ("Gardening sounds like fun").
_VERB = re.compile(
    r"\b(?:is|are|was|were|am|be|been|being|has|have|had|do|does|did|can|will|would|sounds|"
    r"looks|seems|feels)\b|'s\b|'re\b",
    re.I,
)


def resolve_with_answer(answer: str | None, sentence: str) -> str | None:
    """ "I do prefer it over VS Code." after the same message's short answer "Neovim,
    always." is "I do prefer Neovim over VS Code.": a verbless answer names one thing, and a
    later object "it" in the message stands for it. None when there is no such answer."""
    if not answer:
        return None
    named = _ANSWER_NP.match(answer.strip())
    words = [] if named is None else named.group("np").lower().split()
    if (
        not words
        or words[0] in ("not", "all", "no", "nothing", "none")
        or all(w.strip('“”"') in STOPWORDS for w in words)
    ):
        return None  # "Not really", "All of them": no thing named
    assert named is not None
    if len(words) > 4 or _VERB.search(named.group("np")):
        return None  # "Taco Bell is great!" is a sentence: what "it" is, it does not say
    return _replace_it(sentence, named.group("np"))


#: "It" as an object: after a word that opens no clause, and before no verb of its own
#: ("I saw it twice", not "I think it was good"), nor an infinitive or clause it announces
#: ("I find it hard to ...").
_ANNOUNCES = r"(?:to\s+[a-z]+|that|when|if)\b"
_OBJECT_IT = re.compile(
    r"(?<=\w )(?<!\band )(?<!\bbut )(?<!\bso )(?<!\bbecause )(?<!\bthat )(?<!\bthink )"
    r"(?<!\bthought )(?<!\bhope )(?<!\bguess )(?<!\bknow )(?<!\bfeel )(?<!\bfelt )"
    r"(?<!\blike )(?<!\bsure )\bit\b"
    r"(?!'|\s+(?:is|was|will|would|has|had|can|could|does|did|might|must|should|seems|looks|"
    r"sounds|makes|takes|gets|feels)\b)"
    rf"(?!(?:\s+[\w'-]+){{0,3}}?\s+{_ANNOUNCES})",
    re.I,
)


#: A preposition before "it": an infinitive put there reads as its gerund ("good at to cook"
#: is "good at cooking").
_AFTER_PREPOSITION = re.compile(r"\b(?:at|about|of|with|for|in|on|from|into|by|without)\s+$", re.I)


def gerund(infinitive: str) -> str | None:
    """ "to cook" -> "cooking", "to dance ..." -> "dancing ...", "to swim" -> "swimming", by the
    spelling rules of "-ing" (a silent "e" dropped, a last consonant after one short vowel
    doubled); None for what is no "to" + verb."""
    words = infinitive.split()
    if len(words) < 2 or words[0].lower() != "to" or not words[1].isalpha():
        return None
    verb = words[1].lower()
    if verb in ("be", "see", "flee", "agree", "free"):
        stem = verb
    elif verb.endswith("ie"):
        stem = verb[:-2] + "y"
    elif verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        stem = verb[:-1]
    elif re.fullmatch(r"[^aeiou]*[aeiou][b-df-hj-np-tvz]", verb):
        stem = verb + verb[-1]  # one syllable, one short vowel: "swim", "run", "shop"
    else:
        stem = verb
    return " ".join([stem + "ing", *words[2:]])


def _replace_it(sentence: str, thing: str) -> str | None:
    """The sentence with its one object "it" replaced by `thing`, or None (no such "it", or
    more than one). After a preposition an infinitive is its gerund: "I love to cook, but I'm
    not very good at it" is "... not very good at cooking"."""
    found = list(_OBJECT_IT.finditer(sentence))
    if len(found) != 1 or len(thing.split()) > 8:
        return None
    if _AFTER_PREPOSITION.search(sentence[: found[0].start()]) and thing.lower().startswith("to "):
        thing = gerund(thing) or thing
    resolved = _OBJECT_IT.sub(lambda _m: thing, sentence, count=1)
    # "I love it there": the place is the thing, and "there" says it again
    return resolved.replace(f"{thing} there", thing, 1)


#: A question about a part or a side of something: "What do you like about soccer?",
#: "What's your favourite part of the job?". Its answer names the part ("the teamwork")
#: and leaves the whole to the question.
_ASPECT_QUESTION = re.compile(
    # a wh-question after a part: what is liked, favourite, best or worst about or of a whole
    # ("How about a stir-fry?" suggests; it asks after no part)
    r"^(?:so,? |and |ok,? )?(?:what|which)\b[^?]*?\b(?:like|likes|love|loves|enjoy|hate|dislike|"
    r"miss|prefer|favou?rite|best|worst|hardest|least|most)\b[^?]*?"
    r"\b(?:about|(?:part|parts|side|aspect|thing|things) of)\s+(?P<whole>[\w' -]{3,60}?)\W*\?$",
    re.I,
)
#: A definite noun phrase that nothing after it defines: "the teamwork and the competition",
#: not "the way I cook" nor "the feeling of winning" (a clause or a phrase says which).
_BARE_DEFINITE = re.compile(
    # "the most", "the best", "the same" are a degree or a likeness, not a thing
    r"\bthe\s+(?!(?:most|least|best|worst|same)\W*(?:\s+(?:and|or|but)\b|$))"
    r"(?:[a-z-]+\s+)?[a-z-]{3,}(?=\s*(?:[.!,;]|$)|\s+(?:and|or|but|too|so much|a lot)\b)"
)


def bridges(question: str | None, sentence: str) -> bool:
    """Whether `sentence`, answering `question`, names a part of what the question asked
    about without naming the whole: "I love the teamwork and the competition." after "What
    do you like about soccer?" says nothing of soccer, so it is kept with the question. The
    answer to a question about a part is about that part whatever its words ("I like the
    sense of camaraderie", "I get to travel"): only naming the whole makes it stand alone."""
    found = _ASPECT_QUESTION.search(question or "")
    if found is None:
        return False
    whole = [
        w for w in re.findall(r"[a-z]{3,}", found.group("whole").lower()) if w not in STOPWORDS
    ]
    if not whole:
        return False  # "What do you like about it?": the question names no whole either
    said = sentence.lower()
    return not any(re.search(rf"\b{re.escape(w[:5])}", said) for w in whole)


#: "I love the music.", "I like the peace and the quiet.": a verb of liking whose object is
#: nothing but definite nouns with nothing after them to say which ("the beach" of where?
#: "the music" of what?). The definite article presumes the listener knows which: the last
#: turn is where they know it from.
_ONLY_DEFINITE = re.compile(
    r"^I(?:'ve| have)?(?: (?:\w+ly|really|also|just|always|still|do))* "
    r"(?:love|like|enjoy|loved|liked|enjoyed|miss|missed|adore|appreciate|prefer)d? "
    r"the (?:[a-z-]+ ){0,2}?[a-z-]{3,}(?:,? (?:and|or) (?:the )?(?:[a-z-]+ ){0,2}?[a-z-]{3,})*"
    r"(?: (?:too|as well|the most|so much|a lot))?\W*$",
)


def only_definite(antecedent: str | None, sentence: str) -> bool:
    """Whether the sentence likes only things named by a definite article ("I love the
    music") that are a part of what the last turn said ("My favourite film is Amelie."),
    which says which. A question is no such turn, and a noun the last turn said itself ("I
    like the beach." / "I love the beach.") is the same thing, named in full."""
    if not antecedent or antecedent.endswith("?"):
        return False
    found = _ONLY_DEFINITE.match(sentence.strip())
    if found is None:
        return False
    nouns = re.findall(r"\bthe (?:[a-z-]+ ){0,2}?([a-z-]{3,})\b", found.group(0))
    said = antecedent.lower()
    return not any(re.search(rf"\b{re.escape(noun[:5])}", said) for noun in nouns)


def _uncapitalised(head: str) -> str:
    """A sentence's first words as they read inside a sentence: "Rock climbing" is "rock
    climbing" (only its place capitalised it), a name ("Red Rock Canyon", "California") stays."""
    words = head.split()
    common = all(w.islower() for w in words[1:]) and (len(words) > 1 or head.endswith("ing"))
    return head[0].lower() + head[1:] if common else head


@lru_cache(maxsize=256)
def _nearest(text: str) -> tuple[str, list[str]]:
    """The last sentence of `text` with words of its own: small talk and a verdict on what
    was said before it ("That's great!", "Me too!") name nothing, so the one before is read.
    A sentence that leans on one before it ("But I only drink it in the morning") names
    nothing new either. What a reference stands for is in the nearest sentence left, or the
    rules cannot tell:
    "I love Italian food. I've been learning to make pasta." gives "it" nothing it can be
    sure of (the pasta, in words no pattern here reads)."""
    parts = [p.strip() for p in split_sentences(_body(text)) if p.strip()]
    for part in reversed(parts):
        part = _plain(part)
        if (
            not part
            or DEICTIC_SUBJECT.match(part)
            or SMALL_TALK.match(part)
            or len(re.findall(r"[\w']+", part)) < 3
            or _SELF_STATE.match(part)
        ):
            continue
        things = things_named(part)
        if things or conversational(part) != DANGLING:
            return part, things  # (a sentence that leans on one before it names nothing new)
    return "", []


#: "I'm not very good, though.": the speaker and a state, no thing named.
_SELF_STATE = re.compile(
    r"^I(?:'m| am)(?: not)?(?: (?:very|really|so|that|too|pretty|quite))?\s+[a-z-]+"
    r"(?:,? (?:though|too|either))?\W*$",
    re.I,
)


def things_named(text: str) -> list[str]:
    """The noun phrases the rules can see in `text` (a message, or "Name: message"): what
    each sentence likes, does or asks about (`_LIKED`), a favourite, a quoted title or a
    name of several capitalised words; each once."""
    found: list[str] = []
    for part in split_sentences(_body(text)):
        part = _plain(part.strip())
        liked = _LIKED.match(part) or _FAVORITE.match(part)
        named = [liked.group("object").strip(" ,")] if liked else _titles(part)
        subject = _COPULAR_SUBJECT.match(part)
        if subject is not None and not liked:  # "Rock climbing sounds like fun!"
            named.insert(0, _uncapitalised(subject.group("np")))
        # "I love running too": the agreement is no part of the thing
        named = [re.sub(r",?\s+(?:too|as well|either)$", "", n) for n in named]
        for thing in named:
            if _A_DATE.fullmatch(thing):
                continue  # "Our next release is on March 14, and I'm the one cutting it"
            if thing.lower() not in (f.lower() for f in found) and re.search(r"[a-z]", thing):
                found.append(thing)
    return found


#: A date or a day, which a name of capitalised words can be ("March 14", "Friday"): when a
#: thing is, never the thing "it" stands for.
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?"
)
_A_DATE = re.compile(
    rf"(?:(?:on|by|in|until) )?(?:{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?(?:,? \d{{4}})?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)? {_MONTH}(?: \d{{4}})?|{_MONTH}(?: \d{{4}})?|"
    r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?)",
    re.I,
)


#: The subject of a sentence that says what something is or seems ("Rock climbing sounds
#: like fun!", "California is a beautiful state"), when it is no pronoun and nobody's; a
#: singular verb only, since this is what "it" can stand for ("The visuals were amazing"
#: is no "it"), and one subject only ("... and the story was good" names two).
_COPULAR_SUBJECT = re.compile(
    r"^(?!(?:I|I'm|my|it|it's|that|that's|this|they|there|there's|we|you|your|he|she|our|his|"
    r"her|their|what|how|so|and|but)\b)(?P<np>[A-Z][\w'-]*(?: [\w'-]+){0,3}?) "
    r"(?:is|was|looks|sounds|seems)\b(?!.*\b(?:and|but) \w+ (?:is|was|are|were)\b)",
    re.I,
)
#: Verbs whose object can be an activity ("try rock climbing", "love playing chess").
_GERUND_TAKERS = (
    r"(?:try|tried|trying|love|loved|like|liked|enjoy|enjoyed|hate|hated|prefer|preferred|"
    r"miss|missed|start|started|stop|stopped|keep|kept|into|about|of|at)"
)
_SUBJECT_IT = re.compile(r"^It(?:'s| is| was)\b")
#: What "it" announces: an infinitive or a clause a few words after it ("It's hard to say").
#: After a determiner the infinitive belongs to a noun ("It's a great way to relax"): that
#: "it" is a thing said before.
_ANNOUNCED = re.compile(rf"(?!(?:a|an|the|my|one|such a)\s)(?:[\w'-]+\s+){{0,3}}?{_ANNOUNCES}")


#: A sentence that weighs one thing against another names two, though the rules may see only
#: one of them ("try Tailwind instead of Bootstrap": only the name after "of" is read as one).
_ALTERNATIVES = re.compile(
    r"\b(?:instead of|rather than|in place of|compared (?:to|with)|versus|vs\.?|or|over|than)\b",
    re.I,
)


def resolve_from(text: str | None, sentence: str, *, subject: bool = False) -> str | None:
    """The sentence with its "it" replaced by the one thing `text` names, or None when `text`
    names none or several (then which one "it" is, the rules cannot tell). "It" may be the
    object ("I've never seen it") or the subject ("It's a great way to relax" after "I love
    playing ping pong!" is "Playing ping pong is a great way to relax")."""
    nearest, things = _nearest(text) if text else ("", [])
    if _ALTERNATIVES.search(nearest):
        return None  # "Tailwind instead of Bootstrap": two things, whichever one a name shows
    if len(things) != 1 or len(things[0].split()) > 8 or "," in things[0]:
        return None  # none, several, or a list ("camping, fishing and hiking") for one "it"
    thing = things[0]
    opening = _SUBJECT_IT.match(sentence) if subject else None
    if opening is not None:
        rest = sentence[opening.end() :]
        if _ANNOUNCED.match(rest.strip() + " "):
            return None  # "It's hard to say": "it" announces what follows
        verb = "was" if opening.group(0).endswith("was") else "is"
        return f"{thing[0].upper()}{thing[1:]} {verb}{rest}"
    placed = _resolve_there(f"in {thing}", sentence) if thing[:1].isupper() else None
    if placed is not None:
        return placed
    verbal = re.match(r"(?:to \w+|\w+ing)\b", thing) is not None
    if verbal and not re.search(rf"\b{_GERUND_TAKERS}\s+it\b", sentence, re.I):
        return None  # "I play it" is no "I play playing badminton": a verb needs a taker
    return _replace_it(sentence, thing)
