"""The append-only line files (`.tota-forgotten`, `.tota-sources`): what a person wrote stays,
an append that lost a race is read and tried again, and bad bytes are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from tota_vault import linefile
from tota_vault.errors import InvalidNoteError
from tota_vault.linefile import append_lines, parse_lines, read_lines

HEADER = "# a header\n"


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("", []),
        ("a\nb\n", ["a", "b"]),
        ("# comment\n#\n\n  a  \nb", ["a", "b"]),
        ("#not-a-comment\n", ["#not-a-comment"]),  # a comment is `# ` or a lone `#`
        ("a\r\nb\r\n", ["a", "b"]),
    ],
)
def test_parse_lines(text: str, entries: list[str]):
    assert parse_lines(text) == entries


def test_append_creates_with_the_header_and_adds_only_new_lines_in_order(tmp_path: Path):
    path = tmp_path / "f"
    done = append_lines(path, ["b", "a", "b", " "], header=HEADER)
    assert done.new == ["b", "a"] and done.before is None and done.after is not None
    assert path.read_text() == HEADER + "b\na\n"
    again = append_lines(path, ["a", "c"], header=HEADER)
    assert again.new == ["c"] and again.before == done.after
    assert read_lines(path)[0] == ["b", "a", "c"]
    nothing = append_lines(path, ["c"], header=HEADER)
    assert nothing.new == [] and nothing.before == nothing.after


def test_append_keeps_every_byte_a_person_wrote(tmp_path: Path):
    path = tmp_path / "f"
    path.write_bytes(b"# mine\r\nx")  # CRLF, no final newline
    append_lines(path, ["y"], header=HEADER)
    assert path.read_bytes() == b"# mine\r\nx\ny\n"


def test_an_append_that_lost_a_race_reads_again_and_keeps_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    path = tmp_path / "f"
    path.write_text("a\n")
    real = linefile.atomic_write
    raced = []

    def other_process_first(target, data, *, expected):
        if not raced:  # another process appends between our read and our write
            raced.append(True)
            with open(target, "a") as handle:
                handle.write("theirs\n")
        return real(target, data, expected=expected)

    monkeypatch.setattr(linefile, "atomic_write", other_process_first)
    done = append_lines(path, ["ours"], header=HEADER)
    assert done.new == ["ours"] and raced
    assert path.read_text() == "a\ntheirs\nours\n"


def test_bad_bytes_are_named(tmp_path: Path):
    path = tmp_path / ".tota-forgotten"
    path.write_bytes(b"a\n\xff\n")
    with pytest.raises(InvalidNoteError, match=r"\.tota-forgotten.*not UTF-8"):
        read_lines(path)
    with pytest.raises(InvalidNoteError, match="not UTF-8"):
        append_lines(path, ["b"], header=HEADER)
    assert path.read_bytes() == b"a\n\xff\n"
