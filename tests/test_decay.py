"""Decay: effective confidence computed at read time, stale memories found by streaming the
index one row at a time, and archived in batches."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from conftest import index_sql

from tota_vault import decay
from tota_vault.decay import (
    ARCHIVE_FLOOR,
    effective_confidence,
    effective_of,
    half_life_days,
    is_stale,
)
from tota_vault.recall import as_recalled
from tota_vault.rows import memory_rows

NOW = datetime(2026, 11, 29, 12, 0)


@pytest.mark.parametrize(
    ("durability", "days"),
    [(0.0, 30.0), (0.5, 205.0), (1.0, 730.0)],
)
def test_half_life_grows_with_durability(durability, days):
    assert half_life_days(durability) == pytest.approx(days)


def test_effective_confidence_halves_after_one_half_life():
    confirmed = NOW - timedelta(days=half_life_days(0.5))
    assert effective_confidence(0.8, 0.5, confirmed, NOW) == pytest.approx(0.4)


def test_fresh_and_future_confirmations_do_not_decay():
    assert effective_confidence(0.8, 0.5, NOW, NOW) == 0.8
    assert effective_confidence(0.8, 0.5, NOW + timedelta(days=3), NOW) == 0.8


def test_durable_memories_decay_slower():
    confirmed = NOW - timedelta(days=365)
    durable = effective_confidence(0.9, 0.95, confirmed, NOW)
    passing = effective_confidence(0.9, 0.4, confirmed, NOW)
    assert durable > 0.6 > passing
    assert passing < ARCHIVE_FLOOR + 0.2


# --- the per-row decision and the streamed listing -------------------------------------------


@pytest.mark.parametrize(
    ("confidence", "durability", "confirmed", "updated", "expected"),
    [
        (0.8, 0.5, "2026-11-29T12:00:00", None, 0.8),  # confirmed now: no decay
        (0.8, 0.5, None, "2026-11-29T12:00:00", 0.8),  # no `confirmed`: the clock runs from updated
        (0.8, 0.1, "2026-10-23T12:00:00", None, 0.4),  # one half-life: 30 + 700 * 0.1^2 days
        (0.8, None, "2026-11-29T12:00:00", None, 0.8),  # no durability: the default
        (0.8, 0.5, "not a date", None, 0.8),  # unreadable: counts as now, never a guess
        (None, 0.5, "2026-11-29T12:00:00", None, None),  # no confidence: nothing to decay
    ],
)
def test_effective_of_reads_index_columns(confidence, durability, confirmed, updated, expected):
    assert effective_of(confidence, durability, confirmed, updated, NOW) == expected


@pytest.mark.parametrize(
    ("effective", "stale"), [(None, True), (0.0, True), (0.299, True), (0.3, False), (0.9, False)]
)
def test_is_stale_below_the_floor(effective, stale):
    assert is_stale(effective) is stale


def test_the_streamed_decision_agrees_with_recall_on_every_row(vault):
    """`tota decay` decides from five columns; recall shows the same effective confidence."""
    for i, (durability, year) in enumerate([(0.1, 2024), (0.5, 2025), (0.9, 2024), (0.3, 2026)]):
        vault.remember("episode", f"Visited museum number {i}.", durability=durability,
                       confidence=0.6, when=datetime(year, 3, 1))  # fmt: skip
    rows = index_sql(vault).execute("SELECT * FROM notes WHERE type IS NOT NULL").fetchall()
    shown = {r.path: r.effective_confidence for r in as_recalled(memory_rows(rows), NOW)}
    streamed = {
        path: effective_of(confidence, durability, confirmed, updated, NOW)
        for path, confidence, durability, confirmed, updated in vault.index.decay_rows()
    }
    assert streamed == shown and len(shown) == 4
    assert [r.path for r in vault.stale(now=NOW)] == sorted(
        (p for p in shown if is_stale(shown[p])), key=lambda p: (shown[p], p)
    )


def test_decay_lists_only_active_memories(vault):
    old = vault.remember(
        "episode", "Ran a 5k in the rain.", durability=0.1, when=datetime(2024, 1, 1)
    )
    also = vault.remember("episode", "Baked bread once.", durability=0.1, when=datetime(2024, 1, 1))
    vault.archive(also.memory.id, now=NOW)
    assert [r.path for r in vault.decay(now=NOW)] == [old.path]


def test_apply_archives_in_batches_and_changes_nothing_else(vault, monkeypatch):
    monkeypatch.setattr(decay, "ARCHIVE_BATCH", 2)
    batches = []
    writer = vault._writer  # what decay writes through (store.MemoryStore)
    real_batch = writer.batch

    def counting_batch():
        batches.append(1)
        return real_batch()

    monkeypatch.setattr(writer, "batch", counting_batch)
    stale = [
        vault.remember(
            "episode", f"Went to concert {i}.", durability=0.1, when=datetime(2024, 1, 1)
        )
        for i in range(5)
    ]
    fresh = vault.remember("identity", "Lives in Porto.", when=datetime(2026, 11, 1))
    before = (vault.root / fresh.path).read_bytes()
    listed = vault.decay(apply=True, now=NOW)
    assert sorted(r.path for r in listed) == sorted(s.path for s in stale)
    assert len(batches) == 3  # 5 notes, 2 a batch
    for memory in stale:
        text = (vault.root / memory.path).read_text()
        assert "status: archived" in text and memory.memory.text in text
    assert (vault.root / fresh.path).read_bytes() == before
    assert vault.decay(now=NOW) == []  # archived memories are no longer candidates


def test_decay_each_streams_least_first_with_the_count_first(vault, monkeypatch):
    """`tota decay` lists as it reads, `ARCHIVE_BATCH` at a time: the count comes first, then
    every stale memory once, in the order of the whole list (`decay`)."""
    monkeypatch.setattr(decay, "ARCHIVE_BATCH", 2)
    for i, year in enumerate([2021, 2024, 2022, 2023, 2020]):
        vault.remember("episode", f"Saw play number {i}.", durability=0.1,
                       confidence=0.5 + i / 20, when=datetime(year, 1, 1))  # fmt: skip
    vault.remember("identity", "Lives in Porto.", when=datetime(2026, 11, 1))
    events: list[object] = []
    reads = []
    real_read = decay.read_stale
    monkeypatch.setattr(decay, "read_stale", lambda *a: reads.append(1) or real_read(*a))
    handed = vault.decay_each(events.append, now=NOW, count=events.append)
    assert events[0] == 5 and handed == 5 and len(reads) == 3  # 5 memories, 2 a read
    assert [r.path for r in events[1:]] == [r.path for r in vault.decay(now=NOW)]
    effective = [r.effective_confidence for r in events[1:]]
    assert effective == sorted(effective) and len(set(r.path for r in events[1:])) == 5


def test_decay_each_with_apply_hands_on_memories_as_found(vault):
    """Each batch is archived before it is handed on; what `each` sees is the memory as it was
    found (active), as the list `decay(apply=True)` returned before it streamed."""
    old = vault.remember("episode", "Ran in the rain.", durability=0.1, when=datetime(2024, 1, 1))
    seen = []

    def each(result):
        seen.append(result)
        assert "status: archived" in (vault.root / result.path).read_text()

    assert vault.decay_each(each, apply=True, now=NOW) == 1
    assert [(r.path, r.status) for r in seen] == [(old.path, "active")]
    assert vault.decay_each(seen.append, now=NOW, count=seen.append) == 0 and seen[-1] == 0
