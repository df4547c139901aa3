"""The merge driver: the pure three-way merge of memory notes, and git running it for real."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tota_vault import Vault
from tota_vault.gitdriver import (
    driver_command,
    git_problems,
    resolve_both_kept,
    run_driver,
    setup_git,
)
from tota_vault.gitmerge import merge_notes, split_both_kept
from tota_vault.model import Evidence, Memory, MemoryType, Status, cap_sources
from tota_vault.notes import parse_note
from tota_vault.seal import SealState, render_sealed, seal, seal_state

T0 = datetime(2026, 1, 1, 9, 0, 0)
PATH = "preference/Prefers tea over coffee.md"
BASE = Memory(
    id="01JBASE0000000000000000000",
    type=MemoryType.PREFERENCE,
    text="Prefers tea over coffee.",
    confidence=0.7,
    evidence=Evidence.DIRECT,
    created=T0,
    updated=T0,
    confirmed=T0,
    sources=("c1#1",),
    tags=("tota/preference",),
)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def note(memory: Memory = BASE, **changes: object) -> str:
    """A note exactly as tota writes it (sealed)."""
    return render_sealed(memory.with_changes(**changes))


def confirm(memory: Memory, source: str, when: datetime) -> Memory:
    return memory.with_changes(
        confirmations=memory.confirmations + 1,
        sources=(*memory.sources, source),
        confirmed=when,
        updated=when,
    )


def merged(base: str | None, ours: str, theirs: str, path: str = PATH) -> Memory:
    """Merge both ways round; both must be clean and give the same bytes; return the memory."""
    one = merge_notes(base, ours, theirs, path=path)
    two = merge_notes(base, theirs, ours, path=path)
    assert one.clean and two.clean, (one.decisions, two.decisions)
    assert one.text == two.text
    parsed = parse_note(one.text.encode("utf-8"), path)
    assert parsed.error is None and parsed.memory is not None
    return parsed.memory


# --- field rules -------------------------------------------------------------------------------


def test_both_sides_confirming_add_their_increments():
    ours = note(confirm(BASE, "c2#5", day(1)))
    theirs = note(confirm(BASE, "c3#1", day(2)))
    memory = merged(note(), ours, theirs)
    assert memory.confirmations == 3  # 1 + 1 + 1, not 2 because both sides wrote 2
    assert memory.sources == ("c1#1", "c2#5", "c3#1")
    assert memory.confirmed == day(2) and memory.updated == day(2)


def test_a_persons_note_without_confirmations_counts_as_confirmed_once():
    person = "---\ntype: preference\n---\nPrefers tea over coffee.\n"
    ours = person.replace("---\nP", "confirmations: 2\nsources:\n  - a#1\n---\nP")
    theirs = person.replace("---\nP", "confirmations: 2\nsources:\n  - b#1\n---\nP")
    memory = merged(person, ours, theirs)
    assert memory.confirmations == 3 and memory.sources == ("a#1", "b#1")


def test_a_persons_note_given_an_id_on_both_clones_keeps_the_smaller(tmp_path: Path):
    person = "---\ntype: goal\n---\nLearn Portuguese.\n"
    sides = []
    for name in ("laptop", "desktop"):  # each clone's sync gives the new note its own id
        root = tmp_path / name
        Vault(root).init()
        (root / "goal" / "Learn Portuguese.md").write_text(person)
        with Vault.open(root) as vault:
            assert vault.sync().ids_assigned == ["goal/Learn Portuguese.md"]
        sides.append((root / "goal" / "Learn Portuguese.md").read_text())
    ids = sorted(parse_note(s.encode(), "goal/x.md").memory.id for s in sides)
    memory = merged(person, *sides, path="goal/Learn Portuguese.md")
    assert memory.id == ids[0]
    assert any(f"merged {ids[1]}, the same memory given an id" in h for h in memory.history)


def test_one_message_seen_on_both_devices_counts_once():
    ours = note(confirm(BASE, "c2#5", day(1)))
    theirs = note(confirm(BASE, "c2#5", day(2)))
    memory = merged(note(), ours, theirs)
    assert memory.confirmations == 2
    assert memory.sources == ("c1#1", "c2#5")


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "expected"),
    [
        (("a",), ("a", "z"), ("a", "b"), ("a", "b", "z")),  # base order, then new ones sorted
        (("a", "b"), ("b", "a", "c"), ("a", "b", "d"), ("a", "b", "c", "d")),
        (("a", "b"), ("a",), ("a", "b", "c"), ("a", "c")),  # a removal on one side holds
        ((), ("x",), ("x",), ("x",)),
    ],
)
def test_tags_are_united_in_a_canonical_order(base, ours, theirs, expected):
    memory = merged(note(tags=base), note(tags=ours, updated=day(1)), note(tags=theirs))
    assert memory.tags == expected


@pytest.mark.parametrize(
    ("field", "ours", "theirs", "expected"),
    [
        ("confidence", 0.8, 0.75, 0.8),
        ("importance", 0.2, 0.9, 0.9),
        ("updated", day(3), day(2), day(3)),
        ("confirmed", day(1), day(4), day(4)),
    ],
)
def test_scalars_take_the_later_date_or_the_higher_score(field, ours, theirs, expected):
    memory = merged(note(), note(**{field: ours}), note(**{field: theirs}))
    assert getattr(memory, field) == expected


def test_a_conflicting_statement_goes_to_the_higher_confidence_and_the_loser_to_history():
    ours = note(text="Prefers green tea over coffee.", confidence=0.9, updated=day(1))
    theirs = note(text="Prefers coffee in the morning.", confidence=0.6, updated=day(2))
    memory = merged(note(), ours, theirs)
    assert memory.text == "Prefers green tea over coffee."
    assert memory.confidence == 0.9
    assert len(memory.history) == 1
    entry = memory.history[0]
    assert entry.startswith('2026-01-03T09:00:00 replaced "Prefers coffee in the morning."')
    assert "confidence 0.60 < 0.90" in entry


@pytest.mark.parametrize("manual_side", ["ours", "theirs", "both"])
def test_a_persons_edit_sealed_by_a_sync_is_marked_not_moved_to_history(manual_side):
    """A sync (or the daemon) seals a hand edit with evidence manual: its words are still a
    person's, so a statement changed on both sides is left between markers (user review)."""
    manual = {"evidence": Evidence.MANUAL, "confidence": 0.95}
    ours = note(
        text="Prefers dark roast coffee, black.",
        updated=day(1),
        **(manual if manual_side in ("ours", "both") else {}),
    )
    theirs = note(text="Prefers light roast coffee now, with oat milk.", updated=day(2),
                  **(manual if manual_side in ("theirs", "both") else {}))  # fmt: skip
    assert seal_state(ours) is SealState.SEALED and seal_state(theirs) is SealState.SEALED
    result = merge_notes(note(), ours, theirs, path=PATH)
    assert not result.clean
    assert "<<<<<<< ours\nPrefers dark roast coffee, black.\n=======\n" in result.text
    assert "## History" not in result.text


def test_a_statement_tie_in_confidence_goes_to_the_newer():
    ours = note(text="Prefers green tea.", updated=day(5))
    theirs = note(text="Prefers black tea.", updated=day(2))
    memory = merged(note(), ours, theirs)
    assert memory.text == "Prefers green tea."
    assert '"Prefers black tea."' in memory.history[0]


def test_a_long_statement_changed_on_both_sides_is_marked_with_the_rest_merged():
    long_ours = "Prefers tea over coffee. " + "Green tea in the morning, black after lunch. " * 4
    long_theirs = "Prefers tea over coffee. " + "Mint tea in the evening, never with sugar. " * 4
    ours = note(confirm(BASE, "c2#1", day(1)), text=long_ours.strip())
    theirs = note(confirm(BASE, "c3#1", day(2)), text=long_theirs.strip())
    result = merge_notes(note(), ours, theirs, path=PATH)
    assert not result.clean
    assert "confirmations: 3\n" in result.text  # the frontmatter is merged all the same
    head, marked = result.text.split("---\n<<<<<<< ours\n", 1)
    assert marked == f"{long_ours.strip()}\n=======\n{long_theirs.strip()}\n>>>>>>> theirs\n"


def test_history_lines_are_united_by_date():
    base = BASE.with_changes(history=('2025-12-01T00:00:00 replaced "x" (old)',))
    ours = base.with_changes(history=(*base.history, '2026-01-05T00:00:00 kept over "y"'))
    theirs = base.with_changes(history=(*base.history, '2026-01-02T00:00:00 kept over "z"'))
    memory = merged(note(base), note(ours), note(theirs))
    assert [h[:10] for h in memory.history] == ["2025-12-01", "2026-01-02", "2026-01-05"]


def test_keys_nobody_changed_keep_their_bytes():
    person = (
        "---\n"
        "id: 01JBASE0000000000000000000\n"
        "type: preference\n"
        "confidence: 0.70\n"
        "# my own comment, kept\n"
        "importance: '0.5'\n"
        "created: 2026-01-01 09:00\n"
        "updated: 2026-01-01T09:00:00\n"
        "confirmations: 1\n"
        "sources: [c1#1]\n"
        'mood: "calm"   \n'
        "---\n"
        "Prefers tea over coffee.\n"
    )
    ours = person.replace("confirmations: 1", "confirmations: 2").replace(
        "sources: [c1#1]", "sources:\n  - c1#1\n  - c2#1"
    )
    theirs = person.replace("confirmations: 1", "confirmations: 2").replace(
        "sources: [c1#1]", "sources:\n  - c1#1\n  - c3#1"
    )
    result = merge_notes(person, ours, theirs, path=PATH)
    assert result.clean
    for line in ("confidence: 0.70", "# my own comment, kept", "importance: '0.5'",
                 "created: 2026-01-01 09:00", 'mood: "calm"   '):  # fmt: skip
        assert line + "\n" in result.text
    assert "confirmations: 3\n" in result.text
    assert "digest" not in result.text  # a person's unsealed note stays unsealed


def test_crlf_notes_merge_and_stay_crlf():
    base = note().replace("\n", "\r\n")
    ours = note(confirm(BASE, "c2#1", day(1))).replace("\n", "\r\n")
    theirs = note(confirm(BASE, "c3#1", day(2))).replace("\n", "\r\n")
    result = merge_notes(base, ours, theirs, path=PATH)
    assert result.clean and "\r\n" in result.text and "\n" not in result.text.replace("\r\n", "")
    assert parse_note(result.text.encode(), PATH).memory.confirmations == 3


def test_the_merge_of_two_own_writes_is_sealed_and_a_hand_edit_stays_visible():
    ours = note(confirm(BASE, "c2#1", day(1)))
    theirs = note(confirm(BASE, "c3#1", day(2)))
    assert seal_state(merge_notes(note(), ours, theirs, path=PATH).text) is SealState.SEALED
    hand = theirs.replace("Prefers tea over coffee.", "Prefers tea over coffee, always.")
    result = merge_notes(note(), ours, hand, path=PATH)
    assert result.clean and "always" in result.text
    assert seal_state(result.text) is SealState.BROKEN  # the next sync records the hand edit


def test_an_unknown_key_changed_differently_is_left_with_markers():
    base = note(extra={"mood": "calm"})
    result = merge_notes(base, note(extra={"mood": "happy"}), note(extra={"mood": "sad"}),
                         path=PATH)  # fmt: skip
    assert not result.clean
    assert "<<<<<<< ours\nmood: happy\n=======\nmood: sad\n>>>>>>> theirs\n" in result.text
    assert "unresolved git merge conflict" in parse_note(result.text.encode(), PATH).error
    same = merge_notes(base, note(extra={"mood": "happy"}, confidence=0.9),
                       note(extra={"mood": "happy"}), path=PATH)  # fmt: skip
    assert same.clean


def test_a_note_that_is_not_a_memory_is_left_to_the_text_merge():
    readme = "# My vault\n\nSome words.\n"
    result = merge_notes(readme, readme + "\nMore.\n", "# My vault!\n\nSome words.\n",
                         path="README.md")  # fmt: skip
    assert result.text is None and not result.clean
    garbage = "---\nid: [unclosed\n---\nPrefers tea.\n"
    assert merge_notes(note(), garbage, note(confidence=0.9), path=PATH).text is None


def test_add_add_of_one_memory_becomes_one_note_under_the_smaller_id():
    a = BASE.with_changes(id="01JAAAA0000000000000000000", sources=("laptop#3",), created=day(1),
                          updated=day(1), confirmed=day(1), confidence=0.75)  # fmt: skip
    b = BASE.with_changes(id="01JBBBB0000000000000000000", sources=("desk#9",), created=day(2),
                          updated=day(2), confirmed=day(2), tags=("tota/preference", "drinks"))  # fmt: skip
    for base in (None, ""):
        memory = merged(base, note(a), note(b))
        assert memory.id == "01JAAAA0000000000000000000"
        assert memory.confirmations == 2 and memory.confidence == 0.75
        assert memory.sources == ("desk#9", "laptop#3")
        assert memory.tags == ("tota/preference", "drinks")
        assert memory.created == day(1) and memory.updated == day(2)
        assert any("merged 01JBBBB0000000000000000000" in h for h in memory.history)


def test_add_add_of_different_memories_keeps_both_for_a_person():
    a = note(BASE.with_changes(id="01JAAAA0000000000000000000"))
    b = note(BASE.with_changes(id="01JBBBB0000000000000000000", text="Prefers tea over coffee. Black, no sugar."))  # fmt: skip
    result = merge_notes(None, a, b, path=PATH)
    assert not result.clean
    assert result.text.startswith("<<<<<<< ours\n" + a) and b in result.text
    assert result.text.endswith(">>>>>>> theirs\n")


def test_capped_sources_merge_and_count():
    many = tuple(f"c{i}#1" for i in range(30))
    kept, count = cap_sources(many)
    assert kept == [*many[:5], *many[-20:]] and count == 30
    assert cap_sources(many[:25]) == (list(many[:25]), None)
    base = BASE.with_changes(sources=tuple(kept), confirmations=30, extra={"sources_count": 30})

    def grow(memory: Memory, source: str, when: datetime) -> Memory:
        sources, total = cap_sources([*memory.sources, source], 31)
        return confirm(memory, source, when).with_changes(
            sources=tuple(sources), extra={"sources_count": total}
        )

    memory = merged(note(base), note(grow(base, "x#1", day(1))), note(grow(base, "y#1", day(2))))
    assert memory.confirmations == 32 and memory.extra["sources_count"] == "32"
    assert len(memory.sources) == 25
    assert memory.sources[:5] == many[:5] and memory.sources[-2:] == ("x#1", "y#1")


# --- a person's words: History free text, paragraphs, no clock ---------------------------------

ENTRY = '2025-12-01T00:00:00 replaced "Prefers coffee." (confidence 0.50 < 0.70, evidence direct)'
KEPT = '2026-01-02T09:00:00 kept over "Prefers cocoa." (confidence 0.30 < 0.70, source c9#1)'


def body_of(text: str) -> str:
    return text.split("---\n", 2)[2]


def test_free_text_in_history_keeps_its_order_blank_lines_and_duplicates():
    base = BASE.with_changes(history=(ENTRY, ENTRY))  # one line twice: both stay
    why = "\nWhy I changed my mind:\nZebra crossings are safer.\nApples too.\n"
    ours = note(base).replace(f"- {ENTRY}\n- {ENTRY}\n", f"- {ENTRY}\n- {ENTRY}\n{why}")
    theirs = note(confirm(base, "c2#1", day(1)).with_changes(history=(*base.history, KEPT)))
    memory = merged(note(base), ours, theirs)
    assert memory.confirmations == 2
    text = merge_notes(note(base), ours, theirs, path=PATH).text
    assert body_of(text) == (
        f"Prefers tea over coffee.\n\n## History\n- {ENTRY}\n- {ENTRY}\n- {KEPT}\n{why}"
    )


def test_free_text_in_history_changed_on_both_sides_is_marked_not_sorted():
    base = note(BASE.with_changes(history=(ENTRY,))) + "\nMy note: zebra.\n"
    ours = base.replace("My note: zebra.", "My note: zebra, then apples.")
    theirs = base.replace("My note: zebra.", "My note: apples.")
    result = merge_notes(base, ours, theirs, path=PATH)
    assert not result.clean
    assert body_of(result.text) == (
        f"Prefers tea over coffee.\n\n## History\n- {ENTRY}\n\n<<<<<<< ours\n"
        "My note: zebra, then apples.\n=======\nMy note: apples.\n>>>>>>> theirs\n"
    )


def test_new_history_entries_on_both_sides_are_united_by_date_after_the_base():
    base = BASE.with_changes(history=(ENTRY,))
    late = KEPT.replace("2026-01-02", "2026-01-09")
    ours = note(base.with_changes(history=(ENTRY, late)))
    theirs = note(base.with_changes(history=(ENTRY, KEPT)))
    assert merged(note(base), ours, theirs).history == (ENTRY, KEPT, late)


PERSON = (
    "---\nid: 01JPERS0000000000000000000\ntype: preference\n---\n"
    "Prefers tea over coffee.\n\nGreen tea in the morning.\n\nNever with sugar.\n"
)


@pytest.mark.parametrize(
    ("ours", "theirs", "expected"),
    [
        # two paragraphs of a person's note, one edited on each side: both edits kept
        (
            ("Prefers tea over coffee.", "Prefers tea over any coffee."),
            ("Never with sugar.", "Never with sugar or milk."),
            "Prefers tea over any coffee.\n\nGreen tea in the morning.\n\nNever with sugar or milk.\n",
        ),
        # one side adds a paragraph at the end, the other edits the first
        (
            ("Prefers tea over coffee.", "Prefers tea."),
            ("Never with sugar.\n", "Never with sugar.\n\nMint in the evening.\n"),
            "Prefers tea.\n\nGreen tea in the morning.\n\nNever with sugar.\n\nMint in the evening.\n",
        ),
    ],
)
def test_edits_to_different_paragraphs_of_a_persons_note_both_stay(ours, theirs, expected):
    a, b = PERSON.replace(*ours), PERSON.replace(*theirs)
    result = merge_notes(PERSON, a, b, path=PATH)
    assert result.clean, result.decisions
    assert body_of(result.text) == expected
    assert merge_notes(PERSON, b, a, path=PATH).text == result.text
    assert "History" not in result.text


def test_a_short_persons_note_edited_in_both_paragraphs_keeps_both_edits():
    base = "---\ntype: goal\n---\nRun a marathon.\n\nIn Lisbon.\n"
    ours, theirs = base.replace("a marathon", "a half marathon"), base.replace("Lisbon", "Porto")
    memory = merged(base, ours, theirs, path="goal/Run.md")
    assert memory.text == "Run a half marathon.\n\nIn Porto." and memory.history == ()
    # Adjacent lines are one change, for git's text merge as for this one: a conflict.
    tight = base.replace("\n\nIn", "\nIn")
    result = merge_notes(tight, tight.replace("a marathon", "a half marathon"),
                         tight.replace("Lisbon", "Porto"), path="goal/Run.md")  # fmt: skip
    assert not result.clean and result.text.count("<<<<<<< ours\n") == 1


def test_one_line_of_a_persons_note_changed_on_both_sides_is_marked_not_moved_to_history():
    ours = PERSON.replace("Green tea in the morning.", "Green tea at eight.")
    theirs = PERSON.replace("Green tea in the morning.", "Black tea in the morning.")
    result = merge_notes(PERSON, ours, theirs, path=PATH)
    assert not result.clean
    assert body_of(result.text) == (
        "Prefers tea over coffee.\n\n<<<<<<< ours\nGreen tea at eight.\n=======\n"
        "Black tea in the morning.\n>>>>>>> theirs\n\nNever with sugar.\n"
    )


def test_a_note_without_frontmatter_is_left_to_the_text_merge():
    result = merge_notes("I like tea.\n", "I like green tea.\n", "I like black tea.\n",
                         path="preference/tea.md")  # fmt: skip
    assert result.text is None and not result.clean


def test_the_merge_never_reads_the_clock(monkeypatch: pytest.MonkeyPatch):
    """Notes without dates merge to the same bytes at any time (two clones, two clocks)."""
    import tota_vault.model as model

    undated = "---\nid: 01JPERS0000000000000000000\ntype: preference\n---\nI like tea.\n"
    sealed = note(BASE.with_changes(text="I like tea."))
    no_dates = "".join(
        line for line in sealed.splitlines(keepends=True)
        if not line.startswith(("created:", "updated:", "confirmed:"))
    )  # fmt: skip
    cases = [
        (undated, undated.replace("I like", "I like green"), undated.replace("I like", "I like black")),
        (no_dates, seal(no_dates.replace("I like", "I like green")),
         seal(no_dates.replace("I like", "I like black").replace("confidence: 0.7", "confidence: 0.9"))),
    ]  # fmt: skip
    for base, ours, theirs in cases:
        results = []
        for clock in (datetime(2030, 5, 1, 12, 0, 0), datetime(2031, 6, 2, 13, 1, 1)):
            monkeypatch.setattr(model, "now", lambda clock=clock: clock)
            results.append(merge_notes(base, ours, theirs, path=PATH))
        assert results[0] == results[1]
        assert "2030" not in results[0].text and "2031" not in results[0].text
    assert not merge_notes(*cases[0], path=PATH).clean  # a person's words: left to a person
    winner = merge_notes(*cases[1], path=PATH)  # tota's own statements: the rule, no date
    assert winner.clean and 'I like black tea.\n\n## History\n- replaced "I like green tea."' in (
        winner.text
    )


# --- symmetry, by property --------------------------------------------------------------------

TEXTS = ("Prefers tea over coffee.", "Prefers green tea.", "Prefers coffee after lunch.")
EDITS = st.lists(
    st.one_of(
        st.tuples(st.just("confirm"), st.sampled_from(["c2#1", "c3#4", "c4#2", "c5#9"])),
        st.tuples(st.just("tag"), st.sampled_from(["morning", "drinks", "tota/preference"])),
        st.tuples(st.just("untag"), st.sampled_from(["tota/preference", "old"])),
        st.tuples(st.just("text"), st.sampled_from(TEXTS)),
        st.tuples(st.just("confidence"), st.sampled_from([0.5, 0.7, 0.8, 0.95])),
        st.tuples(st.just("updated"), st.integers(0, 5)),
        st.tuples(st.just("history"), st.integers(0, 3)),
        st.tuples(st.just("status"), st.sampled_from(["active", "archived"])),
        st.tuples(st.just("mood"), st.sampled_from(["calm", "busy"])),
        st.tuples(st.just("hand"), st.sampled_from([" Really.", " Mostly."])),
        st.tuples(st.just("crlf"), st.just(True)),
        # a person's own lines inside History (the same one twice is two lines)
        st.tuples(st.just("note"), st.sampled_from(["Zebra crossings first.", "Apples too.", ""])),
    ),
    max_size=5,
)


def undated(text: str) -> str:
    """A note without `created`, `updated` or `confirmed`, as a person might keep it."""
    dates = ("created:", "updated:", "confirmed:")
    return "".join(line for line in text.splitlines(True) if not line.startswith(dates))


def apply(memory: Memory, edits: list[tuple[str, object]], dated: bool = True) -> str:
    hand, crlf, notes = "", False, []
    for kind, value in edits:
        if kind == "confirm":
            memory = confirm(memory, str(value), memory.updated + timedelta(hours=1))
        elif kind == "tag":
            memory = memory.with_changes(tags=tuple(dict.fromkeys((*memory.tags, value))))
        elif kind == "untag":
            memory = memory.with_changes(tags=tuple(t for t in memory.tags if t != value))
        elif kind == "text":
            memory = memory.with_changes(text=value)
        elif kind == "confidence":
            memory = memory.with_changes(confidence=value)
        elif kind == "updated":
            memory = memory.with_changes(updated=day(int(value)))  # type: ignore[call-overload]
        elif kind == "history":
            memory = memory.with_changes(
                history=(*memory.history, f'2026-02-0{value}T00:00:00 kept over "x{value}"')
            )
        elif kind == "status":
            memory = memory.with_changes(status=Status(value))
        elif kind == "mood":
            memory = memory.with_changes(extra={"mood": value})
        elif kind == "crlf":
            crlf = True
        elif kind == "note":
            notes.append(f"{value}\n")
        else:
            hand = str(value)
    text = note(memory) if dated else seal(undated(note(memory)))
    if notes:  # History is the note's last section; a new one is made when there is none
        text += ("" if "\n## History\n" in text else "\n## History\n") + "".join(notes)
    if hand:  # a person's edit after tota's last write: the seal no longer matches
        text = text.replace(memory.text, memory.text + hand, 1)
    return text.replace("\n", "\r\n") if crlf else text


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure is reproducible
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(EDITS, EDITS, st.booleans(), st.booleans())
def test_merging_a_into_b_and_b_into_a_give_the_same_note(edits_a, edits_b, add_add, dated):
    base: str | None = note() if dated else seal(undated(note()))
    a, b = apply(BASE, edits_a, dated), apply(BASE, edits_b, dated)
    if add_add:  # both devices created the note: no base, two ids
        base = None
        a = apply(BASE.with_changes(id="01JAAAA0000000000000000000"), edits_a, dated)
        b = apply(BASE.with_changes(id="01JBBBB0000000000000000000"), edits_b, dated)
    one = merge_notes(base, a, b, path=PATH)
    with patch("tota_vault.model.now", return_value=datetime(2031, 6, 2, 13, 1, 1)):
        two = merge_notes(base, b, a, path=PATH)  # another device, another clock
    assert one.clean == two.clean
    assert (one.text is None) == (two.text is None)
    if one.clean:
        assert one.text == two.text
        parsed = parse_note(one.text.encode("utf-8"), PATH)
        assert parsed.error is None and parsed.memory is not None
        assert parsed.memory.confirmations >= max(
            parse_note(x.encode(), PATH).memory.confirmations for x in (a, b)
        )
        for line in ("Zebra crossings first.", "Apples too."):  # a person's lines, all kept
            assert one.text.count(line) == max(a.count(line), b.count(line))
        assert one.text.count("\n\n\n") <= max(a.count("\n\n\n"), b.count("\n\n\n"))
    elif one.text is not None:
        assert "<<<<<<< ours" in one.text  # a conflict is always marked


# --- the driver command ------------------------------------------------------------------------


def write_three(tmp_path: Path, base: str, ours: str, theirs: str) -> tuple[Path, Path, Path]:
    paths = tuple(tmp_path / f".merge_file_{n}" for n in ("O", "A", "B"))
    for path, text in zip(paths, (base, ours, theirs), strict=True):
        path.write_bytes(text.encode("utf-8"))
    return paths  # type: ignore[return-value]


def test_the_driver_writes_the_merge_and_exits_0(tmp_path: Path):
    o, a, b = write_three(tmp_path, note(), note(confirm(BASE, "c2#1", day(1))),
                          note(confirm(BASE, "c3#1", day(2))))  # fmt: skip
    assert run_driver(o, a, b, 7, PATH) == 0
    assert parse_note(a.read_bytes(), PATH).memory.confirmations == 3


def test_garbage_leaves_a_text_conflict_with_markers_and_exit_1(tmp_path: Path):
    garbage = note().replace("confidence: 0.7", "confidence: [0.9")
    o, a, b = write_three(tmp_path, note(), garbage, note(confidence=0.8))
    assert run_driver(o, a, b, 7, PATH) == 1
    text = a.read_text("utf-8")
    assert "<<<<<<< ours" in text and ">>>>>>> theirs" in text
    assert "confidence: [0.9" in text and "confidence: 0.8" in text  # nothing dropped


def test_a_persons_plain_note_merges_as_text(tmp_path: Path):
    o, a, b = write_three(tmp_path, "# Plan\n\none\n\ntwo\n", "# Plan\n\nONE\n\ntwo\n",
                          "# Plan\n\none\n\ntwo\n\nthree\n")  # fmt: skip
    assert run_driver(o, a, b, 7, "Plan.md") == 0
    assert a.read_text("utf-8") == "# Plan\n\nONE\n\ntwo\n\nthree\n"


def test_an_undecodable_side_is_a_conflict_not_a_crash(tmp_path: Path):
    o, a, b = write_three(tmp_path, note(), note(confidence=0.9), note(confidence=0.8))
    b.write_bytes(b"\xff\xfe" + note().encode())
    assert run_driver(o, a, b, 7, PATH) == 1  # git merged the lines; the result is no note
    assert a.read_bytes().startswith(b"\xff\xfe---") and b"confidence: 0.9" in a.read_bytes()


def test_a_note_without_frontmatter_goes_to_git_merge_file(tmp_path: Path):
    base = "I like tea.\n\nGreen in the morning.\n"
    o, a, b = write_three(tmp_path, base, base.replace("tea", "hot tea"),
                          base.replace("Green", "Sencha"))  # fmt: skip
    assert run_driver(o, a, b, 7, "preference/tea.md") == 0
    assert a.read_text("utf-8") == "I like hot tea.\n\nSencha in the morning.\n"


def test_the_driver_command_names_this_python_absolutely():
    command = driver_command()
    assert command.startswith(str(Path(sys.executable).absolute()).split(" ")[0][:10])
    assert command.endswith("-m tota_vault merge-driver %O %A %B %L %P")


# --- real git ----------------------------------------------------------------------------------

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {done.stdout}{done.stderr}")
    return done


def learn(root: Path, text: str, conversation: str, when: datetime) -> None:
    with Vault.open(root) as vault:
        vault.observe([{"role": "user", "content": text}], conversation_id=conversation, now=when)


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


@pytest.fixture
def clones(tmp_path: Path, git_env: Path) -> tuple[Path, Path]:
    """A laptop and a desktop vault, clones of one bare repository, both with the driver,
    sharing one learned preference."""
    laptop, desktop, remote = tmp_path / "laptop", tmp_path / "desktop", tmp_path / "remote.git"
    Vault(laptop).init(git=True)
    learn(laptop, "I prefer tea over coffee.", "c1", T0)
    commit(laptop, "learned")
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(laptop, "remote", "add", "origin", str(remote))
    git(laptop, "push", "-q", "-u", "origin", "HEAD")
    git(tmp_path, "clone", "-q", str(remote), str(desktop))
    assert setup_git(desktop) == ["git config merge.tota.name", "git config merge.tota.driver"]
    assert setup_git(desktop) == []  # idempotent
    return laptop, desktop


def both_learn(laptop: Path, desktop: Path) -> None:
    """The issue's story: each device confirms the preference and learns the same goal."""
    learn(laptop, "I prefer tea over coffee. My goal is to run a marathon.", "laptop", day(1))
    commit(laptop, "laptop learned")
    git(laptop, "push", "-q")
    learn(desktop, "I prefer tea over coffee! My goal is to run a marathon.", "desk", day(2))
    commit(desktop, "desktop learned")


def notes_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*.md"))
        if ".git" not in p.parts and ".tota" not in p.parts
    }


def check_merged(root: Path, goals: int = 1) -> Memory:
    assert git(root, "status", "--porcelain").stdout == ""
    with Vault.open(root) as vault:
        report = vault.sync()
        assert report.invalid == []
        doctor = vault.doctor()
        assert doctor.ok, doctor.to_dict()
        assert vault.search("tea")[0].path == "preference/Prefers tea over coffee.md"
    files = notes_of(root)
    assert len([p for p in files if p.startswith("goal/")]) == goals
    memory = parse_note(files["preference/Prefers tea over coffee.md"], PATH).memory
    assert memory is not None
    return memory


@needs_git
def test_pull_merges_both_devices_without_a_conflict(clones: tuple[Path, Path]):
    laptop, desktop = clones
    both_learn(laptop, desktop)
    pulled = git(desktop, "pull", "--no-rebase", "-q")
    assert "CONFLICT" not in pulled.stdout + pulled.stderr
    memory = check_merged(desktop)
    assert memory.confirmations == 3
    assert set(memory.sources) == {"c1#1", "laptop#1", "desk#1"}
    git(desktop, "push", "-q")
    git(laptop, "pull", "-q")
    assert notes_of(laptop) == notes_of(desktop)
    check_merged(laptop)
    with Vault.open(laptop) as one, Vault.open(desktop) as two:
        for query in ("tea", "coffee", "marathon", "goal", "run"):
            assert [h.path for h in one.search(query)] == [h.path for h in two.search(query)]
            assert [h.memory_id for h in one.search(query)] == [
                h.memory_id for h in two.search(query)
            ]


@needs_git
def test_pull_rebase_gives_the_same_notes_as_a_merge(clones: tuple[Path, Path], tmp_path: Path):
    laptop, desktop = clones
    both_learn(laptop, desktop)
    twin = tmp_path / "twin"
    shutil.copytree(desktop, twin)
    git(desktop, "pull", "--no-rebase", "-q")
    git(twin, "pull", "--rebase", "-q")  # ours and theirs swap in a rebase
    assert notes_of(twin) == notes_of(desktop)
    assert check_merged(twin).confirmations == 3


@needs_git
def test_a_persons_edits_to_different_paragraphs_survive_a_pull(clones: tuple[Path, Path]):
    laptop, desktop = clones
    rel = "goal/Run a marathon.md"
    person = "---\ntype: goal\n---\nRun a marathon.\n\nTrain three times a week.\n"
    (laptop / rel).write_text(person)
    with Vault.open(laptop) as vault:
        vault.sync()  # the note gets its id (and a seal) before both clones have it
    commit(laptop, "goal")
    git(laptop, "push", "-q")
    git(desktop, "pull", "-q")
    for root, old, new in ((laptop, "a marathon", "a marathon in Lisbon"),
                           (desktop, "three times", "four times")):  # fmt: skip
        (root / rel).write_text((root / rel).read_text().replace(old, new))
        commit(root, "edit")
    git(laptop, "push", "-q")
    pulled = git(desktop, "pull", "--no-rebase", "-q")
    assert "CONFLICT" not in pulled.stdout + pulled.stderr
    memory = parse_note((desktop / rel).read_bytes(), rel).memory
    assert memory.text == "Run a marathon in Lisbon.\n\nTrain four times a week."
    assert memory.history == ()


@needs_git
def test_hand_edits_synced_on_both_clones_conflict_rather_than_move_to_history(
    clones: tuple[Path, Path],
):
    """A user-style review: both devices edit the same line by hand and run `tota sync` (or
    the daemon) before committing; the sync seals each edit, and the merge moved one side's
    words into History. They are a person's words: a conflict, left between markers."""
    laptop, desktop = clones
    for root, new in ((laptop, "Prefers green tea over coffee, no sugar."),
                      (desktop, "Prefers black tea now, with oat milk.")):  # fmt: skip
        path = root / PATH
        path.write_text(path.read_text().replace("Prefers tea over coffee.", new, 1))
        with Vault.open(root) as vault:
            vault.sync()
        memory = parse_note(path.read_bytes(), PATH).memory
        assert memory is not None and memory.evidence is Evidence.MANUAL
        commit(root, "hand edit")
    git(laptop, "push", "-q")
    pulled = git(desktop, "pull", "--no-rebase", "-q", check=False)
    assert "CONFLICT" in pulled.stdout + pulled.stderr
    text = (desktop / PATH).read_text()
    assert "Prefers green tea over coffee, no sugar." in text.split("=======")[1]
    assert "Prefers black tea now, with oat milk." in text.split("=======")[0]
    assert "replaced" not in text


@needs_git
def test_cherry_pick_and_stash_pop_run_the_driver(clones: tuple[Path, Path]):
    laptop, desktop = clones
    git(desktop, "checkout", "-q", "-b", "side")
    learn(desktop, "I prefer tea over coffee.", "side", day(1))
    commit(desktop, "side")
    git(desktop, "checkout", "-q", "-")
    learn(desktop, "I prefer tea over coffee!", "main", day(2))
    commit(desktop, "main")
    git(desktop, "cherry-pick", "side")
    assert check_merged(desktop, goals=0).confirmations == 3

    learn(laptop, "I prefer tea over coffee.", "l2", day(3))
    commit(laptop, "laptop")
    git(laptop, "push", "-q")
    learn(desktop, "I prefer tea over coffee.", "d3", day(4))  # not committed
    git(desktop, "stash", "-q")
    git(desktop, "pull", "-q", "--no-rebase")
    git(desktop, "stash", "pop", "-q")
    git(desktop, "reset", "-q")  # stash pop leaves the merged note staged
    memory = parse_note((desktop / PATH).read_bytes(), PATH).memory
    assert memory is not None and memory.confirmations == 5
    assert {"l2#1", "d3#1"} <= set(memory.sources)


@needs_git
def test_add_add_of_different_memories_is_a_marked_conflict_that_sync_reports(
    clones: tuple[Path, Path],
):
    laptop, desktop = clones
    goal = "goal/Run a marathon.md"
    for root, text in ((laptop, "Run a marathon.\n\nIn Lisbon."), (desktop, "Run a marathon.")):
        with Vault.open(root) as vault:
            vault.remember("goal", text)
    commit(laptop, "laptop goal")
    git(laptop, "push", "-q")
    commit(desktop, "desktop goal")
    pulled = git(desktop, "pull", "--no-rebase", "-q", check=False)
    assert pulled.returncode != 0 and "CONFLICT" in pulled.stdout + pulled.stderr
    assert git(desktop, "status", "--porcelain").stdout.startswith(f'AA "{goal}"')
    text = (desktop / goal).read_text("utf-8")
    assert "In Lisbon." in text and text.count("<<<<<<< ours") == 1  # both kept, marked
    with Vault.open(desktop) as vault:
        report = vault.sync()
        assert [p for p, _ in report.invalid] == [goal]
        assert "unresolved git merge conflict" in report.invalid[0][1]
        assert [p for p, _ in vault.doctor().invalid] == [goal]
    assert resolve_both_kept(desktop) == [(goal, "goal/Run a marathon 2.md")]
    git(desktop, "commit", "-qm", "kept both goals")
    assert git(desktop, "status", "--porcelain").stdout == ""
    with Vault.open(desktop) as vault:
        report = vault.sync()
        assert report.invalid == [] and report.hand_edits == []  # both as tota wrote them
        assert vault.doctor().ok
        assert len({h.memory_id for h in vault.search("marathon")}) == 2
    assert resolve_both_kept(desktop) == []


@needs_git
def test_resolve_names_the_files_still_in_conflict_and_says_commit_only_when_none_is(
    clones: tuple[Path, Path],
):
    """The review's story: an add/add at one goal path, and both devices hand-editing the same
    habit line. resolve splits the goal, but the habit needs the person: commit would fail."""
    laptop, desktop = clones
    habit, goal = "habit/Runs four mornings a week.md", "goal/Run a marathon.md"

    def tota(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tota_vault", "--vault", str(desktop),
                               *args], capture_output=True, text=True)  # fmt: skip

    with Vault.open(laptop) as vault:
        vault.remember("habit", "Runs four mornings a week.")
    commit(laptop, "habit")
    git(laptop, "push", "-q")
    git(desktop, "pull", "--no-rebase", "-q")
    for root, text, edit in ((laptop, "Run a marathon.\n\nIn Lisbon.", "five mornings"),
                             (desktop, "Run a marathon.", "three mornings")):  # fmt: skip
        with Vault.open(root) as vault:
            vault.remember("goal", text)
        note_file = root / habit
        note_file.write_text(note_file.read_text("utf-8").replace("four mornings", edit), "utf-8")
    commit(laptop, "laptop goal and habit edit")
    git(laptop, "push", "-q")
    commit(desktop, "desktop goal and habit edit")
    assert git(desktop, "pull", "--no-rebase", "-q", check=False).returncode != 0
    status = git(desktop, "status", "--porcelain").stdout
    assert f'AA "{goal}"' in status and f'UU "{habit}"' in status

    first = tota("git", "resolve")
    assert first.returncode == 1, first.stderr
    assert first.stdout.splitlines() == [
        f"kept both: {goal} and goal/Run a marathon 2.md",
        "1 file is still in conflict, for you to resolve (edit out the markers, then `git add` "
        "each):",
        f"  {habit}",
    ]
    assert "Commit to finish" not in first.stdout
    assert git(desktop, "commit", "-qm", "too soon", check=False).returncode != 0  # as it said

    second = tota("git", "resolve")  # nothing of its shape left; the habit is still named
    assert second.returncode == 1
    assert second.stdout.splitlines()[0] == "No add/add conflict of two memories to resolve."
    assert second.stdout.splitlines()[-1] == f"  {habit}"

    (desktop / habit).write_text((laptop / habit).read_text("utf-8"), "utf-8")  # the person
    git(desktop, "add", "--", habit)
    third = tota("git", "resolve")
    assert third.returncode == 0 and "still in conflict" not in third.stdout
    git(desktop, "commit", "-qm", "merged")  # and now it works


def test_split_both_kept_takes_only_the_drivers_own_shape():
    a = note(BASE.with_changes(id="01JAAAA0000000000000000000"))
    b = note(BASE.with_changes(id="01JBBBB0000000000000000000", text="Prefers tea. Always."))
    kept = merge_notes(None, a, b, path=PATH).text
    assert split_both_kept(kept) == (a, b)
    crlf = merge_notes(None, a.replace("\n", "\r\n"), b.replace("\n", "\r\n"), path=PATH)
    assert split_both_kept(crlf.text) == (a.replace("\n", "\r\n"), b.replace("\n", "\r\n"))
    assert split_both_kept("<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs\n") is None
    assert split_both_kept(kept.replace(">>>>>>> theirs\n", ">>>>>>> theirs\nmore\n")) is None
    assert split_both_kept(a) is None


@needs_git
def test_a_clone_without_the_driver_is_reported_and_merges_as_text(
    clones: tuple[Path, Path], tmp_path: Path
):
    laptop, _desktop = clones
    bare = tmp_path / "bare-clone"
    git(tmp_path, "clone", "-q", str(tmp_path / "remote.git"), str(bare))
    problems = git_problems(bare)
    assert len(problems) == 1 and "lacks merge.tota.driver" in problems[0]
    with Vault.open(bare) as vault:
        assert vault.doctor().git == problems
    learn(laptop, "I prefer tea over coffee.", "l2", day(1))
    commit(laptop, "laptop")
    git(laptop, "push", "-q")
    learn(bare, "I prefer tea over coffee.", "b2", day(2))
    commit(bare, "bare")
    pulled = git(bare, "pull", "--no-rebase", "-q", check=False)
    assert "CONFLICT" in pulled.stdout + pulled.stderr  # git's text merge, as the issue saw
    with Vault.open(bare) as vault:
        assert [p for p, _ in vault.sync().invalid] == [PATH]
    git(bare, "merge", "--abort")
    assert setup_git(bare) == ["git config merge.tota.name", "git config merge.tota.driver"]
    assert git_problems(bare) == []
    git(bare, "pull", "--no-rebase", "-q")
    assert parse_note((bare / PATH).read_bytes(), PATH).memory.confirmations == 3


@needs_git
def test_doctor_reports_a_driver_whose_python_is_gone(clones: tuple[Path, Path]):
    laptop, _ = clones
    git(laptop, "config", "merge.tota.driver", "/nowhere/python -m tota_vault merge-driver %O")
    assert "/nowhere/python" in git_problems(laptop)[0]
    assert os.path.exists(laptop / ".gitattributes")
    assert setup_git(laptop) == ["git config merge.tota.driver"]
    assert git_problems(laptop) == []


@needs_git
@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_a_gitattributes_that_is_not_utf8_is_named_and_left_alone(
    tmp_path: Path, git_env: Path, encoding: str
):
    """PowerShell's `>` writes UTF-16: a clear error naming the file, and nothing changed."""
    from tota_vault.errors import VaultError

    vault = tmp_path / "v"
    vault.mkdir()
    data = "# Gräfin's vault\n*.png binary\n".encode(encoding)
    (vault / ".gitattributes").write_bytes(data)

    def tota(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tota_vault", "--vault", str(vault), *args],
                              capture_output=True, text=True)  # fmt: skip

    made = tota("init", "--git")  # a new vault: refused before anything is created
    assert made.returncode == 1 and "Traceback" not in made.stderr
    assert made.stderr.count("\n") == 1 and ".gitattributes" in made.stderr
    assert "UTF-8" in made.stderr
    assert sorted(p.name for p in vault.iterdir()) == [".gitattributes"]
    git(vault, "init", "-q")
    with pytest.raises(VaultError, match=r"\.gitattributes.*UTF-8"):
        setup_git(vault)
    done = tota("git", "setup")
    assert done.returncode == 1 and done.stderr.startswith("tota: error: ")
    assert "Traceback" not in done.stderr and str(vault / ".gitattributes") in done.stderr
    assert (vault / ".gitattributes").read_bytes() == data
    assert git(vault, "config", "--get", "merge.tota.driver", check=False).returncode == 1


@needs_git
@pytest.mark.parametrize(
    ("existing", "expected_start"),
    [
        (
            b"\xef\xbb\xbf*.md merge=tota\n",
            b"\xef\xbb\xbf*.md merge=tota\n#",
        ),  # a BOM: no twin line
        (b"*.png binary\r\n", b"*.png binary\r\n# Memory notes"),  # CRLF kept
        (b"*.png binary", b"*.png binary\n# Memory notes"),  # no final newline
    ],
)
def test_setup_adds_to_a_gitattributes_without_rewriting_it(
    tmp_path: Path, git_env: Path, existing: bytes, expected_start: bytes
):
    git(tmp_path, "init", "-q")
    (tmp_path / ".gitattributes").write_bytes(existing)
    assert ".gitattributes" in setup_git(tmp_path)
    data = (tmp_path / ".gitattributes").read_bytes()
    assert data.startswith(expected_start) and data.count(b"merge=tota") == 1
    if b"\r\n" in existing:  # every line ends as the person's lines do
        assert data.count(b"\n") == data.count(b"\r\n")
    else:
        assert b"\r" not in data
    assert setup_git(tmp_path) == []
    assert git(tmp_path, "check-attr", "merge", "--", "x.md").stdout.strip() == "x.md: merge: tota"


def test_setup_outside_a_repository_says_so(tmp_path: Path, git_env: Path):
    from tota_vault.errors import VaultError

    (tmp_path / "plain").mkdir()
    with pytest.raises(VaultError, match="not in a git repository"):
        setup_git(tmp_path / "plain")
    assert git_problems(tmp_path / "plain") == []


@needs_git
def test_the_cli_sets_up_reports_and_runs_the_driver(tmp_path: Path, git_env: Path):
    vault = tmp_path / "v"

    def tota(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tota_vault", "--vault", str(vault), *args],
                              capture_output=True, text=True)  # fmt: skip

    made = tota("init", "--git")
    assert made.returncode == 0 and "created .gitattributes" in made.stdout
    assert git(vault, "ls-files", ".gitattributes").stdout == ".gitattributes\n"  # committed
    assert git(vault, "config", "merge.tota.driver").stdout.strip() == driver_command()
    assert tota("git", "setup").stdout.startswith("The merge driver is already set up")
    git(vault, "config", "--unset", "merge.tota.driver")
    doctor = tota("doctor")
    assert doctor.returncode == 1 and "git: .gitattributes names the `tota` merge driver" in (
        doctor.stdout
    )
    assert "git config merge.tota.driver" in tota("git", "setup").stdout
    assert tota("doctor").returncode == 0
    o, a, b = write_three(tmp_path, note(), note(confirm(BASE, "c2#1", day(1))),
                          note(confirm(BASE, "c3#1", day(2))))  # fmt: skip
    run = subprocess.run([sys.executable, "-m", "tota_vault", "merge-driver", str(o), str(a),
                          str(b), "7", PATH], capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert parse_note(a.read_bytes(), PATH).memory.confirmations == 3


@needs_git
def test_the_daemon_catches_up_with_a_merge_and_writes_nothing(clones: tuple[Path, Path]):
    from watchkit import DaemonThread, converge, index_rows

    laptop, desktop = clones
    both_learn(laptop, desktop)
    with Vault.open(desktop) as vault:
        vault.sync()
    daemon = DaemonThread(desktop)
    daemon.start()
    try:
        git(desktop, "pull", "--no-rebase", "-q")
        converge(desktop, timeout=20, what="the daemon to index the merged notes")
        rows = index_rows(desktop)
        assert rows[PATH]["confirmations"] == 3
        assert len([r for r in rows.values() if r["type"] == "goal"]) == 1
        assert len({r["memory_id"] for r in rows.values() if r["memory_id"]}) == len(rows)
    finally:
        daemon.stop()
    assert git(desktop, "status", "--porcelain").stdout == ""  # merged notes are tota's own


def test_setup_lets_git_union_the_tombstones_of_two_devices(tmp_path: Path) -> None:
    """Two devices that each forgot a memory keep both tombstones after a merge."""
    from tota_vault.gitdriver import setup_git

    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}

    def run(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=repo,
            env=env,
            check=True,
            capture_output=True,
        )

    run("init", "-q", "-b", "main")
    assert ".gitattributes" in setup_git(repo)
    assert setup_git(repo) == []  # idempotent
    (repo / ".tota-forgotten").write_text("a#1\n")
    run("add", "-A")
    run("commit", "-qm", "base")
    run("checkout", "-qb", "other")
    (repo / ".tota-forgotten").write_text("a#1\nb#2\n")
    run("commit", "-qam", "forgot b")
    run("checkout", "-q", "main")
    (repo / ".tota-forgotten").write_text("a#1\nc#3\n")
    run("commit", "-qam", "forgot c")
    run("merge", "-q", "other", "-m", "merge")
    assert (repo / ".tota-forgotten").read_text().splitlines() == ["a#1", "c#3", "b#2"]


def test_contradictions_kept_over_on_both_sides_are_united():
    """Each device kept the memory over a different contradiction: both stay known, so
    neither message is learned from again, and the merge is clean."""
    base = BASE.with_changes(extra={"kept_over_sources": ["c0#1"]})
    ours = base.with_changes(extra={"kept_over_sources": ["c0#1", "c5#2"]})
    theirs = base.with_changes(extra={"kept_over_sources": ["c0#1", "c4#7"]})
    result = merge_notes(note(base), note(ours), note(theirs), path=PATH)
    assert result.clean
    assert "kept_over_sources:\n  - c0#1\n  - c4#7\n  - c5#2\n" in result.text
