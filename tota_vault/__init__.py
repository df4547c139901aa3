"""tota_vault: an AI assistant's long-term memory as a Markdown vault.

Each memory is one Markdown note with YAML frontmatter; a SQLite FTS5 index mirrors the vault
for search and recall. The vault is the truth, the index a cache.

    from tota_vault import Vault

    with Vault.open() as vault:  # ~/.tota/memory/second-brain, or $TOTA_VAULT
        vault.remember("preference", "Prefers Neovim over VS Code.", confidence=0.9)
        for hit in vault.search("neovim"):
            print(hit.path, hit.plain_snippet())

Names are imported on first use, so `tota --help` does not pay for YAML and SQLite.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_EXPORTS = {
    "DoctorReport": "doctor",
    "IndexCorruptError": "errors",
    "IndexError_": "errors",
    "IndexNotOpenError": "errors",
    "IndexReadOnlyError": "errors",
    "InvalidNoteError": "errors",
    "NoteChangedError": "errors",
    "NoteHeldError": "errors",
    "NoteError": "errors",
    "LearnerRunningError": "errors",
    "NotFoundError": "errors",
    "QueryError": "errors",
    "SecretError": "errors",
    "TotaError": "errors",
    "ValidationError": "errors",
    "VaultError": "errors",
    "WriteError": "errors",
    "Hit": "index",
    "Evidence": "model",
    "Memory": "model",
    "MemoryType": "model",
    "Status": "model",
    "ParsedNote": "notes",
    "parse_note": "notes",
    "patch_frontmatter": "notes",
    "render_note": "notes",
    "default_vault_path": "paths",
    "tota_home": "paths",
    "SyncReport": "sync",
    "StoredMemory": "store",
    "MemoryStore": "store",
    "MemoryRow": "rows",
    "Vault": "vault",
    "Message": "extract.messages",
    "Candidate": "extract.base",
    "Extractor": "extract.base",
    "ObserveReport": "pipeline",
    "Recalled": "recall",
    "ReflectReport": "reflect",
    "ClearReport": "manage",
    "ConfigFileError": "errors",
    "Conversation": "extract.messages",
    "read_conversations": "extract.formats",
    "SetupResult": "hosts",
    "setup_host": "hosts",
    "MergeResult": "gitmerge",
    "merge_notes": "gitmerge",
    "setup_git": "gitdriver",
    "EditReport": "manage",
    "ClaudeCodeSession": "extract.claude_code",
    "read_claude_code": "extract.claude_code",
    "HookResult": "hooks",
    "run_hook": "hooks",
    "clean_text": "sanitize",
    "find_secrets": "extract.secrets",
    "redact": "extract.secrets",
    "ExtractorError": "errors",
    "LLMExtractor": "extract.llm",
}

__all__ = [
    "Candidate",
    "ClaudeCodeSession",
    "ClearReport",
    "ConfigFileError",
    "Conversation",
    "DoctorReport",
    "EditReport",
    "Evidence",
    "Extractor",
    "ExtractorError",
    "Hit",
    "IndexCorruptError",
    "HookResult",
    "IndexError_",
    "IndexNotOpenError",
    "IndexReadOnlyError",
    "InvalidNoteError",
    "LLMExtractor",
    "Memory",
    "MemoryRow",
    "MemoryStore",
    "MemoryType",
    "MergeResult",
    "Message",
    "LearnerRunningError",
    "NotFoundError",
    "NoteChangedError",
    "NoteHeldError",
    "NoteError",
    "ObserveReport",
    "ParsedNote",
    "QueryError",
    "Recalled",
    "ReflectReport",
    "SetupResult",
    "SecretError",
    "Status",
    "StoredMemory",
    "SyncReport",
    "TotaError",
    "ValidationError",
    "Vault",
    "VaultError",
    "WriteError",
    "__version__",
    "clean_text",
    "default_vault_path",
    "merge_notes",
    "parse_note",
    "patch_frontmatter",
    "read_conversations",
    "find_secrets",
    "redact",
    "render_note",
    "setup_host",
    "setup_git",
    "read_claude_code",
    "run_hook",
    "tota_home",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tota_vault' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
    from .doctor import DoctorReport
    from .errors import (
        ConfigFileError,
        ExtractorError,
        IndexCorruptError,
        IndexError_,
        IndexNotOpenError,
        IndexReadOnlyError,
        InvalidNoteError,
        LearnerRunningError,
        NoteChangedError,
        NoteError,
        NoteHeldError,
        NotFoundError,
        QueryError,
        SecretError,
        TotaError,
        ValidationError,
        VaultError,
        WriteError,
    )
    from .extract.base import Candidate, Extractor
    from .extract.claude_code import ClaudeCodeSession, read_claude_code
    from .extract.formats import read_conversations
    from .extract.llm import LLMExtractor
    from .extract.messages import Conversation, Message
    from .extract.secrets import find_secrets, redact
    from .gitdriver import setup_git
    from .gitmerge import MergeResult, merge_notes
    from .hooks import HookResult, run_hook
    from .hosts import SetupResult, setup_host
    from .index import Hit
    from .manage import ClearReport
    from .model import Evidence, Memory, MemoryType, Status
    from .notes import ParsedNote, parse_note, patch_frontmatter, render_note
    from .paths import default_vault_path, tota_home
    from .pipeline import ObserveReport
    from .recall import Recalled
    from .reflect import ReflectReport
    from .rows import MemoryRow
    from .sanitize import clean_text
    from .store import MemoryStore, StoredMemory
    from .sync import SyncReport
    from .vault import Vault
