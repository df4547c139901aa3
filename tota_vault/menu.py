"""The interactive memory manager, `tota memory` (the product's `/memory`), built on Textual.

The main menu has Overview, Recent memories, Search, Pause / Resume learning and Clear all
(arrow keys and Enter, or the item's number; q or Esc leaves). Recent and Search are lists of
memories to move through (arrows, PgUp/PgDn, Home/End; Recent loads the next page when the
cursor reaches its end), each row showing the memory's short id, confidence and evidence.
Enter opens a memory (its note as on disk); on a row or an open memory, c confirms, e edits
(the manager steps aside for `$VISUAL`/`$EDITOR` and comes back), a archives, f forgets
(after asking). Everything fits a 60-column terminal.

Textual reads the keyboard itself: Home, PgUp, F-keys and other escape sequences arrive as
keys (unbound ones do nothing), never as junk on the screen, on POSIX terminals and Windows.
Note text is drawn as rich `Text`, never as markup, so a note saying "[run]" shows "[run]".

Only this module and `cli.py` import textual and rich, and `tota memory` imports this module
only when it runs, so other commands start without them. The work itself is the library's
(`manage`, `Vault.search`, `Vault.confirm`, `archive`, `forget`, `pause`). The main menu needs
only the vault's folder and the pause flag, so the vault itself (the index, the note layer and
their imports) is opened after the first screen is drawn: a third of the start's CPU time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from .config import is_paused
from .errors import TotaError
from .rows import MemoryRow

if TYPE_CHECKING:
    from pathlib import Path

    from .index import Hit
    from .recall import Recalled
    from .vault import Vault

__all__ = ["CONFIRM_WORD", "MemoryManager", "run_menu"]

#: What a person types to confirm Clear All: a word, not a "y" a stray key could give.
CONFIRM_WORD = "DELETE"
#: Recent memories loaded at a time; the next page loads when the cursor reaches the end.
PAGE = 50
#: Search results shown (best first): more than anyone pages through.
SEARCH_LIMIT = 200
#: Columns of a list other than the memory's text: id, conf., evidence, and cell padding.
_FIXED_WIDTH = 11 + 5 + 8 + 8 + 2

CSS = """
#title { text-style: bold; height: 1; }
#learning { color: $text-muted; height: 1; }
#menu { height: auto; max-height: 9; border: none; }
#status { height: auto; max-height: 3; color: $accent; }
#list { height: 1fr; }
#note { height: 1fr; }
#header { height: auto; color: $text-muted; }
.dialog {
    width: 100%; max-width: 64; height: auto; padding: 1 2;
    border: thick $error; background: $surface;
}
ModalScreen { align: center middle; }
"""


@dataclass(frozen=True)
class Row:
    """One note in a list: what the row shows and what the actions need."""

    id: str | None
    path: str
    title: str
    text: str
    type: str | None
    confidence: float | None
    evidence: str | None
    status: str | None

    @classmethod
    def from_recalled(cls, r: Recalled) -> Row:
        return cls(r.id, r.path, r.title, r.text, r.type, r.effective_confidence, r.evidence,
                   r.status)  # fmt: skip

    @classmethod
    def from_hit(cls, hit: Hit) -> Row:
        row = hit.row
        return cls(row.memory_id, row.path, row.title, row.text or row.title,
                   row.type, row.confidence, row.evidence, row.status)  # fmt: skip


def _first_line(text: str, width: int) -> str:
    line = " ".join(text.strip().split("\n", 1)[0].split())
    return line if len(line) <= width else line[: max(1, width - 1)] + "…"


class MemoryTable(DataTable[Text]):
    """A list of memories, one row each; Home and End go to the first and last row."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First", show=False),
        Binding("end", "scroll_bottom", "Last", show=False),
    ]


class Page(Screen[None]):
    """A screen of the manager with a status line; Esc or q goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", "Back")]

    @property
    def vault(self) -> Vault:
        return self.app.vault  # type: ignore[attr-defined]

    def say(self, message: str) -> None:
        """Show one message on this screen's status line."""
        self.query_one("#status", Static).update(Text(message))

    def action_back(self) -> None:
        self.dismiss()


class MainMenu(Page):
    """The menu: Overview, Recent memories, Search, Pause/Resume learning, Clear all."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", "Quit"),
        *(Binding(str(n), f"choose({n - 1})", show=False) for n in range(1, 6)),
    ]
    LABELS = ("Overview", "Recent memories", "Search", "", "Clear all")

    def compose(self) -> ComposeResult:
        yield Static(Text(f"tota memory — {self.app.root}"), id="title")  # type: ignore[attr-defined]
        yield Static(id="learning")
        yield OptionList(*(Option(self._label(i), id=str(i)) for i in range(5)), id="menu")
        yield Static(Text("↑/↓ and Enter, or a number; q or Esc leaves"), id="status")
        yield Footer()

    def _label(self, index: int) -> str:
        label = self.LABELS[index]
        if index == 3:
            label = "Resume learning" if self._paused() else "Pause learning"
        return f"{index + 1}  {label}"

    def on_mount(self) -> None:
        self._refresh_learning()

    def _refresh_learning(self) -> None:
        state = "paused" if self._paused() else "on"
        self.query_one("#learning", Static).update(Text(f"learning is {state}"))
        self.query_one(OptionList).replace_option_prompt("3", self._label(3))

    def _paused(self) -> bool:
        return is_paused(self.app.root)  # type: ignore[attr-defined]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option_index)

    def action_back(self) -> None:
        self.app.exit()

    def action_choose(self, index: int) -> None:
        self.query_one(OptionList).highlighted = index
        if index == 0:
            self.app.push_screen(OverviewScreen())
        elif index == 1:
            self.app.push_screen(MemoriesScreen(search=False))
        elif index == 2:
            self.app.push_screen(MemoriesScreen(search=True))
        elif index == 3:
            self.toggle_learning()
        elif index == 4:
            count = self.vault.stats()["memories"]
            self.app.push_screen(ClearScreen(count, str(self.vault.root)), self._cleared)

    def toggle_learning(self) -> None:
        if self.vault.paused:
            self.vault.resume()
            self.say("Learning resumed: new memories will be stored.")
        else:
            self.vault.pause()
            self.say("Learning paused: nothing new is stored until you resume.")
        self._refresh_learning()

    def _cleared(self, confirmed: bool | None) -> None:
        if not confirmed:
            self.say("Nothing was deleted.")
            return
        from . import manage

        try:
            report = manage.clear(self.vault)
        except TotaError as exc:  # a folder it cannot write: the one line, and the app stays
            self.say(str(exc))
            return
        held = f"; {len(report.held)} held by an editor kept" if report.held else ""
        self.say(f"Deleted {len(report.deleted)} memories; {report.kept} other notes kept{held}.")


class OverviewScreen(Page):
    """Totals per type and evidence kind, learning on or paused, a short profile."""

    def compose(self) -> ComposeResult:
        from . import manage

        data = manage.overview(self.vault)
        text = Text("Overview\n", style="bold")
        statuses = manage.status_counts(data["by_status"])
        text.append(f"{data['memories']} memories; learning is {data['learning']}\n{statuses}\n\n")
        for mtype, counted in manage.type_counts(data["by_type_status"]).items():
            text.append(f"  {mtype:13} {counted}\n")
        text.append(f"\nevidence (every memory): {manage.evidence_counts(data['by_evidence'])}\n")
        if data["invalid"]:
            text.append(f"{data['invalid']} invalid notes (see `tota doctor`)\n")
        text.append(f"conversation turns: {manage.turn_counts(data)}\n")
        if data["profile"]:
            text.append("\nProfile\n", style="bold")
            for line in data["profile"]:
                text.append(f"- {line}\n")
        with VerticalScroll(id="note"):
            yield Static(text)
        yield Static(id="status")
        yield Footer()


class MemoryActions(Page):
    """Confirm, edit, archive and forget, for the screens that show memories."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("q", "back", "Back", show=False),
        Binding("c", "confirm", "Confirm"),
        Binding("e", "edit", "Edit"),
        Binding("a", "archive", "Archive"),
        Binding("f", "forget", "Forget"),
    ]

    def current(self) -> Row | None:
        """The memory the actions apply to."""
        raise NotImplementedError

    def changed(self, row: Row, forgotten: bool = False) -> None:
        """Show the memory as it is after an action."""
        raise NotImplementedError

    def _run(self, row: Row | None, action: Callable[[Row], str]) -> None:
        if row is None:
            self.say("No memory here.")
            return
        try:
            message = action(row)
        except TotaError as exc:
            self.say(str(exc))
            return
        self.say(message)

    def action_confirm(self) -> None:
        def confirm(row: Row) -> str:
            self.vault.confirm(row.path)
            conf = self.vault.open_index().get(path=row.path)[0].confidence or 0.0
            self.changed(row)
            return f"Confirmed: confidence {conf:.2f}."

        self._run(self.current(), confirm)

    def action_archive(self) -> None:
        def archive(row: Row) -> str:
            self.vault.archive(row.path)
            self.changed(row)
            return "Archived: recall skips it; c confirms it back."

        self._run(self.current(), archive)

    def action_edit(self) -> None:
        def edit(row: Row) -> str:
            from . import manage

            with self._suspended():
                report = manage.edit_in_editor(self.vault, row.path)
            self.changed(row)
            if not report.changed:
                return "Unchanged."
            if report.error:
                return f"Saved, but it is not a valid memory now: {report.error}"
            return f"Saved; evidence {report.evidence}."

        self._run(self.current(), edit)

    @contextlib.contextmanager
    def _suspended(self) -> Iterator[None]:
        """Give the terminal to the editor; where that is impossible (a headless test), the
        editor runs without it."""
        try:
            with self.app.suspend():
                yield
        except SuspendNotSupported:
            yield

    def action_forget(self) -> None:
        row = self.current()
        if row is None:
            self.say("No memory here.")
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.say("Kept.")
                return

            def forget(row: Row) -> str:
                path = self.vault.forget(row.path)
                self.changed(row, forgotten=True)
                return f"Forgot {path}"

            self._run(row, forget)

        self.app.push_screen(ConfirmScreen(row), answered)


class MemoriesScreen(MemoryActions):
    """Recent memories, or search results: a list to move through and act on."""

    def __init__(self, *, search: bool) -> None:
        super().__init__()
        self.searching = search
        self.rows: list[Row] = []
        self.query_text = ""
        self.more = not search  # Recent: another page may follow

    def compose(self) -> ComposeResult:
        title = "Search" if self.searching else "Recent memories"
        yield Static(Text(title), id="title")
        if self.searching:
            yield Input(placeholder="Search for… (Enter)", id="query")
        yield MemoryTable(id="list", cursor_type="row")
        hint = "Type words and press Enter" if self.searching else "Enter opens a memory"
        yield Static(Text(hint), id="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(MemoryTable)
        for label in ("id", "conf.", "evidence", "memory"):
            table.add_column(label, key=label)
        if self.searching:
            self.query_one(Input).focus()
        else:
            self._load_page()
            table.focus()

    # --- filling the list ------------------------------------------------------------------

    def _text_width(self) -> int:
        return max(16, (self.size.width or 60) - _FIXED_WIDTH)

    def _add(self, rows: list[Row]) -> None:
        table = self.query_one(MemoryTable)
        short = self.vault.short_ids(r.id for r in rows)
        width = self._text_width()
        for row in rows:
            conf = "" if row.confidence is None else f"{row.confidence:.2f}"
            status = "" if row.status in (None, "active") else f"({row.status}) "
            table.add_row(
                Text(short.get(row.id or "", "-")),
                Text(conf, justify="right"),
                Text(row.evidence or "-"),
                Text(_first_line(status + row.text, width)),
                key=row.path,
            )
            self.rows.append(row)

    def _load_page(self) -> None:
        from . import manage

        page = manage.recent(self.vault, limit=PAGE, offset=len(self.rows))
        self.more = len(page) == PAGE
        self._add([Row.from_recalled(r) for r in page])
        if not self.rows:
            self.say("No memories yet.")

    def _reload(self) -> None:
        table = self.query_one(MemoryTable)
        cursor = table.cursor_row
        loaded = len(self.rows)
        table.clear()
        self.rows = []
        if self.searching:
            self._search(self.query_text, quiet=True)
        else:
            from . import manage

            page = manage.recent(self.vault, limit=max(loaded, PAGE))
            self.more = len(page) >= max(loaded, PAGE)
            self._add([Row.from_recalled(r) for r in page])
        if self.rows:
            table.move_cursor(row=min(cursor, len(self.rows) - 1))

    def _search(self, query: str, *, quiet: bool = False) -> None:
        self.query_text = query
        try:
            hits = self.vault.search(query, limit=SEARCH_LIMIT) if query.strip() else []
        except TotaError as exc:
            self.say(str(exc))
            return
        self._add([Row.from_hit(hit) for hit in hits])
        if not quiet:
            self.say(f"{len(hits)} result(s) for {query!r}; Enter opens one, / searches again")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one(MemoryTable).clear()
        self.rows = []
        self._search(event.value)
        if self.rows:
            self.query_one(MemoryTable).focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.more and event.cursor_row >= len(self.rows) - 1:
            self._load_page()  # the cursor reached the end: the next page

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        row = self.current()
        if row is not None:
            self.app.push_screen(MemoryScreen(row), lambda _result: self._reload())

    def key_slash(self) -> None:
        if self.searching:
            query = self.query_one(Input)
            query.value = ""
            query.focus()

    # --- actions ---------------------------------------------------------------------------

    def current(self) -> Row | None:
        table = self.query_one(MemoryTable)
        if not self.rows or not (0 <= table.cursor_row < len(self.rows)):
            return None
        return self.rows[table.cursor_row]

    def changed(self, row: Row, forgotten: bool = False) -> None:
        self._reload()


class MemoryScreen(MemoryActions):
    """One memory: its id, type, confidence and evidence, and its note as on disk."""

    def __init__(self, row: Row) -> None:
        super().__init__()
        self.row: Row | None = row

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with VerticalScroll(id="note"):
            yield Static(id="body")
        yield Static(Text("c confirm · e edit · a archive · f forget · Esc back"), id="status")
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        if self.row is None:
            return
        try:
            _note, text = self.vault.read(self.row.path)
        except TotaError as exc:
            self.say(str(exc))
            return
        rows = self.vault.open_index().get(path=self.row.path)
        fields = rows[0] if rows else MemoryRow(path=self.row.path)
        memory_id = fields.memory_id
        short = self.vault.short_ids([memory_id]).get(memory_id or "", "-")
        conf = fields.confidence
        header = Text(f"id {short} · {fields.type or 'note'}", style="bold")
        header.append(
            f"\nconfidence {'-' if conf is None else f'{conf:.2f}'} · evidence "
            f"{fields.evidence or '-'} · {fields.status or '-'}\n{self.row.path}"
        )
        self.query_one("#header", Static).update(header)
        self.query_one("#body", Static).update(Text(text))

    def current(self) -> Row | None:
        return self.row

    def changed(self, row: Row, forgotten: bool = False) -> None:
        if forgotten:
            self.row = None
            self.query_one("#header", Static).update(Text(f"Forgotten: {row.path}"))
            self.query_one("#body", Static).update(Text(""))
            return
        self._show()


class ConfirmScreen(ModalScreen[bool]):
    """Asks before a memory is forgotten: y forgets, n or Esc keeps it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Forget"),
        Binding("n,escape,q", "answer(False)", "Keep"),
    ]

    def __init__(self, row: Row) -> None:
        super().__init__()
        self.row = row

    def compose(self) -> ComposeResult:
        text = Text("Forget this memory?\n\n", style="bold")
        text.append(_first_line(self.row.text, 200) + "\n\n")
        text.append(
            f"This deletes {self.row.path}; tota will not learn it again from the same "
            "message. It cannot be undone (unless the vault is in git or a backup).\n\n"
        )
        text.append("y forget · n keep")
        with Vertical(classes="dialog"):
            yield Static(text)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ClearScreen(ModalScreen[bool]):
    """Clear All asks for a word, not a key a stray press could give."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back")]

    def __init__(self, count: int, root: str) -> None:
        super().__init__()
        self.count = count
        self.root = root

    def compose(self) -> ComposeResult:
        text = Text("Clear all memories\n\n", style="bold")
        text.append(
            f"This permanently deletes all {self.count} memory notes from {self.root}. "
            "It cannot be undone (unless the vault is in git or a backup). Notes that are "
            f"not memories stay.\n\nType {CONFIRM_WORD} and Enter to delete them; Esc goes back."
        )
        with Vertical(classes="dialog"):
            yield Static(text)
            yield Input(placeholder=CONFIRM_WORD, id="word")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() == CONFIRM_WORD)

    def action_cancel(self) -> None:
        self.dismiss(False)


class MemoryManager(App[None]):
    """The manager over the vault at `root` (or over `vault`, already open)."""

    CSS = CSS
    TITLE = "tota memory"
    ENABLE_COMMAND_PALETTE = False
    #: Ctrl+C leaves, as in any command (Textual's default only says how to quit).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True)
    ]

    def __init__(self, root: Path, *, vault: Vault | None = None) -> None:
        super().__init__()
        self.root = root
        self._vault = vault

    @property
    def vault(self) -> Vault:
        """The vault, opened on first use (after the first screen, see `on_mount`)."""
        if self._vault is None:
            from .vault import Vault

            self._vault = Vault.open(self.root)
        return self._vault

    def on_mount(self) -> None:
        # Open it once the menu is on screen, so the first key is not the one that waits.
        self.call_after_refresh(lambda: self.vault)

    def close_vault(self) -> None:
        """Close the vault if the manager opened it."""
        if self._vault is not None:
            self._vault.close()

    def get_default_screen(self) -> Screen[Any]:
        # The menu is the app's first screen itself, not pushed over a blank one: one screen
        # less to lay out and paint before the person sees anything.
        return MainMenu()


def run_menu(root: Path) -> None:
    """Run the manager over the vault at `root` on the terminal this process is attached to."""
    app = MemoryManager(root)
    try:
        app.run()
    finally:
        app.close_vault()
