"""The vault's files on disk: which paths are notes, scanning, reading, atomic writes.

Every write tota makes goes through `atomic_write`: a temp file in the same folder, flush and
fsync, then `os.replace` (or a hard link for a new note, so an existing file is never
overwritten), refused when the file on disk no longer matches what tota read. A crash at any
point leaves either the old bytes or the new ones, never a mix, and never a person's newer edit
overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import socket
import stat
import time

try:  # POSIX only; on other systems tota skips the open-for-writing check
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

from .errors import NoteChangedError, NoteError, WriteError

__all__ = [
    "IGNORED_DIRS",
    "STALE_TEMP_SECONDS",
    "TEMP_PATTERN",
    "FileStat",
    "Snapshot",
    "Fingerprint",
    "atomic_write",
    "EFFECTIVE",
    "fsync_folder",
    "content_hash",
    "external_target",
    "hidden_reason",
    "HELD_BY_EDITOR",
    "HELD_HINT",
    "held_by_editor",
    "hidden_target",
    "emacs_lock_owner",
    "owner_gone",
    "vim_swap_owner",
    "note_link",
    "is_temp_name",
    "fingerprint_of",
    "is_note_path",
    "make_dirs",
    "open_for_writing",
    "open_private",
    "outside_reason",
    "read_file",
    "scan_vault",
    "sweep_temps",
    "through_link",
    "unchanged",
]

#: Folders never indexed: tota's own state, Obsidian's config and trash, version control.
IGNORED_DIRS = frozenset({".tota", ".obsidian", ".git", ".trash", ".stfolder", "node_modules"})
#: Editor and tool artifacts that can end in `.md` or sit beside notes: vim swap and backup
#: files, vim's `4913` write probe, Emacs locks and autosaves, `sed -i` temp files, our own and
#: other tools' temp files. Of these, only a dot-file's name can end in `.md`, and the walk's
#: short way relies on it (`_Walk.folder`): a new pattern that can end in `.md` must go there
#: too. test_files holds the walk to `is_note_path`.
_ARTIFACT_RE = re.compile(
    r"""^(?:
        \..*                      # dot-files: .note.md.swp, .#note.md, our .x.tota-*.tmp
      | .*~                       # vim/emacs backups
      | \#.*\#                    # emacs autosave
      | \d+                       # vim's 4913 probe (and 5036, ...)
      | sed[A-Za-z0-9]{6}         # sed -i temp files
      | .*\.(?:tmp|vsctmp|swp|swo|swx|bak|orig|crdownload)
    )$""",
    re.VERBOSE,
)


#: tota's own temp files: `atomic_write` names them `.<name>.<random>.tota.tmp`. A writer killed
#: between creating one and renaming it leaves it behind; `.gitignore` ignores this pattern.
TEMP_PATTERN = "*.tota.tmp"
_TEMP_RE = re.compile(r"^\..+\.tota\.tmp$")
#: A temp file this old is stale: a write takes milliseconds, so only a writer that died left it.
STALE_TEMP_SECONDS = 600.0


class FileStat(NamedTuple):
    """What a scan learns of a path without reading it; `error` when it cannot be read.

    A tuple, not a dataclass: a no-change sync of 100k notes makes 100k of them."""

    size: int
    mtime_ns: int
    error: str | None = None


@dataclass(frozen=True)
class Fingerprint:
    """The identity of a file's content as tota last read it."""

    size: int
    mtime_ns: int
    hash: str


def content_hash(data: bytes) -> str:
    """Hash note bytes; the algorithm is named in the value so it can change later."""
    import hashlib  # OpenSSL's load is a fifth of a search process's start: only to hash

    return "sha256:" + hashlib.sha256(data).hexdigest()


def is_note_path(rel_path: str) -> bool:
    """True when a vault-relative path (with `/`) names a note tota should index."""
    parts = rel_path.split("/")
    if any(part in IGNORED_DIRS or part.startswith(".") for part in parts[:-1]):
        return False
    name = parts[-1]
    return name.lower().endswith(".md") and not _ARTIFACT_RE.match(name)


def is_temp_name(name: str) -> bool:
    """True for the name of one of tota's own temp files (see `TEMP_PATTERN`)."""
    return _TEMP_RE.match(name) is not None


def external_target(real_root: str, path: str) -> str | None:
    """Where `path` really leads when that is outside the vault (`real_root`, resolved), else
    None. A link that leads outside must never be read unasked: a shared vault pulled through
    git can carry a link to `~/.ssh/id_ed25519`, and its text would be searched and recalled."""
    target = os.path.realpath(path)
    if target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep):
        return None
    return target


def hidden_target(real_root: str, path: str) -> str | None:
    """Where `path` really leads when that is inside one of the vault's skipped dot-folders
    (`.git/`, `.tota/`, any `.`-prefixed folder) or is a dot-file of it (`.env`), else None.
    Such a file is never read, not even with `follow_external_links`: `.git/config` can hold
    credentials, `.tota/` the index."""
    target = os.path.realpath(path)
    prefix = real_root.rstrip(os.sep) + os.sep
    if not target.startswith(prefix):
        return None
    parts = target[len(prefix) :].split(os.sep)  # the file's own name too: `.env`
    if any(part in IGNORED_DIRS or part.startswith(".") for part in parts):
        return target
    return None


def hidden_reason(target: str) -> str:
    """Why a link into a hidden folder of the vault was not read."""
    return (
        f"a link to {target}, inside a hidden folder of the vault; never read (tota's "
        "state and git's config live there)"
    )


def note_link(
    real_root: str, path: str, *, follow_external: bool = False
) -> tuple[str, str] | None:
    """Judge a note that is itself a link: None to read it through the link, or

    ("alias", rel) when it leads to another note of the vault: that note is indexed where it
    really is, so the link is skipped (indexing both would recall the memory twice, and a
    `forget` by the link's path would delete the link, not the memory);
    ("refused", reason) when its target must not be read (a hidden folder of the vault, or
    outside it unless `follow_external`).
    """
    hidden = hidden_target(real_root, path)
    if hidden is not None:
        return "refused", hidden_reason(hidden)
    outside = external_target(real_root, path)
    if outside is not None:
        return None if follow_external else ("refused", outside_reason(outside))
    target = os.path.realpath(path)
    rel = os.path.relpath(target, real_root).replace(os.sep, "/")
    if is_note_path(rel):
        return "alias", rel
    return None


def through_link(root: Path, rel: str) -> bool:
    """True when a vault-relative path reaches its file through a link (its own, or a linked
    folder's): tota reads such a note but never writes it (it may not even be in the vault)."""
    real_root = os.path.realpath(root)
    return os.path.realpath(root / rel) != os.path.join(real_root, *rel.split("/"))


def outside_reason(target: str) -> str:
    """Why a link that leads outside the vault was not read, and how to allow it."""
    return (
        f"a link to {target}, outside the vault; not read (to read it, set "
        "follow_external_links = true under [sync] in tota.toml)"
    )


def _stat_error(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    if exc.errno == errno.ENOENT:
        return "broken symlink (its target does not exist)"
    if exc.errno == errno.EACCES:
        return "permission denied"
    return f"cannot be read ({exc.strerror or exc})"


class Snapshot(Mapping[str, FileStat]):
    """What a stat pass found: vault-relative POSIX path -> `FileStat`, held as plain data.

    `stamps` maps every path found to its (size, mtime_ns), (0, 0) when it cannot be stat'ed;
    `errors` maps the paths that cannot be read to the reason. A no-change sync of 100k notes
    compares 100k stamps with the index's and builds no `FileStat` at all: on this machine a
    NamedTuple costs about 1.3 us to build against 0.1 us for a plain tuple, a quarter of the
    bare walk's time (docs/benchmarks.md). `snapshot[path]` builds one when it is asked for.
    """

    __slots__ = ("stamps", "errors")

    def __init__(
        self, stamps: dict[str, tuple[int, int]] | None = None, errors: dict[str, str] | None = None
    ) -> None:
        """An empty snapshot, or one over these two dicts (kept, not copied)."""
        self.stamps: dict[str, tuple[int, int]] = {} if stamps is None else stamps
        self.errors: dict[str, str] = {} if errors is None else errors

    def __getitem__(self, path: str) -> FileStat:
        size, mtime_ns = self.stamps[path]
        return FileStat(size, mtime_ns, self.errors.get(path))

    def __iter__(self) -> Iterator[str]:
        return iter(self.stamps)

    def __len__(self) -> int:
        return len(self.stamps)

    def __contains__(self, path: object) -> bool:
        return path in self.stamps

    def __repr__(self) -> str:
        return f"Snapshot({dict(self.items())!r})"

    def add(self, path: str, size: int, mtime_ns: int, error: str | None = None) -> None:
        """Record one path (with `error` when it cannot be read)."""
        self.stamps[path] = (size, mtime_ns)
        if error is not None:
            self.errors[path] = error

    def pop(self, path: str, default: FileStat | None = None) -> FileStat | None:
        """Forget one path; return what was known of it, or `default`."""
        if path not in self.stamps:
            return default
        found = self[path]
        del self.stamps[path]
        self.errors.pop(path, None)
        return found

    def without_prefix(self, prefix: str) -> Snapshot:
        """The paths that do not start with `prefix` (a folder, `Templates/`)."""
        stamps = {p: s for p, s in self.stamps.items() if not p.startswith(prefix)}
        errors = {p: e for p, e in self.errors.items() if not p.startswith(prefix)}
        return Snapshot(stamps, errors)


def scan_vault(
    root: Path,
    blocked: list[tuple[str, str]] | None = None,
    *,
    temps: list[str] | None = None,
    links: list[tuple[str, str]] | None = None,
    follow_external: bool = False,
    aliases: list[tuple[str, str]] | None = None,
) -> Snapshot:
    """Walk the vault and stat every note: vault-relative POSIX path -> `FileStat`.

    Dot-folders and editor artifacts are skipped; tota's own temp files are appended to `temps`.
    A linked folder inside the vault is not entered (its notes are found where they really
    are; a loop would never end). A note link to another note of the vault is skipped and
    appended to `aliases` as (link, target): the target is indexed where it really is (see
    `note_link`); a note link to some other file of the vault is read through its link. A link
    into a hidden folder of the vault (`.git/`, `.tota/`) is never read, and one that leads
    outside the vault is not read unless `follow_external`: a note link is returned with an
    `error` saying so, and a folder link goes to `links` as (`folder/`, reason). A link that
    loops or dangles is returned with its `error`. A folder that cannot be listed is appended
    to `blocked` as (`folder/`, reason): its notes are unknown, not gone.
    """
    walk = _Walk(root, blocked, temps, links, aliases, follow_external=follow_external)
    while walk.stack:
        walk.folder(*walk.stack.pop())
    return walk.found


#: The ways a note's name may end (`is_note_path` lowers the name; the walk does not, it costs).
_MD_ENDINGS = (".md", ".MD", ".Md", ".mD")


class _Walk:
    """One walk of a vault (`scan_vault`): the folders still to list and what was found.

    A regular file named like a note takes the short way (`folder`); everything else, rare in
    a vault, is judged by `entry`, one step at a time.
    """

    def __init__(
        self,
        root: Path,
        blocked: list[tuple[str, str]] | None,
        temps: list[str] | None,
        links: list[tuple[str, str]] | None,
        aliases: list[tuple[str, str]] | None,
        *,
        follow_external: bool,
    ) -> None:
        self.found = Snapshot()
        self.real_root = os.path.realpath(root)
        self.stack: list[tuple[str, str]] = [(str(root), "")]
        self.entered = {self.real_root}
        self.blocked = blocked
        self.temps = temps
        self.links = links
        self.aliases = aliases
        self.follow_external = follow_external

    def folder(self, folder: str, prefix: str) -> None:
        """List one folder: stat its notes, queue its sub-folders."""
        try:
            entries = os.scandir(folder)
        except OSError as exc:
            if self.blocked is not None:
                self.blocked.append((prefix, _stat_error(exc)))
            return
        stamps = self.found.stamps
        regular = stat.S_ISREG
        with entries:
            for entry in entries:
                name = entry.name
                try:  # from the folder listing, no system call: a regular file, not a link
                    plain = entry.is_file(follow_symlinks=False)
                except OSError:
                    plain = False
                # The walk never enters dot-folders, so the name alone decides (a full path check
                # per file costs a third of a no-change sync at 100k notes). Of the artifacts, only
                # a dot-file's name can end in `.md` (`_ARTIFACT_RE`): no regex for 100k names.
                if plain and name.endswith(_MD_ENDINGS) and not name.startswith("."):
                    try:
                        st = entry.stat()
                    except OSError as exc:
                        self.found.add(prefix + name, 0, 0, _stat_error(exc))
                        continue
                    if regular(st.st_mode):
                        stamps[prefix + name] = (st.st_size, st.st_mtime_ns)
                    else:  # replaced since it was listed: judged as any other entry
                        self.entry(entry, prefix)
                else:
                    self.entry(entry, prefix)

    def entry(self, entry: os.DirEntry[str], prefix: str) -> None:
        """Judge an entry that is not plainly a note: a folder, a link, a temp file, another
        file, or a note that is not a regular file."""
        name = entry.name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            is_link = entry.is_symlink()
        except OSError:
            is_dir = is_link = False
        hidden = name in IGNORED_DIRS or name.startswith(".")
        if is_dir:
            if not hidden:
                self.stack.append((entry.path, prefix + name + "/"))
            return
        if is_link and not hidden and self.linked_folder(entry.path, prefix + name):
            return
        if self.temps is not None and name.endswith(".tota.tmp") and is_temp_name(name):
            self.temps.append(prefix + name)
            return
        if not name.endswith(_MD_ENDINGS) or _ARTIFACT_RE.match(name):
            return
        try:
            st = entry.stat()
        except OSError as exc:
            self.found.add(prefix + name, 0, 0, _stat_error(exc))
            return
        self.note(entry.path, prefix + name, st, is_link=is_link)

    def note(self, path: str, rel: str, st: os.stat_result, *, is_link: bool) -> None:
        """Record a note that is a link, or not a regular file (a folder's link is skipped)."""
        if is_link and stat.S_ISREG(st.st_mode):
            verdict = note_link(self.real_root, path, follow_external=self.follow_external)
            if verdict is not None and verdict[0] == "alias":
                if self.aliases is not None:
                    self.aliases.append((rel, verdict[1]))
                return
            if verdict is not None:
                self.found.add(rel, 0, 0, verdict[1])
                return
        if stat.S_ISREG(st.st_mode):
            self.found.add(rel, st.st_size, st.st_mtime_ns)
        elif not stat.S_ISDIR(st.st_mode):  # a symlink to a folder named like a note: skipped
            # Permission is not checked here (a syscall per note on every sync): reading
            # the file reports it, and `reconcile` records the reason.
            self.found.add(rel, st.st_size, st.st_mtime_ns, "not a regular file")

    def linked_folder(self, path: str, rel: str) -> bool:
        """Handle a link the walk met: True when it leads to a folder (entered or not)."""
        if not os.path.isdir(path):
            return False
        target = external_target(self.real_root, path)
        if target is None:
            return True  # inside the vault: its notes are indexed where they really are
        if not self.follow_external:
            if self.links is not None:
                self.links.append((rel + "/", outside_reason(target)))
            return True
        # The person asked for it; never twice (a loop would not end).
        if target not in self.entered:
            self.entered.add(target)
            self.stack.append((path, rel + "/"))
        return True


def sweep_temps(
    root: Path, temps: list[str], *, older_than: float = STALE_TEMP_SECONDS
) -> list[str]:
    """Delete the stale temp files among `temps` (vault-relative); return those deleted.

    Only files untouched for `older_than` seconds that no process holds open for writing: a
    live writer's temp file (the daemon's, another tota's) is never taken from under it.
    """
    swept: list[str] = []
    now = time.time()
    for rel in temps:
        path = root / rel
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < older_than:
            continue
        if open_for_writing(path):
            continue
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            swept.append(rel)
    return swept


def read_file(path: Path) -> tuple[bytes, Fingerprint]:
    """Read a note's bytes and the fingerprint they had; raise `NoteError` naming the path."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise NoteError(f"{path}: not a regular file", path=path)
        with open(path, "rb") as handle:
            data = handle.read()
            st = os.fstat(handle.fileno())
    except OSError as exc:
        raise NoteError(f"{path}: {_stat_error(exc)}", path=path) from None
    return data, Fingerprint(st.st_size, st.st_mtime_ns, content_hash(data))


def fingerprint_of(path: Path) -> Fingerprint | None:
    """The fingerprint of a file now, or None when there is no file."""
    try:
        return read_file(path)[1]
    except NoteError:
        if not os.path.lexists(path):
            return None
        raise


def open_for_writing(path: Path) -> bool:
    """True when some process holds the file open for writing (Linux: a read lease fails).

    tota must not replace such a file: the writer's later bytes would go to the replaced
    inode and be lost. Where leases are unavailable (other systems, other filesystems, or no
    permission) this answers False and the quiet period alone protects the writer.
    """
    set_lease = getattr(fcntl, "F_SETLEASE", None) if fcntl is not None else None
    if set_lease is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.fcntl(fd, set_lease, fcntl.F_RDLCK)
    except OSError as exc:
        return exc.errno in (errno.EAGAIN, errno.EBUSY)
    else:
        fcntl.fcntl(fd, set_lease, fcntl.F_UNLCK)
        return False
    finally:
        os.close(fd)


#: The swap files vim keeps beside a file it has open (`.name.md.swp`; `.swo`, `.swn` for a
#: second and third session): vim's default 'directory' puts them in the file's own folder.
_VIM_SWAP_SUFFIXES = (".swp", ".swo", ".swn")

#: vim's swap file opens with its block 0 (`struct block0` in vim's memline.c): "b0", the
#: version (10 bytes), page size, mtime and inode (4 each), then the owner's process id (4
#: bytes, least significant first on every platform: vim's `long_to_char`), the user name
#: (40) and the host name (40, NUL-padded).
_VIM_PID = slice(24, 28)
_VIM_HOST = slice(68, 108)

#: An Emacs lock is a link (a plain file where links are missing) whose target is
#: "user@host.pid:boot-time" (filelock.c); the host may hold dots, the boot time may be absent.
_EMACS_LOCK = re.compile(r"[^@]*@(?P<host>.+)\.(?P<pid>\d+)(?::-?\d+)?")


def vim_swap_owner(head: bytes) -> tuple[int, str] | None:
    """The process id and host name a vim swap file's first bytes name, or None when they
    are not a whole block 0 (a truncated or foreign file) or name no process (id 0)."""
    if len(head) < _VIM_HOST.stop or not head.startswith(b"b0VIM"):
        return None
    pid = int.from_bytes(head[_VIM_PID], "little")
    host = head[_VIM_HOST].split(b"\0", 1)[0].decode("utf-8", "replace")
    return (pid, host) if pid > 0 and host else None


def emacs_lock_owner(target: str) -> tuple[int, str] | None:
    """The process id and host name an Emacs lock's target names, or None for another form."""
    match = _EMACS_LOCK.fullmatch(target.strip())
    if match is None or int(match["pid"]) <= 0:
        return None
    return int(match["pid"]), match["host"]


def owner_gone(pid: int, host: str) -> bool:
    """True when the editor that made a swap file or lock is known to be gone: it ran on this
    machine and no process has its id now, the test vim and Emacs make themselves before
    they call a swap file or lock stale. Another machine's (a vault on a shared disk) or
    another user's running process counts as still there."""
    here = socket.gethostname()
    if host not in (here, here[:39]):  # vim keeps the first 39 bytes of the name
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # EPERM: a process of another user's has that id, so it runs
        return False
    return False


def _swap_live(swap: str) -> bool:
    """Whether a vim swap file beside a note still holds it: unreadable or not vim's own
    block 0 counts as held (the safe side), a crashed vim's as not."""
    try:
        with open(swap, "rb") as file:
            owner = vim_swap_owner(file.read(_VIM_HOST.stop))
    except OSError:
        return True
    return owner is None or not owner_gone(*owner)


def _emacs_lock_live(lock: str) -> bool:
    """Whether an Emacs lock beside a note still holds it (the same rule as `_swap_live`)."""
    try:
        target = os.readlink(lock)
    except OSError:
        try:
            with open(lock, encoding="utf-8", errors="replace") as file:
                target = file.read(512)
        except OSError:
            return True
    owner = emacs_lock_owner(target)
    return owner is None or not owner_gone(*owner)


#: How a refused write or delete names a note an editor holds, and what to do about it.
HELD_BY_EDITOR = "held by an editor (a swap file or lock beside it)"
HELD_HINT = "close it in the editor (or delete a swap file a crashed editor left) and run it again"


def held_by_editor(path: Path) -> bool:
    """True when an editor has the file open in a buffer: vim's swap file or Emacs's lock
    (`.#name.md`, a link) beside it. Such an editor keeps the text it read and warns at its
    next save if the file changed on disk ("The file has been changed since reading it"), so
    tota waits until it closes. A swap file or lock whose editor is gone (killed, or the
    machine crashed) holds nothing: waiting for it would hold the note forever, and vim's own
    recovery (`vim -r`) reads the swap file whatever tota writes. Editors that keep neither
    (Obsidian, VS Code, neovim's swap in its own state folder) are protected by the quiet
    period alone."""
    folder, name = str(path.parent), path.name
    lock = os.path.join(folder, f".#{name}")
    if os.path.lexists(lock) and _emacs_lock_live(lock):
        return True
    for suffix in _VIM_SWAP_SUFFIXES:
        swap = os.path.join(folder, f".{name}{suffix}")
        if os.path.lexists(swap) and _swap_live(swap):
            return True
    return False


def open_private(path: Path | str, mode: str = "a+b", **kwargs: Any) -> IO[Any]:
    """Open `path` to append to (and read), creating it private (0600) as every file tota
    makes; one an earlier version left readable by others is made private too. For lock and
    log files, which are opened in place rather than written atomically. `mode` is an
    appending mode of `open` ("a+b", "a+", "ab")."""
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        if stat.S_IMODE(os.fstat(fd).st_mode) & 0o077:
            with contextlib.suppress(OSError):  # another user's file: left as it is
                os.fchmod(fd, 0o600)
        return os.fdopen(fd, mode, **kwargs)
    except BaseException:
        os.close(fd)
        raise


#: Check access (`os.access`) as the process really is (setuid programs aside, the same thing).
EFFECTIVE = os.access in os.supports_effective_ids


def make_dirs(path: Path) -> None:
    """Create a folder and its missing parents, each new one private (0700)."""
    missing: list[Path] = []
    current = path
    while not current.exists():
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise WriteError(
                f"{folder}: cannot create this folder ({exc.strerror or exc}); "
                f"check that {folder.parent} is writable",
                path=folder,
            ) from None


def atomic_write(
    path: Path, data: bytes, *, expected: Fingerprint | None, sync_folder: bool = True
) -> Fingerprint:
    """Write `data` to `path` atomically; return the new file's fingerprint.

    `expected=None` creates a new note and refuses to replace any file at `path`; otherwise the
    file must still have the content `expected` describes, or `NoteChangedError` is raised and
    nothing changes. New notes are 0600; a replaced note keeps its mode.
    """
    name = os.fspath(path)
    if os.path.islink(name):
        raise NoteChangedError(f"{path}: a symlink; tota does not write through links", path=path)
    make_dirs(path.parent)
    fd, tmp = _open_temp(path)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
            # The temp file's inode becomes the note (link or rename keep its size and mtime):
            # its fingerprint is read here, with no second stat of the path.
            st = os.fstat(fd)
        finally:
            os.close(fd)
        if expected is None:
            try:
                os.link(tmp, name)  # fails if a file appeared there: never overwrite
            except FileExistsError:
                raise NoteChangedError(
                    f"{path}: a file with this name appeared; not overwritten", path=path
                ) from None
            os.unlink(tmp)
        else:
            if not unchanged(path, expected):
                raise NoteChangedError(
                    f"{path}: changed on disk since tota read it; not overwritten", path=path
                )
            os.chmod(tmp, stat.S_IMODE(os.stat(name).st_mode))
            os.replace(tmp, name)
        if sync_folder:  # a caller writing many notes fsyncs each folder once, after them
            _fsync_dir(path.parent)
    except OSError as exc:
        raise WriteError(f"{path}: cannot write ({exc.strerror or exc})", path=path) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return Fingerprint(st.st_size, st.st_mtime_ns, content_hash(data))


#: Open flags of a temp file: created here and now (never an existing file or a link).
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_TEMP_FLAGS |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _open_temp(path: Path) -> tuple[int, str]:
    """A new private (0600) temp file beside `path`, `.<name>.<random>.tota.tmp`, open for
    writing: what `tempfile.mkstemp` makes, without its name machinery on every note."""
    folder = os.fspath(path.parent)
    for _ in range(100):
        tmp = os.path.join(folder, f".{path.name}.{os.urandom(4).hex()}.tota.tmp")
        try:
            return os.open(tmp, _TEMP_FLAGS, 0o600), tmp
        except FileExistsError:
            continue  # 32 random bits taken: draw again
        except OSError as exc:
            raise WriteError(
                f"{path}: cannot write here ({exc.strerror or exc}); "
                f"check that {path.parent} is writable",
                path=path,
            ) from None
    raise WriteError(f"{path}: cannot write here (no free temp file name)", path=path)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def unchanged(path: Path, expected: Fingerprint) -> bool:
    """Is the file still what tota read? Same size and the same fine-grained mtime is enough;
    otherwise the bytes decide (a `touch` changes the mtime, not the content). On a filesystem
    with coarse timestamps (whole seconds or milliseconds) an edit can keep the mtime, so
    there the bytes always decide."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    fine = expected.mtime_ns % 1_000_000 != 0
    if fine and st.st_size == expected.size and st.st_mtime_ns == expected.mtime_ns:
        return True
    current = fingerprint_of(path)
    return current is not None and current.hash == expected.hash


def fsync_folder(folder: Path) -> None:
    """Make the renames in a folder durable (see `atomic_write(sync_folder=False)`)."""
    _fsync_dir(folder)


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable: fsync the folder that holds it (where the OS allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
