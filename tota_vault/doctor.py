"""Health checks for a vault: invalid notes, index drift, duplicate ids, index integrity.

`diagnose` only reads. It compares the files with the index the same way a sync would (stat,
then hash what differs) but changes neither, so it can tell a person exactly what a sync would
fix and what needs their hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import NoteError
from .files import read_file
from .index import Index
from .sync import plan_scan, take_snapshot

__all__ = ["DoctorReport", "diagnose"]


@dataclass
class DoctorReport:
    """What `tota doctor` found. `ok` is False when anything needs attention."""

    invalid: list[tuple[str, str]] = field(default_factory=list)
    drift: list[tuple[str, str]] = field(default_factory=list)
    duplicate_ids: dict[str, list[str]] = field(default_factory=dict)
    integrity: list[str] = field(default_factory=list)
    blocked: list[tuple[str, str]] = field(default_factory=list)
    git: list[str] = field(default_factory=list)
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
            "git": self.git,
        }


def diagnose(root: Path, index: Index) -> DoctorReport:
    """Check a vault against its index without changing either."""
    report = DoctorReport()
    indexed = index.files()
    blocked: list[tuple[str, str]] = []
    snapshot = take_snapshot(root, None, blocked)
    report.blocked = blocked
    report.notes = len(snapshot)
    plan = plan_scan(snapshot, indexed)
    for path in plan.to_read:
        known = indexed.get(path)
        if known is None:
            report.drift.append((path, "not in the index (run `tota sync`)"))
            continue
        if snapshot[path].error is not None:
            continue  # unreadable: reported as invalid below, from the index
        try:
            _data, fp = read_file(root / path)
        except NoteError:
            continue
        if fp.hash != known.hash:
            report.drift.append((path, "changed since it was indexed (run `tota sync`)"))
    hidden = tuple(folder for folder, _ in blocked)
    for path in plan.vanished:
        if path.startswith(hidden):
            continue  # behind an unreadable folder: unknown, reported as such
        report.drift.append((path, "in the index but no longer on disk (run `tota sync`)"))
    report.invalid = index.invalid()
    report.duplicate_ids = index.duplicate_ids()
    report.integrity = index.integrity_problems()
    report.git = check_git(root)
    return report


def check_git(root: Path) -> list[str]:
    """Problems with the git merge driver of a vault in a git clone (see `gitdriver`)."""
    from .gitdriver import git_problems  # only a vault in git pays for the subprocesses

    return git_problems(root)
