"""Claude Code hooks, run as Claude Code runs them: `tota hook <event>` processes, JSON on stdin."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import index_sql, single
from sessionkit import SESSION_ID, SessionWriter

from tota_vault import Vault
from tota_vault.errors import ValidationError
from tota_vault.hooks import (
    INLINE_MAX,
    HookInput,
    _read_transcript,
    context_output,
    learn_session,
    parse_hook_input,
)

# --- helpers ---------------------------------------------------------------------------------


def hook(
    event: str, stdin: str | bytes | dict, vault: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """Run `tota hook <event>` as its own process, as Claude Code does."""
    data = json.dumps(stdin) if isinstance(stdin, dict) else stdin
    raw = data.encode("utf-8") if isinstance(data, str) else data
    result = subprocess.run(
        [sys.executable, "-m", "tota_vault", "hook", event, *args],
        input=raw, capture_output=True, timeout=60, check=False,
        env={**os.environ, "TOTA_VAULT": str(vault)},
    )  # fmt: skip
    return subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )


def context_of(result: subprocess.CompletedProcess[str], event_name: str) -> str:
    """The additionalContext of a hook's stdout, which must be exactly one JSON object."""
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1 and result.stdout.endswith("\n")
    data = json.loads(result.stdout)
    assert list(data) == ["hookSpecificOutput"]
    assert data["hookSpecificOutput"]["hookEventName"] == event_name
    return data["hookSpecificOutput"]["additionalContext"]


def assert_quiet_failure(result: subprocess.CompletedProcess[str], event: str) -> str:
    """Exit 0, nothing on stdout, exactly one line on stderr naming the hook."""
    assert result.returncode == 0
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"tota hook {event}: ")
    return result.stderr


def wait_for(condition, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met before the deadline"
        time.sleep(0.05)


def memories(vault_dir: Path) -> dict[str, list[str]]:
    """Every learned memory's statement -> its sources, read from the files (a fresh sync).
    Not the reflections that come by themselves once a topic has a few (test_reflect.py)."""
    with Vault.open(vault_dir, create=False) as vault:
        vault.sync()
        rows = (
            index_sql(vault)
            .execute(
                "SELECT text, sources FROM notes WHERE memory_id IS NOT NULL "
                "AND type IS NOT 'reflection'"
            )
            .fetchall()
        )
    return {row[0]: json.loads(row[1] or "[]") for row in rows}


@pytest.fixture
def filled(vault_dir: Path) -> Path:
    with Vault.open(vault_dir) as vault:
        vault.remember("preference", "Prefers Neovim over VS Code for editing.",
                       importance=0.7, durability=0.9, evidence="direct")  # fmt: skip
        vault.remember("identity", "Lives in Porto, in the Bonfim neighbourhood.",
                       importance=0.8, durability=0.9, evidence="direct")  # fmt: skip
        vault.remember("goal", "Is training for the Lisbon half-marathon in March.")
    return vault_dir


def transcript(tmp_path: Path, writer: SessionWriter, name: str = "session.jsonl") -> Path:
    return writer.write(tmp_path / "claude" / name)


def stop_input(path: Path, session_id: str = SESSION_ID) -> dict:
    return {
        "session_id": session_id, "transcript_path": str(path), "cwd": "/home/ana",
        "hook_event_name": "Stop", "stop_hook_active": False,
        "last_assistant_message": "Done.",
    }  # fmt: skip


# --- input and output, in process ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        ('{"prompt": "Which editor do I use?"}', "Which editor do I use?"),
        ('{"user_prompt": "Which editor do I use?"}', "Which editor do I use?"),
        ('{"prompt": "new", "user_prompt": "old"}', "new"),
        ('{"prompt": "   "}', None),
        ('{"prompt": 42}', None),
        ("{}", None),
    ],
)
def test_parse_reads_prompt_then_user_prompt(text: str, prompt: str | None) -> None:
    assert parse_hook_input(text, "prompt").prompt == prompt


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no hook input on stdin"),
        ("   \n", "no hook input on stdin"),
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('"a string"', "not a JSON object"),
        ("[" * 100_000, "not JSON"),
    ],
)
def test_parse_refuses_anything_but_an_object(text: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        parse_hook_input(text, "prompt")


def test_context_output_shape_and_nothing_for_no_context() -> None:
    assert context_output("prompt", "## Memories\n- x\n") == {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit", "additionalContext": "## Memories\n- x\n",
        }
    }  # fmt: skip
    assert context_output("session-start", "  \n") is None


def test_a_transcript_over_the_size_limit_is_left_to_the_detached_process(
    tmp_path: Path,
) -> None:
    path = transcript(tmp_path, _conversation())
    hook_input = HookInput("stop", transcript_path=str(path))
    assert _read_transcript(hook_input, max_size=path.stat().st_size - 1) == (path, None)
    assert _read_transcript(hook_input, max_size=None)[1] == path.read_text("utf-8")


# --- prompt and session-start ----------------------------------------------------------------


def test_prompt_prints_the_recalled_memories(filled: Path) -> None:
    result = hook("prompt", {"session_id": "s", "prompt": "Which tool do I use for editing code?",
                             "hook_event_name": "UserPromptSubmit"}, filled)  # fmt: skip
    context = context_of(result, "UserPromptSubmit")
    assert result.stderr == ""
    assert context.startswith("## Memories\n")
    assert "Prefers Neovim over VS Code" in context
    assert "Porto" not in context


def test_a_secret_in_a_persons_own_note_never_reaches_the_assistant(vault_dir: Path) -> None:
    """A note written by hand may hold a password (`tota doctor` names it): the prompt and
    session-start hooks hand the model its words redacted, as recall and profile do."""
    note = vault_dir / "identity" / "Gmail.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text("My gmail password is Blue-Horse-42!\n")
    with Vault.open(vault_dir) as vault:
        vault.sync()
        for results in (vault.recall("gmail password"), vault.profile()):
            (found,) = [r for r in results if r.path == "identity/Gmail.md"]
            assert found.text == "My gmail password is [REDACTED password]"
    context = context_of(hook("prompt", {"prompt": "what is my gmail password?"}, vault_dir),
                         "UserPromptSubmit")  # fmt: skip
    assert "[REDACTED password]" in context and "Blue-Horse" not in context
    assert note.read_text().endswith("My gmail password is Blue-Horse-42!\n")  # the person's


def test_prompt_falls_back_to_user_prompt(filled: Path) -> None:
    context = context_of(
        hook("prompt", {"user_prompt": "what do I use for editing?"}, filled), "UserPromptSubmit"
    )
    assert "Neovim" in context


def test_prompt_with_nothing_to_recall_prints_nothing(filled: Path) -> None:
    for stdin in ({"prompt": "zebra quantum xylophone"}, {"prompt": ""}, {"session_id": "s"}):
        result = hook("prompt", stdin, filled)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_prompt_budget_cuts_the_context(filled: Path) -> None:
    message = {"prompt": "Neovim editor, Porto home, Lisbon half-marathon training?"}
    full = context_of(hook("prompt", message, filled), "UserPromptSubmit")
    cut = context_of(hook("prompt", message, filled, "--budget", "30"), "UserPromptSubmit")
    assert full.count("\n- ") == 3
    assert 1 <= cut.count("\n- ") < 3
    assert len(cut) / 4 <= 30


def test_session_start_prints_the_profile_and_sees_hand_edits(filled: Path) -> None:
    note = filled / "constraint" / "No meetings before ten.md"
    note.write_text(
        "---\ntype: constraint\nconfidence: 0.9\nimportance: 0.8\ndurability: 0.9\n"
        "evidence: manual\n---\nNo meetings before ten in the morning.\n",
        "utf-8",
    )
    result = hook("session-start", {"session_id": "s", "source": "startup",
                                    "hook_event_name": "SessionStart"}, filled)  # fmt: skip
    context = context_of(result, "SessionStart")
    assert context.startswith("## Profile\n")
    assert "Lives in Porto" in context and "Neovim" in context
    assert "No meetings before ten" in context  # written by hand, synced at session start
    assert "half-marathon" not in context  # a goal is not part of the profile


# --- failures never block the host -----------------------------------------------------------


@pytest.mark.parametrize("event", ["prompt", "session-start", "stop"])
@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        ("", "no hook input on stdin"),
        ("garbage {", "not JSON"),
        (b"\xff\xfe\x00garbage", "not JSON"),
        ("[]", "not a JSON object"),
    ],
)
def test_bad_stdin_is_one_line_and_exit_0(
    filled: Path, event: str, stdin: str | bytes, reason: str
) -> None:
    assert reason in assert_quiet_failure(hook(event, stdin, filled), event)


@pytest.mark.parametrize("event", ["prompt", "session-start", "stop"])
def test_no_vault_is_one_line_and_exit_0(tmp_path: Path, event: str) -> None:
    path = transcript(tmp_path, SessionWriter())
    missing = tmp_path / "no-vault-here"
    result = hook(event, {"prompt": "editor?", **stop_input(path)}, missing)
    assert "no vault here" in assert_quiet_failure(result, event)
    assert not missing.exists()  # a hook never creates a vault


@pytest.mark.parametrize("event", ["prompt", "session-start", "stop"])
def test_garbled_index_is_one_line_and_exit_0(tmp_path: Path, filled: Path, event: str) -> None:
    writer = SessionWriter()
    writer.user("I prefer green tea.")
    path = transcript(tmp_path, writer)
    index = filled / ".tota" / "index.db"
    for suffix in ("-wal", "-shm"):
        Path(str(index) + suffix).unlink(missing_ok=True)
    index.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    result = hook(event, {"prompt": "editor?", **stop_input(path)}, filled)
    # The index is a cache: the vault rebuilds it from the notes and the hook still answers,
    # saying what it repaired in its one stderr line.
    assert result.returncode == 0
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"tota hook {event}: ")
    assert result.stderr.startswith(f"tota hook {event}: the index ")
    assert "rebuilt" in result.stderr
    if result.stdout:
        assert json.loads(result.stdout)["hookSpecificOutput"]["hookEventName"]


def test_stop_with_a_missing_transcript_is_one_line(filled: Path, tmp_path: Path) -> None:
    result = hook("stop", stop_input(tmp_path / "gone.jsonl"), filled)
    assert "transcript not found" in assert_quiet_failure(result, "stop")
    result = hook("stop", {"session_id": "s"}, filled)
    assert "no transcript_path" in assert_quiet_failure(result, "stop")


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "where",
    [lambda tmp: Path("/dev/zero"), lambda tmp: make_fifo(tmp / "pipe.jsonl"), lambda tmp: tmp],
    ids=["device", "fifo", "folder"],
)
def test_stop_with_a_transcript_that_is_not_a_file_is_one_line(
    filled: Path, tmp_path: Path, where
) -> None:  # type: ignore[no-untyped-def]
    """/dev/zero never ends and a FIFO blocks on open: either hung the hook forever (the
    helper's 60 s timeout fails the test if it still does)."""
    path = where(tmp_path)
    for inline in ((), ("--inline",)):
        result = hook("stop", stop_input(path), filled, *inline)
        assert "not a regular file" in assert_quiet_failure(result, "stop")


def test_a_transcript_read_is_capped_at_the_limit(tmp_path: Path) -> None:
    """Never more than the limit is read, even when the file grew past it after the stat."""
    path = transcript(tmp_path, _conversation())
    size = path.stat().st_size
    hook_input = HookInput("stop", transcript_path=str(path))
    assert _read_transcript(hook_input, max_size=size)[1] == path.read_text("utf-8")
    assert _read_transcript(hook_input, max_size=size - 1) == (path, None)


def test_unknown_event_is_one_line_and_exit_0(filled: Path) -> None:
    result = hook("pre-tool-use", {"session_id": "s"}, filled)
    assert "unknown hook event" in assert_quiet_failure(result, "pre-tool-use")


# --- stop: learning from the transcript ------------------------------------------------------


def _conversation() -> SessionWriter:
    s = SessionWriter()
    s.user("I prefer dark roast coffee in the morning.")
    s.assistant({"type": "thinking", "thinking": "I prefer tea.", "signature": "x"},
                {"type": "text", "text": "I prefer tea myself. What do you drink later?"})  # fmt: skip
    s.tool_round(output="My name is Root Shell and I live in /usr/bin.")
    s.user("My sister Rita lives in Braga.")
    s.say("Nice.")
    return s


def test_stop_learns_the_persons_words_once(filled: Path, tmp_path: Path) -> None:
    writer = _conversation()
    path = transcript(tmp_path, writer)
    result = hook("stop", stop_input(path), filled)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    learned = {text: srcs for text, srcs in memories(filled).items() if srcs}
    joined = " ".join(learned).lower()
    assert "dark roast" in joined and "rita" in joined
    assert "tea" not in joined and "root shell" not in joined
    user_ids = {line["uuid"] for line in writer.lines if line["type"] == "user"}
    for sources in learned.values():
        session, uuid = sources[0].split("#")
        assert session == SESSION_ID and uuid in user_ids
    state = json.loads((filled / ".tota" / "claude-code" / f"{SESSION_ID}.json").read_text())
    assert len(state["learned"]) == 2 and state["session_id"] == SESSION_ID

    before = memories(filled)
    hook("stop", stop_input(path), filled)
    assert memories(filled) == before  # the same stop again: nothing new

    writer.user("I started learning the cello this month.")
    writer.say("Great.")
    transcript(tmp_path, writer)
    hook("stop", stop_input(path), filled)
    after = memories(filled)
    new = set(after) - set(before)
    assert len(new) == 1 and "cello" in new.pop().lower()
    assert all(after[text] == before[text] for text in before)


def test_a_resumed_session_does_not_learn_the_lines_it_carried_over(
    filled: Path, tmp_path: Path
) -> None:
    first = _conversation()
    hook("stop", stop_input(transcript(tmp_path, first, "first.jsonl")), filled)
    before = memories(filled)
    # `claude --resume` started a new session: a new file with a new id that carries the
    # earlier lines over as they were, then goes on.
    resumed = SessionWriter(session_id="9e0c3f1a-1111-4a2b-8c3d-4e5f6a7b8c9d")
    resumed.lines = [dict(line) for line in first.lines]
    resumed.parent, resumed._count, resumed.clock = first.parent, 1000, first.clock
    resumed.user("I prefer oat milk in my coffee.")
    resumed.say("Noted.")
    path = transcript(tmp_path, resumed, "resumed.jsonl")
    result = hook("stop", stop_input(path, resumed.session_id), filled)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    after = memories(filled)
    assert {text: after[text] for text in before} == before  # no source added, no merge
    new = set(after) - set(before)
    assert len(new) == 1
    text = new.pop()
    assert "oat milk" in text.lower()
    assert after[text][0].startswith(resumed.session_id + "#")


def test_learn_session_reports_what_it_did(filled: Path, tmp_path: Path) -> None:
    path = transcript(tmp_path, _conversation())
    hook_input = parse_hook_input(json.dumps(stop_input(path)), "stop")
    report = learn_session(filled, hook_input)
    assert (report.session_id, report.new_messages, report.detached) == (SESSION_ID, 2, False)
    assert report.created == 2 and report.merged == 0 and report.problems is None
    again = learn_session(filled, hook_input)
    assert (again.new_messages, again.created) == (0, 0)


def test_stop_makes_its_files_private_as_every_file_tota_makes(
    filled: Path, tmp_path: Path
) -> None:
    """The review's case: `.tota/claude-code/*.lock` were made 0644 (the umask's), where
    every other file tota makes is 0600; a lock an older version left 0644 is made private."""
    import stat

    writer = _conversation()
    path = transcript(tmp_path, writer)
    folder = filled / ".tota" / "claude-code"
    lock = folder / f"{SESSION_ID}.lock"

    def modes() -> dict[str, int]:
        return {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}

    previous = os.umask(0o022)
    try:
        assert hook("stop", stop_input(path), filled).returncode == 0
        assert lock.name in modes() and modes() == dict.fromkeys(modes(), 0o600), modes()
        lock.chmod(0o644)  # as an older tota left it
        writer.user("I started learning the cello this month.")
        transcript(tmp_path, writer)
        assert hook("stop", stop_input(path), filled).returncode == 0
    finally:
        os.umask(previous)
    assert "cello" in " ".join(memories(filled)).lower()  # the second stop took the lock
    assert modes() == dict.fromkeys(modes(), 0o600), modes()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_stop_without_its_state_file_stores_nothing_twice(filled: Path, tmp_path: Path) -> None:
    path = transcript(tmp_path, _conversation())
    hook("stop", stop_input(path), filled)
    before = memories(filled)
    (filled / ".tota" / "claude-code" / f"{SESSION_ID}.json").unlink()
    result = hook("stop", stop_input(path), filled)
    assert result.returncode == 0 and result.stderr == ""
    assert memories(filled) == before


def test_stop_while_paused_learns_nothing_then_or_later(filled: Path, tmp_path: Path) -> None:
    writer = _conversation()
    path = transcript(tmp_path, writer)
    before = memories(filled)
    with Vault.open(filled) as vault:
        vault.pause()
    hook("stop", stop_input(path), filled)
    with Vault.open(filled) as vault:
        vault.resume()
    writer.user("I prefer window seats on trains.")
    transcript(tmp_path, writer)
    hook("stop", stop_input(path), filled)
    new = set(memories(filled)) - set(before)
    assert len(new) == 1 and "window seats" in new.pop().lower()


def test_stop_reports_an_incomplete_last_line_and_learns_the_rest(
    filled: Path, tmp_path: Path
) -> None:
    path = transcript(tmp_path, _conversation())
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"parentUuid": "x", "type": "user", "message": {"role": "us')
    result = hook("stop", stop_input(path), filled)
    assert "incomplete" in result.stderr and result.stderr.count("\n") == 1
    assert result.stdout == "" and result.returncode == 0
    assert any("dark roast" in text.lower() for text in memories(filled))


def test_a_backlog_up_to_the_limit_is_learned_in_the_hook(filled: Path, tmp_path: Path) -> None:
    writer = SessionWriter()
    for number in range(INLINE_MAX):
        writer.user(f"I prefer card game number {number} called Plimbo{number}.")
        writer.say("Noted.")
    result = hook("stop", stop_input(transcript(tmp_path, writer)), filled)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    state = filled / ".tota" / "claude-code" / f"{SESSION_ID}.json"
    assert len(json.loads(state.read_text())["learned"]) == INLINE_MAX  # done before it exited


def test_a_long_backlog_is_learned_by_a_detached_process(filled: Path, tmp_path: Path) -> None:
    writer = SessionWriter()
    for number in range(INLINE_MAX + 1):
        writer.user(f"I prefer board game number {number} called Quorvex{number}.")
        writer.say("Noted.")
    path = transcript(tmp_path, writer)
    result = hook("stop", stop_input(path), filled)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    state = filled / ".tota" / "claude-code" / f"{SESSION_ID}.json"
    wait_for(state.exists)
    assert len(json.loads(state.read_text())["learned"]) == INLINE_MAX + 1
    learned = [text for text in memories(filled) if "Quorvex" in text]
    assert len(learned) == INLINE_MAX + 1


def test_a_busy_session_hands_the_stop_to_a_process_that_waits(
    filled: Path, tmp_path: Path
) -> None:
    path = transcript(tmp_path, _conversation())
    folder = filled / ".tota" / "claude-code"
    folder.mkdir(parents=True, exist_ok=True)
    state = folder / f"{SESSION_ID}.json"
    with open(folder / f"{SESSION_ID}.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another stop of this session is still learning
        result = hook("stop", stop_input(path), filled)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
        assert not state.exists()  # it did not learn while the lock was held
    wait_for(state.exists)
    assert any("dark roast" in text.lower() for text in memories(filled))


# --- the command line's fast path ------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["hook", "prompt"], {"vault": None, "event": "prompt", "budget": None, "limit": 8,
                              "inline": False}),
        (["--vault", "/v", "hook", "stop", "--inline"], {"vault": "/v", "event": "stop",
                                                         "budget": None, "limit": 8,
                                                         "inline": True}),
        (["--vault=/v", "hook", "prompt", "--budget", "300", "-n", "3"],
         {"vault": "/v", "event": "prompt", "budget": 300, "limit": 3, "inline": False}),
        (["hook", "session-start", "--budget=50", "--limit=2"],
         {"vault": None, "event": "session-start", "budget": 50, "limit": 2, "inline": False}),
        (["hook", "bogus"], {"vault": None, "event": "bogus", "budget": None, "limit": 8,
                             "inline": False}),
        (["hook", "prompt", "-h"], None),
        (["hook", "--help"], None),
        (["recall", "hook"], None),
        (["--vault", "/v", "search", "hook"], None),
        ([], None),
    ],
)  # fmt: skip
def test_hook_fast_path_parses_exactly_hooks_options(
    argv: list[str], expected: dict | None
) -> None:
    from tota_vault.cli import _hook_argv

    assert _hook_argv(argv) == expected


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["hook"], "no hook event given"),
        (["hook", "--budget", "5"], "no hook event given"),
        (["hook", "prompt", "--budget"], "--budget needs a number"),
        (["hook", "prompt", "--budget", "0"], "'0' is not a whole number of at least 1"),
        (["hook", "prompt", "--budget", "x"], "'x' is not a whole number"),
        (["hook", "prompt", "--budgte", "5"], "unknown option '--budgte'"),
        (["hook", "prompt", "--verbose"], "unknown option '--verbose'"),
    ],
)  # fmt: skip
def test_a_broken_hook_command_line_is_refused_before_typer(argv: list[str], error: str) -> None:
    from tota_vault.cli import _hook_argv, _HookUsageError

    with pytest.raises(_HookUsageError, match=error):
        _hook_argv(argv)


@pytest.mark.parametrize("args", [("--budget", "0"), ("--budgte", "5"), ("--limit",)])
def test_a_broken_hook_command_line_exits_0_with_one_line(filled: Path, args: tuple[str, ...]):
    """Exit 2 from UserPromptSubmit would block the person's prompt on every turn."""
    result = subprocess.run(
        [sys.executable, "-c", "from tota_vault.cli import main; main()", "hook", "prompt", *args],
        input=b'{"prompt": "editor?"}', capture_output=True, timeout=60, check=False,
        env={**os.environ, "TOTA_VAULT": str(filled)},
    )  # fmt: skip
    assert result.returncode == 0 and result.stdout == b""
    assert result.stderr.decode().count("\n") == 1
    assert result.stderr.decode().startswith("tota hook: ")


def test_fast_path_and_typer_give_the_same_answer(filled: Path) -> None:
    """The console script goes around typer; typer's own `hook` command must agree with it."""
    from typer.testing import CliRunner

    from tota_vault.cli import app

    stdin = json.dumps({"prompt": "what do I use for editing?"})
    fast = hook("prompt", stdin, filled, "--budget", "200")
    typer_result = CliRunner().invoke(
        app, ["--vault", str(filled), "hook", "prompt", "--budget", "200"], input=stdin
    )
    assert typer_result.exit_code == 0
    assert typer_result.stdout == fast.stdout and "Neovim" in fast.stdout


def test_tota_extract_after_the_stop_hook_learns_nothing_new(filled: Path, tmp_path: Path) -> None:
    """One way to learn: the Stop hook and `tota extract` of the same transcript agree."""
    path = transcript(tmp_path, _conversation())
    hook("stop", stop_input(path), filled)
    before = memories(filled)
    result = subprocess.run(
        [sys.executable, "-m", "tota_vault", "extract", str(path), "--json"],
        capture_output=True, text=True, check=False, env={**os.environ, "TOTA_VAULT": str(filled)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = single(json.loads(result.stdout))
    assert report["conversation_id"] == SESSION_ID
    assert report["counts"]["create"] == report["counts"]["merge"] == 0
    assert memories(filled) == before
