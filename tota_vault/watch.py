"""The sync daemon: watch the vault and mirror every edit into the index.

Shape (each part small, so each can be trusted):

* A watchdog observer whose handler only enqueues paths: the source and the destination of
  every event, each filtered on its own (pattern handlers drop the final rename of an atomic
  save). Folder moves and deletes ask for a full reconcile.
* `PendingPaths`: per-path debounce. A path is due `debounce` seconds after its last event,
  or `max_wait` after its first while writes go on.
* One writer thread, the only one that touches SQLite: it runs the same `reconcile` as
  `tota sync` on the due paths, a full reconcile at start, every `full_every` seconds, and at
  once when watchdog reports that the kernel dropped events (inotify queue overflow).
* A lock file per vault (`flock`): one daemon per vault; a lock left by a killed daemon is
  released by the kernel and simply taken over.
* The index file is checked between syncs (one stat): deleted or replaced, it is opened
  again and rebuilt from the notes, with a warning in the log.
* On stop (SIGINT, SIGTERM): the observer stops first, then one last full reconcile flushes
  every pending edit, also one still in flight when the signal came.

A hand edit is written into its note only after the file has been quiet for `quiet` seconds,
never over a newer edit (see `seal`), and not while an editor holds the note (vim's swap file):
the patch is retried every `quiet` seconds (at least 1) until it closes, and the log says so
once per note (`held_news`), not at every retry.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .errors import TotaError, WriteError
from .files import IGNORED_DIRS, is_note_path, make_dirs, open_private
from .paths import state_dir
from .sync import SyncReport
from .vault import Vault

__all__ = [
    "Daemon",
    "DaemonRunningError",
    "PendingPaths",
    "WatchOptions",
    "daemon_status",
    "held_news",
    "lock_path",
]

log = logging.getLogger("tota.watch")


class DaemonRunningError(TotaError):
    """Another `tota watch` already watches this vault."""


@dataclass(frozen=True)
class WatchOptions:
    """Timing of the daemon, in seconds."""

    debounce: float = 0.5  # quiet time after a path's last event before it is synced
    max_wait: float = 5.0  # sync a path at the latest this long after its first event
    quiet: float = 3.0  # a hand edit is patched into its note after this much quiet
    full_every: float = 300.0  # periodic full reconcile: the cure for any lost event
    polling: bool = False  # use a PollingObserver (network folders, no inotify)


def lock_path(root: Path) -> Path:
    """The daemon's lock file for a vault."""
    return state_dir(root) / "daemon.lock"


@dataclass
class PendingPaths:
    """Paths waiting to be synced, each with its own debounce deadline. Thread-safe.

    `clock` is injectable so the debounce rules are tested without sleeping.
    """

    debounce: float
    max_wait: float
    clock: Callable[[], float] = time.monotonic
    _due: dict[str, float] = field(default_factory=dict)
    _first: dict[str, float] = field(default_factory=dict)
    _full: bool = False
    _cond: threading.Condition = field(default_factory=threading.Condition)

    def add(self, path: str) -> None:
        """A path had an event: push its deadline back, but not past `max_wait`."""
        now = self.clock()
        with self._cond:
            first = self._first.setdefault(path, now)
            self._due[path] = min(now + self.debounce, first + self.max_wait)
            self._cond.notify()

    def add_at(self, path: str, when: float) -> None:
        """Sync a path at a given time (on the `clock`), unless an event makes it sooner."""
        with self._cond:
            self._due[path] = min(self._due.get(path, when), when)
            self._first.setdefault(path, self.clock())
            self._cond.notify()

    def request_full(self) -> None:
        """Ask for a full reconcile as soon as the writer is free."""
        with self._cond:
            self._full = True
            self._cond.notify()

    def take(self, *, everything: bool = False) -> tuple[list[str], bool]:
        """Remove and return the due paths (all of them with `everything`) and the full flag."""
        now = self.clock()
        with self._cond:
            due = sorted(p for p, t in self._due.items() if everything or t <= now)
            for path in due:
                del self._due[path]
                self._first.pop(path, None)
            full, self._full = self._full, False
            return due, full

    def wait(self, timeout: float) -> None:
        """Block until something may be due, an event arrives, or `timeout` passes."""
        with self._cond:
            if self._full:
                return
            if self._due:
                timeout = min(timeout, max(0.0, min(self._due.values()) - self.clock()))
            if timeout > 0:
                self._cond.wait(timeout)

    def wake(self) -> None:
        """Wake a waiting writer (used to stop)."""
        with self._cond:
            self._cond.notify_all()

    def __len__(self) -> int:
        with self._cond:
            return len(self._due)


class _Handler:
    """A plain watchdog handler: it only turns events into vault-relative paths."""

    def __init__(self, root: Path, pending: PendingPaths) -> None:
        self.root = os.path.abspath(root)
        self.pending = pending

    def dispatch(self, event: Any) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            if not raw:
                continue
            raw = os.fsdecode(raw)
            rel = os.path.relpath(raw, self.root).replace(os.sep, "/")
            if rel.startswith("..") or rel == ".":
                continue
            parts = rel.split("/")
            if any(part in IGNORED_DIRS or part.startswith(".") for part in parts[:-1]):
                continue
            if event.is_directory:
                if event.event_type in ("moved", "deleted", "created") and not parts[-1].startswith(
                    "."
                ):
                    log.debug("%s folder %s: a full reconcile", event.event_type, rel)
                    self.pending.request_full()
            elif is_note_path(rel):
                log.debug("%s %s", event.event_type, rel)
                self.pending.add(rel)


class _OverflowWatcher(logging.Handler):
    """watchdog logs, and emits no event, when the kernel drops events: reconcile then."""

    def __init__(self, pending: PendingPaths) -> None:
        super().__init__(logging.WARNING)
        self.pending = pending

    def emit(self, record: logging.LogRecord) -> None:
        # watchdog's own wording; a path that merely contains "overflow" is no overflow
        if "queue overflowed" in record.getMessage().lower():
            self.pending.request_full()


INOTIFY_HINTS = {
    errno.ENOSPC: (
        "the inotify watch limit is reached (fs.inotify.max_user_watches); raise it with "
        "`sudo sysctl fs.inotify.max_user_watches=524288`"
    ),
    errno.EMFILE: (
        "the inotify instance limit is reached (fs.inotify.max_user_instances); raise it with "
        "`sudo sysctl fs.inotify.max_user_instances=1024`"
    ),
}


class Daemon:
    """Watches one vault until `stop()`; `run()` blocks, so call it from the thread to use."""

    def __init__(self, root: Path, options: WatchOptions | None = None) -> None:
        self.root = Path(os.path.abspath(root))
        self.options = options or WatchOptions()
        self.pending = PendingPaths(self.options.debounce, self.options.max_wait)
        self._stop = threading.Event()
        self._lock_file: IO[str] | None = None
        self.ready = threading.Event()
        self.syncs = 0
        self.last_report: SyncReport | None = None
        self.observer_kind = ""
        #: Notes held by an editor whose wait the log has announced (see `held_news`).
        self.waiting: set[str] = set()

    # --- lock ------------------------------------------------------------------------------

    def acquire_lock(self) -> None:
        """Take the vault's daemon lock or raise `DaemonRunningError` naming the holder."""
        path = lock_path(self.root)
        make_dirs(path.parent)
        try:
            handle = open_private(path, "a+", encoding="utf-8")  # held for the daemon's life
        except OSError as exc:
            raise WriteError(
                f"{path}: cannot take the daemon's lock ({exc.strerror or exc}); check that "
                f"{path.parent} is writable",
                path=path,
            ) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            try:
                holder = f"pid {json.loads(handle.read())['pid']}"
            except (ValueError, KeyError, TypeError):
                holder = "pid unknown"
            handle.close()
            raise DaemonRunningError(
                f"a tota daemon already watches {self.root} ({holder}); stop it first"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "started": time.time()}))
        handle.flush()
        self._lock_file = handle

    def release_lock(self) -> None:
        """Release the lock (the kernel also does this if the process dies)."""
        if self._lock_file is not None:
            with contextlib.suppress(OSError):
                self._lock_file.seek(0)
                self._lock_file.truncate()
            self._lock_file.close()
            self._lock_file = None

    # --- running ---------------------------------------------------------------------------

    def stop(self, *, wake: bool = True) -> None:
        """Ask `run()` to finish: pending paths are synced, the WAL checkpointed.

        From a signal handler pass `wake=False` (it takes no lock); the writer then notices
        within a second.
        """
        self._stop.set()
        if wake:
            self.pending.wake()

    def _start_observer(self) -> Any:
        from watchdog.observers import Observer
        from watchdog.observers.polling import PollingObserver

        handler = _Handler(self.root, self.pending)
        if not self.options.polling:
            observer = Observer()
            try:
                observer.schedule(handler, str(self.root), recursive=True)  # type: ignore[arg-type]
                observer.start()
                self.observer_kind = type(observer).__name__
                return observer
            except OSError as exc:
                hint = INOTIFY_HINTS.get(exc.errno or 0, f"inotify failed ({exc})")
                log.warning("cannot watch with inotify: %s; falling back to polling", hint)
                with contextlib.suppress(Exception):
                    observer.stop()
        observer = PollingObserver(timeout=1.0)
        observer.schedule(handler, str(self.root), recursive=True)  # type: ignore[arg-type]
        observer.start()
        self.observer_kind = type(observer).__name__
        return observer

    def _sync(self, vault: Vault, paths: list[str] | None) -> None:
        try:
            report = vault.sync(paths=paths, quiet=self.options.quiet)
        except TotaError as exc:
            log.error("sync failed: %s", exc)
            return
        self.syncs += 1
        self.last_report = report
        now_wall, now_mono = time.time(), time.monotonic()
        for path, retry_at in report.deferred:
            self.pending.add_at(path, now_mono + max(0.0, retry_at - now_wall) + 0.05)
        _log_report(report, full=paths is None)
        changed = {*report.updated, *report.added, *(new for _, new in report.moved)}
        announce, self.waiting = held_news(self.waiting, report.held, changed, paths)
        for path, waits in announce:
            log.info("held by an editor: %s; %s", path, waits)

    def _index_replaced(self, vault: Vault) -> bool:
        """Someone deleted `.tota/` (or the index) while watching: build a new index from the
        notes at once, instead of writing on into a deleted file forever."""
        try:
            return vault.check_index()
        except TotaError as exc:
            log.error("cannot recreate the index: %s", exc)
            return False

    def run(self) -> None:
        """Watch until stopped. Takes the lock, reconciles, then serves events."""
        overflow = _OverflowWatcher(self.pending)
        watchdog_log = logging.getLogger("watchdog.observers")
        self.acquire_lock()
        observer = None
        vault = Vault.open(self.root, create=False)
        try:
            watchdog_log.addHandler(overflow)
            observer = self._start_observer()  # before the first reconcile: no gap
            self._sync(vault, None)
            log.info("watching %s (%s)", self.root, self.observer_kind)
            self.ready.set()
            next_full = time.monotonic() + self.options.full_every
            while not self._stop.is_set():
                self.pending.wait(min(1.0, max(0.0, next_full - time.monotonic())))
                if self._index_replaced(vault):
                    next_full = time.monotonic() + self.options.full_every
                due, full = self.pending.take()
                if full or time.monotonic() >= next_full:
                    self._sync(vault, None)
                    next_full = time.monotonic() + self.options.full_every
                elif due:
                    self._sync(vault, due)
            # Stop taking events first, then flush: an edit made just before the signal may
            # still be on its way through watchdog when the loop ends. A last full reconcile
            # covers it, and anything lost in flight, at the cost of one stat pass.
            observer.stop()
            observer.join(timeout=10)
            observer = None
            self.pending.take(everything=True)
            self._sync(vault, None)
        finally:
            if observer is not None:
                observer.stop()
                observer.join(timeout=10)
            watchdog_log.removeHandler(overflow)
            vault.close()  # checkpoints the WAL
            self.release_lock()
            self.ready.set()
            log.info("stopped")


def _log_report(report: SyncReport, *, full: bool) -> None:
    for path in report.added:
        log.info("indexed %s", path)
    for path in report.updated:
        log.info("updated %s", path)
    for old, new in report.moved:
        log.info("moved %s -> %s", old, new)
    for path in report.removed:
        log.info("removed %s", path)
    for path in report.ids_assigned:
        log.info("gave the hand-written note %s an id", path)
    for path in report.hand_edits:
        log.info("hand edit recorded in %s (evidence: manual)", path)
    if full:
        log.info(
            "reconciled: %d unchanged, %d invalid (%.2fs)",
            report.unchanged, len(report.invalid), report.seconds,
        )  # fmt: skip
    for path, reason in report.unreadable:
        log.warning("cannot read %s: %s (its last readable version stays indexed)", path, reason)
    for folder, reason in report.links:
        log.warning("link not followed: %s: %s", folder, reason)
    for path in report.swept:
        log.info("removed a temp file left by an interrupted write: %s", path)
    changed = set(report.added) | set(report.updated) | {new for _, new in report.moved}
    for path, reason in report.invalid:
        if full or path in changed:
            log.warning("invalid note %s: %s", path, reason)


def held_news(
    waiting: set[str],
    held: list[tuple[str, str]],
    changed: set[str],
    synced: list[str] | None,
) -> tuple[list[tuple[str, str]], set[str]]:
    """Which notes held by an editor (`SyncReport.held`) to announce after a sync, and the
    notes waiting from then on.

    The patch of a held note is retried every few seconds until the editor closes it, and each
    retry finds it held again: a note is announced when it starts waiting and again only when
    it changed meanwhile (another save in the editor). `synced` is the paths the sync looked at
    (None: all of them); one of those no longer held has stopped waiting.
    """
    announce = [(p, w) for p, w in held if p not in waiting or p in changed]
    now_held = {p for p, _ in held}
    still = now_held if synced is None else (waiting - set(synced)) | now_held
    return announce, still


def daemon_status(root: Path) -> dict[str, Any] | None:
    """The running daemon of a vault ({pid, started}), or None when none holds the lock."""
    path = lock_path(Path(os.path.abspath(root)))
    if not path.exists():
        return None
    with open_private(path, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            try:
                return json.loads(handle.read() or "{}")
            except ValueError:
                return {"pid": None}
        fcntl.flock(handle, fcntl.LOCK_UN)
        return None
