"""The typed cues: which sentences are statements about the speaker, and of what type.

A cue is a pattern with a memory type, an optional conflict key and a strength; the first cue
that matches a sentence decides. `docs/learning.md` lists them. The word classes the cues
share (first person, "we", hedges, emphasis, a temporary state) live here too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import MemoryType
from ..text import NOT_A_STOP

T = MemoryType


FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|Im|Ive)\b|\b(?:my|me|mine|myself)\b", re.I)
I_WORD = re.compile(r"\bI(?:'m|'ve|'d|'ll)?\b")
WE = re.compile(r"\b(?:we|we're|we've|our|us)\b", re.I)
#: Chat drops the "I": "Just got some new shoes", "Researching adoption agencies", "Gotta
#: make time to dance" are the speaker's own statements.
#: An "-ing" opening followed by a finite verb of its own clause is a gerund subject, not a
#: dropped "I'm": "Having people who back you makes a huge difference", "Making a difference
#: to those kids was great", "Painting looks like a great outlet" (a verb of seeming, too).
_GERUND_SUBJECT = (
    r"(?!(?:(?!\b(?:and|but|so|when|because|since|while|if|though|I|we)\b)[^,;:!?.\u2013\u2014])*?"
    r"\b(?:is|was|are|were|must|can|could|will|would|should|has|makes|made|helps|gives|brings|"
    r"means|keeps|takes|feels|seems|felt|seemed|looks|looked|sounds|sounded|becomes|became|"
    r"isn't|wasn't)\b)"
)
IMPLICIT_I = re.compile(
    r"^(?:just |finally |still |been |gotta |gonna |recently |also )?"
    r"(?:(?:got|went|finished|started|bought|signed|made|took|tried|visited|joined|adopted|"
    r"gotta|gonna|can't wait|cannot wait)\b|"
    r"(?:researching|working|looking|planning|thinking|learning|taking|reading|writing|painting|"
    r"training|saving|hoping|trying|getting|having|building|making|doing|loving|enjoying)\b"
    + _GERUND_SUBJECT
    + r")|"
    # the "I've" of a perfect left out: "Been rehearsing hard", "Been only to Rome once",
    # "Never been on a sports team", "Been super busy lately" (not "Been a while": "it's")
    r"^(?:never )?been (?:\w+ing\b|(?:only |just |once |never |already )?(?:to|there|on)\b|"
    r"(?:super |so |really |pretty |very |crazy |kinda )?busy\b)|"
    # "Never had a chance to visit it", "Need help with marketing": a past or a need of
    # the speaker's, with its "I" left out
    r"^never (?:had|got|went|tried|saw|knew|did|made|played|visited|learned|learnt|heard|"
    r"thought|liked|wanted|finished)\b|^need (?:help|to|some|a|more)\b",
    re.I,
)

HEDGES = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|i think|i guess|i suppose|kind of|kinda|sort of|"
    r"sorta|not sure|might|may be|i believe|seems)\b",
    re.I,
)
EMPHASIS = re.compile(
    r"\b(?:always|never|must|absolutely|definitely|really|truly|seriously|hate|love|"
    r"can't stand|non-negotiable|no matter what)\b|!",
    re.I,
)
TEMPORARY = re.compile(
    r"\b(?:right now|at the moment|currently|this week|today|tonight|for now|these days|"
    r"lately)\b",
    re.I,
)


@dataclass(frozen=True)
class Cue:
    """One rule: where it matches a sentence, the sentence is a memory of `type`."""

    name: str
    type: MemoryType
    pattern: re.Pattern[str]
    strength: float
    key: str | None = None  # a key template; {1} is the pattern's first group, normalised


#: Adverbs a person puts between "I" and the verb: "I still live in Porto", "I'm currently
#: working on". Every cue allows any number of them there. Not the adverbs that deny the
#: verb ("I rarely use Zotero", "I hardly ever cook" say the speaker does not): a cue read
#: through them would state the opposite.
ADVERB_SLOT = (
    r"(?:(?:still|also|currently|really|just|now|actually|totally|absolutely|definitely|"
    r"usually|always|often|recently|finally|mostly|kinda|even|already|honestly|"
    r"probably|maybe|truly|seriously|"
    r"(?!(?:apply|reply|rely|supply|multiply|comply|imply|fly|ally|rarely|hardly|barely|"
    r"scarcely|infrequently)\b)[a-z]{2,}ly) )*"
)


#: What a "have to", "must" or "need to" is followed by when it is a thing to get done (a
#: to-do: a goal), not a limit the speaker lives with ("I have to be home by 6", "I need to
#: avoid gluten"): a verb of getting or arranging, then a thing not yet had.
_ERRAND = (
    r"\s+(?:find|buy|get|book|order|hire|look for|pick up|sort out|arrange|renew|replace)\s+"
    r"(?:a|an|some|another|new|more)\b"
    # ... but a rule of every time is a limit: "I must get a signature for any expense over
    # 500 euros", "I need to get a permit for every event I run" (a code review)
    r"(?![^.;!?]*\b(?:for|on|with|before|after) (?:any|every|each|all)\b)"
)
_NOT_AN_ERRAND = f"(?!{_ERRAND})"


def _cue(
    name: str, mtype: MemoryType, pattern: str, strength: float, key: str | None = None
) -> Cue:
    pattern = pattern.replace(r"\bI ", r"\bI " + ADVERB_SLOT)
    pattern = pattern.replace(r"\bI(?:'m| am) ", r"\bI(?:'m| am) " + ADVERB_SLOT)
    pattern = pattern.replace(r"\bwe ", r"\bwe " + ADVERB_SLOT)
    # "I or we": "I now use Zotero", "We still take the train to work" (without it a cue
    # written for both missed every sentence with an adverb in that place).
    pattern = pattern.replace(r"\b(?:I|we) ", r"\b(?:I|we) " + ADVERB_SLOT)
    return Cue(name, mtype, re.compile(pattern, re.I), strength, key)


#: Capitalised words after "I'm" that are not names: a nationality, a faith or a star sign
#: ("I'm Canadian", "I'm Catholic"), a word capitalised for emphasis, and any word that
#: ends as a demonym does ("-ese", "-ish": "Japanese", "Polish").
_NOT_A_NAME = (
    r"(?-i:(?:[A-Z]\w*(?:ese|ish))|American|Canadian|Mexican|Brazilian|Argentinian|"
    r"Colombian|Peruvian|Chilean|Cuban|Jamaican|Haitian|Australian|German|French|Dutch|"
    r"Italian|Portuguese|Greek|Swiss|Austrian|Belgian|Czech|Hungarian|Romanian|Russian|"
    r"Ukrainian|Indian|Pakistani|Bangladeshi|Nepali|Israeli|Iranian|Persian|Iraqi|Arab|"
    r"Egyptian|Moroccan|Nigerian|Kenyan|Ghanaian|Ethiopian|Korean|Thai|Filipino|"
    r"Indonesian|Malaysian|African|Asian|European|Latino|Latina|Hispanic|Black|White|"
    r"Christian|Catholic|Protestant|Mormon|Muslim|Jewish|Hindu|Buddhist|Sikh|Atheist|"
    r"Agnostic|Libra|Leo|Virgo|Gemini|Aries|Taurus|Cancer|Scorpio|Sagittarius|Capricorn|"
    r"Aquarius|Pisces|Fine|Good|Great|Okay|OK|Ok|Sorry|Back|Here|Done|Ready|Sure|Happy|"
    r"Tired|So|Not|Just|Really|Very|Also|Still|In|On|At|Excited|Glad|Thinking)"
)
#: Occupations: a person has one at a time as a rule, so "I'm a nurse" fills the role slot
#: (a later "I'm a pharmacist" is a change of mind).
_OCCUPATIONS = (
    r"engineer|developer|programmer|teacher|nurse|doctor|designer|manager|lawyer|chef|"
    r"scientist|researcher|counselor|counsellor|consultant|therapist|accountant|architect|"
    r"pilot|firefighter|officer|mechanic|electrician|carpenter|farmer|pharmacist|dentist|vet|"
    r"veterinarian|analyst|professor|lecturer|editor|journalist|baker|barista|social worker|"
    r"librarian|paramedic|plumber|surgeon|technician|administrator|"
    # the titles of a job one holds at a company: "I'm now a director of product at Contoso"
    r"director|executive|ceo|cto|cfo|coo|vice president|vp|tech lead|team lead"
)
#: Roles a person holds beside an occupation ("I'm a mom", "I'm a painter", "I'm a student"):
#: an identity, but no slot, since one does not replace another.
_ROLES = (
    r"student|writer|author|artist|musician|cook|photographer|painter|dancer|singer|"
    r"entrepreneur|founder|freelancer|veteran|coach|trainer|athlete|player|mom|mum|dad|"
    r"mother|father|parent|retiree|intern"
)
RELATIONS = (
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
        # "call me Sam", not "call me before 9" or "call me back": a capital there is a name
        r"\bmy name(?:'s| is)\s+([A-Z][\w'-]+)|\bcall me\s+((?-i:[A-Z][\w'-]+))|"
        r"\bI(?:'m| am) called\s+([A-Z][\w'-]+)|"
        # a clause that is only "I'm" and a capitalised word is an introduction ("I'm
        # Priya."), unless the word is no name (`_NOT_A_NAME`: "I'm Canadian", "I'm Sorry")
        rf"^(?:(?:hi|hello|hey)(?: there)?,?\s+)?I(?:'m| am)\s+(?!{_NOT_A_NAME}\b)"
        r"((?-i:[A-Z][\w'-]+))\W*$",
        0.9,
        "identity/name",
    ),
    _cue(
        "age",
        T.IDENTITY,
        r"\bI(?:'m| am)\s+(\d{1,3})(?: years? old|\b(?!\s*(?:%|km|mi|kg|lb)))|"
        # a birthday, lately: "I turned 35 today" is the age now ("I turned 18 in 1999" is a
        # past one, "I turned 5 pages" no age)
        r"\bI turned\s+(\d{1,3})(?: years? old)?(?=\s*(?:today|yesterday|this (?:week|month|"
        r"weekend)|last (?:week|month|weekend)|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)?"
        r"\s*(?:[.!,;]|$))",
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
        r"\bI(?:'ve| have) (?:just )?(?:started|joined) (?:working )?at\s+[A-Z]|"
        # a job taken: "I started a new job at Contoso last week" (a new employer, not a
        # project started)
        r"\bI(?:'ve| have)? (?:just )?started (?:a |my )?(?:new )?job at\s+(?-i:[A-Z])|"
        # "I joined Contoso (last month / as a designer)": a name that ends the clause, not a
        # person joined for something ("I joined Sam for dinner")
        r"\bI(?:'ve| have)? (?:just )?joined (?-i:[A-Z][\w&-]*(?: [A-Z][\w&-]*)*)"
        r"(?=\s*(?:$|[.,;!?])| as an? \w| (?:in|on|last|this|back in) \w+\s*[.!]?\s*$)",
        0.85,
        "identity/employer",
    ),
    _cue(
        "role",
        T.IDENTITY,
        rf"\bI (?:work|am working|'m working) as an?\s+|"
        rf"\bI(?:'m| am) (?:a|an)\s+(?:[\w'-]+\s+){{0,3}}(?:{_OCCUPATIONS})\b|"
        # a post named by the field one heads: "I'm now the head of design at Figma" (not
        # "the director of the school play": a thing of its own, no field of work)
        r"\bI(?:'m| am) (?:now )?the (?:new )?(?:head|director) of (?!(?:the|a|an|my|our)\b)|"
        # held up to now: "I've been a teacher for ten years" (not "I was a teacher")
        rf"\bI(?:'ve| have) been (?:a|an)\s+(?:[\w'-]+\s+){{0,3}}(?:{_OCCUPATIONS})\b"
        r"(?=[^.!?]*\b(?:for|since)\b)",
        0.85,
        "identity/role",
    ),
    _cue(
        "life role",
        T.IDENTITY,
        rf"\bI(?:'m| am) (?:a|an)\s+(?:[\w'-]+\s+){{0,3}}(?:{_ROLES})\b|"
        rf"\bI(?:'ve| have) been (?:a|an)\s+(?:[\w'-]+\s+){{0,3}}(?:{_ROLES})\b"
        r"(?=[^.!?]*\b(?:for|since)\b)",
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
        r"\bI (?:speak|studied|graduated|majored)\b|\bmy (?:degree|major|background)\b|"
        # a language the speaker has: "I'm fluent in Spanish", "I'm a native speaker"
        r"\bI(?:'m| am) (?:fluent|bilingual|trilingual|a native speaker|native in)\b|"
        # the kind of person one is: "I'm not a morning person", "I'm a people person"
        r"\bI(?:'m| am) (?:not )?(?:really |much of )?(?:a|an) (?:[\w'-]+ ){1,2}person\b",
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
        r"\bI (?:have to|must|need to)\b" + _NOT_AN_ERRAND + r"|\bmy (?:budget|deadline|limit)\b|"
        # a budget or deadline named by what it is for: "my thesis deadline", "our release
        # deadline" (a noun or two before the head noun)
        r"\b(?:my|our) (?:[\w-]+ ){1,2}(?:budget|deadline|limit)\b|"
        r"\bI only have\b|\bnon-negotiable\b|"
        # a standing request to the assistant, as `sentences.STANDING_REQUEST` reads it
        r"^I ask (?:not|never) to\b|"
        # the constraints of the user's team or family: "we can't ship copyleft code"
        r"\bwe (?:can't|cannot|can not|mustn't|only have)\b|"
        r"\bwe (?:have to|must|need to)\b" + _NOT_AN_ERRAND + "|"
        r"\bwe(?:'re| are) not (?:allowed|permitted) to\b|"
        r"\bour (?:budget|deadline|limit|policy|rules?)\b",
        0.8,
    ),
    _cue(
        # A plan or state given up, said outright: the newest word on it, as explicit as the
        # statement it ends ("I'm no longer vegetarian" over "I'm vegetarian"), so a tie with
        # any direct statement goes to the newer (docs/learning.md, Conflicts).
        "drop",
        T.DECISION,
        # (Not "I quit my job", "I don't have a car anymore": what happened, an episode.)
        r"\bI(?:'m| am) no longer\b|\bI (?:no longer|stopped|gave up)\b" + NOT_A_STOP + "|"
        r"\bI(?:'ve| have) (?:just |finally |now |already )?(?:stopped|given up)\b"
        + NOT_A_STOP
        + "|"
        r"\bI(?:'m| am) not\b(?:\s+[\w'-]+){1,4}?\s+any ?more\b",
        0.9,
    ),
    _cue(
        "decision",
        T.DECISION,
        r"\b(?:I|we)(?:'ve| have)? (?:just )?(?:decided|chose|chosen|"
        r"settled on|opted|picked|went with|switched to|committed to)\b|\b(?:I|we)(?:'m| am|'re| "
        r"are) going (?:to go )?with\b|\bmy decision\b|"
        # "We switched from Jenkins to GitHub Actions": the old one named before the new one
        r"\b(?:I|we)(?:'ve| have)? (?:just )?switched from\b",
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
        r"obsessed with|crazy about|fond of)\b|"
        r"\bI(?:'m| am) an? (?:big |huge )?(?:[\w'-]+ ){1,3}fan\b|"
        # a favourite not named by its kind: "One of my favorites is ...", "My favorite is"
        r"\b(?:(?:one|some|two|a few) of )?my (?:all-time |absolute )?favou?rites?\b"
        r"(?= (?:is|are|was|were|has to be|have to be|would be)\b)",
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
        r"\bwe (?:want|wanna|hope|plan|aim|intend)\b|"  # the user's family's or team's goals
        r"\bI(?:'m| am) (?:training|preparing|practi[cs]ing|studying) for\b|"
        # the simple present of the same aim: "I train for a triathlon" (not for a length of
        # time: "I train for an hour every day" is a habit)
        r"\bI (?:train|prepare) for\s+(?!(?:an?|one|two|three|half an?|\d+) "
        r"(?:hours?|minutes?|mins?|days?|weeks?)\b)|"
        r"\bI(?:'m| am) (?:learning|studying)\s+(?!about\b)\w|"
        r"\bI(?:'ve| have) (?:always |long )?(?:wanted|dreamed|dreamt|hoped) (?:to|of)\b|"
        r"\bI(?:'d| would) (?:love|like) to\b|"
        # a thing to get done: "We need to find a dog walker", "I have to buy a new laptop"
        r"\b(?:I|we) (?:have to|must|need to)(?=" + _ERRAND + ")|"
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
        r"\bI (?:usually|always|often|mostly|normally|typically|regularly|tend to|"
        r"never miss|practice|practise)\b|"
        r"\bwe (?:usually|always|often|normally|typically|regularly)\b|"
        r"\bevery (?:other |single )?(?:day|morning|evening|night|week|weekend|"
        r"month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:once|twice|"
        r"three times) a (?:day|week|month|year)\b|\bI(?:'ve| have) been (?:\w+ing)\b|"
        # a frequency by a quantifier ("most days", "on weekends"), or a routine: a way of
        # going to the places of a person's week ("I take the train to work")
        r"\b(?:most|many|some) (?:days|mornings|evenings|nights|weekends|weeks)\b|"
        r"\bon (?:the )?(?:weekdays|weekends)\b|"
        r"\b(?:I|we) (?:take|ride|catch|drive|walk|bike|cycle|commute)\b[^.,;!?]*?"
        r"\bto (?:work|school|the office|class|college|uni)\b",
        0.75,
    ),
    _cue(
        # a tool or method in use is a preference ("I use VS Code for editing", "Our team uses
        # trunk-based development"): what an assistant should assume next time
        "tool",
        T.PREFERENCE,
        r"\b(?:I|we) (?:use|rely on)\b|\bour (?:[\w-]+ ){1,2}(?:uses|relies on)\b",
        0.8,
    ),
    _cue(
        # a change of life in the progressive is a plan decided on ("I'm moving to Berlin in
        # March", "I'm quitting in June to start a bakery"), not an episode
        "plan",
        T.DECISION,
        r"\b(?:I|we)(?:'m| am|'re| are) (?:moving|relocating|quitting|leaving|retiring|"
        r"emigrating|switching|transferring)\b(?! (?:on|along|forward|past|around)\b)",
        0.75,
    ),
    _cue(
        "relationship",
        T.RELATIONSHIP,
        rf"\b(?:my|our) (?:(?:\w+|little|older|younger|big) )?"
        rf"(?:{RELATIONS})\b|\bI(?:'m| am) (?:married|engaged|dating)\b|"
        # who a person has, counted and described: "We have two grown children", "We have
        # two dogs and a cat", "I have a little sister"
        r"\b(?:I|we) have (?:(?:a|an|one|two|three|four|five|six|\d+|several|some) )?"
        r"(?:[\w'-]+ ){0,2}(?:kids|children|child|sons?|daughters?|siblings|sisters?|"
        r"brothers?|dogs?|cats?|pets?|puppy|puppies|kittens?|grandkids|grandchildren|twins|"
        r"stepkids|stepchildren)\b(?!'| (?:food|toys?|books?|shows?|movies?|videos?|hair)\b)|"
        # one named: "I have a golden retriever called Mango" (a pet, or a person)
        r"\b(?:I|we) have (?:a|an) (?:[\w'-]+ ){1,3}(?:called|named) (?-i:[A-Z])",
        0.75,
    ),
    _cue(
        # the choice as the second verb of the speaker's clause, which has the first verb's
        # subject (the cues read only sentences about the speaker): "I dropped physics and
        # switched to biology", "We saw three flats and decided on the one by the park"; after
        # the relationship cue ("My sister moved to Paris and decided to stay" is about her),
        # before the episode cue (what was done led to the choice)
        "choice after and",
        T.DECISION,
        r"\b(?:and|but) (?:then |later |finally |eventually )?"
        r"(?:decided|chose|opted|settled on|went with|switched to|switched from)\b",
        0.85,
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
        r"swam|cooked|baked|drew|sang|danced|competed|studied|taught|raised|hurt|injured|"
        r"sprained|twisted|tore)\b",
        0.7,
    ),
)


def cue_key(cue: Cue, match: re.Match[str]) -> str | None:
    if cue.key is None:
        return None
    if "{1}" not in cue.key:
        return cue.key
    value = next((g for g in match.groups() if g), "")
    slug = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
    return cue.key.replace("{1}", slug) if slug else None


#: Any other first-person statement: the weakest rule.
WEAK = Cue("statement", T.EPISODE, I_WORD, 0.6)
#: A statement whose subject is "we", the speaker with their family, team or friends ("We
#: faced tough opponents", "Then we drove up the coast"): the speaker is one of the subject,
#: so it is a little stronger than `WEAK`, and stored (inferred) at the default threshold.
#: Not with a modal ("we could play Mario Kart", "we'll pick you up": in a chat, mostly a
#: proposal to the listener, who is then one of "we"), nor "we all" (everyone: "we all have to
#: start somewhere"); "our" or "us" alone ("It reminds us of home") says less and stays under.
WE_SUBJECT = re.compile(
    r"^(?:(?:so|and|but|then|now|also|plus|yeah|yes|oh|well|honestly|luckily|sadly|"
    r"finally),?\s+)*we(?:'re|'ve)?\b(?!'|\s+(?:all|could|can|should|might|may|will|would|"
    r"shall|must|gotta|need|have to|got to)\b)",
    re.I,
)
WE_WEAK = Cue("statement", T.EPISODE, WE_SUBJECT, 0.65)
