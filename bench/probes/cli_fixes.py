"""What three fixes of the command-line review cost, each against the code it replaced.

    .venv/bin/python -m bench.probes.cli_fixes /tmp/tota-bench/vault-10000 --turns 50000

An investigation, not a reported figure (its findings are in docs/benchmarks.md, "Review fixes
of the command line"). On a copy of the vault (the source is only read), in one process, each
pair interleaved, CPU time (`process_time`: SQLite runs in this process):

* search: `index.SEARCH` as it is (an active memory before a superseded or archived one at a
  score equal to four places) against the same query ordered by score alone, over 40 words of
  the generated vocabulary (20 common, 20 rare);
* counts: `index.COUNT_BY_TYPE_AND_STATUS` (what `Index.counts` reads now) against the
  by-type count it replaced;
* reindex: `Vault.reindex` (the old index moved aside, the notes synced, the turns carried
  over) against the body it replaced (the index files deleted, a sync: the turns lost), with
  `--turns` synthetic turns in the index before each run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import _kit
from tota_vault import Vault
from tota_vault import index as tindex
from tota_vault.turns import TurnRecord

#: The search as it was: best bm25 first, nothing else.
SEARCH_BEFORE = tindex.SEARCH.replace(
    "ORDER BY round(score, 4), n.status IN ('superseded', 'archived'), score", "ORDER BY score"
)
#: The by-type count `Index.counts` read before it counted statuses apart.
COUNT_BEFORE = (
    "SELECT type, count(*) FROM notes WHERE error IS NULL AND type IS NOT NULL "
    "GROUP BY type ORDER BY type"
)


def _paired(rounds: int, jobs: dict[str, Callable[[], None]]) -> dict[str, float]:
    """Total CPU seconds of each job over `rounds`, the order alternating every round."""
    totals = dict.fromkeys(jobs, 0.0)
    names = list(jobs)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            started = time.process_time()
            jobs[name]()
            totals[name] += time.process_time() - started
    return totals


def search_and_counts(vault: Vault, words: list[str], rounds: int) -> dict[str, Any]:
    conn = vault.open_index()._conn

    def params(word: str) -> dict[str, Any]:
        return {"query": tindex.fts_query(word), "type": None, "limit": 10,
                "include_archived": True}  # fmt: skip

    def run(sql: str) -> Callable[[], None]:
        return lambda: [conn.execute(sql, params(w)).fetchall() for w in words] and None

    searched = _paired(rounds, {"before": run(SEARCH_BEFORE), "after": run(tindex.SEARCH)})
    per_query = {k: round(v / (rounds * len(words)) * 1000, 3) for k, v in searched.items()}
    calls = max(4, rounds * 2)
    counted = _paired(calls, {
        "before": lambda: conn.execute(COUNT_BEFORE).fetchall() and None,
        "after": lambda: conn.execute(tindex.COUNT_BY_TYPE_AND_STATUS).fetchall() and None,
    })  # fmt: skip
    return {
        "search_ms_cpu_per_query": per_query,
        "queries_each": rounds * len(words),
        "counts_ms_cpu_per_call": {k: round(v / calls * 1000, 3) for k, v in counted.items()},
        "counts_calls_each": calls,
    }


def reindex(vault: Vault, turns: int, rounds: int) -> dict[str, Any]:
    rng = random.Random(7)
    words = "coffee running knee marathon porto lisbon sister braga cello jazz garden".split()
    records = [
        TurnRecord(f"c{i // 40}", str(i % 40), "user" if i % 2 == 0 else "assistant",
                   "user" if i % 2 == 0 else "assistant", None,
                   " ".join(rng.choice(words) for _ in range(18)))
        for i in range(turns)
    ]  # fmt: skip

    def fill() -> None:
        store = vault.open_index().turns()
        if store.counts()["turns"] != turns:
            store.clear()
            store.add(records)
            store.optimize()
        vault.close()

    def before() -> None:  # Vault.reindex's body before this branch
        vault.close()
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(str(vault.index_path) + suffix)
        vault.sync()

    seconds: dict[str, list[float]] = {"before": [], "after": []}
    kept: dict[str, int] = {}
    for r in range(rounds):
        for name in ("before", "after") if r % 2 == 0 else ("after", "before"):
            fill()
            started = time.process_time()
            before() if name == "before" else vault.reindex()
            seconds[name].append(time.process_time() - started)
            kept[name] = vault.open_index().turns().counts()["turns"]
    return {
        "reindex_s_cpu_median": {k: round(_kit.median(v), 2) for k, v in seconds.items()},
        "reindex_s_cpu_all": {k: [round(x, 2) for x in v] for k, v in seconds.items()},
        "turns_before_each_run": turns,
        "turns_after": kept,
        "runs_each": rounds,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("vault", type=Path, help="a generated vault (bench.gen_vault); only read")
    p.add_argument("--rounds", type=int, default=20, help="search rounds (40 words each)")
    p.add_argument("--turns", type=int, default=50_000, help="turns in the index to reindex")
    p.add_argument("--reindex-runs", type=int, default=4)
    p.add_argument("--out", type=Path, default=_kit.WORK_DIR / "probe-cli-fixes")
    args = p.parse_args(argv)
    copy = _kit.copy_vault(args.vault, args.out / "vault")
    vocab = _kit.manifest_of(args.vault)["vocab"]
    words = list(vocab["common"][:20]) + list(vocab["rare"][:20])
    result: dict[str, Any] = {"machine": _kit.machine(), "command": _kit.command_line()}
    with Vault.open(copy) as vault:
        vault.sync()
        result["memories"] = vault.stats()["memories"]
        result.update(search_and_counts(vault, words, args.rounds))
        if args.reindex_runs:
            result.update(reindex(vault, args.turns, args.reindex_runs))
    text = json.dumps(result, indent=2)
    (args.out / f"probe-cli-fixes-{result['memories']}.json").write_text(text + "\n")
    sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
