"""The memory manager's start and the cost of short ids. Each figure beside a baseline from
the same run.

    python -m bench.menu --runs 15 --notes 100000

* Start: time to first screen. A tmux session of 60 x 20 runs `tota memory` on a copy of the
  sample vault (already indexed, as after any sync), and the clock runs from `tmux
  new-session` until capture-pane shows the main menu's last item. Baseline: the same session
  running `python -c "print('ready')"` (Python's own start, the same polling), so the
  difference is what tota and Textual add.
* Start, CPU: the CPU seconds (`time.process_time()`, interpreter start included) a process
  has used when the main menu has been drawn for the first time, headless (Textual's test
  driver), with the same imports `tota memory` makes. Unlike the wall clock it does not grow
  when other processes share the machine. Baseline: `python -c` printing its own `process_time()`.
* Short ids: `short_ids` for a page of 50 ids in an index of N memories whose ids were all
  made in the same few seconds (a bulk import: the worst case, where ids share 9-10
  characters). Baseline: looking the same 50 ids up by their full id.

Needs tmux. Results go to bench/out/menu.json.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import _kit
from tota_vault import Vault
from tota_vault.ids import short_ids
from tota_vault.index import Index
from tota_vault.model import new_id

PYTHON = sys.executable


def first_screen(socket: Path, command: list[str], marker: str) -> float:
    """Seconds from starting `command` in a fresh 60 x 20 tmux session until `marker` shows."""
    base = ["tmux", "-S", str(socket)]
    line = " ".join(shlex.quote(part) for part in ["env", "-u", "COLUMNS", "-u", "LINES", *command])
    started = time.perf_counter()
    subprocess.run(
        [*base, "new-session", "-d", "-s", "b", "-x", "60", "-y", "20", line], check=True
    )
    try:
        deadline = started + 30
        while time.perf_counter() < deadline:
            screen = subprocess.run(
                [*base, "capture-pane", "-p", "-t", "b"], capture_output=True, text=True
            ).stdout
            if marker in screen:
                return time.perf_counter() - started
            time.sleep(0.002)
        raise RuntimeError(f"{marker!r} never appeared")
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True)


def bench_start(runs: int, work: Path) -> dict[str, float]:
    vault = work / "sample"
    shutil.copytree(_kit.ROOT / "sample-vault", vault, ignore=shutil.ignore_patterns(".tota"))
    with Vault.open(vault) as v:
        v.sync()
    hold = "import time; print('ready'); time.sleep(30)"
    commands = {
        "baseline": ([PYTHON, "-c", hold], "ready"),
        "tota memory": ([PYTHON, "-m", "tota_vault", "--vault", str(vault), "memory"], "Clear all"),
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for run in range(runs):  # interleaved, so load on the machine hits both alike
        for n, (name, (command, marker)) in enumerate(commands.items()):
            socket = work / f"tmux-{run}-{n}.sock"  # a fresh server each time
            times[name].append(first_screen(socket, command, marker))
    out: dict[str, float] = {}
    for name, values in times.items():
        out[f"{name} median"] = _kit.median(values)
        out[f"{name} min"] = min(values)
    out["added median"] = out["tota memory median"] - out["baseline median"]
    out["ratio median"] = out["tota memory median"] / out["baseline median"]
    return out


CPU_TO_MENU = """
import asyncio, time
from pathlib import Path
import tota_vault.cli
from tota_vault.menu import MainMenu, MemoryManager

class Timed(MemoryManager):
    def on_mount(self):
        # Runs after the first refresh, before the vault is opened (scheduled next).
        self.call_after_refresh(lambda: print(time.process_time()))
        super().on_mount()

async def main():
    app = Timed(Path({vault!r}))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
        app.close_vault()

asyncio.run(main())
"""


def bench_start_cpu(runs: int, work: Path) -> dict[str, float]:
    script = CPU_TO_MENU.format(vault=str(work / "sample"))
    commands = {
        "baseline cpu": [PYTHON, "-c", "import time; print(time.process_time())"],
        "tota memory cpu": [PYTHON, "-c", script],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            times[name].append(float(done.stdout.split()[0]))
    out = {f"{name} median": _kit.median(v) for name, v in times.items()}
    out["cpu ratio median"] = out["tota memory cpu median"] / out["baseline cpu median"]
    return out


def bench_short_ids(notes: int, work: Path) -> dict[str, float]:
    index = Index.open(work / "ids.db")
    ids = [new_id() for _ in range(notes)]
    with index.write() as conn:
        conn.executemany(
            "INSERT INTO notes (path, size, mtime_ns, hash, memory_id, title) "
            "VALUES (?, 0, 0, '', ?, ?)",
            ((f"goal/{i}.md", memory_id, str(i)) for i, memory_id in enumerate(ids)),
        )
    page = random.Random(7).sample(ids, 50)
    rounds = 20
    started = time.perf_counter()
    for _ in range(rounds):
        short = short_ids(index, page)
    took = (time.perf_counter() - started) / rounds
    started = time.perf_counter()
    conn = sqlite3.connect(f"file:{index.path}?mode=ro", uri=True)
    for _ in range(rounds):
        for memory_id in page:
            conn.execute("SELECT path FROM notes WHERE memory_id = ?", (memory_id,)).fetchall()
    base = (time.perf_counter() - started) / rounds
    lengths = [len(v) for v in short.values()]
    index.close()
    return {
        "notes": notes,
        "short_ids ms per 50": took * 1000,
        "baseline ms per 50": base * 1000,
        "ratio": took / base,
        "shared prefix of first and last id": len(os.path.commonprefix([ids[0], ids[-1]])),
        "short id length min": min(lengths),
        "short id length max": max(lengths),
    }


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--notes", type=int, default=100_000)
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        raise SystemExit("bench.menu needs tmux")
    args.work.mkdir(parents=True, exist_ok=True)
    home = os.environ.get("TOTA_HOME")
    with tempfile.TemporaryDirectory(dir=args.work, prefix="menu-") as tmp:
        work = Path(tmp)
        os.environ["TOTA_HOME"] = str(work / "home")  # the processes it starts inherit it
        try:
            print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
            start = bench_start(args.runs, work)
            for name, value in start.items():
                print(f"start  {name:24} {value:8.3f}")
            cpu = bench_start_cpu(args.runs, work)
            for name, value in cpu.items():
                print(f"start  {name:24} {value:8.3f}")
            ids = bench_short_ids(args.notes, work)
            for name, value in ids.items():
                print(f"ids    {name:36} {value:10.3f}")
        finally:
            if home is None:
                os.environ.pop("TOTA_HOME", None)
            else:
                os.environ["TOTA_HOME"] = home
    _kit.write_result(args.out, "menu", {"runs": args.runs, "start_wall_s": start,
                                         "start_cpu_s": cpu, "short_ids": ids})  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
