"""Where search time goes, and what two candidate changes would save.

    .venv/bin/python -m bench.probes.search /tmp/tota-bench/vault-100000

An investigation, not a reported figure (its findings are in docs/benchmarks.md, "Where the
time went"). Uses the same ~200 queries as bench.sync (same seed), on a copy of the vault's
index (the vault's own index is only read; it is built first by a sync if missing). For each
kind of query it times:

* `Index.search` as it is (`SEARCH`: bm25 and snippet for every matching row, joined to `notes`,
  then sorted);
* two-phase: the top rowids by bm25 from the FTS table alone (no join, no snippet), then the
  row and snippet of each of those by `rowid = ?` (what the library could do);
* prefix queries again, two-phase, on a copy of the FTS table built with `prefix='2 3'`.

and counts how many rows each query matches, which is what the cost follows.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import tota_vault.index as tindex
from bench import _kit
from bench._kit import median, percentile
from bench.sync import make_queries
from tota_vault.rows import MemoryRow
from tota_vault.vault import Vault

TOP_IDS = """
SELECT rowid FROM {table} WHERE {table} MATCH :query
ORDER BY bm25({table}, 10.0, 1.0, 6.0, 6.0) LIMIT :limit
"""
ROWS_FOR = (
    "SELECT n.*, bm25({table}, 10.0, 1.0, 6.0, 6.0) AS score, "
    f"snippet({{table}}, 1, '{tindex.MARK_START}', '{tindex.MARK_END}', '…', 12) AS snippet "
    "FROM {table} JOIN notes AS n ON n.id = {table}.rowid "
    "WHERE {table} MATCH :query AND {table}.rowid = :id"
)


def timed(func, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("vault", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--out", type=Path, default=_kit.OUT_DIR)
    args = parser.parse_args(argv)
    manifest = json.loads((args.vault / ".gen_vault.json").read_text("utf-8"))
    queries = make_queries(manifest["vocab"], args.seed, args.queries)

    v = Vault.open(args.vault)
    if not v.index_path.exists() or v.open_index().counts()["notes"] == 0:
        v.sync()
    v.close()
    work = args.vault.parent / "probe-index.db"
    shutil.copyfile(v.index_path, work)
    conn = sqlite3.connect(work, isolation_level=None)
    conn.row_factory = sqlite3.Row
    index = tindex.Index(conn, work, rebuilt=False)
    n = conn.execute("SELECT count(*) FROM notes").fetchone()[0]

    started = time.perf_counter()
    conn.execute(
        "CREATE VIRTUAL TABLE prefix_fts USING fts5(title, body, tags, aliases, content='notes', "
        "content_rowid='id', tokenize='porter unicode61 remove_diacritics 2', prefix='2 3')"
    )
    conn.execute("INSERT INTO prefix_fts(prefix_fts) VALUES ('rebuild')")
    build = time.perf_counter() - started
    sizes = {
        name: conn.execute(f"SELECT sum(length(block)) FROM {name}_data").fetchone()[0] / 1e6
        for name in ("notes_fts", "prefix_fts")
    }

    def two_phase(q: str, table: str = "notes_fts") -> list:
        match = tindex.fts_query(q)
        ids = [r[0] for r in conn.execute(TOP_IDS.format(table=table),
                                          {"query": match, "limit": 20})]  # fmt: skip
        if not ids:
            return []
        # One lookup per hit: FTS5 uses `rowid = ?` to seek, so the MATCH is not run again.
        hits = []
        for rowid in ids:
            r = conn.execute(ROWS_FOR.format(table=table), {"query": match, "id": rowid}).fetchone()
            hits.append(tindex.Hit(MemoryRow.from_sqlite(r), r["score"], r["snippet"]))
        return hits

    for q in queries[:5]:  # warm the page cache
        index.search(q["q"])
        two_phase(q["q"])
    results: dict[str, dict[str, list[float]]] = {}
    differ = 0  # queries whose top 20 differ between variants (ties in bm25 at the cut)
    for q in queries:
        match = tindex.fts_query(q["q"])
        rec = results.setdefault(q["kind"], {k: [] for k in ("now", "two", "pre", "matches")})
        rec["now"].append(timed(lambda q=q: index.search(q["q"])))
        rec["two"].append(timed(lambda q=q: two_phase(q["q"])))
        if q["kind"] == "prefix":
            rec["pre"].append(timed(lambda q=q: two_phase(q["q"], "prefix_fts")))
            same = {h.path for h in two_phase(q["q"], "prefix_fts")}
            differ += same != {h.path for h in two_phase(q["q"])}
        count = conn.execute(
            "SELECT count(*) FROM notes_fts WHERE notes_fts MATCH ?", (match,)
        ).fetchone()[0]
        rec["matches"].append(count)
        now = {h.path for h in index.search(q["q"])}
        differ += now != {h.path for h in two_phase(q["q"])}

    def ms(values: list[float], pct: float) -> str:
        return f"{percentile(values, pct / 100) * 1000:7.2f}" if values else "      —"

    lines = [
        f"search probe on {n} notes (index copy {work}); times in ms, each query's median of 3",
        f"prefix='2 3' copy of the FTS table: built in {build:.1f} s; FTS data "
        f"{sizes['notes_fts']:.1f} MB -> {sizes['prefix_fts']:.1f} MB",
        "",
        f"{'kind':10} {'n':>4} {'matches p50/max':>17} | {'now p50':>7} {'p95':>7} "
        f"| {'2-phase p50':>11} {'p95':>7} | {'prefix idx p50':>14} {'p95':>7}",
    ]  # fmt: skip
    every: dict[str, list[float]] = {"now": [], "two": []}
    for kind, rec in results.items():
        every["now"] += rec["now"]
        every["two"] += rec["two"] if kind != "prefix" else rec["pre"]
        matches = f"{median(rec['matches']):.0f}/{max(rec['matches'])}"
        lines.append(
            f"{kind:10} {len(rec['now']):4} {matches:>17} | {ms(rec['now'], 50)} "
            f"{ms(rec['now'], 95)} | {ms(rec['two'], 50):>11} {ms(rec['two'], 95)} "
            f"| {ms(rec['pre'], 50):>14} {ms(rec['pre'], 95)}"
        )
    lines.append(
        f"{'all':10} {sum(len(r['now']) for r in results.values()):4} {'':>17} | "
        f"{ms(every['now'], 50)} {ms(every['now'], 95)} | {ms(every['two'], 50):>11} "
        f"{ms(every['two'], 95)} | (all: two-phase, prefix queries on the prefix index)"
    )
    lines.append(f"result sets that differ between variants (bm25 ties at the cut): {differ}")
    conn.close()
    for suffix in ("", "-wal", "-shm"):
        Path(str(work) + suffix).unlink(missing_ok=True)
    text = "\n".join(lines) + "\n"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"probe-search-{n}.txt").write_text(text, "utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
