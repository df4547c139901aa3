"""The one-line form of an exception that every error, notice and hook line uses."""

from __future__ import annotations

import sqlite3

import pytest

from tota_vault.errors import IndexCorruptError, first_line

FIRST_LINES = [
    # (exception, kind, expected)
    (ValueError("bad value"), False, "bad value"),
    (ValueError("bad value"), True, "ValueError: bad value"),
    (ValueError("\n  \nsecond line is the first\nthird"), False, "second line is the first"),
    (ValueError(""), False, "ValueError"),
    (ValueError(""), True, "ValueError"),
    (sqlite3.DatabaseError("database disk image is malformed\nmore"), False,
     "database disk image is malformed"),
    (IndexCorruptError("x.db: damaged"), False, "x.db: damaged"),
]  # fmt: skip


@pytest.mark.parametrize(("exc", "kind", "expected"), FIRST_LINES)
def test_first_line(exc: BaseException, kind: bool, expected: str) -> None:
    assert first_line(exc, kind=kind) == expected
