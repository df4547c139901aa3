"""Maintenance against the same vault: `tota decay` and `tota reflect` beside a no-change sync.

    python -m bench.maintain --size 100000 --runs 3
    python -m bench.maintain --size 100000 --runs 5 --apply-runs 0 --code AFTER --against BEFORE

The generated vault (bench.gen_vault, seed 7) is copied to the work folder and synced once,
untimed. Then every figure is one child process (`python -c`, the same interpreter), so each
starts the same way and its peak RSS is its own (`ru_maxrss` from `os.wait4`):

- **sync**: a no-change `Vault.sync()` (the baseline: it stats every note);
- **decay**: what `tota decay` does (the dry run): `Vault.decay_each()`, each stale memory's
  line written (to /dev/null) as it is read; code from before it (`--code`) has only the
  list `Vault.decay()`, which `tota decay` printed;
- **reflect**: `Vault.reflect(dry_run=True)`;
- **decay --apply**: the same with `apply=True`, on a fresh copy of the synced vault (index
  included) each time, since it archives what it finds.

The dry jobs run interleaved, `--runs` rounds in a rotating order, so the machine's load
lands on the baseline and the measured alike; `decay --apply` runs `--apply-runs` times after
them. Each child times its call (wall, `perf_counter`; CPU, its own user + system time) after
opening the vault, and the figures are the medians' ratios to the sync's. Decay is judged at a
fixed moment (`--now`) so the stale set is the same in every run. `--code DIR` measures the
`tota_vault` package found in DIR instead (a checkout of an earlier commit, for a before and
after); `--against DIR` runs another checkout's dry jobs in the same rounds, on the same copy,
so a before and after are interleaved in one session (their figures under "against", each
ratio to that code's own sync). Results go to stdout as a Markdown table and to
bench/out/maintain-<size>.json.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import _kit

#: The issue's targets: each job under the no-change sync's peak memory, within 3x its time.
TARGET_TIME_RATIO = 3.0
TARGET_RSS_RATIO = 1.0
#: The moment decay is judged at: the generated notes run to 29 November 2026.
NOW = "2026-11-30T12:00:00"

#: One child: open the vault (untimed), run one job, print what it measured as JSON.
CHILD = """
import json, os, sys, time
from datetime import datetime
from tota_vault import Vault
job, root, now = sys.argv[1], sys.argv[2], datetime.fromisoformat(sys.argv[3])
vault = Vault.open(root, create=False)
cpu0, wall0 = os.times(), time.perf_counter()
if job == "sync":
    report = vault.sync()
    count = len(report.added) + len(report.updated) + len(report.removed)
elif job in ("decay", "decay-apply"):
    apply = job == "decay-apply"
    if hasattr(vault, "decay_each"):  # what `tota decay` does: each line printed as it is read
        with open(os.devnull, "w") as out:
            line = lambda r: out.write(f"  {r.effective_confidence:.2f}  {r.path}\\n")
            count = vault.decay_each(line, apply=apply, now=now)
    else:  # code from before #15's streamed listing: the list `tota decay` printed
        count = len(vault.decay(apply=apply, now=now))
elif job == "reflect":
    report = vault.reflect(dry_run=True, now=now)
    count = len(report.created) + len(report.updated)
else:
    raise SystemExit(f"unknown job {job}")
wall, cpu1 = time.perf_counter() - wall0, os.times()
vault.close()
cpu = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
import tota_vault
print(json.dumps({"wall_s": wall, "cpu_s": cpu, "count": count, "code": tota_vault.__file__}))
"""


def measure(job: str, root: Path, now: str, code: Path | None) -> dict[str, Any]:
    """Run one job in a child process and return its figures with its peak RSS (MB).

    The child is forked and waited for with `os.wait4`, whose rusage is that child's alone
    (RUSAGE_CHILDREN would give the largest peak of every child so far)."""
    env = dict(os.environ)
    # `python -c` puts its working folder first on sys.path: the child starts in the vault's
    # parent, so the code measured is `code` (or this checkout), never a `tota_vault` beside it.
    paths = [str(code)] if code is not None else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(_kit.ROOT)])
    env["TOTA_HOME"] = str(root.parent / "tota-home")
    argv = [sys.executable, "-c", CHILD, job, str(root), now]
    read_out, write_out = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: output to the pipe, then become the job
        try:
            os.close(read_out)
            os.dup2(write_out, 1)
            os.chdir(root.parent)
            os.execve(sys.executable, argv, env)
        finally:
            os._exit(127)
    os.close(write_out)
    with os.fdopen(read_out, "rb") as pipe:
        out = pipe.read()
    _pid, status, usage = os.wait4(pid, 0)
    exit_code = os.waitstatus_to_exitcode(status)
    if exit_code != 0:
        raise RuntimeError(f"job {job} failed with exit code {exit_code}")
    figures: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    figures["rss_mb"] = round(usage.ru_maxrss / 1024, 1)
    return figures


def prepare(size: int, work: Path, seed: int, code: Path | None) -> Path:
    """A synced copy of the generated vault of `size` notes (the original stays as generated)."""
    source = _kit.generated_vault(size, seed=seed, work=work)
    target = _kit.copy_vault(source, work / f"maintain-vault-{size}")
    measure("sync", target, NOW, code)  # the cold sync, untimed: every job then starts synced
    return target


def fresh_copy(synced: Path, target: Path) -> Path:
    """A copy of a synced vault with its index (mtimes kept: it is synced as it is)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(synced, target, symlinks=True)
    return target


def bench(args: Any) -> dict[str, Any]:
    code = args.code.resolve() if args.code else None
    against = args.against.resolve() if args.against else None
    vault = prepare(args.size, args.work, _kit.SEED, code)
    dry = ("sync", "decay", "reflect")
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in dry}
    before: dict[str, list[dict[str, Any]]] = {name: [] for name in dry}

    def job(name: str, into: dict[str, list[dict[str, Any]]], where: Path | None) -> Any:
        def run() -> float:
            figures = measure(name, vault, args.now, where)
            into[name].append(figures)
            return figures["wall_s"]

        return run

    jobs = {name: job(name, runs, code) for name in dry}
    if against is not None:  # the other code's jobs in the same rounds, on the same copy
        jobs.update({f"against-{name}": job(name, before, against) for name in dry})
    load_before = _kit.machine()["load_average_1min"]
    _kit.interleave(args.runs, jobs)
    runs["decay-apply"] = []
    for n in range(args.apply_runs):
        _kit.log(f"decay --apply on a fresh copy ({n + 1}/{args.apply_runs})")
        copy = fresh_copy(vault, args.work / f"maintain-apply-{args.size}")
        runs["decay-apply"].append(measure("decay-apply", copy, args.now, code))
        shutil.rmtree(copy)
    result = {
        "size": args.size,
        "now": args.now,
        "code": str(code) if code else "this checkout",
        "measured_module": runs["sync"][0]["code"],  # the tota_vault the children imported
        "load_average_1min_before": load_before,
        "load_average_1min_after": _kit.machine()["load_average_1min"],
        "figures": summary(runs),
        "targets": {"time_ratio": TARGET_TIME_RATIO, "rss_ratio": TARGET_RSS_RATIO},
    }
    if against is not None:
        result["against"] = {
            "code": str(against),
            "measured_module": before["sync"][0]["code"],
            "figures": summary(before),
        }
    return result


def summary(runs: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Each job's medians and their ratios to the no-change sync's (of the same code)."""
    base = {k: statistics.median(f[k] for f in runs["sync"]) for k in ("wall_s", "cpu_s", "rss_mb")}
    figures = {}
    for name, values in runs.items():
        if not values:  # `--apply-runs 0`: a job not run has no row
            continue
        med = {k: statistics.median(f[k] for f in values) for k in ("wall_s", "cpu_s", "rss_mb")}
        figures[name] = {
            "runs": len(values),
            "count": values[0]["count"],
            "wall_s": round(med["wall_s"], 3),
            "cpu_s": round(med["cpu_s"], 3),
            "rss_mb": round(med["rss_mb"], 1),
            "wall_ratio": _kit.ratio(med["wall_s"], base["wall_s"]),
            "cpu_ratio": _kit.ratio(med["cpu_s"], base["cpu_s"]) if base["cpu_s"] > 0 else None,
            "rss_ratio": _kit.ratio(med["rss_mb"], base["rss_mb"]),
            "all_wall_s": [round(f["wall_s"], 3) for f in values],
            "all_cpu_s": [round(f["cpu_s"], 3) for f in values],
        }
    return figures


def main(argv: list[str] | None = None) -> int:
    p = _kit.parser(__doc__)
    p.add_argument("--size", type=int, default=100_000)
    p.add_argument("--runs", type=int, default=3, help="rounds of the dry jobs")
    p.add_argument("--apply-runs", type=int, default=1, help="runs of decay --apply")
    p.add_argument("--now", default=NOW, help="the moment decay is judged at (ISO)")
    p.add_argument("--code", type=Path, help="a folder holding the tota_vault to measure")
    p.add_argument(
        "--against",
        type=Path,
        help="another folder's tota_vault, its dry jobs in the same rounds (a before and after)",
    )
    args = p.parse_args(argv)
    datetime.fromisoformat(args.now)  # a bad --now fails here, not in every child
    result = bench(args)
    label = {
        "sync": "no-change sync (baseline)",
        "decay": "`tota decay`",
        "reflect": "`tota reflect --dry-run`",
        "decay-apply": "`tota decay --apply`",
    }
    measured = [("", result["figures"])]
    if "against" in result:
        measured.append(("against: ", result["against"]["figures"]))
    rows = [
        (prefix + label[name], f["count"], f"{f['wall_s']:.2f} s", f"{f['wall_ratio']:.2f}×",
         f"{f['cpu_s']:.2f} s", f"{f['cpu_ratio'] or 0:.2f}×", f"{f['rss_mb']:.0f} MB",
         f"{f['rss_ratio']:.2f}×")
        for prefix, figures in measured
        for name, f in figures.items()
    ]  # fmt: skip
    header = ["job", "found", "wall", "÷ sync", "CPU", "÷ sync", "peak RSS", "÷ sync"]
    print(_kit.table(header, rows))
    _kit.write_result(args.out, f"maintain-{args.size}", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
