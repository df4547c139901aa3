"""The learning pipeline: `decide` as a pure policy, then `Vault.observe` on real temp vaults."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from conftest import index_sql, write

from tota_vault import Vault
from tota_vault.errors import ValidationError
from tota_vault.extract.base import Candidate
from tota_vault.extract.messages import Message
from tota_vault.extract.rules import RuleExtractor
from tota_vault.model import MemoryType
from tota_vault.notes import parse_note
from tota_vault.pipeline import Learner, ObserveReport, check_conversation_id, decide
from tota_vault.rows import MemoryRow
from tota_vault.scoring import Scores, similarity
from tota_vault.seal import SealState, seal_state
from tota_vault.writer import NoteWriter

# --- decide: the pure policy -----------------------------------------------------------------


def cand(text: str, *, key: str | None = None, when: datetime | None = None) -> Candidate:
    return Candidate(
        type=MemoryType.PREFERENCE, text=text, subject="user", source="1", key=key, timestamp=when
    )


def stored(name: str, text: str, confidence: float = 0.8, updated: str = "2023-05-01T10:00:00"):
    return MemoryRow(
        path=f"preference/{name}.md", text=text, confidence=confidence, updated=updated
    )


NEOVIM = "Prefers Neovim over VS Code."
FULLER = "Prefers Neovim over VS Code and Emacs."  # 84% alike to NEOVIM, and one thing more
MAY = datetime(2023, 5, 8, 10, 0)
A = stored("A", "Prefers Neovim over VS Code!")  # 100% alike
B = stored("B", "Really prefers Neovim over VS Code.")  # 89% alike
C = stored("C", "Likes Neovim better than VS Code.")  # 51%: not alike
RUN5 = stored("Run5", "Ran 5 km on Sunday.")
RUN5_MAY7 = stored("Run5May7", "Ran 5 km on 7 May 2023.")
SLOT = "preference/editor"
OLD_SLOT = stored("Emacs", "Prefers Emacs.", confidence=0.7, updated="2023-05-01T10:00:00")
SURE_SLOT = stored("Emacs", "Prefers Emacs.", confidence=0.95, updated="2023-05-01T10:00:00")
FAV = "preference/favorite-color"
BLUE = stored("Blue", "The user's favorite color is blue.", 0.9)._replace(key=FAV)
TIE_SLOT = stored("Emacs", "Prefers Emacs.", confidence=0.85, updated="2023-05-01T10:00:00")


def case(candidate, confidence, similar=(), same_key=(), *, observed=False, minimum=0.55,
         action, target=None, reason="", id, marks=()):  # fmt: skip
    return pytest.param(
        candidate, confidence, list(similar), list(same_key), observed, minimum, action, target,
        reason, id=id, marks=marks,
    )  # fmt: skip


# fmt: off
DECISIONS = [
    # skip
    case(cand(NEOVIM), 0.85, [A], observed=True, action="skip", reason="already observed",
         id="skip: message already observed (before anything else)"),
    case(cand(NEOVIM), 0.45, [A], action="skip", reason="0.45 < 0.55",
         id="skip: below min confidence"),
    case(cand(NEOVIM), 0.85, minimum=0.9, action="skip", reason="0.85 < 0.90",
         id="skip: below a raised min confidence"),
    case(cand(NEOVIM), 0.55, action="create", id="create: exactly at min confidence"),
    # create
    case(cand(NEOVIM), 0.85, action="create", reason="new", id="create: nothing alike"),
    case(cand(NEOVIM), 0.85, [C], action="create", id="create: a paraphrase is not alike"),
    case(cand("Likes tea."), 0.85, [stored("T", "Likes tea but hates coffee.")],
         action="create", id="create: a longer statement is not a duplicate"),
    # merge
    case(cand(NEOVIM), 0.85, [A], action="merge", target=A, reason="100% alike",
         id="merge: same statement"),
    case(cand(NEOVIM), 0.85, [B], action="merge", target=B, reason="89% alike",
         id="merge: >= 74% alike"),
    case(cand(NEOVIM), 0.85, [C, B, A], action="merge", target=A,
         id="merge: the best of several"),
    case(cand(NEOVIM), 0.85, [B, C], action="merge", target=B,
         id="merge: the only one over the threshold"),
    # a slot's current value is settled first: the statement gives the slot a new value
    case(cand(NEOVIM, key=SLOT), 0.85, [A], [OLD_SLOT], action="supersede", target=OLD_SLOT,
         id="a keyed slot is resolved before any merge by text"),
    # numbers and dates
    case(cand("Ran 50 km on Sunday."), 0.7, [RUN5], action="create",
         id="no merge: numbers differ"),
    case(cand("Ran 5 km on 8 May 2023."), 0.7, [RUN5_MAY7], action="create",
         id="no merge: dates differ"),
    case(cand("Ran 5 km on 7 June 2023."), 0.7, [RUN5_MAY7], action="create",
         id="no merge: months differ"),
    case(cand("Ran 5 km on Sunday!"), 0.7, [RUN5], action="merge", target=RUN5,
         id="merge: same numbers"),
    case(cand("Ran 50 km on Sunday."), 0.7, [RUN5, stored("Run50", "Ran 50 km on Sunday")],
         action="merge", target=stored("Run50", "Ran 50 km on Sunday"),
         id="merge: skips the differing one for the matching one"),
    # conflicts
    case(cand("Prefers Helix.", key=SLOT), 0.85, [], [OLD_SLOT], action="supersede",
         target=OLD_SLOT, reason="0.85 > 0.70", id="supersede: more confident"),
    case(cand("Prefers Helix.", key=SLOT, when=MAY), 0.85, [], [TIE_SLOT],
         action="supersede", target=TIE_SLOT, reason="tie, newer wins",
         id="supersede: tie, the newer wins"),
    case(cand("Prefers Helix.", key=SLOT), 0.85, [], [TIE_SLOT], action="supersede",
         target=TIE_SLOT, id="supersede: tie, stated now (no timestamp) is newer"),
    case(cand("Prefers Helix.", key=SLOT, when=datetime(2023, 4, 1)), 0.85, [], [TIE_SLOT],
         action="keep", target=TIE_SLOT, id="keep: tie, but the stored value is newer"),
    case(cand("Prefers Helix.", key=SLOT), 0.85, [], [SURE_SLOT], action="keep",
         target=SURE_SLOT, reason="0.95 >= 0.85", id="keep: existing more confident"),
    case(cand("Prefers Helix.", key=SLOT), 0.85, [C], [OLD_SLOT], action="supersede",
         target=OLD_SLOT, id="supersede: a similar-but-not-alike row does not block it"),
    case(cand("Prefers Helix.", key=SLOT), 0.85, [], [OLD_SLOT, SURE_SLOT], action="supersede",
         target=OLD_SLOT, id="supersede: the first (newest) holder of the slot decides"),
    case(cand("Prefers Helix."), 0.85, [], [SURE_SLOT], action="create",
         id="create: no key, no conflict"),
    case(cand("The user's favorite color is green.", key=FAV), 0.9, [BLUE], [BLUE],
         action="supersede", target=BLUE, id="supersede: a new value of a keyed slot"),
    # the same fact said more fully is never merged away (issue #11), nor a conflict: both
    # are true, so it is another memory; so is one that says less
    case(cand(FULLER), 0.85, [A], action="create", reason="says more (emacs)",
         id="create: it says more"),
    case(cand(FULLER), 0.85, [C, A], action="create", reason="says more (emacs)",
         id="create: it says more than the one alike"),
    case(cand(FULLER), 0.85, [A, stored("F", FULLER)], action="merge",
         target=stored("F", FULLER), id="merge: a duplicate first"),
    # a user review: a second, poorer copy of a note the person had made fuller by hand; the
    # memory says all of it, so the merge loses nothing (before: created, "no merge either way")
    case(cand(NEOVIM), 0.85, [stored("F", FULLER)], action="merge", target=stored("F", FULLER),
         reason="84% alike", id="merge: says less than a memory, which holds all of it"),
    case(cand("Does not prefer Neovim over VS Code."), 0.85, [A], action="create",
         id="no merge: the opposite"),
    # a person's note states its fact in its first paragraph; what they added below is theirs
    # (a user-style review: the restated fact became a second note beside theirs)
    case(cand(NEOVIM), 0.85, [stored("P", NEOVIM + "\n\n- my own note")], action="merge",
         target=stored("P", NEOVIM + "\n\n- my own note"),
         id="merge: the first paragraph of a person's note"),
    case(cand("Prefers Helix over VS Code."), 0.85, [stored("P", NEOVIM + "\n\n- mine")],
         action="create", id="no merge: the first paragraph names another thing"),
]
# fmt: on


@pytest.mark.parametrize(
    ("candidate", "confidence", "similar", "same_key", "observed", "minimum", "action",
     "target", "reason"),
    DECISIONS,
)  # fmt: skip
def test_decide(candidate, confidence, similar, same_key, observed, minimum, action, target,
                reason):  # fmt: skip
    decision = decide(
        candidate, Scores(confidence, 0.5, 0.8), min_confidence=minimum,
        already_observed=observed, similar=similar, same_key=same_key,
    )  # fmt: skip
    assert decision.action == action, decision.reason
    assert decision.target == target
    assert reason in decision.reason


def test_decide_merges_at_exactly_the_threshold():
    row = stored("B", "Really prefers Neovim over VS Code.")
    alike = similarity(NEOVIM, row.text)
    common = {"min_confidence": 0.55, "already_observed": False, "similar": [row], "same_key": []}
    scores = Scores(0.85, 0.5, 0.8)
    assert decide(cand(NEOVIM), scores, threshold=alike, **common).action == "merge"
    assert decide(cand(NEOVIM), scores, threshold=alike + 0.01, **common).action == "create"


def test_decide_skips_a_merge_into_a_note_its_message_was_already_learned_into():
    common = {"min_confidence": 0.55, "already_observed": False, "similar": [A], "same_key": []}
    scores = Scores(0.85, 0.5, 0.8)
    assert decide(cand(NEOVIM), scores, **common).action == "merge"
    again = decide(cand(NEOVIM), scores, learned={A.path}, **common)
    assert (again.action, again.target) == ("skip", A)
    assert "same message" in again.reason
    assert decide(cand(NEOVIM), scores, learned={"preference/Other.md"}, **common).action == (
        "merge"
    )
    slot = {"min_confidence": 0.55, "already_observed": False, "similar": [],
            "same_key": [OLD_SLOT]}  # fmt: skip
    said = decide(cand("Prefers Emacs.", key=SLOT), scores, learned={OLD_SLOT.path}, **slot)
    assert said.action == "skip"  # a slot's value said twice in one message, confirmed once


def test_decide_does_not_mutate_its_inputs():
    similar, same_key = [A, B], [OLD_SLOT]
    before = (repr(similar), repr(same_key))
    decide(cand(NEOVIM, key=SLOT), Scores(0.85, 0.5, 0.8), min_confidence=0.55,
           already_observed=False, similar=similar, same_key=same_key)  # fmt: skip
    assert (repr(similar), repr(same_key)) == before


# --- end to end through Vault.observe --------------------------------------------------------

D1 = datetime(2023, 5, 8, 10, 0)
D2 = datetime(2023, 5, 9, 11, 30)
D3 = datetime(2023, 6, 1, 9, 15)


def say(content: str, id: str = "1", when: datetime | None = D1, name: str | None = None):
    return Message(role="user", content=content, id=id, name=name, timestamp=when)


def notes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.md"))}


def frontmatter(text: str) -> dict[str, str]:
    note = parse_note(text.encode("utf-8"), "x.md")
    return note.fields


def only(report: ObserveReport, action: str) -> str:
    assert [o.action for o in report.outcomes] == [action], report.to_dict()
    path = report.outcomes[0].path
    assert path is not None
    return path


def test_create_writes_a_sealed_note_with_the_scores(vault: Vault):
    report = vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1")
    path = only(report, "create")
    text = (vault.root / path).read_text("utf-8")
    fields = frontmatter(text)
    assert seal_state(text) is SealState.SEALED
    assert path == "preference/Prefers Neovim over VS Code.md"
    assert fields["confidence"] == "0.85" and fields["evidence"] == "direct"
    assert fields["sources"] == ["c1#1"] and fields["created"] == "2023-05-08T10:00:00"
    assert text.endswith(
        "Prefers Neovim over VS Code.\n\n> I prefer Neovim over VS Code. (the user, 8 May 2023)\n"
    )
    assert vault.search("Neovim")[0].row.path == path


def test_one_message_that_says_a_thing_three_times_confirms_it_once(vault: Vault):
    report = vault.observe([say("I love jazz. I love jazz. I love jazz.")], conversation_id="c1")
    assert [o.action for o in report.outcomes] == ["create", "skip", "skip"]
    (row,) = vault.index.get(path=report.outcomes[0].path)
    assert row.confirmations in (None, 1) and row.sources == ("c1#1",)
    assert row.confidence == report.outcomes[0].confidence  # not raised by its own repeats


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_repeat_merges_however_many_alike_notes_are_newer(vault: Vault, dry_run: bool):
    """Ten notes alike but for the city ("...'s friend Ana lives in Rome") are newer than the
    one the last message repeats: the look-up still finds it, in a dry run as in a real one."""
    cities = ["Paris", "Rome", "Oslo", "Lima", "Kyoto", "Cairo", "Quito", "Berlin", "Madrid",
              "Vienna"]  # fmt: skip
    chat = [say(f"My friend Ana lives in {c}.", str(n)) for n, c in enumerate(cities)]
    vault.observe(chat, conversation_id="c1", dry_run=dry_run)
    report = vault.observe(
        [*chat, say("My friend Ana lives in Paris.", "99")], conversation_id="c1", dry_run=dry_run
    )
    last = report.outcomes[-1]
    assert (last.action, last.path) == (
        "merge",
        "relationship/The user's friend Ana lives in Paris.md",
    )


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_person_named_in_an_earlier_turn_is_known_in_a_later_one(vault: Vault, dry_run: bool):
    """Learned turn by turn (a hook after each response), "Theo is allergic to peanuts" is
    about the son the person named a turn before; in another conversation too."""
    vault.observe([say("My son Theo is 6.", "1")], conversation_id="c1")
    later = vault.observe([say("Theo is allergic to peanuts.", "2")], conversation_id="c1",
                          dry_run=dry_run)  # fmt: skip
    assert [(o.action, o.type, o.text) for o in later.outcomes] == [
        ("create", "relationship", "The user's son Theo is allergic to peanuts.")
    ]
    other = vault.observe([say("Theo is crazy about dinosaurs.", "1")], conversation_id="c2",
                          dry_run=dry_run)  # fmt: skip
    assert [o.text for o in other.outcomes] == ["The user's son Theo is crazy about dinosaurs."]
    named = vault.observe([say("Theo is crazy about dinosaurs.", "1", name="Ana")],
                          conversation_id="c3", dry_run=dry_run)  # fmt: skip
    assert named.outcomes == []  # Ana never said Theo was hers


def test_a_person_named_before_is_known_wherever_the_sentence_names_them(vault: Vault):
    vault.observe([say("My dog Biscuit is a beagle.", "1")], conversation_id="c1")
    report = vault.observe(
        [say("Actually Biscuit is a basset hound, not a beagle.", "1")], conversation_id="c2"
    )
    assert [(o.action, o.text) for o in report.outcomes] == [
        ("supersede", "The user's dog Biscuit is a basset hound, not a beagle.")
    ]


def test_a_dry_run_knows_the_people_named_in_its_own_earlier_steps(vault: Vault):
    chat = [say("My daughter Emma is 5.", "1"), say("Emma is allergic to nuts.", "2")]
    vault.open_index()  # as Vault.observe does before it hands its writer to a Learner
    report = Learner(vault._writer).observe(iter(chat), conversation_id="c1", dry_run=True, chunk=1)
    assert [o.text for o in report.outcomes][-1] == "The user's daughter Emma is allergic to nuts."


def test_merge_confirms_and_changes_only_those_lines(vault: Vault):
    first = only(
        vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1"), "create"
    )
    before = (vault.root / first).read_text("utf-8")
    report = vault.observe(
        [say("I really prefer Neovim over VS Code.", "4", D2)], conversation_id="c2"
    )
    assert only(report, "merge") == first
    after = (vault.root / first).read_text("utf-8")
    fields = frontmatter(after)
    assert fields["confirmations"] == "2"
    assert float(fields["confidence"]) == pytest.approx(0.92)  # 0.85 + 0.15 * 0.5 * 0.9
    assert fields["sources"] == ["c1#1", "c2#4"]
    assert fields["confirmed"] == "2023-05-09T11:30:00"
    assert fields["updated"] == "2023-05-08T10:00:00" and fields["created"] == fields["updated"]
    assert seal_state(after) is SealState.SEALED
    removed = [line for line in before.splitlines() if line not in after.splitlines()]
    added = [line for line in after.splitlines() if line not in before.splitlines()]
    key = re.compile(r"^(\w+):")
    assert sorted(key.match(line).group(1) for line in removed) == [
        "confidence", "confirmations", "confirmed", "digest",
    ]  # fmt: skip
    assert sorted(line.split(":")[0] for line in added) == [
        "  - c2#4", "confidence", "confirmations", "confirmed", "digest",
    ]  # fmt: skip
    assert len(after.splitlines()) == len(before.splitlines()) + 1
    assert len(notes(vault.root)) == 1


def test_a_confirmation_from_another_speaker_is_a_new_memory(vault: Vault):
    vault.observe([say("I prefer tea over coffee.")], conversation_id="c1")
    report = vault.observe(
        [say("I prefer tea over coffee.", name="Caroline")], conversation_id="c2"
    )
    assert only(report, "create") == "preference/Caroline prefers tea over coffee.md"


def test_a_later_contradiction_supersedes_and_history_names_the_old_value(vault: Vault):
    old = only(vault.observe([say("I live in Porto.")], conversation_id="c1"), "create")
    report = vault.observe([say("Actually, I live in Lisbon now.", "3", D3)], conversation_id="c2")
    new = only(report, "supersede")
    assert report.outcomes[0].reason == "confidence 0.90 tie, newer wins"
    new_text = (vault.root / new).read_text("utf-8")
    assert new_text.count("## History") == 1
    history = new_text.split("## History", 1)[1]
    assert '"Lives in Porto."' in history
    assert "confidence 0.90 = 0.90" in history and "from 2023-05-08T10:00:00" in history
    assert history.strip().startswith("- 2023-06-01T09:15:00 replaced")
    assert seal_state(new_text) is SealState.SEALED
    old_text = (vault.root / old).read_text("utf-8")
    old_fields = frontmatter(old_text)
    assert old_fields["status"] == "superseded" and old_fields["updated"] == "2023-06-01T09:15:00"
    assert "\nLives in Porto.\n\n> I live in Porto." in old_text
    assert seal_state(old_text) is SealState.SEALED
    assert [r.path for r in vault.index.by_key("identity/location", "user")] == [new]


def test_a_more_confident_contradiction_supersedes_a_weaker_value(vault: Vault):
    old = only(vault.observe([say("Maybe I live in Porto.")], conversation_id="c1"), "create")
    report = vault.observe([say("I live in Lisbon!", "2", D2)], conversation_id="c2")
    path = only(report, "supersede")
    assert report.outcomes[0].reason == "confidence 0.95 > 0.75"
    text = (vault.root / path).read_text("utf-8")
    assert 'replaced "Lives in Porto."' in text  # the hedge is scored, not kept in the text
    assert "(confidence 0.75 < 0.95, evidence direct, from 2023-05-08T10:00:00)" in text
    assert frontmatter((vault.root / old).read_text("utf-8"))["status"] == "superseded"


SLOT_MERGE = (
    "decide tries a merge before the conflict check, and a short slot value changes few "
    "characters: 'The user's favorite color is blue.' vs '... green.' is 84% alike, so the new "
    "value is folded into the old one as a confirmation and lost"
)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("My favorite color is blue.", "My favorite color is green."),
        ("My name is Sam.", "My name is Alex."),
        ("I live in Berlin.", "I live in Dublin."),
    ],
    ids=["favorite color", "name", "location"],
)
def test_a_new_value_for_a_slot_is_never_merged_into_the_old_one(vault: Vault, first, second):
    vault.observe([say(first)], conversation_id="c1")
    report = vault.observe([say(second, when=D2)], conversation_id="c2")
    assert [o.action for o in report.outcomes] == ["supersede"]


def test_a_hedged_contradiction_keeps_the_old_value(vault: Vault):
    old = only(vault.observe([say("I live in Lisbon.")], conversation_id="c1"), "create")
    report = vault.observe([say("Maybe I live in Madrid.", when=D2)], conversation_id="c2")
    assert only(report, "keep") == old
    text = (vault.root / old).read_text("utf-8")
    fields = frontmatter(text)
    assert fields["status"] == "active" and fields["confidence"] == "0.9"
    history = text.split("## History", 1)[1]
    assert "kept over" in history and "Madrid" in history
    assert "(confidence 0.75 < 0.90, source c2#" in history
    assert seal_state(text) is SealState.SEALED
    assert list(notes(vault.root)) == [old]


def test_a_kept_contradiction_is_listed_in_frontmatter_beside_its_history_line(vault: Vault):
    old = only(vault.observe([say("I live in Lisbon.")], conversation_id="c1"), "create")
    vault.observe([say("Maybe I live in Madrid.", when=D2)], conversation_id="c2")
    vault.observe([say("Maybe I live in Seville.", "2", when=D3)], conversation_id="c2")
    text = (vault.root / old).read_text("utf-8")
    assert "kept_over_sources:\n  - c2#1\n  - c2#2\n" in text
    assert text.count("kept over") == 2  # and both are in History, for a person
    assert seal_state(text) is SealState.SEALED


@pytest.mark.parametrize(
    "drop",
    [
        None,
        r"^- .* kept over .*\n",  # a person tidied the History: the frontmatter still says it
        r"kept_over_sources:\n(  - .*\n)+",  # a note from before the key: the prose says it
    ],
    ids=["both", "frontmatter only", "history prose only"],
)
def test_a_contradiction_kept_over_is_not_learned_again(vault: Vault, drop: str | None):
    old = only(vault.observe([say("I live in Lisbon.")], conversation_id="c1"), "create")
    vault.observe([say("Maybe I live in Madrid.", when=D2)], conversation_id="c2")
    if drop is not None:
        path = vault.root / old
        text = path.read_text("utf-8")
        edited = re.sub(drop, "", text, flags=re.MULTILINE)
        assert edited != text
        path.write_text(edited, "utf-8")
        vault.sync()
    again = vault.observe([say("Maybe I live in Madrid.", when=D2)], conversation_id="c2")
    assert [(o.action, o.reason) for o in again.outcomes] == [
        ("skip", "this message was already observed")
    ]


def conversation() -> list[Message]:
    return [
        say("My name is Sam and I live in Porto.", "1", D1),
        say("What should I cook tonight?", "2", D1),
        say("I prefer Neovim over VS Code.", "3", D1),
        say("Yesterday I went to a support group.", "4", D1),
        say("I really prefer Neovim over VS Code.", "5", D2),
        say("Actually, I live in Lisbon now.", "6", D3),
        say("Maybe I want to learn Rust, kind of.", "7", D3),
    ]


def test_observing_the_same_messages_twice_changes_nothing(vault: Vault):
    first = vault.observe(conversation(), conversation_id="chat")
    counts = first.to_dict()["counts"]
    assert counts["create"] >= 3 and counts["merge"] == 1 and counts["supersede"] == 1
    before = notes(vault.root)
    again = vault.observe(conversation(), conversation_id="chat")
    assert again.outcomes and {o.action for o in again.outcomes} == {"skip"}
    assert all("already observed" in o.reason for o in again.outcomes)
    assert notes(vault.root) == before


def test_a_skipped_candidate_is_compared_with_nothing(vault: Vault, monkeypatch):
    vault.observe(conversation(), conversation_id="chat")
    looked_up: list[str] = []
    monkeypatch.setattr(vault.index, "similar", lambda *a, **k: looked_up.append("x") or [])
    monkeypatch.setattr(vault.index, "by_key", lambda *a, **k: looked_up.append("x") or [])
    again = vault.observe(conversation(), conversation_id="chat")
    assert again.outcomes and looked_up == []
    weak = vault.observe([{"role": "user", "content": "Maybe I kind of like jazz, I think."}],
                         conversation_id="weak")  # fmt: skip
    assert [o.action for o in weak.outcomes] == ["skip"] and looked_up == []


def test_observing_a_kept_contradiction_twice_changes_nothing(vault: Vault):
    vault.observe([say("I live in Lisbon.")], conversation_id="c1")
    messages = [say("Maybe I live in Madrid.", when=D2)]
    vault.observe(messages, conversation_id="c2")
    before = notes(vault.root)
    again = vault.observe(messages, conversation_id="c2")
    assert [o.action for o in again.outcomes] == ["skip"]
    assert notes(vault.root) == before


def test_restating_the_same_value_in_other_words_is_no_conflict(vault: Vault):
    vault.observe([say("I live in Porto.")], conversation_id="c1")
    report = vault.observe([say("I'm based in Porto.", when=D2)], conversation_id="c2")
    assert [o.action for o in report.outcomes] != ["supersede"]
    assert all("replaced" not in t.decode() for t in notes(vault.root).values())


def test_dry_run_writes_nothing_but_reports(vault: Vault):
    vault.observe([say("I live in Porto.")], conversation_id="c1")
    before = notes(vault.root)
    report = vault.observe(conversation(), conversation_id="chat", dry_run=True)
    assert report.dry_run and report.count("create") >= 2
    assert notes(vault.root) == before


def test_pause_stores_nothing_and_resume_stores_again(vault: Vault):
    vault.pause()
    assert vault.paused
    report = vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1")
    assert report.paused is True and report.outcomes == [] and report.to_dict()["paused"]
    assert notes(vault.root) == {}
    vault.pause()  # idempotent
    vault.resume()
    assert not vault.paused
    report = vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1")
    assert report.paused is False and only(report, "create")
    vault.resume()  # idempotent


def test_pause_is_per_vault_and_survives_reopening(vault_dir: Path, tmp_path: Path):
    with Vault.open(vault_dir) as v:
        v.pause()
    with Vault.open(vault_dir) as v:
        assert v.paused
    other = tmp_path / "other"
    Vault(other).init()
    with Vault.open(other) as v:
        assert not v.paused


def test_tota_toml_min_confidence_raises_the_bar(vault: Vault):
    write(vault.root, "tota.toml", "[learning]\nmin_confidence = 0.9\n")
    report = vault.observe(
        [say("I prefer Neovim over VS Code."), say("My name is Sam.", "2")], conversation_id="c1"
    )
    assert [(o.action, o.reason) for o in report.outcomes] == [
        ("skip", "confidence 0.85 < 0.90"),
        ("create", "new"),
    ]


def test_tota_toml_merge_threshold_is_used(vault: Vault):
    write(vault.root, "tota.toml", "[learning]\nmerge_threshold = 95\n")
    vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1")
    report = vault.observe([say("I really prefer Neovim over VS Code.")], conversation_id="c2")
    assert [o.action for o in report.outcomes] == ["create"]  # 89% < 95


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ('[learning]\nmin_confidence = "high"\n', "learning.min_confidence = 'high'"),
        ("[learning]\nmin_confidence = 1.5\n", "learning.min_confidence = 1.5"),
        ("[learning]\nmerge_threshold = -1\n", "learning.merge_threshold = -1"),
        ("[learning]\nmin_confidence = true\n", "learning.min_confidence = True"),
        ("learning = 3\n", "[learning] must be a table"),
        ("[learning\nmin_confidence = 0.5\n", "not valid TOML"),
    ],
    ids=["a string", "out of range", "negative threshold", "a boolean", "not a table", "syntax"],
)
def test_a_bad_tota_toml_is_a_one_line_error_naming_the_file(vault: Vault, toml: str, words):
    write(vault.root, "tota.toml", toml)
    with pytest.raises(ValidationError) as caught:
        vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1")
    message = str(caught.value)
    assert "\n" not in message
    assert str(vault.root / "tota.toml") in message and words in message
    assert notes(vault.root) == {}


def test_observe_accepts_openai_style_dicts(vault: Vault):
    report = vault.observe(
        [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "I prefer tea over coffee."},
            {"role": "assistant", "content": "Noted! I prefer coffee myself."},
            {"role": "user", "name": "Caroline", "content": "Yesterday I adopted a dog.",
             "timestamp": "2023-05-08T13:56:00"},
            {"role": "user", "content": [{"type": "text", "text": "I work at Google."}]},
        ],
        conversation_id="dicts",
    )  # fmt: skip
    assert [(o.action, o.text, o.source) for o in report.outcomes] == [
        ("create", "Prefers tea over coffee.", "dicts#2"),
        ("create", "Caroline adopted a dog on 7 May 2023.", "dicts#4"),
        ("create", "Works at Google.", "dicts#5"),
    ]


def test_observe_rejects_a_bad_dict_with_a_one_line_error(vault: Vault):
    with pytest.raises(ValidationError) as caught:
        vault.observe([{"role": "robot", "content": "hi"}], conversation_id="x")
    assert "message 1" in str(caught.value) and "robot" in str(caught.value)
    assert "\n" not in str(caught.value)


HAND_NOTE = """\
---
type: preference
# my editor since 2015, do not touch
confidence: 0.8
tags: [editor, tools]   # flow style, kept
---
<!-- mine -->
Prefers Neovim over VS Code.
"""


def test_a_merge_into_a_persons_note_patches_it_surgically(vault_dir: Path):
    write(vault_dir, "preference/Editor.md", HAND_NOTE)
    with Vault.open(vault_dir) as vault:
        report = vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1")
        assert only(report, "merge") == "preference/Editor.md"
    text = (vault_dir / "preference/Editor.md").read_text("utf-8")
    for line in HAND_NOTE.splitlines():
        if not line.startswith("confidence:"):
            assert line in text.splitlines(), line
    assert text.endswith("---\n<!-- mine -->\nPrefers Neovim over VS Code.\n")
    fields = frontmatter(text)
    assert fields["evidence"] == "manual"  # a person's note stays theirs
    assert fields["confirmations"] == "2" and fields["sources"] == ["c1#1"]
    assert float(fields["confidence"]) == pytest.approx(0.89)  # 0.8 + 0.2 * 0.5 * 0.85
    assert seal_state(text) is SealState.SEALED
    assert len(notes(vault_dir)) == 1


def hand_edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")


def test_a_pending_hand_edit_is_recorded_as_manual_before_a_merge_patches_it(vault: Vault):
    path = only(
        vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1"), "create"
    )
    note = vault.root / path
    hand_edit(note, "Prefers Neovim over VS Code.", "Prefers Neovim over VS Code, with LazyVim.")
    assert seal_state(note.read_text("utf-8")) is SealState.BROKEN
    report = vault.observe([say("I prefer Neovim over VS Code.", "2", D2)], conversation_id="c2")
    assert only(report, "merge") == path
    text = note.read_text("utf-8")
    fields = frontmatter(text)
    assert fields["evidence"] == "manual"
    assert "\nPrefers Neovim over VS Code, with LazyVim.\n\n> I prefer" in text  # their words kept
    assert fields["confirmations"] == "2" and fields["sources"] == ["c1#1", "c2#2"]
    assert fields["confirmed"] == "2023-05-09T11:30:00"
    assert seal_state(text) is SealState.SEALED
    assert vault.index.get(path=path)[0].evidence == "manual"


STALE = (
    "Learner._merge computes confidence from the index row read before _edit's sync records "
    "the hand edit, so the recorded value is overwritten"
)


def test_a_merge_after_a_hand_edit_does_not_lower_the_manual_confidence(vault: Vault):
    path = only(
        vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1"), "create"
    )
    hand_edit(vault.root / path, "VS Code.", "VS Code, with LazyVim.")
    vault.observe([say("I prefer Neovim over VS Code.", "2", D2)], conversation_id="c2")
    fields = frontmatter((vault.root / path).read_text("utf-8"))
    assert float(fields["confidence"]) >= 0.95


def test_a_merge_builds_on_the_confidence_a_person_set(vault: Vault):
    path = only(vault.observe([say("I prefer tea over coffee.")], conversation_id="c1"), "create")
    hand_edit(vault.root / path, "confidence: 0.85", "confidence: 0.5")
    vault.observe([say("I prefer tea over coffee.", "2", D2)], conversation_id="c2")
    fields = frontmatter((vault.root / path).read_text("utf-8"))
    assert float(fields["confidence"]) == pytest.approx(0.71)  # 0.5 + 0.5 * 0.5 * 0.85


def test_a_secret_never_reaches_a_note(vault: Vault):
    secret = "Tr0ub4dor" + "&3xQ"
    report = vault.observe(
        [say(f"My password is {secret} for everything. I live in Porto.")], conversation_id="c1"
    )
    assert [o.text for o in report.outcomes] == ["Lives in Porto."]
    assert all(secret.encode() not in data for data in notes(vault.root).values())
    assert vault.search("Tr0ub4dor") == []


def test_low_confidence_candidates_are_reported_but_not_stored(vault: Vault):
    report = vault.observe([say("I think I might try pottery sometime.")], conversation_id="c1")
    assert [(o.action, o.confidence) for o in report.outcomes] == [("skip", 0.45)]
    assert notes(vault.root) == {}


def test_rows_patched_in_place_equal_a_fresh_reindex(vault: Vault):
    """Merges, supersedes, confirmations and archiving update index rows without re-parsing
    the note; the rows must be exactly what a reindex from the files gives."""
    vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1")
    vault.observe([say("I really prefer Neovim over VS Code!", "2", D2)], conversation_id="c2")
    vault.observe([say("Maybe I live in Porto.")], conversation_id="c3")
    vault.observe([say("I live in Lisbon!", "2", D2)], conversation_id="c4")
    stored = vault.remember("episode", "Ran a 5k in the rain.", durability=0.2, confidence=0.6,
                            when=datetime(2020, 1, 1))  # fmt: skip
    vault.confirm(stored.memory.id)
    vault.decay(apply=True, now=datetime(2040, 1, 1))

    def rows() -> dict[str, dict]:
        cursor = index_sql(vault).execute("SELECT * FROM notes ORDER BY path")
        return {r["path"]: {k: r[k] for k in r.keys() if k != "id"} for r in cursor}  # noqa: SIM118

    before = rows()
    assert any(r["status"] == "superseded" for r in before.values())
    assert any(r["status"] == "archived" for r in before.values())
    assert any(r["confirmations"] == 2 for r in before.values())
    vault.reindex()
    assert rows() == before


def test_a_fact_confirmed_many_times_lists_its_first_and_latest_sources(vault: Vault):
    for i in range(40):
        vault.observe([say("I prefer Neovim over VS Code.")], conversation_id=f"c{i:02}")
    (path,) = notes(vault.root)
    text = (vault.root / path).read_text("utf-8")
    fields = frontmatter(text)
    listed = [f"c{i:02}#1" for i in (*range(5), *range(20, 40))]
    assert fields["sources"] == listed  # the first 5 and the latest 20
    assert fields["sources_count"] == "40" and fields["confirmations"] == "40"
    assert seal_state(text) is SealState.SEALED
    assert (
        vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c39")
        .outcomes[0]
        .action
        == "skip"
    )  # the latest ones are still known as observed


# --- changes of mind beyond fixed slots (conflicts.replaces), end to end ----------------------


def statuses(vault: Vault) -> dict[str, str]:
    return {
        rel: frontmatter(data.decode("utf-8")).get("status", "active")
        for rel, data in notes(vault.root).items()
    }


# (first statement, the change of mind, the action, what the History names)
# fmt: off
CHANGES_OF_MIND = [
    pytest.param("I'm planning to apply for the Zurich job.",
                 "I've decided not to apply for the Zurich job after all.",
                 "supersede", "Is planning to apply for the Zurich job.", id="a plan dropped"),
    pytest.param("My thesis deadline is June 1.", "My thesis deadline was moved to July 15.",
                 "supersede", "The user's thesis deadline is June 1.", id="a deadline moved"),
    pytest.param("I have to submit my thesis by June 1.",
                 "I have to submit my thesis by July 15 now.", "supersede",
                 "Has to submit their thesis by June 1.", id="a constraint's date moved"),
    pytest.param("I work from the library most days.", "I mostly work from the café now.",
                 "supersede", "Works from the library most days.", id="a place switched"),
    pytest.param("I use Vim for editing.", "I switched to Helix for editing.", "supersede",
                 "Uses Vim for editing.", id="a tool switched"),
    pytest.param("I run in the evenings.", "I swim in the evenings now.", "supersede",
                 "Runs in the evenings.", id="a habit switched"),
    pytest.param("My dentist appointment is on March 3.",
                 "My dentist appointment was moved to March 10.", "supersede",
                 "The user's dentist appointment is on March 3.", id="an appointment moved"),
    pytest.param("I have two kids.", "I have three kids now.", "supersede", "Has two kids.",
                 id="a number of kids, now"),
]
# fmt: on


@pytest.mark.parametrize(("first", "second", "action", "old"), CHANGES_OF_MIND)
def test_a_change_of_mind_supersedes_and_the_old_memory_is_no_longer_active(
    vault: Vault, first: str, second: str, action: str, old: str
):
    old_path = only(vault.observe([say(first)], conversation_id="c1"), "create")
    report = vault.observe([say(second, "2", D3)], conversation_id="c2")
    new_path = only(report, action)
    assert report.outcomes[0].reason.startswith(("a plan given up", "a date moved", "a change"))
    text = (vault.root / new_path).read_text("utf-8")
    assert f'replaced "{old}"' in text.split("## History", 1)[1]
    assert statuses(vault) == {old_path: "superseded", new_path: "active"}
    with Vault.open(vault.root) as fresh:  # the index agrees with the notes
        fresh.sync()
        rows = {r.path: r.status for r in fresh.index.get(path=old_path)}
        assert rows == {old_path: "superseded"}


# Found by a user-style review of the installed product (issue #11): two user messages of
# one conversation, in order; (first, second, the old statement the History names, a word
# the active memory must hold). Each left two contradicting memories active.
# fmt: off
REVIEWED = [
    # B. giving something up is the newest word on it
    pytest.param("I'm planning to learn Rust this year.", "I'm no longer planning to learn Rust.",
                 "Is planning to learn Rust in 2023.", "no longer", id="B: no longer planning"),
    pytest.param("I'm planning to learn Rust this year.", "I gave up on learning Rust.",
                 "Is planning to learn Rust in 2023.", "Gave up", id="B: gave up on"),
    pytest.param("I'm planning to learn Rust this year.", "I stopped learning Rust.",
                 "Is planning to learn Rust in 2023.", "Stopped", id="B: stopped"),
    pytest.param("I'm vegetarian.", "I'm no longer vegetarian.", "Is vegetarian.", "no longer",
                 id="B: no longer a state"),
    pytest.param("I work at Northwind.", "I no longer work at Northwind.", "Works at Northwind.",
                 "No longer works", id="B: I no longer, a slot's holder"),
    # C. a switch leaves one active memory
    pytest.param("I use VS Code for editing.", "I switched to Neovim for editing.",
                 "Uses VS Code for editing.", "Neovim", id="C: a tool of two words"),
    pytest.param("I always use black for formatting.",
                 "I switched to ruff format instead of black.",
                 "Always uses black for formatting.", "ruff", id="C: instead of the old tool"),
    pytest.param("I drink coffee every morning.",
                 "I drink tea every morning now instead of coffee.",
                 "Drinks coffee every morning.", "tea", id="C: a habit, now instead of"),
    pytest.param("Our budget is 4000 euros for the whole trip.", "Our budget is now 5000 euros.",
                 "The user's budget is 4000 euros for the whole trip.", "5000",
                 id="C: a budget's number"),
    pytest.param("I work at Northwind.", "I joined Contoso.", "Works at Northwind.", "Contoso",
                 id="C: I joined X, the employer"),
    pytest.param("I take the train to work.", "I cycle to work now.",
                 "Takes the train to work.", "Cycles", id="C: a commute, now"),
    pytest.param("I take the train to work.", "These days I cycle to work.",
                 "Takes the train to work.", "cycles", id="C: a commute, these days"),
]
# fmt: on


@pytest.mark.parametrize(("first", "second", "old", "word"), REVIEWED)
def test_what_the_review_found_leaves_one_active_memory_that_loses_nothing(
    vault: Vault, first: str, second: str, old: str, word: str
):
    report = vault.observe([say(first, "1", D1), say(second, "2", D2)], conversation_id="c1")
    assert [o.action for o in report.outcomes] == ["create", "supersede"], report.outcomes
    old_path, new_path = report.outcomes[0].path, report.outcomes[1].path
    assert statuses(vault) == {old_path: "superseded", new_path: "active"}
    data = (vault.root / new_path).read_bytes()
    assert f'replaced "{old}"' in data.decode("utf-8").split("## History", 1)[1]
    assert word in parse_note(data, new_path).memory.text  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("first", "second", "word"),
    [
        ("My son Leo is allergic to peanuts.", "My son Leo is allergic to peanuts and shellfish.",
         "shellfish"),
        ("I don't eat pork.", "I don't eat pork or beef.", "beef"),
        ("I visited porto last year.", "I visited porto and lisbon last year.", "lisbon"),
    ],
    ids=["an allergy more", "a food more", "a city more"],
)  # fmt: skip
def test_a_statement_that_says_more_is_another_memory_not_a_merge(
    vault: Vault, first: str, second: str, word: str
):
    """Found by review (issue #11): merged, the item was nowhere in the vault. Both are true,
    so neither supersedes the other; a third saying the first again still merges."""
    report = vault.observe([say(first, "1", D1), say(second, "2", D2)], conversation_id="c1")
    assert [o.action for o in report.outcomes] == ["create", "create"], report.outcomes
    assert report.outcomes[1].reason.startswith(f"says more ({word})")
    assert set(statuses(vault).values()) == {"active"}
    assert word in report.outcomes[1].text
    with Vault.open(vault.root) as fresh:
        assert [r.path for r in fresh.search(word)] == [report.outcomes[1].path]
    again = vault.observe([say(first, "3", D3)], conversation_id="c2")
    assert only(again, "merge") == report.outcomes[0].path


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I flew from Paris to Tokyo in May 2023.", "I flew from Tokyo to Paris."),
        ("I prefer tea over coffee in the morning.", "I prefer coffee over tea."),
    ],
    ids=["the trip back", "the preference reversed"],
)
def test_the_same_words_the_other_way_round_are_not_held_by_the_fuller(
    vault: Vault, first: str, second: str
):
    """A code review: the fuller memory's words are all there, in another order: another
    fact (or its opposite), never a confirmation of the first."""
    vault.observe([say(first)], conversation_id="c1")
    report = vault.observe([say(second, "2", D2)], conversation_id="c2")
    assert [o.action for o in report.outcomes] == ["create"], report.outcomes


def test_a_note_made_fuller_by_hand_is_confirmed_not_copied(vault: Vault):
    """A user review: after a person added ", at 6:30" to a habit's note, the same sentence
    learned again made a second, poorer note ("... 2.md") instead of confirming theirs."""
    said = "I do a lesson on Duolingo every morning before the twins wake up."
    path = vault.root / only(vault.observe([say(said)], conversation_id="c1"), "create")
    path.write_text(path.read_text("utf-8").replace("wake up.", "wake up, at 6:30."), "utf-8")
    vault.sync()
    again = vault.observe([say(said, "2", D2)], conversation_id="c2")
    assert only(again, "merge") == path.relative_to(vault.root).as_posix()
    assert len(notes(vault.root)) == 1 and "at 6:30" in path.read_text("utf-8")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I went hiking with Sam on Saturday.", "I went hiking with Alex on Saturday."),
        ("I ran 5 km today.", "I ran 10 km today."),
        ("My appointment is on the 3rd.", "My appointment is on the 13th."),
        ("My standup is at 9am.", "My standup is at 10am."),
        ("I'm visiting my sister in May.", "I'm visiting my brother in May."),
        ("I like spicy food a lot.", "I don't like spicy food a lot."),
    ],
    ids=["another person", "another distance", "another day", "another hour", "another kin",
         "the opposite"],
)  # fmt: skip
def test_two_facts_said_without_a_change_of_mind_are_two_memories(
    vault: Vault, first: str, second: str
):
    report = vault.observe([say(first, "1", D1), say(second, "2", D2)], conversation_id="c1")
    assert [o.action for o in report.outcomes] == ["create", "create"], report.outcomes
    assert set(statuses(vault).values()) == {"active"}


def test_a_less_confident_change_of_mind_is_kept_out_and_noted(vault: Vault):
    """The seed's rule, not a new one: a hedged change loses to a sure statement."""
    old = only(
        vault.observe([say("I'm going to apply for the Zurich job.")], conversation_id="c1"),
        "create",
    )
    report = vault.observe(
        [say("Maybe I've decided not to apply for the Zurich job after all.", "2", D3)],
        conversation_id="c2",
    )
    assert only(report, "keep") == old
    assert report.outcomes[0].reason.startswith("a plan given up: existing confidence")
    text = (vault.root / old).read_text("utf-8")
    assert frontmatter(text)["status"] == "active" and "kept over" in text
    assert list(notes(vault.root)) == [old]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I went to Lyon for a conference.", "I went to Seville for a conference."),
        ("We decided to move to Bristol next year.", "We decided to move to Leeds next year."),
        ("I went hiking with Sam on Saturday.", "I went hiking with Priya on Saturday."),
    ],
    ids=["another city", "another city in a decision", "another person"],
)
def test_a_fact_that_differs_in_a_name_is_never_merged(vault: Vault, first: str, second: str):
    one = only(vault.observe([say(first)], conversation_id="c1"), "create")
    report = vault.observe([say(second, "2", D2)], conversation_id="c2")
    two = only(report, "create")
    assert one != two and set(statuses(vault).values()) == {"active"}
    third = vault.observe([say(first, "3", D3)], conversation_id="c3")
    assert only(third, "merge") == one  # the same fact again still merges


def test_a_student_whose_plans_change(vault: Vault):
    """A realistic chat: each change of mind leaves one active memory, the rest are kept."""
    said = [
        ("I'm planning to apply for the Zurich job.", D1),
        ("I work from the library most days.", D1),
        ("My thesis deadline is June 1.", D1),
        ("I went to Lyon for a conference.", D1),
        ("I went to Seville for a conference.", D2),
        ("I've decided not to apply for the Zurich job after all.", D2),
        ("My thesis deadline was moved to July 15.", D3),
        ("I mostly work from the café now.", D3),
    ]
    messages = []
    for n, (text, when) in enumerate(said, 1):
        messages.append(say(text, f"u{n}", when))
        messages.append(Message("assistant", "Noted.", f"a{n}", timestamp=when))
    report = vault.observe(messages, conversation_id="student")
    assert [o.action for o in report.outcomes] == [
        "create", "create", "create", "create", "create", "supersede", "supersede", "supersede"
    ]  # fmt: skip
    live = sorted(
        parse_note(data, rel).memory.text  # type: ignore[union-attr]
        for rel, data in notes(vault.root).items()
        if statuses(vault)[rel] == "active"
    )
    assert live == [
        "Has decided not to apply for the Zurich job after all.",
        "Mostly works from the café now.",
        "The user's thesis deadline was moved to July 15.",
        "Went to Lyon for a conference.",
        "Went to Seville for a conference.",
    ]


# --- no loss ---------------------------------------------------------------------------------


def test_a_note_changed_on_disk_while_learning_is_skipped_and_the_rest_is_learned(
    vault: Vault, monkeypatch
):
    target = only(
        vault.observe([say("I prefer Neovim over VS Code.")], conversation_id="c1"), "create"
    )
    path = vault.root / target
    original = NoteWriter._write

    def edited_meanwhile(self, rel, data, expected):  # type: ignore[no-untyped-def]
        if rel == target:  # a person saves the note between tota's read and its write
            path.write_text(path.read_text("utf-8") + "\nMy own line.\n", "utf-8")
        return original(self, rel, data, expected)

    monkeypatch.setattr(NoteWriter, "_write", edited_meanwhile)
    report = vault.observe(
        [say("I really prefer Neovim over VS Code.", "1", D2), say("I live in Porto.", "2", D2),
         say("My sister lives in Berlin.", "3", D2)],
        conversation_id="c2",
    )  # fmt: skip
    actions = [(o.action, o.text) for o in report.outcomes]
    assert actions[0][0] == "skip" and "changed on disk" in report.outcomes[0].reason
    assert [a for a, _ in actions[1:]] == ["create", "create"]
    assert any("changed" in n for n in report.notes)
    assert path.read_text("utf-8").endswith("My own line.\n")  # the person's edit stands
    monkeypatch.undo()
    again = vault.observe(
        [say("I really prefer Neovim over VS Code.", "1", D2)], conversation_id="c2"
    )
    assert only(again, "merge") == target  # learned on the next run


def test_dry_run_predicts_the_real_run_merges_within_the_conversation_included(vault: Vault):
    vault.observe(
        [say("I live in Porto."), say("I use Vim for editing.", "2")], conversation_id="before"
    )
    chat = [
        say("I prefer Neovim over VS Code.", "1", D2),
        say("I really prefer Neovim over VS Code.", "2", D2),  # merges into message 1's note
        say("Actually, I live in Lisbon now.", "3", D2),  # supersedes a stored slot
        say("I live in Lisbon!", "4", D3),  # merges into message 3's note
        say("I switched to Helix for editing.", "5", D3),  # a change of mind
        say("I went to Lyon for a conference.", "6", D3),
        say("I went to Seville for a conference.", "7", D3),  # another fact
    ]
    before = notes(vault.root)
    predicted = vault.observe(chat, conversation_id="c", dry_run=True)
    assert notes(vault.root) == before
    real = vault.observe(chat, conversation_id="c")
    assert [o.action for o in real.outcomes] == [
        "create", "merge", "supersede", "merge", "supersede", "create", "create"
    ]  # fmt: skip
    assert predicted.outcomes == real.outcomes  # paths of the notes to be written included
    assert {**predicted.to_dict(), "dry_run": False} == real.to_dict()


def test_a_conversation_is_learned_a_step_at_a_time_from_a_generator(vault: Vault):
    pulled = 0
    steps: list[int] = []

    def messages():
        nonlocal pulled
        for n in range(1, 8):  # hi | question, answer | question, answer | ...
            pulled += 1
            if n == 1:
                yield say("Hi there!", "m1")
            elif n % 2 == 0:
                asked = "Where are you based?" if n == 2 else "What do you drink in the morning?"
                yield Message("assistant", asked, f"a{n}", timestamp=D1)
            else:
                yield say("I live in Porto." if n == 3 else "I prefer tea over coffee.", f"m{n}")

    def progress(done: int) -> None:
        assert pulled <= done + 1, "the messages were read ahead of the learning"
        steps.append(done)

    vault.open_index()  # as Vault.observe does before it hands its writer to a Learner
    learner = Learner(vault._writer)  # the store a Learner writes through
    stepped = learner.observe(messages(), conversation_id="c", progress=progress, chunk=2)
    assert steps == [2, 4, 6, 7] and stepped.messages == 7
    # Each answer follows its question across a step boundary: the same as one step.
    with Vault.open(vault.root.parent / "one-step") as fresh:
        whole = fresh.observe(list(messages()), conversation_id="c")
    assert [(o.action, o.text, o.source) for o in stepped.outcomes] == [
        (o.action, o.text, o.source) for o in whole.outcomes
    ]
    assert stepped.count("create") == 2
    quoted = {
        root.name: sorted(
            line for data in notes(root).values() for line in data.decode().splitlines()
            if line.startswith(">")
        )
        for root in (vault.root, vault.root.parent / "one-step")
    }  # fmt: skip
    assert quoted[vault.root.name] == quoted["one-step"]
    assert any("Where are you based?" in line for line in quoted["one-step"]), quoted


def test_a_fact_a_person_wrote_with_notes_below_is_confirmed_not_duplicated(vault: Vault):
    """A user-style review: a hand-written note (BOM, CRLF, comments, a list below the fact)
    and then "I like green tea in the afternoon." made a second note with the same words."""
    note = (
        "\ufeff---\r\ntype: preference\r\nconfidence: 0.7 # my guess\r\n---\r\n"
        "Likes green tea in the afternoon.\r\n\r\n- note one\r\n"
    )
    path = vault.root / "preference" / "Green tea.md"
    path.write_bytes(note.encode())
    vault.sync()
    report = vault.observe(
        [{"role": "user", "content": "I like green tea in the afternoon."}], conversation_id="c"
    )
    assert [(o.action, o.path) for o in report.outcomes] == [("merge", "preference/Green tea.md")]
    assert sorted(p.name for p in (vault.root / "preference").glob("*.md")) == ["Green tea.md"]
    text = path.read_bytes().decode()
    assert "Likes green tea in the afternoon.\r\n\r\n- note one\r\n" in text
    assert "# my guess" in text


class _Bare:
    def extract(self, messages, *, conversation_id):  # type: ignore[no-untyped-def]
        return [], []


class _Reads:
    def extract(self, messages, *, conversation_id, known_people=None):  # type: ignore[no-untyped-def]
        return [], []


@pytest.mark.parametrize(
    ("extract", "takes"),
    [
        (_Bare().extract, False),
        (_Reads().extract, True),
        (RuleExtractor().extract, True),
        (lambda messages, *, conversation_id: ([], []), False),
        (lambda messages, *, conversation_id, known_people=None: ([], []), True),
    ],
)
def test_whether_an_extractor_reads_the_people_named_before(extract, takes):
    from tota_vault.pipeline import _takes_known_people

    assert _takes_known_people(extract) is takes
    assert _takes_known_people(extract) is takes  # read once a class, the same answer


@pytest.mark.parametrize(
    ("conversation_id", "error"),
    [
        ("a#b", "holds a #"),
        ("one\ntwo", "holds a line break"),
        ("  ", "is empty"),
        ("", "is empty"),
        ("chat-2026-12-01", None),
        ("c8f0e2a4-7d1b-4c55-9d0a-1f2e3d4c5b6a", None),
    ],
)
def test_check_conversation_id(conversation_id: str, error: str | None) -> None:
    """A user-style review: `--conversation-id "a#b"` made sources `a#b#47`."""
    if error is None:
        check_conversation_id(conversation_id)
    else:
        with pytest.raises(ValidationError, match=error):
            check_conversation_id(conversation_id)


def test_observe_refuses_a_conversation_id_with_a_hash_before_anything(vault: Vault) -> None:
    with pytest.raises(ValidationError, match="holds a #"):
        vault.observe([Message("user", "I live in Porto.", id="1")], conversation_id="a#b")
    assert vault.stats()["memories"] == 0
