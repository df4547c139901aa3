"""Read a Claude Code session transcript (`~/.claude/projects/<project>/<session>.jsonl`).

Claude Code writes one JSON object a line while a session runs. The lines that make up the
conversation (`user`, `assistant`, `system`, `attachment`, `progress`) carry a `uuid` and the
`parentUuid` of the line before them; others (`summary`, `file-history-snapshot`, titles, tags)
are metadata. The format is internal and changes between versions, so this reader is lenient:
a line that is not JSON is counted and skipped, a last line cut short (the file is being
written) is ignored, a line type it does not know is counted and skipped.

What becomes a `Message`:

- The **main thread**, as Claude Code itself rebuilds it: from the newest line that ends a
  branch and is not a side chain (a subagent's `isSidechain` lines), a team line or a meta
  line, walk `parentUuid` back to the root. (Unlike the Agent SDK's reader, a branch that ends
  on meta lines, such as a command's caveat, counts from its last line before them.) Messages
  a person rewound and edited live on other branches and are left out, as are subagents'
  conversations.
- **The person's words**: a user line's `content` string, or its `text` blocks, and a message
  typed while Claude was still working (an `attachment` line of type `queued_command`). Tool
  results, images, meta lines (`isMeta`: caveats, injected context), slash-command echoes
  (`<command-name>`, `<local-command-stdout>`, `! cmd` shell lines) and "[Request interrupted
  by user]" are not the person speaking and are dropped; `<system-reminder>` and IDE selection
  blocks inside a message are cut out of it.
- **The assistant's words**, as `assistant` messages: only their `text` blocks (never
  `thinking` or `tool_use`). The extractor learns from user messages only; an assistant message
  is there as the question a person's answer replies to. Claude Code writes one line per
  content block of a response, so consecutive lines of one response (same `message.id`) become
  one message.
- **Compaction.** When a session is compacted, Claude Code starts a new chain at a
  `compact_boundary` line (no `parentUuid`, a `logicalParentUuid` pointing at the last line
  before it) followed by an `isCompactSummary` user message: a summary the model wrote, which
  replaces the earlier history in the model's context. For *learning* that is backwards: the
  summary is not the person's words, and the person's real words before it are still in the
  file. So the reader drops the summary and follows `logicalParentUuid` through the boundary,
  keeping the earlier history, when the file still holds it.

Each message's id is its line's `uuid`, its time the line's `timestamp` (UTC, turned into
naive local time as notes store it). The conversation id is the transcript's own, never the
file name: `session_id` is the `sessionId` of the thread's newest line (the session now
running), and `session_of` keeps each message's own line's `sessionId`. They differ in a
resumed session: `claude --resume` may start a new session (a new id and file) that carries
the earlier lines over, and a memory learned from one of those lines already cites it as
`<earlier session id>#<uuid>`; citing it by the line's own id is what lets the pipeline see it
was learned.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..model import parse_date
from .messages import Message

__all__ = ["ClaudeCodeSession", "looks_like_claude_code", "read_claude_code", "session_id_of"]

#: Line types that carry `uuid`/`parentUuid` and make up the conversation's tree.
CHAIN_TYPES = frozenset({"user", "assistant", "system", "attachment", "progress"})
#: Metadata line types Claude Code writes beside the conversation; skipped without comment.
METADATA_TYPES = frozenset(
    {
        "summary",
        "file-history-snapshot",
        "custom-title",
        "ai-title",
        "tag",
        "queue-operation",
        "agent-name",
        "last-prompt",
        "permission-mode",
        "mode",
    }
)
#: How many leading lines the detector looks at: a session opens with a few metadata lines.
DETECT_LINES = 20

# A user line that echoes a slash command, its output, a `!` shell command, or an interrupt:
# Claude Code's doing, not the person speaking.
_NOT_SPOKEN_RE = re.compile(
    r"^\s*(?:<(?:command-name|command-message|command-args|local-command-stdout|"
    r"local-command-stderr|bash-input|bash-stdout|bash-stderr)>"
    r"|\[Request interrupted by user)"
)
# Blocks Claude Code puts inside a user's message that the person did not type.
_INJECTED_RE = re.compile(
    r"<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>.*?</\1>\s*", re.DOTALL
)


@dataclass
class ClaudeCodeSession:
    """A session transcript as tota reads it: the main thread's messages and what was skipped.

    `messages` hold user and assistant text in order; `skipped` counts lines left out by
    reason (`tool result`, `meta`, `compact summary`, `side chain`...); `broken` counts lines
    that are not JSON objects, `unknown` lines of a type this reader does not know, and
    `truncated` says the last line was cut short (Claude Code was still writing it).
    """

    session_id: str | None
    messages: list[Message] = field(default_factory=list)
    session_of: dict[str, str] = field(default_factory=dict)  # message id -> its line's session
    skipped: Counter[str] = field(default_factory=Counter)
    broken: int = 0
    unknown: int = 0
    truncated: bool = False

    def problems(self, source: str) -> str | None:
        """One line naming what the reader could not read, or None when it read everything."""
        parts = []
        if self.broken:
            parts.append(f"{self.broken} line(s) not JSON, skipped")
        if self.unknown:
            parts.append(f"{self.unknown} line(s) of an unknown type, skipped")
        if self.truncated:
            parts.append("the last line is incomplete (still being written), ignored")
        return f"{source}: " + "; ".join(parts) if parts else None

    def conversations(self, only: set[str] | None = None) -> list[tuple[str, list[Message]]]:
        """The person's messages (all, or those whose ids are in `only`) by the session their
        line belongs to, first-seen session first: `(session id, messages)`, each message of
        the person's after the assistant message it answered (the extractor's reply context).
        """
        fallback = self.session_id or ""
        groups: dict[str, list[Message]] = {}
        for position, message in enumerate(self.messages):
            if message.role != "user" or (only is not None and message.id not in only):
                continue
            group = groups.setdefault(self.session_of.get(message.id, fallback), [])
            before = self.messages[position - 1] if position else None
            if (
                before is not None
                and before.role == "assistant"
                and (not group or group[-1] is not before)
            ):
                group.append(before)
            group.append(message)
        return list(groups.items())


def _loads(line: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def looks_like_claude_code(text: str) -> bool:
    """Whether `text` is a Claude Code session: among its first lines, a conversation line
    (`type` user or assistant) with a `uuid`, a `sessionId` and a `message` object."""
    for count, line in enumerate(text.splitlines()):
        if count >= DETECT_LINES:
            break
        obj = _loads(line) if line.strip() else None
        if (
            isinstance(obj, dict)
            and obj.get("type") in ("user", "assistant")
            and isinstance(obj.get("uuid"), str)
            and isinstance(obj.get("sessionId"), str)
            and isinstance(obj.get("message"), dict)
        ):
            return True
    return False


def _entries(text: str, session: ClaudeCodeSession) -> list[dict[str, Any]]:
    """The chain lines of the file, in file order; counts what it cannot use."""
    entries: list[dict[str, Any]] = []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        obj = _loads(line)
        if not isinstance(obj, dict):
            if number == len(lines) and not text.endswith("\n") and obj is None:
                session.truncated = True  # Claude Code appends whole lines; this one is mid-write
            else:
                session.broken += 1
            continue
        kind = obj.get("type")
        if kind in CHAIN_TYPES and isinstance(obj.get("uuid"), str):
            entries.append(obj)
        elif kind not in METADATA_TYPES:
            session.unknown += 1
    return entries


def _is_main(entry: dict[str, Any]) -> bool:
    return not (entry.get("isSidechain") or entry.get("teamName") or entry.get("isMeta"))


def _main_thread(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines of the main thread, root first (Claude Code's own reconstruction, plus the
    walk through compact boundaries described in the module docstring)."""
    by_uuid = {e["uuid"]: e for e in entries}
    position = {e["uuid"]: i for i, e in enumerate(entries)}
    parents = {e.get("parentUuid") for e in entries} | {e.get("logicalParentUuid") for e in entries}
    leaves: list[dict[str, Any]] = []
    fallbacks: list[dict[str, Any]] = []
    for terminal in (e for e in entries if e["uuid"] not in parents):
        # From each branch's end, back to its newest conversation line of the main thread: a
        # session that ends on a meta line (a command's caveat) still ends where it ends.
        current: dict[str, Any] | None = terminal
        seen: set[str] = set()
        while current is not None and current["uuid"] not in seen:
            seen.add(current["uuid"])
            # A message typed while Claude worked may be the file's last words (the reply to it
            # not written yet): it ends the branch as a user line would.
            if current.get("type") in ("user", "assistant") or _queued_prompt(current) is not None:
                if _is_main(current):
                    leaves.append(current)
                    break
                fallbacks.append(current)
            current = by_uuid.get(current.get("parentUuid") or "")
    candidates = leaves or fallbacks
    if not candidates:
        return []
    leaf = max(candidates, key=lambda e: position[e["uuid"]])
    chain: list[dict[str, Any]] = []
    seen = set()
    current = leaf
    while current is not None and current["uuid"] not in seen:
        seen.add(current["uuid"])
        chain.append(current)
        parent = current.get("parentUuid") or current.get("logicalParentUuid") or ""
        current = by_uuid.get(parent)
    chain.reverse()
    return chain


def _text_blocks(content: Any) -> tuple[str, bool]:
    """The text of a message's `content` (a string or blocks) and whether it had tool results."""
    if isinstance(content, str):
        return content, False
    if not isinstance(content, list):
        return "", False
    texts: list[str] = []
    tool = False
    for block in content:
        if isinstance(block, str):
            texts.append(block)
        elif isinstance(block, dict):
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif block.get("type") == "tool_result":
                tool = True
    return "\n".join(t for t in texts if t.strip()), tool


def _timestamp(entry: dict[str, Any]) -> datetime | None:
    try:
        return parse_date(entry["timestamp"]) if entry.get("timestamp") else None
    except (ValueError, TypeError):
        return None  # a line without a usable time still has its words


def _queued_prompt(entry: dict[str, Any]) -> Any:
    """The person's words of a message typed while Claude was still working, which Claude Code
    records as an `attachment` line of type `queued_command`; None for any other line."""
    attachment = entry.get("attachment")
    if entry.get("type") != "attachment" or not isinstance(attachment, dict):
        return None
    if attachment.get("type") != "queued_command":
        return None
    prompt = attachment.get("prompt")
    return prompt if isinstance(prompt, str | list) else None


def _note_session(session: ClaudeCodeSession, entry: dict[str, Any]) -> None:
    if isinstance(entry.get("sessionId"), str):
        session.session_of[entry["uuid"]] = entry["sessionId"]


def read_claude_code(text: str) -> ClaudeCodeSession:
    """Read a Claude Code session JSONL into its main thread's messages (see the module doc).

    Never raises for the file's content: what it cannot read is counted in the result, so a
    hook reading a transcript that is still being written gets every complete line.
    """
    text = text.removeprefix("\ufeff")
    session = ClaudeCodeSession(session_id=None)
    entries = _entries(text, session)
    chain = _main_thread(entries)
    ids = [e["sessionId"] for e in chain or entries if isinstance(e.get("sessionId"), str)]
    session.session_id = ids[-1] if ids else None
    session.skipped["side chain or other branch"] = sum(
        1 for e in entries if e.get("type") in ("user", "assistant")
    ) - sum(1 for e in chain if e.get("type") in ("user", "assistant"))
    response_id: str | None = None  # the `message.id` the last assistant message came from
    for entry in chain:
        kind = entry.get("type")
        queued = _queued_prompt(entry)
        if queued is not None:
            entry = {**entry, "message": {"role": "user", "content": queued}}
            kind = "user"
        if kind not in ("user", "assistant"):
            continue
        if entry.get("isMeta") or entry.get("isSidechain") or entry.get("teamName"):
            session.skipped["meta"] += 1
            continue
        if entry.get("isCompactSummary"):
            session.skipped["compact summary"] += 1
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            session.skipped["no message"] += 1
            continue
        content, had_tool = _text_blocks(message.get("content"))
        if kind == "user":
            response_id = None
            content = _INJECTED_RE.sub("", content).strip()
            if not content:
                session.skipped["tool result" if had_tool else "no text"] += 1
                continue
            if _NOT_SPOKEN_RE.match(content):
                session.skipped["command or interrupt"] += 1
                continue
            session.messages.append(
                Message("user", content, entry["uuid"], timestamp=_timestamp(entry))
            )
            _note_session(session, entry)
            continue
        content = content.strip()
        this_response = message.get("id") if isinstance(message.get("id"), str) else None
        if not content:
            continue  # thinking or tool_use only
        last = session.messages[-1] if session.messages else None
        if last is not None and last.role == "assistant" and response_id == this_response:
            # The next content block of the same response: one message, as the person saw it.
            session.messages[-1] = Message(
                "assistant", f"{last.content}\n\n{content}", last.id, timestamp=last.timestamp
            )
            continue
        response_id = this_response
        session.messages.append(
            Message("assistant", content, entry["uuid"], timestamp=_timestamp(entry))
        )
        _note_session(session, entry)
    if session.skipped["side chain or other branch"] == 0:
        del session.skipped["side chain or other branch"]
    return session


def session_id_of(text: str) -> str | None:
    """The session id of a Claude Code transcript (its conversation id), or None when `text`
    is not one: the id of the session its newest main-thread line belongs to."""
    if not looks_like_claude_code(text):
        return None
    return read_claude_code(text).session_id
