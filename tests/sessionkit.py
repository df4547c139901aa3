"""Build Claude Code session transcripts for tests, line by line, in Claude Code's own shape.

Each call appends one JSONL line the way Claude Code 2.x writes them: `parentUuid` chaining,
`sessionId`, `timestamp` (UTC, milliseconds, `Z`), `cwd`, `version`, `userType`, and an
assistant response split into one line per content block sharing its `message.id`.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SESSION_ID = "5b1f6a38-2c4e-4d7a-9f0e-8d6c2a1b3e47"


class SessionWriter:
    """A growing transcript: `user`, `assistant`, `tool_round` ... then `text()` or `write()`."""

    def __init__(self, session_id: str = SESSION_ID, start: datetime | None = None) -> None:
        self.session_id = session_id
        self.lines: list[dict[str, Any]] = []
        self.parent: str | None = None
        self.clock = start or datetime(2026, 11, 30, 9, 0, 0, tzinfo=UTC)
        self._count = 0
        self._responses = 0

    # --- plumbing ------------------------------------------------------------------------

    def new_uuid(self) -> str:
        self._count += 1
        return str(uuid.UUID(int=(0x7E57 << 96) + self._count))

    def _stamp(self) -> str:
        self.clock += timedelta(seconds=7)
        return self.clock.strftime("%Y-%m-%dT%H:%M:%S.") + "123Z"

    def line(self, kind: str, *, parent: str | None = "chain", **fields: Any) -> str:
        """Append a chain line of `kind`; returns its uuid. `parent` defaults to the last line."""
        uid = self.new_uuid()
        record: dict[str, Any] = {
            "parentUuid": self.parent if parent == "chain" else parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/ana/projects/fares",
            "sessionId": self.session_id,
            "version": "2.1.50",
            "gitBranch": "main",
            "type": kind,
            "uuid": uid,
            "timestamp": self._stamp(),
        }
        record.update(fields)
        self.lines.append(record)
        if not record.get("isSidechain"):
            self.parent = uid
        return uid

    def meta(self, kind: str, **fields: Any) -> None:
        """A metadata line (no uuid): summary, file-history-snapshot, custom-title..."""
        self.lines.append({"type": kind, **fields})

    # --- conversation ----------------------------------------------------------------------

    def user(self, content: str | list[dict[str, Any]], **fields: Any) -> str:
        return self.line("user", message={"role": "user", "content": content}, **fields)

    def assistant(self, *blocks: dict[str, Any], **fields: Any) -> list[str]:
        """One response; each content block becomes its own line, sharing the message id."""
        self._responses += 1
        msg_id = f"msg_01TEST{self._responses:06d}"
        uids = []
        for block in blocks:
            message = {
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [block],
                "stop_reason": None,
                "usage": {"input_tokens": 10, "output_tokens": 5},
            }
            uids.append(self.line("assistant", message=message, requestId="req_1", **fields))
        return uids

    def say(self, text: str, **fields: Any) -> list[str]:
        """An assistant response of one text block."""
        return self.assistant(text_block(text), **fields)

    def tool_round(self, name: str = "Bash", output: str = "ok", **fields: Any) -> None:
        """An assistant tool call and the user-typed tool result that answers it."""
        call_id = f"toolu_{self._count:04d}"
        self.assistant(
            {"type": "tool_use", "id": call_id, "name": name, "input": {"command": "ls"}},
            **fields,
        )
        self.user(
            [{"type": "tool_result", "tool_use_id": call_id, "content": output}],
            toolUseResult={"stdout": output},
            **fields,
        )

    # --- output ----------------------------------------------------------------------------

    def text(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), "utf-8")
        return path


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def thinking_block(text: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": text, "signature": "c2ln"}
