"""Overview, recent memories and Clear All, through the library and the CLI twins."""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path

import pytest
from conftest import index_sql, write
from typer.testing import CliRunner

from tota_vault import Message, Vault, manage
from tota_vault.cli import app, for_terminal
from tota_vault.errors import NotAMemoryError, NotFoundError, ValidationError, WriteError
from tota_vault.forgotten import FORGOTTEN_FILE
from tota_vault.seal import SealState, seal_state

runner = CliRunner()


def test_overview_counts_and_profile(sample_dir: Path):
    with Vault.open(sample_dir) as vault:
        vault.sync()
        data = manage.overview(vault)
        assert data["memories"] == sum(data["by_type"].values()) >= 34
        assert set(data["by_evidence"]) <= {"direct", "inferred", "manual", "system"}
        assert data["learning"] == "on" and data["profile"]
        vault.pause()
        assert manage.overview(vault)["learning"] == "paused"


def _superseded_and_archived(root: Path) -> None:
    """A vault of three memories: one active, one superseded, one archived."""
    for cid, said in (("a", "I am vegetarian."), ("b", "I am no longer vegetarian.")):
        done = runner.invoke(
            app, ["--vault", str(root), "extract", "-", "--conversation-id", cid],
            input=f"User: {said}\n",
        )  # fmt: skip
        assert done.exit_code == 0, done.output
    for args in (["add", "goal", "Run a marathon."], ["archive", "Run a marathon"]):
        assert runner.invoke(app, ["--vault", str(root), *args]).exit_code == 0


def test_counts_say_active_and_count_superseded_and_archived_apart(vault_dir: Path):
    """The review's case: `28 memories ... goal 1` where that goal was superseded. Every
    view says how many are active; the keys that counted every memory keep doing so."""
    _superseded_and_archived(vault_dir)
    v = str(vault_dir)
    data = json.loads(runner.invoke(app, ["--vault", v, "overview", "--json"]).output)
    assert data["memories"] == 3 and sum(data["by_type"].values()) == 3  # as before
    assert data["active"] == 1
    assert data["by_status"] == {"active": 1, "superseded": 1, "archived": 1}
    assert data["by_type_status"] == {
        "decision": {"active": 1}, "goal": {"archived": 1}, "identity": {"superseded": 1},
    }  # fmt: skip
    text = runner.invoke(app, ["--vault", v, "overview"]).output.splitlines()
    assert text[0].startswith("3 memories in ") and text[0].endswith(
        ": 1 active, 1 superseded, 1 archived; learning is on"
    )
    assert "  goal          0 active, 1 archived" in text
    assert "  identity      0 active, 1 superseded" in text
    assert "  decision      1 active" in text
    status = runner.invoke(app, ["--vault", v, "status"]).output.splitlines()
    assert "memories: 3: 1 active, 1 superseded, 1 archived" in status
    assert "  active by type: decision 1" in status
    stats = json.loads(runner.invoke(app, ["--vault", v, "status", "--json"]).output)
    assert (stats["memories"], stats["active"]) == (3, 1)


def test_a_short_prefix_of_many_ids_is_called_ambiguous_and_named(vault_dir: Path):
    """The review's case: `tota forget 01M8` (the start of every id) said "no memory with id,
    path or title '01M8'". It says how many memories start with it and names a few."""
    v = str(vault_dir)
    for text in ("Likes jazz.", "Likes tea.", "Likes rain.", "Likes cats."):
        assert runner.invoke(app, ["--vault", v, "add", "preference", text]).exit_code == 0
    with Vault.open(vault_dir) as vault:
        ids = sorted(r.id for r in manage.recent(vault))
        short = vault.short_ids(ids)
    common = ids[0][:4]
    assert all(i.startswith(common) for i in ids)  # made in the same second
    for prefix in (common, ids[0][:6]):
        done = runner.invoke(app, ["--vault", v, "forget", prefix])
        assert done.exit_code == 1
        line = done.output.strip()
        assert line.startswith(f"tota: error: ambiguous: 4 memories start with {prefix!r}: ")
        assert f"{short[ids[0]]} (preference/" in line and line.endswith("give more of it")
        assert "and 1 more" in line and len(done.output.splitlines()) == 1
    assert "needs 6 characters" in runner.invoke(app, ["--vault", v, "forget", common]).output
    assert len(list((vault_dir / "preference").glob("*.md"))) == 4  # nothing was forgotten
    assert runner.invoke(app, ["--vault", v, "forget", short[ids[0]]]).exit_code == 0
    one = runner.invoke(app, ["--vault", v, "show", "ZZZZ"])  # the start of no id
    assert one.exit_code == 1 and "no memory with id, path or title 'ZZZZ'\n" in one.output


def test_forget_of_an_invalid_note_says_why_and_exits_1(vault_dir: Path):
    """The review's case: `tota forget preference/jazz.md` on a note whose confidence is
    'high' said `not a memory note`, exit 2. README: 1 is a refused operation."""
    v = str(vault_dir)
    assert runner.invoke(app, ["--vault", v, "add", "preference", "Likes jazz."]).exit_code == 0
    note = vault_dir / "preference" / "Likes jazz.md"
    text = note.read_text("utf-8").replace("confidence: 0.95", "confidence: high")
    note.write_text(text, "utf-8")
    done = runner.invoke(app, ["--vault", v, "forget", "preference/Likes jazz.md"])
    assert done.exit_code == 1
    assert done.output.startswith(
        "tota: error: preference/Likes jazz.md: not a memory note (confidence 'high'"
    )
    assert len(done.output.splitlines()) == 1 and note.read_text("utf-8") == text


#: Notes a person may have in a vault that are no memory: the bytes, and what doctor says.
NOT_TEXT = {
    "latin1.md": b"---\ntype: preference\n---\nLikes caf\xe9 au lait.\n",
    "binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x1b[31m",
}


@pytest.mark.parametrize("command", ["confirm", "archive", "forget"])
@pytest.mark.parametrize("name", sorted(NOT_TEXT))
def test_an_operation_on_a_note_that_is_no_text_is_one_line_and_exit_1(
    vault_dir: Path, command: str, name: str
):
    # A user review: `tota confirm` on a non-UTF-8 or binary note printed a traceback (and
    # MCP said only "Error executing tool confirm"); `archive` refused it with exit 2.
    note = vault_dir / "preference" / name
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_bytes(NOT_TEXT[name])
    done = runner.invoke(app, ["--vault", str(vault_dir), command, f"preference/{name}"])
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"tota: error: preference/{name}: not a memory note (")
    assert len(done.output.splitlines()) == 1 and note.read_bytes() == NOT_TEXT[name]


@pytest.mark.parametrize("command", ["confirm", "archive"])
def test_a_note_written_by_hand_a_moment_ago_is_read_before_it_is_refused(
    vault_dir: Path, command: str
):
    # A code review: confirm refused a valid note the index had not seen yet ("it is not
    # indexed"), and a note fixed by hand after a sync kept its old error.
    v = str(vault_dir)
    assert runner.invoke(app, ["--vault", v, "add", "preference", "Likes tea."]).exit_code == 0
    note = vault_dir / "preference" / "Likes green tea in the morning.md"
    note.write_text("---\ntype: preference\n---\nLikes green tea in the morning.\n", "utf-8")
    done = runner.invoke(
        app, ["--vault", v, command, "preference/Likes green tea in the morning.md"]
    )
    assert done.exit_code == 0, done.output


@pytest.mark.parametrize("name", sorted(NOT_TEXT))
def test_edit_refuses_a_note_that_is_no_text(vault: Vault, appender: Path, name: str):
    note = vault.root / "preference" / name
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_bytes(NOT_TEXT[name])
    with pytest.raises(NotAMemoryError, match="tota edit opens text notes only"):
        manage.edit_in_editor(vault, f"preference/{name}", editor=[str(appender)])
    assert note.read_bytes() == NOT_TEXT[name]


def test_editing_a_broken_note_says_it_is_still_broken(vault_dir: Path, appender: Path):
    note = vault_dir / "preference" / "broken.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("---\ntype: [preference\n---\nLikes tea.\n", "utf-8")
    done = runner.invoke(
        app, ["--vault", str(vault_dir), "edit", "preference/broken.md"],
        env={"VISUAL": "", "EDITOR": str(appender)},
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert done.output.startswith("Saved preference/broken.md; it is still not a valid memory:")


def test_show_of_a_binary_note_shows_no_bytes(vault_dir: Path):
    note = vault_dir / "preference" / "binary.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_bytes(NOT_TEXT["binary.md"])
    done = runner.invoke(app, ["--vault", str(vault_dir), "show", "preference/binary.md"])
    assert done.exit_code == 0
    assert done.output.splitlines()[-1] == "# not shown: binary content"
    assert "\x1b" not in done.output and "\x00" not in done.output


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain\n", "plain\n"),
        ("tab\there\n", "tab\there\n"),
        ("crlf\r\nline\r\n", "crlf\nline\n"),
        ("\x1b[31mred\x1b[0m\n", "\\x1b[31mred\\x1b[0m\n"),
        ("over\rwrite\n", "over\\x0dwrite\n"),
        ("c1\x9b2J\n", "c1\\x9b2J\n"),
    ],
)
def test_show_writes_terminal_controls_out_on_a_terminal(text: str, shown: str):
    assert for_terminal(text) == shown


@pytest.mark.parametrize(
    ("by_evidence", "line"),
    [
        ({}, "none"),
        ({"direct": 12}, "direct 12"),
        ({"direct": 2, "manual": 1}, "direct 2, manual 1"),
    ],
)
def test_evidence_counts(by_evidence, line):
    assert manage.evidence_counts(by_evidence) == line


def test_turn_counts():
    data = {"turns": 9, "conversations": 3, "turns_kept": "off"}
    assert manage.turn_counts(data) == "9 of 3 conversations (kept for recall to quote: off)"


def test_status_counts_and_type_counts():
    assert manage.status_counts({}) == "0 active"
    assert manage.status_counts({"archived": 2, "superseded": 0}) == "0 active, 2 archived"
    assert manage.type_counts({"goal": {"active": 2, "superseded": 1}}) == {
        "goal": "2 active, 1 superseded"
    }


def test_recent_lists_the_newest_first(vault: Vault):
    for day in (3, 1, 2):
        vault.remember("habit", f"Habit from day {day}.", when=datetime(2026, 11, day))
    assert [r.text for r in manage.recent(vault, limit=2)] == [
        "Habit from day 3.",
        "Habit from day 2.",
    ]


def test_clear_deletes_memories_only(vault: Vault):
    kept = {
        "README.md": "# My vault\nNot a memory.\n",
        "goal/Broken.md": "---\ntype: goal\nconfidence: [\n---\nBroken.\n",
        "attachments/photo.txt": "not markdown",
    }
    for rel, text in kept.items():
        write(vault.root, rel, text)
    stored = [vault.remember("goal", f"Goal number {i}.") for i in range(3)]
    hand = write(vault.root, "habit/Walks.md", "---\ntype: habit\n---\nWalks after lunch.\n")
    report = manage.clear(vault)
    assert sorted(report.deleted) == sorted([s.path for s in stored] + ["habit/Walks.md"])
    assert not hand.exists()
    for rel, text in kept.items():
        assert (vault.root / rel).read_text() == text
    assert vault.stats()["memories"] == 0
    assert report.kept == 2  # the README and the invalid note are still indexed
    assert vault.search("memory") and not vault.search("goal number")


def test_clear_that_cannot_delete_one_note_deletes_the_rest_and_says_so(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
):
    """A note that cannot be deleted after the folder check (it was writable a moment ago)
    stops nothing: the rest go, the index forgets them, and one line names the one left."""
    stored = [vault.remember("goal", f"Goal number {i}.") for i in range(3)]
    stuck = vault.root / stored[1].path
    unlink = os.unlink

    def refusing(path, *args, **kwargs):
        if Path(path) == stuck:
            raise PermissionError(13, "Permission denied")
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(manage.os, "unlink", refusing)
    with pytest.raises(WriteError, match="cannot delete; 0 more not deleted, 2 deleted") as info:
        manage.clear(vault)
    assert str(stuck) in str(info.value) and "Permission denied" in str(info.value)
    assert [p.exists() for p in (vault.root / s.path for s in stored)] == [False, True, False]
    monkeypatch.undo()
    assert [r.path for r in vault.search("goal number")] == [stored[1].path]


def test_cli_twins(sample_dir: Path):
    v = str(sample_dir)
    runner.invoke(app, ["--vault", v, "sync"])
    data = json.loads(runner.invoke(app, ["--vault", v, "overview", "--json"]).output)
    assert data["memories"] >= 34
    recent = json.loads(runner.invoke(app, ["--vault", v, "recent", "--json", "-n", "3"]).output)
    assert len(recent) == 3 and all("confidence" in r for r in recent)
    refused = runner.invoke(app, ["--vault", v, "clear"])
    assert refused.exit_code == 2 and "--yes" in refused.output
    assert len(list(sample_dir.rglob("*.md"))) >= 40
    done = json.loads(runner.invoke(app, ["--vault", v, "clear", "--yes", "--json"]).output)
    assert done["deleted"] >= 40
    assert not [p for p in sample_dir.rglob("*.md") if ".obsidian" not in p.parts]
    assert (sample_dir / ".gitignore").exists()


def test_memory_needs_a_terminal(vault_dir: Path):
    result = runner.invoke(app, ["--vault", str(vault_dir), "memory"])
    assert result.exit_code == 2 and "needs a terminal" in result.output


# --- one memory at a time -----------------------------------------------------------------


def _say(content: str, id: str) -> Message:
    return Message(role="user", content=content, id=id, timestamp=datetime(2026, 11, 2, 9, 0))


def _texts(vault: Vault) -> list[str]:
    return sorted(r["text"] for r in index_sql(vault).execute(
        "SELECT text FROM notes WHERE memory_id IS NOT NULL"
    ))  # fmt: skip


def test_a_forgotten_memory_is_not_learned_again_from_the_same_message(vault: Vault):
    chat = [_say("I prefer tea over coffee.", "1"), _say("My name is Ada.", "2")]
    created = vault.observe(chat, conversation_id="chat")
    assert created.count("create") == 2
    tea = next(o for o in created.outcomes if "tea" in o.text)
    vault.forget(tea.path)
    assert not (vault.root / tea.path).exists()
    assert "chat#1" in (vault.root / FORGOTTEN_FILE).read_text()
    again = vault.observe(chat, conversation_id="chat")
    assert again.count("create") == 0
    assert [o.reason for o in again.outcomes if "tea" in o.text] == [
        "a memory learned from this message was forgotten"
    ]
    assert not any("tea" in t for t in _texts(vault))
    # The tombstone is in the vault, not the index: a rebuilt index still knows it.
    vault.reindex()
    assert vault.observe(chat, conversation_id="chat").count("create") == 0
    # The same fact in a new message is a new statement: learned.
    later = vault.observe([*chat, _say("I prefer tea over coffee.", "3")], conversation_id="chat")
    assert later.count("create") == 1 and any("tea" in t for t in _texts(vault))


def test_the_tombstone_file_keeps_what_a_person_wrote_in_it(vault: Vault):
    path = vault.root / FORGOTTEN_FILE
    path.write_text("# my note: keep this\nold#7")  # no final newline
    a = vault.remember("goal", "Run a marathon.", sources=["c#1", "c#2"])
    vault.forget(a.memory.id)
    assert path.read_text() == "# my note: keep this\nold#7\nc#1\nc#2\n"
    assert vault.forgotten_sources() == {"old#7", "c#1", "c#2"}
    b = vault.remember("goal", "Learn Welsh.", sources=["c#2"])
    vault.forget(b.memory.id)  # nothing new: the file is not written again
    assert path.read_text().endswith("c#1\nc#2\n")


def test_clear_tombstones_the_messages_behind_every_memory(vault: Vault):
    chat = [_say("I prefer tea over coffee.", "1"), _say("My name is Ada.", "2")]
    vault.observe(chat, conversation_id="chat")
    manage.clear(vault)
    assert vault.forgotten_sources() >= {"chat#1", "chat#2"}
    assert vault.observe(chat, conversation_id="chat").count("create") == 0


@pytest.mark.parametrize("message_id", ["x\ny", "x\r\ny", "x\u2028y", "a#b"])
def test_a_forgotten_memory_stays_forgotten_whatever_its_message_id_holds(
    vault: Vault, message_id: str
):
    # A user review: a transcript's message id with a line break was written into
    # `.tota-forgotten` as two lines, and the forgotten memory was learned again.
    chat = [{"role": "user", "content": "I love rock music.", "id": message_id}]
    created = vault.observe(chat, conversation_id="c")
    assert created.count("create") == 1
    source = created.outcomes[0].source
    assert source.partition("#")[0] == "c" and len(source.splitlines()) == 1
    vault.forget(created.outcomes[0].path)
    assert vault.observe(chat, conversation_id="c").count("create") == 0


def test_forget_conversations_of_a_source_with_no_turn_removes_nothing(vault: Vault):
    # The one hook forget and clear call: a source no kept turn has ("chat#1" here; the turns
    # themselves are tests/test_turns.py's) leaves the index as it was.
    before = vault.open_index().counts()
    assert manage.forget_conversations(vault.index, ["chat#1"]) == 0
    assert vault.index.counts() == before


def _ids(vault: Vault, *ids: str) -> None:
    """Notes with these exact ids (ULIDs made in one second share their first characters)."""
    for i, memory_id in enumerate(ids):
        write(vault.root, f"goal/G{i}.md", f"---\nid: {memory_id}\ntype: goal\n---\nGoal {i}.\n")
    vault.sync()


def test_short_ids_are_the_shortest_unique_prefixes(vault: Vault):
    same_second = [
        "01JDX3M7Q9AAAAAAAAAAAAAAAA",
        "01JDX3M7Q9AAAAAAAAAAAAAAAB",
        "01JDX3M7Q9B000000000000000",
    ]
    _ids(vault, *same_second, "01KZZZZZZZZZZZZZZZZZZZZZZZ")
    short = vault.short_ids([*same_second, "01KZZZZZZZZZZZZZZZZZZZZZZZ", None])
    assert short == {
        same_second[0]: same_second[0],  # differs from its neighbour only in the last character
        same_second[1]: same_second[1],
        same_second[2]: "01JDX3M7Q9B",
        "01KZZZZZZZZZZZZZZZZZZZZZZZ": "01KZZZ",  # never shorter than 6
    }
    for memory_id, prefix in short.items():
        assert vault.resolve(prefix) == vault.resolve(memory_id)
        if len(prefix) > 6:  # one character less is ambiguous
            with pytest.raises(NotFoundError, match="more than one"):
                vault.resolve(prefix[:-1])


def test_archive_then_confirm_reactivates(vault: Vault):
    stored = vault.remember("preference", "Prefers green tea in the morning.")
    assert vault.archive(stored.memory.id[:10]) == stored.path
    text = (vault.root / stored.path).read_text()
    assert "status: archived" in text and seal_state(text) is SealState.SEALED
    assert not vault.recall("green tea")
    assert vault.archive(stored.path) == stored.path  # already archived: unchanged
    assert (vault.root / stored.path).read_text() == text
    vault.confirm(stored.memory.id)
    assert "status: active" in (vault.root / stored.path).read_text()
    assert vault.recall("green tea")
    write(vault.root, "Plain.md", "Just a note.\n")
    vault.sync()
    # One message for the three that act on memories only (it read "not a valid memory note").
    with pytest.raises(ValidationError, match="Plain.md: not a memory note"):
        vault.archive("Plain.md")


@pytest.fixture
def appender(tmp_path: Path) -> Path:
    """A fake editor: appends a line to the file it is given (a person's edit)."""
    script = tmp_path / "append-editor"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nopen(sys.argv[1], 'a').write('Also at night.\\n')\n"
    )
    script.chmod(0o755)
    return script


def test_edit_in_the_editor_records_a_hand_edit(vault: Vault, appender: Path, monkeypatch):
    stored = vault.remember("preference", "Prefers green tea.", confidence=0.7)
    monkeypatch.setenv("VISUAL", "")
    monkeypatch.setenv("EDITOR", str(appender))
    report = manage.edit_in_editor(vault, stored.memory.id[:12])
    assert report.changed and report.evidence == "manual" and report.error is None
    text = (vault.root / stored.path).read_text()
    assert "Also at night." in text and "evidence: manual" in text and "confidence: 0.95" in text
    assert seal_state(text) is SealState.SEALED  # sealed again: the next edit is seen too


def test_edit_unchanged_and_missing_editor(vault: Vault, tmp_path: Path):
    stored = vault.remember("preference", "Prefers green tea.")
    before = (vault.root / stored.path).read_bytes()
    report = manage.edit_in_editor(vault, stored.path, editor=["true"])
    assert not report.changed and (vault.root / stored.path).read_bytes() == before
    with pytest.raises(ValidationError, match="editor 'no-such-editor-x' not found"):
        manage.edit_in_editor(vault, stored.path, editor=["no-such-editor-x"])


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"VISUAL": "code --wait", "EDITOR": "nano"}, ["code", "--wait"]),
        ({"VISUAL": "  ", "EDITOR": "nano"}, ["nano"]),
        ({"EDITOR": "'/opt/my editor/ed' -n"}, ["/opt/my editor/ed", "-n"]),
        ({}, ["vi"]),
    ],
)
def test_editor_command(env: dict[str, str], expected: list[str]):
    assert manage.editor_command(env) == expected


def test_an_editor_command_that_does_not_split_is_one_line(monkeypatch: pytest.MonkeyPatch):
    with pytest.raises(ValidationError, match="\\$EDITOR 'vim \"' cannot be read as a command"):
        manage.editor_command({"EDITOR": 'vim "'})
    monkeypatch.setattr(manage.os, "name", "nt")  # Windows: quotes around a path with spaces
    assert manage.editor_command({"EDITOR": '"C:\\Program Files\\Code\\code.exe" --wait'}) == [
        "C:\\Program Files\\Code\\code.exe",
        "--wait",
    ]


def test_cli_shows_short_ids_and_acts_on_them(sample_dir: Path, appender: Path):
    v = str(sample_dir)
    runner.invoke(app, ["--vault", v, "sync"])
    recent = json.loads(runner.invoke(app, ["--vault", v, "recent", "--json", "-n", "5"]).output)
    full = [r["id"] for r in recent]
    assert all(len(i) == 26 for i in full)  # the full id in JSON
    with Vault.open(sample_dir) as vault:
        short = vault.short_ids(full)
    table = runner.invoke(app, ["--vault", v, "recent", "-n", "5"]).output
    assert all(short[i] in table for i in full) and full[0] not in table
    hits = runner.invoke(app, ["--vault", v, "search", "neovim", "-n", "1"]).output
    neovim = json.loads(runner.invoke(app, ["--vault", v, "search", "neovim", "--json"]).output)[0]
    with Vault.open(sample_dir) as vault:
        neovim_short = vault.short_ids([neovim["id"]])[neovim["id"]]
    assert f"{neovim_short}  preference/Prefers Neovim" in hits
    recalled = runner.invoke(app, ["--vault", v, "recall", "Which editor do I use?"]).output
    assert f"id {neovim_short})" in recalled

    edited = runner.invoke(
        app, ["--vault", v, "edit", neovim_short], env={"VISUAL": "", "EDITOR": str(appender)}
    )
    assert edited.exit_code == 0 and "evidence: manual" in edited.output
    unchanged = runner.invoke(app, ["--vault", v, "edit", neovim_short], env={"VISUAL": "true"})
    assert unchanged.output.startswith("Unchanged: preference/Prefers Neovim")
    archived = runner.invoke(app, ["--vault", v, "archive", neovim_short])
    assert archived.output == f"Archived {neovim['path']}\n"
    assert neovim_short not in runner.invoke(app, ["--vault", v, "recall", "Which editor?"]).output
    forgot = runner.invoke(app, ["--vault", v, "forget", neovim_short, "--json"])
    assert json.loads(forgot.output) == {"forgotten": neovim["path"]}
    again = runner.invoke(app, ["--vault", v, "forget", neovim_short])
    assert again.exit_code == 1 and "no memory with id" in again.output
    write(
        sample_dir, "goal/Twin A.md", "---\nid: 01JDX3M7Q9AAAAAAAAAAAAAAAA\ntype: goal\n---\nA.\n"
    )
    write(
        sample_dir, "goal/Twin B.md", "---\nid: 01JDX3M7Q9BAAAAAAAAAAAAAAA\ntype: goal\n---\nB.\n"
    )
    ambiguous = runner.invoke(app, ["--vault", v, "forget", "01JDX3M7Q9"])
    assert ambiguous.exit_code == 1 and "more than one memory" in ambiguous.output
    assert (sample_dir / "goal/Twin A.md").exists() and (sample_dir / "goal/Twin B.md").exists()
    assert runner.invoke(app, ["--vault", v, "forget", "01JDX3M7Q9B"]).exit_code == 0
    assert not (sample_dir / "goal/Twin B.md").exists()


def test_clear_refuses_while_another_process_learns(vault: Vault):
    """A user review: `tota clear --yes` during a long `tota extract` deleted what was there,
    and the extract went on writing: the vault ended with 1,107 memories, and the report
    called the new ones "other notes kept"."""
    import socket
    import subprocess
    import sys

    from tota_vault.errors import LearnerRunningError
    from tota_vault.manage import clear

    vault.remember("preference", "Likes tea.")
    learner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (vault.root / ".tota" / f"learning.{learner.pid}").write_text(socket.gethostname())
        with pytest.raises(LearnerRunningError, match=f"process {learner.pid}"):
            clear(vault)
        assert [h.path for h in vault.search("tea")]  # nothing deleted
    finally:
        learner.kill()
        learner.wait()
    assert clear(vault).deleted  # the learner is gone: its marker counts no more


def test_forget_and_clear_leave_a_memory_an_editor_holds(vault: Vault):
    """A code review: `tota forget` deleted a note open in vim, and vim's `:wq` wrote it back,
    the forgotten memory with it. Forget refuses it, and clear keeps it and says so."""
    import socket
    import subprocess
    import sys

    from conftest import vim_block0

    from tota_vault.errors import NoteHeldError
    from tota_vault.manage import clear

    held = vault.remember("habit", "Plays the cello every evening.")
    other = vault.remember("preference", "Likes oolong tea.")
    editor = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        path = vault.root / held.path
        (path.parent / f".{path.name}.swp").write_bytes(
            vim_block0(editor.pid, socket.gethostname())
        )
        with pytest.raises(NoteHeldError, match="held by an editor.*not forgotten"):
            vault.forget(held.path)
        report = clear(vault)
        assert report.held == [held.path] and report.deleted == [other.path]
        assert path.exists() and report.to_dict()["held"] == [held.path]
    finally:
        editor.kill()
        editor.wait()
    vault.forget(held.path)  # the editor closed
    assert not path.exists()
