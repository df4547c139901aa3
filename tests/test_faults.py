"""Faults and damaged states, each made for real: links leading out of the vault, a garbled
index, a read-only index or folder, an index deleted under `tota watch`, a writer killed
mid-write, an unreadable note. Every one ends in one line that says what is wrong and what to
do, never a traceback, and where the index is only a cache tota repairs it by itself.

Tests run as root here and in CI, and root ignores file modes: the permission tests run tota
as `nobody` (see `test_bad_input.run_as`) in a vault that user owns.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pwd
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import index_sql, write
from test_bad_input import become, cli, fm, nobody, run_as
from watchkit import DaemonThread, WatchProcess, index_count, tota, wait_for

from tota_vault import Vault
from tota_vault.errors import ValidationError
from tota_vault.files import STALE_TEMP_SECONDS, TEMP_PATTERN, fingerprint_of
from tota_vault.index import Index, record_from_note
from tota_vault.notes import parse_note
from tota_vault.paths import index_path
from tota_vault.vault import GITIGNORE_LINES

SECRET = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA quokkawordsecret\n"
TEA = "preference/Likes tea.md"
TEA_TEXT = fm("type: preference\n", "Likes green tea in the morning.")


def searched(vault: Vault, query: str) -> list[str]:
    return [hit.path for hit in vault.search(query, limit=50)]


def recalled(vault: Vault, query: str) -> list[str]:
    return [r.path for r in vault.recall(query, 20)]


# --- links that lead outside the vault ----------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A private folder beside the vault: a 'key' and a folder of notes."""
    folder = tmp_path / "home"
    write(folder, ".ssh/id_ed25519", SECRET)
    write(folder, "work/Plan.md", fm("type: project\n", "The zanzibar rollout plan."))
    return folder


def test_note_linked_outside_is_never_read(vault_dir: Path, outside: Path) -> None:
    write(vault_dir, TEA, TEA_TEXT)
    link = vault_dir / "preference" / "Keys.md"
    link.symlink_to(outside / ".ssh" / "id_ed25519")
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        reasons = dict(report.invalid)
        assert "outside the vault" in reasons["preference/Keys.md"]
        assert "follow_external_links" in reasons["preference/Keys.md"]
        assert searched(vault, "quokkawordsecret") == []
        assert searched(vault, "OPENSSH") == []
        assert "preference/Keys.md" not in recalled(vault, "keys openssh private key")
        assert searched(vault, "green tea") == [TEA]
        with pytest.raises(Exception, match="outside the vault"):
            vault.read("preference/Keys.md")
        again = vault.sync()  # not "updated" on every sync: a doctor can come out clean
        assert not again.changed and again.updated == []
        doctor = vault.doctor()
        assert not doctor.ok and "preference/Keys.md" in dict(doctor.invalid)
        assert doctor.drift == []
    result = cli(vault_dir, "sync")
    assert result.exit_code == 0 and "preference/Keys.md" in result.output
    assert "outside the vault" in result.output
    result = cli(vault_dir, "doctor")
    assert result.exit_code == 1 and "preference/Keys.md" in result.output
    assert os.readlink(link) == str(outside / ".ssh" / "id_ed25519")  # left as it was
    link.unlink()
    with Vault.open(vault_dir) as vault:
        vault.sync()
        assert vault.doctor().ok


def test_a_key_indexed_before_leaves_the_index(vault_dir: Path, outside: Path) -> None:
    """A vault whose index was filled while links were followed: the text goes at the next
    sync once the switch is off."""
    (vault_dir / "preference" / "Keys.md").symlink_to(outside / ".ssh" / "id_ed25519")
    write(vault_dir, "tota.toml", "[sync]\nfollow_external_links = true\n")
    with Vault.open(vault_dir) as vault:
        vault.sync()
        assert searched(vault, "quokkawordsecret") == ["preference/Keys.md"]
        write(vault_dir, "tota.toml", "[sync]\nfollow_external_links = false\n")
        vault.sync()
        assert searched(vault, "quokkawordsecret") == []
        row = vault.index.get(path="preference/Keys.md")[0]
        assert "quokka" not in row.body + row.text


def test_a_linked_folder_indexed_before_leaves_the_index(vault_dir: Path, outside: Path) -> None:
    (vault_dir / "project" / "work").symlink_to(outside / "work", target_is_directory=True)
    write(vault_dir, "tota.toml", "[sync]\nfollow_external_links = true\n")
    with Vault.open(vault_dir) as vault:
        vault.sync()
        assert searched(vault, "zanzibar") == ["project/work/Plan.md"]
        write(vault_dir, "tota.toml", "[sync]\nfollow_external_links = false\n")
        report = vault.sync()
        assert report.removed == ["project/work/Plan.md"]
        assert searched(vault, "zanzibar") == []
    assert (outside / "work" / "Plan.md").exists()  # the row went, never the file


def test_folder_linked_outside_is_not_entered(vault_dir: Path, outside: Path) -> None:
    (vault_dir / "project" / "work").symlink_to(outside / "work", target_is_directory=True)
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        assert [p for p, _ in report.links] == ["project/work/"]
        assert "outside the vault" in report.links[0][1]
        assert searched(vault, "zanzibar") == []
        vault.sync(paths=["project/work/Plan.md"])  # the daemon's path: judged the same way
        assert searched(vault, "zanzibar") == []
        doctor = vault.doctor()
        assert not doctor.ok and [p for p, _ in doctor.links] == ["project/work/"]
    result = cli(vault_dir, "doctor")
    assert result.exit_code == 1 and "project/work/" in result.output


def test_links_inside_the_vault_stay_fine(vault_dir: Path) -> None:
    write(vault_dir, "notes/Shared.txt", "Carries the walrus handbook.\n")
    (vault_dir / "goal" / "Shared.md").symlink_to(vault_dir / "notes" / "Shared.txt")
    (vault_dir / "goal" / "Inner").symlink_to(vault_dir / "preference", target_is_directory=True)
    write(vault_dir, TEA, TEA_TEXT)
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        assert report.invalid == [] and report.links == []
        assert searched(vault, "walrus") == ["goal/Shared.md"]  # not a note there: read here
        assert searched(vault, "green tea") == [TEA]  # once, at its real path
        assert not vault.sync().changed  # a link is never patched, so never "updated" again
        assert (vault_dir / "goal" / "Shared.md").is_symlink()
        assert vault.doctor().ok


GIT_CONFIG = '[remote "origin"]\n\turl = https://me:GITCREDZZ@example.com/v.git\n'


@pytest.mark.parametrize("folder", [".git", ".tota", ".stash"])
@pytest.mark.parametrize("follow", [False, True], ids=["default", "follow_external"])
def test_a_link_into_a_hidden_folder_is_never_read(
    vault_dir: Path, folder: str, follow: bool
) -> None:
    """`.git/config` can hold a token: a note linked to it must not make it searchable, and
    `follow_external_links` (for links outside the vault) does not open it either."""
    write(vault_dir, f"{folder}/config", GIT_CONFIG)
    write(vault_dir, TEA, TEA_TEXT)
    (vault_dir / "goal" / "g.md").symlink_to(f"../{folder}/config")
    if follow:
        write(vault_dir, "tota.toml", "[sync]\nfollow_external_links = true\n")
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        assert "hidden folder" in dict(report.invalid)["goal/g.md"]
        assert searched(vault, "GITCREDZZ") == []
        assert searched(vault, "origin") == []
        vault.sync(paths=["goal/g.md"])  # the daemon's path: judged the same way
        assert searched(vault, "GITCREDZZ") == []
        row = vault.index.get(path="goal/g.md")[0]
        assert "GITCREDZZ" not in row.body + row.text
        with pytest.raises(Exception, match="hidden folder"):
            vault.read("goal/g.md")
        assert "goal/g.md" in dict(vault.doctor().invalid)
        assert not vault.sync().changed
    result = cli(vault_dir, "search", "GITCREDZZ")
    assert "GITCREDZZ" not in result.output.replace("'GITCREDZZ'", "")
    assert (vault_dir / folder / "config").read_text() == GIT_CONFIG  # left as it was


def test_a_note_linked_to_another_note_is_one_memory(vault_dir: Path) -> None:
    """The link stands for its target: recalled once, no duplicate id, and `forget` by the
    link's path forgets the memory (the real note) and never deletes the link itself."""
    result = cli(vault_dir, "add", "preference", "Likes pottery classes")
    assert result.exit_code == 0, result.output
    real = "preference/Likes pottery classes.md"
    link = vault_dir / "goal" / "a-link.md"
    link.symlink_to(f"../{real}")
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        assert "goal/a-link.md" not in report.added + report.updated
        assert recalled(vault, "pottery") == [real]
        assert searched(vault, "pottery") == [real]
        vault.sync(paths=["goal/a-link.md"])  # the daemon's event for the link
        assert searched(vault, "pottery") == [real]
        doctor = vault.doctor()
        assert doctor.ok and doctor.duplicate_ids == {}
        assert doctor.aliases == [("goal/a-link.md", real)]
        assert vault.resolve("goal/a-link.md") == real
    result = cli(vault_dir, "forget", "goal/a-link.md")
    assert result.exit_code == 0 and f"Forgot {real}" in result.output, result.output
    assert not (vault_dir / real).exists()  # the memory is gone ...
    assert link.is_symlink()  # ... the link (now dangling) is the person's, left alone
    with Vault.open(vault_dir) as vault:
        assert searched(vault, "pottery") == []


def test_a_link_indexed_before_leaves_the_index(vault_dir: Path) -> None:
    """An index filled by an older tota holds the link's row: the next sync drops it."""
    write(vault_dir, TEA, TEA_TEXT)
    (vault_dir / "goal" / "Tea link.md").symlink_to(f"../{TEA}")
    with Vault.open(vault_dir) as vault:
        vault.sync()
        data = (vault_dir / TEA).read_bytes()
        fp = fingerprint_of(vault_dir / TEA)
        assert fp is not None
        old_row = record_from_note(parse_note(data, "goal/Tea link.md"), fp)
        vault.index.apply(upserts=[old_row])
        assert len(searched(vault, "green tea")) == 2
        report = vault.sync()
        assert report.removed == ["goal/Tea link.md"]
        assert searched(vault, "green tea") == [TEA]


def test_a_plain_path_outside_is_not_called_a_link(vault_dir: Path, outside: Path) -> None:
    result = cli(vault_dir, "show", "../home/work/Plan.md")
    assert result.exit_code != 0
    assert "outside the vault" in result.output and "a link" not in result.output


def test_follow_external_links_reads_them(vault_dir: Path, outside: Path) -> None:
    write(vault_dir, "tota.toml", "[sync]\nfollow_external_links = true\n")
    (vault_dir / "project" / "work").symlink_to(outside / "work", target_is_directory=True)
    (vault_dir / "project" / "Notes.md").symlink_to(outside / "work" / "Plan.md")
    before = (outside / "work" / "Plan.md").read_bytes()
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        assert report.links == [] and report.invalid == []
        assert sorted(searched(vault, "zanzibar")) == ["project/Notes.md", "project/work/Plan.md"]
        assert not vault.sync().changed
    assert (outside / "work" / "Plan.md").read_bytes() == before  # never written through


@pytest.mark.parametrize("value", ["1", '"yes"', "[true]"])
def test_a_bad_follow_switch_is_one_line(vault_dir: Path, value: str) -> None:
    write(vault_dir, "tota.toml", f"[sync]\nfollow_external_links = {value}\n")
    with Vault.open(vault_dir) as vault, pytest.raises(ValidationError) as caught:
        vault.sync()
    assert "tota.toml" in str(caught.value) and "follow_external_links" in str(caught.value)
    assert "\n" not in str(caught.value)


# --- file modes of the index --------------------------------------------------------------------


def modes(folder: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.glob("index.db*")}


def test_index_files_are_private(vault_dir: Path) -> None:
    write(vault_dir, TEA, TEA_TEXT)
    old = os.umask(0o022)
    try:
        with Vault.open(vault_dir) as vault:
            vault.sync()
            vault.remember("goal", "Run a marathon in spring")
            seen = modes(vault.state_dir)
            assert {"index.db", "index.db-wal", "index.db-shm"} <= set(seen)
            assert set(seen.values()) == {0o600}, seen
    finally:
        os.umask(old)


def test_an_index_made_by_an_older_tota_is_made_private(vault_dir: Path) -> None:
    write(vault_dir, TEA, TEA_TEXT)
    with Vault.open(vault_dir) as vault:
        vault.sync()
    db = index_path(vault_dir)
    db.chmod(0o644)
    with Vault.open(vault_dir) as vault:
        assert searched(vault, "green tea") == [TEA]
        assert set(modes(vault.state_dir).values()) == {0o600}


# --- a garbled index ---------------------------------------------------------------------------


def garble_header(db: Path) -> None:
    with open(db, "r+b") as handle:
        handle.write(b"\xde\xad\xbe\xef" * 8)


def garble_text(db: Path) -> None:
    """Overwrite bytes inside a row's text: the record stays sound, the text is not UTF-8."""
    data = db.read_bytes()
    at = data.index(b"in the morning")
    with open(db, "r+b") as handle:
        handle.seek(at)
        handle.write(b"\xff\xfe\xfd\xfc" * 3)


def garble_table(db: Path) -> None:
    """Overwrite the b-tree page header of the notes table."""
    conn = sqlite3.connect(db)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'notes'").fetchone()[0]
    conn.close()
    with open(db, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\x77" * 12)


GARBLES = {"header": garble_header, "text": garble_text, "table": garble_table}


@pytest.fixture
def synced_vault(vault_dir: Path) -> Path:
    write(vault_dir, TEA, TEA_TEXT)
    for n in range(30):
        write(vault_dir, f"goal/Goal {n}.md", fm("type: goal\n", f"Reach milestone {n} soon."))
    with Vault.open(vault_dir) as vault:
        vault.sync()
    return vault_dir


COMMANDS = [
    ("search", "green tea"),
    ("recall", "green tea in the morning"),
    ("sync",),
    ("doctor",),
    ("status",),
    ("add", "goal", "Learn the cello"),
    ("extract", "TALK"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
@pytest.mark.parametrize("garble", list(GARBLES), ids=list(GARBLES))
def test_garbled_index_is_moved_aside_and_rebuilt(
    synced_vault: Path, garble: str, command: tuple[str, ...]
) -> None:
    db = index_path(synced_vault)
    GARBLES[garble](db)
    with pytest.raises(sqlite3.DatabaseError):  # the garbling is real
        conn = sqlite3.connect(db)
        try:
            conn.execute("PRAGMA quick_check").fetchall()
            conn.execute("SELECT * FROM notes").fetchall()
        finally:
            conn.close()
    if command[0] == "extract":  # a merge look-up reads the statements' text
        talk = synced_vault.parent / "talk.txt"
        talk.write_text("user: I like green tea in the morning.\nuser: I prefer oolong.\n")
        command = ("extract", str(talk))
    done = tota(synced_vault, *command)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    notice = [line for line in done.stderr.splitlines() if "damaged" in line]
    if garble == "text" and command[0] in ("sync", "status", "add"):
        # These read no text column: the damage is not in their way, and nothing fails. The
        # next command that reads it (the search below) repairs it.
        assert notice == []
    else:
        assert len(notice) == 1, done.stderr
        assert str(db) in notice[0] and "rebuilt it from the notes" in notice[0]
        broken = db.parent.glob("index.db.broken-*")
        assert len([p for p in broken if not p.name.endswith(("-wal", "-shm"))]) == 1
    with Vault.open(synced_vault) as vault:
        assert searched(vault, "green tea") == [TEA]
        assert len(searched(vault, "milestone")) == 30
        assert vault.doctor().ok
        if command[0] == "extract":
            assert len(searched(vault, "oolong")) == 1
    if command[0] == "add":
        assert (synced_vault / "goal" / "Learn the cello.md").exists()
        with Vault.open(synced_vault) as vault:
            assert searched(vault, "cello") == ["goal/Learn the cello.md"]


def garble_path_index(db: Path, path: str = TEA) -> None:
    """Overwrite one note's path inside the path index's page: the page stays well formed
    (`quick_check` says ok), but the index no longer holds the row's real path."""
    conn = sqlite3.connect(db)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_notes_1'"
    ).fetchone()[0]
    conn.close()
    start = (root - 1) * page_size
    at = db.read_bytes()[start : start + page_size].index(path.encode())
    with open(db, "r+b") as handle:
        handle.seek(start + at + path.index("Likes"))
        handle.write(b"Lik3s")


def assert_path_index_damaged(db: Path) -> None:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        found = conn.execute("PRAGMA integrity_check").fetchall()
        assert "missing from index sqlite_autoindex_notes_1" in found[0][0], found
    finally:
        conn.close()


def test_doctor_finds_a_damaged_path_index(synced_vault: Path) -> None:
    db = index_path(synced_vault)
    garble_path_index(db)
    assert_path_index_damaged(db)  # the damage is real, and quick_check misses it
    done = tota(synced_vault, "doctor")
    assert "Traceback" not in done.stderr, done.stderr
    assert "sqlite_autoindex_notes_1" in done.stderr and "rebuilt it" in done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()


def test_a_repeated_path_is_a_damaged_index(synced_vault: Path) -> None:
    """Once a write went through the damaged path index, the table holds the path twice:
    search and recall never show it twice, and doctor rebuilds the index."""
    db = index_path(synced_vault)
    garble_path_index(db)
    write(synced_vault, TEA, fm("type: preference\n", "Likes green tea in the morning, hot."))
    with Vault.open(synced_vault) as vault:
        vault.sync()
        assert (
            index_sql(vault)
            .execute("SELECT count(*) FROM notes NOT INDEXED WHERE path = ?", (TEA,))
            .fetchone()[0]
            == 2
        )  # the duplicate row is real
        problems = vault.index.integrity_problems()
        assert any("indexed more than once" in p and TEA in p for p in problems), problems
        notices: list[str] = []
        vault.on_notice = notices.append
        assert recalled(vault, "green tea") == [TEA]
        assert len(notices) == 1 and "more than one row" in notices[0], notices
        assert searched(vault, "green tea") == [TEA]
        assert vault.doctor().ok
    garble_path_index(db)  # again, now through the CLI
    write(synced_vault, TEA, fm("type: preference\n", "Likes green tea, hot."))
    assert tota(synced_vault, "sync").returncode == 0
    done = tota(synced_vault, "doctor")
    assert done.returncode == 0 and "more than once" in done.stderr, done.stdout + done.stderr
    assert "duplicate id" not in done.stdout


def broken_files(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.glob("index.db.broken-*"))


def test_only_the_newest_damaged_index_is_kept(synced_vault: Path) -> None:
    """Each damaged index moved aside is a full copy of every memory's text: they never pile
    up, doctor names the one kept, and forget and clear delete it."""
    db = index_path(synced_vault)
    kept: list[str] = []
    for _ in range(3):
        garble_header(db)
        done = tota(synced_vault, "search", "milestone")
        assert done.returncode == 0 and "damaged" in done.stderr, done.stderr
        kept = broken_files(db)
        assert len([n for n in kept if not n.endswith(("-wal", "-shm"))]) == 1, kept
    newest = db.parent / [n for n in kept if not n.endswith(("-wal", "-shm"))][0]
    assert b"green tea" in newest.read_bytes()  # the copy really holds the memories' text
    done = tota(synced_vault, "doctor")
    assert done.returncode == 0, done.stdout + done.stderr  # a kept copy is not a fault
    line = next(line for line in done.stdout.splitlines() if "damaged index copy" in line)
    assert str(newest) in line and "ago" in line and f"rm {newest}*" in line
    with Vault.open(synced_vault) as vault:
        assert [p for p, _ in vault.doctor().broken_copies] == [str(newest)]
    result = cli(synced_vault, "add", "preference", "Likes oolong at noon")
    assert result.exit_code == 0, result.output
    done = tota(synced_vault, "forget", "preference/Likes oolong at noon.md")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deleted the damaged index copy" in done.stderr and newest.name in done.stderr
    assert broken_files(db) == []
    garble_header(db)
    assert tota(synced_vault, "search", "milestone").returncode == 0
    assert len(broken_files(db)) >= 1
    done = tota(synced_vault, "clear", "--yes")
    assert done.returncode == 0 and "damaged index copies too" in done.stdout, done.stdout
    assert broken_files(db) == []


def test_the_old_index_a_killed_reindex_left_is_named_and_deleted_by_forget(
    synced_vault: Path,
) -> None:
    """`tota reindex` moves the old index aside until the new one is built: killed between,
    it leaves `index.db.reindex`, a copy of every memory's text. Doctor names it, and forget
    deletes it with the forgotten memory."""
    db = index_path(synced_vault)
    left = db.parent / "index.db.reindex"
    left.write_bytes(db.read_bytes())
    with Vault.open(synced_vault) as vault:
        assert [p for p, _ in vault.doctor().broken_copies] == [str(left)]
    result = cli(synced_vault, "add", "preference", "Likes oolong at noon")
    assert result.exit_code == 0, result.output
    done = tota(synced_vault, "forget", "preference/Likes oolong at noon.md")
    assert done.returncode == 0 and left.name in done.stderr, done.stdout + done.stderr
    assert not left.exists()


def test_garbled_index_met_by_a_query_of_the_cli_itself(synced_vault: Path) -> None:
    """`tota overview` reads the profile with a query of its own, outside `Vault`'s guarded
    calls: the damage is repaired all the same, and a second run works."""
    garble_text(index_path(synced_vault))
    done = tota(synced_vault, "overview")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1 and "run the command again" in done.stderr, done.stderr
    assert "was damaged" in done.stderr
    again = tota(synced_vault, "overview")
    assert again.returncode == 0 and "31 memories" in again.stdout, again.stdout + again.stderr


def test_garbled_index_in_the_library(synced_vault: Path) -> None:
    notices: list[str] = []
    with Vault.open(synced_vault) as vault:
        vault.on_notice = notices.append
        vault.search("tea")  # opened while sound
        garble_text(index_path(synced_vault))
        vault.close()
        vault.on_notice = notices.append
        assert searched(vault, "green tea") == [TEA]
        assert recalled(vault, "green tea")
    assert len(notices) == 1 and "damaged" in notices[0]


def test_doctor_names_damaged_text(synced_vault: Path) -> None:
    with Vault.open(synced_vault) as vault:
        vault.open_index()
        garble_text(index_path(synced_vault))
        problems = vault.index.integrity_problems()
    assert any("not UTF-8" in p for p in problems), problems


# --- permissions: run tota as a user whom file modes bind ---------------------------------------


def warm_up(tmp_path: Path) -> None:
    """Load every module the commands need while still root (a child that dropped root may no
    longer read the interpreter's private folder)."""
    warm = tmp_path / "warm"
    talk = tmp_path / "talk.txt"
    talk.write_text("user: I prefer green tea over coffee.\n")
    for args in (["add", "goal", "Warm up"], ["extract", str(talk)], ["recall", "tea"],
                 ["status"], ["init"]):  # fmt: skip
        cli(warm, *args)
    with contextlib.redirect_stdout(io.StringIO()):
        Vault.open(warm).reindex()


@pytest.fixture
def other(tmp_path: Path) -> Iterator[tuple[Path, Callable[..., tuple[int, str]]]]:
    """A vault owned by `nobody`, and `run(*args)`: `tota --vault V ARGS` as `nobody`."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run tota as another user (file modes bind this user)")
    user = nobody()
    warm_up(tmp_path)
    base = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        base.chmod(0o777)
        root = base / "vault"
        Vault(root).init()
        write(root, TEA, TEA_TEXT)
        write(root, "goal/Run a marathon.md", fm("type: goal\n", "Run a marathon in spring."))
        chown_tree(root, user)
        base.joinpath("talk.txt").write_text("user: I prefer oolong over sencha.\n")

        def run(*args: str) -> tuple[int, str]:
            code, output = run_as(user, ["--vault", str(root), *args], base)
            assert "Traceback" not in output, output
            return code, output

        yield root, run
    finally:
        shutil.rmtree(base, ignore_errors=True)


def chown_tree(root: Path, user: pwd.struct_passwd) -> None:
    for folder, _dirs, files in os.walk(root):
        os.chown(folder, user.pw_uid, user.pw_gid)
        for name in files:
            os.chown(os.path.join(folder, name), user.pw_uid, user.pw_gid)


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("tota: error:")]
    assert len(lines) == 1, output
    return lines[0]


def test_read_only_index(other: tuple[Path, Callable[..., tuple[int, str]]]) -> None:
    root, run = other
    assert run("sync")[0] == 0
    db = index_path(root)
    db.chmod(0o400)

    code, output = run("sync")
    assert code == 1 and str(db) in one_line(output) and "chmod u+w" in output, output
    shm = Path(f"{db}-shm")  # SQLite made it with the index's mode: read-only too
    assert stat.S_IMODE(shm.stat().st_mode) & 0o200 == 0
    code, output = run("search", "green tea")
    assert code == 0 and "Likes tea" in output, output  # reading needs no writing

    code, output = run("add", "goal", "Learn the cello")
    line = one_line(output)
    assert code == 1 and "goal/Learn the cello.md was written" in line, output
    assert "tota sync" in line
    assert (root / "goal" / "Learn the cello.md").exists()  # written, and it said so

    code, output = run("extract", str(root.parent / "talk.txt"))
    assert code == 1 and str(db) in one_line(output), output

    code, output = run("doctor")
    assert code in (0, 1) and "Traceback" not in output

    db.chmod(0o600)  # fixed: no -shm to delete by hand, the next command just works
    code, output = run("sync")
    assert code == 0, output
    code, output = run("search", "cello")
    assert code == 0 and "Learn the cello" in output, output
    code, output = run("extract", str(root.parent / "talk.txt"), "-v")
    assert code == 0 and "oolong" in output.lower(), output


def hook_as(user: pwd.struct_passwd, event: str, stdin: str, root: Path) -> tuple[str, str]:
    """`run_hook` in a forked child that dropped to `user` (the hook's stdout, stderr)."""
    out = Path(tempfile.mkdtemp(dir="/tmp")) / "hook.json"
    out.parent.chmod(0o777)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 70
        try:
            become(user)
            from tota_vault.hooks import run_hook

            result = run_hook(event, stdin, vault=root)
            out.write_text(json.dumps([result.stdout, result.stderr]))
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    try:
        assert os.waitstatus_to_exitcode(status) == 0
        stdout, stderr = json.loads(out.read_text())
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)
    return stdout, stderr


def test_a_read_only_vault_can_be_read(other: tuple[Path, Callable[..., tuple[int, str]]]) -> None:
    """A vault nobody may write (`chmod -R a-w`, as its owner): reading commands show the
    index as last synced and say so once; writing commands fail with one line."""
    root, run = other
    assert run("sync")[0] == 0
    subprocess.run(["chmod", "-R", "a-w", str(root)], check=True)
    db = index_path(root)
    try:
        for args, expect in (
            (("search", "green tea"), "Likes tea"),
            (("recall", "green tea in the morning"), "Likes green tea"),
            (("overview",), "Likes green tea"),
            (("status",), "memories: 2"),
            (("doctor",), ""),
        ):
            code, output = run(*args)
            notices = [line for line in output.splitlines() if "read-only" in line]
            assert code == 0 and expect in output, (args, output)
            assert len(notices) == 1 and str(db) in notices[0], (args, output)
            assert "showing it as last synced" in notices[0]
            assert "tota: error" not in output
        stdout, stderr = hook_as(nobody(), "prompt", json.dumps({"prompt": "green tea"}), root)
        assert "Likes green tea" in stdout and "read-only" in stderr, (stdout, stderr)
        code, output = run("sync")
        assert code == 1 and "chmod u+w" in one_line(output), output
        code, output = run("add", "goal", "Learn the cello")
        # refused before the note, by the index that could not record it (or by its folder)
        assert code == 1 and str(db) in one_line(output), output
        assert not (root / "goal" / "Learn the cello.md").exists()
        assert sorted(p.name for p in db.parent.iterdir()) == ["index.db"]  # nothing made
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(root)], check=True)
    code, output = run("sync")
    assert code == 0 and "read-only" not in output, output


def test_read_only_state_folder(other: tuple[Path, Callable[..., tuple[int, str]]]) -> None:
    root, run = other
    state = root / ".tota"
    state.mkdir(exist_ok=True)
    os.chown(state, nobody().pw_uid, nobody().pw_gid)
    state.chmod(0o500)
    try:
        for args in (("sync",), ("search", "tea"), ("doctor",), ("add", "goal", "Sail")):
            code, output = run(*args)
            assert code == 1 and str(state) in one_line(output), (args, output)
        assert not (root / "goal" / "Sail.md").exists()  # refused before anything was written
    finally:
        state.chmod(0o700)
    code, output = run("sync")
    assert code == 0, output


def test_a_read_only_state_folder_with_an_index_stops_a_write_before_it(
    other: tuple[Path, Callable[..., tuple[int, str]]],
) -> None:
    """A user-style review: with `.tota` read-only after the index was made, `tota add` wrote
    the note, then said the index could not record it (README: "stops the write before
    anything is written")."""
    root, run = other
    assert run("sync")[0] == 0
    state = root / ".tota"
    state.chmod(0o555)
    try:
        code, output = run("add", "habit", "Walks the dog daily")
        assert code == 1 and "was written" not in output, output
        assert str(state) in one_line(output), output
        assert not (root / "habit" / "Walks the dog daily.md").exists()
        code, output = run("search", "tea")
        assert code == 0 and "Likes tea" in output, output  # reading needs no writing
    finally:
        state.chmod(0o700)
    assert run("add", "habit", "Walks the dog daily")[0] == 0


def test_a_read_only_state_folder_stops_a_sync_before_it_gives_an_id(
    other: tuple[Path, Callable[..., tuple[int, str]]],
) -> None:
    """A review: with `.tota` read-only, `tota sync` wrote an id into a hand-written note,
    then failed because the index could not record it."""
    root, run = other
    assert run("sync")[0] == 0
    hand = write(root, "habit/Reads.md", "---\ntype: habit\n---\nReads before bed.\n")
    chown_tree(root, nobody())
    state = root / ".tota"
    state.chmod(0o555)
    try:
        code, output = run("sync")
        assert code == 1 and str(state) in one_line(output), output
        assert hand.read_text() == "---\ntype: habit\n---\nReads before bed.\n"
    finally:
        state.chmod(0o700)
    assert run("sync")[0] == 0 and "id:" in hand.read_text()


def test_clear_with_a_read_only_type_folder_deletes_nothing(
    other: tuple[Path, Callable[..., tuple[int, str]]],
) -> None:
    """A user-style review: `tota clear --yes` with one read-only type folder deleted the
    notes before it, stopped, and left the deleted memories in the index (search still
    served their text)."""
    root, run = other
    assert run("sync")[0] == 0
    before = {p: p.read_bytes() for p in root.rglob("*.md")}
    (root / "goal").chmod(0o555)
    try:
        code, output = run("clear", "--yes")
        line = one_line(output)
        assert code == 1 and str(root / "goal") in line and "nothing was deleted" in line, output
        assert {p: p.read_bytes() for p in root.rglob("*.md")} == before
        code, output = run("search", "tea")
        assert code == 0 and "Likes tea" in output, output
    finally:
        (root / "goal").chmod(0o755)
    code, output = run("clear", "--yes")
    assert code == 0, output
    assert not list(root.rglob("*.md"))
    code, output = run("search", "tea")
    assert "Likes tea" not in output, output


def test_watch_with_a_read_only_state_folder(
    other: tuple[Path, Callable[..., tuple[int, str]]],
) -> None:
    root, run = other
    state = root / ".tota"
    state.mkdir(exist_ok=True)
    os.chown(state, nobody().pw_uid, nobody().pw_gid)
    state.chmod(0o500)
    try:
        code, output = run("watch")
        assert code == 1 and str(state) in one_line(output), output
    finally:
        state.chmod(0o700)


def test_read_only_type_folder(other: tuple[Path, Callable[..., tuple[int, str]]]) -> None:
    root, run = other
    assert run("sync")[0] == 0
    (root / "goal").chmod(0o500)
    try:
        code, output = run("add", "goal", "Climb a mountain")
        line = one_line(output)
        assert code == 1 and f"{root / 'goal'} is writable" in line, output
        assert sorted(p.name for p in (root / "goal").iterdir()) == ["Run a marathon.md"]
        code, output = run("sync")
        assert code == 0, output
        # A conversation whose first memory is written and whose second cannot be: the first
        # is indexed all the same, and the output names it.
        talk = root.parent / "goals.txt"
        talk.write_text(
            "user: I prefer jasmine tea over coffee.\n"
            "user: My goal is to climb Mont Blanc next summer.\n"
        )
        code, output = run("extract", str(talk))
        assert code == 1 and f"{root / 'goal'} is writable" in one_line(output), output
        assert "written and indexed before the error: preference/" in output, output
        code, output = run("search", "jasmine")
        assert code == 0 and "jasmine" in output.lower(), output
    finally:
        (root / "goal").chmod(0o700)


def test_read_only_parent_of_the_vault(
    other: tuple[Path, Callable[..., tuple[int, str]]],
) -> None:
    root, run = other
    parent = root.parent / "locked"
    parent.mkdir()
    parent.chmod(0o555)
    missing = parent / "vault"
    for args in (("init",), ("add", "goal", "Swim")):
        code, output = run_as(nobody(), ["--vault", str(missing), *args], root.parent)
        assert "Traceback" not in output
        assert code == 1 and f"{missing}: cannot create" in one_line(output), output
    assert not missing.exists()


def test_unreadable_note_keeps_its_last_good_row(
    other: tuple[Path, Callable[..., tuple[int, str]]],
) -> None:
    root, run = other
    assert run("sync")[0] == 0
    note = root / TEA
    note.chmod(0)

    code, output = run("doctor")  # same size and mtime: only an access check sees it
    assert code == 1 and f"unreadable: {TEA}: permission denied" in output, output

    note.write_bytes(fm("type: preference\n", "Likes green tea and sencha."))  # edited
    code, output = run("sync")
    assert code == 0 and f"unreadable: {TEA}" in output, output
    code, output = run("search", "green tea")
    assert code == 0 and "Likes tea" in output, output  # the last good row stays
    code, output = run("recall", "green tea")
    assert code == 0 and "green tea" in output, output
    code, output = run("doctor")
    assert code == 1 and TEA in output, output

    note.chmod(0o644)
    code, output = run("sync")
    assert code == 0 and "unreadable" not in output, output
    code, output = run("search", "sencha")
    assert code == 0 and "Likes tea" in output, output
    assert run("doctor")[0] == 0


# --- the index deleted while the daemon runs ----------------------------------------------------


def delete_index(root: Path) -> None:
    for name in ("index.db", "index.db-wal", "index.db-shm"):
        with contextlib.suppress(FileNotFoundError):
            (root / ".tota" / name).unlink()


def test_index_deleted_under_the_daemon_is_rebuilt(vault_dir: Path) -> None:
    write(vault_dir, TEA, TEA_TEXT)
    daemon = DaemonThread(vault_dir)
    daemon.start()
    try:
        wait_for(lambda: index_count(vault_dir) == 1, what="the first sync")
        delete_index(vault_dir)
        wait_for(lambda: index_count(vault_dir) == 1, what="a new index with the note")
        write(vault_dir, "goal/Sail.md", fm("type: goal\n", "Sail around the island."))
        wait_for(lambda: index_count(vault_dir) == 2, what="the new note in the new index")
    finally:
        daemon.stop()
    with Vault.open(vault_dir) as vault:
        assert searched(vault, "island") == ["goal/Sail.md"]


def test_index_deleted_under_an_open_vault(vault_dir: Path) -> None:
    """Writes into an index whose files were deleted succeed, into files nobody reads again:
    the vault sees the file is gone, opens a new one and fills it from the notes."""
    write(vault_dir, TEA, TEA_TEXT)
    notices: list[str] = []
    with Vault.open(vault_dir) as vault:
        vault.on_notice = notices.append
        vault.sync()
        delete_index(vault_dir)
        stored = vault.remember("goal", "Sail around the island")
        assert index_path(vault_dir).exists()
        assert searched(vault, "island") == [stored.path]
        assert searched(vault, "green tea") == [TEA]
    assert len(notices) == 1 and "deleted or replaced" in notices[0]


def test_state_folder_deleted_under_tota_watch(vault_dir: Path, tmp_path: Path) -> None:
    write(vault_dir, TEA, TEA_TEXT)
    watch = WatchProcess(vault_dir, tmp_path / "watch.log")
    try:
        watch.wait_watching()
        shutil.rmtree(vault_dir / ".tota")
        wait_for(lambda: index_count(vault_dir) == 1, what="a new index with the note")
        write(vault_dir, "goal/Sail.md", fm("type: goal\n", "Sail around the island."))
        wait_for(lambda: index_count(vault_dir) == 2, what="the new note in the new index")
        watch.signal(signal.SIGTERM)
        assert watch.wait() == 0
    finally:
        watch.kill()
    assert "Traceback" not in watch.log()
    assert "deleted or replaced" in watch.log()


def test_tota_watch_rebuilds_a_garbled_index(synced_vault: Path, tmp_path: Path) -> None:
    garble_table(index_path(synced_vault))
    watch = WatchProcess(synced_vault, tmp_path / "watch.log")
    try:
        watch.wait_watching()
        write(synced_vault, "goal/Sail.md", fm("type: goal\n", "Sail around the island."))
        wait_for(lambda: index_count(synced_vault) == 32, what="the new note in a new index")
        watch.signal(signal.SIGTERM)
        assert watch.wait() == 0
    finally:
        watch.kill()
    assert "Traceback" not in watch.log()
    assert "was damaged" in watch.log() and "rebuilt it from the notes" in watch.log()


# --- a writer killed mid-write ------------------------------------------------------------------

STUCK_WRITER = """
import os, sys, time
from pathlib import Path
from tota_vault.files import atomic_write

def stuck(fd):  # the temp file is written and open: stop here until killed
    print("writing", flush=True)
    time.sleep(120)

os.fsync = stuck
atomic_write(Path(sys.argv[1]), b"---\\ntype: goal\\n---\\nHalf a thought.\\n", expected=None)
"""


@contextlib.contextmanager
def stuck_writer(target: Path) -> Iterator[subprocess.Popen[str]]:
    """A real process caught inside `atomic_write`, its temp file written and held open."""
    proc = subprocess.Popen(
        [sys.executable, "-c", STUCK_WRITER, str(target)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "writing\n"
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()


def temps(root: Path) -> list[Path]:
    return sorted(root.rglob(".*.tota.tmp"))


def backdate(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_temp_file_of_a_killed_writer(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    Vault(root).init(git=True)
    write(root, TEA, TEA_TEXT)
    assert TEMP_PATTERN in (root / ".gitignore").read_text().splitlines()
    with stuck_writer(root / "goal" / "Half.md") as proc:
        (temp,) = temps(root)
        backdate(temp, STALE_TEMP_SECONDS * 2)
        with Vault.open(root) as vault:
            report = vault.sync()  # old, but a live writer holds it: never taken from it
            assert report.swept == [] and temp.exists()
            assert vault.doctor().temp_files == []
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert temps(root) == [temp] and not (root / "goal" / "Half.md").exists()

    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    staged = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "tota.tmp" not in staged and "Likes tea.md" in staged

    os.utime(temp)  # as when the kill came just now
    with Vault.open(root) as vault:
        report = vault.sync()  # killed, but only just: it may be a slow writer still
        assert report.swept == [] and temp.exists()
        backdate(temp, STALE_TEMP_SECONDS + 60)
        doctor = vault.doctor()
        rel = temp.relative_to(root).as_posix()
        assert not doctor.ok and [p for p, _ in doctor.temp_files] == [rel]
    result = cli(root, "doctor")
    assert result.exit_code == 1 and rel in result.output
    result = cli(root, "sync")
    assert result.exit_code == 0 and rel in result.output
    assert temps(root) == []
    with Vault.open(root) as vault:
        assert vault.doctor().ok


def test_gitignore_gains_the_temp_pattern(vault_dir: Path) -> None:
    (vault_dir / ".gitignore").write_text(".tota/\n")
    Vault(vault_dir).init()
    assert (vault_dir / ".gitignore").read_text().splitlines() == [
        ".tota/",
        *(line for line in GITIGNORE_LINES if line != ".tota/"),
    ]


def test_doctor_names_a_git_vault_that_would_commit_temp_files(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    Vault(root).init(git=True)
    (root / ".gitignore").write_text(".tota/\n")
    with Vault.open(root) as vault:
        assert vault.doctor().gitignore_missing == [TEMP_PATTERN]
    Vault(root).init()
    with Vault.open(root) as vault:
        assert vault.doctor().ok


# --- a damaged index found by the library and the index checks ---------------------------------


def test_index_open_names_the_file_when_it_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    db.write_bytes(b"this is not a database, it is a note" * 200)
    with pytest.raises(Exception) as caught:
        Index.open(db)
    assert str(db) in str(caught.value) and "damaged" in str(caught.value)
