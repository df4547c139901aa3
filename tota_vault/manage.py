"""Managing the memory as a whole: an overview, the recent memories, and clearing it all.

These are what the `/memory` manager shows (`tota memory`) and their script-friendly twins
(`tota overview`, `tota recent`, `tota clear --yes`). Reads come from the index; `clear` is
the one place tota deletes notes, and it deletes only memories.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .files import read_file
from .recall import Recalled, as_recalled, profile

if TYPE_CHECKING:
    from .vault import Vault

__all__ = ["ClearReport", "clear", "overview", "recent"]

#: The last memories, newest change first: what the person has just taught tota.
RECENT = """
SELECT * FROM notes
WHERE error IS NULL AND memory_id IS NOT NULL AND status = 'active'
ORDER BY updated DESC, created DESC, path
LIMIT :limit
"""
#: Every note that is a memory (valid, with an id): what Clear All deletes, and nothing else.
MEMORY_NOTES = "SELECT path, hash FROM notes WHERE memory_id IS NOT NULL AND error IS NULL"


def overview(vault: Vault, *, profile_size: int = 5) -> dict[str, Any]:
    """Totals per type and evidence kind, whether learning is paused, a short profile."""
    counts = vault.stats()
    summary = [r.text for r in profile(vault.index, limit=profile_size)]
    return {
        "vault": counts["vault"],
        "memories": counts["memories"],
        "by_type": counts["by_type"],
        "by_evidence": counts["by_evidence"],
        "invalid": counts["invalid"],
        "learning": "paused" if vault.paused else "on",
        "last_sync": counts["last_sync"],
        "profile": summary,
    }


def recent(vault: Vault, *, limit: int = 10) -> list[Recalled]:
    """The `limit` active memories changed most recently, with effective confidence."""
    return as_recalled(vault.index.conn.execute(RECENT, {"limit": limit}))


@dataclass
class ClearReport:
    """What Clear All deleted, and what it left because it is not a memory."""

    deleted: list[str] = field(default_factory=list)
    kept: int = 0  # notes in the vault that are not memories

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {"deleted": len(self.deleted), "kept": self.kept, "paths": self.deleted}


def clear(vault: Vault) -> ClearReport:
    """Delete every memory note (irreversible) and empty the index of them.

    Files that are not memories (plain notes, invalid notes, anything that is not Markdown)
    stay. The vault is synced first, so a memory a person just wrote is known; a note that
    changes between that sync and its deletion is left alone.
    """
    vault.sync()
    report = ClearReport()
    rows = vault.index.conn.execute(MEMORY_NOTES).fetchall()
    for rel, known_hash in rows:
        path = vault.root / rel
        try:
            _data, fingerprint = read_file(path)
        except Exception:  # noqa: BLE001 - gone or unreadable: nothing to delete
            continue
        if fingerprint.hash != known_hash:
            continue  # changed since the sync: not the memory tota knows, so not deleted
        os.unlink(path)
        report.deleted.append(rel)
    vault.reindex()
    report.kept = vault.index.counts()["notes"]
    return report
