"""The `tota` command through typer's CliRunner (and one real process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tota_vault import Vault
from tota_vault.cli import app

runner = CliRunner()
COMMANDS = [
    "init", "add", "show", "search", "sync", "reindex", "doctor", "path", "watch", "status",
    "extract", "pause", "resume", "recall", "confirm", "decay", "reflect", "memory", "overview",
    "recent", "clear", "setup", "git", "forget", "archive", "edit", "mcp", "hook",
]  # fmt: skip


def tota(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_h(command: str):
    result = tota(command, "-h")
    assert result.exit_code == 0
    assert "Usage" in result.output and len(result.output.splitlines()) > 3


def test_top_level_help_lists_every_command():
    result = tota("--help")
    for command in COMMANDS:
        assert command in result.output


def test_sync_search_show_doctor_on_the_sample(sample_dir: Path):
    v = str(sample_dir)
    result = tota("--vault", v, "sync", "--json")
    summary = json.loads(result.output)
    assert summary["added"] >= 34 and summary["invalid"] == 0
    hits = json.loads(tota("--vault", v, "search", "half-marathon", "--json").output)
    assert hits and all(h["snippet"] for h in hits)
    assert "**" in hits[0]["snippet"] or "marathon" in hits[0]["title"].lower()
    shown = tota("--vault", v, "show", hits[0]["id"])
    assert shown.exit_code == 0 and hits[0]["path"] in shown.output
    assert tota("--vault", v, "search", "C++").exit_code == 0
    doctor = tota("--vault", v, "doctor")
    assert doctor.exit_code == 0 and "All good" in doctor.output


def test_search_output_keeps_brackets(vault_dir: Path):
    """Note text with [brackets] must not be eaten as rich markup."""
    v = str(vault_dir)
    tota("--vault", v, "add", "habit", "Buy milk; [run] to the store [bold]now")
    result = tota("--vault", v, "search", "milk")
    assert "[run]" in result.output and "[bold]" in result.output


def test_add_and_search_json(vault_dir: Path):
    v = str(vault_dir)
    added = json.loads(tota("--vault", v, "add", "goal", "Learn Portuguese.", "--json").output)
    assert added["path"] == "goal/Learn Portuguese.md"
    hits = json.loads(tota("--vault", v, "search", "portuguese", "--json").output)
    assert hits[0]["id"] == added["id"] and hits[0]["evidence"] == "manual"


@pytest.mark.parametrize(
    ("args", "importance", "durability"),
    [
        (["constraint", "Allergic to peanuts."], 0.8, 0.9),  # the type's scores, as learned
        (["episode", "Ran a 10k in the rain."], 0.4, 0.5),
        (["habit", "Stretches after runs.", "--importance", "0.9"], 0.9, 0.7),  # asked for
    ],
)
def test_add_scores_a_memory_as_its_type_unless_told(vault_dir: Path, args, importance, durability):
    """From a user review: `tota add` gave every type importance 0.5 and durability 0.8 (a
    constraint 0.5 where learning gives 0.8), unlike MCP `remember`."""
    added = json.loads(tota("--vault", str(vault_dir), "add", *args, "--json").output)
    with Vault.open(vault_dir) as vault:
        vault.open_index()
        (row,) = vault.index.get(path=added["path"])
    assert (row.importance, row.durability) == (importance, durability)


def test_add_of_a_memory_already_there_is_refused_and_names_it(vault_dir: Path):
    """From a user review: the same `tota add` twice made "... 2.md" without a word."""
    v = str(vault_dir)
    added = json.loads(tota("--vault", v, "add", "habit", "Stretches after runs.", "--json").output)
    again = tota("--vault", v, "add", "habit", "stretches  after runs")
    assert again.exit_code == 1
    assert f"{added['path']} already says this; `tota confirm {added['id']}`" in again.output
    assert sorted(p.name for p in (vault_dir / "habit").glob("*.md")) == ["Stretches after runs.md"]
    other = tota("--vault", v, "add", "habit", "Stretches after long runs.")
    assert other.exit_code == 0  # another statement is another memory


def test_errors_are_one_line_with_exit_codes(vault_dir: Path):
    v = str(vault_dir)
    bad_type = tota("--vault", v, "add", "feeling", "Happy.")
    assert bad_type.exit_code == 2 and "tota: error: unknown type 'feeling'" in bad_type.output
    missing = tota("--vault", v, "show", "NOPE")
    assert missing.exit_code == 1 and "no memory with id" in missing.output
    raw = tota("--vault", v, "search", "a AND", "--raw")
    assert raw.exit_code == 1 and "cannot search" in raw.output
    nowhere = tota("--vault", str(vault_dir / "nope"), "search", "x")
    assert nowhere.exit_code == 1 and "tota init" in nowhere.output


def test_doctor_exits_1_and_names_the_bad_note(vault_dir: Path):
    (vault_dir / "goal/Broken.md").write_text("---\ntype: goal\nconfidence: [\n---\nx\n")
    v = str(vault_dir)
    tota("--vault", v, "sync")
    result = tota("--vault", v, "doctor")
    assert result.exit_code == 1
    assert "goal/Broken.md" in result.output and "invalid YAML" in result.output


def test_doctor_says_what_a_change_since_the_sync_made_of_a_note(vault_dir: Path):
    """A user-style review: after a `git pull` that conflicted, doctor said only "changed
    since it was indexed"; the conflict markers waited for a sync."""
    note = vault_dir / "goal/Sailing.md"
    note.write_text("---\ntype: goal\n---\nLearn to sail.\n")
    v = str(vault_dir)
    tota("--vault", v, "sync")
    note.write_text(
        "---\ntype: goal\n---\n<<<<<<< HEAD\nLearn to sail.\n=======\nSail to Oslo.\n"
        ">>>>>>> theirs\n"
    )
    result = tota("--vault", v, "doctor")
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if "goal/Sailing.md" in x)
    assert "changed since it was indexed, and is now invalid: unresolved git merge conflict" in line


def test_path_and_tota_vault_env(vault_dir: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TOTA_VAULT", str(vault_dir))
    assert tota("path").output.strip() == str(vault_dir)
    assert tota("path", "--index").output.strip() == str(vault_dir / ".tota" / "index.db")


def test_init_makes_the_layout(tmp_path: Path):
    result = tota("--vault", str(tmp_path / "v"), "init")
    assert result.exit_code == 0 and (tmp_path / "v" / "episode").is_dir()


def test_the_console_script_runs_as_a_process(sample_dir: Path):
    result = subprocess.run(
        [sys.executable, "-m", "tota_vault", "--vault", str(sample_dir), "search", "neovim"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Neovim" in result.stdout


@pytest.mark.parametrize(
    "command", [["overview"], ["recent"], ["search", "neovim"], ["recall", "editor"]]
)
def test_a_reader_that_goes_away_ends_the_command_quietly(sample_dir: Path, command: list[str]):
    """`tota overview | head -1` printed "tota: error: Broken pipe" and exited 1 (a user-style
    review). The pipe's read end is closed before tota starts, so every write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tota_vault", "--vault", str(sample_dir), *command],
            stdout=write, stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def test_decay_lists_and_prints_json_as_one_document(vault_dir: Path):
    """`tota decay --json` is written a memory at a time, and is the same bytes as one
    `json.dumps` of the whole listing (indent 2, non-ASCII kept)."""
    from datetime import datetime

    from tota_vault import Vault

    with Vault.open(vault_dir) as vault:
        for i in range(3):
            vault.remember("episode", f"Went to café {i} in Zürich.", durability=0.1,
                           when=datetime(2024, 1, i + 1), sources=[f"chat#{i}"])  # fmt: skip
        vault.remember("identity", "Lives in Porto.")
    v = str(vault_dir)
    listed = tota("--vault", v, "decay").output.splitlines()
    assert listed[0] == "Stale (archive with --apply): 3 memories under effective confidence 0.30"
    assert listed[1:] == [f"  0.00  episode/Went to café {i} in Zürich.md" for i in range(3)]
    out = tota("--vault", v, "decay", "--json", "--apply").output
    data = json.loads(out)
    assert out == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    assert data["applied"] is True and len(data["stale"]) == 3
    assert data["stale"][0]["sources"] == ["chat#0"] and data["stale"][0]["status"] == "active"
    none = tota("--vault", v, "decay", "--json").output
    assert none == '{\n  "applied": false,\n  "stale": []\n}\n'
    assert tota("--vault", v, "decay").output == "No memory has decayed under 0.30.\n"
