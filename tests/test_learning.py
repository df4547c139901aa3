"""The markers of running learners, and which of them a killed run left."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from conftest import gone_pid

from tota_vault.learning import MARKER_PREFIX, killed_learners, running_learner, running_learners

HERE = socket.gethostname()


def marker(state: Path, pid: int | str, host: str | bytes) -> Path:
    path = state / f"{MARKER_PREFIX}{pid}"
    path.write_bytes(host if isinstance(host, bytes) else host.encode())
    return path


def test_only_the_markers_of_processes_that_no_longer_run_here_are_killed(tmp_path: Path):
    dead = marker(tmp_path, gone_pid(), HERE)
    marker(tmp_path, os.getpid(), HERE)  # running
    marker(tmp_path, gone_pid(), "another-machine")  # cannot tell: not counted
    marker(tmp_path, "x1", HERE)  # not a process id
    marker(tmp_path, gone_pid(), b"\xff\xfe")  # unreadable host
    (tmp_path / "index.db").write_bytes(b"")
    assert killed_learners(tmp_path) == [dead]
    assert killed_learners(tmp_path / "missing") == []


def test_a_running_learner_marks_itself_and_removes_the_mark_however_it_stops(tmp_path: Path):
    mine = tmp_path / f"{MARKER_PREFIX}{os.getpid()}"
    with running_learner(tmp_path):
        host, started = mine.read_text("utf-8").split("\n")[:2]
        assert host == HERE and started.isdigit() and killed_learners(tmp_path) == []
    assert not mine.exists()
    with pytest.raises(KeyboardInterrupt), running_learner(tmp_path):
        raise KeyboardInterrupt
    assert not mine.exists()


def test_observe_after_a_killed_run_indexes_what_it_wrote_first(vault):
    """The killed run's notes were on disk, not in the index; the next observe syncs first,
    so what they learned is known and not learned again."""
    from tota_vault.extract.messages import Message

    first = vault.observe([Message("user", "I collect stamps from Chile.", "1")],
                          conversation_id="c")  # fmt: skip
    path = vault.root / first.outcomes[0].path
    kept = path.read_bytes()
    state = vault.root / ".tota"
    vault.index.apply(deletes=[first.outcomes[0].path])  # its row never committed
    marker(state, gone_pid(), HERE)
    again = vault.observe([Message("user", "I collect stamps from Chile.", "1")],
                          conversation_id="c")  # fmt: skip
    assert [o.action for o in again.outcomes] == ["skip"], again.outcomes
    assert path.read_bytes() == kept and not list(state.glob(f"{MARKER_PREFIX}*"))


def test_running_learners_are_the_other_live_processes_of_this_machine(tmp_path: Path):
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        marker(tmp_path, child.pid, HERE)
        marker(tmp_path, os.getpid(), HERE)  # this process: not another learner
        marker(tmp_path, gone_pid(), HERE)
        marker(tmp_path, child.pid + 1_000_000, "another-machine")
        assert running_learners(tmp_path) == [child.pid]
    finally:
        child.kill()
        child.wait()
    assert running_learners(tmp_path) == []


def test_a_state_folder_that_cannot_be_written_marks_nothing(tmp_path: Path):
    """A vault on read-only media (or whose `.tota` is not a folder): learning goes on to its
    own first write, which says why; the marker is not the error."""
    state = tmp_path / "not-a-folder"
    state.write_text("a file where the state folder would be")
    ran = []
    with running_learner(state):
        ran.append(True)
    assert ran == [True] and state.read_text().startswith("a file")


def test_a_process_that_took_a_killed_learners_id_is_not_taken_for_it(tmp_path: Path):
    """A code review: the id of a learner killed long ago, now another live process's (pid 1
    here), made `tota clear` refuse for ever, and the killed run's notes were never synced.
    The marker records when its learner started."""
    marker(tmp_path, 1, f"{HERE}\n1")  # pid 1 runs, but did not start at tick 1
    assert running_learners(tmp_path) == []
    assert killed_learners(tmp_path) == [tmp_path / f"{MARKER_PREFIX}1"]
    marker(tmp_path, 1, HERE)  # an older marker, with no start time: taken as running
    assert running_learners(tmp_path) == [1] and killed_learners(tmp_path) == []
