"""Shared fixtures: every test gets its own TOTA_HOME and vault in a temp folder."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tota_vault import Vault

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_VAULT = ROOT / "sample-vault"


def pytest_report_header() -> list[str]:
    return [f"sqlite {sqlite3.sqlite_version}"]


@pytest.fixture(autouse=True)
def tota_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point TOTA_HOME at a temp folder so no test touches the real ~/.tota."""
    home = tmp_path / "tota-home"
    monkeypatch.setenv("TOTA_HOME", str(home))
    monkeypatch.delenv("TOTA_VAULT", raising=False)
    return home


@pytest.fixture(autouse=True)
def no_thread_leaks():
    """Fail a test that leaves threads running (watchdog observers, writer threads)."""
    before = threading.active_count()
    yield
    assert threading.active_count() <= before, "a test left threads running"


@pytest.fixture
def vault_dir(tmp_path: Path) -> Path:
    """An empty, initialised vault folder (not opened)."""
    root = tmp_path / "vault"
    Vault(root).init()
    return root


@pytest.fixture
def vault(vault_dir: Path):
    """An open empty vault."""
    with Vault.open(vault_dir) as v:
        yield v


@pytest.fixture
def sample_dir(tmp_path: Path) -> Path:
    """A copy of the sample vault (the repository's copy is never modified)."""
    target = tmp_path / "sample"
    shutil.copytree(SAMPLE_VAULT, target, ignore=shutil.ignore_patterns(".tota"))
    return target


def write(root: Path, rel: str, content: str | bytes) -> Path:
    """Write a note for a test (bytes exactly as given)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def vim_block0(pid: int, host: str, version: bytes = b"VIM 9.0") -> bytes:
    """The first page of a vim swap file as vim writes it (memline.c's block 0): the owner's
    process id at byte 24 (least significant first), the user at 28, the host at 68."""
    head = b"b0" + version.ljust(10, b"\0") + bytes(12) + pid.to_bytes(4, "little")
    head += b"someone".ljust(40, b"\0") + host.encode().ljust(40, b"\0")
    return head.ljust(4096, b"\0")


def gone_pid() -> int:
    """The id of a process of this machine that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture
def git_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private HOME with no git config of the person running the tests (real git repos in
    tests: the merge driver, capped sources across clones)."""
    home = tmp_path / "git-home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    for name in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{name}_NAME", "t")
        monkeypatch.setenv(f"GIT_{name}_EMAIL", "t@example.com")
    return home


def single(report: dict) -> dict:
    """The one conversation of a `tota extract --json` report (a chat, not an export), after
    checking that the run's totals are that conversation's."""
    [conversation] = report["conversations"]
    assert report["counts"] == conversation["counts"]
    assert report["messages"] == conversation["messages"]
    return conversation


def index_sql(vault: Vault) -> sqlite3.Connection:
    """A second, read-only connection to a vault's index file, for tests that look at the
    tables themselves (the index keeps its own connection private). WAL mode: it sees what
    the vault's connection has committed."""
    conn = sqlite3.connect(f"file:{vault.index_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn
