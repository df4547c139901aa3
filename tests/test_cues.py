"""The typed cues: the first cue that matches a sentence decides its type (extract/cues.py)."""

from __future__ import annotations

import pytest

from tota_vault.extract.cues import CUES, cue_key


def first_cue(sentence: str) -> tuple[str, str, str | None] | None:
    for cue in CUES:
        match = cue.pattern.search(sentence)
        if match is not None:
            return cue.name, cue.type.value, cue_key(cue, match)
    return None


# fmt: off
CUED = [
    ("My name is Sam.", ("name", "identity", "identity/name")),
    ("I'm 34 years old.", ("age", "identity", "identity/age")),
    ("I still live in Porto.", ("location", "identity", "identity/location")),
    ("We live in Halifax.", ("location", "identity", "identity/location")),
    ("I'm originally from Chile.", ("origin", "identity", "identity/origin")),
    ("I work at Brightwell.", ("employer", "identity", "identity/employer")),
    ("I'm a data analyst.", ("role", "identity", "identity/role")),
    ("I work as a nurse.", ("role", "identity", "identity/role")),
    ("I'm a strict vegan.", ("diet", "identity", "identity/diet")),
    ("I'm allergic to peanuts.", ("allergy", "constraint", None)),
    ("We can't ship copyleft code.", ("constraint", "constraint", None)),
    ("We're not allowed to keep data outside the EU.", ("constraint", "constraint", None)),
    ("We decided to move to Leeds next year.", ("decision", "decision", None)),
    ("My favorite band is Muse.", ("favorite", "preference", "preference/favorite-band")),
    ("I much prefer Emacs.", ("prefer", "preference", None)),
    ("I'm a huge Star Wars fan.", ("prefer", "preference", None)),
    ("I especially love oat milk.", ("like", "preference", None)),
    ("I'm training for a triathlon in June.", ("goal", "goal", None)),
    ("I'm writing a novel about sailors.", ("project", "project", None)),
    ("I run every morning.", ("habit", "habit", None)),
    ("My sister is a nurse.", ("relationship", "relationship", None)),
    ("I visited Kyoto in 2019.", ("episode", "episode", None)),
    ("The train was late.", None),
    # "I joined X" is the employer cue (docs/learning.md), a name that ends the clause
    ("I joined Contoso.", ("employer", "identity", "identity/employer")),
    ("I just joined Acme Labs as a designer.", ("employer", "identity", "identity/employer")),
    ("I joined Contoso last month.", ("employer", "identity", "identity/employer")),
    ("I joined Sam for dinner.", ("episode", "episode", None)),
    ("I joined a gym.", ("episode", "episode", None)),
    # a plan or state given up, said outright
    ("I'm no longer vegetarian.", ("drop", "decision", None)),
    ("I'm no longer planning to learn Rust.", ("drop", "decision", None)),
    ("I stopped learning Rust.", ("drop", "decision", None)),
    ("I gave up on learning Rust.", ("drop", "decision", None)),
    ("I've finally given up on the marathon.", ("drop", "decision", None)),
    ("I'm not vegetarian any more.", ("drop", "decision", None)),
    ("I stopped by the bakery.", None),
    ("I never gave up on painting.", None),
    ("I quit my job two months ago.", ("episode", "episode", None)),
    # a choice as the second verb: after the relationship cue, before the episode cue
    ("I went to three open days and decided on Leeds.", ("choice after and", "decision", None)),
    # issue #11 item 2: durable facts the episode cue or the weak rule took
    ("I'm Priya.", ("name", "identity", "identity/name")),
    ("I'm Canadian.", None),
    ("I'm Japanese.", None),
    ("I've been a teacher for ten years.", ("role", "identity", "identity/role")),
    ("I've been a student since 2020.", ("life role", "identity", None)),
    ("I'm fluent in Spanish.", ("identity", "identity", None)),
    ("I'm not a morning person.", ("identity", "identity", None)),
    ("I'm especially fond of old movies.", ("prefer", "preference", None)),
    ("One of my favorites is Gimme Shelter.", ("prefer", "preference", None)),
    ("I race my motorbike on the weekends.", ("habit", "habit", None)),
    ("I visit them every other weekend.", ("habit", "habit", None)),
    ("I have a golden retriever called Mango.", ("relationship", "relationship", None)),
    ("We have two grown children.", ("relationship", "relationship", None)),
    ("We have two dogs and a cat.", ("relationship", "relationship", None)),
    ("I have two dogs' toys in my bag.", None),
    ("I'm moving to Berlin in March.", ("plan", "decision", None)),
    ("I'm quitting in June to start a bakery.", ("plan", "decision", None)),
    ("I'm moving on from it.", None),
    ("I hurt my ankle.", ("episode", "episode", None)),
    ("My sister moved to Paris and decided to stay.", ("relationship", "relationship", None)),
    # a user review: an adverb after "I" or "we" hid every cue written for both ("I now use
    # Zotero" was an episode, so it lost to "Uses Mendeley" as a change of mind)
    ("I use Mendeley for references.", ("tool", "preference", None)),
    ("I now use Zotero for references.", ("tool", "preference", None)),
    ("We still take the train to work.", ("habit", "habit", None)),
    ("We now have two cats.", ("relationship", "relationship", None)),
    # a code review: a rule of every time is a limit, not a to-do
    ("I must get a signature from my manager for any expense over 500 euros.",
     ("constraint", "constraint", None)),
    ("I need to get a permit for every event I run.", ("constraint", "constraint", None)),
    # issue #11 item 2: an adverb that denies the verb is no slot ("I rarely use Zotero" is
    # no preference for it); one that does not still is
    ("I rarely use Zotero.", None),
    ("I hardly ever cook dinner at home.", None),
    ("I barely watch TV.", None),
    ("I really use Zotero for references.", ("tool", "preference", None)),
    # a thing to get done is a goal, a limit lived with a constraint
    ("We need to find a dog walker in Leeds for Biscuit", ("goal", "goal", None)),
    ("I have to buy a new laptop.", ("goal", "goal", None)),
    ("I need to avoid gluten.", ("constraint", "constraint", None)),
    ("We have to be home by 6 on weekdays.", ("constraint", "constraint", None)),
    ("I must get the kids to school by 8.", ("constraint", "constraint", None)),
]
# fmt: on


@pytest.mark.parametrize(("sentence", "expected"), CUED, ids=[c[0] for c in CUED])
def test_the_first_matching_cue_decides(sentence: str, expected):
    assert first_cue(sentence) == expected


def test_every_cue_names_its_type_and_a_strength_between_half_and_one():
    assert len({cue.name for cue in CUES}) == len(CUES)
    assert all(0.5 <= cue.strength <= 1.0 for cue in CUES)


def test_a_drop_is_as_strong_as_any_direct_statement_it_ends():
    """The newest word on a plan or state: a tie with the strongest cue goes to the newer."""
    drop = next(cue for cue in CUES if cue.name == "drop")
    assert drop.strength >= max(cue.strength for cue in CUES)
