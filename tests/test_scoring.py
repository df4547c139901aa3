"""Scores and merge rules (`tota_vault.scoring`), against the numbers its docstring documents."""

from __future__ import annotations

import pytest

from tota_vault.extract.base import Candidate
from tota_vault.model import Evidence, MemoryType
from tota_vault.scoring import (
    DEFAULT_MIN_CONFIDENCE,
    MERGE_THRESHOLD,
    TYPE_SCORES,
    Scores,
    confirm_confidence,
    facts_differ,
    facts_in,
    score,
    similarity,
    slot_value,
)

T = MemoryType


def cand(mtype: MemoryType, strength: float, **flags) -> Candidate:
    return Candidate(type=mtype, text="x", subject="user", source="1", strength=strength, **flags)


def row(mtype, strength, expected, *, id, **flags):
    return pytest.param(cand(mtype, strength, **flags), expected, id=id)


INF = {"evidence": Evidence.INFERRED}

# fmt: off
SCORES = [
    row(T.IDENTITY, 0.9, (0.9, 0.8, 0.95), id="explicit identity"),
    row(T.PREFERENCE, 0.85, (0.85, 0.5, 0.8), id="plain preference"),
    row(T.PREFERENCE, 0.85, (0.7, 0.5, 0.8), hedged=True, id="hedged: -0.15"),
    row(T.PREFERENCE, 0.75, (0.8, 0.6, 0.8), emphatic=True, id="emphatic: +0.05, +0.1 importance"),
    row(T.DECISION, 0.85, (0.75, 0.6, 0.75), **INF, id="inferred: -0.10"),
    row(T.PROJECT, 0.75, (0.75, 0.6, 0.3), temporary=True, id="temporary: -0.3 durability"),
    row(T.EPISODE, 0.6, (0.45, 0.4, 0.5), hedged=True, id="weak and hedged: below 0.55"),
    row(T.PROJECT, 0.75, (0.5, 0.6, 0.6), hedged=True, **INF, id="hedged and inferred"),
    row(T.EPISODE, 0.9, (0.7, 0.5, 0.2), hedged=True, emphatic=True, temporary=True, **INF,
        id="everything at once"),
    row(T.IDENTITY, 0.99, (0.99, 0.9, 0.95), emphatic=True, id="capped at 0.99"),
    row(T.HABIT, 0.1, (0.05, 0.5, 0.7), hedged=True, **INF, id="floored at 0.05"),
    row(T.CONSTRAINT, 0.9, (0.95, 0.9, 0.9), emphatic=True, id="emphatic constraint"),
    row(T.RELATIONSHIP, 0.75, (0.75, 0.7, 0.85), id="relationship"),
    row(T.GOAL, 0.75, (0.75, 0.7, 0.3), temporary=True, id="temporary goal"),
    row(T.EPISODE, 0.7, (0.7, 0.4, 0.2), temporary=True, id="temporary episode"),
    row(T.EPISODE, 0.6, (0.6, 0.4, 0.5), id="weak statement is stored at 0.6"),
]
# fmt: on


@pytest.mark.parametrize(("candidate", "expected"), SCORES)
def test_score(candidate: Candidate, expected: tuple[float, float, float]):
    scores = score(candidate)
    assert isinstance(scores, Scores)
    assert (scores.confidence, scores.importance, scores.durability) == pytest.approx(expected)


# (statement, cue strength, evidence, confidence): a plan or state given up scores as the drop
# cue does (0.90) whichever cue read it; a "we" home is the speaker's, without the penalty.
# fmt: off
CHANGES = [
    pytest.param("Quit their job at Northwind.", 0.7, Evidence.DIRECT, 0.9, id="quit, an episode"),
    pytest.param("Doesn't like sushi anymore.", 0.75, Evidence.DIRECT, 0.9,
                 id="not ... anymore, a liking"),
    pytest.param("Got divorced in 2022 with Omar.", 0.7, Evidence.DIRECT, 0.9, id="divorced"),
    pytest.param("The user and others cancelled the trip.", 0.65, Evidence.INFERRED, 0.8,
                 id="a 'we' drop is still inferred"),
    pytest.param("Won't quit.", 0.6, Evidence.DIRECT, 0.6, id="a drop said in the negative"),
    pytest.param("Quit their job at Northwind.", 0.95, Evidence.DIRECT, 0.95,
                 id="never lowered"),
    pytest.param("Went to Lyon.", 0.7, Evidence.DIRECT, 0.7, id="no change"),
    # from LoCoMo: no drop, or none said as one
    pytest.param("Maria dropped off the cakes at the shelter.", 0.7, Evidence.DIRECT, 0.7,
                 id="dropped off"),
    pytest.param("Instead of giving up, Tim turned it into a learning experience.", 0.6,
                 Evidence.DIRECT, 0.6, id="instead of giving up"),
    pytest.param('John said: "It\'s so hard to think he\'s not here wagging that tail anymore."',
                 0.6, Evidence.DIRECT, 0.6, id="a quote kept whole"),
    pytest.param("Is looking for stamps from countries that no longer exist.", 0.6,
                 Evidence.DIRECT, 0.6, id="a drop in a clause inside the statement"),
]
# fmt: on


@pytest.mark.parametrize(("text", "strength", "evidence", "confidence"), CHANGES)
def test_a_drop_scores_as_the_drop_cue(text, strength, evidence, confidence):
    candidate = Candidate(type=T.EPISODE, text=text, subject="user", source="1",
                          strength=strength, evidence=evidence)  # fmt: skip
    assert score(candidate).confidence == confidence


def test_a_hedged_drop_keeps_its_cue_strength():
    """ "Maybe I've decided not to ..." is not said outright: the hedge still counts."""
    hedged = Candidate(type=T.DECISION, text="Has decided not to apply for the job after all.",
                       subject="user", source="1", strength=0.85, hedged=True)  # fmt: skip
    assert score(hedged).confidence == 0.7


def test_a_household_home_is_not_inferred():
    home = Candidate(type=T.IDENTITY, text="The user and others moved to York.", subject="user",
                     source="1", strength=0.9, evidence=Evidence.INFERRED,
                     key="identity/location")  # fmt: skip
    assert score(home).confidence == 0.9
    other = Candidate(type=T.IDENTITY, text="The user and others are vegan.", subject="user",
                      source="1", strength=0.85, evidence=Evidence.INFERRED,
                      key="identity/diet")  # fmt: skip
    assert score(other).confidence == 0.75


@pytest.mark.parametrize("mtype", list(TYPE_SCORES), ids=[t.value for t in TYPE_SCORES])
def test_importance_and_durability_start_from_the_type(mtype: MemoryType):
    scores = score(cand(mtype, 0.8))
    assert (scores.importance, scores.durability) == pytest.approx(TYPE_SCORES[mtype])


def test_scores_are_rounded_to_two_places():
    scores = score(cand(T.PREFERENCE, 0.8333, hedged=True))
    assert scores.confidence == 0.68


def test_the_documented_thresholds():
    assert DEFAULT_MIN_CONFIDENCE == 0.55 and MERGE_THRESHOLD == 74.0


# --- confirm_confidence ----------------------------------------------------------------------

CONFIRM = [
    (0.5, 0.8, 0.7),
    (0.85, 0.85, 0.91),
    (0.85, 0.9, 0.92),
    (0.6, 0.6, 0.72),
    (0.9, 0.9, 0.95),
    (0.98, 0.99, 0.99),
    (0.99, 0.99, 0.99),
]


@pytest.mark.parametrize(
    ("current", "new", "expected"), CONFIRM, ids=[f"{c}+{n}" for c, n, _ in CONFIRM]
)
def test_confirm_confidence(current: float, new: float, expected: float):
    assert confirm_confidence(current, new) == pytest.approx(expected)


def test_confirmation_only_raises_and_never_reaches_certainty():
    value = 0.55
    seen = [value]
    for _ in range(40):
        value = confirm_confidence(value, 0.9)
        seen.append(value)
    assert all(b >= a for a, b in zip(seen, seen[1:], strict=False))
    assert seen[1] > seen[0]
    assert max(seen) == 0.99


@pytest.mark.parametrize("current", [0.05, 0.3, 0.55, 0.7, 0.9, 0.99])
def test_a_stronger_confirmation_raises_more(current: float):
    weak, strong = confirm_confidence(current, 0.55), confirm_confidence(current, 0.95)
    assert current <= weak <= strong <= 0.99


# --- similarity ------------------------------------------------------------------------------

SIMILAR = [
    pytest.param("Prefers Neovim over VS Code.", "prefers vs code over neovim", 100, 100,
                 id="reorder and case"),
    pytest.param("Prefers Neovim over VS Code.", "Over VS Code, prefers Neovim!", 100, 100,
                 id="reorder and punctuation"),
    pytest.param("Prefers Neovim over VS Code.", "Really prefers Neovim over VS Code.", 74, 100,
                 id="one more word: a duplicate"),
    pytest.param("Prefers Neovim over VS Code.", "Likes Neovim better than VS Code.", 0, 73.99,
                 id="paraphrase"),
    pytest.param("Prefers Neovim over VS Code.", "Would rather use Neovim than VS Code.", 0, 73.99,
                 id="paraphrase 2"),
    pytest.param("Likes tea.", "Likes tea but hates coffee.", 0, 73.99, id="subset"),
    pytest.param("Lives in Porto.", "Lives in Porto with their two cats and a dog.", 0, 73.99,
                 id="subset 2"),
    pytest.param("Lives in Porto.", "Lives in Lisbon.", 0, 73.99, id="another city"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b", "low", "high"), SIMILAR)
def test_similarity(a: str, b: str, low: float, high: float):
    assert low <= similarity(a, b) <= high
    assert similarity(a, b) == pytest.approx(similarity(b, a))


def test_similarity_of_identical_text_is_100():
    assert similarity("Lives in Porto.", "Lives in Porto.") == 100


# --- facts_differ ----------------------------------------------------------------------------

NUMBER_WORDS = (
    "scoring._facts compares digits and month/weekday names only; number words are ignored, "
    "so these 77-80%-alike statements would merge"
)

# fmt: off
DIFFER = [
    pytest.param("Ran 5 km.", "Ran 50 km.", True, id="5 km vs 50 km"),
    pytest.param("Is 34 years old.", "Is 35 years old.", True, id="34 vs 35"),
    pytest.param("Went to a support group on 7 May 2023.",
                 "Went to a support group on 14 May 2023.", True, id="two days"),
    pytest.param("Went to Paris on 7 May 2023.", "Went to Paris on 7 June 2023.", True,
                 id="two months"),
    pytest.param("Met her on Friday.", "Met her on Monday.", True, id="two weekdays"),
    pytest.param("Went to Paris in 2022.", "Went to Paris in 2023.", True, id="two years"),
    pytest.param("Ran 5 km on 7 May 2023.", "Ran 5 km, on 7 May 2023!", False, id="same facts"),
    pytest.param("Prefers tea.", "Really prefers tea.", False, id="no numbers"),
    pytest.param("Has 2 kids.", "Has 2 kids!", False, id="same number"),
    pytest.param("Ran 5 km in MAY.", "ran 5 km in May", False, id="case"),
    pytest.param("Has two kids.", "Has three kids.", True, id="two vs three (words)"),
    pytest.param("Works out twice a week.", "Works out three times a week.", True,
                 id="twice vs three times"),
]
# fmt: on


@pytest.mark.parametrize(("a", "b", "differ"), DIFFER)
def test_facts_differ(a: str, b: str, differ: bool):
    assert facts_differ(a, b) is differ
    assert facts_differ(b, a) is differ


def test_number_words_would_otherwise_merge():
    """Why the number-word rows matter: these pairs clear the merge threshold."""
    assert similarity("Has two kids.", "Has three kids.") >= MERGE_THRESHOLD
    assert similarity("Works out twice a week.", "Works out three times a week.") >= 74


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("identity/employer", "Works at Contoso now.", "contoso"),
        ("identity/employer", "Joined Contoso.", "contoso"),
        ("identity/employer", "Joined Contoso in February 2024.", "contoso"),
        ("identity/employer", "Just joined Acme Labs as a designer.", "acme labs"),
        ("identity/employer", "Works at Bank of America in Boston.", "bank of america"),
        ("identity/location", "Lives in Porto.", "porto"),
        ("identity/name", "The user's name is Sam.", "sam"),
        ("preference/favorite-color", "The user's favorite color is blue.", "blue"),
        ("identity/employer", "Likes tea.", None),
    ],
)
def test_slot_value(key: str, text: str, value: str | None):
    """What a keyed statement gives its slot: "Joined Contoso" and "Works at Contoso" are one
    employer; when or as what is not part of it."""
    assert slot_value(key, text) == value


def test_facts_in():
    assert facts_in("Ran 5 km twice on 7 May.") == {"5", "2", "7", "may"}
    assert facts_in("Likes tea.") == set()
