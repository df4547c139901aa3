"""The in-process three-way line merge, checked against git's own (`git merge-file`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tota_vault.linemerge import Hunk, conflict_lines, hunks, merge_lines, split_lines


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", ()),
        ("a", ("a\n",)),
        ("a\n", ("a\n",)),
        ("a\n\nb\n", ("a\n", "\n", "b\n")),
        ("a\fb\u2028c\n", ("a\fb\u2028c\n",)),  # only \n ends a line
    ],
)
def test_split_lines(text, lines):
    assert split_lines(text) == lines


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "merged", "conflicts"),
    [
        ("a\n\nb\n\nc\n", "A\n\nb\n\nc\n", "a\n\nb\n\nC\n", "A\n\nb\n\nC\n", 0),  # apart
        ("a\nb\n", "A\nb\n", "a\nB\n", "<<<<<<< ours\nA\nb\n=======\na\nB\n>>>>>>> theirs\n", 1),
        ("a\n", "a\nx\n", "a\nx\n", "a\nx\n", 0),  # the same change on both sides
        (
            "a\n\nb\n",
            "a\n",
            "a\n\nb\n\nc\n",
            "a\n<<<<<<< ours\n=======\n\nb\n\nc\n>>>>>>> theirs\n",
            1,
        ),
        ("", "x\n", "y\n", "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n", 1),  # add/add
        ("a\nb\nc\n", "b\nc\n", "a\nb\nc\nd\n", "b\nc\nd\n", 0),  # a deletion holds
        ("x\nx\n", "x\nx\ny\n", "x\nx\n", "x\nx\ny\n", 0),  # duplicates are lines too
    ],
)
def test_merge_lines(base, ours, theirs, merged, conflicts):
    result = merge_lines(split_lines(base), split_lines(ours), split_lines(theirs))
    assert (result.text, result.conflicts) == (merged, conflicts)


def test_a_resolver_decides_conflicting_hunks_only():
    seen: list[Hunk] = []

    def resolve(hunk: Hunk) -> tuple[str, ...] | None:
        seen.append(hunk)
        return (*hunk.ours, *hunk.theirs) if hunk.base == () else None

    base, ours, theirs = ("a\n", "b\n"), ("a\n", "x\n", "b\n", "B\n"), ("a\n", "y\n", "b\n", "C\n")
    result = merge_lines(base, ours, theirs, resolve=resolve, marker_size=9)
    assert seen == [Hunk((), ("x\n",), ("y\n",)), Hunk((), ("B\n",), ("C\n",))]
    assert result.text == "a\nx\ny\nb\nB\nC\n" and result.conflicts == 0
    declined = merge_lines(("a\n",), ("b\n",), ("c\n",), resolve=resolve, marker_size=9)
    assert declined.lines == conflict_lines(("b\n",), ("c\n",), 9) and declined.conflicts == 1


def test_hunks_cut_at_the_lines_both_sides_kept():
    assert hunks(("a\n", "b\n"), ("a\n", "b\n", "c\n"), ("z\n", "a\n", "b\n")) == [
        Hunk((), (), ("z\n",)),
        Hunk(("a\n",), ("a\n",), ("a\n",)),
        Hunk(("b\n",), ("b\n",), ("b\n",)),
        Hunk((), ("c\n",), ()),
    ]


LINES = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "d\n"]), max_size=8)
EDITS = st.lists(
    st.tuples(
        st.sampled_from(["insert", "replace", "delete"]),
        st.integers(0, 8),
        st.sampled_from(["x\n", "y\n", "\n", "a\n"]),
    ),
    max_size=3,
)


def edited(base: list[str], edits: list[tuple[str, int, str]]) -> list[str]:
    """`base` after a few one-line edits, as a person makes them."""
    lines = list(base)
    for kind, at, line in edits:
        at = min(at, len(lines))
        if kind == "insert":
            lines.insert(at, line)
        elif at < len(lines):
            lines[at : at + 1] = [line] if kind == "replace" else []
    return lines


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(LINES, EDITS, EDITS)
def test_a_clean_merge_is_the_same_either_way_round(base, edits_ours, edits_theirs):
    ours, theirs = edited(base, edits_ours), edited(base, edits_theirs)
    one, two = merge_lines(base, ours, theirs), merge_lines(base, theirs, ours)
    assert one.conflicts == two.conflicts
    if not one.conflicts:
        assert one.lines == two.lines


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@needs_git
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(LINES, EDITS, EDITS)
def test_where_git_merges_cleanly_so_does_this(tmp_path_factory, base, edits_ours, edits_theirs):
    """git's xdiff and difflib may match repeated lines differently, so a hunk one of them
    calls a conflict the other may merge; but where both merge cleanly, the text is git's."""
    ours, theirs = edited(base, edits_ours), edited(base, edits_theirs)
    folder: Path = tmp_path_factory.mktemp("m")
    for name, lines in (("o", base), ("a", ours), ("b", theirs)):
        (folder / name).write_text("".join(lines))
    done = subprocess.run(
        ["git", "merge-file", "-p", str(folder / "a"), str(folder / "o"), str(folder / "b")],
        capture_output=True,
        text=True,
    )
    mine = merge_lines(base, ours, theirs)
    if done.returncode == 0 and not mine.conflicts:
        assert mine.text == done.stdout
