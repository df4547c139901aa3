"""Claude Code hook cost: `tota hook prompt` as a whole process, against `python -c pass`.

    python bench/bench_hook.py --size 10000 --runs 40

A generated vault (bench/gen_vault.py, seed 7) is copied to the work folder and synced,
untimed. Then, interleaved run by run so both see the same machine load:

- **baseline**: `python -c pass`, the same interpreter: the floor any Python hook pays;
- **prompt**: the `tota` console script, `hook prompt`, a JSON object on stdin with a prompt
  drawn from the vault's own notes (as bench_recall.py draws them), stdout read to the end;
- **session-start**: `hook session-start` (reconcile the index with the files, then the profile);
- **stop**: `hook stop` over a new session transcript with `--stop-messages` new messages of
  the person's each run (a new session each run, so every run learns; the vault grows by
  what they teach). Then `hook stop --inline` over backlogs of 1, 20, 50, 100 and 300 new
  messages, 3 runs each: what a stop costs as its backlog grows (hooks.INLINE_MAX).

Each figure is the wall time of the process from start to exit (`time.perf_counter` around
`subprocess.run`), median and p95 over the runs, and its ratio to the baseline's median.
Results go to stdout as a Markdown table and to bench/out/hook-<size>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bench_recall import messages  # noqa: E402
from gen_vault import write_vault  # noqa: E402
from sessionkit import SessionWriter  # noqa: E402

from tota_vault import Vault  # noqa: E402

#: Backlogs (new messages of the person's) whose inline stop is timed, 3 runs each.
STOP_SCALING = (1, 20, 50, 100, 300)
STOP_STATEMENTS = [
    "I prefer {} over the alternatives.",
    "I'm working on {} this quarter.",
    "My colleague {} joined the team last week.",
    "We decided to drop {} from the plan.",
    "I usually practise {} on Sunday mornings.",
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(command: list[str], stdin: bytes) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    started = time.perf_counter()
    result = subprocess.run(command, input=stdin, capture_output=True, check=False)
    return time.perf_counter() - started, result


def prepare(size: int, work: Path, seed: int) -> Path:
    source = work / f"vault-{size}"
    if not (source / ".gen_vault.json").exists():
        write_vault(source, size, seed)
    target = work / f"hook-vault-{size}"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".tota"))
    with Vault.open(target) as vault:
        vault.sync()
    return target


def stop_transcript(work: Path, run: int, count: int, rng: random.Random) -> Path:
    writer = SessionWriter(session_id=f"bench-{run:04d}-{rng.randrange(16**8):08x}")
    for number in range(count):
        thing = f"project Velkar{run}x{number}"
        writer.user(rng.choice(STOP_STATEMENTS).format(thing))
        writer.say("Noted. Anything else?")
    return writer.write(work / "transcripts" / f"{writer.session_id}.jsonl")


def summary(values: list[float], base: float) -> dict[str, float]:
    median = statistics.median(values)
    return {
        "median_s": round(median, 4),
        "p95_s": round(percentile(values, 0.95), 4),
        "min_s": round(min(values), 4),
        "ratio_median": round(median / base, 2),
    }


def bench(size: int, runs: int, work: Path, seed: int, stop_messages: int) -> dict[str, Any]:
    vault = prepare(size, work, seed)
    with Vault.open(vault) as v:
        prompts = messages(v, runs * 2)[:runs]
        memories = v.stats()["memories"]
    tota = str(Path(sys.executable).parent / "tota")
    base_cmd = [sys.executable, "-c", "pass"]
    rng = random.Random(seed)
    load_before = os.getloadavg()[0]
    times: dict[str, list[float]] = {"baseline": [], "prompt": [], "session-start": [], "stop": []}
    context_chars: list[int] = []
    for run in range(runs):
        seconds, _ = timed(base_cmd, b"")
        times["baseline"].append(seconds)
        payload = json.dumps({"session_id": "bench", "prompt": prompts[run % len(prompts)]})
        seconds, result = timed([tota, "--vault", str(vault), "hook", "prompt"], payload.encode())
        if result.returncode != 0 or result.stderr:
            raise SystemExit(f"hook prompt failed: {result.stderr.decode()}")
        if result.stdout:
            context_chars.append(
                len(json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"])
            )
        times["prompt"].append(seconds)
        seconds, result = timed(
            [tota, "--vault", str(vault), "hook", "session-start"], b'{"source": "startup"}'
        )
        times["session-start"].append(seconds)
        path = stop_transcript(work, run, stop_messages, rng)
        payload = json.dumps({"session_id": path.stem, "transcript_path": str(path)})
        seconds, result = timed([tota, "--vault", str(vault), "hook", "stop"], payload.encode())
        if result.returncode != 0 or result.stderr:
            raise SystemExit(f"hook stop failed: {result.stderr.decode()}")
        times["stop"].append(seconds)
    scaling: dict[str, float] = {}
    for count in STOP_SCALING:
        # How a stop grows with its backlog, learned in the hook (`--inline`: never detached).
        runs_of_count = []
        for repeat in range(3):
            path = stop_transcript(work, 10_000 + count * 10 + repeat, count, rng)
            payload = json.dumps({"session_id": path.stem, "transcript_path": str(path)})
            seconds, result = timed(
                [tota, "--vault", str(vault), "hook", "stop", "--inline"], payload.encode()
            )
            if result.returncode != 0 or result.stderr:
                raise SystemExit(f"hook stop --inline failed: {result.stderr.decode()}")
            runs_of_count.append(seconds)
        scaling[str(count)] = round(statistics.median(runs_of_count), 4)
    base = statistics.median(times["baseline"])
    with Vault.open(vault) as v:
        learned = v.stats()["memories"] - memories
    return {
        "size": size,
        "memories_before": memories,
        "memories_learned_by_stops": learned,
        "runs": runs,
        "stop_messages": stop_messages,
        "prompts_with_context": len(context_chars),
        "context_chars_median": statistics.median(context_chars) if context_chars else 0,
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "results": {name: summary(values, base) for name, values in times.items()},
        "stop_inline_median_s_by_new_messages": scaling,
    }


def table(data: dict[str, Any]) -> str:
    lines = [
        f"{data['size']} memories, {data['runs']} runs each, interleaved "
        f"(Python {data['python']}, SQLite {data['sqlite']}, {data['nproc']} CPUs, "
        "load average {} before, {} after)".format(*data["load_average_1min"]),
        "",
        "| process | median | p95 | median / baseline |",
        "| --- | --- | --- | --- |",
    ]
    labels = {
        "baseline": "`python -c pass`",
        "prompt": "`tota hook prompt`",
        "session-start": "`tota hook session-start`",
        "stop": f"`tota hook stop` ({data['stop_messages']} new messages)",
    }
    for name, label in labels.items():
        r = data["results"][name]
        lines.append(
            f"| {label} | {r['median_s'] * 1000:.0f} ms | {r['p95_s'] * 1000:.0f} ms "
            f"| {r['ratio_median']:.1f}x |"
        )
    scaling = ", ".join(
        f"{count}: {seconds * 1000:.0f} ms"
        for count, seconds in data["stop_inline_median_s_by_new_messages"].items()
    )
    lines += ["", f"`tota hook stop --inline` by new messages (median of 3): {scaling}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--stop-messages", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--work", type=Path, default=Path("/tmp/tota-bench"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    data = bench(args.size, args.runs, args.work, args.seed, args.stop_messages)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"hook-{args.size}.json").write_text(json.dumps(data, indent=1) + "\n")
    print(table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
