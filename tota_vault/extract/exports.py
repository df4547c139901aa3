"""Read the data exports of chat apps: ChatGPT's and Claude.ai's `conversations.json`.

Both are one JSON file that holds *many* conversations, each with its own id, so they come out
as a list of `Conversation`s, each learned under its own id (never under the file's name).

**ChatGPT** (Settings > Data controls > Export data): a list of conversations, each with `id`
(and the same value as `conversation_id`), `title`, `create_time` (epoch seconds), `mapping`
and `current_node`. `mapping` is a tree of nodes `{id, message, parent, children}`: every edit
of a prompt and every regenerated reply starts a branch, and `current_node` is the leaf of the
branch the person last saw. That branch, followed from `current_node` back through `parent`
to the root, is the conversation; the abandoned branches are not read. A node's `message` has
`author.role` (user, assistant, system, tool), `content` (`content_type` and `parts`),
`create_time`, `recipient` and `metadata`. Kept: user and assistant messages whose content is
`text`, the text parts of `multimodal_text` (an image's pointer is skipped, a voice message's
transcription kept), and assistant messages meant for the person (`recipient` "all").
Skipped: system and tool messages, messages hidden from the conversation
(`metadata.is_visually_hidden_from_conversation`: the custom instructions, the system prompt),
assistant messages addressed to a tool, and content that is no prose (`code`,
`execution_output`, `thoughts`, `reasoning_recap`, browsing displays, ...).

**Claude.ai** (Settings > Privacy > Export data): a list of conversations, each with `uuid`,
`name`, `created_at` and `chat_messages`, a list of `{uuid, sender: human|assistant, text,
content: [{type, text}], created_at, attachments, files}`. The text is the `text` blocks of
`content` (tool use, tool results and thinking are skipped), or `text` when there is no
`content`. Attached files are not the person's words and are not read. Where the messages
carry `parent_message_uuid` and the conversation names its `current_leaf_message_uuid`, the
branch that ends there is read, as for ChatGPT; otherwise the list order is the conversation.

Every error is a `ValidationError` of one line naming the source and the conversation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ValidationError
from .formats import _json_time, _kind
from .messages import Conversation, Message

__all__ = ["EXPORT_FORMATS", "detect_export", "read_export"]

#: The export formats, by the name `tota extract --format` takes.
EXPORT_FORMATS = ("chatgpt", "claude-ai")

#: ChatGPT content types whose parts are prose someone wrote or said.
CHATGPT_TEXT_TYPES = frozenset({"text", "multimodal_text"})
#: Part types inside `multimodal_text` that carry words (a voice message's transcription).
CHATGPT_TEXT_PART_TYPES = frozenset({"text", "audio_transcription"})
#: ChatGPT author roles, mapped to tota's; the others (system, tool) are never read.
CHATGPT_ROLES = {"user": "user", "assistant": "assistant"}
#: Claude.ai senders, mapped to tota's roles.
CLAUDE_SENDERS = {"human": "user", "user": "user", "assistant": "assistant"}


def detect_export(data: Any) -> str | None:
    """`chatgpt`, `claude-ai`, or None: which export the parsed JSON `data` is, by its shape.

    A list of conversation objects (or one conversation object, or `{"conversations": [...]}`)
    with a `mapping` is ChatGPT's; with `chat_messages`, Claude.ai's. Chat message lists never
    carry these keys.
    """
    data = _unwrap(data)
    first = data[0] if isinstance(data, list) and data else data
    if not isinstance(first, dict):
        return None
    if "mapping" in first:
        return "chatgpt"
    if "chat_messages" in first:
        return "claude-ai"
    return None


def read_export(
    data: Any, format: str, *, source: str, problems: list[str] | None = None
) -> list[Conversation]:
    """Read a parsed export into its conversations, in the file's order.

    Conversations with no message to read (an empty chat, one of only tool calls) are left
    out. A conversation that cannot be read raises `ValidationError` naming the source and
    the conversation; or, when `problems` is given, is left out and that line appended to it
    (one bad record of a thousand-conversation export does not lose the other 999).
    """
    readers: dict[str, Callable[[dict[str, Any], int], Conversation]] = {
        "chatgpt": _chatgpt_conversation,
        "claude-ai": _claude_conversation,
    }
    reader = readers[format]
    data = _unwrap(data)
    items = data if isinstance(data, list) else [data]
    conversations = []
    for position, item in enumerate(items, start=1):
        try:
            conversation = _read_one(reader, item, position, source)
        except ValidationError as exc:
            if problems is None:
                raise
            problems.append(str(exc))
            continue
        if conversation.messages:
            conversations.append(conversation)
    return conversations


def _read_one(
    reader: Callable[[dict[str, Any], int], Conversation], item: Any, position: int, source: str
) -> Conversation:
    where = f"conversation {position}"
    if not isinstance(item, dict):
        raise ValidationError(f"{source}: {where}: expected an object, got {_kind(item)}")
    label = item.get("id") or item.get("uuid")
    if isinstance(label, str) and label:
        where += f" ({label})"
    try:
        return reader(item, position)
    except ValueError as exc:
        raise ValidationError(f"{source}: {where}: {exc}") from None


def _unwrap(data: Any) -> Any:
    """The conversations of `{"conversations": [...]}`, as some export tools wrap them."""
    if isinstance(data, dict) and isinstance(data.get("conversations"), list):
        return data["conversations"]
    return data


# --- ChatGPT ---------------------------------------------------------------------------------


def _chatgpt_conversation(item: dict[str, Any], position: int) -> Conversation:
    conversation_id = _text(item.get("conversation_id"), "conversation_id") or _text(
        item.get("id"), "id"
    )
    if conversation_id is None:
        raise ValueError("no id or conversation_id")
    mapping = item.get("mapping")
    if not isinstance(mapping, dict):
        raise ValueError(f"mapping is {_kind(mapping)} (expected an object of nodes)")
    started = _time(item.get("create_time"), "create_time")
    messages = []
    for node_id in _chatgpt_branch(mapping, item.get("current_node")):
        node = mapping[node_id]
        message = node.get("message") if isinstance(node, dict) else None
        if not isinstance(message, dict):
            continue  # the root, or a node without a message
        read = _chatgpt_message(message, node_id, default_time=started)
        if read is not None:
            messages.append(read)
    return Conversation(conversation_id, messages, title=_title(item.get("title")))


def _chatgpt_branch(mapping: dict[str, Any], current: Any) -> list[str]:
    """The node ids from the root to `current`, following `parent` back (cycles cut).

    Without a usable `current_node`, the leaf last in the file's order stands in for it (the
    export writes nodes as they were created).
    """
    if not isinstance(current, str) or current not in mapping:
        leaves = [
            key
            for key, node in mapping.items()
            if isinstance(node, dict) and not node.get("children")
        ]
        if not leaves:
            return []
        current = leaves[-1]
    path: list[str] = []
    seen: set[str] = set()
    node_id: Any = current
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        path.append(node_id)
        node = mapping[node_id]
        node_id = node.get("parent") if isinstance(node, dict) else None
    path.reverse()
    return path


def _chatgpt_message(message: dict[str, Any], node_id: str, *, default_time: Any) -> Message | None:
    """One kept message of a ChatGPT node, or None for what the module docstring skips."""
    author = message.get("author")
    raw_role = author.get("role") if isinstance(author, dict) else None
    role = CHATGPT_ROLES.get(raw_role) if isinstance(raw_role, str) else None
    metadata = message.get("metadata")
    if role is None or (
        isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation")
    ):
        return None
    if role == "assistant" and message.get("recipient", "all") != "all":
        return None  # a call addressed to a tool (browser, python), not a reply
    content = message.get("content")
    if not isinstance(content, dict) or content.get("content_type") not in CHATGPT_TEXT_TYPES:
        return None
    parts = content.get("parts")
    if not isinstance(parts, list):
        return None
    texts = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif (
            isinstance(part, dict)
            and part.get("content_type") in CHATGPT_TEXT_PART_TYPES
            and isinstance(part.get("text"), str)
        ):
            texts.append(part["text"])
    text = "\n".join(t for t in texts if t.strip()).strip()
    if not text:
        return None
    message_id = _text(message.get("id"), "message id") or node_id
    when = _time(message.get("create_time"), "create_time") or default_time
    return Message(role=role, content=text, id=message_id, timestamp=when)


# --- Claude.ai -------------------------------------------------------------------------------


def _claude_conversation(item: dict[str, Any], position: int) -> Conversation:
    conversation_id = _text(item.get("uuid"), "uuid")
    if conversation_id is None:
        raise ValueError("no uuid")
    raw = item.get("chat_messages")
    if not isinstance(raw, list):
        raise ValueError(f"chat_messages is {_kind(raw)} (expected a list)")
    started = _time(item.get("created_at"), "created_at")
    messages = []
    for number, entry in enumerate(_claude_branch(raw, item.get("current_leaf_message_uuid")), 1):
        if not isinstance(entry, dict):
            raise ValueError(f"message {number} is {_kind(entry)} (expected an object)")
        try:
            read = _claude_message(entry, number, default_time=started)
        except ValueError as exc:
            raise ValueError(f"message {number}: {exc}") from None
        if read is not None:
            messages.append(read)
    return Conversation(conversation_id, messages, title=_title(item.get("name")))


def _claude_branch(raw: list[Any], leaf: Any) -> list[Any]:
    """The messages of the branch ending at `leaf`, when the export says which; else all."""
    by_id = {m.get("uuid"): m for m in raw if isinstance(m, dict) and m.get("uuid")}
    if not isinstance(leaf, str) or leaf not in by_id:
        return raw
    branch: list[Any] = []
    seen: set[str] = set()
    current: Any = leaf
    while isinstance(current, str) and current in by_id and current not in seen:
        seen.add(current)
        branch.append(by_id[current])
        current = by_id[current].get("parent_message_uuid")
    branch.reverse()
    return branch


def _claude_message(entry: dict[str, Any], number: int, *, default_time: Any) -> Message | None:
    role = CLAUDE_SENDERS.get(str(entry.get("sender", "")).lower())
    if role is None:
        return None
    blocks = entry.get("content")
    if isinstance(blocks, list) and blocks:
        texts = [
            block["text"]
            for block in blocks
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        ]
    else:
        texts = [entry["text"]] if isinstance(entry.get("text"), str) else []
    text = "\n".join(t for t in texts if t.strip()).strip()
    if not text:
        return None
    message_id = _text(entry.get("uuid"), "uuid") or str(number)
    when = _time(entry.get("created_at"), "created_at") or default_time
    return Message(role=role, content=text, id=message_id, timestamp=when)


# --- shared ----------------------------------------------------------------------------------


def _time(value: Any, key: str) -> Any:
    """A time as the JSON reader takes it (ISO text or epoch seconds); None when absent."""
    return _json_time(value, key=key)


def _text(value: Any, key: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, dict | list):
        raise ValueError(f"{key} is {_kind(value)} (expected text)")
    return str(value).strip() or None


def _title(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return value.strip() or None
