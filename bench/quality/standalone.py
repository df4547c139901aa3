"""Does each stored memory stand alone? A deterministic checker of memories' statements.

Issue #11 asks that every memory be a statement that can be read alone: no reaction or
politeness ("Sam is sorry to hear that", "Sam is sure you'd like it"), and no reference to
something the statement does not say ("He's Sam's best friend.", "Sam loves the challenge
of it."). A person judging a sample finds these by reading; this module finds them by rules
over the statement alone, so a share can be measured on every memory of a run and compared
before and after a change. It is a measure, not the extractor: it errs where the extractor
errs (it cannot tell "the history" of what), and a hand-checked sample beside its share says
how far it can be trusted (docs/quality.md).

Each memory is one of:

- `reaction`: a reaction to the last turn, politeness, praise or a promise about the
  conversation ("Sam will have to check it out");
- `listener`: a statement that speaks to the listener ("you"), whom it does not name;
- `dangling`: a pronoun or demonstrative subject or object ("it", "that", "them", "he",
  "there", "one") with no noun before it in the statement (a framed reply's quoted turn
  counts as before it), or an ellipsis ("Sam has always wanted to.", "Sam does too.");
- `ok`: neither.

    python -m bench.quality.standalone --locomo bench/out/locomo/memories.jsonl
    python -m bench.quality.standalone --spc /tmp/spc-out/memories.jsonl --sample 50 --seed 4

`--locomo` reads `bench.quality.locomo`'s `memories.jsonl` (`--split tune|held` keeps one part,
`fused.split_of`), `--spc` reads `spc_eval.py --out`'s. `--sample N` prints N memories drawn with
`random.Random(seed)`, each with its class and the turn it cites, for a hand check.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: 'Replying to "...", Sam said: "..."' / 'Asked "...", Sam said: "..."': a reply kept with
#: the turn it answers (the quoted turn is where its reference may be resolved).
_FRAMED = re.compile(
    r'^(?:Replying to|Asked) "(?P<context>.*)", (?P<who>.+?) said: "(?P<body>.*)"$'
)
#: 'Sam said: "..."' (the speaker's own words kept whole) or 'Sam said: ...' (a remark).
_SAID = re.compile(r'^(?P<who>.+?) said: "?(?P<body>.*?)"?$')

_PRONOUN_SUBJECT = re.compile(
    r"^(?:he|she|they|it|that|this|those|these|him|her|them)(?:'s|'re|'ve|'d|'ll)?\b", re.I
)
#: An "it" that stands for nothing: the weather, the time, a clause after it ("It's hard to
#: say no", "It was a while ago", "It's been a great year", "It takes time").
_EXPLETIVE_IT = re.compile(
    r"^it(?:'s| is| was| has been|'s been| will be| would be| can be| gets| got)?\s+"
    r"(?:(?:so|really|very|quite|pretty|always|never|not|also|just|been|a|an|the|\w+ly)\s+)*"
    r"(?:\w+\s+)?(?:to|that|when|how|if|since|for \w+ to|because)\b|"
    r"^it(?:'s| is| was)\s+(?:\w+\s+)?(?:time|raining|snowing|cold|hot|sunny|late|early|"
    r"been (?:a|an|\d+|years|months|weeks|days|ages|forever))\b|"
    r"^it (?:takes|took|helps|helped|means|meant|makes|made) \w+",
    re.I,
)
#: A pronoun or demonstrative as an object, at the end of its clause or before a phrase: the
#: thing the statement is about, not named in it.
_PRONOUN_OBJECT = re.compile(
    r"\b(?P<p>it|them|that|this|those|these|him)"
    r"(?:\s+(?:too|as well|either|a lot|so much|very much|anymore|again|before|yet|now|all|"
    r"both|though|lately|sometimes|often|every \w+|a bit|more|most|even more|already))*"
    r"(?P<end>\W*$|\s*[,;]|\s+(?:and|but|so|because|since|for|in|at|on|with|when|while|as|"
    r"every|since|after|before|because)\b)",
    re.I,
)
#: "her" only where nothing follows it (else it is "her car").
_HER_OBJECT = re.compile(r"\b(?P<p>her)(?:\s+(?:too|a lot|so much|again|now))*\W*$", re.I)
#: "one" standing for a thing: "Sam wants one", "Sam has one too".
_ONE = re.compile(
    r"\b(?:a|have|has|had|got|get|want|wants|need|needs|buy|bought|own|owns) (?P<p>one)"
    r"(?:\s+(?:too|as well|someday|one day|soon|day|of these days))*\W*$",
    re.I,
)
#: "there" after a verb of going or being, with no place named.
_THERE = re.compile(
    r"\b(?:been|went|go|goes|going|live|lives|lived|living|moved|move|stayed|stay|visit|"
    r"visited|get|got|work|works|worked|grew up|studied|born) (?P<p>there)\b",
    re.I,
)
#: "of it" / "of them": the noun before is the part, not what the pronoun stands for.
_PART_OF = re.compile(r"(?:\w+\s+)?\w+\s+of\s*$", re.I)
#: The cataphoric or idiomatic "it": "Sam loves it when ...", "made it to the finals", "it all".
_IDIOM_IT = re.compile(
    r"\bit(?= when| if| that| all\b)|\b(?:make|makes|made|making) it\b|\bget it\b|"
    r"\b(?:take|took|taking) it (?:easy|slow|one)|\bthat (?:much|far|long|way|kind)\b",
    re.I,
)
#: The verbs of liking: a demonstrative after one is "the thing liked", named nowhere.
_LIKING = re.compile(
    r"\b(?:loves?|loved|likes?|liked|enjoys?|enjoyed|prefers?|preferred|hates?|hated|adores?|"
    r"fond of|into|obsessed with|passionate about|a fan of|excited about|interested in)"
    r"\s+(?:\w+ly\s+)?(?:doing\s+)?$",
    re.I,
)
#: An ellipsis: what is done, had or wanted is in the turn before ("Sam does too.", "Sam has
#: always wanted to.", "So does Sam.").
_ELLIPSIS = re.compile(
    r"\b(?:do|does|did|have|has|had|am|is|was|can|could|will|would)(?:n't| not)?"
    r"(?: (?:too|as well|either))\W*$|"
    r"\b(?:want|wants|wanted|like|likes|love|loves|need|needs|going|hope|hopes|plan|plans|"
    r"have|has|used|try|tried|trying|able|able|meaning|meant|got)\s+to\W*$|"
    r"^so (?:do|does|did|am|is|have|has)\b",
    re.I,
)
#: Nouns that name a part or an aspect of something ("the cast" of a film, "the food" of a
#: country): liked with "the" and nothing after, they leave out what they belong to.
_ASPECTS = (
    r"story|stories|characters?|cast|plot|humou?r|lyrics|beats|melody|music|soundtrack|"
    r"atmosphere|vibes?|energy|food|culture|people|history|architecture|scenery|views?|"
    r"taste|texture|flavou?rs?|spices|colou?rs|sauce|smell|staff|services|competition|"
    r"challenge|freedom|convenience|excitement|drama|action|speed|power|process|work|"
    r"feel|feeling|weather|design|graphics|gameplay|writing|acting|ending|community|crowd"
)
#: Only such nouns liked, with nothing to say of what ("Sam loves the history and the
#: culture.": of where?): a part of something the statement does not name.
_ONLY_DEFINITE = re.compile(
    r"^(?:I |I've |I have )?(?:(?:\w+ly|really|also|just|always|still|do|does) )*"
    r"(?:loves?|likes?|enjoys?|loved|liked|enjoyed|miss(?:es)?|missed|adores?|appreciates?) "
    rf"the (?:[a-z-]+ )?(?:{_ASPECTS})(?:,? (?:and|or) (?:the )?(?:[a-z-]+ )?(?:{_ASPECTS}))*"
    r"(?: (?:too|as well|the most|so much|a lot|especially))?\W*$",
)
#: A demonstrative before its noun with nothing after to say which ("Watching that movie
#: with Tim's family was awesome"): the thing was pointed at in the talk, not named. Times
#: ("this week") and a noun said again later in the statement are no such reference.
_DEMONSTRATIVE_PHRASE = re.compile(
    r"(?<!\bof )(?<!\blike )\b(?P<det>this|those|these|that)\s+(?:(?:\w+ly|new|old|great|amazing|"
    r"awesome|special|little|big|same|other) )?"
    r"(?!(?:week|weekend|year|month|day|days|morning|evening|afternoon|night|time|times|summer|"
    r"winter|spring|fall|autumn|season|semester|point|way|much|many|kind|sort|type|is|was|are|"
    r"were|has|had|have|will|would|can|could|must|and|or|but|so|too|one|ones|with|who|that|"
    r"which|in|at|on|for|of|to|from|about|new|old|great|amazing|awesome|special|little|big|"
    r"same|other)\b)"
    r"(?P<noun>[a-z][\w-]{2,})\b"
    # a relative clause or a complement after the noun says which
    r"(?!\s+(?:of|for|about|that|which|who|where|I|you|he|she|we|they|called|named)\b)",
)
#: "That" is most often a relative or a complementiser ("books that keep ..."): it points
#: at a thing only after a preposition or a verb of seeing or making ("at that event").
_THAT_POINTS = re.compile(
    r"\b(?:at|in|on|to|from|with|about|watching|seeing|saw|see|watched|painted|made|tried|try|"
    r"love|loved|like|liked)\s*$",
    re.I,
)
#: A noun phrase a pronoun can stand for: a determiner and a word, a number and a word, a name
#: inside the sentence, or a gerund object ("Sam loves hiking and does it often").
_NOUN_PHRASE = re.compile(
    r"\b(?:a|an|the|my|his|her|their|our|your|its|some|any|this|that|these|those|every|each|"
    r"no|one|two|three|four|five|six|many|several|\d+)\s+"
    r"(?!lot\b|bit\b|few\b|little\b|(?:is|was|'s|sounds?|looks?|seems?|must|would|will|can|"
    r"could|might|should|has|had|does|did)\b)[\w'-]{3,}|"
    r"(?<=\s)(?-i:[A-Z][a-z]{2,})|"
    # a gerund object ("loves hiking and does it"), not a progressive ("is trying it")
    r"(?<!\bbeen )(?<!\bis )(?<!\bam )(?<!\bare )(?<!\bwas )(?<!\b's )(?<!\b'm )"
    r"\b(?!(?:going|being|during|something|nothing|anything|everything|thing|bring)\b)"
    r"\w{3,}ing\b|"
    # a bare plural, not a verb after its subject or "and", nor a word that only ends in s
    r"(?<!\band )(?<!\bbut )(?<!\bwho )(?<!\balso )(?<!^)"
    r"\b(?!(?:was|has|does|always|this|its|his|hers|yes|less|plus|sometimes|perhaps|thus|"
    r"unless|across|towards|us|ours|yours|theirs|anyways|nowadays|news|goes|lots|seems|"
    r"looks|sounds|makes|takes|gets|says|loves|likes|enjoys|hates|wants|needs|thinks|"
    r"knows|feels|tries|plans|hopes)\b)[a-z]{3,}s\b",
    re.I,
)
#: Words of a quoted turn that name no thing: a reaction's words and the commonest verbs.
_NAMES_NOTHING = frozenset(
    """good great cool nice awesome amazing interesting fun sounds sound looks look seems seem
    really pretty very much lot lots thing things something like love loves liked loved enjoy
    well okay sure know think guess mean right yeah wow thanks thank never always usually
    sometimes often just maybe probably want wanted need make made take took give gave tell
    told said says come came hope wish feel felt little bit kind sort though time times also
    still back even ever better best""".split()
)


def _names_a_thing(text: str) -> bool:
    """Whether a quoted turn or an earlier sentence holds a word that can be what a reply's
    pronoun stands for: a noun phrase, or any content word ("I've never played softball.")."""
    from tota_vault.text import STOPWORDS

    if _NOUN_PHRASE.search(text):
        return True
    words = re.findall(r"[a-z][a-z'-]{3,}", text.lower())
    return any(w not in STOPWORDS and w not in _NAMES_NOTHING for w in words)


#: A person a "he"/"she"/"him"/"her" can stand for: a name or a relation.
_PERSON = re.compile(
    r"(?-i:\b[A-Z][a-z]+)|\b(?:son|daughter|brother|sister|mom|mum|mother|dad|father|husband|"
    r"wife|partner|boyfriend|girlfriend|friend|boss|manager|cousin|uncle|aunt|grandma|grandpa|"
    r"grandmother|grandfather|niece|nephew|kid|child|baby|teacher|coach|neighbor|neighbour|"
    r"colleague|coworker|doctor|dog|cat|puppy|kitten|horse|guy|man|woman|boy|girl)s?\b",
    re.I,
)
#: A place "there" can stand for: a name or a place noun after a preposition.
_PLACE = re.compile(
    r"(?-i:\b[A-Z][a-z]+)|\b(?:in|at|to|from|near)\s+(?:the\s+|a\s+|my\s+)?\w{3,}", re.I
)

#: Reactions, politeness and promises about the conversation (the reply's words).
_REACTION = re.compile(
    r"^(?:thanks|thank you|thx|sorry|congrats|congratulations|wow|aww|haha|lol|good luck|"
    r"take care|nice to meet|pleased to meet|you're welcome|no problem|no worries|cool|"
    r"awesome|great|amazing|sounds|me too|same here|oh|ah|ok|okay|yeah|yes|yep|nope|no|hmm|"
    r"hi|hello|hey|bye|welcome|what a|how (?:cool|nice|awesome|great|fun|sweet|lovely))\b|"
    r"^(?:that|this|it|they|those)(?:'s| is| are| was| were|'re)?\s+(?:so |really |just |pretty )?"
    r"(?:sounds?|looks?|seems?|great|awesome|amazing|cool|nice|wonderful|fantastic|"
    r"incredible|beautiful|lovely|interesting|fun|sweet|cute|exciting|impressive|terrible|"
    r"awful|sad|tough|hard|rough)\b(?! (?:to|that|when|how|if)\b)",
    re.I,
)
#: The speaker's stance on what the listener said, in the statement's third person ("Sam is
#: sorry to hear that", "Caroline is so glad", "Sam agrees", "Sam can imagine").
_STANCE = re.compile(
    r"^(?:is|am|are|was|'m)\s+(?:so |really |very |truly |super |just )*"
    r"(?:sorry|glad|happy|thrilled|excited|sure|proud|impressed|jealous|grateful|thankful)"
    r"(?:\s+(?:to (?:hear|see|know|read|meet|talk|chat|help)|for (?:you|that|it|this|asking)|"
    r"about (?:that|it|this)\W*$|you|that|it|this|of you)\b|\W*$)|"
    r"^(?:agrees?|bets?|understands?|can (?:imagine|relate|tell|see|understand)|"
    r"knows? (?:what|how)|feels? the same|hopes? (?:you|so|that|it)|wish(?:es)? (?:you|I)|"
    r"appreciates?|can't wait to (?:hear|see|try|check)|totally|definitely agree)\b|"
    r"^(?:is|'m|am) (?:really |so )?looking forward to (?:it|that|this)\W*$|"
    r"^wish(?:es)? (?:I|they) (?:could|had) (?:\w+ )?(?:that|it|this|too|the same)\b|"
    r"^(?:will|'ll|would|has to|needs to|must|should|is going to|is gonna)\s+"
    r"(?:have to |need to |definitely |totally |try to )*"
    r"(?:check|try|look|keep|give|think about|consider|remember|let|look into)\b"
    r"(?:[\w' ]{0,30})\b(?:it|that|this|them|those|out|you)\b",
    re.I,
)
#: The listener spoken to: "you" left in a statement about the speaker.
_LISTENER = re.compile(r"\b(?:you|your|you're|you've|you'd|you'll|yours|yourself|ya)\b", re.I)
#: Where a statement about the speaker starts after its subject.
_LABEL = re.compile(r"^(?:The user|the user)(?:'s)?\s+|^(?-i:[A-Z][a-z]+)(?:'s)?\s+(?=\S)")


#: The classes, in the order a memory is tested for them.
KINDS = ("reaction", "listener", "dangling", "ok")


@dataclass(frozen=True)
class Verdict:
    """A memory's class (one of `KINDS`) and why, in a few words."""

    kind: str
    why: str = ""


def parts(text: str, labels: Iterable[str] = ()) -> tuple[str, str]:
    """A memory's statement as (what it may lean on, what it says): a framed reply's quoted
    turn and its reply, or nothing and the statement without its subject ("Sam loves it." ->
    "loves it.")."""
    text = text.strip()
    framed = _FRAMED.match(text)
    if framed is not None:
        return framed.group("context"), framed.group("body")
    said = _SAID.match(text)
    if said is not None and len(said.group("who").split()) <= 3:
        return "", said.group("body")
    for label in sorted(labels, key=len, reverse=True):
        if text.startswith(label + " "):
            return "", text[len(label) + 1 :]
    if text.lower().startswith("the user "):
        return "", text[len("the user ") :]
    return "", text


def _is_reply(body: str) -> bool:
    """A body in the speaker's own first person (a framed or quoted reply), not the
    statement's third person."""
    return re.search(r"\b(?:I|I'm|I've|my|me)\b", body) is not None


def classify(text: str, labels: Iterable[str] = ()) -> Verdict:
    """The class of one memory's statement; `labels` are the names statements open with
    ("Sam", "Caroline") so that "Sam loves it." is read as "loves it."."""
    context, body = parts(text, labels)
    words = body.strip()
    reply = _is_reply(words)
    if _REACTION.match(words):
        return Verdict("reaction", "a reaction or pleasantry")
    plain = re.sub(r"^(?:I|I'm|I am|I've|I'd|I'll)\s*", "", words) if reply else words
    plain = re.sub(r"^(?:'m|am|is)\b", "is", plain)
    if _STANCE.match(plain):
        return Verdict("reaction", "a stance on the listener's words")
    if _LISTENER.search(words):
        return Verdict("listener", "speaks to the listener")
    return _dangling(context, words)


def _dangling(context: str, body: str) -> Verdict:
    """`dangling` and why, or `ok`: the reply's pronoun subject, then its pronoun objects,
    then what it likes or points at, then an ellipsis, each against what it may lean on."""
    if _REACTION.match(context.strip()):
        context = ""  # "Wow, that sounds amazing!": a turn that names nothing
    why = _subject_dangles(context, body) or _object_dangles(context, body)
    if why is None and not context and _ONLY_DEFINITE.match(body):
        why = "the part of a thing not named"
    if why is None and not _names_a_thing(context):
        why = _pointed_at(body)
        if why is None and _ELLIPSIS.search(body):
            why = "an ellipsis"
    return Verdict("ok") if why is None else Verdict("dangling", why)


def _subject_dangles(context: str, body: str) -> str | None:
    head = _PRONOUN_SUBJECT.match(body)
    if head is None or _EXPLETIVE_IT.match(body):
        return None
    word = head.group(0).lower().split("'")[0]
    if word in ("he", "she", "him", "her"):
        return None if _PERSON.search(context) else f"subject '{word}'"
    return None if _names_a_thing(context) else f"subject '{word}'"


def _object_dangles(context: str, body: str) -> str | None:
    for pattern in (_PRONOUN_OBJECT, _HER_OBJECT, _ONE, _THERE):
        for found in pattern.finditer(body):
            if found.group("p") == "IT":
                continue  # information technology
            word = found.group("p").lower()
            start = found.start("p")
            if word == "it" and _IDIOM_IT.search(body[max(0, start - 8) : start + 10]):
                continue
            if word == "that" and _IDIOM_IT.search(body[start : start + 12]):
                continue
            before = body[:start]
            if not _leans_on_nothing(word, context, before):
                continue
            if word != "there" and _LIKING.search(before):
                return f"'{word}' as the thing liked"
            return f"object '{word}'"
    return None


def _leans_on_nothing(word: str, context: str, before: str) -> bool:
    """Whether nothing before a pronoun object can be what it stands for."""
    # the sentences before the pronoun's own, in a quote of the speaker's words, lean as the
    # quoted turn does; its own sentence must name the thing outright
    cut = max(before.rfind(". "), before.rfind("! "), before.rfind("? "))
    earlier, own = (before[: cut + 1], before[cut + 1 :]) if cut >= 0 else ("", before)
    if re.search(r"\bof\s*$", own):
        own = _PART_OF.sub("", own)  # "the challenge of it": the part, not the thing
    lean = f"{context} {earlier} {own}"
    if word in ("him", "her"):
        return not _PERSON.search(lean)
    if word == "there":
        return not _PLACE.search(lean)
    return not (_names_a_thing(f"{context} {earlier}") or _NOUN_PHRASE.search(own))


def _pointed_at(body: str) -> str | None:
    for pointed in _DEMONSTRATIVE_PHRASE.finditer(body):
        earlier = body[: pointed.start()]
        if pointed.group("noun")[:5].lower() in earlier.lower():
            return None
        if pointed.group("det") == "that" and not _THAT_POINTS.search(earlier):
            continue  # "books that keep ...": a relative, or a complementiser
        return "a demonstrative noun phrase"
    return None


# ----------------------------------------------------------------------------- the runs' files


@dataclass(frozen=True)
class Memory:
    """One stored memory as a run wrote it: where it came from, its statement, the turn."""

    where: str  # "conv-26" or "spc-12"
    text: str
    labels: tuple[str, ...]
    turn: str = ""  # the text of the turn it cites, when the run keeps it


def locomo_memories(path: Path, split: str = "", turns: dict | None = None) -> list[Memory]:
    """`bench.quality.locomo`'s memories (`memories.jsonl`), of one part if `split` names it;
    the statements' labels are each conversation's two most frequent opening words."""
    from bench.quality.fused import split_of

    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        cid = row["conversation_id"]
        if split and split_of(cid) != split:
            continue
        mems = row["memories"]
        openers = collections.Counter(m["text"].split(" ", 1)[0] for m in mems)
        labels = tuple(w for w, _n in openers.most_common(2))
        for m in mems:
            turn = ""
            if turns is not None and m["source_turns"]:
                turn = turns.get((cid, m["source_turns"][0]), "")
            out.append(Memory(cid, m["text"], labels, turn))
    return out


def spc_memories(path: Path) -> list[Memory]:
    """`spc_eval.py --out`'s memories (`memories.jsonl`) but its reflections, with the
    speakers as labels and the turn each cites after the turn before it."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        turns = row.get("turns") or []
        for m in row["memories"]:
            if m.get("type") == "reflection":
                continue  # made by reflect after observe, from memories already counted
            cited = ""
            sources = m.get("sources") or []
            if sources and "#" in sources[0] and turns:
                at = int(sources[0].split("#", 1)[1]) - 1  # the run's message ids count from 1
                cited = " / ".join(": ".join(t) for t in turns[max(0, at - 1) : at + 1])
            out.append(Memory(f"spc-{row['idx']}", m["text"], ("Alex", "Sam"), cited))
    return out


def shares(memories: Sequence[Memory]) -> dict[str, object]:
    """Each class's count and share of the memories, and the reasons within each class."""
    kinds: collections.Counter[str] = collections.Counter()
    whys: collections.Counter[str] = collections.Counter()
    for m in memories:
        verdict = classify(m.text, m.labels)
        kinds[verdict.kind] += 1
        if verdict.why:
            whys[f"{verdict.kind}: {verdict.why}"] += 1
    n = len(memories) or 1
    return {
        "memories": len(memories),
        **{f"{k}_share": round(kinds[k] / n, 4) for k in KINDS},
        "counts": dict(kinds),
        "why": dict(whys.most_common()),
    }


def _locomo_turns(data: Path) -> dict[tuple[str, str], str]:
    raw = json.loads(data.read_text(encoding="utf-8"))
    out: dict[tuple[str, str], str] = {}
    for conv in raw:
        cid = conv.get("sample_id", "")
        for key, session in conv["conversation"].items():
            if key.startswith("session_") and isinstance(session, list):
                last = ""
                for turn in session:
                    said = f"{turn['speaker']}: {turn['text']}"
                    out[(cid, turn["dia_id"])] = f"{last} / {said}" if last else said
                    last = said
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, help="bench.quality.locomo's memories.jsonl")
    parser.add_argument("--split", default="", help="tune or held: one part of LoCoMo only")
    parser.add_argument("--spc", type=Path, help="spc_eval.py --out's memories.jsonl")
    parser.add_argument("--data", type=Path, default=Path("../shared/eval/locomo-dev.json"),
                        help="LoCoMo's data, for the cited turns of a sample")  # fmt: skip
    parser.add_argument("--sample", type=int, default=0, help="print N memories drawn at random")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    memories: list[Memory] = []
    if args.locomo:
        turns = _locomo_turns(args.data) if args.sample and args.data.exists() else None
        memories += locomo_memories(args.locomo, args.split, turns)
    if args.spc:
        memories += spc_memories(args.spc)
    print(json.dumps(shares(memories), indent=1))
    if args.sample:
        for m in random.Random(args.seed).sample(memories, min(args.sample, len(memories))):
            verdict = classify(m.text, m.labels)
            print(f"\n[{verdict.kind}{': ' + verdict.why if verdict.why else ''}] {m.where}")
            print(f"  {m.text}")
            if m.turn:
                print(f"  < {m.turn[:400]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
