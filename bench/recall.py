"""Recall speed: `Vault.recall` latency at 10k and 100k memories, and `reflect` over the vault.

    python -m bench.recall --size 10000 --size 100000

Each vault (`--size N`: the generated vault of N notes, made if missing; or `--vault PATH`) is
copied, so the original stays as generated, and synced, untimed. `--reuse` keeps the copy an
earlier run left (synced again, which finds nothing to do) instead of copying 100k files
afresh, and `--no-reflect` leaves reflect out, so that copy is not changed: with both, runs of
two versions of the code back to back measure recall on the same index. The messages are drawn
deterministically from the vault's own notes (`_kit.requests`): a few words of a random note,
framed as a person would ask ("Can you remind me about ...?"). Each of 200 messages is recalled
3 times and its median counts; p50 and p95 are over the messages. Baseline in the same run: a
plain search of the same words (one FTS5 OR query, `raw=True`: no re-ranking, no pruning), so
the ratio is what recall's ranking costs. Then `reflect` over the whole vault, twice (the first
run, and a second that should find nothing to change).

Recall and reflect make a typed row (`rows.MemoryRow`) of every candidate and member: the
cost of making one from a `SELECT *` row (up to 20,000 rows of the index, best of 3) is set
against a `dict` of the same row with its two JSON columns decoded, what rows were before.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from bench import _kit
from tota_vault import QueryError, Vault
from tota_vault.rows import MemoryRow

#: How many of the index's rows the row-building figure reads.
ROWS = 20_000

#: The house target for recall latency, in-process, at 10k and 100k memories.
TARGET_P95_MS = 20.0


def row_costs(vault: Vault) -> dict[str, float]:
    """Microseconds a row: a `MemoryRow` and, as the baseline, a dict with its JSON decoded."""
    conn = _kit.index_sql(vault)
    conn.row_factory = sqlite3.Row
    rows = conn.execute("SELECT * FROM notes LIMIT ?", (ROWS,)).fetchall()
    conn.close()

    def as_dict(row: sqlite3.Row) -> dict[str, Any]:
        out = dict(row)
        for name in ("sources", "observed"):
            out[name] = json.loads(out[name])
        return out

    out = {}
    for name, make in (("memory_row_us", MemoryRow.from_sqlite), ("dict_us", as_dict)):
        best = min(_kit.time_call(lambda m=make: [m(r) for r in rows]) for _ in range(3))
        out[name] = round(best / max(1, len(rows)) * 1e6, 2)
    return out


def bench(
    source: Path,
    work: Path,
    count: int,
    repeat: int,
    *,
    reuse: bool = False,
    reflect: bool = True,
) -> dict[str, Any]:
    """Recall and its baseline over one vault's copy; then (with `reflect`) reflect twice.
    With `reuse`, a copy an earlier run left (one with an index) is used as it is."""
    target = work / "recall" / source.name
    if not (reuse and (target / ".tota" / "index.db").exists()):
        _kit.copy_vault(source, target)
    with Vault.open(target) as vault:
        vault.sync()
        memories = vault.stats()["memories"]
        asks = _kit.requests(_kit.index_sql(vault), count)
        recall_s, search_s = [], []
        for message in asks:
            recall_s.append(_kit.time_call(lambda m=message: vault.recall(m, 10), repeat))
            words = " ".join(w for w in re.findall(r"[\w'-]+", message) if len(w) > 3) or "note"

            def search(w: str = words) -> None:
                # A word FTS5 reads as syntax: the baseline pays the attempt.
                with contextlib.suppress(QueryError):
                    vault.search(w.replace(" ", " OR "), raw=True, limit=10)

            search_s.append(_kit.time_call(search, repeat))
        reflected: dict[str, Any] = {}
        if reflect:
            started = time.perf_counter()
            first = vault.reflect()
            reflect_s = time.perf_counter() - started
            started = time.perf_counter()
            second = vault.reflect()
            again_s = time.perf_counter() - started
            reflected = {
                "reflect_seconds": round(reflect_s, 2),
                "reflections_written": len(first.created),
                "reflect_again_seconds": round(again_s, 2),
                "reflect_again_changes": len(second.created) + len(second.updated),
            }
        rows = row_costs(vault)
    recall = _kit.summary(recall_s, scale=1000, digits=2)
    search = _kit.summary(search_s, scale=1000, digits=2)
    return {
        "memories": memories,
        "messages": len(asks),
        "recall_ms": recall,
        "baseline_or_query_ms": search,
        "ratio_p50": _kit.ratio(recall["p50"], search["p50"]),
        "ratio_p95": _kit.ratio(recall["p95"], search["p95"]),
        "target_p95_met": recall["p95"] < TARGET_P95_MS,
        **reflected,
        "row_us": rows["memory_row_us"],
        "row_baseline_dict_us": rows["dict_us"],
        "row_ratio": _kit.ratio(rows["memory_row_us"], rows["dict_us"]),
    }


def report(results: dict[str, dict[str, Any]]) -> str:
    """The table docs/benchmarks.md quotes."""
    rows = []
    for r in results.values():
        rows.append((
            f"{r['memories']:,}",
            f"{r['recall_ms']['p50']} / {r['recall_ms']['p95']} ms",
            f"{r['baseline_or_query_ms']['p50']} / {r['baseline_or_query_ms']['p95']} ms",
            f"{r['ratio_p50']:.2f}× / {r['ratio_p95']:.2f}×",
            f"{r['reflect_seconds']} s, {r['reflections_written']:,} reflections"
            if "reflect_seconds" in r else "not run",
            f"{r['reflect_again_seconds']} s, {r['reflect_again_changes']} changes"
            if "reflect_seconds" in r else "not run",
            "met" if r["target_p95_met"] else "NOT met",
            f"{r['row_us']} / {r['row_baseline_dict_us']} us ({r['row_ratio']:.2f}×)",
        ))  # fmt: skip
    header = ("memories", "recall p50 / p95", "baseline OR query p50 / p95", "ratio p50 / p95",
              "reflect (first run)", "reflect again", f"p95 < {TARGET_P95_MS:.0f} ms",
              "a row: MemoryRow / dict")  # fmt: skip
    return _kit.table(header, rows)


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    _kit.add_vaults(parser, default=(10_000, 100_000))
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="recalls per message (median)")
    parser.add_argument(
        "--reuse", action="store_true", help="use the synced copy an earlier run left"
    )
    parser.add_argument(
        "--no-reflect", action="store_true", help="leave reflect out (the copy stays unchanged)"
    )
    args = parser.parse_args(argv)
    results = {}
    for vault in _kit.vaults(args):
        _kit.log(f"recall over {vault}")
        results[str(vault)] = bench(
            vault, args.work, args.messages, args.repeat,
            reuse=args.reuse, reflect=not args.no_reflect,
        )  # fmt: skip
    _kit.write_result(args.out, "recall", {"vaults": results})
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
