"""The sources the cap leaves out of notes (`.tota-sources/`, capped.py): still observed, still
forgotten, known again after a rebuilt index, and an export read twice changes nothing."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pytest
from conftest import index_sql
from typer.testing import CliRunner

from tota_vault import Vault, manage
from tota_vault.capped import CAPPED_DIR, add_capped, left_out, read_capped
from tota_vault.cli import app
from tota_vault.errors import InvalidNoteError
from tota_vault.extract.messages import Message
from tota_vault.forgotten import FORGOTTEN_FILE
from tota_vault.gitdriver import setup_git
from tota_vault.model import Memory, MemoryType
from tota_vault.notes import parse_note

FACT = "I prefer Neovim over VS Code."
runner = CliRunner()


def say(content: str = FACT, id: str = "1") -> list[Message]:
    return [Message(role="user", content=content, id=id, timestamp=datetime(2024, 3, 1, 9))]


def files(root: Path) -> dict[str, bytes]:
    """Every file of the vault but the index: what a second import must leave as it is."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".tota" not in p.relative_to(root).parts
    }


def confirmed_thirty(vault: Vault) -> str:
    """One fact confirmed in conv0..conv29: its note lists conv0-4 and conv10-29."""
    for i in range(30):
        vault.observe(say(), conversation_id=f"conv{i}")
    (path,) = [p.relative_to(vault.root).as_posix() for p in vault.root.rglob("*.md")]
    return path


def fields(vault: Vault, path: str) -> dict:
    return parse_note((vault.root / path).read_bytes(), path).fields


def test_the_cap_records_what_it_drops_and_those_messages_stay_observed(vault: Vault):
    path = confirmed_thirty(vault)
    memory_id = fields(vault, path)["id"]
    assert fields(vault, path)["sources_count"] == "30"
    assert "conv7#1" not in fields(vault, path)["sources"]
    assert read_capped(vault.root) == {memory_id: [f"conv{i}#1" for i in range(5, 10)]}
    before = files(vault.root)
    again = vault.observe(say(), conversation_id="conv7")
    assert [o.action for o in again.outcomes] == ["skip"]
    assert again.outcomes[0].reason == "this message was already observed"
    assert files(vault.root) == before  # confirmations stay 30
    assert fields(vault, path)["confirmations"] == "30"


@pytest.mark.parametrize("rebuild", ["reindex", "delete .tota"])
def test_a_rebuilt_index_still_knows_the_capped_out_sources(vault_dir: Path, rebuild: str):
    with Vault.open(vault_dir) as vault:
        confirmed_thirty(vault)
        before = files(vault_dir)
        if rebuild == "reindex":
            vault.reindex()
    if rebuild == "delete .tota":
        shutil.rmtree(vault_dir / ".tota")  # a fresh clone has no index either
    with Vault.open(vault_dir) as vault:
        for i in range(30):
            assert vault.observe(say(), conversation_id=f"conv{i}").count("skip") == 1
    assert files(vault_dir) == before


def test_the_index_row_of_a_capped_note_is_the_row_a_parse_gives(vault: Vault):
    """`update_row` (no re-parse on a confirmation) agrees with a rebuilt index, also on the
    sources the cap took out of the list and on `sources_count`."""
    confirmed_thirty(vault)

    def rows() -> list[dict]:
        cursor = index_sql(vault).execute("SELECT * FROM notes ORDER BY path")
        return [{k: r[k] for k in r.keys() if k != "id"} for r in cursor]  # noqa: SIM118

    before = rows()
    assert before[0]["sources_count"] == 30 and "conv7#1" not in before[0]["observed"]
    assert vault.index.observed("conv7#1") and not vault.index.observed("conv99#1")
    vault.reindex()
    assert rows() == before


def test_forgetting_a_capped_memory_tombstones_every_source(vault: Vault):
    path = confirmed_thirty(vault)
    vault.forget(path)
    tombstones = set((vault.root / FORGOTTEN_FILE).read_text("utf-8").splitlines())
    assert {f"conv{i}#1" for i in range(30)} <= tombstones
    again = vault.observe(say(), conversation_id="conv7")
    assert [o.reason for o in again.outcomes] == [
        "a memory learned from this message was forgotten"
    ]
    assert not list(vault.root.rglob("*.md"))
    vault.reindex()
    assert vault.observe(say(), conversation_id="conv8").count("create") == 0


def test_clear_tombstones_the_capped_out_sources_too(vault: Vault):
    confirmed_thirty(vault)
    manage.clear(vault)
    assert {f"conv{i}#1" for i in range(5, 10)} <= vault.forgotten_sources()
    assert vault.observe(say(), conversation_id="conv6").count("create") == 0


def test_lines_that_arrive_by_a_pull_are_read_and_a_deleted_line_is_learnable_again(
    vault: Vault,
):
    path = confirmed_thirty(vault)
    memory_id = fields(vault, path)["id"]
    capped = vault.root / CAPPED_DIR / memory_id
    # Another device confirmed the fact in conv50 and capped it out; the pull brings the line
    # (git replaces the file: a new inode, so the folder changes).
    pulled = capped.with_name("pulled")
    pulled.write_text(capped.read_text("utf-8") + "conv50#1\n", "utf-8")
    pulled.replace(capped)
    assert vault.observe(say(), conversation_id="conv50").count("skip") == 1
    # A person deletes a line in place: a full sync sees it; tota may learn from that message
    # again (a confirmation).
    capped.write_text(capped.read_text("utf-8").replace("conv6#1\n", ""), "utf-8")
    vault.sync()
    assert vault.observe(say(), conversation_id="conv6").count("merge") == 1
    assert fields(vault, path)["sources_count"] == "31"


def test_a_capped_source_of_a_note_deleted_by_hand_is_not_observed(vault: Vault):
    path = confirmed_thirty(vault)
    (vault.root / path).unlink()
    vault.sync()
    assert not vault.index.observed("conv7#1")  # as for the sources the note listed
    assert vault.observe(say(), conversation_id="conv7").count("create") == 1


def test_a_damaged_sources_file_is_named_by_sync_and_its_other_lines_still_count(vault: Vault):
    path = confirmed_thirty(vault)
    memory_id = fields(vault, path)["id"]
    (vault.root / CAPPED_DIR / "not-a-memory.txt").write_text("x\n")  # not an id: ignored
    capped = vault.root / CAPPED_DIR / memory_id
    capped.write_bytes(capped.read_bytes() + b"\xff\xfe\n")
    report = vault.sync()
    ((name, reason),) = report.unreadable
    assert name == f"{CAPPED_DIR}/{memory_id}"
    assert reason.startswith("not UTF-8 text (byte at offset")
    with pytest.raises(InvalidNoteError, match=r"\.tota-sources.*not UTF-8"):
        vault.observe(say(), conversation_id="conv7")  # learning waits for a readable file
    assert (vault.root / path).exists()


def chatgpt_export(conversations: int) -> list[dict]:
    """`conversations` ChatGPT conversations, each stating the same two facts."""
    out = []
    for n in range(conversations):
        said = ["I prefer green tea over coffee.", "I usually go for a run every morning."]
        ids = ["root", *(f"c{n}m{i}" for i in range(len(said)))]
        mapping = {"root": {"id": "root", "message": None, "parent": None, "children": [ids[1]]}}
        for i, text in enumerate(said, start=1):
            mapping[ids[i]] = {
                "id": ids[i],
                "message": {
                    "id": ids[i],
                    "author": {"role": "user", "name": None, "metadata": {}},
                    "create_time": 1_700_000_000 + n * 3600 + i,
                    "content": {"content_type": "text", "parts": [text]},
                    "status": "finished_successfully",
                    "metadata": {},
                    "recipient": "all",
                },
                "parent": ids[i - 1],
                "children": [ids[i + 1]] if i + 1 < len(ids) else [],
            }
        out.append({"title": f"Chat {n}", "create_time": 1_700_000_000 + n * 3600,
                    "mapping": mapping, "current_node": ids[-1], "id": f"conv-{n:03}",
                    "conversation_id": f"conv-{n:03}"})  # fmt: skip
    return out


def extract(vault: Path, export: Path) -> dict:
    result = runner.invoke(app, ["--vault", str(vault), "extract", str(export), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_an_export_imported_twice_changes_nothing_the_second_time(tmp_path: Path):
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(chatgpt_export(60)), "utf-8")
    vault = tmp_path / "v"
    first = extract(vault, export)
    assert first["counts"]["create"] == 2 and first["counts"]["merge"] == 118
    notes = [p for p in files(vault) if p.endswith(".md")]
    assert len(notes) == 2
    for rel in notes:
        note = parse_note((vault / rel).read_bytes(), rel)
        assert note.fields["confirmations"] == note.fields["sources_count"] == "60"
        assert len(note.fields["sources"]) == 25
    before = files(vault)
    assert sorted(map(len, read_capped(vault).values())) == [35, 35]

    second = extract(vault, export)
    assert second["counts"] == {**second["counts"], "create": 0, "merge": 0, "skip": 120}
    assert files(vault) == before

    shutil.rmtree(vault / ".tota")  # a fresh clone of the vault: no index yet
    third = extract(vault, export)
    assert third["counts"]["skip"] == 120 and files(vault) == before


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_setup_unites_the_sources_file_line_by_line(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    setup_git(repo)
    assert (
        ".tota-sources/* merge=union" in (repo / ".gitattributes").read_text("utf-8").splitlines()
    )


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_sources_a_git_merge_caps_out_stay_observed_on_both_devices(tmp_path: Path, git_env: Path):
    laptop, desktop, remote = tmp_path / "laptop", tmp_path / "desktop", tmp_path / "remote.git"
    Vault(laptop).init(git=True)
    with Vault.open(laptop) as vault:
        path = confirmed_thirty(vault)
    git(laptop, "add", "-A")
    git(laptop, "commit", "-qm", "thirty")
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(laptop, "remote", "add", "origin", str(remote))
    git(laptop, "push", "-q", "-u", "origin", "HEAD")
    git(tmp_path, "clone", "-q", str(remote), str(desktop))
    setup_git(desktop)
    # Each device confirms once more: each caps conv10 out (and records it) ...
    for root, conversation in ((laptop, "conv30"), (desktop, "conv31")):
        with Vault.open(root) as vault:
            assert vault.observe(say(), conversation_id=conversation).count("merge") == 1
        git(root, "add", "-A")
        git(root, "commit", "-qm", conversation)
    git(laptop, "push", "-q")
    # ... and the merge unites the lists and caps them again, leaving conv11 out too, which
    # neither device recorded: the sync after the pull does, from the list it had indexed.
    git(desktop, "pull", "-q", "--no-rebase")
    merged = parse_note((desktop / path).read_bytes(), path).fields
    assert merged["sources_count"] == "32" and "conv11#1" not in merged["sources"]
    for root in (desktop, laptop):
        if root is laptop:
            git(desktop, "push", "-q")
            git(laptop, "pull", "-q", "--no-rebase")
        with Vault.open(root) as vault:
            vault.sync()
            before = files(root)
            for i in range(32):
                assert vault.observe(say(), conversation_id=f"conv{i}").count("skip") == 1, i
            assert files(root) == before
        (listed,) = read_capped(root).values()
        assert sorted(listed) == sorted(f"conv{i}#1" for i in range(5, 12))


def test_a_memory_whose_id_cannot_name_a_file_keeps_every_source(vault: Vault):
    (vault.root / "preference").mkdir(exist_ok=True)
    (vault.root / "preference" / "Editor.md").write_text(
        "---\nid: my/editor\ntype: preference\nsources:\n  - conv0#1\n---\n"
        "Prefers Neovim over VS Code.\n",
        "utf-8",
    )
    vault.sync()
    for i in range(1, 30):
        assert vault.observe(say(), conversation_id=f"conv{i}").count("merge") == 1
    note = fields(vault, "preference/Editor.md")
    assert note["sources"] == [f"conv{i}#1" for i in range(30)] and "sources_count" not in note
    assert not (vault.root / CAPPED_DIR).exists()


@pytest.mark.parametrize(
    ("before", "listed", "count", "dropped"),
    [
        (["a", "b", "c"], ["a", "c"], None, []),  # not capped: a person shortened the list
        (["a", "b", "c"], ["a", "c", "d"], "40", ["b"]),  # capped: b left without tota's cap
        (["a", "b"], ["a", "b", "c"], "40", []),  # nothing left the list
        (["a", "b"], ["a"], "1", []),  # a count no larger than the list: not capped
    ],
)
def test_left_out(before: list[str], listed: list[str], count: str | None, dropped: list[str]):
    extra = {} if count is None else {"sources_count": count}
    memory = Memory("ID", MemoryType.PREFERENCE, "x", sources=tuple(listed), extra=extra)
    assert left_out(before, memory) == dropped


def test_a_source_deleted_by_hand_from_a_capped_list_stays_observed(vault: Vault):
    path = confirmed_thirty(vault)
    note = vault.root / path
    text = note.read_text("utf-8")
    note.write_text(text.replace("  - conv10#1\n", "").replace('  - "conv10#1"\n', ""), "utf-8")
    assert "conv10#1" not in fields(vault, path)["sources"]
    vault.sync()
    (listed,) = read_capped(vault.root).values()
    assert listed[-1] == "conv10#1"
    assert vault.observe(say(), conversation_id="conv10").count("skip") == 1


def test_an_append_to_a_file_the_index_has_not_read_yet_reads_it_whole(vault: Vault):
    path = confirmed_thirty(vault)
    memory_id = fields(vault, path)["id"]
    capped = vault.root / CAPPED_DIR / memory_id
    pulled = capped.with_name("pulled")
    pulled.write_text(capped.read_text("utf-8") + "conv60#1\n", "utf-8")
    pulled.replace(capped)  # a pull the index has not seen yet
    assert add_capped(vault.root, vault.index, memory_id, ["conv61#1"]) == ["conv61#1"]
    assert {"conv60#1", "conv61#1"} <= set(vault.index.capped_sources(memory_id))
    assert vault.index.observed("conv60#1")
