"""The vault in git: a clean first commit, a clone that searches the same, small diffs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tota_vault import Vault

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def diff_lines(diff: str) -> list[str]:
    """The added and removed lines of a patch, without its file headers."""
    return [
        line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]


def test_a_clone_searches_the_same(tmp_path: Path):
    root = tmp_path / "home"
    Vault(root).init(git=True)
    with Vault.open(root) as vault:
        vault.observe(
            [{"role": "user", "content": "I prefer Neovim over VS Code. I live in Porto."}],
            conversation_id="c1",
        )
        vault.remember("goal", "Run the Lisbon half-marathon under 1h50.", confidence=0.9)
        before = [h.path for h in vault.search("neovim OR porto OR marathon", raw=True)]
    assert git(root, "status", "--porcelain") != ""
    git(root, "add", "-A")
    git(root, "commit", "-qm", "memories")
    assert git(root, "status", "--porcelain", "--ignored") == "!! .tota/\n"  # index never committed
    clone = tmp_path / "laptop"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    with Vault.open(clone) as other:
        report = other.sync()
        assert report.hand_edits == [] and report.ids_assigned == []  # nothing to change
        after = [h.path for h in other.search("neovim OR porto OR marathon", raw=True)]
    assert after == before
    assert git(clone, "status", "--porcelain") == ""  # the clone's files are untouched


def test_git_log_of_a_merge_and_a_hand_edit_shows_only_the_changed_lines(tmp_path: Path):
    root = tmp_path / "v"
    Vault(root).init(git=True)
    with Vault.open(root) as vault:
        vault.observe([{"role": "user", "content": "I prefer Neovim over VS Code."}],
                      conversation_id="c1")  # fmt: skip
        git(root, "add", "-A")
        git(root, "commit", "-qm", "learned")
        vault.observe([{"role": "user", "content": "I really prefer Neovim over VS Code!"}],
                      conversation_id="c2")  # fmt: skip
        git(root, "commit", "-qam", "merged")
        note = root / "preference" / "Prefers Neovim over VS Code.md"
        statement = "\nPrefers Neovim over VS Code.\n"
        note.write_text(
            note.read_text().replace(statement, "\nPrefers Neovim over VS Code, with LazyVim.\n")
        )
        vault.sync()  # the hand edit is recorded in the note
        git(root, "commit", "-qam", "edited")
    merge_diff = git(root, "log", "-p", "-1", "--format=", "HEAD~1", "--", str(note))
    changed = diff_lines(merge_diff)
    keys = {line[1:].split(":")[0].strip() for line in changed if ":" in line}
    assert keys <= {"confidence", "confirmations", "confirmed", "digest"} | {"- c2#1"}
    assert any("c2#1" in line for line in changed)
    # At most: confidence, confirmations, confirmed and digest each - and +, and the source.
    # (`confirmed` stays when both messages fall in the same second: 7 lines then.)
    assert len(changed) <= 9, changed
    edit_diff = git(root, "log", "-p", "-1", "--format=", "--", str(note))
    changed = diff_lines(edit_diff)
    keys = {line[1:].split(":")[0] for line in changed}
    assert keys <= {
        "evidence", "updated", "confirmed", "confidence", "digest",
        "Prefers Neovim over VS Code.", "Prefers Neovim over VS Code, with LazyVim.",
    }, changed  # fmt: skip


def test_a_memory_forgotten_on_one_device_is_not_quoted_on_the_other(tmp_path: Path):
    """A user review: forgotten on A, committed and pulled into B, the memory's note was gone
    from B, but recall on B still quoted the assistant's turn that repeated it (B keeps the
    conversation's turns in its own index, and only a `forget` on B removed them), also after
    sync and reindex. The tombstones that arrive with the pull now remove them."""
    a, b = tmp_path / "desk", tmp_path / "laptop"
    Vault(a).init(git=True)
    chat = [
        {"role": "user", "content": "I was diagnosed with a gluten intolerance last year.",
         "id": "11"},
        {"role": "assistant", "content": "Understood, you avoid gluten.", "id": "12"},
    ]  # fmt: skip
    with Vault.open(a) as vault:
        vault.observe(chat, conversation_id="c1")
    git(a, "add", "-A")
    git(a, "commit", "-qm", "learned")
    git(tmp_path, "clone", "-q", str(a), str(b))
    with Vault.open(b) as vault:  # the same conversation, seen by B's assistant too
        vault.sync()
        assert {o.action for o in vault.observe(chat, conversation_id="c1").outcomes} == {"skip"}
        assert "avoid gluten" in " ".join(r.text for r in vault.recall("gluten"))
    with Vault.open(a) as vault:
        vault.forget(vault.search("gluten")[0].path)
    git(a, "add", "-A")
    git(a, "commit", "-qm", "forgot gluten")
    git(b, "pull", "-q")
    assert "c1#12" in (b / ".tota-forgotten").read_text("utf-8")
    with Vault.open(b) as vault:
        vault.sync()
        assert "gluten" not in " ".join(r.text for r in vault.recall("gluten"))
        vault.reindex()
        assert "gluten" not in " ".join(r.text for r in vault.recall("gluten"))
