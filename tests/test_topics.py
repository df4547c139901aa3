"""Topics: the lexicon, plural folding, and the tags tota writes on its memories."""

from __future__ import annotations

import pytest

from tota_vault import Vault
from tota_vault.notes import parse_note
from tota_vault.text import tokens
from tota_vault.topics import TOPICS, stem, topics_of, topics_of_words, with_topics


@pytest.mark.parametrize(
    ("text", "topics"),
    [
        ("Took a short trip to Rome.", ("travel",)),
        ("Which cities has Jon visited?", ("travel",)),
        ("What recipes has Joanna made?", ("food",)),
        ("Baked chocolate cupcakes for the kids.", ("food", "family")),
        ("Finished reading a novel.", ("books", "writing")),
        ("Painted a lake at sunset with watercolor.", ("art", "outdoors")),
        ("Volunteers at the shelter every Sunday.", ("community",)),
        ("Prefers Neovim over VS Code.", ()),
        ("", ()),
        # a verb of a topic in another sense (a user review; the developer's chat): a date
        # moved is no move of home, a thing run is no running, unless it is a race
        ("My deadline for the picture book moved to 14 February.", ("books",)),
        ("I moved my dentist appointment to May.", ()),
        ("The flight was moved to Friday.", ("travel",)),
        ("Moved to Porto last year.", ("home",)),
        ("Is moving to Berlin in May.", ("home",)),
        ("Runs a bakery in Leeds.", ()),
        ("The user and others run the suite with pytest in GitHub Actions.", ()),
        ("Ran a marathon in April.", ("sport",)),
        ("Runs a 5k every Sunday.", ("sport",)),
        ("Runs every morning.", ("sport",)),
        # a code review: a place with a number or a month's name in it, and running a lot
        ("Moved to 221B Elm Street last year.", ("home",)),
        ("Moving to May Street next month.", ("home",)),
        ("We're moving to the 5th arrondissement.", ("home",)),
        ("Moving to the 14th floor.", ("home",)),
        ("Runs a lot, mostly trails.", ("sport", "outdoors")),
        ("Has been running a lot lately.", ("sport",)),
        # code written is no writing (the sample vault's reflection was "Written and Negativo")
        ("Decided to write Negativo in Go rather than Rust.", ()),
        ("Is building Negativo, written in Go with a PostgreSQL backend.", ()),
        ("Writes unit tests before code.", ()),
        ("Writes in a journal every night.", ("writing",)),
    ],
)
def test_topics_of(text: str, topics: tuple[str, ...]):
    assert topics_of(text) == topics


@pytest.mark.parametrize(
    ("word", "expected"),
    [("recipes", "recipe"), ("cities", "city"), ("dishes", "dish"), ("boxes", "box"),
     ("glass", "glass"), ("bus", "bus"), ("Sam's", "sam"), ("painting", "painting")],
)  # fmt: skip
def test_stem_folds_plurals_only(word: str, expected: str):
    assert stem(word) == expected


def test_every_lexicon_word_finds_its_topic():
    for topic, words in TOPICS.items():
        for word in words.split():
            assert topic in topics_of(word), (topic, word)


@pytest.mark.parametrize(
    "text",
    [
        "Took a trip to Rome",
        "TRAVEL, Travel and travel's end: 'hiking'-- the Beach’s sand",
        "Ran 5k; ran again -- running's fine. Cooking recipes, baking bread!",
        "",
        "'' -- ’’ 123 ×÷ ok",
    ],
)
def test_topics_of_reads_a_statement_as_its_tokens(text):
    # topics_of looks each distinct word up once, by the word as written: the same topics,
    # in the same order, as the statement's tokens give.
    assert topics_of(text) == topics_of_words(tokens(text))


def test_with_topics_keeps_the_given_tags_first_and_adds_no_duplicates():
    assert with_topics(["tota/episode", "topic/travel"], "A trip to Lisbon and a beach") == (
        "tota/episode",
        "topic/travel",
        "topic/outdoors",
    )


def test_tota_tags_what_it_learns_and_what_a_person_adds(vault: Vault):
    report = vault.observe(
        [{"role": "user", "content": "I took a road trip to Woodhaven and visited the library."}],
        conversation_id="c",
    )
    learned = parse_note((vault.root / report.outcomes[0].path).read_bytes(), "x")
    assert "topic/travel" in learned.memory.tags
    added = vault.remember("preference", "Loves jazz concerts.", evidence="manual", tags=["me"])
    assert added.memory.tags == ("tota/preference", "me", "topic/music")
