"""The vault: a folder of memory notes and the index beside it, behind one small facade.

`Vault` is what programs use (`Vault.open()`), and what the CLI calls. It owns the layout
(`<vault>/<type>/<Title>.md`), writing new notes, and opening the index; the work itself lives
in the modules named for it (`notes`, `files`, `index`, `sync`, `doctor`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from .config import is_paused, load_config, set_paused
from .decay import ARCHIVE_FLOOR
from .doctor import DoctorReport, diagnose
from .errors import NoteChangedError, NotFoundError, ValidationError, VaultError
from .extract.base import Extractor
from .extract.messages import Message
from .files import (
    Fingerprint,
    atomic_write,
    fingerprint_of,
    fsync_folder,
    make_dirs,
    read_file,
)
from .history import append_history
from .index import PATCHABLE_COLUMNS, Hit, Index, record_from_note
from .model import Evidence, Memory, MemoryType, Status, check_memory, new_id, now, parse_date
from .notes import ParsedNote, parse_note, patch_frontmatter, title_from_text, unique_title
from .paths import index_path, resolve_vault_path, state_dir
from .pipeline import Learner, ObserveReport, choose_extractor
from .recall import Recalled, as_recalled
from .recall import profile as profile_memories
from .recall import recall as recall_memories
from .reflect import ReflectReport, plan_reflections, reflection_memory
from .scoring import confirm_confidence
from .seal import SealState, render_sealed, seal, seal_state
from .sync import Progress, SyncReport, read_note, reconcile
from .topics import with_topics

__all__ = ["GITIGNORE_LINES", "StoredMemory", "Vault"]

#: Every active memory, with what grouping and reflections need.
#: Candidates for `tota decay`: every active memory (decay is computed when read).
STALE_ROWS = """
SELECT * FROM notes WHERE error IS NULL AND type IS NOT NULL AND status = 'active'
"""
#: `tota confirm`: the strength of a deliberate confirmation, as a clearly stated fact.
CONFIRM_CONFIDENCE = 0.9
#: The shortest id prefix accepted where an id is. A ULID starts with its time (10 characters),
#: so memories learned in the same second share their first 8 or 9: a prefix that matches
#: more than one memory is refused, never guessed.
MIN_ID_PREFIX = 6
_ID_CHARS = re.compile(r"[0-9A-Za-z]+")

REFLECT_ROWS = """
SELECT path, title, text, subject, key, type, status, confidence, sources, created, memory_id, tags
FROM notes WHERE error IS NULL AND type IS NOT NULL AND status = 'active' ORDER BY path
"""

#: What `tota init` puts in the vault's .gitignore: the index and local state, and the Obsidian
#: files that change whenever a note is opened.
GITIGNORE_LINES = (".tota/", ".obsidian/workspace.json", ".obsidian/workspaces.json", ".trash/")


@dataclass(frozen=True)
class StoredMemory:
    """A memory together with where its note lives."""

    memory: Memory
    path: str  # vault-relative
    fingerprint: Fingerprint


class Vault:
    """A memory vault on disk. Open with `Vault.open(path)`; close (or use `with`) when done."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._index: Index | None = None
        #: Folders written during `batch()`, fsynced once when it ends.
        self._unsynced: set[Path] | None = None

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, create: bool = True) -> Vault:
        """Open the vault at `path` (default: `$TOTA_VAULT` or `~/.tota/memory/second-brain`).

        With `create=True` a missing vault is made (private folders, one per type); otherwise a
        missing folder raises `VaultError`.
        """
        root = resolve_vault_path(path)
        if root.exists() and not root.is_dir():
            raise VaultError(f"{root}: is a file, not a vault folder")
        if not root.exists():
            if not create:
                raise VaultError(f"{root}: no vault here; create one with `tota init`")
            vault = cls(root)
            vault.init()
            return vault
        return cls(root)

    def init(self, *, git: bool = False) -> list[str]:
        """Lay out the vault: type folders and a .gitignore; with `git`, a repository and commit.

        Returns what was created (vault-relative). Existing files are left as they are, except
        that missing lines are appended to an existing .gitignore.
        """
        created: list[str] = []
        if not self.root.exists():
            make_dirs(self.root)
            created.append(".")
        for mtype in MemoryType:
            folder = self.root / mtype.value
            if not folder.exists():
                make_dirs(folder)
                created.append(mtype.value + "/")
            keep = folder / ".gitkeep"  # git keeps no empty folders; Obsidian hides dot-files
            if git and not any(folder.iterdir()):
                keep.touch(mode=0o600)
        gitignore = self.root / ".gitignore"
        existing = gitignore.read_text("utf-8").splitlines() if gitignore.exists() else []
        missing = [line for line in GITIGNORE_LINES if line not in existing]
        if missing:
            text = "\n".join([*existing, *missing]) + "\n"
            atomic_write(
                gitignore,
                text.encode("utf-8"),
                expected=fingerprint_of(gitignore),
            )
            created.append(".gitignore")
        if git:
            created.extend(self._git_init())
        return created

    def _git_init(self) -> list[str]:
        if shutil.which("git") is None:
            raise VaultError("git is not installed; install it or run `tota init` without --git")
        if (self.root / ".git").exists():
            return []
        identity: list[str] = []
        probe = subprocess.run(
            ["git", "config", "user.email"], cwd=self.root, capture_output=True, text=True
        )
        if not probe.stdout.strip():
            identity = ["-c", "user.name=tota", "-c", "user.email=tota@localhost"]
        steps = [
            ["git", "init", "-q"],
            ["git", "add", "-A"],
            ["git", *identity, "commit", "-q", "-m", "tota: new memory vault"],
        ]
        for step in steps:
            result = subprocess.run(step, cwd=self.root, capture_output=True, text=True)
            if result.returncode != 0:
                detail = (result.stderr or result.stdout).strip().splitlines()
                raise VaultError(f"{' '.join(step[:2])} failed: {detail[-1] if detail else '?'}")
        return [".git/"]

    @property
    def index_path(self) -> Path:
        """Where this vault's SQLite index lives."""
        return index_path(self.root)

    @property
    def index(self) -> Index:
        """The index, opened on first use; a new or rebuilt index is filled from the files."""
        if self._index is None:
            if not self.root.is_dir():
                raise VaultError(f"{self.root}: no vault here; create one with `tota init`")
            self._index = Index.open(self.index_path)
            if self._index.get_state("last_sync") is None:
                # New, rebuilt, or never completely filled (a crash mid-sync): fill it now.
                reconcile(self.root, self._index)
            self._index.rebuilt = False
        return self._index

    def close(self) -> None:
        """Close the index (checkpointing its WAL)."""
        if self._index is not None:
            self._index.close()
            self._index = None

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sync ------------------------------------------------------------------------------

    def sync(
        self,
        *,
        paths: Iterable[str] | None = None,
        quiet: float = 0.0,
        progress: Progress | None = None,
    ) -> SyncReport:
        """Reconcile the index with the files (all of them, or just `paths`).

        A hand edit is written into its note only once the file has been unchanged for
        `quiet` seconds (the daemon waits; a one-shot sync the person ran does not).
        """
        if self._index is None:
            if not self.root.is_dir():
                raise VaultError(f"{self.root}: no vault here; create one with `tota init`")
            self._index = Index.open(self.index_path)
            self._index.rebuilt = False
        report = reconcile(self.root, self._index, paths=paths, quiet=quiet, progress=progress)
        if paths is None and (len(report.added) + len(report.updated)) > 5000:
            self._index.optimize()
        return report

    def reindex(self, *, progress: Progress | None = None) -> SyncReport:
        """Drop the index and build it again from the files (the vault is the truth)."""
        self.close()
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(str(self.index_path) + suffix)
        return self.sync(progress=progress)

    # --- reads -----------------------------------------------------------------------------

    def search(
        self, query: str, *, type: str | None = None, limit: int = 20, raw: bool = False
    ) -> list[Hit]:
        """Full-text search over every note (title, statement, body, tags, aliases), best first."""
        if type is not None:
            type = _memory_type(type).value
        if limit < 1:
            raise ValidationError(f"limit {limit} must be at least 1")
        return self.index.search(query, type=type, limit=limit, raw=raw)

    def resolve(self, ref: str) -> str:
        """Find a note's vault-relative path from a memory id (or an unambiguous prefix of at
        least `MIN_ID_PREFIX` characters), a path or a title."""
        rows = self.index.get(memory_id=ref)
        if rows:
            return rows[0]["path"]
        if MIN_ID_PREFIX <= len(ref) < 26 and _ID_CHARS.fullmatch(ref):
            matches = self.index.ids_with_prefix(ref)
            if len(matches) > 1:
                raise NotFoundError(
                    f"id prefix {ref!r} matches more than one memory; give more of it"
                )
            if matches:
                return matches[0][1]
        candidate = Path(ref)
        if candidate.is_absolute():
            try:
                rel = candidate.resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                raise NotFoundError(f"{ref}: not inside the vault {self.root}") from None
        else:
            rel = candidate.as_posix()
        for option in (rel, rel + ".md"):
            if (self.root / option).is_file():
                return option
        row = self.index.conn.execute(
            "SELECT path FROM notes WHERE title = ? COLLATE NOCASE LIMIT 1", (ref,)
        ).fetchone()
        if row is not None:
            return row[0]
        raise NotFoundError(f"no memory with id, path or title {ref!r}")

    def read(self, ref: str) -> tuple[ParsedNote, str]:
        """Read one note by id, path or title: the parsed note and its text as on disk."""
        rel = self.resolve(ref)
        note, _fp, data = read_note(self.root, rel)
        return note, data.decode("utf-8", errors="replace")

    # --- writes ----------------------------------------------------------------------------

    def remember(
        self,
        type: str | MemoryType,
        text: str,
        *,
        confidence: float = 0.8,
        importance: float = 0.5,
        durability: float = 0.8,
        evidence: str | Evidence = Evidence.SYSTEM,
        key: str | None = None,
        subject: str = "user",
        tags: Sequence[str] = (),
        sources: Sequence[str] = (),
        when: datetime | None = None,
    ) -> StoredMemory:
        """Store a new memory as a note and index it at once.

        For programs that set a memory directly (evidence `system` by default); `tota add` calls
        it with evidence `manual`. Values are checked first: a bad one raises `ValidationError`
        and nothing is written.
        """
        mtype = _memory_type(type)
        try:
            ev = Evidence(evidence)
        except ValueError:
            allowed = ", ".join(e.value for e in Evidence)
            raise ValidationError(f"unknown evidence {evidence!r} (expected: {allowed})") from None
        stamp = (when or now()).replace(microsecond=0)
        all_tags = with_topics([f"tota/{mtype.value}", *(t.lstrip("#") for t in tags)], text)
        memory = Memory(
            id=new_id(),
            type=mtype,
            text=" ".join(text.split()) if "\n" not in text.strip() else text.strip(),
            confidence=float(confidence),
            importance=float(importance),
            durability=float(durability),
            evidence=ev,
            status=Status.ACTIVE,
            created=stamp,
            updated=stamp,
            confirmed=stamp,
            key=key,
            subject=subject,
            sources=tuple(sources),
            tags=all_tags,
        )
        check_memory(memory)
        return self.write_new(memory)

    def write_new(self, memory: Memory, *, title: str | None = None) -> StoredMemory:
        """Write a new memory's note under `<type>/<Title>.md` and index it.

        The title (file name) comes from `title` or the memory's text, made safe and unique.
        """
        folder = self.root / memory.type.value
        make_dirs(folder)

        def taken(title: str) -> bool:
            return (folder / f"{title}.md").exists() or self.index.title_taken(title)

        title = unique_title(title_from_text(title or memory.text), taken)
        rel = f"{memory.type.value}/{title}.md"
        data = render_sealed(memory).encode("utf-8")
        fingerprint = self._write(self.root / rel, data, None)
        self.index_written(rel, data, fingerprint)
        return StoredMemory(memory, rel, fingerprint)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Many writes as one: one index transaction, and each folder fsynced once at the end.

        Every note is still written atomically and refused over a newer edit; only the
        durability of the renames waits for the end of the batch.
        """
        if self._unsynced is not None:
            yield
            return
        self._unsynced = set()
        try:
            with self.index.batch():
                yield
        finally:
            folders, self._unsynced = self._unsynced, None
            for folder in sorted(folders):
                fsync_folder(folder)

    def _write(self, path: Path, data: bytes, expected: Fingerprint | None) -> Fingerprint:
        """`atomic_write`, deferring the folder's fsync inside a batch."""
        if self._unsynced is None:
            return atomic_write(path, data, expected=expected)
        self._unsynced.add(path.parent)
        return atomic_write(path, data, expected=expected, sync_folder=False)

    def index_written(self, rel: str, data: bytes, fingerprint: Fingerprint) -> None:
        """Tell the index at once about a note tota just wrote (no need to read it back).

        The watcher will see the same write later and find nothing to do: the bytes hash the
        same as the row.
        """
        note = parse_note(data, rel)
        self.index.apply(upserts=[record_from_note(note, fingerprint)])

    def doctor(self) -> DoctorReport:
        """Check the vault and its index without changing either (see `tota doctor`)."""
        return diagnose(self.root, self.index)

    # --- learning --------------------------------------------------------------------------

    def observe(
        self,
        messages: Sequence[Message | Mapping[str, Any]],
        *,
        conversation_id: str,
        now: datetime | None = None,
        extractor: Extractor | None = None,
        dry_run: bool = False,
    ) -> ObserveReport:
        """Learn from a conversation: extract, score, merge, resolve conflicts, store.

        `messages` are `Message`s or OpenAI-style dicts (`role`, `content`, optional `name`,
        `id`, `timestamp`); a message without an id is known by its position. While learning
        is paused nothing is stored and the report says so. Observing the same messages again
        changes nothing. Without an `extractor`, tota.toml's `[extract] backend` chooses one
        (the offline rules unless it says "llm").
        """
        items = _as_messages(messages)
        if self.paused:
            return ObserveReport(conversation_id, paused=True, dry_run=dry_run)
        config = load_config(self.root)
        if extractor is None:
            extractor = choose_extractor(config.extract)
        learner = Learner(
            self, extractor=extractor, min_confidence=config.min_confidence,
            threshold=config.merge_threshold,
        )  # fmt: skip
        return learner.observe(items, conversation_id=conversation_id, at=now, dry_run=dry_run)

    @property
    def paused(self) -> bool:
        """True while learning is paused (on this machine)."""
        return is_paused(self.root)

    def pause(self) -> None:
        """Stop storing new memories until `resume()`."""
        set_paused(self.root, True)

    def resume(self) -> None:
        """Store new memories again."""
        set_paused(self.root, False)

    # --- recall ----------------------------------------------------------------------------

    def recall(
        self,
        text: str,
        limit: int = 10,
        *,
        type: str | None = None,
        include_archived: bool = False,
        now: datetime | None = None,
    ) -> list[Recalled]:
        """The memories most relevant to a message, ranked and explained (see `recall`)."""
        if type is not None:
            type = _memory_type(type).value
        if limit < 1:
            raise ValidationError(f"limit {limit} must be at least 1")
        return recall_memories(
            self.index, text, limit=limit, type=type, include_archived=include_archived, now=now
        )

    def profile(self, *, limit: int = 20, now: datetime | None = None) -> list[Recalled]:
        """Durable, important identity, preference and constraint memories."""
        return profile_memories(self.index, limit=limit, now=now)

    def edit(
        self,
        rel: str,
        changes: Callable[[dict[str, Any]], dict[str, Any]],
        *,
        history: str | None = None,
    ) -> None:
        """Change a note as tota does: a surgical frontmatter patch (and optionally one History
        entry), resealed, written atomically, indexed at once.

        A person's edit that the index has not seen yet is recorded first, and `changes` is
        computed from the note's index row as it stands after that, never from a stale row.
        """
        data, fingerprint = read_file(self.root / rel)
        rows = self.index.get(path=rel)
        if not rows or rows[0]["hash"] != fingerprint.hash:
            self.sync(paths=[rel])
            data, fingerprint = read_file(self.root / rel)
            rows = self.index.get(path=rel)
        text = data.decode("utf-8")
        patch = changes(rows[0]) if rows else {}
        known = False
        if patch:
            # A note exactly as tota wrote it has tota's own, known layout: the read-back
            # check is for notes a person wrote or edited.
            known = seal_state(text) is SealState.SEALED
            text = patch_frontmatter(text, patch, verify=not known)
        if history:
            text = append_history(text, history)
        new = seal(text).encode("utf-8")
        written = self._write(self.root / rel, new, fingerprint)
        if rows and known and not history and set(patch) <= PATCHABLE_COLUMNS:
            # Only frontmatter scalars and sources changed in a note of tota's own layout: the
            # row takes the same values a parse would give, without parsing the note again.
            self.index.update_row(rel, patch, written)
        else:
            self.index_written(rel, new, written)

    def reflect(self, *, dry_run: bool = False, now: datetime | None = None) -> ReflectReport:
        """Write or update one reflection note per group of related memories (`reflect`).

        Running it twice changes nothing; a reflection whose members changed is rewritten in
        place (same id, same file); one a person edited is left alone and reported.
        """
        at = now or datetime.now()
        report = ReflectReport(dry_run=dry_run)
        rows = [dict(r) for r in self.index.conn.execute(REFLECT_ROWS)]
        for row in rows:
            row["sources"] = json.loads(row.get("sources") or "[]")
        existing = {r["key"]: r for r in rows if r["type"] == "reflection" and r.get("key")}
        for group in plan_reflections(rows):
            current = existing.get(group.key)
            if current is None:
                memory = reflection_memory(group, at)
                if not dry_run:
                    label = "The user" if group.subject == "user" else group.subject
                    stored = self.write_new(memory, title=f"{label} and {group.label}")
                    report.created.append(stored.path)
                else:
                    report.created.append(f"(new) {group.key}")
                continue
            memory = reflection_memory(
                group, at, memory_id=current["memory_id"],
                created=parse_date(current["created"]) if current.get("created") else None,
            )  # fmt: skip
            same = (
                memory.text == current["text"]
                and list(memory.sources) == list(current["sources"])
                and memory.confidence == current["confidence"]
            )
            if same:
                report.unchanged.append(current["path"])
                continue
            data, fingerprint = read_file(self.root / current["path"])
            if seal_state(data.decode("utf-8", errors="replace")) is not SealState.SEALED:
                report.left_alone.append(current["path"])
                continue
            if not dry_run:
                new = render_sealed(memory).encode("utf-8")
                written = atomic_write(self.root / current["path"], new, expected=fingerprint)
                self.index_written(current["path"], new, written)
            report.updated.append(current["path"])
        return report

    def stale(self, *, now: datetime | None = None) -> list[Recalled]:
        """Active memories whose effective confidence fell under the archive floor."""
        memories = as_recalled(self.index.conn.execute(STALE_ROWS), now)
        return sorted(
            (r for r in memories if (r.effective_confidence or 0.0) < ARCHIVE_FLOOR),
            key=lambda r: (r.effective_confidence or 0.0, r.path),
        )

    def decay(self, *, apply: bool = False, now: datetime | None = None) -> list[Recalled]:
        """List stale memories; with `apply`, archive them (kept on disk, never deleted)."""
        at = (now or datetime.now()).replace(microsecond=0)
        stale = self.stale(now=at)
        if apply:
            for result in stale:
                self.edit(result.path, lambda row: {"status": Status.ARCHIVED.value, "updated": at})
        return stale

    def forget(self, ref: str) -> str:
        """Delete one memory: its note and its index row. Returns the note's path.

        Only a memory is forgotten (a note with an id); a note that changed on disk since it
        was indexed is refused rather than deleted unseen, like every write of tota's.
        """
        self.sync()
        rel = self.resolve(ref)
        rows = self.index.get(path=rel)
        if not rows or rows[0].get("memory_id") is None or rows[0].get("error"):
            raise ValidationError(f"{rel}: not a memory note; tota forgets only memories")
        _note, fingerprint, _data = read_note(self.root, rel)
        if fingerprint.hash != rows[0]["hash"]:
            raise NoteChangedError("changed on disk while forgetting it; try again", path=rel)
        os.unlink(self.root / rel)
        self.index.apply(deletes=[rel])
        return rel

    def confirm(self, ref: str, *, now: datetime | None = None) -> str:
        """A person or program vouches for a memory: confidence up, decay clock reset.

        Returns the note's path. An archived memory becomes active again.
        """
        rel = self.resolve(ref)
        at = (now or datetime.now()).replace(microsecond=0)

        def changes(row: dict[str, Any]) -> dict[str, Any]:
            if row.get("confidence") is None:
                raise ValidationError(f"{rel}: not a valid memory; fix it before confirming it")
            out: dict[str, Any] = {
                "confidence": confirm_confidence(row["confidence"], CONFIRM_CONFIDENCE),
                "confirmations": int(row.get("confirmations") or 1) + 1,
                "confirmed": at,
            }
            if row.get("status") == Status.ARCHIVED.value:
                out["status"] = Status.ACTIVE.value
            return out

        self.edit(rel, changes)
        return rel

    # --- status ----------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Counts for status displays, plus where things are."""
        counts = self.index.counts()
        counts["vault"] = str(self.root)
        counts["index"] = str(self.index_path)
        counts["last_sync"] = self.index.get_state("last_sync")
        counts["last_update"] = self.index.get_state("last_update")
        return counts

    @property
    def state_dir(self) -> Path:
        """`<vault>/.tota`: the index and local state."""
        return state_dir(self.root)


def _memory_type(value: str | MemoryType) -> MemoryType:
    try:
        return MemoryType(str(value).lower())
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise ValidationError(f"unknown type {value!r} (expected one of: {allowed})") from None


def _as_messages(messages: Sequence[Message | Mapping[str, Any]]) -> list[Message]:
    """Accept `Message`s or chat dicts; dicts are read by the same rules as a JSON file."""
    if all(isinstance(m, Message) for m in messages):
        return list(messages)  # type: ignore[arg-type]
    from .extract.formats import parse_conversation

    plain = [m if isinstance(m, Mapping) else m.__dict__ for m in messages]
    return parse_conversation(json.dumps(plain, default=str), "json", source="messages")
