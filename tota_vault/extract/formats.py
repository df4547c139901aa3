"""Read a conversation in any supported format into a list of `Message`s.

Three formats, one result (and two chat-app exports of many conversations, read by
`read_conversations`; see `exports.py`):

- **text**: a transcript of `Speaker: content` lines (`User: ...`, `Assistant: ...`, or people's
  names, `Caroline: ...`), with optional timestamps and date header lines;
- **json**: a list of message objects, or an object with a `messages` list (OpenAI style);
- **jsonl**: one message object per line.

`auto` tells them apart by shape. Every error is a `ValidationError` of one line that names the
source and the position (`chat.json: message 3: unknown role 'robot' ...`), so the CLI can print
it as it is. Timestamps come out as naive local times, as notes store them.

How a text transcript is cut into messages (the ambiguous part; see `_speaker_start`):

1. A line starts a new message when it reads `Speaker: text` at the start of the line (not
   indented), with a space or the end of the line after the colon, optionally after a timestamp
   (`[2023-05-08 13:56]`, `[2023-05-08]`, `2023-05-08T13:56:00 `).
2. A role word (`User`, `Human`, `Me`, `You`, `Assistant`, `AI`, `Bot`, `tota`, `ChatGPT`,
   `Claude`, `System`, any case) always starts a message, and so does a name that has already
   spoken in this transcript.
3. A name not seen before (1 to 4 words, at most 40 characters, the first word Capitalized,
   letters, apostrophes, hyphens and periods only, later words Capitalized or a particle such
   as `van` or `de`, and not a label word such as `Note` or `Warning`) starts a message only
   where a message can plausibly begin: on the first line, after a blank line or a date
   header, after a timestamp, or while the current speaker is itself a named person (a chat
   between people, which someone may join). Elsewhere, `Note: the build failed` inside an
   assistant's reply stays part of that reply.
4. Inside a ``` or ~~~ fence nothing starts a message: code and quoted logs stay whole.
5. Other lines continue the current message (joined with "\\n"); blank lines between messages
   are dropped, blank lines inside one are kept. Text before the first speaker is an error.

A date header (`--- 8 May 2023 ---`, or `Date: 2023-05-08` alone on a line where a message could
begin) sets the timestamp of the messages that follow; a timestamp on a speaker line sets that
message's time and, until the next one, the time of the messages after it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import ValidationError
from ..model import ISO_DATE_PATTERN, parse_date
from .messages import Conversation, Message, fallback_conversation_id, take_opening

if TYPE_CHECKING:
    from .claude_code import ClaudeCodeSession

__all__ = ["FORMATS", "parse_conversation", "read_conversations", "stream_conversations"]

#: The formats `parse_conversation` reads; `auto` picks one of the others by the text's shape.
#: `chatgpt` and `claude-ai` are the chat apps' data exports (`exports.py`).
FORMATS = ("auto", "text", "json", "jsonl", "chatgpt", "claude-ai")

#: Speaker words of a text transcript that name a role, not a person (compared lowercased).
TEXT_ROLES = {
    "user": "user",
    "human": "user",
    "me": "user",
    "you": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "tota": "assistant",
    "chatgpt": "assistant",
    "claude": "assistant",
    "system": "system",
}

#: The `role` values of JSON messages (compared lowercased), mapped to tota's four roles.
#: `developer` is OpenAI's newer name for the system prompt; `function` its older name for tool.
JSON_ROLES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "model": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "tool",
    "function": "tool",
}

#: Words that open a labelled line in prose ("Note: ...", "Step: ...") and are never taken for
#: a new speaker's name (compared lowercased, first word of the would-be name).
LABEL_WORDS = frozenset(
    """
    note notes nb ps warning warnings error errors caution important tip tips hint info example
    examples update edit edited answer question q a summary tldr output input result results
    source sources re subject date time todo fixme reminder reason problem solution context
    goal goals task tasks step steps status first second third next then finally also fyi quote
    response reply prompt query translation definition pros cons location address email phone
    name title description usage option options total bonus caveat disclaimer correction
    """.split()
)

#: Lowercase words allowed inside a name after its first word ("Ludwig van Beethoven").
NAME_PARTICLES = frozenset("van von der den de del della da di du le la bin ibn al el y".split())

#: Names of a text transcript: its longest form, in characters and in words.
MAX_NAME_CHARS = 40
MAX_NAME_WORDS = 4

# A speaker line: an optional timestamp (bracketed, or a bare ISO date-time and a space), the
# speaker (no colon, up to 40 characters), a colon, then a space and the content or nothing.
_SPEAKER_LINE_RE = re.compile(
    r"^(?:\[(?P<bracketed>[^\]\n]{1,40})\][ \t]*"
    rf"|(?P<bare>{ISO_DATE_PATTERN})[ \t]+)?"
    r"(?P<speaker>[^:\n]{1,40}?)[ \t]*:(?:[ \t]+(?P<content>.*)|[ \t]*$)"
)
# One word of a name: a letter, then letters, apostrophes (straight or curly), hyphens, periods.
_NAME_WORD = r"[^\W\d_](?:[^\W\d_]|['’.\-])*"
# A whole name: one to four such words separated by single spaces.
_NAME_RE = re.compile(rf"^{_NAME_WORD}(?: {_NAME_WORD}){{0,{MAX_NAME_WORDS - 1}}}$")
# A date header between runs of dashes or equals signs: `--- 8 May 2023 ---`, `== 2023-05-08 ==`.
_RULE_HEADER_RE = re.compile(r"^[ \t]*[-=]{2,}[ \t]*(?P<date>[^-=\s].*?)[ \t]*[-=]{2,}[ \t]*$")
# A date header line: `Date: 2023-05-08`, the whole line.
_DATE_HEADER_RE = re.compile(r"^Date:[ \t]*(?P<date>\S.*?)[ \t]*$", re.IGNORECASE)
# A Markdown code fence opening or closing: ``` or ~~~, possibly indented.
_FENCE_RE = re.compile(r"^[ \t]*(?:```|~~~)")

# ISO dates and date-times as `model.parse_date` reads them, with an optional zone.
_ISO_RE = re.compile(rf"^{ISO_DATE_PATTERN}$")
# Epoch seconds written as a string: 9 to 11 digits, optional fraction (1973 to 5138).
_EPOCH_RE = re.compile(r"^\d{9,11}(?:\.\d+)?$")
# A leading weekday, which the date after it makes redundant: "Monday, 8 May 2023".
_WEEKDAY_RE = re.compile(r"^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?[ \t]+(?=\S)", re.IGNORECASE)
# `1:56 pm on 8 May, 2023` (LoCoMo's session dates): a clock time, " on ", a date.
_TIME_ON_RE = re.compile(
    r"^(?P<hour>\d{1,2}):(?P<minute>\d{2})[ \t]*(?P<half>[ap]\.?m\.?)?[ \t]+on[ \t]+(?P<date>.+)$",
    re.IGNORECASE,
)
# `8 May 2023`, `8th May, 2023`, `08 Sept 2023`: day, month name, year.
_DAY_MONTH_YEAR_RE = re.compile(
    r"^(?P<day>\d{1,2})(?:st|nd|rd|th)?[ \t]+(?P<month>[a-z]+)\.?,?[ \t]+(?P<year>\d{4})$",
    re.IGNORECASE,
)
# `May 8, 2023`, `May 8th 2023`: month name, day, year.
_MONTH_DAY_YEAR_RE = re.compile(
    r"^(?P<month>[a-z]+)\.?[ \t]+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?[ \t]+(?P<year>\d{4})$",
    re.IGNORECASE,
)

#: English month names and their usual abbreviations; not `calendar`, whose names follow the
#: locale, so a transcript reads the same on every machine.
MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}

#: The keys a JSON message may carry its time under, in order of preference.
TIME_KEYS = ("timestamp", "created_at", "date")

#: The part types of a list-valued `content` whose text is kept (OpenAI chat and Responses).
TEXT_PART_TYPES = frozenset({"text", "input_text", "output_text"})


def read_conversations(
    text: str, format: str = "auto", *, source: str = "<input>", problems: list[str] | None = None
) -> list[Conversation]:
    """Read a file's conversations, each with its id, for learning one by one.

    An export (ChatGPT's or Claude.ai's `conversations.json`) gives one `Conversation` per
    conversation it holds, under the export's own ids. A single conversation in another format
    gets `fallback_conversation_id(messages)`, a digest of its opening messages: the same
    conversation under two file names is one conversation, two files of the same name are
    two. Raises `ValidationError` like `parse_conversation`; with `problems`, an export's
    conversation that cannot be read is left out and described there instead.
    """
    _check_format(format, source)
    text = text.removeprefix("\ufeff")
    conversations = _export_conversations(text, format, source, problems)
    if conversations is not None:
        return conversations
    if format == "auto" and (session := _claude_code(text, source)) is not None:
        # A Claude Code transcript names its sessions: each message is cited under the session
        # its line belongs to (a resumed session carries earlier ones), as the Stop hook does.
        return [Conversation(sid, messages) for sid, messages in session.conversations()]
    messages = _parse_single(text, format, source)
    own = _own_id(text) if format in ("auto", "json") else None
    if own is not None:
        return [Conversation(own, messages)]
    return [Conversation(fallback_conversation_id(messages), messages)]


#: The keys under which a chat JSON object `{"messages": [...]}` may name its conversation.
OWN_ID_KEYS = ("conversation_id", "session_id", "thread_id", "id")


def _own_id(text: str) -> str | None:
    """The id a chat JSON object gives its conversation (`{"id": ..., "messages": [...]}`)."""
    data = _loads_or_none(text.strip()) if text.lstrip()[:1] == "{" else None
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
        return None
    for key in OWN_ID_KEYS:
        value = data.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
            return str(value).strip()
    return None


def parse_conversation(
    text: str, format: str = "auto", *, source: str = "<input>"
) -> list[Message]:
    """Read a conversation in `format` (one of `FORMATS`) into messages.

    `source` names the input in errors (a file name, usually). Messages without an id get
    their 1-based position as id, so a memory's source `<conversation>#<id>` always resolves.
    Raises `ValidationError` with one line naming the source and the position of the problem;
    an input with no messages at all is an error too (`chat.txt: no messages`). An export of
    several conversations is an error here: `read_conversations` reads those.
    """
    _check_format(format, source)
    text = text.removeprefix("\ufeff")  # editors on Windows save a BOM that JSON rejects
    conversations = _export_conversations(text, format, source)
    if conversations is not None:
        if len(conversations) > 1:
            raise ValidationError(
                f"{source}: an export of {len(conversations)} conversations "
                "(read it with read_conversations, or tota extract)"
            )
        return conversations[0].messages
    return _parse_single(text, format, source)


def _check_format(format: str, source: str) -> None:
    if format not in FORMATS:
        raise ValidationError(
            f"{source}: unknown format {format!r} (expected one of: {', '.join(FORMATS)})"
        )


def _export_conversations(
    text: str, format: str, source: str, problems: list[str] | None = None
) -> list[Conversation] | None:
    """The conversations of a chat-app export, or None when `text` is not one.

    `auto` reads an export when the JSON has an export's shape; `chatgpt` and `claude-ai`
    insist on it. An export with nothing to read is an error (`no messages`).
    """
    from .exports import EXPORT_FORMATS, detect_export, read_export

    if format not in EXPORT_FORMATS and format != "auto":
        return None
    stripped = text.strip()
    if format == "auto":
        if stripped[:1] not in ("[", "{"):
            return None
        data = _loads_or_none(stripped)
        format = detect_export(data) or ""
        if not format:
            return None
    else:
        data = _load_json(text, source)
    conversations = read_export(data, format, source=source, problems=problems)
    if not conversations and problems:
        raise ValidationError(problems[0])
    if not conversations:
        raise ValidationError(f"{source}: no messages")
    return conversations


def _parse_single(text: str, format: str, source: str) -> list[Message]:
    """`parse_conversation` for the one-conversation formats (the BOM already removed)."""
    if format == "auto" and (session := _claude_code(text, source)) is not None:
        return session.messages
    if format == "auto":
        format = _detect(text)
        stripped = text.strip()
        if format == "text" and stripped[:1] in ("[", "{") and not _opens_transcript(stripped):
            # It looks like JSON that does not parse: say what is wrong with the JSON, not that
            # line 1 has no speaker.
            first = stripped.splitlines()[0]
            format = "jsonl" if isinstance(_loads_or_none(first), dict) else "json"
    if format == "json":
        messages = _parse_json(text, source)
    elif format == "jsonl":
        messages = _parse_jsonl(text, source)
    else:
        messages = _parse_text(text, source)
    if not messages:
        raise ValidationError(f"{source}: no messages")
    return messages


# --- detection -------------------------------------------------------------------------------


def _loads_or_none(text: str) -> Any:
    """The JSON value of `text`, or None when it is not JSON (a JSON null is no message either)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested past the stack
        return None


def _all_lines_are_objects(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(isinstance(_loads_or_none(line), dict) for line in lines)


def _detect(text: str) -> str:
    """`json` if the text is one JSON value starting with `[` or `{`; `jsonl` if each non-empty
    line is a JSON object; else `text`.

    One object without a `messages` key that sits on one line is a one-message JSONL file,
    not a malformed JSON document.
    """
    stripped = text.strip()
    if stripped[:1] in ("[", "{"):
        data = _loads_or_none(stripped)
        if data is not None and not (
            isinstance(data, dict) and "messages" not in data and _all_lines_are_objects(stripped)
        ):
            return "json"
    if _all_lines_are_objects(stripped):
        return "jsonl"
    return "text"


def _opens_transcript(stripped: str) -> bool:
    """Whether the first line of a text starting with `[` reads as a transcript's first line."""
    first = stripped.splitlines()[0]
    try:
        return (
            _header_date(first, allow_label=True) is not None
            or _speaker_start(first, set(), allow_new=True) is not None
        )
    except ValueError:
        return True  # a transcript with a bad timestamp: the text parser names the line


def _claude_code(text: str, source: str) -> ClaudeCodeSession | None:
    """A Claude Code session's main thread (extract/claude_code.py), or None when `text` is
    not one. What it tolerated (broken lines) is logged as one warning line."""
    from .claude_code import looks_like_claude_code, read_claude_code

    if not looks_like_claude_code(text):
        return None
    session = read_claude_code(text)
    problems = session.problems(source)
    if problems:
        logging.getLogger(__name__).warning("tota: warning: %s", problems)
    if not session.messages:
        raise ValidationError(f"{source}: no messages (a Claude Code session with no text)")
    return session


# --- dates -----------------------------------------------------------------------------------


def _clock(hour: int, minute: int, half: str | None) -> tuple[int, int]:
    """24-hour time from `1:56` and an optional `am`/`pm`; raise `ValueError` when impossible."""
    if half:
        if not 1 <= hour <= 12:
            raise ValueError
        hour = hour % 12 + (12 if half.lower().startswith("p") else 0)
    if hour > 23 or minute > 59:
        raise ValueError
    return hour, minute


def _parse_when(text: str) -> datetime | None:
    """Read a date or date-time in one of the transcript forms; None when `text` is not one.

    Forms: ISO (`2023-05-08`, `2023-05-08 13:56`, `2023-05-08T13:56:00+02:00`), `8 May 2023`,
    `May 8, 2023`, and `1:56 pm on 8 May, 2023`. A text in one of these shapes that is not a
    real date (`2023-02-30`) raises `ValueError` naming it, rather than passing for prose.
    """
    text = text.strip()
    if _ISO_RE.match(text):
        try:
            return parse_date(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a real date") from None
    hour = minute = 0
    timed = _TIME_ON_RE.match(text)
    if timed:
        inner = _parse_when(timed.group("date"))
        if inner is None:
            return None
        try:
            hour, minute = _clock(int(timed["hour"]), int(timed["minute"]), timed["half"])
        except ValueError:
            raise ValueError(f"{text!r} is not a real time") from None
        return inner.replace(hour=hour, minute=minute)
    text_no_day = _WEEKDAY_RE.sub("", text, count=1)
    match = _DAY_MONTH_YEAR_RE.match(text_no_day) or _MONTH_DAY_YEAR_RE.match(text_no_day)
    if not match or match["month"].lower() not in MONTHS:
        return None
    try:
        return datetime(int(match["year"]), MONTHS[match["month"].lower()], int(match["day"]))
    except ValueError:
        raise ValueError(f"{text!r} is not a real date") from None


def _json_time(value: Any, *, key: str) -> datetime | None:
    """A JSON message's time: an ISO or transcript-form string, or epoch seconds.

    Raises `ValueError` with the reason; None (or an empty string) means no time.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and _EPOCH_RE.match(value.strip()):
        value = float(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value).replace(microsecond=0)
        except (OverflowError, OSError, ValueError):
            raise ValueError(f"{key} {value!r} is out of range (expected epoch seconds)") from None
    if not isinstance(value, str):
        raise ValueError(f"{key} is {_kind(value)}, not a date")
    when = _parse_when(value)  # raises for a date-shaped text that is not a real date
    if when is None:
        raise ValueError(f"{key} {value.strip()!r} is not a date")
    return when


# --- text ------------------------------------------------------------------------------------


@dataclass
class _Draft:
    """A message of a transcript being read: its lines grow until the next speaker."""

    role: str
    name: str | None
    timestamp: datetime | None
    lines: list[str] = field(default_factory=list)


def _is_name(speaker: str) -> bool:
    """Whether `speaker` has the shape of a person's name (rule 3 of the module docstring)."""
    if len(speaker) > MAX_NAME_CHARS or not _NAME_RE.match(speaker):
        return False
    first, *rest = speaker.split(" ")
    if not first[0].isupper() or first.lower().rstrip(".") in LABEL_WORDS:
        return False
    return all(word[0].isupper() or word.lower() in NAME_PARTICLES for word in rest)


def _speaker_start(
    line: str, names: set[str], *, allow_new: bool
) -> tuple[str, str | None, datetime | None, str] | None:
    """`(role, name, timestamp, content)` when `line` starts a message, else None.

    `names` are the people who have spoken so far; `allow_new` says whether a name not among
    them may start a message here. Raises `ValueError` for a timestamp that is date-shaped
    but not a real date.
    """
    match = _SPEAKER_LINE_RE.match(line)
    if not match:
        return None
    speaker = match["speaker"]
    stamp_text = match["bracketed"] or match["bare"]
    role = TEXT_ROLES.get(speaker.lower())
    name: str | None = None
    if role is None:
        if speaker not in names and not ((allow_new or stamp_text) and _is_name(speaker)):
            return None
        role, name = "user", speaker
    stamp = None
    if stamp_text is not None:
        stamp = _parse_when(stamp_text)
        if stamp is None:  # `[1] User: ...`: a footnote, not a timestamp
            return None
    return role, name, stamp, match["content"] or ""


def _header_date(line: str, *, allow_label: bool) -> datetime | None:
    """The date a header line sets, or None when `line` is not a header.

    `--- <date> ---` is a header anywhere; `Date: <date>` only where `allow_label` says a
    message could begin, so a person's "Date: 2023-05-08" inside a message stays theirs.
    """
    match = _RULE_HEADER_RE.match(line)
    if not match and allow_label:
        match = _DATE_HEADER_RE.match(line)
    if not match:
        return None
    return _parse_when(match["date"])


def _parse_text(text: str, source: str) -> list[Message]:
    return list(_iter_text(text.splitlines(), source))


def _iter_text(lines: Iterable[str], source: str) -> Iterator[Message]:
    """The messages of a transcript's lines, each as soon as the next one starts."""
    draft: _Draft | None = None
    position = 0
    names: set[str] = set()
    current_time: datetime | None = None
    in_fence = False
    block_start = True  # the next line may open a block: the first line, after a blank or header
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            if draft is not None:
                draft.lines.append("")
            block_start = True
            continue
        if not in_fence:
            try:
                header = _header_date(line, allow_label=block_start or draft is None)
                start = None
                if header is None:
                    named_chat = draft is not None and draft.name is not None
                    start = _speaker_start(line, names, allow_new=block_start or named_chat)
            except ValueError as exc:
                raise ValidationError(f"{source}: line {number}: {exc}") from None
            if header is not None:
                current_time = header
                block_start = True
                continue
            if start is not None:
                role, name, stamp, content = start
                if stamp is not None:
                    current_time = stamp
                if name is not None:
                    names.add(name)
                if draft is not None:
                    position += 1
                    yield _finish(draft, position)
                draft = _Draft(role, name, current_time, [content])
                in_fence = bool(_FENCE_RE.match(content))
                block_start = False
                continue
        if draft is None:
            raise ValidationError(f"{source}: line {number}: expected 'Speaker: text'")
        draft.lines.append(line)
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        block_start = False
    if draft is not None:
        yield _finish(draft, position + 1)


def _finish(draft: _Draft, position: int) -> Message:
    return Message(
        role=draft.role,
        content="\n".join(draft.lines).strip("\n").rstrip(),
        id=str(position),
        name=draft.name,
        timestamp=draft.timestamp,
    )


# --- json and jsonl --------------------------------------------------------------------------


def _kind(value: Any) -> str:
    """`value`'s JSON type with an article, for errors: "a list", "a string", "null"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _content(value: Any) -> str:
    """A message's text from `content`: a string, null, or a list of parts.

    Text parts are joined with "\\n"; images, audio and other parts are skipped. Raises
    `ValueError` naming what is wrong.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise ValueError(f"content is {_kind(value)} (expected text or a list of parts)")
    texts = []
    for index, part in enumerate(value, start=1):
        if isinstance(part, str):
            texts.append(part)
            continue
        if not isinstance(part, dict):
            raise ValueError(f"content part {index} is {_kind(part)} (expected an object)")
        if part.get("type", "text") not in TEXT_PART_TYPES:
            continue
        text = part.get("text")
        if isinstance(text, dict):  # the Assistants API nests it: {"value": ..., "annotations"}
            text = text.get("value")
        if not isinstance(text, str):
            raise ValueError(f"content part {index} has no text")
        texts.append(text)
    return "\n".join(texts)


def _scalar_text(value: Any, *, key: str) -> str | None:
    """An `id` or `name`: any scalar as a string; null or "" as None. Raises `ValueError`."""
    if value is None:
        return None
    if isinstance(value, dict | list):
        raise ValueError(f"{key} is {_kind(value)} (expected text or a number)")
    text = str(value).strip()
    return text or None


def _message(obj: Any, position: int, *, where: str) -> Message:
    """One message from a JSON object; `where` (`message 3`, `line 7`) prefixes every error."""
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: expected a message object, got {_kind(obj)}")
    raw_role = obj.get("role")
    if raw_role is None:
        raise ValueError(f"{where}: no role")
    if not isinstance(raw_role, str):
        raise ValueError(f"{where}: role is {_kind(raw_role)} (expected text)")
    role = JSON_ROLES.get(raw_role.strip().lower())
    if role is None:
        raise ValueError(
            f"{where}: unknown role {raw_role!r} (expected user, assistant, system, tool)"
        )
    try:
        content = _content(obj.get("content"))
        message_id = _scalar_text(obj.get("id"), key="id") or str(position)
        name = _scalar_text(obj.get("name"), key="name")
        key = next((k for k in TIME_KEYS if obj.get(k) is not None), TIME_KEYS[0])
        timestamp = _json_time(obj.get(key), key=key)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    return Message(role=role, content=content, id=message_id, name=name, timestamp=timestamp)


def _load_json(text: str, source: str) -> Any:
    """The JSON value of a whole file; `ValidationError` naming the line and column if not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            f"{source}: line {exc.lineno} column {exc.colno}: not JSON ({exc.msg})"
        ) from None
    except RecursionError:
        raise ValidationError(f"{source}: not JSON (nested too deeply)") from None


def _parse_json(text: str, source: str) -> list[Message]:
    data = _load_json(text, source)
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        items = data["messages"]
    elif isinstance(data, list):
        items = data
    elif isinstance(data, dict) and "messages" in data:
        raise ValidationError(
            f'{source}: "messages" is {_kind(data["messages"])} (expected a list of messages)'
        )
    else:
        raise ValidationError(
            f'{source}: expected a list of messages or an object with a "messages" list, '
            f"got {_kind(data)}"
        )
    try:
        return [
            _message(item, position, where=f"message {position}")
            for position, item in enumerate(items, start=1)
        ]
    except ValueError as exc:
        raise ValidationError(f"{source}: {exc}") from None


def _parse_jsonl(text: str, source: str) -> list[Message]:
    return list(_iter_jsonl(text.splitlines(), source))


def _iter_jsonl(lines: Iterable[str], source: str) -> Iterator[Message]:
    """The messages of JSONL lines, one by one."""
    count = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"{source}: line {number}: not JSON ({exc.msg})") from None
        except RecursionError:
            raise ValidationError(
                f"{source}: line {number}: not JSON (nested too deeply)"
            ) from None
        if not isinstance(obj, dict):
            raise ValidationError(
                f"{source}: line {number}: expected a JSON object, got {_kind(obj)}"
            )
        try:
            message = _message(obj, count + 1, where=f"line {number}")
        except ValueError as exc:
            raise ValidationError(f"{source}: {exc}") from None
        count += 1
        yield message


# --- streaming -------------------------------------------------------------------------------

#: How much of a file `stream_conversations` reads before it decides the format: whole lines
#: up to this many characters. A file no longer than this is read exactly as
#: `read_conversations` reads it.
HEAD_CHARS = 1 << 20


def stream_conversations(
    stream: TextIO,
    format: str = "auto",
    *,
    source: str = "<input>",
    problems: list[str] | None = None,
) -> Iterator[tuple[str, Iterable[Message]]]:
    """`read_conversations` for a file of any length: `(conversation id, messages)` pairs.

    A text transcript or a JSONL file yields its messages as they are read, line by line, so a
    200,000-message log is never held whole (its id comes from its opening messages, as
    `fallback_conversation_id` says; an error in a line past those is raised when that line
    is reached). JSON, an export or a Claude Code transcript is read whole, as
    `read_conversations` reads it (`problems` as there).
    """
    _check_format(format, source)
    head: list[str] = []
    size = 0
    while size < HEAD_CHARS:
        line = stream.readline()
        if not line:
            break
        head.append(line)
        size += len(line)
    text = "".join(head).removeprefix("\ufeff")
    kind = format
    if format == "auto" and text.strip()[:1] not in ("[", "{"):
        from .claude_code import looks_like_claude_code

        kind = "text" if not looks_like_claude_code(text) else "auto"
    elif format == "auto" and _all_lines_are_objects(text) and not _claude_code_head(text):
        kind = "jsonl" if _detect(text) == "jsonl" else "auto"
    if kind not in ("text", "jsonl"):
        rest = text + stream.read()
        for conversation in read_conversations(rest, format, source=source, problems=problems):
            yield conversation.id, conversation.messages
        return
    lines = _lines(text.splitlines(), stream)
    messages = _iter_text(lines, source) if kind == "text" else _iter_jsonl(lines, source)
    opening = take_opening(messages)
    if not opening:
        raise ValidationError(f"{source}: no messages")
    yield fallback_conversation_id(opening), chain(opening, messages)


def _claude_code_head(text: str) -> bool:
    from .claude_code import looks_like_claude_code

    return looks_like_claude_code(text)


def _lines(head: list[str], stream: TextIO) -> Iterator[str]:
    """The head's lines, then the stream's, split as `str.splitlines` splits a whole text."""
    yield from head
    for line in stream:
        yield from line.splitlines() or [""]
