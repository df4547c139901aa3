"""Which learners are running, so a run that was killed is noticed by the next one.

A step of learning writes its notes first and commits their index rows after (the notes are
the truth; `pipeline`). A learner killed between the two (`kill -9`, a closed terminal, a
crash) leaves notes the index does not know, so the next run's look-ups do not see them: it
learned the same messages again, as "... 2.md" duplicates. Each learner therefore leaves a
marker in the vault's state folder while it runs (`learning.<pid>`, its host inside), and
removes it when it stops, however it stops but killed. A learner that finds a marker whose
process no longer runs on this machine syncs first: the notes the killed one wrote are
indexed, and what they learned is known to be learned.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

from .files import open_private, owner_gone

__all__ = ["MARKER_PREFIX", "killed_learners", "running_learner", "running_learners"]

#: `<vault>/.tota/learning.<pid>`: one file per running learner.
MARKER_PREFIX = "learning."


def _markers(state: Path) -> Iterator[tuple[Path, int, bool]]:
    """Each learner's marker in `state`: its path, process id, and whether that learner is
    gone. One that cannot be read is passed over: nothing can tell whether it still runs."""
    here = socket.gethostname()
    with contextlib.suppress(OSError):
        for entry in os.scandir(state):
            pid = entry.name.removeprefix(MARKER_PREFIX)
            if entry.name == pid or not pid.isdigit():
                continue
            try:
                host, _, started = Path(entry.path).read_text("utf-8").partition("\n")
            except (OSError, UnicodeDecodeError):
                continue
            host, started = host.strip(), started.strip()
            if host != here:
                continue  # another machine's (a vault on a shared disk): cannot tell
            gone = owner_gone(int(pid), host) or bool(started and _started(int(pid)) != started)
            yield Path(entry.path), int(pid), gone


def _started(pid: int) -> str:
    """When process `pid` started, as the kernel counts it (Linux: field 22 of
    `/proc/<pid>/stat`, clock ticks since boot), or "" where that cannot be read. A marker
    records its learner's, so a process that took the id of a killed learner later is not
    taken for it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("ascii", "replace")
    except OSError:
        return ""
    fields = stat[stat.rfind(")") + 2 :].split()  # after the name, which may hold spaces
    return fields[19] if len(fields) > 19 else ""


def killed_learners(state: Path) -> list[Path]:
    """The markers in `state` of learners of this machine that stopped without removing
    them: no process has their id now, or another one does (it started later)."""
    return [path for path, _pid, gone in _markers(state) if gone]


def running_learners(state: Path) -> list[int]:
    """The process ids of the other learners running on this vault from this machine (their
    markers name a process that runs, and started when they did): `tota clear` would delete
    under them, so it refuses."""
    return sorted(pid for _path, pid, gone in _markers(state) if not gone and pid != os.getpid())


@contextlib.contextmanager
def running_learner(state: Path) -> Iterator[None]:
    """Mark a learner running in `state` for the length of the block (see the module)."""
    marker = state / f"{MARKER_PREFIX}{os.getpid()}"
    try:
        with open_private(marker, "a+") as file:
            file.truncate(0)
            file.write(f"{socket.gethostname()}\n{_started(os.getpid())}\n")
    except OSError:
        # A state folder that cannot be written (a read-only vault): nothing will be written
        # to mark either, and the learner's own first write says why.
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            marker.unlink()
