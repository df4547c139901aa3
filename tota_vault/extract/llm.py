"""An optional extractor: a language model behind an OpenAI-compatible endpoint. Off by default.

`[extract] backend = "llm"` in tota.toml (with `model`, and `base_url` unless it is Ollama on
this machine) makes `Vault.observe` and `tota extract` ask a model instead of the rules. The
model proposes; tota still decides. What stays the same whatever the model says:

- **Nothing secret is sent.** Every message is redacted (`secrets.redact`) before it is put
  in a request; the rules' secret skips are reported the same way.
- **Structured output.** The request carries a JSON schema (`RESPONSE_SCHEMA`, in the nested
  `response_format: {"type": "json_schema", "json_schema": {...}}` form that OpenAI, Ollama,
  llama.cpp's server and vLLM all read), and the reply is checked against the same schema
  here, with the length and form limits some servers refuse to take (`MEMORY_LIMITS`): a
  server that ignores the schema (llama.cpp silently does for other forms) is caught.
- **Grounded or dropped.** Each memory must name the user message it came from, among the
  chunk's own (the message before the chunk is sent as context only, never a source), and its
  content words must mostly appear in that message (`grounding`); otherwise it is a
  hallucination, skipped as "not grounded". Its numbers and names must all appear there.
- **The rules when the model fails.** A refused connection, a timeout, an HTTP error, a reply
  that is not JSON or not the schema's shape, a refusal or an empty reply: that chunk of the
  conversation is read by the rule extractor instead, and the report's notes say how often
  and why ("llm extractor fell back to rules for 2 of 5 chunks: timeout (2)"). After
  `MAX_UNANSWERED` requests in a row got no answer, the rest goes straight to the rules.
- **Local by default.** The default `base_url` is a loopback address, reached directly (never
  through a proxy from the environment); any other host is named in a note on every run that
  sent something there (`remote_warning`).

The model's statements go through the same scoring, merging and conflict rules as the rules'
candidates; relative dates it keeps ("yesterday") are resolved against the message's time.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from copy import deepcopy
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..config import ExtractSettings
from ..errors import ExtractorError
from ..model import Evidence, MemoryType
from ..text import STOPWORDS, stem
from .base import Candidate, Skip
from .dates import resolve_dates
from .messages import Message
from .rules import RuleExtractor, message_quote
from .secrets import contains_secret, find_secrets, redact

if TYPE_CHECKING:
    import httpx

__all__ = [
    "LLM_STRENGTH",
    "MEMORY_LIMITS",
    "RESPONSE_SCHEMA",
    "SYSTEM_PROMPT",
    "LLMExtractor",
    "grounding",
    "is_local",
    "remote_warning",
]

#: The cue strength of a model's statement (the rules' run from 0.6 to 0.9): a clear cue's.
#: Scoring then treats it like any other candidate: -0.15 hedged, -0.10 inferred, stored at
#: >= 0.55, so a hedged inference (0.55) is the weakest that is still kept.
LLM_STRENGTH = 0.8
#: At least this share of a statement's content words must appear in its source message.
GROUNDED_SHARE = 0.6
#: A message is cut to this many characters in a request (grounding reads all of it): small
#: local models have small context windows and drop what overflows them without saying so.
MAX_MESSAGE_CHARS = 2000
MAX_TEXT_CHARS = 300
MAX_SUBJECT_CHARS = 80
MAX_ID_CHARS = 200
#: After this many chunks in a row the endpoint did not answer (timed out, refused), the rest
#: of the conversation goes straight to the rules: a stopped server must not cost a long chat
#: `timeout_s` for every one of its chunks.
MAX_UNANSWERED = 2

#: Reflections are tota's own summaries of memories, never something a person said.
_TYPES = [t.value for t in MemoryType if t is not MemoryType.REFLECTION]

#: One memory as the model must write it, in the subset of JSON Schema every server takes:
#: `strict` mode (OpenAI) wants every property required and no others (`key` is null when the
#: fact fills no slot), and some servers refuse length and pattern keywords; those limits are
#: checked here instead (`MEMORY_LIMITS`).
MEMORY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "source": {"type": "string"},
        "subject": {"type": "string"},
        "type": {"type": "string", "enum": _TYPES},
        "text": {"type": "string"},
        "key": {"type": ["string", "null"]},
        "evidence": {"type": "string", "enum": [Evidence.DIRECT.value, Evidence.INFERRED.value]},
        "hedged": {"type": "boolean"},
        "temporary": {"type": "boolean"},
    },
    "required": ["source", "subject", "type", "text", "key", "evidence", "hedged", "temporary"],
    "additionalProperties": False,
}
#: The whole reply: `{"memories": [...]}` (an object at the top, as every server requires).
RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"memories": {"type": "array", "items": MEMORY_SCHEMA}},
    "required": ["memories"],
    "additionalProperties": False,
}
# What the reply is checked against here. The shape must match, or the chunk falls back to the
# rules; each memory is then checked on its own, so one bad memory costs only itself. Fields the
# model adds beyond the schema are ignored rather than refused (a server without strict mode
# may add a "confidence" the schema never asked for).
_ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"memories": {"type": "array"}},
    "required": ["memories"],
}
#: What each memory must also satisfy, beyond the schema sent: an id, a subject and a sentence
#: of sane length, and a key of the form the rules use (`identity/location`).
MEMORY_LIMITS: dict[str, dict[str, Any]] = {
    "source": {"minLength": 1, "maxLength": MAX_ID_CHARS},
    "subject": {"minLength": 1, "maxLength": MAX_SUBJECT_CHARS},
    "text": {"minLength": 3, "maxLength": MAX_TEXT_CHARS},
    "key": {"pattern": "^[a-z]+/[a-z0-9-]{1,60}$"},
}
_LENIENT_MEMORY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        name: {**rule, **MEMORY_LIMITS.get(name, {})}
        for name, rule in deepcopy(MEMORY_SCHEMA["properties"]).items()
    },
    "required": MEMORY_SCHEMA["required"],
}

SYSTEM_PROMPT = f"""\
You read a conversation and list the facts worth remembering about the people who wrote its \
"user" messages: who they are, what they prefer, want, work on, do regularly, decided, cannot \
do, who is in their life, and what happened to them.

Reply with JSON only: {{"memories": [...]}}, each memory an object with:
- source: the id of the one user message that states the fact (never an assistant message, \
never a message marked "context": it is an earlier one, shown only so the first makes sense).
- subject: "user" when that message has no speaker; otherwise the speaker's name.
- type: one of {", ".join(_TYPES)}. identity: name, age, home, origin, job, employer; \
constraint: allergies, limits, what they cannot or must do; relationship: family, friends, \
colleagues, pets; episode: something that happened.
- text: one short sentence in the third person, in the words of the message. For subject \
"user", start with the verb ("Prefers Neovim over VS Code.", "Lives in Porto."); for a named \
speaker, start with the name ("Caroline adopted a dog."). Keep dates as written ("yesterday"). \
Never add anything the message does not say.
- key: for a fact that has one value at a time, its slot: identity/name, identity/age, \
identity/location, identity/origin, identity/employer, preference/favorite-<thing>; \
otherwise null.
- evidence: "direct" when the person says it of themselves, "inferred" when it is concluded.
- hedged: true when the person is unsure ("maybe", "I think").
- temporary: true when it holds only for a while ("this week", "right now").

Skip questions, hypotheticals, small talk, what the assistant said, quoted text and code, and \
anything marked [REDACTED ...]. An empty list is the right answer when nothing is worth \
remembering.
"""


# --- the endpoint's address ---------------------------------------------------------------------


def is_local(url: str) -> bool:
    """Whether `url` points at this machine: `localhost` (and `*.localhost`) or a loopback
    address (127.0.0.0/8, ::1). Pure: nothing is resolved or sent.

    A name that merely resolves to this machine today (a hosts-file entry) is not trusted: what
    counts is what the person wrote.
    """
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1 is loopback too
    return address.is_loopback


def remote_warning(settings: ExtractSettings) -> str | None:
    """The note for an endpoint that is not on this machine, or None when it is (or when the
    rules extract: they send nothing anywhere)."""
    if settings.backend != "llm" or is_local(settings.base_url):
        return None
    host = urlsplit(settings.base_url).hostname
    return (
        f"the llm extractor sends conversations (secrets redacted) to {host}, which is not this "
        "machine (extract.base_url in tota.toml)"
    )


# --- grounding ----------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
#: The shortest stem that may match a longer word by prefix ("adopt" in "adoption").
_PREFIX_CHARS = 4


def _stem(word: str) -> str:
    """The house stem with its word forms (`text.stem`), then a final "e" off, so "lives",
    "live" and "lived" meet as "liv" (the stem keeps "live", and strips "lived" to "liv")."""
    word = stem(word, forms=True)
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _content_words(text: str, ignore: frozenset[str] = frozenset()) -> list[tuple[str, bool]]:
    """Each content word, lowercased, and whether it is a specific: a number, or a capitalised
    word after the first (a name: "Emacs", "Porto")."""
    words = []
    for position, raw in enumerate(_WORD.findall(text.replace("’", "'"))):
        word = raw.lower().removesuffix("'s")
        if word in STOPWORDS or word in ignore or (len(word) < 2 and not word.isdigit()):
            continue
        specific = any(c.isdigit() for c in word) or (position > 0 and raw[:1].isupper())
        words.append((word, specific))
    return words


def _appears(word: str, present: set[str], stems: set[str]) -> bool:
    if any(c.isdigit() for c in word):
        return word in present  # "50 km" is not grounded by "5 km"
    if word in present:
        return True
    root = _stem(word)
    if root in stems:
        return True
    return any(
        len(short) >= _PREFIX_CHARS and long.startswith(short)
        for other in stems
        for short, long in ((root, other), (other, root))
        if len(short) < len(long)
    )


def grounding(text: str, message: Message, *, subject: str = "user") -> float:
    """The share (0..1) of `text`'s content words that appear in `message`. Pure.

    Words are compared lowercased, without stopwords, by a light stem ("prefers" is grounded
    by "prefer", "adopted" by "adopt") or by prefix for stems of four letters or more. The
    subject's own name does not count (the statement names the speaker, the message does not).
    The message is read as written and with its relative dates resolved, so "on 7 May 2023" is
    grounded by "yesterday" in a message of 8 May 2023. A specific that does not appear there,
    a number or a name ("Prefers Emacs over Neovim" from "I prefer Neovim"), makes the share
    0: other words may be paraphrased, but a fact with the wrong number or name is not the
    person's fact. A statement with no content word at all grounds nothing and scores 0.
    """
    ignore = frozenset(w for w, _ in _content_words(subject)) | {"user"}
    words = _content_words(text, ignore)
    if not words:
        return 0.0
    resolved, _ = resolve_dates(message.content, message.timestamp)
    present = {w for w, _ in _content_words(message.content) + _content_words(resolved)}
    stems = {_stem(w) for w in present}
    found = [_appears(w, present, stems) for w, _ in words]
    if any(specific and not ok for (_, specific), ok in zip(words, found, strict=True)):
        return 0.0
    return sum(found) / len(words)


# --- the extractor ------------------------------------------------------------------------------


class _Fallback(Exception):
    """This chunk goes to the rules; `reason` is what the report says ("timeout").

    `unanswered` when the endpoint did not answer at all (a timeout, a refused connection),
    which is what `MAX_UNANSWERED` counts.
    """

    def __init__(self, reason: str, *, unanswered: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.unanswered = unanswered


def _libraries() -> tuple[Any, Any]:
    """httpx and jsonschema, imported when an LLM extractor is made (never by `import tota`)."""
    try:
        import httpx
        import jsonschema
    except ImportError as exc:
        raise ExtractorError(
            f'[extract] backend = "llm" needs the llm extra ({exc.name} is not installed): '
            "pip install 'tota_vault[llm]'"
        ) from None
    return httpx, jsonschema


def _chunks(messages: Sequence[Message], size: int) -> Iterator[list[Message]]:
    for start in range(0, len(messages), size):
        yield list(messages[start : start + size])


_THE_USER = re.compile(r"^(?:the )?user (?!and\b)(\w)", re.I)


def _statement(text: str, named: bool) -> str:
    """The model's sentence as a note states it: one line, capitalised, ending with a period;
    "The user prefers ..." reads "Prefers ...", as the rules write it."""
    text = " ".join(text.split())
    if not named:
        text = _THE_USER.sub(lambda m: m.group(1).upper(), text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


class LLMExtractor:
    """Ask a model behind an OpenAI-compatible `/chat/completions` for memories (see above).

    Made from the vault's `[extract]` settings; `environ` is where `api_key_env` is looked up
    (the process environment by default). Raises `ExtractorError` when the llm extra is not
    installed or the key's variable is unset, before anything is sent. After each `extract`,
    `notes` holds the lines for the report (fallbacks, a remote endpoint).
    """

    name = "llm"

    def __init__(
        self, settings: ExtractSettings, *, environ: Mapping[str, str] | None = None
    ) -> None:
        self._httpx, jsonschema = _libraries()
        if not settings.model:
            raise ExtractorError('[extract] backend = "llm" needs extract.model in tota.toml')
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self.headers = {"Accept": "application/json"}
        if settings.api_key_env:
            key = (os.environ if environ is None else environ).get(settings.api_key_env, "")
            if not key.strip():
                raise ExtractorError(
                    f"extract.api_key_env in tota.toml names {settings.api_key_env}, which is "
                    "not set in the environment"
                )
            self.headers["Authorization"] = f"Bearer {key.strip()}"
        validator = jsonschema.Draft202012Validator
        self._envelope = validator(_ENVELOPE_SCHEMA)
        self._memory = validator(_LENIENT_MEMORY_SCHEMA)
        self.notes: list[str] = []

    # --- the protocol ---------------------------------------------------------------------

    def extract(
        self, messages: Sequence[Message], *, conversation_id: str
    ) -> tuple[list[Candidate], list[Skip]]:
        """Propose candidates chunk by chunk; a chunk the model fails on goes to the rules."""
        self.notes = []
        candidates: list[Candidate] = []
        skipped: list[Skip] = []
        failures: Counter[str] = Counter()
        chunks = sent = unanswered = 0
        previous = {m.id: messages[i - 1] for i, m in enumerate(messages) if i > 0}
        # httpx sends even a loopback request through an HTTP_PROXY from the environment: a
        # local endpoint must stay local, so only a remote one may use the proxy settings.
        local = is_local(self.settings.base_url)
        with self._httpx.Client(
            timeout=self.settings.timeout_s, headers=self.headers, trust_env=not local
        ) as client:
            for chunk in _chunks(messages, self.settings.max_messages):
                if not any(m.role == "user" and m.content.strip() for m in chunk):
                    continue  # nothing a memory could come from: no request
                chunks += 1
                if unanswered >= MAX_UNANSWERED:
                    reason = f"not asked after {MAX_UNANSWERED} unanswered requests"
                else:
                    sent += 1
                    try:
                        items = self._ask(client, chunk, previous.get(chunk[0].id))
                    except _Fallback as failure:
                        reason = failure.reason
                        unanswered = unanswered + 1 if failure.unanswered else 0
                    else:
                        unanswered = 0
                        found, skips = self._read(items, chunk, previous)
                        candidates.extend(found)
                        skipped.extend(skips)
                        continue
                failures[reason] += 1
                found, skips = RuleExtractor().extract(chunk, conversation_id=conversation_id)
                candidates.extend(found)
                skipped.extend(skips)
        if failures:
            reasons = ", ".join(
                reason if count == 1 else f"{reason} ({count})"
                for reason, count in failures.most_common()
            )
            self.notes.append(
                f"llm extractor fell back to rules for {failures.total()} of {chunks} "
                f"chunk{'s' if chunks != 1 else ''}: {reasons}"
            )
        warning = remote_warning(self.settings)
        if sent and warning:
            self.notes.append(warning)
        return candidates, skipped

    # --- one request ----------------------------------------------------------------------

    def request_body(
        self, chunk: Sequence[Message], before: Message | None = None
    ) -> dict[str, Any]:
        """The JSON body for one chunk: the prompt, the redacted messages, the schema.

        `before` is the message just before the chunk, sent first and marked `"context":
        true`: a chunk that opens with "Neovim, always." needs the question it answers. It is
        never a source (only the chunk's own user messages are, see `_read`).
        """
        sent = []
        for message in ([before] if before is not None else []) + list(chunk):
            if message.role not in ("user", "assistant") or not message.content.strip():
                continue  # system prompts and tool output say nothing about the person
            text = redact(message.content)
            if len(text) > MAX_MESSAGE_CHARS:
                text = text[:MAX_MESSAGE_CHARS] + " …"
            entry: dict[str, Any] = {"id": message.id, "role": message.role}
            if message is before:
                entry["context"] = True
            if message.name:
                entry["speaker"] = message.name
            if message.timestamp is not None:
                entry["time"] = message.timestamp.isoformat(timespec="minutes")
            entry["text"] = text
            sent.append(entry)
        conversation = json.dumps(sent, ensure_ascii=False, indent=1)
        return {
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": f"The conversation:\n{conversation}"},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "tota_memories", "schema": RESPONSE_SCHEMA, "strict": True},
            },
            "temperature": 0,
            "stream": False,
        }

    def _ask(
        self, client: httpx.Client, chunk: Sequence[Message], before: Message | None
    ) -> list[Any]:
        """The reply's memories, or `_Fallback` naming what went wrong."""
        httpx = self._httpx
        try:
            response = client.post(self.url, json=self.request_body(chunk, before))
        except httpx.TimeoutException:
            raise _Fallback("timeout", unanswered=True) from None
        except httpx.ConnectError:
            raise _Fallback("cannot connect", unanswered=True) from None
        except httpx.HTTPError as exc:
            raise _Fallback(f"HTTP error ({type(exc).__name__})") from None
        if response.status_code >= 400:
            raise _Fallback(f"HTTP {response.status_code}")
        try:
            message = response.json()["choices"][0]["message"]
            content = message.get("content")
            refusal = message.get("refusal")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise _Fallback("not a chat completion") from None
        if refusal:
            raise _Fallback("refusal")
        if not isinstance(content, str) or not content.strip():
            raise _Fallback("empty reply")
        try:
            reply = json.loads(content)
        except ValueError:
            raise _Fallback("malformed JSON") from None
        if not self._envelope.is_valid(reply):
            raise _Fallback("schema mismatch")
        return list(reply["memories"])

    # --- from the reply to candidates -----------------------------------------------------

    def _read(
        self, items: list[Any], chunk: Sequence[Message], previous: Mapping[str, Message]
    ) -> tuple[list[Candidate], list[Skip]]:
        """Each memory of a reply as a candidate, or a skip saying why not."""
        users = {m.id: m for m in chunk if m.role == "user" and m.content.strip()}
        candidates: list[Candidate] = []
        skipped: list[Skip] = []
        for message in users.values():  # reported as the rules report them: by kind only
            for found in find_secrets(message.content):
                reason = f"contains a secret ({found.kind})"
                skipped.append(Skip(message.id, f"[REDACTED {found.kind}]", reason))
        quotes: dict[str, str] = {}
        for item in items:
            result = self._candidate(item, users)
            if isinstance(result, Skip):
                skipped.append(result)
                continue
            if result.source not in quotes:
                quotes[result.source] = message_quote(
                    users[result.source], previous.get(result.source)
                )
            candidates.append(replace(result, quote=quotes[result.source]))
        return candidates, skipped

    def _candidate(self, item: Any, users: Mapping[str, Message]) -> Candidate | Skip:
        """One memory of the reply, checked: the schema, its source, subject and grounding."""
        if not isinstance(item, dict):
            return Skip("", repr(item)[:80], "invalid memory: not an object")
        source = str(item.get("source", ""))[:MAX_ID_CHARS]
        shown = " ".join(str(item.get("text", "")).split())[:MAX_TEXT_CHARS]
        error = next(iter(sorted(self._memory.iter_errors(item), key=lambda e: e.path)), None)
        if error is not None:
            where = "/".join(str(p) for p in error.path) or "memory"
            return Skip(source, shown, f"invalid memory: {where}: {error.message[:120]}")
        message = users.get(item["source"])
        if message is None:
            return Skip(source, shown, "not grounded (no user message of the chunk has that id)")
        speaker = message.name or "user"
        subject = item["subject"].strip()
        if subject.lower() != speaker.lower() and not (
            message.name is None and subject.lower() == "the user"
        ):
            return Skip(source, shown, f"about someone other than the speaker ({subject})")
        text = _statement(item["text"], named=message.name is not None)
        kind = contains_secret(text)
        if kind is not None or "[REDACTED " in text:
            return Skip(source, "[REDACTED]", f"contains a secret ({kind or 'redacted'})")
        share = grounding(text, message, subject=speaker)
        if share < GROUNDED_SHARE:
            return Skip(source, text, "not grounded")
        mtype = MemoryType(item["type"])
        key = item["key"]
        if key is not None and key.split("/", 1)[0] != mtype.value:
            # A slot decides conflicts (the loser is superseded): a key that contradicts the
            # type is not trusted to do that, and the memory is kept without one.
            key = None
        dated, days = resolve_dates(text, message.timestamp)
        return Candidate(
            type=mtype,
            text=dated,
            subject=speaker,
            source=message.id,
            evidence=Evidence(item["evidence"]),
            key=key,
            strength=LLM_STRENGTH,
            hedged=item["hedged"],
            temporary=item["temporary"],
            cue="llm",
            days=tuple(days),
            timestamp=message.timestamp,
        )
