"""`tota mcp`: the vault as an MCP server, for any assistant that speaks the Model Context Protocol.

A face over the library, like the CLI: each tool translates its arguments into one `Vault` call
(or `manage`'s) and the answer into MCP's form. The one thing decided here is what `remember`
stores when the assistant gives no scores: the pipeline's own numbers (`ASKED_CONFIDENCE`).
The only module that imports the `mcp` SDK (the optional extra `tota_vault[mcp]`), and only the
`tota mcp` command imports it, so no other command pays for the SDK's import.

    tools       recall, remember, learn, search, forget, confirm, pause, resume, overview
    resources   tota://memory/{id} (a note as on disk), tota://profile
    prompt      memory (the /memory menu inside a conversation)

Protocol facts this relies on (mcp 2.3): sync handlers run on a pool of worker threads, while a
SQLite connection belongs to the thread that opened it, so every vault call goes through one
thread of its own (`VaultThread`), opened in the server's lifespan. Stdout carries the protocol
alone; the SDK logs to stderr. A failing call is a tool error with one line, never the end of
the server: a library error keeps its message, and an argument that fails the schema is named
by its field and the rule it broke, never by its value (the value may be a secret the person
pasted).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import logging
import os
import re
import socket
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import anyio
import pydantic
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import (
    ResourceError,
    ResourceNotFoundError,
    ToolError,
    UnexpectedResourceError,
)
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from . import __version__, manage
from .errors import NotFoundError, TotaError, VaultError
from .extract.secrets import redact
from .manage import evidence_counts, status_counts, type_counts
from .model import MemoryType
from .notes import check_tags
from .recall import CANDIDATES, Recalled, context_block, quote_line
from .scoring import INFERRED_PENALTY, TYPE_SCORES
from .vault import Vault

__all__ = [
    "DEFAULT_PORT",
    "HOST",
    "INSTRUCTIONS",
    "VaultThread",
    "create_server",
    "listen_socket",
    "serve",
    "with_content_ids",
]

T = TypeVar("T")

#: `tota mcp --http` listens here unless `--port` says otherwise (on 127.0.0.1 only).
DEFAULT_PORT = 8765
#: The only address it listens on.
HOST = "127.0.0.1"
#: A memory the person asked the assistant to keep is as sure as the rule extractor's most
#: explicit cue ("remember that ...", "my name is"); one the assistant concluded is less so,
#: by the same penalty the pipeline gives an inferred statement (docs/learning.md).
ASKED_CONFIDENCE = 0.9
#: An id in a resource URI: a ULID or a prefix of one, nothing that could name a path.
_MEMORY_ID = re.compile(r"[0-9A-Za-z]{6,26}")

INSTRUCTIONS = """\
tota is this person's long-term memory: Markdown notes on their own disk that they can read,
edit and version. Use it on every turn:
1. Before you answer, call `recall` with their message; use what it returns (the memories are
   about the person, ranked, with their confidence) and do not mention the lookup.
2. After each of your replies, call `learn` with the new messages (theirs and yours, with a
   stable conversation_id): tota keeps what they said about themselves and skips the rest.
3. When they ask you to remember something, call `remember`; to forget something, find it with
   `recall` or `search` and call `forget` with its id; when they confirm a memory, `confirm`.
Never pass passwords, API keys or other secrets to `remember`. If they ask what you remember,
call `overview` (or `recall` about a topic). If they ask you to stop learning, call `pause`.
"""

# --- structured outputs (what hosts show as the tools' output schemas) -------------------------


class RecalledMemory(BaseModel):
    """One recalled memory."""

    id: str | None = Field(description="The memory's id (for confirm, forget, tota://memory/{id}).")
    type: str | None = Field(description="identity, preference, goal, project, habit, ...")
    text: str = Field(description="What the memory says.")
    confidence: float | None = Field(
        description="How sure tota is now, 0 to 1 (lowered by time since last confirmed)."
    )
    evidence: str | None = Field(
        description="direct (the person said it), inferred, manual (a person wrote or edited "
        "the note) or system."
    )
    updated: str | None = Field(description="When the memory last changed (local time).")
    sources: list[str] = Field(description="The messages it came from: conversation#message.")
    path: str = Field(description="The note's path in the vault (empty for a turn).")
    rank: int = Field(
        default=0, description="Its place in the list, 1 first: the order to read results in."
    )
    score: float = Field(
        description="Its own ranking's score for this message (memories and turns each have "
        "their own ranking). The list is the two rankings fused, and a memory also earns the "
        "rank of the turns it was learned from, so a lower score can rank higher: use `rank`."
    )
    kind: str = Field(
        default="memory",
        description="memory (something tota learned), or turn: the words of one message of a "
        "past conversation, quoted as said (no id, type or confidence; `sources` names it).",
    )
    speaker: str | None = Field(default=None, description="A turn's speaker (None for a memory).")
    role: str | None = Field(default=None, description="A turn's role: user or assistant.")


class RecallResult(BaseModel):
    """The memories for a message, best first."""

    memories: list[RecalledMemory]


class StoredResult(BaseModel):
    """A memory that was stored."""

    id: str = Field(description="The new memory's id.")
    path: str = Field(description="Its note's path in the vault.")
    type: str
    text: str


class LearnedOutcome(BaseModel):
    """What happened to one candidate memory."""

    action: Literal["create", "merge", "supersede", "keep", "skip"] = Field(
        description="create: a new note; merge: confirmed an existing memory; supersede: "
        "replaced a contradicted one; keep: the stored memory won over it; skip: not stored."
    )
    type: str
    text: str
    reason: str = Field(description="Why tota decided so.")
    source: str = Field(description="The message it came from: conversation#message.")
    path: str | None = Field(default=None, description="The note written or changed, if any.")
    confidence: float | None = None


class SkippedSentence(BaseModel):
    """A sentence the extractor read and did not propose (a question, small talk, a secret...)."""

    source: str
    text: str = Field(description="The sentence, with any secret redacted.")
    reason: str


class LearnResult(BaseModel):
    """The report of one `learn` call."""

    conversation_id: str
    paused: bool = Field(description="True when learning is paused: nothing was stored.")
    counts: dict[str, int] = Field(description="Candidates per action.")
    outcomes: list[LearnedOutcome]
    skipped_sentences: list[SkippedSentence]


class SearchHit(BaseModel):
    """One full-text match."""

    id: str | None = Field(description="The memory's id; null for a note that is not a memory.")
    path: str
    title: str
    type: str | None
    text: str | None
    confidence: float | None
    evidence: str | None
    status: str | None
    updated: str | None
    snippet: str = Field(description="Where it matched, matches in **bold**.")
    error: str | None = Field(description="Why the note is invalid, if it is.")


def _without_secrets(hit: SearchHit) -> SearchHit:
    """A match as the model may see it: a secret in a person's own note (`tota doctor` names
    it) redacted from its title, text and snippet, as recall redacts it (`vault.recall`)."""
    fields = {"title": hit.title, "text": hit.text, "snippet": hit.snippet}
    redacted = {k: redact(v) for k, v in fields.items() if v is not None}
    changed = {k: v for k, v in redacted.items() if v != fields[k]}
    return hit.model_copy(update=changed) if changed else hit


class SearchResult(BaseModel):
    """Full-text matches, best first."""

    hits: list[SearchHit]


class NoteResult(BaseModel):
    """The note a tool changed or removed."""

    path: str = Field(description="The note's path in the vault.")


class LearningState(BaseModel):
    """Whether tota learns from conversations."""

    learning: Literal["on", "paused"]


class Overview(BaseModel):
    """The memory as a whole."""

    vault: str = Field(description="Where the notes are.")
    memories: int = Field(description="Every memory, whatever its status.")
    by_type: dict[str, int] = Field(description="Every memory by type, whatever its status.")
    by_evidence: dict[str, int] = Field(description="Every memory by evidence kind.")
    active: int | None = Field(default=None, description="The memories recall uses.")
    by_status: dict[str, int] = Field(
        default_factory=dict, description="Memories by status: active, superseded, archived."
    )
    by_type_status: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="Memories by type, then status."
    )
    invalid: int = Field(description="Notes tota cannot read as memories (see `tota doctor`).")
    learning: Literal["on", "paused"]
    last_sync: str | None
    profile: list[str] = Field(description="The most important durable facts about the person.")
    turns: int = Field(default=0, description="Conversation turns kept for recall to quote.")
    conversations: int = Field(default=0, description="The conversations those turns are of.")
    turns_kept: Literal["on", "off"] = Field(
        default="on", description="Whether new turns are kept (tota.toml `[recall] turns`)."
    )


class ChatMessage(BaseModel):
    """One message of the conversation, as chat APIs send it."""

    role: Literal["user", "assistant", "system", "tool"] = Field(
        description="Who wrote it; in a chat between people every person is a user with a name."
    )
    content: str = Field(description="The message text.")
    name: str | None = Field(default=None, description="The speaker's name, if there are several.")
    timestamp: str | float | None = Field(
        default=None,
        description="When it was said (ISO 8601 or epoch seconds); anchors 'yesterday'.",
    )
    id: str | int | None = Field(
        default=None,
        description="The message's id; without one, an id made from its role, name and words "
        "is used. Learning the same messages again changes nothing, whether the whole "
        "conversation is sent again or only the new messages.",
    )


def with_content_ids(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages`, each without an id given one made from its role, name and words (and, for
    the second and later of the same message in one call, its count: "m<digest>-2").

    The library knows a message without an id by its position, which is right for a whole
    conversation but not here: the instructions ask the model to send only the new messages
    after each reply, so every call would start again at position 1 and be "already
    observed". An id from the words is the same however the conversation is sent: again
    whole, or only what is new. (A digest, not the words: an id is cited in every source.)"""
    seen: Counter[str] = Counter()
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.get("id") is None:
            said = "\x00".join([message["role"], message.get("name") or "", message["content"]])
            digest = hashlib.sha256(said.encode("utf-8", "surrogatepass")).hexdigest()[:12]
            seen[digest] += 1
            count = seen[digest]
            message = {**message, "id": f"m{digest}" + (f"-{count}" if count > 1 else "")}
        out.append(message)
    return out


# --- the vault's own thread --------------------------------------------------------------------


class VaultThread:
    """Runs every call on one vault on one thread of its own.

    The SDK runs plain handlers on a pool of threads and async ones on the event loop; a SQLite
    connection must stay on the thread that opened it, and a long sync must not stall the
    protocol. One thread also means two calls never interleave their writes.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._vault: Vault | None = None
        self._executor: ThreadPoolExecutor | None = None
        #: Lifespans that entered and have not left: the server may be entered more than once
        #: (in-process clients, a transport that runs one lifespan per session).
        self._users = 0
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        """Open the vault and its index (catching up with the files) on the vault's thread."""

        def opened() -> Vault:
            vault = Vault.open(self.root, create=True)
            vault.open_index()  # now (catching up with the files), not in the first call
            return vault

        async with self._lock:
            if self._executor is None:
                executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tota-vault")
                try:
                    self._vault = await asyncio.wrap_future(executor.submit(opened))
                except BaseException:
                    executor.shutdown(wait=True)
                    raise
                self._executor = executor
            self._users += 1

    async def close(self) -> None:
        """When the last user leaves: close the index on its thread, then end the thread."""
        async with self._lock:
            self._users -= 1
            if self._users > 0 or self._executor is None:
                return
            try:
                if self._vault is not None:
                    await self._submit(self._vault.close)
            finally:
                self._executor.shutdown(wait=True)
                self._executor, self._vault = None, None

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`fn(vault, *args, **kwargs)` on the vault's thread."""
        if self._vault is None:
            raise ToolError("the vault is not open")
        return await self._submit(fn, self._vault, *args, **kwargs)

    async def _submit(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        assert self._executor is not None
        return await asyncio.wrap_future(self._executor.submit(fn, *args, **kwargs))


# --- the server --------------------------------------------------------------------------------


class TotaServer(MCPServer):
    """`MCPServer` with tota's error translation at its two entry points.

    A `TotaError` from the library is a deliberate, one-line message: it reaches the model as
    it is (a tool error, or a resource error), with any secret in it redacted (messages quote
    the id or value they refuse, and a confused model may pass a key where an id goes). An
    argument that fails the schema is reported by field and rule only: pydantic's own message
    repeats the value.
    """

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Call a tool; library and validation errors become clean one-line tool errors."""
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, TotaError):
                raise ToolError(f"Error executing tool {name}: {redact(str(cause))}") from cause
            if isinstance(cause, pydantic.ValidationError):
                raise ToolError(
                    f"Error executing tool {name}: invalid arguments: {_describe(cause)}"
                ) from cause
            raise

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        """Read a resource; a library error keeps its message (not found stays not found)."""
        try:
            return await super().read_resource(uri, context)
        except UnexpectedResourceError as exc:
            cause = exc.__cause__
            if isinstance(cause, NotFoundError):
                raise ResourceNotFoundError(redact(str(cause))) from cause
            if isinstance(cause, TotaError):
                raise ResourceError(redact(str(cause))) from cause
            raise


def _describe(error: pydantic.ValidationError) -> str:
    """Each failed argument as `field: rule`, without the value that broke it."""
    parts = []
    for item in error.errors(include_input=False, include_url=False):
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def _writes(*, idempotent: bool = False) -> ToolAnnotations:
    # MCP's default for a tool that is not read-only is "destructive": say when it is not.
    return ToolAnnotations(
        read_only_hint=False,
        destructive_hint=False,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


Limit = Annotated[int, Field(ge=1, le=50, description="At most this many results.")]
MemoryTypeName = Literal[
    "identity", "preference", "goal", "project", "habit", "decision", "constraint",
    "relationship", "episode", "reflection",
]  # fmt: skip
MemoryRef = Annotated[
    str, Field(min_length=1, description="A memory's id (or an unambiguous prefix of 6+ chars).")
]


def create_server(root: Path) -> TotaServer:
    """The MCP server for the vault at `root`; the vault is opened when the server starts."""
    vault = VaultThread(root)

    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[VaultThread]:
        await vault.open()
        try:
            yield vault
        finally:
            await vault.close()

    server = TotaServer(
        "tota", title="tota memory", version=__version__, instructions=INSTRUCTIONS,
        lifespan=lifespan,
    )  # fmt: skip

    @server.tool(title="Recall memories", annotations=READ_ONLY)
    async def recall(
        message: Annotated[
            str, Field(description="The person's message (or a question about them).")
        ],
        limit: Limit = 10,
        types: Annotated[
            list[MemoryTypeName] | None,
            Field(description="Only memories of these types (default: every type)."),
        ] = None,
    ) -> Annotated[CallToolResult, RecallResult]:
        """The memories about this person most relevant to a message, best first, each with its
        id, type, text, confidence, evidence, date and sources. Call it before answering."""
        found = await vault.call(_recall, message, limit, types)
        data = RecallResult(memories=[_recalled(r, i) for i, r in enumerate(found, 1)])
        return _result(_recall_text(found), data)

    @server.tool(title="Remember", annotations=_writes())
    async def remember(
        type: Annotated[MemoryTypeName, Field(description="What kind of memory it is.")],
        text: Annotated[
            str, Field(description="The memory, one or two sentences about the person.")
        ],
        confidence: Annotated[
            float | None,
            Field(ge=0, le=1, description="How sure it is, 0 to 1 (default 0.9, inferred 0.8)."),
        ] = None,
        importance: Annotated[
            float | None,
            Field(ge=0, le=1, description="How much it matters, 0 to 1 (default: by type)."),
        ] = None,
        tags: Annotated[
            list[str] | None, Field(description="Tags for the note, e.g. ['work'].")
        ] = None,
        evidence: Annotated[
            Literal["direct", "inferred"],
            Field(description="direct: the person said it; inferred: you concluded it."),
        ] = "direct",
    ) -> Annotated[CallToolResult, StoredResult]:
        """Store a memory the person asked you to keep, as a new note in their vault (the same
        words again confirm the memory that holds them). Returns its id and path. Never store
        passwords, keys or other secrets."""
        check_tags(tags or ())  # as a new note's are, repeat or not
        same = await vault.call(manage.said_already, type, text)
        if same is not None and same.memory_id is not None:
            await vault.call(Vault.confirm, same.path)
            data = StoredResult(id=same.memory_id, path=same.path, type=type, text=same.text)
            unchanged = " (its tags and importance are as they were)" if tags or importance else ""
            return _result(f"Already remembered, confirmed {data.type} {data.id}: {data.text}"
                           f"{unchanged}\n({data.path})", data)  # fmt: skip
        default_importance, durability = TYPE_SCORES[MemoryType(type)]
        if confidence is None:
            confidence = ASKED_CONFIDENCE - (INFERRED_PENALTY if evidence == "inferred" else 0.0)
        stored = await vault.call(
            Vault.remember, type, text, confidence=confidence, evidence=evidence,
            importance=default_importance if importance is None else importance,
            durability=durability, tags=tags or (),
        )  # fmt: skip
        data = StoredResult(
            id=stored.memory.id, path=stored.path, type=stored.memory.type.value,
            text=stored.memory.text,
        )  # fmt: skip
        return _result(f"Remembered {data.type} {data.id}: {data.text}\n({data.path})", data)

    @server.tool(title="Learn from the conversation", annotations=_writes(idempotent=True))
    async def learn(
        messages: Annotated[
            list[ChatMessage],
            Field(description="The conversation's messages, or the new ones since last time."),
        ],
        conversation_id: Annotated[
            str,
            Field(
                min_length=1,
                description="A stable id for this conversation; memories cite it as their source.",
            ),
        ],  # fmt: skip
    ) -> Annotated[CallToolResult, LearnResult]:
        """Learn from the conversation: tota extracts what the person said about themselves,
        merges it with what it knows, resolves contradictions and stores it; call it after each
        of your replies. Returns what was created, merged, superseded and skipped, and why."""
        plain = with_content_ids([m.model_dump(exclude_none=True) for m in messages])
        report = await vault.call(Vault.observe, plain, conversation_id=conversation_id)
        data = LearnResult.model_validate(report.to_dict())
        return _result(_learn_text(data), data)

    @server.tool(title="Search notes", annotations=READ_ONLY)
    async def search(
        query: Annotated[str, Field(description="Words to find; any text works (C++, foo-bar).")],
        limit: Limit = 10,
    ) -> Annotated[CallToolResult, SearchResult]:
        """Full-text search over every note in the vault, best match first."""
        hits = await vault.call(Vault.search, query, limit=limit)
        data = SearchResult(
            hits=[_without_secrets(SearchHit.model_validate(h.to_dict())) for h in hits]
        )
        return _result(_search_text(query, data), data)

    @server.tool(
        title="Forget a memory",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=False,
            open_world_hint=False,
        ),
    )  # fmt: skip
    async def forget(id: MemoryRef) -> Annotated[CallToolResult, NoteResult]:
        """Delete one memory for good: its note and its index entry. Only when the person asks."""
        path = await vault.call(Vault.forget, id)
        return _result(f"Forgot {id}: deleted {path}", NoteResult(path=path))

    @server.tool(title="Confirm a memory", annotations=_writes())
    async def confirm(id: MemoryRef) -> Annotated[CallToolResult, NoteResult]:
        """The person confirmed a memory: its confidence rises and its decay clock restarts."""
        path = await vault.call(Vault.confirm, id)
        return _result(f"Confirmed {id} ({path})", NoteResult(path=path))

    @server.tool(title="Pause learning", annotations=_writes(idempotent=True))
    async def pause() -> Annotated[CallToolResult, LearningState]:
        """Stop learning: `learn` stores nothing until `resume`. Recall still works."""
        await vault.call(Vault.pause)
        return _result("Learning paused.", LearningState(learning="paused"))

    @server.tool(title="Resume learning", annotations=_writes(idempotent=True))
    async def resume() -> Annotated[CallToolResult, LearningState]:
        """Learn from conversations again after `pause`."""
        await vault.call(Vault.resume)
        return _result("Learning resumed.", LearningState(learning="on"))

    @server.tool(title="Memory overview", annotations=READ_ONLY)
    async def overview() -> Annotated[CallToolResult, Overview]:
        """What tota holds: totals per type and evidence, whether learning is on, a profile."""
        data = Overview.model_validate(await vault.call(manage.overview))
        return _result(_overview_text(data), data)

    @server.resource(
        "tota://memory/{id}", title="A memory's note", mime_type="text/markdown",
        description="One memory's Markdown note, exactly as it is on disk.",
    )  # fmt: skip
    async def memory_note(id: str) -> str:
        if not _MEMORY_ID.fullmatch(id):
            raise ResourceNotFoundError(f"{redact(id)!r} is not a memory id")
        _note, text = await vault.call(Vault.read, id)
        return text

    @server.resource(
        "tota://profile", title="Profile", mime_type="text/markdown",
        description="The durable facts about the person (identity, preferences, constraints).",
    )  # fmt: skip
    async def profile() -> str:
        found = await vault.call(Vault.profile)
        return context_block(found, heading="Profile") or "## Profile\n\n(nothing yet)\n"

    @server.prompt(name="memory", title="Memory manager")
    async def memory_prompt() -> str:
        """Manage tota's memory of you: overview, recent memories, search, pause or clear."""
        data = Overview.model_validate(await vault.call(manage.overview))
        recent = await vault.call(manage.recent, limit=10)
        return _menu_text(data, recent)

    return server


def _recall(vault: Vault, message: str, limit: int, types: list[str] | None) -> list[Recalled]:
    if not types or len(types) == 1:
        return vault.recall(message, limit, type=types[0] if types else None)
    # Several types: one ranking over the usual candidates, then only those types.
    pool = vault.recall(message, max(limit, CANDIDATES))
    return [r for r in pool if r.type in types][:limit]


def _recalled(result: Recalled, rank: int) -> RecalledMemory:
    confidence = result.effective_confidence
    return RecalledMemory(
        rank=rank, id=result.id, type=result.type, text=result.text, evidence=result.evidence,
        confidence=None if confidence is None else round(confidence, 3),
        updated=result.updated, sources=list(result.sources), path=result.path,
        score=round(result.score, 4), kind=result.kind,
        speaker=result.subject if result.kind == "turn" else None, role=result.role,
    )  # fmt: skip


def _result(text: str, data: BaseModel) -> CallToolResult:
    """A readable text block for the model plus the structured data for programs."""
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=data.model_dump(mode="json"),
    )


# --- readable text blocks ----------------------------------------------------------------------


def _line(text: str) -> str:
    # One line a memory: a reflection's Members list stays out.
    return " ".join(text.split("\n\n", 1)[0].split())


def _recall_text(found: list[Recalled]) -> str:
    if not found:
        return "No memories match."
    quoted = sum(1 for r in found if r.kind == "turn")
    head = (
        f"{len(found)} memories"
        if not quoted
        else (f"{len(found) - quoted} memories and {quoted} quoted turns of past conversations")
    )
    lines = [f"{head}, best first:"]
    for r in found:
        if r.kind == "turn":  # a quote of what was said, never a memory
            lines.append(quote_line(r))
            continue
        conf = "?" if r.effective_confidence is None else f"{r.effective_confidence:.2f}"
        lines.append(
            f"- [{r.type}] {_line(r.text)} (confidence {conf}, {r.evidence}, "
            f"{(r.updated or '')[:10]}; id {r.id})"
        )
    return "\n".join(lines)


def _learn_text(data: LearnResult) -> str:
    if data.paused:
        return "Learning is paused: nothing was stored (call resume to learn again)."
    c = data.counts
    lines = [
        f"{c.get('create', 0)} created, {c.get('merge', 0)} merged, "
        f"{c.get('supersede', 0)} superseded, {c.get('keep', 0)} kept over a contradiction, "
        f"{c.get('skip', 0)} skipped; {_plural(len(data.skipped_sentences), 'sentence')} "
        "not proposed."
    ]
    for o in data.outcomes:
        where = f" -> {o.path}" if o.path else ""
        lines.append(f"- {o.action} {o.type}: {o.text}{where} ({o.reason})")
    return "\n".join(lines)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _search_text(query: str, data: SearchResult) -> str:
    if not data.hits:
        return f"No notes match {query!r}."
    lines = []
    for hit in data.hits:
        label = f"[{hit.type}] " if hit.type else ""
        ident = f"id {hit.id}, " if hit.id else ""
        lines.append(f"- {label}{hit.title}: {_line(hit.snippet)} ({ident}{hit.path})")
    return "\n".join(lines)


def _overview_text(data: Overview) -> str:
    statuses = status_counts(data.by_status or {"active": data.memories})
    lines = [f"{data.memories} memories in {data.vault} ({statuses}); learning is {data.learning}."]
    if data.by_type_status:
        counted = type_counts(data.by_type_status)
        lines.append("By type: " + "; ".join(f"{k} {v}" for k, v in counted.items()))
    elif data.by_type:
        lines.append("By type: " + ", ".join(f"{k} {v}" for k, v in data.by_type.items()))
    if data.by_evidence:
        lines.append(f"Evidence (every memory): {evidence_counts(data.by_evidence)}")
    if data.invalid:
        lines.append(f"{data.invalid} notes are invalid (run `tota doctor` to see why).")
    lines.append(
        f"{data.turns} conversation turns of {data.conversations} conversations kept for "
        f"recall to quote (keeping them: {data.turns_kept}; `tota clear --yes` deletes them)."
    )
    if data.profile:
        lines.append("Profile:")
        lines.extend(f"- {_line(item)}" for item in data.profile)
    return "\n".join(lines)


def _menu_text(data: Overview, recent: list[Recalled]) -> str:
    """The /memory menu as one message: what the assistant shows, and how to act on it."""
    parts = [
        "Show me my tota memory as a short menu, using the data below. Offer: search my "
        "memories (the `search` tool), forget one (`forget` with its id, after I confirm), "
        "confirm one (`confirm`), "
        + ("resume learning (`resume`)" if data.learning == "paused" else "pause learning "
           "(`pause`)")
        + ", and clearing everything, which only I can do, in a terminal: `tota clear --yes`.",
        "",
        "## Overview",
        _overview_text(data),
        "",
        "## Recent memories",
    ]  # fmt: skip
    if recent:
        for r in recent:
            parts.append(f"- [{r.type}] {_line(r.text)} (id {r.id}, {(r.updated or '')[:10]})")
    else:
        parts.append("(none yet)")
    return "\n".join(parts) + "\n"


def serve(root: Path, *, http: bool = False, port: int = DEFAULT_PORT) -> None:
    """Run the server until the client goes away (stdio) or the process is stopped (HTTP).

    Streamable HTTP listens on 127.0.0.1 only: the vault is one person's private memory. The
    port is bound here, before the server starts, so a port in use is one `VaultError` naming
    it (exit 1), not uvicorn's start-up and shut-down logs and its exit 3.
    """
    if not http:
        create_server(root).run()
        return
    sock = listen_socket(HOST, port)
    with sock:
        server = create_server(root)
        # uvicorn writes its access log to stdout; every other log of tota's goes to stderr.
        with contextlib.redirect_stdout(sys.stderr):
            anyio.run(_serve_http, server, sock)


def listen_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host:port` for uvicorn to listen on; a `VaultError` naming the
    address when it cannot be had (another `tota mcp --http` or program holds the port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if os.name != "nt":
            # As uvicorn does: a restart need not wait out TIME_WAIT. (On Windows the option
            # would let two servers share the port, so it is left off there.)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's backlog; a client that comes early waits, not refused
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
            raise VaultError(
                f"{host}:{port} is in use (another `tota mcp --http`, or another program); "
                "stop it or choose another port with --port"
            ) from None
        raise VaultError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


async def _serve_http(server: MCPServer, sock: socket.socket) -> None:
    """What `MCPServer.run("streamable-http")` does, on a socket bound already."""
    import uvicorn

    app = server.streamable_http_app(host=HOST)
    config = uvicorn.Config(app, log_level=server.settings.log_level.lower())
    # uvicorn names the address only for a socket of its own: the line it would have written.
    host, port = sock.getsockname()[:2]
    logging.getLogger("uvicorn.error").info(
        "Uvicorn running on http://%s:%d (Press CTRL+C to quit)", host, port
    )
    await uvicorn.Server(config).serve(sockets=[sock])
