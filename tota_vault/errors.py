"""The errors tota raises, one small hierarchy the CLI maps to messages and exit codes.

    TotaError                     base; every error tota means to raise
    ├── VaultError                the vault folder is missing, not a folder, or not usable
    ├── NoteError                 a note cannot be used as a memory
    │   ├── InvalidNoteError      a note's bytes or frontmatter are not a valid memory
    │   ├── NoteChangedError      a note changed on disk since tota read it; the write was refused
    │   │   └── NoteHeldError     an editor has the note open (a swap file or lock); not written
    │   └── WriteError            a file or folder cannot be written (permissions, a full disk)
    ├── LearnerRunningError       another process is learning; `clear` would delete under it
    ├── NotFoundError             no memory has that id or path
    ├── QueryError                a search query SQLite's FTS5 cannot run
    ├── IndexError_               the SQLite index is unusable (corrupt, locked too long)
    │   ├── IndexCorruptError     the index file is damaged (tota moves it aside and rebuilds)
    │   └── IndexReadOnlyError    the index (or its folder) cannot be written
    ├── IndexNotOpenError         `Vault.index` was read before anything opened the index
    ├── SecretError               text given to store holds a secret; nothing was written
    ├── ValidationError           a value given to the API is out of range or of the wrong kind
    ├── ConfigFileError           an assistant's config file tota was asked to change is unsafe
    │                             to rewrite (not JSON, comments, duplicate keys); left as it was
    └── ExtractorError            the extractor tota.toml chose cannot run here (a missing extra,
                                  an unset API key variable); nothing was learned

Each message is one line that names the file or the value, so the CLI can print it as it is.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "first_line",
    "ConfigFileError",
    "ExtractorError",
    "IndexCorruptError",
    "IndexError_",
    "IndexNotOpenError",
    "IndexReadOnlyError",
    "InvalidNoteError",
    "NotAMemoryError",
    "NoteChangedError",
    "NoteHeldError",
    "NoteError",
    "LearnerRunningError",
    "NotFoundError",
    "QueryError",
    "SecretError",
    "TotaError",
    "ValidationError",
    "VaultError",
    "WriteError",
]


class TotaError(Exception):
    """Base of every error tota raises on purpose."""

    exit_code = 1


class VaultError(TotaError):
    """The vault folder is missing, not a folder, or cannot be used."""


class NoteError(TotaError):
    """A note cannot be used; `path` names it."""

    def __init__(self, message: str, *, path: Path | str | None = None) -> None:
        super().__init__(message)
        self.path = path


class InvalidNoteError(NoteError):
    """A note's bytes or frontmatter are not a valid memory; `reason` says why."""

    def __init__(self, reason: str, *, path: Path | str | None = None) -> None:
        where = f"{path}: " if path is not None else ""
        super().__init__(f"{where}{reason}", path=path)
        self.reason = reason


class NoteChangedError(NoteError):
    """The note changed on disk after tota read it, so tota refused to overwrite it."""


class NoteHeldError(NoteChangedError):
    """An editor has the note open (vim's swap file or Emacs's lock beside it), so tota did not
    write it: the editor would warn at its next save, and a "yes" there would drop tota's
    change, or a "no" the person's."""


class WriteError(NoteError):
    """A file or folder cannot be written (a read-only folder, a full disk); `path` names it."""


class LearnerRunningError(TotaError):
    """Another process is learning into the vault, so a command that would delete under it
    (`tota clear`) refused."""


class NotFoundError(TotaError):
    """No memory has that id or path."""


class QueryError(TotaError):
    """The search query cannot be run by SQLite FTS5."""


class IndexError_(TotaError):  # noqa: N801 - the builtin IndexError is taken
    """The SQLite index cannot be used."""


class IndexCorruptError(IndexError_):
    """The index file is damaged (bytes overwritten, not a database, text that is not UTF-8)."""


class IndexReadOnlyError(IndexError_):
    """The index, or the folder it lives in, cannot be written."""


class IndexNotOpenError(TotaError):
    """`Vault.index` (the open index, no I/O) was read before the index was opened:
    `Vault.open_index()` opens it, as every method that reads it does. A caller's mistake, not
    a fault of the index file (so not an `IndexError_`: nothing needs a reindex)."""


class SecretError(TotaError):
    """Text given to `Vault.remember` (or `tota add`) holds a secret, so nothing was stored.

    The message names the kind ("a password") and where ("the text", "a tag"), never the value:
    the error may end up in a log or a terminal's scrollback. `kind` is the secret's kind.
    """

    def __init__(self, kind: str, *, name: str, where: str = "the text") -> None:
        super().__init__(f"refused: {where} holds {name}; tota never stores secrets")
        self.kind = kind
        self.where = where


class ValidationError(TotaError):
    """A value given to tota is out of range or of the wrong kind."""

    exit_code = 2


class NotAMemoryError(InvalidNoteError, ValidationError):
    """An operation on one memory was given a note that is not one (invalid, or without an
    id): refused, exit 1, with the reason. A `ValidationError` too, as it was before it had a
    class of its own, so callers that catch that still do."""

    exit_code = 1


class ConfigFileError(TotaError):
    """A host's config file (`tota setup`) cannot be changed safely; it was left as it was."""


class ExtractorError(TotaError):
    """The extractor chosen in tota.toml cannot run (a missing extra, an unset key variable)."""


def first_line(exc: BaseException, *, kind: bool = False) -> str:
    """An exception's message on one line (its first non-blank one), or its type's name when
    it says nothing: what a one-line error, notice or hook line shows of it (SQLite's and
    YAML's messages can run to several lines). With `kind` the type's name comes first, for an
    error tota did not raise on purpose, so the line says what kind of thing failed."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    name = type(exc).__name__
    if not lines:
        return name
    return f"{name}: {lines[0]}" if kind else lines[0]
