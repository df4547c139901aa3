"""Claude Code hook cost: `tota hook prompt` as a whole process, against `python -c pass`.

    python -m bench.hook --size 10000 --runs 60

A generated vault (bench.gen_vault, seed 7) is copied to the work folder and synced,
untimed. Then, interleaved run by run so both see the same machine load:

- **baseline**: `python -c pass`, the same interpreter: the floor any Python hook pays;
- **prompt**: the `tota` console script, `hook prompt`, a JSON object on stdin with a prompt
  drawn from the vault's own notes (`_kit.requests`, as bench.recall draws them), stdout read
  to the end;
- **session-start**: `hook session-start` (reconcile the index with the files, then the profile);
- **stop**: `hook stop` over a new session transcript with `--stop-messages` new messages of
  the person's each run (a new session each run, so every run learns; the vault grows by
  what they teach). Then `hook stop --inline` over backlogs of 1, 20, 50, 100 and 300 new
  messages (`--scaling`), 3 runs each: what a stop costs as its backlog grows
  (hooks.INLINE_MAX).

Each figure is the wall time of the process from start to exit (`time.perf_counter` around
`subprocess.run`), median and p95 over the runs, and its ratio to the baseline's median.
Results go to stdout as a Markdown table and to bench/out/hook-<size>.json.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from bench import _kit
from tota_vault import Vault

#: Backlogs (new messages of the person's) whose inline stop is timed, 3 runs each.
STOP_SCALING = (1, 20, 50, 100, 300)
STOP_STATEMENTS = [
    "I prefer {} over the alternatives.",
    "I'm working on {} this quarter.",
    "My colleague {} joined the team last week.",
    "We decided to drop {} from the plan.",
    "I usually practise {} on Sunday mornings.",
]


def timed(command: list[str], stdin: bytes) -> tuple[float, Any]:
    """A hook process's wall seconds; a hook that fails or writes to stderr stops the run."""
    seconds, result = _kit.time_process(command, stdin, check=False)
    if result.returncode != 0 or result.stderr:
        raise SystemExit(f"{' '.join(command[-2:])} failed: {result.stderr.decode()}")
    return seconds, result


def prepare(size: int, work: Path, seed: int) -> Path:
    """A synced copy of the generated vault of `size` notes (the original stays as generated)."""
    source = _kit.generated_vault(size, seed=seed, work=work)
    target = _kit.copy_vault(source, work / f"hook-vault-{size}")
    with Vault.open(target) as vault:
        vault.sync()
    return target


def stop_transcript(work: Path, run: int, count: int, rng: random.Random) -> Path:
    """A new session transcript with `count` new messages of the person's."""
    session_id = f"bench-{run:04d}-{rng.randrange(16**8):08x}"
    writer = _kit.load_sessionkit().SessionWriter(session_id=session_id)
    for number in range(count):
        thing = f"project Velkar{run}x{number}"
        writer.user(rng.choice(STOP_STATEMENTS).format(thing))
        writer.say("Noted. Anything else?")
    return writer.write(work / "transcripts" / f"{writer.session_id}.jsonl")


def summary(values: list[float], base: float) -> dict[str, float]:
    """Median, p95 and min of one process's runs, and its median's ratio to the baseline's."""
    median = statistics.median(values)
    return {
        "median_s": round(median, 4),
        "p95_s": round(_kit.percentile(values, 0.95), 4),
        "min_s": round(min(values), 4),
        "ratio_median": _kit.ratio(median, base),
    }


def bench(
    size: int, runs: int, work: Path, seed: int, stop_messages: int, scaling: list[int]
) -> dict[str, Any]:
    """Every hook against the baseline, interleaved run by run; then inline stops by backlog."""
    vault = prepare(size, work, seed)
    with Vault.open(vault) as v:
        prompts = _kit.requests(_kit.index_sql(v), runs * 2)[:runs]
        memories = v.stats()["memories"]
    tota = _kit.tota_command()
    base_cmd = [sys.executable, "-c", "pass"]
    rng = random.Random(seed)
    load_before = _kit.machine()["load_average_1min"]
    times: dict[str, list[float]] = {"baseline": [], "prompt": [], "session-start": [], "stop": []}
    context_chars: list[int] = []
    for run in range(runs):
        seconds, _ = timed(base_cmd, b"")
        times["baseline"].append(seconds)
        payload = json.dumps({"session_id": "bench", "prompt": prompts[run % len(prompts)]})
        seconds, result = timed([tota, "--vault", str(vault), "hook", "prompt"], payload.encode())
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
        times["stop"].append(seconds)
    by_backlog: dict[str, float] = {}
    for count in scaling:
        # How a stop grows with its backlog, learned in the hook (`--inline`: never detached).
        runs_of_count = []
        for repeat in range(3):
            path = stop_transcript(work, 10_000 + count * 10 + repeat, count, rng)
            payload = json.dumps({"session_id": path.stem, "transcript_path": str(path)})
            seconds, result = timed(
                [tota, "--vault", str(vault), "hook", "stop", "--inline"], payload.encode()
            )
            runs_of_count.append(seconds)
        by_backlog[str(count)] = round(statistics.median(runs_of_count), 4)
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
        "load_average_1min": [load_before, _kit.machine()["load_average_1min"]],
        "nproc": _kit.machine()["nproc"],
        "python": _kit.machine()["python"],
        "sqlite": _kit.machine()["sqlite"],
        "results": {name: summary(values, base) for name, values in times.items()},
        "stop_inline_median_s_by_new_messages": by_backlog,
    }


def table(data: dict[str, Any]) -> str:
    """The table docs/benchmarks.md quotes, and the inline stops by backlog."""
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
            f"| {r['ratio_median']:.1f}× |"
        )
    scaling = ", ".join(
        f"{count}: {seconds * 1000:.0f} ms"
        for count, seconds in data["stop_inline_median_s_by_new_messages"].items()
    )
    lines += ["", f"`tota hook stop --inline` by new messages (median of 3): {scaling}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--stop-messages", type=int, default=20)
    parser.add_argument(
        "--scaling", type=int, nargs="*", default=list(STOP_SCALING),
        help="backlogs whose inline stop is timed (default: 1 20 50 100 300)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=_kit.SEED)
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    data = bench(args.size, args.runs, args.work, args.seed, args.stop_messages, args.scaling)
    _kit.write_result(args.out, f"hook-{args.size}", data)
    print(table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
