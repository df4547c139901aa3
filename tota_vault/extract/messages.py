"""A conversation as tota reads it: a list of messages, whatever format it came in."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime

__all__ = ["Conversation", "Message", "fallback_conversation_id"]


@dataclass(frozen=True)
class Message:
    """One message of a conversation.

    `role` is `user`, `assistant`, `system` or `tool`. In a chat between people every speaker
    is a `user` and `name` says who (`Caroline`). `id` is the message's own id, or its 1-based
    position in the conversation when it has none, so a memory's source `<conversation>#<id>`
    always points back at it. `timestamp` (naive local time) anchors relative dates.
    """

    role: str
    content: str
    id: str
    name: str | None = None
    timestamp: datetime | None = None

    @property
    def speaker(self) -> str:
        """Who said it: the name when there is one, else the role."""
        return self.name or self.role


@dataclass(frozen=True)
class Conversation:
    """One conversation of a file: its id, its messages, and its title when it has one.

    `id` is the transcript's own id (a ChatGPT conversation id, a Claude.ai uuid, a session
    id) when the format carries one; otherwise `fallback_conversation_id` made it from the
    file's name and the messages. A memory cites `<id>#<message id>`, and the pipeline skips a
    message whose source a memory already cites, so the id must tell conversations apart.
    """

    id: str
    messages: list[Message] = field(default_factory=list)
    title: str | None = None


#: How many of a conversation's first messages its fallback id is made from: enough that two
#: different chats almost never open alike, few enough that a log that grows keeps its id.
OPENING_MESSAGES = 3

# Characters kept in the readable part of a fallback id: the rest become "-".
_UNSAFE_ID_CHARS = re.compile(r"[^\w.-]+")


def fallback_conversation_id(name: str, messages: list[Message]) -> str:
    """An id for a conversation that has none of its own: `<name>-<digest of its opening>`.

    The name alone (a file's stem) is not enough: two exports both called
    `conversations.json`, or two chats saved as `chat.txt`, would share every source
    `conversations#1`, `#2`... and the second would be skipped as "already observed", its
    memories silently lost. The digest covers the role, speaker, text and time of the first
    `OPENING_MESSAGES` messages: the same conversation read again (the same file, the same chat
    in another format, or the same log after more was appended to it) keeps its id, so learning
    it twice changes nothing, while two chats that open differently never collide. A log read
    while it still holds fewer messages than that gets a new id once it has them; name such a
    log with `--conversation-id` (or `Vault.observe(conversation_id=...)`).
    """
    canonical = json.dumps(
        [
            [m.role, m.name, m.content, m.timestamp.isoformat() if m.timestamp else None]
            for m in messages[:OPENING_MESSAGES]
        ],
        ensure_ascii=False,
    )
    # Text is cleaned where it enters the pipeline, after this: a lone surrogate (half an
    # emoji in a JSON file) must not make the id impossible to compute.
    digest = hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    readable = _UNSAFE_ID_CHARS.sub("-", name).strip("-.")[:60] or "chat"
    return f"{readable}-{digest}"
