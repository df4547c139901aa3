"""How tota tells its own writes from a person's edits, on any machine.

Every note tota writes carries a `digest` property: a hash of the note's text without that
line. The digest travels with the file, through `git pull`, Syncthing or a backup, so any clone
can check it without having seen the write:

* the digest matches: the bytes are exactly what tota wrote (its own write, here or elsewhere);
* the digest does not match: someone changed the note after tota wrote it, a hand edit;
* there is no digest: a note a person wrote (or one from before digests); a change to such a
  note, once it is indexed, is a hand edit too, since tota would have added a digest.

An index-only record of "hashes we wrote" cannot do this: the clone that receives a note by
`git pull` never saw the write. Line endings and a BOM are normalised before hashing, so a
checkout that converts LF to CRLF is not an edit.

What a hand edit changes (a pure decision, `hand_edit_changes`): `evidence: manual`, `updated`
and `confirmed` set to now (a person's own words confirm the memory and restart its decay
clock), and the confidence raised to at least `MANUAL_CONFIDENCE` unless the person set the
confidence in that very edit. The note is then sealed again, so the next edit is seen too.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from enum import StrEnum
from typing import Any

from .model import MANUAL_CONFIDENCE, Evidence, Memory
from .notes import key_spans, locate_frontmatter, patch_frontmatter, render_fields, render_note

__all__ = [
    "DIGEST_KEY",
    "MANUAL_CONFIDENCE",
    "SealState",
    "content_digest",
    "hand_edit_changes",
    "render_sealed",
    "seal",
    "seal_state",
]

DIGEST_KEY = "digest"

_DIGEST_LINE = re.compile(r"^digest:[^\n]*\n", re.MULTILINE)


class SealState(StrEnum):
    """What a note's digest says about who wrote its current bytes."""

    SEALED = "sealed"  # exactly as tota wrote it
    BROKEN = "broken"  # changed after tota wrote it
    UNSEALED = "unsealed"  # no digest at all


def _split(text: str) -> tuple[str, str] | None:
    """(frontmatter up to its closing fence, the rest) of a normalised note, or None."""
    located = locate_frontmatter(text)
    if located is None:
        return None
    return text[: located[1]], text[located[1] :]


def _normal(text: str) -> str:
    return text.removeprefix("\ufeff").replace("\r\n", "\n")


def content_digest(text: str) -> str:
    """The digest of a note's text, ignoring its own `digest` line, BOM and line endings."""
    normal = _normal(text)
    parts = _split(normal)
    if parts is not None:
        normal = _DIGEST_LINE.sub("", parts[0]) + parts[1]
    return _digest_of(normal)


def _digest_of(unsealed: str) -> str:
    """The digest value of a note's normalised text without its digest line."""
    return "sha256:" + hashlib.sha256(unsealed.encode("utf-8")).hexdigest()[:24]


def _stored_digest(text: str) -> str | None:
    parts = _split(_normal(text))
    if parts is None:
        return None
    match = re.search(r"^digest:[ \t]*(.*?)[ \t]*$", parts[0], re.MULTILINE)
    if match is None:
        return None
    value = match.group(1)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value


def seal_state(text: str) -> SealState:
    """Say whether a note is exactly as tota wrote it, changed since, or never sealed."""
    stored = _stored_digest(text)
    if stored is None:
        return SealState.UNSEALED
    return SealState.SEALED if stored == content_digest(text) else SealState.BROKEN


def seal(text: str) -> str:
    """Set the note's `digest` line to the digest of the rest of it (a surgical patch)."""
    return _seal_in_place(text) or _seal_by_patch(text)


def _seal_by_patch(text: str) -> str:
    # One plain scalar line at the end of a frontmatter tota has just read or patched: the
    # read-back check would parse the note twice more for nothing on every write.
    return patch_frontmatter(text, {DIGEST_KEY: content_digest(text)}, verify=False)


def _seal_in_place(text: str) -> str | None:
    """What `_seal_by_patch` gives, for the layout tota writes, without splitting the
    frontmatter into keys: LF text, no BOM, at most one mention of `digest` in the
    frontmatter, and that one its own one-line key. None for anything else (the patch
    decides). Every note tota writes or patches is sealed, so this runs once per write;
    tests/test_properties.py holds it to the patch."""
    if "\r" in text or text.startswith("\ufeff"):
        return None
    located = locate_frontmatter(text)
    if located is None:
        return None
    fence = located[1]
    head, rest = text[:fence], text[fence:]
    mentions = head.count(DIGEST_KEY)
    if mentions == 0:  # a new key goes at the end of the frontmatter
        return head + render_fields({DIGEST_KEY: _digest_of(text)}) + rest
    start = head.find(f"\n{DIGEST_KEY}:") + 1
    if mentions > 1 or start == 0 or head[start + len(DIGEST_KEY) + 1] not in " \t\n":
        return None
    end = head.index("\n", start) + 1
    after = head[end : head.find("\n", end) + 1]
    if after and after != "\n" and not after.startswith("#") and not key_spans([after]):
        return None  # the next line may belong to the digest's value: the patch knows
    digest = _digest_of(head[:start] + head[end:] + rest)
    return head[:start] + render_fields({DIGEST_KEY: digest}) + head[end:] + rest


def render_sealed(memory: Memory) -> str:
    """Render a memory as tota writes it, with its digest as the last property."""
    return seal(render_note(memory))


def hand_edit_changes(
    memory: Memory,
    *,
    previous_confidence: float | None,
    at: datetime,
) -> dict[str, Any]:
    """The frontmatter changes that record a hand edit (see the module docstring)."""
    stamp = at.replace(microsecond=0)
    changes: dict[str, Any] = {
        "evidence": Evidence.MANUAL.value,
        "updated": stamp,
        "confirmed": stamp,
    }
    person_set_confidence = (
        previous_confidence is not None and abs(previous_confidence - memory.confidence) > 1e-9
    )
    if not person_set_confidence and memory.confidence < MANUAL_CONFIDENCE:
        changes["confidence"] = MANUAL_CONFIDENCE
    return changes
