"""Sentences that are about the conversation, not facts about the speaker.

A question, a hypothetical, someone else's words, small talk; a reaction to the last turn
("I'm sorry to hear that"), a promise about the conversation ("I'll have to check it out"),
the listener as the object ("I like your shirt"); and a reference to something the sentence
does not say ("I'm not very good at them", "I've always wanted to"). Each is a named reason a
sentence is skipped, so the report says why.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import STOPWORDS
from .cues import ADVERB_SLOT, CUES, FIRST_PERSON, IMPLICIT_I, RELATIONS, WE
from .sentences import (
    CLOSING,
    QUESTION_START,
    QUOTED_MARK,
    REQUEST_HEAD,
    SHORT_WORDS,
    SINCE_LAST_TALK,
)

#: A subordinate clause before the main one, in a sentence that does not end in "?": "When
#: we're feeling down, it's a way to stay positive", "Any time you need help, just call".
_SUBORDINATE_START = re.compile(
    r"^(?:when|whenever|where|wherever|while|once|any ?time)\b[^?,]*,\s+\S|"
    # ... or with no comma, before the speaker's own clause: "When I was a kid I lived in Rome"
    r"^(?:when|whenever|while|once)\s+(?:I|we|my|our)\b[^?]*?\s(?-i:I|we|my|our)\s+\w+",
    re.I,
)
#: Wishes and plans are goals ("I'd love to"); other conditionals are not facts.
_HYPOTHETICAL = re.compile(
    r"\b(?:if (?:i|we|only)|imagine|suppose|supposing|what if|i wonder|in theory|"
    r"hypothetically|i would(?! love| like)|i'd(?! love| like| rather)|pretend)\b",
    re.I,
)
_REPORTED = re.compile(
    r"^(?:my (?:\w+ ){0,2}|(?:he|she|they|[A-Z][a-z]+) )(?:said|says|told me|thinks|believes|"
    r"mentioned|claims|reckons)\b|"
    # what the speaker was told, not what they know: "I've heard that the people are very
    # friendly", "I read somewhere that nursing school is tough" ("that" opens a clause, not
    # "I heard that song on the radio")
    r"^I(?:'ve| have)? (?:heard|read|been told) (?:somewhere |online )?that "
    r"(?:(?:it|it's|they|they're|he|she|there|people)\b|"
    r"(?:[\w'-]+ ){1,3}(?:is|are|was|were|has|have|can|can't|will|would|gets|makes)\b)",
    re.I,
)
#: "..., I hear" / "..., they say": the speaker passes on what others say.
_HEARSAY = re.compile(r",?\s+(?:I hear|I heard|I'm told|they say|people say)\W*$", re.I)
SMALL_TALK = re.compile(
    r"^(?:thanks|thank you|thx|hey|hi|hello|wow|cool|awesome|great|congrats|congratulations|"
    r"lol|haha|yeah|yep|yes|no|nope|ok|okay|sure|aww|omg|oh|ah|hmm|bye|good night|"
    r"good morning|take care|see you|glad|nice|sounds|same|me too|you too)\b",
    re.I,
)

#: The speaker as the subject, or left out before "can't wait" ("Can't wait to hear about it")
#: and before a stance on what they heard ("Sorry to hear that").
_I_SUBJECT = (
    r"^(?:(?:I|I'm|I am|Im|I've|I have|I'd|I would|I'll|I will)\s+|(?=can't wait|cannot wait)|"
    # the "I'm" of a stance left out, too: "Sorry to hear about the studio", "So glad to see it"
    r"(?=(?:so |really |very )?(?:glad|happy|sorry|thrilled|excited) to (?:hear|see|know)\b))"
    + ADVERB_SLOT
)
#: A stance the speaker takes towards what was just said: "I'm glad you ...", "I'm sorry to
#: hear that", "I bet", "I know what you mean", "I agree". The predicate is a mental state
#: (adjective or verb of knowing, feeling, agreeing) whose complement is the listener, the
#: last turn (that/it/so) or nothing; "I'm happy with my job" (a complement of its own) is a fact.
_STANCE = re.compile(
    _I_SUBJECT + r"(?:so |very |really |pretty |quite )*(?:can |could |do )?"
    r"(?:glad|happy|sorry|sure|excited|thrilled|jealous|envious|impressed|bet|know|agree|"
    r"understand|imagine|see|mean|guess|hope|believe|think|wish|can imagine|can tell|"
    r"can't wait|cannot wait|can relate|can see|appreciate|feel the same)"
    r"(?=\W*$|\s+(?:you|your|that|it|so|to (?:hear|see|know|meet|talk|chat|that|this|it|you)|"
    r"for you|for them|"
    r"what|how|we|"
    r"they|he|she|there|this)\b|[,!.])",
    re.I,
)
#: The two speakers' likeness, or thanks for what the listener said: "We have a lot in common",
#: "I appreciate the vote of confidence".
_MUTUAL = re.compile(
    r"\b(?:have|has|had) (?:\w+ ){0,2}in common\b|"
    r"^(?:I|we)(?:'m| am|'re| are)? (?:really |so |truly )?(?:appreciate|appreciated)\b|"
    # what the listener mentioned, praised by hearsay: "I've heard great things about that
    # book", "... about it": a stance on the last turn, whatever points at it
    r"\bheard (?:so many |a lot of )?(?:good|great|amazing|wonderful|nice) things about\b|"
    # whether the speaker knows a name the last turn said: "I've never heard of them", "I've
    # heard of Metallica", "I've never heard of dog agility classes"
    r"^I(?:'ve| have| had|'d)? (?:never |not |already |actually |definitely )?heard (?:of|about) "
    r"(?:[\w'-]+ ){0,4}[\w'-]+(?: before| though| either| too| yet)?\W*$",
    re.I,
)
#: "I wish I could say the same", "I feel the same way": what is the same is in the last turn.
_THE_SAME = re.compile(
    r"\b(?:say|feel|do|think) the same(?: way| thing)?(?: (?:about|for|of) [\w' ]+)?\W*$", re.I
)
#: The listener as the subject, their state or their acts: "You're welcome to come to my
#: workshop", "You must have been elated". A generic "you" ("You can use coconut oil instead
#: of butter") is advice, and stays a remark.
_LISTENER_SUBJECT = re.compile(
    r"^(?:you(?:'re| are|'ve| have| were|'ll| will| must| did| always| really| so| should|"
    r"'d better| need to| have to| gotta| ought to)|u r)\b",
    re.I,
)
#: What the listener has, as the subject: "Your support means a lot to me", "Maria, your
#: studio will change things for lots of folks". A verdict on, or thanks for, the listener's
#: thing, not a fact about the speaker.
_LISTENER_THING = re.compile(r"^(?:[A-Z][a-z]+,\s+)?(?:with\s+)?your\b", re.I)
#: An imperative to the listener about the conversation itself: "Let me know how it goes",
#: "Tell me more about your trip", "Let's keep chasing our dreams" (the first person plural
#: imperative proposes something to the listener).
_IMPERATIVE = re.compile(
    # also after a condition: "If you ever do, let me know" (not after a fact of the speaker's:
    # "I'm always trying new recipes, so let me know if you want some" keeps the fact)
    r"^(?:(?:if|when|whenever)\b[^,]*,\s*(?:just\s+)?)?"
    # after a word that moves the talk on: "Now tell me more about your cooking", "So tell me"
    r"(?:(?:now|so|ok|okay|well|then|and|oh|hey|please|come on),?\s+)*"
    r"(?:let(?:'s| us)\b|let me know\b|(?:tell|show|send|give|remind|ask|text) me\b|"
    # "call me" with a name is what the speaker wants to be called: the name cue's
    r"call me\b(?!\s+(?-i:[A-Z])))",
    re.I,
)
#: Epistemic "must" whose subject is not the speaker: what the listener's experience must have
#: been ("That must have been tough", "Must be so rewarding to delve into your books", "it
#: must add so much holiday cheer"). "I must have read it ten times", "My dog must weigh forty
#: pounds" are the speaker's own.
_SPECULATION = re.compile(
    r"^(?!(?:(?!\bmust\b)[^,;:])*\b(?:I|we|my|our)\b)(?:[^,;:]*?\s)?must(?:'ve|\s+have)?\s+"
    r"(?!not\b)[a-z]+",
    re.I,
)
#: A verdict on what the last turn said, by how it sounds or looks ("That sounds like it can be
#: a lot of fun", "It looks amazing"), by hearsay ("I've heard that's a tough job"), or by
#: what the speaker could not do ("I don't think I could ever do that").
_VERDICT = re.compile(
    r"^(?:that|this|it|they|those|these)(?:'s| is| are)?\s+(?:really |so |just )?"
    r"(?:sounds?|looks?|seems?)\b|"
    r"^I(?:'ve| have)? heard (?:that )?(?:it's|that's|they're|it is|that is|it was)\b|"
    r"\bI (?:could|would)(?:n't| not| never)(?: ever)? (?:do|handle|manage|imagine) "
    r"(?:that|it|this)\b|"
    r"^I don't think I could (?:ever )?(?:do|handle|manage) (?:that|it|this)\b",
    re.I,
)
_VERDICT_WORDS = ("sound", "look", "seem", "heard", "could", "would")
#: Praise of the listener: "Good on you for going after it", "I'm always so proud of you".
_PRAISE = re.compile(r"\bgood (?:on|for) you\b|\bproud of (?:you|ya)\b", re.I)
#: A stance that opens a clause about the listener: "I'm glad I could meet you", "I'm so
#: proud to be part of the difference you're making", "I'm impressed by how positive you are".
#: Adjectives of feeling towards someone, a closed class.
_STANCE_CLAUSE = re.compile(
    _I_SUBJECT + r"(?:so |very |really |truly |super )*(?:glad|happy|sorry|sure|excited|"
    r"thrilled|bet|hope|proud|impressed|stoked|grateful|thankful|amazed|inspired)\b",
    re.I,
)
#: A promise about the conversation: a future or obligation over "it"/"that" ("I'll have to
#: check it out", "I will definitely try that", "I'll let you know").
_PROMISE = re.compile(
    _I_SUBJECT + r"(?:(?:have|need|got|want) to |gotta |will |should |might |must )?"
    r"(?:\w+ ){1,4}(?:it|that|them|this|you)(?: (?:out|up|sometime|some time|soon|later|too|"
    r"next time|one day|a try|a shot|a go|a look|in mind|into account))*\W*$",
    re.I,
)
#: A future whose object is the listener, or a plan of the two speakers: "I'll let you know",
#: "I will keep you posted", "I'll come over and we can play some games".
_TO_THE_LISTENER = re.compile(
    r"^I(?:'ll| will|'m going to| am going to) (?:[\w']+ ){0,6}?(?:you|your)\b|"
    r"\b(?:and|so|then) we (?:can|could|should) (?!not\b|only\b)|"
    # "We should go hiking together sometime!": an invitation of the two speakers
    r"^we (?:should|could|can|gotta) (?:definitely |totally |really )?(?:\w+ ){1,5}"
    r"(?:together|sometime|some time|one day|someday)\b",
    re.I,
)
_FUTURE_OR_DUTY = re.compile(
    r"^(?:I'll|I will|I'd|I would|I should|I might|I(?:'ll| will)? have to|I need to|"
    r"I gotta|I'm going to|I'm gonna)\b",
    re.I,
)
#: A second-person pronoun: a clause with one is addressed to the listener.
_YOU = re.compile(r"\b(?:you|your|you're|you've|you'd|you'll|yours|yourself|ya|u)\b", re.I)
#: A deictic subject or a pronoun object names something said before, not in the sentence:
#: "That's why I love it", "I'm not very good at them", "I don't have time for it".
DEICTIC_SUBJECT = re.compile(
    # ("these days" is now, not things said before)
    r"^(?:that|this|it|they|those|these(?! days\b)|he|she)"
    r"(?:'s|'re| is| are| was| were| has| have)?\b"
    r"(?!'s \w+ to\b| is \w+ to\b)",
    re.I,
)
PRONOUN_OBJECT = re.compile(
    r"\b(?:it|them|that|this|those|these|one|him|her|(?:been|went|go|live|lived|work|"
    r"worked|moved|stayed|visit|visited|get|got) there)"
    r"(?: (?:too|as well|either|a lot|so much|very much|sometime|anymore|again|before|yet|now|"
    r"all|both|here|though|lol|haha|soon|someday|one day|later|eventually|today|tomorrow))*"
    r"\W*$|\bthem\b|"
    # "it" as an object with only a phrase after it: "I love it for the most part"
    r"\bit(?= (?:for|in|at|on|with|since|before|after|when|because|so much|a lot|every|all|"
    r"too much|more|most|anymore|again|over|than|better|instead)\b)|"
    # "I prefer it to VS Code": compared with something else, "it" is still the thing
    r"\bprefer(?:s|red)? it(?= to\b)",
    re.I,
)

#: A noun phrase before the pronoun can be what it refers to: "My dad was a builder and I
#: learned from him", "I have two dogs and I love them". A quantity ("a lot of") is none.
_ANTECEDENT = re.compile(
    r"\b(?:a|an|the|my|our|his|her|their|two|three|four|five)\s+"
    r"(?!lot\b|bit\b|few\b|little\b|lot of\b)[\w-]{3,}|\b[a-z]\w+ [A-Z][a-z]+"
)
#: "them", "they", "those" need a plural before them: "I have two dogs and I love them", "my
#: kids", "Rome and Paris"; "I've always had a soft spot for them" has none.
_PLURAL_ANTECEDENT = re.compile(
    r"\b(?!(?:this|was|has|is|does|us|yes|always|less|unless|across|perhaps|its|his|hers|"
    r"yours|ours|theirs|whereas|towards|sometimes|as|thus|plus|bus|gas|boss|class|glass|"
    r"business|stress|actress|dress|chess|princess|mess|press)\b)[a-z]{3,}s\b|"
    r"\b(?:people|children|kids|men|women|folks|family|team|parents|friends)\b|"
    r"\b[A-Z][a-z]+ and [A-Z][a-z]+"
)
#: "him", "her", "his" need a person before them: a name, a relative, a person noun.
_PERSON_ANTECEDENT = re.compile(
    rf"(?<!^)(?<![.!?] )\b(?!I\b|I'|My\b)[A-Z][a-z]+|\b(?:{RELATIONS})\b|"
    r"\b(?:man|woman|girl|boy|guy|lady|person|singer|artist|actor|actress|author|writer|"
    r"teacher|coach|doctor|player|band)\b"
)
#: A pronoun that refers to a thing said before, wherever it stands: "I've been there a few
#: times", "I love the challenge of it", "I like being a part of that", "I saw her in
#: concert", "I thought it was really good", "I've only read it once".
_REFERENCE = re.compile(
    r"\b(?:been|went|go|going|live|lived|work|worked|moved|stayed|visit|visited|get|got|be) "
    r"(?P<there>there)\b|"
    r"\b(?:of|about|like|with) (?P<of>it|that|this|them|those|these)"
    r"(?=\s*(?:[.!,;]|$|\s(?:for|when|because|and|but|so|too|as|in|at|on|with|since|anymore|"
    r"again|though|all|yet)\b))|"
    r"\b(?:think|thought|hope|guess|bet|know|knew|felt|feel|heard|hear|say|said) (?:that )?"
    r"(?P<subject>it|they|he|she|that)(?:'s| is| was| were| are| will| would)\b|"
    r"\b(?:see|saw|seen|read|watch|watched|try|tried|love|loved|like|liked|hate|hated|enjoy|"
    r"enjoyed|play|played|visit|visited|buy|bought|use|used|finish|finished|recommend|"
    r"recommended|share|shared|do|did|done) (?P<object>it|them|that)"
    r"(?!\s+(?:I|I'm|my|the|a|an|it|it's|we|he|she|they|you|there|this|his|her|their|our|to|"
    r"is|was|are|were)\b)\b|"
    r"\b(?P<person>him|her|hers|his)\b|"
    r"\b(?P<possessive>their)\b|"
    # "I'm glad to be here", "I'm here on a student visa": the place is the conversation's
    r"\b(?:be|am|'m|is|are|was|were|been|live|lived|moved|came|come) (?P<here>here)\b",
    re.I,
)
#: A bare noun the speaker loves, eats or plays, then a new clause: what a later "it" stands for
#: ("I love sushi and eat it every Friday"). Only after a verb that takes a thing: "I felt
#: liberated and empowered doing it" names none.
_BARE_OBJECT = re.compile(
    r"\bI (?:really |also |just |absolutely )?(?:love|like|enjoy|adore|eat|drink|play|watch|"
    r"read|cook|bake|grow|prefer|hate|miss|collect)\s+"
    r"(?!(?:it|them|that|this|to|a|an|the|my|our|some|so|really|very|being|how|what)\b)"
    r"[a-z][\w-]{2,}(?: [a-z][\w-]+)?,?\s+(?:and|but|so)\s",
    re.I,
)
_PLURALS = {"them", "those", "these", "they", "their"}
_KINDS = ("there", "of", "subject", "object", "person", "possessive", "here")
_PRONOUN_WORD = re.compile(r"\b(?:it|them|that|this|those|these|one|him|her|there)\b", re.I)


def _dangles(sentence: str) -> bool:
    """Whether a pronoun of the sentence refers to something the sentence does not say.

    Each kind of pronoun needs its kind of antecedent before it: a plural for "them", a person
    for "him"/"her", a noun phrase for "it"/"that" (not the one it complements: "the challenge
    of it" has none)."""
    pronoun = PRONOUN_OBJECT.search(sentence) or _REFERENCE.search(sentence)
    if pronoun is None:
        return False
    if pronoun.re is _REFERENCE:
        name = next(n for n in _KINDS if pronoun.group(n))
        word, start = pronoun.group(name).lower(), pronoun.start(name)
    else:  # the pronoun is the match's first word of its kind ("them too", "been there")
        found = _PRONOUN_WORD.search(pronoun.group(0))
        word = found.group(0).lower() if found else ""
        start = pronoun.start() + (found.start() if found else 0)
    before = sentence[:start]
    if word in _PLURALS:
        return not _PLURAL_ANTECEDENT.search(before)
    if word in ("him", "her", "hers", "his"):
        return not _PERSON_ANTECEDENT.search(before)
    if word == "here":
        return not re.search(r"(?<!^)\b(?!I\b)[A-Z][a-z]+", sentence)
    if re.search(r"\b(?:because|instead|out|all) of $", before):
        return True  # "because of it": a cause the sentence does not name
    if re.search(r"\b(?:of|like) $", before):
        # "the challenge of it", "a job like that": what the pronoun complements is none
        before = re.sub(r"(?:\b(?:a|an|the|my|our)\s+)?(?:[\w-]+\s+){0,3}(?:of|like) $", "", before)
    return not (_ANTECEDENT.search(before) or _BARE_OBJECT.search(before))


#: Where a new clause starts: punctuation or a conjunction. A pronoun after one of these is
#: the subject of its own clause ("I was ill last year, and it changed me").
_CLAUSE_BREAK = (
    r"(?:[,;:]|\b(?:and|but|or|so|because|since|when|while|though|although|as|if|until|"
    r"before|after|that|which|who|where|then|once)\b)"
)
#: "It" that points forward, to a clause or an infinitive of the same sentence, refers to
#: nothing before it: "I find it hard to wake up early", "I love it when it snows".
_CATAPHORIC_IT = re.compile(
    r"^it(?:'s| is| was| will be| would be)?\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:to\s+[a-z]+|that|when|whenever|if|how|whether)\b|"
    r"^it(?:'s| is| was)?\s+like\s+[a-z]+ing\b",  # "what's it like being a nurse?"
    re.I,
)
#: What may follow a demonstrative used as a pronoun: the sentence's end, a preposition or
#: conjunction, an adverb, or a phrase of time or frequency ("I read that a few years ago",
#: "I found that in a book"). Anything else makes "that" a determiner or a conjunction.
_AFTER_PRONOUN = re.compile(
    r"^(?:\W*$|[,;:!.]|\s+(?:for|in|at|on|with|from|to|by|about|since|before|after|when|"
    r"because|and|but|so|though|again|too|once|twice|already|yet|anymore|sometimes|often|"
    r"always|online|now|today|a lot|so much|very much|so far|all the time|\w+ly)\b|"
    r"\s+(?:a|one|two|three|four|five|a couple of|a few|many|several|so many)\s+"
    r"(?:\w+ )?(?:times?|years?|months?|weeks?|days?|hours?)\b)",
    re.I,
)
#: The subject and verb that govern an object pronoun (and a preposition after the verb):
#: "my dog would love (it)", "I've never had (it)". A pronoun object is never its own
#: clause's subject ("my dog would love it" does not say what the dog loves), and a noun
#: right before a subject pronoun heads the relative clause the pronoun is in ("the way it
#: flows"): neither can be what the pronoun stands for.
_CLAUSE_END = re.compile(rf"{_CLAUSE_BREAK}\s*$", re.I)
_WORD = rf"(?!{_CLAUSE_BREAK})[\w'-]+"
_GOVERNOR = re.compile(
    rf"(?:\b(?:a|an|the|my|our|his|her|their|your)\s+(?:{_WORD}\s+){{0,2}}?)?{_WORD}\s+"
    r"(?:(?:would|will|could|can|should|might|must|does|did|do|don't|didn't|has|have|had|is|"
    r"are|was|were|really|also|just|always|never|not|even|still|\w+ly)\s+)*"
    rf"(?:{_WORD}\s+)?(?:(?:to|of|about|with|in|on|at|for|from|into|like)\s+)?$",
    re.I,
)
#: A place named before "there": a name, or a preposition of place with its noun.
_PLACE_ANTECEDENT = re.compile(
    r"(?<!^)\b[A-Z][a-z]+|"
    r"\b(?:in|at|from|near|around|visit|visited|visiting)\s+(?:the\s+|a\s+|an\s+|my\s+|"
    r"our\s+)?[\w-]{3,}|\bto\s+(?:the|a|an|my|our)\s+[\w-]{3,}",  # "to spend": no place
)
_LOCATIVE_THERE = re.compile(
    r"(?<!\bhi )(?<!\bhey )(?<!\bhello )(?<=\w )there\b"
    r"(?!'s|'re|\s+(?:is|are|was|were|will|would|has|have|had|seem|seems|used|might|must|may|"
    r"can|could)\b)",
    re.I,
)
#: "One" standing for a noun said before: "I'll try to find a good one", "the one that just
#: came out" (never "one of ...", nor "one" before its noun).
_ANAPHORIC_ONE = re.compile(
    r"\b(?:a|an|the|another|this|that)\s+(?:[a-z-]+\s+){0,2}?one\b"
    r"(?=\W*$|\s*[,;!.]|\s+(?:that|which|who|I|we|is|was|for|in|at|with|from|too|yet)\b)",
    re.I,
)
#: "Those days", "these cookies": a plural demonstrative points at what was said before
#: ("these days" is now: the near demonstrative with a time noun is the present), unless a
#: relative clause or a phrase right after it says which ("those who need it", "those
#: moments that bring us joy", "those close to me").
_PLURAL_DEMONSTRATIVE = re.compile(
    r"\b(?:those\s+|these\s+(?!days\b))(?!are\b|were\b|who\b|whom\b|which\b|that\b|with\b|"
    r"of\b|in\b|close\b)[a-z]{3,}\b(?!\s+(?:[a-z]+\s+)?(?:who|whom|which|that|where|when|of)\b)",
    re.I,
)
#: "Mine", "ours" stand for a noun said before ("I get mine from the market", "Mine is a
#: beagle"), unless "of" makes them a possessor ("a friend of mine").
_POSSESSIVE_PRONOUN = re.compile(r"(?<!\bof )\b(?:mine|ours)\b", re.I)
#: "Both" before a plural noun presumes two things already named ("both instruments"),
#: unless the two follow ("both the violin and the guitar").
_BOTH = re.compile(r"\bboth\s+(?!of\b|the\b|my\b|our\b)[a-z]{3,}s\b(?!\s+and\b)", re.I)
_SUBJECT_WORDS = frozenset("i i'm i've i'd i'll im ive we we're we've you".split())


def _content_before(text: str) -> bool:
    """Whether `text` holds a word that can be what a later clause's subject refers to: a
    word that is no function word and is not the verb right after the speaker's "I"."""
    words = re.findall(r"[A-Za-z][\w'-]*", text)
    for index, word in enumerate(words):
        low = word.lower()
        if low in STOPWORDS or low in _SUBJECT_WORDS or len(low) < 3 or low.endswith("ly"):
            continue
        if index and words[index - 1].lower() in _SUBJECT_WORDS:
            continue  # "I bought": the verb, not a thing
        return True
    return False


def _object_antecedent(before: str, plural: bool) -> bool:
    """Whether the words before an object pronoun hold what it can stand for, once its own
    clause's subject and verb (`_GOVERNOR`) are set aside."""
    head, tail = before[:-60], before[-60:]  # the governor is near: read only the end
    rest = head + _GOVERNOR.sub("", tail)
    if plural:
        return bool(_PLURAL_ANTECEDENT.search(rest))
    return bool(_ANTECEDENT.search(rest) or _BARE_OBJECT.search(before)) or (
        re.search(_CLAUSE_BREAK, rest, re.I) is not None and _content_before(rest)
    )


def _unbound(sentence: str) -> bool:
    """Whether a pronoun anywhere in the sentence stands for something it does not say.

    `_dangles` reads a pronoun where a reference usually sits (the end, after a verb of liking
    or thinking); this reads each one by its grammar: "it"/"them" not at the start is an
    object, or the subject of a clause of its own; "that"/"this" is a pronoun when only an
    adverb or a preposition follows it; "there" is a place when it is not "there is"; "a good
    one" a noun said before; "those days" a time said before."""
    if _POSSESSIVE_PRONOUN.search(sentence):
        return True  # "I get mine from the market": my what?
    one = _ANAPHORIC_ONE.search(sentence)
    if one is not None and not _ANTECEDENT.search(sentence[: one.start()]):
        return True
    if _PLURAL_DEMONSTRATIVE.search(sentence):
        return True
    both = _BOTH.search(sentence)
    if both is not None and not _PLURAL_ANTECEDENT.search(sentence[: both.start()]):
        return True  # "I've played both instruments since I was a kid": which two?
    there = _LOCATIVE_THERE.search(sentence)
    if there is not None and not _PLACE_ANTECEDENT.search(sentence[: there.start()]):
        return True
    for match in re.finditer(r"(?<=[\w,] )(?P<word>it|them|they|that|this)\b", sentence, re.I):
        word, start = match.group("word").lower(), match.start()
        after, before = sentence[match.end() :], sentence[:start]
        if word == "they":  # a subject: "... was when they played at the Garden"
            if _CLAUSE_END.search(before) and not _PLURAL_ANTECEDENT.search(before):
                return True
            continue
        if word in ("that", "this") and not _AFTER_PRONOUN.match(after):
            continue  # a determiner ("that game") or a conjunction ("I know that she ...")
        if word == "it" and _CATAPHORIC_IT.match(sentence[start:]):
            continue
        if word != "them" and _CLAUSE_END.search(before):
            if not _content_before(before):
                return True  # "... and it was amazing" with nothing before it
            continue
        if not _object_antecedent(before, plural=word == "them"):
            return True
    return False


#: Support offered to the listener: "I'm here for you", "I've got your back".
_HERE_FOR_YOU = re.compile(
    r"\bI(?:'m| am) (?:always )?here (?:for|to (?:help|support|listen to|cheer|encourage|"
    r"root for)) you\b|"
    # the listener's company as the speaker's luck: "I'm lucky to have you in my life"
    r"\b(?:lucky|glad|happy|blessed|grateful|great) to have (?:you|ya)\b|"
    r"\bI(?:'ve)? got your back\b|"
    r"\bI(?:'m| am) rooting for you\b",
    re.I,
)

#: An offer or invitation to the listener: "I'd love to show you around", "I'd be happy to
#: help you", "I'd love to hang out sometime". A wish whose object is the listener or the
#: meeting itself is about the conversation, not the speaker's goals.
_OFFER = re.compile(
    _I_SUBJECT + r"(?:(?:love|like|be (?:happy|glad)) to|can|could) "
    r"(?:\w+ )?(?:you|with you|hang out|chat|talk|meet up|get together|catch up)\b",
    re.I,
)

#: The speaker with the listener, closing the sentence: "I'm pumped to collaborate with you",
#: "I'm always around for you", "I'm looking forward to enjoying the moment with you". What
#: the two will do, or what the speaker is for the listener: about the conversation.
_WITH_THE_LISTENER = re.compile(
    _I_SUBJECT + r".*\b(?:with|for) (?:you|ya)(?: (?:guys|all|two|both))?"
    r"(?=\W*$|\s*[,;]|\s+(?:and|too|soon|sometime|again|one day|someday)\b)",
    re.I,
)
#: A wish to have or do what the listener just said, or the listener's coming turn looked
#: forward to: "I wish I could do that", "I wish I could say the same about my job", "I wish
#: I had a big family like that", "I'm looking forward to it". What is wished is in the last
#: turn: a reaction to it, not a goal of the speaker's (`wished_on`).
_WISHED_ON = re.compile(
    _I_SUBJECT + r"(?:wish I (?:could|had|was|were|did|knew|lived)\b(?:\s+[\w']+){0,5}?"
    r"\s+(?:that|it|this|them|those|too|either|go|come|the same(?: [\w' ]+)?|"
    r"like (?:that|this|yours|you))|"
    r"(?:really |so )?looking forward to (?:it|that|this|them))\W*$",
    re.I,
)
#: An offer to the listener, or what the speaker will be to them: "You can play with me",
#: "You can always come visit mine!", "Come on, I'll teach you", "I won't let you down",
#: "We'd love to have you", "I knew you would come around", "If you ever need advice, I'm
#: happy to help", "I'm free this weekend if you want to go together".
_OFFER_TO_YOU = re.compile(
    r"^(?:(?:come on|well|oh|hey|sure|so|and|ok|okay),?\s+)*(?:"
    r"you (?:can|could|may) (?:always |totally |definitely |just |still )?(?:[\w']+ ){0,3}?"
    r"(?:me|my|mine|us|our)\b|"
    r"I(?:'ll| will|'d| would|'m going to) (?:be happy to |love to |gladly |definitely )?"
    r"(?:teach|show|help|take|bring|send|give|call|text|email) you\b|"
    r"I (?:won't|will not|'ll never|will never) let you down\b|"
    r"(?:I|we)(?:'d| would) love to have you\b|"
    r"I knew you\b)|"
    r"\bif you\b.*\b(?:happy|glad) to help\b|\b(?:happy|glad) to help\b.*\bif you\b|"
    r"\bknow where to find me\b|^I(?:'m| am) (?:free|available)\b.*\bif you\b|"
    # the answer to thanks: "No problem! I'm always happy to help."
    r"^I(?:'m| am) (?:always |more than |just |so )?(?:happy|glad) "
    r"(?:to help|I (?:could|can|was able to) help)\W*$",
    re.I,
)
#: A resolve to persevere and nothing else, the answer to the listener's "Keep going!" or
#: "Don't give up!": "I won't give up!", "I'm gonna keep on believing in myself", "I'll keep
#: plugging away and stay optimistic", "Won't let anything hold me back!", "We're in this
#: together!". It says how the speaker takes the encouragement, not what they do: "I'll keep
#: working on my novel" or "I won't give up on learning Spanish" name a thing of theirs and
#: are kept.
_PERSIST = (
    r"(?:keep(?: on)? (?:going|pushing(?: forward| on)?|plugging away|trying|fighting|"
    r"working hard|moving forward|striving|dreaming|at it|it up|"
    r"(?:staying|being) (?:positive|optimistic|focused|strong|motivated)|"
    r"believing in (?:myself|ourselves)|chasing (?:after )?(?:my|our|those) dreams|"
    r"pursuing (?:my|our) (?:goals|dreams))|"
    r"(?:stay|be) (?:positive|optimistic|focused|strong|motivated)|work hard|"
    r"reach (?:my|our) (?:dreams|goals)|make my dreams (?:happen|come true|a reality))"
)
#: ... and its second half: "keep pushing and working hard", "keep going and never quit".
_AND_PERSIST = (
    rf"(?:,?\s+(?:and|&)\s+(?:{_PERSIST}|working hard|pushing|going|"
    r"(?:staying|being) (?:positive|optimistic|focused|strong)|never (?:give up|quit|stop)))*"
)
_RESOLVE = re.compile(
    r"^(?:(?:and|so|yeah|yes|yep|definitely|don't worry|trust me),?\s+)?"
    r"(?:I|we)?(?:'m|'re|\s+am|\s+are)?\s*(?:feeling (?:\w+ )?and\s+)?"
    r"(?:(?:really|definitely|totally|just|still|always|so)\s+)*(?:"
    r"(?:'ll|will|gonna|going to)\s+(?:(?:really|definitely|totally|just|still|"
    rf"always)\s+)*{_PERSIST}{_AND_PERSIST}|"
    r"(?:won't|will not|'ll never|will never|(?:not|never) (?:gonna|going to)|never)\s+"
    r"(?:ever\s+)?(?:(?:give up|quit|stop)(?: on (?:my|our) (?:dreams?|goals?))?|"
    r"let (?:anything|anyone|nothing)(?: or anyone)? (?:stop|hold|get|bring) (?:me|us)"
    rf"(?: back| down)?){_AND_PERSIST}|"
    r"(?:'ll|will) get through (?:this|it)|"
    r"in this together)"
    r"(?:,?\s+(?:no matter what|whatever comes (?:my|our) way|even when it's (?:hard|tough)|"
    r"however hard (?:it gets|things get)|(?:one|every) step at a time))?"
    r"(?:,\s+(?-i:[A-Z][a-z]+)|,?\s+(?:buddy|guys|friend))?\W*$",  # "I won't give up, Gina!"
    re.I,
)
#: The answer to "How are you?": "I'm doing great, thanks".
_PLEASANTRY = re.compile(
    r"^I(?:'m| am) (?:doing )?(?:very |really |pretty |so )?(?:good|great|well|fine|okay|ok|"
    r"alright|all right)\b(?!\s+(?:at|with|in)\b)|"
    # the answer to a welcome: "I'm glad to be here", "Happy to be here"
    r"^(?:I(?:'m| am) )?(?:so |really |just )?(?:glad|happy|excited|thrilled) to be here\W*$",
    re.I,
)
#: A question put off, not answered: "I'm not sure yet", "I'm still thinking about it", "I
#: haven't decided yet", "I have so many favorites". Nothing is said but that the speaker has
#: no answer; "I'm not sure what I want to study" says what they are unsure of, and is kept.
_NO_ANSWER = re.compile(
    r"^(?:(?:it's|it is) (?:hard|tough|difficult) to (?:say|choose|pick)(?: just one)?,?\s*)?"
    r"(?:I(?:'m| am) (?:(?:still )?not (?:really |quite |totally |entirely |too |so |100% )?sure|"
    r"still (?:thinking about it|thinking it over|deciding|undecided|figuring it out))|"
    r"I (?:still )?(?:haven't|have not) (?:really )?(?:decided|made up my mind|thought about it)|"
    r"I have (?:so|too) many(?: favou?rites| to choose from| to pick from)?)"
    r"(?: yet| either| about that| about it| to be honest| honestly)?\W*$",
    re.I,
)
#: News to the speaker, or a polite guess at what the listener said: "I never knew that", "I
#: didn't know that was possible", "I'm sure I will", "I'm sure I'd love it too".
_NEWS_TO_ME = re.compile(
    r"^I (?:never|didn't|did not) (?:knew|know|realized|realised|thought of) (?:that|this|it)"
    r"(?: was (?:possible|a thing|true))?(?: before)?\W*$|"
    # what the listener just told, news to the speaker: "I never knew there were so many
    # different coffee options", "I didn't realize they consulted with historians" (not "I
    # never knew my father", "I didn't know how to swim until I was 30")
    r"^I (?:never|didn't|did not) (?:knew|know|realized|realised|realize|realise) (?:there (?:was|"
    r"were|are|is)\b|they\b|you\b|that (?:there|they|you)\b|so many\b|how (?!to\b)|what (?!I\b))|"
    r"^I had no idea (?:there|they|you|how (?!to\b)|what|that|so many)\b|"
    r"^I(?:'m| am) (?:so |pretty |quite )?sure I(?:'d| would|'ll| will)"
    r"(?: (?:love|like|enjoy|do|be) (?:it|them|that|this|those|there|it there))?"
    r"(?: too| as well| one day| someday)?\W*$",
    re.I,
)
#: The listener, or what is theirs, as the object of the speaker's verb: "I like your shirt",
#: "I'm looking forward to trying your cookies", "I loved meeting you".
_LISTENER_OBJECT = re.compile(
    r"\b(?:like|likes|love|loves|loved|enjoy|enjoyed|admire|appreciate|try|trying|meet|meeting|"
    r"see|seeing|hear|hearing|read|reading|visit|visiting)\s+(?:\w+ )?(?:of |about )?"
    r"(?:your|yours|you)\b",
    re.I,
)
#: Showing the listener something: "Here are some pictures of my dresses".
_PRESENTING = re.compile(r"^(?:here's|here is|here are|check out|look at)\b", re.I)
#: A demonstrative with its noun and nothing after: "I love those breeds", "all of these shows".
DEMONSTRATIVE_END = re.compile(
    r"\b(?:those|these|that|this)\s+(?!(?:week|weekend|year|month|days|morning|evening|afternoon|"
    r"summer|winter|spring|fall|autumn|time|semester|season|term|"
    # the other units of a calendar or a work plan: "this quarter", "this sprint"
    r"quarter|sprint|fortnight|decade|century|night|hour|trimester)\b)\w+"
    # ... or with only an adverb of time or frequency after it: "that album all the time"
    r"(?:\s+(?:too|as well|all the time|a lot|so much|again|anymore|every day|every week|"
    r"sometimes|often|still|now|(?:a few|a couple of|many|several|two|three) times|\w+ly))*"
    r"\W*$",
    re.I,
)

_THANKS = re.compile(r"^(?:thanks|thank you|thx)(?: so much| a lot)?[,!.]*\s+(?=\S)", re.I)

#: A verb phrase left out because the last turn said it: "I've always wanted to", "I hope so",
#: "I would love to", "I really am". What it stands for is in the message before.
_ELLIPSIS = re.compile(
    r"\b(?:to|so|do|does|did|will|would|can|could|should|have|has|am|is|are|was|were)"
    r"(?:\s+(?:too|either|as well))?\W*$|"
    r"^I (?:will|do|did|can|am|have|would|could|should)(?: (?:too|definitely|certainly))?,|"
    # "I'd love to go one day", "I want to try sometime": where, or what, is in the last turn
    r"\b(?:to|could|can|would|will|might|should|'ll|'d) (?-i:go|come|visit|try|see|join|do)"
    r"(?: (?:one day|someday|sometime|some time|soon|again|too|eventually|there|though|"
    r"anyway))*\W*$",
    re.I,
)
#: A question asking what, where or which: its verb leaves out what the wh-word asks for
#: ("Which city do you want to visit?", "Where would you like to go?"), so an ending that
#: would be an ellipsis in a statement is none there. The verb of an ellipsis is lower case
#: (`_ELLIPSIS`): "moving the team to Go" names a language.
_WH_QUESTION = re.compile(r"^(?:what|which|where|who|whom|when|how)\b[^?]*\?\s*$", re.I)


#: Talk about the conversation itself: leave-taking and returning ("I'm going to bed now, talk
#: tomorrow", "I'm back"), an apology for the talk ("sorry for the delay"), a correction of
#: one's own last words ("I meant the second option").
_ABOUT_THE_TALK = re.compile(
    r"^I(?:'m| am) (?:back|off|(?:going|heading|off) (?:to bed|to sleep|off|out))\b"
    r"(?=(?: now)?\s*(?:[,.!]|$))|"
    r"\b(?:talk|speak|chat|ttyl)(?: to you| with you)? (?:tomorrow|later|soon)\b|"
    r"\bsorry (?:for|about) (?:the|my) (?:delay|wait|late reply|slow reply|confusion|typo)\b|"
    r"^(?:no,?\s+)?I meant\b|"
    # leaving the talk: "I should probably get going", "I have to go now", "I gotta run"
    r"^I(?:'d| had|'ve| have)? (?:should|better|have to|need to|gotta|got to|must)"
    r"(?: probably| really| just)? (?:go|get going|be going|run|head out|head off|get off|"
    r"sign off|log off)(?: now| soon| for now| for the night| for today)?\W*$",
    re.I,
)
#: Catching up, and nothing after it ("We haven't talked in a few days", "A lot has been going
#: on with me", "Long time no talk"): about the conversation. With a fact after it, it is
#: residue (`sentences.CATCH_UP`). Read from the sentence's start only.
_CAUGHT_UP = re.compile(
    r"(?:we |I )?(?:haven't|have not|hadn't) (?:talked|spoken|chatted)\b(?:(?!\bbut\b)[^,;])*$|"
    r"(?:(?:so|well|anyway|as for me),?\s+)?(?:a lot|lots(?: of stuff)?|so much|much|"
    r"(?:some |a few )?(?:pretty )?(?:big|cool|interesting|exciting|crazy|wild) (?:things|stuff))"
    r"(?:'s| has| have)?(?: been)? (?:happened|happening|going on)(?: with me| on my end)?"
    rf"(?:\s+{SINCE_LAST_TALK})?\W*$|"
    r"(?:long time no (?:talk|see|chat)|(?:it's |it has )?been a while(?: since \w+ \w+)?)\W*$",
    re.I,
)
#: The talk with the listener as what the speaker enjoys or learns: "I'm enjoying getting to
#: know you", "I've learned a lot about you", "I really enjoyed talking to you". Read only
#: where "you" is.
#: What the speaker is about to tell, not yet told: "There's something I want to tell you",
#: "I have to tell you about this thing with my biz". The telling is the next sentence's.
_TO_TELL_YOU = re.compile(
    r"\bsomething (?:I|to) (?:\w+ ){0,2}(?:tell|show) you\b|"
    r"\b(?:have|had|need|got|gotta|wanted|want) to (?:tell|show) you (?:about )?"
    r"(?:this|something|it|that)\b",
    re.I,
)
_TALK_WITH_YOU = re.compile(
    r"\b(?:talking|chatting|speaking|catching up) (?:to|with) you\b|\bgetting to know you\b|"
    r"\b(?:learn(?:ed|t|ing)?|hear(?:ing)?) (?:all |a lot |more |so much )?about "
    r"(?:you\b|what you)|\bmeeting you\b",
    re.I,
)


@lru_cache(maxsize=4096)
def conversational(sentence: str) -> str | None:
    """Why a sentence is about the conversation rather than a fact, or None.

    Cached: a message's sentences are read again as the antecedent of the reply after it,
    and short answers and remarks are asked twice; the verdict depends on the words only."""
    sentence = CLOSING.sub("", _THANKS.sub("", sentence))
    if _STANCE.search(sentence) or _PLEASANTRY.match(sentence) or _MUTUAL.search(sentence):
        return "a reaction"
    if _STANCE_CLAUSE.search(sentence) and _YOU.search(sentence):
        return "a reaction"  # "I'm glad I could meet you"
    if _NEWS_TO_ME.match(sentence) or _RESOLVE.match(sentence):
        return "a reaction"
    if _NO_ANSWER.match(sentence):
        return "about the conversation"
    lower = sentence.lower()  # the costly patterns are read only where their word is
    if (
        _LISTENER_OBJECT.search(sentence)
        or _PRESENTING.match(sentence)
        or _LISTENER_SUBJECT.match(sentence)
        or _LISTENER_THING.match(sentence)
        or _IMPERATIVE.search(sentence)
        or REQUEST_HEAD.match(sentence)  # "Keep it under 30 minutes per meal, please"
    ):
        return "addressed to the listener"
    if (
        ("must" in lower and _SPECULATION.match(sentence))
        or ((" you" in lower or " ya" in lower) and _PRAISE.search(sentence))
        or (any(w in lower for w in _VERDICT_WORDS) and _VERDICT.search(sentence))
    ):
        return "a reaction"
    if (
        _ABOUT_THE_TALK.search(sentence)
        or _CAUGHT_UP.match(sentence)
        or (" you" in lower and _TALK_WITH_YOU.search(sentence))
        or (" you" in lower and _TO_TELL_YOU.search(sentence))
    ):
        return "about the conversation"
    if _OFFER.search(sentence):
        return "a promise about the conversation"
    if (_FUTURE_OR_DUTY.match(sentence) or re.match(r"(?i)we\b", sentence)) and (
        _PROMISE.search(sentence) or _TO_THE_LISTENER.search(sentence)
    ):
        return "a promise about the conversation"
    if ("you" in lower or "find me" in lower or "help" in lower) and _OFFER_TO_YOU.search(sentence):
        return "addressed to the listener"
    if _YOU.search(sentence) and _HERE_FOR_YOU.search(sentence):
        return "a reaction"
    if _WITH_THE_LISTENER.search(sentence):
        return "a promise about the conversation"
    if (
        DEICTIC_SUBJECT.match(sentence)
        or DEMONSTRATIVE_END.search(sentence)
        or (_ELLIPSIS.search(sentence) and not _WH_QUESTION.match(sentence))
        or _THE_SAME.search(sentence)
    ):
        return "a reference to something not said"
    if _dangles(sentence) or _unbound(sentence):
        return "a reference to something not said"
    return None


def wished_on(sentence: str) -> bool:
    """A reference to the last turn that only reacts to it: a wish for what the listener has or
    does ("I wish I could do that") or looking forward to it. Its reason is still a reference
    (`DANGLING`), but kept with the last turn it would say nothing of the speaker: "Replying to
    'I like to make time stop.', Alex said: 'I wish I could do that.'"."""
    lower = sentence.lower()
    return ("wish" in lower or "forward" in lower) and _WISHED_ON.match(sentence) is not None


#: A template's slot left unfilled, "[name]", "[user 1's hometown]", "(your name)", or a stage
#: direction about the speakers, "[User 1 and User 2 keep talking.]": it stands for words that
#: were never said, so "My name is [user 2's name]" names no one (it filled the name slot). A
#: link's text ("[Obsidian](https://...)") and a redaction marker are no such slot.
_PLACEHOLDER = re.compile(
    r"\[(?!REDACTED )(?=[^\]\[]{0,60}\b(?:name|user ?\d\w*|your|my|location|hometown|city|"
    r"town|place|date|age|job|company|school|number)\b)[^\]\[]{1,80}\](?!\()|"
    r"\((?:name|your name|my name|first name|user ?\d'?s? name)\)|"
    # a stage direction in parentheses: "(Later, user 1 is up in the cloud with user 2.)"
    r"\((?=[^()]{0,100}\buser ?\d)[^()]{1,120}\)",
    re.I,
)


def skip_reason(sentence: str) -> str | None:
    stripped = sentence.strip()
    if stripped.endswith("?") or (
        QUESTION_START.match(stripped) and not _SUBORDINATE_START.match(stripped)
    ):
        return "a question"
    if "[REDACTED " in stripped:
        # The secret's own clause (`sentences.without_secrets` cut it from any fact beside
        # it): a redaction marker is never a fact, and the secret is never stored.
        return "contains a secret"
    if ("[" in stripped or "(" in stripped) and _PLACEHOLDER.search(stripped):
        return "a placeholder for words not said"
    if _REPORTED.match(stripped) or _HEARSAY.search(stripped):
        return "someone else's words"
    if _HYPOTHETICAL.search(stripped):
        return "hypothetical"
    if not (FIRST_PERSON.search(stripped) or WE.search(stripped) or IMPLICIT_I.match(stripped)):
        return "not about the speaker"
    if QUOTED_MARK in stripped:
        return "someone else's words"
    words = re.findall(r"[\w']+", stripped)
    if len(words) < 4 or (SMALL_TALK.match(stripped) and len(words) < 8):
        return "small talk"
    return conversational(stripped)


#: A remark needs this many words: shorter ones are reactions more often than content.
REMARK_WORDS = 10


def is_remark(sentence: str) -> bool:
    """A sentence worth keeping as something the person said: long enough to carry content."""
    words = re.findall(r"[\w']+", sentence)
    return len(words) >= REMARK_WORDS and not SMALL_TALK.match(sentence)


def about_the_listener(remark: str) -> bool:
    """Whether a remark (a sentence with nothing of its speaker: no "I", "my", "we") speaks of
    the listener instead: praise, advice or a comment on their life ("It's great that you have
    a passion that helps you grow", "Combining your two interests into a store is super cool",
    "Make sure you take care of yourself"). Said unasked, it is a reaction to them, not a fact
    of the speaker's; as the answer to a question put to the speaker it is what they were
    asked for ("Any book for my trip?" / "It's a book that'll take you to another world")."""
    return bool(_YOU.search(remark))


DANGLING = "a reference to something not said"


#: Words that answer without content: "Of course!", "Sure, definitely.", "Pretty good."
_BARE_ANSWER = frozenset(
    "course definitely absolutely sure certainly maybe probably totally exactly indeed nope "
    "right true agreed lol haha sounds good great cool nice awesome pretty fine "
    # laughter, however it is spelt ("Ha, ha!", "Hehe"), answers nothing either
    "ha hah hahaha he hehe heh lmao rofl".split()
)


#: A reply that names a move in the talk, not a thing: "quick question", "a small favour".
_SPEECH_ACT = re.compile(
    r"^(?:[\w'-]+ ){0,2}(?:question|request|favou?r|follow-up|query|comment)s?"
    r"\W*$",
    re.I,
)


def is_answer(sentence: str) -> bool:
    """A short reply that answers with content ("By April 1.", "Definitely Star Wars!"), not
    a bare yes, "of course", thanks or reaction."""
    words = re.findall(r"[\w']+", sentence)
    if len(words) < 2 or sentence.endswith("?") or conversational(sentence) is not None:
        return False
    if SMALL_TALK.match(sentence) and len(words) < 4:
        return False
    if _SPEECH_ACT.match(sentence):
        return False  # "Quick question": the reply announces what comes, it answers nothing
    return any(w.lower() not in STOPWORDS and w.lower() not in _BARE_ANSWER for w in words)


def short_fact(sentence: str) -> bool:
    """A short sentence that still states something: a typed cue matches it, and it is not a
    reaction ("Wow, I love that!")."""
    if SMALL_TALK.match(sentence) or re.search(r"\b(?:that|this|it)\W*$", sentence, re.I):
        return False
    if conversational(sentence) is not None:
        return False  # "I hope so.": short, and it says nothing without the last turn
    return any(cue.pattern.search(sentence) for cue in CUES)


def is_small_talk(sentence: str) -> bool:
    """Short pleasantries: what only the weak rule would take, and should not."""
    words = re.findall(r"[\w']+", sentence)
    return len(words) < SHORT_WORDS or (bool(SMALL_TALK.match(sentence)) and len(words) < 8)
