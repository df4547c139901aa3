"""Git as the multi-device engine: the merge driver command, its setup, and its health check.

Git calls `<python> -m tota_vault merge-driver %O %A %B %L %P` for every note both sides
changed. `run_driver` reads the three versions, asks `gitmerge.merge_notes` for the merge and
overwrites `%A` with it. Git's own rules for a driver shape the rest:

* exit 0 means "clean", so it is only returned for a result that parses as a note;
* a non-zero exit leaves whatever `%A` holds as the conflicted file, and a driver that exits
  non-zero without writing leaves "ours" with no markers, so `git add` would silently drop
  "theirs". Every path that does not merge cleanly therefore writes markers first: the merge's
  own, or git's text merge (`git merge-file`), or, if even that fails, both sides whole;
* the driver runs wherever git does, without a virtualenv's PATH, so the registered command
  names the interpreter by its absolute path.

The driver is registered per clone (`.git/config` is not versioned): `tota git setup` writes
`.gitattributes` (versioned) and the config; `tota init --git` does the same. A clone that has
the attributes but not the config merges notes as text without a word, which `git_problems`
(`tota doctor`) reports.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from .errors import VaultError
from .files import atomic_write, fingerprint_of
from .gitmerge import merge_notes, split_both_kept
from .notes import parse_note, unique_title

__all__ = [
    "ATTRIBUTES_LINE",
    "DRIVER",
    "driver_command",
    "git_problems",
    "main",
    "read_attributes",
    "resolve_both_kept",
    "run_driver",
    "setup_git",
    "unmerged_paths",
]

#: The driver's name in `.gitattributes` and `.git/config`.
DRIVER = "tota"
#: Every Markdown file in the vault: a person may move a note to any folder (its frontmatter
#: `type` is the truth), and a file that is not a memory note falls back to git's text merge.
ATTRIBUTES_LINE = f"*.md merge={DRIVER}"
#: The tombstones of forgotten memories (`forgotten.py`) are lines that only grow on every
#: device: git's built-in union merge keeps both sides' lines, with no driver to register.
FORGOTTEN_LINE = ".tota-forgotten merge=union"
#: So do the sources the cap leaves out of notes (`capped.py`).
SOURCES_LINE = ".tota-sources/* merge=union"
_NAME = "tota memory notes (field-by-field merge)"


def driver_command(python: str | None = None) -> str:
    """The command git runs, naming this interpreter by its absolute path."""
    exe = str(Path(python or sys.executable).absolute())
    return f"{shlex.quote(exe)} -m tota_vault merge-driver %O %A %B %L %P"


# --- the driver ----------------------------------------------------------------------------------


def run_driver(
    base: Path, ours: Path, theirs: Path, marker_size: int = 7, path: str = "note.md"
) -> int:
    """Merge `theirs` into `ours` (overwritten with the result); 0 clean, 1 a conflict.

    Never raises: anything unexpected leaves a normal conflict with markers.
    """
    try:
        texts = [p.read_bytes().decode("utf-8") for p in (base, ours, theirs)]
        result = merge_notes(texts[0] or None, texts[1], texts[2], path=path,
                             marker_size=marker_size)  # fmt: skip
    except Exception as exc:  # noqa: BLE001 - a driver must leave a conflict, never crash
        _say(f"{path}: could not merge as a memory ({exc}); merging as text")
        return _text_merge(base, ours, theirs, marker_size, path)
    if result.text is None:
        return _text_merge(base, ours, theirs, marker_size, path)
    ours.write_bytes(result.text.encode("utf-8"))
    if not result.clean:
        _say(f"{path}: left for you to resolve: {'; '.join(result.decisions)}")
        return 1
    return 0


def _text_merge(base: Path, ours: Path, theirs: Path, marker_size: int, path: str) -> int:
    """git's own line merge, with markers; exit 0 only for a clean result that parses."""
    git = shutil.which("git")
    if git is not None:
        try:
            done = subprocess.run(
                [git, "merge-file", "-L", "ours", "-L", "base", "-L", "theirs",
                 f"--marker-size={marker_size}", str(ours), str(base), str(theirs)],
                capture_output=True, timeout=60,
            )  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            done = None
        if done is not None and 0 <= done.returncode < 128:
            if done.returncode > 0:
                return 1
            parsed = parse_note(ours.read_bytes(), path)
            if parsed.error is None:
                return 0
            _say(f"{path}: merged as text but the result is not a valid note: {parsed.error}")
            return 1
    # No git, or merge-file failed: both sides whole between markers, nothing dropped.
    size = marker_size
    mine, other = ours.read_bytes(), theirs.read_bytes()
    ending = b"" if mine.endswith(b"\n") else b"\n"
    ending_other = b"" if other.endswith(b"\n") else b"\n"
    ours.write_bytes(
        b"<" * size + b" ours\n" + mine + ending + b"=" * size + b"\n"
        + other + ending_other + b">" * size + b" theirs\n"
    )  # fmt: skip
    return 1


def _say(message: str) -> None:
    sys.stderr.write(f"tota merge: {message}\n")


def main(argv: Sequence[str]) -> int:
    """`python -m tota_vault merge-driver %O %A %B %L %P`: what git runs."""
    if len(argv) < 3:
        sys.stderr.write("usage: python -m tota_vault merge-driver %O %A %B [%L [%P]]\n")
        return 2
    base, ours, theirs = (Path(a) for a in argv[:3])
    try:
        size = int(argv[3]) if len(argv) > 3 else 7
    except ValueError:
        size = 7
    path = argv[4] if len(argv) > 4 else ours.name
    return run_driver(base, ours, theirs, size, path)


# --- setup and checks ---------------------------------------------------------------------------


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    git = shutil.which("git")
    if git is None:
        raise VaultError("git is not installed")
    return subprocess.run([git, *args], cwd=root, capture_output=True, text=True)


def _in_work_tree(root: Path) -> bool:
    if shutil.which("git") is None or not root.is_dir():
        return False
    done = _git(root, "rev-parse", "--is-inside-work-tree")
    return done.returncode == 0 and done.stdout.strip() == "true"


def setup_git(root: Path, *, python: str | None = None) -> list[str]:
    """Register the merge driver for the vault at `root` (in a git work tree); idempotent.

    Adds `*.md merge=tota` (and `.tota-forgotten merge=union`) to the vault's `.gitattributes`
    and sets `merge.tota.name` and
    `merge.tota.driver` in the repository's config. Returns what changed (empty when all
    was in place already).
    """
    if shutil.which("git") is None:
        raise VaultError("git is not installed; install it first")
    existing = read_attributes(root)  # a file git cannot read is named before any change
    if not _in_work_tree(root):
        raise VaultError(
            f"{root}: not in a git repository (run `git init` or `tota init --git` there; for a "
            "vault cloned elsewhere, name it: `tota --vault DIR git setup`)"
        )
    changed: list[str] = []
    attributes = root / ".gitattributes"
    lines = [line.strip() for line in existing.removeprefix("\ufeff").splitlines()]
    additions: list[str] = []
    if ATTRIBUTES_LINE not in lines:
        additions.append(
            "# Memory notes merge field by field: `tota git setup` registers the driver."
        )
        additions.append(ATTRIBUTES_LINE)
    if FORGOTTEN_LINE not in lines:
        additions.append("# Forgotten memories' messages: both devices' lines are kept.")
        additions.append(FORGOTTEN_LINE)
    if SOURCES_LINE not in lines:
        additions.append("# Sources capped out of notes' lists: both devices' lines are kept.")
        additions.append(SOURCES_LINE)
    if additions:
        # Only lines are added, in the file's own line endings: the person's bytes stay.
        newline = "\r\n" if "\r\n" in existing else "\n"
        text = existing + ("" if not existing or existing.endswith("\n") else newline)
        text += "".join(line + newline for line in additions)
        atomic_write(attributes, text.encode("utf-8"), expected=fingerprint_of(attributes))
        changed.append(".gitattributes")
    wanted = {f"merge.{DRIVER}.name": _NAME, f"merge.{DRIVER}.driver": driver_command(python)}
    for key, value in wanted.items():
        current = _git(root, "config", "--local", "--get", key)
        if current.returncode == 0 and current.stdout.rstrip("\n") == value:
            continue
        done = _git(root, "config", "--local", key, value)
        if done.returncode != 0:
            raise VaultError(f"git config {key} failed: {done.stderr.strip() or '?'}")
        changed.append(f"git config {key}")
    return changed


def read_attributes(root: Path) -> str:
    """The text of the vault's `.gitattributes` ("" when there is none), exactly as stored.

    Git reads the file only as UTF-8 (PowerShell's `>` writes UTF-16, which git silently
    ignores), so any other encoding is an error naming the file, raised before anything is
    changed; re-encoding the person's file is not ours to do.
    """
    attributes = root / ".gitattributes"
    try:
        data = attributes.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return ""  # none yet (a vault path that is not a folder is reported by its caller)
    except OSError as exc:
        raise VaultError(f"{attributes}: cannot read it ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        utf16 = data.startswith((b"\xff\xfe", b"\xfe\xff"))
        how = "UTF-16 (as PowerShell writes it)" if utf16 else "not UTF-8"
        raise VaultError(
            f"{attributes} is {how}; git reads .gitattributes only as UTF-8: save it as UTF-8 "
            "and try again (nothing was changed)"
        ) from None


def git_problems(root: Path) -> list[str]:
    """What keeps git from merging this vault's notes with the driver (for `tota doctor`).

    Only for a vault in a git work tree whose attributes name the driver: git silently falls
    back to a text merge (conflict markers in the frontmatter) when the config lacks it, or
    when the interpreter it names is gone.
    """
    if not _in_work_tree(root):
        return []
    attr = _git(root, "check-attr", "merge", "--", "probe.md")
    if attr.returncode != 0 or not attr.stdout.strip().endswith(f": {DRIVER}"):
        return []
    configured = _git(root, "config", "--get", f"merge.{DRIVER}.driver")
    if configured.returncode != 0 or not configured.stdout.strip():
        return [
            f".gitattributes names the `{DRIVER}` merge driver but this clone's git config "
            f"lacks merge.{DRIVER}.driver, so git merges notes as text, with conflict markers; "
            "run `tota git setup`"
        ]
    try:
        program = shlex.split(configured.stdout.strip())[0]
    except (ValueError, IndexError):
        program = ""
    if not program or shutil.which(program) is None:
        return [
            f"merge.{DRIVER}.driver runs {program or '(nothing)'}, which is not there any more; "
            "run `tota git setup`"
        ]
    return []


def unmerged_paths(root: Path) -> list[str]:
    """Every file git still holds in conflict, so `git commit` would refuse (for `tota git
    resolve`, which must not say "commit" while one is left).

    The whole repository counts, not only the vault's folder: a conflict anywhere stops the
    commit. Paths are relative to `root` (`../x` for one outside the vault), sorted.
    """
    if not _in_work_tree(root):
        raise VaultError(f"{root}: not in a git repository")
    top = _git(root, "rev-parse", "--show-toplevel").stdout.strip()
    listed = _git(root, "diff", "--name-only", "--diff-filter=U", "-z")
    base = root.resolve()
    paths = []
    for name in filter(None, listed.stdout.split("\0")):
        full = Path(top, name).resolve()
        try:
            paths.append(full.relative_to(base).as_posix())
        except ValueError:
            paths.append(Path(os.path.relpath(full, base)).as_posix())
    return sorted(paths)


def _taken_in(folder: Path, title: str) -> bool:
    """Whether `<folder>/<title>.md` exists (a title `unique_title` must not give)."""
    return (folder / f"{title}.md").exists()


def resolve_both_kept(root: Path) -> list[tuple[str, str]]:
    """Make each add/add of two different memories that the driver kept between markers two
    notes: the first stays at its path, the second gets the next free title (`<title> 2`).
    Both are staged with `git add`, so a commit finishes the merge. Returns (path, new path)
    pairs, relative to `root`; conflicts of any other shape are left to a person.
    """
    if not _in_work_tree(root):
        raise VaultError(f"{root}: not in a git repository")
    listed = _git(root, "diff", "--name-only", "--diff-filter=U", "--relative", "-z")
    done: list[tuple[str, str]] = []
    for rel in filter(None, listed.stdout.split("\0")):
        path = root / rel
        if path.suffix.lower() != ".md" or not path.is_file():
            continue
        data = path.read_bytes()
        try:
            halves = split_both_kept(data.decode("utf-8"))
        except UnicodeDecodeError:
            halves = None
        if halves is None:
            continue
        folder = path.parent
        title = unique_title(path.stem, partial(_taken_in, folder))
        other = folder / f"{title}.md"
        atomic_write(other, halves[1].encode("utf-8"), expected=None)
        atomic_write(path, halves[0].encode("utf-8"), expected=fingerprint_of(path))
        new_rel = other.relative_to(root).as_posix()
        added = _git(root, "add", "--", rel, new_rel)
        if added.returncode != 0:
            raise VaultError(f"git add {rel} failed: {added.stderr.strip() or '?'}")
        done.append((rel, new_rel))
    return done
