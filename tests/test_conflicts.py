"""conflicts: one fact, two facts, or a change of mind; pure functions over real sentences."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tota_vault import Vault
from tota_vault.conflicts import (
    adds,
    change_kind,
    differ,
    gives_up,
    names,
    negated,
    replaces,
)
from tota_vault.extract.messages import Message
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
    # one says more: a merge in either direction would lose it (issue #11, found by review)
    pytest.param("The user's son Leo is allergic to peanuts.",
                 "The user's son Leo is allergic to peanuts and shellfish.", "one says more",
                 id="an item more in a list"),
    pytest.param("Doesn't eat pork.", "Doesn't eat pork or beef.", "one says more",
                 id="an item more, or"),
    pytest.param("Visited porto in 2023.", "Visited porto and lisbon in 2023.",
                 "one says more", id="a place more, written in lower case"),
    pytest.param("Is vegetarian.", "Is not vegetarian.", "the opposite", id="a negation"),
    pytest.param("Drinks coffee.", "Never drinks coffee.", "the opposite", id="never"),
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


def test_the_lists_would_otherwise_merge():
    """Why "one says more" matters: the list with an item more clears the merge threshold."""
    for param in TWO_FACTS[-5:-2]:
        assert similarity(*param.values[:2]) >= MERGE_THRESHOLD


# --- adds: the same fact said more fully -----------------------------------------------------

# (new, old, what new adds)
# fmt: off
FULLER = [
    pytest.param("The user's son Leo is allergic to peanuts and shellfish.",
                 "The user's son Leo is allergic to peanuts.", "shellfish", id="an item"),
    pytest.param("Doesn't eat pork or beef.", "Doesn't eat pork.", "beef", id="an item, or"),
    pytest.param("Visited Porto and Lisbon in 2023.", "Visited Porto in 2023.", "lisbon",
                 id="a name"),
    pytest.param("Ran 5 km on 7 May 2023.", "Ran 5 km.", "2023, 7, may", id="a date"),
]
# fmt: on


@pytest.mark.parametrize(("new", "old", "more"), FULLER)
def test_a_fuller_statement_adds_what_the_old_one_lacks(new: str, old: str, more: str):
    assert adds(new, old) == more
    assert adds(old, new) is None  # the shorter one adds nothing


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Prefers Neovim over VS Code.", "Really prefers Neovim over VS Code."),
        ("Is not vegetarian and not vegan.", "Is vegetarian."),
        ("Went to Seville for a conference with Sam.", "Went to Lyon for a conference."),
    ],
    ids=["filler only", "the opposite", "another city"],
)
def test_adds_nothing(new: str, old: str):
    assert adds(new, old) is None


def test_negated():
    assert negated("Is no longer vegetarian.") and negated("Doesn't eat pork.")
    assert not negated("Is vegetarian.") and not negated("Knows Nora.")


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
    ("No more night shifts for them, the new job is days only.", "drop"),
    ("Has no more questions about it.", None),
    ("No more than two coffees a day.", None),  # a limit, not a drop
    ("Gave up on learning Japanese.", "drop"),
    ("The user's launch got pushed to the 30th.", "reschedule"),
    ("The user's thesis deadline was moved to July 15.", "reschedule"),
    ("The wedding was postponed until October.", "reschedule"),
    ("Mostly works from the café now.", "switch"),
    ("Switched to Helix for editing.", "switch"),
    ("Stopped learning Rust.", "drop"),
    ("Is not vegetarian anymore.", "drop"),
    ("Doesn't drink coffee any more.", "drop"),
    ("Stopped by the bakery on the way home.", None),
    ("The user and others are moving to Leeds instead.", "switch"),
    ("Went to Seville for a conference.", None),
    ("Is planning to apply for the Zurich job.", None),
    ("Works from the library most days.", None),
    # found by a user review of the wheel (issue #11 item 3)
    ("The user's daughter Emma just turned 6.", "switch"),
    ("Got divorced in 2022 with Omar.", "drop"),
    ("The user's dog Biscuit is a basset hound, not a beagle.", "switch"),
    ("Turned 3 chairs into a table.", None),
    ("Never got divorced.", None),
    ("Maria dropped off the cakes at the shelter.", None),
    ("Instead of giving up, Tim turned it into a learning experience.", "switch"),  # no drop
    ("It's not a beagle, not yet.", None),
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
    # found by review (issue #11): each left two contradicting memories active
    pytest.param("Is no longer planning to learn Rust.", "Is planning to learn Rust in 2024.",
                 "drop", id="a plan given up"),
    pytest.param("Stopped learning Rust.", "Is planning to learn Rust in 2024.", "drop",
                 id="a plan stopped"),
    pytest.param("Is no longer vegetarian.", "Is vegetarian.", "drop", id="a state given up"),
    pytest.param("Doesn't drink coffee anymore.", "Drinks coffee every morning.", "drop",
                 id="a habit given up, not ... anymore"),
    pytest.param("Switched to Neovim for editing.", "Uses VS Code for editing.", "switch",
                 id="a tool of two words switched"),
    # found by a user review of the wheel: both stayed active
    pytest.param("Doesn't like sushi anymore.", "Loves sushi.", "drop",
                 id="a liking given up, in another verb of liking"),
    pytest.param("Quit their job at Northwind.", "Works at Northwind as a data analyst.", "drop",
                 id="a job quit ends the work"),
    pytest.param("Now prefers coffee over tea.", "Prefers tea over coffee anyway.", "switch",
                 id="a preference reversed after an 'anyway'"),
    pytest.param("Switched to ruff format instead of black.",
                 "Always uses black for formatting.", "switch",
                 id="instead of the old tool"),
    pytest.param("Drinks tea every morning now instead of coffee.",
                 "Drinks coffee every morning.", "switch", id="now, instead of the old habit"),
    pytest.param("The user's budget is now 5000 euros.",
                 "The user's budget is 4000 euros for the whole trip.", "switch",
                 id="a number of the same measure changed"),
    pytest.param("Cycles to work now.", "Takes the train to work.", "switch",
                 id="a habit of two words switched"),
    pytest.param("These days the user cycles to work.", "Takes the train to work.", "switch",
                 id="these days"),
    # found by review (issue #11): a move, a plan renamed, a preference reversed
    pytest.param("The user's sister Ana moved to Munich.", "The user's sister Ana lives in Berlin.",
                 "switch", id="someone of theirs moved"),
    pytest.param("The user and others decided to go to Korea instead of Japan.",
                 "The user and others are planning a family trip to Japan.", "switch",
                 id="a plan's place renamed"),
    pytest.param("Now prefers spaces over tabs.", "Prefers tabs over spaces.", "switch",
                 id="a preference reversed"),
    # found by a review (stop 23): a child moved to another daycare stayed at the old one
    pytest.param("The user and others moved Leo to Sunflower daycare.",
                 "The user's son Leo goes to Little Stars daycare.", "switch",
                 id="someone moved to another place of one kind"),
    # ... and a replacement that names what it replaces was no change at all
    pytest.param("Switched from VS Code to Neovim.", "Uses VS Code at work.", "switch",
                 id="switched from X to Y"),
    pytest.param("The user said: The proposal deadline moved to 3 February because of the strike.",
                 "The user's dissertation proposal is due on 20 January.", "reschedule",
                 id="a date moved, with a reason and one word fewer"),
    pytest.param("No more night shifts for them, the new job is days only.",
                 "Is on night shifts this month.", "drop", id="no more X, then why"),
    pytest.param("Has finally switched from VS Code to Neovim.", "Uses VS Code at work.",
                 "switch", id="switched from X to Y, with an adverb"),
    pytest.param("Switched from VS Code to Neovim at work.", "Uses VS Code at work.", "switch",
                 id="switched from X to Y where the old one was"),
    pytest.param("Traded their Honda for a Tesla.", "Drives a Honda Civic.", "switch",
                 id="traded X for Y"),
    pytest.param("The user and others replaced Trello with Linear last month.",
                 "The user and others use Trello for planning.", "switch", id="replaced X with Y"),
    pytest.param("Changed from the night shift to days.", "Works the night shift at St Mary.",
                 "switch", id="changed from X to Y"),
    pytest.param("The user's sister Ana moved from Berlin to Munich.",
                 "The user's sister Ana lives in Berlin.", "switch", id="moved from X to Y"),
    # found by a user review of the wheel (issue #11 item 3): both stayed active
    pytest.param("The user's daughter Emma just turned 6.", "The user's daughter Emma is 5.",
                 "switch", id="someone's birthday"),
    pytest.param("Leo turned 4 on 8 May 2023.", "Leo is a 3-year-old.", "switch",
                 id="a birthday, dated, over an N-year-old"),
    pytest.param("Got divorced in 2022 with Omar.", "Is married to Omar.", "drop",
                 id="a couple parted"),
    pytest.param("Broke up with Omar.", "Is dating Omar.", "drop",
                 id="a couple broke up"),
    pytest.param("The user's dog Biscuit is a basset hound, not a beagle.",
                 "The user's dog Biscuit is a beagle.", "switch", id="a correction, not X"),
    # found by a user review of the wheel (stop 23): both stayed active
    pytest.param("The user's migration report deadline was pushed to December 10.",
                 "The user's migration report is due on November 28.", "reschedule",
                 id="a deadline in a month ending -er, called deadline once"),
    pytest.param("The deadline for their migration report moved to December 10.",
                 "The user's migration report is due on November 28.", "reschedule",
                 id="the deadline for it moved"),
    pytest.param("Started eating fish again, so they're not vegetarian anymore.",
                 "Is vegetarian.", "drop", id="the clause that gives it up"),
    pytest.param("Stopped using Trello.", "Uses Trello.", "drop", id="stopped using"),
    pytest.param("The user said: The budget for the kitchen renovation is now 18000 euros.",
                 "The user's budget for the kitchen renovation is 15000 euros.", "switch",
                 id="a number changed, kept as said"),
    # the chats of tests/test_pipeline.py (a developer, a family, a student)
    pytest.param("Switched from Neovim to Helix in the week before 5 March 2026.",
                 "Uses Neovim with pyright for everything.", "switch",
                 id="when it switched, resolved, is no qualifier"),
    pytest.param("The user and others have decided to go in May instead of April because of "
                 "Mia's school holidays.", "The user and others are planning a family trip to "
                 "Japan in April.", "switch", id="why, after instead of, is no part of it"),
    pytest.param("Mostly works from home now, the library got too crowded.",
                 "Works from the university library most days, usually from 9 to 5.",
                 "switch", id="the first clauses switch"),
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
    pytest.param("Switched to ruff format instead of black.", "Has a black cat.",
                 id="the value named after instead, and nothing beside it"),
    pytest.param("Drinks tea now instead of coffee.", "Drinks tea and coffee.",
                 id="instead of, but the old statement already holds the new value"),
    pytest.param("Ran 10 km now.", "Ran 5 km on 7 May 2023.",
                 id="a dated run is an event, not a measure that changed"),
    pytest.param("The user's budget is now 5000 euros.", "Ran 5 km on Sunday.",
                 id="numbers of two measures"),
    pytest.param("Wish Joanna had a vacation lined up, but right now their writing is "
                 "consuming Joanna.", "Joanna wishes they wasn't allergic.",
                 id="a long run for a short one (LoCoMo)"),
    pytest.param("Stopped by the bakery on the way home.", "Loves the bakery.",
                 id="stopped by is no drop"),
    pytest.param("The user's sister Ana moved to Munich.", "The user's brother Tom lives in Berlin.",
                 id="another person's home"),
    pytest.param("The user's sister Ana moved to Munich.", "The user's sister Ana lives in Munich.",
                 id="the same place: no move"),
    pytest.param("Moved Leo to Little Stars daycare.",
                 "The user's son Leo goes to Little Stars daycare.", id="the same daycare: no move"),
    pytest.param("Moved Mia to Sunflower daycare.",
                 "The user's son Leo goes to Little Stars daycare.", id="another child moved"),
    pytest.param("Moved Leo to Hillcrest school.",
                 "The user's son Leo goes to Little Stars daycare.", id="another kind of place"),
    pytest.param("Moved Leo to the Big Room.",
                 "The user's son Leo goes to Little Stars daycare.", id="moved within a place"),
    pytest.param("The user's sister Ana switched from VS Code to Neovim.", "Uses VS Code at work.",
                 id="someone else switched from X"),
    pytest.param("The user's sister Ana moved from Berlin to Munich.",
                 "The user's brother Tom lives in Berlin.", id="someone else moved from X"),
    pytest.param("Switched from VS Code to Neovim.", "Dislikes VS Code's telemetry.",
                 id="X named, but not as what they used"),
    pytest.param("Has never switched from VS Code to anything else.", "Uses VS Code at work.",
                 id="never switched"),
    pytest.param("The meeting moved to Friday.", "The user's team budget meeting is on Monday.",
                 id="a date moved of something said two words shorter"),
    pytest.param("Has no more questions about the lease.", "Has questions about the lease.",
                 id="no more inside a clause"),
    pytest.param("No more night shifts for them, the new job is days only.", "Loves the new job.",
                 id="no more of something else"),
    pytest.param("Gave up sugar for Lent.", "Loves sugar in coffee.",
                 id="given up for a reason, not for another thing"),
    # a code review: a switch for a time, a use or someone leaves the old statement true
    pytest.param("Switched from coffee to tea in the afternoons.", "Loves coffee.",
                 id="a switch for a time of day"),
    pytest.param("Switched from Python to Rust for the CLI tool.", "Uses Python at work.",
                 id="a switch for one use"),
    pytest.param("Switched from VS Code to Neovim for Rust only.", "Uses VS Code.",
                 id="a switch for one use, only"),
    pytest.param("Switched from piano to guitar lessons for Leo.", "Plays piano.",
                 id="a switch for someone else"),
    pytest.param("Replaced sugar with honey in tea.", "Likes sugar in coffee.",
                 id="a replacement in another thing"),
    pytest.param("Is thinking about switching from VS Code to Neovim.", "Uses VS Code at work.",
                 id="a switch considered"),
    pytest.param("Has decided they're switching from VS Code to Neovim next week.",
                 "Uses VS Code at work.", id="a switch planned"),
    pytest.param("Moved from London to Paris for a month.", "Lives in London.",
                 id="a move for a while"),
    pytest.param("The user and others moved Leo to Sunflower daycare for the summer.",
                 "The user's son Leo goes to Little Stars daycare.", id="someone moved for a while"),
    pytest.param("No more kids for us, two is enough.", "Has two kids.",
                 id="no more of what they have"),
    pytest.param("No more dogs for them, one is plenty.", "Has a dog.",
                 id="no more of what they own"),
    pytest.param("Went to Korea instead of Japan.", "The user's sister Ana lives in Japan.",
                 id="a name replaced in no plan"),
    pytest.param("Now prefers spaces over tabs.", "Prefers spaces over tabs.",
                 id="the same preference"),
    pytest.param("The user's son Leo just turned 6.", "The user's daughter Emma is 5.",
                 id="another child's birthday"),
    pytest.param("The user's daughter Emma just turned 5.", "The user's daughter Emma is 5.",
                 id="the same age: no birthday change"),
    pytest.param("Turned 3 chairs into a table.", "The user's daughter Emma is 3.",
                 id="turned a number of things"),
    pytest.param("Got divorced in 2022 with Omar.", "The user's sister Ana is married to Omar.",
                 id="a divorce ends no one else's marriage"),
    pytest.param("Got divorced in 2022 with Omar.", "Is married to Sam.",
                 id="a divorce from another partner"),
    pytest.param("The user's dog Biscuit is a basset hound, not a beagle.",
                 "The user's cat Tom is a tabby.", id="a correction of nothing said"),
    pytest.param("It's about the journey, not the destination.", "Loves the destination.",
                 id="not X with nothing else shared"),
    pytest.param("Started eating fish again, so they're not vegetarian anymore.",
                 "Eats fish on Fridays.", id="the other clause is not what is given up"),
    pytest.param("Loves hiking, so they no longer drive to work.", "Loves hiking.",
                 id="a drop in one clause gives up nothing of the other"),
    pytest.param("The user's report was pushed to December 10.",
                 "The user's report is due on December 10.", id="the same date: no move"),
    # a review of the clause rule: each gave up a true memory
    pytest.param("Dropped the kids at school, and went running.", "Drops the kids at school.",
                 id="dropped off, then something else: no drop"),
    pytest.param("Cancelled yoga this Friday, because of the storm.", "Does yoga every Friday.",
                 id="one Friday cancelled: the habit stays"),
    pytest.param("Gave up the window seat, so their son could look out.",
                 "Prefers the window seat.", id="a seat given up once"),
    pytest.param("Cancelled the dentist appointment, and rebooked it for Friday.",
                 "Has a dentist appointment on Friday.", id="cancelled and rebooked"),
    pytest.param("The user's kids eat meat now, so they're not vegetarian anymore.",
                 "Is vegetarian.", id="their kids' diet is not theirs"),
    pytest.param("The user's parents moved to Spain, so they're no longer in Lisbon.",
                 "Lives in Lisbon.", id="their parents' move is not theirs"),
    pytest.param("Stopped being free on Fridays.", "Meets Fred on Fridays.",
                 id="free is no Fred"),
    pytest.param("Has decided to go in May instead of April.",
                 'The user said: "We\'re planning a family trip to Japan in April. It\'s me, my '
                 'husband Tom and our two kids."', id="a quote of several facts replaced by none"),
    # a code review: the old statement's tail holds a fact of its own, which a switch of its
    # first clause would take with it
    pytest.param("Now uses Neovim at work.", "Uses VS Code at work, and vim for quick edits.",
                 id="the tail's second tool"),
    pytest.param("Now has three kids.", "Has two kids, Mia and Leo.", id="the tail's names"),
    pytest.param("Now works at Globex.", "Works at Acme, a startup in Berlin where their sister "
                 "Anna also works.", id="the tail's appositive"),
    pytest.param("Is now learning Japanese.", "Is learning Spanish, for the trip to Mexico.",
                 id="the tail's purpose"),
    pytest.param("Works from home, the library is now crowded.",
                 "Works from the university library most days, usually from 9 to 5.",
                 id="the change is after the comma"),
    pytest.param("Switched to tea in the afternoons in May 2026.", "Drinks coffee.",
                 id="a date does not lift the qualifier beside it"),
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


# (statement, whether its own verb gives something up): LongMemEval and LoCoMo lines beside
# the review's
# fmt: off
GIVES_UP = [
    ("Quit their job at Northwind.", True),
    ("Doesn't like sushi anymore.", True),
    ("Got divorced in 2022 with Omar.", True),
    ("Has just quit their job.", True),
    ("The user and others cancelled the trip.", True),
    ("Can't see Kikuchi-san's holy aura anymore.", True),
    ("Is looking for information on the 1950s postage stamps from countries that no longer "
     "exist.", False),
    ("Has been finding a lot of old documents and papers that they don't need anymore.", False),
    ("Sometimes the user feels like giving up, especially since they started a new job.", False),
    ("Instead of giving up, Tim turned it into a learning experience.", False),
    ("Maria dropped off the cakes at the shelter.", False),
    ('John said: "I quit my job."', False),
    ("Jon won't quit.", False),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), GIVES_UP)
def test_gives_up(text: str, expected: bool):
    assert gives_up(text) is expected


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


def test_a_reversed_preference_is_no_duplicate():
    # "Now prefers spaces over tabs." merged into "Prefers tabs over spaces." (92% alike)
    assert differ("Now prefers spaces over tabs.", "Prefers tabs over spaces.") is not None
    assert differ("Prefers Neovim to VS Code.", "Prefers Neovim over VS Code.") is None


#: A reviewer's changes of mind (issue #11), each said after the fact it changes, in one chat:
#: (the first message, the change, the old statement that must be in History).
CHANGED_MINDS = [
    ("My migration deadline is March 14.", "The migration deadline moved to April 30.",
     "The user's migration deadline is March 14."),
    ("We are planning a family trip to Japan.", "We decided to go to Korea instead of Japan.",
     "The user and others are planning a family trip to Japan."),
    ("My sister Ana lives in Berlin.", "My sister Ana moved to Munich.",
     "The user's sister Ana lives in Berlin."),
    ("I prefer tabs over spaces.", "I now prefer spaces over tabs.", "Prefers tabs over spaces."),
    ("I love sushi.", "I no longer like sushi.", "Loves sushi."),
    # found by a user review of the wheel (issue #11 item 3): the change was lost or kept
    ("I'm 34 years old.", "I turned 35 today.", "Is 34 years old."),
    ("My daughter Emma is 5.", "Emma just turned 6.", "The user's daughter Emma is 5."),
    ("I'm married to Omar.", "Omar and I got divorced last year.", "Is married to Omar."),
    ("I work at Northwind.", "I started a new job at Contoso last week.", "Works at Northwind."),
    ("I work at Northwind as a data analyst.", "I quit my job at Northwind.",
     "Works at Northwind as a data analyst."),
    ("My dog Biscuit is a beagle.", "Actually Biscuit is a basset hound, not a beagle.",
     "The user's dog Biscuit is a beagle."),
    ("I live in Leeds.", "We moved to York last month.", "Lives in Leeds."),
    ("I prefer tea over coffee anyway.", "Actually I now prefer coffee over tea.",
     "Prefers tea over coffee anyway."),
    ("I love sushi.", "I don't like sushi anymore.", "Loves sushi."),
    ("I use VS Code at work.", "I switched from VS Code to Neovim.", "Uses VS Code at work."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("first", "change", "old"), CHANGED_MINDS, ids=[c[1] for c in CHANGED_MINDS]
)
def test_a_change_of_mind_supersedes_through_observe(tmp_path: Path, first, change, old):
    when = datetime(2023, 5, 8, 10, 0)
    messages = [
        Message(role="user", content=first, id="1", timestamp=when),
        Message(role="assistant", content="Ok.", id="2", timestamp=when),
        Message(role="user", content=change, id="3", timestamp=when),
    ]
    with Vault.open(tmp_path / "v") as vault:
        report = vault.observe(messages, conversation_id="c")
    assert [o.action for o in report.outcomes] == ["create", "supersede"], report.outcomes
    created, superseded = report.outcomes
    assert created.text == old
    new_note = (tmp_path / "v" / str(superseded.path)).read_text("utf-8")
    assert f'replaced "{old}"' in new_note.split("## History", 1)[1]
    assert "status: superseded" in (tmp_path / "v" / str(created.path)).read_text("utf-8")


def test_a_date_moved_of_a_thing_named_shorter_replaces_only_the_one_it_fits(tmp_path: Path):
    """A code review: "My flight moved to 9 May" superseded the return flight of two, at
    random. Named one word shorter, a moved date replaces a memory only when it fits one."""
    when = datetime(2023, 5, 8, 10, 0)

    def say(content: str, id: str) -> Message:
        return Message(role="user", content=content, id=id, timestamp=when)

    with Vault.open(tmp_path / "two") as vault:
        vault.observe([say("My Lisbon flight is on 2 May.", "1")], conversation_id="a")
        vault.observe([say("My return flight is on 20 May.", "1")], conversation_id="b")
        report = vault.observe([say("My flight moved to 9 May.", "1")], conversation_id="c")
        assert [o.action for o in report.outcomes] == ["create"], report.outcomes
    with Vault.open(tmp_path / "one") as vault:
        vault.observe([say("My Lisbon flight is on 2 May.", "1")], conversation_id="a")
        report = vault.observe([say("My flight moved to 9 May.", "1")], conversation_id="c")
        assert [o.action for o in report.outcomes] == ["supersede"], report.outcomes
