"""The note writer (writer.py): what features write through (store.MemoryStore), on real vaults."""

from __future__ import annotations

import dataclasses
from datetime import datetime

import pytest

from tota_vault import Vault, files
from tota_vault.errors import NoteChangedError
from tota_vault.files import read_file
from tota_vault.notes import parse_note


def _rows(vault: Vault) -> list:
    return sorted(vault.index.get(), key=lambda r: r.path)


def test_write_over_rewrites_a_note_whole_and_indexes_it_as_a_reindex_would(vault: Vault):
    stored = vault.remember("habit", "Runs on Sundays.", when=datetime(2026, 11, 1))
    writer = vault._writer
    _, fingerprint = read_file(vault.root / stored.path)
    memory = dataclasses.replace(stored.memory, text="Runs on Sundays and Wednesdays.")
    written = writer.write_over(stored.path, memory, fingerprint)
    note = parse_note((vault.root / stored.path).read_bytes(), stored.path)
    assert note.memory is not None and note.memory.text == "Runs on Sundays and Wednesdays."
    assert read_file(vault.root / stored.path)[1] == written
    rows = _rows(vault)
    vault.reindex()
    assert _rows(vault) == rows  # the row written at once is what a fresh read gives


def test_write_over_refuses_a_note_changed_since_it_was_read(vault: Vault):
    stored = vault.remember("habit", "Runs on Sundays.", when=datetime(2026, 11, 1))
    _, fingerprint = read_file(vault.root / stored.path)
    path = vault.root / stored.path
    path.write_text(path.read_text() + "\nMy own line.\n")
    edited = path.read_bytes()
    memory = dataclasses.replace(stored.memory, text="Runs on Sundays and Wednesdays.")
    with pytest.raises(NoteChangedError, match="changed on disk"):
        vault._writer.write_over(stored.path, memory, fingerprint)
    assert path.read_bytes() == edited  # the person's edit stands, byte for byte


def test_writes_in_a_batch_fsync_each_folder_once_at_its_end(vault: Vault, monkeypatch):
    stored = [
        vault.remember("habit", f"Runs {n} km on Sundays.", when=datetime(2026, 11, 1))
        for n in (5, 10)
    ]
    synced: list[str] = []
    real = files._fsync_dir
    monkeypatch.setattr(
        files, "_fsync_dir", lambda folder: (synced.append(folder.name), real(folder))
    )
    writer = vault._writer
    with writer.batch():
        for memory in stored:
            _, fingerprint = read_file(vault.root / memory.path)
            changed = dataclasses.replace(memory.memory, importance=0.9)
            writer.write_over(memory.path, changed, fingerprint)
        assert synced == []  # inside the batch: not yet
    assert synced == ["habit"]  # once, for both rewrites
