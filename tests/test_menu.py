"""The interactive manager in a real terminal: tmux runs `tota memory`, keys are sent with
send-keys and the screen is read with capture-pane (polled with a deadline, never slept)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tota_vault import Vault

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """A tmux session on its own socket, running one command."""

    def __init__(self, socket: Path, command: list[str]) -> None:
        self.base = ["tmux", "-S", str(socket)]
        line = " ".join(f"'{part}'" for part in command)
        subprocess.run(
            [*self.base, "new-session", "-d", "-s", "t", "-x", "120", "-y", "45", line],
            check=True,
        )  # fmt: skip

    def keys(self, *keys: str) -> None:
        """Press keys by tmux name (`Enter`, `Down`, `Escape`) or as single characters."""
        subprocess.run([*self.base, "send-keys", "-t", "t", *keys], check=True)

    def type(self, text: str) -> None:
        """Type text literally (`DELETE` is a word here, not the Delete key)."""
        subprocess.run([*self.base, "send-keys", "-t", "t", "-l", text], check=True)

    def screen(self) -> str:
        result = subprocess.run(
            [*self.base, "capture-pane", "-p", "-t", "t"], capture_output=True, text=True
        )
        return result.stdout

    def wait_for(self, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.02)
        raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen()}")

    def alive(self) -> bool:
        result = subprocess.run([*self.base, "has-session", "-t", "t"], capture_output=True)
        return result.returncode == 0

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


@pytest.fixture
def term(sample_dir: Path, tmp_path: Path):
    with Vault.open(sample_dir) as vault:
        vault.sync()
    terminal = Terminal(
        tmp_path / "tmux.sock",
        [sys.executable, "-m", "tota_vault", "--vault", str(sample_dir), "memory"],
    )
    terminal.vault = sample_dir  # type: ignore[attr-defined]
    try:
        terminal.wait_for("Overview")
        yield terminal
    finally:
        terminal.close()


def test_numbers_open_each_screen_and_q_goes_back(term: Terminal):
    term.keys("1")
    screen = term.wait_for("Press any key")
    assert "memories; learning is on" in screen and "identity" in screen and "Profile" in screen
    term.keys("q")
    term.wait_for("Recent memories")
    term.keys("2")
    screen = term.wait_for("Press any key")
    assert "evidence" in screen and "conf." in screen
    term.keys("x")
    term.wait_for("Clear all")


def test_arrow_keys_and_search_then_open_a_note(term: Terminal):
    term.keys("Down", "Down", "Enter")
    term.wait_for("Search for:")
    term.type("neovim")
    term.keys("Enter")
    screen = term.wait_for("A number opens a note")
    assert "Prefers Neovim over VS Code" in screen
    term.keys("1")
    screen = term.wait_for("Press any key")  # the screen's last line: all of it is drawn
    assert "preference/Prefers Neovim over VS Code.md" in screen
    assert "evidence: direct" in screen
    term.keys("Escape")
    term.wait_for("Pause learning")


def test_pause_and_resume_learning(term: Terminal):
    vault = term.vault  # type: ignore[attr-defined]
    term.keys("4")
    term.wait_for("Learning paused")
    assert (vault / ".tota" / "paused").exists()
    term.keys("x")
    term.wait_for("Resume learning")
    term.keys("4")
    term.wait_for("Learning resumed")
    assert not (vault / ".tota" / "paused").exists()


def test_clear_all_asks_for_the_word_first(term: Terminal):
    vault = term.vault  # type: ignore[attr-defined]
    before = sorted(vault.rglob("*.md"))
    term.keys("5")
    screen = term.wait_for("Type DELETE")
    assert "cannot be undone" in screen
    term.type("yes")
    term.keys("Enter")
    term.wait_for("Nothing was deleted")
    assert sorted(vault.rglob("*.md")) == before
    term.keys("x")
    term.keys("5")
    term.wait_for("Type DELETE")
    term.type("DELETE")
    term.keys("Enter")
    term.wait_for("Deleted 40 memories")
    assert not [p for p in vault.rglob("*.md") if ".obsidian" not in p.parts]


def test_escape_leaves_the_manager(term: Terminal):
    term.keys("Escape")
    deadline = time.monotonic() + 15
    while term.alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not term.alive()
