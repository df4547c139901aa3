"""The statement style: a first-person sentence rewritten about its subject.

"I'm keen on counseling" said by Caroline is "Caroline is keen on counseling"; said by the
person tota serves, "Is keen on counseling." The grammar it needs is handled at its cause:
the third-person present of a verb (irregular verbs, "need" is no past, "read" is past unless
the sentence is habitual, a prefixed verb inflects as its stem), an adverb between "I" and
the verb, emphatic "do", a quoted title that is never rewritten, a companion in the subject
("my husband and I").
"""

from __future__ import annotations

import re

from .sentences import CLOSING, QUOTED

_IRREGULAR = {
    "am": "is", "have": "has", "do": "does", "go": "goes", "be": "is", "'m": "is",
    # the spoken contractions of "want to" and "got to": "I wanna help" is "Sam wants to help"
    "wanna": "wants to", "gotta": "has to",
}  # fmt: skip
_INVARIANT = {
    "can", "could", "will", "would", "should", "must", "might", "may", "shall", "can't",
    "couldn't", "won't", "wouldn't", "shouldn't", "didn't", "was", "wasn't", "had", "hadn't",
    "were", "are",  # after "my sister and I": the verb agrees with both
    "used", "ought", "gonna",
}  # fmt: skip
_ADVERBS = {
    "really", "also", "just", "still", "always", "never", "usually", "often", "sometimes",
    "absolutely", "totally", "finally", "recently", "actually", "even", "only", "already",
    "definitely", "truly", "honestly", "rarely", "normally", "typically", "regularly",
    "constantly", "mostly", "much", "strongly", "kinda", "kind", "sort", "certainly", "now",
    "currently", "maybe", "probably", "perhaps", "possibly", "literally", "seriously", "once",
    "barely", "hardly", "almost", "generally", "occasionally", "mainly",
    "no", "longer",  # "I no longer work there": "No longer works there"
}  # fmt: skip
_PAST_IRREGULAR = {
    "went", "got", "made", "took", "saw", "ran", "won", "lost", "met", "read", "bought", "wrote",
    "had", "did", "left", "gave", "found", "spent", "swam", "drew", "sang", "taught", "felt",
    "thought", "came", "began", "became", "knew", "heard", "kept", "told", "said", "sold",
    "brought", "caught", "fell", "flew", "forgot", "grew", "held", "led", "put", "set", "sat",
    "stood", "understood", "woke", "wore", "ate", "drank", "drove", "rode", "chose",
    "broke", "built", "sent", "paid", "meant", "slept", "quit", "hit", "cut", "let", "hurt",
    # the -t pasts ("I learnt", British) and other strong pasts, which took an "s" as a present:
    # "Jon learnts that ..." (LoCoMo's tune part)
    "learnt", "dreamt", "burnt", "spelt", "spoilt", "smelt", "leapt", "knelt", "dwelt", "lent",
    "bent", "dealt", "struck", "stuck", "threw", "blew", "hid", "shot", "fought", "sought",
    "shook", "spoke", "stole", "froze", "sank", "spun", "swung", "hung", "dug", "slid",
    "forgave", "overcame", "mistook", "withdrew",
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


def conjugate(word: str, habitual: bool = False) -> str:
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
            out.append(conjugate(word, habitual))
            conjugated = True
        else:
            out.append(word)
    return f"{subject} " + " ".join(out)


_HEDGE_FRAME = re.compile(
    r"^(?:I think|I guess|I suppose|I believe|I feel like|maybe)\s+(?=\w)", re.I
)


#: "I" and its contractions, as the subject of a clause.
_LATER_I = re.compile(r"\bI(?:'m|'ve|'d|'ll| am| was| have(?! to)| will)?\b")
_THEY = {"i'm": "they're", "i've": "they've", "i'd": "they'd", "i'll": "they'll",
         "i am": "they are", "i was": "they were", "i have": "they have", "i will": "they will",
         "i": "they"}  # fmt: skip


#: Where "we" was said or named before in a statement: a later "we" is "they" after it.
_NAMED_WE = re.compile(r"\b[Ww]e\b| and others\b")


def _they(match: re.Match[str]) -> str:
    """The subject is named once: "Sam is from California, so they're not used to the cold",
    not "... so Sam is not ...". A later "I" is "they", whose verb needs no inflection."""
    if not re.search(r"\bI\b", match.string[: match.start()]):
        return match.group(0)
    return _THEY[match.group(0).lower()]


#: "Called" naming what a noun phrase stands for ("a dog called Rex"), not the verb ("I called
#: Mom"): after a determiner and its noun, before a name.
_CALLED = re.compile(r"\b((?:a|an|the|their|his|her) (?:[\w-]+ ){0,2}[a-z][\w-]*) called (?=[A-Z])")


#: Verbs that a person's "I ... and <verb>" goes on with, in their base form. A word after
#: "and" is taken for one of them only before what a verb takes (an object pronoun, an
#: article or possessive, a preposition, a time): "loves pizza and pasta" has no verb, and
#: "eat it", "work at Acme", "walk him", "sing in a choir" do.
_AND_VERBS = (
    "eat drink work live play sing walk run swim teach coach cook bake write read drive ride "
    "study go watch visit travel volunteer help take make love like enjoy hate have own use "
    "practice practise train paint draw dance hike climb bike cycle fish knit sew build fix "
    "collect attend listen spend keep try want need plan hope call see meet care look feel "
    "get give buy sell manage lead shop grow raise"
).split()
_SECOND_VERB = re.compile(
    r"(\band (?:(?:also|then|often|usually|sometimes|always|still) )?)("
    + "|".join(_AND_VERBS)
    + r")\b(?= (?:it|him|her|them|us|a|an|the|my|their|his|its|at|in|on|to|for|with|from|"
    r"every|each|daily|weekly|most|some|out|up|there|here|after|around|together)\b)"
)

_INFINITIVE = re.compile(r"\bto (?:" + "|".join(_AND_VERBS) + r")\b")


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

    sentence = QUOTED.sub(hold, sentence)
    # A hedge is scored (the candidate is `hedged`), not repeated about the subject.
    text = _HEDGE_FRAME.sub("", sentence).strip()
    text = re.sub(r",?\s+(?:I guess|I think|I suppose|I believe)\s*(?=[.!]?$)", "", text)
    # "too" and "as well" point at the other speaker ("I love hiking too"): the fact stands
    # without them.
    text = re.sub(r",?\s+(?:too|as well)(?=\s*[.!]*$)", "", text)
    # A closing discourse marker is residue: "We live in Halifax, by the way."
    text = CLOSING.sub("", text)
    text = text[:1].upper() + text[1:]
    habitual = bool(_HABITUAL.search(text))
    text = _LATER_I.sub(_they, text)
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
    text, verbs = re.subn(
        r"\bI ((?:(?:" + "|".join(_ADVERBS) + r"|" + _LY_ADVERB + r") )*[\w']+)",
        lambda m: _verb_after_i(m, s, habitual),
        text,
    )
    if verbs:
        # "I love sushi and eat it every Friday": the second verb has the same subject. Not
        # after an infinitive: in "wants to travel and live in Paris" it is the infinitive's.
        def second(m: re.Match[str]) -> str:
            if _INFINITIVE.search(text, 0, m.start()):
                return m.group(0)
            return m.group(1) + conjugate(m.group(2), habitual)

        text = _SECOND_VERB.sub(second, text)

    text = re.sub(r"\bme\b", s if s != "the user" else "them", text)
    # "us" is the speaker and others, as "we" is ("Anne might join us for the Tokyo part")
    text = re.sub(r"\b[Uu]s\b", f"{s} and others", text)
    text = re.sub(r"\bMe\b", s, text)
    # The subject is named once; later possessives read "their", as a person would write.
    pieces = re.split(r"\b([Mm]y)\b", text)
    for i in range(1, len(pieces), 2):
        before = "".join(pieces[:i])
        pieces[i] = "their" if (s in before or s.capitalize() in before) else f"{s}'s"
    text = "".join(pieces)
    text = re.sub(r"\bour\b", "their", text)
    # a later "we" is the same people again, once they are named ("... and others")
    text = re.sub(
        r"(?<=\S )\bwe\b",
        lambda m: "they" if _NAMED_WE.search(text, 0, m.start()) else f"{s} and others",
        text,
    )
    text = re.sub(r"\bOur\b", f"{s}'s", text)
    text = re.sub(r"\bWe\b", f"{s} and others", text)
    if s == "the user":
        text = re.sub(r"^the user's\b", "The user's", text)
        text = re.sub(r"^the user (?!and\b)(\w)", lambda m: m.group(1).upper(), text)
        text = text.replace("the user's", "their")
    text = _POINTED.sub(_indefinite, text)
    text = text.strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?":
        text += "."
    text = re.sub(r"!+$", ".", text)
    # One word for naming: "a dog called Rex" and "a dog named Rex" are one statement.
    text = _CALLED.sub(r"\1 named ", text)
    text = re.sub("\ue000(\\d+)\ue001", lambda m: titles[int(m.group(1))], text)
    # A title that ends the sentence with its own "?" or "!" ends it: no period after it.
    return re.sub(r"(?<=[?!][\"”»])\.$", "", text)


#: "This" before a thing the speaker shows or brings up for the first time, as the object of
#: a verb or a preposition: "I took this pic last summer", "I read this awesome book about
#: castles", "I got mentored by this amazing business dude". The thing was pointed at in the
#: talk (a shared photo) or is new to it; a statement read alone names it as "a" thing. Times
#: ("this week") and a thing named again in the sentence ("this one") are not.
_POINTED = re.compile(
    r"(?<=[a-z] )this (?!(?:week|weekend|year|month|day|morning|evening|afternoon|night|time|"
    r"summer|winter|spring|fall|autumn|season|semester|term|point|way|much|one|is|was|has|"
    r"will|would|can|could|and|or|but|so|too|stuff|kind|sort|type|"
    # where the speaker is now, and what is theirs there: "at this job", "in this city"
    r"job|city|town|place|country|area|school|company|team|studio|house|home|neighbou?rhood|"
    r"community|class|course|project|business|life|world|journey|chapter|fight|struggle|battle|"
    r"process|experience)\b)"
    r"(?P<word>[a-z][\w-]+)\b"
)
#: The words after which "this" is an object: a verb of making, getting, showing or liking,
#: or a preposition ("like" is both, and "like this" a pronoun: "a place like this").
_OBJECT_OF = frozenset(
    """at in on to from with about into by for through across upon took take made make makes
    got get gets found painted drew read wrote built baked cooked tried try love loves loved
    likes liked
    saw see watched watching seeing reading trying started joined visited bought buy received
    decorated finished finishing reading using used""".split()
)


#: Words that show a "this" to be a pronoun ("got this as a treat", "like this that").
_NOT_A_NOUN = frozenset(
    "as that which who is was are were will would can could to of in on at for with and or but "
    "so if when because remind reminds made makes means "
    # the verb of a small clause: "I'm gonna make this work", "make this happen"
    "work happen count last".split()
)


def _indefinite(match: re.Match[str]) -> str:
    before = match.string[: match.start()].split()
    word = match.group("word")
    if not before or before[-1].lower() not in _OBJECT_OF or word.lower() in _NOT_A_NOUN:
        return match.group(0)
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def pointed_as_indefinite(text: str) -> str:
    """A thing shown or brought up with "this" named as "a" thing ("I made this bowl in my
    class" -> "I made a bowl in my class"), as a statement names it: for the speaker's own
    words kept whole, which are read as alone as a statement is."""
    return _POINTED.sub(_indefinite, text)


LEADING_DATE = re.compile(
    r"^((?:on|in|around) (?:the (?:week|weekend) (?:of|before|after) )?"
    r"(?:[A-Z][a-z]+day )?\d{1,2} [A-Z][a-z]+ \d{4}|(?:in|around) [A-Z][a-z]+ \d{4}|in \d{4}),?\s+"
    r"(?=(?:I|we|my|our)\b)",
    re.I,
)


def implicit_subject(sentence: str) -> str:
    """Put back the "I" that chat drops: "Just got new shoes" -> "I just got new shoes"."""
    first = sentence.split(" ", 1)[0].lower()
    rest = sentence[0].lower() + sentence[1:]
    if first.endswith("ing") or first == "gonna":
        return "I'm " + rest
    if first in ("been", "gotta") or sentence.lower().startswith("never been "):
        return "I've " + rest
    return "I " + rest


#: Emphatic "do" ("I do prefer Emacs", "I do like oat milk") is emphasis, not the verb: the
#: sentence is read without it (so "prefer" is the cue) and scored as emphatic. Only before a
#: verb: "do" before its object is the verb itself ("I do the dishes", "I do a lot of weight
#: lifting", "I do yoga" were "Thes dishes", "As lot of weight lifting", "Yogas"), so a
#: determiner, a pronoun, a quantifier, a manner or an activity after it keeps it.
EMPHATIC_DO = re.compile(
    r"\b(I|[Ww]e) do (?!(?:not|a|an|the|some|any|my|our|your|his|her|their|this|that|these|"
    r"those|it|them|lots?|much|more|most|all|both|every|each|no|nothing|everything|something|"
    r"anything|what|whatever|well|good|okay|ok|fine|great|better|yoga|pilates|karate|judo|"
    r"crossfit|homework|laundry|dishes|chores|research|work|cardio|weights|stuff|things|"
    r"[a-z]+ing|\d\w*)\b)(?=[a-z])"
)

COMPANION = re.compile(r"^(?:[Mm]y (?:[\w'-]+ ){1,2}|[A-Z][a-z]+ )and I\b")


def with_companion(sentence: str) -> str:
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
