"""The memory manager (`tota memory`): headless through Textual's pilot, which presses keys
and reads the screens' state, and in a real terminal through tmux (send-keys, capture-pane,
polled with a deadline, never slept)."""

from __future__ import annotations

import asyncio
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path

import pytest

from tota_vault import Vault
from tota_vault.forgotten import FORGOTTEN_FILE
from tota_vault.menu import (
    PAGE,
    ClearScreen,
    ConfirmScreen,
    MainMenu,
    MemoriesScreen,
    MemoryManager,
    MemoryScreen,
    MemoryTable,
    OverviewScreen,
)
from tota_vault.notes import parse_note

Script = Callable[[MemoryManager, "Pilot"], Awaitable[None]]


class Pilot:
    """Textual's pilot, waiting for the app to settle after every key."""

    def __init__(self, pilot) -> None:  # type: ignore[no-untyped-def]
        self.pilot = pilot

    async def press(self, *keys: str) -> None:
        await self.pilot.press(*keys)
        await self.pilot.pause()

    async def type(self, text: str) -> None:
        await self.press(*text)


def drive(vault: Vault, script: Script, size: tuple[int, int] = (60, 20)) -> MemoryManager:
    """Run the manager headless at `size` (60 columns by default) and play `script` on it."""
    app = MemoryManager(vault.root, vault=vault)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(app, Pilot(pilot))

    asyncio.run(main())
    return app


def status(app: MemoryManager) -> str:
    return str(app.screen.query_one("#status").render())


def cells(app: MemoryManager, row: int = 0) -> list[str]:
    table = app.screen.query_one(MemoryTable)
    return [str(cell) for cell in table.get_row_at(row)]


def fields(root: Path, rel: str) -> dict:
    note = parse_note((root / rel).read_bytes(), rel)
    return note.fields


@pytest.fixture
def sample(sample_dir: Path):
    with Vault.open(sample_dir) as vault:
        vault.sync()
        yield vault


# --- headless, through the pilot ----------------------------------------------------------


def test_numbers_open_each_screen_and_q_or_esc_goes_back(sample: Vault):
    async def script(app: MemoryManager, pilot: Pilot) -> None:
        assert isinstance(app.screen, MainMenu)
        await pilot.press("1")
        assert isinstance(app.screen, OverviewScreen)
        text = str(app.screen.query_one("#note Static").render())
        assert "memories; learning is on" in text and "identity" in text and "Profile" in text
        await pilot.press("q")
        assert isinstance(app.screen, MainMenu)
        await pilot.press("2")
        assert isinstance(app.screen, MemoriesScreen) and not app.screen.searching
        assert app.screen.query_one(MemoryTable).row_count > 10
        await pilot.press("escape")
        assert isinstance(app.screen, MainMenu) and app.return_code is None
        await pilot.press("q")
        assert app.return_code == 0  # q on the main menu leaves the manager

    drive(sample, script)


def test_the_overview_counts_active_memories_and_the_others_apart(vault: Vault):
    vault.observe([{"role": "user", "content": "I live in Porto."}], conversation_id="a")
    vault.observe([{"role": "user", "content": "I live in Lisbon now."}], conversation_id="b")
    vault.archive(vault.remember("goal", "Run a marathon.").path)

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("1")
        text = str(app.screen.query_one("#note Static").render())
        assert "3 memories; learning is on\n1 active, 1 superseded, 1 archived\n" in text
        assert "goal          0 active, 1 archived" in text
        assert "identity      1 active, 1 superseded" in text

    drive(vault, script)


def test_ctrl_c_leaves_from_any_screen(sample: Vault):
    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("3")
        await pilot.type("neo")  # even while typing a search
        assert app.return_code is None
        await pilot.press("ctrl+c")
        assert app.return_code == 0  # leaving, before the test's own teardown ends the app

    drive(sample, script)


def test_arrows_and_enter_search_then_open_a_memory(sample: Vault):
    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("down", "down", "enter")
        assert isinstance(app.screen, MemoriesScreen) and app.screen.searching
        await pilot.type("neovim")  # q, 1, f typed here are text, not keys
        await pilot.press("enter")
        assert "result(s) for 'neovim'" in status(app)
        row = cells(app)
        assert row[2] == "direct" and "Prefers Neovim" in row[3]
        assert sample.resolve(row[0]) == "preference/Prefers Neovim over VS Code.md"
        await pilot.press("enter")
        assert isinstance(app.screen, MemoryScreen)
        header = str(app.screen.query_one("#header").render())
        assert f"id {row[0]} · preference" in header and "evidence direct" in header
        assert "preference/Prefers Neovim over VS Code.md" in header
        assert "evidence: direct" in str(app.screen.query_one("#body").render())
        await pilot.press("escape")
        assert isinstance(app.screen, MemoriesScreen)
        await pilot.press("slash")  # a new search, in an emptied box
        assert app.screen.query_one("#query").value == ""
        await pilot.type("zzzz-nothing")
        await pilot.press("enter")
        assert "0 result(s) for 'zzzz-nothing'" in status(app)

    drive(sample, script)


def test_note_text_is_shown_as_written_not_as_markup(vault: Vault):
    stored = vault.remember("habit", "Logs [b]runs[/b] [run].")

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2")
        assert cells(app)[3] == "Logs [b]runs[/b] [run]."
        await pilot.press("enter")
        assert "Logs [b]runs[/b] [run]." in str(app.screen.query_one("#body").render())

    drive(vault, script)
    assert stored.path


def test_pause_and_resume_learning(sample: Vault):
    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("4")
        assert sample.paused and "Learning paused" in status(app)
        assert str(app.screen.query_one("#learning").render()) == "learning is paused"
        menu = app.screen.query_one("#menu")
        assert "Resume learning" in str(menu.get_option_at_index(3).prompt)
        await pilot.press("4")
        assert not sample.paused and "Learning resumed" in status(app)
        assert "Pause learning" in str(menu.get_option_at_index(3).prompt)

    drive(sample, script)


def test_clear_all_that_cannot_delete_says_why_and_stays_up(
    sample: Vault, monkeypatch: pytest.MonkeyPatch
):
    """A review: Clear All's one-line refusal (a read-only type folder) escaped the manager
    as a traceback."""
    from tota_vault import manage
    from tota_vault.errors import WriteError

    def locked(root: Path, paths: object) -> None:
        raise WriteError(f"{root}/goal: cannot delete ...; nothing was deleted", path=root)

    monkeypatch.setattr(manage, "_refuse_unwritable_folders", locked)
    before = sorted(sample.root.rglob("*.md"))

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("5")
        await pilot.type("DELETE")
        await pilot.press("enter")
        assert isinstance(app.screen, MainMenu) and "nothing was deleted" in status(app)

    drive(sample, script)
    assert sorted(sample.root.rglob("*.md")) == before


def test_clear_all_asks_for_the_word_first(sample: Vault):
    root = sample.root
    before = sorted(root.rglob("*.md"))

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("5")
        assert isinstance(app.screen, ClearScreen)
        assert "cannot be undone" in str(app.screen.query_one("Static").render())
        await pilot.type("yes")
        await pilot.press("enter")
        assert isinstance(app.screen, MainMenu) and status(app) == "Nothing was deleted."
        assert sorted(root.rglob("*.md")) == before
        await pilot.press("5")
        await pilot.press("escape")
        assert status(app) == "Nothing was deleted."
        await pilot.press("5")
        await pilot.type("DELETE")
        await pilot.press("enter")
        assert status(app) == "Deleted 40 memories; 0 other notes kept."

    drive(sample, script)
    assert not [p for p in root.rglob("*.md") if ".obsidian" not in p.parts]


def test_forget_asks_first(vault: Vault):
    keep = vault.remember("goal", "Learn Welsh.", sources=["chat#1"], when=datetime(2026, 1, 1))
    gone = vault.remember("goal", "Run a marathon.", sources=["chat#2"])  # newest: first row

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2")
        assert "Run a marathon." in cells(app)[3]
        await pilot.press("f")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert isinstance(app.screen, MemoriesScreen) and status(app) == "Kept."
        assert (vault.root / gone.path).exists()
        await pilot.press("f", "y")
        assert status(app) == f"Forgot {gone.path}"
        assert app.screen.query_one(MemoryTable).row_count == 1
        assert "Learn Welsh." in cells(app)[3]

    drive(vault, script)
    assert not (vault.root / gone.path).exists() and (vault.root / keep.path).exists()
    assert "chat#2" in (vault.root / FORGOTTEN_FILE).read_text()


def test_forget_from_an_open_memory(vault: Vault):
    gone = vault.remember("goal", "Run a marathon.")

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2", "enter", "f", "y")
        assert isinstance(app.screen, MemoryScreen)
        assert f"Forgotten: {gone.path}" in str(app.screen.query_one("#header").render())
        await pilot.press("c")  # nothing left to act on
        assert status(app) == "No memory here."
        await pilot.press("escape")
        assert app.screen.query_one(MemoryTable).row_count == 0

    drive(vault, script)
    assert not (vault.root / gone.path).exists()


def sample_confidence(vault: Vault, rel: str) -> float:
    return vault.index.get(path=rel)[0].confidence


def test_archive_changes_the_note_and_confirm_raises_confidence(vault: Vault):
    stored = vault.remember("preference", "Prefers green tea.", confidence=0.6)

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2", "c")
        confidence = sample_confidence(vault, stored.path)
        assert confidence > 0.6 and status(app) == f"Confirmed: confidence {confidence:.2f}."
        assert cells(app)[1] == f"{confidence:.2f}"
        await pilot.press("enter", "a")
        header = str(app.screen.query_one("#header").render())
        assert "archived" in header and status(app).startswith("Archived")
        await pilot.press("c")
        assert "active" in str(app.screen.query_one("#header").render())

    drive(vault, script)
    data = fields(vault.root, stored.path)
    assert data["status"] == "active" and str(data["confirmations"]) == "3"
    assert sample_confidence(vault, stored.path) > 0.6


def test_archive_from_the_list_leaves_recent(vault: Vault):
    stored = vault.remember("preference", "Prefers green tea.")

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2", "a")
        assert app.screen.query_one(MemoryTable).row_count == 0  # Recent lists active ones

    drive(vault, script)
    assert fields(vault.root, stored.path)["status"] == "archived"


@pytest.fixture
def appender(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$EDITOR: a script that appends a line to the note it is given (a person's edit)."""
    script = tmp_path / "append-editor"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nopen(sys.argv[1], 'a').write('Also at night.\\n')\n"
    )
    script.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))


def test_edit_runs_the_editor_and_records_a_hand_edit(vault: Vault, appender: None):
    stored = vault.remember("preference", "Prefers green tea.", evidence="direct")

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2", "enter", "e")
        assert status(app) == "Saved; evidence manual."
        header = str(app.screen.query_one("#header").render())
        assert "evidence manual" in header
        assert "Also at night." in str(app.screen.query_one("#body").render())

    drive(vault, script)
    assert fields(vault.root, stored.path)["evidence"] == "manual"


def test_paging_home_and_end(vault: Vault):
    with vault.batch():
        for i in range(PAGE + 30):
            vault.remember("habit", f"Habit number {i} of many.")

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2")
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        table = screen.query_one(MemoryTable)
        assert table.row_count == PAGE and table.cursor_row == 0
        await pilot.press("pagedown")
        page = table.cursor_row
        assert page > 5  # a screenful, not one row
        await pilot.press("pagedown", "pageup")
        assert table.cursor_row == page
        await pilot.press("end")  # the end of the first page loads the next
        assert table.row_count == PAGE + 30 and table.cursor_row == PAGE - 1
        await pilot.press("end")
        assert table.cursor_row == PAGE + 29
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("f5", "f12", "insert")  # unbound keys do nothing
        assert isinstance(app.screen, MemoriesScreen) and table.cursor_row == 0

    drive(vault, script)


def test_ids_and_evidence_fit_sixty_columns(vault: Vault):
    long = "Keeps a very long running log " * 6
    with vault.batch():
        stored = [
            vault.remember("relationship", long + str(i), evidence="inferred") for i in range(3)
        ]
    short = vault.short_ids(s.memory.id for s in stored)

    async def script(app: MemoryManager, pilot: Pilot) -> None:
        await pilot.press("2")
        table = app.screen.query_one(MemoryTable)
        assert table.virtual_size.width <= 60 and table.max_scroll_x == 0  # nothing hidden
        shown = {cells(app, i)[0] for i in range(3)}
        assert shown == set(short.values())
        assert all(len(s) >= 6 for s in shown)
        assert {cells(app, i)[2] for i in range(3)} == {"inferred"}
        await pilot.press("enter", "f")
        dialog = app.screen.query_one(".dialog")
        assert dialog.region.right <= 60

    drive(vault, script)


# --- a real terminal, through tmux --------------------------------------------------------


class Terminal:
    """A tmux session on its own socket, 60 columns by 20 rows, running one command."""

    def __init__(self, socket: Path, command: str) -> None:
        self.base = ["tmux", "-S", str(socket)]
        subprocess.run(
            [*self.base, "new-session", "-d", "-s", "t", "-x", "60", "-y", "20", command],
            check=True,
        )

    def keys(self, *keys: str) -> None:
        """Press keys by tmux name (`Enter`, `Home`, `PPage`, `F5`) or as characters."""
        subprocess.run([*self.base, "send-keys", "-t", "t", *keys], check=True)

    def raw(self, data: str) -> None:
        """Send bytes as typed, escape sequences included."""
        subprocess.run([*self.base, "send-keys", "-t", "t", "-l", data], check=True)

    def screen(self) -> str:
        result = subprocess.run(
            [*self.base, "capture-pane", "-p", "-t", "t"], capture_output=True, text=True
        )
        return result.stdout

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        """The screen once `text` is on it and the drawing has settled (a capture can fall in
        the middle of a repaint: two captures 50 ms apart must agree)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen and screen == last:
                return screen
            last = screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen()}")

    def wait_until(self, predicate: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if predicate(screen):
                return screen
            time.sleep(0.02)
        raise AssertionError(f"never saw {what}; screen:\n{self.screen()}")

    def alive(self) -> bool:
        result = subprocess.run([*self.base, "has-session", "-t", "t"], capture_output=True)
        return result.returncode == 0

    def wait_gone(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not self.alive(), self.screen()

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


JUNK = ("[H", "[F", "~", "^[", "[5", "[6", "[1", "[2", "OH", "OF", "[A", "[B")


@pytest.fixture
def term(sample_dir: Path, tmp_path: Path):
    if shutil.which("tmux") is None or shutil.which("vim") is None:
        pytest.skip("needs tmux and vim")
    with Vault.open(sample_dir) as vault:
        vault.sync()
    vim = "vim -u NONE -N -c 'set backupskip= writebackup nobackup'"
    command = " ".join(
        shlex.quote(part) for part in
        # COLUMNS and LINES (set under pytest) would override the terminal's own size.
        ["env", "-u", "COLUMNS", "-u", "LINES", f"EDITOR={vim}", "VISUAL=", sys.executable,
         "-m", "tota_vault",
         "--vault", str(sample_dir), "memory"]
    )  # fmt: skip
    terminal = Terminal(tmp_path / "tmux.sock", command)
    try:
        terminal.wait_for("Clear all")
        yield terminal
    finally:
        terminal.close()


def assert_clean(screen: str) -> None:
    for junk in JUNK:
        assert junk not in screen, f"{junk!r} on screen:\n{screen}"


@pytest.mark.slow
def test_escape_sequences_leave_no_junk_and_q_leaves(term: Terminal):
    term.keys("Home", "End", "PPage", "NPage", "F5", "F1", "IC", "DC")
    term.raw("\x1b[H\x1b[1;5H\x1b[15~")  # Home, Ctrl+Home and F5 as raw escape sequences
    term.keys("2")
    screen = term.wait_for("Enter opens a memory")
    assert "evidence" in screen and "conf." in screen, screen
    term.keys("NPage", "PPage", "End", "Home", "F5", "F12", "Up", "Down")
    term.raw("\x1b[6~\x1b[5~\x1b[F\x1b[H\x1bOH")
    screen = term.wait_for("Enter opens a memory")
    assert_clean(screen)
    assert max(len(line) for line in screen.splitlines()) <= 60
    term.keys("q")
    screen = term.wait_for("Pause learning")
    assert_clean(screen)
    term.keys("q")
    term.wait_gone()


@pytest.mark.slow
def test_edit_in_real_vim_from_the_manager(term: Terminal, sample_dir: Path):
    rel = "preference/Prefers Neovim over VS Code.md"
    term.keys("3")
    term.wait_for("Search for")
    term.raw("neovim")
    term.keys("Enter")
    term.wait_for("result(s) for 'neovim'")
    term.keys("Enter")
    term.wait_for("evidence direct")
    term.keys("e")
    # The manager stepped aside: vim alone shows the note (no footer of the manager's).
    term.wait_until(
        lambda s: 'Prefers Neovim over VS Code.md" ' in s and "c confirm" not in s,
        "vim showing the note",
    )
    term.raw(":%s/Neovim over VS Code for/Helix for/\r")
    term.raw(":wq\r")
    screen = term.wait_for("Saved; evidence manual.")
    assert "evidence manual" in screen
    assert_clean(screen)
    note = (sample_dir / rel).read_text()
    assert "Prefers Helix for editing" in note and "evidence: manual" in note
    term.keys("Escape", "Escape", "Escape")
    term.wait_gone()
