"""Managing the memory: an overview, the recent memories, one memory at a time, clearing it all.

These are what the `/memory` manager shows (`tota memory`) and their script-friendly twins
(`tota overview`, `tota recent`, `tota edit`, `tota clear --yes`). Reads come from the index;
`clear` and `Vault.forget` are the only places tota deletes notes, and they delete only
memories. Both leave a tombstone of the messages behind what they deleted (`forgotten.py`), so
the same conversation observed again does not bring it back, and both call
`forget_conversations`, the one place that will remove what the index keeps of those
conversations.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import load_config
from .errors import LearnerRunningError, NotAMemoryError, ValidationError, WriteError
from .files import EFFECTIVE, held_by_editor, read_file
from .forgotten import add_forgotten
from .ids import short_ids
from .learning import running_learners
from .notes import text_problem
from .paths import state_dir
from .recall import Recalled, as_recalled, profile
from .rows import MemoryRow

if TYPE_CHECKING:
    from .index import Index
    from .vault import Vault

__all__ = [
    "ClearReport",
    "EditReport",
    "clear",
    "edit_in_editor",
    "editor_command",
    "forget_conversations",
    "overview",
    "recent",
    "short_ids",
    "status_counts",
    "type_counts",
]


def overview(vault: Vault, *, profile_size: int = 5) -> dict[str, Any]:
    """Totals per type and evidence kind, the conversation turns kept, whether learning is
    paused, a short profile. `memories`, `by_type` and `by_evidence` count every memory;
    `active`, `by_status` and `by_type_status` say which are active, superseded, archived."""
    counts = vault.stats()
    index = vault.open_index()
    summary = [r.text for r in profile(index, limit=profile_size)]
    kept = index.turns().counts()
    return {
        "vault": counts["vault"],
        "memories": counts["memories"],
        # What recall can quote of past conversations (turns.py), and whether it keeps more.
        "turns": kept["turns"],
        "conversations": kept["conversations"],
        "turns_kept": "on" if load_config(vault.root).turns else "off",
        "by_type": counts["by_type"],
        # Added beside the keys above, which count every memory whatever its status.
        "active": counts["active"],
        "by_status": counts["by_status"],
        "by_type_status": counts["by_type_status"],
        "by_evidence": counts["by_evidence"],
        "invalid": counts["invalid"],
        "learning": "paused" if vault.paused else "on",
        "last_sync": counts["last_sync"],
        "profile": summary,
    }


def status_counts(by_status: Mapping[str, int]) -> str:
    """ "26 active, 1 superseded, 1 archived" (a status with none is left out, but active):
    how every view of the counts says which memories recall uses. Pure."""
    parts = [f"{by_status.get('active', 0)} active"]
    parts += [f"{n} {status}" for status, n in by_status.items() if status != "active" and n]
    return ", ".join(parts)


def type_counts(by_type_status: Mapping[str, Mapping[str, int]]) -> dict[str, str]:
    """Each type's count as the views print it: "5 active", "0 active, 1 superseded". Pure."""
    return {mtype: status_counts(statuses) for mtype, statuses in by_type_status.items()}


def evidence_counts(by_evidence: Mapping[str, int]) -> str:
    """ "direct 12, inferred 3, manual 2", or "none": how every view says how the memories were
    learned. Pure."""
    return ", ".join(f"{kind} {n}" for kind, n in by_evidence.items()) or "none"


def turn_counts(data: Mapping[str, Any]) -> str:
    """ "1,204 of 3 conversations (kept for recall to quote: on)": the turns line of an
    `overview`, as every view prints it. Pure."""
    return (
        f"{data['turns']} of {data['conversations']} conversations "
        f"(kept for recall to quote: {data['turns_kept']})"
    )


def recent(vault: Vault, *, limit: int = 10, offset: int = 0) -> list[Recalled]:
    """The `limit` active memories changed most recently, with effective confidence; `offset`
    skips that many first (the manager loads the list a page at a time)."""
    return as_recalled(vault.open_index().recent_rows(limit, offset))


@dataclass
class ClearReport:
    """What Clear All deleted, and what it left because it is not a memory."""

    deleted: list[str] = field(default_factory=list)
    kept: int = 0  # notes in the vault that are not memories
    #: Conversation turns deleted from the index (turns.py): every one, whatever its memory.
    turns: int = 0
    #: Damaged indexes moved aside (`index.db.broken-*`) deleted too: they held the text.
    broken_copies: list[str] = field(default_factory=list)
    #: Memories an editor holds open (a swap file or lock beside them), left as they are: the
    #: editor's next save would write them back.
    held: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "deleted": len(self.deleted),
            "kept": self.kept,
            "turns": self.turns,
            "paths": self.deleted,
            "broken_index_copies": self.broken_copies,
            "held": self.held,
        }


def clear(vault: Vault) -> ClearReport:
    """Delete every memory note (irreversible) and empty the index of them.

    Files that are not memories (plain notes, invalid notes, anything that is not Markdown)
    stay; every conversation turn the index keeps goes. The vault is synced first, so a memory
    a person just wrote is known; a note that changes between that sync and its deletion is
    left alone. The messages behind the deleted memories are tombstoned (an assistant hook
    that reads the whole conversation again after the next reply must not learn everything
    back) and handed to `forget_conversations`.
    Damaged indexes tota moved aside are deleted too (each is a copy of every memory's text).
    """
    running = running_learners(state_dir(vault.root))
    if running:
        # What it writes meanwhile would be left beside the tombstones of what it learned.
        raise LearnerRunningError(
            f"{vault.root}: a learner is running (process {', '.join(map(str, running))}): "
            "nothing was deleted; stop it (or let it finish) and clear again (if no tota "
            "runs, delete its .tota/learning.<process> file)"
        )
    vault.sync()
    report = ClearReport()
    index = vault.open_index()
    rows = index.memory_files()
    _refuse_unwritable_folders(vault.root, [row.path for row in rows])
    forgotten = [source for row in rows for source in row.sources]
    forgotten += index.capped_sources()  # and those the cap left out of the notes
    # Tombstones first: a crash before the deletes leaves memories and their tombstones (the
    # memories stay findable), never deleted memories that the next observation brings back.
    # A note left below (changed since the sync) still cites its tombstoned messages, which
    # the pipeline skips for that reason anyway.
    add_forgotten(vault.root, forgotten)
    failed: list[str] = []
    for row in rows:
        rel, known_hash = row.path, row.hash
        path = vault.root / rel
        try:
            _data, fingerprint = read_file(path)
        except Exception:  # noqa: BLE001 - gone or unreadable: nothing to delete
            continue
        if fingerprint.hash != known_hash:
            continue  # changed since the sync: not the memory tota knows, so not deleted
        if held_by_editor(path):
            report.held.append(rel)
            continue
        try:
            os.unlink(path)
        except OSError as exc:  # the folders were writable a moment ago: finish, then say
            failed.append(f"{path} ({exc.strerror or exc})")
            continue
        report.deleted.append(rel)
    # Every turn, not only those the memories cite: clearing the memory clears what it heard.
    report.turns = index.turns().clear()
    vault.reindex()
    index = vault.open_index()  # the one the reindex built
    forget_conversations(index, forgotten)
    report.broken_copies = [p.name for p in vault.delete_broken_copies()]
    report.kept = index.counts()["notes"] - len(report.held)
    if failed:
        raise WriteError(
            f"{failed[0]}: cannot delete; {len(failed) - 1} more not deleted, "
            f"{len(report.deleted)} deleted and gone from the index",
            path=vault.root,
        )
    return report


def _refuse_unwritable_folders(root: Path, paths: Sequence[str]) -> None:
    """Stop a Clear All before anything is deleted when a folder holding memories cannot be
    written (a note in it cannot be deleted): a clear that stops halfway leaves some memories
    and not others."""
    folders = sorted({os.path.dirname(os.path.join(root, rel)) for rel in paths})
    locked = [f for f in folders if not os.access(f, os.W_OK | os.X_OK, effective_ids=EFFECTIVE)]
    if locked:
        more = f" (and {len(locked) - 1} more)" if len(locked) > 1 else ""
        raise WriteError(
            f"{locked[0]}{more}: cannot delete the memories in this folder (not writable); "
            "nothing was deleted: make it writable and run it again",
            path=Path(locked[0]),
        )


def said_already(vault: Vault, type: str, text: str) -> MemoryRow | None:
    """An active memory of this type whose statement is `text` word for word (case, spacing
    and a final stop aside), found by the merge look-up: `tota add` and MCP `remember` of the
    same words again make no "... 2.md" (add refuses, remember confirms the one there is)."""
    from .pipeline import query_words
    from .text import said_alike

    index = vault.open_index()
    rows = index.similar(query_words(text), type=type.lower(), subject="user")
    return next((r for r in rows if said_alike(r.text, text)), None)


def forget_conversations(index: Index, sources: Iterable[str]) -> int:
    """Remove what the index keeps of the conversations behind deleted memories.

    The one place `Vault.forget` and `clear` call for it, given the deleted memories' sources
    (`<conversation>#<message>`): the turns those sources name (turns.py) are deleted, so
    forgetting a memory also forgets the words it came from and recall cannot quote them
    back. Returns how many turns it removed.
    """
    return index.turns().forget(sources)


def editor_command(environ: Mapping[str, str] | None = None) -> list[str]:
    """The person's editor as a command line: `$VISUAL`, else `$EDITOR`, else vi (notepad on
    Windows). Split as a shell would, so `code --wait` works."""
    env = os.environ if environ is None else environ
    default = "notepad" if os.name == "nt" else "vi"
    raw = (env.get("VISUAL") or "").strip() or (env.get("EDITOR") or "").strip() or default
    try:
        if os.name != "nt":
            return shlex.split(raw)
        # Windows paths hold backslashes that POSIX splitting would eat; non-POSIX splitting
        # keeps the quotes around `"C:\Program Files\...\code.exe"`, so they are taken off.
        return [_unquote(token) for token in shlex.split(raw, posix=False)]
    except ValueError as exc:
        name = "$VISUAL" if (env.get("VISUAL") or "").strip() else "$EDITOR"
        raise ValidationError(f"{name} {raw!r} cannot be read as a command: {exc}") from None


def _unquote(token: str) -> str:
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'":
        return token[1:-1]
    return token


@dataclass(frozen=True)
class EditReport:
    """What a person's edit in their editor did to one note."""

    path: str
    changed: bool
    evidence: str | None = None  # the note's evidence afterwards (`manual` after a change)
    error: str | None = None  # why the note is no longer a valid memory, if it is not
    editor_status: int = 0  # the editor's exit status (non-zero: it reported a problem)
    error_before: str | None = None  # why it was no valid memory before the edit, if it was not

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return dict(self.__dict__)


def edit_in_editor(vault: Vault, ref: str, *, editor: Sequence[str] | None = None) -> EditReport:
    """Open one note in the person's editor, wait for it to close, and record the change.

    A changed note is synced at once, so it goes through the same hand-edit path as an edit
    in any other editor (`evidence: manual`, sealed again; see seal.py); a note the person
    broke is kept as written and reported invalid. An unchanged note is left untouched.
    The caller gives the editor the terminal (the manager suspends itself first).
    """
    rel = vault.resolve(ref)
    vault.sync(paths=[rel])  # a pending change is recorded before, not mistaken for this one
    path = vault.root / rel
    data, before = read_file(path)
    not_text = text_problem(data)
    if not_text is not None:  # an editor would show it garbled, and save it so
        raise NotAMemoryError(
            f"{not_text}; tota edit opens text notes only (save it as UTF-8 text first, e.g. "
            "`iconv -f latin1 -t utf-8`, or delete it)",
            path=rel,
        )
    rows = vault.open_index().get(path=rel)
    error_before = rows[0].error if rows else None
    command = list(editor) if editor else editor_command()
    try:
        status = subprocess.run([*command, str(path)], check=False).returncode
    except FileNotFoundError:
        raise ValidationError(
            f"editor {command[0]!r} not found; set $VISUAL or $EDITOR to one that is installed"
        ) from None
    if not os.path.lexists(path):
        # Deleting a memory is `tota forget`'s job; the index learns of the deletion as usual.
        vault.sync(paths=[rel])
        return EditReport(rel, True, error="the editor deleted the note", editor_status=status)
    _data, after = read_file(path)
    if after.hash == before.hash:
        return EditReport(rel, False, editor_status=status)
    vault.sync(paths=[rel])
    rows = vault.open_index().get(path=rel)
    row = rows[0] if rows else MemoryRow(path=rel)
    return EditReport(
        rel, True, evidence=row.evidence, error=row.error, editor_status=status,
        error_before=error_before,
    )  # fmt: skip
