"""The table `tota search` draws without rich: cell widths, wrapping, escaping, colour, and
the invariant that every line fits the terminal and no word of a cell is lost."""

from __future__ import annotations

import io
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tota_vault.cli_table import Column, cell_width, colour_for, draw, printable, wrap


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("Runs four mornings", 18),
        ("", 0),
        ("café", 4),
        ("cafe\u0301", 4),  # a combining acute accent takes no cell
        ("東京タワー", 10),  # East Asian wide
        ("\N{PARTY POPPER}", 2),
        ("\N{HEAVY BLACK HEART}\ufe0f", 1),  # the variation selector takes no cell
        ("a\u200bb", 2),  # a zero-width space
    ],
)  # fmt: skip
def test_cell_width(text: str, cells: int) -> None:
    assert cell_width(text) == cells


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Plain words, 'quotes' and “curly” ones.", "Plain words, 'quotes' and “curly” ones."),
        ("clear\x1b[2Jscreen", "clear\\x1b[2Jscreen"),  # an escape sequence in a note
        ("tab\there", "tab\\x09here"),
        ("cr\rover", "cr\\x0dover"),
        ("abc\u202edcba", "abc\\u202edcba"),  # a right-to-left override
        ("line\u2028sep", "line\\u2028sep"),
        ("no\xa0break", "no break"),
        ("soft\xadhyphen", "soft\\xadhyphen"),
        ("\x7f", "\\x7f"),
    ],
)  # fmt: skip
def test_printable_escapes_what_would_drive_the_terminal(text: str, shown: str) -> None:
    assert printable(text) == shown


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        ("Runs four mornings a week", 10, ["Runs four", "mornings a", "week"]),
        ("Runs four mornings a week", 40, ["Runs four mornings a week"]),
        ("half-marathon under", 10, ["half-marat", "hon under"]),  # a word too long: folded
        ("ends with spaces   ", 16, ["ends with spaces"]),  # no empty line after
        ("ends with spaces   ", 20, ["ends with spaces"]),
        ("   leading", 10, ["leading"]),
        ("東京タワー tall", 6, ["東京タ", "ワー", "tall"]),  # folded by cells, not characters
        ("", 10, [""]),
    ],
)  # fmt: skip
def test_wrap(text: str, width: int, lines: list[str]) -> None:
    assert ["".join(t for t, _ in line) for line in wrap([(text, "")], width)] == lines


def test_wrap_keeps_each_words_style_across_a_break() -> None:
    line = [("A tendon problem in her left ", ""), ("knee", "reverse"), (" means", "")]
    assert wrap(line, 13) == [
        [("A tendon", "")],
        [("problem in", "")],
        [("her left ", ""), ("knee", "reverse")],
        [("means", "")],
    ]


COLUMNS = (
    Column("type", wraps=True),
    Column("memory", wraps=True, folds=True),
    Column("conf.", justify="right"),
    Column("evidence"),
)


def row(kind: str, *memory: str, conf: str = "0.90") -> list:
    return [[[(kind, "")]], [[(m, "")] for m in memory], [[(conf, "")]], [[("direct", "")]]]


def test_draw_lays_out_columns_as_the_table_always_looked() -> None:
    rows = [
        row("habit", "Runs four mornings a week", "habit/Runs.md"),
        row("relationship", "Joana"),
    ]
    assert draw(COLUMNS, rows, width=80, colour=False) == (
        "type          memory                     conf.  evidence\n"
        "habit         Runs four mornings a week   0.90  direct\n"
        "              habit/Runs.md\n"
        "relationship  Joana                       0.90  direct\n"
    )


def test_draw_narrows_the_memory_column_before_the_type() -> None:
    rows = [row("relationship", "Does her Sunday long run with Joana Pires")]
    drawn = draw(COLUMNS, rows, width=40, colour=False)
    assert drawn.splitlines()[1].startswith("relationship  Does her")
    assert max(cell_width(line) for line in drawn.splitlines()) <= 40


def test_draw_styles_only_on_a_colour_terminal() -> None:
    rows = [[[[("habit", "")]], [[("Title", "bold")], [("left ", ""), ("knee", "reverse")]],
             [[("0.90", "")]], [[("direct", "")]]]]  # fmt: skip
    plain = draw(COLUMNS, rows, width=80, colour=False)
    styled = draw(COLUMNS, rows, width=80, colour=True)
    assert "\x1b" not in plain
    assert "\x1b[1mTitle\x1b[0m" in styled and "left \x1b[7mknee\x1b[0m" in styled
    assert "\x1b[1mtype\x1b[0m" in styled  # the header is bold


def test_draw_escapes_a_notes_control_characters() -> None:
    drawn = draw(COLUMNS, [row("habit", "Ok\x1b]0;owned\x07 title")], width=80, colour=False)
    assert "\x1b" not in drawn and "\x07" not in drawn
    assert "Ok\\x1b]0;owned\\x07 title" in drawn


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        ({"TERM": "dumb"}, True, False),
    ],
)  # fmt: skip
def test_colour_for(monkeypatch, env: dict, tty: bool, expected: bool) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM", "WT_SESSION"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.platform", "linux")

    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    assert colour_for(Stream()) is expected


words = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs", "Mn", "Cc", "Cf")),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(
    memory=st.lists(words, min_size=1, max_size=4),
    kind=st.text(string.ascii_letters, min_size=1, max_size=12),
    width=st.integers(min_value=40, max_value=160),
)
def test_every_line_fits_and_nothing_is_lost(memory: list[str], kind: str, width: int) -> None:
    """With a terminal wide enough for the columns that do not fold (conf. and evidence never
    narrow, a type only to its longest word), no line is wider than the terminal, and the
    memory column holds every character of its cell, in order (only spaces change)."""
    rows = [[[[(kind, "")]], [[(m, "")] for m in memory], [[("", "")]], [[("", "")]]]]
    lines = draw(COLUMNS, rows, width=width, colour=False).splitlines()
    assert all(cell_width(line) <= width for line in lines)
    start = lines[0].index("memory")  # an ASCII type: characters are cells before it
    assert lines[1][:start].strip() == kind and not any(line[:start].strip() for line in lines[2:])
    kept = "".join("".join(line[start:].split()) for line in lines[1:])
    wanted = "".join("".join(printable(text).split()) for text in memory)
    assert kept == wanted
