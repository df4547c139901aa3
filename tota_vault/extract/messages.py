"""A conversation as tota reads it: a list of messages, whatever format it came in."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

__all__ = ["NOT_IN_AN_ID", "Conversation", "Message", "fallback_conversation_id", "take_opening"]


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

    def __post_init__(self) -> None:
        # A message's id comes from its transcript (or its caller), never the person: a line
        # break in it becomes a "-" (`.tota-forgotten` holds one source a line). A "#" stays:
        # a source splits at its first "#", and the conversation id holds none, so sources
        # learned and forgotten before are still the same sources.
        if isinstance(self.id, str) and LINE_BREAKS.search(self.id):
            object.__setattr__(self, "id", LINE_BREAKS.sub("-", self.id))

    @property
    def speaker(self) -> str:
        """Who said it: the name when there is one, else the role."""
        return self.name or self.role


#: What a conversation id cannot hold: a memory's source is `<conversation>#<message id>`, so
#: a "#" would read as two ids, and a line break (any that `str.splitlines` splits at:
#: `.tota-forgotten` holds one source a line) makes no name and splits a forgotten source.
NOT_IN_AN_ID = re.compile("[#\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
#: The line breaks of `NOT_IN_AN_ID`, all a message id cannot hold (see `Message`).
LINE_BREAKS = re.compile("[\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


@dataclass(frozen=True)
class Conversation:
    """One conversation of a file: its id, its messages, and its title when it has one.

    `id` is the transcript's own id (a ChatGPT conversation id, a Claude.ai uuid, a session
    id) when the format carries one; otherwise `fallback_conversation_id` made it from the
    opening messages. A memory cites `<id>#<message id>`, and the pipeline skips a
    message whose source a memory already cites, so the id must tell conversations apart.
    """

    id: str
    messages: list[Message] = field(default_factory=list)
    title: str | None = None

    def __post_init__(self) -> None:
        # A transcript's own id is not the person's to choose: what a source cannot hold in
        # it becomes a "-" ("export#2" is "export-2"; an id given by hand with it is refused
        # instead, `pipeline.check_conversation_id`).
        if NOT_IN_AN_ID.search(self.id):
            object.__setattr__(self, "id", NOT_IN_AN_ID.sub("-", self.id))


#: What a conversation's fallback id is made from: its first `OPENING_MESSAGES` messages, and
#: more while they hold fewer than `OPENING_CHARACTERS` characters of text, up to
#: `MAX_OPENING_MESSAGES`. Enough that two different chats almost never open alike (small talk
#: such as "hey" / "Hi! What can I do for you?" / "quick question" is not: two chats that
#: opened so were one id, and the second's facts were skipped as already observed), few
#: enough that a log that grows keeps its id.
OPENING_MESSAGES = 3
OPENING_CHARACTERS = 200
MAX_OPENING_MESSAGES = 12


def take_opening(messages: Iterable[Message]) -> list[Message]:
    """The messages a fallback id is made from, taken from the front of `messages` (an
    iterator keeps the rest)."""
    opening: list[Message] = []
    characters = 0
    for message in messages:
        opening.append(message)
        characters += len(message.content.strip())
        if len(opening) >= MAX_OPENING_MESSAGES or (
            len(opening) >= OPENING_MESSAGES and characters >= OPENING_CHARACTERS
        ):
            break
    return opening


def fallback_conversation_id(messages: list[Message]) -> str:
    """An id for a conversation that has none of its own: `chat-<digest of its opening>`.

    It comes from the conversation, never from the file it was saved in: the same chat saved
    as `chat.txt` and `chat (1).txt`, or piped in, is one conversation, learned once; two
    chats both saved as `chat.txt` open differently and are two. The digest covers the role,
    speaker, text and time of the opening messages (`take_opening`): the same conversation
    read again (the same file, the same chat in another format, or the same log after more
    was appended to it) keeps its id, so learning it twice changes nothing, while two chats
    that open differently never collide. A log read while its opening is still shorter than
    that gets a new id once it is complete; name such a log with `--conversation-id` (or
    `Vault.observe(conversation_id=...)`).
    """
    canonical = json.dumps(
        [
            [m.role, m.name, m.content, m.timestamp.isoformat() if m.timestamp else None]
            for m in take_opening(messages)
        ],
        ensure_ascii=False,
    )
    # Text is cleaned where it enters the pipeline, after this: a lone surrogate (half an
    # emoji in a JSON file) must not make the id impossible to compute.
    digest = hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"chat-{digest}"
