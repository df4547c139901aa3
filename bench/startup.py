"""`tota search` as a process, against a bare Python process that runs the same FTS5 query.

    python -m bench.startup --size 10000 --runs 20

A generated vault (bench.gen_vault, seed 7) is copied to the work folder and synced,
untimed. Then, interleaved run by run (the order rotating) so both see the same machine load:

- **bare**: `python -c "import sqlite3; ..."`, the same interpreter, opens the vault's index
  and runs tota's own search statement (`index.SEARCH`, the same bm25 weights, snippet and
  limit) with the query tota would run (`index.fts_query` of the words), prints the rows;
- **tota search**: the `tota` console script, `--vault P search WORDS` (a table on stdout,
  which is a pipe here), and `... search WORDS --json`.

With `--before PATH` (a folder holding another version of the `tota_vault` package, e.g.
`git archive <commit> tota_vault | tar -x -C PATH`), a fourth process runs that version's
`cli.main` for `search WORDS` in the same rounds: before and after, side by side in one run.

The words of each run are drawn from the vault's own notes (`_kit.requests`), the same for
both processes of a run. Each figure is the wall time of the process from start to exit
(`time.perf_counter` around `subprocess.run`), median and p95 over the runs, and the
median's ratio to the bare process's median. Results go to stdout as a Markdown table and to
bench/out/startup-<size>.json.
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path
from typing import Any

from bench import _kit
from tota_vault import Vault
from tota_vault.index import SEARCH, fts_query
from tota_vault.paths import index_path

#: The repository root: the `after` process imports this checkout's `tota_vault` from here.
ROOT = Path(__file__).resolve().parent.parent
#: The issue's target: `tota search` as a process within this many times the bare process.
TARGET_RATIO = 2.5

#: The bare process: nothing but sqlite3 and the statement tota runs, printed as rows.
BARE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
params = {"query": sys.argv[2], "type": None, "limit": 10, "include_archived": True}
for row in conn.execute(sys.argv[3], params).fetchall():
    print(row)
"""

#: Another version's `tota search`: its own package first on the path, ahead of the
#: editable install's finder, then its console script's entry point (`cli_fast.main`, or
#: typer's `cli.main` in versions older than cli_fast).
BEFORE = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in repr(f)]
sys.path[:0] = [sys.argv.pop(1)]  # in the child process, not in bench
sys.argv[0] = "tota"
try:
    from tota_vault.cli_fast import main
except ImportError:
    from tota_vault.cli import main
main()
"""


def prepare(size: int, work: Path, seed: int) -> Path:
    """A synced copy of the generated vault of `size` notes (the original stays as generated)."""
    source = _kit.generated_vault(size, seed=seed, work=work)
    target = _kit.copy_vault(source, work / f"startup-vault-{size}")
    with Vault.open(target) as vault:
        vault.sync()
    return target


def words_of(conn: Any, count: int) -> list[str]:
    """`count` searches of two or three words from the vault's notes (most have matches)."""
    out = []
    for message in _kit.requests(conn, count * 3):
        words = [w for w in re.findall(r"[A-Za-z]{4,}", message) if w[0].islower()][-3:]
        if len(words) >= 2:
            out.append(" ".join(words[-2:]))
    if len(out) < count:
        raise SystemExit("the vault gave too few searches")
    return out[:count]


def bench(
    size: int, runs: int, work: Path, seed: int, before: Path | None = None
) -> dict[str, Any]:
    vault = prepare(size, work, seed)
    with Vault.open(vault) as v:
        searches = words_of(_kit.index_sql(v), runs)
    db = str(index_path(vault))
    tota = _kit.tota_command()
    done: dict[str, int] = {"bare": 0, "table": 0, "json": 0, "before": 0, "after": 0}

    def words(job: str) -> str:
        """Each job runs once a round, so its own count is the round: the same words for all."""
        done[job] += 1
        return searches[(done[job] - 1) % runs]

    def bare() -> float:
        argv = [sys.executable, "-c", BARE, db, fts_query(words("bare")), SEARCH]
        return _kit.time_process(argv)[0]

    def table() -> float:
        return _kit.time_process([tota, "--vault", str(vault), "search", words("table")])[0]

    def as_json() -> float:
        argv = [tota, "--vault", str(vault), "search", words("json"), "--json"]
        return _kit.time_process(argv)[0]

    def earlier() -> float:
        argv = [sys.executable, "-c", BEFORE, str(before), "--vault", str(vault), "search",
                words("before")]  # fmt: skip
        return _kit.time_process(argv)[0]

    def launched() -> float:
        """This checkout's package through the same launcher as `before` (no editable
        install's finder on the path), so before and after differ only in the code."""
        argv = [sys.executable, "-c", BEFORE, str(ROOT), "--vault", str(vault), "search",
                words("after")]  # fmt: skip
        return _kit.time_process(argv)[0]

    jobs = {"bare": bare, "table": table, "json": as_json}
    if before is not None:
        jobs["before"] = earlier
        jobs["after"] = launched
    load_before = _kit.machine()["load_average_1min"]
    times = _kit.interleave(runs, jobs)
    base = statistics.median(times["bare"])
    return {
        "size": size,
        "runs": runs,
        "load_average_1min_before": load_before,
        "load_average_1min_after": _kit.machine()["load_average_1min"],
        "figures": {
            name: {
                "median_s": round(statistics.median(values), 4),
                "p95_s": round(_kit.percentile(values, 0.95), 4),
                "min_s": round(min(values), 4),
                "ratio_median": _kit.ratio(statistics.median(values), base),
            }
            for name, values in times.items()
        },
        "target_ratio": TARGET_RATIO,
    }


def main(argv: list[str] | None = None) -> int:
    p = _kit.parser(__doc__)
    p.add_argument("--size", type=int, default=10_000)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--before", type=Path, help="a folder with another version's tota_vault")
    args = p.parse_args(argv)
    result = bench(args.size, args.runs, args.work, _kit.SEED, args.before)
    label = {"bare": "bare python + sqlite3, the same query", "table": "`tota search` (table)",
             "json": "`tota search --json`",
             "before": f"`tota search` (table), the code in {args.before}",
             "after": "`tota search` (table), this checkout, launched as before"}  # fmt: skip
    rows = [
        (label[name], f"{f['median_s']:.3f} s", f"{f['p95_s']:.3f} s", f"{f['ratio_median']}×")
        for name, f in result["figures"].items()
    ]
    print(_kit.table(["process", "median", "p95", "÷ bare"], rows))
    path = _kit.write_result(args.out, f"startup-{args.size}", result)
    _kit.log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
