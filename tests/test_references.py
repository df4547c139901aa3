"""What a statement refers to outside itself: the message it answers, the people the speaker
named (extract/references.py)."""

from __future__ import annotations

from datetime import datetime

import pytest

from tota_vault.extract.messages import Message
from tota_vault.extract.references import (
    antecedent_of,
    bridges,
    gerund,
    message_quote,
    named_people,
    one_person,
    only_definite,
    owned_things,
    people_named_in,
    question_of,
    reply_context,
    resolve_from,
    resolve_owned,
    resolve_person,
    resolve_reference,
    resolve_with_answer,
    speaks_of_someone,
    things_named,
)

TS = datetime(2023, 5, 8, 13, 56)


def said(who: str, text: str) -> Message:
    role = "assistant" if who == "assistant" else "user"
    name = None if who in ("user", "assistant") else who
    return Message(role=role, content=text, id="1", name=name, timestamp=TS)


# fmt: off
ANTECEDENTS = [
    ("assistant: Nice! Do you have any pets?", "Do you have any pets?"),
    ("Nate: I got back from Kalymnos last week. Where did you go?", "Where did you go?"),
    # a sentence that dangles itself resolves nothing: the one before it is taken
    ("Nate: I adopted two cats. They're always amazing.", "I adopted two cats."),
    ("Nate: Wow. Cool!", None),
    ("", None),
    # a wh-word is what the verb at the end leaves out: no ellipsis (found by review)
    ("assistant: Which city do you want to visit?", "Which city do you want to visit?"),
    ("assistant: Where would you like to go?", "Where would you like to go?"),
    ("assistant: What do you think about moving the team to Go?",
     "What do you think about moving the team to Go?"),
    # a verdict after an exclamation, a pleasantry or a tag question names nothing: a reply
    # kept with it would not stand alone ('Replying to "Wow, it sounds amazing!", Sam said:
    # "It's one of my favorite fruits."', SPC development rows)
    ("Alex: Wow, it sounds amazing! I'll have to try it sometime.", None),
    ("Sam: Five sons? Wow, that must be a lot of work!", None),
    ("Sam: Okay. Thanks for talking to me.", None),
    ("Sam: I know, right? They're responsible for pollinating our crops.", None),
    ("Sam: Hope for what?", None),
    ("Sam: Thanks! I got a new puppy.", "I got a new puppy."),
    ("Sam: Wow, I just got a new puppy!", "Wow, I just got a new puppy!"),
]
# fmt: on


@pytest.mark.parametrize(
    ("context", "antecedent"), ANTECEDENTS, ids=[a[0] or "none" for a in ANTECEDENTS]
)
def test_antecedent_of(context: str, antecedent: str | None):
    assert antecedent_of(context) == antecedent


def test_only_a_question_is_a_question():
    assert question_of("Do you have any pets?") == "Do you have any pets?"
    assert question_of("I adopted two cats.") is None
    assert question_of(None) is None


def test_the_context_is_the_other_speakers_message_just_before():
    assert reply_context(said("assistant", "Which editor?"), said("user", "Vim.")) == (
        "assistant: Which editor?"
    )
    assert reply_context(said("user", "I like jazz."), said("user", "And blues.")) == ""
    assert reply_context(None, said("user", "Vim.")) == ""


def test_the_quote_names_who_said_it_and_when_after_what_it_answered():
    quote = message_quote(said("Sam", "I went to   Woodhaven."), said("Nate", "Where did you go?"))
    assert quote == "Nate: Where did you go?\n\nI went to Woodhaven. (Sam, 8 May 2023)"


# fmt: off
NAMINGS = [
    ("My son Theo is six.", {"Theo": "son"}),
    ("My advisor, Prof. Lindqvist, is strict.", {"Prof. Lindqvist": "advisor"}),
    ("My manager is Dana.", {"Dana": "manager"}),
    ("Theo, my son, loves dinosaurs.", {"Theo": "son"}),
    ("Dana is my manager.", {"Dana": "manager"}),
    ("My sister and I went to Oslo.", {}),
    ("My dog The Rock is huge.", {}),
    # children a household has, then names (issue #11): each is one of theirs
    ("We have two kids, Leo and Mia.", {"Leo": "child", "Mia": "child"}),
    ("I have three kids, Ana, Leo and Mia.", {"Ana": "child", "Leo": "child", "Mia": "child"}),
    ("We have a daughter named Mia.", {"Mia": "daughter"}),
    ("We have two kids.", {}),
    # issue #11 item 1: a household's pet or child, named with "our", is theirs as "my" names
    ("We walk our dog Biscuit on Sundays.", {"Biscuit": "dog"}),
    ("Our dog Biscuit is 4.", {"Biscuit": "dog"}),
    ("Biscuit, our dog, hates baths.", {"Biscuit": "dog"}),
    ("Our team uses Rust.", {}),
    # whose they are, said in a list of who is coming (the family's chat)
    ("It's me, my husband Tom and our two kids, Mia and Leo.",
     {"Tom": "husband", "Mia": "child", "Leo": "child"}),
    ("Our kids Mia and Leo love it.", {"Mia": "child", "Leo": "child"}),
    ("My kids and I went.", {}),
    # a kin word of one names one (a code review: Tom and Sophie were made kin too)
    ("My son Leo and Tom went fishing.", {"Leo": "son"}),
    ("My daughter Mia and Sophie from her class are best friends.", {"Mia": "daughter"}),
]
# fmt: on


@pytest.mark.parametrize(("sentence", "people"), NAMINGS, ids=[n[0] for n in NAMINGS])
def test_named_people(sentence: str, people: dict[str, str]):
    assert named_people(sentence) == people


@pytest.mark.parametrize(
    ("statements", "owner", "people"),
    [
        (["The user's son Theo is 6."], "The user", {"Theo": "son"}),
        (["The user's best friend Mel moved to Lyon."], "The user", {"Mel": "best friend"}),
        (["The user's dog Biscuit is a beagle."], "The user", {"Biscuit": "dog"}),
        (["The user's son Theo is 6.", "The user's son Leo is 4."], "The user",
         {"Theo": "son", "Leo": "son"}),
        (["Caroline's sister Ana lives in Porto."], "Caroline", {"Ana": "sister"}),
        (["Caroline's sister Ana lives in Porto."], "The user", {}),  # someone else's
        (["The user's team uses Jira."], "The user", {}),  # not a person named
        (["Went to Paris with their sister."], "The user", {}),
        (["The user's son The Rock is huge."], "The user", {}),
    ],
)  # fmt: skip
def test_people_named_in_earlier_memories(statements, owner, people):
    assert people_named_in(statements, owner) == people


@pytest.mark.parametrize(
    ("before", "sentence", "resolved"),
    [
        ("My sister lives in Berlin.", "She works at Siemens.", "My sister works at Siemens."),
        ("My son Theo is six.", "He's been to Paris.", "My son has been to Paris."),
        ("My son Theo is six.", "He's tall.", "My son is tall."),
        ("My best friend moved here.", "He's always there for me.",
         "My best friend is always there for me."),
        ("My son Theo is six.", "He's never been to Paris.", "My son has never been to Paris."),
        ("My son Theo is six.", "He's always wanted a dog.", "My son has always wanted a dog."),
        # two people of theirs: "she" could be either, so it stays
        ("My sister and my mom live in Berlin.", "She works at Siemens.",
         "She works at Siemens."),
        # "them" after a verb of seeing or helping people: the people named before, if plural
        ("My parents live in Chennai.", "I visit them every other weekend.",
         "I visit my parents every other weekend."),
        ("My parents sent me cookies.", "I loved them.", "I loved them."),
        ("My sister lives in Berlin.", "I visit them a lot.", "I visit them a lot."),
        # a household's one person, said with "our", is theirs as "my" says it
        ("Our dog Biscuit is 4.", "He is allergic to chicken.", "My dog is allergic to chicken."),
        ("Our dog and our cat are old.", "She sleeps a lot.", "She sleeps a lot."),
        # a code review: an -ed adjective is "is"; a pronoun of the other gender is not them
        ("My son Theo is six.", "He's obsessed with trains.", "My son is obsessed with trains."),
        ("My sister lives in Berlin.", "She's married to a dentist.",
         "My sister is married to a dentist."),
        ("My son Theo is six.", "He's always tired.", "My son is always tired."),
        ("My son started school this week.", "She is very strict.", "She is very strict."),
        ("My wife is a nurse.", "He is allergic to peanuts.", "He is allergic to peanuts."),
        ("My sister lives in Berlin.", "He works at Siemens.", "He works at Siemens."),
    ],
)  # fmt: skip
def test_he_or_she_after_exactly_one_person_of_theirs(before, sentence, resolved):
    theirs = named_people(before)
    assert resolve_person(sentence, one_person(before, theirs)) == resolved


@pytest.mark.parametrize(
    ("text", "speaks"),
    [
        ("How old is your son?", True),
        ("Is he allergic to anything?", True),
        ("My brother lives there too.", True),
        ("That sounds like a lovely weekend!", False),
        ("Here is the summary you asked for.", False),
        ("The shell script runs every hour.", False),  # "he" only as a word of its own
    ],
)  # fmt: skip
def test_a_message_that_speaks_of_someone(text: str, speaks: bool):
    assert speaks_of_someone(text) is speaks


# fmt: off
RESOLVED = [
    ("I like all kinds of video games.", "I love them too.", "I love all kinds of video games."),
    ("Do you like hiking?", "I love it!", "I love hiking!"),
    ("Have you ever tried sushi?", "I have never tried it.", "I have never tried sushi."),
    ("I like The Office, Parks and Recreation, and Brooklyn Nine-Nine.",
     "I love all of those shows!", "I love The Office, Parks and Recreation, and Brooklyn Nine-Nine!"),
    ("My favorite food is papaya.", "I've never had it before.", "I've never had papaya before."),
    ("I like to play board games.", "I like those too!", "I like to play board games!"),
    ("I'm from California.", "I've been there a few times.",
     "I've been to California a few times."),
    ("Have you ever visited Lisbon?", "I lived there for two years.",
     "I lived in Lisbon for two years."),
    ("I just got back from a week of climbing in Kalymnos.", "I've never been there.",
     "I've never been to Kalymnos."),
    ("Where do you live?", "I've lived there all my life.", None),
    # "it" with a phrase of time after it
    ("My favourite board game is probably Ticket to Ride.", "I've played it a dozen times.",
     "I've played Ticket to Ride a dozen times."),
    # one quoted title or one name of several capitalised words is the one candidate
    ('I just finished reading "The Name of the Wind" last night.', "I read it twice in college.",
     'I read "The Name of the Wind" twice in college.'),
    ("We spent a week hiking around Lake Tahoe.", "I love it there.", "I love Lake Tahoe."),
    # two candidates: which one "it" stands for, the rules cannot tell
    ('I\'m reading "Dune" by Frank Herbert.', "I read it in high school.", None),
    # two weighed, though one is seen as a name (found by review)
    ("Maybe try Tailwind instead of Bootstrap?", "I hate it.", None),
    ("Have you been to Lisbon or Porto?", "I've been there twice.", None),
    # "to play ..." stands only after a verb of liking, or after "to do" (or the same verb),
    # which stands for the activity named
    ("I like to play Minecraft.", "I've heard good things about that game.", None),
    ("I like to go hiking, camping, and fishing.", "I like to do those things too.",
     "I like to go hiking, camping, and fishing."),
    ("I like to volunteer at the soup kitchen.", "I like to do that too.",
     "I like to volunteer at the soup kitchen."),
    ("I like to read fiction, mostly fantasy.", "I like to read those too!",
     "I like to read fiction, mostly fantasy!"),
    ("I like to play Minecraft.", "I want to do that.", "I want to play Minecraft."),
    ("I like to play Minecraft.", "I want to try that.", None),
    # the other speaker's own things are theirs: nothing to resolve
    ("I love my dog so much.", "I love it too.", None),
    # no object the rules can name
    ("Do you have any pets?", "I have two of them.", None),
    ("I love paella and tapas.", "Those are my favorites too!", None),
    (None, "I love it!", None),
]
# fmt: on


@pytest.mark.parametrize(
    ("antecedent", "reply", "resolved"),
    RESOLVED,
    ids=[r[1] + str(i) for i, r in enumerate(RESOLVED)],
)
def test_a_pronoun_that_stands_for_what_the_last_turn_named_is_resolved(
    antecedent, reply, resolved
):
    assert resolve_reference(antecedent, reply) == resolved


# fmt: off
ANSWERED = [
    # (the message's short answer, a later sentence of it, the sentence resolved)
    ("Neovim, always.", "I do prefer it over VS Code.", "I do prefer Neovim over VS Code."),
    ("Definitely Stardew Valley!", "I've sunk hundreds of hours into it.",
     "I've sunk hundreds of hours into Stardew Valley."),
    ("Probably the cello.", "I started playing it at nine.", "I started playing the cello at nine."),
    # a sentence is no noun phrase; a bare "not really" names nothing
    ("Pottery is so relaxing!", "I try to do it every weekend.", None),
    ("Not really.", "I never liked it much.", None),
    # "it" as a subject, or announcing an infinitive, is no object to replace
    ("Lisbon, mostly.", "I think it is lovely.", None),
    ("Python, of course.", "I find it easy to read.", None),
    (None, "I use it daily.", None),
]
# fmt: on


@pytest.mark.parametrize(("answer", "sentence", "resolved"), ANSWERED, ids=[a[1] for a in ANSWERED])
def test_an_object_it_after_the_messages_short_answer_is_that_answer(answer, sentence, resolved):
    assert resolve_with_answer(answer, sentence) == resolved


# fmt: off
BRIDGES = [
    # (the question answered, the answer, whether it names a part and leaves the whole out)
    ("What do you like about rowing?", "I love the rhythm and the early mornings.", True),
    ("What's your favourite part of the festival?", "Definitely the fireworks.", True),
    ("What's the best thing about your new flat?", "I like the balcony.", True),
    # the answer to a question about a part is about that part, whatever its words
    ("What do you like about your job?", "I like the people I work with.", True),
    ("What do you like about your job?", "I like the feeling of finishing a project.", True),
    # ... unless it names the whole
    ("What do you like about rowing?", "I love the rhythm of rowing.", False),
    ("What do you like about your job?", "My job lets me travel.", False),
    # no part asked about, or no whole named
    ("What do you do for fun?", "I go to the beach.", False),
    ("How about a quick pasta bake?", "I live in Leeds.", False),  # a suggestion, no part
    ("What's the hardest part of your commute?", "The traffic on the bridge.", True),
    ("What do you like about it?", "I love the colours.", False),
    (None, "I love the colours.", False),
]
# fmt: on


@pytest.mark.parametrize(("question", "answer", "bridged"), BRIDGES, ids=[b[1] for b in BRIDGES])
def test_an_answer_that_names_a_part_of_what_was_asked_about_bridges(question, answer, bridged):
    assert bridges(question, answer) is bridged


# fmt: off
DEFINITES = [
    # (the last turn, the reply, whether the reply likes only parts of what that turn named)
    ("My favourite opera is Tosca.", "I love the music.", True),
    ("We spent a month in Oaxaca.", "I loved the markets and the colours.", True),
    # a noun the last turn said itself is the same thing, named in full
    ("I go to the lake every weekend.", "I love the lake too!", False),
    # a question gives no part to bridge to; a phrase after the noun says which
    ("What do you do on weekends?", "I like the park.", False),
    ("My favourite opera is Tosca.", "I love the music of Puccini.", False),
    ("My favourite opera is Tosca.", "I love opera.", False),
    (None, "I love the music.", False),
]
# fmt: on


@pytest.mark.parametrize(("before", "reply", "bridged"), DEFINITES, ids=[d[1] for d in DEFINITES])
def test_a_reply_that_likes_only_definite_parts_of_the_last_turn(before, reply, bridged):
    assert only_definite(before, reply) is bridged


# fmt: off
FROM_ONE_THING = [
    # (a sentence or message before, the sentence with "it", the sentence resolved)
    ("I've heard good things about Bluey.", "I've never seen it, though.",
     "I've never seen Bluey, though."),
    ("Sea kayaking sounds like fun!", "I've always wanted to try it.",
     "I've always wanted to try sea kayaking."),
    ("Lake Bled looks stunning!", "I've seen photos of it online.",
     "I've seen photos of Lake Bled online."),
    ("Portugal is a lovely country.", "I've been there twice.", "I've been to Portugal twice."),
    ("Maya: I love playing badminton! I'm not very good, though.", "I've never tried it.",
     "I've never tried playing badminton."),
    # an amount is no part of the thing ("at a lot of Call of Duty")
    ("I play a lot of Call of Duty.", "I'm not very good at it, though.",
     "I'm not very good at Call of Duty, though."),
    # an activity stands only where a verb takes one: "I play it" is no "I play playing ..."
    ("Maya: I love playing badminton!", "I play it on Fridays.", None),
    # several things, a list, or a plural subject: which one "it" is, the rules cannot tell
    ("I like Taskmaster, Bluey, and Succession.", "I've never seen it.", None),
    ("The songs were great and the plot was fun.", "I loved it.", None),
    ("That sounds great!", "I've never tried it.", None),
    # two weighed: the rules see only the name after "of" (found by review)
    ("You could use Podman instead of Docker.", "I've never used it.", None),
    ("You could use the Postgres broker instead of Redis.", "I've never used it.", None),
    # the nearest sentence with words of its own names nothing the rules can read
    ("Ana: I love Thai food. I've been learning to cook a green curry.",
     "It's not that hard, though.", None),
    (None, "I've never tried it.", None),
]
# fmt: on


@pytest.mark.parametrize(
    ("before", "sentence", "resolved"), FROM_ONE_THING, ids=[f[0] or "none" for f in FROM_ONE_THING]
)
def test_it_is_the_one_thing_the_sentence_before_names(before, sentence, resolved):
    assert resolve_from(before, sentence) == resolved


def test_a_subject_it_is_resolved_only_when_asked_and_never_when_it_announces():
    before = "Tom: I love playing ping pong too! I'm not very good."
    said = "It's a great way to unwind."
    assert resolve_from(before, said) is None  # an object "it" only, by default
    assert resolve_from(before, said, subject=True) == "Playing ping pong is a great way to unwind."
    assert resolve_from(before, "It's hard to say.", subject=True) is None


def test_the_thing_the_speaker_said_was_theirs_stays_theirs():
    # issue #11: "The migration deadline moved ..." was skipped as not about the speaker
    owned = owned_things("My migration deadline is March 14.")
    assert owned == {"migration deadline"}
    assert resolve_owned("The migration deadline moved to April 30.", owned) == (
        "My migration deadline moved to April 30."
    )
    assert resolve_owned("The migration team moved to Berlin.", owned) == (
        "The migration team moved to Berlin."
    )
    assert resolve_owned("The migration deadlines are hard.", owned).startswith("The ")


@pytest.mark.parametrize(
    ("infinitive", "ing"),
    [
        ("to cook", "cooking"),
        ("to dance", "dancing"),
        ("to swim", "swimming"),
        ("to play ping pong", "playing ping pong"),
        ("to visit", "visiting"),
        ("to fix", "fixing"),
        ("to see", "seeing"),
        ("to lie", "lying"),
        ("cooking", None),
    ],
)
def test_an_infinitive_has_its_gerund(infinitive: str, ing: str | None):
    assert gerund(infinitive) == ing


def test_an_infinitive_after_a_preposition_is_its_gerund():
    """Found in SPC's development rows: "I love to cook, but I'm not very good at it" was
    stored as "... not very good at to cook."."""
    assert resolve_from("I love to cook too!", "I'm not very good at it.") == (
        "I'm not very good at cooking."
    )
    # not after a verb: "to cook" is no object of "do" (left unresolved, as before)
    assert resolve_from("I love to cook too!", "I do it every day.") is None


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        # issue #11 item 4: a title's lower-case article is part of it ("To Kill" was stored)
        ("My book club picked To Kill a Mockingbird.", ["To Kill a Mockingbird"]),
        ("Our club picked A Man Called Ove for May.", ["A Man Called Ove"]),
        ("I met Sam a week ago.", []),
    ],
)
def test_a_title_keeps_its_article(text: str, titles: list[str]):
    assert things_named(text) == titles


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("Our next release is on March 14", []),  # a date is when, not what "it" is
        ("My exam is on Friday", []),
        ("The launch moved to 30 June 2026", []),
        ("I loved Big Little Lies", ["Big Little Lies"]),
    ],
)
def test_a_date_is_no_thing_named(text: str, things: list[str]):
    assert things_named(text) == things


def test_it_after_a_date_is_not_the_date():
    """The developer's chat (tests/test_pipeline.py): "Is the one cutting March 14." was a
    memory, from "Our next release is on March 14, and I'm the one cutting it"."""
    assert resolve_from("Our next release is on March 14.", "I'm the one cutting it.") is None
