"""Own writes vs hand edits: the digest rule, pure and through sync."""

from __future__ import annotations

import re
import time
from datetime import datetime

import pytest
from conftest import write

from tota_vault import Vault
from tota_vault.model import Memory, MemoryType
from tota_vault.notes import render_note
from tota_vault.seal import (
    MANUAL_CONFIDENCE,
    SealState,
    _seal_by_patch,
    content_digest,
    hand_edit_changes,
    render_sealed,
    seal,
    seal_state,
)

NOTE = "---\nid: 01JDX3M7Q9T8ZK4W5N6P2R1S0V\ntype: goal\nconfidence: 0.7\nevidence: direct\n---\nRun a marathon.\n"


def test_digest_ignores_its_own_line_bom_and_line_endings():
    sealed = seal(NOTE)
    assert seal_state(sealed) is SealState.SEALED
    assert content_digest(sealed) == content_digest(NOTE)
    assert seal_state(sealed.replace("\n", "\r\n")) is SealState.SEALED
    assert seal_state("\ufeff" + sealed) is SealState.SEALED


@pytest.mark.parametrize(
    ("edit", "state"),
    [
        (lambda t: t, SealState.SEALED),
        (lambda t: t.replace("marathon", "half-marathon"), SealState.BROKEN),
        (lambda t: t.replace("confidence: 0.7", "confidence: 0.9"), SealState.BROKEN),
        (lambda t: t + "More.\n", SealState.BROKEN),
        (lambda t: t.replace("digest: ", "digest: x"), SealState.BROKEN),
    ],
    ids=["untouched", "body", "field", "appended", "digest-edited"],
)
def test_seal_state_after_edits(edit, state):
    assert seal_state(edit(seal(NOTE))) is state


def test_unsealed_note():
    assert seal_state(NOTE) is SealState.UNSEALED
    assert seal_state("no frontmatter\n") is SealState.UNSEALED


def _memory(confidence: float) -> Memory:
    return Memory(id="X", type=MemoryType.GOAL, text="t", confidence=confidence)


@pytest.mark.parametrize(
    ("confidence", "previous", "expected"),
    [
        (0.7, 0.7, MANUAL_CONFIDENCE),  # untouched confidence is raised
        (0.4, 0.7, None),  # the person lowered it: theirs stands
        (0.99, 0.99, None),  # already above the floor
        (0.7, None, MANUAL_CONFIDENCE),  # unknown previous: raised
    ],
)
def test_hand_edit_changes(confidence, previous, expected):
    at = datetime(2026, 11, 29, 12, 0, 0)
    changes = hand_edit_changes(_memory(confidence), previous_confidence=previous, at=at)
    assert changes["evidence"] == "manual"
    assert changes["updated"] == changes["confirmed"] == at
    assert changes.get("confidence") == expected


def test_a_hand_edit_is_recorded_surgically(vault: Vault):
    stored = vault.remember(
        "goal", "Run a marathon.", evidence="direct", confidence=0.7, when=datetime(2026, 1, 1)
    )
    path = vault.root / stored.path
    assert not vault.sync().changed  # tota's own write is not a hand edit
    edited = path.read_text().replace("Run a marathon.", "Run a marathon in Lisbon.")
    path.write_text(edited)
    report = vault.sync()
    assert report.hand_edits == [stored.path]
    final = path.read_text()
    assert seal_state(final) is SealState.SEALED
    assert "evidence: manual\n" in final and "confidence: 0.95\n" in final
    assert re.search(r"^updated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$", final, re.M)  # unquoted
    changed = {a for a, b in zip(edited.splitlines(), final.splitlines(), strict=True) if a != b}
    assert {line.split(":")[0] for line in changed} == {
        "confidence", "evidence", "updated", "confirmed", "digest",
    }  # fmt: skip
    assert final.endswith("Run a marathon in Lisbon.\n")
    row = vault.index.get(path=stored.path)[0]
    assert row.evidence == "manual"
    assert not vault.sync().changed
    assert vault.doctor().ok


def test_a_hand_edit_waits_for_quiet(vault: Vault):
    stored = vault.remember("goal", "Run a marathon.", evidence="direct")
    path = vault.root / stored.path
    path.write_text(path.read_text().replace("marathon", "ultra"))
    before = path.read_bytes()
    report = vault.sync(quiet=3600)
    assert [p for p, _ in report.deferred] == [stored.path]
    assert path.read_bytes() == before  # not written while the person may still be typing
    assert vault.index.get(path=stored.path)[0].evidence == "manual"
    report = vault.sync(quiet=0)  # the row was marked: the file is read again and patched
    assert report.hand_edits == [stored.path]
    assert seal_state(path.read_text()) is SealState.SEALED


@pytest.mark.parametrize("lock", [".{name}.swp", ".{name}.swo", ".#{name}"])
def test_a_hand_edit_waits_while_an_editor_has_the_note_open(vault: Vault, lock: str):
    """vim keeps a swap file beside the file it edits, Emacs a lock link: patching the note
    then made vim warn at the next save that the file changed since it was read, and a
    person who answered "no" lost the edit (a user-style review with `tota watch`)."""
    stored = vault.remember("goal", "Run a marathon.", evidence="direct")
    path = vault.root / stored.path
    path.write_text(path.read_text().replace("marathon", "ultra"))
    held = path.parent / lock.format(name=path.name)
    if lock.startswith(".#"):
        held.symlink_to("user@host.1234:1700000000")  # Emacs's lock: a dangling link
    else:
        held.write_bytes(b"b0VIM 9.0")
    before = path.read_bytes()
    started = time.time()
    report = vault.sync(quiet=0)
    assert path.read_bytes() == before
    assert vault.index.get(path=stored.path)[0].evidence == "manual"
    [(deferred, retry_at)] = report.deferred
    assert deferred == stored.path and retry_at >= started + 1.0  # later, not in a busy loop
    held.unlink()  # the editor closed the file
    assert vault.sync(quiet=0).hand_edits == [stored.path]
    assert seal_state(path.read_text()) is SealState.SEALED


def test_an_unsealed_note_is_adopted_then_edits_are_seen(vault: Vault):
    path = write(vault.root, "goal/Marathon.md", NOTE)
    assert vault.sync().hand_edits == []
    assert path.read_text() == NOTE  # adopted as it is: not rewritten
    path.write_text(NOTE.replace("marathon", "half-marathon"))
    assert vault.sync().hand_edits == ["goal/Marathon.md"]
    assert "evidence: manual" in path.read_text()


def test_a_broken_seal_is_a_hand_edit_even_on_first_sight(vault_dir):
    """Edited on another machine where tota was not running, then cloned here."""
    write(vault_dir, "goal/Marathon.md", seal(NOTE).replace("marathon", "ultra"))
    with Vault.open(vault_dir) as vault:
        vault.sync()
        assert vault.index.get(path="goal/Marathon.md")[0].evidence == "manual"


@pytest.mark.parametrize(
    "extra",
    [{"digest": "sha256:000000000000000000000000"}, {"x_note": "digest: not a key"}, {}],
)
def test_render_sealed_is_the_patch_even_with_a_digest_among_unknown_keys(extra):
    memory = _memory(0.7).with_changes(extra=extra)
    text = render_sealed(memory)
    assert text == _seal_by_patch(render_note(memory))  # in place or by patch: the same bytes
    assert seal_state(text) is SealState.SEALED
    assert text.count("\ndigest:") == 1
