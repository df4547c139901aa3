"""Where tota keeps things: one place resolves `~/.tota`, the default vault and a vault's index.

`TOTA_HOME` moves `~/.tota` (tests point it at a temp folder); `TOTA_VAULT` or the CLI's
`--vault` picks any vault. The index and other local state live in `<vault>/.tota/`, which
`tota init` puts in the vault's `.gitignore`: they are a cache of the files, never the truth.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "DEFAULT_VAULT_PARTS",
    "STATE_DIR",
    "broken_index_copies",
    "default_vault_path",
    "index_path",
    "resolve_vault_path",
    "state_dir",
    "tota_home",
]

#: The vault sits under the home at memory/second-brain, as the product promises.
DEFAULT_VAULT_PARTS = ("memory", "second-brain")
#: The per-vault folder for the index and local state (never committed).
STATE_DIR = ".tota"


def tota_home() -> Path:
    """Return tota's home folder: `$TOTA_HOME`, or `~/.tota`."""
    env = os.environ.get("TOTA_HOME")
    return Path(env).expanduser() if env else Path.home() / ".tota"


def default_vault_path() -> Path:
    """Return the default vault, `<tota home>/memory/second-brain`."""
    return tota_home().joinpath(*DEFAULT_VAULT_PARTS)


def resolve_vault_path(path: str | os.PathLike[str] | None = None) -> Path:
    """Pick the vault: an explicit path, else `$TOTA_VAULT`, else the default. Made absolute."""
    if path is None or str(path) == "":
        env = os.environ.get("TOTA_VAULT")
        chosen = Path(env).expanduser() if env else default_vault_path()
    else:
        chosen = Path(path).expanduser()
    return Path(os.path.abspath(chosen))


def state_dir(vault: Path) -> Path:
    """Return `<vault>/.tota`, where the index and local state live."""
    return vault / STATE_DIR


def index_path(vault: Path) -> Path:
    """Return the SQLite index file of a vault."""
    return state_dir(vault) / "index.db"


def broken_index_copies(vault: Path) -> list[Path]:
    """The damaged indexes tota moved aside (`index.db.broken-<time>`), oldest first, and the
    old index a `tota reindex` killed before it finished left (`index.db.reindex`), without
    their -wal and -shm. Each holds the text of every memory it indexed, forgotten or not."""
    index = index_path(vault)
    try:
        found = [
            p
            for p in index.parent.glob(f"{index.name}.broken-*")
            if not p.name.endswith(("-wal", "-shm"))
        ]
        left = index.parent / f"{index.name}.reindex"
        aside = [left] if left.exists() else []
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name) + aside
