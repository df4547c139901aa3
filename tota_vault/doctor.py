"""Health checks for a vault: invalid notes, index drift, duplicate ids, index integrity,
and notes that hold a secret (stored before the guard knew its phrasing).

`diagnose` only reads. It compares the files with the index the same way a sync would (stat,
then hash what differs) but changes neither, so it can tell a person exactly what a sync would
fix and what needs their hand.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import NoteError
from .extract.secrets import describe, find_secrets
from .files import (
    EFFECTIVE,
    STALE_TEMP_SECONDS,
    TEMP_PATTERN,
    held_by_editor,
    open_for_writing,
    read_file,
)
from .index import Index
from .notes import parse_note
from .paths import broken_index_copies
from .sync import HAND_EDIT_WAITS, ID_WAITS, plan_scan, take_snapshot, waits_for_patch

__all__ = ["DoctorReport", "diagnose"]


@dataclass
class DoctorReport:
    """What `tota doctor` found. `ok` is False when anything needs attention."""

    invalid: list[tuple[str, str]] = field(default_factory=list)
    drift: list[tuple[str, str]] = field(default_factory=list)
    duplicate_ids: dict[str, list[str]] = field(default_factory=dict)
    integrity: list[str] = field(default_factory=list)
    blocked: list[tuple[str, str]] = field(default_factory=list)
    #: Notes an editor holds open (vim's swap file, Emacs's lock), indexed as they are, whose
    #: patch waits for it to close: (path, what waits). Not a problem, and not drift: a sync
    #: can do nothing about it, the daemon or the next sync after the editor closes does it.
    held: list[tuple[str, str]] = field(default_factory=list)
    git: list[str] = field(default_factory=list)
    #: Notes tota cannot read (permission denied); the index keeps what it last read of them.
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    #: Folder links that lead outside the vault (not followed).
    links: list[tuple[str, str]] = field(default_factory=list)
    #: Stale temp files of tota's, left by a killed write: (path, age in seconds).
    temp_files: list[tuple[str, float]] = field(default_factory=list)
    #: Patterns a git vault's .gitignore lacks (`tota init` adds them).
    gitignore_missing: list[str] = field(default_factory=list)
    #: Note links to another note of the vault, (link, target): not a problem (the target is
    #: indexed where it is), said so a person knows why the link is not listed on its own.
    aliases: list[tuple[str, str]] = field(default_factory=list)
    #: A damaged index tota moved aside, kept for a look: (full path, age in seconds). Not a
    #: problem for `ok`, but it holds every memory's text, forgotten ones too: said, with how
    #: to delete it.
    broken_copies: list[tuple[str, float]] = field(default_factory=list)
    #: Notes whose title or text holds a secret: (path, the kind as a person reads it). Never
    #: the value: the report may be pasted into an issue.
    secrets: list[tuple[str, str]] = field(default_factory=list)
    notes: int = 0

    @property
    def ok(self) -> bool:
        """True when nothing needs attention."""
        return not (
            self.invalid
            or self.drift
            or self.duplicate_ids
            or self.integrity
            or self.blocked
            or self.git
            or self.unreadable
            or self.links
            or self.temp_files
            or self.gitignore_missing
            or self.secrets
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (`tota doctor --json`)."""
        return {
            "ok": self.ok,
            "notes": self.notes,
            "invalid": [{"path": p, "reason": r} for p, r in self.invalid],
            "drift": [{"path": p, "problem": r} for p, r in self.drift],
            "duplicate_ids": [{"id": i, "paths": ps} for i, ps in self.duplicate_ids.items()],
            "integrity": self.integrity,
            "unreadable_folders": [{"path": p, "reason": r} for p, r in self.blocked],
            "held": [{"path": p, "waiting": w} for p, w in self.held],
            "git": self.git,
            "unreadable_notes": [{"path": p, "reason": r} for p, r in self.unreadable],
            "external_links": [{"path": p, "reason": r} for p, r in self.links],
            "temp_files": [{"path": p, "age_seconds": round(a)} for p, a in self.temp_files],
            "gitignore_missing": self.gitignore_missing,
            "secrets": [{"path": p, "kind": k} for p, k in self.secrets],
            "aliases": [{"path": p, "alias_of": t} for p, t in self.aliases],
            "broken_index_copies": [
                {"path": p, "age_seconds": round(a)} for p, a in self.broken_copies
            ],
        }


def diagnose(root: Path, index: Index, *, follow_external: bool = False) -> DoctorReport:
    """Check a vault against its index without changing either."""
    report = DoctorReport()
    indexed = index.files()
    blocked: list[tuple[str, str]] = []
    temps: list[str] = []
    snapshot = take_snapshot(
        root, None, blocked, temps=temps, links=report.links, follow_external=follow_external,
        aliases=report.aliases,
    )  # fmt: skip
    report.blocked = blocked
    report.notes = len(snapshot)
    plan = plan_scan(snapshot.stamps, indexed)
    stale = set(plan.to_read)
    for path in plan.to_read:
        known = indexed.get(path)
        if known is None:
            report.drift.append((path, "not in the index (run `tota sync`)"))
            continue
        if path in snapshot.errors:
            continue  # unreadable: reported as invalid below, from the index
        try:
            data, fp = read_file(root / path)
        except NoteError as exc:
            if known.hash.startswith("unreadable:"):
                continue  # never read: reported as invalid below, from the index
            reason = str(exc).split(": ", 1)[-1]
            report.unreadable.append((path, f"{reason}; the index keeps its last readable text"))
            continue
        if waits_for_patch(known, fp.hash):
            # Indexed as it is; only tota's patch (a hand edit recorded, an id) is to come.
            needs_id = parse_note(data, path).needs_id
            if held_by_editor(root / path):  # for the editor to close, not for a sync
                report.held.append((path, ID_WAITS if needs_id else HAND_EDIT_WAITS))
            else:
                what = "its id" if needs_id else "its hand edit"
                report.drift.append((path, f"{what} is not written into it yet (run `tota sync`)"))
            continue
        if fp.hash != known.hash:
            # What the change made of the note, too: after a `git pull` that conflicted, the
            # conflict markers are the news, not the drift.
            error = parse_note(data, path).error
            now_invalid = f", and is now invalid: {error}" if error else ""
            report.drift.append(
                (path, f"changed since it was indexed{now_invalid} (run `tota sync`)")
            )
    # A chmod does not change size or mtime, so the stat pass cannot see it: ask the kernel
    # (one access() per note; doctor is not the hot path). Plain strings: Path joins cost
    # more than the system calls.
    base = os.path.join(root, "")
    for path in snapshot:
        known = indexed.get(path)
        if path in stale or path in snapshot.errors or known is None:
            continue
        if known.hash.startswith("unreadable:"):
            continue
        if not os.access(base + path, os.R_OK, effective_ids=EFFECTIVE):
            report.unreadable.append(
                (path, "permission denied; the index keeps its last readable text")
            )
    hidden = tuple(folder for folder, _ in blocked)
    for path in plan.vanished:
        if path.startswith(hidden):
            continue  # behind an unreadable folder: unknown, reported as such
        report.drift.append((path, "in the index but no longer on disk (run `tota sync`)"))
    now = time.time()
    for rel in temps:
        try:
            age = now - os.lstat(root / rel).st_mtime
        except OSError:
            continue
        if age >= STALE_TEMP_SECONDS and not open_for_writing(root / rel):
            report.temp_files.append((rel, age))
    report.gitignore_missing = _gitignore_missing(root)
    report.broken_copies = _broken_copies(root, now)
    report.invalid = index.invalid()
    report.duplicate_ids = index.duplicate_ids()
    report.integrity = index.integrity_problems()
    report.git = check_git(root)
    report.secrets = find_stored_secrets(index)
    return report


def _broken_copies(root: Path, now: float) -> list[tuple[str, float]]:
    """The damaged index kept aside (see `Vault._move_aside`), with its age."""
    found = []
    for copy in broken_index_copies(root):
        try:
            found.append((str(copy), now - copy.stat().st_mtime))
        except OSError:
            continue
    return found


def find_stored_secrets(index: Index) -> list[tuple[str, str]]:
    """Notes whose title, text or sources hold a secret: (path, "a password"), one per note.

    Old vaults hold what the guard of their day let through (a token as a conversation id
    landed in `sources:`); this finds it so it can be edited out. In sources a random-looking
    token alone does not count: ids are random by design (`pipeline.refuse_secret_ids`).
    `find_secrets`' hint words keep it cheap: most notes cost a few substring tests.
    """
    found = []
    for row in index.note_texts():
        secrets = find_secrets(row.title) or find_secrets(row.body)
        if not secrets:
            listed = "\n".join(row.sources)
            secrets = [s for s in find_secrets(listed) if s.kind != "random_token"]
        if secrets:
            found.append((row.path, describe(secrets[0].kind)))
    return found


def check_git(root: Path) -> list[str]:
    """Problems with the git merge driver of a vault in a git clone (see `gitdriver`)."""
    from .gitdriver import git_problems  # only a vault in git pays for the subprocesses

    return git_problems(root)


def _gitignore_missing(root: Path) -> list[str]:
    """Patterns a git vault's .gitignore lacks (tota's temp files must never be committed)."""
    if not (root / ".git").exists():
        return []
    try:
        lines = (root / ".gitignore").read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    return [] if TEMP_PATTERN in (line.strip() for line in lines) else [TEMP_PATTERN]
