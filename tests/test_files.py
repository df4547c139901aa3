"""Files: which paths are notes, atomic writes that never clobber, scanning a vault."""

from __future__ import annotations

import os
import socket
import stat
import time
from pathlib import Path

import pytest
from conftest import gone_pid, vim_block0, write

from tota_vault.errors import NoteChangedError, WriteError
from tota_vault.files import (
    STALE_TEMP_SECONDS,
    FileStat,
    Snapshot,
    atomic_write,
    content_hash,
    emacs_lock_owner,
    fingerprint_of,
    held_by_editor,
    is_note_path,
    is_temp_name,
    note_link,
    owner_gone,
    scan_vault,
    sweep_temps,
    vim_swap_owner,
)

NOTE_PATHS = [
    ("a/b.md", True),
    ("goal/Run a marathon.md", True),
    ("README.MD", True),
    ("Note.Md", True),
    ("a/b/c/deep.md", True),
    ("sedative notes.md", True),
    ("2024.md", True),
    ("#tag.md", True),
    (".tota/index.md", False),
    (".obsidian/x.md", False),
    (".git/x.md", False),
    (".trash/x.md", False),
    ("goal/.obsidian/x.md", False),
    ("a/.hidden/x.md", False),
    ("node_modules/x.md", False),
    (".note.md.swp", False),
    (".note.md", False),
    ("goal/.note.md.swx", False),
    ("note.md~", False),
    ("4913", False),
    ("5036", False),
    ("#note.md#", False),
    (".#note.md", False),
    ("sedAb12Cd", False),
    ("x.tmp", False),
    ("x.md.tmp", False),
    (".x.md.abc.tota.tmp", False),
    ("x.md.vsctmp", False),
    ("x.md.orig", False),
    ("note.txt", False),
    ("note", False),
]


@pytest.mark.parametrize(("rel", "expected"), NOTE_PATHS, ids=[p for p, _ in NOTE_PATHS])
def test_is_note_path(rel: str, expected: bool) -> None:
    assert is_note_path(rel) is expected


# --- atomic_write ----------------------------------------------------------------------------


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_atomic_write_creates_private_file_and_folders(tmp_path: Path) -> None:
    target = tmp_path / "vault" / "goal" / "sub" / "Run.md"
    fp = atomic_write(target, b"Run a marathon.\n", expected=None)
    assert target.read_bytes() == b"Run a marathon.\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    for folder in (tmp_path / "vault", tmp_path / "vault" / "goal", target.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert fp.hash == content_hash(b"Run a marathon.\n")
    assert fp.size == len(b"Run a marathon.\n")
    assert fp.mtime_ns == target.stat().st_mtime_ns
    assert leftovers(target.parent) == []


def test_atomic_write_never_creates_over_an_existing_file(tmp_path: Path) -> None:
    target = write(tmp_path, "goal/Run.md", b"a person's words\n")
    before = target.stat().st_mtime_ns
    with pytest.raises(NoteChangedError, match="appeared"):
        atomic_write(target, b"tota's words\n", expected=None)
    assert target.read_bytes() == b"a person's words\n"
    assert target.stat().st_mtime_ns == before
    assert leftovers(target.parent) == []


def test_atomic_write_replaces_when_unchanged(tmp_path: Path) -> None:
    target = write(tmp_path, "goal/Run.md", b"old\n")
    fp = fingerprint_of(target)
    new = atomic_write(target, b"new\n", expected=fp)
    assert target.read_bytes() == b"new\n"
    assert new == fingerprint_of(target)
    assert leftovers(target.parent) == []


@pytest.mark.parametrize(
    "edit",
    [b"edited by hand\n", b"", b"old\n\n"],
    ids=["rewritten", "emptied", "one-byte-more"],
)
def test_atomic_write_refuses_when_the_file_changed(tmp_path: Path, edit: bytes) -> None:
    target = write(tmp_path, "goal/Run.md", b"old\n")
    fp = fingerprint_of(target)
    target.write_bytes(edit)  # a person saves in between
    mtime = target.stat().st_mtime_ns
    with pytest.raises(NoteChangedError, match="changed on disk"):
        atomic_write(target, b"tota's version\n", expected=fp)
    assert target.read_bytes() == edit
    assert target.stat().st_mtime_ns == mtime
    assert leftovers(target.parent) == []


def test_atomic_write_refuses_when_the_file_vanished(tmp_path: Path) -> None:
    target = write(tmp_path, "goal/Run.md", b"old\n")
    fp = fingerprint_of(target)
    target.unlink()
    with pytest.raises(NoteChangedError):
        atomic_write(target, b"new\n", expected=fp)
    assert not target.exists()
    assert leftovers(target.parent) == []


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644, 0o400])
def test_atomic_write_keeps_the_mode_of_a_replaced_file(tmp_path: Path, mode: int) -> None:
    target = write(tmp_path, "goal/Run.md", b"old\n")
    target.chmod(mode)
    atomic_write(target, b"new\n", expected=fingerprint_of(target))
    assert stat.S_IMODE(target.stat().st_mode) == mode
    assert target.read_bytes() == b"new\n"


def test_atomic_write_leaves_no_temp_file_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = write(tmp_path, "goal/Run.md", b"old\n")
    fp = fingerprint_of(target)

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(WriteError, match="Run.md: cannot write .No space"):
        atomic_write(target, b"new\n", expected=fp)
    with pytest.raises(WriteError, match="Fresh.md: cannot write .No space"):
        atomic_write(target.with_name("Fresh.md"), b"new\n", expected=None)
    monkeypatch.undo()
    assert target.read_bytes() == b"old\n"
    assert not target.with_name("Fresh.md").exists()
    assert sorted(p.name for p in target.parent.iterdir()) == ["Run.md"]


@pytest.mark.parametrize("existing", [False, True])
def test_atomic_write_makes_the_bytes_durable_before_the_name_then_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool
) -> None:
    # The order that makes a crash leave the old bytes or the new ones, never a torn note:
    # the temp file's bytes reach the disk (fsync) before it takes the note's name (link or
    # replace), and the folder is fsynced after, so the name survives too.
    target = tmp_path / "goal" / "Run.md"
    fp = fingerprint_of(write(tmp_path, "goal/Run.md", b"old\n")) if existing else None
    events: list[tuple[str, str]] = []
    real_fsync, real_link, real_replace = os.fsync, os.link, os.replace

    def fsync(fd: int) -> None:
        kind = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        events.append(("fsync", kind))
        real_fsync(fd)

    def link(src, dst) -> None:  # type: ignore[no-untyped-def]
        events.append(("name", os.path.basename(dst)))
        real_link(src, dst)

    def replace(src, dst) -> None:  # type: ignore[no-untyped-def]
        events.append(("name", os.path.basename(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "replace", replace)
    atomic_write(target, b"new\n", expected=fp)
    assert events == [("fsync", "file"), ("name", "Run.md"), ("fsync", "folder")]
    assert target.read_bytes() == b"new\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["Run.md"]


def test_atomic_write_does_not_write_through_a_symlink(tmp_path: Path) -> None:
    real = write(tmp_path, "elsewhere.md", b"real\n")
    link = tmp_path / "goal" / "link.md"
    link.parent.mkdir()
    link.symlink_to(real)
    with pytest.raises(NoteChangedError, match="symlink"):
        atomic_write(link, b"new\n", expected=fingerprint_of(link))
    assert real.read_bytes() == b"real\n"
    assert link.is_symlink()


# --- scan_vault ------------------------------------------------------------------------------


def test_scan_skips_dot_folders_and_artifacts(tmp_path: Path) -> None:
    for rel in [
        "goal/Run.md", "README.md", "deep/er/Note.md",
        ".tota/x.md", ".obsidian/x.md", ".git/x.md", ".trash/x.md", "goal/.hidden/x.md",
        "goal/.Run.md.swp", "goal/Run.md~", "goal/4913", "goal/#Run.md#", "goal/.#Run.md",
        "goal/sedAb12Cd", "goal/x.tmp", "goal/notes.txt",
    ]:  # fmt: skip
        write(tmp_path, rel, b"text\n")
    found = scan_vault(tmp_path)
    assert sorted(found) == ["README.md", "deep/er/Note.md", "goal/Run.md"]
    assert all(st.error is None and st.size == 5 for st in found.values())
    assert found["goal/Run.md"].mtime_ns == (tmp_path / "goal/Run.md").stat().st_mtime_ns


def test_scan_agrees_with_is_note_path(tmp_path: Path) -> None:
    """The walk judges a file by its name alone (its folders were judged on the way down):
    the same answer as `is_note_path` for every name of the path table above."""
    names = {rel.rsplit("/", 1)[-1] for rel, _ in NOTE_PATHS} - {""}
    names |= {".#Run.md", ".Run.md", "Run.md~", "#Run.md#", "4913", "sedAb12Cd", "Run.md.swp"}
    names = sorted(names | {"Run.bak.md", "sedAb12Cd.md", "4913.md", "~Run.md", "Run.tmp.md"})
    for name in names:
        write(tmp_path, "f/" + name, b"x\n")
    found = scan_vault(tmp_path)
    assert sorted(found) == sorted("f/" + n for n in names if is_note_path("f/" + n))


def test_snapshot_is_a_mapping_of_file_stats() -> None:
    snapshot = Snapshot()
    snapshot.add("a.md", 3, 30)
    snapshot.add("T/t.md", 4, 40)
    snapshot.add("bad.md", 0, 0, "symlink loop")
    assert snapshot == {
        "a.md": FileStat(3, 30),
        "T/t.md": FileStat(4, 40),
        "bad.md": FileStat(0, 0, "symlink loop"),
    }
    assert list(snapshot) == ["a.md", "T/t.md", "bad.md"]  # the walk's order
    assert snapshot.stamps["bad.md"] == (0, 0) and snapshot.errors == {"bad.md": "symlink loop"}
    assert sorted(snapshot.without_prefix("T/")) == ["a.md", "bad.md"]
    assert snapshot.pop("bad.md") == FileStat(0, 0, "symlink loop")
    assert snapshot.pop("bad.md") is None and "bad.md" not in snapshot.errors
    assert len(snapshot) == 2 and "bad.md" not in snapshot


SYMLINKS = [
    ("a.md", "a.md", "loop"),
    ("b.md", "missing.md", "broken"),
    ("c.md", "c2.md", "loop"),  # c.md -> c2.md -> c.md
]


@pytest.mark.parametrize(
    ("name", "target", "word"), SYMLINKS, ids=["self-loop", "dangling", "pair"]
)
def test_scan_reports_bad_symlinks(tmp_path: Path, name: str, target: str, word: str) -> None:
    write(tmp_path, "goal/Good.md", b"good\n")
    os.symlink(target, tmp_path / name)
    if name == "c.md":
        os.symlink("c.md", tmp_path / "c2.md")
    found = scan_vault(tmp_path)
    assert found[name].error is not None and word in found[name].error
    assert found["goal/Good.md"] == FileStat(5, found["goal/Good.md"].mtime_ns, None)


def test_scan_reads_a_symlinked_file_through_its_link(tmp_path: Path) -> None:
    write(tmp_path, "goal/Real.txt", b"real text\n")
    os.symlink("Real.txt", tmp_path / "goal" / "Link.md")
    found = scan_vault(tmp_path)
    assert found["goal/Link.md"].error is None
    assert found["goal/Link.md"].size == len(b"real text\n")


def test_scan_skips_a_note_linked_to_another_note(tmp_path: Path) -> None:
    write(tmp_path, "goal/Real.md", b"real text\n")
    os.symlink("Real.md", tmp_path / "goal" / "Link.md")
    aliases: list[tuple[str, str]] = []
    found = scan_vault(tmp_path, aliases=aliases)
    assert sorted(found) == ["goal/Real.md"]
    assert aliases == [("goal/Link.md", "goal/Real.md")]


LINK_VERDICTS = [
    # (target of goal/x.md, follow_external, verdict kind or None)
    ("../goal/Real.md", False, "alias"),
    ("../notes/Real.txt", False, None),
    ("../.git/config", False, "refused"),
    ("../.git/config", True, "refused"),
    ("../.tota/index.db", True, "refused"),
    ("../sub/.hidden/Real.md", True, "refused"),
    ("../.env", True, "refused"),
    ("../node_modules/pkg/README.md", True, "refused"),
    ("../../outside.md", False, "refused"),
    ("../../outside.md", True, None),
]


@pytest.mark.parametrize(("target", "follow", "kind"), LINK_VERDICTS)
def test_note_link_verdicts(tmp_path: Path, target: str, follow: bool, kind: str | None) -> None:
    root = tmp_path / "vault"
    for rel in ("goal/Real.md", "notes/Real.txt", ".git/config", ".tota/index.db",
                "sub/.hidden/Real.md", "node_modules/pkg/README.md", ".env"):  # fmt: skip
        write(root, rel, b"x\n")
    write(tmp_path, "outside.md", b"x\n")
    os.symlink(target, root / "goal" / "x.md")
    verdict = note_link(os.path.realpath(root), str(root / "goal" / "x.md"), follow_external=follow)
    assert (verdict[0] if verdict else None) == kind


@pytest.mark.parametrize("link_name", ["back", "back.md"])
def test_scan_does_not_follow_a_folder_link_back_to_the_root(
    tmp_path: Path, link_name: str
) -> None:
    root = tmp_path / "vault"
    write(root, "goal/Run.md", b"run\n")
    os.symlink(root, root / "goal" / link_name)
    os.symlink("..", root / "goal" / "up")
    found = scan_vault(root)
    assert sorted(found) == ["goal/Run.md"]


def test_scan_reports_a_fifo_without_opening_it(tmp_path: Path) -> None:
    write(tmp_path, "goal/Run.md", b"run\n")
    os.mkfifo(tmp_path / "pipe.md")
    found = scan_vault(tmp_path)  # opening a FIFO would block forever
    assert found["pipe.md"].error == "not a regular file"


def test_scan_of_a_missing_or_empty_root(tmp_path: Path) -> None:
    assert scan_vault(tmp_path / "nope") == {}
    (tmp_path / "empty").mkdir()
    assert scan_vault(tmp_path / "empty") == {}


# --- tota's temp files and links leading outside ------------------------------------------------


@pytest.mark.parametrize(
    ("name", "temp"),
    [
        (".Run a marathon.md.k2j3_x9a.tota.tmp", True),
        (".x.tota.tmp", True),
        ("x.tota.tmp", False),  # not ours: atomic_write's names start with a dot
        (".x.md.abc.tmp", False),
        (".x.tota.tmp.md", False),
        ("Run.md", False),
    ],
)
def test_is_temp_name(name: str, temp: bool) -> None:
    assert is_temp_name(name) is temp


def test_scan_collects_temp_files_and_never_indexes_them(tmp_path: Path) -> None:
    write(tmp_path, "goal/Run.md", b"run\n")
    write(tmp_path, "goal/.Run.md.abc123.tota.tmp", b"half\n")
    write(tmp_path, ".obsidian/.x.md.abc.tota.tmp", b"not walked\n")
    temps: list[str] = []
    found = scan_vault(tmp_path, temps=temps)
    assert sorted(found) == ["goal/Run.md"]
    assert temps == ["goal/.Run.md.abc123.tota.tmp"]


def test_sweep_temps_takes_only_stale_ones_nobody_holds(tmp_path: Path) -> None:
    fresh = write(tmp_path, "goal/.A.md.1.tota.tmp", b"a")
    stale = write(tmp_path, "goal/.B.md.2.tota.tmp", b"b")
    held = write(tmp_path, "goal/.C.md.3.tota.tmp", b"c")
    old = time.time() - STALE_TEMP_SECONDS - 60
    for path in (stale, held):
        os.utime(path, (old, old))
    rels = [p.relative_to(tmp_path).as_posix() for p in (fresh, stale, held)]
    with open(held, "ab"):  # a live writer holds it open for writing
        swept = sweep_temps(tmp_path, rels)
    assert swept == ["goal/.B.md.2.tota.tmp"]
    assert fresh.exists() and held.exists() and not stale.exists()


def test_scan_reports_links_leading_outside(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write(tmp_path, "outside/key", b"secret\n")
    write(tmp_path, "outside/notes/Plan.md", b"plan\n")
    write(root, "goal/Real.md", b"real\n")
    os.symlink(tmp_path / "outside" / "key", root / "goal" / "Key.md")
    os.symlink(tmp_path / "outside" / "notes", root / "goal" / "notes")
    os.symlink("Real.md", root / "goal" / "Inside.md")
    links: list[tuple[str, str]] = []
    found = scan_vault(root, links=links)
    assert "outside the vault" in (found["goal/Key.md"].error or "")
    assert "goal/Inside.md" not in found  # an alias of goal/Real.md, indexed there
    assert "goal/notes/Plan.md" not in found
    assert [p for p, _ in links] == ["goal/notes/"]
    followed = scan_vault(root, links=links, follow_external=True)
    assert followed["goal/Key.md"].error is None
    assert "goal/notes/Plan.md" in followed


def test_scan_follows_an_outside_folder_loop_once(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write(tmp_path, "outside/Plan.md", b"plan\n")
    os.symlink(tmp_path / "outside", tmp_path / "outside" / "again")
    root.mkdir()
    os.symlink(tmp_path / "outside", root / "out")
    found = scan_vault(root, follow_external=True)
    assert sorted(found) == ["out/Plan.md"]


def test_open_private_creates_0600_and_makes_an_older_file_private(tmp_path: Path):
    import stat

    from tota_vault.files import open_private

    previous = os.umask(0o022)
    try:
        with open_private(tmp_path / "new.lock") as handle:
            handle.write(b"one\n")
        older = tmp_path / "older.log"
        older.write_text("kept\n")
        older.chmod(0o644)
        with open_private(older, "a+", encoding="utf-8") as handle:
            handle.write("two\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.lock").stat().st_mode) == 0o600
    assert stat.S_IMODE(older.stat().st_mode) == 0o600
    assert older.read_text() == "kept\ntwo\n"  # appended, never truncated


HERE = socket.gethostname()

VIM_SWAPS = [  # (first bytes of the swap file, the owner read from them)
    (vim_block0(4242, "vm"), (4242, "vm")),
    (vim_block0(70000, "laptop.local", b"VIM 8.2"), (70000, "laptop.local")),
    (vim_block0(0, "vm"), None),  # names no process
    (vim_block0(4242, ""), None),  # names no machine
    (b"b0VIM 9.0", None),  # cut short
    (b"", None),
    (vim_block0(4242, "vm")[:100], None),  # the host name cut
    (b"notvim" + vim_block0(4242, "vm")[6:], None),  # another program's file
]


@pytest.mark.parametrize(("head", "owner"), VIM_SWAPS)
def test_vim_swap_owner(head: bytes, owner: tuple[int, str] | None):
    assert vim_swap_owner(head) == owner


EMACS_LOCKS = [  # (the lock link's target, the owner read from it)
    ("ana@vm.4242:1733140000", (4242, "vm")),
    ("ana@desk.example.org.977:1733140000", (977, "desk.example.org")),
    ("ana@vm.4242", (4242, "vm")),  # no boot time
    ("ana@vm.4242:-1", (4242, "vm")),
    ("ana@vm.0:1733140000", None),
    ("ana@vm:1733140000", None),  # no process id
    ("garbage", None),
    ("", None),
]


@pytest.mark.parametrize(("target", "owner"), EMACS_LOCKS)
def test_emacs_lock_owner(target: str, owner: tuple[int, str] | None):
    assert emacs_lock_owner(target) == owner


def test_owner_gone_only_for_a_process_of_this_machine_that_no_longer_runs():
    assert owner_gone(gone_pid(), HERE)
    assert not owner_gone(os.getpid(), HERE)  # running
    assert not owner_gone(gone_pid(), HERE + "-elsewhere")  # another machine: cannot tell
    assert not owner_gone(1, HERE)  # init: running, whoever owns it


@pytest.mark.parametrize(
    ("name", "content", "held"),
    [
        (".{}.swp", vim_block0(os.getpid(), HERE), True),  # a running vim
        (".{}.swp", vim_block0(gone_pid(), HERE), False),  # a vim that was killed
        (".{}.swo", vim_block0(gone_pid(), HERE), False),
        (".{}.swn", vim_block0(os.getpid(), HERE), True),
        (".{}.swp", vim_block0(gone_pid(), "elsewhere"), True),  # another machine's vim
        (".{}.swp", b"b0VIM 9.0", True),  # unreadable as vim's: the safe side
        (".{}.swp", b"", True),
    ],
)
def test_held_by_editor_reads_the_vim_swap_file(
    tmp_path: Path, name: str, content: bytes, held: bool
):
    note = write(tmp_path, "habit/Runs.md", "Runs.\n")
    write(tmp_path, f"habit/{name.format(note.name)}", content)
    assert held_by_editor(note) is held


@pytest.mark.parametrize(
    ("target", "held"),
    [
        (f"ana@{HERE}.{os.getpid()}:1733140000", True),
        (f"ana@{HERE}.{gone_pid()}:1733140000", False),
        (f"ana@elsewhere.{gone_pid()}:1733140000", True),
        ("not a lock", True),
    ],
)
def test_held_by_editor_reads_the_emacs_lock(tmp_path: Path, target: str, held: bool):
    note = write(tmp_path, "habit/Runs.md", "Runs.\n")
    os.symlink(target, tmp_path / "habit" / f".#{note.name}")  # a dangling link, as Emacs makes
    assert held_by_editor(note) is held
    assert not held_by_editor(write(tmp_path, "habit/Other.md", "Other.\n"))
