"""Per-vault settings, read from `<vault>/tota.toml` (committed with the vault, so every clone
learns by the same rules), and the local pause flag (`<vault>/.tota/paused`, never committed:
pausing is a choice about this machine's assistant, not about the notes).

    # tota.toml
    [learning]
    min_confidence = 0.55   # candidates below this are not stored
    merge_threshold = 74    # similarity (0..100) at which a candidate merges into a memory

    [sync]
    follow_external_links = false   # read notes (and folders) that links lead to outside the vault
    [extract]
    backend = "rules"       # or "llm": a model behind an OpenAI-compatible endpoint (off)
    base_url = "http://127.0.0.1:11434/v1"   # Ollama's; llama.cpp's server is :8080/v1
    model = "qwen2.5:7b"    # required for "llm"
    api_key_env = "MY_KEY"  # optional: the NAME of an environment variable holding a key
    timeout_s = 30          # per request; a slower reply falls back to the rules
    max_messages = 12       # messages sent per request

    [recall]
    turns = true            # keep every turn of every conversation (redacted) in the index and
                            # quote them in recall; false: neither kept nor quoted
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .errors import ValidationError
from .files import atomic_write, fingerprint_of
from .paths import state_dir
from .scoring import DEFAULT_MIN_CONFIDENCE, MERGE_THRESHOLD

__all__ = [
    "CONFIG_FILE",
    "EXTRACT_BACKENDS",
    "ExtractSettings",
    "VaultConfig",
    "is_paused",
    "load_config",
    "set_paused",
]

CONFIG_FILE = "tota.toml"


#: The extractors `[extract] backend` may name: the offline rules (the default) or a model.
EXTRACT_BACKENDS = ("rules", "llm")
#: Ollama's OpenAI-compatible endpoint on this machine: a loopback address, so choosing the
#: LLM backend without a `base_url` sends nothing off the machine.
DEFAULT_BASE_URL = "http://127.0.0.1:11434/v1"
#: Local models answer a chunk in seconds to tens of seconds on a CPU; past this, the rules.
DEFAULT_TIMEOUT_S = 30.0
#: Messages per request: small local models have small context windows (Ollama's default is a
#: few thousand tokens) and silently drop what overflows them.
DEFAULT_MAX_MESSAGES = 12
# An environment variable's name, as shells accept it: never the key itself.
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class ExtractSettings:
    """Which extractor learns from conversations (`[extract]` in tota.toml).

    `backend` is "rules" (offline, the default) or "llm"; the other fields are the LLM's:
    an OpenAI-compatible `base_url` and `model`, the name of an environment variable that holds
    an API key (`api_key_env`; a key is never written in tota.toml, which is committed), the
    time a request may take and how many messages one request carries.
    """

    backend: str = "rules"
    base_url: str = DEFAULT_BASE_URL
    model: str | None = None
    api_key_env: str | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_messages: int = DEFAULT_MAX_MESSAGES


@dataclass(frozen=True)
class VaultConfig:
    """How this vault learns."""

    min_confidence: float = DEFAULT_MIN_CONFIDENCE
    merge_threshold: float = MERGE_THRESHOLD
    #: Off by default: a link in a shared vault must not make `~/.ssh/id_ed25519` searchable.
    follow_external_links: bool = False
    extract: ExtractSettings = ExtractSettings()
    #: `[recall] turns`: conversations' turns are kept in the index and recall quotes them.
    turns: bool = True


#: The tables tota.toml may hold, and the settings of the two checked in `load_config`
#: itself (`[extract]` and `[recall]` name theirs where they are read).
SECTIONS = ("extract", "learning", "recall", "sync")
LEARNING_SETTINGS = ("merge_threshold", "min_confidence")
SYNC_SETTINGS = ("follow_external_links",)


def _known_keys(path: Path, prefix: str, table: dict[str, Any], known: tuple[str, ...]) -> None:
    """Refuse a key tota does not read, rather than ignore it: `min_confidnce = 0.6` would
    otherwise leave the bar where it was, and nothing would say so."""
    unknown = sorted(set(table) - set(known))
    if not unknown:
        return
    if prefix:
        raise ValidationError(
            f"{path}: {prefix}{unknown[0]} is not a setting (known: {', '.join(known)})"
        )
    raise ValidationError(
        f"{path}: {unknown[0]} is not a section of tota.toml (known: "
        + ", ".join(f"[{name}]" for name in known)
        + ")"
    )


def load_config(root: Path) -> VaultConfig:
    """Read `tota.toml`; a missing file means the defaults, a bad value or a key tota does not
    know (a misspelling) a one-line error naming the file, the key and the known ones."""
    path = root / CONFIG_FILE
    if not path.exists():
        return VaultConfig()
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValidationError(f"{path}: not valid TOML ({exc})") from None
    _known_keys(path, "", data, SECTIONS)
    learning = data.get("learning", {})
    if not isinstance(learning, dict):
        raise ValidationError(f"{path}: [learning] must be a table")
    _known_keys(path, "learning.", learning, LEARNING_SETTINGS)
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
    _known_keys(path, "sync.", sync, SYNC_SETTINGS)
    follow = sync.get("follow_external_links", False)
    if not isinstance(follow, bool):
        raise ValidationError(
            f"{path}: sync.follow_external_links = {follow!r} is not true or false"
        )
    values["extract"] = _extract_settings(path, data.get("extract", {}))
    values["turns"] = _recall_turns(path, data.get("recall", {}))
    return VaultConfig(**values, follow_external_links=follow)


def _extract_settings(path: Path, table: Any) -> ExtractSettings:
    """The `[extract]` table, checked: each bad value a one-line error naming it.

    Unknown keys are refused rather than ignored: a misspelt `modle` would otherwise leave the
    LLM backend without a model, and an `api_key` written here would be committed with the vault.
    """
    if not isinstance(table, dict):
        raise ValidationError(f"{path}: [extract] must be a table")
    if "api_key" in table:
        raise ValidationError(
            f"{path}: extract.api_key: a key does not belong in tota.toml (it is committed with "
            "the vault); put it in an environment variable and name that with api_key_env"
        )
    known = {f.name for f in fields(ExtractSettings)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValidationError(
            f"{path}: extract.{unknown[0]} is not a setting (known: {', '.join(sorted(known))})"
        )
    backend = table.get("backend", "rules")
    if backend not in EXTRACT_BACKENDS:
        raise ValidationError(
            f"{path}: extract.backend = {backend!r} is not one of {', '.join(EXTRACT_BACKENDS)}"
        )
    base_url = table.get("base_url", DEFAULT_BASE_URL)
    parts = urlsplit(base_url) if isinstance(base_url, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationError(f"{path}: extract.base_url = {base_url!r} is not an http(s) URL")
    if parts.path.rstrip("/").endswith("/chat/completions"):
        raise ValidationError(
            f"{path}: extract.base_url = {base_url!r} names the endpoint; give the API's base "
            "(ending in /v1): tota adds /chat/completions"
        )
    model = table.get("model")
    if model is not None and (not isinstance(model, str) or not model.strip()):
        raise ValidationError(f"{path}: extract.model = {model!r} is not a model name")
    if backend == "llm" and model is None:
        raise ValidationError(
            f'{path}: extract.backend = "llm" needs extract.model (the model to ask, e.g. '
            '"qwen2.5:7b")'
        )
    api_key_env = table.get("api_key_env")
    if api_key_env is not None and (
        not isinstance(api_key_env, str) or not _ENV_NAME.fullmatch(api_key_env)
    ):
        raise ValidationError(
            f"{path}: extract.api_key_env = {api_key_env!r} is not an environment variable name"
        )
    timeout = table.get("timeout_s", DEFAULT_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 3600:
        raise ValidationError(
            f"{path}: extract.timeout_s = {timeout!r} is not a number of seconds in (0, 3600]"
        )
    max_messages = table.get("max_messages", DEFAULT_MAX_MESSAGES)
    if isinstance(max_messages, bool) or not isinstance(max_messages, int) or max_messages < 1:
        raise ValidationError(
            f"{path}: extract.max_messages = {max_messages!r} is not a whole number >= 1"
        )
    return ExtractSettings(
        backend=backend,
        base_url=base_url.rstrip("/"),
        model=model.strip() if model else None,
        api_key_env=api_key_env,
        timeout_s=float(timeout),
        max_messages=max_messages,
    )


#: The settings `[recall]` may hold.
RECALL_SETTINGS = ("turns",)


def _recall_turns(path: Path, table: Any) -> bool:
    """`[recall] turns`, checked: a table, only known keys, a true or false."""
    if not isinstance(table, dict):
        raise ValidationError(f"{path}: [recall] must be a table")
    unknown = sorted(set(table) - set(RECALL_SETTINGS))
    if unknown:
        raise ValidationError(
            f"{path}: recall.{unknown[0]} is not a setting (known: {', '.join(RECALL_SETTINGS)})"
        )
    turns = table.get("turns", True)
    if not isinstance(turns, bool):
        raise ValidationError(f"{path}: recall.turns = {turns!r} is not true or false")
    return turns


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
