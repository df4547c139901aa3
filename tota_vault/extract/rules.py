"""The offline default extractor: rules over a person's own sentences. No model, no network.

For each message a person wrote (never the assistant's), the text is cleaned of code, quotes
and block quotes, split into sentences, and each sentence is either skipped with a reason
(a question, a hypothetical, someone else's words, small talk, a secret, nothing about the
speaker) or matched against typed cues ("my name is", "I prefer", "I'm working on", "we
decided", "I can't", "my sister", "yesterday I ..."). A matching sentence becomes a candidate:
rewritten about its subject ("Caroline went to a support group on 7 May 2023", or for the
person tota serves, "Prefers Neovim over VS Code."), with relative dates made absolute.

A sentence about the conversation rather than the speaker is skipped too: a reaction ("I'm
sure you'd like it"), a promise or an offer ("I'll have to check it out"), the listener's
things as the object. A sentence that leans on something it does not say ("I have two of
them", "I've always wanted to") is kept with its antecedent, the question or statement it
replies to or the speaker's own statement before it, or skipped; a short answer ("By April
1.") is learned with its question. People the speaker names as theirs ("my son Theo") make
later sentences about them relationship memories, and "he"/"she" after exactly one of them
is resolved.

The rules are deliberately plain: a table of cues, each with its type, an optional conflict
key and a strength. `docs/learning.md` lists them and the statement style; the grammar they
rely on (abbreviations, emphatic "do", -ly adverbs, verbs whose past is their present) is
handled where it arises. `tests/test_rules.py` holds the examples.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..model import Evidence, MemoryType
from .base import Candidate, Skip
from .dates import format_day, resolve_dates
from .messages import Message
from .secrets import find_secrets, is_only_secret, redact

__all__ = ["RuleExtractor", "message_quote", "third_person"]

T = MemoryType

# --- cleaning and splitting -------------------------------------------------------------------

#: Code is never a statement about the person: fenced blocks, inline code, indented blocks.
_FENCED = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_INDENTED = re.compile(r"^(?: {4}|\t).*$", re.M)
#: Quoted words are someone's words, not the speaker's statement; block quotes too.
_QUOTED = re.compile(r"\"[^\"\n]{3,}\"|“[^”\n]{3,}”|«[^»\n]{3,}»")
_BLOCKQUOTE = re.compile(r"^\s*>.*$", re.M)
#: A new first-person clause inside a sentence: ", and I", "; I", " but my".
_CLAUSE = re.compile(
    r"(?:,|;)?\s+(?:and|but|while|plus)\s+(?=(?:I|I'm|I've|my|My)\b)|;\s+(?=I\b)|"
    # a named person as the subject of a clause of their own: "..., and Ana is allergic to nuts"
    r"(?:,)?\s+and\s+(?=[A-Z][a-z]+ (?:is|has|was|loves|likes|hates|can't|doesn't|needs)\b)"
)
#: Words that open a spoken sentence and carry nothing: "Actually, I live in Lisbon".
_FILLER = re.compile(
    r"^(?:(?:actually|well|so|oh|anyway|anyways|btw|by the way|also|and|but|yeah|yes|um|uh|"
    r"you know|honestly|basically|okay|ok|fyi|plus)\b[,!]?\s*)+",
    re.I,
)
#: A greeting before a statement is residue: "Hi, I'm planning a trip" is "I'm planning a trip".
_GREETING = re.compile(
    r"^(?:hi|hey|hello|hiya|heya|good (?:morning|afternoon|evening))"
    r"(?: so much| a lot)?(?: there| all| everyone| [A-Z][\w'-]+)?[,!.]*\s+(?=\S)",
    re.I,
)
#: A verdict on the last turn before a statement is residue too: "That's cool, I like jazz".
_VERDICT = re.compile(
    r"^(?:that's|that is|that sounds|sounds|it's|how|what a|oh)\s+(?:so |really |very |pretty )?"
    r"(?:cool|great|awesome|nice|amazing|interesting|funny|sweet|wonderful|fun|good|neat|"
    r"fantastic|lovely|exciting|too bad|sad|terrible|a shame|crazy|wild|impressive)"
    r"(?: to hear)?[,!]+\s+(?=\S)",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=[A-Z0-9\"'(])|\n+")
#: A period that ends an abbreviation or an initial ends no sentence: "Dr. Okafor",
#: "Prof. Lindqvist", "F. Scott Fitzgerald", "e.g. Rust". Titles and Latin abbreviations are a
#: closed class of English; an initial is one capital letter after a space.
_ABBREVIATION = re.compile(
    r"(?:\b(?:Dr|Prof|Mr|Mrs|Ms|Mx|St|Sr|Jr|Mt|Ft|Gen|Col|Capt|Lt|Sgt|Rev|Hon|vs|etc|approx|"
    r"e\.g|i\.e|cf|Inc|Ltd|Co)|(?<![\w.])[A-HJ-Z])\.$"  # "I." ends "So do I."
)

# --- sentence filters -------------------------------------------------------------------------

_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|Im|Ive)\b|\b(?:my|me|mine|myself)\b", re.I)
_I_WORD = re.compile(r"\bI(?:'m|'ve|'d|'ll)?\b")
_WE = re.compile(r"\b(?:we|we're|we've|our|us)\b", re.I)
#: Chat drops the "I": "Just got some new shoes", "Researching adoption agencies", "Gotta
#: make time to dance" are the speaker's own statements.
_IMPLICIT_I = re.compile(
    r"^(?:just |finally |still |been |gotta |gonna |recently |also )?"
    r"(?:got|went|finished|started|bought|signed|made|took|tried|visited|joined|adopted|"
    r"researching|working|looking|planning|thinking|learning|taking|reading|writing|painting|"
    r"training|saving|hoping|trying|getting|having|building|making|doing|loving|enjoying|"
    r"gotta|gonna)\b",
    re.I,
)
_QUESTION_START = re.compile(
    r"^(?:what|how|why|when|where|who|whom|whose|which|do|does|did|are|is|was|were|can|could|"
    r"would|should|shall|will|have|has|any|anything|wanna)\b",
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
    r"mentioned|claims|reckons)\b",
    re.I,
)
#: "..., I hear" / "..., they say": the speaker passes on what others say.
_HEARSAY = re.compile(r",?\s+(?:I hear|I heard|I'm told|they say|people say)\W*$", re.I)
_SMALL_TALK = re.compile(
    r"^(?:thanks|thank you|thx|hey|hi|hello|wow|cool|awesome|great|congrats|congratulations|"
    r"lol|haha|yeah|yep|yes|no|nope|ok|okay|sure|aww|omg|oh|ah|hmm|bye|good night|"
    r"good morning|take care|see you|glad|nice|sounds|same|me too|you too)\b",
    re.I,
)
_HEDGES = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|i think|i guess|i suppose|kind of|kinda|sort of|"
    r"sorta|not sure|might|may be|i believe|seems)\b",
    re.I,
)
_EMPHASIS = re.compile(
    r"\b(?:always|never|must|absolutely|definitely|really|truly|seriously|hate|love|"
    r"can't stand|non-negotiable|no matter what)\b|!",
    re.I,
)
_TEMPORARY = re.compile(
    r"\b(?:right now|at the moment|currently|this week|today|tonight|for now|these days|"
    r"lately)\b",
    re.I,
)

# --- typed cues -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cue:
    """One rule: where it matches a sentence, the sentence is a memory of `type`."""

    name: str
    type: MemoryType
    pattern: re.Pattern[str]
    strength: float
    key: str | None = None  # a key template; {1} is the pattern's first group, normalised


#: Adverbs a person puts between "I" and the verb: "I still live in Porto", "I'm currently
#: working on". Every cue allows any number of them there.
_ADVERB_SLOT = (
    r"(?:(?:still|also|currently|really|just|now|actually|totally|absolutely|definitely|"
    r"usually|always|often|recently|finally|mostly|kinda|even|already|honestly|"
    r"probably|maybe|truly|seriously|"
    r"(?!(?:apply|reply|rely|supply|multiply|comply|imply|fly|ally)\b)[a-z]{2,}ly) )*"
)


def _cue(
    name: str, mtype: MemoryType, pattern: str, strength: float, key: str | None = None
) -> Cue:
    pattern = pattern.replace(r"\bI ", r"\bI " + _ADVERB_SLOT)
    pattern = pattern.replace(r"\bI(?:'m| am) ", r"\bI(?:'m| am) " + _ADVERB_SLOT)
    pattern = pattern.replace(r"\bwe ", r"\bwe " + _ADVERB_SLOT)
    return Cue(name, mtype, re.compile(pattern, re.I), strength, key)


_JOBS = (
    r"engineer|developer|programmer|teacher|nurse|doctor|student|designer|writer|author|"
    r"artist|musician|manager|lawyer|chef|cook|scientist|researcher|counselor|counsellor|"
    r"consultant|therapist|accountant|architect|photographer|painter|dancer|singer|"
    r"entrepreneur|founder|freelancer|pilot|firefighter|officer|veteran|mechanic|"
    r"electrician|carpenter|farmer|pharmacist|dentist|vet|veterinarian|analyst|"
    r"professor|lecturer|coach|trainer|athlete|player|editor|journalist|baker|barista|"
    r"social worker|mom|mum|dad|mother|father|parent|retiree|intern"
)
_RELATIONS = (
    r"wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|spouse|mom|mum|mother|dad|father|"
    r"parents|sister|brother|siblings?|son|daughter|kids|children|child|baby|grandma|"
    r"grandpa|grandmother|grandfather|grandparents|aunt|uncle|cousin|niece|nephew|friend|"
    r"friends|best friend|bff|boss|manager|colleague|coworker|co-worker|team|teammate|"
    r"mentor|neighbou?r|roommate|dog|cat|puppy|kitten|pet|pets|"
    # the people of a person's working and studying life, and step- and grand- kin
    r"advisor|adviser|supervisor|tutor|therapist|doctor|classmate|landlord|"
    r"step(?:mom|mum|dad|mother|father|son|daughter|sister|brother)|grandson|granddaughter|"
    r"grandkids|grandchildren|twins|in-laws"
)

#: Ordered: the first cue that matches decides the type. Strength 0.9 is an explicit statement
#: of a durable fact, 0.75-0.85 a clear cue, 0.6 a weaker one (stored unless hedged).
CUES: tuple[Cue, ...] = (
    _cue(
        "name",
        T.IDENTITY,
        r"\bmy name(?:'s| is)\s+([A-Z][\w'-]+)|\bcall me\s+([A-Z][\w'-]+)|"
        r"\bI(?:'m| am) called\s+([A-Z][\w'-]+)",
        0.9,
        "identity/name",
    ),
    _cue(
        "age",
        T.IDENTITY,
        r"\bI(?:'m| am)\s+(\d{1,3})(?: years? old|\b(?!\s*(?:%|km|mi|kg|lb)))",
        0.85,
        "identity/age",
    ),
    _cue(
        "location",
        T.IDENTITY,
        r"\bI (?:live|am living|'m living) in\s+|\bI(?:'m| am) based in\s+|"
        r"\bI (?:just )?moved to\s+|\bI(?:'ve| have) (?:just )?moved to\s+|"
        # the user's household: "we live in Halifax" (inferred: the user is implied)
        r"\bwe (?:live|are living|'re living) in\s+|\bwe(?:'re| are) based in\s+|"
        r"\bwe (?:just )?moved to\s+|\bwe(?:'ve| have) (?:just )?moved to\s+",
        0.9,
        "identity/location",
    ),
    _cue(
        "origin",
        T.IDENTITY,
        r"\bI(?:'m| am) (?:originally )?from\s+[A-Z]|\bI grew up in\s+|"
        r"\bI was born in\s+",
        0.85,
        "identity/origin",
    ),
    _cue(
        "employer",
        T.IDENTITY,
        r"\bI (?:work|am working|'m working) (?:at|for)\s+[A-Z]|"
        r"\bI(?:'ve| have) (?:just )?(?:started|joined) (?:working )?at\s+[A-Z]",
        0.85,
        "identity/employer",
    ),
    _cue(
        "role",
        T.IDENTITY,
        rf"\bI (?:work|am working|'m working) as an?\s+|"
        rf"\bI(?:'m| am) (?:a|an)\s+(?:[\w'-]+\s+){{0,3}}(?:{_JOBS})\b",
        0.85,
    ),
    _cue(
        "diet",
        T.IDENTITY,
        r"\bI(?:'m| am) (?:a |an )?(?:strict )?(vegan|vegetarian|pescatarian|pescetarian|"
        r"flexitarian)\b|\bI (?:eat|follow|keep) (?:a |an )?(?:strict(?:ly)? )?"
        r"(vegan|vegetarian|pescatarian|keto|paleo|halal|kosher|gluten-free)\b",
        0.85,
        "identity/diet",
    ),
    _cue(
        "identity",
        T.IDENTITY,
        r"\bI(?:'m| am) (?:a |an )?(?:transgender|trans|gay|lesbian|"
        r"bisexual|queer|nonbinary|non-binary|christian|muslim|jewish|hindu|buddhist|atheist|"
        r"vegan|vegetarian|introvert|extrovert|single|married|divorced|retired|pregnant)\b|"
        r"\bI (?:speak|studied|graduated|majored)\b|\bmy (?:degree|major|background)\b",
        0.8,
    ),
    _cue(
        "allergy",
        T.CONSTRAINT,
        r"\bI(?:'m| am) allergic to\b|\bI(?:'m| am) (?:\w+ )?intolerant\b|"
        r"\bI (?:can't|cannot|can not|don't|do not|never) (?:eat|drink)\b|"
        r"\bI (?:can't|cannot|can not) have\b",  # "I don't have time" is possession
        0.9,
    ),
    _cue(
        "constraint",
        T.CONSTRAINT,
        r"\bI (?:can't|cannot|can not|mustn't)\b|\bI(?:'m| am) not allowed to\b|"
        r"\bI (?:have to|must|need to)\b|\bmy (?:budget|deadline|limit)\b|"
        r"\bI only have\b|\bnon-negotiable\b|"
        # the constraints of the user's team or family: "we can't ship copyleft code"
        r"\bwe (?:can't|cannot|can not|mustn't|have to|must|need to|only have)\b|"
        r"\bwe(?:'re| are) not (?:allowed|permitted) to\b|"
        r"\bour (?:budget|deadline|limit|policy|rules?)\b",
        0.8,
    ),
    _cue(
        "decision",
        T.DECISION,
        r"\b(?:I|we)(?:'ve| have)? (?:just )?(?:decided|chose|chosen|"
        r"settled on|opted|picked|went with|switched to|committed to)\b|\b(?:I|we)(?:'m| am|'re| "
        r"are) going (?:to go )?with\b|\bmy decision\b",
        0.85,
    ),
    _cue(
        "favorite",
        T.PREFERENCE,
        r"\bmy (?:all-time |absolute )?favou?rite\s+([\w ]{2,30}?)\s+"
        r"(?:is|are|was|has to be)\b",
        0.9,
        "preference/favorite-{1}",
    ),
    _cue(
        "prefer",
        T.PREFERENCE,
        r"\bI (?:much |really |strongly )?prefer\b|\bI(?:'d| would) "
        r"rather\b|\bI(?:'m| am) (?:a (?:big |huge )?fan of|into|keen on|passionate about|"
        r"obsessed with|crazy about)\b",
        0.85,
    ),
    _cue(
        "like",
        T.PREFERENCE,
        r"\bI (?:really |absolutely |just |also |still )?(?:love|like|"
        r"enjoy|adore|hate|dislike|detest|can't stand|don't like|do not like)\b",
        0.75,
    ),
    _cue(
        "goal",
        T.GOAL,
        r"\bI (?:want|wanna|hope|plan|aim|intend)\b|"
        r"\bI(?:'m| am) (?:planning|hoping|aiming|trying|saving|determined)\b|"
        r"\bwe(?:'re| are) (?:planning|hoping|aiming|saving)\b|"
        r"\bI(?:'m| am) (?:training|preparing|practi[cs]ing|studying) for\b|"
        r"\bI(?:'m| am) (?:learning|studying)\s+(?!about\b)\w|"
        r"\bI(?:'ve| have) (?:always |long )?(?:wanted|dreamed|dreamt|hoped) (?:to|of)\b|"
        r"\bI(?:'d| would) (?:love|like) to\b|"
        r"\bmy (?:goal|dream|plan|aim|ambition|resolution)\b|\bI(?:'m| am) (?:going to|gonna) "
        r"(?!go with)\b|\bI(?:'m| am) thinking (?:of|about)\b|\b(?:gonna|going to) "
        r"(?:start|try|learn|build|open|run|finish|continue)\b",
        0.75,
    ),
    _cue(
        "project",
        T.PROJECT,
        r"\b(?:I|we)(?:'m| am|'re| are) (?:currently |still )?(?:working "
        r"on|building|developing|writing|making|creating|designing|organi[sz]ing|launching|"
        r"running|starting|opening|setting up)\b|\bmy (?:project|business|startup|company|"
        r"store|shop|studio|book|novel|blog|podcast|channel|app|website|band)\b|"
        r"\b(?:I|we) (?:just )?(?:launched|started|founded|opened|released|published)\b",
        0.75,
    ),
    _cue(
        "habit",
        T.HABIT,
        r"\bI (?:usually|always|often|normally|typically|regularly|tend to|"
        r"never miss|practice|practise)\b|"
        r"\bwe (?:usually|always|often|normally|typically|regularly)\b|"
        r"\bevery (?:day|morning|evening|night|week|weekend|"
        r"month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:once|twice|"
        r"three times) a (?:day|week|month|year)\b|\bI(?:'ve| have) been (?:\w+ing)\b",
        0.75,
    ),
    _cue(
        "relationship",
        T.RELATIONSHIP,
        rf"\bmy (?:(?:\w+|little|older|younger|big) )?"
        rf"(?:{_RELATIONS})\b|\bI(?:'m| am) (?:married|engaged|dating)\b|\bI have (?:\w+ )?"
        rf"(?:kids|children|sons|daughters|siblings|sisters|brothers|a son|a daughter|"
        rf"a sister|a brother|a dog|a cat|pets?)\b",
        0.75,
    ),
    _cue(
        "episode",
        T.EPISODE,
        r"\b(?:I|we)(?:'ve| have)? (?:just |finally |recently |also )?"
        r"(?:went|visited|attended|travel(?:l)?ed|ran|won|lost|got|received|finished|completed|"
        r"graduated|met|saw|watched|read|bought|adopted|painted|wrote|made|took|joined|"
        r"celebrated|organi[sz]ed|hosted|volunteered|performed|played|had|did|tried|learned|"
        r"learnt|started|quit|left|returned|came back|signed up|passed|failed|broke|moved|"
        r"gave|donated|helped|built|created|found|discovered|spent|camped|hiked|climbed|"
        r"swam|cooked|baked|drew|sang|danced|competed|studied|taught|raised)\b",
        0.7,
    ),
)

# --- third person -----------------------------------------------------------------------------

_IRREGULAR = {"am": "is", "have": "has", "do": "does", "go": "goes", "be": "is", "'m": "is"}
_INVARIANT = {
    "can", "could", "will", "would", "should", "must", "might", "may", "shall", "can't",
    "couldn't", "won't", "wouldn't", "shouldn't", "didn't", "was", "wasn't", "had", "hadn't",
    "were", "are",  # after "my sister and I": the verb agrees with both
    "used", "ought", "gotta", "gonna", "wanna",
}  # fmt: skip
_ADVERBS = {
    "really", "also", "just", "still", "always", "never", "usually", "often", "sometimes",
    "absolutely", "totally", "finally", "recently", "actually", "even", "only", "already",
    "definitely", "truly", "honestly", "rarely", "normally", "typically", "regularly",
    "constantly", "mostly", "much", "strongly", "kinda", "kind", "sort", "certainly", "now",
    "currently", "maybe", "probably", "perhaps", "possibly", "literally", "seriously", "once",
    "barely", "hardly", "almost", "generally", "occasionally", "mainly",
}  # fmt: skip
_PAST_IRREGULAR = {
    "went", "got", "made", "took", "saw", "ran", "won", "lost", "met", "read", "bought", "wrote",
    "had", "did", "left", "gave", "found", "spent", "swam", "drew", "sang", "taught", "felt",
    "thought", "came", "began", "became", "knew", "heard", "kept", "told", "said", "sold",
    "brought", "caught", "fell", "flew", "forgot", "grew", "held", "led", "put", "set", "sat",
    "stood", "understood", "woke", "wore", "ate", "drank", "drove", "rode", "chose",
    "broke", "built", "sent", "paid", "meant", "slept", "quit", "hit", "cut", "let", "hurt",
}  # fmt: skip


#: Verbs whose past is their present ("I read", "I put"): a habitual sentence ("every night",
#: "usually") is the present, so it is conjugated; otherwise the past is kept.
_SAME_PAST = {"read", "put", "set", "cut", "let", "hit", "hurt", "quit"}
#: "reread", "proofread", "upset": a prefixed verb inflects as its stem does.
_PREFIXES = {"re", "proof", "mis", "up", "in", "out", "over", "under", "pre", "off"}
_HABITUAL = re.compile(
    r"\b(?:every|each|usually|always|often|daily|weekly|nightly|normally|regularly|"
    r"sometimes|typically|whenever|before bed|at night)\b|\bon \w+days\b",
    re.I,
)


#: Present verbs that end in "ed" like a past: "I need to" is "needs to", not "need to".
_PRESENT_EED = {"need", "feed", "bleed", "breed", "heed", "speed", "succeed", "proceed", "exceed"}


def _conjugate(word: str, habitual: bool = False) -> str:
    """The third-person present of a verb that followed "I" (past forms stay as they are)."""
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower == "don't":
        return "doesn't"
    same_past = any(
        lower == verb or (lower.endswith(verb) and lower[: -len(verb)] in _PREFIXES)
        for verb in _SAME_PAST
    )
    if same_past:
        return word + "s" if habitual else word
    past = lower.endswith("ed") and lower not in _PRESENT_EED
    if lower in _INVARIANT or lower in _PAST_IRREGULAR or past or "'" in lower:
        return word
    if re.search(r"(?:s|sh|ch|x|z|o)$", lower):
        return word + "es"
    if re.search(r"[^aeiou]y$", lower):
        return word[:-1] + "ies"
    return word + "s"


#: Words in -ly are adverbs ("I especially love"), but for these verbs.
_LY_VERBS = ("apply", "reply", "rely", "supply", "multiply", "comply", "imply", "fly", "ally")
_LY_ADVERB = r"(?!(?:" + "|".join(_LY_VERBS) + r")\b)[a-z]{2,}ly"


def _is_adverb(word: str) -> bool:
    """An adverb between "I" and the verb: a known one, or a word in -ly that is no verb."""
    lower = word.lower()
    return lower in _ADVERBS or (re.fullmatch(_LY_ADVERB, lower) is not None)


def _verb_after_i(match: re.Match[str], subject: str, habitual: bool = False) -> str:
    words = match.group(1).split(" ")
    out = []
    conjugated = False
    for word in words:
        if not conjugated and not _is_adverb(word):
            out.append(_conjugate(word, habitual))
            conjugated = True
        else:
            out.append(word)
    return f"{subject} " + " ".join(out)


_HEDGE_FRAME = re.compile(
    r"^(?:I think|I guess|I suppose|I believe|I feel like|maybe)\s+(?=\w)", re.I
)


def third_person(sentence: str, subject: str) -> str:
    """Rewrite a first-person sentence about `subject` ("Caroline", or "the user").

    "I'm keen on counseling" -> "Caroline is keen on counseling"; "my kids" -> "Caroline's
    kids"; for the user, a leading "The user prefers" becomes "Prefers", as notes read.
    """
    s = subject
    # A quoted title is kept as written: "Who Moved My Cheese?" is not the subject's cheese.
    titles: list[str] = []

    def hold(match: re.Match[str]) -> str:
        titles.append(match.group(0))
        return f"\ue000{len(titles) - 1}\ue001"

    sentence = _QUOTED.sub(hold, sentence)
    # A hedge is scored (the candidate is `hedged`), not repeated about the subject.
    text = _HEDGE_FRAME.sub("", sentence).strip()
    text = re.sub(r",?\s+(?:I guess|I think|I suppose|I believe)\s*(?=[.!]?$)", "", text)
    # "too" and "as well" point at the other speaker ("I love hiking too"): the fact stands
    # without them.
    text = re.sub(r",?\s+(?:too|as well)(?=\s*[.!]*$)", "", text)
    # A closing discourse marker is residue: "We live in Halifax, by the way."
    text = _CLOSING.sub("", text)
    text = text[:1].upper() + text[1:]
    habitual = bool(_HABITUAL.search(text))
    rules = [
        (r"\b[Ww]e're\b", f"{s} and others are"),
        (r"\b[Ww]e've\b", f"{s} and others have"),
        (r"\b[Ww]e'll\b", f"{s} and others will"),
        (r"\b[Ww]e'd\b", f"{s} and others would"),
        (r"\bI(?:'m| am|m)\b", f"{s} is"),
        (r"\bI(?:'ve| have)\b(?! to)", f"{s} has"),
        (r"\bI(?:'d)\b", f"{s} would"),
        (r"\bI(?:'ll| will)\b", f"{s} will"),
        (r"\bI was\b", f"{s} was"),
        (r"\bmyself\b", "themselves"),
        (r"\bmine\b", f"{s}'s"),
    ]
    for pattern, repl in rules:
        text = re.sub(pattern, repl, text)
    text = re.sub(
        r"\bI ((?:(?:" + "|".join(_ADVERBS) + r"|" + _LY_ADVERB + r") )*[\w']+)",
        lambda m: _verb_after_i(m, s, habitual),
        text,
    )

    text = re.sub(r"\bme\b", s if s != "the user" else "them", text)
    text = re.sub(r"\bMe\b", s, text)
    # The subject is named once; later possessives read "their", as a person would write.
    pieces = re.split(r"\b([Mm]y)\b", text)
    for i in range(1, len(pieces), 2):
        before = "".join(pieces[:i])
        pieces[i] = "their" if (s in before or s.capitalize() in before) else f"{s}'s"
    text = "".join(pieces)
    text = re.sub(r"\bour\b", "their", text)
    text = re.sub(r"(?<=\S )\bwe\b", "they", text)  # a later "we" is the same people again
    text = re.sub(r"\bOur\b", f"{s}'s", text)
    text = re.sub(r"\bWe\b", f"{s} and others", text)
    if s == "the user":
        text = re.sub(r"^the user's\b", "The user's", text)
        text = re.sub(r"^the user (?!and\b)(\w)", lambda m: m.group(1).upper(), text)
        text = text.replace("the user's", "their")
    text = text.strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?":
        text += "."
    text = re.sub(r"!+$", ".", text)
    return re.sub("\ue000(\\d+)\ue001", lambda m: titles[int(m.group(1))], text)


# --- the extractor ----------------------------------------------------------------------------


_LEADING_DATE = re.compile(
    r"^((?:on|in|around) (?:the (?:week|weekend) (?:of|before|after) )?"
    r"(?:[A-Z][a-z]+day )?\d{1,2} [A-Z][a-z]+ \d{4}|(?:in|around) [A-Z][a-z]+ \d{4}|in \d{4}),?\s+"
    r"(?=(?:I|we|my|our)\b)",
    re.I,
)


def _implicit_subject(sentence: str) -> str:
    """Put back the "I" that chat drops: "Just got new shoes" -> "I just got new shoes"."""
    first = sentence.split(" ", 1)[0].lower()
    rest = sentence[0].lower() + sentence[1:]
    if first.endswith("ing"):
        return "I'm " + rest
    if first == "been":
        return "I've " + rest
    return "I " + rest


def _clean(content: str) -> str:
    text = _FENCED.sub(" ", content)
    text = _INLINE_CODE.sub(" ", text)
    text = _INDENTED.sub(" ", text)
    text = _BLOCKQUOTE.sub(" ", text)
    return _QUOTED.sub(_unless_title, text)


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


#: "I'm Tomás, a data analyst at Brightwell in Valencia": a name, then an appositive that
#: holds a role, an employer and a place. Each is a fact with its own slot.
_APPOSITIVE = re.compile(
    r"^I(?:'m| am) ([A-Z][\w'-]+),\s+(an? [\w' -]+?)"
    r"(?:\s+(?:at|for|with)\s+([A-Z][\w&'.-]*(?: [A-Z][\w&'.-]*)*))?"
    r"(?:\s+(?:in|from|based in)\s+([A-Z][\w'-]*(?: [A-Z][\w'-]*)*))?\W*$"
)


def _appositive(clause: str) -> list[str]:
    """A clause of a name with an appositive, as one first-person clause per fact; any other
    clause as it is (an empty one dropped)."""
    match = _APPOSITIVE.match(clause)
    if match is None:
        return [clause] if clause else []
    name, role, employer, place = match.groups()
    facts = [f"My name is {name}.", f"I'm {role}."]
    if employer:
        facts.append(f"I work at {employer}.")
    if place:
        facts.append(f"I'm based in {place}.")
    return facts


def _split_sentences(text: str) -> list[str]:
    """Split at sentence ends, but rejoin a piece cut after an abbreviation or an initial."""
    parts: list[str] = []
    for piece in _SENTENCE_END.split(text):
        if parts and _ABBREVIATION.search(parts[-1].rstrip()) and not parts[-1].endswith("\n"):
            parts[-1] = f"{parts[-1].rstrip()} {piece}"
        else:
            parts.append(piece)
    return parts


def _sentences(text: str) -> list[str]:
    """Sentences, and within them the clauses that start a new first-person statement:
    "My name is Sam and I live in Porto" is two facts with two conflict slots."""
    out = []
    for part in _split_sentences(text):
        if not part or not part.strip():
            continue
        clauses: list[str] = []
        begin = 0
        for boundary in _CLAUSE.finditer(part):
            head = part[begin : boundary.start()]
            if re.fullmatch(r"\s*(?:(?:[Mm]y|[Oo]ur)(?: [\w'-]+){1,2}|[A-Z][a-z'-]+)\s*", head):
                continue  # "My husband and I went hiking": a subject, not a fact of its own
            clauses.append(head)
            begin = boundary.end()
        clauses.append(part[begin:])
        for clause in clauses:
            clause = re.sub(r"\s+", " ", clause).strip(" -–—*•,;")
            clause = _FILLER.sub("", _VERDICT.sub("", _GREETING.sub("", clause)))
            for fact in _appositive(clause):
                out.append(fact[0].upper() + fact[1:])
    return out


# --- conversation, not facts ----------------------------------------------------------------

_I_SUBJECT = r"^(?:I|I'm|I am|Im|I've|I have|I'd|I would|I'll|I will)\s+" + _ADVERB_SLOT
#: A stance the speaker takes towards what was just said: "I'm glad you ...", "I'm sorry to
#: hear that", "I bet", "I know what you mean", "I agree". The predicate is a mental state
#: (adjective or verb of knowing, feeling, agreeing) whose complement is the listener, the
#: last turn (that/it/so) or nothing; "I'm happy with my job" (a complement of its own) is a fact.
_STANCE = re.compile(
    _I_SUBJECT + r"(?:so |very |really |pretty |quite )*"
    r"(?:glad|happy|sorry|sure|excited|thrilled|jealous|envious|impressed|bet|know|agree|"
    r"understand|imagine|see|mean|guess|hope|believe|think|wish|can imagine|can tell|"
    r"can't wait|cannot wait|can relate|can see|appreciate|feel the same)"
    r"(?=\W*$|\s+(?:you|your|that|it|so|to (?:hear|see|know|meet|talk|chat)|for you|for them|"
    r"what|how|we|"
    r"they|he|she|there|this)\b|[,!.])",
    re.I,
)
#: A stance that opens a clause about the listener: "I'm glad I could meet you".
_STANCE_CLAUSE = re.compile(
    _I_SUBJECT + r"(?:so |very |really )*(?:glad|happy|sorry|sure|excited|thrilled|bet|hope)\b",
    re.I,
)
#: A promise about the conversation: a future or obligation over "it"/"that" ("I'll have to
#: check it out", "I will definitely try that", "I'll let you know").
_PROMISE = re.compile(
    _I_SUBJECT + r"(?:(?:have|need|got|want) to |gotta |will |should |might |must )?"
    r"(?:\w+ ){1,2}(?:it|that|them|this|you)(?: (?:out|up|sometime|some time|soon|later|too|"
    r"next time|one day|a try|a shot))*\W*$",
    re.I,
)
#: A future whose object is the listener: "I'll let you know", "I will keep you posted".
_TO_THE_LISTENER = re.compile(r"^I(?:'ll| will|'m going to| am going to) (?:\w+ ){0,2}you\b", re.I)
_FUTURE_OR_DUTY = re.compile(
    r"^(?:I'll|I will|I'd|I would|I should|I might|I(?:'ll| will)? have to|I need to|"
    r"I gotta|I'm going to|I'm gonna)\b",
    re.I,
)
#: A second-person pronoun: a clause with one is addressed to the listener.
_YOU = re.compile(r"\b(?:you|your|you're|you've|you'd|you'll|yours|yourself|ya|u)\b", re.I)
#: Cues that state a durable fact about the speaker whatever else the clause says: "I'm Sam,
#: nice to meet you" still names the speaker.
_STRONG_CUES = {"name", "age", "location", "origin", "employer", "role", "allergy"}
#: A deictic subject or a pronoun object names something said before, not in the sentence:
#: "That's why I love it", "I'm not very good at them", "I don't have time for it".
_DEICTIC_SUBJECT = re.compile(
    r"^(?:that|this|it|they|those|these|he|she)(?:'s|'re| is| are| was| were| has| have)?\b"
    r"(?!'s \w+ to\b| is \w+ to\b)",
    re.I,
)
_PRONOUN_OBJECT = re.compile(
    r"\b(?:it|them|that|this|those|these|one|him|her|(?:been|went|go|live|lived|work|"
    r"worked|moved|stayed|visit|visited|get|got) there)"
    r"(?: (?:too|as well|either|a lot|so much|very much|sometime|anymore|again|before|yet|now|"
    r"all|both|here|though|lol|haha))*\W*$|\bthem\b|"
    # "it" as an object with only a phrase after it: "I love it for the most part"
    r"\bit(?= (?:for|in|at|on|with|since|before|after|when|because|so much|a lot|every|all|"
    r"too much|more|most|anymore|again)\b)",
    re.I,
)


#: A noun phrase before the pronoun can be what it refers to: "My dad was a builder and I
#: learned from him", "I have two dogs and I love them". A quantity ("a lot of") is none.
_ANTECEDENT = re.compile(
    r"\b(?:a|an|the|my|our|his|her|their|two|three|four|five)\s+"
    r"(?!lot\b|bit\b|few\b|little\b|lot of\b)[\w-]{3,}|\b[a-z]\w+ [A-Z][a-z]+"
)


#: Support offered to the listener: "I'm here for you", "I've got your back".
_HERE_FOR_YOU = re.compile(
    r"\bI(?:'m| am) (?:always )?here (?:for|to (?:help|support|listen to)) you\b|"
    r"\bI(?:'ve)? got your back\b|\bI(?:'m| am) (?:so )?proud of you\b|"
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


#: The answer to "How are you?": "I'm doing great, thanks".
_PLEASANTRY = re.compile(
    r"^I(?:'m| am) (?:doing )?(?:very |really |pretty |so )?(?:good|great|well|fine|okay|ok|"
    r"alright|all right)\b(?!\s+(?:at|with|in)\b)",
    re.I,
)
#: The listener, or what is theirs, as the object of the speaker's verb: "I like your shirt",
#: "I'm looking forward to trying your cookies", "I loved meeting you".
_LISTENER_OBJECT = re.compile(
    r"\b(?:like|likes|love|loves|loved|enjoy|enjoyed|admire|appreciate|try|trying|meet|meeting|"
    r"see|seeing|hear|hearing|read|reading|visit|visiting)\s+(?:\w+ )?(?:of |about )?"
    r"(?:your|you)\b",
    re.I,
)
#: Showing the listener something: "Here are some pictures of my dresses".
_PRESENTING = re.compile(r"^(?:here's|here is|here are|check out|look at)\b", re.I)
#: A demonstrative with its noun and nothing after: "I love those breeds", "all of these shows".
_DEMONSTRATIVE_END = re.compile(
    r"\b(?:those|these|that|this)\s+(?!(?:week|weekend|year|month|morning|evening|afternoon|"
    r"summer|winter|spring|fall|autumn|time|semester|season|term)\b)\w+"
    r"(?:\s+(?:too|as well))?\W*$",
    re.I,
)


#: A closing discourse marker: "We live in Halifax, by the way", "I would love to, honestly".
_CLOSING = re.compile(
    r",\s+(?:by the way|btw|though|lol|haha|anyway|honestly|really|actually)(?=\s*[.!]*$)", re.I
)
_THANKS = re.compile(r"^(?:thanks|thank you|thx)(?: so much| a lot)?[,!.]*\s+(?=\S)", re.I)


#: A verb phrase left out because the last turn said it: "I've always wanted to", "I hope so",
#: "I would love to", "I really am". What it stands for is in the message before.
_ELLIPSIS = re.compile(
    r"\b(?:to|so|do|does|did|will|would|can|could|should|have|has|am|is|are|was|were)"
    r"(?:\s+(?:too|either|as well))?\W*$|"
    r"^I (?:will|do|did|can|am|have|would|could|should)(?: (?:too|definitely|certainly))?,",
    re.I,
)


def _conversational(sentence: str) -> str | None:
    """Why a sentence is about the conversation rather than a fact, or None."""
    sentence = _CLOSING.sub("", _THANKS.sub("", sentence))
    if _STANCE.search(sentence) or _PLEASANTRY.match(sentence):
        return "a reaction"
    if _STANCE_CLAUSE.search(sentence) and _YOU.search(sentence):
        return "a reaction"  # "I'm glad I could meet you"
    if _LISTENER_OBJECT.search(sentence) or _PRESENTING.match(sentence):
        return "addressed to the listener"
    if _OFFER.search(sentence):
        return "a promise about the conversation"
    if _FUTURE_OR_DUTY.match(sentence) and (
        _PROMISE.search(sentence) or _TO_THE_LISTENER.search(sentence)
    ):
        return "a promise about the conversation"
    if _YOU.search(sentence) and _HERE_FOR_YOU.search(sentence):
        return "a reaction"
    if (
        _DEICTIC_SUBJECT.match(sentence)
        or _DEMONSTRATIVE_END.search(sentence)
        or _ELLIPSIS.search(sentence)
    ):
        return "a reference to something not said"
    pronoun = _PRONOUN_OBJECT.search(sentence)
    if pronoun is not None and not _ANTECEDENT.search(sentence[: pronoun.start()]):
        return "a reference to something not said"
    return None


def _skip_reason(sentence: str) -> str | None:
    stripped = sentence.strip()
    if stripped.endswith("?") or _QUESTION_START.match(stripped):
        return "a question"
    if "[REDACTED " in stripped and is_only_secret(stripped):
        # "My wifi password is [REDACTED password]" says nothing else; a sentence that does
        # ("I use postgres://app:[REDACTED ...]@db/app for staging") is kept, redacted.
        return "contains a secret"
    if _REPORTED.match(stripped) or _HEARSAY.search(stripped):
        return "someone else's words"
    if _HYPOTHETICAL.search(stripped):
        return "hypothetical"
    if not (_FIRST_PERSON.search(stripped) or _WE.search(stripped) or _IMPLICIT_I.match(stripped)):
        return "not about the speaker"
    if QUOTED_MARK in stripped:
        return "someone else's words"
    words = re.findall(r"[\w']+", stripped)
    if len(words) < 4 or (_SMALL_TALK.match(stripped) and len(words) < 8):
        return "small talk"
    return _conversational(stripped)


#: A remark (see `RuleExtractor._remark`) is inferred evidence at this strength: 0.55 after
#: the inferred penalty, stored at the default threshold, dropped when hedged.
REMARK_STRENGTH = 0.65
#: A short answer to a question put to the speaker: their own words, but its type is unknown.
ANSWER_STRENGTH = 0.7
#: A remark needs this many words: shorter ones are reactions more often than content.
REMARK_WORDS = 10
#: The quote kept in a note is cut here: it is provenance, not an archive of the chat.
MAX_QUOTE_CHARS = 600
#: The message a statement answers is kept before it, cut to its last words (where the
#: question usually is): "Where did you go?" is what gives "I went to Woodhaven" its meaning.
MAX_CONTEXT_CHARS = 240


def _is_remark(sentence: str) -> bool:
    """A sentence worth keeping as something the person said: long enough to carry content."""
    words = re.findall(r"[\w']+", sentence)
    return len(words) >= REMARK_WORDS and not _SMALL_TALK.match(sentence)


def _quote(content: str, message: Message) -> str:
    """The message as the note quotes it: whitespace collapsed, cut, with who and when."""
    text = " ".join(content.split())
    if len(text) > MAX_QUOTE_CHARS:
        text = text[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
    who = message.name or "the user"
    when = f", {format_day(message.timestamp)}" if message.timestamp else ""
    return f"{text} ({who}{when})"


def _context(previous: Message | None, message: Message, cleaned: str | None = None) -> str:
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
        cleaned = redact(_clean(previous.content)).replace(QUOTED_MARK, " ")
    text = " ".join(cleaned.split())
    if not text:
        return ""
    if len(text) > MAX_CONTEXT_CHARS:
        text = "… " + text[-MAX_CONTEXT_CHARS:].split(" ", 1)[-1]
    return f"{previous.name or previous.role}: {text}"


#: A question longer than this is not quoted in a statement (the note's quote still has it).
MAX_QUESTION_CHARS = 160
DANGLING = "a reference to something not said"


def _antecedent(context: str) -> str | None:
    """What a reply refers to: the last sentence of the message before that stands alone (the
    question it answers, "Do you have any pets?", or the statement it takes up), or None."""
    if not context:
        return None
    parts = [p.strip() for p in _split_sentences(context.split(": ", 1)[-1]) if p.strip()]
    if not parts:
        return None
    for part in reversed(parts):
        part = _FILLER.sub("", _VERDICT.sub("", _GREETING.sub("", part))).strip(" ,")
        if len(re.findall(r"[\w']+", part)) < 3 or len(part) > MAX_QUESTION_CHARS:
            continue
        if _DEICTIC_SUBJECT.match(part) or _DEMONSTRATIVE_END.search(part):
            continue  # "They're always amazing.": it dangles too, so it resolves nothing
        return part[0].upper() + part[1:]
    return None


def _question(antecedent: str | None) -> str | None:
    """The antecedent when it asks something (of the speaker, who is answering it)."""
    if antecedent and antecedent.endswith("?"):
        return antecedent
    return None


def _is_answer(sentence: str) -> bool:
    """A short reply that answers with content ("By April 1.", "Definitely Star Wars!"), not
    a bare yes, thanks or reaction."""
    words = re.findall(r"[\w']+", sentence)
    if len(words) < 2 or sentence.endswith("?") or _conversational(sentence) is not None:
        return False
    return not (_SMALL_TALK.match(sentence) and len(words) < 4)


def message_quote(message: Message, previous: Message | None) -> str:
    """The quote a note keeps for a statement of `message`: the message cleaned and redacted,
    with who and when, after the message it answered (`_context`). Any extractor can cite a
    message this way, so a note reads the same whichever extractor made it."""
    quote = _quote(redact(_clean(message.content)).replace(QUOTED_MARK, " "), message)
    context = _context(previous, message)
    return f"{context}\n\n{quote}" if context else quote


def _short_fact(sentence: str) -> bool:
    """A short sentence that still states something: a typed cue matches it, and it is not a
    reaction ("Wow, I love that!")."""
    if _SMALL_TALK.match(sentence) or re.search(r"\b(?:that|this|it)\W*$", sentence, re.I):
        return False
    if _conversational(sentence) is not None:
        return False  # "I hope so.": short, and it says nothing without the last turn
    return any(cue.pattern.search(sentence) for cue in CUES)


def _is_small_talk(sentence: str) -> bool:
    """Short pleasantries: what only the weak rule would take, and should not."""
    words = re.findall(r"[\w']+", sentence)
    return len(words) < 5 or (bool(_SMALL_TALK.match(sentence)) and len(words) < 8)


def _key(cue: Cue, match: re.Match[str]) -> str | None:
    if cue.key is None:
        return None
    if "{1}" not in cue.key:
        return cue.key
    value = next((g for g in match.groups() if g), "")
    slug = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
    return cue.key.replace("{1}", slug) if slug else None


#: Emphatic "do" ("I do prefer Emacs", "I do like oat milk") is emphasis, not the verb: the
#: sentence is read without it (so "prefer" is the cue) and scored as emphatic.
_EMPHATIC_DO = re.compile(r"\b(I|[Ww]e) do (?!not\b)(?=[a-z])")


_PERSON_NAME = r"((?:(?:Dr|Prof|Mr|Mrs|Ms)\.? )?[A-Z][\w'-]+)"
#: How a person names someone of theirs: "my son Theo", "my advisor, Prof. Lindqvist", "my
#: manager is Dana", "Theo, my son", "Dana is my manager".
_NAMING = (
    re.compile(rf"\b[Mm]y (?:(?:little|older|younger|big|eldest|youngest|oldest|new) )?"
               rf"({_RELATIONS}),? (?:is )?(?:called |named )?{_PERSON_NAME}"),
    re.compile(rf"\b{_PERSON_NAME},? (?:is )?my (?:(?:little|older|younger|big|new) )?"
               rf"({_RELATIONS})\b"),
)  # fmt: skip


def _named_people(sentence: str) -> dict[str, str]:
    """The people a sentence names as the speaker's: {"Theo": "son"}."""
    found: dict[str, str] = {}
    for index, pattern in enumerate(_NAMING):
        for match in pattern.finditer(sentence):
            relation, name = match.groups() if index == 0 else match.groups()[::-1]
            if name.split()[-1] not in ("I", "My", "The", "We") and relation.islower():
                found[name] = relation
    return found


_COMPANION = re.compile(r"^(?:[Mm]y (?:[\w'-]+ ){1,2}|[A-Z][a-z]+ )and I\b")


def _with_companion(sentence: str) -> str:
    """ "My husband and I went hiking" -> "I went hiking with my husband": the speaker is the
    subject and the companion is kept; the verb that agreed with both agrees with "I"."""
    match = re.match(r"^((?:[Mm]y )?(?:[\w'-]+ )?[\w'-]+) and I (.+?)([.!]*)$", sentence)
    if match is None:
        return sentence
    who, rest, end = match.groups()
    if re.match(r"(?:are|were)\s+(?!\w+ing\b)", rest):
        return sentence  # "My sister and I were born in Oslo": a fact of both, as said
    if who.startswith("My "):
        who = "my " + who[3:]
    rest = re.sub(r"^are\b", "am", re.sub(r"^were\b", "was", rest))
    return f"I {rest} with {who}{end}"


#: Any other first-person statement: the weakest rule.
_WEAK = Cue("statement", T.EPISODE, _I_WORD, 0.6)


_RELATIVE = re.compile(
    r"\b[Mm]y ((?:(?:little|older|younger|big|eldest|youngest|oldest|new|best) )?"
    rf"(?:{_RELATIONS}))\b"
)
_HE_SHE = re.compile(r"^(?:He|She)(?='s\b|\s+(?:is|was|has|had|loves|likes|works|lives|\w+s)\b)")


def _one_person(sentence: str, theirs: dict[str, str]) -> str | None:
    """The speaker's one person a sentence is about ("my sister", "Theo"), if exactly one."""
    people = {f"my {m.group(1)}" for m in _RELATIVE.finditer(sentence)}
    if not people:
        people = {name for name in theirs if re.search(rf"\b{re.escape(name)}\b", sentence)}
    return people.pop() if len(people) == 1 else None


def _resolve_person(sentence: str, person: str | None) -> str:
    """ "She works at Siemens." after "My sister lives in Berlin." is about "my sister": the
    pronoun is replaced when the sentence before named exactly one person of the speaker's."""
    if person is None or not _HE_SHE.match(sentence):
        return sentence
    name = person[0].upper() + person[1:]
    # "He's" is "he is" or "he has"; "my son's" would read as a possessive
    sentence = re.sub(
        r"^(He|She)'s(?= (?:been|had|got|gotten|done|seen|never|always)\b)", r"\1 has", sentence
    )
    sentence = re.sub(r"^(He|She)'s\b", r"\1 is", sentence)
    return _HE_SHE.sub(name, sentence, count=1)


class RuleExtractor:
    """The offline default: deterministic rules, no model, no network."""

    name = "rules"

    def extract(
        self, messages: Sequence[Message], *, conversation_id: str
    ) -> tuple[list[Candidate], list[Skip]]:
        """Propose a candidate per sentence a person said about themselves."""
        candidates: list[Candidate] = []
        skipped: list[Skip] = []
        previous: Message | None = None
        previous_text: str | None = None  # `previous`, cleaned and redacted, if it was a user's
        people: dict[str, dict[str, str]] = {}  # speaker -> {"Theo": "son"}, as they named them
        for message in messages:
            replied_to, replied_text = previous, previous_text
            previous, previous_text = message, None
            if message.role != "user":
                if message.content.strip():
                    skipped.append(
                        Skip(message.id, message.content[:80], f"{message.role} message")
                    )
                continue
            subject = message.name or "user"
            label = message.name or "the user"
            content = _clean(message.content)
            # Secrets are found in the whole message (a private key spans lines), reported by
            # kind only, and redacted before anything else reads the text.
            secrets = find_secrets(content)
            for found in secrets:
                skipped.append(Skip(message.id, f"[REDACTED {found.kind}]",
                                    f"contains a secret ({found.kind})", found.kind))  # fmt: skip
            content = redact(content, secrets)
            previous_text = content.replace(QUOTED_MARK, " ")
            quote = _quote(previous_text, message)
            context = _context(replied_to, message, replied_text)
            if context:
                quote = f"{context}\n\n{quote}"
            first = len(candidates)  # this message's candidates start here
            remarks: list[str] = []
            antecedent = _antecedent(context)
            question = _question(antecedent)
            answer: str | None = None
            theirs = people.setdefault(subject, {})
            last_person: str | None = None  # the one person the sentence before was about
            stated: str | None = None  # the speaker's last statement in this message
            for sentence in _sentences(content):
                theirs.update(_named_people(sentence))
                resolved = _resolve_person(sentence, last_person)
                last_person = _one_person(sentence, theirs)
                sentence = resolved
                reason = _skip_reason(sentence)
                if reason in (None, "not about the speaker"):
                    about = self._about_their_person(sentence, theirs, message, subject, label)
                    if about is not None:
                        candidates.append(replace(about, quote=quote))
                        continue
                if (
                    reason == "small talk"
                    and question is not None
                    and (_PRONOUN_OBJECT.search(sentence) or _DEICTIC_SUBJECT.match(sentence))
                    and not _SMALL_TALK.match(sentence)
                ):
                    reason = DANGLING  # "I love it!": short, but it says something of "it"
                own = len(candidates) > first and stated is not None
                if reason == DANGLING and (antecedent is not None or own):
                    # "I have two of them." after "Do you have any pets?": the message before
                    # is what the sentence refers to, so it is kept with it, once per message.
                    # After a statement of the speaker's own, "it" more likely means what they
                    # just said ("I've never been sky diving, but I've always wanted to try
                    # it"): that statement is kept with it instead.
                    kept = self._candidate(sentence, message, subject, label) or self._build(
                        sentence, message, subject, label, _WEAK, None
                    )
                    said = f"{answer} {sentence}" if answer else sentence
                    if own and stated is not None:
                        said = f"{stated.rstrip(' .!')}. {sentence}"
                    text = self._answer_text(None if own else antecedent, said, message, label)
                    candidates.append(replace(kept, text=text, quote=quote))
                    antecedent = question = None
                    continue
                if reason in ("small talk", "not about the speaker") and answer is None:
                    answer = sentence if _is_answer(sentence) else ""
                if reason == "small talk" and _short_fact(sentence):
                    reason = None  # "I like jazz." is short, and a fact
                if (
                    reason == "not about the speaker"
                    and _is_remark(sentence)
                    and _conversational(sentence) in (None, DANGLING)
                ):
                    remarks.append(sentence)
                if reason is not None:
                    skipped.append(Skip(message.id, sentence, reason))
                    continue
                candidate = self._candidate(sentence, message, subject, label)
                if candidate is None:
                    skipped.append(Skip(message.id, sentence, "no cue"))
                else:
                    candidates.append(replace(candidate, quote=quote))
                    stated = sentence
            if len(candidates) == first and question is not None and answer:
                # A short answer means nothing alone: it is learned with the question's words.
                candidates.append(self._answered(question, answer, message, subject, label, quote))
            elif len(candidates) == first and remarks:
                # Nothing about the speaker, but they said something of substance: keep one
                # remark for the message (its longest sentence), with the whole message quoted.
                # A remark that refers to the last turn ("It's a lot of work") is kept with that
                # turn's words, or not at all.
                standing = [r for r in remarks if _conversational(r) is None]
                if antecedent is not None or standing:
                    longest = max(remarks if antecedent is not None else standing, key=len)
                    remark = self._remark(longest, message, subject, label, quote)
                    if _conversational(longest) is not None:
                        text = self._answer_text(antecedent or "", longest, message, label)
                        remark = replace(remark, text=text)
                    candidates.append(remark)
        return candidates, skipped

    def _candidate(
        self, sentence: str, message: Message, subject: str, label: str
    ) -> Candidate | None:
        plain = _EMPHATIC_DO.sub(r"\1 ", sentence)
        if plain != sentence:
            found = self._candidate(plain, message, subject, label)
            return None if found is None else replace(found, emphatic=True)
        # "My husband and I went hiking": a companion in the subject; the predicate decides.
        companion = _COMPANION.match(sentence) is not None
        if companion:  # the speaker is the subject, the companion goes with them
            sentence = _with_companion(sentence)
        for cue in CUES:
            if companion and cue.name == "relationship":
                continue
            match = cue.pattern.search(sentence)
            if match is not None:
                return self._build(sentence, message, subject, label, cue, _key(cue, match))
        if not _is_small_talk(sentence) and (
            _FIRST_PERSON.search(sentence) or _WE.search(sentence) or _IMPLICIT_I.match(sentence)
        ):
            return self._build(sentence, message, subject, label, _WEAK, None)
        return None

    def _about_their_person(
        self, sentence: str, theirs: dict[str, str], message: Message, subject: str, label: str
    ) -> Candidate | None:
        """A sentence about someone the speaker named as theirs ("Theo is crazy about
        dinosaurs", after "my son Theo"): a relationship memory, "The user's son Theo is ..."."""
        match = re.match(
            r"((?:(?:Dr|Prof|Mr|Mrs|Ms)\.? )?[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)(?:'s)?\s+(\w+)",
            sentence,
        )
        if match is None:
            return None
        name = next((n for n in theirs if match.group(1) == n or match.group(1).endswith(n)), None)
        if name is None or len(re.findall(r"[\w']+", sentence)) < 4:
            return None
        if _conversational(sentence) is not None or sentence.endswith("?"):
            return None
        dated, days = resolve_dates(sentence, message.timestamp)
        owner = "The user" if label == "the user" else label
        statement = third_person(dated, label) if _FIRST_PERSON.search(dated) else dated
        text = f"{owner}'s {theirs[name]} {statement.rstrip(' .!')}."
        return Candidate(
            type=T.RELATIONSHIP,
            text=text,
            subject=subject,
            source=message.id,
            evidence=Evidence.DIRECT,
            strength=0.75,
            hedged=bool(_HEDGES.search(sentence)),
            emphatic=bool(_EMPHASIS.search(sentence)),
            temporary=bool(_TEMPORARY.search(sentence)),
            cue="their person",
            days=tuple(days),
            timestamp=message.timestamp,
        )

    @staticmethod
    def _answer_text(antecedent: str | None, sentence: str, message: Message, label: str) -> str:
        """'Asked "Do you have any pets?", Sam said: "I have two of them."', for a reply to a
        statement 'Replying to "I got a puppy.", Sam said: "I love them."', and with no
        antecedent but the speaker's own words 'Sam said: "I got a puppy. I love them."'"""
        dated, _days = resolve_dates(sentence.strip(), message.timestamp)
        if antecedent is None:
            return f'{label[:1].upper()}{label[1:]} said: "{dated}"'
        frame = "Asked" if _question(antecedent) else "Replying to"
        return f'{frame} "{antecedent}", {label} said: "{dated}"'

    def _answered(
        self, question: str, answer: str, message: Message, subject: str, label: str, quote: str
    ) -> Candidate:
        """A short answer to a question put to the speaker, kept with the question."""
        _dated, days = resolve_dates(answer, message.timestamp)
        return Candidate(
            type=T.EPISODE,
            text=self._answer_text(question, answer, message, label),
            subject=subject,
            source=message.id,
            evidence=Evidence.DIRECT,
            strength=ANSWER_STRENGTH,
            hedged=bool(_HEDGES.search(answer)),
            emphatic=False,
            cue="answer",
            days=tuple(days),
            timestamp=message.timestamp,
            quote=quote,
        )

    def _remark(
        self, sentence: str, message: Message, subject: str, label: str, quote: str
    ) -> Candidate:
        """Something a person said that is not a statement about themselves ("The stories
        were so inspiring!"): kept as what they said, weakly, with its date resolved."""
        dated, days = resolve_dates(sentence, message.timestamp)
        who = "The user" if label == "the user" else label
        return Candidate(
            type=T.EPISODE,
            text=f"{who} said: {dated.rstrip()}",
            subject=subject,
            source=message.id,
            evidence=Evidence.INFERRED,
            strength=REMARK_STRENGTH,
            hedged=bool(_HEDGES.search(sentence)),
            emphatic=False,
            cue="remark",
            days=tuple(days),
            timestamp=message.timestamp,
            quote=quote,
        )

    def _build(
        self,
        sentence: str,
        message: Message,
        subject: str,
        label: str,
        cue: Cue,
        key: str | None,
    ) -> Candidate:
        if not _FIRST_PERSON.search(sentence) and not _WE.search(sentence):
            sentence = _implicit_subject(sentence)
        dated, days = resolve_dates(sentence, message.timestamp)
        lead = _LEADING_DATE.match(dated)
        if lead is not None:  # "On 7 May 2023 I ran" reads better as "Ran ... on 7 May 2023"
            rest = dated[lead.end() :].rstrip(" .!")
            dated = f"{rest} {lead.group(1)}."
        evidence = Evidence.DIRECT
        if not _I_WORD.search(sentence) and not re.search(r"\bmy\b", sentence, re.I):
            evidence = Evidence.INFERRED  # a "we"/"our" statement: the person is implied
        return Candidate(
            type=cue.type,
            text=third_person(dated, label),
            subject=subject,
            source=message.id,
            evidence=evidence,
            key=key,
            strength=cue.strength,
            hedged=bool(_HEDGES.search(sentence)),
            emphatic=bool(_EMPHASIS.search(sentence)),
            temporary=bool(_TEMPORARY.search(sentence)),
            cue=cue.name,
            days=tuple(days),
            timestamp=message.timestamp,
        )
