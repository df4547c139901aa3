"""Markdown note <-> Memory: parse, render, surgical patch, titles.

Three rules from the field decide this module's shape:

* Read YAML so that strings stay strings. python-frontmatter splits the note; its YAML is read
  by a loader with no implicit resolvers, so `id: 0123`, `reply: no` and `version: 1.10` come
  back exactly as written, and the model converts the fields it knows by their own rules.
* Render tota's own notes deterministically: fixed key order, Obsidian dates, final newline,
  so the same memory always gives the same bytes and `git diff` shows only real changes.
* Never round-trip a person's note through a YAML dumper. A change to a note is a patch of the
  frontmatter lines that change; every other byte (quotes, comments, order, body) stays.

Parsing never raises: a note that is not a valid memory comes back with `error` set and with
whatever readable text it has, so the index can still find it by its words.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

import frontmatter
import yaml

from .errors import InvalidNoteError, ValidationError, first_line
from .history import history_span
from .model import (
    FIELD_ORDER,
    Memory,
    MemoryType,
    format_date,
    memory_from_fields,
)
from .sanitize import clean_title
from .text import HTML_COMMENT, first_sentence

__all__ = [
    "MAX_NOTE_BYTES",
    "REMOVE",
    "ParsedNote",
    "decode_note",
    "key_spans",
    "locate_frontmatter",
    "parse_note",
    "patch_frontmatter",
    "render_body",
    "render_fields",
    "render_note",
    "split_body",
    "split_quote",
    "reads_back",
    "statement_problem",
    "check_tags",
    "tag_problem",
    "text_problem",
    "title_from_text",
    "title_of",
    "unique_title",
]

#: Notes above this size are reported, not parsed: no memory is 10 MB of prose, and reading
#: such a file on every sync would stall the daemon.
MAX_NOTE_BYTES = 10 * 1024 * 1024
#: A YAML alias bomb expands a few lines into billions of nodes; no real frontmatter comes
#: near this many, so composition stops here.
MAX_YAML_NODES = 10_000
#: Sentinel for `patch_frontmatter`: delete the key's lines.
REMOVE = object()

_FENCE_RE = re.compile(r"^-{3,}[ \t]*\r?$", re.MULTILINE)
_STRAY_BYTE_RE = re.compile("[\udc80-\udcff]")  # bytes that surrogateescape could not decode
_CONFLICT_RE = re.compile(r"^(<{7}|={7}|>{7})(?: |$)", re.MULTILINE)
_TOP_KEY_RE = re.compile(r"^([^\s#\-][^:\n]*?)[ \t]*:(?:[ \t]|$)")
_FORBIDDEN_TITLE_CHARS = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f\x7f]')
_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL"} | {
    f"{prefix}{n}" for prefix in ("COM", "LPT") for n in range(1, 10)
}
_PLAIN_SAFE_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9 _./@+()'#-]*")
MAX_TITLE_CHARS = 80
#: A file name holds 255 bytes on most file systems, and a note's temp file adds 19 to its
#: name (`.<name>.<8 hex>.tota.tmp`), a repeat " 2"..., `.md` 3: 80 CJK characters are 240.
MAX_TITLE_BYTES = 200


class _StringLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """A safe YAML loader that resolves no implicit types: every plain scalar is a string."""


_StringLoader.yaml_implicit_resolvers = {}


class _StringYAMLHandler(frontmatter.YAMLHandler):
    """python-frontmatter's YAML handler, loading with `_StringLoader` and a node budget."""

    def load(self, fm: str, **kwargs: object) -> Any:
        fast = _simple_fields(fm)
        if fast is not None:
            return fast
        loader = _StringLoader(fm)
        try:
            node = loader.get_single_node()
            if node is None:
                return {}
            _check_nodes(node)
            return loader.construct_document(node)
        finally:
            loader.dispose()


_HANDLER = _StringYAMLHandler()

#: The frontmatter tota writes, and most people write, is a flat list of `key: value` lines and
#: block lists. `_simple_fields` reads exactly that subset in pure Python, several times faster
#: than composing YAML nodes, and gives up (None) on anything else, which then goes through
#: the YAML loader. A differential test holds the two readers to the same answers.
_SIMPLE_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?")
_SIMPLE_ITEM = re.compile(r"(?:  )?- (.*)")
_PLAIN_START = frozenset("[]{}&*!|>'%@`#,?:-\"\t ")


def _simple_scalar(raw: str) -> str | None:
    """The string a flat YAML value reads as, or None when it needs the real parser."""
    value = raw.rstrip(" ")
    if not value:
        return ""
    if value[0] == '"':
        if "\\u" in value or "\t" in value or not value.endswith('"') or len(value) < 2:
            return None
        try:
            loaded = json.loads(value)
        except ValueError:
            return None
        return loaded if isinstance(loaded, str) else None
    if value[0] in _PLAIN_START or ": " in value or " #" in value or value.endswith(":"):
        return None
    if "\t" in value or "\r" in value:
        return None
    return value


def _simple_fields(fm: str) -> dict[str, Any] | None:
    """Read a flat frontmatter (`key: value`, `key:` + `  - item` lines, `key: []`)."""
    fields: dict[str, Any] = {}
    current: str | None = None  # a key whose value may be a block list
    for line in fm.split("\n"):
        if not line.strip():
            current = None  # a blank line ends a block list; a later item falls back
            continue
        item = _SIMPLE_ITEM.fullmatch(line)
        if item is not None:
            if current is None:
                return None
            value = _simple_scalar(item.group(1))
            if value is None:
                return None
            existing = fields[current]
            if existing == "":
                fields[current] = [value]
            elif isinstance(existing, list):
                existing.append(value)
            else:
                return None
            continue
        match = _SIMPLE_KEY.fullmatch(line)
        if match is None or match.group(1) in fields:
            return None  # comments, nesting, flow style, duplicates: the YAML loader decides
        key, raw = match.group(1), match.group(2) or ""
        if raw.strip() == "[]":
            fields[key], current = [], None
            continue
        value = _simple_scalar(raw)
        if value is None:
            return None
        fields[key] = value
        current = key if value == "" else None
    return fields


def _check_nodes(root: yaml.Node) -> None:
    """Refuse alias bombs and duplicate keys before any value is built."""
    seen = 0
    stack = [root]
    while stack:
        node = stack.pop()
        seen += 1
        if seen > MAX_YAML_NODES:
            raise InvalidNoteError(
                f"frontmatter expands to more than {MAX_YAML_NODES} YAML nodes (an alias bomb?)"
            )
        if isinstance(node, yaml.MappingNode):
            keys: set[str] = set()
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and node is root:
                    if key_node.value in keys:
                        raise InvalidNoteError(f"duplicate frontmatter key {key_node.value!r}")
                    keys.add(key_node.value)
                stack.append(key_node)
                stack.append(value_node)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


@dataclass(frozen=True)
class ParsedNote:
    """What one file holds, valid or not.

    `fields` is the frontmatter as read (strings stay strings); `body` the Markdown after it,
    with LF line ends; `memory` is set when the note is a valid memory, `error` when it is not.
    A note with no type at all (a plain note in the vault's root) has neither: it is indexed
    for search but is not a memory.
    """

    path: str
    title: str
    fields: dict[str, Any]
    body: str
    memory: Memory | None
    error: str | None
    has_frontmatter: bool

    @property
    def needs_id(self) -> bool:
        """True for a valid memory a person wrote without an `id`: it gets one by a patch."""
        return self.memory is not None and not self.memory.id


def decode_note(data: bytes) -> str:
    """Decode a note's bytes to text, or raise `InvalidNoteError` saying why they are not one.

    A UTF-8 BOM is dropped (it hides the frontmatter from every YAML reader).
    """
    if not data:
        raise InvalidNoteError("empty file")
    if len(data) > MAX_NOTE_BYTES:
        raise InvalidNoteError(
            f"too large ({len(data) / 1_048_576:.1f} MB; notes are limited to "
            f"{MAX_NOTE_BYTES // 1_048_576} MB)"
        )
    problem = text_problem(data)
    if problem is not None:
        raise InvalidNoteError(problem)
    return data.decode("utf-8").removeprefix("\ufeff")


def text_problem(data: bytes) -> str | None:
    """Why bytes are no text a note can be (binary, or not UTF-8), or None. Pure.

    `decode_note` refuses such a note; `tota edit` will not open one (an editor would show it
    garbled, and save it so), and tota writes into none."""
    if b"\x00" in data:
        return "binary file (contains NUL bytes), not a Markdown note"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
    return None


def _salvage_text(data: bytes) -> str:
    """Decode bytes that are not valid UTF-8 for search: each stray byte is read as cp1252.

    Such files are most often Latin-1 or Windows-1252, so `caf\\xe9` is still found as `café`.
    """
    text = data.decode("utf-8", errors="surrogateescape")
    return _STRAY_BYTE_RE.sub(
        lambda m: bytes([ord(m.group()) - 0xDC00]).decode("cp1252", errors="replace"), text
    )


def _headless_close(text: str) -> int | None:
    """The line number of the `---` closing a frontmatter that lost its opening fence, or None.

    Only a note that opens with one of tota's own properties (`id:`, `type:`, ...) and whose
    lines up to a `---` read as YAML properties is one: a Markdown note whose first line is
    "Note: ..." and that has a rule further down is not, nor one whose lines before its rule
    are a heading and a list ("status: training", "# Marathon", "- 3 runs a week")."""
    first, _, _ = text.partition("\n")
    key = first.split(":", 1)[0].strip() if ":" in first else ""
    if key not in FIELD_ORDER:
        return None
    closing = _FENCE_RE.search(text)
    if closing is None:
        return None
    try:
        loaded = _HANDLER.load(text[: closing.start()])
    except (InvalidNoteError, yaml.YAMLError):
        return None
    if not isinstance(loaded, dict):
        return None
    return text.count("\n", 0, closing.start()) + 1


def locate_frontmatter(text: str) -> tuple[int, int, int] | None:
    """Return (start of YAML, end of YAML, start of body) offsets, or None without frontmatter."""
    first = _FENCE_RE.match(text)
    if first is None:
        return None
    yaml_start = first.end() + 1 if text[first.end() : first.end() + 1] == "\n" else first.end()
    closing = _FENCE_RE.search(text, yaml_start)
    if closing is None:
        return None
    body_start = closing.end()
    if text[body_start : body_start + 1] == "\n":
        body_start += 1
    return yaml_start, closing.start(), body_start


def _yaml_error(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or first_line(exc)
    where = f" at line {mark.line + 2}" if mark is not None else ""
    return f"invalid YAML frontmatter{where}: {problem}"


def split_quote(statement: str) -> tuple[str, str]:
    """Split a trailing block quote off a statement: the words the memory was learned from.

    "Goes to a support group.\n\n> I went to a support group yesterday." gives the statement
    and the quoted words (without their `> `).
    """
    lines = statement.rstrip().split("\n")
    cut = len(lines)
    while cut > 0 and lines[cut - 1].startswith(">"):
        cut -= 1
    if cut == len(lines) or cut == 0:
        return statement.strip(), ""
    quote = "\n".join(line[1:].removeprefix(" ") for line in lines[cut:])
    return "\n".join(lines[:cut]).strip(), quote.strip()


def statement_problem(text: str) -> str | None:
    """Why `text` cannot be a memory's statement as written, or None when it can.

    A note's body holds the statement, then the quote it was learned from (trailing `>`
    lines), then the `## History` section: a statement that itself ends in `>` lines, holds a
    `## History` heading, leaves a code fence or HTML block open, or holds a git conflict
    marker would read back as something else. Such text is refused rather than silently
    changed (tests/test_properties.py holds render and parse to this).
    """
    stripped = text.strip()
    if not stripped:
        return "a memory needs some text"
    # Read the statement as a note body would hold it, with a History after it: the section
    # must start exactly there (a '## History' line of its own, or an unclosed code fence or
    # HTML block that swallows what follows, would move or hide it).
    span = history_span(stripped + "\n\n## History\n- x\n")
    if span is None or span[0] != len(stripped) + 2:
        return (
            "it holds a '## History' heading, or a code fence or HTML block it does not close; "
            "notes keep what follows for their History"
        )
    if stripped.rsplit("\n", 1)[-1].startswith(">"):
        return "its last line is a block quote ('>'), which notes keep for the quoted source"
    if _CONFLICT_RE.search(stripped):
        return "it holds a git conflict marker line (<<<<<<<, =======, >>>>>>>)"
    return None


def split_body(body: str) -> tuple[str, tuple[str, ...]]:
    """Split a body into its statement and the entries of its `## History` section."""
    span = history_span(body)
    if span is None:
        return body.strip(), ()
    start, end = span
    section = body[start:end].split("\n", 1)[1] if "\n" in body[start:end] else ""
    tail = body[end:]
    entries = tuple(
        line[2:].strip() for line in section.splitlines() if line.startswith(("- ", "* "))
    )
    statement = (body[:start].rstrip() + ("\n\n" + tail.strip() if tail else "")).strip()
    return statement, entries


def parse_note(
    data: bytes,
    path: str,
    *,
    fallback_time: datetime | None = None,
) -> ParsedNote:
    """Read one note's bytes; never raises.

    `path` is vault-relative with `/` separators: its first folder, when it names a type, is the
    type of a note that has none in its frontmatter, and its stem is the title.
    """
    title = title_of(path)
    try:
        text = decode_note(data)
    except InvalidNoteError as exc:
        readable = ""
        if exc.reason.startswith("not valid UTF-8"):
            readable = _salvage_text(data).removeprefix("\ufeff")
        return ParsedNote(path, title, {}, readable.replace("\r\n", "\n"), None, exc.reason, False)

    text = text.replace("\r\n", "\n")
    located = locate_frontmatter(text)
    fields: dict[str, Any] = {}
    body = text
    if located is not None:
        yaml_start, yaml_end, body_start = located
        body = text[body_start:]
        fm_text = text[yaml_start:yaml_end]
        conflict = _CONFLICT_RE.search(fm_text)
        if conflict is not None:
            line = fm_text.count("\n", 0, conflict.start()) + 2
            return ParsedNote(
                path, title, {}, body, None,
                f"unresolved git merge conflict in frontmatter at line {line}", True,
            )  # fmt: skip
        try:
            loaded = _HANDLER.load(fm_text)
        except InvalidNoteError as exc:
            return ParsedNote(path, title, {}, body, None, exc.reason, True)
        except yaml.YAMLError as exc:
            return ParsedNote(path, title, {}, body, None, _yaml_error(exc), True)
        if isinstance(loaded, dict):
            fields = {str(k): v for k, v in loaded.items()}
        elif loaded not in ("", None):
            kind = "a list" if isinstance(loaded, list) else "a single value"
            return ParsedNote(
                path, title, {}, body, None,
                f"frontmatter is {kind}, not a mapping of properties", True,
            )  # fmt: skip
    elif text.startswith("---"):
        return ParsedNote(path, title, {}, text, None, "frontmatter is never closed by ---", False)
    elif (closing := _headless_close(text)) is not None:
        # Its first line deleted (one `dd` in vim): read as a body, the properties would become
        # a new memory's statement and the note a new id. Invalid instead, left as it is.
        reason = f"frontmatter has no opening --- (the --- at line {closing} closes it)"
        return ParsedNote(path, title, {}, text, None, reason, False)

    conflict = _CONFLICT_RE.search(body)
    if conflict is not None:
        line = text.count("\n", 0, text.find(body) + conflict.start()) + 1
        return ParsedNote(
            path, title, fields, body, None, f"unresolved git merge conflict at line {line}",
            located is not None,
        )  # fmt: skip

    folder = path.split("/", 1)[0] if "/" in path else None
    default_type = None
    if folder is not None:
        try:
            default_type = MemoryType(folder)
        except ValueError:
            default_type = None
    if "type" not in fields and default_type is None and "id" not in fields:
        # A plain note (a README, a daily note): searchable, but not a memory.
        return ParsedNote(path, title, fields, body, None, None, located is not None)

    statement, history = split_body(body)
    statement, quote = split_quote(statement)
    if not HTML_COMMENT.sub("", statement).strip():
        # A memory is its statement: one with none (a blank file, properties and nothing
        # else, a comment of the person's only) is no memory to recall, and gets no id.
        reason = "no statement: a memory note holds its statement below the frontmatter"
        return ParsedNote(path, title, fields, body, None, reason, located is not None)
    try:
        memory = memory_from_fields(
            fields,
            statement,
            history=history,
            quote=quote,
            default_type=default_type,
            fallback_time=fallback_time,
            path=None,
        )
    except InvalidNoteError as exc:
        return ParsedNote(path, title, fields, body, None, exc.reason, located is not None)
    return ParsedNote(path, title, fields, body, memory, None, located is not None)


# --- rendering -------------------------------------------------------------------------------


#: Words YAML 1.1 readers (PyYAML, Obsidian's) turn into booleans or null.
_YAML11_WORDS = frozenset("y n yes no true false on off null".split())


@lru_cache(maxsize=4096)
def _plain_ok(value: str) -> bool:
    """True when `value` may be written unquoted and every YAML reader gets the same string."""
    if not _PLAIN_SAFE_RE.fullmatch(value) or value != value.strip():
        return False
    if ": " in value or " #" in value:
        return False
    if value[0].isalpha() and value.lower() not in _YAML11_WORDS:
        # Starts with a letter and is no YAML 1.1 boolean or null: every reader sees a string
        # (numbers, dates and times start with a digit, sign or dot). Skips a YAML parse.
        return True
    if value[0].isdigit() and value.isascii() and value.isalnum() and not value.isdigit():
        # Digits and letters only, such as a memory's id (`01JD...`): no YAML number has a
        # letter except after `0x`, `0b` or `0o` (ints) or in `e` with a dot (floats need the
        # dot), and dates and times need `-` or `:`. Every note has its own id, so the cache
        # above never helps them: this skips a YAML parse per note written.
        return value[:2].lower() not in ("0x", "0b", "0o")
    try:
        return yaml.safe_load(value) == value
    except yaml.YAMLError:
        return False


def _scalar(value: Any) -> str:
    if type(value) is str:  # the common case first: a note is mostly strings
        return value if _plain_ok(value) else _quoted(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(round(value, 4))
    if isinstance(value, datetime):
        return format_date(value)
    text = str(value)
    if _plain_ok(text):
        return text
    return _quoted(text)


def _quoted(text: str) -> str:
    """`text` as a double-quoted YAML scalar. YAML readers refuse U+FFFE and U+FFFF anywhere
    in a file (PyYAML: "unacceptable character"), so a note holding one raw would be invalid;
    as escapes they read back as themselves."""
    quoted = json.dumps(text, ensure_ascii=False)
    return quoted.replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")


@lru_cache(maxsize=1024)
def _key(name: str) -> str:
    """A property name as YAML: plain when every reader gets it back, else double-quoted.

    A person may name a property `"#todo"` or `"a: b"` (quoted in their note); written plain,
    the first would be a comment and the second invalid YAML.
    """
    if name and name == name.strip() and "\n" not in name:
        try:
            if yaml.safe_load(f"{name}: x") == {name: "x"}:
                return name
        except yaml.YAMLError:
            pass
    return _quoted(name)


def _render_key(name: str, value: Any) -> list[str]:
    if isinstance(value, (list, tuple)):
        if not value:
            return [f"{_key(name)}: []"]
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return [f"{_key(name)}:"] + [f"  - {_scalar(v)}" for v in value]
    if isinstance(value, (dict, list, tuple)):
        dumped = yaml.safe_dump(
            {name: value}, sort_keys=False, default_flow_style=False, allow_unicode=True
        )
        return dumped.rstrip("\n").split("\n")
    if value is None:
        return [f"{_key(name)}:"]
    return [f"{_key(name)}: {_scalar(value)}"]


def render_fields(fields: Mapping[str, Any]) -> str:
    """Render frontmatter properties as YAML lines, in the mapping's order, each line ending LF."""
    lines: list[str] = []
    for name, value in fields.items():
        if type(value) in (str, int, float):  # one line; not a bool, whose type is its own
            lines.append(f"{_key(name)}: {_scalar(value)}\n")
        else:
            lines.extend(line + "\n" for line in _render_key(name, value))
    return "".join(lines)


def render_body(text: str, history: Iterable[str] = (), quote: str = "") -> str:
    """Render a memory's body: its statement, the words it was learned from as a block quote,
    then a `## History` section when it has one."""
    out = text.strip() + "\n"
    if quote.strip():
        out += "\n" + "".join(
            f"> {line}\n" if line else ">\n" for line in quote.strip().split("\n")
        )
    entries = list(history)
    if entries:
        out += "\n## History\n" + "".join(f"- {entry}\n" for entry in entries)
    return out


def render_note(memory: Memory) -> str:
    """Render a memory as tota writes it: the same memory always gives the same text."""
    return (
        "---\n"
        + render_fields(memory.fields())
        + "---\n"
        + render_body(memory.text, memory.history, memory.quote)
    )


#: What a one-line field (a source, tag, alias, History entry, key, subject) may hold to read
#: back unchanged: no line break or control character (tests/test_properties.py's `LINE`), and
#: neither of the two noncharacters YAML readers refuse (escaped by `_scalar`, read back by
#: YAML alone).
_NOT_ONE_LINE_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")


def _one_line(value: object) -> bool:
    return (
        isinstance(value, str)
        and bool(value)
        and value == value.strip()
        and not _NOT_ONE_LINE_RE.search(value)
    )


def reads_back(memory: Memory) -> bool:
    """Whether `parse_note(render_note(memory))` gives `memory` back, judged without rendering
    or parsing: the parts of a memory the format writes lossily are in their written form
    (scores of at most four decimals, dates to the second without a zone, texts and one-line
    fields stripped, unknown keys holding one-line strings). The statement itself is checked
    where text enters (`statement_problem`, which the pipeline and `remember` apply).

    Writing a new note, tota indexes the memory it rendered instead of parsing its own bytes
    back, when this holds (tests/test_properties.py holds the two to the same row). Pure."""
    if not memory.id or not _one_line(memory.id):
        return False
    for score in (memory.confidence, memory.importance, memory.durability):
        if type(score) not in (float, int) or round(score, 4) != score:
            return False
    for date in (memory.created, memory.updated, memory.confirmed):
        if date.microsecond or date.tzinfo is not None:
            return False
    if memory.text != memory.text.strip() or memory.quote != memory.quote.strip():
        return False
    lines = (*memory.sources, *memory.tags, *memory.aliases, *memory.history, memory.subject)
    if not all(map(_one_line, lines)) or (memory.key is not None and not _one_line(memory.key)):
        return False
    return all(_one_line(k) and _one_line(v) for k, v in memory.extra.items())


# --- surgical patch --------------------------------------------------------------------------


def _lf_lines(text: str) -> list[str]:
    """`text` cut after each LF, each piece keeping its line end (CRLF whole). Not
    `str.splitlines`, which also cuts at U+2028, U+0085 and form feeds: a value holding one
    would then be split in two and a patch land inside it (the note no longer YAML)."""
    pieces = text.split("\n")
    lines = [piece + "\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines


def _key_spans(lines: list[str]) -> dict[str, tuple[int, int]]:
    """Map each top-level key of frontmatter lines to its [start, end) line range.

    A key's value runs over the indented lines and `- ` items that follow it; a blank line, a
    comment at column 0 or the next key ends it, so comments and blank lines belong to no key
    and survive every patch.
    """
    spans: dict[str, tuple[int, int]] = {}
    current: str | None = None
    start = 0
    for i, line in enumerate(lines):
        bare = line.rstrip("\r\n")
        match = _TOP_KEY_RE.match(bare)
        if current is not None and (match or bare.startswith("#") or not bare.strip()):
            spans[current] = (start, i)
            current = None
        if match is not None:
            current, start = match.group(1).strip().strip("\"'"), i
    if current is not None:
        spans[current] = (start, len(lines))
    return spans


def key_spans(lines: list[str]) -> dict[str, tuple[int, int]]:
    """Map each top-level key of frontmatter lines to its [start, end) line range.

    The same reading `patch_frontmatter` uses, for the git merge driver, which merges a
    note's frontmatter key by key on these raw line blocks so untouched keys keep their bytes.
    """
    return _key_spans(lines)


_NOT_CONTENT = (yaml.BlockEndToken, yaml.StreamEndToken)


def _trailing_comment(line: str) -> str:
    """The comment at the end of one `key: value` line, with the blanks before it ("" if
    none). YAML's own scanner says where the value ends, so a `#` inside a quoted value or
    glued to a word (`a#b`) is not mistaken for one."""
    if "#" not in line:
        return ""
    try:
        ends = [t.end_mark.column for t in yaml.scan(line) if not isinstance(t, _NOT_CONTENT)]
    except yaml.YAMLError:
        return ""
    rest = line[max(ends, default=len(line)) :]
    return rest.rstrip() if rest[:1] in (" ", "\t") and rest.lstrip().startswith("#") else ""


def patch_frontmatter(text: str, changes: Mapping[str, Any], *, verify: bool = True) -> str:
    """Change only the frontmatter lines of the keys in `changes`; keep every other byte.

    A key that exists has its lines replaced in place; a new key is added at the end of the
    frontmatter (after `id`'s natural place for an `id`: first). `REMOVE` deletes a key. A note
    without frontmatter gets a new block on top; its body is not touched. The BOM and the line
    ending style (LF or CRLF) of the file are kept. The result is read back (unless `verify`
    is False, for a caller that just verified the same text): if any key other than the
    changed ones would read differently, `InvalidNoteError` is raised and nothing is to be
    written.
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text.removeprefix("\ufeff")
    newline = "\r\n" if "\r\n" in text[: text.find("\n") + 1 or len(text)] else "\n"
    located = locate_frontmatter(text.replace("\r\n", "\n"))

    def rendered(name: str, value: Any) -> list[str]:
        return [line + newline for line in _render_key(name, value)]

    if located is None:
        block = [line for name, value in changes.items() if value is not REMOVE
                 for line in rendered(name, value)]  # fmt: skip
        return bom + "---" + newline + "".join(block) + "---" + newline + text

    # Offsets were found on LF text; map them back by counting lines, which CRLF keeps.
    lf = text.replace("\r\n", "\n")
    yaml_start, yaml_end, _ = located
    head_lines = lf[:yaml_start].count("\n")
    fm_line_count = lf[yaml_start:yaml_end].count("\n")
    all_lines = _lf_lines(text)
    before = all_lines[:head_lines]
    fm_lines = all_lines[head_lines : head_lines + fm_line_count]
    after = all_lines[head_lines + fm_line_count :]

    spans = _key_spans(fm_lines)
    replacements: dict[int, tuple[int, list[str]]] = {}
    appended: list[str] = []
    prepended: list[str] = []
    for name, value in changes.items():
        if name in spans:
            start, end = spans[name]
            new_lines = [] if value is REMOVE else rendered(name, value)
            if end - start == 1 and len(new_lines) == 1:
                # A person's comment on the line ("confidence: 0.7  # my guess") stays.
                comment = _trailing_comment(fm_lines[start].rstrip("\r\n"))
                if comment:
                    new_lines = [new_lines[0].removesuffix(newline) + comment + newline]
            replacements[start] = (end, new_lines)
        elif value is not REMOVE:
            (prepended if name == "id" else appended).extend(rendered(name, value))

    new_fm: list[str] = list(prepended)
    i = 0
    while i < len(fm_lines):
        if i in replacements:
            end, new = replacements[i]
            new_fm.extend(new)
            i = end
        else:
            new_fm.append(fm_lines[i])
            i += 1
    if new_fm and not new_fm[-1].endswith("\n"):
        new_fm[-1] += newline
    new_fm.extend(appended)
    patched = bom + "".join(before) + "".join(new_fm) + "".join(after)
    if verify:
        _verify_patch(text, patched.removeprefix("\ufeff"), changes)
    return patched


def _verify_patch(original: str, patched: str, changes: Mapping[str, Any]) -> None:
    """Read both versions back; every key not being changed must read the same."""
    old = parse_note(original.encode("utf-8"), "check.md").fields
    new = parse_note(patched.encode("utf-8"), "check.md").fields
    for name in set(old) | set(new):
        if name in changes:
            continue
        if old.get(name) != new.get(name):
            raise InvalidNoteError(
                f"a patch of {', '.join(changes)} would also change {name!r}; not written"
            )
    for name, value in changes.items():
        expected = None if value is REMOVE else _expected(value)
        if new.get(name) != expected:
            raise InvalidNoteError(f"a patch of {name!r} did not read back as written; not written")


def _expected(value: Any) -> Any:
    """What `_StringLoader` reads back for a value `_render_key` wrote."""
    if isinstance(value, list | tuple):
        return [_expected(v) for v in value]
    if isinstance(value, dict):
        return {k: _expected(v) for k, v in value.items()}
    if value is None:
        return ""
    rendered = _scalar(value)
    return json.loads(rendered) if rendered.startswith('"') else rendered


# --- titles ----------------------------------------------------------------------------------


#: What follows a cut that lands inside a list: another item (", Mia", " and Mia", " or Mia").
_LIST_GOES_ON = re.compile(r"(?:,| and| or) ")


def title_of(path: str) -> str:
    """A note's title from its vault path: the file name without `.md` (what a `[[link]]`
    names). Pure."""
    stem = path.rsplit("/", 1)[-1]
    return stem[:-3] if stem.lower().endswith(".md") else stem


def title_from_text(text: str, *, limit: int = MAX_TITLE_CHARS) -> str:
    """Make a note title (its file name without `.md`) from a memory's text.

    Safe for Obsidian links and every OS: none of `\\ / : * ? " < > | # ^ [ ]`, no control or
    invisible format characters (bidi controls, zero-width spaces), no leading dot,
    no trailing dot or space, not a reserved Windows name, at most `limit` characters and
    `MAX_TITLE_BYTES` bytes, cut at a word boundary.
    """
    # Invisible format characters go first: U+202E would show the name reversed, a zero-width
    # space would make two titles that look the same differ.
    first = first_sentence(clean_title(text).strip())
    cleaned = unicodedata.normalize("NFC", first)
    cleaned = re.sub(r"[*_`~]+", "", cleaned)  # Markdown emphasis and code marks
    cleaned = _FORBIDDEN_TITLE_CHARS.sub(" ", cleaned)
    cleaned = re.sub(r"\s+", " ", cleaned).strip()
    if len(cleaned) > limit:
        head = cleaned[: limit + 1]
        cut = head.rsplit(" ", 1)[0] if " " in head else ""  # one long word: no boundary
        if (_LIST_GOES_ON.match(cleaned, len(cut)) or cut.endswith((" and", " or"))) and (
            ", " in cut
        ):
            # Cut inside a list ("...two kids, Leo" of "two kids, Leo and Mia"): a title that
            # names one item of it would say the list has one. Cut before the list instead.
            before = cut.rsplit(", ", 1)[0]
            cut = before if len(before) >= limit // 2 else cut
        cleaned = cut if len(cut) >= limit // 2 else cleaned[:limit]
    if len(cleaned.encode("utf-8")) > MAX_TITLE_BYTES:
        # Within the file name's bytes too, cut at a word where one is near the end.
        cut = cleaned.encode("utf-8")[:MAX_TITLE_BYTES].decode("utf-8", "ignore")
        head = cut.rsplit(" ", 1)[0] if " " in cut else cut
        cleaned = head if len(head) >= len(cut) // 2 else cut
    cleaned = cleaned.lstrip(". ").rstrip(". ")
    if not cleaned:
        cleaned = "Untitled"
    stem, dot, rest = cleaned.partition(".")
    if stem.rstrip().upper() in _WINDOWS_RESERVED:
        # Windows reserves these names with any extension too: `NUL.txt` is the device NUL.
        cleaned = f"{stem.rstrip()} note{dot}{rest}"[:limit].rstrip(". ")
    return cleaned


def unique_title(title: str, taken: Callable[[str], bool]) -> str:
    """Return `title`, or `title 2`, `title 3`, ... : the first that `taken` says is free."""
    if not taken(title):
        return title
    n = 2
    while taken(f"{title} {n}"):
        n += 1
    return f"{title} {n}"


def check_tags(tags: Iterable[str]) -> None:
    """Raise `ValidationError` naming the first of `tags` (each with or without its "#") that
    Obsidian cannot read (`tag_problem`): what `Vault.remember` and MCP `remember` check."""
    for tag in tags:
        problem = tag_problem(tag.removeprefix("#"))
        if problem is not None:
            raise ValidationError(f"tag {tag!r} {problem}")


def tag_problem(tag: str) -> str | None:
    """Why `tag` (without its "#") is no tag Obsidian reads, or None. Pure.

    Obsidian's tags hold letters, digits, "_", "-" and "/" for nesting (and other scripts'
    letters, marks and symbols such as emoji), no spaces, no other punctuation (a tag ends at
    "’", "…" or "—" too), and not only digits; a tag it cannot read is a line in the note that
    does nothing, so tota refuses it instead of writing it."""
    if not tag:
        return "is empty"
    if any(c.isspace() for c in tag):
        return "holds a space (Obsidian tags cannot; use - or _)"
    bad = [c for c in tag if c not in "_-/" and not _tag_character(c)]
    if bad:
        return f"holds {bad[0]!r} (Obsidian tags hold letters, digits, _, - and /)"
    if tag.startswith("/") or tag.endswith("/") or "//" in tag:
        return "has an empty level (a / at its start or end, or //)"
    if tag.replace("/", "").isdigit():
        return "is only digits (Obsidian reads it as no tag)"
    return None


def _tag_character(char: str) -> bool:
    """A letter, mark or digit of any script, or a symbol beyond ASCII (an emoji): not
    punctuation, and not ASCII's symbols ("+", "=", "$"), at which Obsidian ends a tag."""
    kind = unicodedata.category(char)[0]
    return kind in "LMN" or (kind == "S" and ord(char) > 0x7F)
