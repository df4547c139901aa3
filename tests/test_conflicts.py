"""conflicts: one fact, two facts, or a change of mind; pure functions over real sentences."""

from __future__ import annotations

import pytest

from tota_vault.conflicts import change_kind, differ, names, replaces
from tota_vault.scoring import MERGE_THRESHOLD, similarity

# --- differ: what a merge must never join ----------------------------------------------------

# fmt: off
TWO_FACTS = [
    pytest.param("Went to Seville for a conference.", "Went to Lyon for a conference.",
                 "another name", id="another city"),
    pytest.param("The user and others decided to move to Leeds next year.",
                 "The user and others decided to move to Bristol next year.", "another name",
                 id="another city in a decision"),
    pytest.param("Went hiking with Sam on the weekend.", "Went hiking with Priya on the weekend.",
                 "another name", id="another person"),
    pytest.param("Went to Lyon for a conference.", "Went to Lyon for a conference with Sam.",
                 "another name", id="a person more"),
    pytest.param("Ran 5 km along the river.", "Ran 50 km along the river.",
                 "another number", id="another number"),
    pytest.param("Has a dentist appointment on 3 May.", "Has a dentist appointment on 3 June.",
                 "another number or date", id="another date"),
    pytest.param("Really likes jazz records.", "Really likes jazz festivals.", "another thing",
                 id="another thing"),
    pytest.param("Is learning to play the violin.", "Is learning to play the cello.",
                 "another thing", id="another instrument"),
]
ONE_FACT = [
    pytest.param("Prefers Neovim over VS Code.", "Really prefers Neovim over VS Code.",
                 id="one more filler word"),
    pytest.param("Is planning to visit Porto.", "Plans to visit Porto.", id="other verb forms"),
    pytest.param("Ran 5 km on Sunday!", "Ran 5 km on Sunday.", id="punctuation"),
    pytest.param("Loves hiking in the Alps.", "Loves hiking in the Alps these days.",
                 id="a time filler"),
    pytest.param("Prefers Neovim over VS Code.", "<!-- mine -->\nPrefers Neovim over VS Code.",
                 id="a person's comment line before the statement"),
]
# fmt: on


@pytest.mark.parametrize(("a", "b", "why"), TWO_FACTS)
def test_two_facts_differ(a: str, b: str, why: str):
    assert why in (differ(a, b) or ""), differ(a, b)
    assert differ(b, a) is not None


def test_the_two_facts_would_otherwise_merge():
    """Why the table matters: the city pairs clear the merge threshold."""
    assert similarity(TWO_FACTS[0].values[0], TWO_FACTS[0].values[1]) >= MERGE_THRESHOLD
    assert similarity(TWO_FACTS[1].values[0], TWO_FACTS[1].values[1]) >= MERGE_THRESHOLD


@pytest.mark.parametrize(("a", "b"), ONE_FACT)
def test_one_fact_in_other_words_does_not_differ(a: str, b: str):
    assert differ(a, b) is None
    assert differ(b, a) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Went to Lyon with Sam.", {"lyon", "sam"}),
        ("Sam's sister lives in Berlin.", {"berlin"}),  # the first word starts the sentence
        ("Likes tea. Hates coffee.", set()),
        ("The user's launch is on Monday.", {"monday"}),
        ("<!-- mine -->\nPrefers Neovim.", {"neovim"}),
    ],
)
def test_names(text: str, expected: set[str]):
    assert names(text) == expected


# --- change_kind ---------------------------------------------------------------------------

# fmt: off
KINDS = [
    ("Has decided not to apply for the Zurich job after all.", "drop"),
    ("No longer plays in the Sunday league.", "drop"),
    ("Gave up on learning Japanese.", "drop"),
    ("The user's launch got pushed to the 30th.", "reschedule"),
    ("The user's thesis deadline was moved to July 15.", "reschedule"),
    ("The wedding was postponed until October.", "reschedule"),
    ("Mostly works from the café now.", "switch"),
    ("Switched to Helix for editing.", "switch"),
    ("The user and others are moving to Leeds instead.", "switch"),
    ("Went to Seville for a conference.", None),
    ("Is planning to apply for the Zurich job.", None),
    ("Works from the library most days.", None),
]
# fmt: on


@pytest.mark.parametrize(("text", "kind"), KINDS)
def test_change_kind(text: str, kind: str | None):
    assert change_kind(text) == kind


# --- replaces: a change of mind -------------------------------------------------------------

# fmt: off
CHANGES = [
    pytest.param("Has decided not to apply for the Zurich job after all.",
                 "Is planning to apply for the Zurich job.", "drop", id="a plan dropped"),
    pytest.param("No longer plays in the Sunday league.", "Plays in the Sunday league.", "drop",
                 id="a habit dropped"),
    pytest.param("The user's launch got pushed to the 30th.",
                 "The user's launch is scheduled for March 15.", "reschedule",
                 id="a deadline moved"),
    pytest.param("The user's thesis deadline was moved to July 15.",
                 "The user's deadline for the thesis is June 1.", "reschedule",
                 id="a deadline moved, other word order"),
    pytest.param("Has to submit their thesis by July 15 now.",
                 "Has to submit their thesis by June 1.", "reschedule",
                 id="a constraint's date, now"),
    pytest.param("Mostly works from the café now.", "Works from the library most days.",
                 "switch", id="a place switched"),
    pytest.param("Switched to Helix for editing.", "Uses Vim for editing.", "switch",
                 id="a tool switched"),
    pytest.param("Swims in the evenings now.", "Runs in the evenings.", "switch",
                 id="a habit switched"),
    pytest.param("The user and others are moving to Leeds instead.",
                 "The user and others decided to move to Bristol next year.", "switch",
                 id="a plan replaced"),
]
NO_CHANGE = [
    pytest.param("Went to Seville for a conference.", "Went to Lyon for a conference.",
                 id="two trips: no cue of change"),
    pytest.param("The user and others decided to move to Leeds next year.",
                 "The user and others decided to move to Bristol next year.",
                 id="two decisions without a cue: two facts, never a merge"),
    pytest.param("Mostly works from the café now.", "Works on the tota project.",
                 id="another frame (works from / works on)"),
    pytest.param("Switched to Helix for editing.", "Enjoys editing videos.",
                 id="one shared word is not a frame"),
    pytest.param("The user's launch got pushed to the 30th.",
                 "Went to a rocket launch on May 3.", id="another launch"),
    pytest.param("Has decided not to apply for the Zurich job after all.",
                 "Is planning to apply for the Geneva job.", id="another job is not dropped"),
    pytest.param("Has decided not to apply for the Zurich job after all.",
                 "Has decided not to apply for the Zurich job.", id="a drop does not drop a drop"),
    pytest.param("Lives in Lisbon now.", "Likes tea.", id="nothing shared"),
    pytest.param("Mostly works from the café now.", "Mostly works from the café.",
                 id="the same value: a merge, not a change"),
]
# fmt: on


@pytest.mark.parametrize(("new", "old", "kind"), CHANGES)
def test_a_change_of_mind_replaces_the_old_statement(new: str, old: str, kind: str):
    change = replaces(new, old)
    assert change is not None and change.kind == kind
    assert replaces(old, new) is None or change_kind(old) is not None  # the old says no change


@pytest.mark.parametrize(("new", "old"), NO_CHANGE)
def test_no_change_of_mind(new: str, old: str):
    assert replaces(new, old) is None


@pytest.mark.parametrize(
    "text",
    [
        "Jon won't quit.",
        "Jon is gonna keep on going and never quit.",
        "Has never given up on painting.",
        'John said: "Incorporating strength training really changed the game for me."',
        "Won't eat meat.",
    ],
)
def test_no_change_in_real_dialog(text: str):
    """From LoCoMo: a drop said in the negative, an idiom, a refusal: no change of mind."""
    assert change_kind(text) is None


def test_the_subjects_own_name_is_no_frame():
    """From LoCoMo: every statement about Jon names Jon; that alone shares nothing."""
    new = "Now, Jon is aiming to turn their dancing passion into a business."
    assert replaces(new, "Jon won't give up.", subject="Jon") is None
    assert replaces("Jon mostly trains at the studio now.", "Jon trains at the gym.",
                    subject="Jon") is not None  # fmt: skip
