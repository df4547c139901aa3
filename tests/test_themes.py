"""Themes: the names a statement mentions, and reflection titles derived from what members
share (pure, over plain statements)."""

from __future__ import annotations

import pytest

from tota_vault.themes import derive_title, named_entities, written_as


@pytest.mark.parametrize(
    ("text", "subject", "names"),
    [
        ("Works at Ferrovia Labs in Lisbon.", "user", ["ferrovia labs", "lisbon"]),
        ("Runs with Joana's club.", "user", ["joana"]),  # the possessive is not the name
        ("Lisbon is home. Moved in March.", "user", []),  # a sentence's first word; a month
        ('Caroline said: "Melanie paints."', "Caroline", []),  # own name; a quote's first word
        ("Asked Caroline about LGBTQ art.", "Melanie", ["caroline", "lgbtq"]),
        ("Likes Earl Grey tea.", "user", ["earl grey"]),  # a run of capitalised words: one name
    ],
)
def test_named_entities_are_capitalised_runs_inside_a_sentence(text, subject, names):
    assert [folded for folded, _ in named_entities(text, subject)] == names


def title(theme, texts, subject="user"):
    label = theme.rsplit("/", 1)[-1]
    return derive_title(subject, theme, label, {f"n{i}.md": t for i, t in enumerate(texts)})


@pytest.mark.parametrize(
    ("theme", "texts", "subject", "expected"),
    [
        # The topic's own word most members use leads (its -ing form names the activity),
        # then the name most of them share.
        ("topic/sport", ["Runs four mornings a week in Lisbon.", "Stretches after runs.",
                         "Is training for the Lisbon half-marathon by running hills."],
         "user", "Running and Lisbon"),
        # Two words that always come in the same order are one phrase.
        ("topic/health", ["Protects her mental health with walks.", "Talks about mental health.",
                          "Mental health days help her."], "user", "Mental health"),
        # ... also when only two of them say the phrase, and its first word is no topic
        # word or name (the review's conversation: "Intolerance" and "Book" were the titles)
        ("topic/health", ["Tomás has a gluten intolerance.", "Was diagnosed with a gluten "
                          "intolerance last year.", "Would like to sleep seven hours a night."],
         "user", "Gluten intolerance"),
        ("topic/books", ["Is illustrating a picture book for Editora Maré.",
                         "The picture book's deadline is 15 January.", "Reads novels."],
         "user", "Picture book"),
        # ... but never a statement's opening verb: "Plays guitar" is no phrase of "guitar"
        # (below)
        # Another person's reflection is named for them; a name group leads with its name.
        ("negativo", ["Fixed a bug in Negativo.", "Released Negativo 1.0 to testers.",
                      "Negativo's catalogue grew; testers liked it."], "Ana", "Ana's Negativo"),
        # A plain word joins the title only when three members and a third of them carry it.
        ("negativo", ["Fixed a bug in Negativo for testers.", "Released Negativo 1.0 to testers.",
                      "Negativo's catalogue grew; testers liked it."], "Ana",
         "Ana's Negativo and testers"),
        # Nothing shared by two members: the topic names it.
        ("topic/food", ["Bakes bread.", "Makes pizza.", "Cooks curry."], "user", "Food"),
        # A word merely repeated by a minority of many members does not make the title.
        ("topic/music", ["Plays guitar nightly.", "Plays guitar in a band.", "Sings.",
                         "Hums along.", "Likes jazz.", "Appreciates choirs.", "Appreciates bass."],
         "user", "Guitar"),
    ],
)  # fmt: skip
def test_a_title_is_derived_from_what_the_members_share(theme, texts, subject, expected):
    assert title(theme, texts, subject) == expected


def test_a_name_first_met_at_a_sentence_start_still_counts_for_the_name():
    texts = ["Thanksgiving dinner was loud.", "Hosted a big Thanksgiving.", "Loves Thanksgiving."]
    assert title("topic/celebrations", texts) == "Thanksgiving"


def test_the_same_statement_names_differently_for_each_subject():
    # Names are cached by statement and subject: whose own name it is must still count.
    text = "Went hiking with Caroline Reyes and Melanie."
    assert named_entities(text, "Caroline") == [("reyes", "Reyes"), ("melanie", "Melanie")]
    assert named_entities(text, "Melanie") == [("caroline reyes", "Caroline Reyes")]
    assert named_entities(text, "user") == [
        ("caroline reyes", "Caroline Reyes"),
        ("melanie", "Melanie"),
    ]
    # A run that opens a sentence loses its first word; the same run inside one does not.
    assert named_entities("Caroline Reyes called.") == [("reyes", "Reyes")]
    assert named_entities("Called Caroline Reyes.") == [("caroline reyes", "Caroline Reyes")]


def test_a_name_is_shown_as_most_of_the_statements_write_it():
    texts = ["Works at Ferrovia Labs.", "Left FERROVIA LABS early.", "Joined Ferrovia Labs in May."]
    assert written_as("ferrovia labs", "user", texts) == "Ferrovia Labs"
    # Among forms written as often, the first in sort order; a name none writes: None.
    assert written_as("ferrovia labs", "user", texts[:2]) == "FERROVIA LABS"
    assert written_as("lisbon", "user", texts) is None
