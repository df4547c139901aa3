"""Reconcile the index with the vault: stat, then hash only what changed, then parse only what
hashes differently.

`reconcile` runs in three kinds of step. It reads (walk and stat, then per batch the bytes
and their hash, then a parse of what changed), it classifies (the pure planners of
`syncplan`, over plain data: `plan_scan`, `plan_batch`, `match_moves`), and it applies
(index writes, one transaction a batch). The same `reconcile` serves `tota sync` (every path)
and the daemon (the few paths an event named).

A move keeps the note's index row (so its memory id, history and search row stay): a new path
whose bytes hash like a vanished path's, or whose frontmatter id is a vanished path's id, is
that note moved. A delete needs proof: a vanished path is checked again just before its row is
removed, so a file that an editor or git deleted and re-created is never dropped.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from .capped import CAPPED_DIR, add_capped, left_out, refresh_index
from .errors import NoteChangedError, NoteError
from .files import (
    Fingerprint,
    Snapshot,
    atomic_write,
    external_target,
    held_by_editor,
    hidden_reason,
    hidden_target,
    is_note_path,
    note_link,
    open_for_writing,
    outside_reason,
    read_file,
    scan_vault,
    sweep_temps,
    through_link,
)
from .index import Index, IndexedFile, NoteRecord, record_from_note
from .model import Evidence, Memory, format_date, new_id, now
from .notes import ParsedNote, parse_note, patch_frontmatter
from .seal import SealState, hand_edit_changes, seal, seal_state
from .syncplan import (
    BatchPlan,
    ReadPlan,
    ScanPlan,
    match_moves,
    plan_batch,
    plan_reads,
    plan_scan,
    settling,
    stub_hash,
    vanished_by_hash,
    vanished_ids,
)
from .turns import CarriedTurns

__all__ = [
    "HAND_EDIT_WAITS",
    "ID_WAITS",
    "BatchPlan",
    "ReadPlan",
    "ScanPlan",
    "SyncReport",
    "match_moves",
    "plan_batch",
    "plan_reads",
    "plan_scan",
    "read_note",
    "reconcile",
    "take_snapshot",
    "template_folder",
    "waits_for_patch",
]

#: Notes read, parsed and written per transaction: big enough to amortise the commit, small
#: enough that a 100k-note cold sync never holds more than a batch of bodies in memory.
BATCH_SIZE = 2000

Progress = Callable[[int, int], None]
#: The mtime of a row whose file still needs a patch: no file has it, so the next stat pass
#: always reads that file again.
PENDING_MTIME = -1
#: ... and the prefix of its hash, before the hash of the bytes the index holds.
PENDING_HASH = "pending:"
#: What a note held by an editor waits for (`SyncReport.held`), by the patch that waits.
HAND_EDIT_WAITS = "its hand edit is recorded when the editor closes"
ID_WAITS = "it is given an id when the editor closes"


@dataclass
class SyncReport:
    """What a sync did. `invalid` lists every invalid note in the vault after the sync."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    invalid: list[tuple[str, str]] = field(default_factory=list)
    ids_assigned: list[str] = field(default_factory=list)
    hand_edits: list[str] = field(default_factory=list)
    deferred: list[tuple[str, float]] = field(default_factory=list)  # (path, when to retry)
    #: Notes open in an editor that keeps a swap file or lock beside them (vim, Emacs), whose
    #: patch waits for it to close: (path, what waits, as a person reads it). Nothing to fix:
    #: the index already holds the new text, and the patch is retried (`deferred`) until then.
    held: list[tuple[str, str]] = field(default_factory=list)
    blocked: list[tuple[str, str]] = field(default_factory=list)  # (folder/, reason)
    #: Notes that could be read before and cannot now (permission denied): the index keeps
    #: their last readable version, so they stay findable, and every sync names them.
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    #: Folder links that lead outside the vault, not followed: (folder/, reason).
    links: list[tuple[str, str]] = field(default_factory=list)
    #: tota's own temp files left by a write that was killed, deleted by this sync.
    swept: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: Set by a reindex only: the conversation turns copied from the index it replaced.
    turns: CarriedTurns | None = None

    @property
    def changed(self) -> bool:
        """True when the sync changed anything in the index."""
        return bool(self.added or self.updated or self.moved or self.removed)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (`tota sync --json`)."""
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "moved": len(self.moved),
            "removed": len(self.removed),
            "unchanged": self.unchanged,
            "invalid": len(self.invalid),
            "ids_assigned": len(self.ids_assigned),
            "hand_edits": len(self.hand_edits),
            "deferred": len(self.deferred),
            "held": [{"path": p, "waiting": w} for p, w in self.held],
            "seconds": round(self.seconds, 3),
            "invalid_notes": [{"path": p, "reason": r} for p, r in self.invalid],
            "unreadable_folders": [{"path": p, "reason": r} for p, r in self.blocked],
            "unreadable_notes": [{"path": p, "reason": r} for p, r in self.unreadable],
            "external_links": [{"path": p, "reason": r} for p, r in self.links],
            "temp_files_removed": self.swept,
            "moves": [{"from": a, "to": b} for a, b in self.moved],
            **(
                {}
                if self.turns is None
                else {"turns": {**self.turns._asdict(), "dropped": self.turns.dropped}}
            ),
        }


#: Where Obsidian's core Templates plugin keeps its setting (vault-relative).
TEMPLATES_CONFIG = ".obsidian/templates.json"


def template_folder(root: Path) -> str | None:
    """The folder Obsidian's core Templates plugin reads templates from, if one is set.

    Templates are notes with placeholders, not memories: they are never indexed or given ids.
    """
    try:
        config = json.loads((root / TEMPLATES_CONFIG).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    folder = config.get("folder") if isinstance(config, dict) else None
    if not isinstance(folder, str) or not folder.strip("/ "):
        return None
    return folder.strip("/ ") + "/"


def take_snapshot(
    root: Path,
    paths: Iterable[str] | None,
    blocked: list[tuple[str, str]] | None = None,
    *,
    temps: list[str] | None = None,
    links: list[tuple[str, str]] | None = None,
    follow_external: bool = False,
    aliases: list[tuple[str, str]] | None = None,
) -> Snapshot:
    """Stat the notes of the vault (or just `paths`), leaving out Obsidian's templates folder.

    Folders that cannot be listed go to `blocked` as (`folder/`, reason); tota's temp files
    to `temps` and folder links leading outside the vault to `links` (a full walk only). A
    given path is judged as the walk would judge it: one behind a linked folder is left out
    (unless that folder is outside and `follow_external`), and a note linked to a file
    outside the vault (or in a hidden folder of it) is not read, and one linked to another
    note of the vault is left out, to `aliases` (see `scan_vault`).
    """
    templates = template_folder(root)
    if paths is None:
        found = scan_vault(
            root, blocked, temps=temps, links=links, follow_external=follow_external,
            aliases=aliases,
        )  # fmt: skip
    else:
        found = _stat_paths(root, paths, follow_external=follow_external)
    return found.without_prefix(templates) if templates else found


def _stat_paths(root: Path, paths: Iterable[str], *, follow_external: bool) -> Snapshot:
    """Stat the given notes, judging each as the walk would (see `take_snapshot`)."""
    found = Snapshot()
    real_root = os.path.realpath(root)
    for rel in paths:
        if not is_note_path(rel):
            continue
        try:
            st = os.stat(root / rel)
        except FileNotFoundError:
            continue
        except OSError as exc:
            found.add(rel, 0, 0, exc.strerror or str(exc))
            continue
        if not os.path.isfile(root / rel):
            continue
        if _behind_link(root, real_root, rel, follow_external):
            continue  # the walk does not enter that folder, so neither does this
        if os.path.islink(root / rel):
            verdict = note_link(real_root, str(root / rel), follow_external=follow_external)
            if verdict is not None and verdict[0] == "alias":
                continue  # its target is indexed where it really is
            if verdict is not None:
                found.add(rel, 0, 0, verdict[1])
                continue
        found.add(rel, st.st_size, st.st_mtime_ns)
    return found


def _behind_link(root: Path, real_root: str, rel: str, follow_external: bool) -> bool:
    """True when `rel` lies in a linked folder the walk does not enter (every linked folder,
    except one leading outside the vault when `follow_external`)."""
    parent = rel.rpartition("/")[0]
    if not parent or os.path.realpath(root / parent) == os.path.join(real_root, *parent.split("/")):
        return False
    return not (follow_external and external_target(real_root, str(root / parent)))


def _alias(root: Path, real_root: str, rel: str) -> bool:
    """True when `rel` is a link to another note of the vault (indexed there, not here)."""
    if not os.path.islink(root / rel) or not os.path.isfile(root / rel):
        return False
    verdict = note_link(real_root, str(root / rel), follow_external=True)
    return verdict is not None and verdict[0] == "alias"


def _unsettled(root: Path, rel: str, fp: Fingerprint, quiet: float) -> str | None:
    """Why tota may not patch this note now, or None when it may: "deferred" until it has been
    quiet for `quiet` seconds and no process holds it open for writing (a person still
    typing, a slow program), "held" while an editor has it open (`held_by_editor`)."""
    if time.time() - fp.mtime_ns / 1e9 < quiet or open_for_writing(root / rel):
        return "deferred"
    return "held" if held_by_editor(root / rel) else None


def _pending(fp: Fingerprint) -> Fingerprint:
    """A fingerprint no file has: the next sync reads the note again and retries its patch."""
    return Fingerprint(fp.size, PENDING_MTIME, PENDING_HASH + fp.hash)


def waits_for_patch(known: IndexedFile, content_hash: str) -> bool:
    """True when the index holds a file's bytes (`content_hash`) already and only tota's patch
    of them is still to come (`_pending`): the file differs from its row by no edit."""
    return known.hash == PENDING_HASH + content_hash


def _assign_id(
    root: Path, note: ParsedNote, data: bytes, fp: Fingerprint, *, quiet: float
) -> tuple[ParsedNote, Fingerprint, str | None]:
    """Give a person's id-less note an id (and `evidence: manual`) by a surgical patch.

    Returns what happened: "assigned", "deferred" (the note is not settled yet: still being
    written, or changed since it was read; the next sync tries again), "held" (deferred
    because an editor has it open) or None (a template with placeholders, never patched).
    """
    if any("{{" in str(v) or "<%" in str(v) for v in note.fields.values()):
        return note, fp, None
    if through_link(root, note.path):
        # tota never writes through a link (see atomic_write): indexed as it is, every sync,
        # instead of a patch deferred (and reported as "updated") forever.
        return note, fp, None
    why = _unsettled(root, note.path, fp, quiet)
    if why is not None:
        return note, _pending(fp), why
    changes: dict[str, Any] = {"id": new_id()}
    if "evidence" not in note.fields:
        changes["evidence"] = Evidence.MANUAL.value
    if "created" not in note.fields:
        changes["created"] = _local(fp.mtime_ns / 1e9)
    try:
        patched = seal(patch_frontmatter(data.decode("utf-8"), changes)).encode("utf-8")
        new_fp = atomic_write(root / note.path, patched, expected=fp)
    except NoteChangedError:
        return note, _pending(fp), "deferred"  # changed meanwhile: read it again next time
    except (NoteError, UnicodeDecodeError, OSError):
        return note, fp, None  # cannot be written here (read-only): indexed as it is
    return parse_note(patched, note.path), new_fp, "assigned"


def _hand_edit(
    root: Path,
    index: Index,
    note: ParsedNote,
    data: bytes,
    fp: Fingerprint,
    *,
    seen_before: bool,
    quiet: float,
) -> tuple[ParsedNote, Fingerprint, str | None]:
    """Record a person's edit of a memory note: `manual` in the index and in the note.

    Returns the note and fingerprint to index and what happened: None (not a hand edit),
    "recorded" (the note was patched), or "deferred" (the file is not quiet yet, or changed
    under us: the index says `manual` now, and the row is marked so the next sync re-reads
    the file and patches it), or "held" (deferred the same way, because an editor has it open).
    """
    assert note.memory is not None
    text = data.decode("utf-8")
    state = seal_state(text)
    if state is SealState.SEALED or (state is SealState.UNSEALED and not seen_before):
        return note, fp, None
    at = now()
    if through_link(root, note.path):  # never written through: the index alone records it
        memory = note.memory.with_changes(evidence=Evidence.MANUAL, updated=at)
        return replace(note, memory=memory), fp, None
    why = _unsettled(root, note.path, fp, quiet)
    if why is None:
        rows = index.get(path=note.path) or index.get(memory_id=note.memory.id)
        previous = rows[0].confidence if rows else None
        changes = hand_edit_changes(note.memory, previous_confidence=previous, at=at)
        memory = note.memory.with_changes(evidence=Evidence.MANUAL, updated=at)
        try:
            patched = seal(patch_frontmatter(text, changes)).encode("utf-8")
            new_fp = atomic_write(root / note.path, patched, expected=fp)
        except NoteChangedError:
            pass  # changed meanwhile: defer, the next pass sees the newer bytes
        except (NoteError, OSError):
            # Cannot be written here (a read-only vault): the index alone records it.
            return replace(note, memory=memory), fp, None
        else:
            return parse_note(patched, note.path), new_fp, "recorded"
    memory = note.memory.with_changes(evidence=Evidence.MANUAL, updated=at)
    return replace(note, memory=memory), _pending(fp), why


def reconcile(
    root: Path,
    index: Index,
    *,
    paths: Iterable[str] | None = None,
    assign_ids: bool = True,
    quiet: float = 0.0,
    progress: Progress | None = None,
    follow_external: bool = False,
) -> SyncReport:
    """Bring the index in line with the files; `paths` limits the work to those paths.

    A full sync also deletes tota's stale temp files (left by a killed write, see
    `sweep_temps`). Links that lead outside the vault are read only with `follow_external`
    (tota.toml's `[sync] follow_external_links`); otherwise they are reported, never read.

    Nothing in the vault is changed except by surgical frontmatter patches, and only when
    `assign_ids` is True (the default): a person's note without an `id` gets one, and a hand
    edit of a memory is recorded in the note (`evidence: manual`, see `seal`) once the file
    has been quiet for `quiet` seconds; until then the index alone records it.
    """
    # An index that cannot record a sync refuses it before a note is patched: an id given to
    # a note the index then cannot hold would be a change nobody asked for.
    index.refuse_if_read_only()
    started = time.perf_counter()
    report = SyncReport()
    wanted = None if paths is None else sorted(set(paths))
    scan = _scan(root, index, wanted, report, follow_external=follow_external)
    sync = _Sync(root, index, scan, report, assign_ids=assign_ids, quiet=quiet)
    total = len(scan.plan.to_read)
    # A cold load of many notes into an empty index goes in bulk (see Index.begin_bulk_load).
    with _bulk_load(index, enabled=scan.cold and total >= BATCH_SIZE):
        for start in range(0, total, BATCH_SIZE):
            sync.batch(scan.plan.to_read[start : start + BATCH_SIZE])
            if progress is not None:
                progress(min(start + BATCH_SIZE, total), total)
    _remove_gone(root, index, scan, report, follow_external=follow_external)
    _finish(root, index, report, full=wanted is None)
    report.seconds = time.perf_counter() - started
    return report


@dataclass
class _Scan:
    """What the stat pass of one reconcile found, and what its batches share."""

    snapshot: Snapshot
    plan: ScanPlan
    #: What the index knows of the paths that need reading or vanished (of every path given,
    #: in a partial sync): a no-change sync loads none of it.
    indexed: dict[str, IndexedFile]
    blocked: list[tuple[str, str]]
    #: True for a full sync into an empty index.
    cold: bool
    #: hash -> vanished paths, consumed as moves claim them (see `plan_reads`).
    by_hash: dict[str, list[str]] = field(default_factory=dict)
    #: vanished path -> its memory id, for the moves of edited notes (`match_moves`).
    ids: dict[str, str] = field(default_factory=dict)
    #: The vanished paths a move took: never deleted.
    claimed: set[str] = field(default_factory=set)


def _scan(
    root: Path,
    index: Index,
    paths: list[str] | None,
    report: SyncReport,
    *,
    follow_external: bool,
) -> _Scan:
    """Read: walk and stat the vault (or `paths`) and the index's sizes and mtimes; classify
    by stat alone (`plan_scan`); load what the index knows of what changed."""
    # A partial sync (the daemon's, a write's) reads only its own rows: O(paths), not O(vault).
    # A full one compares stat alone first, then loads hashes only for what changed.
    stats = index.stats(paths)
    blocked: list[tuple[str, str]] = []
    temps: list[str] = []
    snapshot = take_snapshot(
        root, paths, blocked, temps=temps, links=report.links, follow_external=follow_external
    )
    report.blocked = blocked
    if temps:
        report.swept = sweep_temps(root, temps)
    plan = plan_scan(snapshot.stamps, stats)
    report.unchanged = len(plan.unchanged)
    if paths is not None:
        indexed = index.files(paths)
    elif stats and (plan.to_read or plan.vanished):
        indexed = index.files([*plan.to_read, *plan.vanished])
    else:
        indexed = {}
    return _Scan(
        snapshot, plan, indexed, blocked, cold=paths is None and not stats,
        by_hash=vanished_by_hash(plan.vanished, indexed), ids=vanished_ids(plan.vanished, indexed),
    )  # fmt: skip


class _Sync:
    """The batches of one reconcile: read, classify and apply each in turn."""

    def __init__(
        self,
        root: Path,
        index: Index,
        scan: _Scan,
        report: SyncReport,
        *,
        assign_ids: bool,
        quiet: float,
    ) -> None:
        self.root = root
        self.index = index
        self.scan = scan
        self.report = report
        self.assign_ids = assign_ids
        self.quiet = quiet
        self.vanished_id_set = set(scan.ids.values())

    def batch(self, paths: tuple[str, ...]) -> None:
        """Sync one batch of the paths the stat pass could not call unchanged."""
        scan = self.scan
        now = time.time()
        contents, failures = self.read(paths, now)
        hashes = {p: fp.hash for p, (_, fp) in contents.items()}
        plan = plan_batch(
            paths, scan.snapshot, scan.indexed, hashes, failures, scan.by_hash,
            quiet=self.quiet, now=now,
        )  # fmt: skip
        self.report.deferred.extend(plan.deferred)
        self.report.unreadable.extend(plan.unreadable)
        self.report.unchanged += plan.unchanged
        parsed = self.parse(plan.reads, contents)
        to_parse = set(plan.reads.to_parse)
        new_ids = {
            p: n.memory.id
            for p, (n, _) in parsed.items()
            if p in to_parse and p not in scan.indexed and n.memory is not None and n.memory.id
        }
        live = {p: i for p, i in scan.ids.items() if p not in scan.claimed}
        moves = [*plan.reads.moves, *match_moves(new_ids, live)]
        # A touch records the size and mtime the read saw (not the stat's: a save in between).
        touches = [(p, contents[p][1].size, contents[p][1].mtime_ns) for p in plan.reads.touches]
        self.apply(plan, parsed, moves, touches)

    def read(
        self, paths: Iterable[str], now: float
    ) -> tuple[dict[str, tuple[bytes, Fingerprint]], dict[str, str]]:
        """Read: the bytes and fingerprint of each path, or why it could not be read. A path
        whose stat failed, or that is settling (see `syncplan.settling`), is not read."""
        scan = self.scan
        contents: dict[str, tuple[bytes, Fingerprint]] = {}
        failures: dict[str, str] = {}
        for path in paths:
            st = scan.snapshot[path]
            if st.error is not None:
                continue
            if settling(st, scan.indexed.get(path), quiet=self.quiet, now=now):
                continue
            try:
                contents[path] = read_file(self.root / path)
            except NoteError as exc:
                failures[path] = str(exc).split(": ", 1)[-1]
        return contents, failures

    def parse(
        self, reads: ReadPlan, contents: dict[str, tuple[bytes, Fingerprint]]
    ) -> dict[str, tuple[ParsedNote, Fingerprint]]:
        """Read: parse the new and changed notes (and the targets of moves by bytes), with the
        patches tota makes to them (an id for a person's note, a hand edit recorded)."""
        parsed: dict[str, tuple[ParsedNote, Fingerprint]] = {}
        to_parse = set(reads.to_parse)
        for path in (*reads.to_parse, *(new for _, new in reads.moves)):
            data, fp = contents[path]
            note = parse_note(data, path, fallback_time=_local(fp.mtime_ns / 1e9))
            if self.assign_ids:
                note, fp = self.patch(note, data, fp, changed=path in to_parse)
            elif note.needs_id or (
                note.memory is not None
                and path in to_parse
                and seal_state(data.decode("utf-8", "replace")) is SealState.BROKEN
            ):
                # Not written now (doctor fills an index so, writing into no note): marked so
                # the next sync that may write reads the note again and writes its patch.
                fp = _pending(fp)
            parsed[path] = (note, fp)
        return parsed

    def patch(
        self, note: ParsedNote, data: bytes, fp: Fingerprint, *, changed: bool
    ) -> tuple[ParsedNote, Fingerprint]:
        """Give a person's note an id, or record a hand edit of a memory (see `_assign_id`,
        `_hand_edit`); keep the sources a capped note stopped listing observed."""
        path, memory, known = note.path, note.memory, self.scan.indexed.get(note.path)
        # A patch put off once its quiet time is over (an editor holds the file, or it changed
        # under us) is tried again a quiet time from now, not at once and again and again.
        report, when = self.report, max(fp.mtime_ns / 1e9, time.time()) + max(self.quiet, 1.0)
        if memory is not None and known is not None and known.memory_id:
            _record_left_out(self.root, self.index, path, memory, known, report)
        if note.needs_id:
            note, fp, outcome = _assign_id(self.root, note, data, fp, quiet=self.quiet)
            done, waits = report.ids_assigned, ID_WAITS
        elif memory is not None and changed:
            seen = known is not None or memory.id in self.vanished_id_set
            note, fp, outcome = _hand_edit(
                self.root, self.index, note, data, fp, seen_before=seen, quiet=self.quiet
            )
            done, waits = report.hand_edits, HAND_EDIT_WAITS
        else:
            return note, fp
        if outcome in ("assigned", "recorded"):
            done.append(path)
        elif outcome in ("deferred", "held"):
            report.deferred.append((path, when))
            if outcome == "held":
                report.held.append((path, waits))
        return note, fp

    def apply(
        self,
        plan: BatchPlan,
        parsed: dict[str, tuple[ParsedNote, Fingerprint]],
        moves: list[tuple[str, str]],
        touches: list[tuple[str, int, int]],
    ) -> None:
        """Apply: write the batch's rows, moves and touches in one transaction."""
        indexed, report = self.scan.indexed, self.report
        upserts: list[NoteRecord] = []
        for path, reason in plan.stubs:
            # Unreadable: the path is indexed with its reason so doctor and sync name it.
            note = ParsedNote(path, Path(path).stem, {}, "", None, reason, False)
            upserts.append(record_from_note(note, Fingerprint(0, 0, stub_hash(reason))))
            (report.updated if path in indexed else report.added).append(path)
        for old, new in moves:
            self.scan.claimed.add(old)
            report.moved.append((old, new))
        moved_to = {new for _, new in moves}
        for path, (note, fp) in parsed.items():
            known = indexed.get(path)
            if path not in moved_to and known is not None and _still_waiting(known, fp):
                # A patch tried again (an editor still holds the note, or a writer) over the
                # very bytes the index holds already: nothing changed, nothing written or said.
                report.unchanged += 1
                continue
            upserts.append(record_from_note(note, fp))
            if path not in moved_to:
                (report.updated if path in indexed else report.added).append(path)
        self.index.apply(
            upserts=upserts,
            moves=[(old, new, Path(new).stem) for old, new in moves],
            touches=touches,
        )
        report.unchanged += len(touches)


def _still_waiting(known: IndexedFile, fp: Fingerprint) -> bool:
    """True when a patch put off again left the note as the index holds it already: the same
    bytes, still waiting (`_pending`)."""
    return fp.mtime_ns == PENDING_MTIME and known.hash == fp.hash and known.size == fp.size


def _remove_gone(
    root: Path, index: Index, scan: _Scan, report: SyncReport, *, follow_external: bool
) -> None:
    """Apply the deletes, each with proof: the file must still be gone now, after everything
    else was read. A row behind a linked folder the walk no longer enters (follow_external_links
    turned off) is gone too, though the path still leads to a file."""
    hidden = tuple(folder for folder, _ in scan.blocked)
    real_root = os.path.realpath(root)
    gone = [
        p
        for p in scan.plan.vanished
        if p not in scan.claimed
        and not p.startswith(hidden)
        and (
            not os.path.lexists(root / p)
            or _behind_link(root, real_root, p, follow_external)
            or _alias(root, real_root, p)
        )
    ]
    if gone:
        index.apply(deletes=gone)
        report.removed.extend(gone)


def _finish(root: Path, index: Index, report: SyncReport, *, full: bool) -> None:
    """Record the sync: the capped sources of a full one, when it ran, what is invalid."""
    if full:
        # The sources capped out of notes (`capped.py`): read again only if the file changed
        # (a pull, a person's edit, an index rebuilt from nothing).
        report.unreadable.extend(refresh_index(root, index, full=True))
        index.set_state("last_sync", format_date(now()))
    elif report.changed:
        index.set_state("last_update", format_date(now()))
    report.invalid = index.invalid()


def _record_left_out(
    root: Path, index: Index, path: str, memory: Memory, row: IndexedFile, report: SyncReport
) -> None:
    """Record in `.tota-sources` the sources a capped note stopped listing without tota's cap
    (a git merge's), so they stay observed (see `capped.left_out`)."""
    if memory.id != row.memory_id:
        return  # another memory now: the old one's sources left with it
    dropped = left_out(index.listed_sources(path), memory)
    if not dropped:
        return
    try:
        add_capped(root, index, memory.id, dropped)
    except NoteError as exc:
        report.unreadable.append((f"{CAPPED_DIR}/{memory.id}", str(exc).split(": ", 1)[-1]))


@contextmanager
def _bulk_load(index: Index, *, enabled: bool) -> Iterator[None]:
    """Run a cold load in bulk mode, and always leave it, also on an error."""
    if not enabled:
        yield
        return
    index.begin_bulk_load()
    try:
        yield
    finally:
        index.end_bulk_load()


def _local(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp).replace(microsecond=0)


def read_note(
    root: Path, rel_path: str, *, follow_external: bool = False
) -> tuple[ParsedNote, Fingerprint, bytes]:
    """Read and parse one note; raise `NoteError` when it cannot be read at all, or when it
    is a link that leads into a hidden folder of the vault (`.git/`, `.tota/`: never), or
    outside the vault (unless `follow_external`)."""
    hidden = hidden_target(os.path.realpath(root), str(root / rel_path))
    if hidden is not None:
        raise NoteError(f"{rel_path}: {hidden_reason(hidden)}", path=rel_path)
    if not follow_external:
        target = external_target(os.path.realpath(root), str(root / rel_path))
        if target is not None:
            raise NoteError(f"{rel_path}: {outside_reason(target)}", path=rel_path)
    data, fp = read_file(root / rel_path)
    return parse_note(data, rel_path, fallback_time=_local(fp.mtime_ns / 1e9)), fp, data
