"""The offline default extractor: rules over a person's own sentences. No model, no network.

For each message a person wrote (never the assistant's), the text is cleaned of code, quotes
and block quotes and split into sentences and clauses (`sentences`, `slots`); each is either
skipped with a reason (`chatter`: a question, a hypothetical, someone else's words, small talk,
a secret, a reaction, a promise about the conversation, a reference to something not said) or
matched against the typed cues (`cues`). A matching sentence becomes a candidate, rewritten
about its subject (`style`: "Caroline went to a support group on 7 May 2023", or for the
person tota serves, "Prefers Neovim over VS Code."), with relative dates made absolute.

A sentence that leans on something it does not say ("I have two of them", "I've always wanted
to") is kept with its antecedent, the question or statement it replies to or the speaker's own
statement before it, or skipped; a short answer ("By April 1.") is learned with its question.
People the speaker names as theirs ("my son Theo") make later sentences about them
relationship memories (`references`). This module holds the walk over a conversation that ties
those together, and the candidates it builds. `docs/learning.md` lists the cues and the
statement style; `tests/test_rules.py` holds the examples.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..model import Evidence, MemoryType
from .base import Candidate, Skip, role_message
from .chatter import (
    DANGLING,
    DEICTIC_SUBJECT,
    PRONOUN_OBJECT,
    SMALL_TALK,
    about_the_listener,
    conversational,
    is_answer,
    is_remark,
    is_small_talk,
    short_fact,
    skip_reason,
    wished_on,
)
from .cues import (
    CUES,
    EMPHASIS,
    FIRST_PERSON,
    HEDGES,
    IMPLICIT_I,
    TEMPORARY,
    WE,
    WE_SUBJECT,
    WE_WEAK,
    WEAK,
    Cue,
    cue_key,
)
from .dates import resolve_dates
from .messages import Message
from .references import (
    antecedent_of,
    bridges,
    message_quote,
    named_people,
    one_person,
    only_definite,
    owned_things,
    question_of,
    quote_message,
    reply_context,
    resolve_from,
    resolve_owned,
    resolve_person,
    resolve_reference,
    resolve_with_answer,
    speaks_of_someone,
)
from .secrets import find_secrets, redact
from .sentences import QUOTED_MARK, clean, statements
from .style import (
    COMPANION,
    EMPHATIC_DO,
    LEADING_DATE,
    implicit_subject,
    pointed_as_indefinite,
    third_person,
    with_companion,
)

__all__ = ["RuleExtractor", "message_quote", "third_person"]

T = MemoryType

#: A remark (see `RuleExtractor._remark`) is inferred evidence at this strength: 0.55 after
#: the inferred penalty, stored at the default threshold, dropped when hedged.
REMARK_STRENGTH = 0.65
#: A short answer to a question put to the speaker: their own words, but its type is unknown.
ANSWER_STRENGTH = 0.7
#: A sentence about someone the speaker named as theirs: a clear cue of a relationship.
THEIR_PERSON_STRENGTH = 0.75
#: "Theo is crazy about dinosaurs" after "my son Theo", "Dr. Okafor's clinic moved": a sentence
#: that opens with a name (a title allowed) and the word after it.
_NAMED_OPENING = re.compile(
    r"((?:(?:Dr|Prof|Mr|Mrs|Ms)\.? )?[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)(?:'s)?\s+(\w+)"
)


#: A short sentence about a named person that only judges them ("Ana is amazing", "Theo
#: was so cute"): a copula or a verb of seeming before an evaluative word is a reaction.
_STATIVE_SHORT = frozenset({"is", "was", "seems", "looks", "sounds"})
_SHORT_WORDS = 4
_EVALUATIVE_END = re.compile(
    r"\b(?:great|amazing|awesome|nice|cool|sweet|cute|"
    r"lovely|wonderful|fine|good|bad|ok|okay|funny|crazy|right|wrong|back|here|there|home|"
    r"busy|tired|sick|fun)\W*$",
    re.I,
)


@dataclass
class _Turn:
    """What the rules know while they read one message: who speaks, what the message answers,
    and what its earlier sentences said."""

    message: Message
    subject: str  # the speaker's id in the vault: "user", or their name
    label: str  # how statements name them: "the user", or their name
    quote: str  # the note's quote: the message, after the one it answered
    first: int  # where this message's candidates start in the conversation's list
    theirs: dict[str, str]  # the people the speaker named as theirs: {"Theo": "son"}
    owned: set[str] = field(default_factory=set)  # things they named as theirs: "my deadline"
    antecedent: str | None = None  # the last turn's sentence a reference can lean on
    question: str | None = None  # the antecedent, when it asked the speaker something
    answer: str | None = None  # a short answer with content, once seen ("" when none)
    last_person: str | None = None  # the one person the sentence before was about
    stated: str | None = None  # the speaker's last statement in this message
    said: str | None = None  # the sentence read before this one, whatever became of it
    context: str = ""  # the message this one answers, as `reply_context` quotes it
    remarks: list[str] = field(default_factory=list)


class RuleExtractor:
    """The offline default: deterministic rules, no model, no network."""

    name = "rules"

    def extract(
        self,
        messages: Sequence[Message],
        *,
        conversation_id: str,
        known_people: Mapping[str, Mapping[str, str]] | None = None,
    ) -> tuple[list[Candidate], list[Skip]]:
        """Propose a candidate per sentence a person said about themselves.

        `known_people` are the people each speaker named in earlier turns (speaker ->
        {"Theo": "son"}, from the memories learned then: `references.people_named_in`)."""
        candidates: list[Candidate] = []
        skipped: list[Skip] = []
        previous: Message | None = None
        previous_text: str | None = None  # `previous`, cleaned and redacted, if it was a user's
        # speaker -> {"Theo": "son"}, as they named them (before, and in these messages)
        people = {who: dict(theirs) for who, theirs in (known_people or {}).items()}
        owned: dict[str, set[str]] = {}  # speaker -> {"migration deadline"}, said as theirs
        # speaker -> the one person of theirs their last message ended on ("my son"): "He is
        # allergic to peanuts" in their next message is about that person, unless a message
        # between spoke of someone (`speaks_of_someone`)
        ended_on: dict[str, str] = {}
        for message in messages:
            replied_to, replied_text = previous, previous_text
            previous, previous_text = message, None
            if message.role != "user":
                if message.content.strip():
                    skipped.append(
                        Skip(message.id, message.content[:80], role_message(message.role))
                    )
                if speaks_of_someone(message.content):
                    ended_on.clear()
                continue
            content = self._redacted(message, skipped)
            previous_text = content.replace(QUOTED_MARK, " ")
            turn = self._turn(message, previous_text, replied_to, replied_text, people)
            if speaks_of_someone(content):
                ended_on = {who: p for who, p in ended_on.items() if who == turn.subject}
            turn.last_person = ended_on.pop(turn.subject, None)
            turn.owned = owned.setdefault(turn.subject, set())
            turn.first = len(candidates)
            for sentence in statements(content):
                self._read(sentence, turn, candidates, skipped)
                turn.said = sentence
            if turn.last_person is not None:
                ended_on[turn.subject] = turn.last_person
            self._close(turn, candidates, skipped)
        return candidates, skipped

    @staticmethod
    def _redacted(message: Message, skipped: list[Skip]) -> str:
        """The message cleaned, with every secret redacted and reported by kind only.

        Secrets are found in the whole message (a private key spans lines) and redacted before
        anything else reads the text."""
        content = clean(message.content)
        secrets = find_secrets(content)
        for found in secrets:
            skipped.append(Skip(message.id, f"[REDACTED {found.kind}]",
                                f"contains a secret ({found.kind})", found.kind))  # fmt: skip
        return redact(content, secrets)

    @staticmethod
    def _turn(
        message: Message,
        text: str,
        replied_to: Message | None,
        replied_text: str | None,
        people: dict[str, dict[str, str]],
    ) -> _Turn:
        subject = message.name or "user"
        quote = quote_message(text, message)
        context = reply_context(replied_to, message, replied_text)
        if context:
            quote = f"{context}\n\n{quote}"
        antecedent = antecedent_of(context)
        return _Turn(
            message=message,
            subject=subject,
            label=message.name or "the user",
            quote=quote,
            first=0,
            theirs=people.setdefault(subject, {}),
            antecedent=antecedent,
            question=question_of(antecedent),
            context=context,
        )

    def _read(
        self, sentence: str, turn: _Turn, candidates: list[Candidate], skipped: list[Skip]
    ) -> None:
        """One sentence of a message: a candidate, kept with its antecedent, or a skip."""
        turn.theirs.update(named_people(sentence))
        sentence = resolve_owned(sentence, turn.owned)
        turn.owned.update(owned_things(sentence))
        resolved = resolve_person(sentence, turn.last_person)
        turn.last_person = one_person(sentence, turn.theirs)
        sentence = resolved
        reason = skip_reason(sentence)
        if reason in (None, "not about the speaker"):
            about = self._about_their_person(sentence, turn)
            if about is not None:
                candidates.append(replace(about, quote=turn.quote))
                return
        if reason == "small talk" and turn.question is not None and _points_back(sentence):
            reason = DANGLING  # "I love it!": short, but it says something of "it"
        own = len(candidates) > turn.first and turn.stated is not None
        if reason == DANGLING and wished_on(sentence):
            skipped.append(Skip(turn.message.id, sentence, reason))
            return  # "I wish I could do that": a reaction, whatever it refers to
        if reason == DANGLING and (
            turn.antecedent is not None or own or resolve_from(turn.said, sentence) is not None
        ):
            candidates.append(self._with_antecedent(sentence, turn, own))
            return
        if reason is None and (
            bridges(turn.question, sentence) or only_definite(turn.antecedent, sentence)
        ):
            # "I love the teamwork." after "What do you like about soccer?": kept with it
            candidates.append(self._with_antecedent(sentence, turn, own=False))
            return
        reason = self._note_answer_or_remark(sentence, reason, turn)
        if reason is not None:
            skipped.append(Skip(turn.message.id, sentence, reason))
            return
        candidate = self._candidate(sentence, turn.message, turn.subject, turn.label)
        if candidate is None:
            skipped.append(Skip(turn.message.id, sentence, "no cue"))
        else:
            candidates.append(replace(candidate, quote=turn.quote))
            turn.stated = sentence

    @staticmethod
    def _note_answer_or_remark(sentence: str, reason: str | None, turn: _Turn) -> str | None:
        """Remember a short answer or a remark the message may be learned by at its end; the
        reason the sentence is skipped, if it still is ("I like jazz." is short, and a fact)."""
        if reason in ("small talk", "not about the speaker") and turn.answer is None:
            turn.answer = sentence if is_answer(sentence) else ""
        if reason == "small talk" and short_fact(sentence):
            return None
        if (
            reason == "not about the speaker"
            and is_remark(sentence)
            and (turn.question is not None or not about_the_listener(sentence))
            and conversational(sentence) in (None, DANGLING)
        ):
            turn.remarks.append(sentence)
        return reason

    def _with_antecedent(self, sentence: str, turn: _Turn, own: bool) -> Candidate:
        """A sentence that refers to what was said before, kept with it, once per message.

        "I have two of them." after "Do you have any pets?": the message before is what the
        sentence refers to. After a statement of the speaker's own, "it" more likely means what
        they just said ("I've never been sky diving, but I've always wanted to try it"): that
        statement is kept with it instead."""
        message, label = turn.message, turn.label
        resolved = None
        # The message's own sentence that has a thing ("I have an iPhone"), or None.
        own_thing = turn.said if turn.said and _HAS_A_THING.search(turn.said) else None
        if not own and turn.question is not None:  # "Neovim, always. I prefer it over ..."
            resolved = resolve_with_answer(turn.answer, sentence)
        if resolved is None:
            # the nearest sentence that names one thing: the message's own sentence before
            # ("I've heard good things about Bake Off. I've never seen it.", "I love sushi and
            # I eat it every Friday", a statement of the speaker's own), then, unless they
            # said one, the last turn's sentence it answers, then anything the last turn
            # named, if one thing
            resolved = resolve_from(turn.said, sentence)
            if own and resolved is not None and _IT.search(resolved):
                resolved = None  # half resolved ("I recommend it if you never played X"): kept
            if resolved is None and not own and own_thing is None and _passes_on(turn.said):
                resolved = resolve_reference(turn.antecedent, sentence) or resolve_from(
                    turn.context, sentence
                )
        if resolved is not None and _stands(resolved):
            # "I love them too." after "I like all kinds of video games.": said outright
            found = self._candidate(resolved, message, turn.subject, label) or self._build(
                resolved, message, turn.subject, label, WEAK, None
            )
            turn.antecedent = turn.question = None
            return replace(found, quote=turn.quote)
        kept = self._candidate(sentence, message, turn.subject, label) or self._build(
            sentence, message, turn.subject, label, WEAK, None
        )
        said = f"{turn.answer} {sentence}" if turn.answer else sentence
        if own and turn.stated is not None:
            said = f"{turn.stated.rstrip(' .!')}. {sentence}"
        elif own_thing is not None:
            # "I have an iPhone. I love it.": the message's own sentence names the thing; the
            # last turn's question would read as what is loved
            own, said = True, f"{own_thing.rstrip(' .!')}. {sentence}"
        text = self._answer_text(None if own else turn.antecedent, said, message, label)
        turn.antecedent = turn.question = None
        return replace(kept, text=text, quote=turn.quote)

    def _close(self, turn: _Turn, candidates: list[Candidate], skipped: list[Skip]) -> None:
        """The end of a message that said nothing about the speaker: a short answer is learned
        with its question's words, or one remark of substance is kept (its longest sentence).
        A remark that refers to the last turn ("It's a lot of work") is kept with that turn's
        words, or not at all. The remark kept is no longer reported as skipped."""
        if len(candidates) > turn.first:
            return
        message, label = turn.message, turn.label
        if turn.question is not None and turn.answer:
            candidates.append(self._answered(turn.question, turn.answer, turn))
            return
        standing = [r for r in turn.remarks if conversational(r) is None]
        if not turn.remarks or (turn.antecedent is None and not standing):
            return
        longest = max(turn.remarks if turn.antecedent is not None else standing, key=len)
        source = turn.message.id
        skipped[:] = [s for s in skipped if s.source != source or s.text != longest]
        resolved = None
        if longest not in standing:
            resolved = resolve_from(turn.context, longest, subject=True)
        if resolved is not None and conversational(resolved) is None:
            # "It's a great way to relax." after "I love playing ping pong!": said outright
            candidates.append(self._remark(resolved, turn))
            return
        remark = self._remark(longest, turn)
        if conversational(longest) is not None:
            text = self._answer_text(turn.antecedent or "", longest, message, label)
            remark = replace(remark, text=text)
        candidates.append(remark)

    def _candidate(
        self, sentence: str, message: Message, subject: str, label: str
    ) -> Candidate | None:
        plain = EMPHATIC_DO.sub(r"\1 ", sentence)
        if plain != sentence:
            found = self._candidate(plain, message, subject, label)
            return None if found is None else replace(found, emphatic=True)
        # "My husband and I went hiking": a companion in the subject; the predicate decides.
        companion = COMPANION.match(sentence) is not None
        if companion:  # the speaker is the subject, the companion goes with them
            sentence = with_companion(sentence)
        for cue in CUES:
            if companion and cue.name == "relationship":
                continue
            match = cue.pattern.search(sentence)
            if match is not None:
                if cue.name == "relationship":
                    cue = _episode_first(sentence, match)
                key = cue_key(cue, match)
                if cue.name == "name":
                    sentence, cue, key = _named(sentence, cue, key)
                return self._build(sentence, message, subject, label, cue, key)
        first = FIRST_PERSON.search(sentence)
        if not is_small_talk(sentence) and (
            first or WE.search(sentence) or IMPLICIT_I.match(sentence)
        ):
            weak = WEAK
            if not first and WE_SUBJECT.match(sentence):
                weak = WE_WEAK
            return self._build(sentence, message, subject, label, weak, None)
        return None

    def _about_their_person(self, sentence: str, turn: _Turn) -> Candidate | None:
        """A sentence about someone the speaker named as theirs ("Theo is crazy about
        dinosaurs", after "my son Theo"): a relationship memory, "The user's son Theo is ..."."""
        match = _NAMED_OPENING.match(sentence)
        if match is None:
            return None
        theirs = turn.theirs
        name = next((n for n in theirs if match.group(1) == n or match.group(1).endswith(n)), None)
        words = len(re.findall(r"[\w']+", sentence))
        if name is None or words < 3:
            return None  # "Ana is vegetarian": a name, a verb and what it says of her
        if (
            words <= _SHORT_WORDS
            and match.group(2).lower() in _STATIVE_SHORT
            and _EVALUATIVE_END.search(sentence)
        ):
            return None  # "Ana is great!", "Ana is so sweet": a reaction, not a fact
        if conversational(sentence) is not None or sentence.endswith("?"):
            return None
        if re.search(rf"\b(?:my|our) {re.escape(theirs[name])}\b", sentence, re.I):
            return None  # "Barnaby is my best friend" names the relation again: said as it is
        message, label = turn.message, turn.label
        dated, days = resolve_dates(sentence, message.timestamp)
        owner = "The user" if label == "the user" else label
        statement = (
            third_person(dated, label) if FIRST_PERSON.search(dated) or WE.search(dated) else dated
        )
        return Candidate(
            type=T.RELATIONSHIP,
            text=f"{owner}'s {theirs[name]} {statement.rstrip(' .!')}.",
            subject=turn.subject,
            source=message.id,
            evidence=Evidence.DIRECT,
            strength=THEIR_PERSON_STRENGTH,
            hedged=bool(HEDGES.search(sentence)),
            emphatic=bool(EMPHASIS.search(sentence)),
            temporary=bool(TEMPORARY.search(sentence)),
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
            # the speaker's own words whole: "I made this bowl" names the bowl as a statement
            # would ("a bowl"), since no photo is shown beside the memory
            return f'{label[:1].upper()}{label[1:]} said: "{pointed_as_indefinite(dated)}"'
        frame = "Asked" if question_of(antecedent) else "Replying to"
        return f'{frame} "{antecedent}", {label} said: "{dated}"'

    def _answered(self, question: str, answer: str, turn: _Turn) -> Candidate:
        """A short answer to a question put to the speaker, kept with the question."""
        message = turn.message
        _dated, days = resolve_dates(answer, message.timestamp)
        return Candidate(
            type=T.EPISODE,
            text=self._answer_text(question, answer, message, turn.label),
            subject=turn.subject,
            source=message.id,
            evidence=Evidence.DIRECT,
            strength=ANSWER_STRENGTH,
            hedged=bool(HEDGES.search(answer)),
            emphatic=False,
            cue="answer",
            days=tuple(days),
            timestamp=message.timestamp,
            quote=turn.quote,
        )

    @staticmethod
    def _remark(sentence: str, turn: _Turn) -> Candidate:
        """Something a person said that is not a statement about themselves ("The stories
        were so inspiring!"): kept as what they said, weakly, with its date resolved."""
        message = turn.message
        dated, days = resolve_dates(sentence, message.timestamp)
        who = "The user" if turn.label == "the user" else turn.label
        return Candidate(
            type=T.EPISODE,
            text=f"{who} said: {dated.rstrip()}",
            subject=turn.subject,
            source=message.id,
            evidence=Evidence.INFERRED,
            strength=REMARK_STRENGTH,
            hedged=bool(HEDGES.search(sentence)),
            emphatic=False,
            cue="remark",
            days=tuple(days),
            timestamp=message.timestamp,
            quote=turn.quote,
        )

    @staticmethod
    def _build(
        sentence: str,
        message: Message,
        subject: str,
        label: str,
        cue: Cue,
        key: str | None,
    ) -> Candidate:
        dropped_i = IMPLICIT_I.match(sentence) and not re.match(r"(?i)(?:I|we)\b", sentence)
        if dropped_i or (not FIRST_PERSON.search(sentence) and not WE.search(sentence)):
            sentence = implicit_subject(sentence)  # "Gonna continue my edu": "I'm gonna ..."
        dated, days = resolve_dates(sentence, message.timestamp)
        lead = LEADING_DATE.match(dated)
        if lead is not None:  # "On 7 May 2023 I ran" reads better as "Ran ... on 7 May 2023"
            rest = dated[lead.end() :].rstrip(" .!")
            dated = f"{rest} {lead.group(1)}."
        evidence = Evidence.DIRECT
        if not FIRST_PERSON.search(sentence):
            # a "we"/"our" statement: the person is implied; "me", "mine", "myself" name them
            # as surely as "I" ("The support group has made me feel accepted")
            evidence = Evidence.INFERRED
        return Candidate(
            type=cue.type,
            text=third_person(dated, label),
            subject=subject,
            source=message.id,
            evidence=evidence,
            key=key,
            strength=cue.strength,
            hedged=bool(HEDGES.search(sentence)),
            emphatic=bool(EMPHASIS.search(sentence)),
            temporary=bool(TEMPORARY.search(sentence)),
            cue=cue.name,
            days=tuple(days),
            timestamp=message.timestamp,
        )


_EPISODE = next(cue for cue in CUES if cue.name == "episode")


def _episode_first(sentence: str, relation: re.Match[str]) -> Cue:
    """The relationship cue, or the episode cue when the speaker's own past act comes before
    the person it names: "I visited my cousin in Chicago last month" and "I went hiking with
    my mom" are what the speaker did (episodes), "My cousin lives in Lisbon" and "I have a
    sister" say who the person is (relationships)."""
    act = _EPISODE.pattern.search(sentence)
    relationship = next(cue for cue in CUES if cue.name == "relationship")
    if act is not None and act.start() < relation.start():
        return _EPISODE
    return relationship


#: "I'm Priya." and "Please call me Dee from now on.": a name given as an introduction or as
#: a request, which read as "Is Priya." and "Please call them Dee" about the speaker.
_INTRODUCTION = re.compile(
    r"^(?:(?:hi|hello|hey)(?: there)?,?\s+)?I(?:'m| am)\s+(?P<name>(?-i:[A-Z][\w'-]+))\W*$", re.I
)
_CALL_ME = re.compile(
    r"^(?:(?:please|just|you can|you may|feel free to|everyone|people|friends)\s+)*"
    r"call me\s+(?P<name>(?-i:[A-Z][\w'-]+))\b(?:\s+(?:from now on|instead|please))*\W*$",
    re.I,
)


#: What the speaker asks to be called: a preference with a slot of its own, beside the name
#: (a request for "Dee" must not contradict "My name is Priya", nor be lost to it).
_CALLED = Cue("called", T.PREFERENCE, _CALL_ME, 0.9, "preference/called")


def _named(sentence: str, cue: Cue, key: str | None) -> tuple[str, Cue, str | None]:
    """A sentence the name cue matched, as the fact it states, with its cue and key: an
    introduction as "My name is Priya." (the name slot), a request to be called something as
    "I prefer to be called Dee." (a preference); any other as it is ("My name is Sam")."""
    intro = _INTRODUCTION.match(sentence)
    if intro is not None:
        return f"My name is {intro.group('name')}.", cue, key
    call = _CALL_ME.match(sentence)
    if call is not None:
        return f"I prefer to be called {call.group('name')}.", _CALLED, _CALLED.key
    return sentence, cue, key


#: An "it" left in a sentence after one was resolved.
_IT = re.compile(r"\bit\b", re.I)


def _points_back(sentence: str) -> bool:
    """A short sentence that says something of what the last turn named ("I love it!"), not a
    bare pleasantry."""
    refers = PRONOUN_OBJECT.search(sentence) or DEICTIC_SUBJECT.match(sentence)
    return bool(refers) and not SMALL_TALK.match(sentence)


def _passes_on(said: str | None) -> bool:
    """Whether the sentence before a reference, in the same message, leaves it to the last
    turn: none, small talk, or a verdict on the last turn ("That's great!"). A sentence with
    a subject of its own ("Rock climbing sounds like fun!") may hold what the reference
    stands for, in words the rules cannot parse: the last turn is then not looked at."""
    if said is None:
        return True
    return bool(DEICTIC_SUBJECT.match(said) or is_small_talk(said) or SMALL_TALK.match(said))


#: A sentence in which the speaker has, gets or uses a thing of their own: short, it may read
#: as small talk, but it names what a reference after it stands for (found by review: "Have
#: you tried the new Pixel phone?" / "I have an iPhone and I love it." stored "Loves the new
#: Pixel phone.").
_HAS_A_THING = re.compile(
    r"\b(?:have|has|had|got|get|bought|own|use|used|made|found|adopted|tried)\s+"
    r"(?:a|an|the|my|our|some|two|three|this|that)\s+[\w'-]+",
    re.I,
)


def _stands(sentence: str) -> bool:
    """A sentence that is a statement the cues may read: nothing to skip it for, or short and
    still a fact ("I love hiking!")."""
    reason = skip_reason(sentence)
    return reason is None or (reason == "small talk" and short_fact(sentence))
