"""One fact per memory: a clause that fills several slots (extract/slots.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tota_vault import Vault
from tota_vault.extract.messages import Message
from tota_vault.extract.slots import split_appositive, split_slots
from tota_vault.notes import parse_note

# fmt: off
APPOSITIVES = [
    ("I'm Tomás, a data analyst at Brightwell in Valencia.",
     ["My name is Tomás.", "I'm a data analyst.", "I work at Brightwell.",
      "I'm based in Valencia."]),
    ("I'm Ana, a nurse.", ["My name is Ana.", "I'm a nurse."]),
    ("I'm Lee, an engineer from Busan.", ["My name is Lee.", "I'm an engineer.",
                                          "I'm based in Busan."]),
    # the employer ends the sentence: its full stop is no part of the name
    ("I'm Dana, a backend engineer at Quillpay.",
     ["My name is Dana.", "I'm a backend engineer.", "I work at Quillpay."]),
    ("I'm Jo, a banker at J.P. Morgan.", ["My name is Jo.", "I'm a banker.",
                                          "I work at J.P. Morgan."]),
    # no name and appositive: the clause as it is
    ("I'm a nurse in Leeds.", ["I'm a nurse in Leeds."]),
    ("I'm tired, a long day at work.", ["I'm tired, a long day at work."]),
    ("", []),
]
# fmt: on


@pytest.mark.parametrize(
    ("clause", "facts"), APPOSITIVES, ids=[a[0] or "empty" for a in APPOSITIVES]
)
def test_split_appositive(clause: str, facts: list[str]):
    assert split_appositive(clause) == facts


# fmt: off
SLOT_CLAUSES = [
    # where one lives, and who with: a location and a household, each its own memory
    ("I live in Utrecht with my partner Joris",
     ["I live in Utrecht.", "I live with my partner Joris."]),
    ("I live in a small flat with my parents.",
     ["I live in a small flat.", "I live with my parents."]),
    ("I live with my girlfriend Sara in Madrid.",
     ["I live in Madrid.", "I live with my girlfriend Sara."]),
    ("I still live in Porto with my mom", ["I still live in Porto.", "I still live with my mom."]),
    ("We live in Halifax with our two kids.",
     ["We live in Halifax.", "We live with our two kids."]),
    # a second slot after "and"/"but" with the "I" dropped
    ("I'm from Spain but live in Oslo", ["I'm from Spain", "I live in Oslo"]),
    ("I'm 34 and live in Oslo with my husband Erik",
     ["I'm 34", "I live in Oslo.", "I live with my husband Erik."]),
    ("I'm a nurse and work at St Mary's", ["I'm a nurse", "I work at St Mary's"]),
    # as said: a wish governs both verbs; one slot; a named place after "with" alone
    ("I want to travel and live in Paris", ["I want to travel and live in Paris"]),
    ("I'd love to retire and live in Spain", ["I'd love to retire and live in Spain"]),
    ("I live in Leeds", ["I live in Leeds"]),
    ("I live with my wife in a small flat", ["I live with my wife in a small flat"]),
    ("I moved to Berlin with my family last year", ["I moved to Berlin with my family last year"]),
    ("", []),
]
# fmt: on


@pytest.mark.parametrize(
    ("clause", "facts"), SLOT_CLAUSES, ids=[a[0] or "empty" for a in SLOT_CLAUSES]
)
def test_split_slots(clause: str, facts: list[str]):
    assert split_slots(clause) == facts


D1 = datetime(2023, 5, 8, 10, 0)


def _learn(vault: Vault, text: str, n: int) -> list[str]:
    message = Message(role="user", content=text, id=str(n), timestamp=D1 + timedelta(days=n))
    report = vault.observe([message], conversation_id=f"c{n}")
    return [f"{o.action} {o.path}" for o in report.outcomes]


def _active(vault: Vault) -> dict[str, str | None]:
    """Each active memory's statement and its conflict key, as the notes on disk have them."""
    out = {}
    for path in sorted(vault.root.rglob("*.md")):
        note = parse_note(path.read_bytes(), path.relative_to(vault.root).as_posix())
        if note.memory is not None and note.memory.status.value == "active":
            out[note.memory.text] = note.memory.key
    return out


def test_a_move_supersedes_the_place_and_leaves_the_partner(vault: Vault):
    """Defect 6 of the review: one note for a place and a partner lost the partner on a move."""
    assert _learn(vault, "I live in Utrecht with my partner Joris.", 0) == [
        "create identity/Lives in Utrecht.md",
        "create relationship/Lives with their partner Joris.md",
    ]
    assert _learn(vault, "I moved to Leiden.", 1) == ["supersede identity/Moved to Leiden.md"]
    assert _active(vault) == {
        "Moved to Leiden.": "identity/location",
        "Lives with their partner Joris.": None,
    }


def test_each_slot_of_an_introduction_changes_alone(vault: Vault):
    """A name, a role, an employer and a place said at once: four memories with four keys, and
    a later change of any one supersedes that memory only."""
    _learn(vault, "I'm Tomás, a data analyst at Brightwell in Valencia.", 0)
    assert _active(vault) == {
        "The user's name is Tomás.": "identity/name",
        "Is a data analyst.": "identity/role",
        "Works at Brightwell.": "identity/employer",
        "Is based in Valencia.": "identity/location",
    }
    assert _learn(vault, "I moved to Leiden.", 1) == ["supersede identity/Moved to Leiden.md"]
    assert _learn(vault, "I work at Contoso now.", 2) == [
        "supersede identity/Works at Contoso now.md"
    ]
    assert _active(vault) == {
        "The user's name is Tomás.": "identity/name",
        "Is a data analyst.": "identity/role",
        "Works at Contoso now.": "identity/employer",
        "Moved to Leiden.": "identity/location",
    }


def test_a_dropped_i_before_a_second_slot_is_two_memories(vault: Vault):
    _learn(vault, "I'm from Spain but live in Oslo.", 0)
    _learn(vault, "I moved to Bergen.", 1)
    assert _active(vault) == {
        "Is from Spain.": "identity/origin",
        "Moved to Bergen.": "identity/location",
    }


def test_a_family_clause_after_a_move_stays_active(vault: Vault):
    """Defect of the last review: a "we" sentence with the household's other fact in an "our"
    clause was one location note, so a move superseded the children's fact with it."""
    assert _learn(vault, "We live in Halifax and our son plays hockey on Saturdays.", 0) == [
        "create identity/The user and others live in Halifax.md",
        "create relationship/The user's son plays hockey on Saturdays.md",
    ]
    assert _learn(vault, "We moved to Toronto.", 1) == [
        "supersede identity/The user and others moved to Toronto.md"
    ]
    assert _active(vault) == {
        "The user and others moved to Toronto.": "identity/location",
        "The user's son plays hockey on Saturdays.": None,
    }
