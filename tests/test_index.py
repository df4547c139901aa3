"""The SQLite index: query quoting, triggers, schema versions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import write

from tota_vault import IndexReadOnlyError, QueryError, Vault
from tota_vault.index import SCHEMA_VERSION, Index, fault_kind, fts_query


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("neovim", '"neovim"'),
        ("C++", '"C++"'),
        ("foo-bar", '"foo-bar"'),
        ("NOT run", '"NOT" "run"'),
        ('"unbalanced', '"unbalanced"'),
        ('"two words" more', '"two words" "more"'),
        ("title:run", '"title:run"'),
        ("pyth*", '"pyth"*'),
        ("cat's", '"cat\'s"'),
        ('say "hi"there', '"say" "hi" "there"'),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_fts_query_quotes_every_word(text: str, expected: str):
    assert fts_query(text) == expected


@pytest.mark.parametrize("text", ["", "   ", '""'])
def test_fts_query_rejects_empty(text: str):
    with pytest.raises(QueryError):
        fts_query(text)


def test_update_and_delete_leave_no_stale_tokens(vault: Vault):
    """The triggers hand FTS5 the old values; a rowid-only delete would leave tokens behind."""
    path = write(
        vault.root, "goal/G.md", "---\ntype: goal\nid: 01JDX3M7Q9T8ZK4W5N6P2R1S0V\n---\nzebra\n"
    )
    vault.sync()
    assert vault.search("zebra")
    path.write_text("---\ntype: goal\nid: 01JDX3M7Q9T8ZK4W5N6P2R1S0V\n---\nquokka\n")
    vault.sync()
    assert not vault.search("zebra") and vault.search("quokka")
    path.unlink()
    vault.sync()
    assert not vault.search("quokka")
    assert vault.index.integrity_problems() == []


def test_schema_mismatch_rebuilds_from_files(vault_dir: Path):
    write(vault_dir, "goal/G.md", "---\ntype: goal\nid: 01JDX3M7Q9T8ZK4W5N6P2R1S0V\n---\nwombat\n")
    with Vault.open(vault_dir) as vault:
        vault.sync()
        db = vault.index_path
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    index = Index.open(db)
    assert index.rebuilt and index.files() == {}
    index.close()
    with Vault.open(vault_dir) as vault:  # a rebuilt index is refilled from the files on open
        assert vault.search("wombat")


def test_search_ranks_title_above_body_and_filters_type(vault: Vault):
    for i in range(8):  # filler so bm25 idf is meaningful
        write(vault.root, f"habit/Filler {i}.md", f"---\ntype: habit\n---\nunrelated words {i}\n")
    write(vault.root, "goal/Pottery.md", "---\ntype: goal\n---\nA class on weekends.\n")
    write(vault.root, "habit/Weekends.md", "---\ntype: habit\n---\nGoes to pottery on Saturdays.\n")
    vault.sync()
    hits = vault.search("pottery")
    assert [h.path for h in hits] == ["goal/Pottery.md", "habit/Weekends.md"]
    assert [h.path for h in vault.search("pottery", type="habit")] == ["habit/Weekends.md"]
    assert any(matched for _, matched in hits[1].snippet_parts())


def test_search_puts_an_active_memory_before_an_archived_one_of_equal_score(vault: Vault):
    """A word in every note scores ~0 in each (bm25's idf floor): that is a tie, and the
    memory recall would use comes first; a real difference in score still ranks first."""
    first = vault.remember("preference", "Likes jazz.").path
    second = vault.remember("preference", "Likes jazz on long winter evenings.").path
    assert [h.path for h in vault.search("jazz")] == [first, second]
    vault.archive(first)
    assert [h.path for h in vault.search("jazz")] == [second, first]
    for i in range(8):  # filler: now the word is rare and the shorter note scores better
        vault.remember("habit", f"Walks the dog {i}.")
    assert [h.path for h in vault.search("jazz")] == [first, second]


def test_raw_query_errors_are_query_errors(vault: Vault):
    with pytest.raises(QueryError, match="AND"):
        vault.search("a AND", raw=True)
    assert vault.search("neo*", raw=True) == []


def test_index_is_in_wal_mode(vault: Vault):
    assert vault.open_index().journal_mode() == "wal"


def _error(kind: type[Exception], message: str, code: int | None) -> Exception:
    exc = kind(message)
    if code is not None:
        exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (_error(sqlite3.DatabaseError, "database disk image is malformed", 11), "corrupt"),
        (_error(sqlite3.DatabaseError, "file is not a database", 26), "corrupt"),
        (_error(sqlite3.OperationalError, "Could not decode to UTF-8 column 'text'", None),
         "corrupt"),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "corrupt"),
        (_error(sqlite3.OperationalError, "attempt to write a readonly database", 1032), "moved"),
        (_error(sqlite3.OperationalError, "attempt to write a readonly database", 8), "readonly"),
        (_error(sqlite3.OperationalError, "unable to open database file", 14), "cantopen"),
        (_error(sqlite3.OperationalError, "database or disk is full", 13), "full"),
        (_error(sqlite3.OperationalError, "disk I/O error", 10), "io"),
        (_error(sqlite3.OperationalError, "database is locked", 5), None),
        (_error(sqlite3.OperationalError, "fts5: syntax error near \"(\"", 1), None),
        (ValueError("not sqlite"), None),
    ],
)  # fmt: skip
def test_fault_kind(exc: Exception, kind: str | None) -> None:
    assert fault_kind(exc) == kind


def test_open_read_only_reads_and_never_writes(vault_dir: Path) -> None:
    write(vault_dir, "goal/Run.md", "---\ntype: goal\n---\nRun a marathon in spring.\n")
    with Vault.open(vault_dir) as vault:
        vault.sync()
        db = vault.index_path
    before = db.read_bytes()
    with Index.open_read_only(db) as index:
        assert index.read_only
        assert [h.path for h in index.search("marathon")] == ["goal/Run.md"]
        with pytest.raises(sqlite3.OperationalError) as caught:
            index.set_state("last_sync", "now")
        assert fault_kind(caught.value) == "readonly"
    assert db.read_bytes() == before


def test_open_read_only_refuses_another_schema(tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    with pytest.raises(IndexReadOnlyError, match="another tota version"):
        Index.open_read_only(db)
    with pytest.raises(IndexReadOnlyError):
        Index.open_read_only(tmp_path / "missing.db")  # nothing to read: never created
    assert not (tmp_path / "missing.db").exists()


def test_a_row_read_as_a_dict_still_works_and_says_it_is_deprecated(vault):
    vault.remember("preference", "Likes green tea.")
    hit = vault.search("tea")[0]
    with pytest.warns(DeprecationWarning, match=r"row\.title"):
        assert hit.row["title"] == hit.row.title == "Likes green tea"
    with pytest.warns(DeprecationWarning, match=r"row\.rowid"):
        assert hit.row["id"] == hit.row.rowid
    with pytest.raises(KeyError):
        hit.row["nonsense"]
