"""Per-vault settings, read from `<vault>/tota.toml` (committed with the vault, so every clone
learns by the same rules), and the local pause flag (`<vault>/.tota/paused`, never committed:
pausing is a choice about this machine's assistant, not about the notes).

    # tota.toml
    [learning]
    min_confidence = 0.55   # candidates below this are not stored
    merge_threshold = 74    # similarity (0..100) at which a candidate merges into a memory

    [sync]
    follow_external_links = false   # read notes (and folders) that links lead to outside the vault
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import ValidationError
from .files import atomic_write, fingerprint_of
from .paths import state_dir
from .scoring import DEFAULT_MIN_CONFIDENCE, MERGE_THRESHOLD

__all__ = ["CONFIG_FILE", "VaultConfig", "is_paused", "load_config", "set_paused"]

CONFIG_FILE = "tota.toml"


@dataclass(frozen=True)
class VaultConfig:
    """How this vault learns."""

    min_confidence: float = DEFAULT_MIN_CONFIDENCE
    merge_threshold: float = MERGE_THRESHOLD
    #: Off by default: a link in a shared vault must not make `~/.ssh/id_ed25519` searchable.
    follow_external_links: bool = False


def load_config(root: Path) -> VaultConfig:
    """Read `tota.toml`; a missing file means the defaults, a bad value a one-line error."""
    path = root / CONFIG_FILE
    if not path.exists():
        return VaultConfig()
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValidationError(f"{path}: not valid TOML ({exc})") from None
    learning = data.get("learning", {})
    if not isinstance(learning, dict):
        raise ValidationError(f"{path}: [learning] must be a table")
    values: dict[str, Any] = {}
    for name, low, high in (("min_confidence", 0.0, 1.0), ("merge_threshold", 0.0, 100.0)):
        if name not in learning:
            continue
        value = learning[name]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise ValidationError(
                f"{path}: learning.{name} = {value!r} is not a number in [{low:g}, {high:g}]"
            )
        values[name] = float(value)
    sync = data.get("sync", {})
    if not isinstance(sync, dict):
        raise ValidationError(f"{path}: [sync] must be a table")
    follow = sync.get("follow_external_links", False)
    if not isinstance(follow, bool):
        raise ValidationError(
            f"{path}: sync.follow_external_links = {follow!r} is not true or false"
        )
    return VaultConfig(**values, follow_external_links=follow)


def _pause_file(root: Path) -> Path:
    return state_dir(root) / "paused"


def is_paused(root: Path) -> bool:
    """True while learning is paused for this vault on this machine."""
    return _pause_file(root).exists()


def set_paused(root: Path, paused: bool) -> None:
    """Pause or resume learning (idempotent)."""
    path = _pause_file(root)
    if paused:
        if not path.exists():
            stamp = json.dumps({"since": datetime.now().replace(microsecond=0).isoformat()})
            atomic_write(path, stamp.encode("utf-8"), expected=None)
    elif fingerprint_of(path) is not None:
        path.unlink()
