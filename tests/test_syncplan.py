"""The sync's pure planners (`syncplan`) with plain data: no files, no index.

`plan_scan`, `plan_reads` and `match_moves` are also tested through `tota_vault.sync` (their
earlier home, tests/test_sync.py) and as one model of a reconcile (tests/test_properties.py).
"""

from __future__ import annotations

import pytest

from tota_vault.files import FileStat, Snapshot
from tota_vault.index import IndexedFile, IndexedStat
from tota_vault.syncplan import (
    BatchPlan,
    ReadPlan,
    plan_batch,
    plan_scan,
    settling,
    stub_hash,
    vanished_by_hash,
    vanished_ids,
)

# --- plan_scan: every shape of stamp the callers pass ----------------------------------------

STAMP_SHAPES = [
    pytest.param(lambda s, m: (s, m), lambda s, m: (s, m), id="plain tuples (a sync)"),
    pytest.param(
        lambda s, m: FileStat(s, m), lambda s, m: IndexedStat(s, m), id="FileStat/IndexedStat"
    ),
    pytest.param(
        lambda s, m: FileStat(s, m), lambda s, m: IndexedFile(s, m, "h", None), id="doctor's"
    ),
    pytest.param(lambda s, m: (s, m), lambda s, m: IndexedFile(s, m, "h", "ID"), id="mixed"),
]


@pytest.mark.parametrize(("walked", "known"), STAMP_SHAPES)
def test_plan_scan_compares_size_and_mtime_whatever_the_shape(walked, known):
    snapshot = {"same.md": walked(5, 50), "size.md": walked(6, 50), "new.md": walked(1, 1)}
    snapshot["mtime.md"] = walked(5, 51)
    indexed = {p: known(5, 50) for p in ("same.md", "size.md", "mtime.md", "gone.md")}
    plan = plan_scan(snapshot, indexed)
    assert plan.unchanged == ("same.md",)
    assert plan.to_read == ("mtime.md", "new.md", "size.md")
    assert plan.vanished == ("gone.md",)


def test_plan_scan_of_an_unchanged_vault_reads_nothing():
    snapshot = {f"n{i}.md": (i, i * 10) for i in range(50)}
    plan = plan_scan(snapshot, dict(snapshot))
    assert len(plan.unchanged) == 50 and plan.to_read == () and plan.vanished == ()


def test_plan_scan_sees_a_vanished_path_beside_a_new_one():
    # Same count on both sides: the vanished path must not hide behind the new one.
    plan = plan_scan({"a.md": (1, 1), "new.md": (2, 2)}, {"a.md": (1, 1), "old.md": (2, 2)})
    assert plan.to_read == ("new.md",) and plan.vanished == ("old.md",)


def test_plan_scan_takes_a_snapshots_stamps():
    snapshot = Snapshot()
    snapshot.add("a.md", 3, 30)
    snapshot.add("bad.md", 0, 0, "permission denied")
    stub = IndexedFile(0, 0, stub_hash("permission denied"), None)
    plan = plan_scan(snapshot.stamps, {"a.md": (3, 30), "bad.md": stub})
    # A stub row has size and mtime 0, like the failed stat: nothing to read again.
    assert plan.unchanged == ("a.md", "bad.md")


def test_vanished_lookups():
    indexed = {
        "a.md": IndexedFile(1, 1, "h1", "ID1"),
        "b.md": IndexedFile(1, 1, "h1", None),
        "c.md": IndexedFile(1, 1, "h2", "ID3"),
    }
    assert vanished_by_hash(["a.md", "b.md", "c.md"], indexed) == {
        "h1": ["a.md", "b.md"],
        "h2": ["c.md"],
    }
    assert vanished_ids(["a.md", "b.md"], indexed) == {"a.md": "ID1"}


# --- plan_batch: a batch of read paths ---------------------------------------------------------

NOW = 1_000.0
QUIET = 2.0
RECENT = int((NOW - 1) * 1e9)  # within the quiet period
LONG_AGO = int((NOW - 60) * 1e9)
ROWS = {
    "kept.md": IndexedFile(10, 1, "h-kept", "ID1"),
    "edited.md": IndexedFile(10, 1, "h-old", "ID2"),
    "touched.md": IndexedFile(10, 1, "h-touched", None),
    "stub.md": IndexedFile(0, 0, stub_hash("permission denied"), None),
    "gone.md": IndexedFile(10, 1, "h-gone", "ID4"),
}

BATCHES = [
    # (path, its stat, its hash or None, why it could not be read or None) -> expected plan
    pytest.param(
        [("touched.md", FileStat(10, 2), "h-touched", None)],
        BatchPlan(ReadPlan(("touched.md",), (), ())),
        id="same bytes: a touch",
    ),
    pytest.param(
        [("edited.md", FileStat(11, 2), "h-new", None)],
        BatchPlan(ReadPlan((), (), ("edited.md",))),
        id="new bytes: parse",
    ),
    pytest.param(
        [("moved.md", FileStat(10, 2), "h-gone", None)],
        BatchPlan(ReadPlan((), (("gone.md", "moved.md"),), ())),
        id="a vanished note's bytes: a move",
    ),
    pytest.param(
        [("kept.md", FileStat(0, RECENT), "h-empty", None)],
        BatchPlan(ReadPlan((), (), ()), deferred=(("kept.md", RECENT / 1e9 + QUIET),)),
        id="caught empty mid-save: later",
    ),
    pytest.param(
        [("kept.md", FileStat(0, LONG_AGO), "h-empty", None)],
        BatchPlan(ReadPlan((), (), ("kept.md",))),
        id="empty and quiet: parse",
    ),
    pytest.param(
        [("new.md", FileStat(0, RECENT), "h-empty", None)],
        BatchPlan(ReadPlan((), (), ("new.md",))),
        id="a new empty note: parse",
    ),
    pytest.param(
        [("kept.md", FileStat(10, 2), None, "permission denied")],
        BatchPlan(ReadPlan((), (), ()), unreadable=(("kept.md", "permission denied"),)),
        id="unreadable now: keep its row",
    ),
    pytest.param(
        [("new.md", FileStat(10, 2), None, "permission denied")],
        BatchPlan(ReadPlan((), (), ()), stubs=(("new.md", "permission denied"),)),
        id="never read: a stub",
    ),
    pytest.param(
        [("stub.md", FileStat(10, 2), None, "permission denied")],
        BatchPlan(ReadPlan((), (), ()), unchanged=1),
        id="the same stub: nothing",
    ),
    pytest.param(
        [("stub.md", FileStat(10, 2), None, "cannot be read (I/O error)")],
        BatchPlan(ReadPlan((), (), ()), stubs=(("stub.md", "cannot be read (I/O error)"),)),
        id="a stub with a new reason",
    ),
    pytest.param(
        [("kept.md", FileStat(0, 0, "symlink loop"), None, None)],
        BatchPlan(ReadPlan((), (), ()), stubs=(("kept.md", "symlink loop"),)),
        id="a stat error loses the row's text",
    ),
    pytest.param(
        [
            ("a.md", FileStat(10, 2), "h-gone", None),
            ("b.md", FileStat(10, 2), "h-gone", None),
            ("kept.md", FileStat(0, RECENT), None, None),
            ("touched.md", FileStat(10, 3), "h-touched", None),
        ],
        BatchPlan(
            ReadPlan(("touched.md",), (("gone.md", "a.md"),), ("b.md",)),
            deferred=(("kept.md", RECENT / 1e9 + QUIET),),
        ),
        id="a mix, in batch order; a copy after a move is new",
    ),
]


@pytest.mark.parametrize(("files", "expected"), BATCHES)
def test_plan_batch(files, expected):
    snapshot = {path: st for path, st, _, _ in files}
    hashes = {path: digest for path, _, digest, _ in files if digest is not None}
    failures = {path: why for path, _, _, why in files if why is not None}
    by_hash = vanished_by_hash(["gone.md"], ROWS)
    plan = plan_batch(
        [p for p, _, _, _ in files], snapshot, ROWS, hashes, failures, by_hash, quiet=QUIET, now=NOW
    )
    assert plan == expected


def test_plan_batch_claims_each_vanished_note_once_across_batches():
    by_hash = vanished_by_hash(["gone.md"], ROWS)
    first = plan_batch(["a.md"], {"a.md": FileStat(10, 2)}, ROWS, {"a.md": "h-gone"}, {}, by_hash)
    second = plan_batch(["b.md"], {"b.md": FileStat(10, 2)}, ROWS, {"b.md": "h-gone"}, {}, by_hash)
    assert first.reads.moves == (("gone.md", "a.md"),)
    assert second.reads.moves == () and second.reads.to_parse == ("b.md",)


@pytest.mark.parametrize(
    ("st", "known", "quiet", "expected"),
    [
        (FileStat(0, RECENT), ROWS["kept.md"], QUIET, True),
        (FileStat(0, RECENT), ROWS["kept.md"], 0.0, False),  # a one-shot sync never waits
        (FileStat(1, RECENT), ROWS["kept.md"], QUIET, False),
        (FileStat(0, LONG_AGO), ROWS["kept.md"], QUIET, False),
        (FileStat(0, RECENT), None, QUIET, False),
        (FileStat(0, RECENT), ROWS["stub.md"], QUIET, False),  # had no text to lose
    ],
)
def test_settling(st, known, quiet, expected):
    assert settling(st, known, quiet=quiet, now=NOW) is expected
