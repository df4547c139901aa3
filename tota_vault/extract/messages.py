"""A conversation as tota reads it: a list of messages, whatever format it came in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["Message"]


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
