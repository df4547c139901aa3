"""The sync daemon under load: edit-to-searchable latency, a 5,000-note git checkout, idle
CPU and memory while watching 100k notes. Each figure beside a baseline from the same run.

    python bench/bench_watch.py --vault100k /tmp/tota-bench/vault-100000

* Latency: a real `tota watch` process on a 2,000-note vault; each of 40 edits rewrites one
  note the way an editor's atomic save does, with a new word, and the clock stops when a
  separate connection finds that word in the index. Run with the default debounce (0.5 s) and
  with the smallest sensible one (0.05 s). Baseline: the debounce itself, the floor of any
  debounced watcher; the overhead is what tota adds.
* Git checkout: a 5,000-note vault in git, two commits that differ in every note; with the
  daemon running, `git checkout` of the older commit, timed until every note's text in the
  index is the older one. Baseline: a one-shot `tota sync` of the same change.
* Idle CPU and RSS: the daemon watching the 100k vault, after its start-up reconcile, for
  60 s with nothing changing; CPU time from /proc, RSS (VmRSS/VmHWM). Baseline: a bare
  watchdog observer on the same folder, in its own process.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
sys.path.insert(0, str(ROOT))

from tota_vault.seal import seal  # noqa: E402

GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]


def generate(n: int, out: Path) -> None:
    subprocess.run([PYTHON, str(ROOT / "bench" / "gen_vault.py"), str(n), str(out),
                    "--seed", "7"], check=True, capture_output=True)  # fmt: skip


def start_daemon(vault: Path, *extra: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [PYTHON, "-m", "tota_vault", "--vault", str(vault), "watch", "--quiet", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    wait_until(lambda: last_sync(vault) is not None, timeout=600)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def last_sync(vault: Path) -> str | None:
    db = vault / ".tota" / "index.db"
    if not db.exists():
        return None
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            row = conn.execute("SELECT value FROM state WHERE name = 'last_sync'").fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else row[0]


def wait_until(predicate, timeout: float, every: float = 0.005) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("condition not met in time")
        time.sleep(every)
    return time.perf_counter() - start


def found(conn: sqlite3.Connection, word: str) -> bool:
    row = conn.execute("SELECT 1 FROM notes_fts WHERE notes_fts MATCH ?", (f'"{word}"',)).fetchone()
    return row is not None


def atomic_save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.swp.tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def latency(vault: Path, debounce: float, edits: int) -> list[float]:
    proc = start_daemon(vault, "--debounce", str(debounce), "--settle", "3600")
    notes = sorted(vault.rglob("*.md"))[:edits]
    conn = sqlite3.connect(vault / ".tota" / "index.db", timeout=5)
    times = []
    try:
        for i, path in enumerate(notes):
            word = f"zqxlatency{int(debounce * 1000)}w{i}"
            text = path.read_text("utf-8")
            start = time.perf_counter()
            atomic_save(path, text.rstrip("\n") + f"\n\nEdited: {word}\n")
            wait_until(lambda w=word: found(conn, w), timeout=30)
            times.append(time.perf_counter() - start)
    finally:
        conn.close()
        stop(proc)
    return times


def git_checkout(work: Path, n: int) -> dict[str, float]:
    vault = work / f"git-{n}"
    generate(n, vault)
    subprocess.run([*GIT, "init", "-q"], cwd=vault, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=vault, check=True)
    subprocess.run([*GIT, "commit", "-qm", "one"], cwd=vault, check=True)
    for path in vault.rglob("*.md"):
        text = path.read_text("utf-8")
        head, _, body = text.partition("\n---\n")
        path.write_text(seal(head + "\n---\n" + body.rstrip("\n") + " Revised in two.\n"))
    subprocess.run([*GIT, "commit", "-qam", "two"], cwd=vault, check=True)

    def one_shot() -> float:
        t0 = time.perf_counter()
        subprocess.run([PYTHON, "-m", "tota_vault", "--vault", str(vault), "sync"],
                       check=True, capture_output=True)  # fmt: skip
        return time.perf_counter() - t0

    one_shot()  # index the "two" state
    subprocess.run([*GIT, "checkout", "-q", "HEAD~1"], cwd=vault, check=True)
    baseline = one_shot()
    subprocess.run([*GIT, "checkout", "-q", "-"], cwd=vault, check=True)
    one_shot()

    proc = start_daemon(vault)
    conn = sqlite3.connect(vault / ".tota" / "index.db", timeout=5)

    def converged() -> bool:
        return not found(conn, "revised")

    try:
        t0 = time.perf_counter()
        subprocess.run([*GIT, "checkout", "-q", "HEAD~1"], cwd=vault, check=True)
        wait_until(converged, timeout=600, every=0.05)
        daemon = time.perf_counter() - t0
    finally:
        conn.close()
        stop(proc)
    return {"daemon_seconds": daemon, "one_shot_sync_seconds": baseline}


def proc_stats(pid: int) -> tuple[float, int, int]:
    """CPU seconds (user + system), VmRSS and VmHWM in bytes, of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    status = Path(f"/proc/{pid}/status").read_text()
    rss = hwm = 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) * 1024
        elif line.startswith("VmHWM:"):
            hwm = int(line.split()[1]) * 1024
    return cpu, rss, hwm


BARE_OBSERVER = """
import sys, time
from watchdog.observers import Observer
from watchdog.events import FileSystemEventHandler
o = Observer(); o.schedule(FileSystemEventHandler(), sys.argv[1], recursive=True); o.start()
print("ready", flush=True)
time.sleep(100000)
"""


def idle(vault: Path, seconds: float) -> dict[str, float]:
    proc = start_daemon(vault)
    try:
        time.sleep(2)  # let the start-up reconcile's allocations settle
        cpu0, _, _ = proc_stats(proc.pid)
        time.sleep(seconds)
        cpu1, rss, hwm = proc_stats(proc.pid)
    finally:
        stop(proc)
    bare = subprocess.Popen([PYTHON, "-c", BARE_OBSERVER, str(vault)], stdout=subprocess.PIPE)
    try:
        assert bare.stdout is not None
        bare.stdout.readline()
        time.sleep(2)
        b0, _, _ = proc_stats(bare.pid)
        time.sleep(seconds)
        b1, brss, bhwm = proc_stats(bare.pid)
    finally:
        bare.kill()
        bare.wait()
    return {
        "daemon_cpu_percent": 100 * (cpu1 - cpu0) / seconds,
        "daemon_rss_mb": rss / 1e6,
        "daemon_peak_rss_mb": hwm / 1e6,
        "bare_watchdog_cpu_percent": 100 * (b1 - b0) / seconds,
        "bare_watchdog_rss_mb": brss / 1e6,
    }


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max": ordered[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault100k", type=Path, required=True, help="a generated 100k vault")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--checkout-notes", type=int, default=5000)
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "watch.json")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="tota-watch-bench-"))
    results: dict[str, object] = {}
    try:
        small = work / "small"
        generate(2000, small)
        for debounce in (0.5, 0.05):
            times = latency(small, debounce, args.edits)
            results[f"latency_debounce_{debounce}"] = {**summary(times), "baseline": debounce}
        results["git_checkout"] = git_checkout(work, args.checkout_notes)
        big = work / "big"
        shutil.copytree(args.vault100k, big, ignore=shutil.ignore_patterns(".tota"))
        results["idle_100k"] = idle(big, args.idle_seconds)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
