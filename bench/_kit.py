"""What every benchmark entry shares: statistics, timing against a baseline, the generated
vaults, result files and the common command-line options.

One module, so that every figure in docs/benchmarks.md is computed the same way (one
percentile, one median, one ratio format) and so that no entry edits `sys.path` on its own:
the suite is the package `bench`, run from the repository root as `python -m bench.<entry>`.
The two helpers that live outside this repository (the evaluation kit in ../shared/eval and
the transcript writer in tests/) are loaded here, by path, and nowhere else.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from bench import gen_vault

#: The repository root (the folder that holds `bench/` and `tota_vault/`).
ROOT = Path(__file__).resolve().parent.parent
#: Where results go (gitignored): one `<entry>.json` per run of an entry.
OUT_DIR = ROOT / "bench" / "out"
#: Where large generated files go: the vaults, their copies, snapshots of the code.
WORK_DIR = Path("/tmp/tota-bench")
#: The seed every documented figure was measured with.
SEED = 7


# --- statistics ------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The `q`-quantile (0 <= q <= 1) of a non-empty list, linearly interpolated between the
    two nearest ranks (numpy's default), so p95 of 20 runs is not simply the largest but one."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} is not between 0 and 1")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def median(values: Sequence[float]) -> float:
    """The median of a non-empty list."""
    return statistics.median(values)


def summary(values: Sequence[float], *, scale: float = 1.0, digits: int = 4) -> dict[str, float]:
    """p50, p95, min and max of `values`, each multiplied by `scale` (1000 for ms) and rounded."""
    return {
        "p50": round(median(values) * scale, digits),
        "p95": round(percentile(values, 0.95) * scale, digits),
        "min": round(min(values) * scale, digits),
        "max": round(max(values) * scale, digits),
        "n": len(values),
    }


def ratio(value: float, base: float) -> float:
    """`value / base`, rounded to two decimals; the form every figure's ratio is kept in."""
    if base <= 0:
        raise ValueError(f"baseline {base} is not positive; no ratio")
    return round(value / base, 2)


def fmt_ratio(value: float, base: float) -> str:
    """A ratio as the docs write it: `1.23×`."""
    return f"{ratio(value, base):.2f}×"


def fmt_seconds(seconds: float) -> str:
    """Seconds in the unit a person reads most easily: ms below one second, else s."""
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.2f} s"


# --- timing ----------------------------------------------------------------------------------


def time_call(fn: Callable[[], object], repeat: int = 1) -> float:
    """Median wall seconds of `repeat` calls of `fn` in this process."""
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - started)
    return median(runs)


def time_process(
    command: Sequence[str],
    stdin: bytes = b"",
    *,
    env: Mapping[str, str] | None = None,
    check: bool = True,
) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    """Wall seconds of one process from start to exit, and what it returned. With `check`, a
    failing process (or one that wrote to stderr while exiting 0 is allowed) raises, naming the
    command, so a broken entry never reports the time of an error."""
    started = time.perf_counter()
    done = subprocess.run(
        list(command), input=stdin, capture_output=True, env=None if env is None else dict(env)
    )
    seconds = time.perf_counter() - started
    if check and done.returncode != 0:
        tail = done.stderr.decode(errors="replace")[-2000:]
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {tail}")
    return seconds, done


def interleave(runs: int, jobs: Mapping[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Run every job once per round, `runs` rounds, rotating the order each round, so that load
    from elsewhere on the machine lands on the baseline and the measured alike. Each job
    returns the seconds it measured; the lists come back in the jobs' order."""
    names = list(jobs)
    times: dict[str, list[float]] = {name: [] for name in names}
    for run in range(runs):
        shift = run % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(jobs[name]())
    return times


def tota_command() -> str:
    """The `tota` console script beside this interpreter (the venv's), as a hook or a person
    runs it."""
    beside = Path(sys.executable).parent / "tota"
    if beside.exists():
        return str(beside)
    found = shutil.which("tota")
    if found is None:
        raise SystemExit("no `tota` command beside this Python; run with .venv/bin/python")
    return found


def log(message: str) -> None:
    """A progress line on stderr, stamped, so stdout stays the result."""
    sys.stderr.write(f"[{datetime.now():%H:%M:%S}] {message}\n")
    sys.stderr.flush()


def machine() -> dict[str, Any]:
    """What the figures depend on besides the code: cores, versions, the load right now."""
    return {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


# --- vaults ----------------------------------------------------------------------------------


def generated_vault(size: int, *, seed: int = SEED, work: Path = WORK_DIR) -> Path:
    """`<work>/vault-<size>`, generated by bench.gen_vault unless the same size, seed and
    generator version are there already (the same arguments always give the same bytes)."""
    vault = work / f"vault-{size}"
    marker = vault / gen_vault.MANIFEST
    if marker.exists():
        manifest = json.loads(marker.read_text("utf-8"))
        same = (manifest.get("n"), manifest.get("seed"), manifest.get("generator_version"))
        if same == (size, seed, gen_vault.GENERATOR_VERSION):
            return vault
    log(f"generating {size} notes into {vault}")
    gen_vault.write_vault(vault, size, seed, force=True)
    return vault


def manifest_of(vault: Path) -> dict[str, Any]:
    """The generator's manifest of a generated vault (parameters and query vocabulary)."""
    marker = vault / gen_vault.MANIFEST
    if not marker.exists():
        raise SystemExit(f"{vault}: not a generated vault (no {gen_vault.MANIFEST})")
    return json.loads(marker.read_text("utf-8"))


def copy_vault(source: Path, target: Path) -> Path:
    """A fresh copy of `source` at `target`, without its index: entries that write work on the
    copy, so a generated vault stays byte for byte as generated."""
    if not source.is_dir():
        raise SystemExit(f"{source}: no such vault")
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".tota"))
    return target


#: How a person phrases a request around a phrase taken from a note (`requests`).
FRAMES = (
    "Can you remind me about {}?",
    "What do you know about {}?",
    "I was thinking about {} again.",
    "Help me plan something around {}.",
    "{}?",
)
#: Every note with a body, in a stable order, for `requests` to draw from.
NOTE_TEXTS = "SELECT text FROM notes WHERE error IS NULL AND type IS NOT NULL ORDER BY id"


def index_sql(vault: Any) -> sqlite3.Connection:
    """A read-only connection of the bench's own to a vault's index file (the index keeps its
    connection private): for drawing requests and for the plain-SQL baselines."""
    return sqlite3.connect(f"file:{vault.index_path}?mode=ro", uri=True)


def requests(conn: sqlite3.Connection, count: int, seed: int = 5) -> list[str]:
    """Up to `count` messages drawn deterministically from a synced vault's own notes (the
    index connection): a few words of a random note, framed as a person would ask, so the words
    are realistic and most messages have matches. The recall, MCP and hook entries share them."""
    rng = random.Random(seed)
    rows = conn.execute(NOTE_TEXTS).fetchall()
    if not rows:
        raise SystemExit("the vault has no notes to draw messages from")
    out = []
    for _ in range(count):
        text = rng.choice(rows)[0]
        words = re.findall(r"[A-Za-z][\w'-]+", text)
        if len(words) < 3:
            continue
        start = rng.randrange(0, max(1, len(words) - 4))
        phrase = " ".join(words[start : start + rng.randint(2, 5)])
        out.append(rng.choice(FRAMES).format(phrase))
    return out


# --- helpers that live outside bench/ --------------------------------------------------------


def _load(name: str, path: Path) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    if not path.exists():
        raise SystemExit(f"{path}: not found")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def eval_dir() -> Path:
    """The shared evaluation folder (`shared/eval` beside the checkout or one of its parents:
    /work/main and /work/wt/<name> both find /work/shared/eval). Read in place, never copied."""
    override = os.environ.get("TOTA_EVAL_DIR")
    if override:
        return Path(override)
    for parent in ROOT.parents:
        candidate = parent / "shared" / "eval"
        if (candidate / "evalkit.py").exists():
            return candidate
    return ROOT.parent / "shared" / "eval"


def load_evalkit(folder: Path | None = None) -> ModuleType:
    """The evaluation kit (`evalkit.py`) from the shared evaluation folder."""
    return _load("evalkit", (folder or eval_dir()) / "evalkit.py")


def load_sessionkit() -> ModuleType:
    """tests/sessionkit.py: writes Claude Code transcripts the way the hook tests do."""
    return _load("sessionkit", ROOT / "tests" / "sessionkit.py")


# --- command line and results ----------------------------------------------------------------


def parser(doc: str | None, *, work: Path | None = None) -> argparse.ArgumentParser:
    """An entry's argument parser: its docstring's first paragraph as the description, and
    `--out` (the results folder) and `--work` (where large files go) on every entry."""
    first = (doc or "").split("\n\n")[0].strip()
    result = argparse.ArgumentParser(description=first)
    result.add_argument("--out", type=Path, default=OUT_DIR, help="results folder")
    result.add_argument("--work", type=Path, default=work or WORK_DIR, help="large files")
    return result


def add_vaults(p: argparse.ArgumentParser, *, default: Iterable[int] = (10_000,)) -> None:
    """`--vault PATH` (repeatable: a generated vault to use) or `--size N` (repeatable: the
    generated vault of N notes, made under --work if missing)."""
    p.add_argument("--vault", type=Path, action="append", default=[], help="a generated vault")
    p.add_argument(
        "--size",
        type=int,
        action="append",
        default=[],
        help=f"the generated vault of this many notes (default: {', '.join(map(str, default))})",
    )
    p.set_defaults(default_sizes=list(default))


def vaults(args: argparse.Namespace) -> list[Path]:
    """The vaults `add_vaults` options name, generated where needed."""
    named = list(args.vault)
    sizes = list(args.size) or ([] if named else args.default_sizes)
    return named + [generated_vault(n, work=args.work) for n in sizes]


def command_line() -> str:
    """The command that started this run, as a person would type it again."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name == "bench.__main__":  # `python -m bench ENTRY ...`
        head = ["-m", "bench", sys.argv[0].removeprefix("bench.")]
    elif spec is not None:
        head = ["-m", spec.name]
    else:
        head = [sys.argv[0]]
    return " ".join([Path(sys.executable).name, *head, *sys.argv[1:]])


def write_result(out: Path, name: str, data: Mapping[str, Any]) -> Path:
    """Write `<out>/<name>.json` with the machine it ran on and the command; return its path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.json"
    record = {
        "entry": name,
        "finished": datetime.now().isoformat(timespec="seconds"),
        "command": command_line(),
        "machine": machine(),
        **data,
    }
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False, default=str) + "\n", "utf-8")
    log(f"results in {path}")
    return path


def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table, the form the entries print and docs/benchmarks.md quotes."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
