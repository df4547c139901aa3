"""The interactive memory manager, `tota memory` (the product's `/memory`).

A small full-screen menu in the terminal: Overview, Recent Memories, Search, Pause / Resume
Learning, Clear All. Arrow keys and Enter, or the item's number, choose; Esc or q goes back
(and, on the main menu, leaves). Note text is printed through rich `Text`, never as markup,
so a note saying "[run]" shows "[run]".

Only this module and `cli.py` import rich; the work itself is the library's (`manage`,
`Vault.search`, `Vault.pause`).
"""

from __future__ import annotations

import os
import select
import sys
import termios
import tty
from collections.abc import Callable
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import manage

if TYPE_CHECKING:
    from collections.abc import Iterator

    from .vault import Vault

__all__ = ["CONFIRM_WORD", "run_menu"]

#: What a person types to confirm Clear All: a word, not a "y" a stray key could give.
CONFIRM_WORD = "DELETE"
UP, DOWN, ENTER, BACK = "up", "down", "enter", "back"


@contextmanager
def _raw(stream: object) -> Iterator[None]:
    """Put the terminal in cbreak mode (keys arrive one by one) and always restore it."""
    fd = stream.fileno()  # type: ignore[attr-defined]
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_key(fd: int) -> str:
    """One key press: `up`, `down`, `enter`, `back` (Esc, q), or the character typed."""
    first = os.read(fd, 1)
    if first == b"\x1b":
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            return BACK  # a lone Esc
        rest = os.read(fd, 2)
        return {b"[A": UP, b"[B": DOWN, b"OA": UP, b"OB": DOWN}.get(rest, "")
    if first in (b"\r", b"\n"):
        return ENTER
    char = first.decode("utf-8", errors="ignore")
    if char in ("q", "Q"):
        return BACK
    if char in ("k",):
        return UP
    if char in ("j",):
        return DOWN
    return char


class Menu:
    """The manager's screens over one vault."""

    def __init__(self, vault: Vault, console: Console, fd: int) -> None:
        self.vault = vault
        self.console = console
        self.fd = fd

    # --- main loop -------------------------------------------------------------------------

    def items(self) -> list[tuple[str, Callable[[], None]]]:
        learning = "Resume learning" if self.vault.paused else "Pause learning"
        return [
            ("Overview", self.show_overview),
            ("Recent memories", self.show_recent),
            ("Search", self.search),
            (learning, self.toggle_learning),
            ("Clear all", self.clear_all),
        ]

    def run(self) -> None:
        selected = 0
        while True:
            items = self.items()
            self.console.clear()
            self.console.print(Text(f"tota memory — {self.vault.root}", style="bold"))
            paused = " (learning is paused)" if self.vault.paused else ""
            self.console.print(Text(f"↑/↓ and Enter, or a number; q or Esc leaves{paused}\n"))
            for i, (label, _action) in enumerate(items):
                marker = "›" if i == selected else " "
                style = "reverse" if i == selected else ""
                self.console.print(Text(f" {marker} {i + 1}  {label}", style=style))
            key = read_key(self.fd)
            if key == BACK:
                return
            if key == UP:
                selected = (selected - 1) % len(items)
            elif key == DOWN:
                selected = (selected + 1) % len(items)
            elif key == ENTER:
                items[selected][1]()
            elif key.isdigit() and 1 <= int(key) <= len(items):
                selected = int(key) - 1
                items[selected][1]()

    def wait(self) -> None:
        self.console.print(Text("\nPress any key to go back."))
        read_key(self.fd)

    def ask(self, prompt: str) -> str:
        """A line of input, typed with echo (cooked mode) for the duration of the question."""
        fd = self.fd
        saved = termios.tcgetattr(fd)
        cooked = termios.tcgetattr(fd)
        cooked[3] |= termios.ICANON | termios.ECHO
        termios.tcsetattr(fd, termios.TCSADRAIN, cooked)
        try:
            self.console.print(Text(prompt), end="")
            line = b""
            while not line.endswith(b"\n"):
                chunk = os.read(fd, 1024)
                if not chunk:
                    break
                line += chunk
            return line.decode("utf-8", errors="replace").strip()
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    # --- screens ---------------------------------------------------------------------------

    def show_overview(self) -> None:
        data = manage.overview(self.vault)
        self.console.clear()
        self.console.print(Text("Overview", style="bold"))
        self.console.print(Text(f"{data['memories']} memories; learning is {data['learning']}"))
        table = Table(box=None, show_header=True, header_style="bold")
        table.add_column("type")
        table.add_column("count", justify="right")
        for mtype, count in data["by_type"].items():
            table.add_row(mtype, str(count))
        self.console.print(table)
        evidence = ", ".join(f"{k} {v}" for k, v in data["by_evidence"].items()) or "none"
        self.console.print(Text(f"evidence: {evidence}"))
        if data["invalid"]:
            self.console.print(Text(f"{data['invalid']} invalid notes (see `tota doctor`)"))
        if data["profile"]:
            self.console.print(Text("\nProfile", style="bold"))
            for line in data["profile"]:
                self.console.print(Text(f"- {line}"))
        self.wait()

    def show_recent(self) -> None:
        results = manage.recent(self.vault)
        self.console.clear()
        self.console.print(Text("Recent memories", style="bold"))
        self.console.print(recent_table(results))
        self.wait()

    def search(self) -> None:
        self.console.clear()
        query = self.ask("Search for: ")
        if not query:
            return
        from .errors import TotaError

        try:
            hits = self.vault.search(query, limit=9)
        except TotaError as exc:
            self.console.print(Text(str(exc)))
            self.wait()
            return
        self.console.print(Text(f"\n{len(hits)} result(s) for {query!r}", style="bold"))
        for i, hit in enumerate(hits, 1):
            line = Text(f" {i}  ")
            line.append(hit.row["title"], style="bold")
            line.append(f"  ({hit.row['type'] or 'note'})\n     ")
            for piece, matched in hit.snippet_parts():
                line.append(piece.replace("\n", " "), style="reverse" if matched else "")
            self.console.print(line)
        if not hits:
            self.wait()
            return
        self.console.print(Text("\nA number opens a note; any other key goes back."))
        key = read_key(self.fd)
        if key.isdigit() and 1 <= int(key) <= len(hits):
            note, text = self.vault.read(hits[int(key) - 1].path)
            self.console.clear()
            self.console.print(Text(note.path, style="bold"))
            self.console.print(Text(text))
            self.wait()

    def toggle_learning(self) -> None:
        if self.vault.paused:
            self.vault.resume()
            message = "Learning resumed: new memories will be stored."
        else:
            self.vault.pause()
            message = "Learning paused: nothing new is stored until you resume."
        self.console.clear()
        self.console.print(Text(message))
        self.wait()

    def clear_all(self) -> None:
        count = self.vault.stats()["memories"]
        self.console.clear()
        self.console.print(Text("Clear all memories", style="bold red"))
        self.console.print(Text(
            f"This permanently deletes all {count} memory notes from {self.vault.root}.\n"
            "It cannot be undone (unless the vault is in git or a backup). Notes that are not "
            "memories stay."
        ))  # fmt: skip
        answer = self.ask(f"Type {CONFIRM_WORD} to delete them, or press Enter to go back: ")
        if answer != CONFIRM_WORD:
            self.console.print(Text("Nothing was deleted."))
            self.wait()
            return
        report = manage.clear(self.vault)
        self.console.print(Text(
            f"Deleted {len(report.deleted)} memories; {report.kept} other notes kept."
        ))  # fmt: skip
        self.wait()


def recent_table(results: list) -> Table:  # type: ignore[type-arg]
    """The recent memories as a table: text, type, confidence, evidence, date."""
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("memory", overflow="fold")
    table.add_column("type")
    table.add_column("conf.", justify="right")
    table.add_column("evidence")
    table.add_column("updated")
    for result in results:
        conf = result.effective_confidence
        first = result.text.strip().split("\n", 1)[0]
        table.add_row(
            Text(first if len(first) <= 120 else first[:119] + "…"),
            result.type or "-",
            "" if conf is None else f"{conf:.2f}",
            result.evidence or "-",
            (result.updated or "")[:10],
        )
    return table


def run_menu(vault: Vault) -> None:
    """Run the manager on the terminal this process is attached to."""
    stdin = sys.stdin
    console = Console(highlight=False)
    with _raw(stdin):
        Menu(vault, console, stdin.fileno()).run()
    console.clear()
