"""The sync daemon end to end: a real `Daemon` (or `tota watch` process) on a real folder,
driven by the tools people save notes with (vim, sed -i, atomic saves, git), checked by
polling the index with a deadline.

After each scenario the index must equal the vault (paths and hashes, and doctor from a
separate connection sees no drift), and evidence must be right in the index and in the note:
a person's edit is `manual`, tota's own writes never are.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from watchkit import (
    OPTIONS,
    DaemonThread,
    EventRecorder,
    WatchProcess,
    assert_in_sync,
    assert_not_manual,
    converge,
    evidence_line,
    fast_sealed,
    file_hashes,
    in_sync,
    index_count,
    index_rows,
    index_state,
    is_recorded_hand_edit,
    kept_lines,
    memory,
    put,
    row,
    tota,
    tota_write,
    wait_for,
)

from tota_vault import Vault
from tota_vault.files import content_hash
from tota_vault.model import MemoryType
from tota_vault.paths import index_path
from tota_vault.seal import MANUAL_CONFIDENCE, SealState, render_sealed, seal_state
from tota_vault.watch import (
    Daemon,
    DaemonRunningError,
    PendingPaths,
    WatchOptions,
    daemon_status,
    held_news,
    lock_path,
)

EDITOR = "preference/Editor.md"
EDITOR_TEXT = "Prefers Neovim over VS Code for editing."


@pytest.fixture
def start_daemon() -> Iterator[Callable[..., Daemon]]:
    """Start real daemons in threads; each is stopped and joined at teardown."""
    started: list[DaemonThread] = []

    def start(root: Path, options: WatchOptions = OPTIONS) -> Daemon:
        runner = DaemonThread(root, options)
        started.append(runner)
        return runner.start()

    yield start
    errors = []
    for runner in reversed(started):
        try:
            runner.stop()
        except BaseException as exc:  # stop them all, then report
            errors.append(exc)
    if errors:
        raise errors[0]


@pytest.fixture
def processes() -> Iterator[list[WatchProcess]]:
    """`tota watch` processes a test starts; any still running is killed at teardown."""
    running: list[WatchProcess] = []
    yield running
    for proc in running:
        proc.kill()


@pytest.fixture
def notes_dir(vault_dir: Path) -> Path:
    """A vault with a few notes tota wrote (sealed, evidence direct)."""
    put(vault_dir, EDITOR, render_sealed(memory("preference", EDITOR_TEXT)))
    put(
        vault_dir,
        "goal/Run a marathon.md",
        render_sealed(memory("goal", "Run a marathon in 2027.")),
    )
    put(vault_dir, "habit/Morning run.md", render_sealed(memory("habit", "Runs every morning.")))
    put(vault_dir, "README.md", "# My vault\n\nPlain notes live here too.\n")
    return vault_dir


def assert_hand_edit_recorded(root: Path, rel: str, edited: str, word: str) -> None:
    """Wait for a hand edit to be recorded, then check it was surgical and the index agrees."""
    wait_for(lambda: is_recorded_hand_edit(root, rel), what=f"{rel} to be recorded as manual")
    converge(root)
    text = (root / rel).read_text("utf-8")
    assert kept_lines(text) == kept_lines(edited), "a line the person wrote was changed"
    r = row(root, rel)
    assert r is not None and word in r["text"]
    assert r["confidence"] == MANUAL_CONFIDENCE


# --- how editors and tools save ----------------------------------------------------------------


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[list[str]]:
    """The tmux command for a private server (its socket in tmp_path), killed at teardown."""
    if shutil.which("tmux") is None or shutil.which("vim") is None:
        pytest.skip("needs tmux and vim")
    command = ["tmux", "-S", str(tmp_path / "tmux.sock")]
    yield command
    subprocess.run([*command, "kill-server"], capture_output=True, check=False)


def vim_command(path: Path) -> str:
    """vim on one note, with no vimrc. Outside /tmp vim saves by renaming the note to a backup
    and writing a new file; inside (pytest's tmp_path) only with an empty `backupskip` (field
    notes D)."""
    return f"vim -u NONE -N -c 'set backupskip= writebackup nobackup' {shlex.quote(str(path))}"


def text_or_nothing(path: Path) -> str:
    """The note's text, or "" in the moment vim's save has renamed it away (its backup dance)."""
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        return ""


def tmux_screen(tmux: list[str]) -> str:
    """What the tmux session "t" shows now."""
    return subprocess.run(
        [*tmux, "capture-pane", "-p", "-t", "t"], capture_output=True, text=True
    ).stdout


@pytest.mark.slow
def test_vim_save_through_tmux_is_a_hand_edit(notes_dir, tmux, start_daemon):
    path = notes_dir / EDITOR
    before = path.read_text("utf-8")
    vim = vim_command(path)
    start_daemon(notes_dir)

    def screen() -> str:
        return tmux_screen(tmux)

    def vim_running() -> bool:
        return (
            subprocess.run([*tmux, "has-session", "-t", "t"], capture_output=True).returncode == 0
        )

    with EventRecorder(notes_dir) as recorder:
        subprocess.run(
            [*tmux, "new-session", "-d", "-s", "t", "-x", "200", "-y", "50", vim], check=True
        )
        wait_for(lambda: "Prefers Neovim" in screen(), what="vim to show the note")
        subprocess.run([*tmux, "send-keys", "-t", "t", ":%s/Neovim/Helix/", "Enter"], check=True)
        subprocess.run([*tmux, "send-keys", "-t", "t", ":wq", "Enter"], check=True)
        wait_for(lambda: not vim_running(), what="vim to quit")
        edited = before.replace("Neovim", "Helix")
        assert_hand_edit_recorded(notes_dir, EDITOR, edited, "Helix")
    # The rename dance really happened: vim moved the note to its backup and wrote a new file.
    # (Not checked by inode: ext4 hands the freed inode of `f~` straight to tota's temp file,
    # so the patched note can get its first inode number back.)
    assert ("moved", str(path), str(path) + "~") in recorder.events
    assert ("created", str(path), "") in recorder.events
    assert not (notes_dir / (EDITOR + "~")).exists()
    assert not list(notes_dir.rglob("*.swp"))
    assert_not_manual(notes_dir, ["goal/Run a marathon.md", "habit/Morning run.md"])


@pytest.mark.slow
def test_vim_saving_twice_is_not_told_the_file_changed(notes_dir, tmux, start_daemon):
    """A user-style review: with the daemon running, vim warned at every second save that the
    file had changed since it was read (the daemon had patched `evidence: manual` into it),
    and answering "no" lost the edit. While vim's swap file is there the patch waits; the
    index records the edit at once, and the note is patched once vim has closed it."""
    path = notes_dir / EDITOR
    vim = vim_command(path)
    start_daemon(notes_dir)

    def screen() -> str:
        return tmux_screen(tmux)

    def keys(*typed: str) -> None:
        subprocess.run([*tmux, "send-keys", "-t", "t", *typed], check=True)

    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "t", "-x", "200", "-y", "50", vim], check=True
    )
    wait_for(lambda: "Prefers Neovim" in screen(), what="vim to show the note")
    keys(":%s/Neovim/Helix/", "Enter", ":w", "Enter")
    wait_for(lambda: "Helix" in (row(notes_dir, EDITOR) or {}).get("text", ""),
             what="the daemon to index the first save")  # fmt: skip
    assert (row(notes_dir, EDITOR) or {}).get("evidence") == "manual"
    # Past the quiet time (0.3 s) and the retry after it (1 s): before, the patch came here.
    time.sleep(1.6)
    assert "evidence: manual" not in path.read_text("utf-8")
    keys(":%s/Helix/Kakoune/", "Enter", ":w", "Enter")
    wait_for(lambda: "Kakoune" in text_or_nothing(path), what="the second save")
    assert "changed since reading" not in screen()
    keys(":q", "Enter")
    wait_for(lambda: "Kakoune" in (row(notes_dir, EDITOR) or {}).get("text", ""),
             what="the second save indexed")  # fmt: skip
    wait_for(lambda: is_recorded_hand_edit(notes_dir, EDITOR), what="the patch after vim quit")
    assert "Kakoune" in path.read_text("utf-8")


@pytest.mark.slow
def test_real_vim_between_w_and_q_is_logged_waiting_once(notes_dir, tmux, start_daemon, caplog):
    """The review's story with vim itself: `:w`, then the daemon's retries while vim stays
    open say nothing new, doctor says held (not drift), and `:q` lets the patch through."""
    caplog.set_level(logging.INFO, logger="tota.watch")
    path = notes_dir / EDITOR
    daemon = start_daemon(notes_dir)
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "t", "-x", "200", "-y", "50", vim_command(path)],
        check=True,
    )
    wait_for(lambda: "Prefers Neovim" in tmux_screen(tmux), what="vim to show the note")
    assert (path.parent / f".{path.name}.swp").exists()  # how vim holds it
    subprocess.run([*tmux, "send-keys", "-t", "t", ":%s/Neovim/Helix/", "Enter", ":w", "Enter"],
                   check=True)  # fmt: skip
    wait_for(lambda: "Helix" in (row(notes_dir, EDITOR) or {}).get("text", ""),
             what="the daemon to index the save")  # fmt: skip
    syncs = daemon.syncs
    wait_for(lambda: daemon.syncs >= syncs + 3, what="three retries of the patch")
    news = [m for m in caplog.messages if EDITOR in m]
    assert news.count(f"updated {EDITOR}") == 1, news
    assert [m for m in news if m.startswith("held by an editor")] == [
        f"held by an editor: {EDITOR}; its hand edit is recorded when the editor closes"
    ]
    with Vault.open(notes_dir, create=False) as vault:
        doctor = vault.doctor()
    assert doctor.ok and [p for p, _ in doctor.held] == [EDITOR]
    subprocess.run([*tmux, "send-keys", "-t", "t", ":q", "Enter"], check=True)
    wait_for(lambda: is_recorded_hand_edit(notes_dir, EDITOR), what="the patch after vim quit")
    assert "changed since reading" not in tmux_screen(tmux)


@pytest.mark.slow
def test_a_vim_killed_with_its_note_open_holds_it_no_longer(notes_dir, tmux, start_daemon):
    """vim killed (kill -9, a closed terminal, a crash) leaves its swap file beside the note.
    The daemon waited for that editor to close, so the person's next edit in another program
    was never recorded as theirs. The swap file names a process that no longer runs."""
    path = notes_dir / EDITOR
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "t", "-x", "200", "-y", "50", vim_command(path)],
        check=True,
    )
    wait_for(lambda: "Prefers Neovim" in tmux_screen(tmux), what="vim to show the note")
    swap = path.parent / f".{path.name}.swp"
    assert swap.exists()
    pane = subprocess.run([*tmux, "display-message", "-p", "-t", "t", "#{pane_pid}"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    vim = int(pane.stdout)  # tmux runs the command through `sh -c`, which execs vim
    assert "vim" in Path(f"/proc/{vim}/cmdline").read_bytes().decode(errors="replace")
    os.kill(vim, signal.SIGKILL)
    wait_for(lambda: not Path(f"/proc/{vim}").exists(), what="vim to be gone")
    assert swap.exists()  # what a killed vim leaves
    start_daemon(notes_dir)
    edited = path.read_text("utf-8").replace("Neovim", "Helix")
    path.write_text(edited, "utf-8")  # the edit, made in another program
    assert_hand_edit_recorded(notes_dir, EDITOR, edited, "Helix")
    assert swap.exists()  # left for `vim -r`


@pytest.mark.slow
def test_learning_leaves_a_note_vim_has_open_alone(notes_dir, tmux):
    """A user review: `tota extract` merged into a note open in vim, and vim's next `:w`
    warned "The file has been changed since reading it!!!" (answering yes dropped tota's
    change). The learner now skips that candidate and says why; vim saves without a word."""
    path = notes_dir / EDITOR
    before = path.read_bytes()
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "t", "-x", "200", "-y", "50", vim_command(path)],
        check=True,
    )
    wait_for(lambda: "Prefers Neovim" in tmux_screen(tmux), what="vim to show the note")
    with Vault.open(notes_dir) as vault:
        report = vault.observe(
            [{"role": "user", "content": "I prefer Neovim over VS Code for editing.", "id": "9"}],
            conversation_id="again",
        )
    assert [o.action for o in report.outcomes] == ["skip"], report.outcomes
    assert report.notes and report.notes[0].startswith("note held by an editor while learning")
    assert path.read_bytes() == before
    subprocess.run([*tmux, "send-keys", "-t", "t", ":w", "Enter"], check=True)
    wait_for(lambda: "written" in tmux_screen(tmux), what="vim to write the note")
    assert "changed since reading" not in tmux_screen(tmux)


def test_sed_in_place_is_a_hand_edit(notes_dir, start_daemon):
    start_daemon(notes_dir)
    before = (notes_dir / EDITOR).read_text("utf-8")
    subprocess.run(["sed", "-i", "s/Neovim/Helix/", str(notes_dir / EDITOR)], check=True)
    assert_hand_edit_recorded(notes_dir, EDITOR, before.replace("Neovim", "Helix"), "Helix")
    assert not [p for p in notes_dir.rglob("sed*") if p.is_file()]


def test_atomic_temp_file_and_rename_save_is_a_hand_edit(notes_dir, start_daemon):
    start_daemon(notes_dir)
    path = notes_dir / EDITOR
    edited = path.read_text("utf-8").replace("Neovim", "Helix")
    tmp = path.with_name("." + path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(edited)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    assert_hand_edit_recorded(notes_dir, EDITOR, edited, "Helix")
    assert not tmp.exists()
    assert row(notes_dir, "preference/." + path.name + ".tmp") is None


def test_truncate_and_write_save_is_a_hand_edit(notes_dir, start_daemon):
    start_daemon(notes_dir)
    path = notes_dir / EDITOR
    edited = path.read_text("utf-8").replace("Neovim", "Helix")
    half = edited.index("confidence:")  # the first chunk alone is not even valid YAML
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(edited[:half])
        handle.flush()
        handle.write(edited[half:])
    assert_hand_edit_recorded(notes_dir, EDITOR, edited, "Helix")


def test_a_note_vim_holds_is_logged_waiting_once_not_updated_at_every_retry(
    notes_dir, start_daemon, caplog
):
    """A review: after `:w` and before `:q`, `tota watch -v` logged `updated <note>` every
    3 s (11 lines in 33 s) though nothing was written, and doctor called the note drift to
    fix with `tota sync`. vim holds the note by its swap file beside it."""
    caplog.set_level(logging.INFO, logger="tota.watch")
    daemon = start_daemon(notes_dir)
    path = notes_dir / EDITOR
    swap = path.parent / f".{path.name}.swp"
    swap.write_bytes(b"b0VIM 9.0")  # vim opened it
    path.write_text(path.read_text("utf-8").replace("Neovim", "Helix"), "utf-8")  # `:w`
    wait_for(lambda: "Helix" in (row(notes_dir, EDITOR) or {}).get("text", ""),
             what="the daemon to index the save")  # fmt: skip
    waiting = f"held by an editor: {EDITOR}; its hand edit is recorded when the editor closes"

    def said(line: str) -> int:
        return [m for m in caplog.messages if m.startswith(("updated", "held"))].count(line)

    syncs = daemon.syncs
    wait_for(lambda: daemon.syncs >= syncs + 3, what="three retries of the patch (1 s apart)")
    assert said(f"updated {EDITOR}") == 1 and said(waiting) == 1
    assert "evidence: manual" not in path.read_text("utf-8")  # vim would warn at its next :w
    with Vault.open(notes_dir, create=False) as vault:
        doctor = vault.doctor()
    assert doctor.ok and doctor.drift == []
    assert doctor.held == [(EDITOR, "its hand edit is recorded when the editor closes")]

    path.write_text(path.read_text("utf-8").replace("Helix", "Kakoune"), "utf-8")  # `:w` again
    wait_for(lambda: said(f"updated {EDITOR}") == 2, what="the second save indexed")
    syncs = daemon.syncs
    wait_for(lambda: daemon.syncs >= syncs + 2, what="two more retries")
    assert said(waiting) == 2  # said again for the new save, and once only

    swap.unlink()  # `:q`
    wait_for(lambda: is_recorded_hand_edit(notes_dir, EDITOR), what="the patch after vim quit")
    assert f"hand edit recorded in {EDITOR} (evidence: manual)" in caplog.messages
    assert said(waiting) == 2
    assert_in_sync(notes_dir)


def test_note_caught_empty_mid_save_keeps_its_row(notes_dir, start_daemon):
    daemon = start_daemon(notes_dir)
    path = notes_dir / EDITOR
    edited = path.read_text("utf-8").replace("Neovim", "Helix")
    with open(path, "w", encoding="utf-8") as handle:  # truncated; the editor is still writing
        syncs = daemon.syncs
        wait_for(lambda: daemon.syncs > syncs, what="the daemon to see the empty file")
        during = row(notes_dir, EDITOR)
        handle.write(edited)
    assert_hand_edit_recorded(notes_dir, EDITOR, edited, "Helix")
    assert during["error"] is None and "Neovim" in during["text"], during["error"]


def test_slow_writer_keeps_its_words(notes_dir, start_daemon):
    """A note written in steps by a program that keeps it open (`cat > note`, a script that
    appends, an editor on a slow disk) and pauses longer than `quiet` must not lose what it
    writes after the pause."""
    daemon = start_daemon(notes_dir)
    path = notes_dir / EDITOR
    edited = path.read_text("utf-8").replace("Neovim", "Helix") + "\nAnd Zed on weekends.\n"
    cut = edited.index("\nAnd Zed")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(edited[:cut])  # a valid memory, changed by hand: the daemon may patch it
        handle.flush()
        syncs = daemon.syncs
        # One sync before the quiet period is over, one after it: the daemon had its chance.
        wait_for(lambda: daemon.syncs >= syncs + 2, what="the daemon to act on the paused write")
        handle.write(edited[cut:])
    assert "Zed" in path.read_text("utf-8"), "the words written after the pause were lost"
    assert_hand_edit_recorded(notes_dir, EDITOR, edited, "Zed")


def test_slow_writer_of_a_new_note_keeps_its_words(vault_dir, start_daemon):
    daemon = start_daemon(vault_dir)
    path = vault_dir / "habit/Walks the dog.md"
    with open(path, "w", encoding="utf-8") as handle:  # `cat > "habit/Walks the dog.md"`
        handle.write("Walks the dog.\n")
        handle.flush()
        syncs = daemon.syncs
        wait_for(lambda: daemon.syncs > syncs, what="the daemon to see the new note")
        handle.write("Every evening, before dinner.\n")
    assert "Every evening" in path.read_text("utf-8"), "the second line typed was lost"
    wait_for(lambda: (row(vault_dir, "habit/Walks the dog.md") or {}).get("memory_id"))
    converge(vault_dir)


def test_touch_writes_nothing_and_is_not_an_edit(notes_dir, start_daemon):
    daemon = start_daemon(notes_dir)
    path = notes_dir / EDITOR
    plain = notes_dir / "README.md"  # a person's note without a digest: a touch is no edit either
    data, plain_data = path.read_bytes(), plain.read_bytes()
    syncs = daemon.syncs
    stamp = time.time_ns() - 3_600_000_000_000
    os.utime(path, ns=(stamp, stamp))
    os.utime(plain, ns=(stamp, stamp))
    wait_for(lambda: daemon.syncs > syncs, what="the daemon to sync the touched notes")
    wait_for(lambda: len(daemon.pending) == 0, what="nothing pending")
    wait_for(
        lambda: (
            row(notes_dir, EDITOR)["mtime_ns"] == stamp
            and row(notes_dir, "README.md")["mtime_ns"] == stamp
        ),
        what="the index to learn the new mtimes",
    )
    assert path.read_bytes() == data and plain.read_bytes() == plain_data
    assert path.stat().st_mtime_ns == stamp and plain.stat().st_mtime_ns == stamp
    assert daemon.last_report is not None and not daemon.last_report.hand_edits
    converge(notes_dir)
    assert_not_manual(notes_dir, [EDITOR])
    assert row(notes_dir, "README.md")["evidence"] is None


# --- moves and deletes -----------------------------------------------------------------------


def test_mv_of_a_note_keeps_its_row(notes_dir, start_daemon):
    start_daemon(notes_dir)
    before = row(notes_dir, EDITOR)
    os.rename(notes_dir / EDITOR, notes_dir / "preference/Text editor.md")
    wait_for(lambda: row(notes_dir, EDITOR) is None and row(notes_dir, "preference/Text editor.md"))
    converge(notes_dir)
    after = row(notes_dir, "preference/Text editor.md")
    assert after["memory_id"] == before["memory_id"]
    assert after["id"] == before["id"], "a move keeps the index row"
    assert after["title"] == "Text editor"
    assert [r for r in index_rows(notes_dir).values() if r["memory_id"] == before["memory_id"]] == [
        after
    ]
    assert_not_manual(notes_dir, ["preference/Text editor.md"])


def test_mv_of_a_folder_keeps_its_rows(notes_dir, start_daemon):
    for i in range(5):
        put(
            notes_dir,
            f"project/work/Task {i}.md",
            render_sealed(memory("project", f"Ship task {i}.")),
        )
    start_daemon(notes_dir)
    before = {p: r for p, r in index_rows(notes_dir).items() if p.startswith("project/work/")}
    assert len(before) == 5
    os.rename(notes_dir / "project/work", notes_dir / "project/job")
    moved = {p.replace("project/work/", "project/job/"): r for p, r in before.items()}
    wait_for(lambda: set(moved) <= set(index_rows(notes_dir)), what="the moved notes to be indexed")
    converge(notes_dir)
    rows = index_rows(notes_dir)
    assert not [p for p in rows if p.startswith("project/work/")]
    for path, old in moved.items():
        assert (rows[path]["memory_id"], rows[path]["id"]) == (old["memory_id"], old["id"])
    assert len(rows) == 4 + 5, "nothing that still exists was removed, nothing duplicated"
    assert_not_manual(notes_dir, moved)


def test_move_across_type_folders_keeps_id_and_type(notes_dir, start_daemon):
    start_daemon(notes_dir)
    before = row(notes_dir, "goal/Run a marathon.md")
    os.rename(notes_dir / "goal/Run a marathon.md", notes_dir / "habit/Run a marathon.md")
    wait_for(
        lambda: (
            row(notes_dir, "goal/Run a marathon.md") is None
            and row(notes_dir, "habit/Run a marathon.md")
        )
    )
    converge(notes_dir)
    after = row(notes_dir, "habit/Run a marathon.md")
    assert (after["memory_id"], after["id"]) == (before["memory_id"], before["id"])
    assert after["type"] == "goal", "the frontmatter type is the truth, not the folder"
    assert len(index_rows(notes_dir)) == 4
    assert_not_manual(notes_dir, ["habit/Run a marathon.md", "habit/Morning run.md"])


def test_rm_of_a_note_removes_its_row(notes_dir, start_daemon):
    start_daemon(notes_dir)
    os.remove(notes_dir / "habit/Morning run.md")
    wait_for(lambda: row(notes_dir, "habit/Morning run.md") is None, what="the row to go")
    converge(notes_dir)
    assert len(index_rows(notes_dir)) == 3
    assert_not_manual(notes_dir, [EDITOR, "goal/Run a marathon.md"])


# --- git ---------------------------------------------------------------------------------------


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false",
         "-c", "init.defaultBranch=main", *args],
        cwd=cwd, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"
    return result.stdout


def test_git_checkout_of_500_changed_notes_and_back(vault_dir, start_daemon):
    types = list(MemoryType)
    mems = {}
    for i in range(500):
        mtype = types[i % len(types)]
        mem = memory(mtype, f"Fact number {i} in its first version.", source=f"chat-1#{i}")
        rel = f"{mtype.value}/Fact {i:03d}.md"
        put(vault_dir, rel, render_sealed(mem))
        mems[rel] = mem
    git(vault_dir, "init", "-q")
    git(vault_dir, "add", "-A")
    git(vault_dir, "commit", "-q", "-m", "v1")
    for rel, mem in mems.items():  # tota updates every note: its own, sealed writes
        revised = mem.with_changes(text=mem.text.replace("first", "second"), confirmations=2)
        tota_write(vault_dir, rel, revised)
    git(vault_dir, "add", "-A")
    git(vault_dir, "commit", "-q", "-m", "v2")

    start_daemon(vault_dir)
    assert len(index_rows(vault_dir)) == 500

    def all_say(word: str) -> bool:
        rows = index_rows(vault_dir)
        return (
            len(rows) == 500
            and all(word in r["text"] for r in rows.values())
            and in_sync(vault_dir)
        )

    git(vault_dir, "checkout", "-q", "HEAD~1")
    wait_for(lambda: all_say("first version"), 30, "the index to follow the checkout")
    converge(vault_dir)
    git(vault_dir, "checkout", "-q", "-")
    wait_for(lambda: all_say("second version"), 30, "the index to follow the checkout back")
    converge(vault_dir)

    rows = index_rows(vault_dir)
    assert {r["memory_id"] for r in rows.values()} == {m.id for m in mems.values()}
    assert not [p for p, r in rows.items() if r["evidence"] != "direct"], (
        "tota's writes are not manual"
    )
    assert_not_manual(vault_dir, mems)
    assert git(vault_dir, "status", "--porcelain") == "", "the daemon wrote to a note"


def test_git_pull_flags_only_the_hand_edited_note(tmp_path, start_daemon):
    seed = tmp_path / "seed"
    Vault(seed).init()
    mems = {}
    for i in range(30):
        mem = memory("project", f"Project fact {i} as first learned.", source=f"chat-1#{i}")
        rel = f"project/Project fact {i:02d}.md"
        put(seed, rel, render_sealed(mem))
        mems[rel] = mem
    git(seed, "init", "-q")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "notes")
    git(tmp_path, "clone", "-q", "--bare", str(seed), "origin.git")
    git(tmp_path, "clone", "-q", "origin.git", "A")
    git(tmp_path, "clone", "-q", "origin.git", "B")
    a, b = tmp_path / "A", tmp_path / "B"

    start_daemon(a)
    assert len(index_rows(a)) == 30
    rels = sorted(mems)
    sealed, by_hand = rels[:20], rels[20]
    for rel in sealed:  # tota on machine B updates 20 notes
        tota_write(
            b,
            rel,
            mems[rel].with_changes(text=mems[rel].text.replace("first", "newly"), confirmations=2),
        )
    hand = (b / by_hand).read_text("utf-8").replace("as first learned", "as I corrected it by hand")
    (b / by_hand).write_text(hand, "utf-8")
    assert seal_state(hand) is SealState.BROKEN
    git(b, "commit", "-q", "-am", "from B")
    git(b, "push", "-q")

    git(a, "-c", "pull.rebase=false", "pull", "-q")
    wait_for(lambda: is_recorded_hand_edit(a, by_hand), what="the hand-edited note to be manual")
    converge(a)
    rows = index_rows(a)
    assert all("newly learned" in rows[rel]["text"] for rel in sealed)
    assert "corrected it by hand" in rows[by_hand]["text"]
    assert_not_manual(a, [*sealed, *rels[21:]])
    assert kept_lines((a / by_hand).read_text("utf-8")) == kept_lines(hand)
    changed = git(a, "status", "--porcelain", "-z").split("\0")
    assert changed == [f" M {by_hand}", ""], "only the hand-edited note was written to"


def test_the_daemon_lock_is_private(vault_dir):
    import stat

    daemon = Daemon(vault_dir, OPTIONS)
    previous = os.umask(0o022)
    try:
        daemon.acquire_lock()
    finally:
        os.umask(previous)
    try:
        assert stat.S_IMODE(lock_path(vault_dir).stat().st_mode) == 0o600
    finally:
        daemon.release_lock()


def test_verbose_logs_tota_s_own_lines_not_watchdog_s(vault_dir, tmp_path, processes):
    """The review's case: `tota watch -v` on a vault in git logged 195 lines of watchdog's
    raw inotify events (`DEBUG in-event PathedInotifyEvent(... .git/objects/d5 ...)`) at
    start. -v logs the events of notes in tota's words; -vv lets watchdog's through."""
    objects = vault_dir / ".git" / "objects"
    objects.mkdir(parents=True)
    rel = "preference/Likes green tea.md"
    put(vault_dir, rel, render_sealed(memory("preference", "Likes green tea.")))
    logs = {}
    for flag in ("-v", "-vv"):
        proc = WatchProcess(vault_dir, tmp_path / f"watch{flag}.log", flag)
        processes.append(proc)
        proc.wait_watching()
        for i in range(20):  # what a commit does in .git/
            (objects / f"d{i}").write_bytes(b"x")
        with open(vault_dir / rel, "a", encoding="utf-8") as handle:
            handle.write("More green tea.\n")
        wait_for(lambda p=proc: f"updated {rel}" in p.log(), 20, "the edit to be synced")
        proc.signal(signal.SIGINT)
        assert proc.wait() == 0
        logs[flag] = proc.log()
    debug = [line for line in logs["-v"].splitlines() if " DEBUG " in line]
    assert any(line.endswith(f"DEBUG modified {rel}") for line in debug), logs["-v"]
    assert all(line.endswith(rel) for line in debug), debug
    assert ".git" not in logs["-v"] and "InotifyEvent" not in logs["-v"]
    assert "InotifyEvent" in logs["-vv"]  # asked for: watchdog's own lines


# --- lost events -------------------------------------------------------------------------------


def test_inotify_overflow_leads_to_a_full_reconcile(vault_dir, tmp_path, processes):
    """Tens of thousands of events while the daemon cannot read them: the kernel queue
    (fs.inotify.max_queued_events, 16384 by default) overflows and events are lost for good;
    only the full reconcile that the overflow warning triggers finds the notes.

    The daemon is a `tota watch` process held with SIGSTOP during the burst: a reader that
    keeps up (in this process it steals the writer's GIL) would make the overflow a matter of
    luck."""
    junk = vault_dir / "junk"
    junk.mkdir()  # before the daemon starts: a new folder would itself ask for a full sync
    texts = [fast_sealed(memory("episode", f"Flood note {k}.")).encode() for k in range(200)]
    proc = WatchProcess(vault_dir, tmp_path / "watch.log")
    processes.append(proc)
    proc.wait_watching()
    assert proc.log().count("reconciled:") == 1
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    notes = []
    proc.signal(signal.SIGSTOP)
    try:
        for i in range(30_000):  # 3 events each (create, modify, close): ~90k events
            fd = os.open(junk / f"x{i}.txt", flags, 0o600)
            os.write(fd, b"x")
            os.close(fd)
            if i % 150 == 75:  # the notes' events are spread through the flood
                rel = f"episode/Flood {len(notes):03d}.md"
                fd = os.open(vault_dir / rel, flags, 0o600)
                os.write(fd, texts[len(notes)])
                os.close(fd)
                notes.append(rel)
    finally:
        proc.signal(signal.SIGCONT)
    assert len(notes) == 200
    wait_for(lambda: set(notes) <= set(index_rows(vault_dir)), 20, "all 200 notes to be indexed")
    assert "Inotify queue overflowed" in proc.log()
    wait_for(lambda: proc.log().count("reconciled:") >= 2, what="a full reconcile")
    converge(vault_dir)
    assert len(index_rows(vault_dir)) == 200
    assert_not_manual(vault_dir, notes)
    # watchdog rebuilt its watches after the overflow: a later edit still arrives as an event
    # (no periodic full sync runs in this test).
    later = tota_write(vault_dir, "episode/After the flood.md", memory("episode", "Dry again."))
    wait_for(
        lambda: row(vault_dir, "episode/After the flood.md"), what="an event after the overflow"
    )
    assert row(vault_dir, "episode/After the flood.md")["hash"] == content_hash(later.encode())
    proc.signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0, proc.log()
    shutil.rmtree(junk)


def test_kill_9_mid_reconcile_then_restart_converges(vault_dir, tmp_path, processes):
    types = list(MemoryType)
    for i in range(10_000):
        mtype = types[i % len(types)]
        mem = memory(mtype, f"Memory number {i} about topic{i}.", source=f"chat-1#{i}")
        put(vault_dir, f"{mtype.value}/Note {i:05d}.md", fast_sealed(mem))
    assert seal_state((vault_dir / "identity/Note 00000.md").read_text()) is SealState.SEALED
    snapshot = {}
    for rel in file_hashes(vault_dir):
        path = vault_dir / rel
        snapshot[rel] = (path.read_bytes(), path.stat().st_mtime_ns)
    assert len(snapshot) == 10_000

    first = WatchProcess(vault_dir, tmp_path / "first.log", "-q")
    processes.append(first)
    count = wait_for(
        lambda: 0 < index_count(vault_dir) < 10_000 and index_count(vault_dir),
        30,
        "the first batches of the reconcile",
    )
    first.signal(signal.SIGKILL)
    assert first.wait() == -signal.SIGKILL
    assert 0 < count < 10_000
    assert daemon_status(vault_dir) is None, "the kernel releases a killed daemon's lock"

    second = WatchProcess(vault_dir, tmp_path / "second.log", "-q")
    processes.append(second)
    wait_for(
        lambda: index_count(vault_dir) == 10_000 and index_state(vault_dir, "last_sync"),
        40,
        "the restarted daemon to index every note",
    )
    assert daemon_status(vault_dir)["pid"] == second.pid
    doctor = tota(vault_dir, "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "10000 notes" in doctor.stdout
    for rel, (data, mtime_ns) in snapshot.items():
        path = vault_dir / rel
        assert path.read_bytes() == data, rel
        assert path.stat().st_mtime_ns == mtime_ns, rel
    assert set(file_hashes(vault_dir)) == set(snapshot)
    assert not [r for r in index_rows(vault_dir).values() if r["evidence"] != "direct"]

    started = time.monotonic()
    second.signal(signal.SIGTERM)
    assert second.wait(timeout=10) == 0, second.log()
    assert time.monotonic() - started < 5
    assert daemon_status(vault_dir) is None
    wal = Path(str(index_path(vault_dir)) + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


# --- bad notes ---------------------------------------------------------------------------------


def test_note_that_turns_invalid_is_reported_and_kept(notes_dir, start_daemon):
    daemon = start_daemon(notes_dir)
    path = notes_dir / EDITOR
    original = path.read_bytes()
    broken = original.replace(b"confidence: 0.8\n", b"confidence: [0.8\n")
    assert broken != original
    with open(path, "wb") as handle:
        handle.write(broken)
    wait_for(
        lambda: (row(notes_dir, EDITOR) or {}).get("error"), what="the index to call it invalid"
    )
    wait_for(lambda: len(daemon.pending) == 0, what="nothing pending")
    mtime = path.stat().st_mtime_ns
    assert path.read_bytes() == broken, "tota rewrote a note it cannot parse"
    converge(notes_dir)
    with Vault.open(notes_dir, create=False) as vault:
        report = vault.doctor()
        assert [p for p, _ in report.invalid] == [EDITOR]
        assert "YAML" in report.invalid[0][1]
        assert [hit.path for hit in vault.search("Neovim")] == [EDITOR], (
            "still findable by its text"
        )
    assert path.read_bytes() == broken and path.stat().st_mtime_ns == mtime

    with open(path, "wb") as handle:  # the person fixes the typo: exactly what tota wrote again
        handle.write(original)
    wait_for(lambda: (row(notes_dir, EDITOR) or {}).get("evidence") == "direct", what="valid again")
    converge(notes_dir)
    assert row(notes_dir, EDITOR)["error"] is None
    assert path.read_bytes() == original
    assert_not_manual(notes_dir, [EDITOR])
    with Vault.open(notes_dir, create=False) as vault:
        assert vault.doctor().ok


# --- one daemon per vault, signals, status -------------------------------------------------


def test_second_daemon_on_the_same_vault_is_refused(notes_dir, start_daemon):
    start_daemon(notes_dir)
    with pytest.raises(DaemonRunningError, match=f"already watches .*pid {os.getpid()}"):
        Daemon(notes_dir, OPTIONS).run()
    result = tota(notes_dir, "watch", timeout=30)
    assert result.returncode == 1
    assert "already watches" in result.stderr
    assert daemon_status(notes_dir)["pid"] == os.getpid()
    # The refused ones changed nothing: the first daemon still works.
    subprocess.run(["sed", "-i", "s/Neovim/Helix/", str(notes_dir / EDITOR)], check=True)
    wait_for(lambda: is_recorded_hand_edit(notes_dir, EDITOR))
    converge(notes_dir)


def test_stale_lock_of_a_killed_daemon_is_taken_over(notes_dir, tmp_path, processes, start_daemon):
    killed = WatchProcess(notes_dir, tmp_path / "killed.log")
    processes.append(killed)
    killed.wait_watching()
    assert daemon_status(notes_dir)["pid"] == killed.pid
    killed.signal(signal.SIGKILL)
    assert killed.wait() == -signal.SIGKILL
    assert str(killed.pid) in lock_path(notes_dir).read_text(), "the lock file still names it"
    assert daemon_status(notes_dir) is None
    start_daemon(notes_dir)
    assert daemon_status(notes_dir)["pid"] == os.getpid()
    tota_write(notes_dir, "goal/Learn Portuguese.md", memory("goal", "Learn Portuguese."))
    wait_for(lambda: row(notes_dir, "goal/Learn Portuguese.md"), what="the new daemon to work")
    converge(notes_dir)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_watch_process_stops_cleanly_on_signal(
    notes_dir, tmp_path, processes, start_daemon, signum
):
    proc = WatchProcess(notes_dir, tmp_path / "watch.log")
    processes.append(proc)
    proc.wait_watching()
    added = tota_write(notes_dir, "goal/Learn Portuguese.md", memory("goal", "Learn Portuguese."))
    subprocess.run(["sed", "-i", "s/Neovim/Helix/", str(notes_dir / EDITOR)], check=True)
    proc.signal(signum)  # at once: both edits are still pending in the daemon
    started = time.monotonic()
    assert proc.wait(timeout=10) == 0, proc.log()
    assert time.monotonic() - started < 5
    assert "stopped" in proc.log()
    wal = Path(str(index_path(notes_dir)) + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the WAL was not checkpointed"
    assert daemon_status(notes_dir) is None
    new = row(notes_dir, "goal/Learn Portuguese.md")
    assert new is not None, f"the pending edit was not flushed:\n{proc.log()}"
    assert new["hash"] == content_hash(added.encode("utf-8"))
    edited = row(notes_dir, EDITOR)
    assert "Helix" in edited["text"] and edited["evidence"] == "manual", "hand edit not flushed"
    # The hand edit may have been too fresh to patch into the note (`quiet`): the next start
    # records it there and converges.
    start_daemon(notes_dir)
    wait_for(lambda: is_recorded_hand_edit(notes_dir, EDITOR), what="the next start to record it")
    converge(notes_dir)
    assert_not_manual(notes_dir, ["goal/Learn Portuguese.md", "goal/Run a marathon.md"])


def test_status_json_shows_the_running_daemon(notes_dir):
    runner = DaemonThread(notes_dir)
    try:
        runner.start()
        result = tota(notes_dir, "status", "--json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["daemon"]["pid"] == os.getpid()
        assert data["notes"] == 4
        assert data["last_sync"] is not None
    finally:
        runner.stop()
    result = tota(notes_dir, "status", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["daemon"] is None
    assert daemon_status(notes_dir) is None
    assert_in_sync(notes_dir)


def test_polling_fallback_converges(notes_dir, start_daemon):
    daemon = start_daemon(
        notes_dir, WatchOptions(debounce=0.2, quiet=0.3, full_every=3600, polling=True)
    )
    assert daemon.observer_kind == "PollingObserver"
    path = notes_dir / EDITOR
    edited = path.read_text("utf-8").replace("Neovim", "Helix")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(edited)
    assert_hand_edit_recorded(notes_dir, EDITOR, edited, "Helix")
    assert_not_manual(notes_dir, ["goal/Run a marathon.md", "habit/Morning run.md"])


# --- PendingPaths with a fake clock --------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_pending_debounce_pushes_the_deadline_back(clock):
    pending = PendingPaths(debounce=0.5, max_wait=5.0, clock=clock)
    pending.add("a.md")
    clock.advance(0.4)
    assert pending.take() == ([], False)
    pending.add("a.md")  # another event: due 0.5 s after it, not after the first
    clock.advance(0.4)
    assert pending.take() == ([], False)
    assert len(pending) == 1
    clock.advance(0.1)
    assert pending.take() == (["a.md"], False)
    assert len(pending) == 0
    assert pending.take() == ([], False)


def test_pending_paths_are_debounced_each_on_its_own(clock):
    pending = PendingPaths(debounce=0.5, max_wait=5.0, clock=clock)
    pending.add("a.md")
    clock.advance(0.3)
    pending.add("b.md")
    clock.advance(0.2)
    assert pending.take() == (["a.md"], False)
    clock.advance(0.3)
    assert pending.take() == (["b.md"], False)


def test_pending_max_wait_caps_the_deadline(clock):
    pending = PendingPaths(debounce=0.5, max_wait=2.0, clock=clock)
    for _ in range(19):  # writes go on every 0.1 s
        pending.add("log.md")
        clock.advance(0.1)
        assert pending.take() == ([], False)
    pending.add("log.md")  # t = 1.9: the cap (first event + 2.0) comes before 1.9 + 0.5
    clock.advance(0.1)
    assert pending.take() == (["log.md"], False)
    pending.add("log.md")  # the cap starts again from the next first event
    clock.advance(0.4)
    assert pending.take() == ([], False)
    clock.advance(0.1)
    assert pending.take() == (["log.md"], False)


def test_held_news_announces_a_held_note_once_and_again_only_after_it_changed():
    waits = "its hand edit is recorded when the editor closes"
    held = [("a.md", waits)]
    announce, waiting = held_news(set(), held, {"a.md"}, ["a.md"])
    assert announce == held and waiting == {"a.md"}
    announce, waiting = held_news(waiting, held, set(), ["a.md"])  # a retry
    assert announce == [] and waiting == {"a.md"}
    announce, waiting = held_news(waiting, held, set(), None)  # a full sync, held still
    assert announce == [] and waiting == {"a.md"}
    assert held_news(waiting, held, {"a.md"}, ["a.md"]) == (held, {"a.md"})  # saved again
    announce, waiting = held_news(waiting, [], set(), ["b.md"])  # another note's sync
    assert announce == [] and waiting == {"a.md"}
    announce, waiting = held_news(waiting, [], {"a.md"}, ["a.md"])  # the editor closed it
    assert announce == [] and waiting == set()
    assert held_news({"a.md", "c.md"}, [], set(), None) == ([], set())  # a full sync: none held
    assert held_news(waiting, held, set(), ["a.md"]) == (held, {"a.md"})  # opened again


def test_pending_add_at(clock):
    pending = PendingPaths(debounce=0.5, max_wait=5.0, clock=clock)
    pending.add_at("later.md", clock.now + 3.0)
    clock.advance(2.9)
    assert pending.take() == ([], False)
    clock.advance(0.1)
    assert pending.take() == (["later.md"], False)
    pending.add("soon.md")
    pending.add_at("soon.md", clock.now + 3.0)  # keeps the sooner deadline
    clock.advance(0.5)
    assert pending.take() == (["soon.md"], False)
    pending.add_at("evented.md", clock.now + 3.0)
    pending.add("evented.md")  # an event makes it sooner
    clock.advance(0.5)
    assert pending.take() == (["evented.md"], False)


def test_pending_take_everything(clock):
    pending = PendingPaths(debounce=0.5, max_wait=5.0, clock=clock)
    pending.add("b.md")
    pending.add("a.md")
    pending.add_at("c.md", clock.now + 60)
    assert pending.take() == ([], False)
    assert pending.take(everything=True) == (["a.md", "b.md", "c.md"], False)
    assert len(pending) == 0
    clock.advance(100)
    assert pending.take() == ([], False)


def test_pending_request_full(clock):
    pending = PendingPaths(debounce=0.5, max_wait=5.0, clock=clock)
    pending.add("a.md")
    pending.request_full()
    assert pending.take() == ([], True)  # the flag, and a.md is not due yet
    assert pending.take() == ([], False)  # the flag is taken once
    pending.request_full()
    started = time.monotonic()
    pending.wait(5.0)  # returns at once: a full reconcile is wanted
    assert time.monotonic() - started < 1.0
    assert pending.take(everything=True) == (["a.md"], True)


def test_pending_wait_returns_when_a_path_is_due(clock):
    pending = PendingPaths(debounce=0.5, max_wait=5.0, clock=clock)
    pending.add("a.md")
    clock.advance(1.0)
    started = time.monotonic()
    pending.wait(5.0)
    assert time.monotonic() - started < 1.0
    assert pending.take() == (["a.md"], False)


# Sanity: the helper writes notes exactly as tota does.
def test_fast_sealed_is_render_sealed():
    mem = memory("preference", "Prefers tea.")
    assert fast_sealed(mem) == render_sealed(mem)
    assert evidence_line(fast_sealed(mem)) == "direct"
