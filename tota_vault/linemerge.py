"""A three-way merge of lines (diff3), in-process and pure, for the text inside a note.

The note merge (`gitmerge`) decides a memory's fields by their meaning, but a body a person
wrote is text: two edits to different paragraphs must both survive, as they do in git's own
merge. The driver could call `git merge-file`, but that needs files and a process; this keeps
`merge_notes` a pure function that a property test can run thousands of times.

The algorithm is the classic one: match the base against each side (`difflib`), take the base
lines matched on both sides as fixed points, and between two fixed points compare the three
stretches. When one side left its stretch as the base had it, the other side's stretch wins;
when both made the same change, that change; otherwise the hunk conflicts. Nothing here depends
on which side is "ours": swapping the sides swaps the two matchings, so a clean merge is the
same either way round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

__all__ = ["Hunk", "LineMerge", "Lines", "conflict_lines", "hunks", "merge_lines", "split_lines"]

Lines = tuple[str, ...]


@dataclass(frozen=True)
class Hunk:
    """One stretch of the three texts between two fixed points (or one fixed line)."""

    base: Lines
    ours: Lines
    theirs: Lines

    @property
    def merged(self) -> Lines | None:
        """The one-sided (or agreed) answer, or None when both sides changed it differently."""
        if self.ours == self.theirs:
            return self.ours
        if self.ours == self.base:
            return self.theirs
        if self.theirs == self.base:
            return self.ours
        return None


@dataclass(frozen=True)
class LineMerge:
    """The merged lines and how many hunks were left between conflict markers."""

    lines: Lines
    conflicts: int

    @property
    def text(self) -> str:
        return "".join(self.lines)


def split_lines(text: str) -> Lines:
    """A text's lines, each with its newline (a last line without one is given one, so that a
    side that only added a final newline does not conflict with every edit of that line)."""
    parts = text.split("\n")  # not splitlines(): a form feed or U+2028 is not a line break here
    if parts[-1] == "":
        parts.pop()
    return tuple(part + "\n" for part in parts)


def _matches(base: Sequence[str], side: Sequence[str]) -> dict[int, int]:
    # autojunk off: a note's blank lines are frequent, but they are content, not noise.
    matcher = SequenceMatcher(None, base, side, autojunk=False)
    pairs: dict[int, int] = {}
    for start, other, size in matcher.get_matching_blocks():
        for k in range(size):
            pairs[start + k] = other + k
    return pairs


def hunks(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str]) -> list[Hunk]:
    """The three texts cut at the base lines both sides kept: unchanged lines (all three
    equal) alternate with stretches that one or both sides changed."""
    in_ours, in_theirs = _matches(base, ours), _matches(base, theirs)
    fixed = [
        (i, in_ours[i], in_theirs[i]) for i in range(len(base)) if i in in_ours and i in in_theirs
    ]
    out: list[Hunk] = []
    i = j = k = 0
    for fi, fj, fk in [*fixed, (len(base), len(ours), len(theirs))]:
        if (fi, fj, fk) != (i, j, k):
            out.append(Hunk(tuple(base[i:fi]), tuple(ours[j:fj]), tuple(theirs[k:fk])))
        if fi < len(base):
            line = (base[fi],)
            out.append(Hunk(line, line, line))
        i, j, k = fi + 1, fj + 1, fk + 1
    return out


def merge_lines(
    base: Sequence[str],
    ours: Sequence[str],
    theirs: Sequence[str],
    *,
    resolve: Callable[[Hunk], Lines | None] | None = None,
    marker_size: int = 7,
) -> LineMerge:
    """Merge two edits of `base` line by line (each line ending in a newline).

    A hunk both sides changed differently is offered to `resolve` (which must not depend on
    which side is "ours"); what it declines is written between git-style conflict markers.
    """
    lines: list[str] = []
    conflicts = 0
    for hunk in hunks(base, ours, theirs):
        merged = hunk.merged
        if merged is None and resolve is not None:
            merged = resolve(hunk)
        if merged is None:
            conflicts += 1
            merged = conflict_lines(hunk.ours, hunk.theirs, marker_size)
        lines.extend(merged)
    return LineMerge(tuple(lines), conflicts)


def conflict_lines(ours: Sequence[str], theirs: Sequence[str], marker_size: int = 7) -> Lines:
    """Both versions between markers, as git writes a conflict."""
    return (
        f"{'<' * marker_size} ours\n",
        *ours,
        f"{'=' * marker_size}\n",
        *theirs,
        f"{'>' * marker_size} theirs\n",
    )
