"""`tota doctor` (and the `tota sync` beside it) on a note an editor holds open."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tota_vault import Vault
from tota_vault.cli import app

runner = CliRunner()
WAITS = "its hand edit is recorded when the editor closes"


def tota(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_a_hand_edit_vim_holds_is_said_to_wait_for_the_editor_not_drift(vault_dir: Path):
    """A review: with vim holding a note after `:w`, doctor exited 1 with "drift: ... changed
    since it was indexed (run `tota sync`)", and `tota sync` said "1 updated" and did not (and
    rightly could not) patch it."""
    with Vault.open(vault_dir) as vault:
        stored = vault.remember("habit", "Runs four mornings a week.", evidence="direct")
    path = vault_dir / stored.path
    swap = path.parent / f".{path.name}.swp"
    swap.write_bytes(b"b0VIM 9.0")
    path.write_text(path.read_text().replace("four mornings", "five mornings"))
    v = str(vault_dir)
    before = tota("--vault", v, "doctor")  # not synced yet: the index is behind, that is drift
    assert before.exit_code == 1 and f"drift: {stored.path}: changed since" in before.output

    synced = tota("--vault", v, "sync")  # indexed; the patch waits for vim
    assert synced.exit_code == 0
    assert f"  held by an editor: {stored.path}: {WAITS}" in synced.output.splitlines()
    again = tota("--vault", v, "sync")
    assert again.output.startswith("Synced: 0 added, 0 updated, 0 moved, 0 removed, 1 unchanged")
    assert f"  held by an editor: {stored.path}: {WAITS}" in again.output.splitlines()
    assert "evidence: manual" not in path.read_text()

    held = tota("--vault", v, "doctor")
    assert held.exit_code == 0, held.output
    assert held.output.splitlines() == [
        f"held by an editor: {stored.path}: {WAITS} (fine)",
        "All good: 1 notes, index in sync.",
    ]

    swap.unlink()  # vim quit; no daemon ran: the patch is the next sync's, and doctor says so
    closed = tota("--vault", v, "doctor")
    assert closed.exit_code == 1
    assert closed.output.splitlines()[0] == (
        f"drift: {stored.path}: its hand edit is not written into it yet (run `tota sync`)"
    )
    assert "held by an editor" not in tota("--vault", v, "sync").output
    assert "evidence: manual" in path.read_text()
    assert tota("--vault", v, "doctor").exit_code == 0


def test_doctor_on_an_index_to_fill_writes_nothing_into_the_notes(vault_dir: Path):
    """A user review: after a sync killed with kill -9 (an index never filled), `tota doctor`
    rebuilt the index and wrote ids into all 2,028 hand notes, then said "All good". It
    checks, changes no note, and says what `tota sync` would write."""
    v = str(vault_dir)
    notes = {}
    for n in range(3):
        path = vault_dir / "habit" / f"Habit {n}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\ntype: habit\n---\nStretches {n} times a day.\n", "utf-8")
        notes[path] = path.read_bytes()
    for suffix in ("", "-wal", "-shm"):  # a sync that never finished: no filled index
        (vault_dir / ".tota" / f"index.db{suffix}").unlink(missing_ok=True)
    checked = tota("--vault", v, "doctor")
    assert checked.exit_code == 1, checked.output
    assert all(p.read_bytes() == data for p, data in notes.items())  # no id written
    drift = [line for line in checked.output.splitlines() if line.startswith("drift: ")]
    assert len(drift) == 3 and all("its id is not written into it yet" in d for d in drift)
    assert tota("--vault", v, "sync").exit_code == 0
    assert all(b"\nid: " in p.read_bytes() for p in notes)  # sync writes them
    assert tota("--vault", v, "doctor").exit_code == 0
