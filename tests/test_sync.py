"""Sync: the pure planners with plain data, then `reconcile` on real folders."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import pytest
from conftest import gone_pid, vim_block0, write

from tota_vault import Vault
from tota_vault.files import FileStat
from tota_vault.index import IndexedFile
from tota_vault.sync import match_moves, plan_reads, plan_scan

GOOD = """---
id: {id}
type: preference
confidence: 0.8
importance: 0.5
durability: 0.8
evidence: direct
status: active
created: 2026-11-01T10:00:00
updated: 2026-11-01T10:00:00
confirmed: 2026-11-01T10:00:00
confirmations: 1
subject: user
sources:
  - chat-1#3
tags:
  - tota/preference
---
{body}
"""


def good(body: str, id: str = "01JDX3M7Q9T8ZK4W5N6P2R1S0V") -> str:
    return GOOD.format(id=id, body=body)


# --- pure planners ---------------------------------------------------------------------------


def test_plan_scan_uses_size_and_mtime_only():
    indexed = {
        "a.md": IndexedFile(10, 100, "h1", None),
        "b.md": IndexedFile(10, 100, "h2", None),
        "gone.md": IndexedFile(5, 5, "h3", "ID3"),
    }
    snapshot = {"a.md": FileStat(10, 100), "b.md": FileStat(10, 101), "new.md": FileStat(1, 1)}
    plan = plan_scan(snapshot, indexed)
    assert plan.unchanged == ("a.md",)
    assert plan.to_read == ("b.md", "new.md")
    assert plan.vanished == ("gone.md",)


@pytest.mark.parametrize(
    ("read", "vanished", "touches", "moves", "to_parse"),
    [
        ({"a.md": "h1"}, {}, ("a.md",), (), ()),  # touch: same bytes
        ({"a.md": "hX"}, {}, (), (), ("a.md",)),  # edited
        ({"new.md": "h9"}, {"h9": ["old.md"]}, (), (("old.md", "new.md"),), ()),  # moved
        ({"new.md": "h8"}, {"h9": ["old.md"]}, (), (), ("new.md",)),  # new file
        # two copies of one vanished file: only the first is the move
        (
            {"n1.md": "h9", "n2.md": "h9"},
            {"h9": ["old.md"]},
            (),
            (("old.md", "n1.md"),),
            ("n2.md",),
        ),
    ],
    ids=["touch", "edit", "move", "new", "copy-after-move"],
)
def test_plan_reads(read, vanished, touches, moves, to_parse):
    indexed = {"a.md": IndexedFile(1, 1, "h1", None)}
    plan = plan_reads(read, indexed, {k: list(v) for k, v in vanished.items()})
    assert plan.touches == touches
    assert plan.moves == moves
    assert plan.to_parse == to_parse


def test_match_moves_pairs_by_memory_id():
    assert match_moves({"b/x.md": "ID1", "c.md": "ID2"}, {"a/x.md": "ID1"}) == [
        ("a/x.md", "b/x.md")
    ]
    assert match_moves({"c.md": "ID2"}, {"a.md": "ID1"}) == []


# --- reconcile on real folders ---------------------------------------------------------------


def test_cold_sync_of_the_sample_vault(sample_dir: Path):
    with Vault.open(sample_dir) as vault:
        report = vault.sync()
        assert len(report.added) >= 34
        assert report.invalid == []
        assert len(report.ids_assigned) == 2  # the two hand-written notes
        again = vault.sync()
        assert not again.changed
        assert again.unchanged == len(report.added)
        assert vault.doctor().ok


def test_add_update_touch_remove(vault: Vault):
    root = vault.root
    note = write(root, "preference/Tea.md", good("Likes green tea."))
    assert vault.sync().added == ["preference/Tea.md"]
    assert vault.search("green")

    write(root, "preference/Tea.md", good("Likes black tea."))
    assert vault.sync().updated == ["preference/Tea.md"]
    assert vault.search("black") and not vault.search("green")

    os.utime(note, ns=(1, 1))  # touch: new mtime, same bytes
    report = vault.sync()
    assert not report.changed and report.unchanged == 1

    note.unlink()
    assert vault.sync().removed == ["preference/Tea.md"]
    assert not vault.search("black")
    assert vault.doctor().ok


def test_move_keeps_the_row_and_id(vault: Vault):
    write(vault.root, "preference/Tea.md", good("Likes green tea."))
    vault.sync()
    row_id = vault.index.get(path="preference/Tea.md")[0].rowid
    (vault.root / "habit").mkdir(exist_ok=True)
    shutil.move(vault.root / "preference/Tea.md", vault.root / "habit/Green tea.md")
    report = vault.sync()
    assert report.moved == [("preference/Tea.md", "habit/Green tea.md")]
    assert not report.removed and not report.added
    row = vault.index.get(path="habit/Green tea.md")[0]
    assert row.rowid == row_id
    assert row.memory_id == "01JDX3M7Q9T8ZK4W5N6P2R1S0V"
    assert row.title == "Green tea"
    assert vault.search("green")[0].path == "habit/Green tea.md"


def test_move_and_edit_is_matched_by_id(vault: Vault):
    write(vault.root, "preference/Tea.md", good("Likes green tea."))
    vault.sync()
    (vault.root / "preference/Tea.md").unlink()
    write(vault.root, "preference/Tea time.md", good("Likes green tea at four."))
    report = vault.sync()
    assert report.moved == [("preference/Tea.md", "preference/Tea time.md")]
    assert vault.search("four")[0].path == "preference/Tea time.md"


def test_folder_move(vault: Vault):
    for i in range(3):
        write(
            vault.root,
            f"notes/n{i}.md",
            good(f"Fact number {i}.", id=f"01JDX3M7Q9T8ZK4W5N6P2R1S0{i}"),
        )
    vault.sync()
    shutil.move(vault.root / "notes", vault.root / "archive")
    report = vault.sync()
    assert sorted(new for _, new in report.moved) == [f"archive/n{i}.md" for i in range(3)]
    assert vault.doctor().ok


def test_hand_written_note_gets_an_id_by_surgical_patch(vault: Vault):
    original = "---\ntype: habit\n# my own comment\ntags: [walk]\n---\nWalks after lunch.\n"
    path = write(vault.root, "habit/Walks.md", original)
    report = vault.sync()
    assert report.ids_assigned == ["habit/Walks.md"]
    patched = path.read_text()
    added = [line for line in patched.splitlines() if line not in original.splitlines()]
    assert [line.split(":")[0] for line in added] == ["id", "evidence", "created", "digest"]
    # with the added lines taken out, the file is the original byte for byte
    assert "".join(line + "\n" for line in patched.splitlines() if line not in added) == original
    row = vault.index.get(path="habit/Walks.md")[0]
    assert row.evidence == "manual" and row.memory_id
    assert not vault.sync().changed  # the patch is indexed, nothing left to do


def test_a_note_whose_opening_fence_was_deleted_is_invalid_and_left_alone(vault: Vault):
    """A user-style review: one `dd` on a note's first line made sync wrap the properties into
    a new memory's statement with a new id, and recall quoted the YAML to the assistant."""
    stored = vault.remember("preference", "Hates crowded places.", confidence=0.8)
    path = vault.root / stored.path
    headless = path.read_bytes().removeprefix(b"---\n")
    path.write_bytes(headless)
    report = vault.sync()
    assert report.ids_assigned == []
    assert [(p, "opening ---" in why) for p, why in report.invalid] == [(stored.path, True)]
    assert path.read_bytes() == headless  # not patched, not rewritten
    assert not vault.recall("crowded places")  # no YAML served as a memory
    path.write_bytes(b"---\n" + headless)  # put back: the same memory, its id kept
    assert vault.sync().invalid == []
    assert [r.id for r in vault.recall("crowded places")] == [stored.memory.id]


def test_a_hand_edit_keeps_the_comments_on_the_lines_tota_patches(vault: Vault):
    """A user-style review: a sync of a hand edit, and `confirm`, rewrote `confidence:` and
    dropped the person's comment on that line."""
    stored = vault.remember("preference", "Prefers tea.", confidence=0.7)
    path = vault.root / stored.path
    text = path.read_text().replace("confidence: 0.70", "confidence: 0.70  # my guess")
    text = text.replace("confidence: 0.7\n", "confidence: 0.7  # my guess\n")
    assert "# my guess" in text
    path.write_text(text.replace("Prefers tea.", "Prefers green tea."))
    assert vault.sync().changed
    assert "  # my guess\n" in path.read_text()
    vault.confirm(stored.memory.id)
    patched = path.read_text()
    assert "  # my guess\n" in patched and "Prefers green tea." in patched
    assert [line for line in patched.splitlines() if "# my guess" in line][0].startswith(
        "confidence: "
    )


def test_templates_folder_is_not_indexed(vault: Vault):
    (vault.root / ".obsidian").mkdir()
    (vault.root / ".obsidian/templates.json").write_text('{"folder": "Templates"}')
    template = write(vault.root, "Templates/goal.md", '---\ntype: goal\ncreated: "{{date}}"\n---\n')
    before = template.read_bytes()
    assert vault.sync().added == []
    assert template.read_bytes() == before


def test_delete_needs_proof(vault: Vault, monkeypatch: pytest.MonkeyPatch):
    """A file missing from the scan but back by the time rows are deleted is not dropped."""
    path = write(vault.root, "preference/Tea.md", good("Likes green tea."))
    vault.sync()
    import tota_vault.sync as sync_module

    real = sync_module.take_snapshot

    def snapshot_without_file(root, paths, blocked=None, **options):
        found = real(root, paths, blocked, **options)
        found.pop("preference/Tea.md", None)  # as if an editor had it renamed away mid-scan
        return found

    monkeypatch.setattr(sync_module, "take_snapshot", snapshot_without_file)
    report = vault.sync()
    assert report.removed == []
    assert path.exists() and vault.index.get(path="preference/Tea.md")


def test_reindex_gives_the_same_search_results(sample_dir: Path):
    with Vault.open(sample_dir) as vault:
        vault.sync()
        before = [h.path for h in vault.search("running", limit=20)]
        vault.reindex()
        assert [h.path for h in vault.search("running", limit=20)] == before
        shutil.rmtree(sample_dir / ".tota")
    with Vault.open(sample_dir) as vault:
        assert [h.path for h in vault.search("running", limit=20)] == before


def test_sync_of_only_some_paths(vault: Vault):
    write(vault.root, "preference/A.md", good("Alpha fact.", id="01JDX3M7Q9T8ZK4W5N6P2R1SA1"))
    write(vault.root, "preference/B.md", good("Bravo fact.", id="01JDX3M7Q9T8ZK4W5N6P2R1SB1"))
    report = vault.sync(paths=["preference/A.md"])
    assert report.added == ["preference/A.md"]
    assert not vault.search("bravo")


def test_a_note_an_editor_holds_is_reported_held_and_its_retries_change_nothing(vault: Vault):
    """A review: while vim had a note open, every retry of its patch was an "updated" (the
    daemon logged one every 3 s) and nothing said the hand edit waited for the editor."""
    stored = vault.remember("habit", "Runs four mornings a week.", evidence="direct")
    path = vault.root / stored.path
    swap = path.parent / f".{path.name}.swp"
    swap.write_bytes(b"b0VIM 9.0")  # vim has it open, and has saved it (`:w`)
    path.write_text(path.read_text().replace("four mornings", "five mornings"))
    waits = "its hand edit is recorded when the editor closes"
    first = vault.sync(quiet=0)
    assert first.updated == [stored.path] and first.hand_edits == []
    assert first.held == [(stored.path, waits)]
    assert [p for p, _ in first.deferred] == [stored.path]
    row = vault.index.get(path=stored.path)[0]
    assert "five mornings" in row.text and row.evidence == "manual"
    again = vault.sync(quiet=0)  # the retry: the same bytes, held still
    assert again.updated == [] and not again.changed and again.unchanged == 1
    assert again.held == [(stored.path, waits)] and [p for p, _ in again.deferred] == [stored.path]
    assert again.to_dict()["held"] == [{"path": stored.path, "waiting": waits}]
    assert vault.index.get(path=stored.path)[0] == row  # not written again
    path.write_text(path.read_text().replace("five mornings", "six mornings"))  # another `:w`
    saved = vault.sync(quiet=0)
    assert saved.updated == [stored.path] and saved.held == [(stored.path, waits)]
    swap.unlink()  # vim quit
    closed = vault.sync(quiet=0)
    assert closed.hand_edits == [stored.path] and closed.held == [] and closed.deferred == []
    assert "evidence: manual" in path.read_text() and "six mornings" in path.read_text()


def test_a_swap_file_of_a_vim_that_is_gone_holds_nothing(vault: Vault):
    """A vim killed (or a machine that crashed) leaves its swap file beside the note; waiting
    for that editor to close held the hand edit back forever. A swap file naming a process of
    this machine that no longer runs is stale, as vim itself calls it."""
    stored = vault.remember("habit", "Runs four mornings a week.", evidence="direct")
    path = vault.root / stored.path
    swap = path.parent / f".{path.name}.swp"
    swap.write_bytes(vim_block0(gone_pid(), socket.gethostname()))
    path.write_text(path.read_text().replace("four mornings", "five mornings"))
    report = vault.sync(quiet=0)
    assert report.held == [] and report.hand_edits == [stored.path]
    assert "evidence: manual" in path.read_text() and swap.exists()  # vim -r still has it


def test_a_persons_new_note_an_editor_holds_waits_for_its_id(vault: Vault):
    path = write(vault.root, "habit/Stretches.md", "---\ntype: habit\n---\nStretches daily.\n")
    (path.parent / ".Stretches.md.swp").write_bytes(b"b0VIM 9.0")
    report = vault.sync(quiet=0)
    assert report.added == ["habit/Stretches.md"] and report.ids_assigned == []
    assert report.held == [("habit/Stretches.md", "it is given an id when the editor closes")]
    assert vault.sync(quiet=0).added == []  # the retry adds nothing
