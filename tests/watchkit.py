"""Helpers for the daemon tests: a real daemon in a thread, polling with a deadline, notes
written the way tota writes them, and views of the index and the files to compare."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from tota_vault import Vault
from tota_vault.files import atomic_write, content_hash, read_file, scan_vault
from tota_vault.model import Evidence, Memory, MemoryType, new_id
from tota_vault.notes import render_note
from tota_vault.paths import index_path
from tota_vault.seal import SealState, content_digest, render_sealed, seal_state
from tota_vault.watch import Daemon, WatchOptions

T = TypeVar("T")

#: The timing every daemon test runs with: fast debounce and quiet, no periodic full sync.
OPTIONS = WatchOptions(debounce=0.2, quiet=0.3, full_every=3600)
#: The same timing for a `tota watch` process.
WATCH_ARGS = ("--debounce", "0.2", "--settle", "0.3", "--full-every", "3600")
STAMP = datetime(2026, 11, 1, 10, 0, 0)
#: Frontmatter lines a recorded hand edit may change; every other line must stay as it was.
HAND_EDIT_KEYS = ("evidence", "updated", "confirmed", "confidence", "digest")


def wait_for(predicate: Callable[[], T], timeout: float = 10.0, what: str | None = None) -> T:
    """Poll `predicate` every 20 ms until it returns something truthy; fail at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")
        time.sleep(0.02)


# --- a daemon in a thread ------------------------------------------------------------------


class DaemonThread:
    """A real `Daemon` running in a thread; `stop()` stops it and re-raises what `run` raised."""

    def __init__(self, root: Path, options: WatchOptions = OPTIONS) -> None:
        self.daemon = Daemon(root, options)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name=f"tota-daemon {root.name}")

    def _run(self) -> None:
        try:
            self.daemon.run()
        except BaseException as exc:  # handed to the test thread by start()/stop()
            self.error = exc
            self.daemon.ready.set()

    def start(self, timeout: float = 20.0) -> Daemon:
        self.thread.start()
        wait_for(self.daemon.ready.is_set, timeout, "the daemon to be ready")
        if self.error is not None:
            raise self.error
        return self.daemon

    def stop(self) -> None:
        if self.thread.ident is None:
            return
        self.daemon.stop()
        self.thread.join(timeout=20)
        assert not self.thread.is_alive(), "the daemon did not stop within 20 s"
        if self.error is not None:
            error, self.error = self.error, None
            raise error


# --- notes ---------------------------------------------------------------------------------


def memory(
    mtype: str | MemoryType,
    text: str,
    *,
    evidence: Evidence = Evidence.DIRECT,
    confidence: float = 0.8,
    memory_id: str | None = None,
    source: str = "chat-1#1",
) -> Memory:
    mtype = MemoryType(mtype)
    return Memory(
        id=memory_id or new_id(),
        type=mtype,
        text=text,
        confidence=confidence,
        evidence=evidence,
        created=STAMP,
        updated=STAMP,
        confirmed=STAMP,
        sources=(source,),
        tags=(f"tota/{mtype.value}",),
    )


def fast_sealed(mem: Memory) -> str:
    """`render_sealed(mem)` without its surgical-patch checks: fast enough for 10k notes."""
    text = render_note(mem)
    head, fence, body = text.rpartition("---\n")
    return f'{head}digest: "{content_digest(text)}"\n{fence}{body}'


def put(root: Path, rel: str, text: str | bytes) -> Path:
    """Write a note's bytes as they are (a plain write, before the daemon runs)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def tota_write(root: Path, rel: str, mem: Memory) -> str:
    """Write a note the way tota does: rendered, sealed, atomically. Returns the text."""
    text = render_sealed(mem)
    path = root / rel
    expected = read_file(path)[1] if path.exists() else None
    atomic_write(path, text.encode("utf-8"), expected=expected)
    return text


def evidence_line(text: str) -> str | None:
    match = re.search(r"^evidence:[ \t]*(\S+)[ \t]*$", text, re.MULTILINE)
    return None if match is None else match.group(1)


def kept_lines(text: str) -> list[str]:
    """The lines of a note a recorded hand edit must leave alone (all but `HAND_EDIT_KEYS`)."""
    return [
        line
        for line in text.splitlines()
        if not line.startswith(tuple(k + ":" for k in HAND_EDIT_KEYS))
    ]


# --- the index, read from a second connection ------------------------------------------------


def index_rows(root: Path) -> dict[str, dict[str, Any]]:
    """Every row of the index by path, read through a short-lived read-only connection."""
    db = index_path(root)
    if not db.exists():
        return {}
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        conn.row_factory = sqlite3.Row
        try:
            return {row["path"]: dict(row) for row in conn.execute("SELECT * FROM notes")}
        except sqlite3.OperationalError as exc:  # not created yet
            if "no such table" in str(exc):
                return {}
            raise
    finally:
        conn.close()


def index_count(root: Path) -> int:
    """How many rows the index holds (0 before it exists)."""
    db = index_path(root)
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute("SELECT count(*) FROM notes").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def index_state(root: Path, name: str) -> str | None:
    db = index_path(root)
    if not db.exists():
        return None
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute("SELECT value FROM state WHERE name = ?", (name,)).fetchone()
    except sqlite3.OperationalError:
        return None
    finally:
        conn.close()
    return None if row is None else row[0]


def row(root: Path, rel: str) -> dict[str, Any] | None:
    return index_rows(root).get(rel)


def file_hashes(root: Path) -> dict[str, str]:
    """Every note of the vault (as a sync sees them) with the hash of its bytes now."""
    out = {}
    for rel in scan_vault(root):
        try:
            out[rel] = content_hash((root / rel).read_bytes())
        except FileNotFoundError:
            continue
    return out


def in_sync(root: Path) -> bool:
    """True when the index holds exactly the vault's notes, each with its current bytes."""
    return {p: r["hash"] for p, r in index_rows(root).items()} == file_hashes(root)


def assert_in_sync(root: Path) -> None:
    """The index equals the vault: same paths and hashes, and doctor (a separate connection)
    finds no drift, no duplicate ids and an intact index."""
    indexed = {p: r["hash"] for p, r in index_rows(root).items()}
    assert indexed == file_hashes(root)
    with Vault.open(root, create=False) as vault:
        report = vault.doctor()
    assert report.drift == []
    assert report.duplicate_ids == {}
    assert report.integrity == []


def converge(root: Path, timeout: float = 10.0, what: str = "the index to match the files") -> None:
    wait_for(lambda: in_sync(root), timeout, what)
    assert_in_sync(root)


def is_recorded_hand_edit(root: Path, rel: str) -> bool:
    """The index and the note both say `manual`, the note is sealed again, and they agree."""
    r = row(root, rel)
    try:
        text = (root / rel).read_text("utf-8")
    except FileNotFoundError:
        return False
    return (
        r is not None
        and r["evidence"] == "manual"
        and evidence_line(text) == "manual"
        and seal_state(text) is SealState.SEALED
        and r["hash"] == content_hash(text.encode("utf-8"))
    )


def assert_not_manual(root: Path, rels: Iterable[str], evidence: str = "direct") -> None:
    rows = index_rows(root)
    for rel in rels:
        text = (root / rel).read_text("utf-8")
        assert rows[rel]["evidence"] == evidence, rel
        assert evidence_line(text) == evidence, rel
        assert seal_state(text) is SealState.SEALED, rel


# --- `tota watch` as a process ---------------------------------------------------------------


def tota_command(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "tota_vault", "--vault", str(root), *args]


def tota(root: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        tota_command(root, *args), capture_output=True, text=True, timeout=timeout
    )


class WatchProcess:
    """`tota watch` as a child process; its log goes to a file (never a pipe that fills up)."""

    def __init__(self, root: Path, log: Path, *extra: str) -> None:
        self.log_path = log
        self._log = open(log, "w", encoding="utf-8")  # noqa: SIM115 - closed in wait()
        self.proc = subprocess.Popen(
            tota_command(root, "watch", *WATCH_ARGS, *extra),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    def wait_watching(self, timeout: float = 20.0) -> None:
        """Wait for the daemon's "watching" line: lock taken, observer on, first sync done."""
        wait_for(
            lambda: "watching " in self.log() or self.proc.poll() is not None,
            timeout,
            "`tota watch` to start watching",
        )
        assert self.proc.poll() is None, f"tota watch exited early:\n{self.log()}"

    def signal(self, signum: int) -> None:
        os.kill(self.proc.pid, signum)

    def wait(self, timeout: float = 10.0) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            if not self._log.closed:
                self._log.close()

    def kill(self) -> None:
        """Teardown: make sure the child is gone (SIGKILL only if it still runs)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.wait(timeout=10)


class EventRecorder:
    """A second watchdog observer that records raw events (to prove what an editor did)."""

    def __init__(self, root: Path) -> None:
        from watchdog.events import FileSystemEvent, FileSystemEventHandler
        from watchdog.observers import Observer

        recorded: list[tuple[str, str, str]] = []

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                dest = os.fsdecode(getattr(event, "dest_path", "") or "")
                recorded.append((event.event_type, os.fsdecode(event.src_path), dest))

        self.events = recorded
        self.observer = Observer()
        self.observer.schedule(Handler(), str(root), recursive=True)

    def __enter__(self) -> EventRecorder:
        self.observer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.observer.stop()
        self.observer.join(timeout=10)
