"""Claude Code hooks: the hook's JSON in, library calls, the hook's JSON out.

Three events, each one `tota hook <event>` process that Claude Code starts with a JSON object
on stdin (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, and the event's fields):

- `prompt` (UserPromptSubmit): recall the memories relevant to the person's message (`prompt`,
  or `user_prompt`, the name some of Anthropic's own docs wrongly use) and answer with
  `{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": ...}}`.
- `session-start` (SessionStart): the person's profile, in the same shape. When no daemon
  watches the vault it first reconciles the index with the files, once per session, so the
  session's recalls see the edits made since the last sync.
- `stop` (Stop): learn from the person's new messages in the session transcript, then print
  nothing (Claude Code adds no context from a Stop hook, and a JSON `decision` would block).

This module holds the decisions and the I/O of a hook; `cli.py` only reads stdin, calls
`run_hook` and prints. A hook never blocks the host: `run_hook` never raises, it returns the
text for stdout (one JSON object, or nothing) and at most one line for stderr.

Stop keeps per-session progress in `<vault>/.tota/claude-code/<session>.json`: the uuids of
the person's messages already learned (a set, not a position: a rewound conversation grows a
new branch whose messages come after older ones in the file). Each message is cited as
`<session id of its line>#<uuid>`, and the pipeline's own check (a memory already citing it is
not learned again) makes a lost state file harmless, and keeps a resumed session, which may
carry an earlier session's lines into a new file, from learning those lines twice. A
stop with more new messages than a learn can take in well under a second (`INLINE_MAX`), or
while another stop of the same session holds its lock, hands the work to a detached
`tota hook stop --inline` process and returns at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .errors import TotaError, ValidationError, first_line
from .files import open_private
from .paths import resolve_vault_path, state_dir

__all__ = [
    "EVENTS",
    "HookInput",
    "HookResult",
    "StopReport",
    "context_output",
    "learn_session",
    "parse_hook_input",
    "run_hook",
]

#: `tota hook <event>` -> Claude Code's `hookEventName`.
EVENTS = {"prompt": "UserPromptSubmit", "stop": "Stop", "session-start": "SessionStart"}
#: Default token budgets of the context a hook adds: recall for one message stays small (it is
#: added to every prompt); the profile is added once a session.
PROMPT_BUDGET = 600
SESSION_BUDGET = 800
#: At most this many memories recalled for a prompt.
PROMPT_LIMIT = 8
#: At most this many profile memories at session start.
PROFILE_LIMIT = 20
#: A stop learns inline up to this many new messages of the person's; more go to a detached
#: process. Measured at 10k memories (docs/benchmarks.md), the whole `tota hook stop` process
#: takes 0.18 s for 1 new message and 0.31 s for 100 on an idle machine, but 0.75 s for 100
#: under a load average of 3 on 2 cores: 50 keeps a margin under a second. A turn brings one
#: to a few; the first stop after the hook is installed in a long session can bring thousands.
INLINE_MAX = 50
#: A transcript larger than this is read by the detached process too (a 41 MB transcript added
#: 0.14 s to a stop; one over 50 MB is rare and can be far larger).
INLINE_MAX_BYTES = 50_000_000
#: How long a detached stop waits for another stop of the same session to finish.
LOCK_WAIT = 120.0
#: Where per-session state lives under `<vault>/.tota/`.
STATE_FOLDER = "claude-code"

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class HookInput:
    """The fields of a hook's stdin JSON that tota uses."""

    event: str
    session_id: str | None = None
    transcript_path: str | None = None
    prompt: str | None = None
    source: str | None = None  # SessionStart: startup, resume, clear, compact
    raw: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class HookResult:
    """What a hook process writes: `stdout` (one JSON object or ""), one `stderr` line or ""."""

    stdout: str = ""
    stderr: str = ""


@dataclass
class StopReport:
    """What a stop did: how many new messages of the person's it learned from, and the result."""

    session_id: str
    new_messages: int = 0
    created: int = 0
    merged: int = 0
    paused: bool = False
    detached: bool = False
    problems: str | None = None


def _text_field(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) and value.strip() else None


def parse_hook_input(text: str, event: str) -> HookInput:
    """Read a hook's stdin. Raises `ValidationError` (one line) for anything but a JSON object."""
    if event not in EVENTS:
        raise ValidationError(f"unknown hook event {event!r} (expected: {', '.join(EVENTS)})")
    if not text.strip():
        raise ValidationError("no hook input on stdin (Claude Code sends a JSON object)")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValidationError(f"hook input on stdin is not JSON ({first_line(exc)})") from None
    if not isinstance(data, dict):
        raise ValidationError("hook input on stdin is not a JSON object")
    return HookInput(
        event=event,
        session_id=_text_field(data, "session_id"),
        transcript_path=_text_field(data, "transcript_path"),
        prompt=_text_field(data, "prompt") or _text_field(data, "user_prompt"),
        source=_text_field(data, "source"),
        raw=data,
    )


def context_output(event: str, context: str) -> dict[str, Any] | None:
    """The JSON Claude Code adds to the model's context, or None when there is nothing to add."""
    if not context.strip():
        return None
    return {"hookSpecificOutput": {"hookEventName": EVENTS[event], "additionalContext": context}}


# --- prompt and session start -----------------------------------------------------------------


def prompt_context(
    root: Path, hook: HookInput, *, budget: int = PROMPT_BUDGET, limit: int = PROMPT_LIMIT
) -> str:
    """The memories relevant to the person's message as a Markdown block, within `budget`.

    No sync: the index is kept by the daemon (`tota watch`), by tota's own writes, and by the
    session-start hook; a prompt only reads it.
    """
    if hook.prompt is None:
        return ""
    from .recall import context_block
    from .vault import Vault

    with Vault.open(root, create=False, on_notice=_notices.append) as vault:
        results = vault.recall(hook.prompt, limit)
    return context_block(results, budget=budget, heading="Memories")


def session_context(root: Path, hook: HookInput, *, budget: int = SESSION_BUDGET) -> str:
    """The person's profile as a Markdown block, within `budget`; syncs first if no daemon
    watches the vault."""
    from .recall import context_block
    from .vault import Vault
    from .watch import daemon_status

    with Vault.open(root, create=False, on_notice=_notices.append) as vault:
        if daemon_status(vault.root) is None:
            vault.sync()
        results = vault.profile(limit=PROFILE_LIMIT)
    return context_block(results, budget=budget, heading="Profile")


# --- stop ------------------------------------------------------------------------------------


def _state_folder(root: Path) -> Path:
    return state_dir(root) / STATE_FOLDER


def _state_name(session_id: str) -> str:
    """A file name for a session id: the id itself when it is safe (a uuid), else made safe."""
    safe = _SAFE_NAME.sub("-", session_id).strip(".-")[:100]
    return safe or "session"


def _load_learned(path: Path) -> set[str]:
    """The uuids a previous stop learned; an unreadable state file counts as none (the
    pipeline's source check still keeps a re-learn from storing anything twice)."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return set()
    learned = data.get("learned") if isinstance(data, dict) else None
    return {u for u in learned if isinstance(u, str)} if isinstance(learned, list) else set()


def _save_learned(path: Path, session_id: str, transcript: str, learned: set[str]) -> None:
    """Write the state file atomically (temp file, fsync, rename); it is local state only."""
    data = {"session_id": session_id, "transcript": transcript, "learned": sorted(learned)}
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _session_lock(root: Path, name: str, *, wait: float) -> Iterator[bool]:
    """Hold the session's lock file; yields False when it stays taken for `wait` seconds."""
    folder = _state_folder(root)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with open_private(folder / f"{name}.lock", "a+b") as handle:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.05)  # waiting on another process's lock: no event to wait on
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _read_transcript(hook: HookInput, *, max_size: int | None) -> tuple[Path, str | None]:
    """The transcript's path and text; None for the text when it is over `max_size` bytes.

    Only a regular file is read: a device (`/dev/zero`) or a FIFO has no end, and the hook
    would hang the turn forever. It is opened without blocking (opening a FIFO waits for a
    writer) and checked on the open descriptor, and never more than `max_size` bytes are read
    (a file that grew past it since is left to the detached process like a large one).
    """
    if hook.transcript_path is None:
        raise ValidationError("the Stop hook input has no transcript_path")
    path = Path(hook.transcript_path).expanduser()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ValidationError(f"{path}: transcript not found") from None
    except OSError as exc:
        raise ValidationError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            raise ValidationError(f"{path}: not a regular file; a transcript is a file")
        if max_size is not None and st.st_size > max_size:
            os.close(fd)
            return path, None
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as handle:
            data = handle.read() if max_size is None else handle.read(max_size + 1)
    except OSError as exc:
        raise ValidationError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if max_size is not None and len(data) > max_size:
        return path, None
    return path, data.decode("utf-8", errors="replace")


def learn_session(root: Path, hook: HookInput, *, inline: bool = False) -> StopReport:
    """Learn the person's new messages of a Claude Code session (the Stop hook's work).

    Unless `inline`, a large backlog (or a busy session lock) is handed to a detached
    process and the report says `detached`. Raises `TotaError` for a missing vault or
    transcript.
    """
    from .extract.claude_code import read_claude_code
    from .vault import Vault

    if not root.is_dir():
        raise ValidationError(f"{root}: no vault here; create one with `tota init`")
    path, text = _read_transcript(hook, max_size=None if inline else INLINE_MAX_BYTES)
    if text is None:  # too large to read in the turn: the detached process reads it
        return StopReport(hook.session_id or "", detached=spawn_detached(root, hook))
    session = read_claude_code(text)
    session_id = session.session_id or hook.session_id
    if session_id is None:
        raise ValidationError(f"{path}: no session id in the transcript or the hook input")
    name = _state_name(session_id)
    state = _state_folder(root) / f"{name}.json"
    report = StopReport(session_id, problems=session.problems(str(path)))
    users = [m for m in session.messages if m.role == "user"]
    pending = {m.id for m in users} - _load_learned(state)
    report.new_messages = len(pending)
    if not pending:
        return report
    if not inline and len(pending) > INLINE_MAX:
        report.detached = spawn_detached(root, hook)
        return report
    with _session_lock(root, name, wait=LOCK_WAIT if inline else 0.0) as held:
        if not held:
            if inline:
                raise TotaError(f"session {session_id}: another stop held its lock too long")
            report.detached = spawn_detached(root, hook)
            return report
        learned = _load_learned(state)  # another stop may have finished while we waited
        pending = {m.id for m in users} - learned
        report.new_messages = len(pending)
        if not pending:
            return report
        # Each message is cited by its own line's session (a resumed session carries earlier
        # sessions' lines over): one observe per session.
        with Vault.open(root, create=False, on_notice=_notices.append) as vault:
            for owner, messages in session.conversations(only=pending):
                result = vault.observe(messages, conversation_id=owner)
                report.paused = result.paused
                report.created += result.count("create") + result.count("supersede")
                report.merged += result.count("merge")
        # Messages said while learning was paused count as seen too: pausing means "do not
        # learn this", also not later.
        _save_learned(state, session_id, str(path), learned | pending)
    return report


def spawn_detached(root: Path, hook: HookInput) -> bool:
    """Start `tota hook stop --inline` in its own session with the same input; don't wait.

    Its stderr goes to `<vault>/.tota/claude-code/hook.log`, the only place a detached
    failure can be read. Returns True once the process is started.
    """
    folder = _state_folder(root)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    log: IO[bytes]
    with tempfile.TemporaryFile() as payload, open_private(folder / "hook.log", "ab") as log:
        payload.write(json.dumps(dict(hook.raw)).encode("utf-8"))
        payload.seek(0)
        subprocess.Popen(
            [sys.executable, "-m", "tota_vault", "--vault", str(root), "hook", "stop", "--inline"],
            stdin=payload, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
        )  # fmt: skip
    return True


# --- the whole hook --------------------------------------------------------------------------


#: What the vault repaired by itself during this hook (`Vault.on_notice`): a hook process runs
#: one hook, and the lines end up in its one stderr line.
_notices: list[str] = []


def run_hook(
    event: str,
    stdin_text: str,
    *,
    vault: str | os.PathLike[str] | None = None,
    budget: int | None = None,
    limit: int = PROMPT_LIMIT,
    inline: bool = False,
) -> HookResult:
    """Run one hook from its stdin text; never raises.

    Returns what the process prints: one JSON object on stdout (or nothing) and at most one
    line on stderr. Any failure (no vault, a broken index, garbage input, a missing transcript)
    becomes that line, with nothing on stdout, so the host carries on.
    """
    result = HookResult()
    _notices.clear()
    try:
        hook = parse_hook_input(stdin_text, event)
        root = resolve_vault_path(vault)
        if event == "stop":
            report = learn_session(root, hook, inline=inline)
            problems = "; ".join([*_notices, *([report.problems] if report.problems else [])])
            if problems:
                result.stderr = f"tota hook stop: {' '.join(problems.split())}"
            return result
        if event == "prompt":
            context = prompt_context(root, hook, budget=budget or PROMPT_BUDGET, limit=limit)
        else:
            context = session_context(root, hook, budget=budget or SESSION_BUDGET)
        output = context_output(event, context)
        if output is not None:
            result.stdout = json.dumps(output, ensure_ascii=False) + "\n"
        if _notices:  # what the vault repaired by itself (a damaged index rebuilt), said once
            result.stderr = f"tota hook {event}: {' '.join('; '.join(_notices).split())}"
    except Exception as exc:  # a hook must never block the host: every failure is one line
        result.stdout = ""
        unmeant = not isinstance(exc, TotaError)  # then the line names what kind failed
        result.stderr = f"tota hook {event}: {first_line(exc, kind=unmeant)}"
    return result
