"""Where a cold `tota sync` spends its time, next to the bare baseline's parts.

    .venv/bin/python -m bench.probes.profile_sync /tmp/tota-bench/vault-10000

An investigation, not a reported figure: its findings are in docs/benchmarks.md ("Where the
time went"), and it wraps tota's internals by name, so it follows the code it was written
against (the snapshot named there) rather than every later version. On today's code the SQLite
replay (pass 2) fails, because its schema variants were cut from the first run's schema: pass
`--no-replay`.

Three passes over the same vault, each on a fresh index:

1. phases: a cold sync with light timers around tota's own steps (scan, read + hash, parse,
   YAML, model, rows, SQLite writes, FTS optimize, close), no profiler, so the shares are
   not skewed by profiling overhead; plus the baseline's two parts (frontmatter.loads, FTS5
   insert) timed the same way;
2. SQLite: the rows that sync wrote, replayed into fresh databases with and without parts of
   tota's schema, to show what each part of the index costs;
3. cProfile: a cold sync under cProfile; the top functions by own time and by cumulative time;
4. with `--resync`, cProfile of a no-change re-sync and of a re-sync after one note changed.

Writes `bench/out/profile-<N>.txt` (and the `.pstats` file) and prints the same text. To
profile the same code bench.sync measured, put its snapshot first on the path and keep the
current folder off it (`-P`, so the repository's own tota_vault does not shadow the snapshot):
`PYTHONPATH=/tmp/tota-bench/snapshot-<hash>:. .venv/bin/python -P -m bench.probes.profile_sync ...`.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import os
import pstats
import shutil
import sqlite3
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import tota_vault.index as tindex
import tota_vault.notes as tnotes
import tota_vault.sync as tsync
from bench import _kit
from bench.sync import code_fingerprint, note_paths
from tota_vault.vault import Vault

TIMES: dict[str, float] = defaultdict(float)
CALLS: dict[str, int] = defaultdict(int)


def timed(name: str, func: Any) -> Any:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            TIMES[name] += time.perf_counter() - started
            CALLS[name] += 1

    return wrapper


#: (module or class, attribute, label); nested labels are indented under their parent.
PROBES = [
    (tsync, "take_snapshot", "scan: walk + stat every file (take_snapshot)"),
    (tindex.Index, "files", "index.files(): read the indexed paths"),
    (tsync, "read_file", "read + sha256 (read_file)"),
    (tsync, "parse_note", "parse_note"),
    (tnotes, "decode_note", "  decode_note (utf-8, NUL check)"),
    (tnotes._HANDLER, "load", "  YAML: _StringYAMLHandler.load (CSafeLoader, node check)"),
    (tnotes, "_check_nodes", "    _check_nodes (alias-bomb / duplicate-key walk)"),
    (tnotes, "split_body", "  split_body"),
    (tnotes, "memory_from_fields", "  memory_from_fields (model)"),
    (tsync, "_hand_edit", "_hand_edit: seal check (seal_state: 2nd sha256 + regexes)"),
    (tsync, "record_from_note", "record_from_note (row values + json.dumps)"),
    (tindex.Index, "apply", "Index.apply: SQLite upserts (+ FTS triggers)"),
    (tindex.Index, "optimize", "Index.optimize: FTS5 'optimize'"),
    (tindex.Index, "invalid", "Index.invalid()"),
    (tindex.Index, "set_state", "Index.set_state"),
    (tindex.Index, "close", "Index.close: wal_checkpoint(TRUNCATE)"),
]


def fresh(vault: Path) -> None:
    shutil.rmtree(vault / ".tota", ignore_errors=True)


def phases(vault: Path) -> tuple[str, list[Any]]:
    originals = []
    for owner, attr, label in PROBES:
        original = getattr(owner, attr)
        originals.append((owner, attr, original))
        setattr(owner, attr, timed(label, original))
    captured: list[Any] = []
    apply = tindex.Index.apply

    def capture(self: Any, **kwargs: Any) -> None:
        captured.extend(kwargs.get("upserts", ()))
        apply(self, **kwargs)

    tindex.Index.apply = capture  # type: ignore[method-assign]
    fresh(vault)
    started = time.perf_counter()
    v = Vault.open(vault)
    v.sync()
    v.close()
    total = time.perf_counter() - started
    tindex.Index.apply = apply  # type: ignore[method-assign]
    for owner, attr, original in originals:
        setattr(owner, attr, original)

    lines = [f"cold sync, wall {total:.3f} s (timers on; each probe adds ~1 µs per call)", ""]
    lines.append(f"{'step':70} {'seconds':>8} {'share':>6} {'calls':>7}")
    for _owner, _attr, label in PROBES:
        if label in TIMES:
            share = TIMES[label] / total * 100
            lines.append(f"{label:70} {TIMES[label]:8.3f} {share:5.1f}% {CALLS[label]:7}")
    top = [label for _o, _a, label in PROBES if not label.startswith(" ")]
    rest = total - sum(TIMES[label] for label in top)
    lines.append(f"{'everything else (planning, loops, report)':70} {rest:8.3f} "
                 f"{rest / total * 100:5.1f}%")  # fmt: skip
    return "\n".join(lines), captured


def baseline_parts(vault: Path, workdir: Path) -> str:
    import frontmatter

    paths = note_paths(vault)
    started = time.perf_counter()
    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            texts.append((path, handle.read()))
    read = time.perf_counter() - started
    started = time.perf_counter()
    rows = []
    for path, text in texts:
        post = frontmatter.loads(text)
        tags = post.metadata.get("tags") or []
        rows.append((os.path.basename(path)[:-3], post.content, " ".join(map(str, tags))))
    parse = time.perf_counter() - started
    db = workdir / "profile-baseline.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    started = time.perf_counter()
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(title, body, tags, "
                 "tokenize='porter unicode61 remove_diacritics 2')")  # fmt: skip
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO f VALUES (?, ?, ?)", rows)
    conn.execute("COMMIT")
    conn.close()
    insert = time.perf_counter() - started
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    total = read + parse + insert
    return "\n".join([
        f"baseline parts (total {total:.3f} s)",
        f"  walk + read files          {read:8.3f} s {read / total * 100:5.1f}%",
        f"  frontmatter.loads          {parse:8.3f} s {parse / total * 100:5.1f}%",
        f"  FTS5 insert + commit       {insert:8.3f} s {insert / total * 100:5.1f}%",
    ])  # fmt: skip


def replay(records: list[Any], workdir: Path) -> str:
    """Insert the rows sync wrote into fresh databases, with parts of the schema left out."""
    values = [r.values for r in records]
    schema = tindex.SCHEMA
    no_secondary = "\n".join(
        line for line in schema.splitlines() if not line.startswith("CREATE INDEX")
    )
    fts_cols = [(v[6], v[8], v[9], v[10]) for v in values]  # title, body, tags, aliases

    def strip(ddl: str, *starts: str) -> str:
        """Drop statements (and trigger bodies) that begin with any of `starts`."""
        kept = []
        for statement in tindex._statements(ddl):
            if not statement.lstrip().startswith(starts):
                kept.append(statement)
        return "\n".join(kept)

    no_sources = strip(
        schema, "CREATE TABLE sources", "CREATE INDEX sources", "CREATE TRIGGER sources"
    )
    notes_only = strip(no_sources, "CREATE VIRTUAL TABLE notes_fts", "CREATE TRIGGER notes_a")
    no_insert_trigger = strip(schema, "CREATE TRIGGER notes_ai")
    late = [s for s in tindex._statements(schema) if s.startswith("CREATE INDEX")]
    suggested = strip(no_insert_trigger, "CREATE INDEX")
    # (label, schema, batched, optimize, FTS by one INSERT..SELECT per batch, indexes at end)
    variants = [
        ("tota schema, batches of 2000 (as sync)", schema, True, False, False, []),
        ("tota schema, then FTS 'optimize' (as a cold sync of > 5000)",
         schema, True, True, False, []),
        ("tota schema, one transaction", schema, False, False, False, []),
        ("tota schema without any secondary index", no_secondary, True, False, False, []),
        ("tota schema without the sources table + triggers",
         no_sources, True, False, False, []),
        ("notes table + its 5 indexes only (no FTS, no sources)",
         notes_only, True, False, False, []),
        ("suggested: FTS rows by 1 INSERT..SELECT per batch", no_insert_trigger,
         True, False, True, []),
        ("suggested: + secondary indexes built after the load", suggested,
         True, False, True, late),
    ]  # fmt: skip
    fts_select = (
        "INSERT INTO notes_fts(rowid, title, body, tags, aliases) "
        "SELECT id, title, body, tags, aliases FROM notes WHERE id > ?"
    )
    lines = ["SQLite replay of the same rows (fresh file each, WAL, synchronous=NORMAL):"]
    for label, ddl, batched, optimize, by_batch, indexes in variants:
        db = workdir / "profile-replay.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        conn = tindex._connect(db)
        for statement in tindex._statements(ddl):
            conn.execute(statement)
        started = time.perf_counter()
        step = 2000 if batched else len(values)
        for i in range(0, len(values), step):
            conn.execute("BEGIN IMMEDIATE")
            last = conn.execute("SELECT coalesce(max(id), 0) FROM notes").fetchone()[0]
            conn.executemany(tindex.UPSERT_NOTE, values[i : i + step])
            if by_batch:
                conn.execute(fts_select, (last,))
            conn.execute("COMMIT")
        for statement in indexes:
            conn.execute(statement)
        insert = time.perf_counter() - started
        opt = 0.0
        if optimize:
            started = time.perf_counter()
            conn.execute("INSERT INTO notes_fts(notes_fts) VALUES ('optimize')")
            opt = time.perf_counter() - started
        started = time.perf_counter()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        close = time.perf_counter() - started
        size = db.stat().st_size / 1e6
        lines.append(f"  {label:62} insert {insert:6.3f} s  optimize {opt:6.3f} s  "
                     f"checkpoint {close:6.3f} s  ({size:.1f} MB)")  # fmt: skip
    for label, ddl in [
        ("plain FTS5 over tota's 4 columns, one transaction",
         "CREATE VIRTUAL TABLE f USING fts5(title, body, tags, aliases, "
         "tokenize='porter unicode61 remove_diacritics 2')"),
    ]:  # fmt: skip
        db = workdir / "profile-replay.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        conn = tindex._connect(db)
        conn.execute(ddl)
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO f VALUES (?, ?, ?, ?)", fts_cols)
        conn.execute("COMMIT")
        insert = time.perf_counter() - started
        conn.close()
        lines.append(f"  {label:62} insert {insert:6.3f} s")
    for suffix in ("", "-wal", "-shm"):
        Path(str(workdir / "profile-replay.db") + suffix).unlink(missing_ok=True)
    return "\n".join(lines)


def membership(records: list[Any]) -> str:
    """What reconcile's `path in reads.to_parse` costs: two lookups per parsed note in a tuple
    of up to BATCH_SIZE paths (a linear scan each), against the same lookups in a set."""
    paths = [r.values[0] for r in records]
    size = tsync.BATCH_SIZE
    timings = {}
    for kind in ("tuple", "set"):
        started = time.perf_counter()
        for i in range(0, len(paths), size):
            batch = paths[i : i + size]
            to_parse = tuple(batch) if kind == "tuple" else set(batch)
            for path in batch:
                _ = path in to_parse  # the `elif ... path in reads.to_parse` per note
            _ = {p: 1 for p in batch if p in to_parse}  # the `new_ids` dict comprehension
        timings[kind] = time.perf_counter() - started
    return (
        f"reconcile's membership tests for {len(paths)} paths (batches of {size}): "
        f"tuple {timings['tuple']:.3f} s, set {timings['set']:.3f} s"
    )


def profile(vault: Path, out: Path, top: int) -> str:
    fresh(vault)
    profiler = cProfile.Profile()
    profiler.enable()
    v = Vault.open(vault)
    v.sync()
    v.close()
    profiler.disable()
    profiler.dump_stats(out)
    text = []
    for key in ("tottime", "cumulative"):
        buffer = io.StringIO()
        stats = pstats.Stats(profiler, stream=buffer)
        stats.strip_dirs().sort_stats(key).print_stats(top)
        body = buffer.getvalue()
        text.append(f"cProfile, top {top} by {key}:\n" + body[body.find("   ncalls") :])
    return "\n".join(text)


def resync(vault: Path, top: int) -> str:
    """cProfile a no-change re-sync and a one-note-change re-sync of an indexed vault."""
    out = []
    for label in ("no-change re-sync", "one note changed, re-sync"):
        original = None
        target = None
        if label.startswith("one"):
            target = Path(sorted(note_paths(vault))[len(note_paths(vault)) // 2])
            original = target.read_bytes()
            target.write_bytes(original + b"Edited by profile_sync.\n")
        started = time.perf_counter()
        plain = Vault.open(vault)
        plain.sync()
        plain.close()
        wall = time.perf_counter() - started
        if target is not None and original is not None:
            target.write_bytes(original)
            Vault.open(vault).sync()  # index the restored bytes, untimed
            target.write_bytes(original + b"Edited again by profile_sync.\n")
        profiler = cProfile.Profile()
        profiler.enable()
        v = Vault.open(vault)
        report = v.sync()
        v.close()
        profiler.disable()
        if target is not None and original is not None:
            target.write_bytes(original)
        buffer = io.StringIO()
        stats = pstats.Stats(profiler, stream=buffer)
        stats.strip_dirs().sort_stats("cumulative").print_stats(top)
        body = buffer.getvalue()
        out.append(
            f"{label}: wall {wall:.3f} s without profiler ({len(report.updated)} updated); "
            f"cProfile, top {top} by cumulative:\n" + body[body.find("   ncalls") :]
        )
    fresh(vault)  # the restored note differs from its index row now: start over next time
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("vault", type=Path, help="a vault made by bench.gen_vault")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--out", type=Path, default=_kit.OUT_DIR)
    parser.add_argument("--no-cprofile", action="store_true", help="skip the cProfile pass")
    parser.add_argument("--no-replay", action="store_true", help="skip the SQLite replay")
    parser.add_argument("--resync", action="store_true",
                        help="also profile a no-change and a one-note-change re-sync")  # fmt: skip
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    n = len(note_paths(args.vault))
    for path in note_paths(args.vault):  # warm the page cache
        Path(path).read_bytes()
    report, records = phases(args.vault)
    package = Path(tindex.__file__).parent
    sections = [
        f"profile of a cold sync of {n} notes in {args.vault}\n"
        f"tota_vault {code_fingerprint(package)} from {package}",
        report,
    ]
    sections.append(baseline_parts(args.vault, args.vault.parent))
    sections.append(membership(records))
    if not args.no_replay:
        sections.append(replay(records, args.vault.parent))
    if not args.no_cprofile:
        sections.append(profile(args.vault, args.out / f"profile-{n}.pstats", args.top))
    if args.resync:
        sections.append(resync(args.vault, args.top))
    text = "\n\n".join(sections) + "\n"
    (args.out / f"profile-{n}.txt").write_text(text, "utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
