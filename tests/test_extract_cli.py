"""`tota extract` end to end: a 200-message conversation through the CLI, as a transcript and
as JSONL, and the command's edges (stdin, --format, --dry-run, errors, pause and resume).

The conversation is built here from templates, deterministically: two hundred messages between
the user and the assistant with facts, questions, small talk, facts said again (merges), one
contradiction (a move from Porto to Lisbon) and one pasted password. The fake secret is built
from pieces, so no secret scanner flags this repository.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import single
from typer.testing import CliRunner

from tota_vault.cli import app

runner = CliRunner()
SECRET = "Tr0ub4dor" + "&3x" + "Q9z"

FACTS = [
    "I live in Porto.",
    "My name is Sam.",
    "I prefer Neovim over VS Code.",
    "I work at a small robotics startup.",
    "I'm allergic to peanuts.",
    "My sister lives in Berlin.",
    "I usually go for a run every morning.",
    "I decided to switch to Linux for good.",
    "I'm working on a Rust compiler.",
    "I want to learn Spanish this year.",
    "I have two kids, Mia and Leo.",
    "My favorite book is Dune.",
    "I can't work on Fridays.",
    "I'm a big fan of Radiohead.",
    "Yesterday I went to a support group.",
    "I adopted a cat last Friday.",
    "We decided to use Postgres for the backend.",
    "I always write tests before the code.",
    f"My password is {SECRET} so please keep it safe. I'm saving up for a new bike, kind of.",
    "I think I might try pottery sometime.",  # hedged and weak: skipped at 0.45
    "I really prefer Neovim over VS Code.",  # merges
    "I'm allergic to peanuts!",  # merges
    "I'm working on a Rust compiler.",  # merges
    "My sister lives in Berlin.",  # merges
    "Actually, I live in Lisbon now.",  # supersedes Porto
]
FILLER = [
    "What should I cook tonight?",
    "Thanks!",
    "Do you know any good books about compilers?",
    "Haha, nice.",
    "How do I set up a Python virtual environment?",
    "Good morning!",
    "Can you recommend a podcast for my commute?",
    "Cool, thanks so much!",
    "Is it going to rain tomorrow?",
    "Sounds good to me.",
]
REPLIES = [
    "Sure! How about a quick vegetable stir-fry?",
    "Noted, I'll remember that.",
    "I prefer tabs, personally, but spaces are fine too.",
    "Here is a snippet:\n```python\nprint('I like pizza')\n```",
    "Great question. Crafting Interpreters is a classic.",
    "You're welcome!",
]


def build_conversation() -> list[dict[str, str]]:
    """200 messages, alternating user and assistant; a fact in every fourth user message."""
    start = datetime(2023, 5, 1, 9, 0)
    facts, filler = iter(FACTS), 0
    messages = []
    for turn in range(100):
        when = start + timedelta(days=turn // 10, minutes=turn % 10 * 2)
        text = next(facts, None) if turn % 4 == 1 else None
        if text is None:
            text, filler = FILLER[filler % len(FILLER)], filler + 1
        messages.append({"role": "user", "content": text, "timestamp": when})
        reply = REPLIES[turn % len(REPLIES)]
        messages.append({"role": "assistant", "content": reply, "timestamp": when})
    assert next(facts, None) is None, "every fact is said"
    return messages


def as_transcript(messages: list[dict]) -> str:
    lines = []
    for m in messages:
        speaker = "User" if m["role"] == "user" else "Assistant"
        lines.append(f"[{m['timestamp']:%Y-%m-%d %H:%M}] {speaker}: {m['content']}")
    return "\n".join(lines) + "\n"


def as_jsonl(messages: list[dict]) -> str:
    rows = [{**m, "timestamp": m["timestamp"].isoformat()} for m in messages]
    return "\n".join(json.dumps(r) for r in rows) + "\n"


def tota(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def extract_json(vault: Path, *args: str, input: str | None = None) -> dict:
    """The report of one conversation (see `single`)."""
    result = tota("--vault", str(vault), "extract", *args, "--json", input=input)
    assert result.exit_code == 0, result.stderr
    return single(json.loads(result.stdout))


def notes(root: Path) -> dict[str, bytes]:
    if not root.exists():
        return {}
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.md"))}


@pytest.fixture
def chat(tmp_path: Path) -> dict[str, Path]:
    messages = build_conversation()
    assert len(messages) == 200
    folder = tmp_path / "chats"
    folder.mkdir()
    text = folder / "chat.txt"
    text.write_text(as_transcript(messages), "utf-8")
    jsonl = folder / "chat.jsonl"
    jsonl.write_text(as_jsonl(messages), "utf-8")
    return {"text": text, "jsonl": jsonl}


@pytest.mark.parametrize("kind", ["text", "jsonl"])
def test_a_200_message_conversation_end_to_end(tmp_path: Path, chat, kind: str):
    vault = tmp_path / f"vault-{kind}"
    report = extract_json(vault, str(chat[kind]))
    counts = report["counts"]
    # The file's name and a digest of its messages: the same chat in either format, one id.
    assert report["conversation_id"].startswith("chat-") and not report["paused"]
    assert counts["create"] >= 15, counts
    assert counts["merge"] >= 4, counts
    assert counts["supersede"] >= 1, counts
    assert counts["skip"] >= 1, counts
    assert len(report["skipped_sentences"]) > 100  # questions, small talk, the assistant
    reasons = {s["reason"] for s in report["skipped_sentences"]}
    assert {"a question", "assistant message"} <= reasons
    assert any("secret" in r for r in reasons)

    stored = notes(vault)
    # Every learned note, and the reflections that came by themselves (a topic with 3+).
    learned = {path: data for path, data in stored.items() if not path.startswith("reflection/")}
    assert len(learned) == counts["create"] + counts["supersede"]
    assert all(SECRET.encode() not in data for data in stored.values())
    assert all(b"Tr0ub4dor" not in data for data in stored.values())
    assert any("saving up for a new bike" in o["text"] for o in report["outcomes"])
    superseded = [o for o in report["outcomes"] if o["action"] == "supersede"]
    assert [o["text"] for o in superseded] == ["Lives in Lisbon now."]
    lisbon = stored[superseded[0]["path"]].decode()
    assert 'replaced "Lives in Porto."' in lisbon
    assert b"status: superseded" in stored["identity/Lives in Porto.md"]

    hits = json.loads(tota("--vault", str(vault), "search", "Neovim", "--json").stdout)
    assert [h["path"] for h in hits] == ["preference/Prefers Neovim over VS Code.md"]
    neovim = stored["preference/Prefers Neovim over VS Code.md"].decode()
    assert "confirmations: 2" in neovim

    again = extract_json(vault, str(chat[kind]))
    assert {o["action"] for o in again["outcomes"]} == {"skip"}
    assert again["counts"]["skip"] == len(report["outcomes"])
    assert notes(vault) == stored


def test_the_transcript_and_the_jsonl_teach_the_same(tmp_path: Path, chat):
    from_text = extract_json(tmp_path / "a", str(chat["text"]))
    from_jsonl = extract_json(tmp_path / "b", str(chat["jsonl"]))
    assert from_text["counts"] == from_jsonl["counts"]
    assert from_text["outcomes"] == from_jsonl["outcomes"]
    assert set(notes(tmp_path / "a")) == set(notes(tmp_path / "b"))


def test_plain_output_summarises(tmp_path: Path, chat):
    result = tota("--vault", str(tmp_path / "v"), "extract", str(chat["text"]))
    assert result.exit_code == 0
    first = result.stdout.splitlines()[0]
    assert first.startswith("Stored from 200 messages: ")
    assert "superseded" in first and "merged" in first
    assert SECRET not in result.stdout


def test_a_sentence_left_out_is_counted_as_skipped(tmp_path: Path):
    # issue #11: a message whose only sentence was dropped read "0 skipped" with nothing stored
    chat = tmp_path / "chat.txt"
    chat.write_text("User: I love it every day.\nAssistant: Noted.\nUser: I live in Porto.\n")
    result = tota("--vault", str(tmp_path / "v"), "extract", str(chat))
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.endswith("1 created, 0 merged, 0 superseded, 0 kept over a contradiction, "
                          "1 skipped (1 sentence not proposed)"), first  # fmt: skip
    again = tota("--vault", str(tmp_path / "v"), "extract", str(chat))
    assert "0 created" in again.stdout and "2 skipped (1 sentence not proposed)" in again.stdout


def test_json_output_does_not_print_the_secret(tmp_path: Path, chat):
    result = tota("--vault", str(tmp_path / "v"), "extract", str(chat["text"]), "--json")
    assert SECRET not in result.stdout


def test_dry_run_writes_nothing(tmp_path: Path, chat):
    vault = tmp_path / "v"
    report = extract_json(vault, str(chat["text"]), "--dry-run")
    assert report["dry_run"] is True and report["counts"]["create"] > 0
    assert notes(vault) == {}
    plain = tota("--vault", str(vault), "extract", str(chat["text"]), "--dry-run")
    assert plain.stdout.startswith("Would store from 200 messages")
    assert notes(vault) == {}
    # A user-style review: the dry run of a mistyped --vault made a whole vault there.
    assert not vault.exists()


def test_dry_run_on_a_vault_with_memories_changes_no_byte(tmp_path: Path, chat):
    vault = tmp_path / "v"
    extract_json(vault, "-", input="User: I live in Porto.\n")
    before = notes(vault)
    report = extract_json(vault, str(chat["jsonl"]), "--dry-run")
    assert report["counts"]["create"] > 0
    assert notes(vault) == before


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_dry_run_of_a_folder_with_no_index_predicts_from_its_notes_and_writes_nothing(
    tmp_path: Path,
):
    # A user-style review: a dry run into an existing folder with no index (a vault cloned
    # from git, whose `.tota/` is ignored; an Obsidian folder; any folder) made
    # `.tota/index.db` in it.
    folder = tmp_path / "cloned"
    extract_json(folder, "-", input="User: I live in Porto.\n")
    shutil.rmtree(folder / ".tota")
    (folder / "readme.txt").write_text("not a note\n", encoding="utf-8")
    before = files_under(folder)
    report = extract_json(
        folder, "-", "--dry-run", "--conversation-id", "c2", input="User: I live in Porto.\n"
    )
    # The folder's own notes are read: a real run would merge into one, so the dry run says so.
    assert [o["action"] for o in report["outcomes"]] == ["merge"]
    assert files_under(folder) == before
    assert not (folder / ".tota").exists()
    # What was forgotten there is read too: a real run would not learn it again.
    forgotten = tmp_path / "forgot"
    first = extract_json(forgotten, "-", "--conversation-id", "c1", input="User: I'm a nurse.\n")
    assert tota("--vault", str(forgotten), "forget", first["outcomes"][0]["path"]).exit_code == 0
    shutil.rmtree(forgotten / ".tota")
    again = extract_json(
        forgotten, "-", "--dry-run", "--conversation-id", "c1", input="User: I'm a nurse.\n"
    )
    assert [o["action"] for o in again["outcomes"]] == ["skip"]
    assert not (forgotten / ".tota").exists()
    # ... through the links a real run follows (a code review: the copy ignored the setting).
    linked = tmp_path / "linked"
    extract_json(tmp_path / "elsewhere", "-", input="User: I live in Porto.\n")
    linked.mkdir()
    (linked / "tota.toml").write_text("[sync]\nfollow_external_links = true\n", "utf-8")
    (linked / "shared").symlink_to(tmp_path / "elsewhere" / "identity")
    report = extract_json(
        linked, "-", "--dry-run", "--conversation-id", "c3", input="User: I live in Porto.\n"
    )
    assert [o["action"] for o in report["outcomes"]] == ["merge"]
    assert not (linked / ".tota").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    report = extract_json(empty, "-", "--dry-run", input="User: I live in Porto.\n")
    assert [o["action"] for o in report["outcomes"]] == ["create"]
    assert list(empty.iterdir()) == []


def test_stdin_with_a_dash(tmp_path: Path):
    text = "User: I prefer tea over coffee.\nAssistant: Noted!\nUser: What time is it?\n"
    report = extract_json(tmp_path / "v", "-", input=text)
    cid = report["conversation_id"]
    assert cid.startswith("chat-")  # a hash of the text: two piped chats never collide
    assert [(o["action"], o["text"], o["source"]) for o in report["outcomes"]] == [
        ("create", "Prefers tea over coffee.", f"{cid}#1")
    ]


def test_stdin_with_a_conversation_id(tmp_path: Path):
    report = extract_json(
        tmp_path / "v", "-", "--conversation-id", "chat-42", input="User: I live in Porto.\n"
    )
    assert report["outcomes"][0]["source"] == "chat-42#1"


def test_two_different_conversations_on_stdin_are_both_learned(tmp_path: Path):
    vault = tmp_path / "v"
    extract_json(vault, "-", input="User: I live in Porto.\n")
    report = extract_json(vault, "-", input="User: I prefer tea over coffee.\n")
    assert [o["action"] for o in report["outcomes"]] == ["create"]


def test_format_json_reads_a_file_with_any_name(tmp_path: Path):
    data = tmp_path / "export.data"
    data.write_text(
        json.dumps({"messages": [
            {"role": "user", "content": "I'm allergic to peanuts.", "id": "m1"},
            {"role": "assistant", "content": "Got it."},
        ]}),
        "utf-8",
    )  # fmt: skip
    report = extract_json(tmp_path / "v", str(data), "--format", "json")
    [outcome] = report["outcomes"]
    assert outcome["action"] == "create"
    assert outcome["source"] == f"{report['conversation_id']}#m1"
    assert report["conversation_id"].startswith("chat-")


def test_format_jsonl_on_stdin(tmp_path: Path):
    lines = '{"role": "user", "content": "I work at Google."}\n'
    report = extract_json(tmp_path / "v", "-", "--format", "jsonl", input=lines)
    assert [o["text"] for o in report["outcomes"]] == ["Works at Google."]


def test_an_unknown_format_is_a_usage_error(tmp_path: Path, chat):
    result = tota("--vault", str(tmp_path / "v"), "extract", str(chat["text"]), "-f", "xml")
    assert result.exit_code == 2 and "'xml' is not one of" in result.stderr


def test_a_file_that_does_not_exist(tmp_path: Path):
    missing = tmp_path / "nope.txt"
    result = tota("--vault", str(tmp_path / "v"), "extract", str(missing))
    assert result.exit_code == 2
    assert str(missing) in result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "v").exists()


def test_a_file_that_does_not_exist_is_a_one_line_error(tmp_path: Path):
    missing = tmp_path / "nope.txt"
    result = tota("--vault", str(tmp_path / "v"), "extract", str(missing))
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("tota: error: ") and str(missing) in result.stderr


@pytest.mark.parametrize(
    ("name", "content", "position"),
    [
        ("broken.json", '[{"role": "user", "content": "I live in Porto."},\n {"role": "user" '
         '"content": "x"}]', "line 2 column 18"),
        ("broken.jsonl", '{"role": "user", "content": "I live in Porto."}\n{"role": "user"}\n'
         '{"role": "user", "content": \n', "line 3"),
        ("robot.json", '[{"role": "user", "content": "hi"}, {"role": "robot", "content": "x"}]',
         "message 2"),
    ],
    ids=["json", "jsonl", "bad role"],
)  # fmt: skip
def test_a_malformed_file_is_a_one_line_validation_error(tmp_path: Path, name, content, position):
    path = tmp_path / name
    path.write_text(content, "utf-8")
    result = tota("--vault", str(tmp_path / "v"), "extract", str(path))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"tota: error: {path}: ") and position in lines[0]
    assert notes(tmp_path / "v") == {}


def test_pause_and_resume_around_an_extract(tmp_path: Path, chat):
    vault = tmp_path / "v"
    paused = tota("--vault", str(vault), "pause")
    assert paused.exit_code == 0 and "paused" in paused.stdout.lower()
    report = extract_json(vault, str(chat["text"]))
    assert report["paused"] is True and report["outcomes"] == []
    assert set(report["counts"].values()) == {0}
    plain = tota("--vault", str(vault), "extract", str(chat["text"]))
    assert plain.exit_code == 0 and "paused" in plain.stdout and "tota resume" in plain.stdout
    assert notes(vault) == {}

    resumed = tota("--vault", str(vault), "resume")
    assert resumed.exit_code == 0 and "resumed" in resumed.stdout.lower()
    report = extract_json(vault, str(chat["text"]))
    assert report["paused"] is False and report["counts"]["create"] > 0
    assert notes(vault)


# --- output: a summary, -v, one JSON shape ---------------------------------------------------


def test_the_summary_lists_candidates_only_with_v(tmp_path: Path, chat):
    plain = tota("--vault", str(tmp_path / "v"), "extract", str(chat["text"]), "--dry-run")
    verbose = tota("--vault", str(tmp_path / "v"), "extract", str(chat["text"]), "--dry-run", "-v")
    assert "Prefers Neovim over VS Code." not in plain.stdout
    assert len(plain.stdout.splitlines()) <= 3, plain.stdout
    assert "  create    preference   Prefers Neovim over VS Code." in verbose.stdout
    assert verbose.stdout.splitlines()[0] == plain.stdout.splitlines()[0]


def test_json_has_one_shape_for_a_chat_and_an_export(tmp_path: Path, chat):
    one = json.loads(tota("--vault", str(tmp_path / "v"), "extract", str(chat["jsonl"]),
                          "--json", "--dry-run").stdout)  # fmt: skip
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([_chatgpt(1, "I live in Porto."), _chatgpt(2, "I like tea.")]))
    many = json.loads(tota("--vault", str(tmp_path / "v"), "extract", str(export),
                           "--json", "--dry-run").stdout)  # fmt: skip
    assert set(one) == set(many) == {
        "paused", "dry_run", "messages", "counts", "secrets", "notes", "reflections", "skipped_records",
        "conversations",
    }  # fmt: skip
    assert len(one["conversations"]) == 1 and len(many["conversations"]) == 2
    assert one["messages"] == 200 and many["messages"] == 2
    assert set(one["conversations"][0]) == set(many["conversations"][1])


def _chatgpt(n: int, text: str) -> dict:
    """A one-message ChatGPT export conversation."""
    return {
        "id": f"conv-{n}",
        "current_node": "m1",
        "mapping": {
            "m1": {"id": "m1", "parent": None, "message": {
                "id": "m1", "author": {"role": "user"},
                "content": {"content_type": "text", "parts": [text]},
                "create_time": 1700000000 + n,
            }},
        },
    }  # fmt: skip


def test_one_bad_conversation_of_an_export_is_skipped_and_reported(tmp_path: Path):
    export = tmp_path / "conversations.json"
    bad = {"id": "conv-bad", "mapping": []}  # a mapping must be an object
    export.write_text(
        json.dumps([_chatgpt(1, "I live in Porto."), bad, _chatgpt(3, "I like tea.")])
    )
    result = tota("--vault", str(tmp_path / "v"), "extract", str(export), "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert [c["conversation_id"] for c in report["conversations"]] == ["conv-1", "conv-3"]
    assert report["counts"]["create"] == 2
    [problem] = report["skipped_records"]
    assert problem.startswith(f"{export}: conversation 2 (conv-bad): mapping is a list")
    plain = tota("--vault", str(tmp_path / "w"), "extract", str(export))
    assert plain.exit_code == 0 and "conversation 2 (conv-bad)" in plain.stderr
    assert "Skipped 1 conversation(s)" in plain.stdout


def test_the_same_chat_under_another_file_name_is_the_same_conversation(tmp_path: Path, chat):
    vault = tmp_path / "v"
    first = extract_json(vault, str(chat["text"]))
    copy = tmp_path / "renamed copy.txt"
    copy.write_text(chat["text"].read_text("utf-8"), "utf-8")
    again = extract_json(vault, str(copy))
    assert again["conversation_id"] == first["conversation_id"]
    assert again["counts"]["create"] == again["counts"]["merge"] == 0


# --- a long transcript: streamed, and an interrupted run leaves its notes indexed -------------


def long_transcript(path: Path, messages: int) -> Path:
    """A transcript of `messages` turns, a new fact in every user turn (each one a note)."""
    start = datetime(2024, 1, 1, 8, 0)
    with path.open("w", encoding="utf-8") as out:
        for n in range(messages):
            when = start + timedelta(minutes=n)
            if n % 2:
                out.write(f"[{when:%Y-%m-%d %H:%M}] Assistant: Noted, number {n}.\n")
            else:
                out.write(f"[{when:%Y-%m-%d %H:%M}] User: I collect stamps from country {n}.\n")
    return path


def index_rows(vault: Path) -> dict[str, str]:
    """The index's notes as they are on disk in the index file (read directly: no sync)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{vault / '.tota' / 'index.db'}?mode=ro", uri=True)
    try:
        return dict(conn.execute("SELECT path, hash FROM notes"))
    finally:
        conn.close()


def disk_notes(vault: Path) -> dict[str, str]:
    import hashlib

    return {
        p.relative_to(vault).as_posix(): "sha256:" + hashlib.sha256(p.read_bytes()).hexdigest()
        for p in vault.rglob("*.md")
        if ".tota" not in p.parts
    }


@pytest.mark.slow
@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_an_interrupted_run_leaves_every_note_it_wrote_indexed(tmp_path: Path, signum: str):
    import os
    import signal
    import subprocess
    import sys
    import time

    chat = long_transcript(tmp_path / "long.txt", 20_000)
    vault = tmp_path / "v"
    process = subprocess.Popen(
        [sys.executable, "-m", "tota_vault.cli", "--vault", str(vault), "extract", str(chat)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy(),
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(vault.glob("*/*.md"))) < 150:
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    process.send_signal(getattr(signal, signum))
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "stopped after" in err and "Traceback" not in err, err
    written = disk_notes(vault)
    assert 150 <= len(written) < 10_000  # mid-run: some learned, not all
    assert index_rows(vault) == written  # every note it wrote is indexed, as written


@pytest.mark.slow
def test_a_run_killed_mid_step_is_not_learned_twice(tmp_path: Path):
    """A user review: `kill -9` of `tota extract` left notes its index rows never joined (253
    notes, 200 rows), and the same extract again learned their messages a second time (53
    "... 2.md" duplicates). The next run finds the killed run's marker and syncs first."""
    import os
    import signal
    import subprocess
    import sys
    import time

    chat = long_transcript(tmp_path / "long.txt", 20_000)
    vault = tmp_path / "v"
    command = [sys.executable, "-m", "tota_vault.cli", "--vault", str(vault), "extract", str(chat)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=os.environ.copy())  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(vault.glob("*/*.md"))) < 150:
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    assert list((vault / ".tota").glob("learning.*"))  # what the killed run left
    written = disk_notes(vault)
    again = subprocess.run([*command[:-2], "extract", "--json", str(chat)], capture_output=True,
                           text=True, timeout=600, env=os.environ.copy())  # fmt: skip
    assert again.returncode == 0, again.stderr
    notes = disk_notes(vault)
    stamps = [p for p in notes if not p.startswith("reflection/")]
    assert len(stamps) == 10_000  # each of the 10,000 stamps once: nothing learned twice
    assert set(written) <= set(notes) and index_rows(vault) == notes
    assert not list((vault / ".tota").glob("learning.*"))


def test_a_long_transcript_is_read_as_it_is_learned(tmp_path: Path, monkeypatch):
    """The reader is a stream: learning begins before the file has been read to its end."""
    from tota_vault.extract import formats

    monkeypatch.setattr(formats, "HEAD_CHARS", 200)
    chat = long_transcript(tmp_path / "long.txt", 600)
    reads: list[int] = []
    original = formats._lines

    def counted(head, stream):  # type: ignore[no-untyped-def]
        for n, line in enumerate(original(head, stream)):
            reads.append(n)
            yield line

    monkeypatch.setattr(formats, "_lines", counted)
    learned: list[int] = []
    from tota_vault.vault import Vault

    real = Vault.observe

    def watched(self, messages, **kwargs):  # type: ignore[no-untyped-def]
        def progress(done: int) -> None:
            learned.append(len(reads))
            kwargs["progress"](done)

        return real(self, messages, **{**kwargs, "progress": progress})

    monkeypatch.setattr(Vault, "observe", watched)
    report = extract_json(tmp_path / "v", str(chat))
    assert report["messages"] == 600 and report["counts"]["create"] == 300
    assert learned[0] < 300, learned  # the first step was learned with most lines unread


SMALL_TALK = [
    {"role": "user", "content": "hey"},
    {"role": "assistant", "content": "Hi! What can I do for you?"},
    {"role": "user", "content": "quick question"},
    {"role": "assistant", "content": "Sure"},
]


def test_two_chats_that_open_with_the_same_small_talk_are_two_conversations(tmp_path: Path):
    """A user-style review (2026-12-02): the id was a digest of the first three messages, so
    two chats opening "hey" / "Hi! What can I do for you?" / "quick question" were one
    conversation and the second's fact was skipped as already observed. The opening now runs
    on while it holds little text (`messages.take_opening`)."""
    vault = tmp_path / "v"
    first, second = tmp_path / "j1.json", tmp_path / "j2.json"
    first.write_text(
        json.dumps(
            [*SMALL_TALK, {"role": "user", "content": "I prefer aisle seats on long flights."}]
        ),
        "utf-8",
    )
    second.write_text(
        json.dumps(
            [*SMALL_TALK, {"role": "user", "content": "My son Leo is allergic to peanuts."}]
        ),
        "utf-8",
    )
    one, two = extract_json(vault, str(first)), extract_json(vault, str(second))
    assert one["conversation_id"] != two["conversation_id"]
    created = [o["text"] for o in two["outcomes"] if o["action"] == "create"]
    assert any("peanuts" in text for text in created), two["outcomes"]
    again = extract_json(vault, str(second))  # the same chat again: its id, nothing new
    assert again["conversation_id"] == two["conversation_id"]
    assert {o["action"] for o in again["outcomes"]} == {"skip"}


def test_a_conversation_with_a_full_opening_keeps_the_id_it_had(tmp_path: Path):
    """Three messages of 200 characters or more are the opening, as before: a vault learned
    with the earlier ids sees the same conversation under the same id."""
    from tota_vault.extract.messages import Message, fallback_conversation_id, take_opening

    long = [
        Message("user", f"{'I like long walks by the river. ' * 3}{n}", str(n)) for n in range(5)
    ]
    assert take_opening(long) == long[:3]
    assert fallback_conversation_id(long) == fallback_conversation_id(long[:3])
    short = [Message("user", "hi", str(n)) for n in range(20)]
    assert len(take_opening(short)) == 12  # a cap: a log of one-word lines keeps its id


@pytest.mark.parametrize("given", ["", "   "])
def test_an_empty_conversation_id_is_refused(tmp_path: Path, given: str):
    """A user review: `--conversation-id ""` was quietly ignored (the digest id was used),
    while "   " was refused."""
    from typer.testing import CliRunner

    from tota_vault.cli import app

    result = CliRunner().invoke(app, ["--vault", str(tmp_path / "v"), "extract", "-",
                                      "--conversation-id", given], input="User: I live in Porto.\n")  # fmt: skip
    assert result.exit_code == 2 and "the conversation id is empty" in result.output
    assert not list((tmp_path / "v").rglob("*.md"))
