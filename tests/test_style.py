"""The statement style: a first-person sentence rewritten about its subject (extract/style.py).

The rows were the third-person table of tests/test_rules.py; the grammar rows below them test
the causes the rules handle (inflection, adverbs, emphatic "do", a companion in the subject).
"""

from __future__ import annotations

import pytest

from tota_vault.extract.style import (
    EMPHATIC_DO,
    conjugate,
    implicit_subject,
    third_person,
    with_companion,
)


def tp(sentence: str, subject: str, expected: str, *, marks=()):
    return pytest.param(sentence, subject, expected, marks=marks, id=f"{subject}: {sentence}")


# fmt: off
THIRD_PERSON = [
    tp("I'm keen on counseling", "Caroline", "Caroline is keen on counseling."),
    tp("I'm keen on counseling", "the user", "Is keen on counseling."),
    tp("I prefer Neovim over VS Code", "the user", "Prefers Neovim over VS Code."),
    tp("I've been painting for years", "Caroline", "Caroline has been painting for years."),
    tp("I'd love to visit Japan", "Caroline", "Caroline would love to visit Japan."),
    tp("I'll start next week", "Caroline", "Caroline will start next week."),
    tp("I was born in Seoul", "the user", "Was born in Seoul."),
    # "this" before a thing shown or brought up in the talk: read alone, it is "a" thing (LoCoMo
    # tune: "Tim took this pic last summer."); not a time, nor where the speaker is now
    tp("I took this pic last summer.", "Tim", "Tim took a pic last summer."),
    tp("I read this awesome book about castles.", "Tim", "Tim read an awesome book about castles."),
    tp("I went to the gym this week.", "Tim", "Tim went to the gym this week."),
    tp("I came across this cool rainbow sidewalk.", "Tim", "Tim came across a cool rainbow sidewalk."),
    tp("I'm gonna make this work!", "Jon", "Jon is gonna make this work."),
    tp("We're not alone in this fight.", "Jon", "Jon and others are not alone in this fight."),
    tp("I've been at this job for years.", "Tim", "Tim has been at this job for years."),
    tp("I love this one.", "Tim", "Tim loves this one."),
    tp("I even got this as a treat.", "Tim", "Tim even got this as a treat."),
    tp("Moments like this remind me why.", "Jon", "Moments like this remind Jon why."),
    # a verb at the end after "and" may be another subject's: "seeing my students learn and grow"
    tp("I love seeing my students learn and grow.", "Alex", "Alex loves seeing their students learn and grow."),
    tp("I am a nurse", "the user", "Is a nurse."),
    tp("I have two kids", "the user", "Has two kids."),
    tp("I have to work late", "Caroline", "Caroline has to work late."),
    # spoken contractions inflect as what they stand for
    tp("I wanna help make a difference", "Caroline", "Caroline wants to help make a difference."),
    tp("I gotta stay focused on my training", "Sam", "Sam has to stay focused on their training."),
    tp("I wanna learn Rust this year", "the user", "Wants to learn Rust this year."),
    tp("I don't like spicy food", "Caroline", "Caroline doesn't like spicy food."),
    tp("I do yoga", "Caroline", "Caroline does yoga."),
    tp("I go hiking every Sunday", "the user", "Goes hiking every Sunday."),
    tp("I fix bikes", "Caroline", "Caroline fixes bikes."),
    tp("I watch movies with my sister", "the user", "Watches movies with their sister."),
    tp("I try to run daily", "Caroline", "Caroline tries to run daily."),
    tp("I teach math", "Caroline", "Caroline teaches math."),
    tp("I can swim", "Caroline", "Caroline can swim."),
    tp("I really love my dog!", "Caroline", "Caroline really loves their dog."),
    tp("My kids love the beach", "Caroline", "Caroline's kids love the beach."),
    tp("I did it myself", "Caroline", "Caroline did it themselves."),
    tp("The car is mine", "Caroline", "The car is Caroline's."),
    tp("We love our new house", "Caroline", "Caroline and others love their new house."),
    tp("I adopted a dog", "Caroline", "Caroline adopted a dog."),
    tp("My kids love my cooking", "Caroline", "Caroline's kids love their cooking."),
    tp("Me and my sister went hiking", "Caroline", "Caroline and their sister went hiking."),
    tp("I probably want a dog", "the user", "Probably wants a dog."),
    tp("We're moving to Lisbon", "Caroline", "Caroline and others are moving to Lisbon."),
    tp("I no longer work at Northwind", "the user", "No longer works at Northwind."),
    # the subject is named once; a later "I" is "they"
    tp("I'm from California, so I'm not used to the cold", "Sam",
       "Sam is from California, so they're not used to the cold."),
    tp("I decided I needed a change, so I quit my job", "the user",
       "Decided they needed a change, so they quit their job."),
    # one word for naming (issue #11): "called" and "named" are one statement; the verb stays
    tp("I have a dog called Rex", "the user", "Has a dog named Rex."),
    tp("I have a dog named Rex", "the user", "Has a dog named Rex."),
    tp("I called Mom yesterday", "the user", "Called Mom yesterday."),
    # a second verb after "and" has the same subject (a user-style review: "Loves sushi and
    # eat it every Friday."); a noun after "and" stays, and so does an infinitive's verb
    tp("I love sushi and eat it every Friday", "the user", "Loves sushi and eats it every Friday."),
    tp("I live in Porto and work at Acme", "the user", "Lives in Porto and works at Acme."),
    tp("I love my dog and walk him daily", "Sam", "Sam loves their dog and walks him daily."),
    tp("I play guitar and sing in a choir", "Sam", "Sam plays guitar and sings in a choir."),
    tp("I love pizza and pasta with friends", "the user", "Loves pizza and pasta with friends."),
    tp("I love hiking and camping", "the user", "Loves hiking and camping."),
    tp("I want to travel and live in Paris", "the user", "Wants to travel and live in Paris."),
    tp("I like tea and I drink it daily", "Sam", "Sam likes tea and they drink it daily."),
]
# fmt: on


@pytest.mark.parametrize(("sentence", "subject", "expected"), THIRD_PERSON)
def test_third_person(sentence: str, subject: str, expected: str):
    assert third_person(sentence, subject) == expected


# --- the grammar, at its cause -----------------------------------------------------------------

# fmt: off
CONJUGATIONS = [
    # (the verb after "I", habitual sentence?, its third-person form)
    ("need", False, "needs"),      # ends in -ed, and is a present
    ("learnt", False, "learnt"),   # a -t past ("Jon learnts that ...", LoCoMo's tune part)
    ("dreamt", False, "dreamt"),
    ("threw", False, "threw"),     # a strong past
    ("succeed", False, "succeeds"),
    ("moved", False, "moved"),     # a past stays a past
    ("read", False, "read"),       # past unless habitual
    ("read", True, "reads"),
    ("reread", True, "rereads"),   # a prefixed verb inflects as its stem
    ("proofread", False, "proofread"),
    ("quit", False, "quit"),
    ("fix", False, "fixes"),
    ("try", False, "tries"),
    ("play", False, "plays"),
    ("can't", False, "can't"),
    ("don't", False, "doesn't"),
    ("have", False, "has"),
]
# fmt: on


@pytest.mark.parametrize(("verb", "habitual", "form"), CONJUGATIONS)
def test_conjugate(verb: str, habitual: bool, form: str):
    assert conjugate(verb, habitual) == form


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I especially love jazz", "Especially loves jazz."),  # an -ly word is an adverb
        ("I apply for jobs every week", "Applies for jobs every week."),  # but "apply" is a verb
        ("I need to finish my thesis", "Needs to finish their thesis."),
        ("I read a novel every night", "Reads a novel every night."),
        ("I read that novel in 2022", "Read that novel in 2022."),
    ],
)
def test_adverbs_and_tenses_read_as_said(sentence: str, expected: str):
    assert third_person(sentence, "the user") == expected


def test_a_quoted_title_is_never_rewritten():
    said = 'I love "Who Moved My Cheese?"'
    assert third_person(said, "the user") == 'Loves "Who Moved My Cheese?"'


@pytest.mark.parametrize(
    ("sentence", "plain"),
    [
        ("I do prefer Emacs", "I prefer Emacs"),
        ("We do like oat milk", "We like oat milk"),
        ("I do not eat meat", "I do not eat meat"),  # "do not" is a negation, not emphasis
        ("I do love hiking", "I love hiking"),
        ("I do volunteer at the shelter", "I volunteer at the shelter"),
        # before its object "do" is the verb ("Thes dishes", "As lot of weight lifting")
        ("I do the dishes every night", "I do the dishes every night"),
        ("I do a lot of weight lifting", "I do a lot of weight lifting"),
        ("I do my best work at night", "I do my best work at night"),
        ("I do yoga every morning", "I do yoga every morning"),
        ("We do some freelance work", "We do some freelance work"),
        ("I do well in school", "I do well in school"),
        ("I do nothing on Sundays", "I do nothing on Sundays"),
    ],
)
def test_emphatic_do_is_emphasis(sentence: str, plain: str):
    assert EMPHATIC_DO.sub(r"\1 ", sentence) == plain


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("My husband and I went hiking.", "I went hiking with my husband."),
        ("Sam and I love board games!", "I love board games with Sam!"),
        ("My sister and I were born in Oslo.", "My sister and I were born in Oslo."),
    ],
)
def test_a_companion_in_the_subject_goes_with_the_speaker(sentence: str, expected: str):
    assert with_companion(sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "with_i"),
    [
        ("Just got new shoes.", "I just got new shoes."),
        ("Researching adoption agencies.", "I'm researching adoption agencies."),
        ("Gonna continue my edu.", "I'm gonna continue my edu."),
        ("Gotta make time to dance.", "I've gotta make time to dance."),
        ("Been training for my first marathon.", "I've been training for my first marathon."),
        ("Never been to Lisbon.", "I've never been to Lisbon."),
        ("Never had a chance to visit it.", "I never had a chance to visit it."),
    ],
)
def test_the_i_that_chat_drops_is_put_back(sentence: str, with_i: str):
    assert implicit_subject(sentence) == with_i
