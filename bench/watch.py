"""The sync daemon under load: edit-to-searchable latency, a 5,000-note git checkout, idle
CPU and memory while watching 100k notes. Each figure beside a baseline from the same run.

    python -m bench.watch --size 100000

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

The small vaults are generated under a temporary folder; the large one is `--size N` (the
generated vault, made under --work if missing) or `--vault PATH`, copied. Results go to
bench/out/watch.json.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import _kit, gen_vault
from tota_vault.seal import seal

PYTHON = sys.executable
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
#: The house targets: edit-to-searchable p95 by debounce, idle CPU and RSS watching 100k notes.
TARGET_LATENCY_P95_S = {0.5: 1.5, 0.05: 0.3}
TARGET_IDLE_CPU_PERCENT = 1.0
TARGET_RSS_MB = 200.0


def generate(n: int, out: Path) -> None:
    """A generated vault of `n` notes at `out` (seed 7), for the daemon to work on."""
    gen_vault.write_vault(out, n, _kit.SEED)


def start_daemon(vault: Path, *extra: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [PYTHON, "-m", "tota_vault", "--vault", str(vault), "watch", "--quiet", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    wait_until(lambda: last_sync(vault) is not None, timeout=600)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End the daemon as a service manager would (SIGTERM), and close its pipe."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


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
        bare.communicate()
    return {
        "daemon_cpu_percent": 100 * (cpu1 - cpu0) / seconds,
        "daemon_rss_mb": rss / 1e6,
        "daemon_peak_rss_mb": hwm / 1e6,
        "bare_watchdog_cpu_percent": 100 * (b1 - b0) / seconds,
        "bare_watchdog_rss_mb": brss / 1e6,
    }


def report(results: dict[str, Any]) -> str:
    """The table docs/benchmarks.md quotes: each figure, its baseline, ratio and target."""
    rows = []
    for debounce, limit in TARGET_LATENCY_P95_S.items():
        r = results[f"latency_debounce_{debounce}"]
        rows.append((
            f"edit-to-searchable, debounce {debounce} s",
            f"p50 {r['p50']:.3f} s, p95 {r['p95']:.3f} s (max {r['max']:.2f} s)",
            f"the debounce, {debounce} s", f"{_kit.fmt_ratio(r['p50'], debounce)} (p50)",
            f"p95 < {limit} s", "met" if r["p95"] < limit else "NOT met",
        ))  # fmt: skip
    g = results["git_checkout"]
    rows.append((
        f"converge after `git checkout` of {g['notes']:,} changed notes",
        f"{g['daemon_seconds']:.2f} s", f"one-shot `tota sync`: {g['one_shot_sync_seconds']:.2f} s",
        _kit.fmt_ratio(g["daemon_seconds"], g["one_shot_sync_seconds"]), "", "",
    ))  # fmt: skip
    i = results["idle"]
    cpu_ok = i["daemon_cpu_percent"] < TARGET_IDLE_CPU_PERCENT
    rss_ok = i["daemon_rss_mb"] < TARGET_RSS_MB
    rows.append((
        f"idle CPU over {i['seconds']:.0f} s, watching {i['notes']:,} notes",
        f"{i['daemon_cpu_percent']:.3f}%", f"bare watchdog: {i['bare_watchdog_cpu_percent']:.3f}%",
        "", f"< {TARGET_IDLE_CPU_PERCENT:.0f}%", "met" if cpu_ok else "NOT met",
    ))  # fmt: skip
    rows.append((
        f"RSS watching {i['notes']:,} notes",
        f"{i['daemon_rss_mb']:.0f} MB (peak {i['daemon_peak_rss_mb']:.0f} MB)",
        f"bare watchdog: {i['bare_watchdog_rss_mb']:.0f} MB",
        _kit.fmt_ratio(i["daemon_rss_mb"], i["bare_watchdog_rss_mb"]),
        f"< {TARGET_RSS_MB:.0f} MB", "met" if rss_ok else "NOT met",
    ))  # fmt: skip
    header = ("measure", "result", "baseline in the same run", "ratio", "target", "status")
    return _kit.table(header, rows)


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--vault", type=Path, help="a generated vault to watch idle (copied)")
    parser.add_argument("--size", type=int, default=100_000,
                        help="without --vault: the generated vault of this many notes")  # fmt: skip
    parser.add_argument("--small", type=int, default=2000, help="notes in the latency vault")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--checkout-notes", type=int, default=5000)
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    args = parser.parse_args(argv)

    source = args.vault or _kit.generated_vault(args.size, work=args.work)
    notes = _kit.manifest_of(source)["n"]
    args.work.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="watch-", dir=args.work))
    results: dict[str, Any] = {}
    try:
        small = work / "small"
        generate(args.small, small)
        for debounce in TARGET_LATENCY_P95_S:
            times = latency(small, debounce, args.edits)
            summary = _kit.summary(times)
            results[f"latency_debounce_{debounce}"] = {**summary, "baseline": debounce}
        results["git_checkout"] = {
            **git_checkout(work, args.checkout_notes),
            "notes": args.checkout_notes,
        }
        big = _kit.copy_vault(source, work / "big")
        results["idle"] = {**idle(big, args.idle_seconds), "notes": notes,
                           "seconds": args.idle_seconds}  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _kit.write_result(args.out, "watch", results)
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
