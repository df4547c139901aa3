"""The vault: a folder of memory notes and the index beside it, behind one small facade.

`Vault` is what programs use (`Vault.open()`), and what the CLI calls. It owns the layout
(`<vault>/<type>/<Title>.md`), writing new notes, and opening the index; the work itself lives
in the modules named for it (`notes`, `files`, `index`, `sync`, `doctor`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .errors import (
    IndexCorruptError,
    NoteChangedError,
    NoteHeldError,
    NotFoundError,
    QueryError,
    SecretError,
    ValidationError,
    VaultError,
)
from .files import TEMP_PATTERN, make_dirs
from .ids import MIN_ID_PREFIX, short_ids
from .index import Hit, Index, index_error
from .keeper import RECOVERABLE, IndexKeeper
from .learning import killed_learners, running_learner
from .paths import index_path, resolve_vault_path, state_dir
from .writer import NoteWriter

if TYPE_CHECKING:
    # Everything else is imported where it is used: `tota search` and `tota recall` run as
    # processes from editors and assistants, and a search must not pay for the note parser,
    # YAML, the learning pipeline, reflect or the secret patterns (docs/benchmarks.md,
    # bench/startup.py; tests/test_startup.py lists what a search may load).
    from .doctor import DoctorReport
    from .extract.base import Extractor
    from .extract.messages import Message
    from .model import Evidence, MemoryType
    from .notes import ParsedNote
    from .pipeline import ObserveReport
    from .recall import Recalled
    from .reflect import ReflectReport
    from .rows import MemoryRow
    from .store import StoredMemory
    from .sync import Progress, SyncReport
    from .turns import TurnHit

__all__ = ["GITIGNORE_LINES", "Vault"]

#: `tota confirm`: the strength of a deliberate confirmation, as a clearly stated fact.
CONFIRM_CONFIDENCE = 0.9
_ID_CHARS = re.compile(r"[0-9A-Za-z]+")

#: What `tota init` puts in the vault's .gitignore: the index and local state, tota's temp files
#: (a write killed mid-way leaves one; `git add -A` must never commit it), and the Obsidian
#: files that change whenever a note is opened.
GITIGNORE_LINES = (
    ".tota/",
    TEMP_PATTERN,
    ".obsidian/workspace.json",
    ".obsidian/workspaces.json",
    ".trash/",
)


def _log_notice(message: str) -> None:
    """The default `on_notice`: a warning on the `tota` logger (logging is imported only when
    there is something to say: a search process never loads it)."""
    import logging

    logging.getLogger("tota").warning(message)


_Method = TypeVar("_Method", bound=Callable[..., Any])
_T = TypeVar("_T")


def _guarded(method: _Method) -> _Method:
    """Run a `Vault` method so that an index fault never escapes as a traceback.

    The index is a cache: when it turns out damaged (or deleted under an open connection),
    it is moved aside (or reopened), rebuilt from the notes, and the call runs once more. A
    deleted or replaced index file is also looked for (one stat) before the call.
    Any other fault of the index file (read-only, a full disk) becomes one `IndexError_`
    line that names the file and what to do. Only the outermost guarded call recovers.
    """

    @functools.wraps(method)
    def wrapper(self: Vault, *args: Any, **kwargs: Any) -> Any:
        if self._guard_depth:
            return method(self, *args, **kwargs)
        self._guard_depth += 1
        try:
            # Deleted under an open connection, the index takes writes into a file nobody
            # will read again, without an error (the -wal went with it): look first.
            self.check_index()
            try:
                return method(self, *args, **kwargs)
            except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                kind = self._keeper.fault(exc)
                # Inside a caller's `batch()` the call cannot be run again safely (notes of
                # the batch are written, its rows rolled back): say so, and let it end first.
                if kind not in RECOVERABLE or self._writer.in_batch:
                    if kind is None and isinstance(exc, UnicodeDecodeError):
                        raise
                    raise index_error(exc, self.index_path, kind=kind) from None
                self._keeper.recover(kind, exc)
            try:
                return method(self, *args, **kwargs)
            except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                kind = self._keeper.fault(exc)
                if kind is None and isinstance(exc, UnicodeDecodeError):
                    raise
                raise index_error(exc, self.index_path, kind=kind) from None
        finally:
            self._guard_depth -= 1

    return wrapper  # type: ignore[return-value]


class Vault:
    """A memory vault on disk. Open with `Vault.open(path)`; close (or use `with`) when done."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._guard_depth = 0
        #: Where tota says what it repaired by itself (one line each); the CLI prints to
        #: stderr, the daemon logs. By default a warning on the `tota` logger.
        self.on_notice: Callable[[str], None] = _log_notice
        #: The index's life (open, fill, repair) and the writes (the features' store).
        self._keeper = IndexKeeper(root, self._notice)
        self._writer = NoteWriter(root, self._keeper, self._notice)

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        create: bool = True,
        on_notice: Callable[[str], None] | None = None,
    ) -> Vault:
        """Open the vault at `path` (default: `$TOTA_VAULT` or `~/.tota/memory/second-brain`).

        With `create=True` a missing vault is made (private folders, one per type); otherwise a
        missing folder raises `VaultError`. `on_notice` is where tota says, one line each, what
        it repaired by itself (default: a warning on the `tota` logger). Opening touches only
        the folder: the index is opened by the first method that needs it (`open_index`), so
        a first `sync()` reports every note it adds.
        """
        root = resolve_vault_path(path)
        if root.exists() and not root.is_dir():
            raise VaultError(f"{root}: is a file, not a vault folder")
        if not root.exists() and not create:
            raise VaultError(f"{root}: no vault here; create one with `tota init`")
        vault = cls(root)
        if on_notice is not None:
            vault.on_notice = on_notice
        if not root.exists():
            vault.init()
        return vault

    def init(self, *, git: bool = False) -> list[str]:
        """Lay out the vault: type folders and a .gitignore; with `git`, a repository whose
        first commit holds a `.gitattributes` for the notes' merge driver, registered in its
        config (`gitdriver.setup_git`; in an existing repository only the registration).

        Returns what was created (vault-relative). Existing files are left as they are, except
        that missing lines are appended to an existing .gitignore.
        """
        from .files import atomic_write, fingerprint_of
        from .model import MemoryType

        created: list[str] = []
        if git:  # a .gitattributes git cannot read stops the init before anything is made
            from .gitdriver import read_attributes

            read_attributes(self.root)
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
        import shutil
        import subprocess

        if shutil.which("git") is None:
            raise VaultError("git is not installed; install it or run `tota init` without --git")
        from .gitdriver import setup_git

        if (self.root / ".git").exists():
            return setup_git(self.root)
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
        done: list[str] = []
        for step in steps:
            if step[1] == "add":
                # Before the first commit, so .gitattributes is in it and every clone has it.
                done = setup_git(self.root)
            result = subprocess.run(step, cwd=self.root, capture_output=True, text=True)
            if result.returncode != 0:
                detail = (result.stderr or result.stdout).strip().splitlines()
                raise VaultError(f"{' '.join(step[:2])} failed: {detail[-1] if detail else '?'}")
        return [".git/", *done]

    @property
    def index_path(self) -> Path:
        """Where this vault's SQLite index lives."""
        return index_path(self.root)

    def open_index(self) -> Index:
        """Open the index if it is not open, and return it (the read side, for a caller's own
        queries). A new, rebuilt or half-filled index is filled from the notes first (a full
        reconcile: not free the first time); an open one is returned as it is. Every method
        that reads the index calls it, except `sync`, which opens the index without the fill
        so that a first sync reports every note it adds."""
        return self._keeper.get()

    @property
    def index(self) -> Index:
        """The open index, with no I/O: `IndexNotOpenError` until `open_index()` or a method
        that reads the index (`search`, `recall`, `sync`, ...) opened it, and after `close()`."""
        return self._keeper.opened()

    def _notice(self, message: str) -> None:
        self.on_notice(message)

    def delete_broken_copies(self) -> list[Path]:
        """Delete the damaged indexes moved aside (`index.db.broken-*` and their -wal, -shm);
        return those deleted. `forget` and `clear` call it: a copy holds every memory's text."""
        return self._keeper.delete_broken_copies()

    def repair_index(self, exc: BaseException) -> bool:
        """For a caller that met `exc` in a query of its own (outside `Vault`'s methods): if it
        says the index is damaged, move the index aside and rebuild it from the notes, and
        return True; the caller may then run its work again."""
        return self._keeper.repair(exc)

    def check_index(self) -> bool:
        """Reopen the index if its file was deleted or replaced since it was opened (someone
        removed `.tota/` while `tota watch` runs): the next use fills a new one from the
        notes. True when it did. One stat, cheap enough to call between every two syncs."""
        return self._keeper.check()

    def close(self) -> None:
        """Close the index (checkpointing its WAL)."""
        self._keeper.close()

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sync ------------------------------------------------------------------------------

    @_guarded
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
        from .sync import reconcile

        index = self._keeper.current or self._keeper.open()
        index.rebuilt = False
        report = reconcile(
            self.root, index, paths=paths, quiet=quiet, progress=progress,
            follow_external=self._keeper.follow_external(),
        )  # fmt: skip
        if paths is None and (len(report.added) + len(report.updated)) > 5000:
            index.optimize()
        self._forget_tombstoned(index)
        return report

    def _forget_tombstoned(self, index: Index, *, force: bool = False) -> None:
        """The turns of memories forgotten elsewhere (`forgotten.forget_tombstoned`), said once."""
        from .forgotten import forget_tombstoned

        removed = forget_tombstoned(self.root, index, force=force)
        if removed:
            self._notice(f"forgot {removed} conversation turns .tota-forgotten names")

    @_guarded
    def reindex(self, *, progress: Progress | None = None) -> SyncReport:
        """Drop the index and build it again from the files (the vault is the truth).

        The conversation turns are in no file: the old index is moved aside until the new one
        is built, its turns are copied over when it can be read (`TurnStore.carry_over`),
        then it is deleted; the report's `turns` says how many were kept and dropped.
        """
        from .index import SCHEMA_VERSION

        try:
            self.close()
        except sqlite3.Error:
            self._keeper.drop()  # a damaged index cannot be checkpointed: it is moved anyway
        index = str(self.index_path)
        aside = index + ".reindex"
        _remove_index_files(aside)  # a reindex killed before it finished
        had_index = os.path.exists(index)
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.replace(index + suffix, aside + suffix)
        try:
            report = self.sync(progress=progress)
            if had_index:
                turns = self.open_index().turns()
                report.turns = turns.carry_over(aside, schema_version=SCHEMA_VERSION)
                self._forget_tombstoned(self.open_index(), force=True)
        finally:
            _remove_index_files(aside)
        return report

    # --- reads -----------------------------------------------------------------------------

    @_guarded
    def search(
        self, query: str, *, type: str | None = None, limit: int = 20, raw: bool = False
    ) -> list[Hit]:
        """Full-text search over every note (title, statement, body, tags, aliases), best first."""
        if type is not None:
            type = _memory_type(type).value
        if limit < 1:
            raise ValidationError(f"limit {limit} must be at least 1")
        found = self.open_index().search(query, type=type, limit=limit, raw=raw)
        return _no_repeated_paths(found)

    @_guarded
    def resolve(self, ref: str) -> str:
        """Find a note's vault-relative path from a memory id (or an unambiguous prefix of at
        least `MIN_ID_PREFIX` characters), a path or a title."""
        index = self.open_index()
        rows = index.get(memory_id=ref)
        if rows:
            return _one_holder(ref, [row.path for row in rows])
        # Also a whole id typed in lower case: ids are compared upper-cased, as ULIDs are.
        if MIN_ID_PREFIX <= len(ref) <= 26 and _ID_CHARS.fullmatch(ref):
            matches = index.ids_with_prefix(ref, limit=10)  # copies of one note share an id
            if len({memory_id for memory_id, _ in matches}) > 1:
                raise NotFoundError(self._ambiguous(ref))
            if matches:
                return _one_holder(ref, [path for _, path in matches])
        candidate = Path(ref)
        if candidate.is_absolute():
            try:
                rel = candidate.resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                raise NotFoundError(f"{ref}: not inside the vault {self.root}") from None
        else:
            rel = candidate.as_posix()
            if os.path.normpath(rel).split(os.sep)[0] == os.pardir:
                raise NotFoundError(f"{ref}: outside the vault {self.root}")
        for option in (rel, rel + ".md"):
            if (self.root / option).is_file():
                return self._real_note(option)
        titled = index.path_titled(ref)
        if titled is not None:
            return titled
        stated = self._stated(ref)
        if stated is not None:
            return stated
        if len(ref) < MIN_ID_PREFIX and _ID_CHARS.fullmatch(ref) and index.ids_with_prefix(ref):
            # The start of an id shown somewhere, too short to be taken as one.
            raise NotFoundError(self._ambiguous(ref))
        raise NotFoundError(f"no memory with id, path or title {ref!r}")

    def _stated(self, ref: str) -> str | None:
        """The note whose statement is `ref` word for word (case, spacing and a final stop
        aside), when the note's title is a cut of it: a title keeps the statement's first
        words only (`notes.clean_title`), so "forget" by the whole sentence a person sees in
        `tota show` named no memory. None when no note, or more than one, says it."""
        from .text import said_alike

        if len(ref.split()) < 3:
            return None  # a word or two is a search, not a statement
        try:
            hits = self.open_index().search(ref, limit=20)
        except QueryError:
            return None  # nothing in it to search for
        paths = {hit.path for hit in hits if said_alike(hit.row.text, ref)}
        return paths.pop() if len(paths) == 1 else None

    def _ambiguous(self, ref: str, *, named: int = 3, counted: int = 1000) -> str:
        """Why `ref` names no one memory: how many ids start with it (up to `counted`), the
        first `named` of them by their short id and path, and what to type instead."""
        matches = self.open_index().ids_with_prefix(ref, limit=counted + 1)
        many = f"{counted:,}+" if len(matches) > counted else f"{len(matches):,}"
        if len(matches) == 1:
            head = f"no memory with id, path or title {ref!r}, and 1 memory starts with it"
        else:
            head = f"ambiguous: {many} memories start with {ref!r}"
        short = self.short_ids(memory_id for memory_id, _ in matches[:named])
        listed = ", ".join(f"{short[i]} ({path})" for i, path in matches[:named])
        more = f" and {len(matches) - named:,} more" if len(matches) > named else ""
        if len(ref) < MIN_ID_PREFIX:
            advice = f"an id prefix needs {MIN_ID_PREFIX} characters or more"
        else:
            advice = "an id prefix that matches more than one memory is never guessed"
        return f"{head}: {listed}{more}; {advice}: give more of it"

    def _real_note(self, rel: str) -> str:
        """The path of the note `rel` leads to: a link to another note of the vault stands
        for that note (which is indexed, and which `forget` deletes; never the link)."""
        from .files import note_link, through_link

        real_root = os.path.realpath(self.root)
        verdict = note_link(real_root, str(self.root / rel), follow_external=True)
        if verdict is not None and verdict[0] == "alias" and through_link(self.root, rel):
            return verdict[1]
        return rel

    @_guarded
    def read(self, ref: str) -> tuple[ParsedNote, str]:
        """Read one note by id, path or title: the parsed note and its text as on disk."""
        from .sync import read_note

        rel = self.resolve(ref)
        note, _fp, data = read_note(self.root, rel, follow_external=self._keeper.follow_external())
        return note, data.decode("utf-8", errors="replace")

    # --- writes ----------------------------------------------------------------------------

    @_guarded
    def remember(
        self,
        type: str | MemoryType,
        text: str,
        *,
        confidence: float = 0.8,
        importance: float = 0.5,
        durability: float = 0.8,
        evidence: str | Evidence = "system",
        key: str | None = None,
        subject: str = "user",
        tags: Sequence[str] = (),
        sources: Sequence[str] = (),
        when: datetime | None = None,
    ) -> StoredMemory:
        """Store a new memory as a note and index it at once.

        For programs that set a memory directly (evidence `system` by default); `tota add` calls
        it with evidence `manual`. Values are checked first: a bad one raises `ValidationError`
        and nothing is written. Text is cleaned as it enters (`sanitize.clean_text`: no NUL or
        control characters, no lone surrogates); text holding a secret (a password, a key, an
        IBAN, ...) raises `SecretError`, which names the kind, never the value; a statement
        longer than `MAX_STATEMENT_CHARS`, or one the note format would read back differently
        (`notes.statement_problem`), raises `ValidationError` (nothing is cut or changed
        unasked).
        """
        from .model import Evidence, Memory, Status, check_memory, new_id, now
        from .notes import check_tags, statement_problem
        from .sanitize import MAX_STATEMENT_CHARS, clean_text
        from .topics import with_topics

        mtype = _memory_type(type)
        text = clean_text(text)
        # One line is one statement: its runs of spaces and tabs become one space. The checks
        # below look at the text exactly as the note will hold it.
        text = " ".join(text.split()) if "\n" not in text.strip() else text.strip()
        key = clean_text(key) if key is not None else None
        subject = clean_text(subject)
        tags = [clean_text(t) for t in tags]
        check_tags(tags)
        sources = [clean_text(s) for s in sources]
        _refuse_secrets({"the text": [text], "the key": [key or ""], "the subject": [subject],
                         "a tag": tags, "a source": sources})  # fmt: skip
        problem = statement_problem(text)
        if problem is not None and text.strip():
            raise ValidationError(f"text cannot be stored as written: {problem}")
        if len(text.strip()) > MAX_STATEMENT_CHARS:
            raise ValidationError(
                f"text is {len(text.strip()):,} characters; a memory holds at most "
                f"{MAX_STATEMENT_CHARS:,} (a statement, not a document)"
            )
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
            text=text,
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
        self.open_index()  # the writer indexes the note at once (and checks its title)
        return self._writer.write_new(memory)

    def batch(self) -> AbstractContextManager[None]:
        """Many writes as one (a program's loop of `remember`): one index transaction, and
        each folder fsynced once at the end. Every note is still written atomically and
        refused over a newer edit; only the durability of the renames waits for the end.
        Opens the index (`open_index`): the batch is one of its transactions."""
        self.open_index()
        return self._writer.batch()

    @_guarded
    def doctor(self) -> DoctorReport:
        """Check the vault and its index without changing either (see `tota doctor`).

        Except that a damaged index (its integrity checks fail) is a cache gone bad: it is
        moved aside and rebuilt from the notes, as any other command would, and checked again.
        """
        from .doctor import diagnose

        follow = self._keeper.follow_external()
        # An index to fill (new, rebuilt, a sync killed mid-way) is filled without writing
        # into a note: the ids and hand edits it finds are reported, for `tota sync` to write.
        report = diagnose(self.root, self._keeper.get(assign_ids=False), follow_external=follow)
        if report.integrity:
            self._keeper.recover("corrupt", IndexCorruptError("; ".join(report.integrity)))
            index = self._keeper.get(assign_ids=False)
            report = diagnose(self.root, index, follow_external=follow)
        return report

    # --- learning --------------------------------------------------------------------------

    def observe(
        self,
        messages: Iterable[Message | Mapping[str, Any]],
        *,
        conversation_id: str,
        now: datetime | None = None,
        extractor: Extractor | None = None,
        dry_run: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> ObserveReport:
        """Learn from a conversation: extract, score, merge, resolve conflicts, store.

        `messages` are `Message`s or OpenAI-style dicts (`role`, `content`, optional `name`,
        `id`, `timestamp`); a message without an id is known by its position. An iterator of
        `Message`s is learned as it is read, a step at a time (a long transcript is never held
        whole), and `progress` is told how many messages were learned after each step. While
        learning is paused nothing is stored and the report says so. Observing the same
        messages again changes nothing. Without an `extractor`, tota.toml's `[extract]
        backend` chooses one (the offline rules unless it says "llm").
        """
        from .config import load_config
        from .pipeline import Learner, ObserveReport, choose_extractor

        items = _as_messages(messages)
        if self.paused:
            return ObserveReport(conversation_id, paused=True, dry_run=dry_run)
        config = load_config(self.root)
        if extractor is None:
            extractor = choose_extractor(config.extract)
        self._run_guarded(self.open_index)  # what the learner reads and writes through
        learner = Learner(
            self._writer, extractor=extractor, min_confidence=config.min_confidence,
            threshold=config.merge_threshold,
        )  # fmt: skip
        state = state_dir(self.root)
        killed = [] if dry_run else killed_learners(state)
        if killed:
            # A learner killed mid-step left notes its index rows never joined: indexed now,
            # what they learned is seen as learned (`learning`).
            self._notice("an earlier run was killed before it indexed its last notes: syncing")
            self.sync()
            for marker in killed:
                marker.unlink(missing_ok=True)
        # Each step of the conversation is one guarded call: a damaged index found mid-way is
        # rebuilt and that step (a list, unlike `messages`) is learned again.
        with contextlib.nullcontext() if dry_run else running_learner(state):
            return learner.observe(
                items, conversation_id=conversation_id, at=now, dry_run=dry_run,
                progress=progress, guard=self._run_guarded,
            )  # fmt: skip

    @_guarded
    def _run_guarded(self, work: Callable[[], _T]) -> _T:
        """`work()` as a guarded call (see `_guarded`): run again once the index is repaired."""
        return work()

    @property
    def paused(self) -> bool:
        """True while learning is paused (on this machine)."""
        from .config import is_paused

        return is_paused(self.root)

    def pause(self) -> None:
        """Stop storing new memories until `resume()`."""
        from .config import set_paused

        set_paused(self.root, True)

    def resume(self) -> None:
        """Store new memories again."""
        from .config import set_paused

        set_paused(self.root, False)

    # --- recall ----------------------------------------------------------------------------

    @_guarded
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
        from .config import load_config
        from .fusion import MEMORY_DEPTH, TURN_DEPTH, fuse
        from .recall import build_query, turns_later
        from .recall import recall as recall_memories

        if type is not None:
            type = _memory_type(type).value
        if limit < 1:
            raise ValidationError(f"limit {limit} must be at least 1")
        # Turns have no type: a recall of one type is of memories alone.
        with_turns = type is None and load_config(self.root).turns
        index = self.open_index()
        plan = build_query(text)
        memories = _no_repeated_paths(
            recall_memories(
                index,
                text,
                limit=max(limit, MEMORY_DEPTH) if with_turns else limit,
                type=type,
                include_archived=include_archived,
                now=now,
                plan=plan,
                # Fused, a reflection may be cut to a few members: the fusion moves repeats.
                members_stay=with_turns,
            )  # fmt: skip
        )
        if not with_turns:
            return _without_secrets(memories)
        store = index.turns()
        hits = store.search(plan.searched, limit=TURN_DEPTH)
        settled = store.settled([h.source for h in hits], include_archived=include_archived)
        hits = [h for h in hits if h.source not in settled]
        picks = fuse(
            [m.sources for m in memories],
            [h.source for h in hits],
            limit=limit,
            echoes=[h.echo_source for h in hits],
            cuttable=[m.type == "reflection" for m in memories],
            later=turns_later(
                plan, [h.matched_role for h in hits], [h.matched_speaker for h in hits]
            ),
            best_place=True,
        )
        best = max((-h.score for h in hits), default=0.0) or 1.0
        return _without_secrets(
            [
                _cited(memories[p.index], p.sources)
                if p.kind == "memory"
                else _quoted(hits[p.index], best)
                for p in picks
            ]
        )

    @_guarded
    def profile(self, *, limit: int = 20, now: datetime | None = None) -> list[Recalled]:
        """Durable, important identity, preference and constraint memories."""
        from .recall import profile as profile_memories

        return _without_secrets(profile_memories(self.open_index(), limit=limit, now=now))

    @_guarded
    def reflect(self, *, dry_run: bool = False, now: datetime | None = None) -> ReflectReport:
        """Write or update one reflection note per group of related memories (`reflect`).

        Running it twice changes nothing; a reflection whose members changed is rewritten in
        place (same id, same file); one a person edited is left alone and reported.
        """
        from .reflect import reflect as reflect_vault

        self.open_index()  # what reflect reads and writes through (the vault's writer)
        return reflect_vault(self._writer, dry_run=dry_run, now=now)

    @_guarded
    def stale(self, *, now: datetime | None = None) -> list[Recalled]:
        """Active memories whose effective confidence fell under the archive floor."""
        from .decay import find_stale

        return find_stale(self.open_index(), now or datetime.now())

    def decay(self, *, apply: bool = False, now: datetime | None = None) -> list[Recalled]:
        """List stale memories, least confident first; with `apply`, archive them (kept on
        disk, never deleted). The list holds every stale memory whole (statement, sources):
        a listing of a large vault streams them with `decay_each` instead."""
        found: list[Recalled] = []
        self.decay_each(found.append, apply=apply, now=now)
        return found

    def decay_each(
        self,
        each: Callable[[Recalled], None],
        *,
        apply: bool = False,
        now: datetime | None = None,
        count: Callable[[int], None] | None = None,
    ) -> int:
        """Hand every stale memory to `each`, least confident first, `ARCHIVE_BATCH` read at a
        time; with `apply`, archive them, each batch before it is handed on. Returns how many.

        `count`, when given, is told how many memories are stale before the first is handed
        on (a listing's heading). Only the stale paths are held, and one batch of memories
        whole (statement, sources), never all of them: at 100k notes `tota decay` peaks at
        about half a no-change sync's memory (issue #15, docs/benchmarks.md). Each memory is
        as it was found (an archived one still says `active`). The decision and each batch
        are one guarded call each (see `_guarded`): a damaged index found mid-way is rebuilt
        and only that batch runs again, so `each` never sees a memory twice.
        """
        from . import decay

        at = (now or datetime.now()).replace(microsecond=0)
        paths = self._run_guarded(lambda: decay.stale_paths(self.open_index(), at))
        if count is not None:
            count(len(paths))
        handed = 0
        for start in range(0, len(paths), decay.ARCHIVE_BATCH):
            chunk = paths[start : start + decay.ARCHIVE_BATCH]
            found = self._run_guarded(functools.partial(self._read_stale, chunk, at))
            if apply:
                stale = [r.path for r in found]
                self._run_guarded(functools.partial(decay.archive_stale, self._writer, stale, at))
            for memory in found:
                each(memory)
            handed += len(found)
        return handed

    def _read_stale(self, paths: Sequence[str], at: datetime) -> list[Recalled]:
        from .decay import read_stale

        return read_stale(self.open_index(), paths, at)

    @_guarded
    def forget(self, ref: str) -> str:
        """Delete one memory: its note and its index row. Returns the note's path.

        Only a memory is forgotten (a note with an id); a note that changed on disk since it
        was indexed is refused rather than deleted unseen, like every write of tota's. The
        messages it came from are tombstoned (`.tota-forgotten`), so observing the same
        conversation again does not learn it back; a new message saying the same is learned.
        """
        from .files import HELD_BY_EDITOR, HELD_HINT, held_by_editor, through_link
        from .forgotten import add_forgotten
        from .manage import forget_conversations
        from .sync import read_note

        self.sync()
        rel = self.resolve(ref)
        index = self.open_index()
        rows = [self._memory_row(rel, "forgets", "fix the note, or delete the file yourself")]
        if through_link(self.root, rel):
            raise ValidationError(
                f"{rel}: reached through a link; tota never deletes a link or through one"
            )
        _note, fingerprint, _data = read_note(self.root, rel)
        if fingerprint.hash != rows[0].hash:
            raise NoteChangedError("changed on disk while forgetting it; try again", path=rel)
        if held_by_editor(self.root / rel):
            # The editor's next save would write the note back, and the memory with it.
            raise NoteHeldError(f"{rel}: {HELD_BY_EDITOR}; not forgotten: {HELD_HINT}", path=rel)
        # Every message it came from: those its note lists and those the cap left out.
        sources = [
            *rows[0].sources,
            *index.capped_sources(rows[0].memory_id),
        ]
        # And the assistant's replies that said its words again: forgotten alike, so they are
        # not quoted back, nor kept again when the conversation is read again.
        sources += index.turns().replies_repeating(sources, rows[0].text or "")
        # The tombstone before the delete: a crash between them leaves the memory (and a
        # tombstone that changes nothing while the memory cites the same messages).
        add_forgotten(self.root, sources)
        os.unlink(self.root / rel)
        self._writer.index_deleted(rel)
        forget_conversations(index, sources)
        self._forget_broken_copies()
        self._drop_from_reflections(rel)
        return rel

    def _drop_from_reflections(self, rel: str) -> None:
        """A forgotten memory's words leave the reflections that link it (`drop_members`);
        a person's own reflection is only named, for them to edit."""
        from .notes import title_of
        from .reflect import drop_members

        done = drop_members(self._writer, [title_of(rel)])
        for path in done.left_alone:
            self.on_notice(
                f"{path} still links the forgotten memory: a reflection written or edited by "
                "hand, so tota left it as it is; edit it to take the memory's words out"
            )

    def _forget_broken_copies(self) -> None:
        """A damaged index moved aside still holds a forgotten memory's text: delete it."""
        deleted = self.delete_broken_copies()
        if deleted:
            names = ", ".join(p.name for p in deleted)
            self.on_notice(
                f"deleted the damaged index copy {names} too: it held the forgotten text"
            )

    @_guarded
    def forgotten_sources(self) -> frozenset[str]:
        """The messages (`<conversation>#<message>`) of forgotten memories: never learned again."""
        return self._writer.forgotten_sources()

    @_guarded
    def archive(self, ref: str, *, now: datetime | None = None) -> str:
        """Archive one memory: kept on disk, skipped by recall; `confirm` makes it active again.

        Returns the note's path. An archived memory is left as it is.
        """
        from .model import Status

        rel = self.resolve(ref)
        if self._memory_row(rel, "archives", "fix the note first").status == Status.ARCHIVED.value:
            return rel
        at = (now or datetime.now()).replace(microsecond=0)
        self._writer.edit(rel, lambda row: {"status": Status.ARCHIVED.value, "updated": at})
        return rel

    def _memory_row(self, rel: str, verb: str, remedy: str) -> MemoryRow:
        """The index row of the memory at `rel`, or `NotAMemoryError` (exit 1) saying why the
        note is none (not indexed, invalid, no id): forget, archive and confirm each act on
        memories only, and say so alike ("tota confirms only memories")."""
        from .errors import NotAMemoryError

        rows = self.open_index().get(path=rel)
        if not rows or rows[0].memory_id is None or rows[0].error:
            # The note may have changed since the index last saw it (written or fixed by
            # hand a moment ago): it is read again before it is refused.
            self.sync(paths=[rel])
            rows = self.open_index().get(path=rel)
        if not rows or rows[0].memory_id is None or rows[0].error:
            why = "it is not indexed" if not rows else rows[0].error or "it has no id"
            raise NotAMemoryError(
                f"not a memory note ({why}); tota {verb} only memories ({remedy})", path=rel
            )
        return rows[0]

    @_guarded
    def short_ids(self, ids: Iterable[str | None]) -> dict[str, str]:
        """Each id's shortest unambiguous prefix in this vault (at least 6 characters), for
        displays; `resolve` accepts any of them (see `ids.short_ids`)."""
        return short_ids(self.open_index(), [i for i in ids if i])

    @_guarded
    def confirm(self, ref: str, *, now: datetime | None = None) -> str:
        """A person or program vouches for a memory: confidence up, decay clock reset.

        Returns the note's path. An archived memory becomes active again.
        """
        rel = self.resolve(ref)  # opens the index, which the writer patches through
        self._memory_row(rel, "confirms", "fix the note first")
        at = (now or datetime.now()).replace(microsecond=0)

        def changes(row: MemoryRow) -> dict[str, Any]:
            from .model import Status
            from .scoring import confirm_confidence

            if row.confidence is None or row.error:  # broken since the index last saw it
                from .errors import NotAMemoryError

                why = row.error or "it has no confidence"
                raise NotAMemoryError(
                    f"not a memory note ({why}); tota confirms only memories (fix the note first)",
                    path=rel,
                )
            out: dict[str, Any] = {
                "confidence": confirm_confidence(row.confidence, CONFIRM_CONFIDENCE),
                "confirmations": int(row.confirmations or 1) + 1,
                "confirmed": at,
            }
            if row.status == Status.ARCHIVED.value:
                out["status"] = Status.ACTIVE.value
            return out

        self._writer.edit(rel, changes)
        return rel

    # --- status ----------------------------------------------------------------------------

    @_guarded
    def stats(self) -> dict[str, Any]:
        """Counts for status displays, plus where things are."""
        index = self.open_index()
        counts = index.counts()
        counts["vault"] = str(self.root)
        counts["index"] = str(self.index_path)
        counts["last_sync"] = index.get_state("last_sync")
        counts["last_update"] = index.get_state("last_update")
        return counts

    @property
    def state_dir(self) -> Path:
        """`<vault>/.tota`: the index and local state."""
        return state_dir(self.root)


class _Located(Protocol):
    """A search hit or a recalled memory: anything with the path of its note."""

    @property
    def path(self) -> str: ...


_Found = TypeVar("_Found", bound=_Located)


def _remove_index_files(path: str) -> None:
    """Delete an index file and its `-wal` and `-shm` files, those that exist."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path + suffix)


def _one_holder(ref: str, paths: Sequence[str]) -> str:
    """The one note holding the id `ref` names; a copy of a note (a duplicated file) holds it
    too, and which of them is meant is never guessed."""
    if len(paths) == 1:
        return paths[0]
    raise NotFoundError(
        f"{ref}: {len(paths)} notes hold this id ({', '.join(sorted(paths))}); name one by its "
        "path, and give the other a new id (delete its id line; `tota doctor` lists copies)"
    )


def _no_repeated_paths(found: list[_Found]) -> list[_Found]:
    """Results as they are, unless one path comes twice: `path` is UNIQUE, so only a damaged
    path index lets a write add a second row. Raised as SQLite's corruption (which `_guarded`
    answers by moving the index aside and rebuilding it) rather than shown twice."""
    paths = [item.path for item in found]
    if len(set(paths)) != len(paths):
        repeated = next(p for p in paths if paths.count(p) > 1)
        raise sqlite3.DatabaseError(
            f"database disk image is malformed: {repeated} has more than one row "
            "(a damaged path index)"
        )
    return found


def _cited(memory: Recalled, sources: tuple[str, ...]) -> Recalled:
    """A memory as the fusion placed it: a reflection cut to fit the context budget cites the
    sources the fusion kept (its best members' first), any other memory all of its own."""
    if not sources or sources == memory.sources:
        return memory
    return dataclasses.replace(memory, sources=sources)


def _without_secrets(results: list[Recalled]) -> list[Recalled]:
    """Recalled memories with any secret in their words redacted: what recall hands an
    assistant. tota never writes one (the guard redacts before a note is written, and a turn
    is kept redacted), but a person's own note may hold one (`tota doctor` names it), and a
    reflection quotes its members' words."""
    from .extract.secrets import find_secrets, redact

    out = []
    for result in results:
        if result.kind == "memory" and (find_secrets(result.text) or find_secrets(result.title)):
            result = dataclasses.replace(
                result, text=redact(result.text), title=redact(result.title)
            )
        out.append(result)
    return out


def _quoted(hit: TurnHit, best: float) -> Recalled:
    """A turn as a recall result: its words quoted, marked `kind="turn"`; `score` is its bm25
    relative to the best turn of the query (0..1)."""
    from .recall import Recalled

    return Recalled(
        id=None, type=None, text=hit.text, subject=hit.speaker, sources=(hit.source,),
        confidence=None, effective_confidence=None, evidence=None, updated=hit.at, path="",
        title="", status=None, score=round(max(0.0, -hit.score) / best, 4), matched=(),
        kind="turn", role=hit.role,
    )  # fmt: skip


def _refuse_secrets(fields: Mapping[str, Sequence[str]]) -> None:
    """Raise `SecretError` naming the first secret's kind and the field that holds it."""
    from .extract.secrets import describe, find_secrets

    for where, values in fields.items():
        for value in values:
            found = find_secrets(value)
            if where == "a source":  # ids are random by design (as `pipeline.refuse_secret_ids`)
                found = [secret for secret in found if secret.kind != "random_token"]
            if found:
                raise SecretError(found[0].kind, name=describe(found[0].kind), where=where)


def _memory_type(value: str | MemoryType) -> MemoryType:
    from .model import MemoryType

    try:
        return MemoryType(str(value).lower())
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise ValidationError(f"unknown type {value!r} (expected one of: {allowed})") from None


def _as_messages(messages: Iterable[Message | Mapping[str, Any]]) -> Iterable[Message]:
    """Accept `Message`s or chat dicts; dicts are read by the same rules as a JSON file.

    A list is checked whole; any other iterable must yield `Message`s, and is passed on
    unread, to be learned as it is read."""
    from .extract.messages import Message

    if not isinstance(messages, Sequence):
        return messages  # type: ignore[return-value]
    if all(isinstance(m, Message) for m in messages):
        return list(messages)
    from .extract.formats import parse_conversation

    plain = [m if isinstance(m, Mapping) else m.__dict__ for m in messages]
    return parse_conversation(json.dumps(plain, default=str), "json", source="messages")
